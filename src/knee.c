/* knee.c: level, peak and saturation depth of throughput series, with
 * bootstrap intervals (the method is in knee.h; the noise pool is in
 * knee_noise.c, the smoother and a level's figures in knee_smooth.c, the
 * curves' fits in knee_fit.c, comparisons in knee_cmp.c). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "knee.h"
#include "knee_int.h"
#include "xalloc.h"

void knee_opts_default(struct knee_opts *o)
{
	o->knee = KNEE_DEFAULT_KNEE;
	o->level = KNEE_DEFAULT_LEVEL;
	o->B = KNEE_DEFAULT_B;
	o->seed = 1;
	o->level_band = 0;
}

/* 0, or -1 with err naming the option out of range. */
int knee_check_opts(const struct knee_opts *o, struct rs_err *err)
{
	if (!(o->knee > 0 && o->knee <= 1))
		return rs_err_set(err, "knee %g is not a fraction in (0, 1]", o->knee);
	if (!(o->level > 0 && o->level < 1))
		return rs_err_set(err, "interval level %g is not between 0 and 1", o->level);
	if (o->B < KNEE_MIN_B || o->B > KNEE_MAX_B)
		return rs_err_set(err, "%zu resamples: between %d and %d are needed", o->B,
				  KNEE_MIN_B, KNEE_MAX_B);
	return 0;
}

/* 0, or -1 with err naming the first depth that breaks knee_series' rules. */
static int knee_check_series(const struct knee_series *s, struct rs_err *err)
{
	if (s->m == 0)
		return rs_err_set(err, "a series without depths");
	for (size_t i = 0; i < s->m; i++) {
		if (s->depth[i] == 0)
			return rs_err_set(err, "depth 0 in a series");
		if (i > 0 && s->depth[i] <= s->depth[i - 1])
			return rs_err_set(err, "depth %u after depth %u: depths must ascend",
					  s->depth[i], s->depth[i - 1]);
		if (s->n[i] == 0 || s->v[i] == NULL)
			return rs_err_set(err, "depth %u: no repeats", s->depth[i]);
		for (size_t j = 0; j < s->n[i]; j++)
			if (!(isfinite(s->v[i][j]) && s->v[i][j] > 0))
				return rs_err_set(err,
						  "depth %u: rate %g is not positive and finite",
						  s->depth[i], s->v[i][j]);
	}
	return 0;
}

/* The resampled median's law at one depth (KNEE_FAST_N): the sorted
 * repeats, and for the order statistic h of a resample (h and h + 1 for
 * even n) the probability that it is at or below x[j], j = 0..n-1. */
struct knee_medtab {
	double *x;
	double *cdf_lo, *cdf_hi;  /* cdf_hi == cdf_lo for odd n */
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

static void knee_medtab_build(const struct knee_series *s, struct knee_result *r)
{
	r->medtab = xcalloc(s->m, sizeof *r->medtab);
	for (size_t i = 0; i < s->m; i++) {
		struct knee_medtab *t = &r->medtab[i];
		size_t n = s->n[i];

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
	}
}

static void knee_medtab_free(struct knee_medtab *t, size_t m)
{
	for (size_t i = 0; t != NULL && i < m; i++) {
		if (t[i].cdf_hi != t[i].cdf_lo)
			free(t[i].cdf_hi);
		free(t[i].cdf_lo);
		free(t[i].x);
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

/* One resampled ln median of depth i: its repeats from KNEE_BOOT_MIN_N on,
 * else centre plus the median of n draws from the pool.  work holds n. */
double knee_draw(const struct knee_series *s, const struct knee_result *r, size_t i,
		 double centre, struct stats_rng *rng, double *work)
{
	size_t n = s->n[i];

	if (r->medtab != NULL && r->medtab[i].x != NULL) {
		const struct knee_medtab *t = &r->medtab[i];
		double u = stats_rng_uniform(rng);

		return log((t->x[knee_medtab_find(t->cdf_lo, n, u)] +
			    t->x[knee_medtab_find(t->cdf_hi, n, u)]) / 2);
	}
	if (n >= KNEE_BOOT_MIN_N) {
		for (size_t j = 0; j < n; j++)
			work[j] = s->v[i][stats_rng_below(rng, n)];
		return log(stats_median_inplace(work, n));
	}
	if (n == 1)
		return centre + r->pool[stats_rng_below(rng, r->npool)];
	for (size_t j = 0; j < n; j++)
		work[j] = r->pool[stats_rng_below(rng, r->npool)];
	return centre + stats_median_inplace(work, n);
}

/* ---- one series ---- */

/* The depth of the list at or below v (lo) or at or above v (hi): the
 * interval of a depth is rounded outward to depths measured. */
static double knee_depth_floor(const struct knee_series *s, double v)
{
	double d = s->depth[0];

	for (size_t i = 0; i < s->m && s->depth[i] <= v; i++)
		d = s->depth[i];
	return d;
}

static double knee_depth_ceil(const struct knee_series *s, double v)
{
	for (size_t i = 0; i < s->m; i++)
		if (s->depth[i] >= v)
			return s->depth[i];
	return s->depth[s->m - 1];
}

/* Per-depth intervals of the medians.  One repeat: a resample is the value
 * plus one draw from the pool, so the interval is the value plus the pool's
 * quantiles, computed exactly rather than by drawing, and of type 6: the
 * percentile ones (type 7) of a pool of 38 cover 90%, not 95%. */
static void knee_points(const struct knee_series *s, const struct knee_opts *o,
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
		if (r->medtab != NULL && r->medtab[i].x != NULL) {
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

/* Replicates of each figure of a level curve. */
enum { KNEE_REP_SAT, KNEE_REP_GAIN, KNEE_REP_PEAK, KNEE_REP_FALL, KNEE_REP_R, KNEE_REP_K,
       KNEE_REP_NFIG };

struct knee_work {
	struct knee_data d_mm, d_gen;  /* the same data, each fit's own weights */
	double *x, *p, *lnp, *y, *prec, *w_mm, *w_gen, *z, *smooth, *centre, *ys, *zs, *ls, *work;
	double *rep[2][KNEE_REP_NFIG];  /* [smoothed / fitted bootstrap][figure][B] */
	double *fall_raw;
	/* With level_band: each replicate's level less the level it is a
	 * replicate of, ln rps, [smoothed / fitted][depth * B + replicate];
	 * lok[1][k]: whether fitted replicate k has a curve. */
	double *lrep[2];
	unsigned char *lok;
};

/* Every buffer of one analysis: m depths, maxn repeats at most, B. */
static void knee_work_alloc(struct knee_work *w, size_t m, size_t maxn, size_t B)
{
	memset(w, 0, sizeof *w);
	w->x = xcalloc(m, sizeof *w->x);
	w->p = xcalloc(m, sizeof *w->p);
	w->lnp = xcalloc(m, sizeof *w->lnp);
	w->y = xcalloc(m, sizeof *w->y);
	w->prec = xcalloc(m, sizeof *w->prec);
	w->w_mm = xcalloc(m, sizeof *w->w_mm);
	w->w_gen = xcalloc(m, sizeof *w->w_gen);
	w->z = xcalloc(m, sizeof *w->z);
	w->smooth = xcalloc(m, sizeof *w->smooth);
	w->centre = xcalloc(m, sizeof *w->centre);
	w->ys = xcalloc(m, sizeof *w->ys);
	w->zs = xcalloc(m, sizeof *w->zs);
	w->ls = xcalloc(m, sizeof *w->ls);
	w->work = xcalloc(maxn, sizeof *w->work);
	w->fall_raw = xcalloc(B, sizeof *w->fall_raw);
	for (int c = 0; c < 2; c++)
		for (int k = 0; k < KNEE_REP_NFIG; k++)
			w->rep[c][k] = xcalloc(B, sizeof *w->rep[c][k]);
}

/* The level band's buffers (knee_opts.level_band). */
static void knee_work_band(struct knee_work *w, size_t m, size_t B)
{
	for (int c = 0; c < 2; c++)
		w->lrep[c] = xcalloc(m * B, sizeof *w->lrep[c]);
	w->lok = xcalloc(B, 1);
}

/* Release what knee_work_alloc took. */
static void knee_work_free(struct knee_work *w)
{
	free(w->x);
	free(w->p);
	free(w->lnp);
	free(w->y);
	free(w->prec);
	free(w->w_mm);
	free(w->w_gen);
	free(w->z);
	free(w->smooth);
	free(w->centre);
	free(w->ys);
	free(w->zs);
	free(w->ls);
	free(w->work);
	free(w->fall_raw);
	for (int c = 0; c < 2; c++)
		for (int k = 0; k < KNEE_REP_NFIG; k++)
			free(w->rep[c][k]);
	free(w->lrep[0]);
	free(w->lrep[1]);
	free(w->lok);
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
static void knee_boot_smoothed(const struct knee_series *s, const struct knee_opts *o,
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
static void knee_boot_fitted(const struct knee_series *s, const struct knee_opts *o,
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

/* c->lo, c->hi: the percentile interval of rep[0..B) (reordered). */
static void knee_interval(double *rep, const struct knee_opts *o, struct stats_ci *c)
{
	stats_percentile_inplace(rep, o->B, o->level, &c->lo, &c->hi);
}

/* The point fits: the model (into r->fit, t_mm) and the curve with a free
 * knee exponent (t_gen; returns whether it fits better than the model
 * beyond chance, with *gen_ok whether it describes the curve itself).
 * Each is the robust fit with its own weights (w->w_mm, w->w_gen). */
static int knee_fits(struct knee_work *w, struct knee_result *r, double *t_mm, double *t_gen,
		     int *gen_ok)
{
	struct knee_data *d = &w->d_mm, *dg = &w->d_gen;
	struct knee_fit *f = &r->fit;
	struct knee_check c;
	double sse_mm, sse_gen;
	int sharper = 0;

	memset(f, 0, sizeof *f);
	f->a_us = f->b_us = f->r2 = f->runs_z = f->lr = NAN;
	f->R.est = f->R.lo = f->R.hi = f->K.est = f->K.lo = f->K.hi = NAN;
	*gen_ok = 0;
	f->status = KNEE_FIT_TOO_FEW;
	if (d->m < 3)
		return 0;
	f->status = KNEE_FIT_NONPOSITIVE;
	if (knee_linear_fit(d, t_mm) < 0 || !isfinite(knee_lm(&knee_mm, d, t_mm, 0, 0))) {
		/* Outside the domain: start from a curve that is inside it. */
		t_mm[1] = 0.5 * exp(-d->y[d->m - 1]);
		t_mm[0] = 0.5 * d->p[0] * exp(-d->y[0]);
	}
	sse_mm = knee_lm(&knee_mm, d, t_mm, 200, KNEE_TOL);
	if (isfinite(sse_mm))
		sse_mm = knee_huber(&knee_mm, d, w->prec, w->w_mm, t_mm, r->sigma, sse_mm);
	if (!isfinite(sse_mm)) {
		t_mm[0] = t_mm[1] = NAN;
		return 0;
	}
	f->a_us = t_mm[0] * 1e6;
	f->b_us = t_mm[1] * 1e6;
	knee_ab_to_rk(t_mm, &f->R.est, &f->K.est);
	knee_check_fit(&knee_mm, d, t_mm, &c);
	f->r2 = c.r2;
	f->runs_z = c.runs_z;

	/* The same family with the knee's sharpness free, started from the
	 * model's fit.  Sharper (or softer) when the likelihood ratio
	 * m ln(SSE_model / SSE_free), both with the model's weights, beats
	 * chi-square(1) at 0.01.  As a level it is then fitted with weights of
	 * its own: the model's cut the points where the model misses a sharp
	 * knee, the very points that place it. */
	if (d->m >= 4) {
		double R, K;

		knee_ab_to_rk(t_mm, &R, &K);
		t_gen[0] = isfinite(R) ? log(R) : d->y[d->m - 1];
		t_gen[1] = K > 0 && isfinite(K) ? log(K) : t_gen[0] - (d->y[0] - d->lnp[0]);
		t_gen[2] = 1;
		memcpy(w->w_gen, w->w_mm, d->m * sizeof *w->w_gen);
		dg->sumw = d->sumw;
		sse_gen = knee_lm(&knee_gen, dg, t_gen, 200, KNEE_TOL);
		if (isfinite(sse_gen)) {
			struct knee_check cg;
			double ratio = fmax(sse_mm, sse_gen) / fmax(sse_gen, 1e-300);

			f->lr = c.rms > KNEE_EXACT ? (double)d->m * log(ratio) : 0;
			sharper = f->lr > KNEE_LR_CRIT;
			sse_gen = knee_huber(&knee_gen, dg, w->prec, w->w_gen, t_gen, r->sigma,
					     sse_gen);
			knee_check_fit(&knee_gen, dg, t_gen, &cg);
			*gen_ok = isfinite(sse_gen) && !knee_poor(&cg, r->sigma) &&
				  !knee_pattern(&cg);
		}
	}
	/* A knee of another sharpness before a low R²: it says more. */
	if (!(t_mm[1] > 0) || t_mm[0] < 0)
		f->status = KNEE_FIT_NONPOSITIVE;
	else if (sharper)
		f->status = KNEE_FIT_PATTERN;
	else if (knee_poor(&c, r->sigma))
		f->status = KNEE_FIT_POOR;
	else if (knee_pattern(&c))
		f->status = KNEE_FIT_PATTERN;
	else
		f->status = KNEE_FIT_OK;
	return sharper;
}

/* A saturation interval of one depth under noise is widened by the step
 * of the depth list: a replicate's saturation depth is the first depth of
 * the list whose level reaches the target, so the depth of the curve
 * itself lies between that one and the depth before, and "8 (8..8)" on
 * a loop over -P 1..8 claims what the list cannot resolve.  Noise-free
 * data keep their exact answer. */
static void knee_sat_open(const struct knee_series *s, struct knee_result *r)
{
	size_t i = 0;

	if (r->sat_depth.lo != r->sat_depth.hi || !(r->sigma > KNEE_EXACT) || s->m < 2)
		return;
	while (i + 1 < s->m && s->depth[i] < r->sat_depth.lo)
		i++;
	if (i > 0)
		r->sat_depth.lo = s->depth[i - 1];
	else
		r->sat_depth.hi = s->depth[1];
}

/* The figures of the chosen level (f, replicates rep) into r. */
static void knee_take(const struct knee_series *s, const struct knee_opts *o,
		      const struct knee_figs *f, double **rep, int boot, struct knee_result *r)
{
	r->peak = f->peak;
	r->sat = f->sat;
	r->peak_rps.est = exp(f->peak_ln);
	r->sat_depth.est = s->depth[f->sat];
	r->gain.est = f->gain;
	r->peak_rps.lo = r->peak_rps.hi = r->sat_depth.lo = r->sat_depth.hi = NAN;
	r->gain.lo = r->gain.hi = NAN;
	if (!boot)
		return;
	r->boot_peak = xcalloc(o->B, sizeof *r->boot_peak);
	r->nboot = o->B;
	memcpy(r->boot_peak, rep[KNEE_REP_PEAK], o->B * sizeof *r->boot_peak);
	knee_interval(rep[KNEE_REP_PEAK], o, &r->peak_rps);
	r->peak_rps.lo = exp(r->peak_rps.lo);
	r->peak_rps.hi = exp(r->peak_rps.hi);
	knee_interval(rep[KNEE_REP_SAT], o, &r->sat_depth);
	if (!isnan(r->sat_depth.lo)) {
		r->sat_depth.lo = knee_depth_floor(s, r->sat_depth.lo);
		r->sat_depth.hi = knee_depth_ceil(s, r->sat_depth.hi);
		knee_sat_open(s, r);
	}
	knee_interval(rep[KNEE_REP_GAIN], o, &r->gain);
}

/* A short series whose level's peak lies below every median of its
 * KNEE_SHORT_TOP deepest depths has no level to trust: the peak becomes
 * the highest median, its interval that point's, its replicates (for the
 * comparisons) that point's resampled median. */
static void knee_short_peak(const struct knee_series *s, const struct knee_opts *o, int boot,
			    const double *y, double *work, struct knee_result *r)
{
	size_t m = s->m, top = m < KNEE_SHORT_TOP ? m : KNEE_SHORT_TOP, best = 0;
	struct stats_rng rng;

	if (m < 2 || m > KNEE_SHORT_M)
		return;
	for (size_t i = m - top; i < m; i++)
		if (!(r->peak_rps.est < r->pts[i].median.est))
			return;
	for (size_t i = 1; i < m; i++)
		if (y[i] > y[best])
			best = i;
	r->peak_median = 1;
	r->peak = best;
	r->peak_rps = r->pts[best].median;
	if (!boot || r->boot_peak == NULL)
		return;
	stats_rng_seed(&rng, stats_seed_mix(o->seed, (uint64_t)KNEE_TAG_POINT << 32 | best));
	for (size_t b = 0; b < r->nboot; b++)
		r->boot_peak[b] = knee_draw(s, r, best, y[best], &rng, work);
}

/* The points of out and the fits' data in w, from s's medians. */
static void knee_data_init(const struct knee_series *s, struct knee_work *w,
			   struct knee_result *out)
{
	size_t m = s->m;

	out->m = m;
	out->pts = xcalloc(m, sizeof *out->pts);
	for (size_t i = 0; i < m; i++) {
		out->pts[i].depth = s->depth[i];
		out->pts[i].n = s->n[i];
		out->pts[i].median.est = stats_median(s->v[i], s->n[i]);
		w->x[i] = log2(s->depth[i]);
		w->p[i] = s->depth[i];
		w->lnp[i] = log(s->depth[i]);
		w->y[i] = log(out->pts[i].median.est);
		w->prec[i] = w->w_mm[i] = w->w_gen[i] = 1 / knee_medvar(s->n[i]);
		w->d_mm.sumw += w->prec[i];
	}
	w->d_mm.m = m;
	w->d_mm.p = w->p;
	w->d_mm.lnp = w->lnp;
	w->d_mm.y = w->y;
	w->d_gen = w->d_mm;
	w->d_mm.w = w->w_mm;
	w->d_gen.w = w->w_gen;
}

/* The smoothed medians (the level of last resort, fs) and whether the
 * curve falls after its peak, judged on them. */
static void knee_falls(const struct knee_series *s, const struct knee_opts *o, int boot,
		       struct knee_smoother *h, struct knee_figs *fs, struct knee_work *w,
		       struct knee_result *out)
{
	size_t m = s->m;

	knee_median3(w->x, w->y, m, w->z);
	knee_smoother_build(w->x, w->prec, m, h);
	knee_smooth(h, w->z, w->smooth);
	knee_figures(w->x, w->smooth, m, o->knee, NAN, fs);
	if (boot)
		knee_boot_smoothed(s, o, h, fs, out, w);
	out->fall.est = fs->fall;
	out->fall.lo = out->fall.hi = NAN;
	out->falls = fs->fall < 1 - KNEE_FALL;
	if (boot) {
		struct stats_ci raw;

		knee_interval(w->rep[0][KNEE_REP_FALL], o, &out->fall);
		knee_interval(w->fall_raw, o, &raw);
		out->falls = raw.hi < 1 - KNEE_FALL;
	}
}

/* The level: the model where it describes the curve, or the curve with a
 * sharper or softer knee where that one does (two or three parameters
 * learnt from every depth: far steadier than any local average), else the
 * smoothed medians.  Returns the curve (*t its parameters, fm its
 * figures), or NULL for the smoothed medians. */
static const struct knee_model *knee_level(const struct knee_opts *o, struct knee_work *w,
					   double *t_mm, double *t_gen, int gen_ok,
					   struct knee_figs *fm, double **t, struct knee_result *out)
{
	const struct knee_model *lmod = NULL;

	out->level = KNEE_LEVEL_SMOOTHED;
	out->curve_R = out->curve_K = out->curve_s = NAN;
	*t = NULL;
	if (out->fit.status == KNEE_FIT_OK) {
		lmod = &knee_mm;
		*t = t_mm;
		out->level = KNEE_LEVEL_MODEL;
		knee_ab_to_rk(t_mm, &out->curve_R, &out->curve_K);
		out->curve_s = 1;
	} else if (!out->falls && gen_ok) {
		lmod = &knee_gen;
		*t = t_gen;
		out->level = KNEE_LEVEL_CURVE;
		out->curve_R = exp(t_gen[0]);
		out->curve_K = exp(t_gen[1]);
		out->curve_s = 1 / t_gen[2];
	}
	if (lmod && knee_curve_figures(lmod, &w->d_mm, *t, w->x, o->knee, w->centre, fm) < 0) {
		lmod = NULL;
		*t = NULL;
		out->level = KNEE_LEVEL_SMOOTHED;
		out->curve_R = out->curve_K = out->curve_s = NAN;
	}
	return lmod;
}

/* Each depth's level interval: the percentile interval of the level's
 * replicates (fitted: the refitted curves that have one, about the fitted
 * level; else the smoothed medians' errors, about the data's smoothing). */
static void knee_level_band(const struct knee_opts *o, size_t m, int fitted, struct knee_work *w,
			    struct knee_result *out)
{
	double *rep = xcalloc(o->B, sizeof *rep);

	for (size_t i = 0; i < m; i++) {
		const double *e = w->lrep[fitted] + i * o->B;
		size_t n = 0;
		double lo, hi;

		for (size_t k = 0; k < o->B; k++)
			if (!fitted || w->lok[k])
				rep[n++] = e[k];
		/* Too few refits to say: no band rather than a narrow one. */
		if (n < o->B / 2)
			continue;
		stats_percentile_inplace(rep, n, o->level, &lo, &hi);
		out->pts[i].level_lo = out->pts[i].level * exp(lo);
		out->pts[i].level_hi = out->pts[i].level * exp(hi);
	}
	free(rep);
}

/* Still rising: the gain per doubling clears KNEE_RISING, its whole
 * interval where there is one. */
static void knee_saturated(size_t m, int boot, struct knee_result *out)
{
	if (m < 2)
		out->saturated = KNEE_SAT_UNKNOWN;
	else if ((boot ? out->gain.lo : out->gain.est) > KNEE_RISING)
		out->saturated = KNEE_SAT_NO;
	else
		out->saturated = KNEE_SAT_YES;
	if (out->saturated == KNEE_SAT_NO)
		out->sat_depth.hi = NAN;
}

int knee_analyse(const struct knee_series *s, const struct knee_opts *o, struct knee_result *out,
		 struct rs_err *err)
{
	const struct knee_model *lmod;
	struct knee_work w;
	struct knee_smoother h;
	struct knee_figs fs, fm;
	size_t m = s->m, maxn = 1;
	double t_mm[3] = { NAN, NAN, 0 }, t_gen[3] = { NAN, NAN, NAN }, *lt;
	int boot, gen_ok, fitted = 0;

	memset(out, 0, sizeof *out);
	if (knee_check_opts(o, err) < 0 || knee_check_series(s, err) < 0)
		return -1;
	for (size_t i = 0; i < m; i++)
		if (s->n[i] > maxn)
			maxn = s->n[i];
	knee_work_alloc(&w, m, maxn, o->B);
	if (maxn >= KNEE_FAST_N)
		knee_medtab_build(s, out);
	knee_data_init(s, &w, out);
	knee_noise(s, w.x, w.y, out);
	boot = out->noise != KNEE_NOISE_NONE;
	if (o->level_band && boot)
		knee_work_band(&w, m, o->B);
	knee_falls(s, o, boot, &h, &fs, &w, out);
	knee_fits(&w, out, t_mm, t_gen, &gen_ok);
	if (out->falls && out->fit.status != KNEE_FIT_TOO_FEW &&
	    out->fit.status != KNEE_FIT_NONPOSITIVE)
		out->fit.status = KNEE_FIT_FALLS;
	lmod = knee_level(o, &w, t_mm, t_gen, gen_ok, &fm, &lt, out);
	if (lmod == NULL)
		memcpy(w.centre, w.smooth, m * sizeof *w.centre);
	else
		knee_noise_from_fit(lmod, lmod == &knee_mm ? &w.d_mm : &w.d_gen, w.prec, lt, out);
	knee_points(s, o, out, w.y, w.work);
	if (boot && isfinite(t_mm[0])) {
		fitted = 1;
		knee_boot_fitted(s, o, t_mm, lmod, lt, out, &w);
		knee_interval(w.rep[1][KNEE_REP_R], o, &out->fit.R);
		knee_interval(w.rep[1][KNEE_REP_K], o, &out->fit.K);
	}
	knee_take(s, o, lmod ? &fm : &fs, lmod ? w.rep[1] : w.rep[0], boot, out);
	knee_short_peak(s, o, boot, w.y, w.work, out);
	for (size_t i = 0; i < m; i++) {
		out->pts[i].level = exp(w.centre[i]);
		out->pts[i].level_lo = out->pts[i].level_hi = NAN;
	}
	/* A fitted level's band from its refits only (none without them). */
	if (o->level_band && boot && (lmod == NULL || fitted))
		knee_level_band(o, m, lmod != NULL, &w, out);
	knee_saturated(m, boot, out);
	knee_smoother_free(&h);
	knee_work_free(&w);
	return 0;
}

void knee_result_free(struct knee_result *r)
{
	if (r == NULL)
		return;
	knee_medtab_free(r->medtab, r->m);
	free(r->pts);
	free(r->boot_peak);
	free(r->pool);
	memset(r, 0, sizeof *r);
}


