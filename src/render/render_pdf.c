/* render_pdf.c: the PDF back-end: libharu paths and embedded-TrueType text. */
#include "config.h"

#include <hpdf.h>
#include <hpdf_version.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render_pdf.h"
#include "base/xalloc.h"

#define PDF_NALPHA 8

struct render_pdf {
	HPDF_Doc doc;
	HPDF_Page page;
	HPDF_Font font;
	double h;                 /* page height: y flips */
	HPDF_STATUS error, detail; /* the first libharu error (they are sticky) */
	struct { uint8_t a; HPDF_ExtGState gs; } alpha[PDF_NALPHA];
	size_t nalpha;
	/* Filled and outlined markers of one style in a row share one path,
	 * painted when the style changes or anything else is drawn: one
	 * graphics state and one paint per series, not per point, which
	 * shrinks the page content (and libharu's deflate time). */
	int batch;                /* a marker path is open */
	struct render_color bfill, bline;
	double bow;
	enum render_marker bkind;
	double bx0, by0, bx1, by1; /* what the path covers so far */
};

static int pdf_same_color(struct render_color a, struct render_color b)
{
	return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a;
}

/* Paint and close the open marker path, if any. */
static void pdf_flush(struct render_pdf *d)
{
	int has_fill = d->bfill.a != 0, has_line = d->bline.a != 0 && d->bow > 0;

	if (!d->batch)
		return;
	if (has_fill && has_line)
		HPDF_Page_FillStroke(d->page);
	else if (has_fill)
		HPDF_Page_Fill(d->page);
	else if (has_line)
		HPDF_Page_Stroke(d->page);
	else
		HPDF_Page_EndPath(d->page);
	HPDF_Page_GRestore(d->page);
	d->batch = 0;
}

static void pdf_on_error(HPDF_STATUS error, HPDF_STATUS detail, void *user)
{
	struct render_pdf *d = user;

	if (d->error == 0) {
		d->error = error;
		d->detail = detail;
	}
}

/* UTF-8 to WinAnsi (what the embedded font is encoded with); characters it
 * lacks become '?'.  Returns a malloc'd string. */
static char *pdf_winansi(const char *s)
{
	static const struct { uint32_t cp; unsigned char b; } extra[] = {
		{ 0x20AC, 0x80 }, { 0x201A, 0x82 }, { 0x0192, 0x83 }, { 0x201E, 0x84 },
		{ 0x2026, 0x85 }, { 0x2020, 0x86 }, { 0x2021, 0x87 }, { 0x02C6, 0x88 },
		{ 0x2030, 0x89 }, { 0x0160, 0x8A }, { 0x2039, 0x8B }, { 0x0152, 0x8C },
		{ 0x017D, 0x8E }, { 0x2018, 0x91 }, { 0x2019, 0x92 }, { 0x201C, 0x93 },
		{ 0x201D, 0x94 }, { 0x2022, 0x95 }, { 0x2013, 0x96 }, { 0x2014, 0x97 },
		{ 0x02DC, 0x98 }, { 0x2122, 0x99 }, { 0x0161, 0x9A }, { 0x203A, 0x9B },
		{ 0x0153, 0x9C }, { 0x017E, 0x9E }, { 0x0178, 0x9F },
	};
	const unsigned char *p = (const unsigned char *)s;
	char *out = xmalloc(strlen(s) + 1), *o = out;

	while (*p) {
		uint32_t cp;
		int n = 0;

		if (*p < 0x80)
			cp = *p, n = 0;
		else if ((*p & 0xE0) == 0xC0)
			cp = *p & 0x1F, n = 1;
		else if ((*p & 0xF0) == 0xE0)
			cp = *p & 0x0F, n = 2;
		else if ((*p & 0xF8) == 0xF0)
			cp = *p & 0x07, n = 3;
		else
			cp = '?';
		p++;
		for (int i = 0; i < n; i++, p++) {
			if ((*p & 0xC0) != 0x80) {
				cp = '?';
				break;
			}
			cp = cp << 6 | (*p & 0x3F);
		}
		if (cp >= 0x20 && cp < 0x7F)
			*o++ = (char)cp;
		else if (cp >= 0xA0 && cp <= 0xFF)
			*o++ = (char)(unsigned char)cp;
		else {
			char b = '?';

			for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
				if (extra[i].cp == cp)
					b = (char)extra[i].b;
			*o++ = b;
		}
	}
	*o = '\0';
	return out;
}

static void pdf_fill_color(struct render_pdf *d, struct render_color c)
{
	HPDF_Page_SetRGBFill(d->page, c.r / 255.0f, c.g / 255.0f, c.b / 255.0f);
}

static void pdf_stroke_color(struct render_pdf *d, struct render_color c)
{
	HPDF_Page_SetRGBStroke(d->page, c.r / 255.0f, c.g / 255.0f, c.b / 255.0f);
}

/* Set the fill alpha for what follows (inside a GSave/GRestore pair). */
static void pdf_alpha(struct render_pdf *d, uint8_t a)
{
	HPDF_ExtGState gs = NULL;

	if (a == 255)
		return;
	for (size_t i = 0; i < d->nalpha; i++)
		if (d->alpha[i].a == a)
			gs = d->alpha[i].gs;
	if (gs == NULL) {
		gs = HPDF_CreateExtGState(d->doc);
		if (gs == NULL)
			return;
		HPDF_ExtGState_SetAlphaFill(gs, a / 255.0f);
		HPDF_ExtGState_SetAlphaStroke(gs, a / 255.0f);
		if (d->nalpha < PDF_NALPHA) {
			d->alpha[d->nalpha].a = a;
			d->alpha[d->nalpha].gs = gs;
			d->nalpha++;
		}
	}
	HPDF_Page_SetExtGState(d->page, gs);
}

static void pdf_dash(struct render_pdf *d, enum render_dash dash, double w)
{
	double pat[4];
	int n = render_dash_pattern(dash, w, pat);
#if HPDF_VERSION_ID >= 20400
	HPDF_REAL p[4];

	for (int i = 0; i < n; i++)
		p[i] = (HPDF_REAL)pat[i];
	HPDF_Page_SetDash(d->page, n ? p : NULL, (HPDF_UINT)n, 0);
#else
	/* 2.3: integer lengths, 1..100 each. */
	HPDF_UINT16 p[4];

	for (int i = 0; i < n; i++)
		p[i] = (HPDF_UINT16)(pat[i] < 1 ? 1 : pat[i] > 100 ? 100 : pat[i]);
	HPDF_Page_SetDash(d->page, n ? p : NULL, (HPDF_UINT)n, 0);
#endif
}

static void pdf_fill_rect(void *ctx, double x, double y, double w, double h, struct render_color c)
{
	struct render_pdf *d = ctx;

	if (d->page == NULL || c.a == 0)
		return;
	pdf_flush(d);
	HPDF_Page_GSave(d->page);
	pdf_alpha(d, c.a);
	pdf_fill_color(d, c);
	HPDF_Page_Rectangle(d->page, (HPDF_REAL)x, (HPDF_REAL)(d->h - y - h), (HPDF_REAL)w,
			    (HPDF_REAL)h);
	HPDF_Page_Fill(d->page);
	HPDF_Page_GRestore(d->page);
}

static void pdf_fill_band(void *ctx, const double *x, const double *ylo, const double *yhi,
			  size_t n, struct render_color c)
{
	struct render_pdf *d = ctx;

	if (d->page == NULL || n < 2 || c.a == 0)
		return;
	pdf_flush(d);
	HPDF_Page_GSave(d->page);
	pdf_alpha(d, c.a);
	pdf_fill_color(d, c);
	HPDF_Page_MoveTo(d->page, (HPDF_REAL)x[0], (HPDF_REAL)(d->h - yhi[0]));
	for (size_t i = 1; i < n; i++)
		HPDF_Page_LineTo(d->page, (HPDF_REAL)x[i], (HPDF_REAL)(d->h - yhi[i]));
	for (size_t i = n; i-- > 0;)
		HPDF_Page_LineTo(d->page, (HPDF_REAL)x[i], (HPDF_REAL)(d->h - ylo[i]));
	HPDF_Page_ClosePath(d->page);
	HPDF_Page_Fill(d->page);
	HPDF_Page_GRestore(d->page);
}

static void pdf_stroke(void *ctx, const double *xy, size_t n, double width, struct render_color c,
		       enum render_dash dash)
{
	struct render_pdf *d = ctx;

	if (d->page == NULL || n == 0 || c.a == 0)
		return;
	pdf_flush(d);
	HPDF_Page_GSave(d->page);
	pdf_alpha(d, c.a);
	pdf_stroke_color(d, c);
	HPDF_Page_SetLineWidth(d->page, (HPDF_REAL)width);
	HPDF_Page_SetLineCap(d->page, HPDF_ROUND_END);
	HPDF_Page_SetLineJoin(d->page, HPDF_ROUND_JOIN);
	if (dash != RENDER_SOLID)
		pdf_dash(d, dash, width);
	HPDF_Page_MoveTo(d->page, (HPDF_REAL)xy[0], (HPDF_REAL)(d->h - xy[1]));
	if (n == 1)
		HPDF_Page_LineTo(d->page, (HPDF_REAL)xy[0], (HPDF_REAL)(d->h - xy[1]));
	for (size_t i = 1; i < n; i++)
		HPDF_Page_LineTo(d->page, (HPDF_REAL)xy[2 * i], (HPDF_REAL)(d->h - xy[2 * i + 1]));
	HPDF_Page_Stroke(d->page);
	HPDF_Page_GRestore(d->page);
}

/* A closed polygon of n vertices (page coordinates). */
static void pdf_poly(struct render_pdf *d, const double *v, int n)
{
	HPDF_Page_MoveTo(d->page, (HPDF_REAL)v[0], (HPDF_REAL)v[1]);
	for (int i = 1; i < n; i++)
		HPDF_Page_LineTo(d->page, (HPDF_REAL)v[2 * i], (HPDF_REAL)v[2 * i + 1]);
	HPDF_Page_ClosePath(d->page);
}

/* The marker outline path, the same shapes as the PNG back-end's distance
 * functions (y up here). */
static void pdf_marker_path(struct render_pdf *d, enum render_marker m, double x, double y, double r)
{
	double v[8];

	switch (m) {
	case RENDER_SQUARE:
		HPDF_Page_Rectangle(d->page, (HPDF_REAL)(x - 0.86 * r), (HPDF_REAL)(y - 0.86 * r),
				    (HPDF_REAL)(1.72 * r), (HPDF_REAL)(1.72 * r));
		return;
	case RENDER_DIAMOND:
		v[0] = x - 1.2 * r, v[1] = y, v[2] = x, v[3] = y + 1.2 * r;
		v[4] = x + 1.2 * r, v[5] = y, v[6] = x, v[7] = y - 1.2 * r;
		pdf_poly(d, v, 4);
		return;
	case RENDER_TRIANGLE:
	case RENDER_TRIANGLE_DOWN: {
		double R = 1.2 * r, s = m == RENDER_TRIANGLE ? 1 : -1;

		v[0] = x, v[1] = y + s * (R - 0.2 * r);
		v[2] = x - 0.8660254 * R, v[3] = y - s * (R / 2 + 0.2 * r);
		v[4] = x + 0.8660254 * R, v[5] = v[3];
		pdf_poly(d, v, 3);
		return;
	}
	case RENDER_CIRCLE:
	case RENDER_PLUS:
	case RENDER_CROSS:
		break;
	}
	HPDF_Page_Circle(d->page, (HPDF_REAL)x, (HPDF_REAL)y, (HPDF_REAL)r);
}

static void pdf_marker(void *ctx, double x, double y, double size, enum render_marker m,
		       struct render_color fill, struct render_color outline, double ow)
{
	struct render_pdf *d = ctx;
	double r = size / 2, py = d->h - y, ext;
	int has_fill = fill.a != 0, has_line = outline.a != 0 && ow > 0;

	if (d->page == NULL)
		return;
	/* One path paints every fill before every outline, and winds each
	 * shape its own way: only markers of one kind that overlap none
	 * before them may share it, or PDF would differ from PNG. */
	ext = 1.3 * r + ow;
	if (d->batch && m == d->bkind && pdf_same_color(fill, d->bfill) &&
	    pdf_same_color(outline, d->bline) && ow == d->bow &&
	    (x + ext <= d->bx0 || x - ext >= d->bx1 || py + ext <= d->by0 || py - ext >= d->by1)) {
		pdf_marker_path(d, m, x, py, r);
		d->bx0 = fmin(d->bx0, x - ext);
		d->bx1 = fmax(d->bx1, x + ext);
		d->by0 = fmin(d->by0, py - ext);
		d->by1 = fmax(d->by1, py + ext);
		return;
	}
	pdf_flush(d);
	HPDF_Page_GSave(d->page);
	if (m == RENDER_PLUS || m == RENDER_CROSS) {
		/* Two round-capped bars: the outline colour a little wider below. */
		double k = m == RENDER_PLUS ? r : 0.8 * r;
		double a[8] = { -k, 0, k, 0, 0, -k, 0, k };

		if (m == RENDER_CROSS) {
			double b[8] = { -k, -k, k, k, -k, k, k, -k };

			memcpy(a, b, sizeof a);
		}
		HPDF_Page_SetLineCap(d->page, HPDF_ROUND_END);
		for (int pass = 0; pass < 2; pass++) {
			struct render_color c = pass == 0 ? outline : fill;
			double w = pass == 0 ? 0.6 * r + ow : 0.6 * r - (has_line ? ow : 0);

			if (c.a == 0 || w <= 0 || (pass == 0 && !has_line))
				continue;
			pdf_stroke_color(d, c);
			HPDF_Page_SetLineWidth(d->page, (HPDF_REAL)w);
			for (int i = 0; i < 2; i++) {
				HPDF_Page_MoveTo(d->page, (HPDF_REAL)(x + a[4 * i]), (HPDF_REAL)(py - a[4 * i + 1]));
				HPDF_Page_LineTo(d->page, (HPDF_REAL)(x + a[4 * i + 2]),
						 (HPDF_REAL)(py - a[4 * i + 3]));
			}
			HPDF_Page_Stroke(d->page);
		}
		HPDF_Page_GRestore(d->page);
		return;
	}
	if (has_fill)
		pdf_fill_color(d, fill);
	if (has_line) {
		pdf_stroke_color(d, outline);
		HPDF_Page_SetLineWidth(d->page, (HPDF_REAL)ow);
		HPDF_Page_SetLineJoin(d->page, HPDF_MITER_JOIN);
	}
	pdf_marker_path(d, m, x, py, r);
	d->batch = 1;
	d->bfill = fill;
	d->bline = outline;
	d->bow = ow;
	d->bkind = m;
	d->bx0 = x - ext;
	d->bx1 = x + ext;
	d->by0 = py - ext;
	d->by1 = py + ext;
}

static double pdf_width_bytes(struct render_pdf *d, const char *s, double size)
{
	HPDF_TextWidth tw = HPDF_Font_TextWidth(d->font, (const HPDF_BYTE *)s, (HPDF_UINT)strlen(s));

	return tw.width * size / 1000;
}

static double pdf_text_width(void *ctx, const char *utf8, double size)
{
	struct render_pdf *d = ctx;
	char *s = pdf_winansi(utf8);
	double w = pdf_width_bytes(d, s, size);

	free(s);
	return w;
}

static void pdf_text(void *ctx, double x, double y, const char *utf8, double size,
		     struct render_color c, enum render_align align, int vertical)
{
	struct render_pdf *d = ctx;
	char *s;
	double w, off;

	if (d->page == NULL || c.a == 0 || *utf8 == '\0')
		return;
	pdf_flush(d);
	s = pdf_winansi(utf8);
	w = pdf_width_bytes(d, s, size);
	off = align == RENDER_LEFT ? 0 : align == RENDER_CENTER ? w / 2 : w;
	HPDF_Page_GSave(d->page);
	pdf_alpha(d, c.a);
	HPDF_Page_BeginText(d->page);
	HPDF_Page_SetFontAndSize(d->page, d->font, (HPDF_REAL)size);
	pdf_fill_color(d, c);
	if (vertical)
		HPDF_Page_SetTextMatrix(d->page, 0, 1, -1, 0, (HPDF_REAL)x, (HPDF_REAL)(d->h - y - off));
	else
		HPDF_Page_SetTextMatrix(d->page, 1, 0, 0, 1, (HPDF_REAL)(x - off), (HPDF_REAL)(d->h - y));
	HPDF_Page_ShowText(d->page, s);
	HPDF_Page_EndText(d->page);
	HPDF_Page_GRestore(d->page);
	free(s);
}

static const struct render_ops pdf_ops = {
	pdf_fill_rect, pdf_fill_band, pdf_stroke, pdf_marker, pdf_text, pdf_text_width,
};

const struct render_ops *render_pdf_ops(void)
{
	return &pdf_ops;
}

static int pdf_failed(struct render_pdf *d, const char *what, struct rs_err *err)
{
	return rs_err_set(err, "%s: libharu error 0x%04X (detail %u)", what, (unsigned)d->error,
			  (unsigned)d->detail);
}

int render_pdf_new(const char *font_path, const char *title, struct render_pdf **out,
		   struct rs_err *err)
{
	struct render_pdf *d = xcalloc(1, sizeof *d);
	const char *name;
	FILE *fp;

	*out = NULL;
	/* libharu's own message for a missing file is a bare number. */
	fp = fopen(font_path, "rb");
	if (fp == NULL) {
		free(d);
		return rs_err_set(err, "font %s: cannot open it (give --font PATH)", font_path);
	}
	fclose(fp);
	d->doc = HPDF_New(pdf_on_error, d);
	if (d->doc == NULL) {
		free(d);
		return rs_err_set(err, "cannot create a PDF document");
	}
	HPDF_SetCompressionMode(d->doc, HPDF_COMP_ALL);
	HPDF_SetInfoAttr(d->doc, HPDF_INFO_CREATOR, "rsweep " PACKAGE_VERSION);
	if (title && *title) {
		char *t = pdf_winansi(title);

		HPDF_SetInfoAttr(d->doc, HPDF_INFO_TITLE, t);
		free(t);
	}
	name = HPDF_LoadTTFontFromFile(d->doc, font_path, HPDF_TRUE);
	if (name != NULL)
		d->font = HPDF_GetFont(d->doc, name, "WinAnsiEncoding");
	if (name == NULL || d->font == NULL || d->error) {
		rs_err_set(err, "font %s: libharu cannot embed it (error 0x%04X)", font_path,
			   (unsigned)d->error);
		render_pdf_free(d);
		return -1;
	}
	*out = d;
	return 0;
}

void render_pdf_free(struct render_pdf *d)
{
	if (d == NULL)
		return;
	if (d->doc)
		HPDF_Free(d->doc);
	free(d);
}

int render_pdf_page(struct render_pdf *d, double width, double height, struct rs_err *err)
{
	/* A4 turned the chart's way, the page people print and documents
	 * embed: a chart laid out for 1200 x 800 points (--size) on a page
	 * of that size prints at 42 x 28 cm, with its text three tenths of
	 * the page too big.  The chart keeps its layout and is scaled to fit,
	 * centred: its text reads at 8 points and up on paper. */
	double pw = width >= height ? RENDER_PDF_A4_LONG : RENDER_PDF_A4_SHORT;
	double ph = width >= height ? RENDER_PDF_A4_SHORT : RENDER_PDF_A4_LONG;
	double k;

	/* libharu would only say "error 0x1054". */
	if (!(width >= RENDER_SIZE_MIN && width <= RENDER_SIZE_MAX && height >= RENDER_SIZE_MIN &&
	      height <= RENDER_SIZE_MAX))
		return rs_err_set(err, "a page of %gx%g points: each side is %d to %d", width, height,
				  RENDER_SIZE_MIN, RENDER_SIZE_MAX);
	if (d->page)
		pdf_flush(d);
	d->page = HPDF_AddPage(d->doc);
	if (d->page == NULL || d->error)
		return pdf_failed(d, "adding a page", err);
	HPDF_Page_SetWidth(d->page, (HPDF_REAL)pw);
	HPDF_Page_SetHeight(d->page, (HPDF_REAL)ph);
	k = fmin(pw / width, ph / height);
	/* Every later drawing call is in the chart's points: one transform
	 * for the page, kept under each call's GSave/GRestore. */
	HPDF_Page_Concat(d->page, (HPDF_REAL)k, 0, 0, (HPDF_REAL)k, (HPDF_REAL)((pw - k * width) / 2),
			 (HPDF_REAL)((ph - k * height) / 2));
	d->h = height;
	return d->error ? pdf_failed(d, "sizing a page", err) : 0;
}

int render_pdf_save(struct render_pdf *d, const char *path, struct rs_err *err)
{
	HPDF_BYTE buf[65536];
	HPDF_UINT32 left;
	FILE *fp;
	int e;

	if (d->page)
		pdf_flush(d);
	if (d->error)
		return pdf_failed(d, "drawing", err);
	/* Into memory first, then written here: libharu writing the file
	 * itself keeps no errno, and a full disk came out as its error 0x1066
	 * (zlib's) instead of "No space left on device". */
	if (HPDF_SaveToStream(d->doc) != HPDF_OK || d->error)
		return pdf_failed(d, "making the PDF", err);
	fp = fopen(path, "wb");
	if (fp == NULL)
		return rs_err_set(err, "%s", strerror(errno));
	/* Exactly the stream's size: reading past its end is an error to libharu. */
	for (left = HPDF_GetStreamSize(d->doc); left > 0;) {
		HPDF_UINT32 want = left < sizeof buf ? left : (HPDF_UINT32)sizeof buf, n = want;

		if (HPDF_ReadFromStream(d->doc, buf, &n) != HPDF_OK || n != want || d->error) {
			fclose(fp);
			return pdf_failed(d, "reading the PDF back", err);
		}
		if (fwrite(buf, 1, n, fp) != n)
			break;
		left -= n;
	}
	e = ferror(fp) || fflush(fp) != 0 ? errno : 0;
	if (fclose(fp) != 0 && e == 0)
		e = errno;
	if (e != 0)
		return rs_err_set(err, "%s", strerror(e));
	return 0;
}
