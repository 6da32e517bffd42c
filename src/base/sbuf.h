/* sbuf.h: the string builder that replaces "n += snprintf(buf + n, ...)".
 *
 * Those appenders go wrong once the text is cut: n passes the buffer's
 * size and size - n wraps.  An sbuf writes either into a fixed array the
 * caller owns (text past its size is cut, and the cut recorded) or into
 * memory it grows; it is always NUL-terminated. */
#ifndef RS_SBUF_H
#define RS_SBUF_H

#include <stddef.h>

struct sbuf {
	char *s;                  /* the text, NUL-terminated */
	size_t len;               /* bytes in s, without the NUL */
	size_t cap;               /* bytes s can hold, NUL included */
	int grow;                 /* s is ours, grown on demand */
	int cut;                  /* fixed: some text did not fit */
};

/* A builder over the caller's array buf of size bytes (size >= 1). */
void sbuf_fixed(struct sbuf *b, char *buf, size_t size);
/* A builder on the heap: free b->s with free() (or take it) when done. */
void sbuf_heap(struct sbuf *b);
/* Append n bytes of p. */
void sbuf_add(struct sbuf *b, const char *p, size_t n);
/* Append n copies of c (padding). */
void sbuf_fill(struct sbuf *b, char c, size_t n);
/* Append formatted text. */
void sbuf_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append sep first unless b is empty, then formatted text: for lists
 * "a, b, c" built one item at a time. */
void sbuf_item(struct sbuf *b, const char *sep, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
