/* host_env.h: the machine a run measured on, recorded once a run (the
 * results' environment sidecar, runenv.h), so that a report can say what
 * differed between two labels besides what was asked: cores, governor,
 * turbo, kernel, virtualisation, transparent huge pages, the load.
 *
 * Read from /proc and /sys under a root directory ("" is the machine
 * itself; a test passes a fake tree), so every reader runs on fixture
 * files.  What cannot be read is "" (unknown), never an error: a field
 * missing on another system, in a container or under a fake tree is only
 * unknown. */
#ifndef RS_HOST_ENV_H
#define RS_HOST_ENV_H

#include <stddef.h>

#define HOST_ENV_STR 128

struct host_env {
	char cpu_model[HOST_ENV_STR]; /* "Intel(R) Xeon(R) ...", /proc/cpuinfo's model name */
	char cores[24];           /* CPUs online, counted from cpu/online: "8" */
	char cpus[HOST_ENV_STR];  /* the CPUs this process may run on: "0-7" */
	/* The frequency governor of the online CPUs ("performance"; several,
	 * "powersave/performance", when they differ), and the driver
	 * ("intel_pstate", "acpi-cpufreq"). */
	char governor[64];
	char driver[64];
	char turbo[8];            /* "on", "off" (intel_pstate/no_turbo, cpufreq/boost) */
	char kernel[HOST_ENV_STR];/* "Linux 6.1.0-18-amd64 x86_64" */
	/* "none" (bare metal), a hypervisor or container ("kvm", "xen",
	 * "docker"), or "vm" when only the CPU's hypervisor flag tells. */
	char virt[32];
	char thp[16];             /* transparent huge pages: "always", "madvise", "never" */
	char load[48];            /* the load averages, "0.52 0.40 0.31" */
};

/* Read e under root ("" the machine itself: then also uname(2), the CPUs
 * this process may use from the system, and systemd-detect-virt when it
 * is installed).  Never fails. */
void host_env_read(const char *root, struct host_env *e);

/* The load averages, "0.52 0.40 0.31", from root's /proc/loadavg into buf
 * (size bytes); "" when unreadable.  Returns buf. */
const char *host_env_load(const char *root, char *buf, size_t size);

/* The CPUs process pid may run on (0: this process), as a CPU list
 * ("0-3"), from root's /proc/PID/status (Cpus_allowed_list) into buf;
 * "" when unreadable.  Returns buf. */
const char *host_env_proc_cpus(const char *root, long pid, char *buf, size_t size);

/* Process pid's command name (root's /proc/PID/comm, "redis-server") into
 * buf; "" when unreadable.  Returns buf. */
const char *host_env_proc_comm(const char *root, long pid, char *buf, size_t size);

/* The count of CPUs in a CPU list ("0-3,8" is 5); -1 for text that is not
 * one. */
long host_env_count_cpus(const char *list);

#endif
