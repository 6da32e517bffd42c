/* row_int.h: what row.c shares with row_edit.c, inside results/. */
#ifndef RS_ROW_INT_H
#define RS_ROW_INT_H

#include <stdint.h>

#include "results/row.h"
#include "base/err.h"

/* v as a struct rs_rec figure f into *out: fixed point when that holds it
 * exactly, else an index into rows->wide; NAN is unknown.  Returns 0, or
 * -1 (err set) when rows->wide is full. */
int row_fig_put(struct rs_rows *rows, double v, enum row_fig f, uint32_t *out,
		struct rs_err *err);

#endif
