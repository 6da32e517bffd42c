/* knee.h: the figures of one throughput-against-depth series, each with a
 * 95% interval: every depth's median, the peak, the saturation depth,
 * whether the curve saturates at all, the model rps(P) = P / (a + b P),
 * and the ratio of two series.  Driven by plain arrays; computes, never
 * prints; deterministic for a seed (a report reproduces byte for byte).
 *
 * THE NOISE MODEL.  Noise on a throughput is multiplicative (a slow time
 * slice costs a share of the rate, not a number of requests), so all the
 * work is on ln rps, where it is additive with a scale sigma (0.1 is about
 * 10%) taken as the same at every depth of a series.  sigma and the shape
 * of the noise are learnt as a pool of standardised residuals, each one
 * draw of the noise of ONE measurement:
 *  - from the repeats, when they give at least KNEE_WITHIN_MIN_DF degrees
 *    of freedom (sum of n_i - 1): each repeat's deviation from its depth's
 *    mean, times sqrt(n_i / (n_i - 1));
 *  - else across neighbouring depths (rsweep's default of one repeat per
 *    depth): the pseudo-residuals of Gasser, Sroka and Jennen-Steinmetz
 *    (Biometrika 1986), each depth's ln median against the straight line
 *    through its two neighbours on the log2-depth axis, scaled to unit
 *    variance.  A smooth curve drops out (exactly where it is straight on
 *    that axis, as a throughput curve is below and above its knee), and no
 *    model and no smoothing choice is involved;
 *    Once the level (below) is a fitted curve, its own residuals replace
 *    them (KNEE_NOISE_RESIDUALS), scaled by their leverage: where depths
 *    are sparse (1, 2, 4 ... 64) the line through two neighbours mistakes
 *    the knee's bend for noise, the fitted curve does not;
 *  - fewer than KNEE_MIN_POOL residuals (one repeat and fewer than 5
 *    depths): the noise is unknown, every interval is NAN, and the verdicts
 *    (saturated, falls) fall back on the point figures.
 * sigma is 1.4826 MAD of the pool, so that a dip, or the bend of the knee
 * where depths are sparse, does not pose as noise (below KNEE_SMALL_POOL
 * residuals, a short series', at least their root mean square: a MAD of 3
 * or 4 values can be a fifth of the noise, and the clip then squeezed the
 * pool to nothing, a zero-width interval; and the pool is then widened by
 * Student's t over the normal quantile, t(df = residuals), since so few
 * residuals know the scale only roughly.  On 1600 model curves of 5 to 8
 * single measurements, 5-15% noise, the peak's interval covered the true
 * peak 76% of the time before these two rules, 84% with the first, 89%
 * with both; tests/test_knee.c measures it on model and corner curves);
 * the pool is centred on
 * its Huber location (that of the fits) and winsorised at KNEE_POOL_CLIP
 * sigma for the same reason.  Measured throughput noise is skewed (dips
 * when the host takes the CPU: data/sweep-*.csv): resampling the pool, not
 * drawing normals, keeps that shape.
 *
 * THE LEVEL.  The peak of raw medians is the luckiest point: with 10-15%
 * noise and 25 depths on the plateau it sits 2 sigma above the plateau, so
 * "95% of the peak" lands on the next lucky point anywhere past the knee
 * (today's rule: P = 27..40 for one sweep).  And a curve that gains 5% from
 * its knee to P_max cannot be read off a local average of 15%-noise
 * points at all.  So the level is a curve fitted to every depth at once,
 * robustly (Huber weights: one dip does not bend it), on ln rps:
 *  - the model P / (a + b P) where it describes the curve (fit.status
 *    KNEE_FIT_OK): KNEE_LEVEL_MODEL;
 *  - else the same family with the sharpness of the knee free,
 *    P R / (K^s + P^s)^(1/s) (s = 1 is the model, large s a line that
 *    turns flat), where that one describes it: KNEE_LEVEL_CURVE.  It is
 *    chosen over the model only when it fits better beyond chance (a
 *    likelihood-ratio test at p = 0.01), so a model curve keeps the
 *    model's steadier estimate;
 *  - else (a curve that falls after its peak, or one neither fits) the
 *    ln medians through a running median of 3 (a single spike goes, a
 *    monotone stretch stays as it is) and a local linear smoother on log2
 *    depth, tricube weights, half-width KNEE_SMOOTH_WIDTH doublings:
 *    KNEE_LEVEL_SMOOTHED.
 * The peak is the highest level (the deepest depth, for a fitted curve,
 * which never falls); the saturation depth keeps its documented meaning:
 * the smallest depth whose LEVEL reaches knee x peak.  On synthetic model
 * curves with 10-15% noise and one repeat per depth it is 6 to 10 times
 * closer to the true saturation depth than the raw rule and varies 4 to 7
 * times less; 5 times closer on a line that turns flat, 2 times on a curve
 * that falls after its peak (tests/test_knee.c has the figures).
 *
 * THE BOOTSTRAP.  One replicate of a series is a new value at every depth:
 *  - a depth with n_i >= KNEE_BOOT_MIN_N repeats resamples its own repeats
 *    (the median of n_i of them drawn with replacement);
 *  - any other depth is the level plus the median of n_i draws from the
 *    pool: a residual bootstrap, with the noise learnt across the series.
 *    A median of 2 or 5 repeats resampled takes only a few distinct values
 *    (with 5 no order statistics make a 95% interval at all), so small n
 *    borrows the series' noise; from 10 on the depth's own repeats are
 *    trusted.
 * Every figure is computed again on each of B replicates (default
 * KNEE_DEFAULT_B; the fits refitted, with the data's robust weights; the
 * choice of level curve kept) and its interval is the percentile interval
 * at opts.level (a smoothed level's figures as errors about the twice-
 * smoothed level's own, added to the data's: smoothing twice would move
 * them).  Intervals of depths are rounded outward to depths of the list.
 * On the synthetic curves the saturation depth's 95% interval
 * covers the true depth 90-98% of the time, and every interval holds its
 * estimate.
 *
 * SATURATED OR STILL RISING.  The gain per doubling over the last doubling
 * measured (level at P_max against level at P_max / 2, or at the first
 * depth when the series starts above that, per doubling).  The curve is
 * still rising (not saturated) when the interval of that gain lies wholly
 * above KNEE_RISING, 1.05: the model curve gains 5% a doubling at 9.5 K,
 * just past its 90% point (9 K; 95% is at 19 K).  A noisy flat curve
 * must not pass for rising, hence the whole interval; without a noise
 * estimate, the point gain decides.  When the curve is still rising the
 * saturation depth is not in the data: its interval's upper end is NAN
 * ("beyond P_max") and the estimate only says the knee is there or later.
 *
 * COSTS.  A series of m depths costs O(B m w) for the smoothed replicates
 * (w <= KNEE_MAX_WINDOW points a depth) plus B model fits of about 3
 * Newton passes of O(m) (and B fits of the free-exponent curve when that
 * is the level, about 5 passes).  Measured on the project's shared 2-core
 * VM, one core, B = 1000: 3.7 ms a series of 40 depths with the model as
 * level, 5.3 ms of 64, 9.8 ms with the free exponent; B = 2000 about
 * doubles it (6.8 ms).  40 series of 40 depths: 0.15 s (0.27 s at 2000);
 * the 26 series of data/sweep-*.csv, each whole and each repeat alone (104
 * series): 0.44 s.  Memory O(m w + B) a series. */
#ifndef RS_KNEE_H
#define RS_KNEE_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "stats/stats.h"

#define KNEE_DEFAULT_KNEE 0.95
#define KNEE_DEFAULT_LEVEL 0.95
/* 1000 resamples: a 95% interval's ends rest on 25 replicates each, which
 * moves them by a few percent of the interval's width from seed to seed;
 * 2000 halves that for twice the time. */
#define KNEE_DEFAULT_B 1000
/* Below 100 a 95% percentile interval rests on its two or three outermost
 * replicates. */
#define KNEE_MIN_B 100
#define KNEE_MAX_B 1000000
/* Repeats at a depth from which that depth resamples its own repeats. */
#define KNEE_BOOT_MIN_N 10
/* Repeats from which a depth's resampled median is drawn from its exact
 * distribution, an order statistic chosen by the binomial law of how many
 * draws fall at or below each value (O(log n) a draw), instead of by
 * drawing n values and selecting their median (O(n)): a file of 100
 * repeats a point costs B x 100 selections a depth otherwise.  For odd n
 * it is the very distribution of the resampled median; for even n the two
 * middle order statistics are each drawn from their own exact law with one
 * uniform (a comonotone pair: exact margins, their coupling approximate,
 * which at 32 repeats and more moves an interval's ends by far less than
 * the resampling itself). */
#define KNEE_FAST_N 32
/* Residuals needed for a noise estimate at all. */
#define KNEE_MIN_POOL 3
/* Degrees of freedom of the repeats from which they, not neighbouring
 * depths, tell the noise. */
#define KNEE_WITHIN_MIN_DF 6
/* The pool is winsorised at this many sigma. */
#define KNEE_POOL_CLIP 3.5
/* Most points the smoother averages at one depth (bounds the cost on very
 * long depth lists). */
#define KNEE_MAX_WINDOW 41
/* The smoother's half-width, doublings of depth: narrower, and noise alone
 * makes a flat curve "fall" (7% of noisy model curves, choosing the width
 * by cross-validation); wider, and a real fall is smoothed away. */
#define KNEE_SMOOTH_WIDTH 0.35
/* Likelihood ratio above which the free knee exponent fits better than the
 * model beyond chance: chi-square with 1 degree of freedom at p = 0.01. */
#define KNEE_LR_CRIT 6.635
/* A series of at most KNEE_SHORT_M depths is short: its level's peak may
 * not lie below every median of its KNEE_SHORT_TOP deepest depths (a fit
 * of 5 points bent by one low point, a corner placed before depth 1, a
 * smoother with too few neighbours); where it does, the peak is the
 * highest median (peak_median). */
#define KNEE_SHORT_M 12
#define KNEE_SHORT_TOP 3
/* Whether v says a direction (faster or slower, sure of its size or not). */
#define KNEE_VERDICT_FASTERISH(v) ((v) == KNEE_FASTER || (v) == KNEE_FASTER_UNSURE)
#define KNEE_VERDICT_SLOWERISH(v) ((v) == KNEE_SLOWER || (v) == KNEE_SLOWER_UNSURE)
/* Gain per doubling above which a curve is still rising. */
#define KNEE_RISING 1.05
/* A curve falls after its peak when its last depth's smoothed level is more
 * than this share below the peak, beyond the interval. */
#define KNEE_FALL 0.05
/* A depth whose own repeats vary by more than this (sd / mean, the
 * report's default --cv-limit) is unstable: at the deep end such depths
 * alone are no evidence of a fall.  Their median can be 35% low by bad
 * luck (CV up to 37% in three identical sweeps, issue 41), while the
 * series' pooled noise, learnt from its many steady depths, is small: so
 * a curve is called falling only when it still falls without its deepest
 * unstable depths (knee_analyse). */
#define KNEE_UNSTABLE_CV 0.10
/* Fewest depths a fall is judged on once the unstable deep end is left
 * out. */
#define KNEE_FALL_MIN_M 5
/* Below this R² (rps scale) the model is said not to fit (as today's), when
 * its residuals' robust scale is also above KNEE_POOR_NOISE sigma: with 12%
 * noise a true model curve rising from 80k to 200k scores R² 0.6. */
#define KNEE_MIN_R2 0.9
#define KNEE_POOR_NOISE 2.0
/* Residual runs test: a z below this (one-sided p = 0.001) is a systematic
 * pattern; strict, since the likelihood-ratio test is the sharper one for
 * the usual misfit (a knee sharper than the model's). */
#define KNEE_RUNS_Z (-3.09)
/* The noise band of a comparison: a ratio is called faster or slower only
 * when its interval clears 1 +- KNEE_CMP_BAND.  The interval covers the
 * noise of the points; the band covers what it cannot: drift between the
 * two runs (another day, another host load, a warmer machine), which the
 * redis-benchmarks-specification CI puts at 3%. */
#define KNEE_CMP_BAND 0.03

struct knee_opts {
	double knee;              /* saturation fraction of the peak, (0, 1] */
	double level;             /* of every interval, (0, 1): 0.95 */
	size_t B;                 /* resamples, KNEE_MIN_B..KNEE_MAX_B */
	uint64_t seed;            /* the same seed gives the same figures */
	int level_band;           /* also each depth's level interval (B x m
				   * doubles while it is worked out) */
};

/* knee 0.95, level 0.95, B KNEE_DEFAULT_B, seed 1, no level band. */
void knee_opts_default(struct knee_opts *o);

/* One series: m depths and their repeats.  Borrowed, never kept. */
struct knee_series {
	size_t m;                 /* depths, >= 1 */
	const unsigned *depth;    /* [m], ascending, distinct, >= 1 */
	const size_t *n;          /* [m], repeats at each depth, >= 1 */
	const double *const *v;   /* v[i][0..n[i]): requests per second of each
				   * repeat at depth[i], finite and > 0 */
};

enum knee_noise_src {
	KNEE_NOISE_NONE,          /* too little data: no intervals */
	KNEE_NOISE_REPEATS,       /* learnt from the repeats at each depth */
	KNEE_NOISE_NEIGHBOURS,    /* learnt across neighbouring depths */
	KNEE_NOISE_RESIDUALS,     /* from the residuals about the fitted level */
};

enum knee_ci_method {
	KNEE_CI_NONE,             /* no interval: the noise is unknown */
	KNEE_CI_REPEATS,          /* the depth's own repeats resampled (n >= 10) */
	KNEE_CI_POOLED,           /* the series' pooled noise, for a median of n
				   * (n = 1: the value times the pool's type-6
				   * quantiles, exactly) */
};

/* One depth. */
struct knee_point {
	unsigned depth;
	size_t n;                 /* repeats */
	struct stats_ci median;   /* median of the repeats and its interval, rps */
	enum knee_ci_method method;
	double level;             /* the level curve at this depth, rps */
	/* With knee_opts.level_band: the level's interval at this depth, from
	 * the same bootstrap as the peak's (the replicates of the curve the
	 * level is: the refitted model's, or the smoothed medians' about the
	 * data's smoothing); NAN otherwise or without noise to resample. */
	double level_lo, level_hi;
};

enum knee_sat {
	KNEE_SAT_YES,             /* saturated within the depths measured */
	KNEE_SAT_NO,              /* still rising at the deepest depth */
	KNEE_SAT_UNKNOWN,         /* one depth: nothing to tell */
};

enum knee_fit_status {
	KNEE_FIT_OK,
	KNEE_FIT_TOO_FEW,         /* fewer than 3 depths */
	KNEE_FIT_NONPOSITIVE,     /* b <= 0 (no asymptote) or a < 0, or no fit */
	KNEE_FIT_FALLS,           /* the curve falls after its peak: the model,
				   * which never falls, does not describe it */
	KNEE_FIT_POOR,            /* R² below KNEE_MIN_R2, residuals beyond noise */
	KNEE_FIT_PATTERN,         /* the residuals show the model misses the
				   * curve's shape even if R² is high: a knee
				   * sharper or softer than the model's (lr),
				   * or long runs of one sign (runs_z) */
};

/* rps(P) = P / (a + b P), fitted robustly on ln rps (each depth counts by
 * its relative error, the noise model's scale; Huber weights), by Newton
 * steps from the rps²-weighted linear fit of 1/rps = b + a/P. */
struct knee_fit {
	enum knee_fit_status status;
	double a_us;              /* fixed cost of one pipelined round trip, µs */
	double b_us;              /* cost of one command, µs */
	struct stats_ci R;        /* asymptote 1/b, rps; +inf in a replicate with
				   * b <= 0, so an interval may end at +inf */
	struct stats_ci K;        /* half-saturation depth a/b (95% of R at 19 K) */
	double r2;                /* against the medians, rps scale */
	double runs_z;            /* runs test of the residual signs; NAN
				   * below 10 depths or for a perfect fit */
	double lr;                /* likelihood ratio of the free-exponent curve
				   * against the model; NAN below 4 depths */
	size_t nfail;             /* replicates whose fit failed (left out) */
};
/* a, b, R, K and r2 are NAN when not computed (too few depths, no fit).
 * R, K and their intervals mean what they say for KNEE_FIT_OK only, but are
 * filled whenever a fit was found, for a report that shows why not. */

enum knee_level_src {
	KNEE_LEVEL_SMOOTHED,      /* the smoothed medians */
	KNEE_LEVEL_MODEL,         /* the model (fit.status KNEE_FIT_OK) */
	KNEE_LEVEL_CURVE,         /* P R / (K^s + P^s)^(1/s), s fitted */
};

struct knee_result {
	size_t m;
	struct knee_point *pts;   /* [m]; owned */
	enum knee_noise_src noise;
	double sigma;             /* sd of ln rps of one measurement (0.1: about
				   * 10%); NAN when unknown */
	size_t npool;             /* residuals it was learnt from */
	enum knee_level_src level;/* the curve peak, sat and gain are read off */
	double curve_R, curve_K, curve_s; /* its parameters (rps, depth, 1 for
				   * the model); NAN when smoothed */
	size_t peak;              /* index of the highest level */
	struct stats_ci peak_rps; /* that level, rps (the highest median when
				   * peak_median) */
	int peak_median;          /* a short series whose level lay below every
				   * measurement of its KNEE_SHORT_TOP deepest
				   * depths: no honest level, so the peak is the
				   * highest median, with that point's interval */
	size_t sat;               /* index of the saturation depth */
	struct stats_ci sat_depth;/* a depth; interval rounded outward to depths
				   * of the list; hi NAN when still rising */
	enum knee_sat saturated;
	struct stats_ci gain;     /* level gain per doubling over the last
				   * doubling (1.0: flat); NAN for one depth */
	struct stats_ci fall;     /* last smoothed level / peak smoothed level */
	int falls;                /* the curve falls after its peak, and still
				   * does without its deepest unstable depths */
	size_t fall_unstable;     /* the curve fell only by its fall_unstable
				   * deepest depths, each unstable (more than
				   * one repeat, CV above KNEE_UNSTABLE_CV):
				   * no fall is called (falls 0), and saturated,
				   * sat, sat_depth and gain are those of the
				   * depths before them; 0 otherwise */
	unsigned fall_after;      /* with fall_unstable: the depth of the
				   * smoothed peak, after which they lie */
	struct knee_fit fit;
	/* For the comparisons: ln peak level of each replicate (nboot of them,
	 * none when the noise is unknown) and the pool of standardised
	 * residuals (npool).  Owned. */
	double *boot_peak;
	size_t nboot;
	double *pool;
	/* Internal: the exact distribution of the resampled median of each
	 * depth with KNEE_FAST_N repeats or more, the ranks of the repeats of
	 * those with KNEE_BOOT_MIN_N or more ([m], empty entries below). */
	struct knee_medtab *medtab;
};

/* Compute every figure of series s.  Returns 0, or -1 with err set (and
 * nothing to free) when opts are out of range or s is not a valid series:
 * no depth, depths not ascending or 0, a depth without repeats, or a value
 * not finite and positive (err names the depth: ln rps needs rates above
 * zero, so a series with a zero point keeps today's figures).  Release out
 * with knee_result_free (which accepts NULL and a zeroed result). */
int knee_analyse(const struct knee_series *s, const struct knee_opts *o, struct knee_result *out,
		 struct rs_err *err);
void knee_result_free(struct knee_result *r);

/* ---- comparisons ---- */

enum knee_verdict {
	KNEE_SAME,                /* the interval lies within 1 +- KNEE_CMP_BAND */
	KNEE_FASTER,              /* the interval lies above 1 + KNEE_CMP_BAND */
	KNEE_SLOWER,              /* the interval lies below 1 - KNEE_CMP_BAND */
	KNEE_UNKNOWN,             /* no interval: a side's noise is unknown */
	KNEE_CANNOT_TELL,         /* the interval holds 1 and reaches past the
				   * band */
	KNEE_FASTER_UNSURE,       /* wholly above 1, but not above the band:
				   * faster, by how much is unsure */
	KNEE_SLOWER_UNSURE,       /* wholly below 1, but not below the band */
};

/* The one verdict rule, used by every report, format and chart: a ratio's
 * interval wholly above 1 + KNEE_CMP_BAND is faster, wholly below
 * 1 - KNEE_CMP_BAND slower, wholly within the band the same; one that
 * excludes 1 but reaches into the band gives the direction with the doubt
 * stated (KNEE_FASTER_UNSURE, KNEE_SLOWER_UNSURE: "faster, by how much is
 * unsure"); one that holds 1 and reaches past the band cannot tell; no
 * interval (a NAN end, or a zero-width one: identical or noise-free
 * measurements, whose interval the comparisons then leave NAN) is
 * KNEE_UNKNOWN.  (So an interval that reaches past
 * the band is never "same", and one within the band is "same" though it
 * exclude 1: the band is the drift between runs.)  Four outcomes and the
 * direction's doubt, as in statistics.md. */
enum knee_verdict knee_verdict_of(double lo, double hi);

/* Series a against baseline b: ratio a / b (above 1: a is faster), its
 * verdict by knee_verdict_of; within_band is verdict == KNEE_SAME. */
struct knee_cmp {
	struct stats_ci ratio;
	enum knee_verdict verdict;
	int within_band;
};

/* The ratio of the medians of a at depth index ia and b at index ib (ra, rb:
 * their knee_analyse results).  Each side is resampled on its own, as its
 * knee_point interval is: its repeats from 10 on, else its series' pooled
 * noise, learnt across its depths (one point a side: every pair of the two
 * pools, exactly).  One point a side with 12.5% noise gives about +-35%:
 * such a comparison calls only a large difference, and says "same" of two
 * runs of one server 95% of the time (94 of 100 in the test), within_band
 * never; knee_compare_peak, which borrows every depth, is the one for a
 * verdict.  Returns 0, or -1 with err set for an index out of range, a
 * result of another series, or bad opts. */
int knee_compare_at(const struct knee_series *a, const struct knee_result *ra, size_t ia,
		    const struct knee_series *b, const struct knee_result *rb, size_t ib,
		    const struct knee_opts *o, struct knee_cmp *out, struct rs_err *err);

/* The ratio of the peak levels of a and b, each at its own peak: a fitted
 * level rests on every depth, so the interval is some 5 times narrower than
 * a single point's (+-7% at 12.5% noise and 40 depths).  Pairs each replicate
 * of a with a randomly chosen one of b (stream o->seed), so that two series
 * analysed with one seed are still independent.  Returns 0, or -1 with err
 * set for bad opts. */
int knee_compare_peak(const struct knee_result *ra, const struct knee_result *rb,
		      const struct knee_opts *o, struct knee_cmp *out, struct rs_err *err);

/* The ratio of the medians of two points' repeats, va[0..na) over
 * vb[0..nb) (each in repeat order), with a 95% interval from the repeats
 * alone, for a comparison the core has no interval for (a series of one
 * depth).  With as many repeats a side (na == nb >= 2), repeat i of a is
 * paired with repeat i of b: measured back to back when the targets were
 * interleaved, which takes the machine's drift out of each pair's ratio, and
 * still an honest interval when they were not (the pairs' log ratios are
 * then independent, their spread the sum of both sides').  Else Welch's
 * interval on the logs.  Few repeats give wide intervals on purpose:
 * Student's t (4.30 at 3 pairs), where a bootstrap of 3 values covers only
 * 75%.  The verdict is knee_verdict_of's.  Leaves the interval NAN (verdict
 * KNEE_UNKNOWN) with fewer than 2 repeats a side, a value <= 0, or
 * repeats whose ratios do not vary at all (quantized figures): no
 * zero-width interval. */
void knee_compare_repeats(const double *va, size_t na, const double *vb, size_t nb,
			  struct knee_cmp *out);

/* The interval exp(centre +- t(df) se) around est (widened to hold est)
 * and its verdict: how knee_compare_repeats ends, and how the analysis
 * pools the repeats' noise across tests (df >= 1).  se 0 (nothing
 * varies) gives no interval (NAN ends, KNEE_UNKNOWN), never a zero-width
 * one. */
void knee_ratio_from_logs(double centre, double se, size_t df, double est, struct knee_cmp *out);

/* ---- runs: a level of the evidence (knee_runs.c) ----
 *
 * Points measured in one run share that run's state of the machine
 * (another day, a warmer CPU, other tenants): runs minutes apart on a
 * shared 2-core VM put one server's peak 35% apart, where each run's own
 * interval was +-7%.  No resampling of points within a run sees that, and
 * two machines cannot be interleaved.  So a figure measured in several
 * runs is estimated as the mean of the runs' own (ln) figures, with the
 * standard error of a two-level bootstrap (runs drawn with replacement,
 * then for each a draw of its within-run bootstrap: Kalibera and Jones,
 * ISMM 2013), in closed form and without its double count of the
 * within-run noise (knee_runs.c); Student's t over n - 1 degrees of
 * freedom gives the width (a percentile interval of 3 runs resampled
 * covers about 75%).  tests/test_knee.c measures the coverage. */

/* One run's figure. */
struct knee_run_fig {
	double est;               /* ln of the run's figure */
	const double *rep;        /* nrep within-run replicates of est (ln), or
				   * NULL: then se */
	size_t nrep;
	double se;                /* within-run standard error of est (ln);
				   * NAN: none known, taken as 0 */
};

/* A figure over runs, on the ln scale. */
struct knee_runs {
	size_t n;                 /* runs */
	double centre;            /* mean of the runs' figures */
	double se;                /* its standard error */
	double df;                /* n - 1; 1000 (known) for one run, whose se is
				   * its within-run noise alone */
	double between;           /* sd of a run's figure beyond its within-run
				   * noise; NAN for one run (unless borrowed) */
	double within;            /* rms of the runs' within-run se */
	int borrowed;             /* one run, between taken from the other side */
};

/* The figure of n runs f[0..n).  Returns 0, or -1 with err set for bad
 * opts, no run, or a run without a finite figure. */
int knee_runs_level(const struct knee_run_fig *f, size_t n, const struct knee_opts *o,
		    struct knee_runs *out, struct rs_err *err);
/* A side measured in one run, compared with one measured in several: its
 * runs' drift is unknown, so take from's (the same machine's runs vary
 * alike; two machines, about alike): se grows by from->between, df is
 * from's.  Does nothing unless one has one run and from several. */
void knee_runs_borrow(struct knee_runs *one, const struct knee_runs *from);
/* exp(centre), and exp(centre +- t(df) se) around it. */
struct stats_ci knee_runs_ci(const struct knee_runs *r);
/* a / b: exp(a.centre - b.centre), its interval from both standard errors
 * and Welch-Satterthwaite's degrees of freedom, and the one verdict rule. */
void knee_compare_runs(const struct knee_runs *a, const struct knee_runs *b, struct knee_cmp *out);

/* Runs a side (2 to most) for two labels whose figures differ by d (ln)
 * to be told apart beyond the noise band when a run's figure drifts by sd
 * (ln): t(2n - 2) sd sqrt(2 / n) < |d| - ln(1 + KNEE_CMP_BAND); 0 when d is
 * within the band or more than most would be needed. */
unsigned knee_runs_needed(double d, double sd, unsigned most);

/* "same", "faster", "slower", "cannot tell", "faster (size unsure)",
 * "slower (size unsure)", "unknown". */
const char *knee_verdict_name(enum knee_verdict v);

/* Student's t, two-sided 95% (the 0.975 quantile), df >= 1. */
double knee_t975(size_t df);

#endif
