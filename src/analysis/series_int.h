/* series_int.h: what series.c, series_axes.c and series_order.c share: the
 * axes of a row, as series' names write them, and the order of a set's
 * test names.  Nobody else includes it: series.h is the interface. */
#ifndef RS_SERIES_INT_H
#define RS_SERIES_INT_H

#include <stddef.h>
#include <stdint.h>

#include "results/row.h"
#include "analysis/series.h"

/* Whether rows a and b have one value on axis ax. */
int series_same_on(const struct rs_rec *a, const struct rs_rec *b, enum series_axis ax);
/* A row's value on axis a, as a name writes it ("8", "defaults" for a
 * server without arguments, "?" unknown), into buf. */
const char *series_row_axis(const struct rs_rec *r, enum series_axis a, char *buf, size_t size);
/* variant with the values of row on axes appended ("GET window c=8 d=1024
 * [io-threads 4]") into buf, or variant itself when axes is 0. */
const char *series_axes_name(const char *variant, const struct rs_rec *row, unsigned axes,
			     char *buf, size_t size);

/* What a test name of a set was first seen with: the length of its base
 * (series_variant's name) and a row, whose settings its axes have. */
struct series_test_meta {
	size_t len;
	const struct rs_rec *row;
};

/* Put set->tests in redis-benchmark's order (the catalogue's; names it
 * does not know after, as first seen), whatever order the rows came in, an
 * open loop's series of one test by offered rate, the series of one
 * variant by their axes' values; meta[t] is what test t was first seen
 * with.  Returns the new place of each old index (caller frees). */
uint32_t *series_order_tests(struct series_set *set, const struct series_test_meta *meta);

#endif
