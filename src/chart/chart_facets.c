/* chart_facets.c: small multiples: a line chart of more tests than the
 * palette has colours (or more labels than line styles), drawn as one
 * panel per test on a grid, each with its own y scale, the labels told
 * apart by colour.  Title, legend and footer are a line chart's. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/chart_int.h"
#include "base/xalloc.h"

/* What the panels share. */
struct facets {
	struct chart_lay *L;
	double ticks_s, head_s, axis_s, sat_s; /* font sizes */
	struct chart_extent e;
	int bands;                /* some point has an interval to draw (chart_bands_drawn) */
	double top, bottom;       /* the grid's */
	size_t cols, rows;
	double cw, ch;            /* a cell's size, gaps included */
};

/* Space between cells, and the smallest cell worth drawing (times f). */
#define FACETS_GAP 14
#define FACETS_MIN_W 120
#define FACETS_MIN_H 90
/* The shape cells are chosen to come closest to (width over height). */
#define FACETS_ASPECT 1.5
/* About one y tick every 28 points, one x tick every 20 points past its
 * label's width. */
#define FACETS_YTICK_EVERY 28
#define FACETS_XTICK_SPACE 20

/* Titles, the labels' legend, the footer and the axis titles; then the
 * grid whose cells come nearest FACETS_ASPECT.  Fails when a cell would
 * be too small. */
static int facets_frame(struct facets *S, struct rs_err *err)
{
	struct chart_lay *L = S->L;
	const struct chart_input *in = L->in;
	struct chart *c = L->c;
	double f = L->f, left, best = INFINITY;
	char title[512], subtitle[512];

	chart_lines_titles(L, S->e.maxrep, S->bands, "One panel per test, each with its own scale. ",
			   title, sizeof title, subtitle, sizeof subtitle);
	S->top = chart_titles(L, title, subtitle);
	S->top = chart_legend(L, S->top, chart_legend_marks(L), 1);
	S->bottom = chart_footer_block(L, CHART_FOOTER_SIZE * f) - 8 * f;
	S->bottom -= (RENDER_ASCENT + RENDER_DESCENT) * S->axis_s + 4 * f;
	chart_text(L, ROLE_AXIS_TITLE, -1, in->width / 2, S->bottom + 4 * f + RENDER_ASCENT * S->axis_s,
		   S->e.logx ? "pipeline depth (log scale)" : "pipeline depth", S->axis_s, C_TEXT,
		   RENDER_CENTER, 0);
	left = L->pad + (RENDER_ASCENT + RENDER_DESCENT) * S->axis_s + 6 * f;
	chart_text(L, ROLE_AXIS_TITLE, -1, L->pad + RENDER_ASCENT * S->axis_s,
		   (S->top + S->bottom) / 2, series_metric_title(in->metric), S->axis_s, C_TEXT,
		   RENDER_CENTER, 1);
	for (size_t cols = 1; cols <= L->ntests; cols++) {
		size_t rows = (L->ntests + cols - 1) / cols;
		double cw = (in->width - L->pad - left) / (double)cols;
		double ch = (S->bottom - S->top) / (double)rows;
		double miss = fabs(log(cw / ch / FACETS_ASPECT));

		if (ch > 0 && miss < best) {
			best = miss;
			S->cols = cols;
			S->rows = rows;
			S->cw = cw;
			S->ch = ch;
		}
	}
	if (!(S->cw >= FACETS_MIN_W * f && S->ch >= FACETS_MIN_H * f))
		return rs_err_set(err, "chart of %.0fx%.0f is too small for %zu panels, one per test: "
				  "give a larger --size, or fewer tests with --tests",
				  in->width, in->height, L->ntests);
	c->plot = (struct chart_box){ left, S->top, in->width - L->pad, S->bottom };
	return 0;
}

/* One panel: test t in cell (x0, y0)-(x1, y1). */
struct panel {
	size_t t;
	double x0, y0, x1, y1;
	double top, bottom, left, right; /* its plot area */
	struct chart_ticks yt, xt;
	struct chart_yscale ys;
	struct chart_xscale xs;
};

/* The panel's scales: y from 0 to its own largest figure (interval tops
 * included), x over every depth of the chart, so that panels line up. */
static int facets_scales(struct facets *S, struct panel *P, struct rs_err *err)
{
	struct chart_lay *L = S->L;
	const struct chart_input *in = L->in;
	double f = L->f, ymax = 0, yw = 0;
	char buf[64];

	for (size_t i = 0; i < in->nseries; i++) {
		if (L->test_of[i] != P->t)
			continue;
		for (size_t p = 0; p < in->series[i]->npts; p++) {
			double lo, hi;

			ymax = fmax(ymax, fmax(in->series[i]->pts[p].median,
					       chart_point_value(L, i, p)));
			if (chart_median_ci(L, i, p, &lo, &hi))
				ymax = fmax(ymax, hi);
		}
	}
	P->top = P->y0 + (RENDER_ASCENT + RENDER_DESCENT) * S->head_s + 4 * f + 0.6 * S->ticks_s;
	P->bottom = P->y1 - (RENDER_ASCENT + RENDER_DESCENT) * S->ticks_s - CHART_TICK_GAP * f;
	if (chart_ticks_nice(0, ymax * 1.02,
			     (unsigned)fmax(3, (P->bottom - P->top) / (FACETS_YTICK_EVERY * f)), &P->yt) < 0)
		return rs_err_set(err, "cannot scale the y axis of %s (largest figure %g)",
				  L->tests[P->t], ymax);
	for (size_t i = 0; i < P->yt.n; i++) {
		chart_si(P->yt.v[i], P->yt.step, buf, sizeof buf);
		yw = fmax(yw, chart_tw(L, buf, S->ticks_s));
	}
	P->left = P->x0 + yw + CHART_TICK_GAP * f;
	snprintf(buf, sizeof buf, "%u", S->e.dmax);
	/* Half the last depth's label hangs past the plot's right. */
	P->right = P->x1 - chart_tw(L, buf, S->ticks_s) / 2;
	P->ys = (struct chart_yscale){ P->yt.v[0], P->yt.v[P->yt.n - 1], P->top, P->bottom };
	P->xs = (struct chart_xscale){ S->e.dmin, S->e.dmax, P->left + 6 * f, P->right - 6 * f,
				       S->e.logx };
	chart_ticks_depth(S->e.dmin, S->e.dmax,
			  (unsigned)fmax(2, (P->xs.p1 - P->xs.p0) /
						    (chart_tw(L, buf, S->ticks_s) + FACETS_XTICK_SPACE * f) +
						    1),
			  S->e.logx, &P->xt);
	return 0;
}

/* The panel's head, grid, ticks and axes. */
static void facets_axes(struct facets *S, const struct panel *P)
{
	struct chart_lay *L = S->L;
	struct chart *c = L->c;
	double f = L->f;
	char buf[64];

	chart_text(L, ROLE_PANEL, -1, P->left, P->y0 + RENDER_ASCENT * S->head_s,
		   L->test_names[P->t], S->head_s, C_TEXT, RENDER_LEFT, 0);
	for (size_t i = 0; i < P->xt.n; i++) {
		double x = chart_xmap(&P->xs, P->xt.v[i]);

		chart_seg(c, x, P->top, x, P->bottom, CHART_GRID_WIDTH * f, C_GRID_X);
		snprintf(buf, sizeof buf, "%.0f", P->xt.v[i]);
		chart_seg(c, x, P->bottom, x, P->bottom + CHART_TICK_LEN * f / 2, CHART_AXIS_WIDTH * f,
			  C_AXIS);
		chart_text(L, ROLE_TICK, -1, x,
			   P->bottom + CHART_TICK_GAP * f / 2 + RENDER_ASCENT * S->ticks_s, buf, S->ticks_s,
			   C_TEXT, RENDER_CENTER, 0);
	}
	for (size_t i = 0; i < P->yt.n; i++) {
		double y = chart_ymap(&P->ys, P->yt.v[i]);

		chart_seg(c, P->left, y, P->right, y, CHART_GRID_WIDTH * f, C_GRID);
		chart_si(P->yt.v[i], P->yt.step, buf, sizeof buf);
		chart_text(L, ROLE_TICK, -1, P->left - CHART_TICK_GAP * f / 2,
			   y + CHART_MID_BASELINE * S->ticks_s, buf, S->ticks_s, C_TEXT, RENDER_RIGHT, 0);
	}
	chart_seg(c, P->left, P->bottom, P->right, P->bottom, CHART_AXIS_WIDTH * f, C_AXIS);
	chart_seg(c, P->left, P->top, P->left, P->bottom, CHART_AXIS_WIDTH * f, C_AXIS);
}

/* The panel's bands, lines (solid, coloured by label) and markers. */
static void facets_data(struct facets *S, const struct panel *P)
{
	struct chart_lay *L = S->L;
	const struct chart_input *in = L->in;
	double f = L->f;

	for (size_t i = 0; i < in->nseries && S->bands > 0; i++)
		if (L->test_of[i] == P->t)
			chart_series_bands(L, i, &P->xs, &P->ys, 36);
	for (size_t i = 0; i < in->nseries; i++) {
		const struct series *s = in->series[i];
		struct render_color col, fill;
		double *xy;

		if (L->test_of[i] != P->t)
			continue;
		xy = xmalloc(2 * s->npts * sizeof *xy);
		for (size_t p = 0; p < s->npts; p++) {
			xy[2 * p] = chart_xmap(&P->xs, s->pts[p].depth);
			xy[2 * p + 1] = chart_ymap(&P->ys, chart_point_value(L, i, p));
		}
		chart_line(L->c, xy, s->npts, 1.6 * f, chart_palette(L->colour_of[i]), RENDER_SOLID,
			   (int)i);
		free(xy);
		/* Fit mode: the medians as faint points, off the line. */
		col = chart_palette(L->colour_of[i]);
		fill = C_WHITE;
		if (L->fit) {
			col.a = 110;
			fill.a = 0;
		}
		for (size_t p = 0; p < s->npts; p++)
			chart_mark(L->c, chart_xmap(&P->xs, s->pts[p].depth),
				   chart_ymap(&P->ys, s->pts[p].median), (s->npts > 24 ? 3.5 : 4.5) * f,
				   chart_marker(L->colour_of[i]), col, fill, 0.6 * f, (int)i);
	}
}

/* Line ends off limits for notes; then the saturation rings and the
 * not-saturated triangles, "P=12" and "still rising", as on a line chart,
 * inside the panel. */
static void facets_saturation(struct facets *S, const struct panel *P)
{
	struct chart_lay *L = S->L;
	const struct chart_input *in = L->in;
	struct chart *c = L->c;
	double f = L->f, rr = 5 * f;
	struct chart_box inner = { P->left + 2 * f, P->top, P->right, P->bottom - 2 * f };
	struct render_color none = { 0, 0, 0, 0 };
	char buf[64];

	for (size_t i = 0; i < in->nseries; i++) {
		const struct series *s = in->series[i];
		double ex, ey, r = 5 * f;

		if (L->test_of[i] != P->t)
			continue;
		ex = chart_xmap(&P->xs, s->pts[s->npts - 1].depth);
		ey = chart_ymap(&P->ys, chart_point_value(L, i, s->npts - 1));
		chart_take(L, (struct chart_box){ ex - r, ey - r, ex + r, ey + r });
	}
	if (in->metric != SM_RPS)
		return;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < in->nseries; i++) {
			const struct analysis_series *a = L->an_of[i];
			const struct series *s = in->series[i];
			const struct series_point *sp = NULL;
			double cx, cy;

			if (L->test_of[i] != P->t)
				continue;
			if (a->saturated != KNEE_SAT_NO && a->sat_depth != 0)
				sp = series_at(s, a->sat_depth);
			if (sp != NULL) {
				cx = chart_xmap(&P->xs, sp->depth);
				cy = chart_ymap(&P->ys, chart_point_value(L, i, (size_t)(sp - s->pts)));
				if (pass == 0) { /* rings first, so that no note covers one */
					chart_mark(c, cx, cy, 2 * rr, RENDER_CIRCLE, none,
						   chart_palette(L->colour_of[i]), 1.6 * f, (int)i);
					c->items[c->n - 1].role = ROLE_SATURATION;
					chart_take(L, (struct chart_box){ cx - rr, cy - rr, cx + rr, cy + rr });
				} else {
					snprintf(buf, sizeof buf, "P=%u", sp->depth);
					chart_note(L, &inner, ROLE_SATURATION, i, L->colour_of[i], cx, cy, rr,
						   buf, S->sat_s);
				}
			} else if (a->saturated == KNEE_SAT_NO) {
				const struct series_point *e = &s->pts[s->npts - 1];

				cx = chart_xmap(&P->xs, e->depth);
				cy = chart_ymap(&P->ys, chart_point_value(L, i, s->npts - 1));
				if (pass == 0)
					chart_rising_mark(L, cx, cy, 0.8 * rr, i);
				else
					chart_note(L, &inner, ROLE_RISING, i, L->colour_of[i], cx, cy, 0.8 * rr,
						   chart_rising_words(L, i), S->sat_s);
			}
		}
}

int chart_lay_facets(struct chart_lay *L, struct rs_err *err)
{
	struct facets S = { 0 };
	struct panel *P;
	double f = L->f;
	size_t ntext;

	S.L = L;
	S.ticks_s = 0.85 * CHART_TICK_SIZE * f;
	S.head_s = CHART_LABEL_SIZE * f;
	S.axis_s = CHART_AXIS_SIZE * f;
	S.sat_s = 0.9 * CHART_NOTE_SIZE * f;
	if (chart_lines_check(L->in->series, L->in->nseries, err) < 0 || chart_need_an(L, err) < 0)
		return -1;
	chart_lines_extent(L, &S.e);
	for (size_t i = 0; i < L->in->nseries && !S.bands; i++)
		for (size_t p = 0; p < L->in->series[i]->npts && !S.bands; p++) {
			double lo, hi;

			S.bands = chart_median_ci(L, i, p, &lo, &hi);
		}
	S.bands = chart_bands_drawn(L, S.bands);
	if (facets_frame(&S, err) < 0)
		return -1;
	P = xcalloc(L->ntests, sizeof *P);
	for (size_t t = 0; t < L->ntests; t++) {
		P[t].t = t;
		P[t].x0 = L->c->plot.x0 + (double)(t % S.cols) * S.cw;
		P[t].y0 = S.top + (double)(t / S.cols) * S.ch;
		P[t].x1 = P[t].x0 + S.cw - FACETS_GAP * f;
		P[t].y1 = P[t].y0 + S.ch - FACETS_GAP * f / 2;
		if (facets_scales(&S, &P[t], err) < 0) {
			free(P);
			return -1;
		}
	}
	/* Every panel's frame, then every panel's data, then the notes: a
	 * note placed in one panel knows all text and lines. */
	for (size_t t = 0; t < L->ntests; t++)
		facets_axes(&S, &P[t]);
	ntext = L->c->n;
	for (size_t i = 0; i < ntext; i++)
		if (L->c->items[i].op == CHART_TEXT)
			chart_take(L, L->c->items[i].box);
	for (size_t t = 0; t < L->ntests; t++)
		facets_data(&S, &P[t]);
	for (size_t t = 0; t < L->ntests; t++)
		facets_saturation(&S, &P[t]);
	free(P);
	return 0;
}
