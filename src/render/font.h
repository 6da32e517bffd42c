/* font.h: which TrueType file chart text is drawn with.
 *
 * In order: the file the user gave (--font), the one configure found
 * (RS_DEFAULT_FONT, DejaVu Sans on Debian), then, when rsweep is built with
 * fontconfig, the file fontconfig matches for DejaVu Sans.  No font is a
 * clear error, never a chart without text. */
#ifndef RS_FONT_H
#define RS_FONT_H

#include <stddef.h>

#include <ft2build.h>
#include FT_FREETYPE_H

#include "base/err.h"

/* The font file into out[0..n): given if not NULL (whether it opens is the
 * renderer's to say), else built_in if readable, else fontconfig's match.
 * Fails, saying what was looked for and how to fix it, when none is found
 * or the path does not fit. */
int font_find(const char *given, const char *built_in, char *out, size_t n, struct rs_err *err);

/* FreeType, and the scalable face of font_path in *face, for a back-end
 * that draws or measures text (PNG, SVG): 0, or -1 with *ft and *face
 * NULL and err saying why in the user's words ("give --font PATH").  The
 * caller frees them with FT_Done_Face and FT_Done_FreeType. */
int font_face_open(const char *font_path, FT_Library *ft, FT_Face *face, struct rs_err *err);

#endif
