/* host_env.c: the machine's facts for a run's environment (host_env.h),
 * read from /proc and /sys under a root directory. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/cpus.h"
#include "base/platform.h"
#include "os/host_env.h"

/* The first line of root/rel into buf, without its newline and trailing
 * blanks; "" when unreadable.  Returns buf. */
static char *host_env_line(const char *root, const char *rel, char *buf, size_t size)
{
	char path[4096];
	FILE *fp;
	size_t n;

	buf[0] = '\0';
	snprintf(path, sizeof path, "%s%s", root, rel);
	if ((fp = fopen(path, "r")) == NULL)
		return buf;
	if (fgets(buf, (int)size, fp) == NULL)
		buf[0] = '\0';
	fclose(fp);
	n = strlen(buf);
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return buf;
}

/* The value of the first line of root/rel that starts "key" and then
 * blanks and ':' ("model name\t: X" gives "X"), into buf; "" when none.
 * Returns whether the file could be read. */
static int host_env_keyed(const char *root, const char *rel, const char *key, char *buf,
			  size_t size)
{
	char path[4096], line[4096];
	size_t kl = strlen(key);
	FILE *fp;

	buf[0] = '\0';
	snprintf(path, sizeof path, "%s%s", root, rel);
	if ((fp = fopen(path, "r")) == NULL)
		return 0;
	while (fgets(line, sizeof line, fp) != NULL) {
		char *p = line + kl, *end;

		if (strncmp(line, key, kl) != 0)
			continue;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != ':')
			continue;
		for (p++; *p == ' ' || *p == '\t'; p++)
			;
		end = p + strlen(p);
		while (end > p && isspace((unsigned char)end[-1]))
			*--end = '\0';
		snprintf(buf, size, "%s", p);
		break;
	}
	fclose(fp);
	return 1;
}

long host_env_count_cpus(const char *list)
{
	struct cpus c;
	struct rs_err err;

	if (list == NULL || list[0] == '\0' || cpus_list_parse(list, strlen(list), &c, &err) < 0)
		return -1;
	return (long)cpus_count(&c);
}

const char *host_env_load(const char *root, char *buf, size_t size)
{
	char line[256], *p = line;
	int words = 0;

	host_env_line(root, "/proc/loadavg", line, sizeof line);
	/* The first three words: 1, 5 and 15 minutes. */
	for (; *p && words < 3; p++)
		if (*p == ' ' && ++words == 3)
			break;
	*p = '\0';
	snprintf(buf, size, "%s", line);
	return buf;
}

const char *host_env_proc_cpus(const char *root, long pid, char *buf, size_t size)
{
	char rel[64];

	buf[0] = '\0';
	if (root[0] == '\0') {
		struct cpus c;

		if (platform_cpus_get((pid_t)pid, c.w, CPUS_WORDS) == 0 && cpus_count(&c) > 0)
			return cpus_format(&c, buf, size);
	}
	if (pid > 0)
		snprintf(rel, sizeof rel, "/proc/%ld/status", pid);
	else
		snprintf(rel, sizeof rel, "/proc/self/status");
	host_env_keyed(root, rel, "Cpus_allowed_list", buf, size);
	return buf;
}

const char *host_env_proc_comm(const char *root, long pid, char *buf, size_t size)
{
	char rel[64];

	snprintf(rel, sizeof rel, "/proc/%ld/comm", pid);
	return host_env_line(root, rel, buf, size);
}

/* "always [madvise] never": the bracketed word. */
static void host_env_thp(const char *root, char *buf, size_t size)
{
	char line[256], *a, *b;

	buf[0] = '\0';
	host_env_line(root, "/sys/kernel/mm/transparent_hugepage/enabled", line, sizeof line);
	if ((a = strchr(line, '[')) != NULL && (b = strchr(a, ']')) != NULL)
		snprintf(buf, size, "%.*s", (int)(b - a - 1), a + 1);
}

/* Append word to the '/'-separated list in buf unless it is there. */
static void host_env_add_word(char *buf, size_t size, const char *word)
{
	size_t n = strlen(word), at = strlen(buf);

	if (word[0] == '\0')
		return;
	for (const char *p = buf; (p = strstr(p, word)) != NULL; p += n)
		if ((p == buf || p[-1] == '/') && (p[n] == '\0' || p[n] == '/'))
			return;
	snprintf(buf + at, size - at, "%s%s", at ? "/" : "", word);
}

/* The governors and drivers of the online CPUs, each once. */
static void host_env_cpufreq(const char *root, const char *online, struct host_env *e)
{
	struct cpus c;
	struct rs_err err;
	char rel[128], v[64];

	if (online[0] == '\0' || cpus_list_parse(online, strlen(online), &c, &err) < 0)
		return;
	for (unsigned i = 0; i < CPUS_MAX; i++) {
		if (!(c.w[i / 64] >> (i % 64) & 1))
			continue;
		snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpu%u/cpufreq/scaling_governor", i);
		host_env_add_word(e->governor, sizeof e->governor, host_env_line(root, rel, v,
										sizeof v));
		snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpu%u/cpufreq/scaling_driver", i);
		host_env_add_word(e->driver, sizeof e->driver, host_env_line(root, rel, v, sizeof v));
	}
}

/* Turbo (Intel) or boost (acpi-cpufreq, AMD): intel_pstate says whether
 * it is off, cpufreq/boost whether it is on. */
static void host_env_turbo(const char *root, char *buf, size_t size)
{
	char v[16];

	buf[0] = '\0';
	if (host_env_line(root, "/sys/devices/system/cpu/intel_pstate/no_turbo", v,
			  sizeof v)[0] != '\0')
		snprintf(buf, size, "%s", strcmp(v, "0") == 0 ? "on" : "off");
	else if (host_env_line(root, "/sys/devices/system/cpu/cpufreq/boost", v, sizeof v)[0] != '\0')
		snprintf(buf, size, "%s", strcmp(v, "0") == 0 ? "off" : "on");
}

/* systemd-detect-virt's word ("none", "kvm", "docker"), when it is
 * installed; "" when it is not or says nothing. */
static void host_env_detect_virt(char *buf, size_t size)
{
	FILE *fp = popen("systemd-detect-virt 2>/dev/null", "r");
	size_t n;

	buf[0] = '\0';
	if (fp == NULL)
		return;
	if (fgets(buf, (int)size, fp) == NULL)
		buf[0] = '\0';
	pclose(fp);
	n = strlen(buf);
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	/* A shell's "not found" goes to /dev/null; anything else odd is not a word. */
	for (char *p = buf; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
			buf[0] = '\0';
}

/* The virtualisation: systemd-detect-virt (the machine itself only), else
 * /sys/hypervisor/type, else the CPU's hypervisor flag (x86's flags line
 * without it is bare metal; no flags line at all, unknown). */
static void host_env_virt(const char *root, char *buf, size_t size)
{
	char flags[4096];

	if (root[0] == '\0')
		host_env_detect_virt(buf, size);
	if (buf[0] != '\0')
		return;
	if (host_env_line(root, "/sys/hypervisor/type", buf, size)[0] != '\0')
		return;
	host_env_keyed(root, "/proc/cpuinfo", "flags", flags, sizeof flags);
	if (flags[0] != '\0')
		snprintf(buf, size, "%s", strstr(flags, " hypervisor") != NULL ||
			 strncmp(flags, "hypervisor", 10) == 0 ? "vm" : "none");
}

void host_env_read(const char *root, struct host_env *e)
{
	char online[HOST_ENV_STR];
	long n;

	memset(e, 0, sizeof *e);
	host_env_keyed(root, "/proc/cpuinfo", "model name", e->cpu_model, sizeof e->cpu_model);
	if (e->cpu_model[0] == '\0' && root[0] == '\0')
		platform_cpu_model(e->cpu_model, sizeof e->cpu_model);
	host_env_line(root, "/sys/devices/system/cpu/online", online, sizeof online);
	if ((n = host_env_count_cpus(online)) > 0)
		snprintf(e->cores, sizeof e->cores, "%ld", n);
	else if (root[0] == '\0' && (n = sysconf(_SC_NPROCESSORS_ONLN)) > 0)
		snprintf(e->cores, sizeof e->cores, "%ld", n);
	host_env_proc_cpus(root, 0, e->cpus, sizeof e->cpus);
	host_env_cpufreq(root, online, e);
	host_env_turbo(root, e->turbo, sizeof e->turbo);
	if (root[0] == '\0') {
		struct utsname u;

		if (uname(&u) == 0)
			snprintf(e->kernel, sizeof e->kernel, "%.20s %.64s %.32s", u.sysname, u.release,
				 u.machine);
	} else {
		char os[32], rel[90];

		host_env_line(root, "/proc/sys/kernel/ostype", os, sizeof os);
		host_env_line(root, "/proc/sys/kernel/osrelease", rel, sizeof rel);
		snprintf(e->kernel, sizeof e->kernel, "%s%s%s", os, os[0] && rel[0] ? " " : "", rel);
	}
	host_env_virt(root, e->virt, sizeof e->virt);
	host_env_thp(root, e->thp, sizeof e->thp);
	host_env_load(root, e->load, sizeof e->load);
}
