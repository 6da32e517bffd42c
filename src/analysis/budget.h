/* budget.h: the depth that fits a latency budget (rsweep report
 * --latency-budget): for each series, the point with the highest
 * throughput whose latency stays within the budget.
 *
 * A point's throughput is the median over repeats, as everywhere in the
 * report; its latency the percentile of the repeats' merged histograms
 * (latency.h), or without them the median of the repeats' figures.  The
 * intervals are 95% percentile bootstraps over repeats: of the median
 * throughput, and of the merged histograms' percentile (resample the
 * repeats' histograms, merge, take the percentile) or of the median
 * latency.  A pick whose latency interval reaches past the budget is
 * marked marginal.  No I/O but budget_write's stream. */
#ifndef RS_BUDGET_H
#define RS_BUDGET_H

#include <stddef.h>
#include <stdio.h>

#include "base/err.h"
#include "analysis/latency.h"
#include "analysis/series.h"

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
	double rps, rps_lo, rps_hi;   /* its median throughput and 95% interval */
	double lat, lat_lo, lat_hi;   /* its latency (ms) and 95% interval */
	int lat_merged;           /* lat is the merged histograms' percentile */
	size_t n;                 /* repeats */
	int marginal;             /* the latency's interval reaches past the budget */
	/* Without a pick: the lowest median latency and its depth (NAN, 0
	 * when the series has no latency). */
	double best_lat;
	unsigned best_depth;
};

/* One pick for each series of rps, from the same rows' latency series in
 * lat (built with the budget's metric, and latency_apply'd giving lp, or
 * lp NULL).  *out (free() it) gets rps->n picks in rps's order. */
void budget_find(const struct series_set *rps, const struct series_set *lat,
		 const struct latency_points *lp, double budget_ms, struct budget_pick **out);

/* The picks as a table after a report: text, or markdown (md). */
void budget_write(FILE *fp, const struct budget_pick *v, size_t n, const char *metric,
		  double budget_ms, int md);

/* The columns of budget_write_csv, in this order. */
#define BUDGET_CSV_HEADER "label,test,metric,budget_ms,found,depth,rps,rps_lo,rps_hi," \
	"latency_ms,latency_lo,latency_hi,merged,marginal,lowest_ms,lowest_depth"

/* The picks as CSV (--format csv with --latency-budget): a header, then
 * one line per series; figures a pick lacks are empty.  found, merged
 * (the latency is the merged histograms' percentile) and marginal are 0
 * or 1. */
void budget_write_csv(FILE *fp, const struct budget_pick *v, size_t n, const char *metric,
		      double budget_ms);
/* The picks as the members of a JSON object: "latency_budget":{"metric":
 * ..., "budget_ms": ..., "series":[{...}, ...]}, the same fields as the
 * CSV's (null where unknown, found, merged and marginal as booleans). */
void budget_write_json(FILE *fp, const struct budget_pick *v, size_t n, const char *metric,
		       double budget_ms);

#endif
