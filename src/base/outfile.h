/* outfile.h: result files written whole or not at all.
 *
 * A file is written to a temporary name in the target's directory and
 * renamed over the target only once complete and synced, so a failed
 * render, report or import never leaves a truncated file over a good one.
 * A symbolic link is followed: the file it names is replaced (made, for
 * a link whose file does not exist yet), the link stays.  A target that exists and is not a regular file (/dev/null,
 * /dev/full, a pipe) is written in place, and never renamed over or
 * removed.  New files get the permissions the umask allows, as open()
 * would. */
#ifndef RS_OUTFILE_H
#define RS_OUTFILE_H

#include <stdio.h>

#include "base/err.h"

struct outfile {
	FILE *fp;                 /* write here; NULL once closed for a library that writes by name */
	char *path;               /* the target, as given */
	char *tmp;                /* the name to write by: the temporary file, or the target in place */
	char *dest;               /* what tmp is renamed to: path, or the file its link names */
	int in_place;             /* the target is a device or a pipe: tmp is the target itself */
	int hold;                 /* in place and released: the target kept open, so that a
				   * pipe's reader stays for the library's writes; else -1 */
};

/* Create the temporary file for path (or open path itself, when it is
 * not a regular file) and open o->fp on it.  Errors say "cannot write
 * PATH: reason". */
int outfile_open(struct outfile *o, const char *path, struct rs_err *err);
/* Close o->fp so that a library can write o->tmp by name (libharu). */
int outfile_release(struct outfile *o, struct rs_err *err);
/* Flush, sync, close and rename over path.  On failure the temporary file
 * is removed and path is untouched.  Errors say "cannot write PATH:
 * reason" (a full disk: "No space left on device"). */
int outfile_commit(struct outfile *o, struct rs_err *err);
/* Give up: close and remove the temporary file.  Accepts a closed outfile. */
void outfile_abort(struct outfile *o);

#endif
