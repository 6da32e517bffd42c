/* strtab.h: a set of byte strings, each numbered in the order it was first
 * added and found again by hash in constant time.
 *
 * It interns the strings that repeat across result rows (labels, test
 * names, targets: each kept once, rows hold pointers to the copy) and
 * stands in for every "have I seen this name" scan, which made readers
 * quadratic in the number of distinct names.  Keys may hold any bytes (a
 * pair of numbers is a key too); each copy is NUL-terminated, so a
 * string's copy reads as a C string.  Copies never move: a pointer from
 * strtab_str() stays valid until strtab_free(). */
#ifndef RS_STRTAB_H
#define RS_STRTAB_H

#include <stddef.h>
#include <stdint.h>

struct strtab_chunk;

struct strtab {
	const char **str;         /* by id: the copies */
	uint32_t *len;            /* by id: their lengths */
	uint32_t *hash;           /* by id, so that growing needs no hashing */
	size_t n, cap;
	uint32_t *slot;           /* open addressing: id + 1, 0 for empty */
	size_t nslot;             /* a power of two, at least twice n */
	struct strtab_chunk *chunks; /* where the copies live */
};

/* The id of key[0..len), added with the next id if new (*added says which;
 * added may be NULL).  A zeroed struct strtab is an empty table.  Returns
 * -1 only past STRTAB_MAX keys or for a key longer than 4 GB. */
#define STRTAB_MAX 0x7FFFFFFFu
int strtab_intern(struct strtab *t, const void *key, size_t len, uint32_t *id, int *added);
/* The id of key[0..len), or -1 if it is not in t. */
int64_t strtab_find(const struct strtab *t, const void *key, size_t len);
/* The stored copy of id (NUL-terminated) and its length. */
const char *strtab_str(const struct strtab *t, uint32_t id);
size_t strtab_len(const struct strtab *t, uint32_t id);
/* Release everything; t is an empty table again. */
void strtab_free(struct strtab *t);

#endif
