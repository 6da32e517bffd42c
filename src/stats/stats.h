/* stats.h: generic statistics on plain arrays: a seeded random number
 * generator, median, quantiles, MAD, and the percentile bootstrap.
 *
 * Pure functions: no I/O, no globals, nothing kept between calls.  Every
 * random figure comes from a struct stats_rng that the caller seeds, so one
 * seed gives the same bytes on every run of one build (another compiler or
 * libm may differ in the last bits of a figure, never in the draws).
 *
 * Input arrays: a function taking `const double *` leaves the array as it
 * was; one whose name ends in _inplace reorders it (never changes values)
 * and says so.  Arrays must hold no NaN unless a function says it accepts
 * them: with a NaN the order is unspecified (no crash, no out-of-bounds
 * access, just a meaningless figure).  +-inf are ordinary large values. */
#ifndef RS_STATS_H
#define RS_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

/* 1 / Phi^-1(3/4): MAD times this estimates the standard deviation of a
 * normal sample. */
#define STATS_MAD_TO_SD 1.482602218505602

/* ---- random numbers ---- */

/* xoshiro256** (Blackman and Vigna, 2018): 256 bits of state, period
 * 2^256 - 1, about 1 ns a draw, passes BigCrush.  Not for cryptography. */
struct stats_rng {
	uint64_t s[4];
};

/* Seed r from one 64-bit value through splitmix64, as the xoshiro authors
 * advise (any seed, 0 included, gives a good state). */
void stats_rng_seed(struct stats_rng *r, uint64_t seed);
/* The next 64 random bits.  Inline, as the draw below: a bootstrap makes
 * billions of them on a big file and the call was a fifth of its cost. */
static inline uint64_t stats_rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t stats_rng_next(struct stats_rng *r)
{
	uint64_t *s = r->s, out = stats_rng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = stats_rng_rotl(s[3], 45);
	return out;
}

/* Uniform on [0, 1), 53 random bits. */
static inline double stats_rng_uniform(struct stats_rng *r)
{
	return (double)(stats_rng_next(r) >> 11) * 0x1.0p-53;
}

/* Uniform on 0..n-1 without modulo bias (Lemire's multiply and reject);
 * n must be at least 1. */
static inline uint64_t stats_rng_below(struct stats_rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)stats_rng_next(r) * n;
	uint64_t low = (uint64_t)m;

	/* The low word falls in the biased sliver [0, 2^64 mod n) with
	 * probability below n / 2^64: redraw then. */
	if (low < n) {
		uint64_t floor = -n % n;

		while (low < floor) {
			m = (unsigned __int128)stats_rng_next(r) * n;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}
/* Standard normal (Marsaglia's polar method: no trigonometry, two uniforms
 * and a log per pair; the spare value is not kept, so a draw's value
 * depends only on the state). */
double stats_rng_normal(struct stats_rng *r);
/* A seed for a sub-stream: seed and tag through the splitmix64 finaliser.
 * Each figure draws from a stream of its own, so that it does not depend on
 * what was computed before it. */
uint64_t stats_seed_mix(uint64_t seed, uint64_t tag);

/* ---- order statistics ---- */

/* Sort v[0..n) ascending, in place (heapsort after a check for the sorted
 * case: O(n log n), no recursion, no allocation). */
void stats_sort(double *v, size_t n);

/* The k-th smallest of v[0..n) (k < n), reordering v so that v[k] holds it,
 * v[0..k) holds nothing larger and v(k..n) nothing smaller.  Expected O(n),
 * ties included (quickselect, median-of-three pivot, three-way partition;
 * insertion sort below 16 values); n log n at worst (a bad run of pivots
 * ends in heapsort). */
double stats_select_inplace(double *v, size_t n, size_t k);

/* The median of three values (a NaN among them gives some one of them). */
double stats_mid3(double a, double b, double c);

/* Median of v[0..n): the middle value, or the mean of the two middle values
 * for even n; NAN for n == 0.  The _inplace form reorders v; the other
 * copies (one malloc when n > 64).  Expected O(n). */
double stats_median_inplace(double *v, size_t n);
double stats_median(const double *v, size_t n);

/* Quantile p (0 <= p <= 1) of v[0..n), Hyndman and Fan type 7 (R's and
 * NumPy's default: linear between order statistics (n-1)p and the next);
 * NAN for n == 0 or p outside [0, 1].  The _inplace form reorders v; the
 * other copies.  O(n) expected. */
double stats_quantile_inplace(double *v, size_t n, double p);
double stats_quantile(const double *v, size_t n, double p);

/* Quantile p of v[0..n), Hyndman and Fan type 6: linear between order
 * statistics (n+1)p and the next, clamped to the extremes.  The p and 1-p
 * quantiles of type 6 bound one new value from the same distribution with
 * probability 1-2p on average, where type 7's are too narrow for small n
 * (n = 38: 90% for a 95% interval).  Reorders v; NAN for n == 0 or p outside
 * [0, 1].  O(n) expected. */
double stats_quantile6_inplace(double *v, size_t n, double p);

/* Median absolute deviation from the median of v[0..n), unscaled (times
 * STATS_MAD_TO_SD for a normal sd); NAN for n == 0.  Copies v.  O(n). */
double stats_mad(const double *v, size_t n);

/* ---- the percentile bootstrap ---- */

/* A figure with its interval.  est is the figure of the data itself; lo and
 * hi bound the interval, NAN when it could not be computed. */
struct stats_ci {
	double est, lo, hi;
};

/* The percentile interval of bootstrap replicates rep[0..B) at level (0.95
 * for 95%): their (1-level)/2 and (1+level)/2 quantiles (type 7).  Accepts
 * NaN replicates (a statistic undefined on that resample) and leaves them
 * out; reorders rep (the kept values first).  Returns how many replicates
 * were kept; lo and hi are NAN when none was.  O(B) expected. */
size_t stats_percentile_inplace(double *rep, size_t B, double level, double *lo, double *hi);

/* A statistic of sample x[0..n).  x is a scratch copy that the statistic may
 * reorder; ctx is the caller's.  Returns NAN where undefined. */
typedef double stats_statistic(double *x, size_t n, void *ctx);

/* Percentile bootstrap of statistic f over sample x[0..n): B resamples of n
 * values drawn with replacement (stream seed), f of each, and the percentile
 * interval of those at level.  ci->est is f of x itself.  *nfail (when not
 * NULL) gets the number of resamples on which f was NaN, left out of the
 * interval.  x is left as it was.  Returns 0, or -1 with err set when n is 0,
 * B is below 2 or level is not inside (0, 1).  Costs B * (n draws + one
 * call of f) plus O(B); memory n + B doubles, freed before returning.
 *
 * The percentile interval is right to first order and needs no variance
 * formula.  For the median of n normal values a 95% interval covered, of
 * 400 samples at B = 400, 94% at n = 12, 91% at 25, 96% at 50, 95% at 100;
 * below about 10 it is useless: the resampled medians take too few
 * distinct values (with n = 5 no order statistics form a 95% interval). */
int stats_bootstrap(const double *x, size_t n, stats_statistic *f, void *ctx, size_t B,
		    double level, uint64_t seed, struct stats_ci *ci, size_t *nfail,
		    struct rs_err *err);

/* The statistic "median" for stats_bootstrap (ctx unused). */
double stats_median_statistic(double *x, size_t n, void *ctx);

/* ---- resampled medians by ranks ---- */

/* The median of a resample of x[0..n) is an order statistic of x, so it
 * can be found by counting ranks rather than by sorting values: xs gets x
 * sorted and rank[j] the place of x[j] in it (xs[rank[j]] == x[j]).
 * Returns 0, or -1 (xs and rank then unspecified) when x holds a NaN,
 * whose order is unspecified, or a zero, whose sign an order statistic
 * taken by rank need not keep: the caller then sorts values as before.
 * O(n log n); n below 2^32. */
int stats_rank(const double *x, size_t n, double *xs, uint32_t *rank);

/* The ranks *lo and *hi of the lower and upper middle values of a resample
 * of n of rank[0..n) (equal for odd n), drawn from r exactly as
 * x[stats_rng_below(r, n)] n times: the same stream gives the same median
 * as sorting the drawn values, (xs[*lo] + xs[*hi]) / 2 for even n.  cnt
 * must hold n zeros, and is left holding the counts (the caller clears it
 * the cheapest way it has).  O(n). */
static inline void stats_rank_median(struct stats_rng *r, const uint32_t *rank, size_t n,
				     uint32_t *cnt, size_t *lo, size_t *hi)
{
	size_t k = (n - 1) / 2, c = 0, a;

	for (size_t j = 0; j < n; j++)
		cnt[rank[stats_rng_below(r, n)]]++;
	for (a = 0; (c += cnt[a]) <= k; a++)
		;
	*lo = *hi = a;
	if (n % 2 == 0 && c == k + 1)
		for (*hi = a + 1; cnt[*hi] == 0; ++*hi)
			;
}

#endif
