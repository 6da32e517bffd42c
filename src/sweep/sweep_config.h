/* sweep_config.h: what a sweep is told (struct sweep_config) and how it
 * ends (enum sweep_status): the types the sweep's files and its callers
 * share, apart from the functions of sweep.h, so that the files below
 * sweep.c (sweep_server.c, sweep_cluster.c, sweep_row.c) need nothing of
 * sweep.c's. */
#ifndef RS_SWEEP_CONFIG_H
#define RS_SWEEP_CONFIG_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "base/depths.h"
#include "engine/engine.h"
#include "sweep/guard.h"
#include "results/row.h"
#include "net/target.h"
#include "sweep/slo.h"

/* The order points run in (sweep_plan_build's shuffled). */
enum sweep_order { SWEEP_ORDER_SEQUENTIAL, SWEEP_ORDER_SHUFFLED };
static const char *const sweep_order_names[] = { "sequential", "shuffled", NULL };

/* Where read tests go (--read-from): the primary (a cluster's masters),
 * its replicas, or both. */
enum sweep_read_from { SWEEP_READ_MASTERS, SWEEP_READ_REPLICAS, SWEEP_READ_ALL };
static const char *const sweep_read_from_names[] = { "masters", "replicas", "all", NULL };

enum sweep_status {
	SWEEP_OK,
	SWEEP_FAILED,             /* server or I/O failure; err says which point */
	SWEEP_REFUSED,            /* the safety guard refused: keys rsweep did not write */
	SWEEP_INTERRUPTED,
	SWEEP_ERROR_REPLIES,      /* finished, but error replies make the run fail */
};

/* The settings a run can sweep besides depth. */
enum sweep_axis {
	SWEEP_AXIS_CLIENTS = 1 << 0,
	SWEEP_AXIS_DATA_SIZE = 1 << 1,
	SWEEP_AXIS_THREADS = 1 << 2,
	SWEEP_AXIS_SERVER_ARGS = 1 << 3,
};

struct sweep_config {
	const char *label;
	const struct target *target;
	int spawned;              /* the server is ours: no guard needed */
	/* --cluster: target is one node of a cluster; the sweep reads its
	 * topology and guards, flushes, prepares and reads each master as a
	 * server of its own, the load on all masters at once. */
	int cluster;
	/* --replica, --spawn-replicas: the target's replicas, nreplicas of
	 * them (the caller's, reachable when the sweep opens), and where read
	 * tests go (sweep_replicas.c).  0: none, every test on the target. */
	const struct target *replicas;
	size_t nreplicas;
	enum sweep_read_from read_from;
	enum guard_flush flush;
	int force_flush;
	/* --key-prefix: every key of the workload (workload_select_prefix)
	 * starts with it; the guard deletes only those (guard.h).  NULL:
	 * FLUSHALL or FLUSHDB, as flush says. */
	const char *key_prefix;
	/* It is the one the file --resume continues records (guard.h). */
	int key_prefix_resumed;
	unsigned clients, threads;
	/* The settings this run sweeps as axes (axis.h), as --resume and
	 * --precision find a target's rows: bits of enum sweep_axis. */
	unsigned axes;
	/* A spawned server's arguments (--spawn-args, its choice of the
	 * alternatives), for the rows' server_args; NULL for none.  Whether
	 * they are an axis is axes' SWEEP_AXIS_SERVER_ARGS. */
	const char *server_args;
	/* Where the server and the load generator were placed (cpus.h), for
	 * the rows' server_cpus and client_cpus; NULL: unknown. */
	const char *server_cpus, *client_cpus;
	enum engine_mode mode;    /* closed loop; a point with a rate uses the window */
	enum engine_arrivals arrivals;
	uint64_t requests;
	double duration, warmup, pause, timeout;
	uint64_t keyspace, data_size, seed;
	/* --data-size-range: values of vmin..vmax bytes (data_size is vmax,
	 * what the tests are formatted and sized with); vmax 0: data_size. */
	uint64_t vmin, vmax;
	uint64_t expire;          /* --expire: for the rows (the tests carry it) */
	/* -t publish: its subscribers (>= 1), their channels (a divisor of
	 * them) and whether they PSUBSCRIBE (job_point's). */
	unsigned subscribers, channels;
	int psubscribe;
	uint64_t reconnect_every; /* --reconnect-every (engine_job); 0: none */
	int tls_resume;           /* --tls-resume (engine_job) */
	/* --key-dist: the sampler of the engine's jobs (NULL: uniform), and
	 * its name for the rows' key_dist ("" with fixed keys).  The caller's,
	 * shared by the targets' sweeps, which run one point at a time. */
	struct keydist *keydist;
	const char *key_dist;
	unsigned retries;
	int fail_on_error;
	int prepare;
	int verbose;              /* send what each step did to on_note */
	/* --precision: after the plan, measure again every point whose 95%
	 * interval is wider than precision (relative half-width, 0.03 for 3%),
	 * in rounds, up to max_repeats repeats a point and budget seconds of
	 * the whole sweep (0: no limit); precision.h says how.  prior: rows
	 * measured before (--resume), whose points of this label count too. */
	double precision, budget;
	unsigned max_repeats;
	/* --until-decided: instead of precision's rule, measure again the
	 * points whose comparison of the targets is undecided (decide.h), in
	 * rounds within max_repeats and budget.  The sweeps of
	 * sweep_points_all come decide_group at a time (a target's
	 * combinations of the swept axes): sweep k is compared with sweep
	 * k % decide_group, the first target's (0 is 1). */
	int until_decided;
	size_t decide_group;
	const struct depth_list *depths;
	const struct rs_rows *prior;
	/* --slo: search, at each test and depth, the highest open-loop rate
	 * that meets it (slo.h); the plan holds each depth's closed-loop
	 * start (rate 0, slo ROW_SLO_START) and the sweep appends the
	 * probes.  NULL: no search.  slo_probes: the open-loop probes a
	 * depth, at most (0: SLO_PROBES_DEFAULT). */
	const struct slo_objective *slo;
	unsigned slo_probes;
	/* --runs: the run these points belong to, 1..N (0 is 1): rows say
	 * it, and prior's rows of another run are another run's points. */
	unsigned run;
	volatile sig_atomic_t *stop;
	/* called after each point is stored (i is 1-based among points run) */
	void (*on_point)(void *ud, const struct rs_row *row, size_t i, size_t n);
	/* called with one-line notes worth a user's attention (retries, warnings) */
	void (*on_note)(void *ud, const char *msg);
	void *ud;
};

#endif
