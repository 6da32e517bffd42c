/* analysis.c: the analysis of a set of series: each series' figures and
 * each comparison with the baseline, shared over every CPU
 * (analysis_pool.c), the speed-ups in order, and what the report asks of
 * the result. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/analysis_int.h"
#include "base/num.h"
#include "base/sbuf.h"
#include "base/xalloc.h"

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
