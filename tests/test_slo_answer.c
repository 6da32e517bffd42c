/* test_slo_answer.c: run --slo's answers from rows a search wrote, and
 * the report's sentence of them. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/slo_answer.h"
#include "slo_rows.h"
#include "report/report_slo.h"

static void fill(struct rs_rows *rows)
{
	slo_row_add(rows, "GET", 1, 0, 100000, "", 0);
	slo_row_add(rows, "GET", 16, 0, 400000, "", 0);
	slo_row_add(rows, "GET", 32, 0, 500000, "", 0);
	slo_row_add(rows, "GET", 1, 50000, 50000, "met", 0.5);
	slo_row_add(rows, "GET", 16, 200000, 200000, "met", 0.4);
	slo_row_add(rows, "GET", 32, 250000, 240000, "generator", 3);
	slo_row_add(rows, "GET", 1, 100000, 90000, "missed", 5);
	slo_row_add(rows, "GET", 16, 400000, 350000, "missed", 9);
	slo_row_add(rows, "GET", 1, 75000, 75000, "met", 0.8);
	slo_row_add(rows, "GET", 16, 300000, 300000, "met", 0.7);
	slo_row_add(rows, "GET", 1, 87500, 87500, "missed", 1.5);
	slo_row_add(rows, "GET", 16, 350000, 350000, "unsure", 0.95);
	slo_row_add(rows, "GET", 16, 350000, 350000, "unsure", 0.97);
	slo_row_add(rows, "GET", 16, 350000, 350000, "unsure", 0.96);
	slo_row_add(rows, "GET", 16, 325000, 325000, "missed", 1.2);
}

Test(slo_answer, finds_each_depths_answer_and_the_best)
{
	struct rs_rows rows = { 0 };
	struct slo_answers a;
	const struct slo_group *g;

	fill(&rows);
	slo_answers_find(&rows, &a);
	cr_assert_eq(a.n, 1);
	g = &a.v[0];
	cr_assert_eq(g->nd, 3);
	cr_assert_eq(g->d[0].depth, 1);
	cr_assert_float_eq(g->d[0].start_rps, 100000, 1e-6);
	cr_assert_float_eq(g->d[0].met, 75000, 1e-6);
	cr_assert_float_eq(g->d[0].missed, 87500, 1e-6);
	cr_assert_eq(g->d[0].probes, 4);
	cr_assert_float_eq(g->d[1].met, 300000, 1e-6);
	/* Unsure at 350k, missed at 325k: the bracket's top is the lowest. */
	cr_assert_float_eq(g->d[1].missed, 325000, 1e-6);
	cr_assert_float_eq(g->d[1].ms, 0.7, 1e-9);
	cr_assert_float_eq(g->d[1].hi_ms, 0.77, 1e-9);
	cr_assert_eq(g->d[1].unsure, 3);
	cr_assert_float_eq(g->d[2].met, 0, 1e-9);
	cr_assert_float_eq(g->d[2].generator, 250000, 1e-6);
	cr_assert_float_eq(g->d[2].slip_p99_ms, 0.25, 1e-9);
	cr_assert_eq(g->best, 1);
	cr_assert_eq(g->second, 0);
	slo_answers_free(&a);
	rows_free(&rows);
}

/* Two servers of one label (--spawn-args A|B) are two searches: each
 * with its own bracket, never the other's misses (the report once gave
 * the second server the first one's). */
Test(slo_answer, each_server_its_own_search)
{
	struct rs_rows rows = { 0 };
	struct slo_answers a;
	struct rs_row r;
	struct rs_err err;
	const char *args[2] = { "--io-threads 1", "--io-threads 2" };
	const double met[2] = { 50000, 600 }, missed[2] = { 90000, 0 };

	for (int k = 0; k < 2; k++) {
		row_init(&r);
		strcpy(r.label, "vm");
		strcpy(r.test, "GET");
		strcpy(r.server_args, args[k]);
		r.pipeline = 1;
		r.repeat = 1;
		r.clients = 10;
		strcpy(r.slo, "p99=50ms");
		strcpy(r.slo_phase, "probe");
		r.rate_offered = r.rps = met[k];
		r.rate_short = 0;
		strcpy(r.slo_verdict, "met");
		r.slo_ms = r.slo_lo_ms = r.slo_hi_ms = 5;
		cr_assert_not_null(rows_add(&rows, &r, &err), "%s", err.msg);
		if (missed[k] > 0) {
			r.rate_offered = r.rps = missed[k];
			strcpy(r.slo_verdict, "missed");
			r.slo_ms = r.slo_lo_ms = r.slo_hi_ms = 80;
			cr_assert_not_null(rows_add(&rows, &r, &err), "%s", err.msg);
		}
	}
	slo_answers_find(&rows, &a);
	cr_assert_eq(a.n, 2);
	for (int k = 0; k < 2; k++) {
		cr_assert_str_eq(a.v[k].server_args, args[k]);
		cr_assert(a.v[k].axes, "the label and test have another search");
		cr_assert_float_eq(a.v[k].d[0].met, met[k], 1e-9);
		cr_assert_float_eq(a.v[k].d[0].missed, missed[k], 1e-9);
	}
	slo_answers_free(&a);
	rows_free(&rows);
}

Test(slo_answer, says_it_in_a_sentence)
{
	struct rs_rows rows = { 0 };
	struct slo_answers a;
	char buf[1024];

	fill(&rows);
	slo_answers_find(&rows, &a);
	report_slo_sentence(&a.v[0], buf, sizeof buf);
	cr_assert_not_null(strstr(buf, "GET: P=16 sustains 300k req/s (300k..325k) within p99=1ms"),
			   "%s", buf);
	cr_assert_not_null(strstr(buf, "P=1 gives 75k (0.25x)"), "%s", buf);
	/* P=32's search the generator ended: no word on what depth does. */
	cr_assert_null(strstr(buf, "deeper"), "%s", buf);
	cr_assert_not_null(strstr(buf, "not the server, was the limit at P=32 from 250k/s"), "%s",
			   buf);
	slo_answers_free(&a);
	rows_free(&rows);
}

Test(slo_answer, probes_leave_the_depth_series)
{
	struct rs_rows rows = { 0 };

	fill(&rows);
	cr_assert_eq(slo_rows_drop_probes(&rows), 12);
	cr_assert_eq(rows.n, 3);
	for (size_t i = 0; i < rows.n; i++)
		cr_assert_eq(rows.v[i].slo_phase, ROW_SLO_START);
	rows_free(&rows);
}

Test(slo_answer, none_without_a_search)
{
	struct rs_rows rows = { 0 };
	struct slo_answers a;
	struct rs_row r;
	struct rs_err err;

	row_init(&r);
	strcpy(r.label, "m1");
	strcpy(r.test, "GET");
	r.pipeline = 1;
	r.rps = 1000;
	cr_assert_not_null(rows_add(&rows, &r, &err));
	slo_answers_find(&rows, &a);
	cr_assert_eq(a.n, 0);
	cr_assert_eq(slo_rows_drop_probes(&rows), 0);
	slo_answers_free(&a);
	rows_free(&rows);
}

Test(slo_answer, says_when_deeper_depths_sustain_less)
{
	struct rs_rows rows = { 0 };
	struct slo_answers a;
	char buf[1024];

	slo_row_add(&rows, "GET", 1, 0, 100000, "", 0);
	slo_row_add(&rows, "GET", 4, 0, 300000, "", 0);
	slo_row_add(&rows, "GET", 1, 50000, 50000, "met", 0.5);
	slo_row_add(&rows, "GET", 4, 150000, 150000, "missed", 2);
	slo_row_add(&rows, "GET", 1, 100000, 100000, "missed", 3);
	slo_row_add(&rows, "GET", 4, 75000, 75000, "missed", 1.5);
	slo_row_add(&rows, "GET", 4, 37500, 37500, "met", 0.9);
	slo_answers_find(&rows, &a);
	report_slo_sentence(&a.v[0], buf, sizeof buf);
	cr_assert_not_null(strstr(buf, "GET: P=1 sustains 50k req/s (50k..100k)"), "%s", buf);
	cr_assert_not_null(strstr(buf, "P=4 gives 37.5k (0.75x); deeper pipelines add latency "
				       "faster than throughput."), "%s", buf);
	cr_assert_null(strstr(buf, "generator"), "%s", buf);
	slo_answers_free(&a);
	rows_free(&rows);
}
