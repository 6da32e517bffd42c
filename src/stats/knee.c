/* knee.c: level, peak and saturation depth of throughput series, with
 * bootstrap intervals (the method is in knee.h): checks the series, fits
 * the curves, chooses the level and reads its figures.  The pieces are in
 * knee_noise.c (the noise pool), knee_smooth.c (the smoother and a level's
 * figures), knee_boot.c (the resampling), knee_fit.c (the curves' fits);
 * comparisons in knee_cmp.c (knee_int.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/knee.h"
#include "stats/knee_int.h"
#include "base/xalloc.h"

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

/* Whether depth i of s is unstable: more than one repeat, and their
 * sd / mean above KNEE_UNSTABLE_CV (the report's CV). */
static int knee_unstable(const struct knee_series *s, size_t i)
{
	size_t n = s->n[i];
	double mean = 0, sq = 0;

	if (n < 2)
		return 0;
	for (size_t j = 0; j < n; j++)
		mean += s->v[i][j];
	mean /= (double)n;
	for (size_t j = 0; j < n; j++)
		sq += (s->v[i][j] - mean) * (s->v[i][j] - mean);
	return sqrt(sq / (double)(n - 1)) / mean > KNEE_UNSTABLE_CV;
}

/* A fall needs evidence beyond the deep end's unstable depths: the curve
 * is judged again without the unstable depths past its smoothed peak (at
 * index peak), and where it then no longer falls, out->falls is cleared,
 * out->fall_unstable counts the depths left out, and *inner holds the
 * analysis of the depths kept (fall_unstable 0: nothing in it; release
 * with knee_result_free), whose saturation call is the series'.  The
 * pooled noise of a series of forty steady depths is a few percent, so
 * two unlucky points 35% low at its end pass for a fall; their own
 * repeats say they are no evidence.  Too few depths kept (fewer than
 * KNEE_FALL_MIN_M) call no fall either. */
static int knee_fall_check(const struct knee_series *s, const struct knee_opts *o, size_t peak,
			   struct knee_result *out, struct knee_result *inner, struct rs_err *err)
{
	size_t m = s->m, k = 0, drop = 0;
	unsigned *depth;
	size_t *n;
	const double **v;
	struct knee_series t;
	int rc = 0;

	memset(inner, 0, sizeof *inner);
	if (!out->falls)
		return 0;
	for (size_t i = peak + 1; i < m; i++)
		drop += knee_unstable(s, i);
	if (drop == 0)
		return 0;
	depth = xcalloc(m, sizeof *depth);
	n = xcalloc(m, sizeof *n);
	v = xcalloc(m, sizeof *v);
	for (size_t i = 0; i < m; i++) {
		if (i > peak && knee_unstable(s, i))
			continue;
		depth[k] = s->depth[i];
		n[k] = s->n[i];
		v[k++] = s->v[i];
	}
	t.m = k;
	t.depth = depth;
	t.n = n;
	t.v = (const double *const *)v;
	if (k >= KNEE_FALL_MIN_M)
		rc = knee_analyse(&t, o, inner, err);
	if (rc == 0 && (k < KNEE_FALL_MIN_M || !inner->falls)) {
		out->falls = 0;
		out->fall_unstable = drop;
		out->fall_after = s->depth[peak];
	} else {
		knee_result_free(inner);
	}
	free(depth);
	free(n);
	free(v);
	return rc;
}

/* The saturation call of a series whose fall rested on its unstable deep
 * end only (knee_fall_check): that of the depths before them, sat mapped
 * to s's index of the same depth. */
static void knee_sat_from(const struct knee_series *s, const struct knee_result *inner,
			  struct knee_result *out)
{
	if (inner->m == 0)
		return;
	out->saturated = inner->saturated;
	out->sat_depth = inner->sat_depth;
	out->gain = inner->gain;
	for (size_t i = 0; i < s->m; i++)
		if (s->depth[i] == inner->pts[inner->sat].depth)
			out->sat = i;
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
	struct knee_result inner;
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
	if (maxn >= KNEE_BOOT_MIN_N)
		knee_medtab_build(s, out);
	knee_data_init(s, &w, out);
	knee_noise(s, w.x, w.y, out);
	boot = out->noise != KNEE_NOISE_NONE;
	if (o->level_band && boot)
		knee_work_band(&w, m, o->B);
	knee_falls(s, o, boot, &h, &fs, &w, out);
	if (knee_fall_check(s, o, fs.peak, out, &inner, err) < 0) {
		knee_smoother_free(&h);
		knee_work_free(&w);
		knee_result_free(out);
		return -1;
	}
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
	knee_sat_from(s, &inner, out);
	knee_result_free(&inner);
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


