/* csv_read.c: reading result rows: RFC 4180 records, columns found by
 * header name in the schema (csv.c), each field checked and refused, never
 * clamped.  It parses a buffer and never touches stdout or sockets. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/depths.h"
#include "base/infile.h"
#include "base/num.h"
#include "base/xalloc.h"
#include "results/csv.h"
#include "results/csv_int.h"

#define CSV_RESERVE_MAX 16384    /* rows reserved before parsing, at most */
/* Larger figures are refused by the reader (see csv_set_field). */
#define CSV_MAX_FIGURE 1e15

/* How csv_record ended. */
enum csv_rec {
	CSV_REC_BAD = -1,         /* a malformed record (err set) */
	CSV_REC_END = 0,          /* end of input: no record */
	CSV_REC_LINE = 1,         /* a complete record */
	CSV_REC_UNENDED = 2,      /* fields whole, but input ends before the newline */
	CSV_REC_OPEN_QUOTE = 3,   /* input ends inside a quoted field (see below) */
};

/* Parse one record starting at *pos.  Fields' text goes to scratch (which
 * has room for the record).  CSV_REC_OPEN_QUOTE only when the record began
 * on its last line: see below.  *nl counts newlines consumed; on
 * CSV_REC_BAD it counts those before the place the message is about. */
static enum csv_rec csv_record(const char *buf, size_t len, size_t *pos, char *scratch,
		      struct csv_field *f, size_t maxf, size_t *nf, unsigned *nl,
		      struct rs_err *err)
{
	size_t i = *pos, w = 0;

	*nf = 0;
	if (i >= len)
		return CSV_REC_END;
	for (;;) {
		int quoted = 0;
		unsigned open_nl = *nl;   /* newlines before this field's opening quote */

		if (*nf == maxf)
			return rs_err_set(err, "more than %zu fields", maxf);
		f[*nf].s = scratch + w;
		if (i < len && buf[i] == '"') {
			quoted = 1;
			i++;
			for (;;) {
				if (i >= len) {
					/* Only a last line can be a crash's leftover.  A quote
					 * that runs over line ends to the end of the file is a
					 * missing closing quote: taking it for a leftover
					 * would throw away every row after it. */
					if (*nl == 0)
						return CSV_REC_OPEN_QUOTE;
					*nl = open_nl;
					return rs_err_set(err, "unterminated quoted field");
				}
				if (buf[i] == '"') {
					if (i + 1 < len && buf[i + 1] == '"') {
						scratch[w++] = '"';
						i += 2;
						continue;
					}
					i++;
					break;
				}
				if (buf[i] == '\n')
					(*nl)++;
				scratch[w++] = buf[i++];
			}
		} else {
			while (i < len && buf[i] != ',' && buf[i] != '\n' && buf[i] != '\r') {
				if (buf[i] == '"')
					return rs_err_set(err, "quote inside an unquoted field");
				scratch[w++] = buf[i++];
			}
		}
		f[*nf].len = (size_t)(scratch + w - f[*nf].s);
		scratch[w++] = '\0';
		(*nf)++;
		if (i >= len)
			return CSV_REC_UNENDED;
		if (buf[i] == ',') {
			i++;
			continue;
		}
		if (buf[i] == '\r') {
			if (i + 1 < len && buf[i + 1] == '\n')
				i++;
			else if (i + 1 >= len)
				return CSV_REC_UNENDED;
			else
				return rs_err_set(err, "stray carriage return");
		}
		if (buf[i] == '\n') {
			(*nl)++;
			*pos = i + 1;
			return CSV_REC_LINE;
		}
		if (quoted && *nl > open_nl) {
			/* Most likely the quote that opened it was never closed. */
			unsigned down = *nl - open_nl;

			*nl = open_nl;
			return rs_err_set(err, "quoted field runs over %u line end%s and is followed by "
					  "'%c' (a missing closing quote?)", down, down == 1 ? "" : "s",
					  buf[i]);
		}
		return rs_err_set(err, "%s field followed by '%c'", quoted ? "quoted" : "a", buf[i]);
	}
}

int csv_split_line(const char *s, size_t n, char *scratch, struct csv_field *f, size_t maxf,
		   struct rs_err *err)
{
	size_t pos = 0, nf = 0;
	unsigned nl = 0;
	enum csv_rec rc;

	if (n == 0) {
		scratch[0] = '\0';
		f[0].s = scratch;
		f[0].len = 0;
		return 1;
	}
	rc = csv_record(s, n, &pos, scratch, f, maxf, &nf, &nl, err);
	if (rc == CSV_REC_BAD)
		return -1;
	if (rc == CSV_REC_OPEN_QUOTE)
		return rs_err_set(err, "unterminated quoted field");
	if (rc == CSV_REC_LINE || nl > 0)
		return rs_err_set(err, "a line end inside the line");
	return (int)nf;
}

/* A field's text fit to quote in a one-line message: at most 32 bytes,
 * control characters (a quoted field may hold a line break) shown as '?'. */
static const char *csv_show(char *buf, size_t size, const struct csv_field *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->len && n + 4 < size && i < 32; i++) {
		unsigned char ch = (unsigned char)f->s[i];

		buf[n++] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
	}
	if (f->len > 32 && n + 4 < size) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
	return buf;
}

/* csv_show for a string of at most max bytes. */
const char *csv_show_str(char *buf, size_t size, const char *s, size_t max)
{
	struct csv_field f = { (char *)(uintptr_t)s, strnlen(s, max) };

	return csv_show(buf, size, &f);
}

static int csv_has_control(const struct csv_field *f)
{
	for (size_t i = 0; i < f->len; i++)
		if ((unsigned char)f->s[i] < 0x20 || f->s[i] == 0x7f)
			return 1;
	return 0;
}

static int csv_set_field(struct rs_row *r, const struct csv_col *c, const struct csv_field *f,
			 struct rs_err *err)
{
	char *base = (char *)r;
	char show[40];

	if (c->type == CT_STR) {
		if (f->len >= c->size)
			return rs_err_set(err, "%s is longer than %zu characters", c->name, c->size - 1);
		if (memchr(f->s, '\0', f->len) != NULL)
			return rs_err_set(err, "%s holds a NUL byte", c->name);
		/* Label and test name series in charts, reports and messages,
		 * which are made of lines. */
		if ((c->off == offsetof(struct rs_row, label) || c->off == offsetof(struct rs_row, test)) &&
		    csv_has_control(f))
			return rs_err_set(err, "%s '%s' holds a control character", c->name,
					  csv_show(show, sizeof show, f));
		memcpy(base + c->off, f->s, f->len + 1);
		return 0;
	}
	if (f->len == 0) {
		if (c->required)
			return rs_err_set(err, "%s is empty", c->name);
		return 0;         /* stays unknown */
	}
	if (c->type == CT_DBL) {
		double v;

		if (num_parse_double_n(f->s, f->len, &v) < 0)
			return rs_err_set(err, "%s '%s' is not a number", c->name,
					  csv_show(show, sizeof show, f));
		if (v < 0)
			return rs_err_set(err, "%s is negative (%s)", c->name,
					  csv_show(show, sizeof show, f));
		/* No request rate, latency or duration comes near this; refusing it
		 * keeps sums and squares over repeats finite. */
		if (v > CSV_MAX_FIGURE)
			return rs_err_set(err, "%s %s is not a plausible figure (over 1e15)", c->name,
					  csv_show(show, sizeof show, f));
		*(double *)(void *)(base + c->off) = v;
		return 0;
	}
	{
		uint64_t v;
		struct rs_err e2;
		int depth = c->off == offsetof(struct rs_row, pipeline);
		/* Any depth past the engine's is refused by name, below. */
		uint64_t max = depth ? UINT64_MAX : c->type == CT_UINT ? UINT32_MAX : INT64_MAX;
		int plain;

		/* No whole number in range is longer than 20 digits: a longer
		 * field, or one with a line break, is quoted here, shortened and
		 * on one line, rather than whole by num.c. */
		if (f->len > 24 || csv_has_control(f))
			return rs_err_set(err, "%s '%s' is not a whole number", c->name,
					  csv_show(show, sizeof show, f));
		/* Up to 18 plain digits cannot overflow: read here, without
		 * strtoull's locale and base handling (a tenth of reading a
		 * file); anything else, or out of range, goes to num.c for the
		 * checks and their messages. */
		plain = f->len <= 18 && strspn(f->s, "0123456789") == f->len;
		v = 0;
		for (size_t i = 0; plain && i < f->len; i++)
			v = v * 10 + (uint64_t)(f->s[i] - '0');
		if ((!plain || v > max) && num_parse_u64(f->s, 0, max, 0, &v, &e2) < 0) {
			if (depth && f->len > 0 && strspn(f->s, "0123456789") == f->len)
				return rs_err_set(err, "pipeline %s is above %u",
						  csv_show(show, sizeof show, f), DEPTHS_MAX_VALUE);
			return rs_err_set(err, "%s: %s", c->name, e2.msg);
		}
		/* A depth the engine cannot run is no measurement; charts would
		 * lay out an axis for it. */
		if (depth && v > DEPTHS_MAX_VALUE)
			return rs_err_set(err, "pipeline %llu is above %u", (unsigned long long)v,
					  DEPTHS_MAX_VALUE);
		if (c->type == CT_UINT)
			*(unsigned *)(void *)(base + c->off) = (unsigned)v;
		else
			*(int64_t *)(void *)(base + c->off) = (int64_t)v;
	}
	return 0;
}

/* Map the header's fields f[0..nhdr) to csv_cols: map[i] is field i's
 * column, or -1 for a column rsweep does not know.  Sets
 * info->rsweep_header.  Returns 0, or -1 with err set (FILE:1: ...) for a
 * column named twice or a required column missing. */
int csv_header_map(const struct csv_field *f, size_t nhdr, const char *name, int *map,
		   struct csv_info *info, struct rs_err *err)
{
	info->rsweep_header = nhdr >= CSV_NCONTRACT;
	for (size_t i = 0; i < nhdr; i++) {
		map[i] = -1;
		for (size_t c = 0; c < csv_ncols(); c++)
			if (strcmp(f[i].s, csv_cols[c].name) == 0) {
				for (size_t j = 0; j < i; j++)
					if (map[j] == (int)c)
						return rs_err_set(err, "%s:1: column %s appears twice", name,
								  f[i].s);
				map[i] = (int)c;
			}
		if (i < CSV_NCONTRACT && (map[i] < 0 || map[i] != (int)i))
			info->rsweep_header = 0;
	}
	for (size_t c = 0; c < csv_ncols(); c++) {
		int found = 0;

		if (!csv_cols[c].required)
			continue;
		for (size_t i = 0; i < nhdr; i++)
			found |= map[i] == (int)c;
		if (!found)
			return rs_err_set(err, "%s:1: no '%s' column (not an rsweep results file?)",
					  name, csv_cols[c].name);
	}
	return 0;
}

/* Read the header record at *pos (past a byte-order mark) into f and
 * *nhdr, and count its newlines into *nl.  Returns 0, or -1 with err set
 * (FILE:1: ...) for an empty file or a bad or unfinished header. */
int csv_header_read(const char *buf, size_t len, const char *name, size_t *pos,
		    char *scratch, struct csv_field *f, size_t *nhdr, unsigned *nl,
		    struct rs_err *err)
{
	struct rs_err e;
	enum csv_rec rc;

	/* A UTF-8 byte-order mark from a spreadsheet export is not part of the header. */
	if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
		*pos = 3;
	rc = csv_record(buf, len, pos, scratch, f, CSV_MAXF, nhdr, nl, &e);
	if (rc == CSV_REC_END || (rc == CSV_REC_UNENDED && *nhdr == 1 && f[0].len == 0))
		return rs_err_set(err, "%s: empty file, no CSV header", name);
	if (rc == CSV_REC_BAD)
		return rs_err_set(err, "%s:1: bad header: %s", name, e.msg);
	if (rc != CSV_REC_LINE)
		return rs_err_set(err, "%s:1: header line has no end of line", name);
	return 0;
}

/* At most one row a line: room for that many, so a large file's rows are
 * not copied as the array doubles.  A row is 120 bytes and a line may be
 * one byte, so no more than CSV_RESERVE_MAX up front: a file of newlines
 * must not ask for a hundred times its size. */
static void csv_reserve(struct rs_rows *rows, const char *buf, size_t len, size_t pos)
{
	size_t lines = 1;

	for (const char *q = buf + pos; lines < CSV_RESERVE_MAX &&
	     (q = memchr(q, '\n', len - (size_t)(q - buf))) != NULL; q++)
		lines++;
	rows_reserve(rows, lines);
}

/* Turn the record at line `start` (nf fields, as many as the header's)
 * into a row of rows.  Returns 0, or -1 with err set (FILE:LINE: ...). */
static int csv_row_add(const struct csv_field *f, size_t nf, const int *map, const char *name,
		       const char *src, unsigned start, struct rs_rows *rows, struct rs_err *err)
{
	struct rs_row r;
	struct rs_err e;

	/* The line goes into a full row, then into the rows' compact form. */
	row_init(&r);
	r.src = src;
	r.line = start;
	for (size_t i = 0; i < nf; i++)
		if (map[i] >= 0 && csv_set_field(&r, &csv_cols[map[i]], &f[i], &e) < 0)
			return rs_err_set(err, "%s:%u: %s", name, start, e.msg);
	if (r.pipeline == 0)
		return rs_err_set(err, "%s:%u: pipeline must be at least 1", name, start);
	if (r.test[0] == '\0')
		return rs_err_set(err, "%s:%u: test is empty", name, start);
	if (rows_add(rows, &r, &e) == NULL)
		return rs_err_set(err, "%s:%u: %s", name, start, e.msg);
	return 0;
}

int csv_parse(const char *buf, size_t len, const char *name, struct rs_rows *rows,
	      struct csv_info *info, struct rs_err *err)
{
	struct csv_field f[CSV_MAXF];
	int map[CSV_MAXF];        /* field index -> csv_cols index, or -1 */
	size_t nf, nhdr, pos = 0;
	unsigned line = 1, nl = 0;
	char *scratch = xmalloc(len + CSV_MAXF + 1);
	const char *src = rows_add_name(rows, name);
	struct rs_err e;
	int ret = -1;

	memset(info, 0, sizeof *info);
	if (csv_header_read(buf, len, name, &pos, scratch, f, &nhdr, &nl, err) < 0 ||
	    csv_header_map(f, nhdr, name, map, info, err) < 0)
		goto out;
	csv_reserve(rows, buf, len, pos);
	info->complete_len = pos;
	line += nl;
	for (;;) {
		unsigned start = line;
		enum csv_rec rc;

		nl = 0;
		rc = csv_record(buf, len, &pos, scratch, f, CSV_MAXF, &nf, &nl, &e);
		line += nl;
		if (rc == CSV_REC_END)
			break;
		if (rc == CSV_REC_BAD) {
			rs_err_set(err, "%s:%u: %s", name, line, e.msg);
			goto out;
		}
		if (rc != CSV_REC_LINE) {
			/* The last line, without its newline: what a crash left of a row
			 * when it is less than one.  A whole row there is kept (only its
			 * newline is missing); anything else is an error, like any line. */
			if (nl == 0 && nf < nhdr) {
				info->truncated_tail = 1;
				info->tail_line = start;
				break;
			}
			if (rc == CSV_REC_OPEN_QUOTE) {
				rs_err_set(err, "%s:%u: unterminated quoted field", name, start);
				goto out;
			}
			info->missing_newline = 1;
			info->complete_len = pos = len;
		} else {
			info->complete_len = pos;
		}
		if (nf == 1 && f[0].len == 0)
			continue;         /* blank line */
		if (nf != nhdr) {
			rs_err_set(err, "%s:%u: %zu fields, the header has %zu", name, start, nf, nhdr);
			goto out;
		}
		if (csv_row_add(f, nf, map, name, src, start, rows, err) < 0)
			goto out;
	}
	/* A last line without newline is a line too. */
	info->lines = line - 1 + (info->missing_newline || info->truncated_tail);
	ret = 0;
out:
	free(scratch);
	return ret;
}

const char *csv_info_note(const struct csv_info *info, const char *path, char *buf, size_t size)
{
	if (!info->truncated_tail)
		return NULL;
	snprintf(buf, size, "%s:%u: the last line has no end of line and is less than a row "
		 "(an interrupted sweep?); ignored", path, info->tail_line);
	return buf;
}

int csv_read_file(const char *path, struct rs_rows *rows, struct csv_info *info,
		  struct rs_err *err)
{
	char *buf;
	size_t len;
	int rc;

	if (infile_slurp(path, (size_t)1 << 30, &buf, &len, err) < 0)
		return -1;
	rc = csv_parse(buf, len, path, rows, info, err);
	free(buf);
	return rc;
}
