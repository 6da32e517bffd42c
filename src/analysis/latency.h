/* latency.h: a point's latency percentiles from the histograms of its
 * repeats (the sidecar FILE.csv.hist, histfile.h), merged by adding counts:
 * the percentile of a point over its repeats (and, later, over several load
 * generators) is the percentile of the merged histogram, never a median of
 * the repeats' percentiles.  Its interval is the percentile bootstrap over
 * repeats (stats_bootstrap): resample the repeats' histograms with
 * replacement, merge, take the percentile.
 *
 * Rows without a histogram (imported data, a CSV from before the sidecar,
 * a file read from standard input) keep the median of their repeats'
 * figures, and the caller says so once.  Reads files, prints nothing. */
#ifndef RS_LATENCY_H
#define RS_LATENCY_H

#include <stddef.h>

#include "base/err.h"
#include "results/hist.h"
#include "results/row.h"
#include "analysis/series.h"

struct latency_row;

/* The histograms of the rows of some CSV files, found by row (its file
 * and line), which --relabel and --tests do not change. */
struct latency_set {
	struct latency_row *v;    /* sorted by file name, then line */
	size_t n;
	size_t rows_without;      /* rows of the files read that have none */
	const char *file_without; /* the first file without a sidecar, or NULL */
};

/* For every file rows came from, read its sidecar (FILE.hist) if there is
 * one, and keep each row's histogram: the sidecar's last line with the
 * row's key.  Call it before --relabel changes the labels.  A missing
 * sidecar is not an error (file_without names the first); a sidecar that
 * is there but bad is: -1 with err "FILE.csv.hist:LINE: reason". */
int latency_load(const struct rs_rows *rows, struct latency_set *ls, struct rs_err *err);
void latency_free(struct latency_set *ls);

/* Row r's histogram, merged into h (which is not cleared); 0, or -1 when r
 * has none. */
int latency_row_merge(const struct latency_set *ls, const struct rs_rec *r, struct hist *h);

/* A point's figure from its histograms: the percentile of their merge and
 * its bootstrap interval over repeats, in ms. */
struct latency_ci {
	double est, lo, hi;
	int merged;               /* 1: from the histograms; 0: the median of
				   * the repeats' figures, and lo, hi NAN */
};

/* What latency_apply found: ci[off[i] + k] is point k of series i. */
struct latency_points {
	size_t *off;
	struct latency_ci *ci;
	size_t merged, fallback;  /* points of each kind */
};

/* The percentile of metric set->metric (p50 to p999; others are left as
 * they are) for each point of set, built from rows: when every repeat of
 * the point has a histogram, its median becomes the merged histogram's
 * percentile; the others keep the median over repeats.  pts (when not
 * NULL; latency_points_free it) gets every point's figure and interval
 * (B resamples, level 0.95, seeded as the analysis is).  Returns 0. */
int latency_apply(struct series_set *set, const struct rs_rows *rows, const struct latency_set *ls,
		  struct latency_points *pts);
void latency_points_free(struct latency_points *pts);

/* The one line that says which points fell back to the median of their
 * repeats' figures (metric as the user names it, "p99_ms"), into buf:
 * "r.csv has no histogram sidecar (r.csv.hist): 12 of 12 points' p99_ms
 * are medians of their repeats', not percentiles of merged histograms";
 * NULL when every point has its histograms. */
const char *latency_note(const struct latency_set *ls, const struct latency_points *pts,
			 const char *metric, char *buf, size_t size);

/* The percentile (0 < p <= 100) of metric m, or NAN for a metric that is
 * not one (rps, avg, max). */
double latency_metric_pct(enum series_metric m);

#endif
