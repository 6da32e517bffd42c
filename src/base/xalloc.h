/* xalloc.h: allocation that cannot fail.
 *
 * Running out of memory is fatal in these wrappers (as in tmux's xmalloc.c),
 * so the rest of rsweep handles only the errors it can do something about. */
#ifndef RS_XALLOC_H
#define RS_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
/* realloc for arrays: nmemb * size, checked for overflow. */
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
/* Copy src into dst of size n, always NUL-terminated; returns -1 if it was cut. */
int xstrlcpy(char *dst, const char *src, size_t n);

#endif
