/* outfile.h: result files written whole or not at all.
 *
 * A file is written to a temporary name in the target's directory and
 * renamed over the target only once complete and synced, so a failed
 * render, report or import never leaves a truncated file over a good one.
 * New files get the permissions the umask allows, as open() would. */
#ifndef RS_OUTFILE_H
#define RS_OUTFILE_H

#include <stdio.h>

#include "err.h"

struct outfile {
	FILE *fp;                 /* write here; NULL once closed for a library that writes by name */
	char *path;
	char *tmp;                /* the temporary file's name */
};

/* Create the temporary file for path and open o->fp on it. */
int outfile_open(struct outfile *o, const char *path, struct rs_err *err);
/* Close o->fp so that a library can write o->tmp by name (libharu). */
int outfile_release(struct outfile *o, struct rs_err *err);
/* Flush, sync, close and rename over path.  On failure the temporary file
 * is removed and path is untouched. */
int outfile_commit(struct outfile *o, struct rs_err *err);
/* Give up: close and remove the temporary file.  Accepts a closed outfile. */
void outfile_abort(struct outfile *o);

#endif
