/* test_heatmap.c: heat maps (chart_heatmap.c): the colour scale, one
 * cell per grid cell in the colour of its value, grey where nothing was
 * measured, the wide mark where the interval is wide or unknown, the
 * colour bar and its ticks, every axis value labelled, no text over
 * another, at 20 x 20, 3 x 40 and 40 x 3 cells; the same read back from a
 * PNG's pixels and a PDF's text. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chart/chart.h"
#include "analysis/grid.h"
#include "render/render_pdf.h"
#include "render/render_png.h"
#include "rows_helper.h"

#define UTF8_EM_DASH_TEST "\xe2\x80\x94"

static double fake_width(void *ctx, const char *s, double size)
{
	(void)ctx;
	return 0.62 * size * (double)strlen(s);
}

static const struct render_ops measure_only = { .text_width = fake_width };

/* rps at depth x with y clients: rising in both, from 20k to about 2M. */
static double rate(unsigned x, unsigned y)
{
	return 2e4 + 2e6 * (1 - exp(-(double)x * y / 80.0));
}

/* A grid of nx depths (1, 2, ... or powers of two) by ny client counts,
 * reps repeats each; a cell is left out where hole(ix, iy), and noisy
 * (its interval wide) where noisy(ix, iy). */
static void make(struct rs_rows *rows, const char *label, size_t nx, size_t ny, int pow2,
		 unsigned reps, int (*hole)(size_t, size_t), int (*noisy)(size_t, size_t))
{
	for (size_t ix = 0; ix < nx; ix++)
		for (size_t iy = 0; iy < ny; iy++) {
			unsigned x = pow2 ? 1u << ix : (unsigned)ix + 1, y = (unsigned)iy + 1;

			if (hole != NULL && hole(ix, iy))
				continue;
			for (unsigned r = 1; r <= reps; r++) {
				struct rs_row row;
				double spread = noisy != NULL && noisy(ix, iy) ? 0.5 : 0.01;

				fill(&row, label, "GET", x, r, rate(x, y) * (1 + spread * ((int)(r % 5) - 2) / 2.0),
				     0.01 * x);
				row.clients = y;
				row.requests = 100000;
				row.data_size = 3;
				row.threads = 1;
				row.p99_ms = 0.02 * x * y;
				push(rows, &row);
			}
		}
}

static int hole_diag(size_t ix, size_t iy)
{
	return (ix * 7 + iy * 3) % 23 == 0;
}

static int noisy_some(size_t ix, size_t iy)
{
	return (ix + iy) % 9 == 4;
}

static void build(const struct rs_rows *rows, struct grid_set *set, enum series_metric m)
{
	struct rs_err err = { 0 };

	cr_assert_eq(grid_build(rows, GRID_DEPTH, GRID_CLIENTS, m, set, &err), 0, "%s", err.msg);
}

static struct chart *lay(const struct grid_set *set, const struct rs_rows *rows, double w,
			 double h, const struct render_ops *ops, void *ctx)
{
	const struct grid **g = calloc(set->n, sizeof *g);
	struct chart_input in = { 0 };
	struct chart *c = NULL;
	struct rs_err err = { 0 };

	for (size_t i = 0; i < set->n; i++)
		g[i] = &set->v[i];
	in.kind = CHART_HEATMAP;
	in.width = w;
	in.height = h;
	in.metric = set->metric;
	in.grids = g;
	in.ngrids = set->n;
	in.gx = set->x;
	in.gy = set->y;
	in.rows = rows;
	cr_assert_eq(chart_layout(&in, ops, ctx, &c, &err), 0, "%s", err.msg);
	free(g);
	return c;
}

static int same_colour(struct render_color a, struct render_color b)
{
	return a.r == b.r && a.g == b.g && a.b == b.b;
}

static int wide(const struct grid_cell *c)
{
	return !(isfinite(c->lo) && isfinite(c->hi)) || (c->hi - c->lo) / 2 > 0.1 * c->median;
}

static size_t all_cells(const struct grid_set *set)
{
	size_t t = 0;

	for (size_t i = 0; i < set->n; i++)
		t += set->v[i].nx * set->v[i].ny;
	return t;
}

/* Every text inside the chart and clear of every other; every cell of
 * the set drawn once, in its colour or grey, in its panel's place; the
 * marks where the cells are wide (when any cell has an interval). */
static void check_map(const struct chart *c, const struct grid_set *set)
{
	size_t cells = 0, empty = 0, marks = 0, want_marks = 0, with_ci = 0, measured = 0;
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < set->n; i++)
		for (size_t k = 0; k < set->v[i].nx * set->v[i].ny; k++) {
			const struct grid_cell *cell = &set->v[i].cells[k];

			if (cell->n == 0)
				continue;
			measured++;
			lo = fmin(lo, cell->median);
			hi = fmax(hi, cell->median);
			want_marks += wide(cell);
			with_ci += isfinite(cell->lo);
		}
	for (size_t i = 0; i < c->n; i++) {
		const struct chart_item *a = &c->items[i];

		if (a->op == CHART_RECT && (a->role == ROLE_CELL || a->role == ROLE_CELL_EMPTY)) {
			cr_assert(a->x >= 0 && a->y >= 0 && a->x + a->w <= c->width &&
				  a->y + a->h <= c->height, "a cell off the chart");
			cr_assert(a->w > 0 && a->h > 0);
			cells += a->role == ROLE_CELL;
			empty += a->role == ROLE_CELL_EMPTY;
			if (a->role == ROLE_CELL_EMPTY)
				cr_assert(a->color.r == a->color.g && a->color.g == a->color.b,
					  "an empty cell is grey");
		}
		marks += a->op == CHART_BAND && a->role == ROLE_CELL_WIDE;
		if (a->op != CHART_TEXT)
			continue;
		cr_assert(a->box.x0 >= -0.01 && a->box.y0 >= -0.01 && a->box.x1 <= c->width + 0.01 &&
			  a->box.y1 <= c->height + 0.01, "'%s' runs off the chart (%.1f,%.1f-%.1f,%.1f)",
			  a->text, a->box.x0, a->box.y0, a->box.x1, a->box.y1);
		for (size_t j = i + 1; j < c->n; j++) {
			const struct chart_item *b = &c->items[j];

			if (b->op != CHART_TEXT)
				continue;
			cr_assert(!(a->box.x0 < b->box.x1 - 0.01 && b->box.x0 < a->box.x1 - 0.01 &&
				    a->box.y0 < b->box.y1 - 0.01 && b->box.y0 < a->box.y1 - 0.01),
				  "'%s' (%.1f,%.1f-%.1f,%.1f) overlaps '%s' (%.1f,%.1f-%.1f,%.1f)", a->text,
				  a->box.x0, a->box.y0, a->box.x1, a->box.y1, b->text, b->box.x0, b->box.y0,
				  b->box.x1, b->box.y1);
		}
	}
	cr_assert_eq(cells, measured, "%zu cells drawn, %zu measured", cells, measured);
	cr_assert_eq(cells + empty, all_cells(set));
	cr_assert_eq(marks, with_ci > 0 ? want_marks : 0, "%zu marks, %zu wide cells", marks,
		     want_marks);
	/* The scale's ends are the extreme cells' colours. */
	{
		int seen_lo = 0, seen_hi = 0;

		for (size_t i = 0; i < c->n; i++) {
			const struct chart_item *a = &c->items[i];

			if (a->op != CHART_RECT || a->role != ROLE_CELL)
				continue;
			seen_lo |= same_colour(a->color, chart_viridis(0));
			seen_hi |= same_colour(a->color, chart_viridis(1));
		}
		cr_assert(seen_lo && seen_hi, "the lowest cell viridis(0), the highest viridis(1)");
	}
}

/* How many value labels of panel gi, and of which texts. */
static size_t ticks_of(const struct chart *c, int gi, const char *text)
{
	size_t n = 0;

	for (size_t i = 0; i < c->n; i++)
		n += c->items[i].op == CHART_TEXT && c->items[i].role == ROLE_TICK &&
		     c->items[i].series == gi && (text == NULL || strcmp(c->items[i].text, text) == 0);
	return n;
}

static const struct chart_item *text_with(const struct chart *c, enum chart_role role,
					  const char *part)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].op == CHART_TEXT && c->items[i].role == role &&
		    strstr(c->items[i].text, part) != NULL)
			return &c->items[i];
	return NULL;
}

Test(heatmap, viridis_ends_and_rising_lightness)
{
	struct render_color a = chart_viridis(0), b = chart_viridis(1), m = chart_viridis(0.5);
	double last = -1;

	cr_assert(a.r == 68 && a.g == 1 && a.b == 84, "%d %d %d", a.r, a.g, a.b);
	cr_assert(b.r == 253 && b.g == 231 && b.b == 37, "%d %d %d", b.r, b.g, b.b);
	cr_assert(m.r < 40 && m.g > 130 && m.b > 130, "the middle is teal: %d %d %d", m.r, m.g, m.b);
	cr_assert(same_colour(chart_viridis(-3), a) && same_colour(chart_viridis(7), b));
	cr_assert(same_colour(chart_viridis(NAN), a));
	/* Perceptually uniform: its luminance never falls, end to end. */
	for (int i = 0; i <= 1000; i++) {
		struct render_color c = chart_viridis(i / 1000.0);
		double y = 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b;

		cr_assert_geq(y, last - 0.6, "luminance falls at %d", i);
		last = y;
		cr_assert_eq(c.a, 255);
	}
}

Test(heatmap, twenty_by_twenty)
{
	struct rs_rows rows = { 0 };
	struct grid_set set;
	struct chart *c;
	const struct chart_item *it;

	make(&rows, "m1", 20, 20, 0, 12, hole_diag, noisy_some);
	build(&rows, &set, SM_RPS);
	cr_assert_eq(set.v[0].nx, 20);
	c = lay(&set, &rows, 1200, 800, &measure_only, NULL);
	check_map(c, &set);
	/* Every value of both axes labelled. */
	cr_assert_eq(ticks_of(c, 0, NULL), 40);
	cr_assert_eq(ticks_of(c, 0, "17"), 2);
	/* The values in the cells: three digits and a suffix. */
	it = text_with(c, ROLE_CELL, "M");
	cr_assert_not_null(it, "no cell value in millions");
	cr_assert(strlen(it->text) <= 5, "'%s' is not short", it->text);
	cr_assert_not_null(text_with(c, ROLE_LEGEND, "wider than \xc2\xb1" "10%"));
	cr_assert_not_null(text_with(c, ROLE_LEGEND, "not measured"));
	cr_assert_not_null(text_with(c, ROLE_AXIS_TITLE, "requests per second, log scale"));
	cr_assert_not_null(text_with(c, ROLE_AXIS_TITLE, "pipeline depth"));
	cr_assert_null(text_with(c, ROLE_AXIS_TITLE, "powers of two"), "1..20 is linear");
	cr_assert_not_null(text_with(c, ROLE_TITLE, "Requests per second by pipeline depth and clients"));
	cr_assert_not_null(text_with(c, ROLE_FOOTER, "1" "\xe2\x80\x93" "20 clients"));
	chart_free(c);
	grid_set_free(&set);
	rows_free(&rows);
}

/* Cells of 1e-6 and 1e14 rps (issue 40, D9): twenty decades, more than
 * the bar has room for even one tick a decade.  Its ticks fell back to
 * linear ones from 0, whose place on the log scale is minus infinity, and
 * the label drawn there overflowed the PNG back-end's pixel ints.  Now
 * every tick is a power of ten inside the scale, every label on the
 * chart, the smallest cell reads 1e-06 (not 0), and the PNG is written. */
static const char *font(void);

Test(heatmap, extreme_values_stay_on_the_chart)
{
	static const double v[4] = { 1e-6, 1e14, 5, 7 };
	struct rs_rows rows = { 0 };
	struct grid_set set;
	struct chart *c;
	struct render_png *png;
	struct rs_err err = { 0 };
	size_t ticks = 0;

	for (unsigned i = 0; i < 4; i++) {
		struct rs_row row;

		fill(&row, "x", "GET", 1 + i % 2, 1, v[i], 0.01);
		row.clients = 1 + i / 2;
		row.requests = 100000;
		row.data_size = 3;
		row.threads = 1;
		push(&rows, &row);
	}
	build(&rows, &set, SM_RPS);
	c = lay(&set, &rows, 900, 600, &measure_only, NULL);
	check_map(c, &set);
	for (size_t i = 0; i < c->n; i++) {
		const struct chart_item *a = &c->items[i];

		if (a->op != CHART_TEXT || a->role != ROLE_COLORBAR)
			continue;
		cr_assert(isfinite(a->x) && isfinite(a->y), "'%s' at %g,%g", a->text, a->x, a->y);
		ticks++;
	}
	cr_assert_geq(ticks, 2, "%zu colour bar labels", ticks);
	cr_assert_not_null(text_with(c, ROLE_CELL, "1e-06"));
	cr_assert_not_null(text_with(c, ROLE_COLORBAR, "100T"));
	chart_free(c);
	/* And drawn by the real back-end, its text included (the sanitizer
	 * build caught the overflow here). */
	cr_assert_eq(render_png_new(900, 600, 1, font(), &png, &err), 0, "%s", err.msg);
	c = lay(&set, &rows, 900, 600, render_png_ops(), png);
	chart_draw(c, render_png_ops(), png, 0, 0);
	render_png_free(png);
	chart_free(c);
	grid_set_free(&set);
	rows_free(&rows);
}

/* 3 x 40 and 40 x 3: a cell per value, labels thinned or turned where
 * they would crowd, nothing overlapping. */
Test(heatmap, three_by_forty_both_ways)
{
	for (int swap = 0; swap < 2; swap++) {
		struct rs_rows rows = { 0 };
		struct grid_set set;
		struct chart *c;

		/* 3 repeats of 1% spread (Student's t: +-1.2%, no mark), or one. */
		make(&rows, "m1", swap ? 40 : 3, swap ? 3 : 40, !swap, swap ? 1 : 3, NULL, NULL);
		build(&rows, &set, SM_RPS);
		c = lay(&set, &rows, 1200, 800, &measure_only, NULL);
		check_map(c, &set);
		cr_assert_geq(ticks_of(c, 0, NULL), 23, "most values labelled");
		cr_assert_eq(ticks_of(c, 0, "1"), swap ? 2 : 2);
		cr_assert_eq(ticks_of(c, 0, "3"), swap ? 2 : 1);
		/* One repeat: no interval anywhere, no marks, one line says why;
		 * three of narrow spread: intervals, none wide, neither line. */
		if (swap)
			cr_assert_not_null(text_with(c, ROLE_LEGEND, "No cell has a 95% interval"));
		else
			cr_assert_null(text_with(c, ROLE_LEGEND, "95% interval"));
		if (!swap)
			cr_assert_not_null(text_with(c, ROLE_AXIS_TITLE, "log scale: powers of two"));
		chart_free(c);
		grid_set_free(&set);
		rows_free(&rows);
	}
}

/* Several grids share the chart as panels, on one colour scale; too many
 * for its size are refused, saying what to do. */
Test(heatmap, panels_and_too_small)
{
	struct rs_rows rows = { 0 };
	struct grid_set set;
	struct chart *c;
	const struct grid *g[1];
	struct chart_input in = { 0 };
	struct rs_err err = { 0 };
	size_t heads = 0;

	make(&rows, "m1", 8, 6, 1, 3, NULL, NULL);
	make(&rows, "intel", 8, 6, 1, 3, hole_diag, NULL);
	build(&rows, &set, SM_P99);
	cr_assert_eq(set.n, 2);
	c = lay(&set, &rows, 1200, 800, &measure_only, NULL);
	check_map(c, &set);
	for (size_t i = 0; i < c->n; i++)
		heads += c->items[i].op == CHART_TEXT && c->items[i].role == ROLE_PANEL;
	cr_assert_eq(heads, 2);
	cr_assert_not_null(text_with(c, ROLE_PANEL, "intel GET"));
	cr_assert_not_null(text_with(c, ROLE_TITLE, "P99 latency (ms) by pipeline depth and clients"));
	cr_assert_null(text_with(c, ROLE_TITLE, UTF8_EM_DASH_TEST), "two labels: none in the title");
	chart_free(c);
	grid_set_free(&set);
	rows_free(&rows);

	make(&rows, "m1", 20, 20, 0, 1, NULL, NULL);
	build(&rows, &set, SM_RPS);
	g[0] = &set.v[0];
	in.kind = CHART_HEATMAP;
	in.width = 150;
	in.height = 120;
	in.metric = SM_RPS;
	in.grids = g;
	in.ngrids = 1;
	in.gx = GRID_DEPTH;
	in.gy = GRID_CLIENTS;
	in.rows = &rows;
	cr_assert_eq(chart_layout(&in, &measure_only, NULL, &c, &err), -1);
	cr_assert_null(c);
	cr_assert_str_eq(err.msg, "chart of 150x120 is too small for 1 heat map of up to 20x20 "
			 "cells: give a larger --size");
	in.ngrids = 0;
	cr_assert_eq(chart_layout(&in, &measure_only, NULL, &c, &err), -1);
	grid_set_free(&set);
	rows_free(&rows);
}

/* ---- the back-ends ---- */

static const char *font(void)
{
	if (access(RS_DEFAULT_FONT, R_OK) != 0)
		cr_skip_test("font %s not installed", RS_DEFAULT_FONT);
	return RS_DEFAULT_FONT;
}

static int near(const uint8_t *p, struct render_color c, int tol)
{
	return abs(p[0] - c.r) + abs(p[1] - c.g) + abs(p[2] - c.b) <= tol;
}

/* Drawn in PNG: every cell shows its colour (grey when empty) at a point
 * clear of its text and mark; the bar runs from viridis(0) at the bottom
 * to viridis(1) at the top; a wide cell's corner is in its mark's ink. */
Test(heatmap, png_pixels_are_the_cells_colours)
{
	struct rs_rows rows = { 0 };
	struct grid_set set;
	struct render_png *png;
	struct rs_err err = { 0 };
	struct chart *c;
	const uint8_t *px;
	unsigned w, h, scale = 2;
	size_t checked = 0, marks = 0, bar = 0;
	double bar_top = INFINITY, bar_bottom = -INFINITY, bar_x = 0;

	make(&rows, "m1", 20, 20, 0, 12, hole_diag, noisy_some);
	build(&rows, &set, SM_RPS);
	cr_assert_eq(render_png_new(1200, 800, scale, font(), &png, &err), 0, "%s", err.msg);
	c = lay(&set, &rows, 1200, 800, render_png_ops(), png);
	chart_draw(c, render_png_ops(), png, 0, 0);
	px = render_png_pixels(png, &w, &h);
	cr_assert_eq(w, 2400);
	for (size_t i = 0; i < c->n; i++) {
		const struct chart_item *a = &c->items[i];

		if (a->op == CHART_RECT && (a->role == ROLE_CELL || a->role == ROLE_CELL_EMPTY)) {
			/* Bottom left, clear of the centred value and the top
			 * right mark. */
			long X = lround((a->x + 0.12 * a->w) * scale), Y = lround((a->y + 0.88 * a->h) * scale);

			cr_assert(near(px + ((size_t)Y * w + (size_t)X) * 3, a->color, 6),
				  "cell at %.0f,%.0f: %d %d %d, drawn %d %d %d", a->x, a->y,
				  px[((size_t)Y * w + (size_t)X) * 3], px[((size_t)Y * w + (size_t)X) * 3 + 1],
				  px[((size_t)Y * w + (size_t)X) * 3 + 2], a->color.r, a->color.g, a->color.b);
			checked++;
		}
		if (a->op == CHART_BAND && a->role == ROLE_CELL_WIDE) {
			/* Just inside the corner. */
			long X = lround((a->v[1] - 1.2) * scale), Y = lround((a->v[2] + 1.2) * scale);

			cr_assert(near(px + ((size_t)Y * w + (size_t)X) * 3, a->color, 60),
				  "the mark at %.0f,%.0f is not in its ink", a->v[1], a->v[2]);
			marks++;
		}
		if (a->op == CHART_RECT && a->role == ROLE_COLORBAR) {
			bar_top = fmin(bar_top, a->y);
			bar_bottom = fmax(bar_bottom, a->y + a->h);
			bar_x = a->x + a->w / 2;
			bar++;
		}
	}
	cr_assert_eq(checked, 400);
	cr_assert_gt(marks, 10);
	cr_assert_geq(bar, 64, "a smooth bar");
	cr_assert(near(px + ((size_t)lround((bar_bottom - 1) * scale) * w + (size_t)lround(bar_x * scale)) * 3,
		       chart_viridis(0), 12), "the bar's bottom is not viridis(0)");
	cr_assert(near(px + ((size_t)lround((bar_top + 1) * scale) * w + (size_t)lround(bar_x * scale)) * 3,
		       chart_viridis(1), 12), "the bar's top is not viridis(1)");
	chart_free(c);
	render_png_free(png);
	grid_set_free(&set);
	rows_free(&rows);
}

static char *run(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	size_t cap = 65536, n = 0, k;
	char *buf = malloc(cap);

	cr_assert_not_null(p, "%s", cmd);
	while ((k = fread(buf + n, 1, cap - 1 - n, p)) > 0) {
		n += k;
		if (n + 1 == cap)
			buf = realloc(buf, cap *= 2);
	}
	buf[n] = '\0';
	pclose(p);
	return buf;
}

/* Drawn in PDF: the title, the bar's title (upright: a word a line) and
 * ticks, the axes' values and titles, the cells' values, the legend and
 * the footer read back as text. */
Test(heatmap, pdf_says_the_labels)
{
	struct rs_rows rows = { 0 };
	struct grid_set set;
	struct render_pdf *pdf;
	struct rs_err err = { 0 };
	struct chart *c;
	char path[] = "/tmp/rsweep-heat-XXXXXX", cmd[256], *text;
	static const char *const want[] = {
		"Requests per second by pipeline depth and clients " UTF8_EM_DASH_TEST " m1",
		"pipeline depth (log scale: powers of two)", "second,\nlog\nscale",
		"1 2 4 8 16 32 64 128", "GET", "\n1M\n2M\n",
		"1\xe2\x80\x93" "5 clients",
	};
	int fd;

	font();
	if (system("command -v pdftotext >/dev/null") != 0)
		cr_skip_test("pdftotext (poppler-utils) not installed");
	make(&rows, "m1", 8, 5, 1, 3, NULL, NULL);
	build(&rows, &set, SM_RPS);
	cr_assert_eq(render_pdf_new(font(), "heat", &pdf, &err), 0, "%s", err.msg);
	c = lay(&set, &rows, 1200, 800, render_pdf_ops(), pdf);
	cr_assert_eq(render_pdf_page(pdf, 1200, 800, &err), 0, "%s", err.msg);
	chart_draw(c, render_pdf_ops(), pdf, 0, 0);
	fd = mkstemp(path);
	close(fd);
	cr_assert_eq(render_pdf_save(pdf, path, &err), 0, "%s", err.msg);
	snprintf(cmd, sizeof cmd, "pdftotext -raw %s - 2>&1", path);
	text = run(cmd);
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		cr_assert(strstr(text, want[i]) != NULL, "no '%s' in: %s", want[i], text);
	/* Every cell's value, as the layout wrote it. */
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].op == CHART_TEXT && c->items[i].role == ROLE_CELL)
			cr_assert(strstr(text, c->items[i].text) != NULL, "no cell '%s'", c->items[i].text);
	free(text);
	unlink(path);
	chart_free(c);
	render_pdf_free(pdf);
	grid_set_free(&set);
	rows_free(&rows);
}

/* --latency-budget outlines the cells within it (issue 44): p99 is
 * 0.02 x y ms here, so under 0.1 ms the cells with x y <= 5 are in: all
 * five of P=1, P=2 at 1 and 2 clients, P=4 at 1; a staircase whose
 * outline is 16 cell sides long, each drawn white under dark, and a
 * legend that says what it bounds.  Without a budget, no outline. */
Test(heatmap, budget_outlines_the_cells_within_it)
{
	struct rs_rows rows = { 0 };
	struct grid_set set, lat;
	const struct grid *g[1];
	struct chart_input in = { 0 };
	struct chart *c = NULL;
	struct rs_err err = { 0 };
	size_t sides = 0, legend = 0, none = 0;

	make(&rows, "vm", 6, 5, 1, 3, NULL, NULL);
	build(&rows, &set, SM_RPS);
	build(&rows, &lat, SM_P99);
	cr_assert_eq(set.n, 1);
	g[0] = &set.v[0];
	in.kind = CHART_HEATMAP;
	in.width = 1200;
	in.height = 800;
	in.metric = set.metric;
	in.grids = g;
	in.ngrids = 1;
	in.gx = set.x;
	in.gy = set.y;
	in.rows = &rows;
	cr_assert_eq(chart_layout(&in, &measure_only, NULL, &c, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < c->n; i++)
		none += c->items[i].role == ROLE_BUDGET;
	cr_assert_eq(none, 0, "an outline without a budget");
	chart_free(c);
	in.budget = &lat;
	in.budget_ms = 0.1;
	in.budget_metric = SM_P99;
	cr_assert_eq(chart_layout(&in, &measure_only, NULL, &c, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < c->n; i++) {
		const struct chart_item *it = &c->items[i];

		if (it->role != ROLE_BUDGET)
			continue;
		if (it->op == CHART_TEXT) {
			cr_assert(strstr(it->text, "p99 within 0.1 ms") != NULL, "%s", it->text);
			legend++;
		} else if (it->op == CHART_LINE && it->v[1] >= c->plot.y0 - 1) {
			/* The map's sides: on its cells' edges, within the plot. */
			cr_assert(it->v[0] >= c->plot.x0 - 1 && it->v[2] <= c->plot.x1 + 1);
			sides++;
		}
	}
	cr_assert_eq(legend, 1);
	cr_assert_eq(sides, 2 * 16, "%zu strokes", sides);
	chart_free(c);
	grid_set_free(&lat);
	grid_set_free(&set);
	rows_free(&rows);
}
