/* platform.c: the system-specific calls (platform.h), one #if per system
 * where they differ.  Only Linux's are run by this project's CI; the
 * others are written to each system's documented interface. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <unistd.h>

#if defined(__linux__)
#include <sched.h>
#include <sys/prctl.h>
#include <sys/sysmacros.h>
#include <signal.h>
#elif defined(__APPLE__)
#include <mach-o/dyld.h>
#include <stdint.h>
#include <sys/sysctl.h>
#elif defined(__FreeBSD__)
#include <signal.h>
#include <sys/procctl.h>
#include <sys/sysctl.h>
#elif defined(__OpenBSD__) || defined(__NetBSD__)
#include <sys/param.h>
#include <sys/sysctl.h>
#endif

#include "base/platform.h"

/* ---- the CPU model ---- */

#if defined(__linux__)
/* x86: "model name"; some ARM kernels only give "Hardware". */
static void platform_cpu_sysname(char *buf, size_t size)
{
	FILE *fp = fopen("/proc/cpuinfo", "re");
	char line[512];

	while (fp != NULL && fgets(line, sizeof line, fp) != NULL) {
		if (strncmp(line, "model name", 10) == 0 || strncmp(line, "Hardware", 8) == 0) {
			char *v = strchr(line, ':');

			if (v != NULL) {
				v++;
				while (*v == ' ' || *v == '\t')
					v++;
				snprintf(buf, size, "%.*s", (int)strcspn(v, "\n"), v);
				break;
			}
		}
	}
	if (fp != NULL)
		fclose(fp);
}
#elif defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) || defined(__NetBSD__)
static void platform_cpu_sysname(char *buf, size_t size)
{
	size_t len = size;
#if defined(__APPLE__)
	/* Intel Macs and Apple silicon both give the brand string. */
	if (sysctlbyname("machdep.cpu.brand_string", buf, &len, NULL, 0) != 0)
		buf[0] = '\0';
#else
	int mib[2] = { CTL_HW, HW_MODEL };

	if (sysctl(mib, 2, buf, &len, NULL, 0) != 0)
		buf[0] = '\0';
#endif
	buf[size - 1] = '\0';
}
#else
static void platform_cpu_sysname(char *buf, size_t size)
{
	(void)buf;
	(void)size;
}
#endif

void platform_cpu_model(char *buf, size_t size)
{
	struct utsname u;

	if (size == 0)
		return;
	buf[0] = '\0';
	platform_cpu_sysname(buf, size);
	if (buf[0] == '\0' && uname(&u) == 0)
		snprintf(buf, size, "%s", u.machine);
	/* Commas are fine (CSV quotes them), but keep the field tidy. */
	for (char *p = buf; *p; p++)
		if (*p == '\t')
			*p = ' ';
}

/* ---- CPU ticks ---- */

int platform_cpu_ticks(uint64_t *steal, uint64_t *busy, uint64_t *total)
{
#if defined(__linux__)
	/* The machine-wide "cpu" line: user nice system idle iowait irq
	 * softirq steal (guest and guest_nice are already in user and nice). */
	unsigned long long v[8] = { 0 };
	FILE *fp = fopen("/proc/stat", "re");
	int n;

	if (fp == NULL)
		return -1;
	n = fscanf(fp, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]);
	fclose(fp);
	if (n < 4)
		return -1;
	*steal = n >= 8 ? v[7] : 0;
	*total = 0;
	for (int i = 0; i < n; i++)
		*total += v[i];
	*busy = *total - v[3] - v[4] - *steal;
	return 0;
#else
	(void)steal;
	(void)busy;
	(void)total;
	return -1;
#endif
}

/* ---- this process ---- */

int platform_rusage(double *cpu_s, int64_t *nivcsw)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return -1;
	*cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		 (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	/* Not in POSIX's struct rusage, but in every system's here. */
	*nivcsw = (int64_t)ru.ru_nivcsw;
	return 0;
}

int platform_exe_path(char *buf, size_t size)
{
#if defined(__linux__) || defined(__NetBSD__)
#if defined(__linux__)
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
#else
	ssize_t n = readlink("/proc/curproc/exe", buf, size - 1);
#endif

	if (n <= 0 || (size_t)n >= size - 1)
		return -1;
	buf[n] = '\0';
	return 0;
#elif defined(__APPLE__)
	uint32_t len = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;

	return _NSGetExecutablePath(buf, &len) == 0 ? 0 : -1;
#elif defined(__FreeBSD__)
	int mib[4] = { CTL_KERN, KERN_PROC, KERN_PROC_PATHNAME, -1 };
	size_t len = size;

	return sysctl(mib, 4, buf, &len, NULL, 0) == 0 && len > 0 ? 0 : -1;
#else
	(void)buf;
	(void)size;
	return -1;
#endif
}

long platform_lock_holder(int fd)
{
#if defined(__linux__)
	struct stat st;
	char line[256];
	long pid = 0;
	FILE *fp;

	if (fstat(fd, &st) < 0 || (fp = fopen("/proc/locks", "re")) == NULL)
		return 0;
	while (pid == 0 && fgets(line, sizeof line, fp) != NULL) {
		char kind[16];
		long p;
		unsigned maj, min;
		unsigned long long ino;

		/* "1: FLOCK  ADVISORY  WRITE 1234 fe:00:10952849 0 EOF"; a waiter's
		 * line reads "1: -> FLOCK ...", and is skipped by its kind. */
		if (sscanf(line, "%*u: %15s %*s %*s %ld %x:%x:%llu", kind, &p, &maj, &min, &ino) == 5 &&
		    strcmp(kind, "FLOCK") == 0 && maj == major(st.st_dev) && min == minor(st.st_dev) &&
		    ino == (unsigned long long)st.st_ino)
			pid = p;
	}
	fclose(fp);
	return pid;
#else
	(void)fd;
	return 0;
#endif
}

void platform_die_with_parent(void)
{
#if defined(__linux__)
	prctl(PR_SET_PDEATHSIG, SIGTERM);
#elif defined(__FreeBSD__) && defined(PROC_PDEATHSIG_CTL)
	int sig = SIGTERM;

	procctl(P_PID, 0, PROC_PDEATHSIG_CTL, &sig);
#endif
}

void platform_wipe(void *p, size_t len)
{
#if defined(__APPLE__)
	memset_s(p, len, 0, len);
#elif defined(__linux__) || defined(__FreeBSD__) || defined(__OpenBSD__) || defined(__NetBSD__)
	explicit_bzero(p, len);
#else
	/* Stores through a volatile pointer are not dropped. */
	volatile unsigned char *v = p;

	while (len--)
		*v++ = 0;
#endif
}

char *platform_realpath(const char *path)
{
	return realpath(path, NULL);
}

ssize_t platform_send_nowait(int fd, const void *buf, size_t len)
{
#if defined(MSG_NOSIGNAL)
	return send(fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL);
#else
	/* macOS has no MSG_NOSIGNAL: the socket's own option does it. */
	int one = 1;

	(void)setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
	return send(fd, buf, len, MSG_DONTWAIT);
#endif
}

#if defined(__linux__)
/* The bits of set, as many as fit both. */
static void platform_cpus_from(const cpu_set_t *set, uint64_t *bits, size_t nwords)
{
	memset(bits, 0, nwords * sizeof *bits);
	for (size_t i = 0; i < nwords * 64 && i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, set))
			bits[i / 64] |= (uint64_t)1 << (i % 64);
}
#endif

int platform_cpus_get(pid_t pid, uint64_t *bits, size_t nwords)
{
#if defined(__linux__)
	cpu_set_t set;

	CPU_ZERO(&set);
	if (sched_getaffinity(pid, sizeof set, &set) < 0)
		return -1;
	platform_cpus_from(&set, bits, nwords);
	return 0;
#else
	(void)pid;
	(void)bits;
	(void)nwords;
	return -1;
#endif
}

int platform_cpus_set(pid_t pid, const uint64_t *bits, size_t nwords)
{
#if defined(__linux__)
	cpu_set_t set;

	CPU_ZERO(&set);
	for (size_t i = 0; i < nwords * 64 && i < CPU_SETSIZE; i++)
		if (bits[i / 64] >> (i % 64) & 1)
			CPU_SET(i, &set);
	return sched_setaffinity(pid, sizeof set, &set);
#else
	(void)pid;
	(void)bits;
	(void)nwords;
	errno = ENOSYS;
	return -1;
#endif
}
