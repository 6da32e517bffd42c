/* sweep_plan.h: the plan of a sweep: every test x depth (x rate) x repeat,
 * in the order it runs (shuffled or sequential), interleaved over several
 * targets, with the points a CSV already holds marked done.
 *
 * Pure: no connection, no clock, no output (notes go to a callback); the
 * sweep (sweep.h) runs it. */
#ifndef RS_SWEEP_PLAN_H
#define RS_SWEEP_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "base/depths.h"
#include "base/err.h"
#include "engine/engine.h"
#include "sweep/precision.h"
#include "base/rates.h"
#include "results/row.h"
#include "workload/workload.h"

struct sweep_point {
	size_t test;              /* index into the workload */
	unsigned depth;
	uint64_t rate;            /* open loop: requests a second; 0: closed loop */
	unsigned repeat;          /* 1-based */
	unsigned order;           /* 1-based position in the run order */
	size_t target;            /* which of the sweep's targets (sweep_points_all) */
	int done;                 /* already in the CSV (resume) */
	/* --slo (slo_sweep.h): the step of the search the point is (enum
	 * row_slo_phase; 0: none), and how long it runs (seconds; 0: the
	 * sweep's -n or --duration). */
	unsigned char slo;
	double duration;
};

struct sweep_plan {
	struct sweep_point *v;
	size_t n;
	size_t todo;              /* points not done */
	/* What the points' rows say in the mode and arrivals columns, so
	 * that --resume skips only points measured the same way. */
	enum engine_mode mode;
	enum engine_arrivals arrivals; /* with rates */
	unsigned run;             /* --runs: only rows of this run mark points
				   * done (0 is 1; a row without the column is
				   * of run 1) */
};

/* Every test x depth x repeat; shuffled (Fisher-Yates from seed) or in
 * sequential order (test, then depth, then repeat). */
void sweep_plan_build(size_t ntests, const struct depth_list *depths, unsigned repeats,
		      int shuffled, uint64_t seed, struct sweep_plan *plan);
/* The same with every rate of rates (open loop) for each depth: test x
 * depth x rate x repeat, rate after depth in sequential order.  NULL or
 * an empty list: closed loop, as sweep_plan_build. */
void sweep_plan_build_rates(size_t ntests, const struct depth_list *depths,
			    const struct rate_list *rates, unsigned repeats, int shuffled,
			    uint64_t seed, struct sweep_plan *plan);
/* Measure every point of plan on each of ntargets targets, back to back:
 * the targets of a point stay together, in turn forwards and backwards
 * (A B, B A, A B, ...: ABBA), so that neither is always first and a drift
 * of the machine falls on all alike. */
void sweep_plan_interleave(struct sweep_plan *plan, size_t ntargets);
/* Whose rows a target's points are: its label and, where the run sweeps
 * an axis (axis.h), the target's value on it (-1, or NULL for the server's
 * arguments: whatever a row says, as for a setting the run does not vary,
 * which --resume has checked already). */
struct sweep_plan_who {
	const char *label;
	int64_t clients, data_size, threads;
	const char *server_args;
};
/* Whether row is who's. */
int sweep_plan_row_is(const struct rs_rec *row, const struct sweep_plan_who *who);

/* Mark points of label already in rows as done. */
void sweep_plan_mark_done(struct sweep_plan *plan, const struct workload *w, const char *label,
			  const struct rs_rows *rows);
/* The same for the points of one target of an interleaved plan (a target,
 * or one combination of the axes on it), those of who's rows. */
void sweep_plan_mark_target(struct sweep_plan *plan, const struct workload *w, size_t target,
			    const struct sweep_plan_who *who, const struct rs_rows *rows);
void sweep_plan_free(struct sweep_plan *plan);

/* Whether row was measured in mode (a row without the column: lock-step)
 * and, when open (an open-loop point), with arrivals (a row without the
 * column: uniform): a point measured another way is another point, for
 * --resume and --precision alike. */
int sweep_plan_same_way(const struct rs_rec *row, enum engine_mode mode, int open,
			enum engine_arrivals arrivals);

/* Whether row belongs to run (0 is 1, as is a row without the column). */
int sweep_plan_same_run(const struct rs_rec *row, unsigned run);

/* --precision: the points measured so far (pr, set up here; precision_free
 * it), from prior's rows of who and run measured in mode (--resume's). */
void sweep_plan_precision_init(struct precision *pr, const struct workload *w,
			       const struct depth_list *depths, const struct sweep_plan_who *who,
			       enum engine_mode mode, unsigned run, const struct rs_rows *prior);

/* --precision's and --until-decided's settings for sweep_plan_more. */
struct sweep_plan_precision {
	double precision;         /* the relative half-width wanted; <= 0: no rounds */
	/* --until-decided (instead of precision): measure again the points
	 * whose comparison of side k with side k % group is undecided
	 * (decide.h); label[n] and w name them in the notes (NULL: numbers). */
	int until_decided;
	size_t group;
	const char *const *label;
	const struct workload *w;
	double budget;            /* seconds for the whole sweep; 0: no limit */
	unsigned max_repeats;
	uint64_t seed;
	/* One-line notes: why the rounds ended (and, verbose, each round). */
	void (*on_note)(void *ud, const char *msg);
	void *ud;
	int verbose;
};

/* The next round of --precision or --until-decided over n targets (pr[n],
 * one a target), elapsed seconds into the sweep: append to plan the points
 * to measure again.  A point one target picks (or one comparison) is
 * measured on every target, back to back in ABBA turns as in the plan, so
 * that the targets stay paired (a target may so get a repeat more than it
 * needed, or than --max-repeats).  When it adds none it says why in a note
 * (for --until-decided, each point still undecided); a caller that stops
 * a round for the budget calls it once more for that note.  Returns how
 * many points (0: done, or out of repeats or time), or -1 (err set). */
long sweep_plan_more(struct sweep_plan *plan, const struct sweep_plan_precision *cfg,
		     const struct precision *pr, size_t n, unsigned round, double elapsed,
		     struct rs_err *err);

#endif
