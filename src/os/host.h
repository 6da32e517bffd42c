/* host.h: what the machine rsweep runs on did around a timed window.
 *
 * A point is noisy when the host took the CPU away (steal time, on a VM),
 * when rsweep itself was preempted, or when throughput drifted within the
 * window; these figures go into every row so that the report can say which.
 * Read from getrusage and, on Linux, /proc/stat; what a system does not
 * give is unknown, never zero. */
#ifndef RS_HOST_H
#define RS_HOST_H

#include <stdint.h>

struct host_sample {
	double cpu_s;             /* rsweep's user + system CPU seconds */
	int64_t nivcsw;           /* rsweep's involuntary context switches */
	uint64_t steal, total;    /* the machine's CPU ticks: stolen, and all */
	uint64_t busy;            /* ticks not idle, not waiting, not stolen */
	int have_ticks;           /* steal, busy and total were read */
	double wall_s;            /* a monotonic clock, seconds */
};

/* Take a sample now.  Never fails: what cannot be read is marked so. */
void host_sample(struct host_sample *s);
/* Percent of the machine's CPU time stolen by the host between a and b;
 * NAN when unknown (no /proc/stat, no tick between them). */
double host_steal_pct(const struct host_sample *a, const struct host_sample *b);

/* CPUs kept busy, on average between a and b, by processes other than
 * rsweep and (when server_local) the server, whose CPU seconds over the
 * same window are server_cpu_s (NAN: unknown, and the figure is then
 * unknown for a local server).  /proc/stat counts in ticks of 10 ms, so
 * over a short window this is coarse: a result below zero (the ticks
 * rounded down) is 0, and a window too short to tell a quarter of a CPU
 * (fewer than 4 ncpu^2 ticks) is unknown.  NAN when unknown. */
double host_other_cpus(const struct host_sample *a, const struct host_sample *b,
		       double server_cpu_s, int server_local);

/* The spread of throughput across a window's slices: 100 * (max - min) /
 * mean of v[0..n); NAN when any slice is unknown or n < 2. */
double host_drift_pct(const double *v, unsigned n);

#endif
