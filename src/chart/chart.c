/* chart.c: the chart model's core: the palette, ticks and their labels,
 * the display list every kind fills, and playing it through a back-end.
 * It knows no kind: chart_layout.c hands each to its file. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/chart_int.h"
#include "base/num.h"
#include "base/xalloc.h"

/* Okabe-Ito without the yellow, which vanishes on white as a line. */
static const struct render_color chart_pal[] = {
	{ 0x00, 0x72, 0xB2, 255 }, { 0xE6, 0x9F, 0x00, 255 }, { 0x00, 0x9E, 0x73, 255 },
	{ 0xD5, 0x5E, 0x00, 255 }, { 0x56, 0xB4, 0xE9, 255 }, { 0xCC, 0x79, 0xA7, 255 },
	{ 0x00, 0x00, 0x00, 255 },
};
#define CHART_NPAL (sizeof chart_pal / sizeof chart_pal[0])
_Static_assert(CHART_NPAL == CHART_NPALETTE, "chart.h says how many colours there are");

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

int chart_palette_light(size_t i)
{
	/* Orange and sky blue. */
	return i % CHART_NPAL == 1 || i % CHART_NPAL == 4;
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

struct chart_item *chart_push(struct chart *c, enum chart_op op)
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

void chart_rect(struct chart *c, double x, double y, double w, double h, struct render_color col)
{
	struct chart_item *it = chart_push(c, CHART_RECT);

	it->x = x;
	it->y = y;
	it->w = w;
	it->h = h;
	it->color = col;
}

void chart_line(struct chart *c, const double *xy, size_t n, double width, struct render_color col,
		enum render_dash dash, int series)
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

void chart_seg(struct chart *c, double x0, double y0, double x1, double y1, double width,
	       struct render_color col)
{
	double xy[4] = { x0, y0, x1, y1 };

	chart_line(c, xy, 2, width, col, RENDER_SOLID, -1);
}

void chart_mark(struct chart *c, double x, double y, double size, enum render_marker m,
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

double chart_tw(struct chart_lay *L, const char *s, double size)
{
	return L->ops->text_width(L->ctx, s, size);
}

struct chart_item *chart_text(struct chart_lay *L, enum chart_role role, int series, double x,
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
	it->box = chart_text_box(x, y, chart_tw(L, s, size), size, align, vertical);
	return it;
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
