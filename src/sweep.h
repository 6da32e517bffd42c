/* sweep.h: the loop over a plan (sweep_plan.h): guard (guard.h), flush,
 * prepare, warm up, measure with a load (load.h), append, resume, retry.
 *
 * The sweep neither draws nor prints: it hands every finished point to a
 * callback (progress and results live elsewhere). */
#ifndef RS_SWEEP_H
#define RS_SWEEP_H

#include <signal.h>
#include <stdint.h>

#include "csv.h"
#include "depths.h"
#include "engine.h"
#include "err.h"
#include "guard.h"
#include "load.h"
#include "rates.h"
#include "row.h"
#include "sweep_plan.h"
#include "target.h"
#include "workload.h"

/* The order points run in (sweep_plan_build's shuffled). */
enum sweep_order { SWEEP_ORDER_SEQUENTIAL, SWEEP_ORDER_SHUFFLED };
static const char *const sweep_order_names[] = { "sequential", "shuffled", NULL };

enum sweep_status {
	SWEEP_OK,
	SWEEP_FAILED,             /* server or I/O failure; err says which point */
	SWEEP_REFUSED,            /* the safety guard refused: keys rsweep did not write */
	SWEEP_INTERRUPTED,
	SWEEP_ERROR_REPLIES,      /* finished, but error replies make the run fail */
};

struct sweep_config {
	const char *label;
	const struct target *target;
	int spawned;              /* the server is ours: no guard needed */
	/* --cluster: target is one node of a cluster; the sweep reads its
	 * topology and guards, flushes, prepares and reads each master as a
	 * server of its own, the load on all masters at once. */
	int cluster;
	enum guard_flush flush;
	int force_flush;
	/* --key-prefix: every key of the workload (workload_select_prefix)
	 * starts with it; the guard deletes only those (guard.h).  NULL:
	 * FLUSHALL or FLUSHDB, as flush says. */
	const char *key_prefix;
	unsigned clients, threads;
	enum engine_mode mode;    /* closed loop; a point with a rate uses the window */
	enum engine_arrivals arrivals;
	uint64_t requests;
	double duration, warmup, pause, timeout;
	uint64_t keyspace, data_size, seed;
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
	const struct depth_list *depths;
	const struct rs_rows *prior;
	volatile sig_atomic_t *stop;
	/* called after each point is stored (i is 1-based among points run) */
	void (*on_point)(void *ud, const struct rs_row *row, size_t i, size_t n);
	/* called with one-line notes worth a user's attention (retries, warnings) */
	void (*on_note)(void *ud, const char *msg);
	void *ud;
};

/* Check, before anything connects, that every test of w can be prepared
 * and that the batch buffers fit in memory.  Bad input: err says why. */
int sweep_check(const struct sweep_config *cfg, const struct workload *w,
		const struct depth_list *depths, struct rs_err *err);

/* A sweep under way: its connections and the guard's state. */
struct sweep;

/* Connect and run the safety guard: nothing on the server is changed, and
 * nothing is written anywhere, so the caller can open its output only
 * when this returned SWEEP_OK (SWEEP_REFUSED: the guard refused, err says
 * which databases hold how many keys; SWEEP_FAILED: the server could not be
 * reached).  *s is set either way and goes to sweep_close. */
enum sweep_status sweep_open(const struct sweep_config *cfg, const struct workload *w,
			     struct sweep **s, struct rs_err *err);
/* Run the points of plan not yet done, appending a row per point to out
 * (NULL: no CSV); on every way out flush what the sweep wrote, through a
 * connection the guard checked and after the same check as every flush.
 * On failure err names the point; SWEEP_REFUSED: keys another client wrote
 * appeared, and from then on nothing was flushed. */
enum sweep_status sweep_points(struct sweep *s, struct sweep_plan *plan, struct csv_out *out,
			       struct rs_err *err);
/* sweep_points for a plan over n targets (sweep_plan_interleave): each
 * point runs on s[point.target], every target with its own connections,
 * guard and preparation.  The first failure or refusal stops the sweep,
 * err naming the target's label; every target is left as sweep_points
 * leaves its one. */
enum sweep_status sweep_points_all(struct sweep **s, size_t n, struct sweep_plan *plan,
				   struct csv_out *out, struct rs_err *err);
/* The load comes from l (the agents': load_agents), not from the sweep's
 * own engine; the sweep still guards, flushes, prepares and reads the
 * server's counters around each point.  s frees l in sweep_close. */
void sweep_use_load(struct sweep *s, struct load *l);
/* The server process s reaches (INFO run_id). */
const char *sweep_run_id(const struct sweep *s);
/* s reaches a server another target of the sweep reaches too: empty it
 * after each of its points (through the guard, as every flush), so that
 * the other target's guard finds nothing it did not write. */
void sweep_share(struct sweep *s);
void sweep_close(struct sweep *s);
/* sweep_open, sweep_points, sweep_close. */
enum sweep_status sweep_run(const struct sweep_config *cfg, const struct workload *w,
			    struct sweep_plan *plan, struct csv_out *out, struct rs_err *err);

/* Make unknown (NAN, or -1 for counts) the figures of a measured row that
 * cannot be right: negative or not finite, such as a server CPU time or
 * call count that went backwards because the server restarted or CONFIG
 * RESETSTAT ran during the point (but not those unknown names: the
 * server gives none); and note, keeping it, a server_calls below requests (the server did not run what was counted).  Returns how
 * many it dropped or noted; why (size bytes) then names them in one line. */
int sweep_row_sanitise(struct rs_row *row, unsigned unknown, char *why, size_t size);
/* For sweep_row_sanitise's unknown: figures the server does not give at
 * all (found when the sweep opened), left unknown and not noted. */
#define SWEEP_NO_CALLS 1u        /* no INFO commandstats: server_calls */
#define SWEEP_NO_CPU 2u          /* no used_cpu_sys/user in INFO cpu: server_cpu_s */

/* An open-loop point whose achieved rate is below its offered rate by more
 * than this fraction is marked short (rate_short): the target could not
 * keep up with that rate. */
#define SWEEP_RATE_SHORT 0.05


#endif
