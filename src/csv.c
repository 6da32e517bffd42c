/* csv.c: writing and reading result rows (RFC 4180, columns by header name). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csv.h"
#include "depths.h"
#include "infile.h"
#include "num.h"
#include "platform.h"
#include "sbuf.h"
#include "xalloc.h"

enum csv_type { CT_STR, CT_UINT, CT_I64, CT_DBL };

struct csv_col {
	const char *name;
	enum csv_type type;
	size_t off;
	size_t size;              /* CT_STR: buffer size */
	int prec;                 /* CT_DBL: digits after '.' */
	int required;             /* the reader needs it */
};

#define COL_S(n, f) { #n, CT_STR, offsetof(struct rs_row, f), sizeof(((struct rs_row *)0)->f), 0, 0 }
#define COL_U(n, f) { #n, CT_UINT, offsetof(struct rs_row, f), 0, 0, 0 }
#define COL_I(n, f) { #n, CT_I64, offsetof(struct rs_row, f), 0, 0, 0 }
#define COL_D(n, f, p) { #n, CT_DBL, offsetof(struct rs_row, f), 0, p, 0 }

/* The schema, in the order rsweep writes it.  The first 15 are the contract
 * every later command and every user script relies on: never reorder them. */
static const struct csv_col csv_cols[] = {
	{ "label", CT_STR, offsetof(struct rs_row, label), ROW_STR, 0, 1 },
	{ "test", CT_STR, offsetof(struct rs_row, test), ROW_STR, 0, 1 },
	{ "pipeline", CT_UINT, offsetof(struct rs_row, pipeline), 0, 0, 1 },
	COL_I(clients, clients),
	COL_I(requests, requests),
	COL_U(repeat, repeat),
	COL_D(seconds, seconds, 6),
	{ "rps", CT_DBL, offsetof(struct rs_row, rps), 0, 2, 1 },
	COL_D(avg_ms, avg_ms, 4),
	COL_D(min_ms, min_ms, 4),
	COL_D(p50_ms, p50_ms, 4),
	COL_D(p95_ms, p95_ms, 4),
	COL_D(p99_ms, p99_ms, 4),
	COL_D(max_ms, max_ms, 4),
	COL_I(errors, errors),
	/* Everything below may grow; readers find columns by name. */
	COL_D(p999_ms, p999_ms, 4),
	COL_I(misses, misses),
	COL_I(server_calls, server_calls),
	COL_I(order, order),
	COL_I(threads, threads),
	COL_I(data_size, data_size),
	COL_I(keyspace, keyspace),
	COL_S(mode, mode),
	COL_S(target, target),
	COL_S(redis_version, redis_version),
	COL_S(server_arch, server_arch),
	COL_S(server_os, server_os),
	COL_S(client_cpu, client_cpu),
	COL_S(started_at, started_at),
	COL_D(server_cpu_s, server_cpu_s, 6),
	COL_D(client_cpu_s, client_cpu_s, 6),
	COL_D(steal_pct, steal_pct, 2),
	COL_I(client_nivcsw, client_nivcsw),
	COL_D(drift_pct, drift_pct, 1),
	COL_D(other_cpus, other_cpus, 2),
	/* Clients differ by 2-3x at shallow depths: a comparison must know. */
	COL_S(client, client),
	/* Open loop (--rate): empty in closed-loop rows. */
	COL_D(rate_offered, rate_offered, 2),
	COL_I(rate_short, rate_short),
	COL_S(arrivals, arrivals),
	COL_D(svc_p50_ms, svc_p50_ms, 4),
	COL_D(svc_p99_ms, svc_p99_ms, 4),
	COL_D(svc_p999_ms, svc_p999_ms, 4),
	/* TLS handshakes are timed apart from the window. */
	COL_D(connect_ms, connect_ms, 3),
	/* Redis Cluster (--cluster): empty for a single server. */
	COL_I(redirects, redirects),
	COL_I(masters, masters),
	COL_S(busy_master, busy_master),
	COL_D(busy_cpu_s, busy_cpu_s, 6),
	COL_S(master_rps, master_rps),
	/* Agents (--control --agents): empty for a load from rsweep run itself. */
	COL_I(agents_ok, agents_ok),
	COL_I(agents_expected, agents_expected),
	COL_D(skew_ms, skew_ms, 3),
	COL_S(agent_rps, agent_rps),
	/* Last, and quoted when it holds text (csv_format_row): a row a crash
	 * cut short inside it never reads as whole. */
	COL_S(first_error, first_error),
};
#define CSV_RESERVE_MAX 16384    /* rows reserved before parsing, at most */
#define CSV_NCOLS (sizeof csv_cols / sizeof csv_cols[0])
#define CSV_NCONTRACT 15
/* Larger figures are refused by the reader (see csv_set_field). */
#define CSV_MAX_FIGURE 1e15

const char *csv_header(void)
{
	static char hdr[1024];

	if (hdr[0] == '\0') {
		struct sbuf b;

		sbuf_fixed(&b, hdr, sizeof hdr);
		for (size_t i = 0; i < CSV_NCOLS; i++)
			sbuf_item(&b, ",", "%s", csv_cols[i].name);
		sbuf_add(&b, "\n", 1);
	}
	return hdr;
}

static int csv_check_values(const struct rs_row *r, struct rs_err *err);
static int csv_check_line(const char *hdr, const char *line, size_t n, struct rs_err *err);
static const char *csv_show_str(char *buf, size_t size, const char *s, size_t max);

/* The bytes that make a field need quotes. */
#define CSV_SPECIAL ",\"\r\n"

/* Append s to buf, quoted if it holds a comma, quote, CR or LF, or if
 * always is set and s is not empty. */
static int csv_put_str(char *buf, size_t size, size_t *n, const char *s, int always)
{
	int quote = (always && *s) || strpbrk(s, CSV_SPECIAL) != NULL;

	if (quote) {
		if (*n + 1 >= size)
			return -1;
		buf[(*n)++] = '"';
	}
	for (; *s; s++) {
		if (*n + 2 >= size)
			return -1;
		if (*s == '"')
			buf[(*n)++] = '"';
		buf[(*n)++] = *s;
	}
	if (quote) {
		if (*n + 1 >= size)
			return -1;
		buf[(*n)++] = '"';
	}
	return 0;
}

void csv_put_field(FILE *fp, const char *s)
{
	if (strpbrk(s, CSV_SPECIAL) == NULL) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

/* csv_format_row with the bare reason in err ("rps is negative (-5.00)"),
 * in the columns of hdr: cols[0..ncols) index csv_cols (cols NULL: all of
 * them, hdr csv_header()'s). */
static int csv_format(const struct rs_row *r, const char *hdr, const int *cols, size_t ncols,
		      char *buf, size_t size, struct rs_err *err)
{
	const char *base = (const char *)r;
	size_t n = 0;

	if (csv_check_values(r, err) < 0)
		return -1;

	for (size_t k = 0; k < ncols; k++) {
		size_t i = cols ? (size_t)cols[k] : k;
		const struct csv_col *c = &csv_cols[i];
		char num[64] = "";
		int rc = 0;

		if (k > 0) {
			if (n + 1 >= size)
				goto full;
			buf[n++] = ',';
		}
		switch (c->type) {
		case CT_STR:
			/* The last field quoted when it holds text: a row a crash cut
			 * short inside it then ends inside quotes, and the reader does
			 * not take it for a whole row. */
			rc = csv_put_str(buf, size, &n, base + c->off, k + 1 == ncols);
			break;
		case CT_UINT:
			snprintf(num, sizeof num, "%u", *(const unsigned *)(const void *)(base + c->off));
			break;
		case CT_I64: {
			int64_t v = *(const int64_t *)(const void *)(base + c->off);

			if (v >= 0)
				snprintf(num, sizeof num, "%lld", (long long)v);
			break;
		}
		case CT_DBL: {
			double v = *(const double *)(const void *)(base + c->off);

			if (isfinite(v))
				num_fmt(num, sizeof num, v, c->prec);
			break;
		}
		}
		if (rc < 0)
			goto full;
		if (c->type != CT_STR) {
			size_t w = strlen(num);

			if (n + w + 1 >= size)
				goto full;
			memcpy(buf + n, num, w);
			n += w;
		}
	}
	if (n + 2 > size)
		goto full;
	buf[n++] = '\n';
	buf[n] = '\0';
	if (csv_check_line(hdr, buf, n, err) < 0)
		return -1;
	return (int)n;
full:
	return rs_err_set(err, "it is longer than the %zu bytes of the line buffer", size);
}

/* csv_format_row in the columns of hdr, as csv_format takes them. */
static int csv_format_in(const struct rs_row *r, const char *hdr, const int *cols, size_t ncols,
			 char *buf, size_t size, struct rs_err *err)
{
	struct rs_err e;
	char show[40];
	int n = csv_format(r, hdr, cols, ncols, buf, size, &e);

	if (n < 0)
		return rs_err_set(err, "row for %s P=%u not written: %s",
				  csv_show_str(show, sizeof show, r->test, sizeof r->test), r->pipeline,
				  e.msg);
	return n;
}

int csv_format_row(const struct rs_row *r, char *buf, size_t size, struct rs_err *err)
{
	return csv_format_in(r, csv_header(), NULL, CSV_NCOLS, buf, size, err);
}

int csv_check_row(const struct rs_row *r, struct rs_err *err)
{
	char line[CSV_LINE_MAX];

	return csv_format(r, csv_header(), NULL, CSV_NCOLS, line, sizeof line, err) < 0 ? -1 : 0;
}

/* ---- reader ---- */

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
static const char *csv_show_str(char *buf, size_t size, const char *s, size_t max)
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

#define CSV_MAXF 256

/* Map the header's fields f[0..nhdr) to csv_cols: map[i] is field i's
 * column, or -1 for a column rsweep does not know.  Sets
 * info->rsweep_header.  Returns 0, or -1 with err set (FILE:1: ...) for a
 * column named twice or a required column missing. */
static int csv_header_map(const struct csv_field *f, size_t nhdr, const char *name, int *map,
			  struct csv_info *info, struct rs_err *err)
{
	info->rsweep_header = nhdr >= CSV_NCONTRACT;
	for (size_t i = 0; i < nhdr; i++) {
		map[i] = -1;
		for (size_t c = 0; c < CSV_NCOLS; c++)
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
	for (size_t c = 0; c < CSV_NCOLS; c++) {
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
static int csv_header_read(const char *buf, size_t len, const char *name, size_t *pos,
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

/* ---- the writer's checks: what the reader refuses is never written ---- */

/* What formatting would hide: an infinity or an integer below -1 would be
 * written as an empty field and read back as "unknown"; a string without
 * its NUL would run on into the next field. */
static int csv_check_values(const struct rs_row *r, struct rs_err *err)
{
	const char *base = (const char *)r;

	for (size_t i = 0; i < CSV_NCOLS; i++) {
		const struct csv_col *c = &csv_cols[i];
		const void *p = base + c->off;

		if (c->type == CT_STR && memchr(p, '\0', c->size) == NULL)
			return rs_err_set(err, "%s is longer than %zu characters", c->name, c->size - 1);
		if (c->type == CT_I64 && *(const int64_t *)p < -1)
			return rs_err_set(err, "%s is negative (%lld)", c->name,
					  (long long)*(const int64_t *)p);
		if (c->type == CT_DBL && isinf(*(const double *)p))
			return rs_err_set(err, "%s is infinite", c->name);
	}
	return 0;
}

/* The reader's verdict on one formatted row: asking csv_parse itself keeps
 * its rules in one place, whatever they become. */
static int csv_check_line(const char *hdr, const char *line, size_t n, struct rs_err *err)
{
	static const char where[] = "row:2: ";
	size_t hl = strlen(hdr);
	char *buf = xmalloc(hl + n);
	struct rs_rows rows = { 0 };
	struct csv_info info;
	struct rs_err e;
	int rc;

	memcpy(buf, hdr, hl);
	memcpy(buf + hl, line, n);
	rc = csv_parse(buf, hl + n, "row", &rows, &info, &e);
	if (rc == 0 && (rows.n != 1 || info.complete_len != hl + n))
		rc = rs_err_set(&e, "it does not read back as one row");
	free(buf);
	rows_free(&rows);
	if (rc < 0)
		return rs_err_set(err, "%s", strncmp(e.msg, where, sizeof where - 1) == 0 ?
				  e.msg + sizeof where - 1 : e.msg);
	return 0;
}

/* With text, a NUL byte ends the read at once: no file these readers take
 * holds one (the CSV, spec and sidecar parsers all refuse it), and
 * standard input from /dev/zero or /dev/urandom would otherwise be read up
 * to max, a gigabyte, before the parser said so. */
static int csv_slurp_as(const char *path, size_t max, int text, char **bufp, size_t *lenp,
			struct rs_err *err)
{
	FILE *fp = stdin;
	size_t cap = 65536, n = 0;
	char *buf;

	if (strcmp(path, "-") != 0) {
		int fd = infile_open(path, err);

		if (fd < 0)
			return -1;
		if ((fp = fdopen(fd, "rb")) == NULL) {
			close(fd);
			return rs_err_set(err, "%s: %s", path, strerror(errno));
		}
	}
	buf = xmalloc(cap + 1);
	for (;;) {
		size_t k;

		if (n == cap) {
			if (cap >= max) {
				free(buf);
				if (fp != stdin)
					fclose(fp);
				return rs_err_set(err, "%s: larger than %zu bytes", path, max);
			}
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
		}
		k = fread(buf + n, 1, cap - n, fp);
		if (text && k > 0 && memchr(buf + n, '\0', k) != NULL) {
			const char *nul = memchr(buf + n, '\0', k);
			unsigned line = 1;

			for (const char *q = buf; (q = memchr(q, '\n', (size_t)(nul - q))) != NULL; q++)
				line++;
			free(buf);
			if (fp != stdin)
				fclose(fp);
			return rs_err_setk(err, RS_E_INPUT, "%s:%u: a NUL byte: not a text file", path,
					   line);
		}
		n += k;
		if (k == 0)
			break;
	}
	if (ferror(fp)) {
		int e = errno;

		free(buf);
		if (fp != stdin)
			fclose(fp);
		return rs_err_set(err, "%s: %s", path, strerror(e));
	}
	if (fp != stdin)
		fclose(fp);
	buf[n] = '\0';
	*bufp = buf;
	*lenp = n;
	return 0;
}

int csv_slurp(const char *path, size_t max, char **bufp, size_t *lenp, struct rs_err *err)
{
	return csv_slurp_as(path, max, 1, bufp, lenp, err);
}

int csv_slurp_bytes(const char *path, size_t max, char **bufp, size_t *lenp, struct rs_err *err)
{
	return csv_slurp_as(path, max, 0, bufp, lenp, err);
}

int csv_read_file(const char *path, struct rs_rows *rows, struct csv_info *info,
		  struct rs_err *err)
{
	char *buf;
	size_t len;
	int rc;

	if (csv_slurp(path, (size_t)1 << 30, &buf, &len, err) < 0)
		return -1;
	rc = csv_parse(buf, len, path, rows, info, err);
	free(buf);
	return rc;
}

/* ---- crash-safe appending ---- */

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
	    map[nhdr - 1] != (int)CSV_NCOLS - 1)
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
	for (size_t c = 0; c < CSV_NCOLS; c++) {
		size_t i = 0;

		while (i < nhdr && map[i] != (int)c)
			i++;
		if (i == nhdr)
			sbuf_item(&miss, ", ", "%s", csv_cols[c].name);
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
		if (strcmp(csv_cols[o->cols[i]].name, name) == 0)
			return 0;
	for (size_t c = 0; c < CSV_NCOLS; c++)
		if (strcmp(csv_cols[c].name, name) == 0)
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

void csv_put_num(FILE *fp, double v, int prec)
{
	char b[64];

	fputc(',', fp);
	if (isfinite(v)) {
		num_fmt(b, sizeof b, v, prec);
		fputs(b, fp);
	}
}
