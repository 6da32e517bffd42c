/* grid.c: rows -> grids of cells over two axes (grid.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/grid.h"
#include "stats/knee.h"
#include "stats/stats.h"
#include "base/strtab.h"
#include "base/xalloc.h"

/* What a held value is called in a grid's held text, by axis. */
static const char *const grid_axis_short[] = { "P", "c", "d", "t" };

int64_t grid_axis_value(const struct rs_rec *r, enum grid_axis a)
{
	switch (a) {
	case GRID_DEPTH:
		return r->pipeline > 0 ? (int64_t)r->pipeline : -1;
	case GRID_CLIENTS:
		return r->clients >= 0 ? r->clients : -1;
	case GRID_DATA_SIZE:
		return r->data_size >= 0 ? r->data_size : -1;
	case GRID_THREADS:
		return r->threads >= 0 ? r->threads : -1;
	default:
		return -1;
	}
}

int grid_axis_parse(const char *name, enum grid_axis *a)
{
	for (size_t i = 0; grid_axis_names[i] != NULL; i++)
		if (strcmp(name, grid_axis_names[i]) == 0) {
			*a = (enum grid_axis)i;
			return 0;
		}
	return -1;
}

/* The dimensions a grid is held at: the two axes that are neither x nor y,
 * then the spawned server's extra arguments (by first sight), which make
 * another server as much as another client count makes another load. */
#define GRID_NHELD 3
#define GRID_HELD_ARGS 2

/* One kept row: its names, its place on every axis, its figure. */
struct grid_rec {
	uint32_t label, test;     /* first-seen ids; test then its series order */
	uint32_t pair;            /* (label, test) */
	uint32_t group;           /* (label, test, held); then its grid's place */
	int64_t x, y;
	int64_t held[GRID_NHELD]; /* the other axes' values (-1 unknown), the
				   * server arguments' id */
	double v;
	size_t row;               /* its index in rows, for a stable order */
};

/* What varies within one (label, test): a held dimension goes into the
 * held text only if it does. */
struct grid_pair {
	int64_t first[GRID_NHELD];
	int varies[GRID_NHELD];
};

/* A group's place: label, test order, then its held values. */
struct grid_group {
	uint32_t label, test, pair, id;
	int64_t held[GRID_NHELD];
};

static int cmp_group(const void *a, const void *b)
{
	const struct grid_group *p = a, *q = b;

	if (p->label != q->label)
		return p->label < q->label ? -1 : 1;
	if (p->test != q->test)
		return p->test < q->test ? -1 : 1;
	for (size_t k = 0; k < GRID_NHELD; k++)
		if (p->held[k] != q->held[k])
			return p->held[k] < q->held[k] ? -1 : 1;
	return (p->id > q->id) - (p->id < q->id);
}

/* Records by their grid's place, then y, x, file order. */
static int cmp_rec(const void *a, const void *b)
{
	const struct grid_rec *p = a, *q = b;

	if (p->group != q->group)
		return p->group < q->group ? -1 : 1;
	if (p->y != q->y)
		return p->y < q->y ? -1 : 1;
	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return (p->row > q->row) - (p->row < q->row);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t p = *(const int64_t *)a, q = *(const int64_t *)b;

	return (p > q) - (p < q);
}

/* The held text of a row of pair pr with held values held: "d=1024 t=2",
 * "[--io-threads 4]", "[defaults]" for a server without arguments. */
static void grid_held_text(char *buf, size_t size, const struct grid_pair *pr,
			   const int64_t *held, const enum grid_axis *axes, const struct strtab *args)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < GRID_NHELD; k++) {
		const char *a;
		int w;

		if (!pr->varies[k])
			continue;
		if (k == GRID_HELD_ARGS) {
			a = strtab_str(args, (uint32_t)held[k]);
			w = snprintf(buf + at, size - at, "%s[%s]", at ? " " : "", *a ? a : "defaults");
		} else if (held[k] >= 0)
			w = snprintf(buf + at, size - at, "%s%s=%lld", at ? " " : "",
				     grid_axis_short[axes[k]], (long long)held[k]);
		else
			w = snprintf(buf + at, size - at, "%s%s=?", at ? " " : "",
				     grid_axis_short[axes[k]]);
		if (w < 0 || (size_t)w >= size - at)
			return;   /* cut: 160 bytes hold both axes, and the
				   * server's arguments as far as they fit */
		at += (size_t)w;
	}
}

/* A cell of 2 to KNEE_BOOT_MIN_N - 1 repeats (3 by default), too few for a
 * bootstrap: Student's t over the log figures, n - 1 degrees of freedom,
 * around the median (so that the cell's figure stays inside).  Wide, as
 * it should be with three repeats; a figure of 0 or below leaves none. */
static void grid_cell_few(struct grid_cell *c, const double *v, size_t n)
{
	double mean = 0, ss = 0, half;

	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return;
		mean += log(v[i]);
	}
	mean /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (log(v[i]) - mean) * (log(v[i]) - mean);
	half = knee_t975(n - 1) * sqrt(ss / (double)(n - 1) / (double)n);
	c->lo = c->median * exp(-half);
	c->hi = c->median * exp(half);
}

/* Fill cell c from the figures v[0..n) (reordered), measured at (x, y). */
static void grid_cell_fill(struct grid_cell *c, double *v, size_t n, int64_t x, int64_t y)
{
	struct stats_ci ci;
	struct rs_err e;

	c->n = n;
	c->lo = c->hi = NAN;
	/* The interval's stream is the cell's own place, so that a cell's
	 * interval does not change with what else the file holds. */
	if (n >= KNEE_BOOT_MIN_N &&
	    stats_bootstrap(v, n, stats_median_statistic, NULL, KNEE_DEFAULT_B, KNEE_DEFAULT_LEVEL,
			    stats_seed_mix(ANALYSIS_SEED, (uint64_t)x << 32 ^ (uint64_t)y), &ci, NULL,
			    &e) == 0) {
		c->lo = ci.lo;
		c->hi = ci.hi;
	}
	c->median = series_median(v, n);
	if (n >= 2 && n < KNEE_BOOT_MIN_N)
		grid_cell_few(c, v, n);
}

/* Build grid g from its records r[0..n), sorted by y then x. */
static void grid_fill(struct grid *g, const struct grid_rec *r, size_t n, const char *test,
		      double *tmp)
{
	int64_t *xs = xmalloc(n * sizeof *xs);
	size_t nx = 0, ny = 0, tlen = strlen(test);
	char *block;

	for (size_t i = 0; i < n; i++)
		xs[i] = r[i].x;
	qsort(xs, n, sizeof *xs, cmp_i64);
	for (size_t i = 0; i < n; i++)
		if (nx == 0 || xs[nx - 1] != xs[i])
			xs[nx++] = xs[i];
	for (size_t i = 0; i < n; i++)
		if (i == 0 || r[i].y != r[i - 1].y)
			ny++;
	/* One block a grid: the axes, the cells, and the test's name (which
	 * may be series_variant's text, not a string of the rows). */
	block = xmalloc((nx + ny) * sizeof(int64_t) + nx * ny * sizeof(struct grid_cell) + tlen + 1);
	g->xs = (int64_t *)(void *)block;
	g->ys = g->xs + nx;
	g->cells = (struct grid_cell *)(void *)(g->ys + ny);
	memcpy(g->xs, xs, nx * sizeof *xs);
	free(xs);
	g->nx = nx;
	g->ny = ny;
	memcpy((char *)(g->cells + nx * ny), test, tlen + 1);
	g->test = (const char *)(g->cells + nx * ny);
	for (size_t i = 0; i < nx * ny; i++)
		g->cells[i] = (struct grid_cell){ 0, NAN, NAN, NAN };
	for (size_t a = 0, iy = 0, ix = 0; a < n;) {
		size_t b = a, k = 0;

		if (a > 0 && r[a].y != r[a - 1].y) {
			iy++;
			ix = 0;
		}
		g->ys[iy] = r[a].y;
		while (g->xs[ix] != r[a].x)
			ix++;
		while (b < n && r[b].y == r[a].y && r[b].x == r[a].x)
			tmp[k++] = r[b++].v;
		grid_cell_fill(&g->cells[iy * nx + ix], tmp, k, r[a].x, r[a].y);
		a = b;
	}
}

/* What grid_build gathers from the rows before it fills the grids. */
struct grid_work {
	enum grid_axis x, y, axes[GRID_NHELD]; /* the grid's axes, and the held ones */
	struct strtab labels, tests, pairs, groups, args;
	struct grid_rec *rec;     /* a row with the metric and both axes known */
	size_t n, nmetric;        /* records, and rows with the metric */
	struct grid_pair *pr;     /* per (label, test) */
	size_t cappr;
	struct grid_group *grp;   /* per group, in the set's order */
	const char **tnames, **lnames;
	uint32_t *tplace;         /* a test's place in the series' order */
};

/* grid_build's first step: a record for each row of rows with metric m
 * and both axes known, its names interned, and for each (label, test) the
 * held values of its first row and which of them vary. */
static void grid_records(struct grid_work *w, const struct rs_rows *rows, enum series_metric m)
{
	w->rec = xreallocarray(NULL, rows->n, sizeof *w->rec);
	for (size_t i = 0; i < rows->n; i++) {
		const struct rs_rec *row = &rows->v[i];
		double v = series_metric_value(rows, row, m);
		struct grid_rec *r = &w->rec[w->n];
		struct grid_pair *p;
		char variant[ROW_STR + 48];
		const char *test;
		uint32_t key[2], id;
		int added;

		if (!isfinite(v))
			continue;
		w->nmetric++;
		r->x = grid_axis_value(row, w->x);
		r->y = grid_axis_value(row, w->y);
		if (r->x < 0 || r->y < 0)
			continue;
		r->v = v;
		r->row = i;
		for (size_t k = 0; k < GRID_HELD_ARGS; k++)
			r->held[k] = grid_axis_value(row, w->axes[k]);
		test = series_variant(rows, row, variant, sizeof variant);
		if (strtab_intern(&w->labels, row->label, strlen(row->label), &r->label, NULL) < 0 ||
		    strtab_intern(&w->tests, test, strlen(test), &r->test, NULL) < 0 ||
		    strtab_intern(&w->args, row->server->server_args, strlen(row->server->server_args),
				  &id, NULL) < 0)
			abort();  /* past 2^31 names: rows_add refuses long before */
		r->held[GRID_HELD_ARGS] = id;
		key[0] = r->label;
		key[1] = r->test;
		if (strtab_intern(&w->pairs, key, sizeof key, &r->pair, &added) < 0)
			abort();
		if (added) {
			if (r->pair >= w->cappr) {
				w->cappr = w->cappr ? 2 * w->cappr : 16;
				w->pr = xreallocarray(w->pr, w->cappr, sizeof *w->pr);
			}
			memcpy(w->pr[r->pair].first, r->held, sizeof r->held);
			memset(w->pr[r->pair].varies, 0, sizeof w->pr[r->pair].varies);
		}
		p = &w->pr[r->pair];
		for (size_t k = 0; k < GRID_NHELD; k++)
			if (r->held[k] != p->first[k])
				p->varies[k] = 1;
		w->n++;
	}
}

/* grid_build's second step: the tests' names and their places in the
 * series' order, and the labels as the rows spell them (their copies
 * outlive the set). */
static void grid_names(struct grid_work *w, const struct rs_rows *rows)
{
	const struct rs_rec **trow = xcalloc(w->tests.n, sizeof *trow);

	w->tnames = xreallocarray(NULL, w->tests.n, sizeof *w->tnames);
	w->tplace = xreallocarray(NULL, w->tests.n, sizeof *w->tplace);
	for (size_t t = 0; t < w->tests.n; t++)
		w->tnames[t] = strtab_str(&w->tests, (uint32_t)t);
	for (size_t i = w->n; i-- > 0;)
		trow[w->rec[i].test] = &rows->v[w->rec[i].row];
	series_order_names(w->tnames, trow, w->tests.n, w->tplace);
	free(trow);
	w->lnames = xreallocarray(NULL, w->labels.n, sizeof *w->lnames);
	for (size_t i = 0; i < w->n; i++)
		w->lnames[w->rec[i].label] = rows->v[w->rec[i].row].label;
}

/* grid_build's third step: the groups, (label, test, the held values that
 * vary within the pair), in the set's order (out->n of them), and the
 * records sorted by group. */
static void grid_groups(struct grid_work *w, struct grid_set *out)
{
	uint32_t *gplace;

	for (size_t i = 0; i < w->n; i++) {
		struct grid_rec *r = &w->rec[i];
		struct {
			uint32_t pair;
			uint32_t pad;
			int64_t held[GRID_NHELD];
		} key = { r->pair, 0, { 0 } };
		int added;

		for (size_t k = 0; k < GRID_NHELD; k++)
			key.held[k] = w->pr[r->pair].varies[k] ? r->held[k] : 0;
		if (strtab_intern(&w->groups, &key, sizeof key, &r->group, &added) < 0)
			abort();
		if (added) {
			if (r->group % 64 == 0)
				w->grp = xreallocarray(w->grp, r->group + 64, sizeof *w->grp);
			w->grp[r->group] = (struct grid_group){ r->label, w->tplace[r->test], r->pair,
								r->group, { 0 } };
			memcpy(w->grp[r->group].held, key.held, sizeof key.held);
		}
	}
	out->n = w->groups.n;
	qsort(w->grp, out->n, sizeof *w->grp, cmp_group);
	gplace = xreallocarray(NULL, out->n, sizeof *gplace);
	for (size_t g = 0; g < out->n; g++)
		gplace[w->grp[g].id] = (uint32_t)g;
	for (size_t i = 0; i < w->n; i++)
		w->rec[i].group = gplace[w->rec[i].group];
	free(gplace);
	qsort(w->rec, w->n, sizeof *w->rec, cmp_rec);
}

/* grid_build's last step: each group's grid into out->v. */
static void grid_fill_all(struct grid_work *w, struct grid_set *out)
{
	const struct grid_rec *rec = w->rec;
	size_t n = w->n, most = 0;
	double *tmp;

	for (size_t a = 0, b; a < n; a = b) {
		for (b = a; b < n && rec[b].group == rec[a].group; b++)
			;
		if (b - a > most)
			most = b - a;
	}
	tmp = xreallocarray(NULL, most, sizeof *tmp);
	out->v = xcalloc(out->n, sizeof *out->v);
	for (size_t a = 0, b; a < n; a = b) {
		struct grid *g = &out->v[rec[a].group];
		const struct grid_group *gg = &w->grp[rec[a].group];

		for (b = a; b < n && rec[b].group == rec[a].group; b++)
			;
		g->label = w->lnames[rec[a].label];
		grid_held_text(g->held, sizeof g->held, &w->pr[gg->pair], rec[a].held, w->axes,
			       &w->args);
		grid_fill(g, &rec[a], b - a, w->tnames[gg->test], tmp);
	}
	free(tmp);
}

int grid_build(const struct rs_rows *rows, enum grid_axis x, enum grid_axis y,
	       enum series_metric m, struct grid_set *out, struct rs_err *err)
{
	struct grid_work w = { .x = x, .y = y };
	int rc = 0;

	memset(out, 0, sizeof *out);
	out->x = x;
	out->y = y;
	out->metric = m;
	if ((unsigned)x >= GRID_NAXES || (unsigned)y >= GRID_NAXES)
		return rs_err_setk(err, RS_E_USAGE, "no such axis");
	if (x == y)
		return rs_err_setk(err, RS_E_USAGE,
				   "x and y are both %s: a grid needs two different axes",
				   grid_axis_names[x]);
	if (rows->n == 0)
		return rs_err_setk(err, RS_E_INPUT, "no result rows");
	for (size_t a = 0, k = 0; a < GRID_NAXES; a++)
		if (a != (size_t)x && a != (size_t)y)
			w.axes[k++] = (enum grid_axis)a;
	grid_records(&w, rows, m);
	if (w.n == 0 && w.nmetric == 0)
		rc = rs_err_setk(err, RS_E_INPUT, "no row has a %s figure", series_metric_name(m));
	else if (w.n == 0)
		rc = rs_err_setk(err, RS_E_INPUT, "no row has both its %s and its %s known",
				 grid_axis_names[x], grid_axis_names[y]);
	if (rc == 0) {
		grid_names(&w, rows);
		grid_groups(&w, out);
		grid_fill_all(&w, out);
	}
	free(w.grp);
	free(w.lnames);
	free(w.tplace);
	free(w.tnames);
	free(w.pr);
	free(w.rec);
	strtab_free(&w.labels);
	strtab_free(&w.tests);
	strtab_free(&w.pairs);
	strtab_free(&w.groups);
	strtab_free(&w.args);
	if (rc < 0)
		grid_set_free(out);
	return rc;
}

const struct grid_cell *grid_cell_at(const struct grid *g, int64_t x, int64_t y)
{
	const int64_t *px = bsearch(&x, g->xs, g->nx, sizeof x, cmp_i64);
	const int64_t *py = bsearch(&y, g->ys, g->ny, sizeof y, cmp_i64);

	if (px == NULL || py == NULL)
		return NULL;
	return &g->cells[(size_t)(py - g->ys) * g->nx + (size_t)(px - g->xs)];
}

const struct grid *grid_find(const struct grid_set *set, const char *label, const char *test,
			     const char *held)
{
	for (size_t i = 0; i < set->n; i++)
		if (strcmp(set->v[i].label, label) == 0 && strcmp(set->v[i].test, test) == 0 &&
		    strcmp(set->v[i].held, held) == 0)
			return &set->v[i];
	return NULL;
}

void grid_set_free(struct grid_set *set)
{
	if (set == NULL)
		return;
	for (size_t i = 0; i < set->n; i++)
		free(set->v[i].xs);  /* the grid's one block */
	free(set->v);
	set->v = NULL;
	set->n = 0;
}
