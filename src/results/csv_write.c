/* csv_write.c: result rows as CSV lines in the schema's columns (csv.c),
 * RFC 4180; what it emits is held to the reader (csv_read.c), so that
 * every row written reads back. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "base/xalloc.h"
#include "results/csv.h"
#include "results/csv_int.h"

static int csv_check_values(const struct rs_row *r, struct rs_err *err);
static int csv_check_line(const char *hdr, const char *line, size_t n, struct rs_err *err);

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
int csv_format_in(const struct rs_row *r, const char *hdr, const int *cols, size_t ncols,
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
	return csv_format_in(r, csv_header(), NULL, csv_ncols(), buf, size, err);
}

int csv_check_row(const struct rs_row *r, struct rs_err *err)
{
	char line[CSV_LINE_MAX];

	return csv_format(r, csv_header(), NULL, csv_ncols(), line, sizeof line, err) < 0 ? -1 : 0;
}

/* ---- the writer's checks: what the reader refuses is never written ---- */

/* What formatting would hide: an infinity or an integer below -1 would be
 * written as an empty field and read back as "unknown"; a string without
 * its NUL would run on into the next field. */
static int csv_check_values(const struct rs_row *r, struct rs_err *err)
{
	const char *base = (const char *)r;

	for (size_t i = 0; i < csv_ncols(); i++) {
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

void csv_put_num(FILE *fp, double v, int prec)
{
	char b[64];

	fputc(',', fp);
	if (isfinite(v)) {
		num_fmt(b, sizeof b, v, prec);
		fputs(b, fp);
	}
}
