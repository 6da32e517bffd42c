/* knee_boot.c: the resampling of one series: each depth's resampled
 * median (its repeats, its exact law from KNEE_FAST_N repeats, or the
 * pooled noise), the per-depth intervals of the medians, and the two
 * bootstraps of the level's figures, smoothed and fitted (knee_int.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/knee.h"
#include "stats/knee_int.h"
#include "base/xalloc.h"

/* What makes one depth's resampled median cheap.  From KNEE_FAST_N
 * repeats its law: the sorted repeats, and for the order statistic h of a
 * resample (h and h + 1 for even n) the probability that it is at or
 * below x[j], j = 0..n-1.  From KNEE_BOOT_MIN_N repeats (when stats_rank
 * allows) the sorted repeats and each repeat's rank, so that a resample's
 * median is found by counting ranks (stats_rank_median), not by sorting
 * drawn values.  Either way ln_one[j] is the ln median when both middles
 * are x[j], computed once by the very expression knee_draw would use. */
struct knee_medtab {
	double *x;
	double *cdf_lo, *cdf_hi;  /* cdf_hi == cdf_lo for odd n; NULL below KNEE_FAST_N */
	uint32_t *rank;           /* below KNEE_FAST_N; NULL above or when unranked */
	double *ln_one;
};

/* P(Bin(n, p) >= h) for p = (j + 1) / n, j = 0..n-1, into cdf.
 *
 * Summing every term from h to n for every j made this quadratic in the
 * repeats (issue 25, T3: 300k repeats took minutes), and above a few hundred
 * repeats it was wrong as well: for p well above h / n, pmf(h) underflows
 * to 0, every later term with it, and the law said 0 where it is 1, which
 * sent resampled medians to the top repeats (an interval of -0.9%..+5.9%
 * for 16k repeats whose true one is -0.1%..+0.1%).  Two rules now:
 * a j whose mean np lies more than sqrt(25 n) above h has P(Bin(n, p) < h)
 * below exp(-50) by Hoeffding's bound, far under the 2^-53 a uniform draw
 * resolves, and gets 1 without a sum (for n < 100 the rule never applies);
 * and the sum stops once a term no longer changes it while the terms only
 * shrink from there on (the ratio falls with i and rounding is monotonic,
 * so no later term could change it): the same bits as the whole sum's. */
static void knee_medtab_cdf(size_t n, size_t h, double *cdf)
{
	double wide = sqrt(25.0 * (double)n);

	for (size_t j = 0; j < n; j++) {
		double p = (double)(j + 1) / (double)n, sum = 0, pmf;

		if (j + 1 == n || (double)(j + 1) - (double)h > wide) {
			cdf[j] = 1;
			continue;
		}
		/* pmf(h) in logs, then the ratio pmf(i + 1) / pmf(i). */
		pmf = exp(lgamma((double)n + 1) - lgamma((double)h + 1) - lgamma((double)(n - h) + 1) +
			  (double)h * log(p) + (double)(n - h) * log1p(-p));
		for (size_t i = h; i <= n; i++) {
			double ratio = (double)(n - i) / (double)(i + 1) * p / (1 - p);

			if (sum + pmf == sum && ratio <= 1)
				break;
			sum += pmf;
			pmf *= ratio;
		}
		cdf[j] = sum < 1 ? sum : 1;
	}
}

/* Depth i's ranks into t (n repeats, KNEE_BOOT_MIN_N <= n < KNEE_FAST_N),
 * or nothing when stats_rank refuses them. */
static void knee_medtab_rank(const struct knee_series *s, size_t i, struct knee_medtab *t)
{
	size_t n = s->n[i];

	t->x = xmalloc(n * sizeof *t->x);
	t->rank = xmalloc(n * sizeof *t->rank);
	if (stats_rank(s->v[i], n, t->x, t->rank) < 0) {
		free(t->x);
		free(t->rank);
		t->x = NULL;
		t->rank = NULL;
		return;
	}
	/* knee_draw's log(stats_median_inplace(...)) with both middles x[j]. */
	t->ln_one = xmalloc(n * sizeof *t->ln_one);
	for (size_t j = 0; j < n; j++)
		t->ln_one[j] = n % 2 ? log(t->x[j]) : log((t->x[j] + t->x[j]) / 2);
}

void knee_medtab_build(const struct knee_series *s, struct knee_result *r)
{
	r->medtab = xcalloc(s->m, sizeof *r->medtab);
	for (size_t i = 0; i < s->m; i++) {
		struct knee_medtab *t = &r->medtab[i];
		size_t n = s->n[i];

		if (n >= KNEE_BOOT_MIN_N && n < KNEE_FAST_N)
			knee_medtab_rank(s, i, t);
		if (n < KNEE_FAST_N)
			continue;
		t->x = xmalloc(n * sizeof *t->x);
		memcpy(t->x, s->v[i], n * sizeof *t->x);
		stats_sort(t->x, n);
		t->cdf_lo = xmalloc(n * sizeof *t->cdf_lo);
		knee_medtab_cdf(n, (n + 1) / 2, t->cdf_lo);
		t->cdf_hi = t->cdf_lo;
		if (n % 2 == 0) {
			t->cdf_hi = xmalloc(n * sizeof *t->cdf_hi);
			knee_medtab_cdf(n, n / 2 + 1, t->cdf_hi);
		}
		/* knee_draw's log((x[a] + x[b]) / 2) with a == b. */
		t->ln_one = xmalloc(n * sizeof *t->ln_one);
		for (size_t j = 0; j < n; j++)
			t->ln_one[j] = log((t->x[j] + t->x[j]) / 2);
	}
}

void knee_medtab_free(struct knee_medtab *t, size_t m)
{
	for (size_t i = 0; t != NULL && i < m; i++) {
		if (t[i].cdf_hi != t[i].cdf_lo)
			free(t[i].cdf_hi);
		free(t[i].cdf_lo);
		free(t[i].x);
		free(t[i].rank);
		free(t[i].ln_one);
	}
	free(t);
}

/* The smallest j with cdf[j] >= u. */
static size_t knee_medtab_find(const double *cdf, size_t n, double u)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cdf[mid] >= u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* The median of n draws from pool, drawn and sorted as
 * stats_median_inplace(work, n) sorts them (n <= 16: insertion sort, each
 * value inserted as it is drawn, which is the same sort step by step): the
 * same bits, NaN and signed zeros included, without the calls. */
static double knee_pool_median(const double *pool, size_t npool, size_t n,
			       struct stats_rng *rng, double *work)
{
	size_t k = (n - 1) / 2;
	double m;

	for (size_t j = 0; j < n; j++) {
		double v = pool[stats_rng_below(rng, npool)];
		size_t i = j;

		for (; i > 0 && work[i - 1] > v; i--)
			work[i] = work[i - 1];
		work[i] = v;
	}
	if (n % 2)
		return work[k];
	/* stats_median_inplace's upper middle: the smallest of the rest. */
	m = work[k + 1];
	for (size_t i = k + 2; i < n; i++)
		if (work[i] < m)
			m = work[i];
	return (work[k] + m) / 2;
}

/* One resampled ln median of depth i: its repeats from KNEE_BOOT_MIN_N on,
 * else centre plus the median of n draws from the pool.  work holds n.
 * Every path draws and computes exactly what sorting the drawn values
 * would (the tables of knee_medtab_build only skip work). */
double knee_draw(const struct knee_series *s, const struct knee_result *r, size_t i,
		 double centre, struct stats_rng *rng, double *work)
{
	size_t n = s->n[i];
	const struct knee_medtab *t = r->medtab != NULL ? &r->medtab[i] : NULL;

	if (t != NULL && t->cdf_lo != NULL) {
		double u = stats_rng_uniform(rng);
		size_t a = knee_medtab_find(t->cdf_lo, n, u);
		size_t b = t->cdf_hi == t->cdf_lo ? a : knee_medtab_find(t->cdf_hi, n, u);

		return a == b ? t->ln_one[a] : log((t->x[a] + t->x[b]) / 2);
	}
	if (t != NULL && t->rank != NULL) {
		uint32_t cnt[KNEE_FAST_N] = { 0 };
		size_t a, b;

		stats_rank_median(rng, t->rank, n, cnt, &a, &b);
		return a == b ? t->ln_one[a] : log((t->x[a] + t->x[b]) / 2);
	}
	if (n >= KNEE_BOOT_MIN_N) {
		for (size_t j = 0; j < n; j++)
			work[j] = s->v[i][stats_rng_below(rng, n)];
		return log(stats_median_inplace(work, n));
	}
	if (n == 1)
		return centre + r->pool[stats_rng_below(rng, r->npool)];
	return centre + knee_pool_median(r->pool, r->npool, n, rng, work);
}

/* Per-depth intervals of the medians.  One repeat: a resample is the value
 * plus one draw from the pool, so the interval is the value plus the pool's
 * quantiles, computed exactly rather than by drawing, and of type 6: the
 * percentile ones (type 7) of a pool of 38 cover 90%, not 95%. */
void knee_points(const struct knee_series *s, const struct knee_opts *o,
		 struct knee_result *r, const double *y, double *work)
{
	double q_lo = NAN, q_hi = NAN, *rep = xcalloc(o->B, sizeof *rep);

	if (r->noise != KNEE_NOISE_NONE) {
		double *q = xcalloc(r->npool, sizeof *q);

		memcpy(q, r->pool, r->npool * sizeof *q);
		q_lo = stats_quantile6_inplace(q, r->npool, (1 - o->level) / 2);
		q_hi = stats_quantile6_inplace(q, r->npool, (1 + o->level) / 2);
		free(q);
	}
	for (size_t i = 0; i < s->m; i++) {
		struct knee_point *pt = &r->pts[i];
		uint64_t seed = stats_seed_mix(o->seed, (uint64_t)KNEE_TAG_POINT << 32 | i);
		struct stats_rng rng;

		pt->median.lo = pt->median.hi = NAN;
		pt->method = KNEE_CI_NONE;
		if (r->medtab != NULL && r->medtab[i].cdf_lo != NULL) {
			/* The same resampled median, drawn from its law (KNEE_FAST_N). */
			pt->method = KNEE_CI_REPEATS;
			stats_rng_seed(&rng, seed);
			for (size_t b = 0; b < o->B; b++)
				rep[b] = knee_draw(s, r, i, 0, &rng, work);
			stats_percentile_inplace(rep, o->B, o->level, &pt->median.lo, &pt->median.hi);
			pt->median.lo = exp(pt->median.lo);
			pt->median.hi = exp(pt->median.hi);
			continue;
		}
		if (s->n[i] >= KNEE_BOOT_MIN_N) {
			pt->method = KNEE_CI_REPEATS;
			stats_bootstrap(s->v[i], s->n[i], stats_median_statistic, NULL, o->B,
					o->level, seed, &pt->median, NULL, NULL);
			continue;
		}
		if (r->noise == KNEE_NOISE_NONE)
			continue;
		pt->method = KNEE_CI_POOLED;
		if (s->n[i] == 1) {
			pt->median.lo = exp(y[i] + q_lo);
			pt->median.hi = exp(y[i] + q_hi);
			continue;
		}
		stats_rng_seed(&rng, seed);
		for (size_t b = 0; b < o->B; b++)
			rep[b] = knee_draw(s, r, i, y[i], &rng, work);
		stats_percentile_inplace(rep, o->B, o->level, &pt->median.lo, &pt->median.hi);
		pt->median.lo = exp(pt->median.lo);
		pt->median.hi = exp(pt->median.hi);
	}
	free(rep);
}

/* Replicate k of each figure of g into rep[figure]; NAN for all when g
 * is NULL (a replicate whose fit failed). */
static void knee_store(double **rep, size_t k, const struct knee_figs *g,
		       const struct knee_series *s)
{
	rep[KNEE_REP_SAT][k] = g ? s->depth[g->sat] : NAN;
	rep[KNEE_REP_GAIN][k] = g ? g->gain : NAN;
	rep[KNEE_REP_PEAK][k] = g ? g->peak_ln : NAN;
	rep[KNEE_REP_FALL][k] = g ? g->fall : NAN;
}

/* One replicate of the series around centre into w->ys. */
static void knee_replicate(const struct knee_series *s, const struct knee_result *r,
			   const double *centre, struct stats_rng *rng, struct knee_work *w)
{
	for (size_t i = 0; i < s->m; i++)
		w->ys[i] = knee_draw(s, r, i, centre[i], rng, w->work);
}

/* The smoothed bootstrap: B replicates around the smoothed level, each
 * smoothed again; the figures of each into w->rep[0].  Smoothing the
 * smoothed level moves a corner a little further (a peak lower, a fall
 * shallower), so each replicate is taken as an error about the figure of
 * that level itself, fc, and added to the data's figure fs: the interval
 * is then about fs, not about a twice-smoothed curve.  The falls test
 * keeps the fall of each replicate as drawn (w->fall_raw): under no fall,
 * the smoothed level is the world the replicates come from, and the
 * translation would carry the fall that noise alone put into fs into
 * every replicate (4.5% of noisy model curves "fell", against 0.5%). */
void knee_boot_smoothed(const struct knee_series *s, const struct knee_opts *o,
			const struct knee_smoother *h, const struct knee_figs *fs,
			const struct knee_result *r, struct knee_work *w)
{
	struct stats_rng rng;
	struct knee_figs fc;
	size_t m = s->m;

	double *lc = w->lrep[0] != NULL ? xcalloc(m, sizeof *lc) : NULL;

	knee_median3(w->x, w->smooth, m, w->zs);
	knee_smooth(h, w->zs, w->ls);
	knee_figures(w->x, w->ls, m, o->knee, NAN, &fc);
	if (lc != NULL)
		memcpy(lc, w->ls, m * sizeof *lc);
	stats_rng_seed(&rng, stats_seed_mix(o->seed, KNEE_TAG_SMOOTH));
	for (size_t k = 0; k < o->B; k++) {
		struct knee_figs g;
		ptrdiff_t sat;

		knee_replicate(s, r, w->smooth, &rng, w);
		knee_median3(w->x, w->ys, m, w->zs);
		knee_smooth(h, w->zs, w->ls);
		knee_figures(w->x, w->ls, m, o->knee, NAN, &g);
		/* The level's error about the level it replicates, as for the
		 * figures below: the band is then about the data's smoothing. */
		for (size_t i = 0; lc != NULL && i < m; i++)
			w->lrep[0][i * o->B + k] = w->ls[i] - lc[i];
		w->fall_raw[k] = g.fall;
		sat = (ptrdiff_t)g.sat + (ptrdiff_t)fs->sat - (ptrdiff_t)fc.sat;
		g.sat = sat < 0 ? 0 : (size_t)sat >= m ? m - 1 : (size_t)sat;
		g.peak_ln += fs->peak_ln - fc.peak_ln;
		g.gain *= fs->gain / fc.gain;
		g.fall *= fs->fall / fc.fall;
		knee_store(w->rep[0], k, &g, s);
	}
	free(lc);
}

/* The fitted bootstrap: B replicates around centre, the model refitted to
 * each from ab (R and K into w->rep[1]), and the level curve (lmod, lt)
 * when it is a fitted one (lmod not NULL) refitted for its figures. */
void knee_boot_fitted(const struct knee_series *s, const struct knee_opts *o,
		      const double *ab, const struct knee_model *lmod, const double *lt,
		      struct knee_result *r, struct knee_work *w)
{
	struct stats_rng rng;
	struct knee_data dm = w->d_mm, dg = w->d_gen;

	dm.y = dg.y = w->ys;
	stats_rng_seed(&rng, stats_seed_mix(o->seed, KNEE_TAG_MODEL));
	for (size_t k = 0; k < o->B; k++) {
		double t[3];
		struct knee_figs g;
		int ok = 0;

		knee_replicate(s, r, w->centre, &rng, w);
		w->rep[1][KNEE_REP_R][k] = w->rep[1][KNEE_REP_K][k] = NAN;
		memcpy(t, ab, 2 * sizeof *t);
		if (isfinite(knee_lm(&knee_mm, &dm, t, 40, KNEE_TOL_BOOT)))
			knee_ab_to_rk(t, &w->rep[1][KNEE_REP_R][k], &w->rep[1][KNEE_REP_K][k]);
		else
			r->fit.nfail++;
		if (lmod != NULL) {
			if (lmod != &knee_mm) {
				memcpy(t, lt, lmod->np * sizeof *t);
				ok = isfinite(knee_lm(lmod, &dg, t, 40, KNEE_TOL_BOOT));
			} else {
				ok = isfinite(w->rep[1][KNEE_REP_R][k]) && t[0] >= 0;
			}
			ok = ok && knee_curve_figures(lmod, &dm, t, w->x, o->knee, w->ls, &g) == 0;
		}
		knee_store(w->rep[1], k, ok ? &g : NULL, s);
		/* The refitted curve about the fitted one it was drawn from. */
		if (w->lrep[1] != NULL) {
			w->lok[k] = (unsigned char)ok;
			for (size_t i = 0; ok && i < s->m; i++)
				w->lrep[1][i * o->B + k] = w->ls[i] - w->centre[i];
		}
	}
}
