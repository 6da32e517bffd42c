/* histfile.c: the histogram sidecar of a results CSV: append, parse. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/csv.h"
#include "results/histfile.h"
#include "base/num.h"
#include "base/sbuf.h"
#include "base/xalloc.h"

#define HISTFILE_FIELDS 9

/* Append the CSV field text of s to b, quoted as csv_put_field quotes. */
static void histfile_put_field(struct sbuf *b, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		sbuf_printf(b, "%s", s);
		return;
	}
	sbuf_add(b, "\"", 1);
	for (; *s; s++) {
		if (*s == '"')
			sbuf_add(b, "\"", 1);  /* a quote is doubled */
		sbuf_add(b, s, 1);
	}
	sbuf_add(b, "\"", 1);
}

/* The sidecar's path for the CSV at csv_path, malloc'd. */
static char *histfile_path(const char *csv_path)
{
	struct sbuf path;

	sbuf_heap(&path);
	sbuf_printf(&path, "%s%s", csv_path, HISTFILE_SUFFIX);
	return path.s;
}

/* Open the sidecar at path (made when create), never through a link and
 * only a regular file: the name is not one the user chose, so what is
 * there is not to be written through.  Returns the descriptor or -1. */
static int histfile_open(const char *path, int create, struct rs_err *err)
{
	return csv_open_file(path, O_RDWR | O_APPEND | O_NOFOLLOW | (create ? O_CREAT : 0),
			     "histograms", err);
}

/* Where the sidecar open as fd, end bytes long, should end: end itself, or
 * after its last whole line when a crash left a half one (0 when even the
 * header is torn).  A file that does not start with our header is refused
 * (RS_E_INPUT): it is not ours to add to.  Returns 0 with *keep set, or -1. */
static int histfile_tail(int fd, const char *path, off_t end, off_t *keep, struct rs_err *err)
{
	size_t hl = strlen(HISTFILE_HEADER);
	char buf[4096];
	off_t at = end;
	ssize_t k;

	*keep = end;
	if (end == 0)
		return 0;
	k = pread(fd, buf, hl + 1 < sizeof buf ? hl + 1 : sizeof buf, 0);
	if (k < 0)
		return rs_err_set(err, "%s: %s", path, strerror(errno));
	if ((size_t)k <= hl ? memcmp(buf, HISTFILE_HEADER, (size_t)k) != 0 :
	    memcmp(buf, HISTFILE_HEADER "\n", hl + 1) != 0)
		return rs_err_setk(err, RS_E_INPUT, "%s: not an rsweep histogram file (header is not "
				   "%s); nothing written to it", path, HISTFILE_HEADER);
	/* Back from the end to the last newline, a block at a time. */
	while (at > 0) {
		size_t n = at < (off_t)sizeof buf ? (size_t)at : sizeof buf;

		k = pread(fd, buf, n, at - (off_t)n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k != (ssize_t)n)
			return rs_err_set(err, "%s: %s", path, k < 0 ? strerror(errno) : "short read");
		for (size_t i = n; i-- > 0;)
			if (buf[i] == '\n') {
				*keep = at - (off_t)n + (off_t)i + 1;
				return 0;
			}
		at -= (off_t)n;
	}
	*keep = 0;
	return 0;
}

int histfile_check(const char *csv_path, struct rs_err *err)
{
	char *path = histfile_path(csv_path);
	off_t end, keep;
	int fd = histfile_open(path, 0, err), rc = 0;

	if (fd < 0) {
		rc = errno == ENOENT ? 0 : -1;
	} else {
		if ((end = lseek(fd, 0, SEEK_END)) < 0)
			rc = rs_err_set(err, "%s: %s", path, strerror(errno));
		else
			rc = histfile_tail(fd, path, end, &keep, err);
		close(fd);
	}
	free(path);
	return rc;
}

void histfile_format_line(struct sbuf *b, const struct rs_row *row, const struct hist *h)
{
	histfile_put_field(b, row->label);
	sbuf_add(b, ",", 1);
	histfile_put_field(b, row->test);
	sbuf_printf(b, ",%u,%s,", row->pipeline, row->mode);
	if (isfinite(row->rate_offered))
		sbuf_printf(b, "%.2f", row->rate_offered);
	sbuf_printf(b, ",%s,%u,%s,", row->arrivals, row->repeat, row->started_at);
	hist_encode(h, b);
	sbuf_add(b, "\n", 1);
}

int histfile_append(struct csv_out *o, const struct rs_row *row, const struct hist *h,
		    struct rs_err *err)
{
	struct sbuf b;
	char *path;
	int fd, fresh, rc = 0;
	off_t end, keep;

	/* The CSV made and locked first: a second rsweep making the same new
	 * file is refused there, before it writes a line here. */
	if ((fresh = csv_out_ready(o, err)) < 0)
		return -1;
	path = histfile_path(o->path);
	if ((fd = histfile_open(path, 1, err)) < 0) {
		free(path);
		return -1;
	}
	/* A CSV just made or emptied (--overwrite) has no rows: whatever our
	 * sidecar held went with them (a file not ours is refused, not
	 * emptied).  A crash's half line is cut back, as the CSV's is, or the
	 * next line would be glued to it. */
	if ((end = lseek(fd, 0, SEEK_END)) < 0) {
		rc = rs_err_set(err, "%s: %s", path, strerror(errno));
		goto out;
	}
	if ((rc = histfile_tail(fd, path, end, &keep, err)) < 0)
		goto out;
	if (fresh)
		keep = 0;
	if (keep != end && ftruncate(fd, keep) != 0) {
		rc = rs_err_set(err, "%s: cannot %s: %s", path,
				fresh ? "empty it" : "cut off a half-written last line", strerror(errno));
		goto out;
	}
	end = keep;
	/* The whole line in one buffer, so that a write that fails half-way
	 * (a full disk) is cut back off and the file ends with a whole line. */
	sbuf_heap(&b);
	if (end == 0)
		sbuf_printf(&b, "%s\n", HISTFILE_HEADER);
	histfile_format_line(&b, row, h);
	for (size_t off = 0; off < b.len && rc == 0;) {
		ssize_t w = write(fd, b.s + off, b.len - off);

		if (w > 0)
			off += (size_t)w;
		else if (w < 0 && errno == EINTR)
			continue;
		else
			rc = rs_err_set(err, "%s: cannot write: %s (the rows before are intact)", path,
					w < 0 ? strerror(errno) : "no progress");
	}
	if (rc == 0 && fsync(fd) != 0)
		rc = rs_err_set(err, "%s: cannot sync: %s", path, strerror(errno));
	if (rc != 0 && ftruncate(fd, end) != 0)
		rs_err_prefix(err, "and cannot cut back a half line (%s)", strerror(errno));
	free(b.s);
out:
	close(fd);
	free(path);
	return rc;
}

/* The fields of one line into l->key (the histogram into l->h). */
static int histfile_fields(const struct csv_field *f, struct histfile_line *l, struct rs_err *err)
{
	uint64_t v;
	struct rs_err e;

	row_init(&l->key);
	if (f[0].len >= sizeof l->key.label || f[1].len >= sizeof l->key.test ||
	    f[3].len >= sizeof l->key.mode || f[5].len >= sizeof l->key.arrivals ||
	    f[7].len >= sizeof l->key.started_at)
		return rs_err_set(err, "a field is too long");
	memcpy(l->key.label, f[0].s, f[0].len + 1);
	memcpy(l->key.test, f[1].s, f[1].len + 1);
	memcpy(l->key.mode, f[3].s, f[3].len + 1);
	memcpy(l->key.arrivals, f[5].s, f[5].len + 1);
	memcpy(l->key.started_at, f[7].s, f[7].len + 1);
	if (num_parse_u64(f[2].s, 1, UINT32_MAX, 0, &v, &e) < 0)
		return rs_err_set(err, "pipeline: %s", e.msg);
	l->key.pipeline = (unsigned)v;
	if (num_parse_u64(f[6].s, 1, UINT32_MAX, 0, &v, &e) < 0)
		return rs_err_set(err, "repeat: %s", e.msg);
	l->key.repeat = (unsigned)v;
	if (f[4].len > 0 && num_parse_double(f[4].s, 0, 1e15, &l->key.rate_offered, &e) < 0)
		return rs_err_set(err, "rate_offered: %s", e.msg);
	return hist_decode(f[8].s, f[8].len, &l->h, err);
}

int histfile_parse(const char *buf, size_t len, const char *name,
		   int (*fn)(void *ud, const struct histfile_line *l, struct rs_err *err), void *ud,
		   struct rs_err *err)
{
	struct histfile_line *l = xmalloc(sizeof *l);
	struct csv_field f[HISTFILE_FIELDS + 1];
	char *scratch = NULL;
	size_t cap = 0, pos = 0;
	unsigned line = 0;
	int rc = 0;

	while (rc == 0 && pos < len) {
		const char *s = buf + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		int nf;

		line++;
		pos += n + (nl != NULL);
		if (n > 0 && s[n - 1] == '\r')
			n--;
		if (n + HISTFILE_FIELDS + 2 > cap) {
			cap = n + HISTFILE_FIELDS + 2;
			scratch = xreallocarray(scratch, cap, 1);
		}
		if (line == 1) {
			if (n != strlen(HISTFILE_HEADER) || memcmp(s, HISTFILE_HEADER, n) != 0)
				rc = rs_err_set(err, "%s:1: not an rsweep histogram file (header is not "
						"%s)", name, HISTFILE_HEADER);
			continue;
		}
		if (nl == NULL) {
			/* A crash's half line: the row it was for was never written. */
			break;
		}
		/* rsweep never writes one; read as a C string the field would be
		 * cut short (a label "v\0m" keyed as "v": its row silently without
		 * a histogram here, an error there).  One rule: refused. */
		if (memchr(s, '\0', n) != NULL) {
			rc = rs_err_set(err, "%s:%u: a NUL byte (not a line rsweep wrote)", name, line);
			break;
		}
		nf = csv_split_line(s, n, scratch, f, HISTFILE_FIELDS + 1, err);
		if (nf < 0) {
			rc = rs_err_prefix(err, "%s:%u", name, line);
			break;
		}
		if (nf != HISTFILE_FIELDS) {
			rc = rs_err_set(err, "%s:%u: %d fields, the header has %d", name, line, nf,
					HISTFILE_FIELDS);
			break;
		}
		if (histfile_fields(f, l, err) < 0 || fn(ud, l, err) < 0)
			rc = rs_err_prefix(err, "%s:%u", name, line);
	}
	if (rc == 0 && line == 0)
		rc = rs_err_set(err, "%s: empty (no header)", name);
	free(scratch);
	free(l);
	return rc;
}
