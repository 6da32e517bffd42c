/* chart_latency.c: the latency charts, on a log latency axis: latency
 * against achieved throughput (the hockey stick), latency against depth,
 * and chosen points' latency percentiles (x = 1/(1-q): 50%, 90%, 99%,
 * 99.9%). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/chart_int.h"
#include "base/depths.h"
#include "base/num.h"
#include "base/xalloc.h"

/* One line of a latency chart: its points, x ascending for the depth and
 * percentile charts, in depth or rate order for the hockey stick. */
struct latline {
	char name[2 * ROW_STR + 64];
	double *x, *y, *lo, *hi;  /* lo, hi: NAN when unknown */
	unsigned *depth;          /* the point's depth (0: none), for its note */
	double *rate;             /* or its offered rate (NAN: none), for its note */
	size_t n, cap;
};

struct latchart {
	struct chart_lay *L;
	struct latline *v;
	size_t n;
	double xmin, xmax, ymin, ymax;
	double top, bottom, left, right;
	double ticks_s, axis_s, note_s;
	struct chart_yscale ys;   /* over log10 of ms */
	struct chart_xscale xs;   /* depth and percentile charts: linear over x */
	struct chart_ticks xt;
	int xdepth;               /* x is a depth (latency-depth) */
};

/* Most lines one chart draws: past the palette's colours times markers
 * they cannot be told apart. */
#define LAT_MAX_LINES (CHART_NPALETTE * RENDER_NMARKERS)

static struct latline *lat_line(struct latchart *S)
{
	struct latline *l;

	S->v = xreallocarray(S->v, S->n + 1, sizeof *S->v);
	l = &S->v[S->n++];
	memset(l, 0, sizeof *l);
	return l;
}

static void lat_point(struct latline *l, double x, double y, double lo, double hi, unsigned depth,
		      double rate)
{
	if (!(isfinite(x) && isfinite(y) && y > 0))
		return;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->x = xreallocarray(l->x, l->cap, sizeof *l->x);
		l->y = xreallocarray(l->y, l->cap, sizeof *l->y);
		l->lo = xreallocarray(l->lo, l->cap, sizeof *l->lo);
		l->hi = xreallocarray(l->hi, l->cap, sizeof *l->hi);
		l->depth = xreallocarray(l->depth, l->cap, sizeof *l->depth);
		l->rate = xreallocarray(l->rate, l->cap, sizeof *l->rate);
	}
	l->rate[l->n] = rate;
	l->x[l->n] = x;
	l->y[l->n] = y;
	l->lo[l->n] = isfinite(lo) && lo > 0 ? lo : NAN;
	l->hi[l->n] = isfinite(hi) && hi > 0 ? hi : NAN;
	l->depth[l->n++] = depth;
}

static void lat_free(struct latchart *S)
{
	for (size_t i = 0; i < S->n; i++) {
		free(S->v[i].x);
		free(S->v[i].y);
		free(S->v[i].lo);
		free(S->v[i].hi);
		free(S->v[i].depth);
		free(S->v[i].rate);
	}
	free(S->v);
}

/* Series i's latency at its depth d: figure and interval; 0 when it has
 * none there. */
static int lat_at(const struct chart_lay *L, size_t i, unsigned d, double *y, double *lo,
		  double *hi)
{
	const struct series *l = L->in->lat ? L->in->lat[i] : NULL;
	const struct series_point *q = l ? series_at(l, d) : NULL;
	const struct latency_ci *ci;

	if (q == NULL)
		return 0;
	*y = q->median;
	*lo = *hi = NAN;
	if (L->in->lat_ci != NULL && L->in->lat_ci[i] != NULL) {
		ci = &L->in->lat_ci[i][q - l->pts];
		if (ci->merged) {
			*lo = ci->lo;
			*hi = ci->hi;
		}
	}
	return 1;
}

/* A series' name in the legend: its test, after its label when the chart
 * has several. */
static void lat_name(const struct chart_lay *L, const struct series *s, const char *test,
		     char *buf, size_t size)
{
	if (L->nlabels > 1)
		snprintf(buf, size, "%s %s", s->label, test);
	else
		snprintf(buf, size, "%s", test);
}

/* The offered rate of an open-loop series, from its name ("GET
 * @20000/s": series_variant's), or NAN. */
static double lat_rate(const char *test)
{
	const char *at = strstr(test, " @");
	double v;

	return at && num_parse_double_n(at + 2, strcspn(at + 2, "/"), &v) == 0 ? v : NAN;
}

/* The hockey stick: for a depth sweep one line per series through its
 * depths; an open-loop sweep's series (one per offered rate) are regrouped
 * into one line per label, test and depth through the rates. */
static void lat_lines_throughput(struct latchart *S)
{
	struct chart_lay *L = S->L;
	const struct chart_input *in = L->in;
	unsigned char *done = xcalloc(in->nseries ? in->nseries : 1, 1);

	for (size_t i = 0; i < in->nseries; i++) {
		const struct series *s = in->series[i];
		const char *at = strstr(s->test, " @");

		if (done[i])
			continue;
		if (at == NULL) {
			struct latline *l = lat_line(S);

			lat_name(L, s, L->test_names[L->test_of[i]], l->name, sizeof l->name);
			for (size_t k = 0; k < s->npts; k++) {
				double y, lo, hi;

				if (lat_at(L, i, s->pts[k].depth, &y, &lo, &hi))
					lat_point(l, s->pts[k].median, y, lo, hi, s->pts[k].depth, NAN);
			}
			done[i] = 1;
			continue;
		}
		/* The series of the same label and test at other rates ("GET
		 * @20000/s", "GET @40000/s poisson" is another group), in rate
		 * order, then one line per depth any of them has. */
		{
			size_t *grp = xcalloc(in->nseries, sizeof *grp), ng = 0;
			const char *tail = strstr(at + 2, "/s");
			size_t base = (size_t)(at - s->test);
			unsigned *depths = NULL;
			size_t nd = 0;

			for (size_t j = i; j < in->nseries; j++) {
				const struct series *o = in->series[j];
				const char *oat = strstr(o->test, " @");
				const char *otail = oat ? strstr(oat + 2, "/s") : NULL;

				if (done[j] || oat == NULL || otail == NULL || tail == NULL ||
				    o->label != s->label || (size_t)(oat - o->test) != base ||
				    strncmp(o->test, s->test, base) != 0 || strcmp(otail, tail) != 0)
					continue;
				done[j] = 1;
				grp[ng++] = j;
			}
			/* Rate order: the number after '@'. */
			for (size_t a = 1; a < ng; a++)
				for (size_t b = a; b > 0 &&
				     atof(strstr(in->series[grp[b - 1]]->test, " @") + 2) >
				     atof(strstr(in->series[grp[b]]->test, " @") + 2); b--) {
					size_t t = grp[b];

					grp[b] = grp[b - 1];
					grp[b - 1] = t;
				}
			for (size_t a = 0; a < ng; a++) {
				const struct series *o = in->series[grp[a]];

				for (size_t k = 0; k < o->npts; k++) {
					size_t z = 0;

					while (z < nd && depths[z] != o->pts[k].depth)
						z++;
					if (z == nd) {
						depths = xreallocarray(depths, nd + 1, sizeof *depths);
						depths[nd++] = o->pts[k].depth;
					}
				}
			}
			for (size_t z = 0; z < nd; z++) {
				struct latline *l = lat_line(S);
				char test[ROW_STR + 48];

				snprintf(test, sizeof test, "%.*s P=%u%s", (int)base, s->test, depths[z],
					 strcmp(tail, "/s") == 0 ? "" : tail + 2);
				lat_name(L, s, test, l->name, sizeof l->name);
				for (size_t a = 0; a < ng; a++) {
					const struct series *o = in->series[grp[a]];
					const struct series_point *p = series_at(o, depths[z]);
					double y, lo, hi;

					if (p != NULL && lat_at(L, grp[a], depths[z], &y, &lo, &hi))
						lat_point(l, p->median, y, lo, hi, 0, lat_rate(o->test));
				}
			}
			free(depths);
			free(grp);
		}
	}
	free(done);
}

/* Latency against depth: one line per series. */
static void lat_lines_depth(struct latchart *S)
{
	struct chart_lay *L = S->L;

	for (size_t i = 0; i < L->in->nseries; i++) {
		const struct series *s = L->in->series[i];
		struct latline *l = lat_line(S);

		lat_name(L, s, L->test_names[L->test_of[i]], l->name, sizeof l->name);
		for (size_t k = 0; k < s->npts; k++) {
			double y, lo, hi;

			if (lat_at(L, i, s->pts[k].depth, &y, &lo, &hi))
				lat_point(l, s->pts[k].depth, y, lo, hi, 0, NAN);
		}
	}
}

/* The x of quantile q on the percentile chart: log10 of 1/(1-q). */
static double lat_nines(double q)
{
	return -log10(1 - q);
}

/* The percentile chart: each distribution from its smallest value to
 * the last quantile its count can tell (1 - 1/count). */
static void lat_lines_cdf(struct latchart *S)
{
	const struct chart_input *in = S->L->in;

	for (size_t d = 0; d < in->ndist; d++) {
		const struct hist *h = in->dist[d].h;
		struct latline *l = lat_line(S);
		double tmax;

		snprintf(l->name, sizeof l->name, "%s", in->dist[d].name);
		if (h->count < 2)
			continue;
		tmax = fmin(lat_nines(1 - 1.0 / (double)h->count), 6);
		for (double t = 0; t <= tmax + 1e-9; t += 0.02) {
			double q = 1 - pow(10, -t);

			lat_point(l, t, (double)hist_percentile(h, fmax(q * 100, 1e-9)) / 1e6, NAN, NAN,
				  0, NAN);
		}
	}
}

static double lat_ylog(const struct latchart *S, double ms)
{
	return chart_ymap(&S->ys, log10(ms));
}

static double lat_xmap(const struct latchart *S, double x)
{
	return chart_xmap(&S->xs, x);
}

/* "0.1", "1", "20": a latency tick in ms. */
static void lat_ms(double ms, char *buf, size_t size)
{
	snprintf(buf, size, "%g", ms);
}

/* The extent of every line (y with its intervals); 0, or -1 when nothing
 * has a figure. */
static int lat_extent(struct latchart *S)
{
	size_t npts = 0;

	S->xmin = S->ymin = INFINITY;
	S->xmax = S->ymax = -INFINITY;
	for (size_t i = 0; i < S->n; i++)
		for (size_t k = 0; k < S->v[i].n; k++) {
			const struct latline *l = &S->v[i];

			S->xmin = fmin(S->xmin, l->x[k]);
			S->xmax = fmax(S->xmax, l->x[k]);
			S->ymin = fmin(S->ymin, isfinite(l->lo[k]) ? fmin(l->lo[k], l->y[k]) : l->y[k]);
			S->ymax = fmax(S->ymax, isfinite(l->hi[k]) ? fmax(l->hi[k], l->y[k]) : l->y[k]);
			npts++;
		}
	/* The budget's line inside the scale. */
	if (npts > 0 && S->L->in->kind == CHART_LATENCY && S->L->in->lat_budget_ms > 0) {
		S->ymin = fmin(S->ymin, S->L->in->lat_budget_ms);
		S->ymax = fmax(S->ymax, S->L->in->lat_budget_ms);
	}
	return npts > 0 ? 0 : -1;
}

static int lat_cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* Titles, legend, footer, the scales and the plot area. */
static int lat_frame(struct latchart *S, struct rs_err *err)
{
	struct chart_lay *L = S->L;
	const struct chart_input *in = L->in;
	double f = L->f, y, lo, hi, yw = 0;
	const char *m = series_metric_name(in->lat_metric);
	char title[512], subtitle[512], buf[64];

	if (in->title && *in->title)
		snprintf(title, sizeof title, "%s", in->title);
	else if (in->kind == CHART_LATENCY)
		snprintf(title, sizeof title, "%s latency against throughput", m);
	else if (in->kind == CHART_LATENCY_DEPTH)
		snprintf(title, sizeof title, "%s latency against pipeline depth", m);
	else
		snprintf(title, sizeof title, "Latency percentiles");
	if (in->kind == CHART_LATENCY_CDF)
		snprintf(subtitle, sizeof subtitle, "Each point's repeats' histograms merged; "
			 "x: percentile, spaced as 1/(1" UTF8_EN_DASH "q)");
	else
		snprintf(subtitle, sizeof subtitle, "%s of each point's repeats' merged histograms "
			 "(median of the repeats' where there are none); whiskers: 95%% interval by "
			 "bootstrap over repeats", m);
	y = chart_titles(L, title, subtitle);
	/* The legend: a sample line and marker, then the name, in rows. */
	{
		double x = L->pad, ls = CHART_LABEL_SIZE * f, rowh = 1.6 * ls;

		for (size_t i = 0; i < S->n; i++) {
			double w = 26 * f + chart_tw(L, S->v[i].name, ls) + 18 * f;

			if (x + w > in->width - L->pad && x > L->pad) {
				x = L->pad;
				y += rowh;
			}
			chart_seg(L->c, x, y + 0.5 * ls, x + 22 * f, y + 0.5 * ls, 2 * f,
				  chart_palette(i % CHART_NPALETTE));
			chart_mark(L->c, x + 11 * f, y + 0.5 * ls, 7 * f, chart_marker(i / CHART_NPALETTE),
				   chart_palette(i % CHART_NPALETTE), C_WHITE, 1 * f, -1);
			chart_text(L, ROLE_LEGEND, (int)i, x + 26 * f, y + 0.5 * ls + CHART_MID_BASELINE * ls,
				   S->v[i].name, ls, C_TEXT, RENDER_LEFT, 0);
			x += w;
		}
		y += rowh;
	}
	S->top = y + 0.6 * S->ticks_s;
	S->bottom = chart_footer_block(L, CHART_FOOTER_SIZE * f) - 10 * f -
		    (RENDER_ASCENT + RENDER_DESCENT) * (S->ticks_s + S->axis_s) - 14 * f;
	/* y: whole decades around the data, log10 of ms. */
	lo = floor(log10(S->ymin) + 1e-9);
	hi = ceil(log10(S->ymax) - 1e-9);
	if (hi <= lo)
		hi = lo + 1;
	S->ys = (struct chart_yscale){ lo, hi, S->top, S->bottom };
	for (double e = lo; e <= hi + 1e-9; e++) {
		lat_ms(pow(10, e), buf, sizeof buf);
		yw = fmax(yw, chart_tw(L, buf, S->ticks_s));
	}
	S->left = L->pad + (RENDER_ASCENT + RENDER_DESCENT) * S->axis_s + 10 * f + yw +
		  CHART_TICK_GAP * f;
	S->right = in->width - L->pad - 10 * f;
	if (S->bottom - S->top < 60 * f || S->right - S->left < 100 * f)
		return rs_err_set(err, "chart of %.0fx%.0f is too small for %zu lines", in->width,
				  in->height, S->n);
	L->c->plot = (struct chart_box){ S->left, S->top, S->right, S->bottom };
	/* x: throughput from 0, depth (log2 as a line chart's, depths_log_axis),
	 * or nines. */
	if (in->kind == CHART_LATENCY) {
		if (chart_ticks_nice(0, S->xmax * 1.05, 8, &S->xt) < 0)
			return rs_err_set(err, "cannot scale the throughput axis (%g)", S->xmax);
		S->xs = (struct chart_xscale){ 0, S->xt.v[S->xt.n - 1], S->left, S->right, 0 };
	} else if (in->kind == CHART_LATENCY_DEPTH) {
		unsigned d0 = (unsigned)S->xmin, d1 = (unsigned)S->xmax, *d = NULL;
		size_t nd = 0, u = 0;
		int logx;

		for (size_t i = 0; i < S->n; i++) {
			d = xreallocarray(d, nd + S->v[i].n + 1, sizeof *d);
			for (size_t k = 0; k < S->v[i].n; k++)
				d[nd++] = (unsigned)S->v[i].x[k];
		}
		qsort(d, nd, sizeof *d, lat_cmp_uint);
		for (size_t k = 0; k < nd; k++)
			if (u == 0 || d[u - 1] != d[k])
				d[u++] = d[k];
		logx = in->log_x || depths_log_axis(d, u);
		free(d);
		S->xdepth = 1;
		chart_ticks_depth(d0, d1, 10, logx, &S->xt);
		S->xs = (struct chart_xscale){ d0, d1, S->left, S->right, logx };
	} else {
		double tmax = fmax(ceil(S->xmax - 1e-9), 1);

		S->xt.n = 0;
		S->xt.v[S->xt.n++] = 0;
		S->xt.v[S->xt.n++] = log10(2);
		for (double t = 1; t <= tmax + 1e-9 && S->xt.n < CHART_MAX_TICKS; t++)
			S->xt.v[S->xt.n++] = t;
		S->xs = (struct chart_xscale){ 0, tmax, S->left, S->right, 0 };
	}
	return 0;
}

/* The grid, the axes, their ticks and titles. */
static void lat_axes(struct latchart *S)
{
	struct chart_lay *L = S->L;
	const struct chart_input *in = L->in;
	double f = L->f;
	double span = S->ys.v1 - S->ys.v0;
	char buf[64];

	for (double e = S->ys.v0; e <= S->ys.v1 + 1e-9; e++) {
		/* Decades, and 2 and 5 between them on a short axis. */
		for (int m = 1; m <= 5; m += m == 1 ? 1 : 3) {
			double v = e + log10(m), yp;

			if (v > S->ys.v1 + 1e-9 || (m > 1 && span > 2))
				continue;
			yp = chart_ymap(&S->ys, v);
			chart_seg(L->c, S->left, yp, S->right, yp, CHART_GRID_WIDTH * f,
				  m == 1 ? C_GRID : C_GRID_X);
			chart_seg(L->c, S->left - CHART_TICK_LEN * f, yp, S->left, yp, CHART_AXIS_WIDTH * f,
				  C_AXIS);
			lat_ms(pow(10, v), buf, sizeof buf);
			chart_text(L, ROLE_TICK, -1, S->left - CHART_TICK_GAP * f,
				   yp + CHART_MID_BASELINE * S->ticks_s, buf, S->ticks_s, C_TEXT,
				   RENDER_RIGHT, 0);
		}
	}
	for (size_t i = 0; i < S->xt.n; i++) {
		double xp = lat_xmap(S, S->xt.v[i]);

		if (xp < S->left - 1e-6 || xp > S->right + 1e-6)
			continue;
		chart_seg(L->c, xp, S->top, xp, S->bottom, CHART_GRID_WIDTH * f, C_GRID_X);
		chart_seg(L->c, xp, S->bottom, xp, S->bottom + CHART_TICK_LEN * f, CHART_AXIS_WIDTH * f,
			  C_AXIS);
		if (in->kind == CHART_LATENCY)
			chart_si(S->xt.v[i], S->xt.step, buf, sizeof buf);
		else if (S->xdepth)
			snprintf(buf, sizeof buf, "%.0f", S->xt.v[i]);
		else
			snprintf(buf, sizeof buf, "%g%%", 100 * (1 - pow(10, -S->xt.v[i])));
		chart_text(L, ROLE_TICK, -1, xp, S->bottom + CHART_TICK_GAP * f + RENDER_ASCENT * S->ticks_s,
			   buf, S->ticks_s, C_TEXT, RENDER_CENTER, 0);
	}
	chart_seg(L->c, S->left, S->bottom, S->right, S->bottom, CHART_AXIS_WIDTH * f, C_AXIS);
	chart_seg(L->c, S->left, S->top, S->left, S->bottom, CHART_AXIS_WIDTH * f, C_AXIS);
	snprintf(buf, sizeof buf, "%s latency (ms, log scale)",
		 in->kind == CHART_LATENCY_CDF ? "request" : series_metric_name(in->lat_metric));
	chart_text(L, ROLE_AXIS_TITLE, -1, L->pad + RENDER_ASCENT * S->axis_s, (S->top + S->bottom) / 2,
		   buf, S->axis_s, C_TEXT, RENDER_CENTER, 1);
	chart_text(L, ROLE_AXIS_TITLE, -1, (S->left + S->right) / 2,
		   S->bottom + CHART_TICK_GAP * f + (RENDER_ASCENT + RENDER_DESCENT) * S->ticks_s +
		   RENDER_ASCENT * S->axis_s + 4 * f,
		   in->kind == CHART_LATENCY ? "achieved requests per second" :
		   in->kind != CHART_LATENCY_DEPTH ? "percentile" :
		   S->xs.log ? "pipeline depth (log scale)" : "pipeline depth",
		   S->axis_s, C_TEXT, RENDER_CENTER, 0);
}

/* "50k/s", "12.5k/s", "1.2M/s", "800/s": an offered rate, three digits
 * at most. */
static void lat_rate_text(double rate, char *buf, size_t size)
{
	const char *si = rate >= 1e6 * (1 - 5e-4) ? "M" : rate >= 1e3 * (1 - 5e-4) ? "k" : "";
	double v = rate / (si[0] == 'M' ? 1e6 : si[0] == 'k' ? 1e3 : 1);
	int n = num_fmt_g(buf, size, v, 3);

	if (n >= 0 && (size_t)n + strlen(si) + 3 < size)
		snprintf(buf + n, size - (size_t)n, "%s/s", si);
}

/* A latency objective's budget (run --slo's) across the plot, named at
 * its right end, under the data. */
static void lat_budget(struct latchart *S)
{
	struct chart_lay *L = S->L;
	const struct chart_input *in = L->in;
	double f = L->f, y;
	struct chart_item *it;
	char buf[96];

	if (in->kind != CHART_LATENCY || !(in->lat_budget_ms > 0))
		return;
	y = lat_ylog(S, in->lat_budget_ms);
	chart_line(L->c, (double[]){ S->left, y, S->right, y }, 2, 1.6 * f, C_TEXT, RENDER_DASHED, -1);
	L->c->items[L->c->n - 1].role = ROLE_BUDGET;
	snprintf(buf, sizeof buf, "budget %s", in->lat_budget_text ? in->lat_budget_text : "");
	it = chart_text(L, ROLE_BUDGET, -1, S->right - 4 * f, y - 4 * f, buf, S->note_s, C_TEXT,
			RENDER_RIGHT, 0);
	chart_take(L, it->box);
}

/* Each line, its markers and whiskers, and on the hockey stick each
 * point's depth (or offered rate) where it fits. */
static void lat_data(struct latchart *S)
{
	struct chart_lay *L = S->L;
	double f = L->f;
	int cdf = L->in->kind == CHART_LATENCY_CDF;

	for (size_t i = 0; i < S->n; i++) {
		const struct latline *l = &S->v[i];
		struct render_color col = chart_palette(i % CHART_NPALETTE);
		double *xy = xcalloc(2 * (l->n ? l->n : 1), sizeof *xy);

		for (size_t k = 0; k < l->n; k++) {
			xy[2 * k] = lat_xmap(S, l->x[k]);
			xy[2 * k + 1] = lat_ylog(S, l->y[k]);
		}
		if (l->n > 1)
			chart_line(L->c, xy, l->n, 2.2 * f, col, RENDER_SOLID, (int)i);
		for (size_t k = 0; k < l->n && !cdf; k++) {
			if (isfinite(l->lo[k]) && isfinite(l->hi[k]) && l->hi[k] > l->lo[k]) {
				double y0 = lat_ylog(S, l->lo[k]), y1 = lat_ylog(S, l->hi[k]);

				chart_seg(L->c, xy[2 * k], y0, xy[2 * k], y1, 1.2 * f, col);
				L->c->items[L->c->n - 1].role = ROLE_WHISKER;
			}
			chart_mark(L->c, xy[2 * k], xy[2 * k + 1], 7 * f,
				   chart_marker(i / CHART_NPALETTE), col, C_WHITE, 1 * f, (int)i);
		}
		free(xy);
	}
	/* Each point's depth ("P=16"), or on the open loop's lines through
	 * the rates its offered rate ("50k/s"), in its line's colour, after
	 * every mark and line, so that they avoid them. */
	for (size_t i = 0; i < S->n && L->in->kind == CHART_LATENCY; i++) {
		const struct latline *l = &S->v[i];
		struct chart_box inner = { S->left, S->top, S->right, S->bottom };

		for (size_t k = 0; k < l->n; k++) {
			char buf[32];

			if (l->depth[k] != 0) {
				snprintf(buf, sizeof buf, "P=%u", l->depth[k]);
			} else if (isfinite(l->rate[k])) {
				lat_rate_text(l->rate[k], buf, sizeof buf);
			} else {
				continue;
			}
			chart_note(L, &inner, ROLE_SATURATION, i, i % CHART_NPALETTE, lat_xmap(S, l->x[k]),
				   lat_ylog(S, l->y[k]), 3.5 * f, buf, S->note_s);
		}
	}
}

int chart_lay_latency(struct chart_lay *L, struct rs_err *err)
{
	struct latchart S = { 0 };
	int rc = -1;

	S.L = L;
	S.ticks_s = CHART_TICK_SIZE * L->f;
	S.axis_s = CHART_AXIS_SIZE * L->f;
	S.note_s = CHART_NOTE_SIZE * L->f;
	if (L->in->kind == CHART_LATENCY)
		lat_lines_throughput(&S);
	else if (L->in->kind == CHART_LATENCY_DEPTH)
		lat_lines_depth(&S);
	else
		lat_lines_cdf(&S);
	if (S.n > LAT_MAX_LINES) {
		rs_err_set(err, "%zu lines in one latency chart, more than %d: choose tests with "
			   "--tests or depths with --depths", S.n, LAT_MAX_LINES);
		goto out;
	}
	if (lat_extent(&S) < 0) {
		rs_err_set(err, "no %s figures to draw", L->in->kind == CHART_LATENCY_CDF ?
			   "latency histogram" : series_metric_name(L->in->lat_metric));
		goto out;
	}
	if (lat_frame(&S, err) < 0)
		goto out;
	lat_axes(&S);
	lat_budget(&S);
	lat_data(&S);
	rc = 0;
out:
	lat_free(&S);
	return rc;
}
