/* csv_append.c: the results file a sweep appends to, crash-safe: made and
 * locked, its header and last line checked when resumed, each row written
 * whole with one write(2) and checked against the rows before it (csv.h's
 * csv_out_*).  The columns are csv.c's, the lines csv_write.c's and the
 * reader csv_read.c's. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/csv.h"
#include "results/csv_int.h"
#include "base/infile.h"
#include "base/platform.h"
#include "base/sbuf.h"
#include "base/xalloc.h"

static int csv_write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t w = write(fd, buf, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		if (w == 0) {
			errno = ENOSPC;
			return -1;
		}
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Write buf at the end of the file and sync it; on failure cut the file
 * back to o->size so no partial line remains. */
static int csv_out_commit(struct csv_out *o, const char *buf, size_t len, struct rs_err *err)
{
	if (csv_write_all(o->fd, buf, len) < 0 || fsync(o->fd) < 0) {
		int e = errno;

		/* Cut off whatever part of the line got out (O_APPEND puts the next
		 * write at the new end).  The write's error is the one to report. */
		if (ftruncate(o->fd, (off_t)o->size) < 0 && e == 0)
			e = errno;
		return rs_err_set(err, "%s: cannot write: %s (the rows before are intact)", o->path,
				  strerror(e));
	}
	o->size += (long long)len;
	return 0;
}

static const char *csv_file_kind(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : S_ISDIR(m) ? "a directory" :
	       S_ISSOCK(m) ? "a socket" : "not a file";
}

int csv_open_file(const char *path, int flags, const char *what, struct rs_err *err)
{
	struct stat fs, ps;
	int fd, fl, e;

	/* O_NONBLOCK keeps open() from waiting for a FIFO's other end. */
	fd = open(path, flags | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0644);
	if (fd < 0) {
		e = errno;
		if (e == EISDIR || (e == ENXIO && stat(path, &ps) == 0 && !S_ISREG(ps.st_mode))) {
			rs_err_set(err, "%s is not a regular file (%s): %s go to a regular file", path,
				   e == EISDIR ? "a directory" : csv_file_kind(ps.st_mode), what);
			return rs_err_as(err, RS_E_INPUT);
		}
		/* O_NOFOLLOW's refusal: Linux says ELOOP, the BSDs EMLINK or EFTYPE. */
		if ((flags & O_NOFOLLOW) && e != ENOENT && e != EEXIST && lstat(path, &ps) == 0 &&
		    S_ISLNK(ps.st_mode)) {
			rs_err_set(err, "%s is a symbolic link: %s go to a regular file, not through a "
				   "link", path, what);
			return rs_err_as(err, RS_E_INPUT);
		}
		rs_err_set(err, "%s: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	if (fstat(fd, &fs) < 0)
		goto failed;
	if (!S_ISREG(fs.st_mode)) {
		close(fd);
		rs_err_set(err, "%s is not a regular file (%s): %s go to a regular file", path,
			   csv_file_kind(fs.st_mode), what);
		return rs_err_as(err, RS_E_INPUT);
	}
	if ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
		goto failed;
	return fd;
failed:
	e = errno;
	close(fd);
	rs_err_set(err, "%s: %s", path, strerror(e));
	return rs_err_as(err, RS_E_IO);
}

/* A path that names no file yet (csv_out_lock without create). */
#define CSV_ABSENT 1

/* Open path to read it and append to it, and lock it; with create, make it
 * (it must not exist: another process that made it meanwhile is not ours
 * to write into).  What was opened is checked on the descriptor
 * (csv_open_file), so nothing can be swapped in between a check and the
 * open.  Returns 0, CSV_ABSENT (not create, and no such file), or -1: of
 * kind RS_E_INPUT for what is not a regular file, a symbolic link among them. */
static int csv_out_lock(struct csv_out *o, const char *path, int create, struct rs_err *err)
{
	struct stat fs, ps;
	int e;

	/* Never through a symbolic link: the histograms' sidecar is made
	 * beside the name given (histfile.c, O_NOFOLLOW), so rows through a
	 * link would land apart from their histograms, and a dangling link was
	 * found only when the first row came, after measuring. */
	o->fd = csv_open_file(path, O_RDWR | O_APPEND | O_NOFOLLOW |
			      (create ? O_CREAT | O_EXCL : 0), "rows", err);
	if (o->fd < 0) {
		e = errno;
		if (!create && e == ENOENT)
			return CSV_ABSENT;
		if (create && e == EEXIST)
			return rs_err_set(err, "%s was created by another process during the run; "
					  "nothing written to it", path);
		return -1;
	}
	if (fstat(o->fd, &fs) < 0)
		goto failed;
	if (flock(o->fd, LOCK_EX | LOCK_NB) < 0) {
		long pid;

		if (errno != EWOULDBLOCK)
			goto failed;
		pid = platform_lock_holder(o->fd);
		close(o->fd);
		o->fd = -1;
		if (pid > 0)
			return rs_err_set(err, "%s is being written by another rsweep (pid %ld)", path, pid);
		return rs_err_set(err, "%s is being written by another rsweep", path);
	}
	/* The lock is on what was opened: make sure the path still leads there. */
	if (stat(path, &ps) < 0 || ps.st_dev != fs.st_dev || ps.st_ino != fs.st_ino) {
		close(o->fd);
		o->fd = -1;
		return rs_err_set(err, "%s was replaced while rsweep opened it; nothing written", path);
	}
	if (o->path == NULL)
		o->path = xstrdup(path);
	return 0;
failed:
	e = errno;
	close(o->fd);
	o->fd = -1;
	return rs_err_set(err, "%s: %s", path, strerror(e));
}

/* The whole file, through the locked descriptor (the path may lead
 * elsewhere by now), into a NUL-terminated malloc'd buffer. */
static int csv_out_read(const struct csv_out *o, size_t max, char **bufp, size_t *lenp,
			struct rs_err *err)
{
	struct stat st;
	size_t cap, n = 0;
	char *buf;

	if (fstat(o->fd, &st) < 0)
		return rs_err_set(err, "%s: %s", o->path, strerror(errno));
	/* Room for the size known now in one go: a large file is not copied
	 * as the buffer doubles. */
	cap = (size_t)st.st_size < max ? (size_t)st.st_size + 1 : max;
	buf = xmalloc(cap + 1);
	for (;;) {
		ssize_t k;

		if (n == cap) {
			if (cap >= max) {
				free(buf);
				return rs_err_set(err, "%s: larger than %zu bytes", o->path, max);
			}
			cap = cap > max / 2 ? max : 2 * cap;
			buf = xrealloc(buf, cap + 1);
		}
		k = pread(o->fd, buf + n, cap - n, (off_t)n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			int e = errno;

			free(buf);
			return rs_err_set(err, "%s: %s", o->path, strerror(e));
		}
		if (k == 0)
			break;
		n += (size_t)k;
	}
	buf[n] = '\0';
	*bufp = buf;
	*lenp = n;
	return 0;
}

/* Resume into a file whose header is another rsweep version's: rows
 * added to it are written in its columns, so that it stays one table.
 * Taken only when every column of its header is one this version writes,
 * its first CSV_NCONTRACT are the contract's and its last is first_error
 * (which a torn row must end inside); o->cols, o->hdr and o->missing
 * (this version's columns it lacks) are set.  Returns 0, or -1 with err
 * saying why not. */
static int csv_out_older(struct csv_out *o, const char *buf, size_t len, struct rs_err *err)
{
	struct csv_field f[CSV_MAXF];
	int map[CSV_MAXF];
	struct csv_info info = { 0 };
	struct sbuf miss;
	size_t nhdr, pos = 0;
	unsigned nl = 0;
	char *scratch = xmalloc(len + CSV_MAXF + 1);
	char why[160] = "not written by this version of rsweep (its header differs)";
	int rc = -1;

	if (csv_header_read(buf, len, o->path, &pos, scratch, f, &nhdr, &nl, err) < 0 ||
	    csv_header_map(f, nhdr, o->path, map, &info, err) < 0) {
		/* "FILE:1: no 'pipeline' column (...)": the reason is past the place. */
		const char *r = strstr(err->msg, ":1: ");

		snprintf(why, sizeof why, "%.150s", r ? r + 4 : err->msg);
		goto refused;
	}
	/* One header line, no byte-order mark: what rsweep writes. */
	if (!info.rsweep_header || nl != 1 || buf[0] != csv_header()[0] ||
	    map[nhdr - 1] != (int)csv_ncols() - 1)
		goto refused;
	for (size_t i = 0; i < nhdr; i++)
		if (map[i] < 0) {
			snprintf(why, sizeof why, "not written by this version of rsweep (its column "
				 "%.40s is not one this version writes)", f[i].s);
			goto refused;
		}
	o->cols = xmalloc(nhdr * sizeof *o->cols);
	memcpy(o->cols, map, nhdr * sizeof *o->cols);
	o->ncols = nhdr;
	o->hdr = xmalloc(pos + 1);
	memcpy(o->hdr, buf, pos);
	o->hdr[pos] = '\0';
	sbuf_heap(&miss);
	for (size_t c = 0; c < csv_ncols(); c++) {
		size_t i = 0;

		while (i < nhdr && map[i] != (int)c)
			i++;
		if (i == nhdr)
			sbuf_item(&miss, ", ", "%s", csv_col_name(c));
	}
	if (miss.len > 0)
		o->missing = miss.s;
	else
		free(miss.s);
	rc = 0;
	goto out;
refused:
	rc = rs_err_set(err, "%s: %s; resume into it refused, nothing changed", o->path, why);
out:
	free(scratch);
	return rc;
}

int csv_out_open(struct csv_out *o, const char *path, int resume, int overwrite,
		 struct rs_rows *existing, struct rs_err *err)
{
	const char *hdr = csv_header();
	size_t hlen = strlen(hdr);
	struct csv_info info;
	char *buf = NULL;
	size_t len = 0;
	int rc = -1;

	memset(o, 0, sizeof *o);
	o->fd = -1;
	if (strcmp(path, "-") == 0)
		return rs_err_setk(err, RS_E_USAGE, "-o -: results must go to a file that can be "
				   "synced");
	/* Lock first, then read: a second rsweep reading rows the first one is
	 * adding to would measure the same points again. */
	if ((rc = csv_out_lock(o, path, 0, err)) == CSV_ABSENT) {
		o->path = xstrdup(path);
		o->create = 1;
		return 0;
	}
	if (rc < 0)
		return rc;
	rc = -1;
	if (csv_out_read(o, (size_t)1 << 30, &buf, &len, err) < 0)
		goto fail;
	/* No rows yet (empty, or only our header), or --overwrite: the header
	 * and the first row go in together. */
	if (len == 0 || (len == hlen && memcmp(buf, hdr, hlen) == 0) || overwrite) {
		free(buf);
		o->replace = 1;
		return 0;
	}
	if (!resume) {
		rs_err_set(err, "%s already holds results: use --resume to add to them, or "
			   "--overwrite to replace them", path);
		rc = rs_err_as(err, RS_E_REFUSED);
		goto fail;
	}
	if ((len < hlen || memcmp(buf, hdr, hlen) != 0) && csv_out_older(o, buf, len, err) < 0) {
		rc = rs_err_as(err, RS_E_INPUT);
		goto fail;
	}
	if (csv_parse(buf, len, path, existing, &info, err) < 0) {
		rc = rs_err_as(err, RS_E_INPUT);
		goto fail;
	}
	free(buf);
	/* A crash can leave less than a row at the end: it is cut off, and a
	 * whole row there given its newline, when the first row is added. */
	o->size = (long long)info.complete_len;
	o->cut_tail = info.truncated_tail;
	o->add_newline = info.missing_newline;
	return 0;
fail:
	free(buf);
	csv_out_close(o);
	return rc;
}

int csv_out_ready(struct csv_out *o, struct rs_err *err)
{
	int fresh = o->create || o->replace;

	if (o->create) {
		if (csv_out_lock(o, o->path, 1, err) < 0)
			return -1;
		o->create = 0;
		o->replace = 1;
	}
	if (o->replace) {
		o->size = 0;
		if (ftruncate(o->fd, 0) < 0)
			return rs_err_set(err, "%s: %s", o->path, strerror(errno));
		if (csv_out_commit(o, csv_header(), strlen(csv_header()), err) < 0)
			return -1;
		o->replace = 0;
	}
	if (o->cut_tail) {
		if (ftruncate(o->fd, (off_t)o->size) < 0)
			return rs_err_set(err, "%s: cannot cut off a half-written last line: %s",
					  o->path, strerror(errno));
		o->cut_tail = 0;
	}
	if (o->add_newline) {
		if (csv_out_commit(o, "\n", 1, err) < 0)
			return -1;
		o->add_newline = 0;
	}
	return fresh;
}

/* "point 12 (GET P=4)", the row's place in the run for messages. */
static const char *csv_out_point(char *buf, size_t size, const struct rs_row *r)
{
	char show[40];

	csv_show_str(show, sizeof show, r->test, sizeof r->test);
	if (r->order > 0)
		snprintf(buf, size, "point %lld (%s P=%u)", (long long)r->order, show, r->pipeline);
	else
		snprintf(buf, size, "the row of %s P=%u", show, r->pipeline);
	return buf;
}

/* Whether o->path still names the file rsweep holds open: deleted or
 * replaced, the rows would go on into a file nobody can open.  If not, err
 * says what happened and where the rows are; r is the row about to be
 * written (written 0) or just written (1). */
static int csv_out_same(const struct csv_out *o, const struct rs_row *r, int written,
			struct rs_err *err)
{
	struct stat fs, ps;
	char point[200];
	int gone;

	if (fstat(o->fd, &fs) < 0)
		return rs_err_set(err, "%s: %s", o->path, strerror(errno));
	gone = stat(o->path, &ps) < 0;
	csv_out_point(point, sizeof point, r);
	/* Emptied or cut short under us (": > FILE", logrotate's
	 * copytruncate): rows appended now would follow no header, or half a
	 * row, and the file would read as no results at all.  Nothing pending
	 * (create, replace) means o->size is what rsweep has written. */
	if (!gone && ps.st_dev == fs.st_dev && ps.st_ino == fs.st_ino && !o->create &&
	    !o->replace && (long long)fs.st_size < o->size)
		return rs_err_set(err, "%s was truncated during the run (%lld of its %lld bytes "
				  "left): the rows %s %s were cut from it (in the copy, if it was "
				  "copied before), and nothing more is written to it%s", o->path,
				  (long long)fs.st_size, o->size, written ? "up to" : "before", point,
				  written ? "" : "; that point is in no file");
	if (!gone && ps.st_dev == fs.st_dev && ps.st_ino == fs.st_ino)
		return 0;
	if (fs.st_nlink == 0)
		return rs_err_set(err, "%s was %s during the run: the rows %s held are gone with it, "
				  "and %s is in no file%s", o->path,
				  gone ? "deleted" : "replaced by another file", gone ? "it" : "the old one",
				  point, gone ? "" : " (the new file is left alone)");
	return rs_err_set(err, "%s was %s during the run: the file rsweep wrote still exists under "
			  "another name, with the rows %s %s%s", o->path,
			  gone ? "moved or renamed" : "replaced by another file",
			  written ? "up to" : "before", point,
			  written ? " (included)" : ", which is in no file");
}

int csv_out_append(struct csv_out *o, const struct rs_row *r, struct rs_err *err)
{
	char line[CSV_LINE_MAX];
	int n = o->cols ? csv_format_in(r, o->hdr, o->cols, o->ncols, line, sizeof line, err) :
			  csv_format_row(r, line, sizeof line, err);

	if (n < 0)
		return -1;
	if (o->fd >= 0 && csv_out_same(o, r, 0, err) < 0)
		return -1;
	if (csv_out_ready(o, err) < 0)
		return -1;
	if (csv_out_commit(o, line, (size_t)n, err) < 0)
		return -1;
	/* Deleted while the row was written: it is no better off than unwritten. */
	return csv_out_same(o, r, 1, err);
}

int csv_out_lacks(const struct csv_out *o, const char *name)
{
	if (o->cols == NULL)
		return 0;
	for (size_t i = 0; i < o->ncols; i++)
		if (strcmp(csv_col_name((size_t)o->cols[i]), name) == 0)
			return 0;
	for (size_t c = 0; c < csv_ncols(); c++)
		if (strcmp(csv_col_name(c), name) == 0)
			return 1;
	return 0;
}

void csv_out_close(struct csv_out *o)
{
	if (o == NULL)
		return;
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	free(o->path);
	free(o->cols);
	free(o->hdr);
	free(o->missing);
	o->path = NULL;
	o->cols = NULL;
	o->hdr = o->missing = NULL;
}
