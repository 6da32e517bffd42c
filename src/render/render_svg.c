/* render_svg.c: the SVG back-end: each drawing call appended as an SVG
 * element, runs of one style in one <g>, text as <text> measured with
 * FreeType as the PNG back-end measures it. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ft2build.h>
#include FT_FREETYPE_H

#include "render/font.h"
#include "render/render_svg.h"
#include "base/sbuf.h"
#include "base/xalloc.h"

#define SVG_MAX_SIDE (4 * RENDER_SIZE_MAX)
#define SVG_ADV_CACHE 0x2200      /* code points whose advance is cached */
#define SVG_STYLE 256             /* room for one <g>'s attributes */

struct render_svg {
	double w, h;
	char *title;              /* NULL: none */
	char *family;             /* the font-family attribute's value */
	struct sbuf body;         /* the elements drawn so far */
	char style[SVG_STYLE];    /* the open <g>'s attributes; "" when none is open */
	FT_Library ft;
	FT_Face face;
	int upem;
	int16_t adv[SVG_ADV_CACHE]; /* advance in 1/1000 em (as libharu), -1 unknown */
};

/* ---- text as XML ---- */

/* The next character of s as SVG draws it, advancing *s: U+FFFD for a
 * byte that does not start a valid UTF-8 sequence (overlong, surrogate,
 * past U+10FFFF, cut short) and for what XML 1.0 forbids; a space for
 * tab, newline and return, which an attribute or a text would fold. */
static uint32_t svg_next(const char **s)
{
	const unsigned char *p = (const unsigned char *)*s;
	uint32_t cp, min;
	int n;

	if (p[0] < 0x80) {
		*s += 1;
		cp = p[0];
		return cp == '\t' || cp == '\n' || cp == '\r' ? ' ' : cp < 0x20 ? 0xFFFD : cp;
	}
	if (p[0] >= 0xC2 && p[0] <= 0xDF)
		cp = p[0] & 0x1F, n = 1, min = 0x80;
	else if ((p[0] & 0xF0) == 0xE0)
		cp = p[0] & 0x0F, n = 2, min = 0x800;
	else if (p[0] >= 0xF0 && p[0] <= 0xF4)
		cp = p[0] & 0x07, n = 3, min = 0x10000;
	else {
		*s += 1;
		return 0xFFFD;
	}
	for (int i = 1; i <= n; i++) {
		if ((p[i] & 0xC0) != 0x80) {
			*s += i;          /* the NUL or the next character stays */
			return 0xFFFD;
		}
		cp = cp << 6 | (p[i] & 0x3F);
	}
	*s += n + 1;
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE ||
	    cp == 0xFFFF)
		return 0xFFFD;
	return cp;
}

void render_svg_escape(struct sbuf *b, const char *utf8)
{
	const char *s = utf8;

	while (*s) {
		uint32_t cp = svg_next(&s);
		char u[4];

		switch (cp) {
		case '&':
			sbuf_add(b, "&amp;", 5);
			continue;
		case '<':
			sbuf_add(b, "&lt;", 4);
			continue;
		case '>':
			sbuf_add(b, "&gt;", 4);
			continue;
		case '"':
			sbuf_add(b, "&quot;", 6);
			continue;
		case '\'':
			sbuf_add(b, "&#39;", 5);
			continue;
		}
		if (cp < 0x80) {
			u[0] = (char)cp;
			sbuf_add(b, u, 1);
		} else if (cp < 0x800) {
			u[0] = (char)(0xC0 | cp >> 6);
			u[1] = (char)(0x80 | (cp & 0x3F));
			sbuf_add(b, u, 2);
		} else if (cp < 0x10000) {
			u[0] = (char)(0xE0 | cp >> 12);
			u[1] = (char)(0x80 | (cp >> 6 & 0x3F));
			u[2] = (char)(0x80 | (cp & 0x3F));
			sbuf_add(b, u, 3);
		} else {
			u[0] = (char)(0xF0 | cp >> 18);
			u[1] = (char)(0x80 | (cp >> 12 & 0x3F));
			u[2] = (char)(0x80 | (cp >> 6 & 0x3F));
			u[3] = (char)(0x80 | (cp & 0x3F));
			sbuf_add(b, u, 4);
		}
	}
}

/* ---- numbers and styles ---- */

/* v to 1/100 point, as digits and '.': integers, so no locale can give a
 * comma.  Not finite as 0 and beyond a billion clamped, so that the
 * conversion to an integer is always defined (a chart never draws there:
 * this only keeps a wild value from being undefined behaviour). */
static void svg_num(struct sbuf *b, double v)
{
	char t[40];
	long long k;
	int n;

	if (!isfinite(v))
		v = 0;
	v = v > 1e9 ? 1e9 : v < -1e9 ? -1e9 : v;
	k = llround(v * 100);
	n = snprintf(t, sizeof t, "%s%lld", k < 0 ? "-" : "", llabs(k) / 100);
	k = llabs(k) % 100;
	if (k != 0)
		n += snprintf(t + n, sizeof t - (size_t)n, k % 10 ? ".%02lld" : ".%lld",
			      k % 10 ? k : k / 10);
	sbuf_add(b, t, (size_t)n);
}

/* " name=v" */
static void svg_attr(struct sbuf *b, const char *name, double v)
{
	sbuf_printf(b, " %s=\"", name);
	svg_num(b, v);
	sbuf_add(b, "\"", 1);
}

/* " x,y" */
static void svg_point(struct sbuf *b, double x, double y, int first)
{
	if (!first)
		sbuf_add(b, " ", 1);
	svg_num(b, x);
	sbuf_add(b, ",", 1);
	svg_num(b, y);
}

/* " fill="#rrggbb"" and its opacity when not opaque; prop is fill or stroke. */
static void svg_paint(struct sbuf *b, const char *prop, struct render_color c)
{
	if (c.a == 0) {
		sbuf_printf(b, " %s=\"none\"", prop);
		return;
	}
	sbuf_printf(b, " %s=\"#%02x%02x%02x\"", prop, c.r, c.g, c.b);
	if (c.a != 255) {
		char name[32];

		snprintf(name, sizeof name, "%s-opacity", prop);
		svg_attr(b, name, c.a / 255.0);
	}
}

/* Make attrs the open group's: close the one open if it differs, and open
 * one with these attributes.  Runs of one style (a grid's lines, a
 * series' markers, the tick labels) share a <g> and so their attributes. */
static void svg_group(struct render_svg *s, const struct sbuf *attrs)
{
	if (strcmp(s->style, attrs->s) == 0)
		return;
	if (s->style[0])
		sbuf_add(&s->body, "</g>\n", 5);
	sbuf_printf(&s->body, "<g%s>\n", attrs->s);
	snprintf(s->style, sizeof s->style, "%s", attrs->s);
}

/* ---- drawing ---- */

static void svg_fill_rect(void *ctx, double x, double y, double w, double h, struct render_color c)
{
	struct render_svg *s = ctx;
	char buf[SVG_STYLE];
	struct sbuf a;

	if (c.a == 0)
		return;
	if (w < 0)
		x += w, w = -w;
	if (h < 0)
		y += h, h = -h;
	sbuf_fixed(&a, buf, sizeof buf);
	svg_paint(&a, "fill", c);
	svg_group(s, &a);
	sbuf_add(&s->body, "<rect", 5);
	svg_attr(&s->body, "x", x);
	svg_attr(&s->body, "y", y);
	svg_attr(&s->body, "width", w);
	svg_attr(&s->body, "height", h);
	sbuf_add(&s->body, "/>\n", 3);
}

static void svg_fill_band(void *ctx, const double *x, const double *ylo, const double *yhi,
			  size_t n, struct render_color c)
{
	struct render_svg *s = ctx;
	char buf[SVG_STYLE];
	struct sbuf a;

	if (n < 2 || c.a == 0)
		return;
	sbuf_fixed(&a, buf, sizeof buf);
	svg_paint(&a, "fill", c);
	svg_group(s, &a);
	sbuf_add(&s->body, "<polygon points=\"", 17);
	for (size_t i = 0; i < n; i++)
		svg_point(&s->body, x[i], yhi[i], i == 0);
	for (size_t i = n; i-- > 0;)
		svg_point(&s->body, x[i], ylo[i], 0);
	sbuf_add(&s->body, "\"/>\n", 4);
}

/* The attributes of a line of width w in c, caps and joins as given. */
static void svg_line_style(struct sbuf *a, double w, struct render_color c, const char *cap,
			   const char *join)
{
	sbuf_add(a, " fill=\"none\"", 12);
	svg_paint(a, "stroke", c);
	svg_attr(a, "stroke-width", w);
	sbuf_printf(a, " stroke-linecap=\"%s\" stroke-linejoin=\"%s\"", cap, join);
}

static void svg_stroke(void *ctx, const double *xy, size_t n, double width, struct render_color c,
		       enum render_dash dash)
{
	struct render_svg *s = ctx;
	char buf[SVG_STYLE];
	struct sbuf a;
	double pat[4];
	int np = render_dash_pattern(dash, width, pat);

	if (n == 0 || c.a == 0)
		return;
	sbuf_fixed(&a, buf, sizeof buf);
	svg_line_style(&a, width, c, "round", "round");
	if (np > 0) {
		sbuf_add(&a, " stroke-dasharray=\"", 19);
		for (int i = 0; i < np; i++) {
			if (i)
				sbuf_add(&a, " ", 1);
			svg_num(&a, pat[i]);
		}
		sbuf_add(&a, "\"", 1);
	}
	svg_group(s, &a);
	sbuf_add(&s->body, "<polyline points=\"", 18);
	for (size_t i = 0; i < n; i++)
		svg_point(&s->body, xy[2 * i], xy[2 * i + 1], i == 0);
	if (n == 1)               /* a dot: the round caps of a line of no length */
		svg_point(&s->body, xy[0], xy[1], 0);
	sbuf_add(&s->body, "\"/>\n", 4);
}

/* Plus and cross: two round-capped bars, the outline colour a little wider
 * below, as the PDF back-end draws them. */
static void svg_bars(struct render_svg *s, double x, double y, double r, enum render_marker m,
		     struct render_color fill, struct render_color outline, double ow)
{
	double k = m == RENDER_PLUS ? r : 0.8 * r;
	double plus[8] = { -k, 0, k, 0, 0, -k, 0, k }, cross[8] = { -k, -k, k, k, -k, k, k, -k };
	const double *v = m == RENDER_PLUS ? plus : cross;
	int has_line = outline.a != 0 && ow > 0;

	for (int pass = 0; pass < 2; pass++) {
		struct render_color c = pass == 0 ? outline : fill;
		double w = pass == 0 ? 0.6 * r + ow : 0.6 * r - (has_line ? ow : 0);
		char buf[SVG_STYLE];
		struct sbuf a;

		if (c.a == 0 || w <= 0 || (pass == 0 && !has_line))
			continue;
		sbuf_fixed(&a, buf, sizeof buf);
		svg_line_style(&a, w, c, "round", "round");
		svg_group(s, &a);
		sbuf_add(&s->body, "<path d=\"", 9);
		for (int i = 0; i < 2; i++) {
			sbuf_add(&s->body, i ? " M" : "M", i ? 2 : 1);
			svg_point(&s->body, x + v[4 * i], y + v[4 * i + 1], 1);
			sbuf_add(&s->body, " L", 2);
			svg_point(&s->body, x + v[4 * i + 2], y + v[4 * i + 3], 1);
		}
		sbuf_add(&s->body, "\"/>\n", 4);
	}
}

/* The marker shapes of the PNG and PDF back-ends (y down here). */
static void svg_marker(void *ctx, double x, double y, double size, enum render_marker m,
		       struct render_color fill, struct render_color outline, double ow)
{
	struct render_svg *s = ctx;
	double r = size / 2, v[8];
	int has_line = outline.a != 0 && ow > 0, nv = 0;
	char buf[SVG_STYLE];
	struct sbuf a;

	if (m == RENDER_PLUS || m == RENDER_CROSS) {
		svg_bars(s, x, y, r, m, fill, outline, ow);
		return;
	}
	if (fill.a == 0 && !has_line)
		return;
	sbuf_fixed(&a, buf, sizeof buf);
	svg_paint(&a, "fill", fill);
	if (has_line) {
		svg_paint(&a, "stroke", outline);
		svg_attr(&a, "stroke-width", ow);
	}
	svg_group(s, &a);
	switch (m) {
	case RENDER_SQUARE:
		sbuf_add(&s->body, "<rect", 5);
		svg_attr(&s->body, "x", x - 0.86 * r);
		svg_attr(&s->body, "y", y - 0.86 * r);
		svg_attr(&s->body, "width", 1.72 * r);
		svg_attr(&s->body, "height", 1.72 * r);
		sbuf_add(&s->body, "/>\n", 3);
		return;
	case RENDER_DIAMOND:
		v[0] = x - 1.2 * r, v[1] = y, v[2] = x, v[3] = y - 1.2 * r;
		v[4] = x + 1.2 * r, v[5] = y, v[6] = x, v[7] = y + 1.2 * r;
		nv = 4;
		break;
	case RENDER_TRIANGLE:
	case RENDER_TRIANGLE_DOWN: {
		double R = 1.2 * r, sg = m == RENDER_TRIANGLE ? 1 : -1;

		v[0] = x, v[1] = y - sg * (R - 0.2 * r);
		v[2] = x - 0.8660254 * R, v[3] = y + sg * (R / 2 + 0.2 * r);
		v[4] = x + 0.8660254 * R, v[5] = v[3];
		nv = 3;
		break;
	}
	case RENDER_CIRCLE:
	case RENDER_PLUS:
	case RENDER_CROSS:
		sbuf_add(&s->body, "<circle", 7);
		svg_attr(&s->body, "cx", x);
		svg_attr(&s->body, "cy", y);
		svg_attr(&s->body, "r", r);
		sbuf_add(&s->body, "/>\n", 3);
		return;
	}
	sbuf_add(&s->body, "<polygon points=\"", 17);
	for (int i = 0; i < nv; i++)
		svg_point(&s->body, v[2 * i], v[2 * i + 1], i == 0);
	sbuf_add(&s->body, "\"/>\n", 4);
}

/* Advance of cp in 1/1000 em, truncated as the PNG back-end's and
 * libharu's widths are, so that all three lay text out alike. */
static int svg_advance(struct render_svg *s, uint32_t cp)
{
	int a;

	if (cp < SVG_ADV_CACHE && s->adv[cp] >= 0)
		return s->adv[cp];
	if (FT_Load_Char(s->face, cp, FT_LOAD_NO_SCALE) != 0)
		a = 0;
	else
		a = (int)(s->face->glyph->advance.x * 1000 / s->upem);
	if (cp < SVG_ADV_CACHE)
		s->adv[cp] = (int16_t)a;
	return a;
}

static double svg_text_width(void *ctx, const char *utf8, double size)
{
	struct render_svg *s = ctx;
	long units = 0;

	while (*utf8)
		units += svg_advance(s, svg_next(&utf8));
	return (double)units * size / 1000;
}

static void svg_text(void *ctx, double x, double y, const char *utf8, double size,
		     struct render_color c, enum render_align align, int vertical)
{
	static const char *const anchor[] = { "", " text-anchor=\"middle\"", " text-anchor=\"end\"" };
	struct render_svg *s = ctx;
	char buf[SVG_STYLE];
	struct sbuf a;

	if (c.a == 0 || *utf8 == '\0' || !(size > 0))
		return;
	sbuf_fixed(&a, buf, sizeof buf);
	svg_attr(&a, "font-size", size);
	svg_paint(&a, "fill", c);
	svg_group(s, &a);
	sbuf_add(&s->body, "<text", 5);
	if (vertical) {
		/* Turned a quarter left about its anchor: it reads upwards,
		 * and the anchor aligns it along the y axis. */
		sbuf_add(&s->body, " transform=\"rotate(-90 ", 23);
		svg_point(&s->body, x, y, 1);
		sbuf_add(&s->body, ")\"", 2);
	}
	svg_attr(&s->body, "x", x);
	svg_attr(&s->body, "y", y);
	sbuf_printf(&s->body, "%s>", anchor[align]);
	render_svg_escape(&s->body, utf8);
	sbuf_add(&s->body, "</text>\n", 8);
}

static const struct render_ops svg_ops = {
	svg_fill_rect, svg_fill_band, svg_stroke, svg_marker, svg_text, svg_text_width,
};

const struct render_ops *render_svg_ops(void)
{
	return &svg_ops;
}

/* ---- the document ---- */

/* The font-family value: the font's own family (its name's letters, digits,
 * spaces and dashes: nothing that needs quoting in CSS or XML), DejaVu
 * Sans' metric twin and near cousin when it is DejaVu Sans, then the
 * generic family. */
static char *svg_family(const char *name)
{
	char fam[128];
	struct sbuf b;
	size_t n = 0;

	for (; name && *name && n + 1 < sizeof fam; name++)
		if ((*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z') ||
		    (*name >= '0' && *name <= '9') || *name == ' ' || *name == '-' || *name == '_')
			fam[n++] = *name;
	fam[n] = '\0';
	sbuf_heap(&b);
	if (n > 0)
		sbuf_printf(&b, "'%s', ", fam);
	if (strcmp(fam, "DejaVu Sans") == 0)
		sbuf_printf(&b, "'Bitstream Vera Sans', Verdana, ");
	sbuf_printf(&b, "sans-serif");
	return b.s;
}

int render_svg_new(double width, double height, const char *font_path, const char *title,
		   struct render_svg **out, struct rs_err *err)
{
	struct render_svg *s;

	*out = NULL;
	if (!(width >= 1 && height >= 1 && width <= SVG_MAX_SIDE && height <= SVG_MAX_SIDE))
		return rs_err_set(err, "a drawing of %.0fx%.0f points is too large (at most %d a side)",
				  width, height, SVG_MAX_SIDE);
	s = xcalloc(1, sizeof *s);
	s->w = width;
	s->h = height;
	sbuf_heap(&s->body);
	if (font_face_open(font_path, &s->ft, &s->face, err) < 0) {
		render_svg_free(s);
		return -1;
	}
	s->upem = s->face->units_per_EM;
	memset(s->adv, 0xFF, sizeof s->adv);
	s->family = svg_family(s->face->family_name);
	s->title = title && *title ? xstrdup(title) : NULL;
	*out = s;
	return 0;
}

void render_svg_free(struct render_svg *s)
{
	if (s == NULL)
		return;
	if (s->face)
		FT_Done_Face(s->face);
	if (s->ft)
		FT_Done_FreeType(s->ft);
	free(s->body.s);
	free(s->family);
	free(s->title);
	free(s);
}

int render_svg_write(struct render_svg *s, FILE *fp, struct rs_err *err)
{
	struct sbuf head;
	int e;

	sbuf_heap(&head);
	/* Kerning off: the widths the layout used have none.  Spaces kept:
	 * a label's own spaces are part of it. */
	sbuf_printf(&head, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"");
	svg_attr(&head, "width", s->w);
	svg_attr(&head, "height", s->h);
	sbuf_add(&head, " viewBox=\"0 0 ", 14);
	svg_num(&head, s->w);
	sbuf_add(&head, " ", 1);
	svg_num(&head, s->h);
	sbuf_printf(&head, "\" font-family=\"%s\" style=\"font-kerning:none\" xml:space=\"preserve\">\n",
		    s->family);
	if (s->title) {
		sbuf_add(&head, "<title>", 7);
		render_svg_escape(&head, s->title);
		sbuf_add(&head, "</title>\n", 9);
	}
	sbuf_add(&head, "<rect", 5);
	svg_attr(&head, "width", s->w);
	svg_attr(&head, "height", s->h);
	sbuf_add(&head, " fill=\"#ffffff\"/>\n", 18);
	errno = 0;
	fwrite(head.s, 1, head.len, fp);
	fwrite(s->body.s, 1, s->body.len, fp);
	fputs(s->style[0] ? "</g>\n</svg>\n" : "</svg>\n", fp);
	free(head.s);
	e = ferror(fp) || fflush(fp) != 0 ? (errno ? errno : EIO) : 0;
	if (e != 0)
		return rs_err_set(err, "%s", strerror(e));
	return 0;
}
