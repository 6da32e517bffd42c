/* analysis.c: peak, saturation depth, throughput model, stability, comparisons. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/analysis_int.h"
#include "base/num.h"
#include "base/sbuf.h"
#include "base/vec.h"
#include "base/xalloc.h"

size_t analysis_peak(const struct series *s)
{
	size_t best = 0;

	for (size_t i = 1; i < s->npts; i++)
		if (s->pts[i].median > s->pts[best].median)
			best = i;
	return best;
}

size_t analysis_saturation(const struct series *s, double knee)
{
	double target = knee * s->pts[analysis_peak(s)].median;
	size_t best = analysis_peak(s);

	/* Points are sorted by depth: the first to reach the target is the
	 * smallest such depth. */
	for (size_t i = 0; i < s->npts; i++)
		if (s->pts[i].median >= target)
			return i < best ? i : best;
	return best;
}

void analysis_fit(const struct series *s, struct analysis_fit *fit)
{
	double sw = 0, sx = 0, sz = 0, sxx = 0, sxz = 0, den, a, b;
	double mean = 0, ss_tot = 0, ss_res = 0;

	fit->status = FIT_TOO_FEW;
	fit->a_us = fit->b_us = fit->asymptote = fit->r2 = NAN;
	fit->asymptote_lo = fit->asymptote_hi = NAN;
	if (s->npts < 3)
		return;
	for (size_t i = 0; i < s->npts; i++) {
		double y = s->pts[i].median, x = 1.0 / s->pts[i].depth, z, w;

		if (!(y > 0)) {
			fit->status = FIT_NONPOSITIVE;
			return;
		}
		z = 1.0 / y;
		w = y * y;
		sw += w;
		sx += w * x;
		sz += w * z;
		sxx += w * x * x;
		sxz += w * x * z;
		mean += y;
	}
	den = sw * sxx - sx * sx;
	if (!(den > 0)) {
		fit->status = FIT_NONPOSITIVE;
		return;
	}
	a = (sw * sxz - sx * sz) / den;
	b = (sz - a * sx) / sw;
	fit->a_us = a * 1e6;
	fit->b_us = b * 1e6;
	/* A model whose denominator reaches zero within the data (or whose
	 * asymptote is infinite or negative) describes nothing. */
	if (!(b > 0) || !(a + b * s->pts[0].depth > 0)) {
		fit->status = FIT_NONPOSITIVE;
		return;
	}
	mean /= (double)s->npts;
	for (size_t i = 0; i < s->npts; i++) {
		double p = s->pts[i].depth, y = s->pts[i].median;
		double pred = p / (a + b * p);

		ss_res += (y - pred) * (y - pred);
		ss_tot += (y - mean) * (y - mean);
	}
	/* R² on the rps scale, the one a reader sees on the chart: the
	 * linearised scale would flatter a curve with a sharp knee. */
	if (ss_tot > 0)
		fit->r2 = 1 - ss_res / ss_tot;
	else
		fit->r2 = ss_res > 0 ? 0 : 1;
	if (fit->r2 < ANALYSIS_MIN_R2) {
		fit->status = FIT_POOR;
		return;
	}
	fit->status = FIT_OK;
	fit->asymptote = 1.0 / b;
}

void analysis_knee_opts(double knee, struct knee_opts *o)
{
	knee_opts_default(o);
	o->knee = knee;
	o->seed = ANALYSIS_SEED;
}

/* The core on series s, or with run >= 0 on that run of s alone: each
 * point's values of the run (a point's values are by run, so they are one
 * stretch), depths the run lacks left out.  0 with k->ok set, or -1 (err,
 * when not NULL, says why; k->ok 0). */
int analysis_knee_of(const struct series *s, long run, double knee, int level_band,
		     struct analysis_knee *k, struct rs_err *err)
{
	struct knee_opts o;
	struct rs_err e;
	size_t m = 0;

	memset(k, 0, sizeof *k);
	if (s->npts == 0)
		return rs_err_set(err ? err : &e, "no points");
	k->depth = xmalloc(s->npts * sizeof *k->depth);
	k->n = xmalloc(s->npts * sizeof *k->n);
	k->v = xmalloc(s->npts * sizeof *k->v);
	for (size_t i = 0; i < s->npts; i++) {
		const struct series_point *p = &s->pts[i];
		size_t a = 0, b = p->n;

		if (run >= 0) {
			while (a < p->n && p->run[a] != (unsigned)run)
				a++;
			for (b = a; b < p->n && p->run[b] == (unsigned)run; b++)
				;
		}
		if (b == a)
			continue;
		k->depth[m] = p->depth;
		k->n[m] = b - a;
		k->v[m++] = p->v + a;
	}
	if (m == 0)
		return rs_err_set(err ? err : &e, "run %ld has no points", run + 1);
	k->ks = (struct knee_series){ m, k->depth, k->n, k->v };
	analysis_knee_opts(knee, &o);
	o.level_band = level_band;
	if (knee_analyse(&k->ks, &o, &k->res, err ? err : &e) < 0) {
		memset(&k->res, 0, sizeof k->res);
		return -1;
	}
	k->ok = 1;
	return 0;
}

int analysis_knee_compute(const struct series *s, double knee, int level_band,
			  struct analysis_knee *k, struct rs_err *err)
{
	return analysis_knee_of(s, -1, knee, level_band, k, err);
}

void analysis_knee_free(struct analysis_knee *k)
{
	if (k == NULL)
		return;
	if (k->ok)
		knee_result_free(&k->res);
	free(k->depth);
	free(k->n);
	free(k->v);
	memset(k, 0, sizeof *k);
}

long analysis_knee_index(const struct analysis_knee *k, unsigned d)
{
	size_t lo = 0, hi = k->ks.m;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->depth[mid] < d)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < k->ks.m && k->depth[lo] == d ? (long)lo : -1;
}

int analysis_knee_ratio(const struct analysis_knee *a, const struct analysis_knee *b, unsigned d,
			struct knee_cmp *out)
{
	struct knee_opts o;
	long ia, ib;

	if (!a->ok || !b->ok)
		return -1;
	/* The knee fraction plays no part in a ratio. */
	analysis_knee_opts(KNEE_DEFAULT_KNEE, &o);
	if (d == 0)
		return knee_compare_peak(&a->res, &b->res, &o, out, NULL);
	ia = analysis_knee_index(a, d);
	ib = analysis_knee_index(b, d);
	if (ia < 0 || ib < 0)
		return -1;
	return knee_compare_at(&a->ks, &a->res, (size_t)ia, &b->ks, &b->res, (size_t)ib, &o, out,
			       NULL);
}

int analysis_point_ratio(const struct analysis_series *a, unsigned da,
			 const struct analysis_series *b, unsigned db, struct knee_cmp *out)
{
	const struct series_point *pa = series_at(a->rps, da), *pb = series_at(b->rps, db);
	long ia = a->knee.ok ? analysis_knee_index(&a->knee, da) : -1;
	long ib = b->knee.ok ? analysis_knee_index(&b->knee, db) : -1;
	struct knee_opts o;

	memset(out, 0, sizeof *out);
	out->ratio.est = out->ratio.lo = out->ratio.hi = NAN;
	out->verdict = KNEE_UNKNOWN;
	if (pa == NULL || pb == NULL)
		return -1;
	analysis_knee_opts(KNEE_DEFAULT_KNEE, &o);
	if (ia >= 0 && ib >= 0 &&
	    knee_compare_at(&a->knee.ks, &a->knee.res, (size_t)ia, &b->knee.ks, &b->knee.res,
			    (size_t)ib, &o, out, NULL) == 0 && isfinite(out->ratio.lo))
		return 0;
	knee_compare_repeats(pa->v, pa->n, pb->v, pb->n, out);
	if (!isfinite(out->ratio.est) && pa->median > 0 && pb->median > 0)
		out->ratio.est = pa->median / pb->median;
	return 0;
}

static enum analysis_fit_status analysis_fit_status_of(enum knee_fit_status k)
{
	switch (k) {
	case KNEE_FIT_OK: return FIT_OK;
	case KNEE_FIT_TOO_FEW: return FIT_TOO_FEW;
	case KNEE_FIT_NONPOSITIVE: return FIT_NONPOSITIVE;
	case KNEE_FIT_FALLS: return FIT_FALLS;
	case KNEE_FIT_POOR: return FIT_POOR;
	case KNEE_FIT_PATTERN: return FIT_PATTERN;
	}
	return FIT_NONPOSITIVE;
}

/* The core's figures into out (out->knee.ok set). */
static void analysis_from_knee(const struct series *rps, struct analysis_series *out)
{
	const struct knee_result *k = &out->knee.res;

	out->peak_rps = k->peak_rps.est;
	out->peak_lo = k->peak_rps.lo;
	out->peak_hi = k->peak_rps.hi;
	out->peak_depth = rps->pts[k->peak].depth;
	out->saturated = k->saturated;
	/* A curve still rising has no saturation depth: none is reported,
	 * in any format, beside saturated=no. */
	if (rps->npts > 1 && k->saturated != KNEE_SAT_NO) {
		out->sat_depth = rps->pts[k->sat].depth;
		out->sat_lo = k->sat_depth.lo;
		out->sat_hi = k->sat_depth.hi;
	}
	out->fit.status = analysis_fit_status_of(k->fit.status);
	out->fit.a_us = k->fit.a_us;
	out->fit.b_us = k->fit.b_us;
	out->fit.r2 = k->fit.r2;
	out->fit.asymptote = out->fit.asymptote_lo = out->fit.asymptote_hi = NAN;
	if (out->fit.status == FIT_OK) {
		out->fit.asymptote = k->fit.R.est;
		out->fit.asymptote_lo = k->fit.R.lo;
		out->fit.asymptote_hi = k->fit.R.hi;
	}
}

void analysis_series_compute(const struct series *rps, const struct series *avg, double knee,
			     double cv_limit, int level_band, struct analysis_series *out)
{
	const struct series_point *p1 = series_at(rps, 1), *at;
	size_t peak = analysis_peak(rps), sat = analysis_saturation(rps, knee);
	size_t capunstable = 0;

	memset(out, 0, sizeof *out);
	out->rps = rps;
	out->avg = avg;
	out->rps_at_1 = p1 ? p1->median : NAN;
	out->top_rps = rps->pts[peak].median;
	out->top_depth = rps->pts[peak].depth;
	out->peak_lo = out->peak_hi = out->sat_lo = out->sat_hi = NAN;
	out->saturated = KNEE_SAT_UNKNOWN;
	if (analysis_knee_compute(rps, knee, level_band, &out->knee, NULL) == 0) {
		analysis_from_knee(rps, out);
		sat = out->knee.res.sat;
	} else {
		/* A zero figure: the point figures, without intervals. */
		out->peak_rps = rps->pts[peak].median;
		out->peak_depth = rps->pts[peak].depth;
		out->sat_depth = rps->npts > 1 ? rps->pts[sat].depth : 0;
		analysis_fit(rps, &out->fit);
	}
	out->nruns = rps->nruns ? rps->nruns : 1;
	if (out->nruns > 1 && out->knee.ok)
		analysis_runs_compute(rps, knee, out);
	out->gain = p1 && p1->median > 0 ? out->peak_rps / p1->median : NAN;
	out->max_cv = NAN;
	for (size_t i = 0; i < rps->npts; i++) {
		const struct series_point *p = &rps->pts[i];

		if (p->n < 2)
			continue;
		if (!(out->max_cv >= p->cv))
			out->max_cv = p->cv;
		if (p->cv > cv_limit) {
			out->unstable = vec_reserve(out->unstable, &capunstable, out->nunstable + 1,
						    sizeof *out->unstable, 0);
			out->unstable[out->nunstable].depth = p->depth;
			out->unstable[out->nunstable].n = p->n;
			out->unstable[out->nunstable].cv = p->cv;
			cause_of(p, rps->first ? rps->first->threads : -1,
				 &out->unstable[out->nunstable].cause);
			out->nunstable++;
		}
	}
	at = &rps->pts[rps->npts > 1 ? sat : peak];
	out->server_cpu = at->server_cpu;
	out->client_cpu = at->client_cpu;
	out->bound = BOUND_UNKNOWN;
	if (isfinite(at->server_cpu) && isfinite(at->client_cpu))
		out->bound = at->server_cpu >= at->client_cpu ? BOUND_SERVER : BOUND_CLIENT;
}

void analysis_series_free(struct analysis_series *a)
{
	if (a == NULL)
		return;
	for (size_t r = 0; a->run_knee != NULL && r < a->nruns; r++)
		analysis_knee_free(&a->run_knee[r]);
	free(a->run_knee);
	a->run_knee = NULL;
	free(a->unstable);
	a->unstable = NULL;
	a->nunstable = 0;
	analysis_knee_free(&a->knee);
}

/* The latency series a comparison of a with baseline b reads into *sb and
 * *sa: both sides' average, or where a side has none both sides' p50;
 * NULL when they have no latency in common.  Returns which. */
static enum series_metric analysis_lat(const struct analysis_series *b,
				       const struct analysis_series *a, const struct series **sb,
				       const struct series **sa)
{
	int p50 = (b->avg == NULL || a->avg == NULL) && b->p50 != NULL && a->p50 != NULL;

	*sb = p50 ? b->p50 : b->avg;
	*sa = p50 ? a->p50 : a->avg;
	return p50 ? SM_P50 : SM_AVG;
}

static double analysis_lat_at(const struct series *s, unsigned depth)
{
	const struct series_point *p = s ? series_at(s, depth) : NULL;

	return p ? p->median : NAN;
}

/* The core's ratio, interval and verdict into d (d->ratio kept when the
 * core has none). */
static void analysis_delta_ci(const struct analysis_series *b, const struct analysis_series *a,
			      unsigned depth, struct analysis_delta *d)
{
	struct knee_cmp k;

	d->ci = (struct stats_ci){ d->ratio, NAN, NAN };
	d->verdict = KNEE_UNKNOWN;
	d->within_band = 0;
	if (analysis_delta_runs(b, a, depth, d))
		return;
	if (analysis_knee_ratio(&a->knee, &b->knee, depth, &k) == 0 && isfinite(k.ratio.lo)) {
		d->ci = k.ratio;
		d->verdict = k.verdict;
		d->within_band = k.within_band;
		return;
	}
	/* No interval from the core (a series of one depth): the repeats at
	 * the depth give one, when each side has two or more. */
	if (depth == 0 && a->rps->npts == 1 && b->rps->npts == 1)
		depth = a->rps->pts[0].depth == b->rps->pts[0].depth ? a->rps->pts[0].depth : 0;
	if (depth) {
		const struct series_point *pa = series_at(a->rps, depth), *pb = series_at(b->rps, depth);

		if (pa == NULL || pb == NULL || pa->n < 2 || pb->n < 2)
			return;
		knee_compare_repeats(pa->v, pa->n, pb->v, pb->n, &k);
		if (!isfinite(k.ratio.lo))
			return;
		if (pa->n == pb->n)
			d->rep_depth = depth;
		d->ci.lo = k.ratio.lo;
		d->ci.hi = k.ratio.hi;
		d->verdict = k.verdict;
		d->within_band = k.within_band;
	}
}

static void analysis_delta_avg(const struct analysis_series *b, const struct analysis_series *a,
			       unsigned depth, struct analysis_delta *d)
{
	const struct series_point *pa, *pb;
	const struct series *lb, *la;
	struct knee_cmp k;

	d->lat_metric = analysis_lat(b, a, &lb, &la);
	d->avg_depth = depth;
	d->base_avg = depth ? analysis_lat_at(lb, depth) : NAN;
	d->avg = depth ? analysis_lat_at(la, depth) : NAN;
	d->d_avg = NAN;
	d->avg_ci = (struct stats_ci){ NAN, NAN, NAN };
	d->avg_verdict = KNEE_UNKNOWN;
	if (isfinite(d->base_avg) && isfinite(d->avg))
		d->d_avg = d->avg - d->base_avg;
	if (!isfinite(d->d_avg) || lb == NULL || la == NULL)
		return;
	/* As for throughput at one depth: the paired repeats' interval. */
	pb = series_at(lb, depth);
	pa = series_at(la, depth);
	if (pa == NULL || pb == NULL || pa->n < 2 || pb->n < 2)
		return;
	knee_compare_repeats(pa->v, pa->n, pb->v, pb->n, &k);
	if (isfinite(k.ratio.lo)) {
		d->avg_ci = k.ratio;
		d->avg_verdict = k.verdict;
	}
}

static void analysis_delta_at(const struct analysis_series *b, unsigned db,
			      const struct analysis_series *a, unsigned da, int with_ci,
			      struct analysis_delta *d)
{
	const struct series_point *pb = series_at(b->rps, db), *pa = series_at(a->rps, da);

	memset(d, 0, sizeof *d);
	d->base_depth = db;
	d->depth = da;
	d->base_rps = d->rps = d->d_rps = d->d_pct = d->ratio = NAN;
	d->base_avg = d->avg = d->d_avg = NAN;
	d->ci = (struct stats_ci){ NAN, NAN, NAN };
	d->verdict = KNEE_UNKNOWN;
	d->avg_ci = (struct stats_ci){ NAN, NAN, NAN };
	d->avg_verdict = KNEE_UNKNOWN;
	d->lat_metric = SM_AVG;
	if (pb == NULL || pa == NULL)
		return;
	d->valid = 1;
	d->base_rps = pb->median;
	d->rps = pa->median;
	d->d_rps = d->rps - d->base_rps;
	if (d->base_rps > 0) {
		d->d_pct = 100 * d->d_rps / d->base_rps;
		d->ratio = d->rps / d->base_rps;
	}
	d->ci.est = d->ratio;
	if (da == db) {
		if (with_ci)
			analysis_delta_ci(b, a, da, d);
		analysis_delta_avg(b, a, da, d);
	}
}

void analysis_delta(const struct analysis_series *b, unsigned db, const struct analysis_series *a,
		    unsigned da, struct analysis_delta *d)
{
	analysis_delta_at(b, db, a, da, 1, d);
}

/* The common depth where two peaks' latencies are compared: the deeper of
 * the two saturation depths when both series have it (past both knees,
 * where neither side is credited for a shallower pipeline), else the
 * common depth nearest it (the deeper on a tie); 0 when there is none. */
static unsigned analysis_latency_depth(const struct analysis_series *b,
				       const struct analysis_series *a)
{
	unsigned want = a->sat_depth > b->sat_depth ? a->sat_depth : b->sat_depth, best = 0;

	if (want == 0)
		want = a->peak_depth > b->peak_depth ? a->peak_depth : b->peak_depth;
	for (size_t i = 0; i < a->rps->npts; i++) {
		unsigned d = a->rps->pts[i].depth;
		unsigned dd = d > want ? d - want : want - d, bd = best > want ? best - want : want - best;

		if (series_at(b->rps, d) == NULL)
			continue;
		if (best == 0 || dd < bd || (dd == bd && d > best))
			best = d;
	}
	return best;
}

/* Each at its peak: the core's peak levels, their ratio and interval
 * (the highest medians where the core has no result). */
static void analysis_delta_peaks(const struct analysis_series *b, const struct analysis_series *a,
				 struct analysis_delta *d)
{
	analysis_delta_at(b, b->peak_depth, a, a->peak_depth, 0, d);
	if (!d->valid)
		return;
	d->base_rps = b->peak_rps;
	d->rps = a->peak_rps;
	d->d_rps = d->rps - d->base_rps;
	d->d_pct = d->ratio = NAN;
	if (d->base_rps > 0) {
		d->d_pct = 100 * d->d_rps / d->base_rps;
		d->ratio = d->rps / d->base_rps;
	}
	analysis_delta_ci(b, a, 0, d);
	analysis_delta_avg(b, a, analysis_latency_depth(b, a), d);
}

static void analysis_compare(const struct analysis_result *r, size_t base, size_t other,
			     unsigned depth, int per_depth_ci, struct analysis_cmp *c)
{
	const struct analysis_series *b = &r->series[base], *a = &r->series[other];

	memset(c, 0, sizeof *c);
	c->base = base;
	c->other = other;
	c->runs_apart = !analysis_same_runs(a->rps, b->rps);
	c->runs_known = c->runs_apart && (a->peak_runs.n > 1 || b->peak_runs.n > 1);
	analysis_delta(b, 1, a, 1, &c->at_1);
	analysis_delta_peaks(b, a, &c->at_peak);
	if (depth)
		analysis_delta(b, depth, a, depth, &c->at_depth);
	c->ratio_min = c->ratio_max = NAN;
	c->per_depth = xcalloc(a->rps->npts, sizeof *c->per_depth);
	for (size_t i = 0; i < a->rps->npts; i++) {
		unsigned d = a->rps->pts[i].depth;
		struct analysis_delta *x = &c->per_depth[c->ndepths];

		if (series_at(b->rps, d) == NULL)
			continue;
		analysis_delta_at(b, d, a, d, per_depth_ci, x);
		c->ndepths++;
		if (isfinite(x->ratio)) {
			if (!(c->ratio_min <= x->ratio))
				c->ratio_min = x->ratio;
			if (!(c->ratio_max >= x->ratio))
				c->ratio_max = x->ratio;
		}
	}
}

/* The depth whose paired repeats gave d's interval: of throughput
 * (d->rep_depth), or with lat of the average latency (d->avg_depth, when
 * it has an interval); 0 when none did. */
static unsigned analysis_rep_depth(const struct analysis_delta *d, int lat)
{
	if (!d->valid)
		return 0;
	if (lat)
		return d->avg_verdict != KNEE_UNKNOWN ? d->avg_depth : 0;
	return d->rep_depth;
}

/* Mean and sum of squares of the paired log ratios of d's repeats (of
 * throughput, or with lat of the average latency); -1 when d's interval is
 * not from paired repeats. */
static int analysis_pair_logs(const struct analysis_result *r, const struct analysis_cmp *c,
			      const struct analysis_delta *d, int lat, double *mean, double *ss,
			      size_t *k)
{
	const struct series *sa = r->series[c->other].rps, *sb = r->series[c->base].rps;
	unsigned depth = analysis_rep_depth(d, lat);
	const struct series_point *pa, *pb;
	double s = 0, q = 0;

	if (lat)
		analysis_lat(&r->series[c->base], &r->series[c->other], &sb, &sa);
	if (depth == 0 || sa == NULL || sb == NULL)
		return -1;
	pa = series_at(sa, depth);
	pb = series_at(sb, depth);
	if (pa == NULL || pb == NULL || pa->n != pb->n || pa->n < 2)
		return -1;
	for (size_t i = 0; i < pa->n; i++) {
		if (!(pa->v[i] > 0 && pb->v[i] > 0))
			return -1;
		s += log(pa->v[i] / pb->v[i]);
	}
	*mean = s / (double)pa->n;
	for (size_t i = 0; i < pa->n; i++) {
		double e = log(pa->v[i] / pb->v[i]) - *mean;

		q += e * e;
	}
	*ss = q;
	*k = pa->n;
	return 0;
}

/* The deltas of comparison c whose intervals the repeats gave. */
static struct analysis_delta *analysis_rep_delta(struct analysis_cmp *c, int which)
{
	return which == 0 ? &c->at_1 : which == 1 ? &c->at_peak : &c->at_depth;
}

/* Whether delta w of c measures the same point as one of its deltas before
 * it (at_peak and at_depth of a one-depth series repeat at_1's point). */
static int analysis_rep_seen(struct analysis_cmp *c, int w, int lat)
{
	unsigned depth = analysis_rep_depth(analysis_rep_delta(c, w), lat);

	for (int v = 0; v < w; v++)
		if (analysis_rep_depth(analysis_rep_delta(c, v), lat) == depth)
			return 1;
	return 0;
}

/* Pool the noise of every delta's paired repeats (of throughput, or with
 * lat of the average latency) as analysis_pool_repeats says. */
static void analysis_pool_metric(struct analysis_result *r, int lat)
{
	for (size_t i = 0; i < r->ncmps; i++) {
		for (int w = 0; w < 3; w++) {
			struct analysis_delta *d = analysis_rep_delta(&r->cmps[i], w);
			struct stats_ci *ci = lat ? &d->avg_ci : &d->ci;
			double mean, ss, pss = 0, m2, s2;
			size_t k, k2, df = 0;
			struct knee_cmp kc;

			if (analysis_pair_logs(r, &r->cmps[i], d, lat, &mean, &ss, &k) < 0)
				continue;
			for (size_t j = 0; j < r->ncmps; j++) {
				struct analysis_cmp *o = &r->cmps[j];

				if (r->series[o->other].rps->label_idx !=
				    r->series[r->cmps[i].other].rps->label_idx ||
				    r->series[o->base].rps->label_idx !=
				    r->series[r->cmps[i].base].rps->label_idx)
					continue;
				for (int w2 = 0; w2 < 3; w2++) {
					const struct analysis_delta *e = analysis_rep_delta(o, w2);

					/* Each point once, at this delta's depth. */
					if (analysis_rep_depth(e, lat) != analysis_rep_depth(d, lat) ||
					    analysis_rep_seen(o, w2, lat))
						continue;
					if (analysis_pair_logs(r, o, e, lat, &m2, &s2, &k2) == 0) {
						pss += s2;
						df += k2 - 1;
					}
				}
			}
			if (df <= k - 1)
				continue;
			/* Never narrower than the test's own spread: a noisier
			 * test than the rest keeps its width. */
			knee_ratio_from_logs(mean, sqrt(fmax(pss / (double)df, ss / (double)(k - 1)) /
							(double)k), df, ci->est, &kc);
			ci->lo = kc.ratio.lo;
			ci->hi = kc.ratio.hi;
			if (lat) {
				d->avg_verdict = kc.verdict;
			} else {
				d->verdict = kc.verdict;
				d->within_band = kc.within_band;
			}
		}
	}
}

/* The paired repeats' noise pooled over the tests of one label pair at
 * one depth: the same two servers on the same machine, so the spread of
 * a pair's log ratio is much alike from test to test, and 19 tests of 3
 * repeats give 38 degrees of freedom where one test has 2 (Student's t
 * 2.02 instead of 4.30).  Each interval keeps its own centre.  The same
 * for the average latencies' ratios. */
static void analysis_pool_repeats(struct analysis_result *r)
{
	analysis_pool_metric(r, 0);
	analysis_pool_metric(r, 1);
}

/* By other label (first seen first), then ratio descending, then test order. */
static int cmp_speedup(const void *pa, const void *pb)
{
	const struct analysis_speedup *x = pa, *y = pb;

	if (x->label_idx != y->label_idx)
		return x->label_idx < y->label_idx ? -1 : 1;
	if (x->ratio != y->ratio)
		return x->ratio > y->ratio ? -1 : 1;
	return (x->test_idx > y->test_idx) - (x->test_idx < y->test_idx);
}

static int analysis_no_baseline(const struct series_set *rps, const char *want, struct rs_err *err)
{
	char list[300];
	struct sbuf b;

	sbuf_fixed(&b, list, sizeof list);
	for (size_t i = 0; i < rps->nlabels && !b.cut; i++)
		sbuf_item(&b, ", ", "%s", rps->labels[i]);
	if (b.cut)
		memcpy(list + sizeof list - 4, "...", 4);
	return rs_err_set(err, "--baseline '%s' is not a label in the data (labels: %s)", want, list);
}

/* Every series of rps analysed into out->series (analysis_pool_run). */
struct analysis_work {
	const struct series_set *rps, *avg, *p50;
	const struct analysis_opts *o;
	struct analysis_result *out;
	size_t *pair;             /* the comparisons: [2k] base, [2k + 1] other */
	const unsigned char *only; /* analysis_run_some's, or NULL */
};

static void analysis_series_one(void *ctx, size_t i)
{
	struct analysis_work *w = ctx;
	const struct series *s = &w->rps->v[i];

	if (w->only != NULL && !w->only[i]) {
		w->out->series[i].rps = s;
		return;
	}
	analysis_series_compute(s, w->avg ? series_find(w->avg, s->label, s->test) : NULL,
				w->o->knee, w->o->cv_limit, w->o->level_band, &w->out->series[i]);
	w->out->series[i].p50 = w->p50 ? series_find(w->p50, s->label, s->test) : NULL;
}

/* Comparison k into out->cmps[k]: of the series alone, so a pool's too. */
static void analysis_compare_one(void *ctx, size_t k)
{
	struct analysis_work *w = ctx;

	analysis_compare(w->out, w->pair[2 * k], w->pair[2 * k + 1], w->o->depth,
			 w->o->per_depth_ci, &w->out->cmps[k]);
}

int analysis_run(const struct series_set *rps, const struct series_set *avg,
		 const struct analysis_opts *o, struct analysis_result *out, struct rs_err *err)
{
	return analysis_run_lat(rps, avg, NULL, o, out, err);
}

static int analysis_run_mask(const struct series_set *rps, const struct series_set *avg,
			     const struct series_set *p50, const struct analysis_opts *o,
			     const unsigned char *only, struct analysis_result *out,
			     struct rs_err *err);

int analysis_run_lat(const struct series_set *rps, const struct series_set *avg,
		     const struct series_set *p50, const struct analysis_opts *o,
		     struct analysis_result *out, struct rs_err *err)
{
	return analysis_run_mask(rps, avg, p50, o, NULL, out, err);
}

int analysis_run_some(const struct series_set *rps, const struct analysis_opts *o,
		      const unsigned char *only, struct analysis_result *out, struct rs_err *err)
{
	return analysis_run_mask(rps, NULL, NULL, o, only, out, err);
}

static int analysis_run_mask(const struct series_set *rps, const struct series_set *avg,
			     const struct series_set *p50, const struct analysis_opts *o,
			     const unsigned char *only, struct analysis_result *out,
			     struct rs_err *err)
{
	struct analysis_work w = { 0 };
	size_t base_label = 0;

	memset(out, 0, sizeof *out);
	if (rps->n == 0)
		return rs_err_set(err, "no series to analyse");
	if (o->baseline != NULL) {
		for (base_label = 0; base_label < rps->nlabels; base_label++)
			if (strcmp(rps->labels[base_label], o->baseline) == 0)
				break;
		if (base_label == rps->nlabels)
			return analysis_no_baseline(rps, o->baseline, err);
	}
	if (o->depth) {
		int found = 0;

		for (size_t i = 0; i < rps->n && !found; i++)
			found = series_at(&rps->v[i], o->depth) != NULL;
		if (!found)
			return rs_err_set(err, "--depth %u: no series has that depth", o->depth);
	}
	out->baseline = rps->labels[base_label];
	out->nlabels = rps->nlabels;
	out->depth = o->depth;
	out->nseries = rps->n;
	out->series = xcalloc(rps->n, sizeof *out->series);
	w.rps = rps;
	w.avg = avg;
	w.p50 = p50;
	w.o = o;
	w.out = out;
	w.only = only;
	analysis_pool_run(rps->n, 4, analysis_series_one, &w);
	for (size_t i = 0; i < rps->n; i++)
		out->nsingle += rps->v[i].npts == 1;
	/* Each other label's series against the baseline's series of the same
	 * test.  The set is label-major with tests in order, so walking it
	 * gives the comparisons by other label, then test order. */
	{
		size_t *base_of = xmalloc((rps->ntests ? rps->ntests : 1) * sizeof *base_of);

		for (size_t t = 0; t < rps->ntests; t++)
			base_of[t] = (size_t)-1;
		for (size_t i = 0; i < rps->n; i++)
			if (rps->v[i].label_idx == base_label)
				base_of[rps->v[i].test_idx] = i;
		out->cmps = xcalloc(rps->n, sizeof *out->cmps);
		w.pair = xmalloc(2 * (rps->n ? rps->n : 1) * sizeof *w.pair);
		for (size_t i = 0; i < rps->n; i++) {
			size_t b = base_of[rps->v[i].test_idx];

			if (rps->v[i].label_idx == base_label || b == (size_t)-1 ||
			    (w.only != NULL && !(w.only[i] && w.only[b])))
				continue;
			w.pair[2 * out->ncmps] = b;
			w.pair[2 * out->ncmps++ + 1] = i;
		}
		analysis_pool_run(out->ncmps, 1, analysis_compare_one, &w);
		free(w.pair);
		free(base_of);
	}
	analysis_pool_repeats(out);
	out->speedup = xcalloc(out->ncmps ? out->ncmps : 1, sizeof *out->speedup);
	for (size_t i = 0; i < out->ncmps; i++) {
		const struct analysis_delta *d = o->depth ? &out->cmps[i].at_depth :
					       &out->cmps[i].at_peak;
		const struct series *s = out->series[out->cmps[i].other].rps;
		struct analysis_speedup *u = &out->speedup[out->nspeedup];

		if (!d->valid || !isfinite(d->ratio))
			continue;
		u->cmp = i;
		u->ratio = d->ratio;
		u->label_idx = s->label_idx;
		u->test_idx = s->test_idx;
		out->nspeedup++;
	}
	qsort(out->speedup, out->nspeedup, sizeof *out->speedup, cmp_speedup);
	return 0;
}

void analysis_result_free(struct analysis_result *r)
{
	if (r == NULL)
		return;
	for (size_t i = 0; i < r->nseries; i++)
		analysis_series_free(&r->series[i]);
	free(r->series);
	for (size_t i = 0; i < r->ncmps; i++)
		free(r->cmps[i].per_depth);
	free(r->cmps);
	free(r->speedup);
	memset(r, 0, sizeof *r);
}

long analysis_other_client(const struct analysis_result *r, size_t k, const char **base)
{
	const char *bc = NULL, *last = NULL;

	for (size_t i = 0; r->nlabels > 1 && i < r->nseries && bc == NULL; i++)
		if (strcmp(r->series[i].rps->label, r->baseline) == 0)
			bc = r->series[i].rps->first->client;
	*base = bc;
	for (size_t i = 0; bc != NULL && bc[0] && i < r->nseries; i++) {
		const struct series *s = r->series[i].rps;

		if (s->label == last || strcmp(s->label, r->baseline) == 0)
			continue;
		last = s->label;
		if (s->first->client[0] != '\0' && strcmp(s->first->client, bc) != 0 && k-- == 0)
			return (long)i;
	}
	return -1;
}

const struct analysis_cmp *analysis_cmp_of(const struct analysis_result *r,
					   const struct analysis_series *other)
{
	for (size_t k = 0; k < r->ncmps; k++)
		if (&r->series[r->cmps[k].other] == other)
			return &r->cmps[k];
	return NULL;
}

const struct analysis_delta *analysis_cmp_delta(const struct analysis_result *r,
						const struct analysis_cmp *c)
{
	return r->depth ? &c->at_depth : &c->at_peak;
}

const char *analysis_fmt_ratio(char *buf, size_t size, double r)
{
	if (size == 0)
		return buf;
	if (!isfinite(r)) {
		snprintf(buf, size, "-");
		return buf;
	}
	/* Decided on the printed value, so that no ratio reads 10.00 or
	 * 100.0: an integer part of 2 digits drops one decimal, of 3 both. */
	for (int prec = 2; prec >= 0; prec--) {
		char tmp[64];
		size_t digits;

		num_fmt(tmp, sizeof tmp, fabs(r), prec);
		digits = strcspn(tmp, ".");
		if (prec == 0 || digits < (size_t)(3 - prec) + 1) {
			num_fmt(buf, size, r, prec);
			break;
		}
	}
	return buf;
}
