/* platform.h: every call that differs between the systems rsweep builds
 * on (GNU/Linux, macOS, FreeBSD, OpenBSD, NetBSD).  No other room may use
 * a system-specific call: configure --enable-portability-check builds
 * them all with strict POSIX feature macros to hold them to it.
 *
 * What a system does not tell is unknown (-1, 0 or an empty string, as
 * each function says), never made up. */
#ifndef RS_PLATFORM_H
#define RS_PLATFORM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The client's CPU model into buf: /proc/cpuinfo on Linux, sysctl
 * machdep.cpu.brand_string (macOS) or hw.model (the BSDs); uname's machine
 * when those say nothing.  Never fails; buf may end up empty. */
void platform_cpu_model(char *buf, size_t size);

/* The machine's CPU time in ticks since boot: stolen by a hypervisor,
 * busy (neither idle, nor waiting for I/O, nor stolen), and all.  Returns
 * 0, or -1 where the system does not give them (only Linux's /proc/stat
 * does, here). */
int platform_cpu_ticks(uint64_t *steal, uint64_t *busy, uint64_t *total);

/* This process's user + system CPU seconds and involuntary context
 * switches.  Returns 0, or -1 when getrusage fails. */
int platform_rusage(double *cpu_s, int64_t *nivcsw);

/* The running binary's path into buf.  Returns 0, or -1 where the system
 * cannot tell (the path did not fit, or no way to ask). */
int platform_exe_path(char *buf, size_t size);

/* The pid of the process holding a flock on the file behind fd; 0 when it
 * cannot be told (only Linux's /proc/locks tells, and only for some file
 * systems). */
long platform_lock_holder(int fd);

/* In a child after fork(): ask for SIGTERM when the parent dies, even of
 * SIGKILL, where the system can (Linux, FreeBSD).  Elsewhere nothing: the
 * caller checks getppid() itself. */
void platform_die_with_parent(void);

/* Zero len bytes at p in a way the compiler cannot leave out (a
 * password's copy): explicit_bzero, or macOS's memset_s. */
void platform_wipe(void *p, size_t len);

/* realpath(path, NULL), which is X/Open, not POSIX base: the file path
 * names, links resolved, in memory the caller frees; NULL with errno set
 * when it cannot be resolved. */
char *platform_realpath(const char *path);

/* send() on fd without waiting and without SIGPIPE, whatever the
 * socket's mode: as send(2) returns, -1 with errno set. */
ssize_t platform_send_nowait(int fd, const void *buf, size_t len);

/* CPU sets for placement (cpus.h): CPU i is bit i % 64 of word i / 64
 * of nwords 64-bit words. */
/* The CPUs pid (0: this process's calling thread) may run on, its
 * affinity, into bits.  Returns 0, or -1 where the system cannot tell
 * (only Linux's sched_getaffinity does, here): "placement not
 * available". */
int platform_cpus_get(pid_t pid, uint64_t *bits, size_t nwords);
/* Restrict pid (0: the calling thread, and the threads it starts after)
 * to the CPUs in bits.  Returns 0, or -1 with errno set (ENOSYS where the
 * system cannot place a process, here all but Linux). */
int platform_cpus_set(pid_t pid, const uint64_t *bits, size_t nwords);

#endif
