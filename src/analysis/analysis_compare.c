/* analysis_compare.c: a series against the baseline's series of its test:
 * ratios at depth 1, at the peaks, at a depth and at every common depth,
 * with intervals from the core, the runs or the paired repeats, and the
 * repeats' noise pooled over a label pair's tests.  Computes; never
 * prints. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/analysis_int.h"
#include "base/xalloc.h"

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

void analysis_compare(const struct analysis_result *r, size_t base, size_t other,
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
void analysis_pool_repeats(struct analysis_result *r)
{
	analysis_pool_metric(r, 0);
	analysis_pool_metric(r, 1);
}
