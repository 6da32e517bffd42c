/* chart_figures.c: each series' figures as the analysis gives them, and
 * what line charts and their small multiples draw of them: the median or
 * the fitted level, its 95% interval and the bands of it, the depths they
 * span, and the titles that say which is drawn. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/chart_int.h"
#include "base/depths.h"
#include "base/xalloc.h"

static int cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* 0 when every series has its figures in in->an, else -1 with err naming
 * the first one without (a caller that did not analyse what it draws). */
int chart_need_an(const struct chart_lay *L, struct rs_err *err)
{
	for (size_t i = 0; i < L->in->nseries; i++)
		if (L->an_of[i] == NULL)
			return rs_err_set(err, "series %s %s was not analysed: no intervals to draw",
					  L->in->series[i]->label, L->in->series[i]->test);
	return 0;
}

int chart_median_ci(const struct chart_lay *L, size_t i, size_t p, double *lo, double *hi)
{
	const struct analysis_knee *k = &L->an_of[i]->knee;
	double a, b;

	if (!k->ok || p >= k->res.m)
		return 0;
	a = L->fit ? k->res.pts[p].level_lo : k->res.pts[p].median.lo;
	b = L->fit ? k->res.pts[p].level_hi : k->res.pts[p].median.hi;
	if (!isfinite(a) || !isfinite(b))
		return 0;
	*lo = a;
	*hi = b;
	return 1;
}

double chart_point_value(const struct chart_lay *L, size_t i, size_t p)
{
	if (L->fit)
		return L->an_of[i]->knee.res.pts[p].level;
	return L->in->series[i]->pts[p].median;
}

void chart_fit_decide(struct chart_lay *L)
{
	const struct chart_input *in = L->in;
	int bands = in->metric == SM_RPS && in->an != NULL &&
		    (in->kind == CHART_LINES || in->kind == CHART_MASTERS ||
		     in->kind == CHART_MULTIPLES);

	L->fit = 0;
	L->unstable = L->points = 0;
	for (size_t i = 0; i < in->nseries; i++) {
		const struct analysis_series *a = L->an_of[i];

		if (a == NULL) {
			bands = 0;
			continue;
		}
		L->unstable += a->nunstable;
		for (size_t p = 0; p < in->series[i]->npts; p++) {
			L->points += in->series[i]->pts[p].n >= 2;
			bands = bands && a->knee.ok && p < a->knee.res.m &&
				isfinite(a->knee.res.pts[p].level_lo);
		}
	}
	if (!bands || in->fit == CHART_FIT_NO)
		return;
	L->fit = in->fit == CHART_FIT_YES || (L->points > 0 && 2 * L->unstable > L->points);
}

void chart_lines_extent(const struct chart_lay *L, struct chart_extent *e)
{
	const struct chart_input *in = L->in;
	unsigned *depths = NULL;
	size_t nd = 0, u = 0;

	memset(e, 0, sizeof *e);
	e->maxrep = 1;
	for (size_t i = 0; i < in->nseries; i++) {
		const struct series *s = in->series[i];

		depths = xreallocarray(depths, nd + s->npts, sizeof *depths);
		for (size_t p = 0; p < s->npts; p++) {
			depths[nd++] = s->pts[p].depth;
			/* The faint medians of fit mode are drawn too. */
			e->ymax = fmax(e->ymax, fmax(s->pts[p].median, chart_point_value(L, i, p)));
			if (s->pts[p].n > e->maxrep)
				e->maxrep = s->pts[p].n;
		}
	}
	qsort(depths, nd, sizeof *depths, cmp_uint);
	for (size_t i = 0; i < nd; i++)
		if (u == 0 || depths[u - 1] != depths[i])
			depths[u++] = depths[i];
	nd = u;
	if (nd < 2) {             /* chart_lines_check said no already */
		free(depths);
		return;
	}
	e->dmin = depths[0];
	e->dmax = depths[nd - 1];
	e->logx = in->log_x || depths_log_axis(depths, nd);
	free(depths);
}

int chart_bands_drawn(const struct chart_lay *L, int bands)
{
	size_t most = 0;

	for (size_t t = 0; t < L->ntests && bands; t++) {
		size_t n = 0;

		for (size_t i = 0; i < L->in->nseries; i++)
			n += L->test_of[i] == t;
		most = n > most ? n : most;
	}
	return bands && most > CHART_MAX_BANDS ? -(int)most : bands;
}

void chart_lines_titles(const struct chart_lay *L, size_t maxrep, int bands, const char *what,
			char *title, size_t tsize, char *subtitle, size_t ssize)
{
	const struct chart_input *in = L->in;
	char none[160];

	snprintf(none, sizeof none, "no bands: %d lines of a test would cover one another's "
		 "(fewer lines show them)", -bands);

	if (in->title && *in->title) {
		snprintf(title, tsize, "%s", in->title);
	} else {
		const char *mt = series_metric_title(in->metric);
		size_t n = (size_t)snprintf(title, tsize, "%c%s against pipeline depth " UTF8_EM_DASH " ",
					    mt[0] >= 'a' && mt[0] <= 'z' ? mt[0] - 'a' + 'A' : mt[0], mt + 1);

		/* More than four lines (--by's values) do not fit "a vs b": the
		 * first and last say the range, the legend the rest. */
		if (L->nlabels > 4)
			snprintf(title + n, tsize - n, "%s to %s (%zu lines)", L->labels[0],
				 L->labels[L->nlabels - 1], L->nlabels);
		for (size_t l = 0; l < L->nlabels && L->nlabels <= 4 && n < tsize; l++)
			n += (size_t)snprintf(title + n, tsize - n, "%s%s", l ? " vs " : "", L->labels[l]);
	}
	size_t n, nu = L->unstable, np = L->points;

	if (L->fit) {
		n = (size_t)snprintf(subtitle, ssize, "%sLines: the fitted level (the report's); "
				     "%s; points: medians of %zu repeats", what,
				     bands < 0 ? none : "bands: its 95% interval", maxrep);
		if (in->fit == CHART_FIT_AUTO && n < ssize)
			snprintf(subtitle + n, ssize - n, "; so drawn as %zu of %zu points are "
				 "unstable (--fit no: the medians)", nu, np);
		return;
	}
	if (maxrep > 1)
		n = (size_t)snprintf(subtitle, ssize, "%sLines: median of %zu repeats%s%s", what, maxrep,
				     bands ? "; " : "", bands < 0 ? none : bands ?
				     "bands: 95% interval of the median" : "");
	else
		n = (size_t)snprintf(subtitle, ssize, "%sOne measurement per point%s%s", what,
				     bands ? "; " : "", bands < 0 ? none : bands ?
				     "bands: 95% interval of the median" : "");
	/* Where the report finds most points unstable, the lines' wiggles are
	 * noise: the subtitle says so, in the report's count. */
	if (np > 0 && 2 * nu > np && n < ssize)
		snprintf(subtitle + n, ssize - n, "; %zu of %zu points unstable: read the bands, "
			 "not the wiggles", nu, np);
}

void chart_series_bands(struct chart_lay *L, size_t i, const struct chart_xscale *xs,
			const struct chart_yscale *ys, uint8_t alpha)
{
	const struct series *s = L->in->series[i];
	struct render_color col = chart_palette(L->colour_of[i]);
	double lo = 0, hi = 0; /* set by chart_median_ci before use */

	col.a = alpha;
	for (size_t p = 0; p < s->npts;) {
		size_t q = p, n;
		struct chart_item *it;

		while (q < s->npts && chart_median_ci(L, i, q, &lo, &hi))
			q++;
		n = q - p;
		if (n < 2) {
			p = q + 1;
			continue;
		}
		it = chart_push(L->c, CHART_BAND);
		it->v = xmalloc(3 * n * sizeof *it->v);
		it->n = n;
		for (size_t k = 0; k < n; k++) {
			chart_median_ci(L, i, p + k, &lo, &hi);
			it->v[k] = chart_xmap(xs, s->pts[p + k].depth);
			it->v[n + k] = chart_ymap(ys, lo);
			it->v[2 * n + k] = chart_ymap(ys, hi);
		}
		it->color = col;
		it->series = (int)i;
		p = q;
	}
}

int chart_lines_check(const struct series *const *series, size_t n, struct rs_err *err)
{
	const struct rs_rec *r;
	int two = 0;

	for (size_t k = 0; k < n; k++)
		if (series[k]->npts > 1 || series[k]->pts[0].depth != series[0]->pts[0].depth)
			return 0;
	if (n == 0)
		return rs_err_set(err, "nothing to draw: no series");
	r = series[0]->first;
	/* What one depth can be drawn as: two labels' ratios, test by test. */
	for (size_t k = 1; k < n && !two; k++)
		two = strcmp(series[k]->label, series[0]->label) != 0;
	return rs_err_set(err, "%s%severy row is at pipeline depth %u: a line chart needs two "
			  "depths or more (%s)", r && r->src && r->src[0] ? r->src : "",
			  r && r->src && r->src[0] ? ": " : "", series[0]->pts[0].depth,
			  two ? "--kind speedup compares two labels at one depth" :
			  "--kind speedup compares two labels at one depth: add another label's CSV");
}
