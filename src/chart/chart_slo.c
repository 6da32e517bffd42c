/* chart_slo.c: run --slo's answer as a chart: against pipeline depth, the
 * highest offered rate each depth sustained within the objective (a line,
 * its bracket, met to the lowest rate that missed, as error bars), beside
 * the closed loop's rate (dashed); a depth where rsweep's own load
 * generation was the limit has a hollow mark, its rate a floor.  The
 * figures are slo_answer.h's, the report's. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/depths.h"
#include "base/xalloc.h"
#include "chart/chart_int.h"

/* What the steps share. */
struct slochart {
	struct chart_lay *L;
	struct chart_slo_point **pts; /* per group, g->nd each */
	char (*names)[2 * ROW_STR + 96];
	double ticks_s, axis_s, note_s;
	unsigned dmin, dmax;
	int logx, any_generator;
	double ymax;
	double top, bottom, left, right;
	struct chart_ticks yt, xt;
	struct chart_yscale ys;
	struct chart_xscale xs;
};

/* More searches than the palette's colours cannot be told apart. */
#define SLOC_MAX CHART_NPALETTE
/* Lines start and stop this far (times f) inside the plot. */
#define SLOC_INSET 14

size_t chart_slo_points(const struct slo_group *g, struct chart_slo_point *out)
{
	size_t n = 0;

	for (size_t k = 0; k < g->nd; k++) {
		const struct slo_depth *d = &g->d[k];
		struct chart_slo_point *p = &out[k];

		p->depth = d->depth;
		p->sustained = d->met > 0 ? d->met : NAN;
		p->lo = p->sustained;
		p->hi = d->met > 0 && d->missed > d->met ? d->missed : NAN;
		p->closed = isfinite(d->start_rps) && d->start_rps > 0 ? d->start_rps : NAN;
		p->generator = d->generator > 0;
		/* The report's floor: the rate that met it, else the rate at
		 * which the generator, not the server, gave out. */
		p->floor = !p->generator ? NAN : d->met > 0 ? d->met : d->generator;
		n += isfinite(p->sustained) || isfinite(p->closed) || isfinite(p->floor);
	}
	return n;
}

/* Group i's name in the legend: its test, after its label where there
 * are several, with its settings where its label and test have other
 * searches, and its objective where the chart's differ. */
static void sloc_name(const struct slochart *S, size_t i, int objectives, char *buf, size_t size)
{
	const struct chart_lay *L = S->L;
	const struct slo_group *g = L->in->slo[i];
	int n = 0;

	if (L->nlabels > 1)
		n = snprintf(buf, size, "%s %s", g->label, g->test);
	else
		n = snprintf(buf, size, "%s", g->test);
	if (g->axes && g->server_args[0] != '\0' && n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, " [%s]", g->server_args);
	if (g->axes && n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, " c=%d t=%d d=%d", (int)g->clients,
			      (int)g->threads, (int)g->data_size);
	if (objectives && n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, " within %s", g->slo);
}

/* The depths, their axis and the largest rate; -1 when nothing has a
 * rate to draw. */
static int sloc_extent(struct slochart *S, struct rs_err *err)
{
	const struct chart_input *in = S->L->in;
	unsigned *d = NULL;
	size_t nd = 0, drawn = 0;

	S->pts = xcalloc(in->nslo, sizeof *S->pts);
	for (size_t i = 0; i < in->nslo; i++) {
		const struct slo_group *g = in->slo[i];

		S->pts[i] = xcalloc(g->nd ? g->nd : 1, sizeof *S->pts[i]);
		drawn += chart_slo_points(g, S->pts[i]);
		d = xreallocarray(d, nd + g->nd + 1, sizeof *d);
		for (size_t k = 0; k < g->nd; k++) {
			const struct chart_slo_point *p = &S->pts[i][k];
			double v[] = { p->sustained, p->hi, p->closed, p->floor };

			for (size_t j = 0; j < sizeof v / sizeof v[0]; j++)
				if (isfinite(v[j]))
					S->ymax = fmax(S->ymax, v[j]);
			S->any_generator |= p->generator;
			d[nd++] = p->depth;
		}
	}
	if (drawn == 0 || nd == 0) {
		free(d);
		return rs_err_set(err, "no run --slo search in the data has a rate to draw");
	}
	S->dmin = S->dmax = d[0];
	for (size_t k = 0; k < nd; k++) {
		S->dmin = d[k] < S->dmin ? d[k] : S->dmin;
		S->dmax = d[k] > S->dmax ? d[k] : S->dmax;
	}
	S->logx = in->log_x || depths_log_axis(d, nd);
	free(d);
	return 0;
}

/* A legend entry: a sample (a line of dash, a mark, either or both) and
 * its words, wrapping at the chart's width. */
static void sloc_legend_entry(struct slochart *S, double *x, double *y, const char *text,
			      struct render_color col, int line, enum render_dash dash, int mark,
			      int hollow, int series)
{
	struct chart_lay *L = S->L;
	double f = L->f, ls = CHART_LABEL_SIZE * f, w = 26 * f + chart_tw(L, text, ls) + 18 * f;
	double cy;

	if (*x + w > L->in->width - L->pad && *x > L->pad) {
		*x = L->pad;
		*y += 1.6 * ls;
	}
	cy = *y + 0.5 * ls;
	if (line)
		chart_line(L->c, (double[]){ *x, cy, *x + 22 * f, cy }, 2, 2 * f, col, dash, -1);
	if (mark)
		chart_mark(L->c, *x + 11 * f, cy, 7 * f, hollow ? RENDER_CIRCLE : chart_marker((size_t)
			   series), hollow ? C_WHITE : col, hollow ? col : C_WHITE,
			   (hollow ? 1.6 : 1) * f, -1);
	chart_text(L, ROLE_LEGEND, series, *x + 26 * f, cy + CHART_MID_BASELINE * ls, text, ls, C_TEXT,
		   RENDER_LEFT, 0);
	*x += w;
}

/* Titles, legend and footer; the scales and the plot area. */
static int sloc_frame(struct slochart *S, struct rs_err *err)
{
	struct chart_lay *L = S->L;
	const struct chart_input *in = L->in;
	double f = L->f, yw = 0, x, y;
	int objectives = 0;
	char title[512], subtitle[512], buf[64];

	for (size_t i = 1; i < in->nslo; i++)
		objectives |= strcmp(in->slo[i]->slo, in->slo[0]->slo) != 0;
	if (in->title && *in->title)
		snprintf(title, sizeof title, "%s", in->title);
	else if (objectives)
		snprintf(title, sizeof title, "Requests per second within each latency objective "
			 "(--slo), against pipeline depth");
	else
		snprintf(title, sizeof title, "Requests per second within %s (--slo), against "
			 "pipeline depth", in->slo[0]->slo);
	/* The objective in the subtitle too: a given title replaces the
	 * default's. */
	snprintf(subtitle, sizeof subtitle, "Solid: the highest offered rate that met %s; bars: "
		 "its bracket, up to the lowest rate that missed; dashed: the closed loop's rate",
		 objectives ? "its objective" : in->slo[0]->slo);
	y = chart_titles(L, title, subtitle);
	x = L->pad;
	S->names = xcalloc(in->nslo, sizeof *S->names);
	for (size_t i = 0; i < in->nslo; i++) {
		sloc_name(S, i, objectives, S->names[i], sizeof S->names[i]);
		sloc_legend_entry(S, &x, &y, S->names[i], chart_palette(i), 1, RENDER_SOLID, 1, 0,
				  (int)i);
	}
	sloc_legend_entry(S, &x, &y, "closed loop", C_AXIS, 1, RENDER_DASHED, 0, 0, -1);
	if (S->any_generator)
		sloc_legend_entry(S, &x, &y, "generator-limited (a floor)", C_AXIS, 0, RENDER_SOLID,
				  1, 1, -1);
	y += 1.6 * CHART_LABEL_SIZE * f;
	for (size_t i = 0; i < L->c->n; i++)
		if (L->c->items[i].op == CHART_TEXT)
			chart_take(L, L->c->items[i].box);
	S->top = y + 0.6 * S->ticks_s;
	S->bottom = chart_footer_block(L, CHART_FOOTER_SIZE * f) - 8 * f -
		    (RENDER_ASCENT + RENDER_DESCENT) * (S->ticks_s + S->axis_s) - 17 * f;
	if (S->bottom - S->top < 60 * f)
		return rs_err_set(err, "chart of %.0fx%.0f is too small for its legend and labels",
				  in->width, in->height);
	if (chart_ticks_nice(0, S->ymax * 1.04, (unsigned)fmax(3, (S->bottom - S->top) / (42 * f)),
			     &S->yt) < 0)
		return rs_err_set(err, "cannot scale the y axis (largest rate %g)", S->ymax);
	S->ys = (struct chart_yscale){ S->yt.v[0], S->yt.v[S->yt.n - 1], S->top, S->bottom };
	for (size_t i = 0; i < S->yt.n; i++) {
		chart_si(S->yt.v[i], S->yt.step, buf, sizeof buf);
		yw = fmax(yw, chart_tw(L, buf, S->ticks_s));
	}
	S->left = L->pad + (RENDER_ASCENT + RENDER_DESCENT) * S->axis_s + 10 * f + yw +
		  CHART_TICK_GAP * f;
	snprintf(buf, sizeof buf, "%u", S->dmax);
	S->right = in->width - L->pad - chart_tw(L, buf, S->ticks_s) / 2;
	L->c->plot = (struct chart_box){ S->left, S->top, S->right, S->bottom };
	S->xs = (struct chart_xscale){ S->dmin, S->dmax, S->left + SLOC_INSET * f,
				 S->right - SLOC_INSET * f, S->logx };
	chart_ticks_depth(S->dmin, S->dmax,
			  (unsigned)fmax(2, (S->xs.p1 - S->xs.p0) /
						    fmax(chart_tw(L, buf, S->ticks_s) + 28 * f, 64 * f) + 1),
			  S->logx, &S->xt);
	return 0;
}

/* The grid, the axes, their ticks and titles. */
static void sloc_axes(struct slochart *S)
{
	struct chart_lay *L = S->L;
	struct chart *c = L->c;
	double f = L->f;
	char buf[64];

	for (size_t i = 0; i < S->xt.n; i++) {
		double x = chart_xmap(&S->xs, S->xt.v[i]);

		chart_seg(c, x, S->top, x, S->bottom, CHART_GRID_WIDTH * f, C_GRID_X);
		chart_seg(c, x, S->bottom, x, S->bottom + CHART_TICK_LEN * f, CHART_AXIS_WIDTH * f, C_AXIS);
		snprintf(buf, sizeof buf, "%.0f", S->xt.v[i]);
		chart_text(L, ROLE_TICK, -1, x, S->bottom + CHART_TICK_GAP * f + RENDER_ASCENT * S->ticks_s,
			   buf, S->ticks_s, C_TEXT, RENDER_CENTER, 0);
	}
	for (size_t i = 0; i < S->yt.n; i++) {
		double y = chart_ymap(&S->ys, S->yt.v[i]);

		chart_seg(c, S->left, y, S->right, y, CHART_GRID_WIDTH * f, C_GRID);
		chart_seg(c, S->left - CHART_TICK_LEN * f, y, S->left, y, CHART_AXIS_WIDTH * f, C_AXIS);
		chart_si(S->yt.v[i], S->yt.step, buf, sizeof buf);
		chart_text(L, ROLE_TICK, -1, S->left - CHART_TICK_GAP * f,
			   y + CHART_MID_BASELINE * S->ticks_s, buf, S->ticks_s, C_TEXT, RENDER_RIGHT, 0);
	}
	chart_seg(c, S->left, S->bottom, S->right, S->bottom, CHART_AXIS_WIDTH * f, C_AXIS);
	chart_seg(c, S->left, S->top, S->left, S->bottom, CHART_AXIS_WIDTH * f, C_AXIS);
	chart_text(L, ROLE_AXIS_TITLE, -1, (S->left + S->right) / 2,
		   S->bottom + CHART_TICK_GAP * f + (RENDER_ASCENT + RENDER_DESCENT) * S->ticks_s +
			   RENDER_ASCENT * S->axis_s + 6 * f,
		   S->logx ? "pipeline depth (log scale)" : "pipeline depth", S->axis_s, C_TEXT,
		   RENDER_CENTER, 0);
	chart_text(L, ROLE_AXIS_TITLE, -1, L->pad + RENDER_ASCENT * S->axis_s, (S->top + S->bottom) / 2,
		   "requests per second", S->axis_s, C_TEXT, RENDER_CENTER, 1);
}

/* A polyline through group i's closed-loop rates (closed 1) or its
 * sustained ones, a piece each run of depths that have one (none made
 * up across a depth without); role on each piece. */
static void sloc_polyline(struct slochart *S, size_t i, int closed, double width,
			  enum render_dash dash, enum chart_role role)
{
	struct chart_lay *L = S->L;
	const struct slo_group *g = L->in->slo[i];
	double *xy = xcalloc(2 * (g->nd ? g->nd : 1), sizeof *xy);
	size_t n = 0;

	for (size_t k = 0; k <= g->nd; k++) {
		double v = k == g->nd ? NAN : closed ? S->pts[i][k].closed : S->pts[i][k].sustained;

		if (isfinite(v)) {
			xy[2 * n] = chart_xmap(&S->xs, S->pts[i][k].depth);
			xy[2 * n + 1] = chart_ymap(&S->ys, v);
			n++;
			continue;
		}
		if (n > 1) {
			chart_line(L->c, xy, n, width, chart_palette(i), dash, (int)i);
			L->c->items[L->c->n - 1].role = role;
		}
		n = 0;
	}
	free(xy);
}

/* Each group: the closed loop's dashed line, the brackets, the sustained
 * line, then its marks (hollow where the generator was the limit). */
static void sloc_data(struct slochart *S)
{
	struct chart_lay *L = S->L;
	const struct chart_input *in = L->in;
	double f = L->f, cap = 4 * f;

	for (size_t i = 0; i < in->nslo; i++) {
		struct render_color col = chart_palette(i);

		sloc_polyline(S, i, 1, 1.4 * f, RENDER_DASHED,
			      ROLE_SLO_CLOSED);
		for (size_t k = 0; k < in->slo[i]->nd; k++) {
			const struct chart_slo_point *p = &S->pts[i][k];
			double x = chart_xmap(&S->xs, p->depth), ms = 5 * f;

			if (isfinite(p->closed))
				chart_mark(L->c, x, chart_ymap(&S->ys, p->closed), ms, RENDER_CIRCLE, col,
					   C_WHITE, 0.6 * f, (int)i);
			if (isfinite(p->lo) && isfinite(p->hi)) {
				double y0 = chart_ymap(&S->ys, p->lo), y1 = chart_ymap(&S->ys, p->hi);

				chart_seg(L->c, x, y0, x, y1, 1.4 * f, col);
				L->c->items[L->c->n - 1].role = ROLE_SLO_BRACKET;
				L->c->items[L->c->n - 1].series = (int)i;
				chart_seg(L->c, x - cap, y1, x + cap, y1, 1.4 * f, col);
				L->c->items[L->c->n - 1].role = ROLE_WHISKER;
			}
		}
		sloc_polyline(S, i, 0, 2.2 * f, RENDER_SOLID,
			      ROLE_NONE);
		for (size_t k = 0; k < in->slo[i]->nd; k++) {
			const struct chart_slo_point *p = &S->pts[i][k];
			double x = chart_xmap(&S->xs, p->depth);

			if (p->generator) {
				chart_mark(L->c, x, chart_ymap(&S->ys, p->floor), 9 * f, RENDER_CIRCLE,
					   C_WHITE, col, 1.8 * f, (int)i);
				L->c->items[L->c->n - 1].role = ROLE_SLO_GENERATOR;
			} else if (isfinite(p->sustained)) {
				chart_mark(L->c, x, chart_ymap(&S->ys, p->sustained), 7 * f,
					   chart_marker(i), col, C_WHITE, 1 * f, (int)i);
			}
		}
	}
}

/* The best depth of each group, "P=16 best" by its mark where it fits,
 * as the report names it. */
static void sloc_best(struct slochart *S)
{
	struct chart_lay *L = S->L;
	const struct chart_input *in = L->in;
	struct chart_box inner = { S->left, S->top, S->right, S->bottom };
	char buf[64];

	for (size_t i = 0; i < in->nslo; i++) {
		const struct slo_group *g = in->slo[i];
		const struct chart_slo_point *p;

		if (g->best >= g->nd)
			continue;
		p = &S->pts[i][g->best];
		snprintf(buf, sizeof buf, "best: P=%u", p->depth);
		chart_note(L, &inner, ROLE_SATURATION, i, i, chart_xmap(&S->xs, p->depth),
			   chart_ymap(&S->ys, p->sustained), 4 * L->f, buf, S->note_s);
	}
}

int chart_lay_slo(struct chart_lay *L, struct rs_err *err)
{
	struct slochart S = { 0 };
	int rc = -1;

	S.L = L;
	S.ticks_s = CHART_TICK_SIZE * L->f;
	S.axis_s = CHART_AXIS_SIZE * L->f;
	S.note_s = CHART_NOTE_SIZE * L->f;
	if (L->in->nslo > SLOC_MAX)
		return rs_err_set(err, "%zu --slo searches in one chart, more than its %d colours: "
				  "choose tests with --tests, or plot fewer labels", L->in->nslo,
				  SLOC_MAX);
	if (sloc_extent(&S, err) < 0 || sloc_frame(&S, err) < 0)
		goto out;
	sloc_axes(&S);
	sloc_data(&S);
	sloc_best(&S);
	rc = 0;
out:
	for (size_t i = 0; S.pts != NULL && i < L->in->nslo; i++)
		free(S.pts[i]);
	free(S.pts);
	free(S.names);
	return rc;
}
