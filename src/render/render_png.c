/* render_png.c: the PNG back-end's drawing operations.  Each is recorded,
 * in pixels, on a display list (see render_png_int.h); text is shaped here
 * with FreeType into placed glyph bitmaps.  Drawing happens later, a band
 * at a time (render_png_raster.c, render_png_write.c). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <ft2build.h>
#include FT_FREETYPE_H

#include "render/font.h"
#include "render/render_png.h"
#include "render/render_png_int.h"
#include "base/vec.h"
#include "base/xalloc.h"

/* A panel of the largest --size at --scale 4.  Drawing in bands keeps
 * memory to a few rows of the width, whatever the height. */
#define PNG_MAX_SIDE (4 * RENDER_SIZE_MAX)
#define GLYPH_SLOTS 2048          /* power of two */
#define ADV_CACHE 0x2200          /* code points whose advance is cached */

struct rpng_font {
	FT_Library ft;
	FT_Face face;
	int face_size64;
	int upem;
	size_t nglyphs;           /* slots in use */
	int16_t adv[ADV_CACHE];   /* advance in 1/1000 em (as libharu), -1 unknown */
	struct rpng_glyph *glyphs;
};

/* ---- the display list ---- */

/* The arrays of a drawing are tested for room inline, and vec_reserve
 * called only to grow them: a chart pushes a command per line and a place
 * per glyph, and the common case stays a compare, not a call. */
static struct rpng_cmd *push_cmd(struct render_png *p, enum rpng_op op, struct render_color c)
{
	struct rpng_cmd *cmd;

	if (p->ncmds == p->capcmds)
		p->cmds = vec_reserve(p->cmds, &p->capcmds, p->ncmds + 1, sizeof *p->cmds, 256);
	cmd = &p->cmds[p->ncmds++];
	memset(cmd, 0, sizeof *cmd);
	cmd->op = op;
	cmd->c = c;
	return cmd;
}

/* Room for n more doubles of payload; returns where they go. */
static double *push_f(struct render_png *p, size_t n)
{
	if (p->capf - p->nf < n)
		p->f = vec_reserve(p->f, &p->capf, p->nf + n, sizeof *p->f, 4096);
	p->nf += n;
	return p->f + p->nf - n;
}

/* Where a chart's coordinate (in points) becomes a pixel, an int, it must
 * be finite and within this far of the page, so that no cast or sum of
 * pixels leaves int's range whatever the chart model hands over.  The
 * model places nothing beyond its page; a coordinate out there (a value a
 * scale could not place: issue 40, D9, a tick at 0 on a log scale sent a
 * label to minus infinity) is a fault upstream, and the back-end leaves
 * that one mark undrawn (a segment: clipped to this box) rather than wrap
 * around or crash. */
#define RPNG_FAR (4.0 * RENDER_SIZE_MAX)

/* Whether v (points) can be drawn: finite and within RPNG_FAR. */
static int rpng_ok(double v)
{
	return v >= -RPNG_FAR && v <= RPNG_FAR;
}

/* Rows lo..hi (any doubles, NaN included) as the command's clamped row
 * range. */
static void cmd_rows(const struct render_png *p, struct rpng_cmd *cmd, double lo, double hi)
{
	double top = floor(lo), bot = ceil(hi) + 1;

	cmd->y0 = !(top > 0) ? 0 : top > p->h ? (int)p->h : (int)top;
	cmd->y1 = !(bot > 0) ? 0 : bot > p->h ? (int)p->h : (int)bot;
}

/* ---- rectangles and bands ---- */

static void rpng_fill_rect(void *ctx, double x, double y, double w, double h, struct render_color c)
{
	struct render_png *p = ctx;
	struct rpng_cmd *cmd;

	if (c.a == 0 || !(w > 0) || !(h > 0))
		return;
	/* A rectangle is clipped exactly by clamping its edges. */
	if (!rpng_ok(x) && !rpng_ok(x + w) && !(x < -RPNG_FAR && x + w > RPNG_FAR))
		return;
	if (!rpng_ok(y) && !rpng_ok(y + h) && !(y < -RPNG_FAR && y + h > RPNG_FAR))
		return;
	w = fmin(x + w, RPNG_FAR);
	h = fmin(y + h, RPNG_FAR);
	x = fmax(x, -RPNG_FAR);
	y = fmax(y, -RPNG_FAR);
	w -= x;
	h -= y;
	if (!(w > 0) || !(h > 0))
		return;
	cmd = push_cmd(p, RPNG_RECT, c);
	cmd->a[0] = x * p->s;
	cmd->a[1] = y * p->s;
	cmd->a[2] = (x + w) * p->s;
	cmd->a[3] = (y + h) * p->s;
	cmd_rows(p, cmd, cmd->a[1], cmd->a[3]);
}

static void rpng_fill_band(void *ctx, const double *x, const double *ylo, const double *yhi,
			  size_t n, struct render_color c)
{
	struct render_png *p = ctx;
	struct rpng_cmd *cmd;
	double lo = INFINITY, hi = -INFINITY, *col;
	size_t k = 0;
	int ix0, ix1;

	if (n < 2 || c.a == 0 || !rpng_ok(x[0]) || !rpng_ok(x[n - 1]))
		return;
	ix0 = (int)floor(x[0] * p->s);
	ix1 = (int)ceil(x[n - 1] * p->s);
	if (ix0 < 0)
		ix0 = 0;
	if (ix1 > (int)p->w)
		ix1 = (int)p->w;
	if (ix1 <= ix0)
		return;
	cmd = push_cmd(p, RPNG_BAND, c);
	cmd->a[0] = ix0;
	if (p->capluts - p->nluts < 768)
		p->luts = vec_reserve(p->luts, &p->capluts, p->nluts + 768, 1, 768 * 32);
	cmd->kind = (int)p->nluts;
	rpng_band_lut(c, (uint8_t (*)[256])(p->luts + p->nluts));
	p->nluts += 768;
	cmd->n = (size_t)(ix1 - ix0);
	col = push_f(p, 2 * cmd->n);
	cmd->off = p->nf - 2 * cmd->n;
	/* Each column's top and bottom, linear between samples. */
	for (int ix = ix0; ix < ix1; ix++, col += 2) {
		double px = (ix + 0.5) / p->s, t, a, b;

		while (k + 2 < n && x[k + 1] < px)
			k++;
		if (px < x[0] || px > x[n - 1]) {
			col[0] = 1;
			col[1] = 0;
			continue;
		}
		t = x[k + 1] > x[k] ? (px - x[k]) / (x[k + 1] - x[k]) : 0;
		a = fmin(RPNG_FAR, fmax(-RPNG_FAR, ylo[k] + t * (ylo[k + 1] - ylo[k]))) * p->s;
		b = fmin(RPNG_FAR, fmax(-RPNG_FAR, yhi[k] + t * (yhi[k + 1] - yhi[k]))) * p->s;
		if (isnan(a) || isnan(b)) {
			col[0] = 1;
			col[1] = 0;
			continue;
		}
		col[0] = fmin(a, b);
		col[1] = fmax(a, b);
		lo = fmin(lo, col[0]);
		hi = fmax(hi, col[1]);
	}
	if (lo > hi) {
		p->ncmds--;       /* no column to draw */
		p->nluts -= 768;
	}
	else
		cmd_rows(p, cmd, lo, hi);
}

/* ---- strokes ---- */

/* Clip the segment a-b (pixels) to the box of RPNG_FAR points around the
 * page (Liang-Barsky): 0 when nothing of it is inside, or an end is not
 * finite. */
static int rpng_clip(const struct render_png *p, double *ax, double *ay, double *bx, double *by)
{
	double far = RPNG_FAR * p->s, t0 = 0, t1 = 1, dx = *bx - *ax, dy = *by - *ay;
	double q[4] = { *ax + far, far - *ax, *ay + far, far - *ay }, d[4] = { -dx, dx, -dy, dy };

	if (!isfinite(*ax) || !isfinite(*ay) || !isfinite(*bx) || !isfinite(*by) ||
	    !isfinite(dx) || !isfinite(dy))
		return 0;
	for (int i = 0; i < 4; i++) {
		if (d[i] == 0) {
			if (q[i] < 0)
				return 0;
			continue;
		}
		if (d[i] < 0)
			t0 = fmax(t0, q[i] / d[i]);
		else
			t1 = fmin(t1, q[i] / d[i]);
	}
	if (t0 > t1)
		return 0;
	*bx = *ax + t1 * dx;
	*by = *ay + t1 * dy;
	*ax += t0 * dx;
	*ay += t0 * dy;
	return 1;
}

static void push_segment(struct render_png *p, struct rpng_cmd *cmd, double ax, double ay, double bx,
			 double by)
{
	double *seg;

	if (!rpng_clip(p, &ax, &ay, &bx, &by))
		return;
	seg = push_f(p, 4);

	seg[0] = ax;
	seg[1] = ay;
	seg[2] = bx;
	seg[3] = by;
	cmd->n++;
}

static void rpng_stroke(void *ctx, const double *xy, size_t n, double width, struct render_color c,
		       enum render_dash dash)
{
	struct render_png *p = ctx;
	double hw = width * p->s / 2, pat[4], lo = INFINITY, hi = -INFINITY;
	int np = render_dash_pattern(dash, width, pat);
	struct rpng_cmd *cmd;

	if (n == 0 || c.a == 0 || !rpng_ok(width))
		return;
	cmd = push_cmd(p, RPNG_STROKE, c);
	cmd->a[0] = hw;
	cmd->off = p->nf;
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
		push_segment(p, cmd, q[0], q[1], q[2], q[3]);
	} else if (n == 1) {
		push_segment(p, cmd, xy[0] * p->s, xy[1] * p->s, xy[0] * p->s, xy[1] * p->s);
	} else if (np == 0) {
		for (size_t i = 0; i + 1 < n; i++)
			push_segment(p, cmd, xy[2 * i] * p->s, xy[2 * i + 1] * p->s, xy[2 * i + 2] * p->s,
				     xy[2 * i + 3] * p->s);
	} else {
		/* Walk the polyline, keeping the "on" pieces of the pattern. */
		int k = 0;
		double left = pat[0] * p->s;

		for (size_t i = 0; i + 1 < n; i++) {
			double ax = xy[2 * i] * p->s, ay = xy[2 * i + 1] * p->s;
			double bx = xy[2 * i + 2] * p->s, by = xy[2 * i + 3] * p->s, len, pos = 0;

			/* Walked on its part near the page only: an end at
			 * infinity would make the walk endless. */
			if (!rpng_clip(p, &ax, &ay, &bx, &by))
				continue;
			len = hypot(bx - ax, by - ay);

			while (len > 0 && pos < len) {
				double step = fmin(left, len - pos);

				if (k % 2 == 0) {
					double t0 = pos / len, t1 = (pos + step) / len;

					push_segment(p, cmd, ax + t0 * (bx - ax), ay + t0 * (by - ay),
						     ax + t1 * (bx - ax), ay + t1 * (by - ay));
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
	for (size_t i = 0; i < cmd->n; i++) {
		const double *seg = p->f + cmd->off + 4 * i;

		lo = fmin(lo, fmin(seg[1], seg[3]));
		hi = fmax(hi, fmax(seg[1], seg[3]));
	}
	if (cmd->n == 0)
		p->ncmds--;
	else
		cmd_rows(p, cmd, lo - hw - 1, hi + hw + 1);
}

/* ---- markers ---- */

static void rpng_marker(void *ctx, double x, double y, double size, enum render_marker m,
		       struct render_color fill, struct render_color outline, double ow)
{
	struct render_png *p = ctx;
	struct rpng_cmd *cmd;
	double ext;

	if (!rpng_ok(x) || !rpng_ok(y) || !rpng_ok(size) || !rpng_ok(ow))
		return;
	cmd = push_cmd(p, RPNG_MARKER, fill);
	cmd->c2 = outline;
	cmd->kind = (int)m;
	cmd->a[0] = x * p->s;
	cmd->a[1] = y * p->s;
	cmd->a[2] = size * p->s / 2;
	cmd->a[3] = ow * p->s / 2;
	ext = ceil(1.3 * cmd->a[2] + cmd->a[3] + 1) + 1;
	cmd_rows(p, cmd, cmd->a[1] - ext, cmd->a[1] + ext);
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
static int rpng_advance(struct rpng_font *f, uint32_t cp)
{
	int a;

	if (cp < ADV_CACHE && f->adv[cp] >= 0)
		return f->adv[cp];
	if (FT_Load_Char(f->face, cp, FT_LOAD_NO_SCALE) != 0)
		a = 0;
	else
		a = (int)(f->face->glyph->advance.x * 1000 / f->upem);
	if (cp < ADV_CACHE)
		f->adv[cp] = (int16_t)a;
	f->face_size64 = 0;       /* NO_SCALE loads leave the size alone, but be safe */
	return a;
}

static double rpng_text_width(void *ctx, const char *s, double size)
{
	struct render_png *p = ctx;
	long units = 0;

	while (*s)
		units += rpng_advance(p->font, utf8_next(&s));
	return (double)units * size / 1000;
}

static const struct rpng_glyph *rpng_glyph(struct rpng_font *f, uint32_t cp, int size64)
{
	size_t h = ((size_t)cp * 2654435761u ^ (size_t)size64 * 40503u) & (GLYPH_SLOTS - 1);
	struct rpng_glyph *g;
	FT_Bitmap *bm;

	for (;;) {
		g = &f->glyphs[h];
		if (g->size64 == 0)
			break;
		if (g->cp == cp && g->size64 == size64)
			return g;
		h = (h + 1) & (GLYPH_SLOTS - 1);
	}
	/* A chart has a few dozen glyphs; keeping the table at most half full
	 * keeps lookups short.  Past that, text is dropped, never looped on. */
	if (f->nglyphs >= GLYPH_SLOTS / 2)
		return NULL;
	f->nglyphs++;
	g->cp = cp;
	g->size64 = size64;
	if (f->face_size64 != size64) {
		if (FT_Set_Char_Size(f->face, 0, size64, 72, 72) != 0)
			return g;
		f->face_size64 = size64;
	}
	if (FT_Load_Char(f->face, cp, FT_LOAD_RENDER | FT_LOAD_TARGET_LIGHT) != 0)
		return g;
	bm = &f->face->glyph->bitmap;
	g->left = f->face->glyph->bitmap_left;
	g->top = f->face->glyph->bitmap_top;
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
	struct rpng_font *f = p->font;
	double w, pen, lo = INFINITY, hi = -INFINITY;
	int size64, base;
	const char *s = utf8;
	struct rpng_cmd *cmd;

	if (!rpng_ok(x) || !rpng_ok(y) || !(size > 0 && size <= RENDER_SIZE_MAX) || c.a == 0)
		return;
	w = rpng_text_width(p, utf8, size);
	size64 = (int)(size * p->s * 64 + 0.5);
	if (size64 <= 0 || !rpng_ok(w))
		return;
	cmd = push_cmd(p, RPNG_GLYPHS, c);
	cmd->kind = vertical;
	cmd->off = p->nplaces;
	pen = align == RENDER_LEFT ? 0 : align == RENDER_CENTER ? -w / 2 : -w;
	base = vertical ? (int)floor(x * p->s + 0.5) : (int)floor(y * p->s + 0.5);
	while (*s) {
		uint32_t cp = utf8_next(&s);
		int o = vertical ? (int)floor((y - pen) * p->s + 0.5) : (int)floor((x + pen) * p->s + 0.5);
		const struct rpng_glyph *g = rpng_glyph(f, cp, size64);
		struct rpng_place *pl;

		pen += rpng_advance(f, cp) * size / 1000;
		if (g == NULL || g->w == 0)
			continue;
		if (p->nplaces == p->capplaces)
			p->places = vec_reserve(p->places, &p->capplaces, p->nplaces + 1,
						sizeof *p->places, 1024);
		pl = &p->places[p->nplaces++];
		pl->g = g;
		if (vertical) {
			/* Glyph right = page up, glyph down = page right. */
			pl->x = base - g->top;
			pl->y = o - g->left;
			lo = fmin(lo, pl->y - (double)g->w);
			hi = fmax(hi, pl->y);
		} else {
			pl->x = o + g->left;
			pl->y = base - g->top;
			lo = fmin(lo, pl->y);
			hi = fmax(hi, pl->y + (double)g->h);
		}
		cmd->n++;
	}
	if (cmd->n == 0)
		p->ncmds--;
	else
		cmd_rows(p, cmd, lo, hi);
}

static const struct render_ops rpng_ops = {
	rpng_fill_rect, rpng_fill_band, rpng_stroke, rpng_marker, rpng_text, rpng_text_width,
};

const struct render_ops *render_png_ops(void)
{
	return &rpng_ops;
}

/* ---- canvas ---- */

int render_png_new(double width, double height, unsigned scale, const char *font_path,
		   struct render_png **out, struct rs_err *err)
{
	struct render_png *p;
	struct rpng_font *f;
	double w = ceil(width * scale), h = ceil(height * scale);

	*out = NULL;
	if (scale < 1 || scale > 4)
		return rs_err_set(err, "scale %u is not 1..4", scale);
	if (!(w >= 1 && h >= 1 && w <= PNG_MAX_SIDE && h <= PNG_MAX_SIDE))
		return rs_err_set(err, "image of %.0fx%.0f pixels is too large (at most %d pixels a side)",
				  w, h, PNG_MAX_SIDE);
	p = xcalloc(1, sizeof *p);
	p->w = (unsigned)w;
	p->h = (unsigned)h;
	p->s = scale;
	p->font = f = xcalloc(1, sizeof *f);
	if (font_face_open(font_path, &f->ft, &f->face, err) < 0) {
		render_png_free(p);
		return -1;
	}
	f->upem = f->face->units_per_EM;
	memset(f->adv, 0xFF, sizeof f->adv);
	f->glyphs = xcalloc(GLYPH_SLOTS, sizeof *f->glyphs);
	*out = p;
	return 0;
}

void render_png_free(struct render_png *p)
{
	struct rpng_font *f;

	if (p == NULL)
		return;
	f = p->font;
	if (f) {
		if (f->glyphs)
			for (size_t i = 0; i < GLYPH_SLOTS; i++)
				free(f->glyphs[i].bits);
		free(f->glyphs);
		if (f->face)
			FT_Done_Face(f->face);
		if (f->ft)
			FT_Done_FreeType(f->ft);
		free(f);
	}
	free(p->cmds);
	free(p->f);
	free(p->places);
	free(p->luts);
	free(p->full);
	free(p);
}

const uint8_t *render_png_pixels(struct render_png *p, unsigned *w, unsigned *h)
{
	struct rpng_band b;

	rpng_band_init(&b, p, (int)p->h);
	rpng_band_draw(&b, 0, (int)p->h);
	free(p->full);
	p->full = b.px;           /* one band of every row: the whole image */
	b.px = NULL;
	rpng_band_free(&b);
	*w = p->w;
	*h = p->h;
	return p->full;
}
