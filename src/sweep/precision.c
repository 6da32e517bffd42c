/* precision.c: which points of a sweep to measure again, and how often. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/knee.h"
#include "sweep/precision.h"
#include "stats/stats.h"
#include "base/vec.h"
#include "base/xalloc.h"

static int precision_cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

void precision_init(struct precision *p, size_t ntests, const struct depth_list *d)
{
	size_t k = 0;

	memset(p, 0, sizeof *p);
	p->depth = xcalloc(d->n ? d->n : 1, sizeof *p->depth);
	memcpy(p->depth, d->v, d->n * sizeof *p->depth);
	qsort(p->depth, d->n, sizeof *p->depth, precision_cmp_unsigned);
	for (size_t i = 0; i < d->n; i++)
		if (k == 0 || p->depth[k - 1] != p->depth[i])
			p->depth[k++] = p->depth[i];
	p->ndepths = k;
	p->ntests = ntests;
	p->cells = xcalloc(ntests * k > 0 ? ntests * k : 1, sizeof *p->cells);
}

void precision_free(struct precision *p)
{
	if (p == NULL)
		return;
	for (size_t i = 0; i < p->ntests * p->ndepths; i++) {
		free(p->cells[i].v);
		free(p->cells[i].rep);
	}
	free(p->cells);
	free(p->depth);
	memset(p, 0, sizeof *p);
}

/* Index of depth in p->depth, or -1. */
static long precision_depth_index(const struct precision *p, unsigned depth)
{
	const unsigned *hit = bsearch(&depth, p->depth, p->ndepths, sizeof *p->depth,
				      precision_cmp_unsigned);

	return hit ? (long)(hit - p->depth) : -1;
}

void precision_add(struct precision *p, size_t test, unsigned depth, unsigned repeat, double rps)
{
	long d = precision_depth_index(p, depth);
	struct precision_cell *c;

	if (test >= p->ntests || d < 0)
		return;
	c = &p->cells[test * p->ndepths + (size_t)d];
	if (repeat > c->last)
		c->last = repeat;
	if (!isfinite(rps) || !(rps > 0))
		return;
	c->v = vec_reserve(c->v, &c->cap, c->n + 1, sizeof *c->v, 4);
	c->rep = vec_reserve(c->rep, &c->rcap, c->n + 1, sizeof *c->rep, 4);
	c->rep[c->n] = repeat;
	c->v[c->n++] = rps;
}

/* The relative half-widths of test t's points into width[] (NAN where the
 * noise is unknown).  Returns 0, 1 when a depth has no point yet, -1 when
 * the analysis fails. */
static int precision_widths(const struct precision *p, size_t t, double *width,
			    struct rs_err *err)
{
	const struct precision_cell *row = &p->cells[t * p->ndepths];
	size_t *n = xcalloc(p->ndepths, sizeof *n);
	const double **v = xcalloc(p->ndepths, sizeof *v);
	struct knee_series s = { p->ndepths, p->depth, n, (const double *const *)v };
	struct knee_result r = { 0 };
	struct knee_opts o;
	int rc = 0;

	for (size_t i = 0; i < p->ndepths; i++) {
		n[i] = row[i].n;
		v[i] = row[i].v;
		if (n[i] == 0)
			rc = 1;
	}
	knee_opts_default(&o);
	if (rc == 0 && (rc = knee_analyse(&s, &o, &r, err)) == 0)
		for (size_t i = 0; i < p->ndepths; i++) {
			const struct stats_ci *ci = &r.pts[i].median;

			width[i] = ci->est > 0 ? (ci->hi - ci->lo) / (2 * ci->est) : NAN;
		}
	knee_result_free(&r);
	free(n);
	free(v);
	return rc;
}

void precision_shuffle(struct precision_pick *v, size_t n, uint64_t seed)
{
	struct stats_rng rng;

	stats_rng_seed(&rng, seed);
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)stats_rng_below(&rng, i);
		struct precision_pick tmp = v[i - 1];

		v[i - 1] = v[j];
		v[j] = tmp;
	}
}

long precision_next(const struct precision *p, double target, unsigned max_repeats,
		    uint64_t seed, struct precision_pick **out, struct precision_state *st,
		    struct rs_err *err)
{
	double *width = xcalloc(p->ndepths ? p->ndepths : 1, sizeof *width);
	struct precision_pick *v = NULL;
	size_t nv = 0, cap = 0;
	int unknown = 0;

	*out = NULL;
	st->worst = 0;
	st->over = 0;
	for (size_t t = 0; t < p->ntests; t++) {
		int rc = precision_widths(p, t, width, err);

		if (rc < 0) {
			free(width);
			free(v);
			return -1;
		}
		if (rc > 0) {
			unknown = 1;
			continue;
		}
		for (size_t i = 0; i < p->ndepths; i++) {
			const struct precision_cell *c = &p->cells[t * p->ndepths + i];

			if (!isfinite(width[i]))
				unknown = 1;
			else if (width[i] > st->worst)
				st->worst = width[i];
			if (isfinite(width[i]) && width[i] <= target)
				continue;
			st->over++;
			if (c->n >= max_repeats)
				continue;
			v = vec_reserve(v, &cap, nv + 1, sizeof *v, 16);
			v[nv++] = (struct precision_pick){ t, p->depth[i],
							   (c->last > c->n ? c->last : (unsigned)c->n) + 1,
							   width[i] };
		}
	}
	free(width);
	if (unknown)
		st->worst = NAN;
	/* Shuffled, as the plan is: drift then hits every point of a round alike. */
	precision_shuffle(v, nv, seed);
	*out = v;
	return (long)nv;
}
