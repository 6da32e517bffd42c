/* slo_rows.h: a row of a --slo search, for the tests that read answers
 * from rows (test_slo_answer.c, test_chart_slo.c). */
#ifndef RS_TEST_SLO_ROWS_H
#define RS_TEST_SLO_ROWS_H

#include <criterion/criterion.h>
#include <string.h>

#include "results/row.h"

/* A row of label m1's search for test at depth: a start (rate 0) or a
 * probe with its verdict and judged percentile ms (interval +-10%). */
static inline void slo_row_add(struct rs_rows *rows, const char *test, unsigned depth, double rate,
			       double rps, const char *verdict, double ms)
{
	struct rs_row r;
	struct rs_err err;

	row_init(&r);
	strcpy(r.label, "m1");
	strcpy(r.test, test);
	r.pipeline = depth;
	r.repeat = 1;
	r.clients = 50;
	r.requests = 10000;
	r.rps = rps;
	strcpy(r.slo, "p99=1ms");
	if (rate > 0) {
		r.rate_offered = rate;
		r.rate_short = 0;
		strcpy(r.slo_phase, "probe");
		strcpy(r.slo_verdict, verdict);
		r.slo_ms = ms;
		r.slo_lo_ms = ms * 0.9;
		r.slo_hi_ms = ms * 1.1;
		r.slip_p99_ms = strcmp(verdict, "generator") == 0 ? 0.25 : 0.01;
	} else {
		strcpy(r.slo_phase, "start");
	}
	cr_assert_not_null(rows_add(rows, &r, &err), "%s", err.msg);
}

#endif
