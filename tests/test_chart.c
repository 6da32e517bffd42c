/* test_chart.c: the chart model: ticks, SI labels, layouts without overlaps. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chart.h"
#include "row.h"
#include "rows_helper.h"
#include "series.h"

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

static struct chart *layout(struct series_set *set, const struct series ***list, size_t ntests,
			    size_t nlabels, unsigned ndepths, enum chart_kind kind, struct rs_rows *rows)
{
	struct chart_input in = { 0 };
	struct chart *c = NULL;
	struct rs_err err = { "" };

	make_rows(rows, ntests, nlabels, ndepths);
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
	size_t lines = 0, legend = 0;

	check_no_overlaps(c, set.n);
	for (size_t i = 0; i < c->n; i++) {
		if (c->items[i].op == CHART_LINE && c->items[i].series >= 0)
			lines++;
		if (c->items[i].op == CHART_TEXT && c->items[i].role == ROLE_LEGEND) {
			legend++;
			/* The legend wraps inside the chart. */
			cr_assert(c->items[i].box.x1 <= c->width - 10);
		}
	}
	cr_assert_eq(lines, set.n, "one line per series");
	cr_assert_geq(legend, ntests);
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

	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].op == CHART_TEXT && c->items[i].role == ROLE_SATURATION) {
			/* sat = 8: 1 - exp(-3d/8) >= 0.95 * peak from d = 8 on. */
			cr_assert_str_eq(c->items[i].text, "P=8");
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
	size_t nbars = 0, nlabels = 0;
	double last = 1e9;

	check_no_overlaps(c, 0);
	for (size_t i = 0; i < c->n; i++) {
		const struct chart_item *it = &c->items[i];

		if (it->op == CHART_TEXT && it->role == ROLE_BAR_LABEL) {
			double r = atof(it->text);

			cr_assert(strstr(it->text, "\xc3\x97") != NULL, "'%s' has no times sign", it->text);
			cr_assert(r <= last + 1e-9, "bars are not sorted");
			last = r;
			nlabels++;
		}
		if (it->op == CHART_RECT && it->color.a == 255 && it->w < 200)
			nbars++;
	}
	cr_assert_eq(nlabels, 5);
	cr_assert_eq(nbars, 5);
	/* The baseline is the first label (m1): intel is under half as fast. */
	cr_assert(last > 0 && last < 0.5, "intel / m1 is %g", last);
	chart_free(c);
	free(list);
	series_set_free(&set);
	rows_free(&rows);
}

Test(chart, refuses_what_it_cannot_draw)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	struct chart_input in = { 0 };
	struct chart *c = NULL;
	struct rs_err err = { "" };
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
