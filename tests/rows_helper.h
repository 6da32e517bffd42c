/* rows_helper.h: building result rows in memory for the tests of the
 * analysis and report rooms (header-only: each test program is one file). */
#ifndef RS_TESTS_ROWS_HELPER_H
#define RS_TESTS_ROWS_HELPER_H

#include <stdio.h>

#include "row.h"

/* Append a row (label, test, depth p, repeat rep, rps, avg ms) that reads as
 * line n + 1 of "mem.csv". */
static inline struct rs_row *add(struct rs_rows *rows, const char *label, const char *test,
				 unsigned p, unsigned rep, double rps, double avg)
{
	const char *src = rows->nnames ? rows->names[0] : rows_add_name(rows, "mem.csv");
	struct rs_row *r = rows_push(rows);

	snprintf(r->label, sizeof r->label, "%s", label);
	snprintf(r->test, sizeof r->test, "%s", test);
	r->pipeline = p;
	r->repeat = rep;
	r->rps = rps;
	r->avg_ms = avg;
	r->src = src;
	r->line = (unsigned)rows->n + 1;
	return r;
}

#endif
