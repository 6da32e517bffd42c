/* font.c: find the TrueType file for chart text (see font.h). */
#include "config.h"

#include <string.h>
#include <strings.h>
#include <unistd.h>

#ifdef HAVE_FONTCONFIG
#include <fontconfig/fontconfig.h>
#endif

#include "render/font.h"
#include "base/infile.h"
#include "base/xalloc.h"

#ifdef HAVE_FONTCONFIG
static int font_is_collection(const char *path)
{
	size_t n = strlen(path);

	return n >= 4 && (strcasecmp(path + n - 4, ".ttc") == 0 || strcasecmp(path + n - 4, ".otc") == 0);
}

/* The file fontconfig picks for DejaVu Sans in TrueType form (its nearest
 * TrueType face when DejaVu is missing), or -1.  libharu embeds only
 * TrueType, so another format would fail the PDF later. */
static int font_fontconfig(char *out, size_t n)
{
	FcConfig *cfg = FcInitLoadConfigAndFonts();
	FcPattern *pat, *match = NULL;
	FcResult res;
	FcChar8 *file = NULL, *format = NULL;
	int rc = -1, index = -1;

	if (cfg == NULL)
		return -1;
	pat = FcNameParse((const FcChar8 *)"DejaVu Sans:style=Book:fontformat=TrueType:scalable=true");
	if (pat != NULL && FcConfigSubstitute(cfg, pat, FcMatchPattern)) {
		FcDefaultSubstitute(pat);
		match = FcFontMatch(cfg, pat, &res);
	}
	/* A face inside a collection (.ttc) would need its index passed on,
	 * and libharu cannot embed from one: only a file of one face will do. */
	if (match != NULL && FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch &&
	    FcPatternGetString(match, FC_FONTFORMAT, 0, &format) == FcResultMatch &&
	    FcPatternGetInteger(match, FC_INDEX, 0, &index) == FcResultMatch && index == 0 &&
	    strcmp((const char *)format, "TrueType") == 0 && !font_is_collection((const char *)file) &&
	    access((const char *)file, R_OK) == 0 && xstrlcpy(out, (const char *)file, n) == 0)
		rc = 0;
	if (match != NULL)
		FcPatternDestroy(match);
	if (pat != NULL)
		FcPatternDestroy(pat);
	FcConfigDestroy(cfg);
	FcFini();                 /* nothing else uses fontconfig: free its caches */
	return rc;
}
#endif

int font_find(const char *given, const char *built_in, char *out, size_t n, struct rs_err *err)
{
	if (given != NULL) {
		if (infile_check("--font", given, err) < 0)
			return -1;
		if (xstrlcpy(out, given, n) < 0)
			return rs_err_setk(err, RS_E_INPUT, "--font: the path is too long");
		return 0;
	}
	if (access(built_in, R_OK) == 0 && xstrlcpy(out, built_in, n) == 0)
		return 0;
#ifdef HAVE_FONTCONFIG
	if (font_fontconfig(out, n) == 0)
		return 0;
	return rs_err_set(err, "no font for chart text: %s is missing and fontconfig has no TrueType "
			  "font; install fonts-dejavu-core or give --font PATH", built_in);
#else
	return rs_err_set(err, "no font for chart text: %s is missing; install fonts-dejavu-core or "
			  "give --font PATH", built_in);
#endif
}

int font_face_open(const char *font_path, FT_Library *ft, FT_Face *face, struct rs_err *err)
{
	FT_Error fe;

	*face = NULL;
	if (FT_Init_FreeType(ft) != 0) {
		*ft = NULL;
		return rs_err_set(err, "cannot initialise FreeType");
	}
	fe = FT_New_Face(*ft, font_path, 0, face);
	if (fe != 0) {
		*face = NULL;
		FT_Done_FreeType(*ft);
		*ft = NULL;
		return rs_err_set(err, "font %s: %s", font_path,
				  fe == FT_Err_Cannot_Open_Resource ? "cannot open it (give --font PATH)" :
				  fe == FT_Err_Unknown_File_Format ? "not a font FreeType can read" :
				  "FreeType cannot load it");
	}
	if (!FT_IS_SCALABLE(*face)) {
		FT_Done_Face(*face);
		FT_Done_FreeType(*ft);
		*face = NULL;
		*ft = NULL;
		return rs_err_set(err, "font %s: not a scalable (TrueType/OpenType) font", font_path);
	}
	return 0;
}
