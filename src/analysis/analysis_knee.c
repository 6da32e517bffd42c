/* analysis_knee.c: the core (knee.h) on one series, or on one run of it,
 * and the point figures where the core has none: peak, saturation depth,
 * the throughput model, the ratio of two series at a depth.  Computes;
 * never prints. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/analysis_int.h"
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
