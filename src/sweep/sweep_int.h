/* sweep_int.h: what sweep.c and sweep_cluster.c share: a sweep's servers
 * and its state.  Not for other rooms. */
#ifndef RS_SWEEP_INT_H
#define RS_SWEEP_INT_H

#include "net/cluster.h"
#include "sweep/guard.h"
#include "results/hist.h"
#include "os/host.h"
#include "sweep/load.h"
#include "base/log.h"
#include "sweep/sweep_config.h"
#include "sweep/sweep_plan.h"
#include "sweep/sweep_row.h"
#include "net/target_server.h"
#include "workload/workload.h"

/* Facts about the machines, for every row. */
struct sweep_env {
	char run_id[48];          /* changes when the server restarts, or is another one */
	char redis_version[32];
	struct target_server server; /* as it names itself */
	char server_arch[32];
	char server_os[ROW_STR];
	char client_cpu[ROW_STR];
};

/* A test's prepared data, kept as a DUMP payload after its first point:
 * RESTORE brings a 100,000-element set or sorted set back two to three
 * times faster than the commands that built it, a list thirty times
 * faster, and that time is outside every timed window. */
struct sweep_snap {
	char *payload;
	size_t len;
	int off;                  /* DUMP or RESTORE refused: prepare every time */
};

/* A server the sweep guards, flushes and prepares: the target, or one
 * master of its cluster. */
struct sweep_server {
	struct guard g;
	struct target t;          /* a master's address (--cluster) */
	struct sweep_snap *snaps; /* one a test */
	long clients0;            /* connected_clients before the load connected; -1 unknown */
	struct sweep *s;
	size_t idx;               /* which master (--cluster) */
	char tag[24];             /* its hash tag, "{N}" (--cluster) */
	int snap_said;            /* DUMP or RESTORE refused, and said so */
};

struct sweep {
	const struct sweep_config *cfg;
	const struct workload *w;
	/* A cluster's node given (its topology, and the facts): the guard
	 * never flushes through it, each master has a guard of its own.
	 * NULL: the target is srv[0], and the facts are read through it. */
	struct target_conn *seed;
	struct sweep_env env;     /* env.run_id: the server process the sweep reaches */
	struct sweep_server *srv;
	size_t nsrv;
	struct load *load;
	int shared;               /* another target reaches this server: flush after each point */
	unsigned unknown;         /* SWEEP_NO_CALLS, SWEEP_NO_CPU: what the servers never give */
	struct hist hist;         /* the last point's latency, for the CSV's sidecar */
	/* --cluster: the topology read through seed, each master's CPU around
	 * the last point, and the keys in scope the masters together may hold
	 * that are rsweep's: each master's own allow bounds one master, this
	 * the cluster (a reshard moves keys between masters, it does not
	 * multiply them).  UINT64_MAX until the first test is ready. */
	struct cluster_topo *topo;
	double *cpu0, *cpu1;
	uint64_t cl_allow;
	/* The tests (by index, modulo 64) whose unseen misses were noted. */
	uint64_t missed_noted;
	/* Replicas (sweep_replicas.c): cfg's (--replica, --spawn-replicas),
	 * or a cluster's, each master's first (--read-from replicas); the
	 * server each replicates (an index into srv); a control connection
	 * to each; the servers read tests load (cfg's replicas, for
	 * --read-from all the target first), that load (NULL: reads go to
	 * the target or the masters), whether the last point ran on it, each
	 * replica's counters around it, and the replication lag right after
	 * its window (-1 unknown). */
	struct target *rt;
	size_t *rprim;
	size_t nr;
	struct target_conn **rc;
	struct target *reads;
	size_t nreads;
	struct load *rload;
	int read_point;
	struct target_stats *rst0, *rst1;
	int64_t repl_lag;
};

/* What the engine measured and the server counted around one point. */
struct sweep_sample {
	struct engine_result res;
	/* Before and after: the command's calls, the server's CPU seconds,
	 * its keyspace hits and misses (summed over a cluster's masters). */
	struct target_stats st0, st1;
	struct host_sample h0, h1;
};

/* The INFO commandstats names of test t into list (size bytes): its
 * cmdstat, or for a mix its members' commands, each once, comma
 * separated, in the order of the members that first name them; each
 * member's place in that list into at[] (a mix's members may share a
 * command: LRANGE_100 and LRANGE_300 are both lrange).  Returns how many
 * names (sweep_row.c). */
size_t sweep_cmdstats(const struct workload_test *t, char *list, size_t size, unsigned *at);

/* Fill row from point p of test t's sample m (sweep_row.c). */
void sweep_row_fill(const struct sweep *s, const struct workload_test *t,
		    const struct sweep_point *p, const struct sweep_sample *m, struct rs_row *row);

/* Requests a point sends, when known (UINT64_MAX under --duration or
 * --warmup). */
uint64_t sweep_sent(const struct sweep_config *cfg);
/* Flush and prepare every server of s for test t, each through its own
 * guard (sweep_ready.c). */
enum guard_step sweep_ready_all(struct sweep *s, const struct workload_test *t,
				struct rs_err *err);
#define sweep_note(cfg, ...) rs_note_to((cfg)->on_note, (cfg)->ud, __VA_ARGS__)
#define sweep_debug(cfg, ...) do { if ((cfg)->verbose) sweep_note(cfg, __VA_ARGS__); } while (0)

/* ---- sweep_server.c ---- */

/* The guard's settings for a server of s at target t (master i of n; n 0:
 * not a cluster's). */
void sweep_guard_config(const struct sweep *s, const struct target *t, size_t i, size_t n,
			struct guard_config *gc);
/* Open server k's guard; SWEEP_OK, SWEEP_FAILED or SWEEP_REFUSED. */
enum sweep_status sweep_server_open(struct sweep *s, size_t k, struct rs_err *err);
/* A guard's verdict as the sweep's: a refusal of the process found there
 * (GUARD_FINAL) or of its keys is SWEEP_REFUSED. */
enum sweep_status sweep_guard_status(enum guard_step step);

/* Add st, one server's counters, into sum (calls, each member's, hits,
 * misses, CPU): a count one server does not give is unknown (-1) in the
 * sum (sweep.c). */
void sweep_stats_add(struct target_stats *sum, const struct target_stats *st);

/* ---- sweep_replicas.c ---- */

/* Connect to each replica of cfg and check that it replicates the target
 * (role, master_replid), waiting until its link is up; then the load of
 * read tests (--read-from).  SWEEP_OK at once without replicas; else
 * SWEEP_FAILED with err (RS_E_INPUT: not a replica of the target). */
enum sweep_status sweep_replicas_open(struct sweep *s, struct rs_err *err);
/* The load test t runs on: s->rload for a test that writes no key when
 * there is one, else s->load. */
struct load *sweep_replicas_load(const struct sweep *s, const struct workload_test *t);
/* Before a read point: wait until every replica's offset has reached the
 * target's, so that what was prepared is there to read (cfg->timeout, or
 * TARGET_DEFAULT_TIMEOUT).  0, or -1 (err). */
int sweep_replicas_catch_up(struct sweep *s, struct rs_err *err);
/* Each replica's counters for the commandstats names into sts[] (s->rst0
 * or s->rst1), and added into sum.  0, or -1 (err). */
int sweep_replicas_stats(struct sweep *s, const char *name, struct target_stats *sts,
			 struct target_stats *sum, struct rs_err *err);
/* After the window: the replication lag into s->repl_lag.  0, or -1. */
int sweep_replicas_lag(struct sweep *s, struct rs_err *err);
/* The replicas' columns: read_from, replica_calls, repl_lag. */
void sweep_replicas_row(const struct sweep *s, struct rs_row *row);
/* Connect again (after a failure).  0, or -1 (err). */
int sweep_replicas_reconnect(struct sweep *s, struct rs_err *err);
void sweep_replicas_free(struct sweep *s);

/* ---- sweep_cluster.c ---- */

/* --cluster: read the topology through s->seed and open a guarded server
 * per master: nothing is changed anywhere unless every master passes. */
enum sweep_status sweep_cluster_open(struct sweep *s, struct rs_err *err);
/* After a failure: read the topology again through a new seed connection.
 * Masters that are not those the sweep began with (added, gone, or a
 * failover) fail it: their guard never checked them. */
enum sweep_status sweep_cluster_reread(struct sweep *s, struct rs_err *err);
/* A master: of the preparation in *buf (ncmds commands), those whose keys
 * are on master srv; for a test of one key all of them, on the master's
 * own tagged key as the load uses it (cluster_load.h).  0 or -1. */
int sweep_cluster_prepare(const struct sweep *s, const struct sweep_server *srv,
			  const struct workload_test *t, char **buf, size_t *len, size_t *ncmds,
			  struct rs_err *err);
/* Before any master is flushed: the keys in scope on all the masters
 * together must be no more than rsweep's own can be (s->cl_allow; not
 * under --key-prefix, where the other keys are the server's own).
 * GUARD_OK, or how the step ends with err set. */
enum guard_step sweep_cluster_keys(struct sweep *s, struct rs_err *err);
/* A cluster's columns: redirects, masters, the busiest master, each
 * master's rate. */
void sweep_cluster_row(const struct sweep *s, const struct engine_result *res, struct rs_row *row);
void sweep_cluster_free(struct sweep *s);

#endif
