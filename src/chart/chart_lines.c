/* chart_lines.c: a line chart: a figure against pipeline depth, one line
 * per test and label, with bands, end labels and saturation marks. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "chart/chart_int.h"
#include "base/xalloc.h"

/* An end label: series' name at the right of its line's end. */
struct endlab {
	size_t series;
	double want, y;
	char text[2 * ROW_STR + 8];
};

/* What the steps of a line chart's layout share. */
struct lines {
	struct chart_lay *L;
	double ticks_s, axis_s, end_s, sat_s; /* font sizes */
	int rps;                  /* the metric is requests per second */
	unsigned dmin, dmax;      /* the depth axis */
	int logx;
	size_t maxrep;            /* most repeats at any point */
	double ymax;              /* largest figure, interval tops included */
	int bands;                /* some point has an interval to draw (chart_bands_drawn) */
	double top, bottom, left, right; /* the plot area */
	struct chart_ticks yt, xt;
	struct chart_yscale ys;
	struct chart_xscale xs;
	struct endlab *ends;      /* by wanted y */
	size_t nend;
	double endw;              /* the widest end label */
	int use_ends;             /* end labels fit */
};

/* Vertical room, times f, under the plot for the x tick labels (past the
 * tick marks) and the axis title. */
#define LINES_XTICK_GAP 9
#define LINES_XTITLE_GAP 8
/* The plot area needs this height, times f, to be worth drawing. */
#define LINES_MIN_PLOT 60
/* About one y tick every 42 points. */
#define LINES_YTICK_EVERY 42
/* End labels go at the right when the widest with its leader (30 points)
 * takes under this fraction of the width. */
#define LINES_END_FRACTION 0.22
/* Lines start and stop this far (times f) inside the y axis and right edge. */
#define LINES_INSET 12

static int cmp_endlab(const void *a, const void *b)
{
	const struct endlab *x = a, *y = b;

	if (x->want != y->want)
		return x->want < y->want ? -1 : 1;
	return (x->series > y->series) - (x->series < y->series);
}

/* The axis's ends, whether it is log2, the largest median and the most
 * repeats. */
static void lines_depths(struct lines *S)
{
	struct chart_extent e;

	chart_lines_extent(S->L, &e);
	S->dmin = e.dmin;
	S->dmax = e.dmax;
	S->logx = e.logx;
	S->maxrep = e.maxrep;
	S->ymax = e.ymax;
}

/* The bands are the core's intervals of the medians, not the spread of
 * the repeats: min-max grows with the number of repeats and says nothing
 * of how well the median is known, and one repeat per depth has an
 * interval (from the series' pooled noise) but no spread.  The y axis
 * makes room for their tops. */
static void lines_band_extent(struct lines *S)
{
	const struct chart_input *in = S->L->in;

	for (size_t i = 0; i < in->nseries; i++)
		for (size_t p = 0; p < in->series[i]->npts; p++) {
			double lo, hi;

			if (chart_median_ci(S->L, i, p, &lo, &hi)) {
				S->ymax = fmax(S->ymax, hi);
				S->bands = 1;
			}
		}
}

/* Titles, legend and footer: the plot's top and bottom, and the y scale
 * from 0.  Fails when the chart is too small for them. */
static int lines_frame_vertical(struct lines *S, struct rs_err *err)
{
	struct chart_lay *L = S->L;
	struct chart *c = L->c;
	double f = L->f;
	char title[512], subtitle[512];

	S->bands = chart_bands_drawn(L, S->bands);
	chart_lines_titles(L, S->maxrep, S->bands, "", title, sizeof title, subtitle, sizeof subtitle);
	S->top = chart_titles(L, title, subtitle);
	/* The ring's and the triangle's entries only where they explain a mark. */
	S->top = chart_legend(L, S->top, chart_legend_marks(L), L->in->kind == CHART_MASTERS);
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].op == CHART_TEXT)
			chart_take(L, c->items[i].box);
	S->top += 0.6 * S->ticks_s; /* the top tick label's upper half */
	S->bottom = chart_footer_block(L, CHART_FOOTER_SIZE * f) - 8 * f;
	S->bottom -= (RENDER_ASCENT + RENDER_DESCENT) * S->axis_s + LINES_XTITLE_GAP * f;
	S->bottom -= (RENDER_ASCENT + RENDER_DESCENT) * S->ticks_s + LINES_XTICK_GAP * f;
	if (S->bottom - S->top < LINES_MIN_PLOT * f)
		return rs_err_set(err, "chart of %.0fx%.0f is too small for its legend and labels",
				  L->in->width, L->in->height);
	if (chart_ticks_nice(0, S->ymax * 1.02,
			     (unsigned)fmax(3, (S->bottom - S->top) / (LINES_YTICK_EVERY * f)), &S->yt) < 0)
		return rs_err_set(err, "cannot scale the y axis (largest figure %g)", S->ymax);
	S->ys = (struct chart_yscale){ S->yt.v[0], S->yt.v[S->yt.n - 1], S->top, S->bottom };
	return 0;
}

/* End labels: at the right of the lines when they fit in the height,
 * spread so that none covers another. */
static void lines_end_labels(struct lines *S)
{
	struct chart_lay *L = S->L;
	const struct chart_input *in = L->in;

	S->ends = xcalloc(in->nseries, sizeof *S->ends);
	for (size_t i = 0; i < in->nseries; i++) {
		const struct series *s = in->series[i];
		struct endlab *e = &S->ends[S->nend++];

		e->series = i;
		e->want = chart_ymap(&S->ys, chart_point_value(L, i, s->npts - 1));
		if (L->nlabels > 1)
			snprintf(e->text, sizeof e->text, "%s %s", s->test, s->label);
		else
			snprintf(e->text, sizeof e->text, "%s", s->test);
		S->endw = fmax(S->endw, chart_tw(L, e->text, S->end_s));
		e->y = e->want;
	}
	qsort(S->ends, S->nend, sizeof *S->ends, cmp_endlab);
	S->use_ends = S->endw + 30 * L->f < LINES_END_FRACTION * in->width;
	if (S->use_ends) {
		double *ty = xcalloc(S->nend, sizeof *ty);

		for (size_t i = 0; i < S->nend; i++)
			ty[i] = S->ends[i].want;
		/* Rows 1.2 label heights apart, from half a tick label above
		 * the plot (the top tick's label reaches there too). */
		S->use_ends = chart_spread(ty, S->nend, 1.2 * S->end_s, S->top - 0.5 * S->ticks_s,
					   S->bottom) == 0;
		for (size_t i = 0; S->use_ends && i < S->nend; i++)
			S->ends[i].y = ty[i];
		free(ty);
	}
}

/* Horizontal frame: y tick labels and the axis title on the left, end
 * labels (or half the last depth's tick label) on the right; the x scale
 * and its ticks. */
static void lines_frame_horizontal(struct lines *S)
{
	struct chart_lay *L = S->L;
	double f = L->f, yw = 0;
	char buf[64];

	for (size_t i = 0; i < S->yt.n; i++) {
		chart_si(S->yt.v[i], S->yt.step, buf, sizeof buf);
		yw = fmax(yw, chart_tw(L, buf, S->ticks_s));
	}
	S->left = L->pad + (RENDER_ASCENT + RENDER_DESCENT) * S->axis_s + 10 * f + yw +
		  CHART_TICK_GAP * f;
	snprintf(buf, sizeof buf, "%u", S->dmax);
	S->right = L->in->width - L->pad -
		   (S->use_ends ? S->endw + 16 * f : chart_tw(L, buf, S->ticks_s) / 2);
	L->c->plot = (struct chart_box){ S->left, S->top, S->right, S->bottom };
	S->xs = (struct chart_xscale){ S->dmin, S->dmax, S->left + LINES_INSET * f,
				 S->right - LINES_INSET * f, S->logx };
	/* Ticks at least as far apart as the widest label and 28 points, and
	 * 64 points at the least. */
	chart_ticks_depth(S->dmin, S->dmax,
			  (unsigned)fmax(2, (S->xs.p1 - S->xs.p0) /
						    fmax(chart_tw(L, buf, S->ticks_s) + 28 * f, 64 * f) +
						    1),
			  S->logx, &S->xt);
}

static void lines_grid(struct lines *S)
{
	struct chart *c = S->L->c;
	double f = S->L->f;

	for (size_t i = 0; i < S->xt.n; i++) {
		double x = chart_xmap(&S->xs, S->xt.v[i]);

		chart_seg(c, x, S->top, x, S->bottom, CHART_GRID_WIDTH * f, C_GRID_X);
	}
	for (size_t i = 0; i < S->yt.n; i++) {
		double y = chart_ymap(&S->ys, S->yt.v[i]);

		chart_seg(c, S->left, y, S->right, y, CHART_GRID_WIDTH * f, C_GRID);
	}
}

/* The bands, lighter with several labels, whose bands overlap. */
static void lines_bands(struct lines *S)
{
	struct chart_lay *L = S->L;

	for (size_t i = 0; i < L->in->nseries && S->bands > 0; i++)
		chart_series_bands(L, i, &S->xs, &S->ys, L->nlabels > 1 ? 36 : 46);
}

/* The lines (colour by test, or by master: colour_of; dash by label),
 * then every marker over them; smaller markers on a crowded line. */
static void lines_data(struct lines *S)
{
	struct chart_lay *L = S->L;
	const struct chart_input *in = L->in;
	double f = L->f;

	for (size_t i = 0; i < in->nseries; i++) {
		const struct series *s = in->series[i];
		double *xy = xmalloc(2 * s->npts * sizeof *xy);

		for (size_t p = 0; p < s->npts; p++) {
			xy[2 * p] = chart_xmap(&S->xs, s->pts[p].depth);
			xy[2 * p + 1] = chart_ymap(&S->ys, chart_point_value(L, i, p));
		}
		chart_line(L->c, xy, s->npts, 2 * f, chart_palette(L->colour_of[i]),
			   (enum render_dash)(L->label_of[i] % 4), (int)i);
		free(xy);
	}
	for (size_t i = 0; i < in->nseries; i++) {
		const struct series *s = in->series[i];
		double ms = (s->npts > 24 ? 5 : 6.5) * f;
		struct render_color col = chart_palette(L->colour_of[i]), fill = C_WHITE;

		/* Fit mode: the medians as faint points, off the line. */
		if (L->fit) {
			col.a = 110;
			fill.a = 0;
			ms *= 0.8;
		}
		for (size_t p = 0; p < s->npts; p++)
			chart_mark(L->c, chart_xmap(&S->xs, s->pts[p].depth),
				   chart_ymap(&S->ys, s->pts[p].median), ms, chart_marker(L->colour_of[i]),
				   col, fill, 0.8 * f, (int)i);
	}
}

/* The axes, their ticks, tick labels and titles. */
static void lines_axes(struct lines *S)
{
	struct chart_lay *L = S->L;
	struct chart *c = L->c;
	double f = L->f, ticks_s = S->ticks_s, axis_s = S->axis_s;
	char buf[64];

	chart_seg(c, S->left, S->bottom, S->right, S->bottom, CHART_AXIS_WIDTH * f, C_AXIS);
	chart_seg(c, S->left, S->top, S->left, S->bottom, CHART_AXIS_WIDTH * f, C_AXIS);
	for (size_t i = 0; i < S->yt.n; i++) {
		double y = chart_ymap(&S->ys, S->yt.v[i]);

		chart_si(S->yt.v[i], S->yt.step, buf, sizeof buf);
		chart_seg(c, S->left - CHART_TICK_LEN * f, y, S->left, y, CHART_AXIS_WIDTH * f, C_AXIS);
		chart_text(L, ROLE_TICK, -1, S->left - CHART_TICK_GAP * f,
			   y + CHART_MID_BASELINE * ticks_s, buf, ticks_s, C_TEXT, RENDER_RIGHT, 0);
	}
	for (size_t i = 0; i < S->xt.n; i++) {
		double x = chart_xmap(&S->xs, S->xt.v[i]);

		snprintf(buf, sizeof buf, "%.0f", S->xt.v[i]);
		chart_seg(c, x, S->bottom, x, S->bottom + CHART_TICK_LEN * f, CHART_AXIS_WIDTH * f,
			  C_AXIS);
		chart_text(L, ROLE_TICK, -1, x, S->bottom + CHART_TICK_GAP * f + RENDER_ASCENT * ticks_s,
			   buf, ticks_s, C_TEXT, RENDER_CENTER, 0);
	}
	chart_text(L, ROLE_AXIS_TITLE, -1, (S->left + S->right) / 2,
		   S->bottom + LINES_XTICK_GAP * f + (RENDER_ASCENT + RENDER_DESCENT) * ticks_s +
			   LINES_XTITLE_GAP * f + RENDER_ASCENT * axis_s,
		   S->logx ? "pipeline depth (log scale)" : "pipeline depth", axis_s, C_TEXT,
		   RENDER_CENTER, 0);
	chart_text(L, ROLE_AXIS_TITLE, -1, L->pad + RENDER_ASCENT * axis_s, (S->top + S->bottom) / 2,
		   series_metric_title(L->in->metric), axis_s, C_TEXT, RENDER_CENTER, 1);
}

/* End labels, with a leader when moved off their line's end (by more than
 * 1.5 points, or when the line stops 14 points short of the right); then
 * the line ends are off limits for the labels placed next. */
static void lines_place_ends(struct lines *S)
{
	struct chart_lay *L = S->L;
	const struct chart_input *in = L->in;
	double f = L->f;

	for (size_t e = 0; S->use_ends && e < S->nend; e++) {
		size_t i = S->ends[e].series;
		const struct series *s = in->series[i];
		struct render_color col = chart_palette(L->colour_of[i]);
		double ex = chart_xmap(&S->xs, s->pts[s->npts - 1].depth), ey = S->ends[e].want;
		double lx = S->right + 8 * f;
		struct chart_item *it;

		if (fabs(S->ends[e].y - ey) > 1.5 * f || S->right - ex > 14 * f)
			chart_seg(L->c, ex + 5 * f, ey, lx - 2 * f, S->ends[e].y, 0.8 * f, col);
		it = chart_text(L, ROLE_END_LABEL, (int)i, lx, S->ends[e].y + CHART_MID_BASELINE * S->end_s,
				S->ends[e].text, S->end_s, col, RENDER_LEFT, 0);
		chart_take(L, it->box);
	}
	for (size_t i = 0; i < in->nseries; i++) {
		const struct series *s = in->series[i];
		double ex = chart_xmap(&S->xs, s->pts[s->npts - 1].depth);
		double ey = chart_ymap(&S->ys, chart_point_value(L, i, s->npts - 1)), r = 6 * f;

		chart_take(L, (struct chart_box){ ex - r, ey - r, ex + r, ey + r });
	}
}

/* Saturation, as the report says it: a ring at the core's saturation
 * depth and "P=12" where it fits; on a line not saturated by its deepest
 * depth no ring (it has no saturation depth in the data) but an open
 * triangle on its end, always, and "still rising" (or "not saturated",
 * chart_rising_words) by it where it fits.
 * Marks first, so that no note covers one. */
static void lines_saturation(struct lines *S)
{
	struct chart_lay *L = S->L;
	const struct chart_input *in = L->in;
	struct chart *c = L->c;
	double f = L->f;
	struct chart_box inner = { S->left + 2 * f, S->top, S->right - 2 * f, S->bottom - 2 * f };
	struct render_color none = { 0, 0, 0, 0 };
	double rr = 7 * f;        /* the ring's radius */
	const struct series_point **sat = xcalloc(in->nseries, sizeof *sat);
	char buf[64];

	for (size_t i = 0; i < in->nseries; i++) {
		const struct analysis_series *a = L->an_of[i];
		const struct series *s = in->series[i];
		double cx, cy;

		if (a->saturated == KNEE_SAT_NO) {
			const struct series_point *e = &s->pts[s->npts - 1];

			chart_rising_mark(L, chart_xmap(&S->xs, e->depth),
					  chart_ymap(&S->ys, chart_point_value(L, i, s->npts - 1)), rr * 0.8,
					  i);
			continue;
		}
		if (a->sat_depth == 0 ||
		    (sat[i] = series_at(in->series[i], a->sat_depth)) == NULL)
			continue;
		cx = chart_xmap(&S->xs, sat[i]->depth);
		cy = chart_ymap(&S->ys, chart_point_value(L, i, (size_t)(sat[i] - s->pts)));
		chart_mark(c, cx, cy, 2 * rr, RENDER_CIRCLE, none, chart_palette(L->colour_of[i]), 2 * f,
			   (int)i);
		c->items[c->n - 1].role = ROLE_SATURATION;
		chart_take(L, (struct chart_box){ cx - rr, cy - rr, cx + rr, cy + rr });
	}
	for (size_t i = 0; i < in->nseries; i++) {
		const struct series *s = in->series[i];

		if (sat[i] != NULL) {
			snprintf(buf, sizeof buf, "P=%u", sat[i]->depth);
			chart_note(L, &inner, ROLE_SATURATION, i, L->colour_of[i],
				   chart_xmap(&S->xs, sat[i]->depth),
				   chart_ymap(&S->ys, chart_point_value(L, i, (size_t)(sat[i] - s->pts))),
				   rr, buf, S->sat_s);
		} else if (L->an_of[i]->saturated == KNEE_SAT_NO) {
			const struct series_point *e = &s->pts[s->npts - 1];

			chart_note(L, &inner, ROLE_RISING, i, L->colour_of[i], chart_xmap(&S->xs, e->depth),
				   chart_ymap(&S->ys, chart_point_value(L, i, s->npts - 1)), rr * 0.8,
				   chart_rising_words(L, i), S->sat_s);
		}
	}
	free(sat);
}

int chart_lay_lines(struct chart_lay *L, struct rs_err *err)
{
	struct lines S = { 0 };
	int rc = -1;

	S.L = L;
	S.ticks_s = CHART_TICK_SIZE * L->f;
	S.axis_s = CHART_AXIS_SIZE * L->f;
	S.end_s = CHART_LABEL_SIZE * L->f;
	S.sat_s = CHART_NOTE_SIZE * L->f;
	S.rps = L->in->metric == SM_RPS;
	S.maxrep = 1;
	if (chart_lines_check(L->in->series, L->in->nseries, err) < 0 || chart_need_an(L, err) < 0)
		return -1;
	lines_depths(&S);
	lines_band_extent(&S);
	if (lines_frame_vertical(&S, err) < 0)
		goto out;
	lines_end_labels(&S);
	lines_frame_horizontal(&S);
	/* Grid, then data, then axes and labels on top. */
	lines_grid(&S);
	lines_bands(&S);
	lines_data(&S);
	lines_axes(&S);
	lines_place_ends(&S);
	if (S.rps)
		lines_saturation(&S);
	rc = 0;
out:
	free(S.ends);
	return rc;
}
