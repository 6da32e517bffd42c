/* test_grid.c: rows as grids over two axes: cells and their medians,
 * intervals, grids split by the axes held and by the server's arguments,
 * cells nobody measured, the refusals (x == y, no row with both axes),
 * rows without the metric; the axes' names. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/grid.h"
#include "stats/knee.h"
#include "rows_helper.h"

/* A row of label and test at depth p with c clients, d bytes, t threads. */
static void put(struct rs_rows *rows, const char *label, const char *test, unsigned p,
		int64_t c, int64_t d, int64_t t, unsigned rep, double rps, double p99)
{
	struct rs_row r;

	fill(&r, label, test, p, rep, rps, NAN);
	r.clients = c;
	r.data_size = d;
	r.threads = t;
	r.p99_ms = p99;
	push(rows, &r);
}

static void build(const struct rs_rows *rows, enum grid_axis x, enum grid_axis y,
		  enum series_metric m, struct grid_set *set)
{
	struct rs_err err = { 0 };

	cr_assert_eq(grid_build(rows, x, y, m, set, &err), 0, "%s", err.msg);
}

Test(grid, axis_names)
{
	enum grid_axis a = GRID_DEPTH;

	for (size_t i = 0; i < GRID_NAXES; i++) {
		cr_assert_eq(grid_axis_parse(grid_axis_names[i], &a), 0);
		cr_assert_eq(a, (enum grid_axis)i);
	}
	cr_assert_eq(grid_axis_parse("data_size", &a), -1, "the option's spelling only");
	cr_assert_eq(grid_axis_parse("Depth", &a), -1);
	cr_assert_eq(grid_axis_parse("", &a), -1);
	cr_assert_eq(a, GRID_THREADS, "a failed parse leaves the axis as it was");
	cr_assert_null(grid_axis_names[GRID_NAXES]);
}

Test(grid, axis_values)
{
	struct rs_rows rows = { 0 };

	put(&rows, "a", "GET", 16, 50, 3, 1, 1, 1000, NAN);
	put(&rows, "a", "GET", 16, -1, -1, -1, 2, 1000, NAN);
	cr_assert_eq(grid_axis_value(&rows.v[0], GRID_DEPTH), 16);
	cr_assert_eq(grid_axis_value(&rows.v[0], GRID_CLIENTS), 50);
	cr_assert_eq(grid_axis_value(&rows.v[0], GRID_DATA_SIZE), 3);
	cr_assert_eq(grid_axis_value(&rows.v[0], GRID_THREADS), 1);
	cr_assert_eq(grid_axis_value(&rows.v[1], GRID_CLIENTS), -1);
	cr_assert_eq(grid_axis_value(&rows.v[1], GRID_DATA_SIZE), -1);
	cr_assert_eq(grid_axis_value(&rows.v[1], GRID_THREADS), -1);
	rows_free(&rows);
}

/* Axes ascending whatever the rows' order; each cell the median of its
 * repeats; a cell nobody measured is empty, found, and not a colour. */
Test(grid, cells_and_medians)
{
	struct rs_rows rows = { 0 };
	struct grid_set set;
	const struct grid *g;
	const struct grid_cell *c;

	/* depth x clients: 1, 4, 2 x 10, 1; (4, 10) never measured. */
	put(&rows, "a", "GET", 4, 1, 3, 1, 1, 400, NAN);
	put(&rows, "a", "GET", 1, 10, 3, 1, 1, 100, NAN);
	put(&rows, "a", "GET", 1, 10, 3, 1, 2, 130, NAN);
	put(&rows, "a", "GET", 1, 10, 3, 1, 3, 90, NAN);
	put(&rows, "a", "GET", 2, 10, 3, 1, 1, 250, NAN);
	put(&rows, "a", "GET", 1, 1, 3, 1, 1, 50, NAN);
	put(&rows, "a", "GET", 2, 1, 3, 1, 1, 80, NAN);
	put(&rows, "a", "GET", 2, 1, 3, 1, 2, 60, NAN);
	build(&rows, GRID_DEPTH, GRID_CLIENTS, SM_RPS, &set);
	cr_assert_eq(set.x, GRID_DEPTH);
	cr_assert_eq(set.y, GRID_CLIENTS);
	cr_assert_eq(set.metric, SM_RPS);
	cr_assert_eq(set.n, 1);
	g = &set.v[0];
	cr_assert_str_eq(g->label, "a");
	cr_assert_str_eq(g->test, "GET");
	cr_assert_str_eq(g->held, "");
	cr_assert_eq(g->nx, 3);
	cr_assert_eq(g->ny, 2);
	cr_assert_eq(g->xs[0], 1);
	cr_assert_eq(g->xs[1], 2);
	cr_assert_eq(g->xs[2], 4);
	cr_assert_eq(g->ys[0], 1);
	cr_assert_eq(g->ys[1], 10);
	c = grid_cell_at(g, 1, 10);
	cr_assert_eq(c, &g->cells[1 * 3 + 0], "cells are [iy * nx + ix]");
	cr_assert_eq(c->n, 3);
	cr_assert_float_eq(c->median, 100, 1e-9);
	c = grid_cell_at(g, 2, 1);
	cr_assert_eq(c->n, 2);
	cr_assert_float_eq(c->median, 70, 1e-9, "an even count's median is the middle pair's mean");
	cr_assert_float_eq(grid_cell_at(g, 4, 1)->median, 400, 1e-9);
	cr_assert_float_eq(grid_cell_at(g, 2, 10)->median, 250, 1e-9);
	c = grid_cell_at(g, 4, 10);
	cr_assert_not_null(c, "a column and a row the grid has: a cell, empty");
	cr_assert_eq(c->n, 0);
	cr_assert(isnan(c->median));
	cr_assert(isnan(c->lo) && isnan(c->hi));
	cr_assert_null(grid_cell_at(g, 3, 1), "no column 3");
	cr_assert_null(grid_cell_at(g, 1, 5), "no row 5");
	grid_set_free(&set);
	cr_assert_eq(set.n, 0);
	grid_set_free(&set);
	grid_set_free(NULL);
	rows_free(&rows);
}

/* A latency metric, and the other pair of axes: the rows read as given. */
Test(grid, metric_and_axes)
{
	struct rs_rows rows = { 0 };
	struct grid_set set;
	const struct grid *g;

	put(&rows, "a", "SET", 8, 50, 3, 1, 1, 1000, 2.0);
	put(&rows, "a", "SET", 8, 50, 1024, 1, 1, 900, 3.0);
	put(&rows, "a", "SET", 8, 50, 3, 2, 1, 1500, 1.5);
	put(&rows, "a", "SET", 8, 50, 1024, 2, 1, 1300, 2.5);
	build(&rows, GRID_THREADS, GRID_DATA_SIZE, SM_P99, &set);
	cr_assert_eq(set.n, 1);
	g = &set.v[0];
	cr_assert_eq(g->nx, 2);
	cr_assert_eq(g->xs[1], 2);
	cr_assert_eq(g->ys[1], 1024);
	cr_assert_float_eq(grid_cell_at(g, 2, 1024)->median, 2.5, 1e-9);
	cr_assert_float_eq(grid_cell_at(g, 1, 3)->median, 2.0, 1e-9);
	grid_set_free(&set);
	rows_free(&rows);
}

/* A cell of KNEE_BOOT_MIN_N repeats has the bootstrap interval of its
 * median, the same whatever else the file holds; fewer repeats, none. */
Test(grid, intervals)
{
	struct rs_rows rows = { 0 }, more = { 0 };
	struct grid_set set, set2;
	const struct grid_cell *c, *c2;

	for (unsigned i = 0; i < KNEE_BOOT_MIN_N; i++) {
		double v = 1000 + 37.0 * ((i * 7) % KNEE_BOOT_MIN_N);

		put(&rows, "a", "GET", 1, 1, 3, 1, i + 1, v, NAN);
		put(&more, "other", "SET", 1, 1, 3, 1, i + 1, 5 * v, NAN);
		put(&more, "a", "GET", 1, 1, 3, 1, i + 1, v, NAN);
	}
	for (unsigned i = 0; i < KNEE_BOOT_MIN_N - 1; i++)
		put(&rows, "a", "GET", 2, 1, 3, 1, i + 1, 2000 + i, NAN);
	build(&rows, GRID_DEPTH, GRID_CLIENTS, SM_RPS, &set);
	c = grid_cell_at(&set.v[0], 1, 1);
	cr_assert_eq(c->n, KNEE_BOOT_MIN_N);
	cr_assert(isfinite(c->lo) && isfinite(c->hi));
	cr_assert(c->lo <= c->median && c->median <= c->hi, "%g %g %g", c->lo, c->median, c->hi);
	cr_assert(c->lo < c->hi, "ten distinct values: an interval of some width");
	cr_assert(c->lo >= 1000 && c->hi <= 1000 + 37.0 * 9, "within the values");
	c = grid_cell_at(&set.v[0], 2, 1);
	cr_assert_eq(c->n, KNEE_BOOT_MIN_N - 1);
	/* Nine repeats: Student's t over their logs, around the median. */
	cr_assert(isfinite(c->lo) && isfinite(c->hi), "Student's t below a bootstrap's repeats");
	cr_assert_float_eq(c->median, 2004, 1e-9);
	cr_assert(c->lo < 2004 && c->hi > 2004 && c->lo > 1990 && c->hi < 2018, "%g..%g",
		  c->lo, c->hi);
	build(&more, GRID_DEPTH, GRID_CLIENTS, SM_RPS, &set2);
	cr_assert_eq(set2.n, 2);
	c2 = grid_cell_at(grid_find(&set2, "a", "GET", ""), 1, 1);
	c = grid_cell_at(&set.v[0], 1, 1);
	cr_assert_eq(c2->lo, c->lo, "the same cell, the same interval");
	cr_assert_eq(c2->hi, c->hi);
	grid_set_free(&set);
	grid_set_free(&set2);
	rows_free(&rows);
	rows_free(&more);
}

/* The axes neither x nor y split a label x test into grids where they
 * vary (held names them), and only there; grids label-major, tests in
 * the series' order, then by the held values. */
Test(grid, held_splitting)
{
	struct rs_rows rows = { 0 };
	struct grid_set set;
	const struct grid *g;

	/* "b" first seen; its SET at two data sizes and two thread counts. */
	put(&rows, "b", "GET", 1, 1, 3, 1, 1, 100, NAN);
	put(&rows, "b", "SET", 1, 1, 1024, 2, 1, 10, NAN);
	put(&rows, "b", "SET", 1, 1, 3, 2, 1, 20, NAN);
	put(&rows, "b", "SET", 2, 1, 3, 1, 1, 30, NAN);
	put(&rows, "b", "SET", 2, 4, 1024, 1, 1, 40, NAN);
	put(&rows, "a", "GET", 1, 1, 3, 1, 1, 50, NAN);
	put(&rows, "a", "GET", 1, 2, 3, 1, 1, 60, NAN);
	put(&rows, "b", "GET", 2, 1, 3, 1, 1, 70, NAN);
	build(&rows, GRID_DEPTH, GRID_CLIENTS, SM_RPS, &set);
	cr_assert_eq(set.n, 6);
	cr_assert_str_eq(set.v[0].label, "b");
	cr_assert_str_eq(set.v[0].test, "SET", "redis-benchmark's order: SET before GET");
	cr_assert_str_eq(set.v[0].held, "d=3 t=1");
	cr_assert_str_eq(set.v[1].held, "d=3 t=2");
	cr_assert_str_eq(set.v[2].held, "d=1024 t=1");
	cr_assert_str_eq(set.v[3].held, "d=1024 t=2");
	cr_assert_str_eq(set.v[4].label, "b");
	cr_assert_str_eq(set.v[4].test, "GET");
	cr_assert_str_eq(set.v[4].held, "", "nothing varies within b GET");
	cr_assert_str_eq(set.v[5].label, "a");
	g = grid_find(&set, "b", "SET", "d=1024 t=1");
	cr_assert_eq(g, &set.v[2]);
	cr_assert_eq(g->nx, 1);
	cr_assert_eq(g->xs[0], 2);
	cr_assert_eq(g->ys[0], 4);
	cr_assert_float_eq(g->cells[0].median, 40, 1e-9);
	g = grid_find(&set, "b", "SET", "d=3 t=1");
	cr_assert_eq(g->nx * g->ny, 1);
	cr_assert_float_eq(g->cells[0].median, 30, 1e-9, "two grids never mix");
	g = grid_find(&set, "b", "GET", "");
	cr_assert_eq(g->nx, 2);
	cr_assert_eq(g->ny, 1, "a strip: one row");
	cr_assert_null(grid_find(&set, "b", "SET", ""));
	cr_assert_null(grid_find(&set, "a", "SET", ""));
	cr_assert_null(grid_find(&set, "c", "GET", ""));
	grid_set_free(&set);

	/* Over data size and threads, depth is held. */
	build(&rows, GRID_DATA_SIZE, GRID_THREADS, SM_RPS, &set);
	cr_assert_str_eq(set.v[0].test, "SET");
	cr_assert_str_eq(set.v[0].held, "P=1 c=1");
	cr_assert_str_eq(set.v[1].held, "P=2 c=1");
	cr_assert_str_eq(set.v[2].held, "P=2 c=4");
	cr_assert_str_eq(set.v[3].held, "P=1", "b GET: clients do not vary");
	cr_assert_str_eq(set.v[4].held, "P=2");
	cr_assert_str_eq(set.v[5].held, "c=1");
	cr_assert_str_eq(set.v[6].held, "c=2");
	cr_assert_eq(set.n, 7);
	grid_set_free(&set);
	rows_free(&rows);
}

/* A spawned server's extra arguments are held too: a grid per set of
 * them where they vary ("[defaults]" for none), by first sight. */
Test(grid, held_server_args)
{
	struct rs_rows rows = { 0 };
	struct grid_set set;
	struct rs_row r;
	static const char *const args[] = { "--io-threads 4", "", "--io-threads 4", "--io-threads 2" };

	for (size_t i = 0; i < 4; i++) {
		fill(&r, "a", "GET", 1 + (unsigned)(i / 2), 1, 100.0 * (double)(i + 1), NAN);
		r.clients = 1;
		snprintf(r.server_args, sizeof r.server_args, "%s", args[i]);
		push(&rows, &r);
	}
	put(&rows, "b", "GET", 1, 1, 3, 1, 1, 50, NAN);
	build(&rows, GRID_DEPTH, GRID_CLIENTS, SM_RPS, &set);
	cr_assert_eq(set.n, 4);
	cr_assert_str_eq(set.v[0].held, "[--io-threads 4]");
	cr_assert_eq(set.v[0].nx, 2, "depths 1 and 2 under one server");
	cr_assert_float_eq(grid_cell_at(&set.v[0], 2, 1)->median, 300, 1e-9);
	cr_assert_str_eq(set.v[1].held, "[defaults]");
	cr_assert_str_eq(set.v[2].held, "[--io-threads 2]");
	cr_assert_str_eq(set.v[3].label, "b");
	cr_assert_str_eq(set.v[3].held, "", "b's server has one set of arguments");
	cr_assert_not_null(grid_find(&set, "a", "GET", "[defaults]"));
	grid_set_free(&set);
	rows_free(&rows);
}

/* What series_variant keeps apart stays apart: a window's rows are a test
 * of their own. */
Test(grid, variants)
{
	struct rs_rows rows = { 0 };
	struct grid_set set;
	struct rs_row r;

	put(&rows, "a", "GET", 1, 1, 3, 1, 1, 100, NAN);
	fill(&r, "a", "GET", 1, 1, 300, NAN);
	r.clients = 1;
	snprintf(r.mode, sizeof r.mode, "window");
	push(&rows, &r);
	build(&rows, GRID_DEPTH, GRID_CLIENTS, SM_RPS, &set);
	cr_assert_eq(set.n, 2);
	cr_assert_str_eq(set.v[0].test, "GET");
	cr_assert_str_eq(set.v[1].test, "GET window");
	cr_assert_float_eq(set.v[1].cells[0].median, 300, 1e-9);
	cr_assert_not_null(grid_find(&set, "a", "GET window", ""));
	grid_set_free(&set);
	rows_free(&rows);
}

/* Rows without the metric are passed over, and rows without an axis;
 * none left is an error of input, one line. */
Test(grid, rows_without_metric)
{
	struct rs_rows rows = { 0 };
	struct grid_set set;
	struct rs_err err = { 0 };

	put(&rows, "a", "GET", 1, 1, 3, 1, 1, 100, 2.0);
	put(&rows, "a", "GET", 2, 1, 3, 1, 1, 200, NAN);
	put(&rows, "a", "GET", 4, -1, 3, 1, 1, 300, 5.0);
	build(&rows, GRID_DEPTH, GRID_CLIENTS, SM_P99, &set);
	cr_assert_eq(set.n, 1);
	cr_assert_eq(set.v[0].nx, 1, "depth 2 has no p99, depth 4 no clients");
	cr_assert_float_eq(set.v[0].cells[0].median, 2.0, 1e-9);
	grid_set_free(&set);
	cr_assert_eq(grid_build(&rows, GRID_DEPTH, GRID_CLIENTS, SM_P999, &set, &err), -1);
	cr_assert_eq(err.kind, RS_E_INPUT);
	cr_assert_str_eq(err.msg, "no row has a p999 figure");
	cr_assert_eq(set.n, 0);
	grid_set_free(&set);
	cr_assert_eq(grid_build(&rows, GRID_DEPTH, GRID_THREADS, SM_P99, &set, &err), 0);
	grid_set_free(&set);
	rows_free(&rows);
}

Test(grid, refusals)
{
	struct rs_rows rows = { 0 };
	struct grid_set set;
	struct rs_err err = { 0 };

	cr_assert_eq(grid_build(&rows, GRID_DEPTH, GRID_CLIENTS, SM_RPS, &set, &err), -1);
	cr_assert_eq(err.kind, RS_E_INPUT);
	cr_assert_str_eq(err.msg, "no result rows");
	put(&rows, "a", "GET", 1, 1, -1, -1, 1, 100, NAN);
	cr_assert_eq(grid_build(&rows, GRID_CLIENTS, GRID_CLIENTS, SM_RPS, &set, &err), -1);
	cr_assert_eq(err.kind, RS_E_USAGE);
	cr_assert_str_eq(err.msg, "x and y are both clients: a grid needs two different axes");
	cr_assert_eq(set.n, 0);
	cr_assert_eq(grid_build(&rows, GRID_DEPTH, GRID_THREADS, SM_RPS, &set, &err), -1);
	cr_assert_eq(err.kind, RS_E_INPUT);
	cr_assert_str_eq(err.msg, "no row has both its depth and its threads known");
	cr_assert_eq(grid_build(&rows, GRID_DATA_SIZE, GRID_DEPTH, SM_RPS, &set, &err), -1);
	cr_assert_eq(err.kind, RS_E_INPUT);
	cr_assert_null(strchr(err.msg, '\n'));
	grid_set_free(&set);
	rows_free(&rows);
}

/* A 20 x 20 grid with holes, from rows in any order; and an unknown held
 * value is a value of its own ("t=?"). */
Test(grid, large_and_unknown_held)
{
	struct rs_rows rows = { 0 };
	struct grid_set set;
	const struct grid *g;
	size_t filled = 0;

	for (unsigned i = 0; i < 400; i++) {
		unsigned k = (i * 263) % 400, ix = k % 20, iy = k / 20;

		if ((ix + iy) % 7 == 3)
			continue;
		put(&rows, "a", "GET", 1u << iy, 1 + ix, 3, 1, 1, 1000.0 * (k + 1), NAN);
	}
	build(&rows, GRID_CLIENTS, GRID_DEPTH, SM_RPS, &set);
	cr_assert_eq(set.n, 1);
	g = &set.v[0];
	for (size_t i = 1; i < g->nx; i++)
		cr_assert_lt(g->xs[i - 1], g->xs[i]);
	for (size_t i = 1; i < g->ny; i++)
		cr_assert_lt(g->ys[i - 1], g->ys[i]);
	cr_assert_eq(g->nx, 20);
	cr_assert_eq(g->ny, 20);
	cr_assert_eq(g->ys[19], 1 << 19);
	for (size_t i = 0; i < g->nx * g->ny; i++) {
		size_t ix = i % 20, iy = i / 20;

		filled += g->cells[i].n > 0;
		cr_assert_eq(g->cells[i].n, (ix + iy) % 7 != 3, "hole or one row at %zu", i);
		if (g->cells[i].n)
			cr_assert_float_eq(g->cells[i].median, 1000.0 * (iy * 20 + ix + 1), 1e-6);
	}
	cr_assert_eq(filled, rows.n, "one row a cell, none lost");
	grid_set_free(&set);
	rows_free(&rows);

	put(&rows, "a", "GET", 1, 1, 3, 1, 1, 100, NAN);
	put(&rows, "a", "GET", 1, 1, 3, -1, 1, 200, NAN);
	build(&rows, GRID_DEPTH, GRID_CLIENTS, SM_RPS, &set);
	cr_assert_eq(set.n, 2);
	cr_assert_str_eq(set.v[0].held, "t=?", "unknown sorts first");
	cr_assert_str_eq(set.v[1].held, "t=1");
	grid_set_free(&set);
	rows_free(&rows);
}
