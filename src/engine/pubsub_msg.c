/* pubsub_msg.c: the stamp a published message carries and the streams a
 * subscriber keeps of what it received (pubsub_msg.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "engine/pubsub_msg.h"
#include "base/xalloc.h"

static const char pubsub_hex[] = "0123456789abcdef";

static void pubsub_put_hex(char *p, uint64_t v, int digits)
{
	for (int i = digits - 1; i >= 0; i--) {
		p[i] = pubsub_hex[v & 15];
		v >>= 4;
	}
}

static int pubsub_get_hex(const char *p, int digits, uint64_t *out)
{
	uint64_t v = 0;

	for (int i = 0; i < digits; i++) {
		char c = p[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else
			return -1;
		v = v << 4 | d;
	}
	*out = v;
	return 0;
}

void pubsub_stamp_put(char *p, const struct pubsub_stamp *s)
{
	memcpy(p, PUBSUB_MAGIC, 4);
	pubsub_put_hex(p + 4, s->sent_ns, 16);
	pubsub_put_hex(p + 20, s->publisher, 8);
	pubsub_put_hex(p + 28, s->seq, 16);
}

int pubsub_stamp_get(const char *p, size_t len, struct pubsub_stamp *s)
{
	uint64_t pub;

	if (len < PUBSUB_STAMP_LEN || memcmp(p, PUBSUB_MAGIC, 4) != 0 ||
	    pubsub_get_hex(p + 4, 16, &s->sent_ns) < 0 || pubsub_get_hex(p + 20, 8, &pub) < 0 ||
	    pubsub_get_hex(p + 28, 16, &s->seq) < 0)
		return -1;
	s->publisher = (uint32_t)pub;
	return 0;
}

static int pubsub_bit(const struct pubsub_stream *st, uint64_t idx)
{
	uint64_t i = idx - st->base;

	return i / 64 < st->nwords && (st->bits[i / 64] >> (i % 64) & 1u);
}

int pubsub_stream_add(struct pubsub_stream *st, uint64_t idx)
{
	uint64_t i;

	if (idx < st->next) {
		st->dup++;
		return 0;
	}
	/* In order, nothing pending: the common case touches no bits. */
	if (idx == st->next && st->hi <= st->next) {
		st->next = st->hi = idx + 1;
		st->distinct++;
		return 1;
	}
	if (st->bits == NULL || st->hi <= st->next) {
		/* Nothing pending above next: the bits start afresh there. */
		st->base = st->next & ~(uint64_t)63;
		if (st->bits != NULL)
			memset(st->bits, 0, st->nwords * sizeof *st->bits);
	}
	i = idx - st->base;
	if (i / 64 >= st->nwords) {
		size_t n = st->nwords ? st->nwords : 1;

		while (n <= i / 64)
			n *= 2;
		st->bits = xreallocarray(st->bits, n, sizeof *st->bits);
		memset(st->bits + st->nwords, 0, (n - st->nwords) * sizeof *st->bits);
		st->nwords = n;
	}
	if (st->bits[i / 64] >> (i % 64) & 1u) {
		st->dup++;
		return 0;
	}
	st->bits[i / 64] |= (uint64_t)1 << (i % 64);
	st->distinct++;
	if (idx + 1 > st->hi)
		st->hi = idx + 1;
	while (st->next < st->hi && pubsub_bit(st, st->next))
		st->next++;
	/* Move the bits down when their first words lie below next, so that
	 * a long run after an early gap does not grow them without end. */
	if (st->next - st->base >= 64 * 64 && st->next < st->hi) {
		size_t drop = (size_t)((st->next - st->base) / 64);

		memmove(st->bits, st->bits + drop, (st->nwords - drop) * sizeof *st->bits);
		memset(st->bits + st->nwords - drop, 0, drop * sizeof *st->bits);
		st->base += (uint64_t)drop * 64;
	}
	return 1;
}

uint64_t pubsub_stream_gaps(const struct pubsub_stream *st)
{
	return st->hi - st->distinct;
}

void pubsub_stream_free(struct pubsub_stream *st)
{
	if (st == NULL)
		return;
	free(st->bits);
	memset(st, 0, sizeof *st);
}
