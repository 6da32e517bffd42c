/* test_chart_slo.c: run --slo's answer as a chart (--kind slo): each
 * depth's point, bracket and generator mark from rows of a known search,
 * and the chart laid out from them. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/slo_answer.h"
#include "slo_rows.h"
#include "chart/chart.h"
#include "results/row.h"

/* P=1: met 75k, missed 87.5k; P=16: met 300k, unsure at 350k, missed at
 * 325k; P=32: the generator gave out at 250k before any probe met it. */
static void fill(struct rs_rows *rows, const char *test)
{
	slo_row_add(rows, test, 1, 0, 100000, "", 0);
	slo_row_add(rows, test, 16, 0, 400000, "", 0);
	slo_row_add(rows, test, 32, 0, 500000, "", 0);
	slo_row_add(rows, test, 1, 50000, 50000, "met", 0.5);
	slo_row_add(rows, test, 16, 200000, 200000, "met", 0.4);
	slo_row_add(rows, test, 32, 250000, 240000, "generator", 3);
	slo_row_add(rows, test, 1, 100000, 90000, "missed", 5);
	slo_row_add(rows, test, 16, 400000, 350000, "missed", 9);
	slo_row_add(rows, test, 1, 75000, 75000, "met", 0.8);
	slo_row_add(rows, test, 16, 300000, 300000, "met", 0.7);
	slo_row_add(rows, test, 1, 87500, 87500, "missed", 1.5);
	slo_row_add(rows, test, 16, 350000, 350000, "unsure", 0.95);
	slo_row_add(rows, test, 16, 325000, 325000, "missed", 1.2);
}

Test(chart_slo, each_depths_point_bracket_and_generator_flag)
{
	struct rs_rows rows = { 0 };
	struct slo_answers a;
	struct chart_slo_point p[3];

	fill(&rows, "GET");
	slo_answers_find(&rows, &a);
	cr_assert_eq(a.n, 1);
	cr_assert_eq(a.v[0].nd, 3);
	cr_assert_eq(chart_slo_points(&a.v[0], p), 3);
	cr_assert_eq(p[0].depth, 1);
	cr_assert_float_eq(p[0].sustained, 75000, 1e-6);
	cr_assert_float_eq(p[0].lo, 75000, 1e-6);
	cr_assert_float_eq(p[0].hi, 87500, 1e-6);
	cr_assert_float_eq(p[0].closed, 100000, 1e-6);
	cr_assert_eq(p[0].generator, 0);
	cr_assert(isnan(p[0].floor));
	cr_assert_eq(p[1].depth, 16);
	cr_assert_float_eq(p[1].sustained, 300000, 1e-6);
	/* The bracket's top: the lowest rate not shown to meet it. */
	cr_assert_float_eq(p[1].hi, 325000, 1e-6);
	cr_assert_float_eq(p[1].closed, 400000, 1e-6);
	cr_assert_eq(p[2].depth, 32);
	cr_assert(isnan(p[2].sustained) && isnan(p[2].hi), "P=32 met nothing");
	cr_assert_eq(p[2].generator, 1);
	/* The report's floor there: the rate the generator gave out at. */
	cr_assert_float_eq(p[2].floor, 250000, 1e-6);
	cr_assert_float_eq(p[2].closed, 500000, 1e-6);
	slo_answers_free(&a);
	rows_free(&rows);
}

static double fake_width(void *ctx, const char *s, double size)
{
	(void)ctx;
	return 0.6 * size * (double)strlen(s);
}

static const struct render_ops measure_only = { .text_width = fake_width };

static int lay(const struct slo_answers *a, size_t n, const struct rs_rows *rows,
	       struct chart **c, struct rs_err *err)
{
	const struct slo_group *g[16];
	struct chart_input in;

	for (size_t i = 0; i < n; i++)
		g[i] = &a->v[i];
	memset(&in, 0, sizeof in);
	in.kind = CHART_SLO;
	in.width = 1200;
	in.height = 800;
	in.metric = SM_RPS;
	in.rows = rows;
	in.slo = g;
	in.nslo = n;
	return chart_layout(&in, &measure_only, NULL, c, err);
}

/* Rate v's height above the plot's bottom, per request a second: the
 * same for every figure on a y axis from 0. */
static double per(const struct chart *c, double y, double v)
{
	return (c->plot.y1 - y) / v;
}

Test(chart_slo, the_chart_draws_the_answer_not_the_probes)
{
	struct rs_rows rows = { 0 };
	struct slo_answers a;
	struct chart *c = NULL;
	struct rs_err err;
	size_t brackets = 0, hollow = 0, closed = 0, title = 0;
	double k = NAN;

	fill(&rows, "GET");
	slo_answers_find(&rows, &a);
	cr_assert_eq(lay(&a, 1, &rows, &c, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < c->n; i++) {
		const struct chart_item *it = &c->items[i];

		if (it->op == CHART_TEXT) {
			cr_assert_null(strchr(it->text, '@'), "a rate series: '%s'", it->text);
			if (it->role == ROLE_TITLE) {
				cr_assert(strstr(it->text, "within p99=1ms") != NULL, "title '%s'",
					  it->text);
				title++;
			}
		}
		if (it->op == CHART_LINE && it->role == ROLE_SLO_BRACKET) {
			/* x,y pairs: from met (below) up to missed. */
			double lo = it->v[1], hi = it->v[3];

			cr_assert(hi < lo, "a bracket points up");
			if (brackets == 0) {
				k = per(c, lo, 75000);
				cr_assert_float_eq(per(c, hi, 87500), k, k * 1e-9);
			} else {
				cr_assert_float_eq(per(c, lo, 300000), k, k * 1e-9);
				cr_assert_float_eq(per(c, hi, 325000), k, k * 1e-9);
			}
			brackets++;
		}
		if (it->op == CHART_MARKER && it->role == ROLE_SLO_GENERATOR) {
			/* Hollow: white inside, the line's colour round it. */
			cr_assert_eq(it->color.r, 255);
			cr_assert_eq(it->outline.r, chart_palette(0).r);
			hollow++;
		}
		if (it->op == CHART_LINE && it->role == ROLE_SLO_CLOSED) {
			cr_assert_eq(it->n, 3, "the closed loop through its 3 depths");
			cr_assert_eq(it->dash, RENDER_DASHED);
			closed++;
		}
	}
	cr_assert_eq(title, 1);
	cr_assert_eq(brackets, 2, "a bracket at P=1 and P=16, none at P=32");
	cr_assert_eq(hollow, 1, "P=32 marked as the generator's");
	cr_assert_eq(closed, 1);
	/* The hollow mark at the floor, on the same scale. */
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].op == CHART_MARKER && c->items[i].role == ROLE_SLO_GENERATOR)
			cr_assert_float_eq(per(c, c->items[i].y, 250000), k, k * 1e-9);
	chart_free(c);
	slo_answers_free(&a);
	rows_free(&rows);
}

Test(chart_slo, refused_without_a_search_or_past_the_palette)
{
	struct rs_rows rows = { 0 };
	struct slo_answers a = { 0 };
	struct chart *c = NULL;
	struct rs_err err;
	char test[16];

	cr_assert_eq(lay(&a, 0, &rows, &c, &err), -1);
	cr_assert(strstr(err.msg, "no run --slo search") != NULL, "%s", err.msg);
	for (int t = 0; t < 8; t++) {
		snprintf(test, sizeof test, "T%d", t);
		fill(&rows, test);
	}
	slo_answers_find(&rows, &a);
	cr_assert_eq(a.n, 8);
	cr_assert_eq(lay(&a, 8, &rows, &c, &err), -1);
	cr_assert(strstr(err.msg, "8 --slo searches in one chart") != NULL, "%s", err.msg);
	cr_assert_eq(lay(&a, 7, &rows, &c, &err), 0, "%s", err.msg);
	chart_free(c);
	slo_answers_free(&a);
	rows_free(&rows);
}
