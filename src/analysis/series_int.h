/* series_int.h: what series.c and series_axes.c share: the axes of a row,
 * as series' names write them.  Nobody else includes it: series.h is the
 * interface. */
#ifndef RS_SERIES_INT_H
#define RS_SERIES_INT_H

#include <stddef.h>

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

#endif
