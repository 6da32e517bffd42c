/* render_png.h: the PNG back-end: an RGB canvas, anti-aliased drawing,
 * FreeType text, written with libpng.
 *
 * A canvas is width x height points at scale pixels per point, white to
 * begin with.  Draw on it through render_png_ops() with the canvas as the
 * context, then write it out.  Drawing only records what to draw; the
 * pixels are made while writing, a band at a time and on every CPU. */
#ifndef RS_RENDER_PNG_H
#define RS_RENDER_PNG_H

#include <stdint.h>
#include <stdio.h>

#include "base/err.h"
#include "render/render.h"

struct render_png;

/* A white canvas of width x height points at scale (1..4) pixels per point,
 * with text from the TrueType font at font_path.  Fails (err says which
 * file and why) when the font cannot be loaded, or when a side is over
 * 4 x RENDER_SIZE_MAX pixels (panels side by side can be).
 * Free with render_png_free(). */
int render_png_new(double width, double height, unsigned scale, const char *font_path,
		   struct render_png **out, struct rs_err *err);
void render_png_free(struct render_png *p);

/* The drawing operations; their ctx is a struct render_png *. */
const struct render_ops *render_png_ops(void);

/* Write the canvas as an 8-bit RGB PNG to fp (which stays open, flushed).
 * Fails with the system's reason when writing fails ("No space left on
 * device", for the caller to prefix with the file name), else libpng's. */
int render_png_write(struct render_png *p, FILE *fp, struct rs_err *err);

/* The whole image drawn in one piece, for tests: RGB rows of *w pixels,
 * *h rows, valid until the next call or render_png_free(). */
const uint8_t *render_png_pixels(struct render_png *p, unsigned *w, unsigned *h);

#endif
