/* cause.h: the likely cause of an unstable point, from what its rows
 * recorded about the machine (host.h, series_noise).
 *
 * A point is unstable when its repeats disagree.  Each cause has a figure
 * and a threshold; the one named is the figure furthest past its
 * threshold (as a multiple of it), first among what took the CPU and can
 * be acted on: the cloud host took it (steal), other processes on this
 * machine kept CPUs busy, or the server's own threads did (a server that
 * used more than one CPU: its io-threads spin; the CPUs the machine's count
 * shows busy beyond rsweep's are then taken for the server's, not for other
 * processes), rsweep was preempted, rsweep itself was the bottleneck
 * (client-bound).  Only when none of those passes, the
 * symptoms: the server spent more CPU per request in one repeat than the
 * point's median (the point's, not the series': CPU per request falls with
 * depth as pipelining saves system calls), throughput drifted within one
 * window. */
#ifndef RS_CAUSE_H
#define RS_CAUSE_H

#include <stddef.h>

#include "analysis/series.h"

enum cause_kind {
	CAUSE_STEAL,          /* figure: % of the CPU the host took */
	CAUSE_OTHER_LOAD,     /* CPUs other processes kept busy */
	CAUSE_PREEMPTED,      /* rsweep's involuntary context switches a second */
	CAUSE_CLIENT_BOUND,   /* rsweep's CPU seconds a second, per thread */
	CAUSE_SERVER_THREADS, /* CPUs the server's own threads kept busy */
	CAUSE_SERVER_CPU,     /* % above the point's median server CPU per request */
	CAUSE_DRIFT,          /* % spread of throughput within a window */
	CAUSE_NONE,           /* figures known, none past its threshold */
	CAUSE_UNKNOWN,        /* nothing recorded (an imported file) */
};

/* The thresholds: a figure at or above one names its cause. */
#define CAUSE_STEAL_PCT 2.0
#define CAUSE_OTHER_CPUS 0.25
#define CAUSE_NIVCSW_RATE 50.0
#define CAUSE_CLIENT_CPU 0.9
#define CAUSE_SERVER_CPUS 1.25
#define CAUSE_SERVER_CPU_PCT 20.0
#define CAUSE_DRIFT_PCT 10.0

struct cause {
	enum cause_kind kind;
	double figure;        /* as the kind says; NAN for NONE and UNKNOWN */
};

/* The likely cause of point p's spread; threads is the run's thread count
 * (-1 or 0 when unknown: then client-bound is judged per process). */
void cause_of(const struct series_point *p, long threads, struct cause *out);

/* One word for files: "steal", "other-load", "preempted", "client-bound",
 * "server-threads", "server-cpu", "drift", "none", "unknown". */
const char *cause_name(enum cause_kind kind);

/* The cause in words, for a person: "the host took 9% of the CPU". */
void cause_format(const struct cause *c, char *buf, size_t size);

#endif
