/* numlist.h: the list syntax -P and --rate share, one home for both.
 *
 *   N           one value
 *   A..B        every value from A to B
 *   A..B:xK     A, A*K, A*K^2, ... up to B (K >= 2)
 *   A..B:+K     A, A+K, A+2K, ... up to B
 *   I,J,...     items joined by commas, in the order given
 *
 * What a value is (its range, its suffixes, its words in messages) and
 * what becomes of it are the caller's: a numlist_kind says.  No I/O. */
#ifndef RS_NUMLIST_H
#define RS_NUMLIST_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

struct numlist_kind {
	const char *noun;         /* "depth", "rate": "empty depth list" */
	/* n bytes at s as one value of the list (a bound or a step) into *v;
	 * 0, or -1 with err quoting item.  Values must stay small enough
	 * that a bound times a step fits 64 bits. */
	int (*number)(const char *s, size_t n, uint64_t *v, const char *item,
		      struct rs_err *err);
	/* Take value v of item; 0, or -1 with err set (a duplicate, too
	 * many). */
	int (*add)(void *acc, uint64_t v, const char *item, struct rs_err *err);
};

/* Expand the list s, handing each value to k->add(acc, ...) in order.
 * Returns 0, or -1 with err naming the offending item. */
int numlist_parse(const char *s, const struct numlist_kind *k, void *acc, struct rs_err *err);

#endif
