/* rows_helper.h: building result rows in memory for the tests of the
 * analysis, report and chart rooms (header-only: each test program is one
 * file). */
#ifndef RS_TESTS_ROWS_HELPER_H
#define RS_TESTS_ROWS_HELPER_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/row.h"

/* A full row (label, test, depth p, repeat rep, rps, avg ms), every other
 * figure unknown: fill in more, then push() it. */
static inline void fill(struct rs_row *r, const char *label, const char *test, unsigned p,
			unsigned rep, double rps, double avg)
{
	row_init(r);
	snprintf(r->label, sizeof r->label, "%s", label);
	snprintf(r->test, sizeof r->test, "%s", test);
	r->pipeline = p;
	r->repeat = rep;
	r->rps = rps;
	r->avg_ms = avg;
}

/* Append r as line n + 2 of "mem.csv" (n rows before it). */
static inline const struct rs_rec *push(struct rs_rows *rows, struct rs_row *r)
{
	struct rs_err err;
	const struct rs_rec *rec;

	r->src = "mem.csv";
	r->line = (unsigned)rows->n + 2;
	rec = rows_add(rows, r, &err);
	if (rec == NULL) {
		fprintf(stderr, "rows_add: %s\n", err.msg);
		abort();
	}
	return rec;
}

static inline const struct rs_rec *add(struct rs_rows *rows, const char *label, const char *test,
				       unsigned p, unsigned rep, double rps, double avg)
{
	struct rs_row r;

	fill(&r, label, test, p, rep, rps, avg);
	return push(rows, &r);
}

/* Field i of CSV line s into out (quotes removed); 0, or -1 if the line
 * has fewer fields.  Line breaks inside quotes are not handled. */
static inline int field_at(const char *s, int i, char *out, size_t size)
{
	size_t n = 0;

	for (int at = 0;; at++) {
		int quoted = *s == '"';

		n = 0;
		if (quoted)
			s++;
		while (*s && (quoted ? !(*s == '"' && s[1] != '"') : *s != ',' && *s != '\n')) {
			if (quoted && *s == '"')
				s++;
			if (at == i && n + 1 < size)
				out[n++] = *s;
			s++;
		}
		if (quoted && *s == '"')
			s++;
		if (at == i) {
			out[n] = '\0';
			return 0;
		}
		if (*s != ',')
			return -1;
		s++;
	}
}

/* The text of column col on line (1 is the header) of the CSV file path:
 * for the columns a struct rs_rec does not keep (test-only, slow). */
static inline void column_at(const char *path, unsigned line, const char *col, char *out,
			     size_t size)
{
	char buf[8192], name[256];
	FILE *fp = fopen(path, "r");
	int want = -1;

	out[0] = '\0';
	if (fp == NULL)
		return;
	for (unsigned l = 1; fgets(buf, sizeof buf, fp) != NULL; l++) {
		if (l == 1)
			for (int i = 0; want < 0 && field_at(buf, i, name, sizeof name) == 0; i++)
				if (strcmp(name, col) == 0)
					want = i;
		if (l == line && want >= 0) {
			field_at(buf, want, out, size);
			break;
		}
	}
	fclose(fp);
}

#endif
