/* plotfile.h: plot files: options for `rsweep plot` and the panels to draw.
 *
 *   metric = rps              (keys before any section: plot options, as on
 *   size = 1200x800            the command line, which wins over them)
 *   [Commands for lists]      (each section is a panel, titled by its name)
 *   tests = lpush,rpush,lrange_*
 *   title = Lists             (optional: replaces the section name)
 *   kind = speedup            (optional: lines or speedup)
 *
 * A pure parser over spec.h: it reads a buffer and reports "file:line:
 * reason"; plotfile_read only adds reading the file. */
#ifndef RS_PLOTFILE_H
#define RS_PLOTFILE_H

#include <stddef.h>

#include "base/err.h"

/* What a plot file's global key does, decided by its reader (rsweep plot
 * sets its options): key = value at file:line.  Returns 0, or -1 with err
 * saying "FILE:LINE: reason". */
typedef int (*plotfile_setter)(void *ud, const char *file, unsigned line, const char *key,
			       const char *value, struct rs_err *err);

struct plotfile_panel {
	char *title;              /* never NULL */
	char *tests;              /* comma list as written; NULL: every test */
	int kind;                 /* enum chart_kind, or -1: the command's --kind */
	unsigned line;            /* first line of the panel, for messages */
};

struct plotfile {
	char *name;               /* file name for messages */
	struct plotfile_panel *v;
	size_t n;
};

/* Parse buf[0..len) named name: hand its global keys to set(ud, ...) and
 * collect its panels into out (free it with plotfile_free even on
 * failure).  A file without sections has no panels.  Parse errors are of
 * kind RS_E_INPUT, with FILE:LINE; plotfile_read's read errors keep the
 * kind of the read. */
int plotfile_parse(const char *buf, size_t len, const char *name, plotfile_setter set,
		   void *ud, struct plotfile *out, struct rs_err *err);
/* Read path and plotfile_parse it. */
int plotfile_read(const char *path, plotfile_setter set, void *ud, struct plotfile *out,
		  struct rs_err *err);
void plotfile_free(struct plotfile *pf);

#endif
