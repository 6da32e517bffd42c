/* slo_sweep.h: run --slo inside the sweep: one search (slo.h) for each
 * target, test and depth, whose probes the sweep runs as points of its
 * plan, round after round (a probe of every open search a round, so that
 * a drift of the machine falls on every depth alike), and whose every
 * row says which step of the search it was and its verdict. */
#ifndef RS_SLO_SWEEP_H
#define RS_SLO_SWEEP_H

#include <stddef.h>

#include "results/hist.h"
#include "results/row.h"
#include "sweep/slo.h"
#include "sweep/sweep_config.h"
#include "sweep/sweep_plan.h"
#include "workload/workload.h"

struct slo_sweep;

/* The searches of ntargets targets x ntests tests x depths (none
 * started).  slo_sweep_free it. */
struct slo_sweep *slo_sweep_new(const struct sweep_config *cfg, size_t ntargets, size_t ntests,
				const struct depth_list *depths);
void slo_sweep_free(struct slo_sweep *ss);

/* --resume: the steps of target's searches that prior's rows of who and
 * run hold, in file order, as if they had just run: its probes, and as
 * starts every closed-loop row (the plan counts those done, whatever
 * they were measured for). */
void slo_sweep_replay(struct slo_sweep *ss, size_t target, const struct workload *w,
		      const struct sweep_plan_who *who, unsigned run, const struct rs_rows *prior);

/* Point p (of target p->target) was measured into row, with latency lat
 * (from each request's intended send): fill row's slo columns, and move
 * its search on.  A verdict worth a word (the generator was the limit)
 * goes to cfg's on_note. */
void slo_sweep_row(struct slo_sweep *ss, const struct sweep_config *cfg,
		   const struct sweep_point *p, const struct hist *lat, struct rs_row *row);

/* Append to plan the next probe of every search under way, in an order
 * drawn from the sweep's --seed; returns how many (0: every search has
 * ended). */
size_t slo_sweep_more(struct slo_sweep *ss, struct sweep_plan *plan);

/* The duration of a probe at rate (requests a second): long enough for
 * every percentile of o (slo_requests_needed), at least min_s (the
 * sweep's --duration; 0: half a second), at most max(60 s, min_s). */
double slo_probe_seconds(const struct slo_objective *o, double rate, double min_s);

#endif
