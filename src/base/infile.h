/* infile.h: opening a file the user named as input (a CSV, its histogram
 * sidecar, a sweep or plot file, a capture to import, a font, a TLS
 * certificate).
 *
 * Only a regular file is read: a FIFO would block the reader forever, and
 * /dev/zero or /dev/urandom would be read up to the size limit, a gigabyte,
 * before anything could be said about them.  The open itself never waits
 * (O_NONBLOCK, so a FIFO without a writer does not block it either). */
#ifndef RS_INFILE_H
#define RS_INFILE_H

#include <stddef.h>

#include "base/err.h"

/* Open path for reading: a descriptor on a regular file (blocking again,
 * close-on-exec), or -1 with err set to "PATH: reason" (RS_E_INPUT when
 * path is not a regular file, errno kept for a failed open). */
int infile_open(const char *path, struct rs_err *err);

/* For a file a library opens by name (OpenSSL, FreeType, libharu): 0 if
 * path is a regular file that can be read, or -1 with err set as
 * infile_open's, what (e.g. "--cacert") put before the path, always
 * RS_E_INPUT: the path is an option's value. */
int infile_check(const char *what, const char *path, struct rs_err *err);

/* Read a whole file (only a regular one, see infile.h; "-" is standard
 * input) into a NUL-terminated malloc'd buffer; *len excludes the NUL.
 * Refuses files over max bytes, and stops at the first NUL byte in the
 * input ("PATH:LINE: a NUL byte", RS_E_INPUT): every text reader refuses
 * one.  Shared by the other file parsers. */
int infile_slurp(const char *path, size_t max, char **buf, size_t *len, struct rs_err *err);

/* infile_slurp for a reader that takes NUL bytes itself (import --skip-bad
 * skips a line holding one). */
int infile_slurp_bytes(const char *path, size_t max, char **buf, size_t *len, struct rs_err *err);

#endif
