/* strtab.c: interned byte strings, numbered in first-seen order, by open addressing. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/strtab.h"
#include "base/xalloc.h"

/* Copies are packed into chunks of this size (a longer key gets its own). */
#define STRTAB_CHUNK 65536

struct strtab_chunk {
	struct strtab_chunk *next;
	size_t size, used;
	char data[];
};

/* FNV-1a, with a final mix so that keys differing in their last bytes do
 * not land in neighbouring slots (the probe is linear). */
static uint32_t strtab_hash(const unsigned char *p, size_t len)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 1099511628211ULL;
	}
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 32;
	return (uint32_t)h;
}

/* The slot that holds key (or the empty slot where it would go). */
static size_t strtab_probe(const struct strtab *t, const void *key, size_t len, uint32_t h)
{
	size_t mask = t->nslot - 1, i = h & mask;

	for (;;) {
		uint32_t s = t->slot[i];

		if (s == 0)
			return i;
		s--;
		if (t->hash[s] == h && t->len[s] == len && memcmp(t->str[s], key, len) == 0)
			return i;
		i = (i + 1) & mask;
	}
}

int64_t strtab_find(const struct strtab *t, const void *key, size_t len)
{
	size_t i;

	if (t->nslot == 0 || len > UINT32_MAX)
		return -1;
	i = strtab_probe(t, key, len, strtab_hash(key, len));
	return t->slot[i] ? (int64_t)t->slot[i] - 1 : -1;
}

/* Twice the slots, every id placed again from its stored hash. */
static void strtab_grow(struct strtab *t)
{
	size_t nslot = t->nslot ? 2 * t->nslot : 64, mask = nslot - 1;

	free(t->slot);
	t->slot = xcalloc(nslot, sizeof *t->slot);
	t->nslot = nslot;
	for (size_t id = 0; id < t->n; id++) {
		size_t i = t->hash[id] & mask;

		while (t->slot[i] != 0)
			i = (i + 1) & mask;
		t->slot[i] = (uint32_t)id + 1;
	}
}

/* A stable NUL-terminated copy of key. */
static const char *strtab_copy(struct strtab *t, const void *key, size_t len)
{
	struct strtab_chunk *c = t->chunks;
	char *p;

	if (c == NULL || c->size - c->used < len + 1) {
		size_t size = len + 1 > STRTAB_CHUNK ? len + 1 : STRTAB_CHUNK;

		c = xmalloc(sizeof *c + size);
		c->size = size;
		c->used = 0;
		/* A lone long key goes behind the current chunk, which may still
		 * have room for short ones. */
		if (t->chunks != NULL && size > STRTAB_CHUNK) {
			c->next = t->chunks->next;
			t->chunks->next = c;
		} else {
			c->next = t->chunks;
			t->chunks = c;
		}
	}
	p = c->data + c->used;
	memcpy(p, key, len);
	p[len] = '\0';
	c->used += len + 1;
	return p;
}

int strtab_intern(struct strtab *t, const void *key, size_t len, uint32_t *id, int *added)
{
	uint32_t h;
	size_t i;

	if (added)
		*added = 0;
	if (len > UINT32_MAX)
		return -1;
	if (t->nslot == 0)
		strtab_grow(t);
	h = strtab_hash(key, len);
	i = strtab_probe(t, key, len, h);
	if (t->slot[i] != 0) {
		*id = t->slot[i] - 1;
		return 0;
	}
	if (t->n >= STRTAB_MAX)
		return -1;
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->str = xreallocarray(t->str, t->cap, sizeof *t->str);
		t->len = xreallocarray(t->len, t->cap, sizeof *t->len);
		t->hash = xreallocarray(t->hash, t->cap, sizeof *t->hash);
	}
	t->str[t->n] = strtab_copy(t, key, len);
	t->len[t->n] = (uint32_t)len;
	t->hash[t->n] = h;
	*id = (uint32_t)t->n++;
	/* At most half full: probes stay short. */
	if (2 * t->n > t->nslot)
		strtab_grow(t);
	else
		t->slot[i] = *id + 1;
	if (added)
		*added = 1;
	return 0;
}

const char *strtab_str(const struct strtab *t, uint32_t id)
{
	return t->str[id];
}

size_t strtab_len(const struct strtab *t, uint32_t id)
{
	return t->len[id];
}

void strtab_free(struct strtab *t)
{
	struct strtab_chunk *c, *next;

	if (t == NULL)
		return;
	for (c = t->chunks; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	free(t->str);
	free(t->len);
	free(t->hash);
	free(t->slot);
	memset(t, 0, sizeof *t);
}
