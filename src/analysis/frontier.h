/* frontier.h: the frontier within a latency budget (rsweep report
 * --latency-budget over series that vary a setting, issue 30): for each
 * label and test along an axis (along.h), the cell (depth, setting) with
 * the most throughput whose latency is within the budget, the runner-up,
 * and the cells it cannot be told from.
 *
 * It is built on the budget's picks (budget.h), one per series, that is
 * one per value of the axis: each the depth with the highest median
 * throughput within the budget at that value, with its bootstrap
 * intervals.  The best cell is the pick of highest median throughput, the
 * runner-up the next; a pick whose throughput interval overlaps the
 * best's is not told apart from it (said, never hidden), and a pick whose
 * latency interval reaches past the budget is marginal (budget_pick's).
 * Computes, and writes what it found to a stream. */
#ifndef RS_FRONTIER_H
#define RS_FRONTIER_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/along.h"
#include "analysis/budget.h"

struct frontier {
	const struct along_group *g;   /* borrowed */
	const struct budget_pick *best;   /* NULL: no cell meets the budget */
	const struct budget_pick *runner; /* the next; NULL: no other meets it */
	/* The picks within the budget, best excepted, whose throughput
	 * interval overlaps the best's, in the group's order; owned. */
	const struct budget_pick **close;
	size_t nclose;
	/* Without a best: the pick of the lowest latency at any depth (its
	 * best_lat, best_depth); NULL when no series has the metric. */
	const struct budget_pick *lowest;
};

/* One frontier for each group of gs with two series or more; picks are
 * budget_find's, one per series of the analysis result the groups index.
 * *out (frontier_free it) gets *n of them. */
void frontier_find(const struct along_groups *gs, const struct budget_pick *picks,
		   struct frontier **out, size_t *n);
void frontier_free(struct frontier *v, size_t n);

/* The frontiers in words, one line each, after the budget's table: text,
 * or markdown (md).  metric: budget_metric_names' ("p99_ms").  Nothing
 * when n is 0. */
void frontier_write(FILE *fp, const struct analysis_result *r, const struct frontier *v, size_t n,
		    const char *metric, double budget_ms, int md);
/* The frontiers as a member of a JSON object, without a comma before or
 * after: "frontier":[{"label":..., "test": the base, "axis": its title,
 * "best": a cell or null, "runner_up": a cell or null, "not_told_apart":
 * [cells], "lowest_ms", "lowest_depth", "lowest_test"}, ...]; a cell is
 * {"test", "depth", "value", "rps", "rps_lo", "rps_hi", "latency_ms",
 * "latency_lo", "latency_hi", "marginal"}. */
void frontier_write_json(FILE *fp, const struct analysis_result *r, const struct frontier *v,
			 size_t n);

/* The budget as words say it: "a 1 ms p99", "a 0.25 ms average", into
 * buf. */
const char *frontier_budget_words(const char *metric, double budget_ms, char *buf, size_t size);

#endif
