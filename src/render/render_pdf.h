/* render_pdf.h: the PDF back-end: vector pages through libharu, with the
 * same TrueType font as the PNG back-end embedded (subset), compressed, and
 * byte-for-byte the same for the same drawing (no dates, no random IDs). */
#ifndef RS_RENDER_PDF_H
#define RS_RENDER_PDF_H

#include "base/err.h"
#include "render/render.h"

struct render_pdf;

/* A new document whose text uses the TrueType font at font_path (embedded);
 * title (may be NULL) goes into the document information.  Fails when
 * libharu cannot load the font.  Free with render_pdf_free(). */
int render_pdf_new(const char *font_path, const char *title, struct render_pdf **out,
		   struct rs_err *err);
void render_pdf_free(struct render_pdf *d);

/* The sides of an A4 page, in points (210 x 297 mm). */
#define RENDER_PDF_A4_SHORT 595.276
#define RENDER_PDF_A4_LONG 841.89

/* Start an A4 page (landscape, or portrait for a drawing taller than
 * wide) for a drawing of width x height points, each side in
 * RENDER_SIZE_MIN..RENDER_SIZE_MAX (else -1, err says so): later drawing
 * calls, in the drawing's points, land on the page scaled to fit it,
 * centred. */
int render_pdf_page(struct render_pdf *d, double width, double height, struct rs_err *err);

/* The drawing operations; their ctx is a struct render_pdf *.  text_width
 * works before the first page. */
const struct render_ops *render_pdf_ops(void);

/* Write the document to path.  Fails with the first libharu error of any
 * earlier drawing call, or the save's own, or the system's reason when
 * writing path fails ("No space left on device", for the caller to
 * prefix with the file name). */
int render_pdf_save(struct render_pdf *d, const char *path, struct rs_err *err);

#endif
