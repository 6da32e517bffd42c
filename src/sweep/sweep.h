/* sweep.h: the loop over a plan (sweep_plan.h): guard (guard.h), flush,
 * prepare, warm up, measure with a load (load.h), append, resume, retry.
 *
 * The sweep neither draws nor prints: it hands every finished point to a
 * callback (progress and results live elsewhere). */
#ifndef RS_SWEEP_H
#define RS_SWEEP_H

#include <stdint.h>

#include "results/csv.h"
#include "base/depths.h"
#include "base/err.h"
#include "sweep/load.h"
#include "results/row.h"
#include "sweep/sweep_config.h"
#include "sweep/sweep_plan.h"
#include "sweep/sweep_row.h"
#include "workload/workload.h"

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
/* Whose rows a sweep of cfg measures: its label, and its values on the
 * axes the run sweeps (--resume, --precision). */
void sweep_who(const struct sweep_config *cfg, struct sweep_plan_who *who);
/* sweep_open, sweep_points, sweep_close. */
enum sweep_status sweep_run(const struct sweep_config *cfg, const struct workload *w,
			    struct sweep_plan *plan, struct csv_out *out, struct rs_err *err);




#endif
