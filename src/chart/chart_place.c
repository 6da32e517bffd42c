/* chart_place.c: where labels go: the space taken so far, and a free place
 * for a note next to its mark, off the lines. */
#include "config.h"

#include <math.h>
#include <stddef.h>

#include "chart/chart_int.h"
#include "base/xalloc.h"

static int place_overlap(const struct chart_box *a, const struct chart_box *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

static int place_inside(const struct chart_box *in, const struct chart_box *b)
{
	return b->x0 >= in->x0 && b->x1 <= in->x1 && b->y0 >= in->y0 && b->y1 <= in->y1;
}

/* Whether segment (x0, y0)-(x1, y1) passes through box b (Liang-Barsky:
 * clip the segment's parameter range to each side in turn). */
static int place_seg_in_box(double x0, double y0, double x1, double y1, const struct chart_box *b)
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

void chart_take(struct chart_lay *L, struct chart_box b)
{
	if (L->ntaken == L->captaken) {
		L->captaken = L->captaken ? 2 * L->captaken : 64;
		L->taken = xreallocarray(L->taken, L->captaken, sizeof *L->taken);
	}
	L->taken[L->ntaken++] = b;
}

int chart_box_clear(const struct chart_lay *L, const struct chart_box *b)
{
	for (size_t i = 0; i < L->ntaken; i++)
		if (place_overlap(&L->taken[i], b))
			return 0;
	return 1;
}

/* Whether box b lies across a series' line drawn so far.  Every label
 * tries many places, and a chart has an item per marker: the lines are
 * picked out of the items once, and along a line whose x only grows only
 * the segments from the box's left edge to its right are tried. */
static int place_on_lines(struct chart_lay *L, const struct chart_box *b)
{
	for (; L->lines_seen < L->c->n; L->lines_seen++) {
		const struct chart_item *it = &L->c->items[L->lines_seen];
		struct chart_lay_line *l;

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
			if (place_seg_in_box(it->v[2 * k], it->v[2 * k + 1], it->v[2 * k + 2],
					     it->v[2 * k + 3], b))
				return 1;
		}
	}
	return 0;
}

/* Spread end labels (sorted by wanted centre y) at least h apart inside
 * [top, bottom]; returns -1 if they do not fit. */
int chart_spread(double *y, size_t n, double h, double top, double bottom)
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


/* Place text (role, series i, in palette colour pal) next to the point
 * (cx, cy), whose mark has radius rr: the first of 24 places, next to the
 * mark then further out with a leader, that is inside inner, clear of the
 * labels placed so far and off every series' line; else next to the mark
 * on a line, over a white halo; else nowhere.  Returns 1 when placed. */
int chart_note(struct chart_lay *L, const struct chart_box *inner, enum chart_role role, size_t i,
	       size_t pal, double cx, double cy, double rr, const char *text, double size)
{
	struct chart *c = L->c;
	double f = L->f, w = chart_tw(L, text, size), h = (RENDER_ASCENT + RENDER_DESCENT) * size;
	/* Two points clear of the mark's rim; each ring of places 1.9x, then
	 * 2.8x as far out. */
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
	/* 24 places off the lines, then the first 8 again on a line. */
	for (size_t k = 0; k < 32; k++) {
		size_t at = k < 24 ? k : k - 24;
		/* The box has a margin of 2 points across and 1 down. */
		struct chart_box b = { cand[at][0] - 2 * f, cand[at][1] - f, cand[at][0] + w + 2 * f,
				       cand[at][1] + h + f };
		struct render_color halo = { 255, 255, 255, 215 };
		struct render_color col = chart_palette(pal);

		if (!place_inside(inner, &b) || !chart_box_clear(L, &b) ||
		    (k < 24 && place_on_lines(L, &b)))
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
		if (chart_palette_light(pal))
			col = C_TEXT;
		chart_text(L, role, (int)i, cand[at][0], cand[at][1] + RENDER_ASCENT * size, text, size,
			   col, RENDER_LEFT, 0);
		chart_take(L, b);
		return 1;
	}
	return 0;
}
