/* vec.h: the growable array every room used to grow by hand.
 *
 * An array is three fields the caller owns (pointer, count, capacity);
 * vec_reserve makes room and the caller stores, so any element type works
 * without macros that hide assignments.  Growth doubles, so n pushes cost
 * O(n) copies in all. */
#ifndef RS_VEC_H
#define RS_VEC_H

#include <stddef.h>

/* Return v (elements of size bytes each, *cap of them allocated) grown so
 * that it holds at least want elements; *cap is updated.  v may be NULL
 * with *cap 0.  Never fails: running out of memory, or a size past
 * SIZE_MAX, is fatal as in xalloc.h.  Capacity starts at min_cap (0: 1). */
void *vec_reserve(void *v, size_t *cap, size_t want, size_t size, size_t min_cap);

#endif
