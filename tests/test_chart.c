/* test_chart.c: the chart model: ticks, SI labels, layouts without overlaps. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "chart/chart.h"
#include "base/num.h"
#include "results/row.h"
#include "rows_helper.h"
#include "analysis/series.h"

/* ---- ticks and labels ---- */

static void check_nice(double lo, double hi, unsigned max)
{
	struct chart_ticks t;

	cr_assert_eq(chart_ticks_nice(lo, hi, max, &t), 0, "%g..%g", lo, hi);
	cr_assert(t.n >= 2 && t.n <= max, "%g..%g: %zu ticks (max %u)", lo, hi, t.n, max);
	cr_assert(t.v[0] <= lo && t.v[t.n - 1] >= hi, "%g..%g not covered by %g..%g", lo, hi, t.v[0],
		  t.v[t.n - 1]);
	/* 1, 2 or 5 times a power of ten. */
	{
		double m = t.step / pow(10, floor(log10(t.step)));

		cr_assert(fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 || fabs(m - 5) < 1e-9,
			  "%g..%g: step %g is not 1-2-5", lo, hi, t.step);
	}
	for (size_t i = 1; i < t.n; i++)
		cr_assert(fabs(t.v[i] - t.v[i - 1] - t.step) < t.step * 1e-9, "uneven ticks");
}

Test(chart, nice_ticks_for_many_ranges)
{
	struct chart_ticks t;

	check_nice(0, 1, 6);
	check_nice(0, 37, 8);
	check_nice(1, 40, 10);
	check_nice(1e3, 3e6, 8);
	check_nice(0, 2.2e6, 12);
	check_nice(0, 0.0137, 5);
	check_nice(0, 123456789, 7);
	cr_assert_eq(chart_ticks_nice(0, 37, 9, &t), 0);
	cr_assert_eq(t.step, 5);
	cr_assert_eq(t.v[t.n - 1], 40);
	cr_assert_eq(chart_ticks_nice(0, 1, 6, &t), 0);
	cr_assert_float_eq(t.step, 0.2, 1e-12);
	cr_assert_eq(chart_ticks_nice(1e3, 3e6, 8, &t), 0);
	cr_assert_eq(t.step, 5e5);
	cr_assert_eq(t.v[0], 0);
	cr_assert_eq(t.v[t.n - 1], 3e6);
	/* A flat range still gets an axis; a reversed one is refused. */
	cr_assert_eq(chart_ticks_nice(0, 0, 5, &t), 0);
	cr_assert(t.n >= 2);
	cr_assert_eq(chart_ticks_nice(5, 1, 5, &t), -1);
	cr_assert_eq(chart_ticks_nice(0, NAN, 5, &t), -1);
}

/* Ticks for a range, or -1; never more than max or a tick outside the
 * array, whatever the range. */
static void check_bounded(double lo, double hi, unsigned max)
{
	struct chart_ticks t;

	memset(&t, 0x55, sizeof t);
	if (chart_ticks_nice(lo, hi, max, &t) < 0)
		return;
	cr_assert(t.n >= 2 && t.n <= max, "%g..%g: %zu ticks (max %u)", lo, hi, t.n, max);
	cr_assert(isfinite(t.step) && t.step > 0, "%g..%g: step %g", lo, hi, t.step);
	/* Covered, but for the billionth of a step rounding may leave out. */
	cr_assert(t.v[0] <= lo + 1e-9 * t.step && t.v[t.n - 1] >= hi - 1e-9 * t.step,
		  "%g..%g not covered by %g..%g", lo, hi, t.v[0], t.v[t.n - 1]);
	for (size_t i = 1; i < t.n; i++)
		cr_assert(isfinite(t.v[i]) && t.v[i] > t.v[i - 1], "%g..%g: ticks not increasing", lo, hi);
}

Test(chart, nice_ticks_at_the_edges_of_double)
{
	struct chart_ticks t;

	/* A step that underflowed to 0 made every tick index infinite: the
	 * loop ran off the end of v[]. */
	check_bounded(5.43230925725e-311, 5.432309257258e-311, 16);
	check_bounded(0, 4.9406564584124654e-324, 16);
	check_bounded(1e-320, 1e-320, 16);
	check_bounded(-1e-320, 0, 16);
	check_bounded(0, 1e-310, 16);
	check_bounded(2.2250738585072014e-308, 2.2250738585072014e-308 * (1 + 1e-11), 16);
	check_bounded(1e300, 1e300 * (1 + 1e-13), 16);
	check_bounded(0, 1e308, 16);
	check_bounded(1e308, 1e308, 16);
	check_bounded(1.7976931348623157e308, 1.7976931348623157e308, 16);
	check_bounded(-1.7976931348623157e308, 1.7976931348623157e308, 64);
	check_bounded(0, 1.7976931348623157e308, 2);
	/* Equal ends, tiny and negative ranges still get a 1-2-5 axis. */
	check_nice(5, 5, 8);
	check_nice(-5, -5, 8);
	check_nice(1e-300, 1e-300, 8);
	check_nice(0, 3e-250, 8);
	check_nice(-37, -3, 8);
	check_nice(-1e6, 5, 8);
	check_nice(0, 1e308, 16);
	cr_assert_eq(chart_ticks_nice(0, INFINITY, 5, &t), -1);
	cr_assert_eq(chart_ticks_nice(-INFINITY, 0, 5, &t), -1);
}

Test(chart, depth_ticks_are_integers_inside_the_range)
{
	struct chart_ticks t;

	chart_ticks_depth(1, 40, 10, 0, &t);
	cr_assert(t.n >= 2 && t.n <= 10);
	cr_assert_eq(t.v[0], 1, "the smallest depth is a tick");
	cr_assert_eq(t.v[t.n - 1], 40);
	for (size_t i = 0; i < t.n; i++) {
		cr_assert_eq(t.v[i], floor(t.v[i]));
		cr_assert(t.v[i] >= 1 && t.v[i] <= 40);
	}
	chart_ticks_depth(1, 64, 10, 1, &t);
	cr_assert_eq(t.n, 7);
	for (size_t i = 0; i < t.n; i++)
		cr_assert_eq(t.v[i], ldexp(1, (int)i));
	chart_ticks_depth(1, 1 << 20, 6, 1, &t);
	cr_assert(t.n <= 6 && t.n >= 2);
	chart_ticks_depth(2, 3, 10, 0, &t);
	cr_assert_eq(t.n, 2);
}

/* The deepest axes: the engine's largest depth, and one past anything a
 * file may hold (the function is bounded whatever it is given).  The
 * ticks are as many as asked at most, whole, inside the range, rising by
 * one 1-2-5 step from the first multiple of it. */
Test(chart, depth_ticks_far_out)
{
	static const unsigned his[] = { 1000000, 999999, 4294967295u };
	struct chart_ticks t;

	for (size_t c = 0; c < sizeof his / sizeof his[0]; c++) {
		chart_ticks_depth(1, his[c], 8, 0, &t);
		cr_assert(t.n >= 2 && t.n <= 8, "1..%u: %zu ticks", his[c], t.n);
		cr_assert_eq(t.v[0], 1);
		for (size_t i = 1; i < t.n; i++) {
			cr_assert_eq(t.v[i], floor(t.v[i]));
			cr_assert(t.v[i] > t.v[i - 1] && t.v[i] <= his[c]);
			if (i > 1)
				cr_assert_eq(t.v[i] - t.v[i - 1], t.step);
		}
		cr_assert_gt(t.v[t.n - 1] + t.step, his[c], "1..%u: the last tick ends the axis", his[c]);
	}
}

Test(chart, si_labels)
{
	static const struct { double v, step; const char *want; } cases[] = {
		{ 0, 250000, "0" },         { 250000, 250000, "250k" }, { 1250000, 250000, "1.25M" },
		{ 1500000, 500000, "1.5M" }, { 2000000, 500000, "2.0M" }, { 800000, 200000, "800k" },
		{ 0.5, 0.5, "0.5" },         { 1, 0.5, "1.0" },          { 37, 5, "37" },
		{ 3e9, 1e9, "3G" },          { 1500, 500, "1.5k" },      { 0.02, 0.01, "0.02" },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		chart_si(cases[i].v, cases[i].step, buf, sizeof buf);
		cr_assert_str_eq(buf, cases[i].want, "chart_si(%g, %g)", cases[i].v, cases[i].step);
	}
}

Test(chart, palette_and_markers_tell_tests_apart)
{
	for (size_t i = 0; i < 40; i++)
		for (size_t j = i + 1; j < 40; j++) {
			struct render_color a = chart_palette(i), b = chart_palette(j);

			cr_assert(memcmp(&a, &b, sizeof a) != 0 || chart_marker(i) != chart_marker(j),
				  "tests %zu and %zu look alike", i, j);
		}
}

/* ---- layouts ---- */

static double fake_width(void *ctx, const char *s, double size)
{
	(void)ctx;
	return 0.62 * size * (double)strlen(s);
}

static const struct render_ops measure_only = { .text_width = fake_width };

static const char *const test_names[] = {
	"GET", "SET", "INCR", "LPUSH", "RPUSH", "LPOP", "RPOP", "SADD", "SPOP", "HSET",
	"ZADD", "ZPOPMIN", "MSET", "LRANGE_100", "LRANGE_300", "LRANGE_500", "LRANGE_600",
	"PING_INLINE", "PING_MBULK", "XADD",
};

/* ntests tests x nlabels labels over depths 1..ndepths, 3 repeats. */
static void make_rows(struct rs_rows *rows, size_t ntests, size_t nlabels, unsigned ndepths)
{
	for (size_t l = 0; l < nlabels; l++)
		for (size_t t = 0; t < ntests; t++)
			for (unsigned d = 1; d <= ndepths; d++)
				for (unsigned r = 1; r <= 3; r++) {
					struct rs_row row;
					double sat = 8 + 3 * (double)t + 10 * (double)l;

					fill(&row, l ? "intel" : "m1", test_names[t % 20], d, r,
					     (1 + 0.1 * (double)t) * 1e6 / (1 + (double)l) *
						     (1 - exp(-3.0 * d / sat)) * (1 + 0.01 * r), NAN);
					row.clients = 50;
					row.requests = 100000;
					row.data_size = 3;
					snprintf(row.redis_version, sizeof row.redis_version, "7.0.15");
					push(rows, &row);
				}
}

/* The analysis of every chart in this file: set analysed as plot does it.
 * One at a time, freed by the next call or analysed_free(). */
static struct analysis_result analysed;

static const struct analysis_result *analyse(const struct series_set *set)
{
	struct analysis_opts o = { 0.95, ANALYSIS_DEFAULT_CV_LIMIT, NULL, 0, 0, 0 };
	struct rs_err err = { 0 };

	analysis_result_free(&analysed);
	cr_assert_eq(analysis_run(set, NULL, &o, &analysed, &err), 0, "%s", err.msg);
	return &analysed;
}

/* Lay out the chart of every series of set (rows already built into it). */
static struct chart *layout_set(struct series_set *set, const struct series ***list,
				enum chart_kind kind)
{
	struct chart_input in = { 0 };
	struct chart *c = NULL;
	struct rs_err err = { 0 };

	*list = calloc(set->n, sizeof **list);
	for (size_t i = 0; i < set->n; i++)
		(*list)[i] = &set->v[i];
	in.kind = kind;
	in.width = 1200;
	in.height = 800;
	in.metric = SM_RPS;
	in.series = *list;
	in.nseries = set->n;
	in.knee = 0.95;
	in.an = analyse(set);
	cr_assert_eq(chart_layout(&in, &measure_only, NULL, &c, &err), 0, "%s", err.msg);
	return c;
}

static struct chart *layout(struct series_set *set, const struct series ***list, size_t ntests,
			    size_t nlabels, unsigned ndepths, enum chart_kind kind, struct rs_rows *rows)
{
	struct chart_input in = { 0 };
	struct chart *c = NULL;
	struct rs_err err = { 0 };

	make_rows(rows, ntests, nlabels, ndepths);
	cr_assert_eq(series_build(rows, SM_RPS, set, &err), 0, "%s", err.msg);
	in.an = analyse(set);
	*list = calloc(set->n, sizeof **list);
	for (size_t i = 0; i < set->n; i++)
		(*list)[i] = &set->v[i];
	in.kind = kind;
	in.width = 1200;
	in.height = 800;
	in.metric = SM_RPS;
	in.series = *list;
	in.nseries = set->n;
	in.knee = 0.95;
	cr_assert_eq(chart_layout(&in, &measure_only, NULL, &c, &err), 0, "%s", err.msg);
	return c;
}

static void check_no_overlaps(const struct chart *c, size_t nseries)
{
	size_t ntext = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct chart_item *a = &c->items[i];

		if (a->op != CHART_TEXT)
			continue;
		ntext++;
		cr_assert(a->box.x0 >= 0 && a->box.y0 >= 0 && a->box.x1 <= c->width &&
			  a->box.y1 <= c->height, "'%s' runs off the chart", a->text);
		for (size_t j = i + 1; j < c->n; j++) {
			const struct chart_item *b = &c->items[j];

			if (b->op != CHART_TEXT)
				continue;
			cr_assert(!(a->box.x0 < b->box.x1 && b->box.x0 < a->box.x1 &&
				    a->box.y0 < b->box.y1 && b->box.y0 < a->box.y1),
				  "'%s' (%.1f,%.1f-%.1f,%.1f) overlaps '%s' (%.1f,%.1f-%.1f,%.1f)", a->text,
				  a->box.x0, a->box.y0, a->box.x1, a->box.y1, b->text, b->box.x0, b->box.y0,
				  b->box.x1, b->box.y1);
		}
		/* No label covers a line's end point. */
		for (size_t j = 0; j < c->n; j++) {
			const struct chart_item *l = &c->items[j];
			double ex, ey;

			if (l->op != CHART_LINE || l->series < 0 || (size_t)l->series >= nseries)
				continue;
			ex = l->v[2 * (l->n - 1)];
			ey = l->v[2 * (l->n - 1) + 1];
			cr_assert(!(ex > a->box.x0 && ex < a->box.x1 && ey > a->box.y0 && ey < a->box.y1),
				  "'%s' covers the end of series %d", a->text, l->series);
		}
	}
	cr_assert(ntext > 10);
}

static void check_layout(size_t ntests, size_t nlabels)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series **list;
	struct chart *c = layout(&set, &list, ntests, nlabels, 40, CHART_LINES, &rows);
	size_t lines = 0, legend = 0, panels = 0;

	check_no_overlaps(c, set.n);
	for (size_t i = 0; i < c->n; i++) {
		if (c->items[i].op == CHART_LINE && c->items[i].series >= 0)
			lines++;
		if (c->items[i].op == CHART_TEXT && c->items[i].role == ROLE_LEGEND) {
			legend++;
			/* The legend wraps inside the chart. */
			cr_assert(c->items[i].box.x1 <= c->width - 10);
		}
		panels += c->items[i].op == CHART_TEXT && c->items[i].role == ROLE_PANEL;
	}
	cr_assert_eq(lines, set.n, "one line per series");
	/* Each test named once: in the legend, or past the palette on its
	 * own panel. */
	cr_assert_geq(legend + panels, ntests);
	cr_assert(panels == 0 || panels == ntests, "%zu panels for %zu tests", panels, ntests);
	cr_assert_eq(panels != 0, ntests > CHART_NPALETTE);
	chart_free(c);
	free(list);
	series_set_free(&set);
	rows_free(&rows);
}

Test(chart, one_series_without_overlaps)
{
	check_layout(1, 1);
}

Test(chart, four_series_without_overlaps)
{
	check_layout(4, 1);
}

Test(chart, twenty_series_without_overlaps)
{
	check_layout(20, 1);
}

Test(chart, two_labels_share_colours_and_differ_in_dash)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series **list;
	struct chart *c = layout(&set, &list, 4, 2, 40, CHART_LINES, &rows);
	const struct chart_item *line[16] = { 0 };

	check_no_overlaps(c, set.n);
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].op == CHART_LINE && c->items[i].series >= 0)
			line[c->items[i].series] = &c->items[i];
	for (size_t i = 0; i < set.n; i++) {
		for (size_t j = 0; j < set.n; j++) {
			if (strcmp(set.v[i].test, set.v[j].test) != 0 || i == j)
				continue;
			cr_assert(memcmp(&line[i]->color, &line[j]->color, sizeof line[i]->color) == 0);
			cr_assert_neq(line[i]->dash, line[j]->dash);
		}
	}
	chart_free(c);
	free(list);
	series_set_free(&set);
	rows_free(&rows);
}

Test(chart, saturation_marked_with_the_shared_definition)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series **list;
	struct chart *c = layout(&set, &list, 1, 1, 40, CHART_LINES, &rows);
	int found = 0;
	char want[32];

	/* The report's saturation depth (the core's): the ring is where it says. */
	cr_assert_eq(analysed.series[0].saturated, KNEE_SAT_YES);
	snprintf(want, sizeof want, "P=%u", analysed.series[0].sat_depth);
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].op == CHART_TEXT && c->items[i].role == ROLE_SATURATION) {
			cr_assert_str_eq(c->items[i].text, want);
			found = 1;
		}
	cr_assert(found);
	chart_free(c);
	free(list);
	series_set_free(&set);
	rows_free(&rows);
}

Test(chart, speedup_bars_sorted_and_labelled)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series **list;
	struct chart *c = layout(&set, &list, 5, 2, 10, CHART_SPEEDUP, &rows);
	size_t nbars = 0, nlabels = 0, noverall = 0;
	double last = 1e9, label[8];

	check_no_overlaps(c, 0);
	for (size_t i = 0; i < c->n; i++) {
		const struct chart_item *it = &c->items[i];

		if (it->op == CHART_TEXT && it->role == ROLE_BAR_LABEL) {
			cr_assert(strstr(it->text, "\xc3\x97") != NULL, "'%s' has no times sign", it->text);
			cr_assert_lt(nlabels, 8);
			label[nlabels++] = atof(it->text);
		}
		if (it->op == CHART_TEXT && it->role == ROLE_CATEGORY)
			noverall += strcmp(it->text, CHART_SPEEDUP_OVERALL) == 0;
		if (it->op == CHART_RECT && it->color.a == 255 && it->w < 200)
			nbars++;
	}
	/* The five tests sorted, then their geometric mean (issue 42). */
	cr_assert_eq(nlabels, 6);
	cr_assert_eq(nbars, 6);
	cr_assert_eq(noverall, 1);
	for (size_t i = 0; i < 5; i++) {
		cr_assert(label[i] <= last + 1e-9, "bars are not sorted");
		last = label[i];
	}
	cr_assert(label[5] <= label[0] + 0.01 && label[5] >= label[4] - 0.01,
		  "the geometric mean %g outside the tests' %g..%g", label[5], label[4], label[0]);
	/* The baseline is the first label (m1): intel is under half as fast. */
	cr_assert(last > 0 && last < 0.5, "intel / m1 is %g", last);
	chart_free(c);
	free(list);
	series_set_free(&set);
	rows_free(&rows);
}

/* The ratio axis is logarithmic (issue 26): the distance of each tick r
 * from 1x is in proportion to log r, so that 1/r would be as far below 1x
 * as r is above, and the bars of ratios under one half reach down as far
 * as those over two reach up would. */
Test(chart, speedup_axis_is_log)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series **list;
	struct chart *c = layout(&set, &list, 5, 2, 10, CHART_SPEEDUP, &rows);
	double y1 = NAN, ty[16], tr[16];
	size_t nt = 0, pairs = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct chart_item *it = &c->items[i];

		if (it->op != CHART_TEXT || it->role != ROLE_TICK || nt == 16)
			continue;
		tr[nt] = atof(it->text);
		ty[nt] = (it->box.y0 + it->box.y1) / 2;
		if (tr[nt] == 1)
			y1 = ty[nt];
		nt++;
	}
	cr_assert(isfinite(y1), "no 1x tick");
	cr_assert_geq(nt, 3);
	/* Within 5%: tick labels have two decimals, 0.67x for 1/1.5. */
	for (size_t i = 0; i < nt; i++)
		for (size_t j = 0; j < nt; j++)
			if (tr[i] != 1 && tr[j] != 1 && i != j) {
				cr_assert_float_eq((y1 - ty[i]) / log(tr[i]), (y1 - ty[j]) / log(tr[j]),
						   0.05 * fabs((y1 - ty[i]) / log(tr[i])),
						   "%gx is %g from 1x, %gx %g", tr[i], y1 - ty[i], tr[j],
						   y1 - ty[j]);
				pairs++;
			}
	cr_assert_geq(pairs, 2, "one tick besides 1x");
	chart_free(c);
	free(list);
	series_set_free(&set);
	rows_free(&rows);
}

/* Issue 32: the ratio axis fits the ratios and 1x.  Ratios of 1.0x to
 * 1.18x used the top half of an axis as far below 1x as above (the top
 * 15% of one from 0 before that): they take most of it now, 1x still on
 * it, and ratios all under 1x put 1x near the top. */
Test(chart, speedup_axis_fits_the_ratios)
{
	for (int below = 0; below <= 1; below++) {
		struct rs_rows rows = { 0 };
		struct series_set set;
		const struct series **list;
		struct chart *c;
		struct rs_err err = { 0 };
		double y1 = NAN, at;

		for (size_t t = 0; t < 5; t++)
			for (unsigned d = 1; d <= 10; d++)
				for (unsigned r = 1; r <= 3; r++) {
					double v = 1e6 * (1 - exp(-3.0 * d / 6)) * (1 + 0.005 * r);
					double k = 1 + 0.04 * (double)t;

					add(&rows, "tcp", test_names[t], d, r, v, NAN);
					add(&rows, "unix", test_names[t], d, r, below ? v / k : v * k, NAN);
				}
		cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0, "%s", err.msg);
		c = layout_set(&set, &list, CHART_SPEEDUP);
		for (size_t i = 0; i < c->n; i++)
			if (c->items[i].op == CHART_TEXT && c->items[i].role == ROLE_TICK &&
			    atof(c->items[i].text) == 1)
				y1 = (c->items[i].box.y0 + c->items[i].box.y1) / 2;
		cr_assert(isfinite(y1), "no 1x tick");
		/* Where 1x sits, from the top of the plot (0) to its bottom (1). */
		at = (y1 - c->plot.y0) / (c->plot.y1 - c->plot.y0);
		if (below)
			cr_assert_lt(at, 0.25, "1x at %.0f%% of the height over ratios under 1", 100 * at);
		else
			cr_assert_gt(at, 0.75, "1x at %.0f%% of the height under ratios over 1", 100 * at);
		chart_free(c);
		free(list);
		series_set_free(&set);
		rows_free(&rows);
	}
}

Test(chart, refuses_what_it_cannot_draw)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	struct chart_input in = { 0 };
	struct chart *c = NULL;
	struct rs_err err = { 0 };
	const struct series *list[4];

	make_rows(&rows, 2, 1, 1);
	cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0);
	list[0] = &set.v[0];
	list[1] = &set.v[1];
	in.width = 1200;
	in.height = 800;
	in.series = list;
	in.nseries = 2;
	cr_assert_eq(chart_layout(&in, &measure_only, NULL, &c, &err), -1);
	cr_assert(strstr(err.msg, "two depths") != NULL, "%s", err.msg);
	cr_assert_null(c);
	in.kind = CHART_SPEEDUP;
	cr_assert_eq(chart_layout(&in, &measure_only, NULL, &c, &err), -1);
	cr_assert(strstr(err.msg, "two labels") != NULL, "%s", err.msg);
	in.nseries = 0;
	cr_assert_eq(chart_layout(&in, &measure_only, NULL, &c, &err), -1);
	series_set_free(&set);
	rows_free(&rows);
}

/* Saturation labels sit off every series' line whenever one of their
 * places allows it: none on a line with 4 series, under a third with 26
 * crowded ones (the rest sit on a white halo). */
static size_t sat_labels_on_lines(size_t ntests, size_t nlabels, size_t *nsat)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series **list;
	struct chart *c = layout(&set, &list, ntests, nlabels, 40, CHART_LINES, &rows);
	size_t on = 0;

	*nsat = 0;
	for (size_t i = 0; i < c->n; i++) {
		const struct chart_item *a = &c->items[i];
		int hit = 0;

		if (a->op != CHART_TEXT || a->role != ROLE_SATURATION)
			continue;
		++*nsat;
		for (size_t j = 0; j < c->n && !hit; j++) {
			const struct chart_item *l = &c->items[j];

			if (l->op != CHART_LINE || l->series < 0)
				continue;
			/* Sample each segment finely: a point inside the box is a hit. */
			for (size_t k = 0; k + 1 < l->n && !hit; k++)
				for (int t = 0; t <= 64 && !hit; t++) {
					double x = l->v[2 * k] + (l->v[2 * k + 2] - l->v[2 * k]) * t / 64;
					double y = l->v[2 * k + 1] + (l->v[2 * k + 3] - l->v[2 * k + 1]) * t / 64;

					hit = x > a->box.x0 && x < a->box.x1 && y > a->box.y0 && y < a->box.y1;
				}
		}
		on += hit;
	}
	chart_free(c);
	free(list);
	series_set_free(&set);
	rows_free(&rows);
	return on;
}

Test(chart, saturation_labels_keep_off_lines)
{
	size_t n, on = sat_labels_on_lines(4, 1, &n);

	cr_assert_geq(n, 3, "only %zu of 4 saturation labels placed", n);
	cr_assert_eq(on, 0, "%zu of %zu saturation labels on a line", on, n);
	on = sat_labels_on_lines(13, 2, &n);
	cr_assert_leq(on * 3, n, "%zu of %zu saturation labels on a line", on, n);
}

/* Whether text item a lies across a series' line (each segment sampled). */
static int on_a_line(const struct chart *c, const struct chart_item *a)
{
	for (size_t j = 0; j < c->n; j++) {
		const struct chart_item *l = &c->items[j];

		if (l->op != CHART_LINE || l->series < 0)
			continue;
		for (size_t k = 0; k + 1 < l->n; k++)
			for (int t = 0; t <= 64; t++) {
				double x = l->v[2 * k] + (l->v[2 * k + 2] - l->v[2 * k]) * t / 64;
				double y = l->v[2 * k + 1] + (l->v[2 * k + 3] - l->v[2 * k + 1]) * t / 64;

				if (x > a->box.x0 && x < a->box.x1 && y > a->box.y0 && y < a->box.y1)
					return 1;
			}
	}
	return 0;
}

static size_t count_role(const struct chart *c, enum chart_op op, enum chart_role role, int series)
{
	size_t n = 0;

	for (size_t i = 0; i < c->n; i++)
		n += c->items[i].op == op && c->items[i].role == role &&
		     (series < 0 || c->items[i].series == series);
	return n;
}

/* GET saturates (1 - exp(-3d/8)); SET is a straight line, still rising at
 * P=40: it has no saturation depth in the data, so no ring (before: a ring
 * at the first point within 95% of its last), but "still rising" off
 * every line; GET keeps its ring and its P=N. */
Test(chart, no_ring_on_a_series_still_rising)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series **list;
	struct chart *c;
	struct rs_err err = { 0 };
	int get = -1, set_i = -1;

	for (unsigned d = 1; d <= 40; d++)
		for (unsigned r = 1; r <= 3; r++) {
			add(&rows, "m1", "GET", d, r, 1e6 * (1 - exp(-3.0 * d / 8)) * (1 + 0.01 * r), NAN);
			add(&rows, "m1", "SET", d, r, 2.5e4 * d * (1 + 0.01 * r), NAN);
		}
	cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0, "%s", err.msg);
	c = layout_set(&set, &list, CHART_LINES);
	for (size_t i = 0; i < set.n; i++)
		*(strcmp(set.v[i].test, "GET") == 0 ? &get : &set_i) = (int)i;
	cr_assert_eq(analysed.series[get].saturated, KNEE_SAT_YES);
	cr_assert_eq(analysed.series[set_i].saturated, KNEE_SAT_NO);
	cr_assert_eq(count_role(c, CHART_MARKER, ROLE_SATURATION, set_i), 0,
		     "a ring on a series still rising");
	cr_assert_eq(count_role(c, CHART_TEXT, ROLE_SATURATION, set_i), 0);
	cr_assert_eq(count_role(c, CHART_TEXT, ROLE_RISING, set_i), 1, "no 'still rising' note");
	cr_assert_eq(count_role(c, CHART_MARKER, ROLE_SATURATION, get), 1, "no ring on GET");
	cr_assert_eq(count_role(c, CHART_TEXT, ROLE_SATURATION, get), 1);
	cr_assert_eq(count_role(c, CHART_TEXT, ROLE_RISING, get), 0);
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].op == CHART_TEXT && c->items[i].role == ROLE_RISING) {
			cr_assert_str_eq(c->items[i].text, "still rising");
			cr_assert(!on_a_line(c, &c->items[i]), "'still rising' sits on a line");
		}
	check_no_overlaps(c, set.n);
	chart_free(c);
	free(list);
	series_set_free(&set);
	rows_free(&rows);
}

/* Issue 26: every series the report calls not saturated carries a mark,
 * however crowded the chart: 4 tests x 2 labels on one panel and 9 x 2 in
 * small multiples, all still rising near one another, at three sizes.
 * The notes may not all fit; the triangles always do. */
Test(chart, every_series_still_rising_is_marked)
{
	static const unsigned sizes[][2] = { { 640, 440 }, { 1200, 800 }, { 2400, 1600 } };
	static const char *const tests[] = { "SET", "GET", "INCR", "LPUSH", "RPUSH",
					     "LPOP", "RPOP", "SADD", "HSET" };

	for (size_t nt = 4; nt <= 9; nt += 5)
		for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
			struct rs_rows rows = { 0 };
			struct series_set set;
			const struct series **list;
			struct chart_input in = { 0 };
			struct chart *c = NULL;
			struct rs_err err = { 0 };

			for (size_t t = 0; t < nt; t++)
				for (unsigned d = 1; d <= 40; d++)
					for (unsigned r = 1; r <= 3; r++) {
						double v = 2.5e4 * d * (1 + 0.02 * (double)t + 0.01 * r);

						add(&rows, "unix", tests[t], d, r, v, NAN);
						add(&rows, "tcp", tests[t], d, r, 0.97 * v, NAN);
					}
			cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0, "%s", err.msg);
			list = calloc(set.n, sizeof *list);
			for (size_t i = 0; i < set.n; i++)
				list[i] = &set.v[i];
			in.kind = CHART_LINES;
			in.width = sizes[z][0];
			in.height = sizes[z][1];
			in.metric = SM_RPS;
			in.series = list;
			in.nseries = set.n;
			in.knee = 0.95;
			in.an = analyse(&set);
			cr_assert_eq(chart_layout(&in, &measure_only, NULL, &c, &err), 0, "%s", err.msg);
			for (size_t i = 0; i < set.n; i++) {
				cr_assert_eq(analysed.series[i].saturated, KNEE_SAT_NO);
				cr_assert_eq(count_role(c, CHART_MARKER, ROLE_RISING, (int)i), 1,
					     "%zu tests at %ux%u: series %zu (%s %s) has no mark", nt,
					     sizes[z][0], sizes[z][1], i, set.v[i].label, set.v[i].test);
			}
			cr_assert_eq(count_role(c, CHART_MARKER, ROLE_SATURATION, -1), 0);
			chart_free(c);
			free(list);
			series_set_free(&set);
			rows_free(&rows);
		}
}

/* The subtitle says when the report finds most points unstable (issue 26),
 * in the report's count, and says nothing of it for quiet data. */
Test(chart, subtitle_says_when_most_points_are_unstable)
{
	for (int noisy = 0; noisy <= 1; noisy++) {
		struct rs_rows rows = { 0 };
		struct series_set set;
		const struct series **list;
		struct chart *c;
		struct rs_err err = { 0 };
		const char *sub = NULL;
		char want[64];

		for (unsigned d = 1; d <= 20; d++)
			for (unsigned r = 1; r <= 3; r++)
				add(&rows, "m1", "GET", d, r, 5e4 * d * (1 + (noisy ? 0.3 : 0.01) *
									 ((double)r - 2)), NAN);
		cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0, "%s", err.msg);
		c = layout_set(&set, &list, CHART_LINES);
		for (size_t i = 0; i < c->n; i++)
			if (c->items[i].op == CHART_TEXT && c->items[i].role == ROLE_SUBTITLE)
				sub = c->items[i].text;
		cr_assert_not_null(sub);
		snprintf(want, sizeof want, "; %zu of 20 points unstable: read the bands",
			 analysed.series[0].nunstable);
		if (noisy)
			cr_assert(strstr(sub, want) != NULL, "%s", sub);
		else
			cr_assert(strstr(sub, "unstable") == NULL, "%s", sub);
		chart_free(c);
		free(list);
		series_set_free(&set);
		rows_free(&rows);
	}
}

/* --fit (issue 26): on a chart whose points are mostly unstable, auto draws
 * each series' fitted level (its line runs through the level, not the
 * medians) with the level's band, and the medians as faint markers, and
 * the subtitle says why; --fit no keeps the medians' line; --fit yes draws
 * the level on quiet data too.  Without the level bands (an analysis
 * without level_band) there is no fit to draw. */
Test(chart, fit_draws_the_level_where_points_are_noisy)
{
	static const enum chart_fit mode[] = { CHART_FIT_AUTO, CHART_FIT_NO, CHART_FIT_YES };

	for (int noisy = 0; noisy <= 1; noisy++)
		for (size_t k = 0; k < 3; k++) {
			struct rs_rows rows = { 0 };
			struct series_set set;
			const struct series *list[1];
			struct analysis_opts o = { 0.95, ANALYSIS_DEFAULT_CV_LIMIT, NULL, 0, 0, 1 };
			struct analysis_result an = { 0 };
			struct chart_input in = { 0 };
			struct chart *c = NULL;
			struct rs_err err = { 0 };
			const struct chart_item *line = NULL;
			const char *sub = NULL;
			int want = mode[k] == CHART_FIT_YES || (mode[k] == CHART_FIT_AUTO && noisy);
			size_t faint = 0, nm = 0, off = 0;
			double ym[20];

			for (unsigned d = 1; d <= 20; d++)
				for (unsigned r = 1; r <= 3; r++)
					add(&rows, "m1", "GET", d, r, 1e6 * d / (4.0 + d) *
					    (1 + (noisy ? 0.3 : 0.01) * ((double)r - 2)) *
					    (1 + 0.01 * (double)((d * 7) % 5) - 0.02), NAN);
			cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0, "%s", err.msg);
			cr_assert_eq(analysis_run(&set, NULL, &o, &an, &err), 0, "%s", err.msg);
			list[0] = &set.v[0];
			in.kind = CHART_LINES;
			in.width = 1200;
			in.height = 800;
			in.metric = SM_RPS;
			in.series = list;
			in.nseries = 1;
			in.knee = 0.95;
			in.an = &an;
			in.fit = mode[k];
			cr_assert_eq(chart_layout(&in, &measure_only, NULL, &c, &err), 0, "%s", err.msg);
			for (size_t i = 0; i < c->n; i++) {
				const struct chart_item *it = &c->items[i];

				if (it->op == CHART_TEXT && it->role == ROLE_SUBTITLE)
					sub = it->text;
				if (it->op == CHART_MARKER && it->series == 0 &&
				    it->role != ROLE_RISING && it->role != ROLE_SATURATION) {
					faint += it->color.a < 255 || it->outline.a < 255;
					ym[nm < 20 ? nm++ : 19] = it->y;
				}
				if (it->op == CHART_LINE && it->series == 0 && it->n == 20)
					line = it;
			}
			cr_assert_not_null(line);
			cr_assert_eq(nm, 20);
			/* The line runs through the markers (the medians) unless it
			 * is the fitted level. */
			for (size_t p = 0; p < 20; p++)
				off += fabs(line->v[2 * p + 1] - ym[p]) > 0.5;
			cr_assert_eq(off > 0, want, "fit %d, noisy %d: %zu of 20 vertices off the medians",
				     (int)mode[k], noisy, off);
			cr_assert_not_null(sub);
			cr_assert_eq(strstr(sub, "the fitted level") != NULL, want, "%s", sub);
			cr_assert_eq(faint > 0, want, "%zu faint markers", faint);
			if (want && mode[k] == CHART_FIT_AUTO)
				cr_assert(strstr(sub, "points are unstable") != NULL, "%s", sub);
			chart_free(c);
			analysis_result_free(&an);
			series_set_free(&set);
			rows_free(&rows);
		}
}

/* The band at each depth is the core's 95% interval of the median, read
 * back from the band's pixels through the line's: with 12 repeats, one of
 * them 30% low, the repeats span 30% but the median is known to about 1%
 * (before: the band was min-max).  With one repeat per depth min-max is
 * nothing, the interval is not (before: no band at all). */
static void check_band_is_interval(unsigned nrep)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series **list;
	struct chart *c;
	struct rs_err err = { 0 };
	const struct chart_item *line = NULL;
	const struct knee_result *k;
	size_t nbands = 0, checked = 0;

	for (unsigned d = 1; d <= 30; d++)
		for (unsigned r = 1; r <= nrep; r++)
			add(&rows, "m1", "GET", d, r,
			    1e6 * (1 - exp(-3.0 * d / 8)) * (r == 1 && nrep > 1 ? 0.7 : 1 + 0.002 * r) *
				    (1 + 0.01 * ((d * 7) % 5)),
			    NAN);
	cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0, "%s", err.msg);
	c = layout_set(&set, &list, CHART_LINES);
	k = &analysed.series[0].knee.res;
	cr_assert(analysed.series[0].knee.ok);
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].op == CHART_LINE && c->items[i].series == 0)
			line = &c->items[i];
	cr_assert_not_null(line);
	for (size_t i = 0; i < c->n; i++) {
		const struct chart_item *b = &c->items[i];
		double bottom = c->plot.y1;

		if (b->op != CHART_BAND)
			continue;
		nbands++;
		for (size_t j = 0; j < b->n; j++)
			for (size_t p = 0; p < line->n; p++) {
				double m = set.v[0].pts[p].median, yl = line->v[2 * p + 1];
				double lo, hi;

				if (fabs(line->v[2 * p] - b->v[j]) > 1e-9)
					continue;
				lo = m * (bottom - b->v[b->n + j]) / (bottom - yl);
				hi = m * (bottom - b->v[2 * b->n + j]) / (bottom - yl);
				cr_assert_float_eq(lo, k->pts[p].median.lo, 1e-6 * m, "P=%u: band %g, interval %g",
						   set.v[0].pts[p].depth, lo, k->pts[p].median.lo);
				cr_assert_float_eq(hi, k->pts[p].median.hi, 1e-6 * m, "P=%u", set.v[0].pts[p].depth);
				if (nrep > 1)
					cr_assert(hi - lo < 0.5 * (set.v[0].pts[p].max - set.v[0].pts[p].min),
						  "P=%u: band %g..%g as wide as min-max", set.v[0].pts[p].depth, lo,
						  hi);
				checked++;
			}
	}
	cr_assert_eq(nbands, 1);
	cr_assert_eq(checked, 30, "%zu of 30 depths in the band", checked);
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].op == CHART_TEXT && c->items[i].role == ROLE_SUBTITLE)
			cr_assert(strstr(c->items[i].text, "bands: 95% interval of the median") != NULL,
				  "subtitle '%s'", c->items[i].text);
	chart_free(c);
	free(list);
	series_set_free(&set);
	rows_free(&rows);
}

Test(chart, band_is_the_interval_of_the_median_not_min_max)
{
	check_band_is_interval(12);
	check_band_is_interval(1);
}

/* Each speed-up bar has a whisker over the comparison's 95% interval,
 * holding the bar's end, and its label is the report's ratio, printed as
 * the report prints it: 1.18x reads "1.18", not "1.2" (before). */
Test(chart, speedup_bars_have_whiskers_and_the_reports_ratio)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series **list;
	struct chart *c;
	struct rs_err err = { 0 };
	size_t nbars = 0, nwhiskers = 0, nlabels = 0;

	for (size_t t = 0; t < 3; t++)
		for (unsigned d = 1; d <= 20; d++)
			for (unsigned r = 1; r <= 3; r++) {
				double v = 1e6 * (1 - exp(-3.0 * d / 8)) * (1 + 0.01 * r) *
					   (1 + 0.01 * ((d * 7 + t) % 5));

				add(&rows, "tcp", test_names[t], d, r, v, NAN);
				add(&rows, "unix", test_names[t], d, r, v * (t == 0 ? 1.18 : 1.4 + 0.1 * t), NAN);
			}
	cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0, "%s", err.msg);
	c = layout_set(&set, &list, CHART_SPEEDUP);
	check_no_overlaps(c, 0);
	for (size_t i = 0; i < c->n; i++) {
		const struct chart_item *it = &c->items[i];

		if (it->op == CHART_RECT && it->color.a == 255 && it->w < 200) {
			double cx = it->x + it->w / 2, yend = it->y; /* ratios above 1 */
			int found = 0;

			nbars++;
			for (size_t j = 0; j < c->n; j++) {
				const struct chart_item *w = &c->items[j];

				if (w->op != CHART_LINE || w->role != ROLE_WHISKER || fabs(w->v[0] - cx) > 1e-9)
					continue;
				found++;
				cr_assert(fmin(w->v[1], w->v[3]) < yend && fmax(w->v[1], w->v[3]) > yend,
					  "the whisker does not hold the bar's end");
			}
			cr_assert_eq(found, 1, "bar at x=%g has %d whiskers", cx, found);
		}
		if (it->op == CHART_LINE && it->role == ROLE_WHISKER)
			nwhiskers++;
		if (it->op == CHART_TEXT && it->role == ROLE_BAR_LABEL) {
			struct analysis_overall ov;
			char want[32];
			int match;

			/* A test's ratio, or the last bar's: their geometric
			 * mean, the report's overall figure. */
			cr_assert_eq(analysis_overall(&analysed,
						      analysed.series[analysed.cmps[0].other].rps->label_idx,
						      &ov), 0);
			num_fmt(want, sizeof want, ov.gm.est, 2);
			strcat(want, "\xc3\x97");
			match = strcmp(want, it->text) == 0;
			for (size_t k = 0; k < analysed.ncmps; k++) {
				num_fmt(want, sizeof want, analysed.cmps[k].at_peak.ratio, 2);
				strcat(want, "\xc3\x97");
				match |= strcmp(want, it->text) == 0;
			}
			cr_assert(match, "bar label '%s' is no ratio of the report", it->text);
			nlabels++;
		}
	}
	/* Three tests and their geometric mean. */
	cr_assert_eq(nbars, 4);
	cr_assert_eq(nwhiskers, 4);
	cr_assert_eq(nlabels, 4);
	cr_assert_eq(count_role(c, CHART_TEXT, ROLE_BAR_LABEL, -1), 4);
	{
		/* Bars coloured by the report's verdict: blue faster, vermilion
		 * slower, grey otherwise; as many of each as the report has. */
		size_t want[3] = { 0 }, got[3] = { 0 };

		struct analysis_overall ov;

		for (size_t k = 0; k < analysed.ncmps; k++) {
			enum knee_verdict v = analysed.cmps[k].at_peak.verdict;

			want[v == KNEE_FASTER ? 0 : v == KNEE_SLOWER ? 1 : 2]++;
		}
		cr_assert_eq(analysis_overall(&analysed,
					      analysed.series[analysed.cmps[0].other].rps->label_idx,
					      &ov), 0);
		want[ov.verdict == KNEE_FASTER ? 0 : ov.verdict == KNEE_SLOWER ? 1 : 2]++;
		for (size_t i = 0; i < c->n; i++) {
			const struct chart_item *it = &c->items[i];

			if (it->op != CHART_RECT || it->color.a != 255 || it->w >= 200)
				continue;
			if (it->color.r == 0x00 && it->color.g == 0x72 && it->color.b == 0xB2)
				got[0]++;
			else if (it->color.r == 0xD5 && it->color.g == 0x5E && it->color.b == 0x00)
				got[1]++;
			else if (it->color.r == 0xAA && it->color.g == 0xAA && it->color.b == 0xAA)
				got[2]++;
		}
		cr_assert(want[0] >= 1, "the case wants a faster bar");
		for (int k = 0; k < 3; k++)
			cr_assert_eq(got[k], want[k], "colour %d: %zu bars, %zu verdicts", k, got[k], want[k]);
	}
	{
		int has118 = 0;

		for (size_t i = 0; i < c->n; i++)
			has118 |= c->items[i].op == CHART_TEXT &&
				  strcmp(c->items[i].text, "1.18\xc3\x97") == 0;
		cr_assert(has118, "no bar reads 1.18x");
	}
	chart_free(c);
	free(list);
	series_set_free(&set);
	rows_free(&rows);
	analysis_result_free(&analysed);
}

/* A bar's value label sits beside the bar's end (issue 44: they sat on
 * the whiskers' ends, and read as the intervals'): just right of the bar,
 * its box's bottom at a rising bar's end, clear of the whisker. */
Test(chart, speedup_labels_sit_beside_the_bars_ends)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series **list;
	struct chart *c;
	struct rs_err err = { 0 };
	size_t nbars = 0;

	for (size_t t = 0; t < 3; t++)
		for (unsigned d = 1; d <= 20; d++)
			for (unsigned r = 1; r <= 3; r++) {
				double v = 1e6 * (1 - exp(-3.0 * d / 8)) * (1 + 0.01 * r) *
					   (1 + 0.01 * ((d * 7 + t) % 5));

				add(&rows, "tcp", test_names[t], d, r, v, NAN);
				add(&rows, "unix", test_names[t], d, r, v * (t == 0 ? 1.18 : 1.4 + 0.1 * t), NAN);
			}
	cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0, "%s", err.msg);
	c = layout_set(&set, &list, CHART_SPEEDUP);
	check_no_overlaps(c, 0);
	for (size_t i = 0; i < c->n; i++) {
		const struct chart_item *it = &c->items[i];
		double right, yend;
		int found = 0;

		if (it->op != CHART_RECT || it->color.a != 255 || it->w >= 200)
			continue;
		nbars++;
		right = it->x + it->w;
		yend = it->y;     /* ratios above 1: the top */
		for (size_t j = 0; j < c->n; j++) {
			const struct chart_item *l = &c->items[j];

			if (l->op != CHART_TEXT || l->role != ROLE_BAR_LABEL)
				continue;
			if (l->box.x0 < right || l->box.x0 > right + 8 || fabs(l->box.y1 - yend) > 2)
				continue;
			found++;
			for (size_t k = 0; k < c->n; k++) {
				const struct chart_item *w = &c->items[k];

				if (w->op == CHART_LINE && w->role == ROLE_WHISKER)
					cr_assert(w->v[0] < l->box.x0 || w->v[0] > l->box.x1,
						  "label '%s' lies on a whisker", l->text);
			}
		}
		cr_assert_eq(found, 1, "bar at x=%g, top %g: %d labels beside its end", it->x, yend,
			     found);
	}
	/* The three tests' bars and the last one, their geometric mean's. */
	cr_assert_eq(nbars, 4);
	chart_free(c);
	free(list);
	series_set_free(&set);
	rows_free(&rows);
}


/* The speed-up chart compares with the analysis' baseline (the report's),
 * whatever label comes first in the chart, and prints each ratio by the
 * report's one rule: "12.3×" past 10x, "1.18×" below. */
Test(chart, speedup_baseline_and_ratio_text_are_the_reports)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series *list[4];
	struct analysis_opts o = { 0.95, ANALYSIS_DEFAULT_CV_LIMIT, "tcp", 0, 0, 0 };
	struct chart_input in = { 0 };
	struct chart *c = NULL;
	struct rs_err err = { 0 };
	size_t nlabels = 0, nref = 0;

	/* unix first: the chart's first label is not the baseline. */
	for (size_t t = 0; t < 2; t++)
		for (unsigned d = 1; d <= 20; d++)
			for (unsigned r = 1; r <= 3; r++) {
				double v = 1e5 * (1 - exp(-3.0 * d / 8)) * (1 + 0.01 * r);

				add(&rows, "unix", test_names[t], d, r, v * (t == 0 ? 12.345 : 1.18), NAN);
				add(&rows, "tcp", test_names[t], d, r, v, NAN);
			}
	cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0, "%s", err.msg);
	cr_assert_eq(set.n, 4);
	for (size_t i = 0; i < set.n; i++)
		list[i] = &set.v[i];
	analysis_result_free(&analysed);
	cr_assert_eq(analysis_run(&set, NULL, &o, &analysed, &err), 0, "%s", err.msg);
	in.kind = CHART_SPEEDUP;
	in.width = 1200;
	in.height = 800;
	in.metric = SM_RPS;
	in.series = list;
	in.nseries = set.n;
	in.an = &analysed;
	cr_assert_eq(chart_layout(&in, &measure_only, NULL, &c, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < c->n; i++) {
		const struct chart_item *it = &c->items[i];
		char want[40];
		int match = 0;

		if (it->op == CHART_TEXT && it->role == ROLE_REFERENCE) {
			cr_assert_str_eq(it->text, "1\xc3\x97 = tcp");
			nref++;
		}
		if (it->op != CHART_TEXT || it->role != ROLE_BAR_LABEL)
			continue;
		for (size_t k = 0; k < analysed.ncmps; k++) {
			analysis_fmt_ratio(want, sizeof want, analysed.cmps[k].at_peak.ratio);
			strcat(want, "\xc3\x97");
			match |= strcmp(want, it->text) == 0;
		}
		cr_assert(match, "bar label '%s' is not the report's ratio", it->text);
		cr_assert(atof(it->text) > 1, "'%s': unix over tcp is above 1", it->text);
		if (atof(it->text) > 10)
			cr_assert_str_eq(it->text, "12.3\xc3\x97");
		nlabels++;
	}
	cr_assert_eq(nlabels, 2);
	cr_assert_eq(nref, 1);
	chart_free(c);
	series_set_free(&set);
	rows_free(&rows);
}

/* "A line chart needs two depths" has one home, which names the file. */
Test(chart, one_depth_refused_naming_the_file)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series *list[2];
	struct chart_input in = { 0 };
	struct chart *c = NULL;
	struct rs_err err = { 0 };

	make_rows(&rows, 2, 1, 1);
	cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0);
	list[0] = &set.v[0];
	list[1] = &set.v[1];
	cr_assert_eq(chart_lines_check(list, 2, &err), -1);
	/* With the kind that draws one depth (issue 44): two labels are
	 * needed for it, and one label is told so. */
	cr_assert_str_eq(err.msg, "mem.csv: every row is at pipeline depth 1: a line chart needs "
				  "two depths or more (--kind speedup compares two labels at one "
				  "depth: add another label's CSV)");
	in.width = 1200;
	in.height = 800;
	in.series = list;
	in.nseries = 2;
	in.an = analyse(&set);
	err.msg[0] = '\0';
	cr_assert_eq(chart_layout(&in, &measure_only, NULL, &c, &err), -1);
	cr_assert_str_eq(err.msg, "mem.csv: every row is at pipeline depth 1: a line chart needs "
				  "two depths or more (--kind speedup compares two labels at one "
				  "depth: add another label's CSV)");
	cr_assert_eq(chart_lines_check(list, 1, &err), -1);
	series_set_free(&set);
	rows_free(&rows);
	/* Two labels: the hint is the kind. */
	memset(&rows, 0, sizeof rows);
	make_rows(&rows, 1, 2, 1);
	cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0);
	list[0] = &set.v[0];
	list[1] = &set.v[1];
	cr_assert_eq(chart_lines_check(list, 2, &err), -1);
	cr_assert_str_eq(err.msg, "mem.csv: every row is at pipeline depth 1: a line chart needs "
				  "two depths or more (--kind speedup compares two labels at one "
				  "depth)");
	series_set_free(&set);
	rows_free(&rows);
}

/* Past the palette (11 tests x 2 labels: LRANGE_100 and INCR were both
 * blue), a panel per test in redis-benchmark's order, each label one
 * colour throughout, no two lines of a panel alike. */
Test(chart, past_the_palette_small_multiples)
{
	static const char *const shuffled[] = {
		"LRANGE_100", "SADD", "INCR", "GET", "SET", "LPOP", "MSET", "ZADD", "HSET", "RPUSH",
		"SPOP",
	};
	static const char *const want[] = {
		"SET", "GET", "INCR", "RPUSH", "LPOP", "SADD", "HSET", "SPOP", "ZADD", "LRANGE_100",
		"MSET",
	};
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series **list;
	struct chart *c;
	struct rs_err err = { 0 };
	size_t npanel = 0;
	struct render_color col[2] = { 0 };
	int seen[2] = { 0 };

	for (size_t t = 0; t < 11; t++)
		for (size_t l = 0; l < 2; l++)
			for (unsigned d = 1; d <= 16; d++)
				add(&rows, l ? "tcp" : "unix", shuffled[t], d, 1,
				    (1 + 0.1 * (double)t) * 1e6 * (1 - exp(-0.3 * d)) / (1 + (double)l), NAN);
	cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0, "%s", err.msg);
	c = layout_set(&set, &list, CHART_LINES);
	check_no_overlaps(c, set.n);
	for (size_t i = 0; i < c->n; i++) {
		const struct chart_item *it = &c->items[i];

		if (it->op == CHART_TEXT && it->role == ROLE_PANEL) {
			cr_assert_lt(npanel, 11);
			cr_assert_str_eq(it->text, want[npanel], "panel %zu", npanel);
			npanel++;
		}
		if (it->op == CHART_LINE && it->series >= 0) {
			size_t l = strcmp(set.v[it->series].label, "tcp") == 0;

			cr_assert_eq(it->dash, RENDER_SOLID);
			if (seen[l])
				cr_assert(memcmp(&col[l], &it->color, sizeof col[l]) == 0,
					  "label %zu changes colour", l);
			col[l] = it->color;
			seen[l] = 1;
		}
	}
	cr_assert_eq(npanel, 11);
	cr_assert(seen[0] && seen[1]);
	cr_assert(memcmp(&col[0], &col[1], sizeof col[0]) != 0, "both labels alike");
	chart_free(c);
	free(list);
	series_set_free(&set);
	rows_free(&rows);
}

/* Issue 32: --kind multiples asks for small multiples however few tests
 * and labels: GET and SET over three transports (six lines and their
 * bands in one panel, told apart by two colours and three dashes) become
 * a panel per test, each transport a colour; lines would draw them in one
 * panel. */
Test(chart, multiples_when_asked)
{
	static const char *const labels[] = { "unix", "tcp", "tls" };

	for (int multiples = 0; multiples <= 1; multiples++) {
		struct rs_rows rows = { 0 };
		struct series_set set;
		const struct series **list;
		struct chart *c;
		struct rs_err err = { 0 };
		struct render_color col[3] = { 0 };
		size_t npanel = 0;

		for (size_t t = 0; t < 2; t++)
			for (size_t l = 0; l < 3; l++)
				for (unsigned d = 1; d <= 16; d++)
					for (unsigned r = 1; r <= 3; r++)
						add(&rows, labels[l], t ? "SET" : "GET", d, r,
						    1e6 * (1 - exp(-0.3 * d)) / (1 + 0.3 * (double)l) *
							    (1 + 0.01 * r), NAN);
		cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0, "%s", err.msg);
		c = layout_set(&set, &list, multiples ? CHART_MULTIPLES : CHART_LINES);
		check_no_overlaps(c, set.n);
		for (size_t i = 0; i < c->n; i++) {
			const struct chart_item *it = &c->items[i];

			npanel += it->op == CHART_TEXT && it->role == ROLE_PANEL;
			if (it->op == CHART_LINE && it->series >= 0)
				col[set.v[it->series].label_idx] = it->color;
		}
		cr_assert_eq(npanel, multiples ? 2 : 0);
		if (multiples) {
			cr_assert(memcmp(&col[0], &col[1], sizeof col[0]) != 0 &&
				  memcmp(&col[1], &col[2], sizeof col[0]) != 0 &&
				  memcmp(&col[0], &col[2], sizeof col[0]) != 0, "a colour per label");
		}
		chart_free(c);
		free(list);
		series_set_free(&set);
		rows_free(&rows);
	}
}

/* More labels than the palette has colours is refused with advice. */
Test(chart, more_labels_than_colours_refused)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series **list;
	struct chart_input in = { 0 };
	struct chart *c = NULL;
	struct rs_err err = { 0 };
	char label[8][8];

	for (size_t l = 0; l < 8; l++) {
		snprintf(label[l], sizeof label[l], "m%zu", l);
		for (unsigned d = 1; d <= 4; d++)
			add(&rows, label[l], "GET", d, 1, 1e5 * d, NAN);
	}
	cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0, "%s", err.msg);
	list = calloc(set.n, sizeof *list);
	for (size_t i = 0; i < set.n; i++)
		list[i] = &set.v[i];
	in.width = 1200;
	in.height = 800;
	in.series = list;
	in.nseries = set.n;
	in.an = analyse(&set);
	cr_assert_eq(chart_layout(&in, &measure_only, NULL, &c, &err), -1);
	cr_assert_str_eq(err.msg, "8 labels but the palette has 7 colours: plot at most 7 files' "
				  "labels at once (or merge some with --relabel)");
	cr_assert_null(c);
	free(list);
	series_set_free(&set);
	rows_free(&rows);
}

/* The legend follows redis-benchmark's order, not the rows' (a shuffled
 * run's), so a test keeps its colour from chart to chart. */
Test(chart, legend_in_benchmark_order)
{
	static const char *const shuffled[] = { "MSET", "GET", "LPUSH", "SET" };
	static const char *const want[] = { "SET", "GET", "LPUSH", "MSET" };
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series **list;
	struct chart *c;
	struct rs_err err = { 0 };
	size_t n = 0;

	for (size_t t = 0; t < 4; t++)
		for (unsigned d = 1; d <= 8; d++)
			add(&rows, "m1", shuffled[t], d, 1, (1 + 0.2 * (double)t) * 1e5 * d, NAN);
	cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0, "%s", err.msg);
	c = layout_set(&set, &list, CHART_LINES);
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].op == CHART_TEXT && c->items[i].role == ROLE_LEGEND && n < 4)
			cr_assert_str_eq(c->items[i].text, want[n++]);
	cr_assert_eq(n, 4);
	/* SET, first in the catalogue, has the first colour. */
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].op == CHART_LINE && c->items[i].series >= 0 &&
		    strcmp(set.v[c->items[i].series].test, "SET") == 0) {
			struct render_color p0 = chart_palette(0);

			cr_assert(memcmp(&c->items[i].color, &p0, sizeof p0) == 0);
		}
	chart_free(c);
	free(list);
	series_set_free(&set);
	rows_free(&rows);
}

/* ---- latency charts ---- */

/* GET and SET over depths[0..nd) (p99 from 0.035 to 6.5 ms over 1..16),
 * 100000 requests a point, or at three offered rates (rate: an open loop
 * of --duration 1), 3 repeats; lays out kind into *c. */
static void latency_layout_at(enum chart_kind kind, int rate, const unsigned *depths, size_t nd,
			      struct chart **c)
{
	static struct rs_rows rows;
	static struct series_set rps, lat;
	const struct series **list, **lats;
	struct chart_input in = { 0 };
	struct rs_err err = { 0 };

	memset(&rows, 0, sizeof rows);
	for (unsigned t = 0; t < 2; t++)
		for (size_t z = 0; z < nd; z++)
			for (unsigned k = 0, d = depths[z]; k < (rate ? 3u : 1u); k++)
				for (unsigned r = 1; r <= 3; r++) {
					struct rs_row row;

					fill(&row, "a", t ? "SET" : "GET", d, r, 1e5 * d / (1 + 0.1 * d) +
					     r, NAN);
					row.p99_ms = 0.2 * d * d / 8 + 0.1 * t + 0.01 * r + k;
					snprintf(row.mode, sizeof row.mode, "lockstep");
					row.requests = 100000;
					row.seconds = row.requests / row.rps;
					if (rate) {
						row.rate_offered = 20000.0 * (k + 1);
						snprintf(row.arrivals, sizeof row.arrivals, "uniform");
						row.seconds = 1.0 + 0.0001 * (d + r);
						row.requests = (int64_t)(row.rate_offered * row.seconds) - r;
					}
					push(&rows, &row);
				}
	cr_assert_eq(series_build(&rows, SM_RPS, &rps, &err), 0, "%s", err.msg);
	cr_assert_eq(series_build(&rows, SM_P99, &lat, &err), 0, "%s", err.msg);
	list = calloc(rps.n, sizeof *list);
	lats = calloc(rps.n, sizeof *lats);
	for (size_t i = 0; i < rps.n; i++) {
		list[i] = &rps.v[i];
		lats[i] = series_find(&lat, rps.v[i].label, rps.v[i].test);
	}
	in.kind = kind;
	in.width = 1200;
	in.height = 800;
	in.metric = SM_RPS;
	in.series = list;
	in.nseries = rps.n;
	in.lat = lats;
	in.lat_metric = SM_P99;
	in.rows = &rows;
	cr_assert_eq(chart_layout(&in, &measure_only, NULL, c, &err), 0, "%s", err.msg);
	free(list);
	free(lats);
	series_set_free(&rps);
	series_set_free(&lat);
	rows_free(&rows);
}

/* The same over depths 1, 2, 4, 8 and 16. */
static void latency_layout(enum chart_kind kind, int rate, struct chart **c)
{
	static const unsigned pow2[] = { 1, 2, 4, 8, 16 };

	latency_layout_at(kind, rate, pow2, 5, c);
}

/* Whether the chart has a tick labelled s. */
static int has_tick(const struct chart *c, const char *s)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].op == CHART_TEXT && c->items[i].role == ROLE_TICK &&
		    strcmp(c->items[i].text, s) == 0)
			return 1;
	return 0;
}

static size_t count_lines(const struct chart *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->n; i++)
		n += c->items[i].op == CHART_LINE && c->items[i].series >= 0;
	return n;
}

Test(chart, latency_hockey_stick_on_a_log_axis)
{
	struct chart *c;

	latency_layout(CHART_LATENCY, 0, &c);
	/* 0.035 to 6.5 ms: whole decades 0.01 to 10, readable ticks. */
	cr_assert(has_tick(c, "0.01") && has_tick(c, "0.1") && has_tick(c, "1") && has_tick(c, "10"));
	cr_assert_eq(count_lines(c), 2, "one line per test");
	check_no_overlaps(c, 2);
	chart_free(c);
	latency_layout(CHART_LATENCY_DEPTH, 0, &c);
	cr_assert(has_tick(c, "1") && has_tick(c, "16"));
	cr_assert_eq(count_lines(c), 2);
	chart_free(c);
}

/* The tick labelled s, or NULL. */
static const struct chart_item *tick(const struct chart *c, const char *s)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].op == CHART_TEXT && c->items[i].role == ROLE_TICK &&
		    strcmp(c->items[i].text, s) == 0)
			return &c->items[i];
	return NULL;
}

/* Issue 32: the README's depths, 1..16,24,32,48,64,96,128,192,256, hold
 * nine powers of two among 24, and 17 of them in the first tenth of a
 * linear axis: latency against depth draws them on a log axis, as the line
 * chart does (the man page's rule, depths_log_axis), where it went log only
 * when every depth was a power of two. */
Test(chart, latency_depth_log_axis_for_crowded_depths)
{
	static const unsigned readme[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
					   24, 32, 48, 64, 96, 128, 192, 256 };
	static const unsigned even[] = { 8, 16, 24, 32, 40 };
	const struct chart_item *t2, *t16, *t128;
	struct chart *c;
	int named = 0;

	latency_layout_at(CHART_LATENCY_DEPTH, 0, readme, sizeof readme / sizeof *readme, &c);
	t2 = tick(c, "2");
	t16 = tick(c, "16");
	t128 = tick(c, "128");
	cr_assert(t2 && t16 && t128 && tick(c, "4") && tick(c, "64") && tick(c, "256"),
		  "powers of two as ticks");
	/* 16 half-way between 2 and 128 on a log2 axis (a linear one put it
	 * at 11%). */
	cr_assert_float_eq((t16->x - t2->x) / (t128->x - t2->x), 0.5, 1e-9);
	for (size_t i = 0; i < c->n; i++)
		named += c->items[i].op == CHART_TEXT && c->items[i].role == ROLE_AXIS_TITLE &&
			 strcmp(c->items[i].text, "pipeline depth (log scale)") == 0;
	cr_assert_eq(named, 1, "the axis title says log scale");
	chart_free(c);
	/* Evenly spread depths stay linear. */
	latency_layout_at(CHART_LATENCY_DEPTH, 0, even, 5, &c);
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].op == CHART_TEXT && c->items[i].role == ROLE_AXIS_TITLE)
			cr_assert_null(strstr(c->items[i].text, "depth (log"), "%s", c->items[i].text);
	cr_assert(tick(c, "40") && !tick(c, "32"), "a linear axis");
	chart_free(c);
}

/* The footer's text (its lines joined), in buf. */
static const char *footer_text(const struct chart *c, char *buf, size_t size)
{
	buf[0] = '\0';
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].op == CHART_TEXT && c->items[i].role == ROLE_FOOTER)
			snprintf(buf + strlen(buf), size - strlen(buf), "%s\n", c->items[i].text);
	return buf;
}

/* Whether every note on a point ("P=16", "50k/s") has the colour of the
 * line it is on (dark text for the two light colours, orange and sky
 * blue); returns how many notes there are, and the distinct colours of
 * the notes in *ncol. */
static size_t notes_in_line_colours(const struct chart *c, size_t *ncol)
{
	static const struct render_color dark = { 0x22, 0x22, 0x22, 255 };
	struct render_color seen[16];
	size_t n = 0;

	*ncol = 0;
	for (size_t i = 0; i < c->n; i++) {
		const struct chart_item *t = &c->items[i];
		const struct chart_item *line = NULL;
		struct render_color want;
		size_t k;

		if (t->op != CHART_TEXT || t->role != ROLE_SATURATION)
			continue;
		for (size_t j = 0; j < c->n && line == NULL; j++)
			if (c->items[j].op == CHART_LINE && c->items[j].series == t->series)
				line = &c->items[j];
		cr_assert_not_null(line, "'%s': no line %d", t->text, t->series);
		want = line->color;
		if ((want.r == 0xE6 && want.g == 0x9F && want.b == 0x00) ||
		    (want.r == 0x56 && want.g == 0xB4 && want.b == 0xE9))
			want = dark;
		cr_assert(memcmp(&t->color, &want, sizeof want) == 0,
			  "'%s' on line %d is #%02x%02x%02x, its line #%02x%02x%02x", t->text, t->series,
			  t->color.r, t->color.g, t->color.b, line->color.r, line->color.g, line->color.b);
		for (k = 0; k < *ncol && memcmp(&seen[k], &t->color, sizeof t->color) != 0; k++)
			;
		if (k == *ncol && *ncol < 16)
			seen[(*ncol)++] = t->color;
		n++;
	}
	return n;
}

/* Issue 32: the hockey stick's notes take their line's colour (every "P=N"
 * was the first colour's blue), the open loop's lines through the
 * offered rates say each point's rate, and the footer of a --duration
 * run says its seconds, not the requests its first row happened to
 * reach. */
Test(chart, latency_notes_rates_and_duration)
{
	struct chart *c;
	size_t ncol, rates[3] = { 0 };
	char foot[2048];

	latency_layout(CHART_LATENCY, 0, &c);
	cr_assert_geq(notes_in_line_colours(c, &ncol), 4);
	cr_assert_eq(ncol, 2, "GET's notes and SET's in two colours");
	cr_assert_not_null(strstr(footer_text(c, foot, sizeof foot), "100000 requests per point"),
			   "%s", foot);
	chart_free(c);
	latency_layout(CHART_LATENCY, 1, &c);
	cr_assert_geq(notes_in_line_colours(c, &ncol), 6);
	cr_assert_geq(ncol, 3);
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].op == CHART_TEXT && c->items[i].role == ROLE_SATURATION) {
			const char *t = c->items[i].text;

			cr_assert(strcmp(t, "20k/s") == 0 || strcmp(t, "40k/s") == 0 ||
				  strcmp(t, "60k/s") == 0, "note '%s'", t);
			rates[t[0] == '2' ? 0 : t[0] == '4' ? 1 : 2]++;
		}
	cr_assert(rates[0] && rates[1] && rates[2], "each offered rate labelled");
	footer_text(c, foot, sizeof foot);
	cr_assert_not_null(strstr(foot, "1 s per point"), "%s", foot);
	cr_assert_null(strstr(foot, "requests per point"), "%s", foot);
	chart_free(c);
}

/* Issue 32: a footer does not show the address of a spawned server that
 * is gone: older rows' temporary socket (unix:/tmp/rsweep-XXXXXX/redis.sock)
 * and --spawn-tcp's port on the loopback, which the kernel chose; a
 * server's own address stays. */
Test(chart, footer_hides_spawned_servers_addresses)
{
	static const char *const targets[][2] = {
		{ "unix:/tmp/rsweep-XD1E3l/redis.sock", "spawned server (UNIX socket)" },
		{ "127.0.0.1:58463", "TCP loopback" },
		{ "unix:/run/redis/redis.sock", "unix:/run/redis/redis.sock" },
		{ "127.0.0.1:6379", "127.0.0.1:6379" },
		{ "spawned redis-server (TCP 127.0.0.1)", "spawned redis-server (TCP 127.0.0.1)" },
	};
	static const char *const labels[] = { "a", "b", "c", "d" };

	for (size_t k = 0; k < sizeof targets / sizeof *targets; k += 4) {
		struct rs_rows rows = { 0 };
		struct series_set set;
		const struct series **list;
		struct chart *c;
		struct rs_err err = { 0 };
		char foot[2048];
		size_t n = k == 0 ? 4 : 1;

		for (size_t l = 0; l < n; l++)
			for (unsigned d = 1; d <= 4; d++) {
				struct rs_row row;

				fill(&row, labels[l], "GET", d, 1, 1e5 * d, NAN);
				snprintf(row.target, sizeof row.target, "%s", targets[k + l][0]);
				push(&rows, &row);
			}
		cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0, "%s", err.msg);
		c = layout_set(&set, &list, CHART_LINES);
		footer_text(c, foot, sizeof foot);
		for (size_t l = 0; l < n; l++)
			cr_assert_not_null(strstr(foot, targets[k + l][1]), "%s: %s", targets[k + l][0],
					   foot);
		cr_assert_null(strstr(foot, "rsweep-"), "%s", foot);
		cr_assert_null(strstr(foot, "58463"), "%s", foot);
		chart_free(c);
		free(list);
		series_set_free(&set);
		rows_free(&rows);
	}
}

/* Open loop: the series are offered rates; the hockey stick has one line
 * per test and depth through the rates. */
Test(chart, latency_open_loop_one_line_per_depth)
{
	struct chart *c;
	size_t legend = 0;

	latency_layout(CHART_LATENCY, 1, &c);
	cr_assert_eq(count_lines(c), 10, "2 tests x 5 depths");
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].op == CHART_TEXT && c->items[i].role == ROLE_LEGEND) {
			legend++;
			cr_assert_not_null(strstr(c->items[i].text, " P="), "%s", c->items[i].text);
		}
	cr_assert_eq(legend, 10);
	chart_free(c);
}

/* The percentile chart: x ticks at 50%, 90%, 99%, 99.9%. */
Test(chart, latency_percentiles_spaced_by_nines)
{
	static struct hist h;
	struct chart_dist d = { "GET P=1", &h };
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series *list[1];
	struct chart_input in = { 0 };
	struct chart *c = NULL;
	struct rs_err err = { 0 };

	add(&rows, "a", "GET", 1, 1, 1000, NAN);
	add(&rows, "a", "GET", 2, 1, 2000, NAN);
	cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0, "%s", err.msg);
	list[0] = &set.v[0];
	hist_init(&h);
	for (uint64_t v = 1; v <= 100000; v++)
		hist_record_n(&h, v * 100, 1);
	in.kind = CHART_LATENCY_CDF;
	in.width = 1200;
	in.height = 800;
	in.series = list;
	in.nseries = 1;
	in.dist = &d;
	in.ndist = 1;
	cr_assert_eq(chart_layout(&in, &measure_only, NULL, &c, &err), 0, "%s", err.msg);
	cr_assert(has_tick(c, "50%") && has_tick(c, "90%") && has_tick(c, "99%") &&
		  has_tick(c, "99.9%"));
	cr_assert_eq(count_lines(c), 1);
	chart_free(c);
	series_set_free(&set);
	rows_free(&rows);
}

/* --kind masters: one test's masters (rows_by_master's labels), each its
 * own colour in its line and the legend, and no legend entry for the
 * test. */
Test(chart, masters_each_a_colour)
{
	static const char *const masters[] = { "127.0.0.1:7001", "127.0.0.1:7002",
					       "127.0.0.1:7003" };
	struct rs_rows rows = { 0 };
	struct series_set set = { 0 };
	const struct series **list;
	struct chart *c;
	struct rs_err err = { 0 };
	struct render_color seen[3];
	size_t nlegend = 0;

	for (size_t m = 0; m < 3; m++)
		for (unsigned d = 1; d <= 16; d *= 2)
			add(&rows, masters[m], "GET", d, 1, (m == 1 ? 0.6 : 1.0) * 4e4 * d, NAN);
	cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0, "%s", err.msg);
	c = layout_set(&set, &list, CHART_MASTERS);
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].op == CHART_TEXT && c->items[i].role == ROLE_LEGEND &&
		    strncmp(c->items[i].text, "saturation", 10) != 0 &&
		    strncmp(c->items[i].text, "still rising", 12) != 0) {
			cr_assert_lt(nlegend, 3, "%s", c->items[i].text);
			cr_assert_str_eq(c->items[i].text, masters[nlegend]);
			nlegend++;
		}
	cr_assert_eq(nlegend, 3);
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].op == CHART_LINE && c->items[i].series >= 0) {
			size_t s = (size_t)c->items[i].series;

			for (size_t m = 0; m < 3; m++)
				if (strcmp(set.v[s].label, masters[m]) == 0)
					seen[m] = c->items[i].color;
		}
	cr_assert(memcmp(&seen[0], &seen[1], sizeof seen[0]) != 0);
	cr_assert(memcmp(&seen[1], &seen[2], sizeof seen[0]) != 0);
	cr_assert(memcmp(&seen[0], &seen[2], sizeof seen[0]) != 0);
	chart_free(c);
	free(list);
	series_set_free(&set);
	rows_free(&rows);
}

/* Issue 32: the words by a line the report calls not saturated say what
 * the drawn line does: "still rising" only where its last step rises.  A
 * cluster's masters (--kind masters): 7002 rises to its deepest depth,
 * 7001's line ends going down. */
Test(chart, not_saturated_words_follow_the_line)
{
	struct rs_rows rows = { 0 };
	struct series_set set = { 0 };
	const struct series **list;
	struct chart *c;
	struct rs_err err = { 0 };

	for (unsigned d = 1; d <= 16; d++)
		for (unsigned r = 1; r <= 3; r++) {
			double v = 4e4 * d * (1 + 0.01 * r);

			add(&rows, "127.0.0.1:7001", "GET", d, r, d == 16 ? 0.9 * v : v, NAN);
			add(&rows, "127.0.0.1:7002", "GET", d, r, 0.8 * v, NAN);
		}
	cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0, "%s", err.msg);
	c = layout_set(&set, &list, CHART_MASTERS);
	for (size_t i = 0; i < set.n; i++) {
		const struct series *v = &set.v[i];
		int dips = v->pts[v->npts - 1].median < v->pts[v->npts - 2].median;

		cr_assert_eq(analysed.series[i].saturated, KNEE_SAT_NO, "%s", v->label);
		cr_assert_eq(dips, strcmp(v->label, "127.0.0.1:7001") == 0);
		cr_assert_eq(count_role(c, CHART_MARKER, ROLE_RISING, (int)i), 1);
		for (size_t k = 0; k < c->n; k++)
			if (c->items[k].op == CHART_TEXT && c->items[k].role == ROLE_RISING &&
			    c->items[k].series == (int)i)
				cr_assert_str_eq(c->items[k].text, dips ? "not saturated" : "still rising",
						 "%s", v->label);
		cr_assert_eq(count_role(c, CHART_TEXT, ROLE_RISING, (int)i), 1, "%s: no note", v->label);
	}
	/* The legend explains the triangle without "still rising". */
	for (size_t k = 0; k < c->n; k++)
		if (c->items[k].op == CHART_TEXT && c->items[k].role == ROLE_LEGEND)
			cr_assert_null(strstr(c->items[k].text, "still rising"), "%s", c->items[k].text);
	chart_free(c);
	free(list);
	series_set_free(&set);
	rows_free(&rows);
}

/* GET and a mix over depths 1..8 for labels[0..nl), 2 repeats; the mix's
 * rows send GET 3 of 4 requests (and SET the rest), as its columns say. */
static void mix_rows(struct rs_rows *rows, const char *const *labels, size_t nl)
{
	for (size_t l = 0; l < nl; l++)
		for (unsigned d = 1; d <= 8; d++)
			for (unsigned r = 1; r <= 2; r++) {
				struct rs_row row;

				add(rows, labels[l], "GET", d, r, 1e5 * d * (1 + 0.01 * r), 0.1);
				fill(&row, labels[l], "MIX_GET3_SET1", d, r, 0.9e5 * d * (1 + 0.01 * r),
				     0.1);
				snprintf(row.mix, sizeof row.mix, "get=3,set=1");
				snprintf(row.mix_sent, sizeof row.mix_sent, "GET=%u;SET=%u", 750 + r, 250 - r);
				snprintf(row.mix_calls, sizeof row.mix_calls, "%s", row.mix_sent);
				push(rows, &row);
			}
}

/* Lay out every series of rows as kind, with the rows (what plot gives). */
static struct chart *layout_rows(struct rs_rows *rows, struct series_set *set,
				 const struct series ***list, enum chart_kind kind)
{
	struct chart_input in = { 0 };
	struct chart *c = NULL;
	struct rs_err err = { 0 };

	cr_assert_eq(series_build(rows, SM_RPS, set, &err), 0, "%s", err.msg);
	*list = calloc(set->n, sizeof **list);
	for (size_t i = 0; i < set->n; i++)
		(*list)[i] = &set->v[i];
	in.kind = kind;
	in.width = 1200;
	in.height = 800;
	in.metric = SM_RPS;
	in.series = *list;
	in.nseries = set->n;
	in.knee = 0.95;
	in.rows = rows;
	in.an = analyse(set);
	cr_assert_eq(chart_layout(&in, &measure_only, NULL, &c, &err), 0, "%s", err.msg);
	return c;
}

static int has_text(const struct chart *c, enum chart_role role, const char *s)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].op == CHART_TEXT && c->items[i].role == role &&
		    strcmp(c->items[i].text, s) == 0)
			return 1;
	return 0;
}

/* A mix's legend entry (a panel's head in small multiples) names its
 * members' shares as sent over the chart's series of it; a plain test's
 * is its name; bars, which name tests alone, say it in the footer. */
Test(chart, a_mix_is_named_with_its_shares)
{
	static const char *const two[] = { "a", "b" };
	static const char *const want = "MIX_GET3_SET1 (GET 75%, SET 25%)";
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series **list;
	struct chart *c;
	char foot[1024];

	mix_rows(&rows, two, 1);
	c = layout_rows(&rows, &set, &list, CHART_LINES);
	cr_assert(has_text(c, ROLE_LEGEND, want));
	cr_assert(has_text(c, ROLE_LEGEND, "GET"));
	cr_assert(strstr(footer_text(c, foot, sizeof foot), "as sent") == NULL, "%s", foot);
	chart_free(c);
	free(list);
	series_set_free(&set);
	c = layout_rows(&rows, &set, &list, CHART_MULTIPLES);
	cr_assert(has_text(c, ROLE_PANEL, want));
	chart_free(c);
	free(list);
	series_set_free(&set);
	rows_free(&rows);

	memset(&rows, 0, sizeof rows);
	mix_rows(&rows, two, 2);
	c = layout_rows(&rows, &set, &list, CHART_SPEEDUP);
	cr_assert(strstr(footer_text(c, foot, sizeof foot), "as sent: " "MIX_GET3_SET1 (GET 75%, "
			 "SET 25%)\n") != NULL, "%s", foot);
	chart_free(c);
	free(list);
	series_set_free(&set);
	rows_free(&rows);
	analysis_result_free(&analysed);
}

/* --by clients (issue 44): seven labels "vm c=1" to "vm c=64" of one test.
 * Their bands would cover one another: none are drawn, and the subtitle
 * says why; the footer's lines, six at most, dropped the seventh label:
 * labels along an axis share one line that gives the axis' range. */
Test(chart, by_clients_seven_lines_no_bands_one_footer_line)
{
	static const unsigned clients[] = { 1, 2, 4, 8, 16, 32, 64 };
	static const enum chart_kind kinds[] = { CHART_LINES, CHART_MULTIPLES };
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series **list;
	struct rs_err err = { 0 };

	for (size_t k = 0; k < 7; k++)
		for (unsigned d = 1; d <= 16; d *= 2)
			for (unsigned r = 1; r <= 3; r++) {
				struct rs_row row;
				char label[32];

				snprintf(label, sizeof label, "vm c=%u", clients[k]);
				fill(&row, label, "GET", d, r, 1e5 * (1 + k) * (1 - exp(-(double)d / 4)) *
				     (1 + 0.02 * r), NAN);
				row.clients = clients[k];
				row.requests = 4000;
				row.data_size = 3;
				row.threads = 1;
				push(&rows, &row);
			}
	cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0, "%s", err.msg);
	for (size_t k = 0; k < 2; k++) {
		struct chart *c = layout_set(&set, &list, kinds[k]);
		size_t bands = 0, footers = 0, said = 0;

		for (size_t i = 0; i < c->n; i++) {
			const struct chart_item *it = &c->items[i];

			bands += it->op == CHART_BAND && it->series >= 0;
			if (it->op == CHART_TEXT && it->role == ROLE_SUBTITLE)
				said += strstr(it->text, "no bands: 7 lines of a test") != NULL;
			if (it->op != CHART_TEXT || it->role != ROLE_FOOTER)
				continue;
			footers++;
			cr_assert(strstr(it->text, "vm c=1 to vm c=64:") == it->text, "%s", it->text);
			cr_assert(strstr(it->text, " 1\xe2\x80\x93" "64 clients ") != NULL, "%s",
				  it->text);
		}
		cr_assert_eq(bands, 0, "kind %d: %zu bands", kinds[k], bands);
		cr_assert_eq(said, 1, "kind %d: the subtitle does not say why", kinds[k]);
		cr_assert_eq(footers, 1, "kind %d: %zu footer lines", kinds[k], footers);
		chart_free(c);
		free(list);
	}
	series_set_free(&set);
	rows_free(&rows);
}
