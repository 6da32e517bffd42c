/* grid.h: result rows as a grid of cells over two axes (depth, clients,
 * data size, threads): one grid per label x test, and per value of the
 * axes that are neither x nor y, and of the spawned server's arguments,
 * where those vary, so that two grids never mix.  What heat maps draw and
 * the report's frontier searches.
 *
 * Pure: no I/O.  A cell's figure is the median of its rows' metric over
 * repeats (and runs), with the 95% interval the report gives a point's
 * median from its own repeats (knee.h: KNEE_BOOT_MIN_N and more,
 * resampled KNEE_DEFAULT_B times).  A cell of fewer repeats (2 to 9: 3 by
 * default) gets Student's t over its log figures instead, around the
 * median: the report's other way, a series' pooled noise, needs a series
 * along depth that a grid over other axes does not have. */
#ifndef RS_GRID_H
#define RS_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "results/row.h"
#include "analysis/series.h"

enum grid_axis { GRID_DEPTH, GRID_CLIENTS, GRID_DATA_SIZE, GRID_THREADS, GRID_NAXES };
/* The axes' names (--x, --y), in enum order. */
static const char *const grid_axis_names[] = { "depth", "clients", "data-size", "threads", NULL };

/* r's value on axis a: pipeline, clients, data_size, threads; -1 unknown
 * (a column the file did not have). */
int64_t grid_axis_value(const struct rs_rec *r, enum grid_axis a);
/* "depth" -> GRID_DEPTH ...; 0, or -1 for an unknown name (*a untouched). */
int grid_axis_parse(const char *name, enum grid_axis *a);

struct grid_cell {
	size_t n;                 /* rows in it (repeats, over runs); 0: not measured */
	double median;            /* of the metric over them; NAN when n is 0 */
	double lo, hi;            /* 95% interval of the median, by the same method the
				   * report uses for one point's median from its
				   * repeats, or for 2 to KNEE_BOOT_MIN_N - 1 of
				   * them Student's t over their logs; NAN for one */
};

struct grid {
	const char *label;        /* the rows' strings */
	const char *test;         /* series_variant()'s name without axes: "GET", "GET window" */
	char held[160];           /* the other axes' values where they vary within label x
				   * test, so that two grids never mix: "P=16", "d=1024 t=2",
				   * "[--io-threads 4]" (server_args; "[defaults]" for none),
				   * "t=?" (unknown); "" when nothing else varies */
	int64_t *xs, *ys;         /* distinct axis values, ascending */
	size_t nx, ny;
	struct grid_cell *cells;  /* [iy * nx + ix]; a cell nobody measured has n == 0 */
};

struct grid_set {
	enum grid_axis x, y;
	enum series_metric metric;
	struct grid *v;           /* label-major (labels in first-seen order), tests in the
				   * series' order (series.h), then held */
	size_t n;
};

/* The grids of rows over x and y for metric m; rows without the metric are
 * passed over, and so are rows with x or y unknown; x == y, or no row with
 * both axes known, is an error (err, RS_E_USAGE / RS_E_INPUT).  The set
 * points into rows: keep them alive while using it.  Release it with
 * grid_set_free, also after a failure (which leaves it empty).  Costs a
 * sort of the rows, and a bootstrap of each cell of KNEE_BOOT_MIN_N rows
 * or more (KNEE_DEFAULT_B resamples of its n). */
int grid_build(const struct rs_rows *rows, enum grid_axis x, enum grid_axis y,
	       enum series_metric m, struct grid_set *out, struct rs_err *err);
/* The cell at (x, y), or NULL when the grid has no such column or row. */
const struct grid_cell *grid_cell_at(const struct grid *g, int64_t x, int64_t y);
/* The grid of (label, test, held), or NULL. */
const struct grid *grid_find(const struct grid_set *set, const char *label, const char *test,
			     const char *held);
/* NULL is allowed; leaves set empty. */
void grid_set_free(struct grid_set *set);

#endif
