/* budget.h: the depth that fits a latency budget (rsweep report
 * --latency-budget): for each series, the point with the highest
 * throughput whose latency stays within the budget.
 *
 * Figures are the medians over repeats, as everywhere in the report; the
 * interval given is the range of the repeats (a point whose slowest
 * repeat breaks the budget is marked marginal).  No I/O but budget_write's
 * stream. */
#ifndef RS_BUDGET_H
#define RS_BUDGET_H

#include <stddef.h>
#include <stdio.h>

#include "err.h"
#include "series.h"

/* --budget-metric's values, as the CSV names the columns, in the order
 * of enum series_metric from SM_AVG (the option table points here). */
static const char *const budget_metric_names[] = { "avg_ms", "p50_ms", "p95_ms", "p99_ms",
						    "p999_ms", "max_ms", NULL };

/* Parse a duration with its unit ("1ms", "250us", "0.5ms", "2s") into
 * milliseconds.  A number without a unit, or not above 0, is refused. */
int budget_parse(const char *s, double *ms, struct rs_err *err);

struct budget_pick {
	const struct series *s;   /* the throughput series (label, test and mode) */
	int found;                /* some point meets the budget */
	unsigned depth;           /* the pick, when found */
	double rps, rps_lo, rps_hi;   /* its median throughput, range of repeats */
	double lat, lat_lo, lat_hi;   /* its median latency (ms), range of repeats */
	size_t n;                 /* repeats */
	int marginal;             /* a repeat's latency is over the budget */
	/* Without a pick: the lowest median latency and its depth (NAN, 0
	 * when the series has no latency). */
	double best_lat;
	unsigned best_depth;
};

/* One pick for each series of rps, from the same rows' latency series in
 * lat (built with the budget's metric).  *out (free() it) gets rps->n
 * picks in rps's order. */
void budget_find(const struct series_set *rps, const struct series_set *lat, double budget_ms,
		 struct budget_pick **out);

/* The picks as a table after a report: text, or markdown (md). */
void budget_write(FILE *fp, const struct budget_pick *v, size_t n, const char *metric,
		  double budget_ms, int md);

#endif
