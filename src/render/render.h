/* render.h: the small drawing interface a laid-out chart is played through.
 *
 * Coordinates are points (1/72 in) with the origin at the top left and y
 * growing downwards; a back-end maps them to pixels (PNG) or to PDF's
 * bottom-up page space.  Back-ends draw; they never decide where anything
 * goes.  Text is UTF-8; text_width must agree with what text() draws. */
#ifndef RS_RENDER_H
#define RS_RENDER_H

#include <stddef.h>
#include <stdint.h>

struct render_color {
	uint8_t r, g, b, a;       /* sRGB, non-premultiplied; a = 255 opaque, 0 none */
};

/* Each side of a chart, in points (pixels at --scale 1), is in
 * RENDER_SIZE_MIN..RENDER_SIZE_MAX: --size checks it, and both back-ends
 * draw any size in it.  The top is the largest page libharu writes (PDF's
 * own limit for readers, 200 inches); PNG draws it at every --scale. */
#define RENDER_SIZE_MIN 100
#define RENDER_SIZE_MAX 14400

enum render_dash { RENDER_SOLID, RENDER_DASHED, RENDER_DOTTED, RENDER_DASHDOT };

enum render_marker {
	RENDER_CIRCLE, RENDER_SQUARE, RENDER_TRIANGLE, RENDER_DIAMOND, RENDER_TRIANGLE_DOWN,
	RENDER_PLUS, RENDER_CROSS,
};
#define RENDER_NMARKERS 7

enum render_align { RENDER_LEFT, RENDER_CENTER, RENDER_RIGHT };

struct render_ops {
	/* Fill an axis-aligned rectangle (colour alpha applies). */
	void (*fill_rect)(void *ctx, double x, double y, double w, double h, struct render_color c);
	/* Fill the band between ylo[i] and yhi[i] over x[i] (x increasing),
	 * linear between samples: a min-max band across repeats. */
	void (*fill_band)(void *ctx, const double *x, const double *ylo, const double *yhi, size_t n,
			  struct render_color c);
	/* Stroke the polyline xy[0..2n) with round joins and caps. */
	void (*stroke)(void *ctx, const double *xy, size_t n, double width, struct render_color c,
		       enum render_dash dash);
	/* A marker of the given size (its width in points) centred on x, y,
	 * filled with fill (alpha 0: hollow) and outlined with outline
	 * (alpha 0: none) at outline_width. */
	void (*marker)(void *ctx, double x, double y, double size, enum render_marker m,
		       struct render_color fill, struct render_color outline, double outline_width);
	/* Draw text with its baseline at y, aligned on x; vertical text reads
	 * bottom to top and is aligned along the y axis the same way. */
	void (*text)(void *ctx, double x, double y, const char *utf8, double size,
		     struct render_color c, enum render_align align, int vertical);
	/* Advance width of utf8 at size, in points. */
	double (*text_width)(void *ctx, const char *utf8, double size);
};

/* Fraction of the font size above and below the baseline that text may
 * use: what layouts reserve and what overlap checks compare. */
#define RENDER_ASCENT 0.78
#define RENDER_DESCENT 0.24

/* The on/off lengths in points of a dash style for a line of width w, shared
 * by every back-end so PNG and PDF look alike.  Whole points: libharu 2.3
 * accepts only integers.  Returns the number of lengths (0: solid). */
static inline int render_dash_pattern(enum render_dash d, double w, double pat[4])
{
	double u = w < 1.5 ? 1 : w / 1.5;

	switch (d) {
	case RENDER_SOLID:
		break;
	case RENDER_DASHED:
		pat[0] = (int)(7 * u + 0.5);
		pat[1] = (int)(5 * u + 0.5);
		return 2;
	case RENDER_DOTTED:
		pat[0] = 1;
		pat[1] = (int)(4 * u + 0.5);
		return 2;
	case RENDER_DASHDOT:
		pat[0] = (int)(8 * u + 0.5);
		pat[1] = (int)(4 * u + 0.5);
		pat[2] = 1;
		pat[3] = (int)(4 * u + 0.5);
		return 4;
	}
	return 0;
}

#endif
