/* sbuf.c: appending to a fixed or a growing string, never past its end. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/sbuf.h"
#include "base/xalloc.h"

void sbuf_fixed(struct sbuf *b, char *buf, size_t size)
{
	b->s = buf;
	b->cap = size;
	b->len = 0;
	b->grow = 0;
	b->cut = 0;
	b->s[0] = '\0';
}

void sbuf_heap(struct sbuf *b)
{
	b->cap = 64;
	b->s = xmalloc(b->cap);
	b->len = 0;
	b->grow = 1;
	b->cut = 0;
	b->s[0] = '\0';
}

/* Make room for n more bytes and the NUL; returns how many of the n fit. */
static size_t sbuf_room(struct sbuf *b, size_t n)
{
	if (b->grow) {
		if (n >= b->cap - b->len) {
			size_t c = b->cap;

			while (n >= c - b->len)
				c *= 2;   /* xrealloc below is fatal long before c wraps */
			b->s = xrealloc(b->s, c);
			b->cap = c;
		}
		return n;
	}
	if (n >= b->cap - b->len) {
		b->cut = 1;
		return b->cap - b->len - 1;
	}
	return n;
}

void sbuf_add(struct sbuf *b, const char *p, size_t n)
{
	size_t k = sbuf_room(b, n);

	memcpy(b->s + b->len, p, k);
	b->len += k;
	b->s[b->len] = '\0';
}

void sbuf_fill(struct sbuf *b, char c, size_t n)
{
	size_t k = sbuf_room(b, n);

	memset(b->s + b->len, c, k);
	b->len += k;
	b->s[b->len] = '\0';
}

static void sbuf_vprintf(struct sbuf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return;       /* an encoding error: nothing appended */
	if ((size_t)n < b->cap - b->len) {
		b->len += (size_t)n;
		return;
	}
	if (!b->grow) {
		b->cut = 1;
		b->len = b->cap - 1;
		return;
	}
	sbuf_room(b, (size_t)n);
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	b->len += (size_t)n;
}

void sbuf_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sbuf_vprintf(b, fmt, ap);
	va_end(ap);
}

void sbuf_item(struct sbuf *b, const char *sep, const char *fmt, ...)
{
	va_list ap;

	if (b->len > 0)
		sbuf_add(b, sep, strlen(sep));
	va_start(ap, fmt);
	sbuf_vprintf(b, fmt, ap);
	va_end(ap);
}
