/* chart.c: the chart model: scales, ticks, legend, marks and label placement, in points. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "chart.h"
#include "depths.h"
#include "num.h"
#include "xalloc.h"

/* Okabe-Ito without the yellow, which vanishes on white as a line. */
static const struct render_color chart_pal[] = {
	{ 0x00, 0x72, 0xB2, 255 }, { 0xE6, 0x9F, 0x00, 255 }, { 0x00, 0x9E, 0x73, 255 },
	{ 0xD5, 0x5E, 0x00, 255 }, { 0x56, 0xB4, 0xE9, 255 }, { 0xCC, 0x79, 0xA7, 255 },
	{ 0x00, 0x00, 0x00, 255 },
};
#define CHART_NPAL (sizeof chart_pal / sizeof chart_pal[0])

static const struct render_color C_WHITE = { 255, 255, 255, 255 };
static const struct render_color C_TEXT = { 0x22, 0x22, 0x22, 255 };
static const struct render_color C_MUTED = { 0x66, 0x66, 0x66, 255 };
static const struct render_color C_AXIS = { 0x55, 0x55, 0x55, 255 };
static const struct render_color C_GRID = { 0xE3, 0xE3, 0xE3, 255 };
static const struct render_color C_GRID_X = { 0xF0, 0xF0, 0xF0, 255 };

#define UTF8_TIMES "\xc3\x97"
#define UTF8_DIVIDE "\xc3\xb7"
#define UTF8_DOT "\xc2\xb7"
#define UTF8_EN_DASH "\xe2\x80\x93"
#define UTF8_EM_DASH "\xe2\x80\x94"

struct render_color chart_palette(size_t i)
{
	return chart_pal[i % CHART_NPAL];
}

enum render_marker chart_marker(size_t i)
{
	/* Shapes shift by one each time the colours wrap, so (colour, shape)
	 * pairs stay distinct for CHART_NPAL * RENDER_NMARKERS tests. */
	return (enum render_marker)((i + i / CHART_NPAL) % RENDER_NMARKERS);
}

/* ---- ticks and labels ---- */

int chart_ticks_nice(double lo, double hi, unsigned max_ticks, struct chart_ticks *t)
{
	static const double mult[] = { 1, 2, 5 };
	/* Narrower spans would need steps near the subnormal range, where a
	 * power of ten underflows (to 0 below 1e-323) and multiples of a step
	 * are no longer exact: such a range is flat for an axis. */
	const double min_span = 1e-290;
	double span, mag, size;

	memset(t, 0, sizeof *t);
	if (!isfinite(lo) || !isfinite(hi) || hi < lo)
		return -1;
	if (max_ticks < 2)
		max_ticks = 2;
	if (max_ticks > CHART_MAX_TICKS)
		max_ticks = CHART_MAX_TICKS;
	size = fmax(fabs(lo), fabs(hi));
	if (hi - lo <= size * 1e-12 || hi - lo < min_span)
		hi = lo + (fabs(lo) < min_span ? 1 : fabs(lo) * 0.1);
	span = hi - lo;
	if (!isfinite(span))
		return -1;
	mag = pow(10, floor(log10(span / (max_ticks - 1))));
	for (int e = 0; e < 4; e++, mag *= 10)
		for (size_t k = 0; k < 3; k++) {
			double step = mult[k] * mag;
			double a = floor(lo / step + 1e-9), b = ceil(hi / step - 1e-9);
			size_t n;

			/* Written so that NaN fails: a step that overflowed leaves
			 * 0/inf ends, and the count is what bounds the loop. */
			if (!(step > 0 && isfinite(a * step) && isfinite(b * step) &&
			      b - a + 1 >= 2 && b - a + 1 <= max_ticks))
				continue;
			n = (size_t)(b - a + 1);
			t->step = step;
			for (size_t i = 0; i < n; i++) {
				double v = (a + (double)i) * step;

				t->v[t->n++] = v == 0 ? 0 : v; /* no -0 */
			}
			return 0;
		}
	return -1;
}

void chart_ticks_depth(unsigned lo, unsigned hi, unsigned max_ticks, int log2,
		       struct chart_ticks *t)
{
	memset(t, 0, sizeof *t);
	if (max_ticks < 2)
		max_ticks = 2;
	if (max_ticks > CHART_MAX_TICKS)
		max_ticks = CHART_MAX_TICKS;
	if (log2) {
		for (unsigned every = 1; every < 32; every++) {
			t->n = 0;
			for (unsigned e = 0; e < 32; e += every) {
				double p = ldexp(1, (int)e);

				if (p >= lo && p <= hi && t->n < CHART_MAX_TICKS)
					t->v[t->n++] = p;
			}
			if (t->n <= max_ticks) {
				t->step = every;
				return;
			}
		}
		return;
	}
	/* Steps up to 5e9: any range of unsigned depths gets its ticks. */
	for (double mag = 1; mag < 1e10; mag *= 10)
		for (int k = 0; k < 3; k++) {
			double step = (k == 0 ? 1 : k == 1 ? 2 : 5) * mag;
			double first = ceil(lo / step) * step;
			/* Counted, not stepped through: stepping by 1 to a depth
			 * of 4294967295 took ten seconds an axis. */
			size_t n = first <= hi ? (size_t)floor((hi - first) / step) + 1 : 0;

			if (first - lo >= step / 2)
				n++;
			if (n > max_ticks || n > CHART_MAX_TICKS)
				continue;
			t->step = step;
			if (first - lo >= step / 2)
				t->v[t->n++] = lo;
			for (double v = first; v <= hi; v += step)
				t->v[t->n++] = v;
			return;
		}
}

void chart_si(double v, double step, char *buf, size_t size)
{
	static const struct { double f; const char *s; } si[] = {
		{ 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" }, { 1, "" },
	};
	double a = fabs(v), sstep;
	size_t i = 0;
	int d = 0, n;

	if (size == 0)
		return;
	if (v == 0 || !isfinite(v)) {
		snprintf(buf, size, "%s", v == 0 ? "0" : "?");
		return;
	}
	while (i + 1 < sizeof si / sizeof si[0] && a < si[i].f * (1 - 1e-9))
		i++;
	sstep = step > 0 ? step / si[i].f : 1;
	/* Enough decimals that every multiple of the step reads exactly. */
	while (d < 6 && fabs(sstep * pow(10, d) - round(sstep * pow(10, d))) > 1e-6 * pow(10, d))
		d++;
	n = num_fmt(buf, size, v / si[i].f, d);
	if (n >= 0 && (size_t)n + strlen(si[i].s) < size)
		strcat(buf, si[i].s);
}

/* ---- the display list ---- */

static struct chart_item *chart_push(struct chart *c, enum chart_op op)
{
	struct chart_item *it;

	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 256;
		c->items = xreallocarray(c->items, c->cap, sizeof *c->items);
	}
	it = &c->items[c->n++];
	memset(it, 0, sizeof *it);
	it->op = op;
	it->series = -1;
	return it;
}

static void chart_rect(struct chart *c, double x, double y, double w, double h,
		       struct render_color col)
{
	struct chart_item *it = chart_push(c, CHART_RECT);

	it->x = x;
	it->y = y;
	it->w = w;
	it->h = h;
	it->color = col;
}

static void chart_line(struct chart *c, const double *xy, size_t n, double width,
		       struct render_color col, enum render_dash dash, int series)
{
	struct chart_item *it = chart_push(c, CHART_LINE);

	it->v = xmalloc(2 * n * sizeof *it->v);
	memcpy(it->v, xy, 2 * n * sizeof *it->v);
	it->n = n;
	it->width = width;
	it->color = col;
	it->dash = dash;
	it->series = series;
}

static void chart_seg(struct chart *c, double x0, double y0, double x1, double y1, double width,
		      struct render_color col)
{
	double xy[4] = { x0, y0, x1, y1 };

	chart_line(c, xy, 2, width, col, RENDER_SOLID, -1);
}

static void chart_mark(struct chart *c, double x, double y, double size, enum render_marker m,
		       struct render_color fill, struct render_color outline, double ow, int series)
{
	struct chart_item *it = chart_push(c, CHART_MARKER);

	it->x = x;
	it->y = y;
	it->w = size;
	it->marker = m;
	it->color = fill;
	it->outline = outline;
	it->width = ow;
	it->series = series;
}

/* The box text of width w at (x, y) would cover. */
static struct chart_box chart_text_box(double x, double y, double w, double size,
				       enum render_align align, int vertical)
{
	struct chart_box b;
	double off = align == RENDER_LEFT ? 0 : align == RENDER_CENTER ? w / 2 : w;

	if (vertical) {
		b.x0 = x - RENDER_ASCENT * size;
		b.x1 = x + RENDER_DESCENT * size;
		b.y1 = y + off;
		b.y0 = b.y1 - w;
	} else {
		b.x0 = x - off;
		b.x1 = b.x0 + w;
		b.y0 = y - RENDER_ASCENT * size;
		b.y1 = y + RENDER_DESCENT * size;
	}
	return b;
}

static int chart_overlap(const struct chart_box *a, const struct chart_box *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

static int chart_inside(const struct chart_box *in, const struct chart_box *b)
{
	return b->x0 >= in->x0 && b->x1 <= in->x1 && b->y0 >= in->y0 && b->y1 <= in->y1;
}

/* Whether segment (x0, y0)-(x1, y1) passes through box b (Liang-Barsky:
 * clip the segment's parameter range to each side in turn). */
static int chart_seg_in_box(double x0, double y0, double x1, double y1, const struct chart_box *b)
{
	double p[4] = { x0 - x1, x1 - x0, y0 - y1, y1 - y0 };
	double q[4] = { x0 - b->x0, b->x1 - x0, y0 - b->y0, b->y1 - y0 };
	double t0 = 0, t1 = 1;

	for (int i = 0; i < 4; i++) {
		double t;

		if (p[i] == 0) {
			if (q[i] < 0)
				return 0; /* parallel to this side, and outside it */
			continue;
		}
		t = q[i] / p[i];
		if (p[i] < 0 && t > t0)
			t0 = t;
		else if (p[i] > 0 && t < t1)
			t1 = t;
		if (t0 > t1)
			return 0;
	}
	return 1;
}

/* A series' line, as lay_on_lines() looks it up. */
struct lay_line {
	size_t item;              /* index into the chart's items */
	int sorted;               /* x never decreases along it */
};

/* The layout's working state. */
struct lay {
	const struct chart_input *in;
	const struct render_ops *ops;
	void *ctx;
	struct chart *c;
	double f;                 /* font scale */
	double pad;
	struct chart_box *taken;  /* boxes later labels must avoid */
	size_t ntaken, captaken;
	size_t *test_of, *label_of; /* per series: colour and dash index */
	const struct analysis_series **an_of; /* per series: its figures in
				   * in->an, NULL when it has none */
	const char **tests, **labels;
	size_t ntests, nlabels;
	struct lay_line *lines;   /* lay_on_lines(): the series' lines so far */
	size_t nlines, caplines;
	size_t lines_seen;        /* items it has looked at */
};

/* 0 when every series has its figures in in->an, else -1 with err naming
 * the first one without (a caller that did not analyse what it draws). */
static int lay_need_an(const struct lay *L, struct rs_err *err)
{
	for (size_t i = 0; i < L->in->nseries; i++)
		if (L->an_of[i] == NULL)
			return rs_err_set(err, "series %s %s was not analysed: no intervals to draw",
					  L->in->series[i]->label, L->in->series[i]->test);
	return 0;
}

/* The 95% interval of the median at point p of series i, or 0 when it is
 * unknown (the core refused the series, or its noise is unknown). */
static int lay_median_ci(const struct lay *L, size_t i, size_t p, double *lo, double *hi)
{
	const struct analysis_knee *k = &L->an_of[i]->knee;

	if (!k->ok || p >= k->res.m || !isfinite(k->res.pts[p].median.lo) ||
	    !isfinite(k->res.pts[p].median.hi))
		return 0;
	*lo = k->res.pts[p].median.lo;
	*hi = k->res.pts[p].median.hi;
	return 1;
}

static double lay_tw(struct lay *L, const char *s, double size)
{
	return L->ops->text_width(L->ctx, s, size);
}

static void lay_take(struct lay *L, struct chart_box b)
{
	if (L->ntaken == L->captaken) {
		L->captaken = L->captaken ? 2 * L->captaken : 64;
		L->taken = xreallocarray(L->taken, L->captaken, sizeof *L->taken);
	}
	L->taken[L->ntaken++] = b;
}

static int lay_free_box(const struct lay *L, const struct chart_box *b)
{
	for (size_t i = 0; i < L->ntaken; i++)
		if (chart_overlap(&L->taken[i], b))
			return 0;
	return 1;
}

/* Whether box b lies across a series' line drawn so far.  Every label
 * tries many places, and a chart has an item per marker: the lines are
 * picked out of the items once, and along a line whose x only grows only
 * the segments from the box's left edge to its right are tried. */
static int lay_on_lines(struct lay *L, const struct chart_box *b)
{
	for (; L->lines_seen < L->c->n; L->lines_seen++) {
		const struct chart_item *it = &L->c->items[L->lines_seen];
		struct lay_line *l;

		if (it->op != CHART_LINE || it->series < 0)
			continue;
		if (L->nlines == L->caplines) {
			L->caplines = L->caplines ? 2 * L->caplines : 64;
			L->lines = xreallocarray(L->lines, L->caplines, sizeof *L->lines);
		}
		l = &L->lines[L->nlines++];
		l->item = L->lines_seen;
		l->sorted = 1;
		for (size_t k = 0; k + 1 < it->n; k++)
			l->sorted &= it->v[2 * k] <= it->v[2 * k + 2];
	}
	for (size_t j = 0; j < L->nlines; j++) {
		const struct chart_item *it = &L->c->items[L->lines[j].item];
		size_t k = 0;

		if (L->lines[j].sorted && it->n > 1) {
			size_t lo = 0, hi = it->n;

			/* The first vertex at or right of the box's left edge: the
			 * segment before it is the first that can reach the box. */
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;

				if (it->v[2 * mid] < b->x0)
					lo = mid + 1;
				else
					hi = mid;
			}
			k = lo > 0 ? lo - 1 : 0;
		}
		for (; k + 1 < it->n; k++) {
			if (L->lines[j].sorted && it->v[2 * k] > b->x1)
				break;
			if (chart_seg_in_box(it->v[2 * k], it->v[2 * k + 1], it->v[2 * k + 2],
					     it->v[2 * k + 3], b))
				return 1;
		}
	}
	return 0;
}

static struct chart_item *lay_text(struct lay *L, enum chart_role role, int series, double x,
				   double y, const char *s, double size, struct render_color col,
				   enum render_align align, int vertical)
{
	struct chart_item *it = chart_push(L->c, CHART_TEXT);

	it->role = role;
	it->series = series;
	it->x = x;
	it->y = y;
	it->text = xstrdup(s);
	it->size = size;
	it->color = col;
	it->align = align;
	it->vertical = vertical;
	it->box = chart_text_box(x, y, lay_tw(L, s, size), size, align, vertical);
	return it;
}

/* Index of name in list (appending it if new). */
static size_t lay_intern(const char ***list, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*list)[i], name) == 0)
			return i;
	*list = xreallocarray(*list, *n + 1, sizeof **list);
	(*list)[*n] = name;
	return (*n)++;
}

/* Split text at " · " separators into lines no wider than maxw; returns
 * the number of lines (at most max) written into lines[] (owned). */
static size_t lay_wrap(struct lay *L, const char *text, double size, double maxw, char **lines,
		       size_t max)
{
	const char *sep = " " UTF8_DOT " ";
	size_t nl = 0;
	char *cur = NULL;
	const char *p = text;

	while (*p && nl < max) {
		const char *q = strstr(p, sep);
		size_t len = q ? (size_t)(q - p) : strlen(p);
		char *piece = xmalloc(len + 1), *joined;

		memcpy(piece, p, len);
		piece[len] = '\0';
		if (cur == NULL) {
			cur = piece;
		} else {
			joined = xmalloc(strlen(cur) + strlen(sep) + len + 1);
			sprintf(joined, "%s%s%s", cur, sep, piece);
			if (lay_tw(L, joined, size) <= maxw) {
				free(cur);
				cur = joined;
				free(piece);
			} else {
				free(joined);
				lines[nl++] = cur;
				cur = piece;
			}
		}
		p = q ? q + strlen(sep) : p + len;
	}
	if (cur != NULL) {
		if (nl < max)
			lines[nl++] = cur;
		else
			free(cur);
	}
	return nl;
}

/* "m1: redis 6.2.6 · 50 clients · ..." for each label, from the first row of
 * its first series. */
static char *lay_footer(struct lay *L)
{
	size_t cap = 256, len = 0;
	char *out = xmalloc(cap);

	out[0] = '\0';
	for (size_t l = 0; l < L->nlabels; l++) {
		const struct rs_rec *r = NULL;
		char part[1024];
		size_t n = 0;

		for (size_t i = 0; i < L->in->nseries && r == NULL; i++)
			if (L->label_of[i] == l)
				r = L->in->series[i]->first;
		if (r == NULL)
			continue;
		n += (size_t)snprintf(part + n, sizeof part - n, "%s%s", l ? "\n" : "", r->label);
#define FOOT(...) do { if (n < sizeof part) \
	n += (size_t)snprintf(part + n, sizeof part - n, __VA_ARGS__); } while (0)
		FOOT(":");
		if (r->server->redis_version[0])
			FOOT(" redis %s " UTF8_DOT, r->server->redis_version);
		if (r->clients >= 0)
			FOOT(" %lld clients " UTF8_DOT, (long long)r->clients);
		if (r->requests >= 0)
			FOOT(" %lld requests per point " UTF8_DOT, (long long)r->requests);
		if (r->data_size >= 0)
			FOOT(" %lld-byte values " UTF8_DOT, (long long)r->data_size);
		if (r->threads > 1)
			FOOT(" %lld threads " UTF8_DOT, (long long)r->threads);
		if (r->server->server_arch[0])
			FOOT(" %s " UTF8_DOT, r->server->server_arch);
		if (r->server->target[0])
			FOOT(" %s " UTF8_DOT, r->server->target);
#undef FOOT
		if (n >= sizeof part)
			n = sizeof part - 1;
		/* Drop the trailing " ·" (or the lone ':' when nothing is known). */
		if (n >= strlen(" " UTF8_DOT) && strcmp(part + n - strlen(" " UTF8_DOT), " " UTF8_DOT) == 0)
			n -= strlen(" " UTF8_DOT);
		else if (n > 0 && part[n - 1] == ':')
			n = 0;
		part[n] = '\0';
		if (len + n + 1 > cap) {
			cap = 2 * (len + n + 1);
			out = xrealloc(out, cap);
		}
		memcpy(out + len, part, n + 1);
		len += n;
	}
	return out;
}

/* Footer lines at the bottom; returns the top of the block. */
static double lay_footer_block(struct lay *L, double fs)
{
	char *footer = lay_footer(L), *save = NULL;
	char *lines[8];
	size_t nl = 0;
	double maxw = L->in->width - 2 * L->pad;
	double y;

	for (char *p = strtok_r(footer, "\n", &save); p && nl < 6;
	     p = strtok_r(NULL, "\n", &save))
		nl += lay_wrap(L, p, fs, maxw, lines + nl, 6 - nl);
	y = L->in->height - L->pad - (double)nl * 1.35 * fs;
	for (size_t i = 0; i < nl; i++) {
		lay_text(L, ROLE_FOOTER, -1, L->pad, y + (double)(i + 1) * 1.35 * fs - RENDER_DESCENT * fs,
			 lines[i], fs, C_MUTED, RENDER_LEFT, 0);
		free(lines[i]);
	}
	free(footer);
	return y;
}

/* Title and subtitle from the top; returns the y below them. */
static double lay_titles(struct lay *L, const char *title, const char *subtitle)
{
	double ts = 19 * L->f, ss = 11.5 * L->f, y = L->pad;

	lay_text(L, ROLE_TITLE, -1, L->pad, y + RENDER_ASCENT * ts, title, ts, C_TEXT, RENDER_LEFT, 0);
	y += (RENDER_ASCENT + RENDER_DESCENT) * ts + 5 * L->f;
	if (subtitle && *subtitle) {
		lay_text(L, ROLE_SUBTITLE, -1, L->pad, y + RENDER_ASCENT * ss, subtitle, ss, C_MUTED,
			 RENDER_LEFT, 0);
		y += (RENDER_ASCENT + RENDER_DESCENT) * ss;
	}
	return y + 10 * L->f;
}

/* ---- line charts ---- */

struct xscale {
	double d0, d1, p0, p1;
	int log;
};

static double xmap(const struct xscale *s, double d)
{
	double t;

	if (s->d1 == s->d0)
		return (s->p0 + s->p1) / 2;
	t = s->log ? (log2(d) - log2(s->d0)) / (log2(s->d1) - log2(s->d0)) :
		     (d - s->d0) / (s->d1 - s->d0);
	return s->p0 + t * (s->p1 - s->p0);
}

struct yscale {
	double v0, v1, p0, p1;    /* p0 top, p1 bottom */
};

static double ymap(const struct yscale *s, double v)
{
	return s->p1 - (v - s->v0) / (s->v1 - s->v0) * (s->p1 - s->p0);
}

/* One legend entry: a sample (line and marker), then its name. */
struct legend_entry {
	const char *name;
	int kind;                 /* 0 test, 1 label (line style), 2 saturation ring */
	size_t idx;
};

/* Lay the legend out in rows from y, wrapping within the chart's width;
 * returns the y below it. */
static double lay_legend(struct lay *L, double y, int rings)
{
	double ls = 12 * L->f, sw = 26 * L->f, gap = 6 * L->f, space = 20 * L->f;
	double rowh = 19 * L->f, x = L->pad, maxx = L->in->width - L->pad;
	struct legend_entry e[256];
	size_t ne = 0;
	int rows = 1;

	for (size_t t = 0; t < L->ntests && ne < 200; t++)
		e[ne++] = (struct legend_entry){ L->tests[t], 0, t };
	for (size_t l = 0; L->nlabels > 1 && l < L->nlabels && ne < 250; l++)
		e[ne++] = (struct legend_entry){ L->labels[l], 1, l };
	if (rings)
		e[ne++] = (struct legend_entry){ NULL, 2, 0 };
	for (size_t i = 0; i < ne; i++) {
		char ring[64];
		const char *name = e[i].name;
		double w, cy;

		if (e[i].kind == 2) {
			snprintf(ring, sizeof ring, "saturation: first depth at %.0f%% of the fitted peak",
				 100 * L->in->knee);
			name = ring;
		}
		w = sw + gap + lay_tw(L, name, ls);
		if (x > L->pad && x + w > maxx) {
			x = L->pad;
			rows++;
		}
		cy = y + (rows - 0.5) * rowh;
		if (e[i].kind == 0) {
			struct render_color col = chart_palette(e[i].idx);

			chart_seg(L->c, x, cy, x + sw, cy, 2 * L->f, col);
			chart_mark(L->c, x + sw / 2, cy, 7 * L->f, chart_marker(e[i].idx), col, C_WHITE,
				   L->f, -1);
		} else if (e[i].kind == 1) {
			double xy[4] = { x, cy, x + sw, cy };

			chart_line(L->c, xy, 2, 2 * L->f, C_AXIS, (enum render_dash)(e[i].idx % 4), -1);
		} else {
			struct render_color none = { 0, 0, 0, 0 };

			chart_mark(L->c, x + sw / 2, cy, 12 * L->f, RENDER_CIRCLE, none, C_AXIS,
				   2 * L->f, -1);
		}
		lay_text(L, ROLE_LEGEND, -1, x + sw + gap, cy + 0.27 * ls, name, ls,
			 e[i].kind == 1 ? C_TEXT : C_TEXT, RENDER_LEFT, 0);
		x += w + space;
	}
	return y + rows * rowh + 6 * L->f;
}

/* Spread end labels (sorted by wanted centre y) at least h apart inside
 * [top, bottom]; returns -1 if they do not fit. */
static int lay_spread(double *y, size_t n, double h, double top, double bottom)
{
	if ((double)n * h > bottom - top)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (y[i] < top + h / 2)
			y[i] = top + h / 2;
		if (i > 0 && y[i] < y[i - 1] + h)
			y[i] = y[i - 1] + h;
	}
	if (n > 0 && y[n - 1] > bottom - h / 2) {
		y[n - 1] = bottom - h / 2;
		for (size_t i = n - 1; i-- > 0;)
			if (y[i] > y[i + 1] - h)
				y[i] = y[i + 1] - h;
	}
	return 0;
}

struct endlab {
	size_t series;
	double want, y;
	char text[2 * ROW_STR + 8];
};

static int cmp_endlab(const void *a, const void *b)
{
	const struct endlab *x = a, *y = b;

	if (x->want != y->want)
		return x->want < y->want ? -1 : 1;
	return (x->series > y->series) - (x->series < y->series);
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* Place text (role, series i's colour) next to the point (cx, cy), whose
 * mark has radius rr: the first of 24 places, next to the mark then
 * further out with a leader, that is inside inner, clear of the labels
 * placed so far and off every series' line; else next to the mark on a
 * line, over a white halo; else nowhere.  Returns 1 when placed. */
static int lay_note(struct lay *L, const struct chart_box *inner, enum chart_role role, size_t i,
		    double cx, double cy, double rr, const char *text, double size)
{
	struct chart *c = L->c;
	double f = L->f, w = lay_tw(L, text, size), h = (RENDER_ASCENT + RENDER_DESCENT) * size;
	double d0 = rr + 2 * f, cand[24][2];

	/* Top-left corners: above, above-left, below-right, above-right,
	 * below, below-left, left, right; next to the mark, then further out
	 * (with a leader) where the lines are crowded. */
	for (size_t r = 0; r < 3; r++) {
		double d = d0 * (1 + 0.9 * (double)r), g = 0.75 * d;
		double (*q)[2] = cand + 8 * r;

		q[0][0] = cx - w / 2, q[0][1] = cy - d - h;
		q[1][0] = cx - g - w, q[1][1] = cy - g - h;
		q[2][0] = cx + g, q[2][1] = cy + g;
		q[3][0] = cx + g, q[3][1] = cy - g - h;
		q[4][0] = cx - w / 2, q[4][1] = cy + d;
		q[5][0] = cx - g - w, q[5][1] = cy + g;
		q[6][0] = cx - d - w, q[6][1] = cy - h / 2;
		q[7][0] = cx + d, q[7][1] = cy - h / 2;
	}
	for (size_t k = 0; k < 32; k++) {
		size_t at = k < 24 ? k : k - 24;
		struct chart_box b = { cand[at][0] - 2 * f, cand[at][1] - f, cand[at][0] + w + 2 * f,
				       cand[at][1] + h + f };
		struct render_color halo = { 255, 255, 255, 215 };
		struct render_color col = chart_palette(L->test_of[i]);

		if (!chart_inside(inner, &b) || !lay_free_box(L, &b) || (k < 24 && lay_on_lines(L, &b)))
			continue;
		if (at >= 8) {
			/* A leader from the mark to the label's nearest side. */
			double lx = fmin(fmax(cx, b.x0), b.x1), ly = fmin(fmax(cy, b.y0), b.y1);
			double dist = hypot(lx - cx, ly - cy);

			chart_seg(c, cx + (lx - cx) * rr / dist, cy + (ly - cy) * rr / dist, lx, ly,
				  0.8 * f, col);
		}
		chart_rect(c, b.x0, b.y0, b.x1 - b.x0, b.y1 - b.y0, halo);
		/* Black text for the light colours: readable on white. */
		if (L->test_of[i] % CHART_NPAL == 1 || L->test_of[i] % CHART_NPAL == 4)
			col = C_TEXT;
		lay_text(L, role, (int)i, cand[at][0], cand[at][1] + RENDER_ASCENT * size, text, size, col,
			 RENDER_LEFT, 0);
		lay_take(L, b);
		return 1;
	}
	return 0;
}

static int lay_lines(struct lay *L, struct rs_err *err)
{
	const struct chart_input *in = L->in;
	struct chart *c = L->c;
	double f = L->f, W = in->width, H = in->height;
	double ticks_s = 11.5 * f, axis_s = 12.5 * f, end_s = 11.5 * f, sat_s = 10.5 * f;
	int rps = in->metric == SM_RPS;
	unsigned *depths = NULL, dmin, dmax;
	size_t nd = 0, maxrep = 1, nend = 0;
	double ymax = 0, top, bottom, left, right, endw = 0;
	struct chart_ticks yt, xt;
	struct yscale ys;
	struct xscale xs;
	struct endlab *ends;
	char title[512], subtitle[512], buf[64];
	int use_ends, logx, bands = 0;

	for (size_t i = 0; i < in->nseries; i++) {
		const struct series *s = in->series[i];

		depths = xreallocarray(depths, nd + s->npts, sizeof *depths);
		for (size_t p = 0; p < s->npts; p++) {
			depths[nd++] = s->pts[p].depth;
			ymax = fmax(ymax, s->pts[p].median);
			if (s->pts[p].n > maxrep)
				maxrep = s->pts[p].n;
		}
	}
	qsort(depths, nd, sizeof *depths, cmp_uint);
	{
		size_t u = 0;

		for (size_t i = 0; i < nd; i++)
			if (u == 0 || depths[u - 1] != depths[i])
				depths[u++] = depths[i];
		nd = u;
	}
	if (nd < 2) {
		rs_err_set(err, "every point is at depth %u: a line chart needs two depths or more",
			   nd ? depths[0] : 0);
		free(depths);
		return -1;
	}
	dmin = depths[0];
	dmax = depths[nd - 1];
	logx = in->log_x || depths_powers_of_two(depths, nd);
	free(depths);
	if (lay_need_an(L, err) < 0)
		return -1;
	/* The bands are the core's intervals of the medians, not the spread
	 * of the repeats: min-max grows with the number of repeats and says
	 * nothing of how well the median is known, and one repeat per depth
	 * has an interval (from the series' pooled noise) but no spread. */
	for (size_t i = 0; i < in->nseries; i++)
		for (size_t p = 0; p < in->series[i]->npts; p++) {
			double lo, hi;

			if (lay_median_ci(L, i, p, &lo, &hi)) {
				ymax = fmax(ymax, hi);
				bands = 1;
			}
		}

	/* Titles, legend, footer: the vertical frame. */
	if (in->title && *in->title) {
		snprintf(title, sizeof title, "%s", in->title);
	} else {
		const char *mt = series_metric_title(in->metric);
		size_t n = (size_t)snprintf(title, sizeof title, "%c%s against pipeline depth " UTF8_EM_DASH " ",
					    mt[0] >= 'a' && mt[0] <= 'z' ? mt[0] - 'a' + 'A' : mt[0], mt + 1);

		for (size_t l = 0; l < L->nlabels && n < sizeof title; l++)
			n += (size_t)snprintf(title + n, sizeof title - n, "%s%s", l ? " vs " : "",
					      L->labels[l]);
	}
	if (maxrep > 1)
		snprintf(subtitle, sizeof subtitle, "Lines: median of %zu repeats%s", maxrep,
			 bands ? "; bands: 95% interval of the median" : "");
	else
		snprintf(subtitle, sizeof subtitle, "One measurement per point%s",
			 bands ? "; bands: 95% interval of the median" : "");
	top = lay_titles(L, title, subtitle);
	{
		int rings = 0;

		/* The ring's legend entry only where there is a ring to explain. */
		for (size_t i = 0; i < in->nseries && rps && !rings; i++)
			rings = L->an_of[i]->saturated != KNEE_SAT_NO && L->an_of[i]->sat_depth != 0 &&
				series_at(in->series[i], L->an_of[i]->sat_depth) != NULL;
		top = lay_legend(L, top, rings);
	}
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].op == CHART_TEXT)
			lay_take(L, c->items[i].box);
	top += 0.6 * ticks_s;     /* the top tick label's upper half */
	bottom = lay_footer_block(L, 10 * f) - 8 * f;
	bottom -= (RENDER_ASCENT + RENDER_DESCENT) * axis_s + 8 * f;       /* x axis title */
	bottom -= (RENDER_ASCENT + RENDER_DESCENT) * ticks_s + 9 * f;      /* tick labels */
	if (bottom - top < 60 * f) {
		return rs_err_set(err, "chart of %.0fx%.0f is too small for its legend and labels",
				  W, H);
	}

	/* y scale from 0. */
	if (chart_ticks_nice(0, ymax * 1.02, (unsigned)fmax(3, (bottom - top) / (42 * f)), &yt) < 0)
		return rs_err_set(err, "cannot scale the y axis (largest figure %g)", ymax);
	ys = (struct yscale){ yt.v[0], yt.v[yt.n - 1], top, bottom };

	/* End labels: at the right of the lines when they fit in the height. */
	ends = xcalloc(in->nseries, sizeof *ends);
	for (size_t i = 0; i < in->nseries; i++) {
		const struct series *s = in->series[i];

		ends[nend].series = i;
		ends[nend].want = ymap(&ys, s->pts[s->npts - 1].median);
		if (L->nlabels > 1)
			snprintf(ends[nend].text, sizeof ends[nend].text, "%s %s", s->test, s->label);
		else
			snprintf(ends[nend].text, sizeof ends[nend].text, "%s", s->test);
		endw = fmax(endw, lay_tw(L, ends[nend].text, end_s));
		ends[nend].y = ends[nend].want;
		nend++;
	}
	qsort(ends, nend, sizeof *ends, cmp_endlab);
	use_ends = endw + 30 * f < 0.22 * W;
	if (use_ends) {
		double *ty = xcalloc(nend, sizeof *ty);

		for (size_t i = 0; i < nend; i++)
			ty[i] = ends[i].want;
		use_ends = lay_spread(ty, nend, 1.2 * end_s, top - 0.5 * ticks_s, bottom) == 0;
		for (size_t i = 0; use_ends && i < nend; i++)
			ends[i].y = ty[i];
		free(ty);
	}

	/* Horizontal frame: y tick labels on the left, end labels on the right. */
	{
		double yw = 0;

		for (size_t i = 0; i < yt.n; i++) {
			chart_si(yt.v[i], yt.step, buf, sizeof buf);
			yw = fmax(yw, lay_tw(L, buf, ticks_s));
		}
		left = L->pad + (RENDER_ASCENT + RENDER_DESCENT) * axis_s + 10 * f + yw + 8 * f;
		snprintf(buf, sizeof buf, "%u", dmax);
		right = W - L->pad - (use_ends ? endw + 16 * f : lay_tw(L, buf, ticks_s) / 2);
	}
	c->plot = (struct chart_box){ left, top, right, bottom };
	xs = (struct xscale){ dmin, dmax, left + 12 * f, right - 12 * f, logx };
	snprintf(buf, sizeof buf, "%u", dmax);
	chart_ticks_depth(dmin, dmax,
			  (unsigned)fmax(2, (xs.p1 - xs.p0) / fmax(lay_tw(L, buf, ticks_s) + 28 * f, 64 * f) + 1),
			  logx, &xt);

	/* Grid, then data, then axes and labels on top. */
	for (size_t i = 0; i < xt.n; i++) {
		double x = xmap(&xs, xt.v[i]);

		chart_seg(c, x, top, x, bottom, 1 * f, C_GRID_X);
	}
	for (size_t i = 0; i < yt.n; i++) {
		double y = ymap(&ys, yt.v[i]);

		chart_seg(c, left, y, right, y, 1 * f, C_GRID);
	}
	/* A band per run of depths with a known interval: none across a depth
	 * without one, rather than a band made up there. */
	for (size_t i = 0; i < in->nseries && bands; i++) {
		const struct series *s = in->series[i];
		struct render_color col = chart_palette(L->test_of[i]);
		double lo, hi;

		col.a = L->nlabels > 1 ? 36 : 46;
		for (size_t p = 0; p < s->npts;) {
			size_t q = p, n;
			struct chart_item *it;

			while (q < s->npts && lay_median_ci(L, i, q, &lo, &hi))
				q++;
			n = q - p;
			if (n < 2) {
				p = q + 1;
				continue;
			}
			it = chart_push(c, CHART_BAND);
			it->v = xmalloc(3 * n * sizeof *it->v);
			it->n = n;
			for (size_t k = 0; k < n; k++) {
				lay_median_ci(L, i, p + k, &lo, &hi);
				it->v[k] = xmap(&xs, s->pts[p + k].depth);
				it->v[n + k] = ymap(&ys, lo);
				it->v[2 * n + k] = ymap(&ys, hi);
			}
			it->color = col;
			it->series = (int)i;
			p = q;
		}
	}
	for (size_t i = 0; i < in->nseries; i++) {
		const struct series *s = in->series[i];
		double *xy = xmalloc(2 * s->npts * sizeof *xy);

		for (size_t p = 0; p < s->npts; p++) {
			xy[2 * p] = xmap(&xs, s->pts[p].depth);
			xy[2 * p + 1] = ymap(&ys, s->pts[p].median);
		}
		chart_line(c, xy, s->npts, 2 * f, chart_palette(L->test_of[i]),
			   (enum render_dash)(L->label_of[i] % 4), (int)i);
		free(xy);
	}
	for (size_t i = 0; i < in->nseries; i++) {
		const struct series *s = in->series[i];
		double ms = (s->npts > 24 ? 5 : 6.5) * f;

		for (size_t p = 0; p < s->npts; p++)
			chart_mark(c, xmap(&xs, s->pts[p].depth), ymap(&ys, s->pts[p].median), ms,
				   chart_marker(L->test_of[i]), chart_palette(L->test_of[i]), C_WHITE,
				   0.8 * f, (int)i);
	}
	chart_seg(c, left, bottom, right, bottom, 1.2 * f, C_AXIS);
	chart_seg(c, left, top, left, bottom, 1.2 * f, C_AXIS);

	/* Tick labels and axis titles. */
	for (size_t i = 0; i < yt.n; i++) {
		double y = ymap(&ys, yt.v[i]);

		chart_si(yt.v[i], yt.step, buf, sizeof buf);
		chart_seg(c, left - 5 * f, y, left, y, 1.2 * f, C_AXIS);
		lay_text(L, ROLE_TICK, -1, left - 8 * f, y + 0.27 * ticks_s, buf, ticks_s, C_TEXT,
			 RENDER_RIGHT, 0);
	}
	for (size_t i = 0; i < xt.n; i++) {
		double x = xmap(&xs, xt.v[i]);

		snprintf(buf, sizeof buf, "%.0f", xt.v[i]);
		chart_seg(c, x, bottom, x, bottom + 5 * f, 1.2 * f, C_AXIS);
		lay_text(L, ROLE_TICK, -1, x, bottom + 8 * f + RENDER_ASCENT * ticks_s, buf, ticks_s,
			 C_TEXT, RENDER_CENTER, 0);
	}
	lay_text(L, ROLE_AXIS_TITLE, -1, (left + right) / 2,
		 bottom + 9 * f + (RENDER_ASCENT + RENDER_DESCENT) * ticks_s + 8 * f +
			 RENDER_ASCENT * axis_s,
		 logx ? "pipeline depth (log scale)" : "pipeline depth", axis_s, C_TEXT, RENDER_CENTER, 0);
	lay_text(L, ROLE_AXIS_TITLE, -1, L->pad + RENDER_ASCENT * axis_s, (top + bottom) / 2,
		 series_metric_title(in->metric), axis_s, C_TEXT, RENDER_CENTER, 1);

	/* End labels, with a leader when moved off their line's end. */
	for (size_t e = 0; use_ends && e < nend; e++) {
		size_t i = ends[e].series;
		const struct series *s = in->series[i];
		struct render_color col = chart_palette(L->test_of[i]);
		double ex = xmap(&xs, s->pts[s->npts - 1].depth), ey = ends[e].want;
		double lx = right + 8 * f;
		struct chart_item *it;

		if (fabs(ends[e].y - ey) > 1.5 * f || right - ex > 14 * f)
			chart_seg(c, ex + 5 * f, ey, lx - 2 * f, ends[e].y, 0.8 * f, col);
		it = lay_text(L, ROLE_END_LABEL, (int)i, lx, ends[e].y + 0.27 * end_s, ends[e].text,
			      end_s, col, RENDER_LEFT, 0);
		lay_take(L, it->box);
	}
	/* Line ends are off limits for the labels placed next. */
	for (size_t i = 0; i < in->nseries; i++) {
		const struct series *s = in->series[i];
		double ex = xmap(&xs, s->pts[s->npts - 1].depth);
		double ey = ymap(&ys, s->pts[s->npts - 1].median), r = 6 * f;

		lay_take(L, (struct chart_box){ ex - r, ey - r, ex + r, ey + r });
	}

	/* Saturation, as the report says it: a ring at the core's saturation
	 * depth and "P=12" where it fits; on a line still rising at its
	 * deepest depth no ring (it has no saturation depth in the data) but
	 * "still rising" by its end.  Rings first, so that no note covers one. */
	if (rps) {
		struct chart_box inner = { left + 2 * f, top, right - 2 * f, bottom - 2 * f };
		struct render_color none = { 0, 0, 0, 0 };
		double rr = 7 * f;
		const struct series_point **sat = xcalloc(in->nseries, sizeof *sat);

		for (size_t i = 0; i < in->nseries; i++) {
			const struct analysis_series *a = L->an_of[i];
			double cx, cy;

			if (a->saturated == KNEE_SAT_NO || a->sat_depth == 0 ||
			    (sat[i] = series_at(in->series[i], a->sat_depth)) == NULL)
				continue;
			cx = xmap(&xs, sat[i]->depth);
			cy = ymap(&ys, sat[i]->median);
			chart_mark(c, cx, cy, 2 * rr, RENDER_CIRCLE, none, chart_palette(L->test_of[i]),
				   2 * f, (int)i);
			c->items[c->n - 1].role = ROLE_SATURATION;
			lay_take(L, (struct chart_box){ cx - rr, cy - rr, cx + rr, cy + rr });
		}
		for (size_t i = 0; i < in->nseries; i++) {
			const struct series *s = in->series[i];

			if (sat[i] != NULL) {
				snprintf(buf, sizeof buf, "P=%u", sat[i]->depth);
				lay_note(L, &inner, ROLE_SATURATION, i, xmap(&xs, sat[i]->depth),
					 ymap(&ys, sat[i]->median), rr, buf, sat_s);
			} else if (L->an_of[i]->saturated == KNEE_SAT_NO) {
				const struct series_point *e = &s->pts[s->npts - 1];

				lay_note(L, &inner, ROLE_RISING, i, xmap(&xs, e->depth), ymap(&ys, e->median),
					 6 * f, "still rising", sat_s);
			}
		}
		free(sat);
	}
	free(ends);
	return 0;
}

/* ---- speed-up bars ---- */

struct bar {
	const char *test;
	double ratio;
	double lo, hi;            /* its 95% interval; NAN when unknown */
};

static int cmp_bar(const void *a, const void *b)
{
	const struct bar *x = a, *y = b;

	if (x->ratio != y->ratio)
		return x->ratio > y->ratio ? -1 : 1;
	return strcmp(x->test, y->test);
}

/* "1.18×": two decimals, as the report prints a ratio, so that a bar and
 * the report's line for it read the same. */
static void fmt_ratio(double r, char *buf, size_t size)
{
	int n = num_fmt(buf, size, r, 2);

	if (n >= 0 && (size_t)n + sizeof UTF8_TIMES <= size)
		strcat(buf, UTF8_TIMES);
}

static int lay_speedup(struct lay *L, struct rs_err *err)
{
	const struct chart_input *in = L->in;
	struct chart *c = L->c;
	double f = L->f, W = in->width;
	double ticks_s = 11.5 * f, axis_s = 12.5 * f, bar_s = 11.5 * f, cat_s = 11.5 * f;
	size_t base, other, nb = 0;
	struct bar *bars;
	double rmax = 1, catw = 0, top, bottom, left, right, slot;
	struct chart_ticks yt;
	struct yscale ys;
	char title[512], subtitle[512], buf[64];
	int vertical;

	if (L->nlabels != 2)
		return rs_err_set(err, "a speed-up chart compares two labels; the data has %zu%s",
				  L->nlabels, L->nlabels == 1 ? " (add a second sweep's CSV)" : "");
	base = 0;
	if (in->baseline) {
		for (base = 0; base < 2 && strcmp(L->labels[base], in->baseline) != 0; base++)
			;
		if (base == 2)
			return rs_err_set(err, "baseline '%s' is not a label in the data (%s, %s)",
					  in->baseline, L->labels[0], L->labels[1]);
	}
	other = 1 - base;
	if (lay_need_an(L, err) < 0)
		return -1;
	/* Each bar is the report's comparison of its test (the fitted peak
	 * levels, or the medians at --depth) with its interval: the chart
	 * computes no ratio of its own. */
	bars = xcalloc(L->ntests, sizeof *bars);
	for (size_t t = 0; t < L->ntests; t++) {
		const struct analysis_series *a = NULL, *b = NULL;
		const struct analysis_delta *d = NULL;

		for (size_t i = 0; i < in->nseries; i++)
			if (L->test_of[i] == t) {
				if (L->label_of[i] == other)
					a = L->an_of[i];
				else
					b = L->an_of[i];
			}
		if (a == NULL || b == NULL)
			continue;
		for (size_t k = 0; k < in->an->ncmps && d == NULL; k++) {
			const struct analysis_cmp *cmp = &in->an->cmps[k];

			if (&in->an->series[cmp->other] == a && &in->an->series[cmp->base] == b)
				d = in->depth ? &cmp->at_depth : &cmp->at_peak;
		}
		if (d == NULL || !d->valid || !isfinite(d->ratio))
			continue;
		bars[nb].test = L->tests[t];
		bars[nb].ratio = d->ratio;
		bars[nb].lo = bars[nb].hi = NAN;
		if (isfinite(d->ci.lo) && isfinite(d->ci.hi)) {
			bars[nb].lo = d->ci.lo;
			bars[nb].hi = d->ci.hi;
			rmax = fmax(rmax, d->ci.hi);
		}
		rmax = fmax(rmax, bars[nb].ratio);
		nb++;
	}
	if (nb == 0) {
		free(bars);
		if (in->depth)
			return rs_err_set(err, "no test has both '%s' and '%s' at depth %u", L->labels[0],
					  L->labels[1], in->depth);
		return rs_err_set(err, "no test has figures for both '%s' and '%s'", L->labels[0],
				  L->labels[1]);
	}
	qsort(bars, nb, sizeof *bars, cmp_bar);

	if (in->title && *in->title)
		snprintf(title, sizeof title, "%s", in->title);
	else
		snprintf(title, sizeof title, "Speed-up of %s over %s, per test", L->labels[other],
			 L->labels[base]);
	if (in->depth)
		snprintf(subtitle, sizeof subtitle,
			 "Median requests per second of %s " UTF8_DIVIDE " those of %s, at pipeline depth %u; "
			 "whiskers: 95%% interval",
			 L->labels[other], L->labels[base], in->depth);
	else
		snprintf(subtitle, sizeof subtitle,
			 "Peak requests per second of %s " UTF8_DIVIDE " those of %s (each its fitted peak level); "
			 "whiskers: 95%% interval",
			 L->labels[other], L->labels[base]);
	top = lay_titles(L, title, subtitle) + 0.6 * ticks_s;
	bottom = lay_footer_block(L, 10 * f) - 10 * f;
	for (size_t i = 0; i < nb; i++)
		catw = fmax(catw, lay_tw(L, bars[i].test, cat_s));

	if (chart_ticks_nice(0, rmax * 1.12, 8, &yt) < 0) {
		free(bars);
		return rs_err_set(err, "cannot scale the speed-up axis (largest ratio %g)", rmax);
	}
	{
		double yw = 0;

		for (size_t i = 0; i < yt.n; i++) {
			chart_si(yt.v[i], yt.step, buf, sizeof buf);
			strcat(buf, UTF8_TIMES);
			yw = fmax(yw, lay_tw(L, buf, ticks_s));
		}
		left = L->pad + (RENDER_ASCENT + RENDER_DESCENT) * axis_s + 10 * f + yw + 8 * f;
		right = W - L->pad;
	}
	slot = (right - left) / (double)nb;
	vertical = catw > 0.92 * slot;
	bottom -= vertical ? catw + 8 * f : (RENDER_ASCENT + RENDER_DESCENT) * cat_s + 8 * f;
	if (bottom - top < 60 * f) {
		free(bars);
		return rs_err_set(err, "chart of %.0fx%.0f is too small for %zu bars", W, in->height, nb);
	}
	c->plot = (struct chart_box){ left, top, right, bottom };
	ys = (struct yscale){ yt.v[0], yt.v[yt.n - 1], top, bottom };

	for (size_t i = 0; i < yt.n; i++) {
		double y = ymap(&ys, yt.v[i]);

		chart_seg(c, left, y, right, y, 1 * f, C_GRID);
		chart_si(yt.v[i], yt.step, buf, sizeof buf);
		strcat(buf, UTF8_TIMES);
		chart_seg(c, left - 5 * f, y, left, y, 1.2 * f, C_AXIS);
		lay_text(L, ROLE_TICK, -1, left - 8 * f, y + 0.27 * ticks_s, buf, ticks_s, C_TEXT,
			 RENDER_RIGHT, 0);
	}
	for (size_t i = 0; i < nb; i++) {
		double cx = left + ((double)i + 0.5) * slot, bw = fmin(0.62 * slot, 70 * f);
		double y1 = ymap(&ys, 1), yr = ymap(&ys, bars[i].ratio);
		struct render_color col = bars[i].ratio >= 1 ? chart_palette(0) : chart_palette(3);
		struct chart_item *it;

		double ylab = yr;

		chart_rect(c, cx - bw / 2, fmin(y1, yr), bw, fmax(fabs(yr - y1), 1 * f), col);
		lay_take(L, (struct chart_box){ cx - bw / 2, fmin(y1, yr), cx + bw / 2, fmax(y1, yr) });
		if (isfinite(bars[i].lo)) {
			/* The whisker: a thin line over the interval, capped. */
			double ylo = ymap(&ys, bars[i].lo), yhi = ymap(&ys, bars[i].hi), cw = fmin(bw / 4, 8 * f);

			chart_seg(c, cx, ylo, cx, yhi, 1.2 * f, C_TEXT);
			c->items[c->n - 1].role = ROLE_WHISKER;
			chart_seg(c, cx - cw, ylo, cx + cw, ylo, 1.2 * f, C_TEXT);
			chart_seg(c, cx - cw, yhi, cx + cw, yhi, 1.2 * f, C_TEXT);
			lay_take(L, (struct chart_box){ cx - cw, fmin(ylo, yhi), cx + cw, fmax(ylo, yhi) });
			/* The label clears the whisker's far end. */
			ylab = bars[i].ratio >= 1 ? fmin(yr, yhi) : fmax(yr, ylo);
		}
		fmt_ratio(bars[i].ratio, buf, sizeof buf);
		it = lay_text(L, ROLE_BAR_LABEL, -1, cx,
			      bars[i].ratio >= 1 ? ylab - 5 * f : ylab + 5 * f + RENDER_ASCENT * bar_s, buf,
			      bar_s, C_TEXT, RENDER_CENTER, 0);
		lay_take(L, it->box);
		if (vertical)
			lay_text(L, ROLE_CATEGORY, -1, cx + 0.27 * cat_s, bottom + 8 * f, bars[i].test,
				 cat_s, C_TEXT, RENDER_RIGHT, 1);
		else
			lay_text(L, ROLE_CATEGORY, -1, cx, bottom + 8 * f + RENDER_ASCENT * cat_s,
				 bars[i].test, cat_s, C_TEXT, RENDER_CENTER, 0);
	}
	/* The 1x reference line over the bars, labelled where no bar is. */
	{
		double y1 = ymap(&ys, 1), w, h = (RENDER_ASCENT + RENDER_DESCENT) * bar_s;
		double cand[4][2];

		chart_seg(c, left, y1, right, y1, 1.5 * f, C_TEXT);
		snprintf(buf, sizeof buf, "1" UTF8_TIMES " = %s", L->labels[base]);
		w = lay_tw(L, buf, bar_s);
		cand[0][0] = right - 4 * f - w, cand[0][1] = y1 - 4 * f - h;
		cand[1][0] = right - 4 * f - w, cand[1][1] = y1 + 4 * f;
		cand[2][0] = left + 4 * f, cand[2][1] = y1 - 4 * f - h;
		cand[3][0] = left + 4 * f, cand[3][1] = y1 + 4 * f;
		for (size_t k = 0; k < 4; k++) {
			struct chart_box b = { cand[k][0], cand[k][1], cand[k][0] + w, cand[k][1] + h };

			if (b.y0 < top || b.y1 > bottom || !lay_free_box(L, &b))
				continue;
			lay_text(L, ROLE_REFERENCE, -1, b.x0, b.y0 + RENDER_ASCENT * bar_s, buf, bar_s,
				 C_TEXT, RENDER_LEFT, 0);
			break;
		}
	}
	chart_seg(c, left, bottom, right, bottom, 1.2 * f, C_AXIS);
	chart_seg(c, left, top, left, bottom, 1.2 * f, C_AXIS);
	snprintf(buf, sizeof buf, "speed-up (" UTF8_TIMES " %s)", L->labels[base]);
	lay_text(L, ROLE_AXIS_TITLE, -1, L->pad + RENDER_ASCENT * axis_s, (top + bottom) / 2, buf,
		 axis_s, C_TEXT, RENDER_CENTER, 1);
	free(bars);
	return 0;
}

int chart_layout(const struct chart_input *in0, const struct render_ops *ops, void *ctx,
		 struct chart **out, struct rs_err *err)
{
	struct chart_input in = *in0;
	struct lay L;
	int rc;

	*out = NULL;
	if (in.nseries == 0)
		return rs_err_set(err, "nothing to draw: no series");
	for (size_t i = 0; i < in.nseries; i++)
		if (in.series[i]->npts == 0)
			return rs_err_set(err, "series %s %s has no points", in.series[i]->label,
					  in.series[i]->test);
	if (!(in.width >= 100 && in.height >= 100))
		return rs_err_set(err, "chart size %gx%g is below 100x100", in.width, in.height);
	if (!(in.knee > 0))
		in.knee = ANALYSIS_DEFAULT_KNEE;
	memset(&L, 0, sizeof L);
	L.in = &in;
	L.ops = ops;
	L.ctx = ctx;
	L.c = xcalloc(1, sizeof *L.c);
	L.c->width = in.width;
	L.c->height = in.height;
	L.f = fmin(1.5, fmax(0.7, sqrt(in.width * in.height / (1200.0 * 800.0))));
	L.pad = 16 * L.f;
	L.test_of = xcalloc(in.nseries, sizeof *L.test_of);
	L.label_of = xcalloc(in.nseries, sizeof *L.label_of);
	for (size_t i = 0; i < in.nseries; i++) {
		L.test_of[i] = lay_intern(&L.tests, &L.ntests, in.series[i]->test);
		L.label_of[i] = lay_intern(&L.labels, &L.nlabels, in.series[i]->label);
	}
	L.an_of = xcalloc(in.nseries, sizeof *L.an_of);
	for (size_t i = 0; i < in.nseries && in.an != NULL; i++)
		for (size_t k = 0; k < in.an->nseries && L.an_of[i] == NULL; k++)
			if (in.an->series[k].rps == in.series[i])
				L.an_of[i] = &in.an->series[k];
	chart_rect(L.c, 0, 0, in.width, in.height, C_WHITE);
	rc = in.kind == CHART_SPEEDUP ? lay_speedup(&L, err) : lay_lines(&L, err);
	free(L.taken);
	free(L.lines);
	free(L.test_of);
	free(L.label_of);
	free(L.an_of);
	free(L.tests);
	free(L.labels);
	if (rc < 0) {
		chart_free(L.c);
		return -1;
	}
	*out = L.c;
	return 0;
}

void chart_free(struct chart *c)
{
	if (c == NULL)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->items[i].text);
		free(c->items[i].v);
	}
	free(c->items);
	free(c);
}

void chart_draw(const struct chart *c, const struct render_ops *ops, void *ctx, double ox,
		double oy)
{
	double *tmp = NULL;
	size_t cap = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct chart_item *it = &c->items[i];
		size_t need = it->op == CHART_LINE ? 2 * it->n : it->op == CHART_BAND ? 3 * it->n : 0;

		if (need > cap) {
			cap = need;
			tmp = xreallocarray(tmp, cap, sizeof *tmp);
		}
		switch (it->op) {
		case CHART_RECT:
			ops->fill_rect(ctx, ox + it->x, oy + it->y, it->w, it->h, it->color);
			break;
		case CHART_BAND:
			for (size_t k = 0; k < it->n; k++) {
				tmp[k] = ox + it->v[k];
				tmp[it->n + k] = oy + it->v[it->n + k];
				tmp[2 * it->n + k] = oy + it->v[2 * it->n + k];
			}
			ops->fill_band(ctx, tmp, tmp + it->n, tmp + 2 * it->n, it->n, it->color);
			break;
		case CHART_LINE:
			for (size_t k = 0; k < it->n; k++) {
				tmp[2 * k] = ox + it->v[2 * k];
				tmp[2 * k + 1] = oy + it->v[2 * k + 1];
			}
			ops->stroke(ctx, tmp, it->n, it->width, it->color, it->dash);
			break;
		case CHART_MARKER:
			ops->marker(ctx, ox + it->x, oy + it->y, it->w, it->marker, it->color, it->outline,
				    it->width);
			break;
		case CHART_TEXT:
			ops->text(ctx, ox + it->x, oy + it->y, it->text, it->size, it->color, it->align,
				  it->vertical);
			break;
		}
	}
	free(tmp);
}
