/* csv.h: result rows to and from RFC 4180 CSV.
 *
 * The writer emits rsweep's columns in a fixed order (the first 15 are the
 * public contract).  The reader finds columns by header name, ignores
 * columns it does not know, and never touches stdout or sockets: it parses a
 * buffer, so tests and fuzzers drive it from strings. */
#ifndef RS_CSV_H
#define RS_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "base/err.h"
#include "results/row.h"

/* The header line rsweep writes, with its trailing newline. */
const char *csv_header(void);

/* ---- RFC 4180, the one home of its rules for every room ---- */

/* One field as read: unquoted text, NUL-terminated, in the caller's scratch. */
struct csv_field {
	char *s;
	size_t len;
};

/* Split one line s[0..n), without its line end, into at most maxf fields
 * f, their text in scratch (room for n + maxf + 1 bytes).  Returns the
 * number of fields (an empty line is one empty field), or -1 with err set
 * ("unterminated quoted field", "quote inside an unquoted field", "more
 * than N fields", ...). */
int csv_split_line(const char *s, size_t n, char *scratch, struct csv_field *f, size_t maxf,
		   struct rs_err *err);

/* Write s to fp as one CSV field: quoted, with quotes doubled, when it
 * holds a comma, a quote, CR or LF. */
void csv_put_field(FILE *fp, const char *s);

/* Format one row as a CSV line ending in "\n" into buf; returns its length,
 * or -1 (err set) if it does not fit or if csv_parse would refuse it: a
 * row rsweep writes is one its readers take.  The error names the field
 * ("rps is negative (-5.00)").  NAN and -1 are "unknown" (an empty field),
 * which a required column (rps) refuses; an infinity, or an integer below
 * -1, is refused as such rather than written as unknown. */
int csv_format_row(const struct rs_row *r, char *buf, size_t size, struct rs_err *err);
/* Room enough for any row csv_format_row writes. */
#define CSV_LINE_MAX 4096
/* Whether csv_format_row would write r: 0, or -1 with only the reason in err
 * ("label 'a?b' holds a control character"), for callers that say where
 * the value came from. */
int csv_check_row(const struct rs_row *r, struct rs_err *err);

/* What csv_parse found besides rows. */
struct csv_info {
	int rsweep_header;        /* header has every column rsweep writes first */
	size_t complete_len;      /* bytes up to the end of the last whole row */
	int truncated_tail;       /* a last line without newline, less than a row, was ignored */
	unsigned tail_line;       /* its line number */
	int missing_newline;      /* the last row is whole but has no newline (kept) */
	unsigned lines;           /* physical lines read */
};

/* Parse buf[0..len) named name (for messages) and append its rows to rows.
 * Required columns: label, test, pipeline, rps (others may be absent or
 * empty, giving NAN / -1).  Only the last line can be a crash's leftover,
 * and only when it has no newline: if it is less than a row (fewer fields
 * than the header, or cut inside a quoted field) it is ignored and
 * info->truncated_tail set; a whole row there is kept (missing_newline).
 * Fails with "name:line: reason" on a bad header, a bad field or a
 * malformed record, such as a quote never closed before the end. */
int csv_parse(const char *buf, size_t len, const char *name, struct rs_rows *rows,
	      struct csv_info *info, struct rs_err *err);

/* The one line readers print about what csv_parse ignored in path, into
 * buf ("path:9: the last line has no end of line ...; ignored"); returns
 * buf, or NULL when nothing was ignored. */
const char *csv_info_note(const struct csv_info *info, const char *path, char *buf, size_t size);

/* Read a whole file (or "-" for stdin) and csv_parse it.  An empty file is
 * an error ("no header"). */
int csv_read_file(const char *path, struct rs_rows *rows, struct csv_info *info,
		  struct rs_err *err);


/* Open path with open(2)'s flags (O_CLOEXEC and O_NOCTTY added), and only
 * if it is a regular file, as checked on the descriptor once open; a FIFO
 * does not block the open.  what names what goes there, for messages
 * ("rows").  With O_NOFOLLOW a symbolic link is refused as such.  Returns
 * the descriptor, or -1 with err set and errno kept from open(2) (ENOENT,
 * EEXIST for the caller to tell apart): of kind RS_E_INPUT for a FIFO, a
 * device, a directory or a link, "PATH is not a regular file (a FIFO):
 * rows go to a regular file". */
int csv_open_file(const char *path, int flags, const char *what, struct rs_err *err);

/* An output CSV that survives crashes: each row is appended with one write
 * and pushed to disk (fsync) before the next point starts; a write that
 * fails half-way (full disk) is cut back off, so the file always ends with
 * a complete row.  Before and after each row the path must still name the
 * file opened: a file deleted or replaced mid-sweep stops the sweep. */
struct csv_out {
	int fd;
	char *path;
	long long size;           /* bytes known to be complete */
	/* Left for the first row, so that a run that measures nothing (the
	 * guard refused, the server failed) changes nothing: */
	int create;               /* the path names no file yet: make it */
	int replace;              /* empty it and write the header (--overwrite) */
	int cut_tail;             /* cut the file back to size (a crash's half row) */
	int add_newline;          /* the last row lacks its newline */
	/* Resuming into an older rsweep's file: its columns (indices of this
	 * version's), its header line, and this version's columns it lacks
	 * ("a, b": rows added to it leave them out); all NULL otherwise. */
	int *cols;
	size_t ncols;
	char *hdr;
	char *missing;
};

/* Open path for appending rows, locked against a second writer before
 * anything is read.  Only a regular file, or a new path, is taken.  The
 * file is not changed here: every change waits for the first row, so a
 * run that fails before measuring anything (the guard refused it) leaves
 * no new file and loses nothing.  A new path is then created (a file made
 * there meanwhile by another process is refused); an empty file or one
 * holding only rsweep's header gets the header.  An existing file with
 * rows is an error (RS_E_REFUSED) unless resume or overwrite: overwrite
 * replaces it; resume reads its rows into existing (which must be an
 * rsweep CSV, readable to the end, with this version's header or an older
 * one whose columns this version still writes: rows then go in its
 * columns, and o->missing names those they leave out), and at the
 * first row cuts off a last line that a crash left less than a row, and
 * gives a whole last row its missing newline.  "-" is not allowed (rows must reach a file that can be
 * synced).  Returns 0, or -1 with err's kind: RS_E_REFUSED for a file
 * that holds results; RS_E_INPUT for what is bad input (a FIFO, a device
 * or a directory; a file rsweep did not write, or one that does not read
 * as CSV), with the file untouched; RS_E_FAILED for the rest (another
 * rsweep holds the lock, I/O). */
int csv_out_open(struct csv_out *o, const char *path, int resume, int overwrite,
		 struct rs_rows *existing, struct rs_err *err);
/* Append one row and fsync.  On failure the file is as before the call,
 * and err says why.  When the path no longer names the file (deleted,
 * replaced, moved) the row is refused, or if that happened while it was
 * written it went where the others are: err says where that is. */
int csv_out_append(struct csv_out *o, const struct rs_row *r, struct rs_err *err);
/* Do now what csv_out_open left for the first row (make the file and lock
 * it, or empty it for the header, or mend a crash's tail), so that files
 * that go with it are written under its lock.  Returns 1 when this call
 * made the file or emptied it (files that go with it hold nothing of it
 * then), 0 when there was nothing left to do, -1 with err set. */
int csv_out_ready(struct csv_out *o, struct rs_err *err);
/* Whether o is an older rsweep's file without column name (one this
 * version writes): 1 yes, 0 no. */
int csv_out_lacks(const struct csv_out *o, const char *name);
void csv_out_close(struct csv_out *o);

/* ",V" to fp, V as num_fmt writes it with prec decimals, or "," alone when
 * v is not finite (unknown): one number field of a CSV line after its
 * first.  Report's and the budget's CSV write their figures through it. */
void csv_put_num(FILE *fp, double v, int prec);

#endif
