/* decide.c: which compared points --until-decided measures again (see
 * decide.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "base/xalloc.h"
#include "sweep/decide.h"

int decide_is_decided(enum knee_verdict v)
{
	return v == KNEE_FASTER || v == KNEE_SLOWER || v == KNEE_SAME;
}

/* One test of one side, as the report's core sees it: the depths that
 * have a measurement, each one's values in repeat order (the report's
 * series sorts them so, and the core's noise is not blind to the order),
 * and knee_analyse's result on them (ok 0: none). */
struct decide_side {
	unsigned *depth;
	size_t *n;
	const double **v;
	double **own;             /* [m]: the values of v, owned */
	struct knee_series s;
	struct knee_result r;
	int ok;
};

/* c's values in repeat order (malloc'd): an insertion sort, stable, of
 * a few dozen repeats at most. */
static double *decide_by_repeat(const struct precision_cell *c)
{
	double *v = xmalloc(c->n * sizeof *v);
	unsigned *r = xmalloc(c->n * sizeof *r);

	for (size_t i = 0; i < c->n; i++) {
		size_t j = i;

		for (; j > 0 && r[j - 1] > c->rep[i]; j--) {
			r[j] = r[j - 1];
			v[j] = v[j - 1];
		}
		r[j] = c->rep[i];
		v[j] = c->v[i];
	}
	free(r);
	return v;
}

static void decide_side_init(struct decide_side *d, const struct precision *p, size_t t)
{
	const struct precision_cell *row = &p->cells[t * p->ndepths];
	struct knee_opts o;
	struct rs_err e;
	size_t m = 0;

	memset(d, 0, sizeof *d);
	d->depth = xcalloc(p->ndepths ? p->ndepths : 1, sizeof *d->depth);
	d->n = xcalloc(p->ndepths ? p->ndepths : 1, sizeof *d->n);
	d->v = xcalloc(p->ndepths ? p->ndepths : 1, sizeof *d->v);
	d->own = xcalloc(p->ndepths ? p->ndepths : 1, sizeof *d->own);
	for (size_t i = 0; i < p->ndepths; i++)
		if (row[i].n > 0) {
			d->depth[m] = p->depth[i];
			d->n[m] = row[i].n;
			d->own[m] = decide_by_repeat(&row[i]);
			d->v[m] = d->own[m];
			m++;
		}
	d->s = (struct knee_series){ m, d->depth, d->n, (const double *const *)d->v };
	/* analysis_knee_opts' options: the knee plays no part in a ratio and
	 * the seed is ANALYSIS_SEED, 1, as knee_opts_default's. */
	knee_opts_default(&o);
	if (m > 0 && knee_analyse(&d->s, &o, &d->r, &e) == 0)
		d->ok = 1;
}

static void decide_side_free(struct decide_side *d)
{
	if (d->ok)
		knee_result_free(&d->r);
	for (size_t i = 0; i < d->s.m; i++)
		free(d->own[i]);
	free(d->own);
	free(d->depth);
	free(d->n);
	free(d->v);
}

/* Index of depth among d's measured depths, or -1. */
static long decide_index(const struct decide_side *d, unsigned depth)
{
	for (size_t i = 0; i < d->s.m; i++)
		if (d->depth[i] == depth)
			return (long)i;
	return -1;
}

/* One comparison, and when its interval is the paired repeats' the
 * pairs' log ratios: their mean, sum of squares and count (k 0: not). */
struct decide_cmp {
	struct knee_cmp cmp;
	double mean, ss;
	size_t k;
};

/* The paired log ratios of va over vb into c (as the report's
 * analysis_pair_logs): none unless as many a side, two or more, all > 0. */
static void decide_pair_logs(const double *va, size_t na, const double *vb, size_t nb,
			     struct decide_cmp *c)
{
	double s = 0, q = 0;

	c->k = 0;
	if (na != nb || na < 2)
		return;
	for (size_t i = 0; i < na; i++) {
		if (!(va[i] > 0 && vb[i] > 0))
			return;
		s += log(va[i] / vb[i]);
	}
	c->mean = s / (double)na;
	for (size_t i = 0; i < na; i++)
		q += (log(va[i] / vb[i]) - c->mean) * (log(va[i] / vb[i]) - c->mean);
	c->ss = q;
	c->k = na;
}

/* a against b at depth, as the report compares two points: the core's
 * interval (knee_compare_at), else the paired repeats'
 * (knee_compare_repeats), whose noise decide_pool then pools. */
static void decide_compare(const struct decide_side *a, const struct decide_side *b,
			   unsigned depth, struct decide_cmp *c)
{
	long ia = decide_index(a, depth), ib = decide_index(b, depth);
	struct knee_cmp *out = &c->cmp;
	struct knee_opts o;

	memset(c, 0, sizeof *c);
	out->ratio.est = out->ratio.lo = out->ratio.hi = NAN;
	out->verdict = KNEE_UNKNOWN;
	if (ia < 0 || ib < 0)
		return;
	knee_opts_default(&o);
	if (a->ok && b->ok &&
	    knee_compare_at(&a->s, &a->r, (size_t)ia, &b->s, &b->r, (size_t)ib, &o, out, NULL) == 0 &&
	    isfinite(out->ratio.lo))
		return;
	knee_compare_repeats(a->v[ia], a->n[ia], b->v[ib], b->n[ib], out);
	if (isfinite(out->ratio.lo))
		decide_pair_logs(a->v[ia], a->n[ia], b->v[ib], b->n[ib], c);
}

/* The paired repeats' noise pooled over the nt tests of one pair of sides
 * at one depth (c[t * nd + d]), as the report's analysis_pool_repeats
 * does: each interval keeps its own centre, and is never narrower than
 * its test's own spread. */
static void decide_pool(struct decide_cmp *c, size_t nt, size_t nd, size_t d)
{
	double pss = 0;
	size_t df = 0;

	for (size_t t = 0; t < nt; t++)
		if (c[t * nd + d].k > 0) {
			pss += c[t * nd + d].ss;
			df += c[t * nd + d].k - 1;
		}
	for (size_t t = 0; t < nt; t++) {
		struct decide_cmp *x = &c[t * nd + d];
		struct knee_cmp kc;

		if (x->k == 0 || df <= x->k - 1)
			continue;
		knee_ratio_from_logs(x->mean, sqrt(fmax(pss / (double)df, x->ss / (double)(x->k - 1)) /
						   (double)x->k), df, x->cmp.ratio.est, &kc);
		x->cmp.ratio.lo = kc.ratio.lo;
		x->cmp.ratio.hi = kc.ratio.hi;
		x->cmp.verdict = kc.verdict;
		x->cmp.within_band = kc.within_band;
	}
}

/* How many repeats of a point a side has: the highest repeat number seen
 * (a point that failed counts), or the measurements, whichever is more. */
static unsigned decide_repeats(const struct precision_cell *c)
{
	return c->last > c->n ? c->last : (unsigned)c->n;
}

long decide_next(const struct precision *pr, size_t n, size_t group, unsigned max_repeats,
		 uint64_t seed, struct precision_pick **out, struct decide_state *st,
		 struct rs_err *err)
{
	size_t nt = n ? pr[0].ntests : 0, nd = n ? pr[0].ndepths : 0, nv = 0, cap = 0, ocap = 0;
	struct decide_side *side;
	struct decide_cmp *cmp;
	struct precision_pick *v = NULL;
	unsigned char *seen;

	*out = NULL;
	memset(st, 0, sizeof *st);
	if (group == 0)
		group = 1;
	for (size_t k = 1; k < n; k++)
		if (pr[k].ntests != nt || pr[k].ndepths != nd)
			return rs_err_set(err, "--until-decided: the targets' plans differ in shape");
	if (n <= group)
		return 0;
	side = xcalloc(n * (nt ? nt : 1), sizeof *side);
	seen = xcalloc(nt * nd > 0 ? nt * nd : 1, 1);
	for (size_t k = 0; k < n; k++)
		for (size_t t = 0; t < nt; t++)
			decide_side_init(&side[k * nt + t], &pr[k], t);
	cmp = xcalloc(nt * nd > 0 ? nt * nd : 1, sizeof *cmp);
	for (size_t k = group; k < n; k++) {
		size_t b = k % group;

		for (size_t t = 0; t < nt; t++)
			for (size_t d = 0; d < nd; d++)
				decide_compare(&side[k * nt + t], &side[b * nt + t], pr[0].depth[d],
					       &cmp[t * nd + d]);
		for (size_t d = 0; d < nd; d++)
			decide_pool(cmp, nt, nd, d);
		for (size_t t = 0; t < nt; t++)
			for (size_t d = 0; d < nd; d++) {
				const struct precision_cell *ca = &pr[k].cells[t * nd + d];
				const struct precision_cell *cb = &pr[b].cells[t * nd + d];
				unsigned ra = decide_repeats(ca), rb = decide_repeats(cb);
				struct decide_open o;

				memset(&o, 0, sizeof o);
				o.test = t;
				o.depth = pr[0].depth[d];
				o.target = k;
				o.base = b;
				o.cmp = cmp[t * nd + d].cmp;
				o.repeats = ra < rb ? ra : rb;
				st->compared++;
				if (decide_is_decided(o.cmp.verdict)) {
					st->faster += o.cmp.verdict == KNEE_FASTER;
					st->slower += o.cmp.verdict == KNEE_SLOWER;
					st->same += o.cmp.verdict == KNEE_SAME;
					continue;
				}
				st->open = vec_reserve(st->open, &ocap, st->undecided + 1,
						       sizeof *st->open, 8);
				st->open[st->undecided++] = o;
				if (o.repeats >= max_repeats) {
					st->capped++;
					continue;
				}
				if (seen[t * nd + d])
					continue;
				seen[t * nd + d] = 1;
				v = vec_reserve(v, &cap, nv + 1, sizeof *v, 16);
				v[nv++] = (struct precision_pick){ t, o.depth,
								   decide_repeats(&pr[0].cells[t * nd + d]) + 1,
								   NAN };
			}
	}
	for (size_t i = 0; i < n * nt; i++)
		decide_side_free(&side[i]);
	free(side);
	free(seen);
	free(cmp);
	/* Shuffled, as the plan and --precision's rounds are. */
	precision_shuffle(v, nv, seed);
	*out = v;
	return (long)nv;
}

void decide_state_free(struct decide_state *st)
{
	if (st == NULL)
		return;
	free(st->open);
	memset(st, 0, sizeof *st);
}

int decide_budget_parse(const char *s, double *seconds, struct rs_err *err)
{
	char *end;
	double v, mult = 1;

	if (s == NULL || *s == '\0')
		return rs_err_set(err, "an empty budget (give seconds, or 90s, 10m, 1h)");
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno != 0)
		return rs_err_set(err, "'%s' is not a time (give seconds, or 90s, 10m, 1h)", s);
	if (*end == 's')
		end++;
	else if (*end == 'm')
		mult = 60, end++;
	else if (*end == 'h')
		mult = 3600, end++;
	if (*end != '\0')
		return rs_err_set(err, "'%s' is not a time (give seconds, or 90s, 10m, 1h)", s);
	v *= mult;
	if (!isfinite(v) || !(v > 0) || v > 366 * 86400.0)
		return rs_err_set(err, "'%s' is out of range (above 0, at most a year)", s);
	*seconds = v;
	return 0;
}
