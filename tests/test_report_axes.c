/* test_report_axes.c: the report over a setting that varies (issue 30):
 * the table along a setting, the frontier within a latency budget (best,
 * runner-up, cells not told apart, marginal, none within it) and --goal
 * max-rps (the best cell and those not told from it), from rows built in
 * memory. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/along.h"
#include "analysis/budget.h"
#include "analysis/frontier.h"
#include "analysis/goal.h"
#include "report/report.h"
#include "analysis/series.h"
#include "rows_helper.h"

/* Repeats a point, and each one's share of the point's figure: the
 * throughput's noise, and the latency's (wide when a test wants a pick
 * marginal). */
#define NREP 3
static const double rps_noise[NREP] = { 0.98, 1.0, 1.02 };
static const double lat_tight[NREP] = { 0.99, 1.0, 1.01 };
static const double lat_wide[NREP] = { 0.9, 1.0, 1.3 };

static const unsigned depths[] = { 1, 2, 4, 8, 16, 32, 64 };
#define NDEPTHS (sizeof depths / sizeof depths[0])

struct fixture {
	struct rs_rows rows;
	struct series_set rps, lat;
	struct analysis_result res;
	struct along_groups gs;
	struct budget_pick *picks;
};

/* Rows of label a, GET, c clients and d bytes at every depth: throughput
 * peak * P / (k + P), p99 ms per_p * P; the repeats as lat says. */
static void add_curve(struct rs_rows *rows, const char *label, int64_t c, int64_t d, double peak,
		      double k, double per_p, const double *lat)
{
	for (size_t i = 0; i < NDEPTHS; i++)
		for (unsigned rep = 0; rep < NREP; rep++) {
			struct rs_row r;
			double p = depths[i];

			fill(&r, label, "GET", depths[i], rep + 1, peak * p / (k + p) * rps_noise[rep],
			     NAN);
			r.p99_ms = per_p * p * lat[rep];
			r.clients = c;
			r.data_size = d;
			r.threads = 1;
			push(rows, &r);
		}
}

/* Series, analysis, groups and, with budget_ms above 0, the budget's picks
 * (the latency the median of the repeats' p99s: no histograms). */
static void analyse(struct fixture *f, double budget_ms)
{
	struct analysis_opts o = { 0.95, 0.10, NULL, 0, 0, 0 };
	struct rs_err err = { 0 };

	cr_assert_eq(series_build(&f->rows, SM_RPS, &f->rps, &err), 0, "%s", err.msg);
	cr_assert_eq(analysis_run(&f->rps, NULL, &o, &f->res, &err), 0, "%s", err.msg);
	along_groups_make(&f->res, &f->rows, 1, &f->gs);
	if (budget_ms > 0) {
		cr_assert_eq(series_build_known(&f->rows, SM_P99, &f->lat, &err), 0, "%s", err.msg);
		budget_find(&f->rps, &f->lat, NULL, budget_ms, &f->picks);
	}
}

static void fixture_free(struct fixture *f)
{
	free(f->picks);
	along_groups_free(&f->gs);
	analysis_result_free(&f->res);
	series_set_free(&f->lat);
	series_set_free(&f->rps);
	rows_free(&f->rows);
}

/* The report's text (wide: 0) or markdown, as a string to free. */
static char *render(const struct fixture *f, enum report_format fmt)
{
	struct report_opts o = { fmt, 0, 0.95, 0.10, NULL, NULL, &f->rows, 0, NULL, 0 };
	struct rs_err err = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	cr_assert_not_null(fp);
	cr_assert_eq(report_write(fp, &f->res, &o, &err), 0, "%s", err.msg);
	fclose(fp);
	return buf;
}

/* The line of text that holds needle, into buf ("" when none). */
static const char *line_of(const char *text, const char *needle, char *buf, size_t size)
{
	const char *at = strstr(text, needle), *b, *e;

	buf[0] = '\0';
	if (at == NULL)
		return buf;
	for (b = at; b > text && b[-1] != '\n'; b--)
		;
	e = strchr(at, '\n');
	snprintf(buf, size, "%.*s", (int)(e ? (size_t)(e - b) : strlen(b)), b);
	return buf;
}

/* The index in f->res.series of the series named test. */
static size_t series_index(const struct fixture *f, const char *test)
{
	for (size_t i = 0; i < f->res.nseries; i++)
		if (strcmp(f->res.series[i].rps->test, test) == 0)
			return i;
	cr_assert_fail("no series %s", test);
	return 0;
}

/* ---- the table along a setting ---- */

/* One setting: a table of its values in order, saturation and peak with
 * intervals, in text and markdown; json gives each series its base and
 * axes. */
Test(report_axes, table_along_clients)
{
	struct fixture f = { 0 };
	char *text, *md, line[512];
	const char *a, *b, *c;

	/* Shuffled: the table follows the values, not the rows. */
	add_curve(&f.rows, "a", 16, 3, 500000, 16, 0.12, lat_tight);
	add_curve(&f.rows, "a", 1, 3, 200000, 4, 0.03, lat_tight);
	add_curve(&f.rows, "a", 4, 3, 400000, 8, 0.06, lat_tight);
	analyse(&f, 0);
	cr_assert_eq(f.gs.n, 1);
	cr_assert_eq(f.gs.v[0].n, 3);
	cr_assert_eq(f.gs.v[0].axis, SERIES_AXIS_CLIENTS);
	text = render(&f, FORMAT_TEXT);
	cr_assert_not_null(strstr(text, "\nAlong a setting ("), "%s", text);
	cr_assert_not_null(strstr(text, "\n  a GET by clients:\n"), "%s", text);
	line_of(text, "  clients  ", line, sizeof line);
	cr_assert_not_null(strstr(line, "saturation P (95%)"), "%s", line);
	cr_assert_not_null(strstr(line, "peak rps (95% interval)"), "%s", line);
	a = strstr(text, "\n        1  ");
	b = strstr(text, "\n        4  ");
	c = strstr(text, "\n       16  ");
	cr_assert(a != NULL && b != NULL && c != NULL && a < b && b < c, "%s", text);
	/* Each value's cells are its series' (saturation with its interval). */
	line_of(b + 1, "        4  ", line, sizeof line);
	cr_assert(strstr(line, "(") != NULL && strstr(line, "..") != NULL, "%s", line);
	md = render(&f, FORMAT_MARKDOWN);
	cr_assert_not_null(strstr(md, "\n## Along a setting ("), "%s", md);
	cr_assert_not_null(strstr(md, "\na GET by clients:\n\n| clients | saturation P (95%) | "
				  "peak rps (95% interval) |\n| ---: | ---: | ---: |\n| 1 | "), "%s", md);
	free(md);
	free(text);
	{
		struct report_opts o = { FORMAT_JSON, 0, 0.95, 0.10, NULL, NULL, &f.rows, 0, NULL, 0 };
		struct rs_err err = { 0 };
		char *buf = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&buf, &len);

		cr_assert_eq(report_write(fp, &f.res, &o, &err), 0);
		fclose(fp);
		cr_assert_not_null(strstr(buf, "\"test\":\"GET c=4\",\"base\":\"GET\","
					  "\"axes\":{\"clients\":4},"), "%s", buf);
		free(buf);
	}
	fixture_free(&f);
}

/* Two settings: a table along clients for each data size. */
Test(report_axes, two_settings_a_table_for_each_value_of_the_other)
{
	struct fixture f = { 0 };
	char *text;
	const char *x, *y;

	add_curve(&f.rows, "a", 1, 64, 200000, 4, 0.03, lat_tight);
	add_curve(&f.rows, "a", 4, 64, 400000, 8, 0.06, lat_tight);
	add_curve(&f.rows, "a", 1, 1024, 150000, 4, 0.04, lat_tight);
	add_curve(&f.rows, "a", 4, 1024, 300000, 8, 0.08, lat_tight);
	analyse(&f, 0);
	cr_assert_eq(f.gs.n, 2);
	text = render(&f, FORMAT_TEXT);
	x = strstr(text, "\n  a GET, data size 64 by clients:\n");
	y = strstr(text, "\n  a GET, data size 1024 by clients:\n");
	cr_assert(x != NULL && y != NULL && x < y, "%s", text);
	free(text);
	fixture_free(&f);
}

/* Without a setting that varies: no table, and the report reads as
 * before. */
Test(report_axes, no_setting_no_table)
{
	struct fixture f = { 0 };
	char *text;

	add_curve(&f.rows, "a", 4, 3, 400000, 8, 0.06, lat_tight);
	analyse(&f, 0);
	text = render(&f, FORMAT_TEXT);
	cr_assert_null(strstr(text, "Along a setting"), "%s", text);
	cr_assert_null(strstr(text, "c=4"), "%s", text);
	free(text);
	fixture_free(&f);
}

/* ---- the frontier ---- */

/* The frontier's text (one group's line). */
static char *frontier_text(const struct fixture *f, const struct frontier *fr, size_t n,
			   double budget_ms)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	frontier_write(fp, &f->res, fr, n, "p99_ms", budget_ms, 0);
	fclose(fp);
	return buf;
}

/* Within 1 ms: c=1 meets it to P=32 (178k), c=4 to P=16 (267k), c=16 to
 * P=8 (167k): the best is P=16 with 4 clients, the runner-up P=32 with 1
 * client, intervals apart. */
Test(report_axes, frontier_best_and_runner_up)
{
	struct fixture f = { 0 };
	struct frontier *fr;
	size_t n;
	char *text;

	add_curve(&f.rows, "a", 1, 3, 200000, 4, 0.03, lat_tight);
	add_curve(&f.rows, "a", 4, 3, 400000, 8, 0.06, lat_tight);
	add_curve(&f.rows, "a", 16, 3, 500000, 16, 0.12, lat_tight);
	analyse(&f, 1.0);
	frontier_find(&f.gs, f.picks, &fr, &n);
	cr_assert_eq(n, 1);
	cr_assert_not_null(fr[0].best);
	cr_assert_str_eq(fr[0].best->s->test, "GET c=4");
	cr_assert_eq(fr[0].best->depth, 16);
	cr_assert_not_null(fr[0].runner);
	cr_assert_str_eq(fr[0].runner->s->test, "GET c=1");
	cr_assert_eq(fr[0].runner->depth, 32);
	cr_assert_eq(fr[0].nclose, 0);
	cr_assert_not(fr[0].best->marginal);
	text = frontier_text(&f, fr, n, 1.0);
	cr_assert_not_null(strstr(text, "  a GET: within a 1 ms p99, P=16 with 4 clients gives the "
				  "most: 267k rps ("), "%s", text);
	cr_assert_not_null(strstr(text, "; runner-up P=32 with 1 client: 178k rps ("), "%s", text);
	cr_assert_not_null(strstr(text, "the most's throughput interval overlaps no other cell's\n"),
			   "%s", text);
	cr_assert_null(strstr(text, "marginal"), "%s", text);
	free(text);
	frontier_free(fr, n);
	fixture_free(&f);
}

/* c=16 at P=8 (263k) within 2% of c=4 at P=16 (267k): runner-up, and not
 * told apart; a latency whose interval reaches past the budget is
 * marginal, and said. */
Test(report_axes, frontier_not_told_apart_and_marginal)
{
	struct fixture f = { 0 };
	struct frontier *fr;
	size_t n;
	char *text;

	add_curve(&f.rows, "a", 1, 3, 200000, 4, 0.03, lat_tight);
	add_curve(&f.rows, "a", 4, 3, 400000, 8, 0.06, lat_wide);
	add_curve(&f.rows, "a", 16, 3, 790000, 16, 0.12, lat_tight);
	analyse(&f, 1.0);
	frontier_find(&f.gs, f.picks, &fr, &n);
	cr_assert_eq(n, 1);
	cr_assert_str_eq(fr[0].best->s->test, "GET c=4");
	cr_assert(fr[0].best->marginal, "0.96 ms with a repeat at 1.25 ms");
	cr_assert_str_eq(fr[0].runner->s->test, "GET c=16");
	cr_assert_eq(fr[0].runner->depth, 8);
	cr_assert_not(fr[0].runner->marginal);
	cr_assert_eq(fr[0].nclose, 1);
	cr_assert_eq(fr[0].close[0], fr[0].runner);
	text = frontier_text(&f, fr, n, 1.0);
	cr_assert_not_null(strstr(text, "P=16 with 4 clients gives the most: 267k rps"), "%s", text);
	cr_assert_not_null(strstr(text, ", marginal: its p99 interval reaches past 1 ms; runner-up "
				  "P=8 with 16 clients: 263k rps"), "%s", text);
	cr_assert_not_null(strstr(text, "; their throughput intervals overlap: the two are not told "
				  "apart\n"), "%s", text);
	free(text);
	frontier_free(fr, n);
	fixture_free(&f);
}

/* No cell within 0.02 ms: none, and the lowest latency with its cell. */
Test(report_axes, frontier_none_within_the_budget)
{
	struct fixture f = { 0 };
	struct frontier *fr;
	size_t n;
	char *text;

	add_curve(&f.rows, "a", 1, 3, 200000, 4, 0.03, lat_tight);
	add_curve(&f.rows, "a", 4, 3, 400000, 8, 0.06, lat_tight);
	analyse(&f, 0.02);
	frontier_find(&f.gs, f.picks, &fr, &n);
	cr_assert_eq(n, 1);
	cr_assert_null(fr[0].best);
	cr_assert_null(fr[0].runner);
	cr_assert_not_null(fr[0].lowest);
	cr_assert_str_eq(fr[0].lowest->s->test, "GET c=1");
	text = frontier_text(&f, fr, n, 0.02);
	cr_assert_not_null(strstr(text, "  a GET: no cell meets a 0.02 ms p99 (the lowest, 0.030 ms, "
				  "at P=1 with 1 client)\n"), "%s", text);
	free(text);
	frontier_free(fr, n);
	fixture_free(&f);
}

/* Series without a setting that varies have no frontier: the budget's
 * table is the answer, as before. */
Test(report_axes, frontier_needs_a_setting)
{
	struct fixture f = { 0 };
	struct frontier *fr;
	size_t n;

	add_curve(&f.rows, "a", 4, 3, 400000, 8, 0.06, lat_tight);
	analyse(&f, 1.0);
	frontier_find(&f.gs, f.picks, &fr, &n);
	cr_assert_eq(n, 0);
	frontier_free(fr, n);
	fixture_free(&f);
}

/* ---- --goal max-rps ---- */

/* Rows of a flat top: GET with c clients, 300k at P=16 and below, then
 * top at P=32 and P=64 (the same medians), 3 repeats of 2% noise. */
static void add_plateau(struct rs_rows *rows, int64_t c, double top)
{
	for (size_t i = 0; i < NDEPTHS; i++)
		for (unsigned rep = 0; rep < NREP; rep++) {
			struct rs_row r;
			double v = depths[i] >= 32 ? top : 0.75 * top * depths[i] / (4.0 + depths[i]);

			fill(&r, "a", "GET", depths[i], rep + 1, v * rps_noise[rep], NAN);
			r.clients = c;
			r.data_size = 3;
			r.threads = 1;
			push(rows, &r);
		}
}

static char *goal_text(const struct fixture *f, const struct goal *g, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	goal_write(fp, &f->res, g, n, GOAL_MAX_RPS, 0);
	fclose(fp);
	return buf;
}

/* The best of 14 cells is P=32 with 4 clients (the first of two equal
 * medians); P=64 with 4 clients is not told apart from it, every cell of
 * 1 client (half the throughput) and the shallower ones are. */
Test(report_axes, goal_best_and_cells_not_told_apart)
{
	struct fixture f = { 0 };
	struct goal *g;
	size_t n, c4 = 0;
	char *text;

	add_plateau(&f.rows, 1, 200000);
	add_plateau(&f.rows, 4, 400000);
	analyse(&f, 0);
	c4 = series_index(&f, "GET c=4");
	goal_find(&f.gs, &f.res, GOAL_MAX_RPS, &g, &n);
	cr_assert_eq(n, 1);
	cr_assert(g[0].found);
	cr_assert_eq(g[0].ncells, 2 * NDEPTHS);
	cr_assert_eq(g[0].best.series, c4);
	cr_assert_eq(g[0].best.depth, 32);
	cr_assert(g[0].best.rps_lo < g[0].best.rps && g[0].best.rps < g[0].best.rps_hi);
	cr_assert_eq(g[0].nunknown, 0);
	cr_assert_eq(g[0].nsame, 1, "%zu cells not told apart", g[0].nsame);
	cr_assert_eq(g[0].same[0].series, c4);
	cr_assert_eq(g[0].same[0].depth, 64);
	cr_assert(g[0].same[0].cmp.ratio.lo <= 1 && g[0].same[0].cmp.ratio.hi >= 1);
	text = goal_text(&f, g, n);
	cr_assert_not_null(strstr(text, "  a GET: P=32 with 4 clients gives the most of 14 cells, "
				  "400k rps ("), "%s", text);
	cr_assert_not_null(strstr(text, "; not told apart from it (ratio to it, 95% interval "
				  "holding 1): P=64 with 4 clients (1.00x, "), "%s", text);
	free(text);
	goal_free(g, n);
	fixture_free(&f);
}

/* Without a setting the goal is over one series' depths. */
Test(report_axes, goal_over_depths_alone)
{
	struct fixture f = { 0 };
	struct goal *g;
	size_t n;
	char *text;

	add_plateau(&f.rows, 4, 400000);
	analyse(&f, 0);
	goal_find(&f.gs, &f.res, GOAL_MAX_RPS, &g, &n);
	cr_assert_eq(n, 1);
	cr_assert_eq(g[0].g->axis, -1);
	cr_assert_eq(g[0].ncells, NDEPTHS);
	cr_assert_eq(g[0].best.depth, 32);
	cr_assert_eq(g[0].nsame, 1);
	cr_assert_eq(g[0].same[0].depth, 64);
	text = goal_text(&f, g, n);
	cr_assert_not_null(strstr(text, "the depth with the highest median throughput"), "%s", text);
	cr_assert_not_null(strstr(text, "  a GET: P=32 gives the most of 7 cells, 400k rps"), "%s",
			   text);
	free(text);
	goal_free(g, n);
	fixture_free(&f);
}

/* One measurement a point and three depths: no noise to learn, so no
 * interval; such cells are listed apart, never called the same. */
Test(report_axes, goal_cells_without_an_interval_apart)
{
	struct fixture f = { 0 };
	struct goal *g;
	size_t n;
	char *text;

	add(&f.rows, "a", "GET", 1, 1, 100000, NAN);
	add(&f.rows, "a", "GET", 2, 1, 180000, NAN);
	add(&f.rows, "a", "GET", 4, 1, 250000, NAN);
	analyse(&f, 0);
	goal_find(&f.gs, &f.res, GOAL_MAX_RPS, &g, &n);
	cr_assert_eq(n, 1);
	cr_assert_eq(g[0].best.depth, 4);
	cr_assert_eq(g[0].nsame, 0);
	cr_assert_eq(g[0].nunknown, 2);
	text = goal_text(&f, g, n);
	cr_assert_not_null(strstr(text, "; no interval (one measurement, noise unknown: --repeat 5) "
				  "for P=1, P=2\n"), "%s", text);
	free(text);
	goal_free(g, n);
	fixture_free(&f);
}
