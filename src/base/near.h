/* near.h: the likely typo: which of some known names a mistyped one is
 * nearest to, for the "did you mean" of options, commands and the
 * installed sweep and plot files.  No I/O. */
#ifndef RS_NEAR_H
#define RS_NEAR_H

#include <stddef.h>

/* Names longer than this count as far from everything. */
#define NEAR_NAME_MAX 64

/* The edits (insert, delete, replace, swap two neighbours) from a[0..na)
 * to the string b; SIZE_MAX when either is longer than NEAR_NAME_MAX. */
size_t near_distance(const char *a, size_t na, const char *b);

/* Whether d edits make a likely typo of a name n characters long: at most
 * two, and fewer than half the name. */
int near_likely(size_t d, size_t n);

/* Keep the nearer of *best (at *bestd edits, SIZE_MAX: none yet) and cand
 * to name[0..n); cand is not copied.  Start with *best NULL and *bestd
 * SIZE_MAX, and end with near_likely(*bestd, n). */
void near_keep(const char *name, size_t n, const char *cand, const char **best, size_t *bestd);

#endif
