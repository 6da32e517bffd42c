#ifndef RSWEEP_GUARD_H
#define RSWEEP_GUARD_H

/* The guard's names: which keys rsweep can have written for the tests run
 * since the last flush.  A flush goes ahead only when every key in scope
 * has one of these names (and, as before, no more keys than rsweep's own
 * test can leave), so that a foreign key cannot hide under a count.  No
 * sockets here: the sweep asks the server, these functions decide. */

#include <stddef.h>

struct workload_test;

struct guard_names {
	char **tmpl;              /* a key argument, each __rand_int__ still literal */
	size_t n;
	int tagged;               /* a cluster's master: a "{N}" hash tag may follow */
	int unnamed;              /* a command of one's own: its keys cannot be named */
};

/* Start empty: nothing written, so no key is rsweep's. */
void guard_names_init(struct guard_names *g, int tagged);
/* Add the names test t writes (its key argument; every catalogue test
 * writes and prepares only that one).  A custom command (after --) makes
 * g unnamed: the guard can then only count. */
void guard_names_add(struct guard_names *g, const struct workload_test *t);
/* Forget every name (after a flush that left nothing). */
void guard_names_clear(struct guard_names *g);
void guard_names_free(struct guard_names *g);
/* Whether key (len bytes) can be rsweep's: 1 yes, 0 no; always 1 when g
 * is unnamed.  A __rand_int__ matches itself (keyspace 0) or a run of
 * digits. */
int guard_name_ok(const struct guard_names *g, const char *key, size_t len);
/* The same rule as Lua patterns for the check-and-flush script, anchored:
 * malloc'd array of malloc'd strings into *out, their count returned
 * (0 for a g that names nothing).  Free with guard_patterns_free. */
size_t guard_patterns(const struct guard_names *g, char ***out);
void guard_patterns_free(char **p, size_t n);

#endif
