#ifndef RSWEEP_GUARD_H
#define RSWEEP_GUARD_H

/* guard.h: the safety rule.  rsweep flushes a server only when every key
 * in scope can be its own: a server holding keys it did not write is
 * refused before anything is written, and keys that appear during a sweep
 * stop it without a flush.  Every flush in the project goes through
 * guard_flush.
 *
 * Two parts: the names (guard_names.c, pure: which keys rsweep can have
 * written) and the guarded server (guard.c: one control connection, what
 * the guard knows of the server behind it, and the flush). */

#include <stdint.h>
#include <stddef.h>

#include "base/err.h"
#include "net/target.h"

struct workload_test;

/* ---- the names ---- */

/* Which keys rsweep can have written for the tests run since the last
 * flush.  A flush goes ahead only when every key in scope has one of these
 * names (and no more keys than rsweep's own test can leave), so that a
 * foreign key cannot hide under a count.  No sockets: the guard asks the
 * server, these functions decide. */

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
/* Add the names every catalogue test writes under prefix: every key a run
 * with --key-prefix prefix can have written (a command of one's own takes
 * no prefix).  A prefix workload_prefix_check refuses adds nothing. */
void guard_names_catalogue(struct guard_names *g, const char *prefix);
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

/* ---- a guarded server ---- */

/* --flush's values, in enum order (the option table points here). */
enum guard_flush { GUARD_FLUSH_ALL, GUARD_FLUSH_DB, GUARD_FLUSH_NONE };
static const char *const guard_flush_names[] = { "all", "db", "none", NULL };

/* How a step that touches the server ended: the sweep's retry loop
 * decides from this alone. */
enum guard_step {
	GUARD_OK,
	GUARD_RETRY,              /* the server or connection failed: worth a retry */
	GUARD_FINAL,              /* retrying would fail the same way */
	GUARD_FOREIGN,            /* keys rsweep did not write: stop, and flush nothing */
};

/* What a guard is told once, for its whole life. */
struct guard_config {
	const struct target *target;
	enum guard_flush flush;
	int spawned;              /* the server is rsweep's own: no check, the first flush empties it */
	int force_flush;          /* the user said the keys it holds may go */
	int any_db;               /* a command of one's own: it may touch any database */
	/* A master of a cluster: which of how many (0 of 0: not one).  Its
	 * keys may carry a "{N}" hash tag, and its notes name it. */
	size_t master, masters;
	/* --key-prefix: every key rsweep writes starts with prefix (NULL: it
	 * flushes).  The guard then never flushes: a server whose prefix
	 * holds keys is refused, and guard_flush UNLINKs every name rsweep
	 * can have written since (keyspace numbers of a __rand_int__ name, -r;
	 * 0: the literal name); keys outside the prefix are never touched. */
	const char *prefix;
	uint64_t keyspace;
	/* The prefix is the one the file --resume continues records: keys
	 * with rsweep's names found under it at the start are what that
	 * sweep's killed run left, and go (a note says how many); any other
	 * key there is refused as without it. */
	int prefix_resumed;
	/* A master of a cluster, with a prefix: its hash tag ("{N}", which a
	 * single-key test's key gets there) and whether a key is on its
	 * slots (NULL: every key is). */
	const char *tag;
	int (*owns)(void *ud, const char *key, size_t len);
	/* Called after each connection, before the guard reads anything:
	 * whether the process there is the one meant (a cluster's master by
	 * its node id).  0 yes; -1 no, err says why, and nothing is touched.
	 * NULL: any process is. */
	int (*identify)(void *ud, struct target_conn *c, struct rs_err *err);
	/* Called with INFO server's text each time the guard connects and
	 * reads the run_id from it, so that the facts a caller keeps of the
	 * server come from the same reply, not a second one.  NULL: not wanted. */
	void (*on_server)(void *ud, const char *info);
	void *cb_ud;              /* identify's, owns' and on_server's first argument */
	/* One-line notes worth a user's attention; debug ones only with verbose. */
	void (*on_note)(void *ud, const char *msg);
	void *ud;
	int verbose;
};

/* One server rsweep may write to and flush: the control connection and
 * what the guard knows of the process behind it.  Nothing flushes through
 * c unless vetted: the guard passed for the process run_id names, read on
 * c itself.  Replacing c clears it. */
struct guard {
	struct guard_config cfg;
	struct target_conn *c;
	char run_id[48];          /* INFO server's run_id: changes when the server restarts */
	int vetted;
	int foreign;              /* keys rsweep did not write were seen: no flush, ever */
	int dirty;                /* rsweep may have written since the last flush */
	int eval_off;             /* the server will not run the check-and-flush script */
	/* Keys in scope that may be rsweep's: what the last flush left (left)
	 * and what the test since can have made (allow).  UINT64_MAX: no limit
	 * (--force-flush before the first flush, or a command whose keys have
	 * no bound). */
	uint64_t allow, left;
	char bad[80];             /* the foreign key the last check named, or "" */
	struct guard_names names;
};

/* Set g up (nothing connected); cfg is copied, its target must outlive g. */
void guard_init(struct guard *g, const struct guard_config *cfg);
/* Connect, read the process's run_id and, unless cfg.identify refuses it,
 * check the server: every database in scope empty (or the server rsweep's
 * own, or --force-flush).  Nothing is changed on the server either way.
 * Returns GUARD_OK (vetted), GUARD_RETRY (the connection failed: err),
 * GUARD_FINAL (cfg.identify refused it) or GUARD_FOREIGN (keys rsweep did
 * not write: err says which databases hold how many). */
enum guard_step guard_open(struct guard *g, struct rs_err *err);
/* After a failure: a new connection.  The same process as before keeps
 * what the guard knew; another one (a restart) is checked again, as by
 * guard_open, and one at a spawned server's address is refused
 * (GUARD_FINAL).  Returns as guard_open. */
enum guard_step guard_reconnect(struct guard *g, struct rs_err *err);
/* The last flush must still happen after a command was cut short (^C, a
 * timeout): a new connection, deaf to the stop, vetted only if it reaches
 * the process the guard checked.  0 when g->c can be used, else -1. */
int guard_again(struct guard *g, struct rs_err *err);
/* From here on the server may hold test t's keys, at most bound more than
 * the last flush left. */
void guard_written(struct guard *g, const struct workload_test *t, uint64_t bound);
/* The one way rsweep flushes: through a vetted connection, and only when
 * the server holds no more keys in scope than rsweep may have written, all
 * with rsweep's names (checked in the same script as the flush when the
 * server runs EVAL, else one round trip before it); then check it is
 * empty.  Returns GUARD_OK, GUARD_RETRY, GUARD_FOREIGN (nothing flushed,
 * and never again), or GUARD_FINAL for a connection the guard has not
 * vetted. */
enum guard_step guard_flush(struct guard *g, struct rs_err *err);
/* Whether the sweep's end should flush: rsweep may have written, the
 * server is not its own, and --flush is not none. */
int guard_dirty(const struct guard *g);
/* --key-prefix, at the end, after the last guard_flush: whether the
 * prefix is empty.  GUARD_OK; GUARD_FOREIGN with err naming a key that
 * rsweep did not write under it (left alone); GUARD_RETRY. */
enum guard_step guard_prefix_empty(struct guard *g, struct rs_err *err);
/* Keys in the guard's scope now, into *n.  0, or -1 (err). */
int guard_keys(struct guard *g, uint64_t *n, struct rs_err *err);
/* Keys rsweep did not write were seen by another check (a cluster's
 * count over its masters): never flush this server again. */
void guard_mark_foreign(struct guard *g);
void guard_close(struct guard *g);

#endif
