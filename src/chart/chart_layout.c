/* chart_layout.c: the layout's entry: it checks what it is given, finds
 * each series' test, label and figures, and hands the chart to its kind's
 * file (chart_lines.c, chart_facets.c, chart_speedup.c, chart_latency.c).
 * The kinds draw with chart.c, chart_place.c, chart_frame.c and
 * chart_figures.c, and none calls back here. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/chart_int.h"
#include "analysis/mixshare.h"
#include "workload/workload.h"
#include "base/xalloc.h"

/* Index of name in list (appending it if new). */
static size_t chart_intern(const char ***list, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*list)[i], name) == 0)
			return i;
	*list = xreallocarray(*list, *n + 1, sizeof **list);
	(*list)[*n] = name;
	return (*n)++;
}

/* Put L's tests in redis-benchmark's order (unknown ones after, as first
 * seen), whatever order the rows came in (a shuffled run's), so that a
 * test keeps its colour and its place in the legend from chart to chart;
 * test_of follows. */
static void chart_order_tests(struct chart_lay *L)
{
	size_t *rank = xcalloc(L->ntests ? L->ntests : 1, sizeof *rank);
	size_t *to = xcalloc(L->ntests ? L->ntests : 1, sizeof *to);
	const char **sorted = xcalloc(L->ntests ? L->ntests : 1, sizeof *sorted);
	size_t n = 0;

	for (size_t t = 0; t < L->ntests; t++)
		rank[t] = workload_rank(L->tests[t]);
	/* Rank by rank, each in first-seen order: unknown tests all have the
	 * last rank, so every test is placed by then. */
	for (size_t r = 0; n < L->ntests; r++)
		for (size_t t = 0; t < L->ntests; t++)
			if (rank[t] == r) {
				to[t] = n;
				sorted[n++] = L->tests[t];
			}
	for (size_t i = 0; i < L->in->nseries; i++)
		L->test_of[i] = to[L->test_of[i]];
	memcpy(L->tests, sorted, L->ntests * sizeof *sorted);
	free(rank);
	free(to);
	free(sorted);
}

/* Each test's name as legends and panels give it: a mix's with its
 * members' shares as sent, summed over the chart's series of that test
 * (from in->rows; a chart without rows names tests alone). */
static void chart_test_names(struct chart_lay *L)
{
	const struct chart_input *in = L->in;
	const struct rs_rec **idx = NULL;
	size_t n = mixshare_index(in->rows, &idx);

	L->test_names = xcalloc(L->ntests ? L->ntests : 1, sizeof *L->test_names);
	for (size_t t = 0; t < L->ntests; t++) {
		struct mixshare *m = NULL;
		char shares[MIXSHARE_MAX * (MIXSHARE_NAME + 8)];
		size_t added = 0, len;

		for (size_t i = 0; n > 0 && i < in->nseries; i++) {
			if (L->test_of[i] != t)
				continue;
			if (m == NULL) {
				m = xmalloc(sizeof *m);
				mixshare_init(m);
			}
			added += mixshare_series(m, in->rows, idx, n, in->series[i]);
		}
		if (added > 0 && mixshare_legend(m, shares, sizeof shares)) {
			len = strlen(L->tests[t]) + strlen(shares) + 4;
			L->test_names[t] = xmalloc(len);
			snprintf(L->test_names[t], len, "%s (%s)", L->tests[t], shares);
			L->any_mix = 1;
		} else {
			L->test_names[t] = xstrdup(L->tests[t]);
		}
		free(m);
	}
	free(idx);
}

/* Fill L for in: the font scale, and each series' test, label and
 * figures. */
static void chart_lay_init(struct chart_lay *L, const struct chart_input *in,
			   const struct render_ops *ops, void *ctx)
{
	memset(L, 0, sizeof *L);
	L->in = in;
	L->ops = ops;
	L->ctx = ctx;
	L->c = xcalloc(1, sizeof *L->c);
	L->c->width = in->width;
	L->c->height = in->height;
	/* Text grows with the chart's area, from 0.7 to 1.5 times its size on
	 * 1200 x 800. */
	L->f = fmin(1.5, fmax(0.7, sqrt(in->width * in->height / (1200.0 * 800.0))));
	L->pad = 16 * L->f;
	L->test_of = xcalloc(in->nseries, sizeof *L->test_of);
	L->label_of = xcalloc(in->nseries, sizeof *L->label_of);
	L->colour_of = xcalloc(in->nseries, sizeof *L->colour_of);
	for (size_t i = 0; i < in->nseries; i++) {
		L->test_of[i] = chart_intern(&L->tests, &L->ntests, in->series[i]->test);
		L->label_of[i] = chart_intern(&L->labels, &L->nlabels, in->series[i]->label);
	}
	/* A heat map's labels are its grids' (the title's and footer's). */
	for (size_t i = 0; in->kind == CHART_HEATMAP && i < in->ngrids; i++) {
		chart_intern(&L->labels, &L->nlabels, in->grids[i]->label);
		chart_intern(&L->tests, &L->ntests, in->grids[i]->test);
	}
	/* A --slo chart's too: its groups', beside its starts' series. */
	for (size_t i = 0; in->kind == CHART_SLO && i < in->nslo; i++) {
		chart_intern(&L->labels, &L->nlabels, in->slo[i]->label);
		chart_intern(&L->tests, &L->ntests, in->slo[i]->test);
	}
	chart_order_tests(L);
	chart_test_names(L);
	L->an_of = xcalloc(in->nseries, sizeof *L->an_of);
	for (size_t i = 0; i < in->nseries && in->an != NULL; i++)
		for (size_t k = 0; k < in->an->nseries && L->an_of[i] == NULL; k++)
			if (in->an->series[k].rps == in->series[i])
				L->an_of[i] = &in->an->series[k];
	chart_fit_decide(L);
}

static void chart_lay_free(struct chart_lay *L)
{
	free(L->taken);
	free(L->lines);
	free(L->test_of);
	free(L->label_of);
	free(L->colour_of);
	free(L->an_of);
	for (size_t t = 0; L->test_names != NULL && t < L->ntests; t++)
		free(L->test_names[t]);
	free(L->test_names);
	free(L->tests);
	free(L->labels);
}

/* The kind's layout: speed-up bars; heat maps; a latency chart; lines,
 * each test a colour (each master, --kind masters); or, when one chart
 * would repeat colours (tests) or dashes (labels), or when asked (--kind
 * multiples), a panel per test, the labels told apart by colour. */
static int chart_lay_kind(struct chart_lay *L, struct rs_err *err)
{
	const struct chart_input *in = L->in;

	if (in->kind == CHART_SPEEDUP)
		return chart_lay_speedup(L, err);
	if (in->kind == CHART_HEATMAP)
		return chart_lay_heatmap(L, err);
	if (in->kind == CHART_SLO)
		return chart_lay_slo(L, err);
	if (CHART_KIND_LATENCY(in->kind))
		return chart_lay_latency(L, err);
	/* One test's masters: the one that limits the cluster is the line
	 * below the others, told apart by its colour. */
	if (in->kind == CHART_MASTERS) {
		if (L->nlabels > CHART_NPALETTE)
			return rs_err_set(err, "%zu masters but the palette has %d colours: --kind "
					  "masters draws at most %d", L->nlabels, CHART_NPALETTE,
					  CHART_NPALETTE);
		for (size_t i = 0; i < in->nseries; i++)
			L->colour_of[i] = L->label_of[i];
		return chart_lay_lines(L, err);
	}
	if (in->kind != CHART_MULTIPLES && L->ntests <= CHART_NPALETTE &&
	    L->nlabels <= CHART_NDASHES) {
		for (size_t i = 0; i < in->nseries; i++)
			L->colour_of[i] = L->test_of[i];
		return chart_lay_lines(L, err);
	}
	if (L->nlabels > CHART_NPALETTE)
		return rs_err_set(err, "%zu labels but the palette has %d colours: plot at most %d "
				  "files' labels at once (or merge some with --relabel)",
				  L->nlabels, CHART_NPALETTE, CHART_NPALETTE);
	for (size_t i = 0; i < in->nseries; i++)
		L->colour_of[i] = L->label_of[i];
	return chart_lay_facets(L, err);
}

int chart_layout(const struct chart_input *in0, const struct render_ops *ops, void *ctx,
		 struct chart **out, struct rs_err *err)
{
	struct chart_input in = *in0;
	struct chart_lay L;
	int rc;

	*out = NULL;
	if (in.kind == CHART_HEATMAP && in.ngrids == 0)
		return rs_err_set(err, "nothing to draw: no heat map");
	if (in.kind == CHART_SLO && in.nslo == 0)
		return rs_err_set(err, "nothing to draw: no run --slo search in the data");
	if (in.nseries == 0 && !(in.kind == CHART_LATENCY_CDF && in.ndist > 0) &&
	    in.kind != CHART_HEATMAP && in.kind != CHART_SLO)
		return rs_err_set(err, "nothing to draw: no series");
	for (size_t i = 0; i < in.nseries; i++)
		if (in.series[i]->npts == 0)
			return rs_err_set(err, "series %s %s has no points", in.series[i]->label,
					  in.series[i]->test);
	if (!(in.width >= 100 && in.height >= 100))
		return rs_err_set(err, "chart size %gx%g is below 100x100", in.width, in.height);
	if (!(in.knee > 0))
		in.knee = ANALYSIS_DEFAULT_KNEE;
	chart_lay_init(&L, &in, ops, ctx);
	chart_rect(L.c, 0, 0, in.width, in.height, C_WHITE);
	rc = chart_lay_kind(&L, err);
	chart_lay_free(&L);
	if (rc < 0) {
		chart_free(L.c);
		return -1;
	}
	*out = L.c;
	return 0;
}
