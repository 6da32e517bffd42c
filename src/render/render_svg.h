/* render_svg.h: the SVG back-end: the drawing as SVG elements, text as
 * <text> (so a page can search it and a browser scale it), laid out with
 * the widths of the same TrueType font the PNG back-end draws with.
 *
 * A canvas is width x height points, one SVG user unit (a CSS pixel) each,
 * so that it shows at the size of the PNG at --scale 1; white to begin
 * with.  Drawing appends elements to a buffer; nothing is written until
 * render_svg_write.  The same drawing gives the same bytes. */
#ifndef RS_RENDER_SVG_H
#define RS_RENDER_SVG_H

#include <stdio.h>

#include "base/err.h"
#include "render/render.h"

struct render_svg;

/* A white canvas of width x height points whose text is measured with the
 * TrueType font at font_path and named with its family (DejaVu Sans, then
 * generic fallbacks); title (may be NULL) becomes its <title>.  Fails (err
 * says which file and why) when the font cannot be loaded, or when a side
 * is not in 1..4 x RENDER_SIZE_MAX (panels side by side can be larger than
 * one).  Free with render_svg_free(). */
int render_svg_new(double width, double height, const char *font_path, const char *title,
		   struct render_svg **out, struct rs_err *err);
void render_svg_free(struct render_svg *s);

/* The drawing operations; their ctx is a struct render_svg *. */
const struct render_ops *render_svg_ops(void);

/* Write the document, UTF-8, to fp (which stays open, flushed).  Fails with
 * the system's reason ("No space left on device", for the caller to prefix
 * with the file name). */
int render_svg_write(struct render_svg *s, FILE *fp, struct rs_err *err);

/* Append utf8 to b as XML character data, safe in an element or a quoted
 * attribute: & < > " ' as entities; bytes that are not UTF-8, and
 * characters XML 1.0 forbids (controls but tab, newline and return, which
 * become spaces; surrogates, U+FFFE, U+FFFF), as U+FFFD.  Exposed for its
 * test. */
struct sbuf;
void render_svg_escape(struct sbuf *b, const char *utf8);

#endif
