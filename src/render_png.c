/* render_png.c: the PNG back-end: signed-distance anti-aliasing on an RGBA
 * buffer, FreeType glyphs, libpng's simplified writer. */
#include "config.h"

#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <ft2build.h>
#include FT_FREETYPE_H

#include "render_png.h"
#include "xalloc.h"

#define PNG_MAX_PIXELS (64u * 1024 * 1024)
#define GLYPH_SLOTS 2048          /* power of two */
#define ADV_CACHE 0x2200          /* code points whose advance is cached */
#define RPNG_ZLEVEL 3             /* zlib level: see render_png_write() */

struct glyph {
	uint32_t cp;
	int size64;               /* pixel size in 1/64, 0 = empty slot */
	int left, top;
	unsigned w, h;
	uint8_t *bits;            /* w * h coverage */
};

struct render_png {
	unsigned w, h;            /* pixels */
	double s;                 /* pixels per point */
	uint8_t *px;              /* RGB, w * h * 3: charts are opaque */
	/* Stroke coverage, w * h, zero outside the polyline being drawn, with
	 * each row's touched span, so a polyline blends each pixel once. */
	uint8_t *mask;
	int *span0, *span1;
	int ymin, ymax;
	FT_Library ft;
	FT_Face face;
	int face_size64;
	int upem;
	int16_t adv[ADV_CACHE];   /* advance in 1/1000 em (as libharu), -1 unknown */
	struct glyph *glyphs;
};

static inline double clamp01(double v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* Blend colour c at coverage cov (0..1, already times nothing) into pixel. */
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

static inline void blend_at(struct render_png *p, int x, int y, struct render_color c, double cov)
{
	if (x < 0 || y < 0 || (unsigned)x >= p->w || (unsigned)y >= p->h || cov <= 0)
		return;
	blend(p->px + ((size_t)y * p->w + (size_t)x) * 3, c, (unsigned)(cov * 255 + 0.5));
}

/* ---- rectangles and bands ---- */

/* Length of [a, b) inside pixel [i, i + 1). */
static inline double overlap(double a, double b, int i)
{
	double lo = a > i ? a : i, hi = b < i + 1 ? b : i + 1;

	return hi > lo ? hi - lo : 0;
}

static void rpng_fill_rect(void *ctx, double x, double y, double w, double h, struct render_color c)
{
	struct render_png *p = ctx;
	double x0 = x * p->s, y0 = y * p->s, x1 = (x + w) * p->s, y1 = (y + h) * p->s;
	int ix0 = (int)floor(x0), ix1 = (int)ceil(x1), iy0 = (int)floor(y0), iy1 = (int)ceil(y1);

	if (ix0 < 0)
		ix0 = 0;
	if (iy0 < 0)
		iy0 = 0;
	if (ix1 > (int)p->w)
		ix1 = (int)p->w;
	if (iy1 > (int)p->h)
		iy1 = (int)p->h;
	for (int iy = iy0; iy < iy1; iy++) {
		double cy = overlap(y0, y1, iy);
		uint8_t *row = p->px + (size_t)iy * p->w * 3;

		if (cy >= 1 && c.a == 255 && ix1 - ix0 > 4) {
			/* Opaque inside: one pixel, then copies doubling in size
			 * (the whole-panel background is most of a chart's pixels). */
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

static void rpng_fill_band(void *ctx, const double *x, const double *ylo, const double *yhi,
			  size_t n, struct render_color c)
{
	struct render_png *p = ctx;
	size_t k = 0;
	int ix0, ix1;

	if (n < 2)
		return;
	ix0 = (int)floor(x[0] * p->s);
	ix1 = (int)ceil(x[n - 1] * p->s);
	if (ix0 < 0)
		ix0 = 0;
	if (ix1 > (int)p->w)
		ix1 = (int)p->w;
	/* Column by column: the band's edges are functions of x, so each pixel
	 * is blended once, with its vertical coverage. */
	for (int ix = ix0; ix < ix1; ix++) {
		double px = (ix + 0.5) / p->s, t, a, b, top, bot;
		int iy0, iy1;

		while (k + 2 < n && x[k + 1] < px)
			k++;
		if (px < x[0] || px > x[n - 1])
			continue;
		t = x[k + 1] > x[k] ? (px - x[k]) / (x[k + 1] - x[k]) : 0;
		a = (ylo[k] + t * (ylo[k + 1] - ylo[k])) * p->s;
		b = (yhi[k] + t * (yhi[k + 1] - yhi[k])) * p->s;
		top = fmin(a, b);
		bot = fmax(a, b);
		iy0 = (int)floor(top);
		iy1 = (int)ceil(bot);
		if (iy0 < 0)
			iy0 = 0;
		if (iy1 > (int)p->h)
			iy1 = (int)p->h;
		for (int iy = iy0; iy < iy1; iy++) {
			uint8_t *d = p->px + ((size_t)iy * p->w + (size_t)ix) * 3;

			if (iy == iy0 || iy == iy1 - 1)
				blend(d, c, (unsigned)(overlap(top, bot, iy) * 255 + 0.5));
			else
				blend(d, c, 255);
		}
	}
}

/* ---- strokes ---- */

static void mask_touch(struct render_png *p, int y, int x0, int x1)
{
	if (p->span0[y] > x0)
		p->span0[y] = x0;
	if (p->span1[y] < x1)
		p->span1[y] = x1;
	if (y < p->ymin)
		p->ymin = y;
	if (y > p->ymax)
		p->ymax = y;
}

/* Max the coverage of the capsule around segment a-b (half width hw, in
 * pixels) into the mask: only the rows it crosses, and in each row only the
 * x range the capsule can reach. */
static void mask_segment(struct render_png *p, double ax, double ay, double bx, double by,
			 double hw)
{
	double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy, r = hw + 0.5;
	int y0 = (int)floor(fmin(ay, by) - r), y1 = (int)ceil(fmax(ay, by) + r);

	if (y0 < 0)
		y0 = 0;
	if (y1 > (int)p->h - 1)
		y1 = (int)p->h - 1;
	for (int iy = y0; iy <= y1; iy++) {
		double py = iy + 0.5, xa, xb;
		int x0, x1;
		uint8_t *m = p->mask + (size_t)iy * p->w;

		if (fabs(dy) < 1e-9) {
			if (fabs(py - ay) > r)
				continue;
			xa = fmin(ax, bx);
			xb = fmax(ax, bx);
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
			xa = fmin(ax + t0 * dx, ax + t1 * dx);
			xb = fmax(ax + t0 * dx, ax + t1 * dx);
		}
		x0 = (int)floor(xa - r);
		x1 = (int)ceil(xb + r);
		if (x0 < 0)
			x0 = 0;
		if (x1 > (int)p->w - 1)
			x1 = (int)p->w - 1;
		if (x0 > x1)
			continue;
		for (int ix = x0; ix <= x1; ix++) {
			double qx = ix + 0.5 - ax, qy = py - ay, t = 0, d, cov;
			unsigned v;

			if (len2 > 0) {
				t = (qx * dx + qy * dy) / len2;
				t = t < 0 ? 0 : t > 1 ? 1 : t;
			}
			qx -= t * dx;
			qy -= t * dy;
			d = sqrt(qx * qx + qy * qy);
			/* Box-filtered coverage of a band [d - hw, d + hw] by the
			 * pixel [-0.5, 0.5]: exact across, good for thin lines too. */
			cov = fmin(d + hw, 0.5) - fmax(d - hw, -0.5);
			if (cov <= 0)
				continue;
			v = (unsigned)(clamp01(cov) * 255 + 0.5);
			if (v > m[ix])
				m[ix] = (uint8_t)v;
		}
		mask_touch(p, iy, x0, x1);
	}
}

/* Blend the mask in colour c, then clear it. */
static void mask_flush(struct render_png *p, struct render_color c)
{
	for (int y = p->ymin; y <= p->ymax; y++) {
		uint8_t *m = p->mask + (size_t)y * p->w;
		uint8_t *row = p->px + (size_t)y * p->w * 3;

		if (p->span0[y] > p->span1[y])
			continue;
		for (int x = p->span0[y]; x <= p->span1[y]; x++)
			if (m[x]) {
				blend(row + (size_t)x * 3, c, m[x]);
				m[x] = 0;
			}
		p->span0[y] = (int)p->w;
		p->span1[y] = -1;
	}
	p->ymin = (int)p->h;
	p->ymax = -1;
}

static void rpng_stroke(void *ctx, const double *xy, size_t n, double width, struct render_color c,
		       enum render_dash dash)
{
	struct render_png *p = ctx;
	double hw = width * p->s / 2, pat[4];
	int np = render_dash_pattern(dash, width, pat);

	if (n == 0)
		return;
	if (n == 2 && np == 0 && (xy[0] == xy[2] || xy[1] == xy[3])) {
		/* Axis-aligned rules (grid, axes, ticks): centre them on a pixel
		 * row or column when their width is odd, so they stay crisp. */
		double q[4];
		int odd = ((int)floor(2 * hw + 0.5)) % 2 == 1;

		for (int i = 0; i < 4; i++)
			q[i] = xy[i] * p->s;
		if (xy[1] == xy[3])
			q[1] = q[3] = odd ? floor(q[1]) + 0.5 : floor(q[1] + 0.5);
		else
			q[0] = q[2] = odd ? floor(q[0]) + 0.5 : floor(q[0] + 0.5);
		mask_segment(p, q[0], q[1], q[2], q[3], hw);
		mask_flush(p, c);
		return;
	}
	if (n == 1) {
		mask_segment(p, xy[0] * p->s, xy[1] * p->s, xy[0] * p->s, xy[1] * p->s, hw);
		mask_flush(p, c);
		return;
	}
	if (np == 0) {
		for (size_t i = 0; i + 1 < n; i++)
			mask_segment(p, xy[2 * i] * p->s, xy[2 * i + 1] * p->s, xy[2 * i + 2] * p->s,
				     xy[2 * i + 3] * p->s, hw);
	} else {
		/* Walk the polyline, emitting the "on" pieces of the pattern. */
		int k = 0;
		double left = pat[0] * p->s;

		for (size_t i = 0; i + 1 < n; i++) {
			double ax = xy[2 * i] * p->s, ay = xy[2 * i + 1] * p->s;
			double bx = xy[2 * i + 2] * p->s, by = xy[2 * i + 3] * p->s;
			double len = hypot(bx - ax, by - ay), pos = 0;

			while (len > 0 && pos < len) {
				double step = fmin(left, len - pos);

				if (k % 2 == 0) {
					double t0 = pos / len, t1 = (pos + step) / len;

					mask_segment(p, ax + t0 * (bx - ax), ay + t0 * (by - ay),
						     ax + t1 * (bx - ax), ay + t1 * (by - ay), hw);
				}
				pos += step;
				left -= step;
				if (left <= 1e-9) {
					k = (k + 1) % np;
					left = pat[k] * p->s;
				}
			}
		}
	}
	mask_flush(p, c);
}

/* ---- markers ---- */

static double seg_dist(double px, double py, double ax, double ay, double bx, double by)
{
	double dx = bx - ax, dy = by - ay, t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy);

	t = t < 0 ? 0 : t > 1 ? 1 : t;
	return hypot(px - ax - t * dx, py - ay - t * dy);
}

/* Signed distance (pixels, negative inside) from (x, y), relative to the
 * centre, to a marker of radius r. */
static double marker_sdf(enum render_marker m, double x, double y, double r)
{
	switch (m) {
	case RENDER_CIRCLE:
		return hypot(x, y) - r;
	case RENDER_SQUARE:
		return fmax(fabs(x), fabs(y)) - 0.86 * r;
	case RENDER_DIAMOND:
		return (fabs(x) + fabs(y) - 1.2 * r) * 0.70710678;
	case RENDER_TRIANGLE:
	case RENDER_TRIANGLE_DOWN: {
		double R = 1.2 * r, yy = m == RENDER_TRIANGLE ? y - 0.2 * r : -y - 0.2 * r;
		/* Equilateral, apex up, circumradius R: three half-planes. */
		double d1 = yy - R / 2;
		double d2 = (-0.8660254 * x - 0.5 * yy) - R / 2;
		double d3 = (0.8660254 * x - 0.5 * yy) - R / 2;

		return fmax(d1, fmax(d2, d3));
	}
	case RENDER_PLUS:
		return fmin(seg_dist(x, y, -r, 0, r, 0), seg_dist(x, y, 0, -r, 0, r)) - 0.3 * r;
	case RENDER_CROSS: {
		double k = 0.8 * r;

		return fmin(seg_dist(x, y, -k, -k, k, k), seg_dist(x, y, -k, k, k, -k)) - 0.3 * r;
	}
	}
	return hypot(x, y) - r;
}

static void rpng_marker(void *ctx, double x, double y, double size, enum render_marker m,
		       struct render_color fill, struct render_color outline, double ow)
{
	struct render_png *p = ctx;
	double cx = x * p->s, cy = y * p->s, r = size * p->s / 2, hw = ow * p->s / 2;
	int ext = (int)ceil(1.3 * r + hw + 1);

	for (int iy = (int)cy - ext; iy <= (int)cy + ext; iy++)
		for (int ix = (int)cx - ext; ix <= (int)cx + ext; ix++) {
			double d = marker_sdf(m, ix + 0.5 - cx, iy + 0.5 - cy, r);

			if (fill.a)
				blend_at(p, ix, iy, fill, clamp01(0.5 - d));
			if (outline.a && hw > 0)
				blend_at(p, ix, iy, outline,
					 clamp01(fmin(fabs(d) + hw, 0.5) - fmax(fabs(d) - hw, -0.5)));
		}
}

/* ---- text ---- */

/* Next code point of UTF-8 s (advancing *s); U+FFFD for a bad byte. */
static uint32_t utf8_next(const char **s)
{
	const unsigned char *p = (const unsigned char *)*s;
	uint32_t cp;
	int n;

	if (p[0] < 0x80) {
		*s += 1;
		return p[0];
	}
	if ((p[0] & 0xE0) == 0xC0)
		cp = p[0] & 0x1F, n = 1;
	else if ((p[0] & 0xF0) == 0xE0)
		cp = p[0] & 0x0F, n = 2;
	else if ((p[0] & 0xF8) == 0xF0)
		cp = p[0] & 0x07, n = 3;
	else {
		*s += 1;
		return 0xFFFD;
	}
	for (int i = 1; i <= n; i++) {
		if ((p[i] & 0xC0) != 0x80) {
			*s += i;
			return 0xFFFD;
		}
		cp = cp << 6 | (p[i] & 0x3F);
	}
	*s += n + 1;
	return cp;
}

/* Advance of cp in 1/1000 em, truncated like libharu's widths so that PNG
 * and PDF lay text out alike. */
static int rpng_advance(struct render_png *p, uint32_t cp)
{
	int a;

	if (cp < ADV_CACHE && p->adv[cp] >= 0)
		return p->adv[cp];
	if (FT_Load_Char(p->face, cp, FT_LOAD_NO_SCALE) != 0)
		a = 0;
	else
		a = (int)(p->face->glyph->advance.x * 1000 / p->upem);
	if (cp < ADV_CACHE)
		p->adv[cp] = (int16_t)a;
	p->face_size64 = 0;       /* NO_SCALE loads leave the size alone, but be safe */
	return a;
}

static double rpng_text_width(void *ctx, const char *s, double size)
{
	struct render_png *p = ctx;
	long units = 0;

	while (*s)
		units += rpng_advance(p, utf8_next(&s));
	return (double)units * size / 1000;
}

static const struct glyph *rpng_glyph(struct render_png *p, uint32_t cp, int size64)
{
	size_t h = ((size_t)cp * 2654435761u ^ (size_t)size64 * 40503u) & (GLYPH_SLOTS - 1);
	struct glyph *g;
	FT_Bitmap *bm;

	for (;;) {
		g = &p->glyphs[h];
		if (g->size64 == 0)
			break;
		if (g->cp == cp && g->size64 == size64)
			return g;
		h = (h + 1) & (GLYPH_SLOTS - 1);
	}
	/* The table is large for a chart's few dozen glyphs; if it ever
	 * fills, draw nothing rather than loop. */
	g->cp = cp;
	g->size64 = size64;
	if (p->face_size64 != size64) {
		if (FT_Set_Char_Size(p->face, 0, size64, 72, 72) != 0)
			return g;
		p->face_size64 = size64;
	}
	if (FT_Load_Char(p->face, cp, FT_LOAD_RENDER | FT_LOAD_TARGET_LIGHT) != 0)
		return g;
	bm = &p->face->glyph->bitmap;
	g->left = p->face->glyph->bitmap_left;
	g->top = p->face->glyph->bitmap_top;
	g->w = bm->width;
	g->h = bm->rows;
	if (g->w && g->h && bm->pixel_mode == FT_PIXEL_MODE_GRAY) {
		g->bits = xmalloc((size_t)g->w * g->h);
		for (unsigned r = 0; r < g->h; r++)
			memcpy(g->bits + (size_t)r * g->w, bm->buffer + (long)r * bm->pitch, g->w);
	} else {
		g->w = g->h = 0;
	}
	return g;
}

static void rpng_text(void *ctx, double x, double y, const char *utf8, double size,
		     struct render_color c, enum render_align align, int vertical)
{
	struct render_png *p = ctx;
	double w = rpng_text_width(p, utf8, size), pen;
	int size64 = (int)(size * p->s * 64 + 0.5), base;
	const char *s = utf8;
	size_t used = 0;

	if (size64 <= 0)
		return;
	pen = align == RENDER_LEFT ? 0 : align == RENDER_CENTER ? -w / 2 : -w;
	base = vertical ? (int)floor(x * p->s + 0.5) : (int)floor(y * p->s + 0.5);
	while (*s) {
		uint32_t cp = utf8_next(&s);
		const struct glyph *g = rpng_glyph(p, cp, size64);
		int o = vertical ? (int)floor((y - pen) * p->s + 0.5) : (int)floor((x + pen) * p->s + 0.5);

		if (++used > GLYPH_SLOTS / 2)
			break;
		for (unsigned r = 0; r < g->h; r++)
			for (unsigned k = 0; k < g->w; k++) {
				uint8_t v = g->bits[(size_t)r * g->w + k];

				if (v == 0)
					continue;
				if (vertical)
					/* Glyph right = page up, glyph down = page right. */
					blend_at(p, base + (int)r - g->top, o - g->left - (int)k, c, v / 255.0);
				else
					blend_at(p, o + g->left + (int)k, base - g->top + (int)r, c, v / 255.0);
			}
		pen += rpng_advance(p, cp) * size / 1000;
	}
}

static const struct render_ops rpng_ops = {
	rpng_fill_rect, rpng_fill_band, rpng_stroke, rpng_marker, rpng_text, rpng_text_width,
};

const struct render_ops *render_png_ops(void)
{
	return &rpng_ops;
}

/* The pixel buffer: in 2 MiB pages where the kernel offers them, since
 * faulting in a 4-panel canvas 4 KiB at a time costs more than drawing it. */
static uint8_t *render_png_alloc(size_t n)
{
	void *v = NULL;
	size_t huge = (size_t)2 << 20;

	if (n >= huge && posix_memalign(&v, huge, (n + huge - 1) / huge * huge) == 0) {
#ifdef MADV_HUGEPAGE
		madvise(v, (n + huge - 1) / huge * huge, MADV_HUGEPAGE);
#endif
		return v;
	}
	return xmalloc(n);
}

int render_png_new(double width, double height, unsigned scale, const char *font_path,
		   struct render_png **out, struct rs_err *err)
{
	struct render_png *p;
	double w = ceil(width * scale), h = ceil(height * scale);
	FT_Error fe;

	*out = NULL;
	if (scale < 1 || scale > 4)
		return rs_err_set(err, "scale %u is not 1..4", scale);
	if (!(w >= 1 && h >= 1 && w * h <= PNG_MAX_PIXELS))
		return rs_err_set(err, "image of %.0fx%.0f pixels is too large (at most %u pixels)", w, h,
				  PNG_MAX_PIXELS);
	p = xcalloc(1, sizeof *p);
	p->w = (unsigned)w;
	p->h = (unsigned)h;
	p->s = scale;
	if (FT_Init_FreeType(&p->ft) != 0) {
		free(p);
		return rs_err_set(err, "cannot initialise FreeType");
	}
	fe = FT_New_Face(p->ft, font_path, 0, &p->face);
	if (fe != 0) {
		FT_Done_FreeType(p->ft);
		free(p);
		return rs_err_set(err, "font %s: %s", font_path,
				  fe == FT_Err_Cannot_Open_Resource ? "cannot open it (give --font PATH)" :
				  fe == FT_Err_Unknown_File_Format ? "not a font FreeType can read" :
				  "FreeType cannot load it");
	}
	if (!FT_IS_SCALABLE(p->face)) {
		render_png_free(p);
		return rs_err_set(err, "font %s: not a scalable (TrueType/OpenType) font", font_path);
	}
	p->upem = p->face->units_per_EM;
	memset(p->adv, 0xFF, sizeof p->adv);
	p->px = render_png_alloc((size_t)p->w * p->h * 3);
	memset(p->px, 0xFF, (size_t)p->w * p->h * 3);
	p->mask = render_png_alloc((size_t)p->w * p->h);
	memset(p->mask, 0, (size_t)p->w * p->h);
	p->span0 = xmalloc(p->h * sizeof *p->span0);
	p->span1 = xmalloc(p->h * sizeof *p->span1);
	for (unsigned y = 0; y < p->h; y++) {
		p->span0[y] = (int)p->w;
		p->span1[y] = -1;
	}
	p->ymin = (int)p->h;
	p->ymax = -1;
	p->glyphs = xcalloc(GLYPH_SLOTS, sizeof *p->glyphs);
	*out = p;
	return 0;
}

void render_png_free(struct render_png *p)
{
	if (p == NULL)
		return;
	if (p->glyphs)
		for (size_t i = 0; i < GLYPH_SLOTS; i++)
			free(p->glyphs[i].bits);
	free(p->glyphs);
	if (p->face)
		FT_Done_Face(p->face);
	if (p->ft)
		FT_Done_FreeType(p->ft);
	free(p->px);
	free(p->mask);
	free(p->span0);
	free(p->span1);
	free(p);
}

/* libpng reports errors by longjmp; the message is kept for rs_err. */
struct png_failure {
	jmp_buf jb;
	char msg[200];
};

static void rpng_error(png_structp png, png_const_charp msg)
{
	struct png_failure *f = png_get_error_ptr(png);

	snprintf(f->msg, sizeof f->msg, "%s", msg);
	longjmp(f->jb, 1);
}

static void rpng_warning(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg;
}

int render_png_write(struct render_png *p, FILE *fp, struct rs_err *err)
{
	/* The classic API, for the pHYs chunk that tells viewers --scale 2 is
	 * a 144 dpi image, and for the compression settings: no filters and
	 * zlib level 3 suit a chart's flat colours, twice as fast as the
	 * defaults for a few per cent more bytes. */
	struct png_failure f;
	png_structp png;
	png_infop info;
	unsigned ppm = (unsigned)(p->s * 72 / 0.0254 + 0.5);

	f.msg[0] = '\0';
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &f, rpng_error, rpng_warning);
	if (png == NULL)
		return rs_err_set(err, "libpng: cannot start a PNG");
	info = png_create_info_struct(png);
	if (info == NULL) {
		png_destroy_write_struct(&png, NULL);
		return rs_err_set(err, "libpng: cannot start a PNG");
	}
	if (setjmp(f.jb)) {
		png_destroy_write_struct(&png, &info);
		return rs_err_set(err, "libpng: %s", f.msg);
	}
	png_init_io(png, fp);
	png_set_IHDR(png, info, p->w, p->h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_set_pHYs(png, info, ppm, ppm, PNG_RESOLUTION_METER);
	png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
	png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
	png_set_compression_level(png, RPNG_ZLEVEL);
	png_write_info(png, info);
	for (unsigned y = 0; y < p->h; y++)
		png_write_row(png, p->px + (size_t)y * p->w * 3);
	png_write_end(png, info);
	png_destroy_write_struct(&png, &info);
	return 0;
}

const uint8_t *render_png_pixels(const struct render_png *p, unsigned *w, unsigned *h)
{
	*w = p->w;
	*h = p->h;
	return p->px;
}
