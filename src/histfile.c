/* histfile.c: the histogram sidecar of a results CSV: append, parse. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "histfile.h"
#include "num.h"
#include "sbuf.h"
#include "xalloc.h"

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

int histfile_append(const char *csv_path, const struct rs_row *row, const struct hist *h,
		    struct rs_err *err)
{
	struct sbuf path, b;
	int fd, rc = 0;
	off_t end;

	sbuf_heap(&path);
	sbuf_printf(&path, "%s%s", csv_path, HISTFILE_SUFFIX);
	fd = open(path.s, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || (end = lseek(fd, 0, SEEK_END)) < 0) {
		rs_err_set(err, "%s: %s", path.s, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(path.s);
		return -1;
	}
	/* The whole line in one buffer, so that a write that fails half-way
	 * (a full disk) is cut back off and the file ends with a whole line. */
	sbuf_heap(&b);
	if (end == 0)
		sbuf_printf(&b, "%s\n", HISTFILE_HEADER);
	histfile_put_field(&b, row->label);
	sbuf_add(&b, ",", 1);
	histfile_put_field(&b, row->test);
	sbuf_printf(&b, ",%u,%s,", row->pipeline, row->mode);
	if (isfinite(row->rate_offered))
		sbuf_printf(&b, "%.2f", row->rate_offered);
	sbuf_printf(&b, ",%s,%u,%s,", row->arrivals, row->repeat, row->started_at);
	hist_encode(h, &b);
	sbuf_add(&b, "\n", 1);
	for (size_t off = 0; off < b.len && rc == 0;) {
		ssize_t w = write(fd, b.s + off, b.len - off);

		if (w > 0)
			off += (size_t)w;
		else if (w < 0 && errno == EINTR)
			continue;
		else
			rc = rs_err_set(err, "%s: cannot write: %s (the rows before are intact)", path.s,
					w < 0 ? strerror(errno) : "no progress");
	}
	if (rc == 0 && fsync(fd) != 0)
		rc = rs_err_set(err, "%s: cannot sync: %s", path.s, strerror(errno));
	if (rc != 0 && ftruncate(fd, end) != 0)
		rs_err_prefix(err, "and cannot cut back a half line (%s)", strerror(errno));
	close(fd);
	free(b.s);
	free(path.s);
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
