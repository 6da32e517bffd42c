/* render_png_raster.c: play the PNG back-end's display list into a band of
 * rows: signed-distance anti-aliasing, box-filtered coverage, one blend
 * per pixel per operation.  Every loop is cut to the band's rows, and a
 * pixel's value depends only on the commands, never on where the band
 * starts, so any banding gives the same image. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/render_png_int.h"
#include "base/xalloc.h"

void rpng_band_init(struct rpng_band *b, const struct render_png *p, int rows)
{
	memset(b, 0, sizeof *b);
	b->p = p;
	b->rows = rows;
	b->stride = (size_t)p->w * 3;
	b->px = xmalloc(b->stride * (size_t)rows);
	b->mask = xcalloc((size_t)rows, p->w);
	b->span0 = xmalloc((size_t)rows * sizeof *b->span0);
	b->span1 = xmalloc((size_t)rows * sizeof *b->span1);
	for (int i = 0; i < rows; i++) {
		b->span0[i] = (int)p->w;
		b->span1[i] = -1;
	}
	b->ymin = rows;
	b->ymax = -1;
}

void rpng_band_free(struct rpng_band *b)
{
	free(b->px);
	free(b->mask);
	free(b->span0);
	free(b->span1);
	memset(b, 0, sizeof *b);
}

static inline double clamp01(double v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* fmin, fmax and hypot without the NaN and overflow care (and the libm
 * calls) that pixel coordinates never need. */
static inline double dmin(double a, double b)
{
	return a < b ? a : b;
}

static inline double dmax(double a, double b)
{
	return a > b ? a : b;
}

static inline double dhypot(double x, double y)
{
	return sqrt(x * x + y * y);
}

static inline uint8_t *row_at(const struct rpng_band *b, int y)
{
	return b->px + (size_t)(y - b->y0) * b->stride;
}

/* Blend colour c at coverage a255 (0..255) into pixel d. */
static inline void blend(uint8_t *d, struct render_color c, unsigned a255)
{
	unsigned a = a255 * c.a / 255;

	if (a == 0)
		return;
	if (a >= 255) {
		d[0] = c.r;
		d[1] = c.g;
		d[2] = c.b;
		return;
	}
	d[0] = (uint8_t)(d[0] + (((int)c.r - d[0]) * (int)a + 127) / 255);
	d[1] = (uint8_t)(d[1] + (((int)c.g - d[1]) * (int)a + 127) / 255);
	d[2] = (uint8_t)(d[2] + (((int)c.b - d[2]) * (int)a + 127) / 255);
}

static inline void blend_at(struct rpng_band *b, int x, int y, struct render_color c, double cov)
{
	if (x < 0 || y < b->y0 || (unsigned)x >= b->p->w || y >= b->y1 || cov <= 0)
		return;
	blend(row_at(b, y) + (size_t)x * 3, c, (unsigned)(cov * 255 + 0.5));
}

/* Length of [a, b) inside pixel [i, i + 1). */
static inline double overlap(double a, double b, int i)
{
	double lo = a > i ? a : i, hi = b < i + 1 ? b : i + 1;

	return hi > lo ? hi - lo : 0;
}

/* ---- rectangles and bands ---- */

void rpng_band_lut(struct render_color c, uint8_t lut[3][256])
{
	for (unsigned v = 0; v < 256; v++) {
		uint8_t px[3] = { (uint8_t)v, (uint8_t)v, (uint8_t)v };

		blend(px, c, 255);
		lut[0][v] = px[0];
		lut[1][v] = px[1];
		lut[2][v] = px[2];
	}
}

static void draw_rect(struct rpng_band *b, const struct rpng_cmd *cmd)
{
	double x0 = cmd->a[0], y0 = cmd->a[1], x1 = cmd->a[2], y1 = cmd->a[3];
	int ix0 = (int)floor(x0), ix1 = (int)ceil(x1), iy0 = (int)floor(y0), iy1 = (int)ceil(y1);
	struct render_color c = cmd->c;

	if (ix0 < 0)
		ix0 = 0;
	if (iy0 < b->y0)
		iy0 = b->y0;
	if (ix1 > (int)b->p->w)
		ix1 = (int)b->p->w;
	if (iy1 > b->y1)
		iy1 = b->y1;
	for (int iy = iy0; iy < iy1; iy++) {
		double cy = overlap(y0, y1, iy);
		uint8_t *row = row_at(b, iy);

		if (cy >= 1 && c.a == 255 && ix1 - ix0 > 4) {
			/* Opaque inside: one pixel, then copies doubling in size
			 * (panel backgrounds are most of a chart's pixels). */
			uint8_t *d = row + (size_t)(ix0 + 1) * 3;
			size_t n = (size_t)(ix1 - ix0 - 2) * 3, done = 3;

			d[0] = c.r;
			d[1] = c.g;
			d[2] = c.b;
			while (done < n) {
				size_t k = done < n - done ? done : n - done;

				memcpy(d + done, d, k);
				done += k;
			}
			blend(row + (size_t)ix0 * 3, c, (unsigned)(overlap(x0, x1, ix0) * 255 + 0.5));
			blend(row + (size_t)(ix1 - 1) * 3, c, (unsigned)(overlap(x0, x1, ix1 - 1) * 255 + 0.5));
			continue;
		}
		for (int ix = ix0; ix < ix1; ix++) {
			double cov = ix == ix0 || ix == ix1 - 1 ? cy * overlap(x0, x1, ix) : cy;

			if (cov >= 1 && c.a == 255) {
				uint8_t *d = row + (size_t)ix * 3;

				d[0] = c.r;
				d[1] = c.g;
				d[2] = c.b;
			} else if (cov > 0) {
				blend(row + (size_t)ix * 3, c, (unsigned)(cov * 255 + 0.5));
			}
		}
	}
}

/* A band, column by column: its edges are functions of x, so each pixel is
 * blended once, with its vertical coverage. */
static void draw_band(struct rpng_band *b, const struct rpng_cmd *cmd)
{
	const double *col = b->p->f + cmd->off;
	const uint8_t (*lut)[256] = (const uint8_t (*)[256])(b->p->luts + cmd->kind);
	int ix0 = (int)cmd->a[0];

	for (size_t i = 0; i < cmd->n; i++) {
		double top = col[2 * i], bot = col[2 * i + 1];
		int ix = ix0 + (int)i, iy0, iy1, from, to;

		if (top > bot || bot <= b->y0 || top >= b->y1)
			continue;
		iy0 = (int)floor(top);
		iy1 = (int)ceil(bot);
		if (iy0 < 0)
			iy0 = 0;
		if (iy1 > (int)b->p->h)
			iy1 = (int)b->p->h;
		from = iy0 > b->y0 ? iy0 : b->y0;
		to = iy1 < b->y1 ? iy1 : b->y1;
		for (int iy = from; iy < to; iy++) {
			uint8_t *d = row_at(b, iy) + (size_t)ix * 3;

			if (iy == iy0 || iy == iy1 - 1) {
				blend(d, cmd->c, (unsigned)(overlap(top, bot, iy) * 255 + 0.5));
			} else {
				d[0] = lut[0][d[0]];
				d[1] = lut[1][d[1]];
				d[2] = lut[2][d[2]];
			}
		}
	}
}

/* ---- strokes ---- */

static void mask_touch(struct rpng_band *b, int i, int x0, int x1)
{
	if (b->span0[i] > x0)
		b->span0[i] = x0;
	if (b->span1[i] < x1)
		b->span1[i] = x1;
	if (i < b->ymin)
		b->ymin = i;
	if (i > b->ymax)
		b->ymax = i;
}

/* Max the coverage of the capsule around segment a-b (half width hw) into
 * the mask: only the band's rows it crosses, and in each row only the x
 * range the capsule can reach. */
static void mask_segment(struct rpng_band *b, double ax, double ay, double bx, double by, double hw)
{
	double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy, r = hw + 0.5;
	double inv = len2 > 0 ? 1 / len2 : 0; /* a multiply a pixel, not a divide */
	int y0 = (int)floor(dmin(ay, by) - r), y1 = (int)ceil(dmax(ay, by) + r);
	int w = (int)b->p->w;

	if (y0 < b->y0)
		y0 = b->y0;
	if (y1 > b->y1 - 1)
		y1 = b->y1 - 1;
	if (y1 > (int)b->p->h - 1)
		y1 = (int)b->p->h - 1;
	for (int iy = y0; iy <= y1; iy++) {
		double py = iy + 0.5, xa, xb;
		int x0, x1;
		uint8_t *m = b->mask + (size_t)(iy - b->y0) * (size_t)w;

		if (fabs(dy) < 1e-9) {
			if (fabs(py - ay) > r)
				continue;
			xa = dmin(ax, bx);
			xb = dmax(ax, bx);
		} else {
			double t0 = (py - r - ay) / dy, t1 = (py + r - ay) / dy, tmp;

			if (t0 > t1)
				tmp = t0, t0 = t1, t1 = tmp;
			if (t0 < 0)
				t0 = 0;
			if (t1 > 1)
				t1 = 1;
			if (t0 > t1)
				continue; /* no point of the segment within r of this row */
			xa = dmin(ax + t0 * dx, ax + t1 * dx);
			xb = dmax(ax + t0 * dx, ax + t1 * dx);
		}
		x0 = (int)floor(xa - r);
		x1 = (int)ceil(xb + r);
		if (x0 < 0)
			x0 = 0;
		if (x1 > w - 1)
			x1 = w - 1;
		if (x0 > x1)
			continue;
		for (int ix = x0; ix <= x1; ix++) {
			double qx = ix + 0.5 - ax, qy = py - ay, t, d, cov;
			unsigned v;

			t = (qx * dx + qy * dy) * inv;
			t = t < 0 ? 0 : t > 1 ? 1 : t;
			qx -= t * dx;
			qy -= t * dy;
			d = sqrt(qx * qx + qy * qy);
			/* Box-filtered coverage of a band [d - hw, d + hw] by the
			 * pixel [-0.5, 0.5]: exact across, good for thin lines too. */
			cov = dmin(d + hw, 0.5) - dmax(d - hw, -0.5);
			if (cov <= 0)
				continue;
			v = (unsigned)(clamp01(cov) * 255 + 0.5);
			if (v > m[ix])
				m[ix] = (uint8_t)v;
		}
		mask_touch(b, iy - b->y0, x0, x1);
	}
}

/* Blend the mask in colour c, then clear it. */
static void mask_flush(struct rpng_band *b, struct render_color c)
{
	for (int i = b->ymin; i <= b->ymax; i++) {
		uint8_t *m = b->mask + (size_t)i * b->p->w;
		uint8_t *row = row_at(b, b->y0 + i);

		if (b->span0[i] > b->span1[i])
			continue;
		for (int x = b->span0[i]; x <= b->span1[i]; x++)
			if (m[x]) {
				blend(row + (size_t)x * 3, c, m[x]);
				m[x] = 0;
			}
		b->span0[i] = (int)b->p->w;
		b->span1[i] = -1;
	}
	b->ymin = b->rows;
	b->ymax = -1;
}

static void draw_stroke(struct rpng_band *b, const struct rpng_cmd *cmd)
{
	const double *seg = b->p->f + cmd->off;

	for (size_t i = 0; i < cmd->n; i++, seg += 4)
		mask_segment(b, seg[0], seg[1], seg[2], seg[3], cmd->a[0]);
	mask_flush(b, cmd->c);
}

/* ---- markers ---- */

static double seg_dist(double px, double py, double ax, double ay, double bx, double by)
{
	double dx = bx - ax, dy = by - ay, t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy);

	t = t < 0 ? 0 : t > 1 ? 1 : t;
	return dhypot(px - ax - t * dx, py - ay - t * dy);
}

/* Signed distance (pixels, negative inside) from (x, y), relative to the
 * centre, to a marker of radius r. */
static double marker_sdf(enum render_marker m, double x, double y, double r)
{
	switch (m) {
	case RENDER_CIRCLE:
		return dhypot(x, y) - r;
	case RENDER_SQUARE:
		return dmax(fabs(x), fabs(y)) - 0.86 * r;
	case RENDER_DIAMOND:
		return (fabs(x) + fabs(y) - 1.2 * r) * 0.70710678;
	case RENDER_TRIANGLE:
	case RENDER_TRIANGLE_DOWN: {
		double R = 1.2 * r, yy = m == RENDER_TRIANGLE ? y - 0.2 * r : -y - 0.2 * r;
		/* Equilateral, apex up, circumradius R: three half-planes. */
		double d1 = yy - R / 2;
		double d2 = (-0.8660254 * x - 0.5 * yy) - R / 2;
		double d3 = (0.8660254 * x - 0.5 * yy) - R / 2;

		return dmax(d1, dmax(d2, d3));
	}
	case RENDER_PLUS:
		return dmin(seg_dist(x, y, -r, 0, r, 0), seg_dist(x, y, 0, -r, 0, r)) - 0.3 * r;
	case RENDER_CROSS: {
		double k = 0.8 * r;

		return dmin(seg_dist(x, y, -k, -k, k, k), seg_dist(x, y, -k, k, k, -k)) - 0.3 * r;
	}
	}
	return dhypot(x, y) - r;
}

static void draw_marker(struct rpng_band *b, const struct rpng_cmd *cmd)
{
	double cx = cmd->a[0], cy = cmd->a[1], r = cmd->a[2], hw = cmd->a[3];
	int ext = (int)ceil(1.3 * r + hw + 1), iy0 = (int)cy - ext, iy1 = (int)cy + ext;

	if (iy0 < b->y0)
		iy0 = b->y0;
	if (iy1 > b->y1 - 1)
		iy1 = b->y1 - 1;
	for (int iy = iy0; iy <= iy1; iy++)
		for (int ix = (int)cx - ext; ix <= (int)cx + ext; ix++) {
			double d = marker_sdf((enum render_marker)cmd->kind, ix + 0.5 - cx, iy + 0.5 - cy, r);

			if (d >= 0.5 + hw)
				continue; /* outside fill and outline: no coverage */
			if (cmd->c.a)
				blend_at(b, ix, iy, cmd->c, clamp01(0.5 - d));
			if (cmd->c2.a && hw > 0)
				blend_at(b, ix, iy, cmd->c2,
					 clamp01(dmin(fabs(d) + hw, 0.5) - dmax(fabs(d) - hw, -0.5)));
		}
}

/* ---- text ---- */

static void draw_glyphs(struct rpng_band *b, const struct rpng_cmd *cmd)
{
	const struct rpng_place *pl = b->p->places + cmd->off;

	for (size_t i = 0; i < cmd->n; i++) {
		const struct rpng_glyph *g = pl[i].g;

		for (unsigned r = 0; r < g->h; r++)
			for (unsigned k = 0; k < g->w; k++) {
				uint8_t v = g->bits[(size_t)r * g->w + k];

				if (v == 0)
					continue;
				if (cmd->kind)
					blend_at(b, pl[i].x + (int)r, pl[i].y - (int)k, cmd->c, v / 255.0);
				else
					blend_at(b, pl[i].x + (int)k, pl[i].y + (int)r, cmd->c, v / 255.0);
			}
	}
}

void rpng_band_draw(struct rpng_band *b, int y0, int y1)
{
	const struct render_png *p = b->p;

	if (y1 - y0 > b->rows)
		y1 = y0 + b->rows;
	b->y0 = y0;
	b->y1 = y1;
	memset(b->px, 0xFF, (size_t)(y1 - y0) * b->stride);
	for (size_t i = 0; i < p->ncmds; i++) {
		const struct rpng_cmd *cmd = &p->cmds[i];

		if (cmd->y1 <= y0 || cmd->y0 >= y1)
			continue;
		switch (cmd->op) {
		case RPNG_RECT:
			draw_rect(b, cmd);
			break;
		case RPNG_BAND:
			draw_band(b, cmd);
			break;
		case RPNG_STROKE:
			draw_stroke(b, cmd);
			break;
		case RPNG_MARKER:
			draw_marker(b, cmd);
			break;
		case RPNG_GLYPHS:
			draw_glyphs(b, cmd);
			break;
		}
	}
}
