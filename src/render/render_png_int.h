/* render_png_int.h: what the PNG back-end's three files share, and nothing
 * outside them uses.
 *
 * The drawing operations do not touch pixels: render_png.c turns each into
 * a command in pixel space (strokes already cut into dashes, bands into
 * columns, text into placed glyphs) and appends it to a display list.
 * render_png_raster.c plays that list into a band of rows, and
 * render_png_write.c draws the image band by band, in parallel strips, and
 * compresses each band as it is drawn (render_png_deflate.c).  So the whole
 * image never sits in memory, and every pixel is drawn by the same code
 * whatever band it falls in. */
#ifndef RS_RENDER_PNG_INT_H
#define RS_RENDER_PNG_INT_H

#include <stddef.h>
#include <stdint.h>

#include "render/render.h"

enum rpng_op { RPNG_RECT, RPNG_BAND, RPNG_STROKE, RPNG_MARKER, RPNG_GLYPHS };

/* A glyph's coverage bitmap, rendered once at its pixel size. */
struct rpng_glyph {
	uint32_t cp;
	int size64;               /* pixel size in 1/64, 0 = empty slot */
	int left, top;
	unsigned w, h;
	uint8_t *bits;            /* w * h coverage */
};

/* One glyph of a text command: where its bitmap's first row and column go.
 * Horizontal text: bitmap (k, r) lands on pixel (x + k, y + r).  Vertical
 * text (reading upwards): bitmap (k, r) lands on pixel (x + r, y - k). */
struct rpng_place {
	const struct rpng_glyph *g;
	int x, y;
};

/* One recorded operation, in pixels.  It touches rows y0..y1-1 at most,
 * so a band outside them skips it at once. */
struct rpng_cmd {
	enum rpng_op op;
	int y0, y1;
	struct render_color c;    /* fill, stroke or text colour */
	struct render_color c2;   /* MARKER: outline colour */
	double a[4];              /* RECT: x0 y0 x1 y1; STROKE: half width;
				   * MARKER: cx cy radius half-outline; BAND: first column */
	int kind;                 /* MARKER: enum render_marker; GLYPHS: 1 if vertical;
				   * BAND: its blend table at luts[kind] */
	size_t off, n;            /* STROKE: n segments at f[off] (ax ay bx by);
				   * BAND: n columns at f[off] (top bot; top > bot: empty);
				   * GLYPHS: n places at places[off] */
};

struct rpng_font;

struct render_png {
	unsigned w, h;            /* pixels */
	double s;                 /* pixels per point */
	struct rpng_cmd *cmds;
	size_t ncmds, capcmds;
	double *f;                /* stroke and band payloads */
	size_t nf, capf;
	struct rpng_place *places;
	size_t nplaces, capplaces;
	uint8_t *luts;            /* BAND blend tables, 3 x 256 bytes each */
	size_t nluts, capluts;
	struct rpng_font *font;
	uint8_t *full;            /* the whole image, only if render_png_pixels() asked */
};

/* A band of image rows being drawn: rows of w RGB pixels, stride bytes
 * apart. */
struct rpng_band {
	const struct render_png *p;
	int rows;                 /* capacity */
	int y0, y1;               /* the image rows it holds now */
	size_t stride;
	uint8_t *px;
	/* Stroke coverage, w per row, zero outside the stroke being drawn,
	 * with each row's touched span: a polyline blends each pixel once. */
	uint8_t *mask;
	int *span0, *span1;
	int ymin, ymax;
};

/* A band of up to rows rows for p's image; free with rpng_band_free(). */
void rpng_band_init(struct rpng_band *b, const struct render_png *p, int rows);
void rpng_band_free(struct rpng_band *b);

/* What blending c at full coverage makes of each value of each channel:
 * a band's inside pixels are looked up, not computed. */
void rpng_band_lut(struct render_color c, uint8_t lut[3][256]);

/* Draw image rows y0..y1-1 (at most b's capacity) into b: white, then
 * every recorded command in order. */
void rpng_band_draw(struct rpng_band *b, int y0, int y1);

#define RPNG_NLIT 286             /* deflate's literal/length symbols */

/* A deflate encoder for filtered rows (render_png_deflate.c): raw deflate
 * data in out[0..len), and the Adler-32 of what went in. */
struct rpng_deflate {
	uint8_t *out;
	size_t len, cap;
	uint64_t bits;            /* pending output bits, the oldest lowest */
	unsigned nbits;
	uint64_t s1, s2, budget;  /* Adler-32 sums, reduced now and then */
	uint16_t *tok;            /* the open block's tokens */
	size_t ntok, tokcap;
	uint32_t freq[RPNG_NLIT]; /* and how often each symbol occurs */
	size_t zrun;              /* zero bytes given but not yet tokenized */
	uint8_t lsym[259];        /* match length -> length code - 257 */
};

void rpng_deflate_init(struct rpng_deflate *z);
/* Room up front for a stream of n bytes in that many blocks, so that no
 * block has to grow (and copy) the output buffer. */
void rpng_deflate_expect(struct rpng_deflate *z, size_t n, size_t blocks);
void rpng_deflate_free(struct rpng_deflate *z);
/* Add d[0..n), or n zero bytes, to the open block: the filter hands over
 * the zero stretches it finds without writing them out. */
void rpng_deflate_bytes(struct rpng_deflate *z, const uint8_t *d, size_t n);
void rpng_deflate_zeros(struct rpng_deflate *z, size_t n);
/* Encode the open block with codes made for it; the last block of the
 * stream is final, which also pads it to a whole byte. */
void rpng_deflate_end_block(struct rpng_deflate *z, int final);
/* rpng_deflate_bytes() and rpng_deflate_end_block() in one. */
void rpng_deflate_block(struct rpng_deflate *z, const uint8_t *d, size_t n, int final);
/* An empty stored block, as zlib's Z_SYNC_FLUSH: the data ends on a byte
 * boundary, and another encoder's blocks may follow it.  Between blocks
 * only, as is rpng_deflate_detach(). */
void rpng_deflate_sync(struct rpng_deflate *z);
/* Adler-32 of all the bytes encoded so far. */
uint32_t rpng_deflate_adler(const struct rpng_deflate *z);
/* A copy of the data written so far (*len bytes, to free); then start
 * afresh, Adler-32 included, keeping the buffers. */
uint8_t *rpng_deflate_detach(struct rpng_deflate *z, size_t *len);

#endif
