/* analysis.h: figures computed from series: peak, saturation depth, the
 * throughput model, stability, comparisons.  Computes; never prints.
 *
 * Every figure with an interval comes from the interval core (knee.h),
 * run with one fixed seed (ANALYSIS_SEED) and the default number of
 * resamples, so that a report reproduces byte for byte.  Where the core
 * refuses a series (a zero or missing figure: ln rps needs rates above
 * zero) the point figures below (analysis_peak, analysis_saturation,
 * analysis_fit) stand in, without intervals. */
#ifndef RS_ANALYSIS_H
#define RS_ANALYSIS_H

#include <stddef.h>

#include "base/err.h"
#include "analysis/cause.h"
#include "stats/knee.h"
#include "analysis/series.h"

#define ANALYSIS_DEFAULT_KNEE 0.95
#define ANALYSIS_DEFAULT_CV_LIMIT 0.10
/* Below this R² the throughput model is said not to fit. */
#define ANALYSIS_MIN_R2 0.9
/* The seed of every series' resamples: one for all, so that the same
 * data gives the same report. */
#define ANALYSIS_SEED 1

/* ---- the interval core on one series ---- */

/* A series as the core reads it (the arrays point into the series) and
 * what the core made of it. */
struct analysis_knee {
	int ok;                   /* knee_analyse succeeded: res holds figures */
	struct knee_series ks;
	unsigned *depth;          /* owned arrays behind ks */
	size_t *n;
	const double **v;
	struct knee_result res;
};

/* The options the core runs with: knee fraction knee, level 0.95, the
 * default resamples, ANALYSIS_SEED. */
void analysis_knee_opts(double knee, struct knee_opts *o);

/* Run the core on series s (any metric whose figures are above zero).
 * Returns 0 with k->ok set, or -1 with k->ok 0 when the core refuses the
 * series (err, when not NULL, says why: a figure of zero); either way
 * release k with analysis_knee_free (which accepts a zeroed k). */
int analysis_knee_compute(const struct series *s, double knee, int level_band,
			  struct analysis_knee *k, struct rs_err *err);
void analysis_knee_free(struct analysis_knee *k);

/* Ratio of a to baseline b with its interval and verdict: at depth d
 * (both medians there, knee_compare_at), or at the peaks when d is 0
 * (knee_compare_peak).  Returns 0, or -1 (out untouched) when either side
 * has no core result or lacks depth d. */
int analysis_knee_ratio(const struct analysis_knee *a, const struct analysis_knee *b, unsigned d,
			struct knee_cmp *out);

/* Index in s->pts of the largest median (the first one on ties). */
size_t analysis_peak(const struct series *s);

/* Index in s->pts of the saturation point: the smallest depth whose median
 * reaches knee * the peak median.  Meant for rps series (higher is better).
 * The charts and the report share this one definition. */
size_t analysis_saturation(const struct series *s, double knee);

/* ---- the throughput model rps(P) = P / (a + b P) ---- */

enum analysis_fit_status {
	FIT_OK,
	FIT_TOO_FEW,              /* fewer than 3 depths */
	FIT_NONPOSITIVE,          /* a zero median, or a fit with b <= 0 or a < 0 */
	FIT_POOR,                 /* R² below ANALYSIS_MIN_R2 */
	FIT_FALLS,                /* the curve falls after its peak (core only) */
	FIT_PATTERN,              /* residuals show the model misses the shape
				   * (core only) */
};

struct analysis_fit {
	enum analysis_fit_status status;
	double a_us;              /* fixed cost of one pipelined round trip, µs */
	double b_us;              /* cost of one command, µs */
	double asymptote;         /* 1/b in rps; NAN unless status == FIT_OK */
	double asymptote_lo, asymptote_hi; /* its 95% interval; NAN when unknown,
				   * hi +inf when unbounded */
	double r2;                /* of the fitted curve against the medians (rps scale) */
};

/* Fit the model to the medians of rps series s by least squares on the
 * linearised form 1/rps = b + a/P, weighting each point by rps² so that
 * every point counts by its relative error (unweighted, the depth-1 point
 * would decide the slope alone).  a_us, b_us and r2 are NAN when not
 * computed (FIT_TOO_FEW, a zero median). */
void analysis_fit(const struct series *s, struct analysis_fit *fit);

/* ---- one series ---- */

enum analysis_bound { BOUND_UNKNOWN, BOUND_SERVER, BOUND_CLIENT };

struct analysis_unstable {
	unsigned depth;
	size_t n;                 /* repeats */
	double cv;
	struct cause cause;       /* its likely cause */
};

/* Everything the report says about one series (label x test). */
struct analysis_series {
	const struct series *rps; /* borrowed from the rps set */
	const struct series *avg; /* borrowed from the avg set; NULL without latency */
	const struct series *p50; /* from the p50 set (analysis_run_lat); NULL without */
	struct analysis_knee knee;/* the core's figures; owned */
	double rps_at_1;          /* median at depth 1; NAN without depth 1 */
	double peak_rps;          /* the peak: the core's robust peak level
				   * (else the highest median) */
	double peak_lo, peak_hi;  /* its 95% interval; NAN when unknown */
	unsigned peak_depth;
	double top_rps;           /* the highest measured point: the largest
				   * median, and its depth */
	unsigned top_depth;
	unsigned sat_depth;       /* 0 for a series with one depth, and for
				   * one not saturated (saturated == NO) */
	double sat_lo, sat_hi;    /* its 95% interval, depths; NAN when unknown;
				   * hi NAN also when still rising */
	enum knee_sat saturated;  /* UNKNOWN without the core or for one depth */
	double gain;              /* peak / rps_at_1; NAN without depth 1 */
	struct analysis_fit fit;
	double max_cv;            /* NAN when no depth has repeats */
	struct analysis_unstable *unstable; /* cv > cv_limit, by depth; owned */
	size_t nunstable;
	enum analysis_bound bound;/* busier process at the saturation depth */
	double server_cpu, client_cpu; /* at the saturation depth (peak for one depth) */
	/* Runs (series.h): with two or more, the core's figures of each run
	 * alone, and the peak over runs (knee.h: the mean of the runs' ln
	 * peaks, a two-level bootstrap), which peak_rps, peak_lo and peak_hi
	 * then are. */
	size_t nruns;
	struct analysis_knee *run_knee; /* [nruns] when nruns >= 2; owned */
	struct knee_runs peak_runs;     /* n 0 when not computed */
};

/* Fill out for rps series s (avg may be NULL), with each depth's level
 * interval when level_band (knee_opts.level_band).  out->unstable and
 * out->knee are owned: release with analysis_series_free(). */
void analysis_series_compute(const struct series *rps, const struct series *avg, double knee,
			     double cv_limit, int level_band, struct analysis_series *out);
void analysis_series_free(struct analysis_series *a);

/* ---- comparisons between labels ---- */

/* One label against the baseline at one depth each. */
struct analysis_delta {
	int valid;                /* both sides have the depths */
	unsigned base_depth, depth;
	double base_rps, rps;
	double d_rps;             /* rps - base_rps */
	double d_pct;             /* 100 * d_rps / base_rps */
	double ratio;             /* rps / base_rps */
	double base_avg, avg;     /* ms, both at avg_depth; NAN without latency */
	double d_avg;             /* avg - base_avg, ms: negative is faster */
	unsigned avg_depth;       /* where latencies are compared: the depth
				   * itself, or for two peaks one common depth
				   * (the deeper saturation depth, or the
				   * common depth nearest it); 0 if none */
	struct stats_ci ci;       /* ratio and its 95% interval (core) */
	enum knee_verdict verdict;/* KNEE_UNKNOWN without an interval */
	int within_band;          /* same within +-KNEE_CMP_BAND */
	unsigned rep_depth;       /* the depth whose paired repeats gave ci
				   * (the core had none); 0 otherwise */
	/* The average latencies' ratio avg / base_avg at avg_depth and its 95%
	 * interval from the paired repeats there, with the one verdict rule
	 * (KNEE_FASTER: a higher latency); KNEE_UNKNOWN with fewer than two
	 * repeats a side. */
	struct stats_ci avg_ci;
	enum knee_verdict avg_verdict;
	/* What the latency figures above compare: SM_AVG, or SM_P50 where a
	 * side has no average but both have a p50 (redis-benchmark -q output,
	 * imported). */
	enum series_metric lat_metric;
};

/* Compare a at depth da with baseline b at depth db (the core's interval
 * when both are the same depth).  Leaves d->valid 0 when either side
 * lacks its depth. */
void analysis_delta(const struct analysis_series *b, unsigned db, const struct analysis_series *a,
		    unsigned da, struct analysis_delta *d);

/* The ratio of a's median at depth da to b's at db (two points of two
 * series, or of one), with its 95% interval and verdict by the rule the
 * comparisons use at one depth: the core's (knee_compare_at, each side's
 * noise pooled across its depths) when both series have core results,
 * else the repeats' (knee_compare_repeats: repeat i against repeat i when
 * the sides have as many, which takes out the drift when they were
 * interleaved).  Returns 0 (out->ratio.lo NAN when neither gives an
 * interval), or -1 when a lacks da or b lacks db. */
int analysis_point_ratio(const struct analysis_series *a, unsigned da,
			 const struct analysis_series *b, unsigned db, struct knee_cmp *out);

/* One test of one label against the same test of the baseline. */
struct analysis_cmp {
	size_t base, other;       /* into analysis_result.series */
	struct analysis_delta at_1;    /* both at depth 1 */
	struct analysis_delta at_peak; /* each at its own peak */
	struct analysis_delta at_depth;/* both at --depth (valid only if asked and present) */
	struct analysis_delta *per_depth; /* every common depth, ascending (ci and
				   * verdict only with per_depth_ci); owned */
	size_t ndepths;
	double ratio_min, ratio_max;   /* over the common depths; NAN if none */
	/* The two sides were measured in different runs (not interleaved in
	 * one): the machine's drift between runs is in their ratio.  With
	 * one run a side no interval holds it (runs_known 0); with two or
	 * more on a side the intervals are run-level (knee.h). */
	int runs_apart;
	int runs_known;
};

/* A line of the speed-up summary: other / baseline, peak to peak (or at
 * --depth when one was asked for). */
struct analysis_speedup {
	size_t cmp;               /* into analysis_result.cmps */
	double ratio;
	size_t label_idx, test_idx; /* of the other series, for sorting */
};

struct analysis_opts {
	double knee;
	double cv_limit;
	const char *baseline;     /* NULL: the first label */
	unsigned depth;           /* 0: not asked */
	int per_depth_ci;         /* intervals at every common depth too (about
				   * 0.5 ms a depth: only where they are shown) */
	int level_band;           /* each depth's level interval (plot's fitted
				   * curve): B x depths doubles a series */
};

struct analysis_result {
	struct analysis_series *series; /* in the order of the rps set */
	size_t nseries;
	const char *baseline;     /* points into the rps set */
	size_t nlabels;
	struct analysis_cmp *cmps;/* by other label, then test order */
	size_t ncmps;
	struct analysis_speedup *speedup; /* grouped by other label, ratio descending */
	size_t nspeedup;
	size_t nsingle;           /* series with one depth */
	unsigned depth;           /* the --depth compared at, 0 if none */
};

/* Analyse every series of rps (avg, the same rows' latency, may be NULL or
 * lack some series) and compare each label with the baseline.  Fails (err
 * set) when the baseline label is not in the data or --depth is in no
 * series.  The result borrows from rps and avg: keep them alive; release it
 * with analysis_result_free() (accepts NULL and a zeroed result). */
int analysis_run(const struct series_set *rps, const struct series_set *avg,
		 const struct analysis_opts *o, struct analysis_result *out, struct rs_err *err);
/* The same, with p50 (may be NULL) the rows' p50 latency: a comparison
 * whose sides do not both have an average latency compares their p50
 * (analysis_delta.lat_metric), so that rows with a p50 alone (an imported
 * redis-benchmark -q run) still have their latency compared. */
int analysis_run_lat(const struct series_set *rps, const struct series_set *avg,
		     const struct series_set *p50, const struct analysis_opts *o,
		     struct analysis_result *out, struct rs_err *err);
/* analysis_run of only the series of rps marked in only[0..rps->n) (a
 * chart's, of a file of thousands: plot --tests, issue 40): each marked
 * series gets the figures analysis_run gives it, bit for bit (a series'
 * analysis is its own); the others keep only their rps, and no comparison
 * takes them (so comparisons, whose intervals pool the noise of every
 * test, are analysis_run's only when every series is marked). */
int analysis_run_some(const struct series_set *rps, const struct analysis_opts *o,
		      const unsigned char *only, struct analysis_result *out, struct rs_err *err);
void analysis_result_free(struct analysis_result *r);

/* The comparison of series other (an element of r->series) with the
 * baseline's series of the same test, or NULL when r has none (other is
 * the baseline's, or the baseline lacks its test). */
const struct analysis_cmp *analysis_cmp_of(const struct analysis_result *r,
					   const struct analysis_series *other);

/* The delta a speed-up shows for c: at r->depth when one was asked for,
 * else each at its peak. */
const struct analysis_delta *analysis_cmp_delta(const struct analysis_result *r,
						const struct analysis_cmp *c);

/* Ratio r as every output prints it (without its "x"): two decimals below
 * 10 (1.18), one below 100 (12.5), none above (250), the number of
 * decimals chosen after rounding (9.996 reads 10.0); "-" when r is not
 * finite.  Writes at most size bytes (NUL included); returns buf. */
const char *analysis_fmt_ratio(char *buf, size_t size, double r);

/* ---- across tests (analysis_overall.c) ---- */

/* Fewest and most tests an overall figure is given for. */
#define ANALYSIS_OVERALL_MIN 3
#define ANALYSIS_OVERALL_MAX 4096

/* One label's ratios to the baseline over its tests, in one figure. */
struct analysis_overall {
	size_t n;                 /* tests compared (each a valid delta) */
	struct stats_ci gm;       /* geometric mean of their ratios, 95% interval */
	enum knee_verdict verdict;/* of gm, by the one rule */
	/* The tests' own verdicts: faster and slower count a direction of
	 * unsure size too; undecided is cannot tell or no interval. */
	size_t faster, slower, same, undecided;
};

/* The geometric mean exp(mean x) of n ln ratios x (se: each one's standard
 * error, or NULL, NAN entries unknown) with a 95% interval: Student's t over
 * n - 1 degrees of freedom on the larger of the tests' spread about their
 * mean (the tests resampled: their differences from each other and their
 * noise both in it) and what their own intervals give.  Fewer than 2
 * values, or no spread at all: no interval (NAN ends, KNEE_UNKNOWN). */
void analysis_geomean(const double *x, const double *se, size_t n, struct stats_ci *out,
		      enum knee_verdict *verdict);

/* The overall figure of the label label_idx (an rps label index) against
 * the baseline: each test's delta as analysis_cmp_delta gives it (peak to
 * peak, or at --depth).  Returns 0, or -1 (out->n counted) with fewer than
 * ANALYSIS_OVERALL_MIN tests. */
int analysis_overall(const struct analysis_result *r, size_t label_idx,
		     struct analysis_overall *out);

/* A comparison across clients measures the clients too (on one server
 * redis-benchmark's client is 2 to 3 times slower than rsweep's at shallow
 * depths).  The k-th label (k from 0) whose rows name another client than
 * the baseline's: its first series' index in r->series, or -1 past the
 * last; the baseline's client in *base.  Rows that name no client (older
 * files) never count. */
long analysis_other_client(const struct analysis_result *r, size_t k, const char **base);

#endif
