/* axis.h: the settings a run can sweep besides depth (-c, -d, --threads):
 * each a list in -P's syntax ("1,2,4", "1..64:x2"), and the points of
 * their product.
 *
 * A run sweeps every combination of the lists' values against every test
 * x depth of its plan: each combination is measured like a target of its
 * own (sweep_plan_interleave), so that the values of a point run back to
 * back, in ABBA turns.  This room parses and multiplies; no I/O. */
#ifndef RS_AXIS_H
#define RS_AXIS_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

/* Values a list may hold: a grid of 64 x 64 points is already more than
 * a sweep of two minutes can measure. */
#define AXIS_MAX_VALUES 64

struct axis_list {
	uint64_t *v;              /* in the order given, distinct */
	size_t n;
};

/* Parse s (numlist.h's syntax, each value with num.h's k/M/G suffixes
 * and in [min, max]) into out, replacing what it held.  0, or -1 with err
 * quoting the item: out of range, listed twice, more than
 * AXIS_MAX_VALUES. */
int axis_parse(const char *s, uint64_t min, uint64_t max, struct axis_list *out,
	       struct rs_err *err);
void axis_free(struct axis_list *a);
/* The largest value (0 for an empty list). */
uint64_t axis_max(const struct axis_list *a);

/* One combination of the run's axes. */
struct axis_point {
	uint64_t clients, data_size, threads;
};

/* The combinations of c x d x t that can run (threads not more than
 * clients: a thread without a connection has nothing to do), data size
 * outermost, then clients, then threads, each in its list's order, into
 * *out (free() it).  *skipped gets how many were left out.  Returns how
 * many there are. */
size_t axis_points(const struct axis_list *c, const struct axis_list *d,
		   const struct axis_list *t, struct axis_point **out, size_t *skipped);

#endif
