/* chart_heatmap.c: heat maps: a metric over two axes (grid.h), one panel
 * per grid, every cell coloured on one viridis scale with its bar, each
 * cell's value written in it where it fits, a corner mark on the cells
 * whose interval is wide or unknown, grey where nothing was measured.
 *
 * Cells are categories: each distinct value of an axis is a column (or a
 * row), evenly spaced, so that depths 1, 2, 4 ... 256 lie on a log scale
 * and 1..40 on a linear one without a scale of their own. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/chart_int.h"
#include "base/xalloc.h"

/* Cells smaller than this (times f) cannot be told apart: refused. */
#define HEAT_MIN_CELL_W 6
#define HEAT_MIN_CELL_H 5
/* Space between panels, and the colour bar's width (times f). */
#define HEAT_GAP 18
#define HEAT_BAR_W 16
/* Cell values smaller than this many points are not written. */
#define HEAT_MIN_TEXT 7
/* The colour scale is logarithmic when the largest value is this many
 * times the smallest: rates from 20k to 2M, latencies from 0.05 to 50 ms
 * would otherwise leave most cells one shade. */
#define HEAT_LOG_RATIO 10
/* The wide mark: a corner triangle of this share of the cell's shorter
 * side, HEAT_MARK_MIN to HEAT_MARK_MAX points (times f). */
#define HEAT_MARK_SHARE 0.3
#define HEAT_MARK_MIN 3
#define HEAT_MARK_MAX 10
/* The budget's outline: its width (times f), over a white one 2 wider. */
#define HEAT_BUDGET_W 3.5

static const struct render_color C_EMPTY = { 0xD4, 0xD4, 0xD4, 255 };

static const char *const heat_axis_titles[] = {
	[GRID_DEPTH] = "pipeline depth", [GRID_CLIENTS] = "clients",
	[GRID_DATA_SIZE] = "value size (bytes)", [GRID_THREADS] = "client threads",
};

/* One map: its grid in a slot of the chart. */
struct heat_panel {
	size_t gi;                /* index into in->grids */
	const struct grid *g;
	double x0, y0, x1, y1;    /* the slot */
	double left, top, right, bottom; /* the cells */
	double cw, ch;            /* a cell */
	int xvert;                /* the x values read bottom to top */
	size_t xevery, yevery;    /* a value label every so many columns, rows */
};

/* What the panels share. */
struct heat {
	struct chart_lay *L;
	const struct grid *const *g;
	size_t n;
	double tick_s, head_s, axis_s, cell_s; /* font sizes; cell_s 0: no values */
	double vmin, vmax;        /* the colour scale's ends */
	int logc;                 /* ... on a log scale */
	size_t measured, empty, wide, with_ci;
	int marks;                /* mark wide cells: some cell has an interval */
	double top, bottom, left, right; /* the panels' area */
	double bar_x, bar_top, bar_bottom; /* the colour bar */
	size_t cols, rows;
	double sw, sh;            /* a panel's slot */
	double ylab_w, xlab_w;    /* the widest value label of each axis */
	struct heat_panel *p;
};

/* "412k", "1.25M", "0.352", "12.5": three significant digits at most,
 * no trailing zero, with an SI suffix from a thousand up. */
static void heat_short(double v, char *buf, size_t size)
{
	static const struct { double f; const char *s; } si[] = {
		{ 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" }, { 1, "" },
	};
	size_t i = 0;
	double x;
	int d;
	char *e;

	if (!isfinite(v)) {
		snprintf(buf, size, "?");
		return;
	}
	if (v != 0 && fabs(v) < 0.0005) {
		/* Three decimals would say 0: "1e-06". */
		snprintf(buf, size, "%.2g", v);
		return;
	}
	while (i + 1 < sizeof si / sizeof *si && fabs(v) < si[i].f * 0.9995)
		i++;
	x = v / si[i].f;
	d = fabs(x) >= 99.95 ? 0 : fabs(x) >= 9.995 ? 1 : fabs(x) >= 0.9995 || x == 0 ? 2 : 3;
	snprintf(buf, size, "%.*f", d, x);
	if (strchr(buf, '.') != NULL) {
		for (e = buf + strlen(buf); e[-1] == '0'; e--)
			;
		if (e[-1] == '.')
			e--;
		*e = '\0';
	}
	if (strlen(buf) + strlen(si[i].s) < size)
		strcat(buf, si[i].s);
}

/* The position of v on the colour scale, 0..1: where a colour and a
 * place on the bar come from, so a value off the scale (none should be)
 * sits at its nearer end rather than at an infinite place. */
static double heat_t(const struct heat *H, double v)
{
	double t;

	if (!(H->vmax > H->vmin))
		return 0.5;
	if (H->logc)
		t = (log(v) - log(H->vmin)) / (log(H->vmax) - log(H->vmin));
	else
		t = (v - H->vmin) / (H->vmax - H->vmin);
	return isnan(t) ? 0.5 : fmin(1, fmax(0, t));
}

/* Whether a measured cell gets the wide mark. */
static int heat_is_wide(const struct grid_cell *c)
{
	return !(isfinite(c->lo) && isfinite(c->hi)) ||
	       (c->hi - c->lo) / 2 > CHART_HEAT_WIDE * fabs(c->median);
}

/* Dark text on the light end of the scale, white on the dark end. */
static struct render_color heat_ink(struct render_color bg)
{
	return 0.2126 * bg.r + 0.7152 * bg.g + 0.0722 * bg.b > 140 ? C_TEXT : C_WHITE;
}

/* The colour scale over every measured cell, and what the legend must
 * explain. */
static int heat_scan(struct heat *H, struct rs_err *err)
{
	H->vmin = INFINITY;
	H->vmax = -INFINITY;
	for (size_t i = 0; i < H->n; i++)
		for (size_t k = 0; k < H->g[i]->nx * H->g[i]->ny; k++) {
			const struct grid_cell *c = &H->g[i]->cells[k];

			if (c->n == 0) {
				H->empty++;
				continue;
			}
			H->measured++;
			H->vmin = fmin(H->vmin, c->median);
			H->vmax = fmax(H->vmax, c->median);
			H->with_ci += isfinite(c->lo) && isfinite(c->hi);
			H->wide += heat_is_wide(c);
		}
	if (H->measured == 0 || !isfinite(H->vmin) || !isfinite(H->vmax))
		return rs_err_set(err, "nothing to draw: no cell was measured");
	H->logc = H->vmin > 0 && H->vmax >= HEAT_LOG_RATIO * H->vmin;
	/* Without any interval every cell would carry the mark: one line says
	 * so instead. */
	H->marks = H->with_ci > 0 && H->wide > 0;
	return 0;
}

/* The axis title: its name, and how its values are spaced, read from
 * every grid's values: powers of two are a log scale, evenly spaced values
 * a linear one, anything else one column per value. */
static void heat_axis_title(const struct heat *H, int x, char *buf, size_t size)
{
	enum grid_axis a = x ? H->L->in->gx : H->L->in->gy;
	int pow2 = 1, even = 1;
	size_t most = 0;

	for (size_t i = 0; i < H->n; i++) {
		const int64_t *v = x ? H->g[i]->xs : H->g[i]->ys;
		size_t nv = x ? H->g[i]->nx : H->g[i]->ny;

		most = nv > most ? nv : most;
		for (size_t k = 0; k < nv; k++) {
			pow2 = pow2 && v[k] > 0 && (v[k] & (v[k] - 1)) == 0;
			even = even && (k < 2 || v[k] - v[k - 1] == v[1] - v[0]);
		}
	}
	if (most >= 3 && pow2)
		snprintf(buf, size, "%s (log scale: powers of two)", heat_axis_titles[a]);
	else if (most >= 3 && !even)
		snprintf(buf, size, "%s (one %s per value)", heat_axis_titles[a], x ? "column" : "row");
	else
		snprintf(buf, size, "%s", heat_axis_titles[a]);
}

/* The title (given, or "Requests per second by pipeline depth and
 * clients", with the label when there is one) and what a cell is. */
static double heat_titles(struct heat *H)
{
	struct chart_lay *L = H->L;
	const struct chart_input *in = L->in;
	const char *m = series_metric_title(in->metric);
	char title[512], subtitle[512];

	if (in->title && *in->title) {
		snprintf(title, sizeof title, "%s", in->title);
	} else {
		int n = snprintf(title, sizeof title, "%c%s by %s and %s", m[0] >= 'a' && m[0] <= 'z' ?
				 m[0] - 'a' + 'A' : m[0], m + 1, heat_axis_titles[in->gx],
				 heat_axis_titles[in->gy]);

		if (L->nlabels == 1 && n >= 0 && (size_t)n < sizeof title)
			snprintf(title + n, sizeof title - (size_t)n, " " UTF8_EM_DASH " %s",
				 L->labels[0]);
	}
	snprintf(subtitle, sizeof subtitle, "Each cell: the median over its repeats; one colour "
		 "scale (%s) for %s", H->logc ? "log" : "linear", H->n > 1 ? "every panel" : "the map");
	return chart_titles(L, title, subtitle);
}

/* One side of the budget's outline, (x0, y0) to (x1, y1): dark over a
 * wider white stroke, which shows on both ends of the colour scale. */
static void heat_budget_seg(struct chart *c, double f, double x0, double y0, double x1,
			    double y1)
{
	chart_seg(c, x0, y0, x1, y1, HEAT_BUDGET_W * f + 2 * f, C_WHITE);
	c->items[c->n - 1].role = ROLE_BUDGET;
	chart_seg(c, x0, y0, x1, y1, HEAT_BUDGET_W * f, C_TEXT);
	c->items[c->n - 1].role = ROLE_BUDGET;
}

/* Whether the cell (ix, iy) of P's map is measured and its twin in the
 * budget's metric has a median within the budget. */
static int heat_within(const struct heat *H, const struct heat_panel *P, const struct grid *b,
		       size_t ix, size_t iy)
{
	const struct grid *g = P->g;
	const struct grid_cell *cell;

	if (b == NULL || ix >= g->nx || iy >= g->ny || g->cells[iy * g->nx + ix].n == 0)
		return 0;
	cell = grid_cell_at(b, g->xs[ix], g->ys[iy]);
	return cell != NULL && cell->n > 0 && isfinite(cell->median) &&
	       cell->median <= H->L->in->budget_ms;
}

/* --latency-budget: the outline of P's cells within the budget, a side
 * wherever such a cell meets one that is not (or the map's edge), so that
 * what it encloses meets the budget. */
static void heat_budget(struct heat *H, const struct heat_panel *P)
{
	const struct chart_input *in = H->L->in;
	const struct grid *g = P->g, *b;
	double f = H->L->f;

	if (in->budget == NULL || (b = grid_find(in->budget, g->label, g->test, g->held)) == NULL)
		return;
	for (size_t iy = 0; iy < g->ny; iy++)
		for (size_t ix = 0; ix < g->nx; ix++) {
			double x0 = P->left + (double)ix * P->cw, x1 = x0 + P->cw;
			double y1 = P->bottom - (double)iy * P->ch, y0 = y1 - P->ch;

			if (!heat_within(H, P, b, ix, iy))
				continue;
			if (ix == 0 || !heat_within(H, P, b, ix - 1, iy))
				heat_budget_seg(H->L->c, f, x0, y0, x0, y1);
			if (!heat_within(H, P, b, ix + 1, iy))
				heat_budget_seg(H->L->c, f, x1, y0, x1, y1);
			if (iy == 0 || !heat_within(H, P, b, ix, iy - 1))
				heat_budget_seg(H->L->c, f, x0, y1, x1, y1);
			if (!heat_within(H, P, b, ix, iy + 1))
				heat_budget_seg(H->L->c, f, x0, y0, x1, y0);
		}
}

/* The legend line: what the mark and the grey mean, or that no cell has
 * an interval, and the budget's outline.  Returns the y below it. */
static double heat_legend(struct heat *H, double y)
{
	struct chart_lay *L = H->L;
	double f = L->f, ls = 12 * f, sw = 14 * f, gap = 6 * f, space = 20 * f;
	double rowh = 19 * f, x = L->pad, maxx = L->in->width - L->pad;
	const char *text[3];
	int kind[3];              /* 0 the mark, 1 grey, 2 text only, 3 the budget's outline */
	size_t ne = 0;
	int rows = 1;
	char note[160], budget[160];

	if (H->marks) {
		text[ne] = "95% interval of the median wider than " UTF8_PLUSMINUS "10%, or none "
			   "(one repeat)";
		kind[ne++] = 0;
	} else if (H->with_ci == 0) {
		snprintf(note, sizeof note, "No cell has a 95%% interval: %s one repeat",
			 H->measured > 1 ? "each has" : "it has");
		text[ne] = note;
		kind[ne++] = 2;
	}
	if (H->empty > 0) {
		text[ne] = "not measured";
		kind[ne++] = 1;
	}
	if (L->in->budget != NULL) {
		snprintf(budget, sizeof budget, "%s within %g ms (--latency-budget): the cells inside "
			 "the outline", series_metric_name(L->in->budget_metric), L->in->budget_ms);
		text[ne] = budget;
		kind[ne++] = 3;
	}
	if (ne == 0)
		return y;
	for (size_t i = 0; i < ne; i++) {
		double w = (kind[i] == 2 ? 0 : sw + gap) + chart_tw(L, text[i], ls);
		double cy;

		if (x > L->pad && x + w > maxx) {
			x = L->pad;
			rows++;
		}
		cy = y + (rows - 0.5) * rowh;
		if (kind[i] == 3) {
			heat_budget_seg(L->c, f, x, cy, x + sw, cy);
		} else if (kind[i] == 1) {
			chart_rect(L->c, x, cy - sw / 2, sw, sw, C_EMPTY);
		} else if (kind[i] == 0) {
			struct render_color mid = chart_viridis(0.5);
			struct chart_item *it;

			chart_rect(L->c, x, cy - sw / 2, sw, sw, mid);
			it = chart_push(L->c, CHART_BAND);
			it->v = xmalloc(6 * sizeof *it->v);
			it->n = 2;
			it->v[0] = x + sw / 2;
			it->v[1] = x + sw;
			it->v[2] = it->v[3] = it->v[4] = cy - sw / 2;
			it->v[5] = cy;
			it->color = heat_ink(mid);
		}
		chart_text(L, kind[i] == 3 ? ROLE_BUDGET : ROLE_LEGEND, -1,
			   x + (kind[i] == 2 ? 0 : sw + gap), cy + 0.27 * ls, text[i], ls, C_TEXT,
			   RENDER_LEFT, 0);
		x += w + space;
	}
	return y + rows * rowh + 6 * f;
}

/* The colour bar's ticks, values inside [vmin, vmax] ascending, at most
 * max of them; their labels' step into *step.  Returns how many.
 *
 * A log scale gets powers of ten: 1-2-5 in each decade, else the decades,
 * else every k-th decade.  Before, a scale over more decades than fit
 * (1e-6 to 1e14 rps) fell back to linear ticks, whose first was 0: its
 * place on a log scale is minus infinity, and the label drawn there sent
 * the PNG back-end out of int range (issue 40, D9).  A log scale never
 * takes a tick at or below 0. */
static size_t heat_bar_ticks(const struct heat *H, double *v, size_t max, double *step)
{
	size_t n = 0;

	*step = 0;
	if (max < 2)
		max = 2;
	if (max > CHART_MAX_TICKS)
		max = CHART_MAX_TICKS;
	if (H->logc) {
		/* 1-2-5 in each decade, or the decades alone when they crowd. */
		static const double mant[2][3] = { { 1, 2, 5 }, { 1, 0, 0 } };
		int e0 = (int)floor(log10(H->vmin)), e1 = (int)ceil(log10(H->vmax));

		for (int pass = 0; pass < 3; pass++) {
			/* Pass 2: every k-th decade, k the fewest that fit. */
			int k = pass < 2 ? 1 : (e1 - e0) / ((int)max - 1) + 1;
			size_t all = 0;

			n = 0;
			for (int e = e0; e <= e1; e++)
				for (size_t j = 0; j < 3 && (e - e0) % k == 0; j++) {
					double t = mant[pass < 2 ? pass : 1][j] * pow(10, e);

					if (t > 0 && t >= H->vmin * (1 - 1e-9) &&
					    t <= H->vmax * (1 + 1e-9) && all++ < CHART_MAX_TICKS)
						v[n++] = t;
				}
			if (all <= max)
				break;
		}
		if (n >= 2 && n <= max)
			return n;
	}
	{
		struct chart_ticks t;

		n = 0;
		if (chart_ticks_nice(H->vmin, H->vmax, (unsigned)max, &t) == 0)
			for (size_t k = 0; k < t.n; k++)
				if (t.v[k] >= H->vmin - 1e-9 * t.step &&
				    t.v[k] <= H->vmax + 1e-9 * t.step && (!H->logc || t.v[k] > 0))
					v[n++] = t.v[k];
		*step = t.step;
	}
	if (n < 2) {
		/* A range narrower than a step: its ends. */
		v[0] = H->vmin;
		v[1] = H->vmax;
		n = H->vmax > H->vmin ? 2 : 1;
		*step = -1;
	}
	return n;
}

static void heat_bar_label(double v, double step, char *buf, size_t size)
{
	if (step > 0)
		chart_si(v, step, buf, size);
	else if (step == 0 && fabs(v) >= 0.001)
		chart_si(v, v, buf, size);
	else
		heat_short(v, buf, size);
}

/* Width the colour bar takes at the right, its ticks' labels and title
 * included. */
static double heat_bar_width(struct heat *H)
{
	struct chart_lay *L = H->L;
	double v[CHART_MAX_TICKS], step, w = 0, f = L->f;
	size_t n = heat_bar_ticks(H, v, CHART_MAX_TICKS, &step);
	char buf[64];

	for (size_t i = 0; i < n; i++) {
		heat_bar_label(v[i], step, buf, sizeof buf);
		w = fmax(w, chart_tw(L, buf, H->tick_s));
	}
	return HEAT_GAP * f + HEAT_BAR_W * f + CHART_TICK_GAP * f + w + 8 * f +
	       (RENDER_ASCENT + RENDER_DESCENT) * H->axis_s;
}

/* The colour bar: slices from the scale's bottom (vmin) to its top, its
 * ticks and their labels, and its title. */
static void heat_bar(struct heat *H)
{
	struct chart_lay *L = H->L;
	struct chart *c = L->c;
	double f = L->f, x = H->bar_x, top = H->bar_top, bot = H->bar_bottom, h = bot - top;
	double v[CHART_MAX_TICKS], step, th = (RENDER_ASCENT + RENDER_DESCENT) * H->tick_s, lw = 0;
	size_t ns = (size_t)fmin(256, fmax(16, h / f)), nt;
	char buf[64];

	for (size_t k = 0; k < ns; k++) {
		double y0 = bot - (double)(k + 1) * h / (double)ns;

		/* Each slice reaches into the next: no seam of background. */
		chart_rect(c, x, y0, HEAT_BAR_W * f, h / (double)ns + (k + 1 < ns ? 0.6 * f : 0),
			   chart_viridis(((double)k + 0.5) / (double)ns));
		c->items[c->n - 1].role = ROLE_COLORBAR;
	}
	nt = heat_bar_ticks(H, v, (size_t)fmax(2, h / (3 * th)), &step);
	for (size_t i = 0; i < nt; i++) {
		double y = H->vmax > H->vmin ? bot - heat_t(H, v[i]) * h : (top + bot) / 2;
		struct chart_item *it;

		chart_seg(c, x + HEAT_BAR_W * f, y, x + HEAT_BAR_W * f + CHART_TICK_LEN * f, y,
			  CHART_AXIS_WIDTH * f, C_AXIS);
		heat_bar_label(v[i], step, buf, sizeof buf);
		it = chart_text(L, ROLE_COLORBAR, -1, x + HEAT_BAR_W * f + CHART_TICK_GAP * f,
				y + CHART_MID_BASELINE * H->tick_s, buf, H->tick_s, C_TEXT, RENDER_LEFT, 0);
		lw = fmax(lw, it->box.x1 - it->box.x0);
	}
	snprintf(buf, sizeof buf, "%s%s", series_metric_title(L->in->metric),
		 H->logc ? ", log scale" : "");
	chart_text(L, ROLE_AXIS_TITLE, -1,
		   x + HEAT_BAR_W * f + CHART_TICK_GAP * f + lw + 8 * f + RENDER_ASCENT * H->axis_s,
		   (top + bot) / 2, buf, H->axis_s, C_TEXT, RENDER_CENTER, 1);
}

/* The widest value label of axis x (else y) over every grid. */
static double heat_value_width(struct heat *H, int x)
{
	double w = 0;
	char buf[32];

	for (size_t i = 0; i < H->n; i++) {
		size_t nv = x ? H->g[i]->nx : H->g[i]->ny;

		for (size_t k = 0; k < nv; k++) {
			snprintf(buf, sizeof buf, "%lld", (long long)(x ? H->g[i]->xs[k] : H->g[i]->ys[k]));
			w = fmax(w, chart_tw(H->L, buf, H->tick_s));
		}
	}
	return w;
}

/* Panel P's cells within its slot, and how its value labels go: the x
 * values across, or turned upright where a column is narrower than the
 * widest, every one where they fit and every so many where not. */
static void heat_panel_place(struct heat *H, struct heat_panel *P)
{
	double f = H->L->f, th = (RENDER_ASCENT + RENDER_DESCENT) * H->tick_s;
	double head = (RENDER_ASCENT + RENDER_DESCENT) * H->head_s + 4 * f, band;

	P->left = P->x0 + H->ylab_w + CHART_TICK_GAP * f;
	P->right = P->x1;
	P->top = P->y0 + head;
	P->cw = (P->right - P->left) / (double)P->g->nx;
	P->xvert = H->xlab_w > 0.9 * P->cw;
	band = P->xvert ? H->xlab_w : th;
	P->bottom = P->y1 - band - CHART_TICK_GAP * f / 2;
	P->ch = (P->bottom - P->top) / (double)P->g->ny;
	P->xevery = P->xvert && th > 0.95 * P->cw ? (size_t)ceil(th / (0.95 * P->cw)) : 1;
	P->yevery = th > 0.95 * P->ch ? (size_t)ceil(th / (0.95 * P->ch)) : 1;
}

/* The panels' grid: the number of columns whose smallest cell, over every
 * panel, is largest.  Returns -1 when even that is too small to draw. */
static int heat_arrange(struct heat *H)
{
	double f = H->L->f, best = -1, gap = HEAT_GAP * f;

	for (size_t cols = 1; cols <= H->n; cols++) {
		size_t rows = (H->n + cols - 1) / cols;
		double sw = (H->right - H->left - (double)(cols - 1) * gap) / (double)cols;
		double sh = (H->bottom - H->top - (double)(rows - 1) * gap) / (double)rows;
		double worst = INFINITY;

		for (size_t i = 0; i < H->n; i++) {
			struct heat_panel P = { .g = H->g[i], .x0 = 0, .y0 = 0, .x1 = sw, .y1 = sh };

			heat_panel_place(H, &P);
			worst = fmin(worst, fmin(P.cw / HEAT_MIN_CELL_W, P.ch / HEAT_MIN_CELL_H));
		}
		if (worst > best) {
			best = worst;
			H->cols = cols;
			H->rows = rows;
			H->sw = sw;
			H->sh = sh;
		}
	}
	if (!(best >= f))
		return -1;
	H->p = xcalloc(H->n, sizeof *H->p);
	for (size_t i = 0; i < H->n; i++) {
		struct heat_panel *P = &H->p[i];

		P->gi = i;
		P->g = H->g[i];
		P->x0 = H->left + (double)(i % H->cols) * (H->sw + gap);
		P->y0 = H->top + (double)(i / H->cols) * (H->sh + gap);
		P->x1 = P->x0 + H->sw;
		P->y1 = P->y0 + H->sh;
		heat_panel_place(H, P);
	}
	return 0;
}

/* One size for every cell's value, the largest that fits each cell (clear
 * of its mark); 0 when that is below HEAT_MIN_TEXT. */
static void heat_cell_size(struct heat *H)
{
	double f = H->L->f, s0 = CHART_NOTE_SIZE * f, s = s0;
	char buf[32];

	for (size_t i = 0; i < H->n; i++) {
		const struct heat_panel *P = &H->p[i];
		double mark = H->marks ? fmin(HEAT_MARK_MAX * f, fmax(HEAT_MARK_MIN * f,
				HEAT_MARK_SHARE * fmin(P->cw, P->ch))) : 0;
		double avail = fmin(0.86 * P->cw, P->cw - 2 * mark - 2 * f);

		s = fmin(s, 0.62 * P->ch / (RENDER_ASCENT + RENDER_DESCENT));
		for (size_t k = 0; k < P->g->nx * P->g->ny; k++) {
			double w;

			if (P->g->cells[k].n == 0)
				continue;
			heat_short(P->g->cells[k].median, buf, sizeof buf);
			w = chart_tw(H->L, buf, s0);
			if (w > 0)
				s = fmin(s, s0 * avail / w);
		}
	}
	H->cell_s = s >= HEAT_MIN_TEXT ? s : 0;
}

/* A panel's name: the label (when the chart has several), the test, and
 * the values held; cut to width w with an ellipsis. */
static void heat_head(struct heat *H, const struct heat_panel *P, double w)
{
	struct chart_lay *L = H->L;
	char buf[2 * ROW_STR + 200];
	size_t n;

	snprintf(buf, sizeof buf, "%s%s%s%s%s", L->nlabels > 1 ? P->g->label : "",
		 L->nlabels > 1 ? " " : "", P->g->test, P->g->held[0] ? " " : "", P->g->held);
	n = strlen(buf);
	while (n > 1 && chart_tw(L, buf, H->head_s) > w) {
		/* Back to the start of the last character, and "…" there. */
		do
			n--;
		while (n > 0 && ((unsigned char)buf[n] & 0xC0) == 0x80);
		if (n + sizeof UTF8_ELLIPSIS > sizeof buf)
			continue;
		memcpy(buf + n, UTF8_ELLIPSIS, sizeof UTF8_ELLIPSIS);
	}
	chart_text(L, ROLE_PANEL, (int)P->gi, P->left, P->y0 + RENDER_ASCENT * H->head_s, buf,
		   H->head_s, C_TEXT, RENDER_LEFT, 0);
}

/* Panel P: its name, cells, values, marks and value labels. */
static void heat_panel_draw(struct heat *H, const struct heat_panel *P)
{
	struct chart_lay *L = H->L;
	struct chart *c = L->c;
	const struct grid *g = P->g;
	double f = L->f, inset = fmin(1 * f, 0.1 * fmin(P->cw, P->ch));
	double mark = fmin(HEAT_MARK_MAX * f, fmax(HEAT_MARK_MIN * f,
			   HEAT_MARK_SHARE * fmin(P->cw, P->ch)));
	char buf[32];

	heat_head(H, P, P->right - P->left);
	for (size_t iy = 0; iy < g->ny; iy++)
		for (size_t ix = 0; ix < g->nx; ix++) {
			const struct grid_cell *cell = &g->cells[iy * g->nx + ix];
			double x0 = P->left + (double)ix * P->cw + inset / 2;
			double y0 = P->bottom - (double)(iy + 1) * P->ch + inset / 2;
			double w = P->cw - inset, h = P->ch - inset;
			struct render_color col;
			struct chart_item *it;

			if (cell->n == 0) {
				chart_rect(c, x0, y0, w, h, C_EMPTY);
				c->items[c->n - 1].role = ROLE_CELL_EMPTY;
				c->items[c->n - 1].series = (int)P->gi;
				continue;
			}
			col = chart_viridis(heat_t(H, cell->median));
			chart_rect(c, x0, y0, w, h, col);
			c->items[c->n - 1].role = ROLE_CELL;
			c->items[c->n - 1].series = (int)P->gi;
			if (H->marks && heat_is_wide(cell)) {
				/* A dog-ear in the top right corner. */
				it = chart_push(c, CHART_BAND);
				it->role = ROLE_CELL_WIDE;
				it->series = (int)P->gi;
				it->v = xmalloc(6 * sizeof *it->v);
				it->n = 2;
				it->v[0] = x0 + w - fmin(mark, w);
				it->v[1] = x0 + w;
				it->v[2] = it->v[3] = it->v[4] = y0;
				it->v[5] = y0 + fmin(mark, h);
				it->color = heat_ink(col);
			}
			if (H->cell_s > 0) {
				heat_short(cell->median, buf, sizeof buf);
				chart_text(L, ROLE_CELL, (int)P->gi, x0 + w / 2,
					   y0 + h / 2 + CHART_MID_BASELINE * H->cell_s, buf, H->cell_s,
					   heat_ink(col), RENDER_CENTER, 0);
			}
		}
	for (size_t ix = 0; ix < g->nx; ix += P->xevery) {
		double x = P->left + ((double)ix + 0.5) * P->cw;

		snprintf(buf, sizeof buf, "%lld", (long long)g->xs[ix]);
		if (P->xvert)
			chart_text(L, ROLE_TICK, (int)P->gi, x + CHART_MID_BASELINE * H->tick_s,
				   P->bottom + CHART_TICK_GAP * f / 2, buf, H->tick_s, C_TEXT,
				   RENDER_RIGHT, 1);
		else
			chart_text(L, ROLE_TICK, (int)P->gi, x,
				   P->bottom + CHART_TICK_GAP * f / 2 + RENDER_ASCENT * H->tick_s, buf,
				   H->tick_s, C_TEXT, RENDER_CENTER, 0);
	}
	for (size_t iy = 0; iy < g->ny; iy += P->yevery) {
		double y = P->bottom - ((double)iy + 0.5) * P->ch;

		snprintf(buf, sizeof buf, "%lld", (long long)g->ys[iy]);
		chart_text(L, ROLE_TICK, (int)P->gi, P->left - CHART_TICK_GAP * f,
			   y + CHART_MID_BASELINE * H->tick_s, buf, H->tick_s, C_TEXT, RENDER_RIGHT, 0);
	}
}

int chart_lay_heatmap(struct chart_lay *L, struct rs_err *err)
{
	const struct chart_input *in = L->in;
	struct heat H = { 0 };
	double f = L->f;
	char xt[128], yt[128];
	int rc = -1;

	H.L = L;
	H.g = in->grids;
	H.n = in->ngrids;
	H.tick_s = CHART_TICK_SIZE * f;
	H.head_s = CHART_LABEL_SIZE * f;
	H.axis_s = CHART_AXIS_SIZE * f;
	if (heat_scan(&H, err) < 0)
		return -1;
	H.top = heat_legend(&H, heat_titles(&H));
	H.bottom = chart_footer_block(L, CHART_FOOTER_SIZE * f) - 8 * f;
	H.bottom -= (RENDER_ASCENT + RENDER_DESCENT) * H.axis_s + 4 * f;
	H.left = L->pad + (RENDER_ASCENT + RENDER_DESCENT) * H.axis_s + 6 * f;
	H.right = in->width - L->pad - heat_bar_width(&H);
	H.ylab_w = heat_value_width(&H, 0);
	H.xlab_w = heat_value_width(&H, 1);
	if (H.right - H.left < HEAT_MIN_CELL_W * f || H.bottom - H.top < HEAT_MIN_CELL_H * f ||
	    heat_arrange(&H) < 0) {
		size_t mx = 0, my = 0;

		for (size_t i = 0; i < H.n; i++) {
			mx = H.g[i]->nx > mx ? H.g[i]->nx : mx;
			my = H.g[i]->ny > my ? H.g[i]->ny : my;
		}
		rs_err_set(err, "chart of %.0fx%.0f is too small for %zu heat map%s of up to %zux%zu "
			   "cells: give a larger --size%s", in->width, in->height, H.n,
			   H.n == 1 ? "" : "s", mx, my, H.n > 1 ? ", or fewer tests with --tests" : "");
		goto out;
	}
	heat_cell_size(&H);
	heat_axis_title(&H, 1, xt, sizeof xt);
	heat_axis_title(&H, 0, yt, sizeof yt);
	chart_text(L, ROLE_AXIS_TITLE, -1, (H.left + H.right) / 2,
		   H.bottom + 4 * f + RENDER_ASCENT * H.axis_s, xt, H.axis_s, C_TEXT, RENDER_CENTER, 0);
	chart_text(L, ROLE_AXIS_TITLE, -1, L->pad + RENDER_ASCENT * H.axis_s, (H.top + H.bottom) / 2,
		   yt, H.axis_s, C_TEXT, RENDER_CENTER, 1);
	H.bar_x = H.right + HEAT_GAP * f;
	H.bar_top = H.p[0].top;
	H.bar_bottom = H.p[0].bottom + (double)(H.rows - 1) * (H.sh + HEAT_GAP * f);
	heat_bar(&H);
	for (size_t i = 0; i < H.n; i++) {
		heat_panel_draw(&H, &H.p[i]);
		heat_budget(&H, &H.p[i]);
	}
	L->c->plot = (struct chart_box){ H.left, H.top, H.right, H.bottom };
	rc = 0;
out:
	free(H.p);
	return rc;
}
