/* stats.c: random numbers, order statistics, the percentile bootstrap. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "base/xalloc.h"

/* Below this many values insertion sort beats partitioning. */
#define STATS_SMALL 16
/* Medians and quantiles of at most this many values copy onto the stack. */
#define STATS_STACK 64
/* Rounds of selection before the rest is sorted instead: a fair run of
 * pivots ends well within them (about 2 log2 n rounds). */
#define STATS_SELECT_ROUNDS 64

/* splitmix64 (Steele, Lea and Flood): the next value of the sequence *x. */
static uint64_t stats_splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void stats_rng_seed(struct stats_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = stats_splitmix(&seed);
}

double stats_rng_normal(struct stats_rng *r)
{
	double u, v, s;

	do {
		u = 2 * stats_rng_uniform(r) - 1;
		v = 2 * stats_rng_uniform(r) - 1;
		s = u * u + v * v;
	} while (s >= 1 || s == 0);
	return u * sqrt(-2 * log(s) / s);
}

uint64_t stats_seed_mix(uint64_t seed, uint64_t tag)
{
	uint64_t x = seed ^ stats_splitmix(&tag);

	return stats_splitmix(&x);
}

/* Insertion sort of v[0..n): the fastest below STATS_SMALL values. */
static void stats_insertion(double *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		double x = v[i];
		size_t j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* Heapsort's sift-down of v[root] within the max-heap v[0..n). */
static void stats_sift(double *v, size_t root, size_t n)
{
	double x = v[root];

	for (size_t child; (child = 2 * root + 1) < n; root = child) {
		if (child + 1 < n && v[child + 1] > v[child])
			child++;
		if (!(v[child] > x))
			break;
		v[root] = v[child];
	}
	v[root] = x;
}

void stats_sort(double *v, size_t n)
{
	size_t i;

	if (n < STATS_SMALL) {
		stats_insertion(v, n);
		return;
	}
	for (i = 1; i < n && !(v[i - 1] > v[i]); i++)
		;
	if (i == n)
		return;
	for (i = n / 2; i-- > 0;)
		stats_sift(v, i, n);
	for (i = n; i-- > 1;) {
		double t = v[0];

		v[0] = v[i];
		v[i] = t;
		stats_sift(v, 0, i);
	}
}

/* Swap v[i] and v[j]. */
static void stats_swap(double *v, size_t i, size_t j)
{
	double t = v[i];

	v[i] = v[j];
	v[j] = t;
}

double stats_mid3(double a, double b, double c)
{
	if (a > b) {
		double t = a;

		a = b;
		b = t;
	}
	return c < a ? a : c > b ? b : c;
}

double stats_select_inplace(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n, rounds = 0; /* the k-th is somewhere in v[lo..hi) */

	while (hi - lo > STATS_SMALL) {
		double pivot = stats_mid3(v[lo], v[lo + (hi - lo) / 2], v[hi - 1]);
		size_t lt = lo, i = lo, gt = hi;

		/* A bad run of pivots (hostile values) ends in heapsort, so
		 * that no input costs more than n log n. */
		if (++rounds > STATS_SELECT_ROUNDS) {
			stats_sort(v + lo, hi - lo);
			return v[k];
		}

		/* Three ways (Dijkstra): below, equal to and above the pivot,
		 * so that many ties (bootstrap replicates of a depth are
		 * mostly ties) stay linear.  Whatever the comparisons say,
		 * NaN included, every access stays inside v[lo..hi) and the
		 * equal part holds at least the pivot: the range shrinks. */
		while (i < gt) {
			if (v[i] < pivot)
				stats_swap(v, lt++, i++);
			else if (v[i] > pivot)
				stats_swap(v, i, --gt);
			else
				i++;
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return v[k];
	}
	stats_insertion(v + lo, hi - lo);
	return v[k];
}

/* The smallest of v[0..n), n >= 1. */
static double stats_min(const double *v, size_t n)
{
	double m = v[0];

	for (size_t i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

double stats_median_inplace(double *v, size_t n)
{
	double a;

	if (n == 0)
		return NAN;
	a = stats_select_inplace(v, n, (n - 1) / 2);
	if (n % 2)
		return a;
	/* After the selection the upper middle is the smallest of the rest. */
	return (a + stats_min(v + n / 2, n / 2)) / 2;
}

/* A copy of v[0..n) for an _inplace function: stack (STATS_STACK doubles)
 * when it fits, else malloc; release with stats_uncopy. */
static double *stats_copy(const double *v, size_t n, double *stack)
{
	double *w = n <= STATS_STACK ? stack : xreallocarray(NULL, n, sizeof *w);

	if (n)
		memcpy(w, v, n * sizeof *w);
	return w;
}

/* Release a copy stats_copy made (nothing when it is the stack). */
static void stats_uncopy(double *w, const double *stack)
{
	if (w != stack)
		free(w);
}

double stats_median(const double *v, size_t n)
{
	double stack[STATS_STACK], *w = stats_copy(v, n, stack), m = stats_median_inplace(w, n);

	stats_uncopy(w, stack);
	return m;
}

double stats_quantile_inplace(double *v, size_t n, double p)
{
	double h, a, b, f;
	size_t k;

	if (n == 0 || !(p >= 0 && p <= 1))
		return NAN;
	h = (double)(n - 1) * p;
	k = (size_t)h;
	if (k >= n - 1)
		return stats_select_inplace(v, n, n - 1);
	a = stats_select_inplace(v, n, k);
	f = h - (double)k;
	if (f == 0)
		return a;
	b = stats_min(v + k + 1, n - k - 1);
	/* Equal neighbours (two infinities among them) need no arithmetic. */
	return a == b ? a : a + f * (b - a);
}

double stats_quantile6_inplace(double *v, size_t n, double p)
{
	double h;

	if (n == 0 || !(p >= 0 && p <= 1))
		return NAN;
	/* Position (n+1)p among 1..n, as 0-based h - 1, clamped. */
	h = (double)(n + 1) * p - 1;
	if (h <= 0)
		return stats_select_inplace(v, n, 0);
	if (h >= (double)(n - 1))
		return stats_select_inplace(v, n, n - 1);
	return stats_quantile_inplace(v, n, h / (double)(n - 1));
}

double stats_quantile(const double *v, size_t n, double p)
{
	double stack[STATS_STACK], *w = stats_copy(v, n, stack);
	double q = stats_quantile_inplace(w, n, p);

	stats_uncopy(w, stack);
	return q;
}

double stats_mad(const double *v, size_t n)
{
	double stack[STATS_STACK], *w = stats_copy(v, n, stack), med, mad;

	med = stats_median_inplace(w, n);
	for (size_t i = 0; i < n; i++)
		w[i] = fabs(w[i] - med);
	mad = stats_median_inplace(w, n);
	stats_uncopy(w, stack);
	return mad;
}

size_t stats_percentile_inplace(double *rep, size_t B, double level, double *lo, double *hi)
{
	size_t kept = 0;

	for (size_t i = 0; i < B; i++)
		if (!isnan(rep[i]))
			rep[kept++] = rep[i];
	*lo = *hi = NAN;
	if (kept == 0 || !(level > 0 && level < 1))
		return kept;
	*lo = stats_quantile_inplace(rep, kept, (1 - level) / 2);
	*hi = stats_quantile_inplace(rep, kept, (1 + level) / 2);
	return kept;
}

double stats_median_statistic(double *x, size_t n, void *ctx)
{
	(void)ctx;
	return stats_median_inplace(x, n);
}

/* Ranks are sorted once per sample; above this many values a count of n
 * ranks per resample is no faster than selecting among n values. */
#define STATS_RANK_MAX 65536

/* A value and where it was, for stats_rank's sort. */
struct stats_ranked {
	double v;
	uint32_t at;
};

static int stats_ranked_cmp(const void *pa, const void *pb)
{
	const struct stats_ranked *a = pa, *b = pb;

	return (a->v > b->v) - (a->v < b->v);
}

int stats_rank(const double *x, size_t n, double *xs, uint32_t *rank)
{
	struct stats_ranked *t;

	for (size_t j = 0; j < n; j++)
		if (isnan(x[j]) || x[j] == 0)
			return -1;
	t = xreallocarray(NULL, n ? n : 1, sizeof *t);
	for (size_t j = 0; j < n; j++) {
		t[j].v = x[j];
		t[j].at = (uint32_t)j;
	}
	/* Equal values are the same bits (no zero, no NaN): any order of
	 * ties gives the same xs. */
	qsort(t, n, sizeof *t, stats_ranked_cmp);
	for (size_t j = 0; j < n; j++) {
		xs[j] = t[j].v;
		rank[t[j].at] = (uint32_t)j;
	}
	free(t);
	return 0;
}

/* The B resampled medians of x[0..n) into rep, drawn from rng as the
 * general loop of stats_bootstrap draws them, by ranks when x allows
 * (stats_rank), else by sorting values; xs holds n. */
static void stats_bootstrap_median(const double *x, size_t n, size_t B, struct stats_rng *rng,
				   double *xs, double *rep)
{
	uint32_t *rank = xreallocarray(NULL, n, sizeof *rank), *cnt = xcalloc(n, sizeof *cnt);

	if (stats_rank(x, n, xs, rank) == 0) {
		for (size_t b = 0; b < B; b++) {
			size_t lo, hi;

			memset(cnt, 0, n * sizeof *cnt);
			stats_rank_median(rng, rank, n, cnt, &lo, &hi);
			rep[b] = n % 2 ? xs[lo] : (xs[lo] + xs[hi]) / 2;
		}
	} else {
		for (size_t b = 0; b < B; b++) {
			for (size_t i = 0; i < n; i++)
				xs[i] = x[stats_rng_below(rng, n)];
			rep[b] = stats_median_inplace(xs, n);
		}
	}
	free(cnt);
	free(rank);
}

int stats_bootstrap(const double *x, size_t n, stats_statistic *f, void *ctx, size_t B,
		    double level, uint64_t seed, struct stats_ci *ci, size_t *nfail,
		    struct rs_err *err)
{
	struct stats_rng rng;
	double *w, *rep;
	size_t kept;

	ci->est = ci->lo = ci->hi = NAN;
	if (nfail)
		*nfail = 0;
	if (n == 0)
		return rs_err_set(err, "bootstrap of an empty sample");
	if (B < 2)
		return rs_err_set(err, "bootstrap with %zu resamples: at least 2 are needed", B);
	if (!(level > 0 && level < 1))
		return rs_err_set(err, "bootstrap level %g is not between 0 and 1", level);
	w = xreallocarray(NULL, n, sizeof *w);
	rep = xreallocarray(NULL, B, sizeof *rep);
	memcpy(w, x, n * sizeof *w);
	ci->est = f(w, n, ctx);
	stats_rng_seed(&rng, seed);
	if (f == stats_median_statistic && n > 1 && n <= STATS_RANK_MAX)
		stats_bootstrap_median(x, n, B, &rng, w, rep);
	else
		for (size_t b = 0; b < B; b++) {
			for (size_t i = 0; i < n; i++)
				w[i] = x[stats_rng_below(&rng, n)];
			rep[b] = f(w, n, ctx);
		}
	kept = stats_percentile_inplace(rep, B, level, &ci->lo, &ci->hi);
	if (nfail)
		*nfail = B - kept;
	free(rep);
	free(w);
	return 0;
}
