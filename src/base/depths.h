/* depths.h: the -P depth-list syntax.
 *
 *   16            one depth
 *   1..40         every depth from 1 to 40
 *   1..64:x2      1, 2, 4, ..., 64 (multiply by 2 each step)
 *   1..40:+4      1, 5, 9, ... (add 4 each step; the end is kept only if reached)
 *   1..16,24,32   items joined by commas, in the order given
 *
 * Depths are 1..DEPTHS_MAX_VALUE; a list has at most DEPTHS_MAX_POINTS
 * entries; duplicates are rejected.  This room parses the syntax and
 * prints it (depths_format); no I/O.
 *
 * Names, in the code of every room: a "depth" is one value P, the number
 * of requests in flight on a connection (unsigned depth, p->depth); the
 * "depths" are a list of them (struct depth_list, depths_*); "pipeline"
 * is only the option's name (-P, --pipeline) and the CSV column that
 * stores a depth (rs_row.pipeline, a file format that cannot change).
 * The engine's job says how many requests one batch holds: job->depth. */
#ifndef RS_DEPTHS_H
#define RS_DEPTHS_H

#include <stddef.h>

#include "base/err.h"

#define DEPTHS_MAX_POINTS 4096
#define DEPTHS_MAX_VALUE 1000000

struct depth_list {
	unsigned *v;
	size_t n;
};

/* Parse s into out (replacing what it held).  On error out is untouched and
 * err says what is wrong, quoting the offending item. */
int depths_parse(const char *s, struct depth_list *out, struct rs_err *err);
void depths_free(struct depth_list *d);
/* 1 if every depth is a power of two and there are at least 3 of them. */
int depths_powers_of_two(const unsigned *v, size_t n);
/* 1 if a chart of the ascending, distinct depths v[0..n) wants a log2
 * axis: three or more depths, and either all powers of two or half of them
 * or more in the first tenth of the range, where a linear axis would crowd
 * them ("1..16,24,32,...,256": 17 of 24 in the first tenth). */
int depths_log_axis(const unsigned *v, size_t n);
/* Whether d holds depth. */
int depths_contains(const struct depth_list *d, unsigned depth);
/* The shortest text of the ascending, distinct depths v[0..n) in the
 * syntax above, into buf: one range item when the steps are equal
 * ("1..64:x2"), else items with runs of three or more as a..b ("1..4,8").
 * depths_parse reads it back to v, unless it did not fit: then it ends
 * in "...". */
void depths_format(const unsigned *v, size_t n, char *buf, size_t size);

#endif
