/* knee_cmp.c: comparisons of two throughput series at a depth or at their
 * peaks: the ratio of medians, its interval, and a verdict. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/knee.h"
#include "stats/knee_int.h"
#include "base/xalloc.h"

/* Most pairs of two pools a comparison of one point a side enumerates. */
#define KNEE_MAX_PAIRS 1000000

enum knee_verdict knee_verdict_of(double lo, double hi)
{
	/* A zero-width interval (nothing varied: identical or noise-free
	 * measurements) is none: it would claim an exact ratio. */
	if (isnan(lo) || isnan(hi) || !(log(hi / lo) > KNEE_EXACT))
		return KNEE_UNKNOWN;
	if (lo > 1 + KNEE_CMP_BAND)
		return KNEE_FASTER;
	if (hi < 1 - KNEE_CMP_BAND)
		return KNEE_SLOWER;
	if (lo >= 1 - KNEE_CMP_BAND && hi <= 1 + KNEE_CMP_BAND)
		return KNEE_SAME;
	if (lo > 1)
		return KNEE_FASTER_UNSURE;
	if (hi < 1)
		return KNEE_SLOWER_UNSURE;
	return KNEE_CANNOT_TELL;
}

/* c->verdict and c->within_band from c->ratio's interval. */
static void knee_verdict(struct knee_cmp *c)
{
	c->verdict = knee_verdict_of(c->ratio.lo, c->ratio.hi);
	c->within_band = c->verdict == KNEE_SAME;
	if (c->verdict == KNEE_UNKNOWN)
		c->ratio.lo = c->ratio.hi = NAN;
}

/* The ratio's interval from n bootstrap replicates of its log (reordered),
 * and the verdict it gives. */
static void knee_ratio_ci(struct knee_cmp *out, double *rep, size_t n, double level)
{
	stats_percentile_inplace(rep, n, level, &out->ratio.lo, &out->ratio.hi);
	out->ratio.lo = exp(out->ratio.lo);
	out->ratio.hi = exp(out->ratio.hi);
	knee_verdict(out);
}

int knee_compare_at(const struct knee_series *a, const struct knee_result *ra, size_t ia,
		    const struct knee_series *b, const struct knee_result *rb, size_t ib,
		    const struct knee_opts *o, struct knee_cmp *out, struct rs_err *err)
{
	struct stats_rng rga, rgb;
	double *rep, *work, ya, yb;
	size_t maxn;

	memset(out, 0, sizeof *out);
	out->ratio.est = out->ratio.lo = out->ratio.hi = NAN;
	out->verdict = KNEE_UNKNOWN;
	if (knee_check_opts(o, err) < 0)
		return -1;
	if (ra->m != a->m || rb->m != b->m)
		return rs_err_set(err, "a comparison with the result of another series");
	if (ia >= a->m || ib >= b->m)
		return rs_err_set(err, "comparison at depth index %zu or %zu: out of range", ia,
				  ib);
	ya = log(ra->pts[ia].median.est);
	yb = log(rb->pts[ib].median.est);
	out->ratio.est = exp(ya - yb);
	if (ra->pts[ia].method == KNEE_CI_NONE || rb->pts[ib].method == KNEE_CI_NONE)
		return 0;
	if (a->n[ia] == 1 && b->n[ib] == 1 && ra->npool <= KNEE_MAX_PAIRS / rb->npool) {
		/* One point a side: a replicate is one draw from each pool, so
		 * all pairs of the two pools are the exact distribution; type
		 * 6 quantiles, as for a point's own interval. */
		size_t np = ra->npool * rb->npool, k = 0;
		double qlo, qhi;

		rep = xcalloc(np, sizeof *rep);
		for (size_t i = 0; i < ra->npool; i++)
			for (size_t j = 0; j < rb->npool; j++)
				rep[k++] = ra->pool[i] - rb->pool[j];
		qlo = stats_quantile6_inplace(rep, np, (1 - o->level) / 2);
		qhi = stats_quantile6_inplace(rep, np, (1 + o->level) / 2);
		out->ratio.lo = out->ratio.est * exp(qlo);
		out->ratio.hi = out->ratio.est * exp(qhi);
		free(rep);
		knee_verdict(out);
		return 0;
	}
	maxn = a->n[ia] > b->n[ib] ? a->n[ia] : b->n[ib];
	rep = xcalloc(o->B, sizeof *rep);
	work = xcalloc(maxn, sizeof *work);
	stats_rng_seed(&rga, stats_seed_mix(o->seed, (uint64_t)KNEE_TAG_CMP_A << 32 | ia));
	stats_rng_seed(&rgb, stats_seed_mix(o->seed, (uint64_t)KNEE_TAG_CMP_B << 32 | ib));
	for (size_t k = 0; k < o->B; k++) {
		double da = knee_draw(a, ra, ia, ya, &rga, work);

		rep[k] = da - knee_draw(b, rb, ib, yb, &rgb, work);
	}
	knee_ratio_ci(out, rep, o->B, o->level);
	free(work);
	free(rep);
	return 0;
}

int knee_compare_peak(const struct knee_result *ra, const struct knee_result *rb,
		      const struct knee_opts *o, struct knee_cmp *out, struct rs_err *err)
{
	struct stats_rng rng;
	double *rep;
	size_t nb;

	memset(out, 0, sizeof *out);
	out->ratio.est = out->ratio.lo = out->ratio.hi = NAN;
	out->verdict = KNEE_UNKNOWN;
	if (knee_check_opts(o, err) < 0)
		return -1;
	out->ratio.est = ra->peak_rps.est / rb->peak_rps.est;
	if (ra->nboot == 0 || rb->nboot == 0)
		return 0;
	nb = ra->nboot < rb->nboot ? ra->nboot : rb->nboot;
	rep = xcalloc(rb->nboot, sizeof *rep);
	memcpy(rep, rb->boot_peak, rb->nboot * sizeof *rep);
	stats_rng_seed(&rng, stats_seed_mix(o->seed, KNEE_TAG_PEAK));
	/* Fisher-Yates: replicate k of a meets a random one of b. */
	for (size_t k = rb->nboot; k > 1; k--) {
		size_t j = stats_rng_below(&rng, k);
		double t = rep[k - 1];

		rep[k - 1] = rep[j];
		rep[j] = t;
	}
	for (size_t k = 0; k < nb; k++)
		rep[k] = ra->boot_peak[k] - rep[k];
	knee_ratio_ci(out, rep, nb, o->level);
	free(rep);
	return 0;
}

/* Mean and variance (n - 1) of log v[0..n); -1 for a value <= 0. */
static int knee_log_moments(const double *v, size_t n, double *mean, double *var)
{
	double s = 0, ss = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return -1;
		s += log(v[i]);
	}
	*mean = s / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (log(v[i]) - *mean) * (log(v[i]) - *mean);
	*var = ss / (double)(n - 1);
	return 0;
}

void knee_compare_repeats(const double *va, size_t na, const double *vb, size_t nb,
			  struct knee_cmp *out)
{
	double *w, ma, mb, centre, half;

	memset(out, 0, sizeof *out);
	out->ratio.est = out->ratio.lo = out->ratio.hi = NAN;
	out->verdict = KNEE_UNKNOWN;
	if (na == 0 || nb == 0)
		return;
	w = xcalloc(na > nb ? na : nb, sizeof *w);
	memcpy(w, va, na * sizeof *w);
	ma = stats_quantile6_inplace(w, na, 0.5);
	memcpy(w, vb, nb * sizeof *w);
	mb = stats_quantile6_inplace(w, nb, 0.5);
	if (ma > 0 && mb > 0)
		out->ratio.est = ma / mb;
	if (na < 2 || nb < 2 || !(ma > 0 && mb > 0)) {
		free(w);
		return;
	}
	if (na == nb) {
		double m, v;

		for (size_t i = 0; i < na; i++)
			w[i] = va[i] > 0 && vb[i] > 0 ? va[i] / vb[i] : -1;
		if (knee_log_moments(w, na, &m, &v) < 0) {
			free(w);
			return;
		}
		centre = m;
		half = knee_t975(na - 1) * sqrt(v / (double)na);
	} else {
		double m1, v1, m2, v2, s1, s2, df;

		if (knee_log_moments(va, na, &m1, &v1) < 0 || knee_log_moments(vb, nb, &m2, &v2) < 0) {
			free(w);
			return;
		}
		s1 = v1 / (double)na;
		s2 = v2 / (double)nb;
		/* Welch-Satterthwaite, at least the smaller side's n - 1. */
		df = s1 + s2 > 0 ? (s1 + s2) * (s1 + s2) /
			(s1 * s1 / (double)(na - 1) + s2 * s2 / (double)(nb - 1)) : (double)(na + nb - 2);
		if (!(df >= (double)((na < nb ? na : nb) - 1)))
			df = (double)((na < nb ? na : nb) - 1);
		centre = m1 - m2;
		half = knee_t975((size_t)df) * sqrt(s1 + s2);
	}
	free(w);
	/* Identical repeats (quantized figures: redis-benchmark's p50 in
	 * steps of 8 us) vary by nothing: no interval rather than a
	 * zero-width one that claims an exact ratio. */
	if (!(half > 0))
		return;
	out->ratio.lo = fmin(exp(centre - half), out->ratio.est);
	out->ratio.hi = fmax(exp(centre + half), out->ratio.est);
	knee_verdict(out);
}

void knee_ratio_from_logs(double centre, double se, size_t df, double est, struct knee_cmp *out)
{
	double half = knee_t975(df ? df : 1) * se;

	out->ratio.est = est;
	if (!(half > 0)) {
		/* No spread at all: no interval, never a zero-width one. */
		out->ratio.lo = out->ratio.hi = NAN;
		out->verdict = KNEE_UNKNOWN;
		out->within_band = 0;
		return;
	}
	out->ratio.lo = fmin(exp(centre - half), est);
	out->ratio.hi = fmax(exp(centre + half), est);
	knee_verdict(out);
}

const char *knee_verdict_name(enum knee_verdict v)
{
	switch (v) {
	case KNEE_SAME:
		return "same";
	case KNEE_FASTER:
		return "faster";
	case KNEE_SLOWER:
		return "slower";
	case KNEE_CANNOT_TELL:
		return "cannot tell";
	case KNEE_FASTER_UNSURE:
		return "faster (size unsure)";
	case KNEE_SLOWER_UNSURE:
		return "slower (size unsure)";
	case KNEE_UNKNOWN:
		break;
	}
	return "unknown";
}
