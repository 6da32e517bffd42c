/* guard.c: a guarded server (guard.h): the check before anything is
 * written, and the one flush (under --key-prefix, the one delete of
 * rsweep's own names). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/guard.h"
#include "base/log.h"
#include "base/sbuf.h"
#include "workload/workload.h"
#include "base/xalloc.h"

#define guard_note(g, ...) rs_note_to((g)->cfg.on_note, (g)->cfg.ud, __VA_ARGS__)
#define guard_debug(g, ...) do { if ((g)->cfg.verbose) guard_note(g, __VA_ARGS__); } while (0)

void guard_init(struct guard *g, const struct guard_config *cfg)
{
	memset(g, 0, sizeof *g);
	g->cfg = *cfg;
	guard_names_init(&g->names, cfg->masters > 0);
}

/* Which databases the guard counts: those a flush or the tests can touch. */
static enum target_scope guard_scope(const struct guard *g)
{
	/* A command of one's own may touch any database (MOVE, SWAPDB,
	 * FLUSHALL), and the keys it moves are still its own. */
	if (g->cfg.any_db)
		return TARGET_SCOPE_ALL;
	/* The tests write only --dbnum; FLUSHALL empties every database. */
	return g->cfg.flush == GUARD_FLUSH_ALL ? TARGET_SCOPE_ONLY : TARGET_SCOPE_DB;
}

/* "db0: 2 keys, at most 1 of them rsweep's; db3: 1 key": every database
 * that holds keys, into buf; those out of scope only with others set, and
 * marked as left alone. */
static void guard_keys_text(const struct guard *g, const struct target_keyspace *ks, int others,
			    char *buf, size_t size)
{
	enum target_scope scope = guard_scope(g);
	unsigned dbnum = g->cfg.target->dbnum;
	struct sbuf b;

	sbuf_fixed(&b, buf, size);
	for (size_t i = 0; i < ks->n && !b.cut; i++) {
		const struct target_db_keys *d = &ks->v[i];
		int out = scope == TARGET_SCOPE_DB && d->db != dbnum;

		if (out && !others)
			continue;
		sbuf_item(&b, "; ", "db%u: %llu key%s%s", d->db, (unsigned long long)d->keys,
			  d->keys == 1 ? "" : "s", out ? ", left alone" : "");
		if (g->allow > 0 && scope != TARGET_SCOPE_ALL && d->db == dbnum)
			sbuf_printf(&b, ", at most %llu of them rsweep's", (unsigned long long)g->allow);
	}
	if (g->allow > 0 && scope == TARGET_SCOPE_ALL)
		sbuf_printf(&b, "; at most %llu in all rsweep's", (unsigned long long)g->allow);
}

/* For target_unlink_prefix: a key one of rsweep's catalogue tests can
 * have written under the prefix. */
static int guard_catalogue_mine(void *ud, const char *key, size_t len)
{
	return guard_name_ok(ud, key, len);
}

/* --resume under the prefix the file records: delete what the sweep's
 * killed run left (keys with rsweep's names under it).  0, or -1 (err). */
static int guard_clear_resumed(struct guard *g, struct rs_err *err)
{
	struct guard_names names;
	uint64_t removed = 0;
	int rc;

	guard_names_init(&names, g->cfg.masters > 0);
	guard_names_catalogue(&names, g->cfg.prefix);
	rc = names.n == 0 ? 0 :
	     target_unlink_prefix(g->c, g->cfg.target, g->cfg.prefix, guard_catalogue_mine, &names,
				  g->cfg.masters > 0 ? 1 : 256, &removed, err);
	guard_names_free(&names);
	if (rc == 0 && removed > 0)
		guard_note(g, "%s: %llu key%s a killed run of this sweep left under '%s' removed",
			   g->cfg.target->desc, (unsigned long long)removed, removed == 1 ? "" : "s",
			   g->cfg.prefix);
	return rc;
}

/* --key-prefix: the prefix holds no key, whatever else the server holds. */
static enum guard_step guard_check_prefix(struct guard *g, int fresh, struct rs_err *err)
{
	const char *prefix = g->cfg.prefix;
	char first[80];
	int rc = target_scan_prefix(g->c, g->cfg.target, prefix, first, sizeof first, err);

	if (rc == 1 && g->cfg.prefix_resumed && fresh) {
		if (guard_clear_resumed(g, err) < 0)
			return GUARD_RETRY;
		rc = target_scan_prefix(g->c, g->cfg.target, prefix, first, sizeof first, err);
	}
	if (rc < 0)
		return GUARD_RETRY;
	if (rc == 0) {
		g->vetted = 1;
		return GUARD_OK;
	}
	if (g->cfg.prefix_resumed && fresh)
		rs_err_set(err, "%s holds keys under the prefix '%s' that are not names rsweep "
			   "writes ('%s' for one): they were left alone; remove them, or resume with "
			   "another prefix", g->cfg.target->desc, prefix, first);
	else
		rs_err_set(err, "%s %sholds keys under the prefix '%s' ('%s' for one): another "
			   "run's, or what a killed run left (rsweep clean --key-prefix %s removes "
			   "them). %s", g->cfg.target->desc, fresh ? "" : "is a new server process and ",
			   prefix, first, prefix,
			   fresh ? "Nothing was changed." : "It was not touched.");
	return GUARD_FOREIGN;
}

/* Check the server g->c reaches before anything is written to it (a new
 * connection to a new process too): every database in scope empty.  On
 * success g->c is vetted.  Nothing is changed either way. */
static enum guard_step guard_check(struct guard *g, int fresh, struct rs_err *err)
{
	const struct target *t = g->cfg.target;
	enum target_scope scope = guard_scope(g);
	struct target_keyspace ks;
	char what[256];
	uint64_t keys;

	g->allow = g->left = 0;
	g->dirty = 0;
	guard_names_clear(&g->names);
	if (g->cfg.spawned || g->cfg.force_flush) {
		/* Ours, or the user said its keys may go: the first flush takes them. */
		g->allow = g->cfg.spawned ? 0 : UINT64_MAX;
		g->vetted = 1;
		return GUARD_OK;
	}
	if (g->cfg.prefix != NULL)
		return guard_check_prefix(g, fresh, err);
	if (target_keyspace(g->c, t, &ks, err) < 0)
		return GUARD_RETRY;
	if (target_keyspace_within(&ks, t->dbnum, scope, 0)) {
		target_keyspace_free(&ks);
		g->vetted = 1;
		return GUARD_OK;
	}
	keys = scope == TARGET_SCOPE_DB ? target_keyspace_db(&ks, t->dbnum) : ks.total;
	guard_keys_text(g, &ks, 1, what, sizeof what);
	rs_err_set(err, "%s %sholds %llu key%s that rsweep did not write%s (%s)%s; a sweep %s %s. %s "
		   "Point rsweep at a server for benchmarks (or use --spawn), or give --force-flush "
		   "if these keys may go", t->desc, fresh ? "" : "is a new server process and ",
		   (unsigned long long)keys, keys == 1 ? "" : "s",
		   scope == TARGET_SCOPE_DB ? " in the database the sweep uses" : "", what,
		   scope == TARGET_SCOPE_ALL ? ", and a command of your own may touch any database" : "",
		   g->cfg.flush == GUARD_FLUSH_NONE ? "would overwrite or pop" : "would flush",
		   keys == 1 ? "it" : "them", fresh ? "Nothing was changed." : "It was not touched.");
	target_keyspace_free(&ks);
	return GUARD_FOREIGN;
}

/* INFO server's run_id of the process g->c reaches, into id; the whole
 * text to cfg.on_server when tell is set. */
static int guard_run_id(const struct guard *g, const struct target *t, int tell, char *id,
			size_t size, struct rs_err *err)
{
	char *info;

	if (target_info(g->c, t, "server", &info, err) < 0)
		return -1;
	target_info_field(info, "run_id", id, size);
	if (tell && g->cfg.on_server != NULL)
		g->cfg.on_server(g->cfg.cb_ud, info);
	free(info);
	return 0;
}

/* Connect to t (g's target, or one deaf to the stop), read the run_id into
 * id and, with ask set, hand INFO server to cfg.on_server and ask
 * cfg.identify.  GUARD_OK, GUARD_RETRY or GUARD_FINAL. */
static enum guard_step guard_connect(struct guard *g, const struct target *t, int ask, char *id,
				     size_t size, struct rs_err *err)
{
	target_close(g->c);
	g->c = NULL;
	g->vetted = 0;
	if (target_connect(t, &g->c, err) < 0 || guard_run_id(g, t, ask, id, size, err) < 0)
		return GUARD_RETRY;
	if (ask && g->cfg.identify != NULL && g->cfg.identify(g->cfg.cb_ud, g->c, err) < 0)
		return GUARD_FINAL;
	return GUARD_OK;
}

enum guard_step guard_open(struct guard *g, struct rs_err *err)
{
	enum guard_step st = guard_connect(g, g->cfg.target, 1, g->run_id, sizeof g->run_id, err);

	return st != GUARD_OK ? st : guard_check(g, 1, err);
}

enum guard_step guard_reconnect(struct guard *g, struct rs_err *err)
{
	const struct target *t = g->cfg.target;
	char old[sizeof g->run_id];
	enum guard_step st;

	/* The same process as before: what the guard found still holds. */
	memcpy(old, g->run_id, sizeof old);
	if ((st = guard_connect(g, t, 1, g->run_id, sizeof g->run_id, err)) != GUARD_OK)
		return st;
	if (strcmp(old, g->run_id) == 0) {
		g->vetted = 1;
		return GUARD_OK;
	}
	if (g->cfg.spawned) {
		/* rsweep's own server is gone: whatever answers at its address
		 * now (another server that took the free port) is not ours, and
		 * the spawned shortcut of the check must not pass it. */
		rs_err_setk(err, RS_E_REFUSED, "%s: the spawned server is gone and another process "
			    "answers there: not touched", t->desc);
		return GUARD_FINAL;
	}
	/* It restarted, or the address now leads to another server: none of
	 * its keys are rsweep's. */
	guard_note(g, "%s is a new server process (run_id changed): checking it again", t->desc);
	return guard_check(g, 0, err);
}

int guard_again(struct guard *g, struct rs_err *err)
{
	struct target deaf = *g->cfg.target;
	char id[sizeof g->run_id];

	if (g->c != NULL && !target_failed(g->c))
		return 0;
	/* On the way out of an interrupted run: a connection deaf to the stop,
	 * so that the guarded flush still happens (S1, S2); the run_id alone
	 * says whether it is the process the guard checked. */
	deaf.stop = NULL;
	if (guard_connect(g, &deaf, 0, id, sizeof id, err) != GUARD_OK)
		return -1;
	if (strcmp(id, g->run_id) != 0)
		return rs_err_set(err, "%s is another server process now", g->cfg.target->desc);
	g->vetted = 1;
	return 0;
}

void guard_written(struct guard *g, const struct workload_test *t, uint64_t bound)
{
	g->dirty = 1;
	g->allow = g->left > UINT64_MAX - bound ? UINT64_MAX : g->left + bound;
	guard_names_add(&g->names, t);
}

/* Seen keys rsweep did not write: say so, and never flush this server
 * again.  Returns GUARD_FOREIGN. */
static enum guard_step guard_foreign(struct guard *g, const struct target_keyspace *ks,
				     const char *when, struct rs_err *err)
{
	char what[256];

	guard_keys_text(g, ks, 0, what, sizeof what);
	if (g->bad[0] != '\0') {
		size_t n = strlen(what);

		snprintf(what + n, sizeof what - n, "; '%s' is not a name rsweep writes", g->bad);
	}
	g->foreign = 1;
	rs_err_set(err, "%s: keys rsweep did not write %s (%s): another client is writing to "
		   "this server; stopped without flushing it", g->cfg.target->desc, when, what);
	return GUARD_FOREIGN;
}

/* For target_scan_names: whether a key can be rsweep's. */
static int guard_scan_ok(void *ud, const char *key, size_t len)
{
	const struct guard *g = ud;

	return guard_name_ok(&g->names, key, len);
}

/* Keys a second the slowest server the guard expects walks (the names'
 * check) and frees (a flush): 8 us a key in a loaded 2-core box's Lua. */
#define GUARD_KEYS_PER_S 50000.0

/* g's target with room in its timeout for a check or a flush of the keys
 * the server holds now, into *out: a FLUSHALL of 5M keys takes seconds,
 * and is no server that stopped answering.  0, or -1 (err). */
static int guard_flush_target(struct guard *g, struct target *out, struct rs_err *err)
{
	struct target_keyspace ks;

	*out = *g->cfg.target;
	if (target_keyspace(g->c, out, &ks, err) < 0)
		return -1;
	out->timeout += (double)ks.total / GUARD_KEYS_PER_S;
	target_keyspace_free(&ks);
	return 0;
}

/* Check and flush in one script.  Returns GUARD_OK (flushed), GUARD_RETRY,
 * GUARD_FOREIGN, or GUARD_FINAL when the server will not run the script
 * (g->eval_off is then set: check, then flush). */
static enum guard_step guard_flush_eval(struct guard *g, int db, struct rs_err *err)
{
	struct target tt;
	const struct target *t = &tt;
	struct target_names names = { NULL, 0 };
	struct target_keyspace ks;
	enum guard_step st;
	int rc;

	if (guard_flush_target(g, &tt, err) < 0)
		return GUARD_RETRY;

	if (!g->names.unnamed)
		names.n = guard_patterns(&g->names, &names.pat);
	rc = target_flush_if(g->c, t, db, t->dbnum, guard_scope(g), g->allow,
			     g->names.unnamed ? NULL : &names, &ks, g->bad, sizeof g->bad, err);
	guard_patterns_free(names.pat, names.n);
	if (rc == 2) {
		guard_note(g, "%s; the guard checks the keys, then flushes (a write in between "
			   "goes unseen)", err->msg);
		g->eval_off = 1;
		return GUARD_FINAL;
	}
	if (rc < 0)
		return GUARD_RETRY;
	st = rc == 1 ? guard_foreign(g, &ks, "appeared during the sweep", err) : GUARD_OK;
	target_keyspace_free(&ks);
	return st;
}

/* Without EVAL: check (the count, then the names), then flush; a key
 * written in the round trip between the two goes unseen. */
static enum guard_step guard_flush_checked(struct guard *g, int db, struct rs_err *err)
{
	struct target tt;
	const struct target *t = &tt;
	enum target_scope scope = guard_scope(g);
	struct target_keyspace ks;
	int rc;

	if (guard_flush_target(g, &tt, err) < 0)
		return GUARD_RETRY;

	if (!g->cfg.spawned) {
		if (target_keyspace(g->c, t, &ks, err) < 0)
			return GUARD_RETRY;
		rc = !target_keyspace_within(&ks, t->dbnum, scope, g->allow);
		/* No key in the database: no name to check. */
		if (!rc && !g->names.unnamed && g->allow != UINT64_MAX && scope != TARGET_SCOPE_ALL &&
		    target_keyspace_db(&ks, t->dbnum) > 0) {
			rc = target_scan_names(g->c, t, guard_scan_ok, g, g->bad, sizeof g->bad, err);
			if (rc < 0) {
				target_keyspace_free(&ks);
				return GUARD_RETRY;
			}
		}
		if (rc) {
			enum guard_step st = guard_foreign(g, &ks, "appeared during the sweep", err);

			target_keyspace_free(&ks);
			return st;
		}
		target_keyspace_free(&ks);
	}
	return target_flush(g->c, t, db, err) < 0 ? GUARD_RETRY : GUARD_OK;
}

/* Names a guard_unlink batch holds before they go. */
#define GUARD_UNLINK_BATCH 8192

struct guard_batch {
	char **key;               /* GUARD_UNLINK_BATCH buffers of size bytes */
	size_t size, n, total;
};

/* Add one name to b, sending b when it is full.  0 or -1 (err). */
static int guard_batch_add(struct guard *g, struct guard_batch *b, const char *name,
			   struct rs_err *err)
{
	if (g->cfg.owns != NULL && !g->cfg.owns(g->cfg.cb_ud, name, strlen(name)))
		return 0;
	xstrlcpy(b->key[b->n++], name, b->size);
	b->total++;
	if (b->n < GUARD_UNLINK_BATCH)
		return 0;
	b->n = 0;
	/* One key a command on a cluster: UNLINK's keys must share a slot. */
	return target_unlink(g->c, g->cfg.target, b->key, GUARD_UNLINK_BATCH,
			     g->cfg.masters > 0 ? 1 : 256, err);
}

/* How many names guard_unlink_names would send: each __rand_int__ name
 * the keyspace's count of times (saturating). */
static uint64_t guard_unlink_count(const struct guard *g)
{
	uint64_t n = 0;

	for (size_t i = 0; i < g->names.n; i++) {
		uint64_t k = strstr(g->names.tmpl[i], WORKLOAD_RAND) != NULL && g->cfg.keyspace > 0 ?
			     g->cfg.keyspace : 1;

		n = n > UINT64_MAX - k ? UINT64_MAX : n + k;
	}
	return n;
}

/* UNLINK every name rsweep can have written since the last time, each
 * __rand_int__ name with each of the keyspace's numbers, in pipelined
 * batches; on a cluster's master those on its slots, and the single-key
 * tests' names with its hash tag.  The count sent into *total.  0, or -1
 * (err; a stop (^C) fails the next batch). */
static int guard_unlink_names(struct guard *g, uint64_t *total, struct rs_err *err)
{
	const char *tag = g->cfg.tag ? g->cfg.tag : "";
	struct guard_batch b = { NULL, 0, 0, 0 };
	size_t rl = strlen(WORKLOAD_RAND);
	int rc = 0;

	for (size_t i = 0; i < g->names.n; i++) {
		size_t l = strlen(g->names.tmpl[i]) + strlen(tag) + 1;

		b.size = l > b.size ? l : b.size;
	}
	b.key = xcalloc(GUARD_UNLINK_BATCH, sizeof *b.key);
	for (size_t i = 0; i < GUARD_UNLINK_BATCH; i++)
		b.key[i] = xmalloc(b.size ? b.size : 1);
	for (size_t i = 0; i < g->names.n && rc == 0; i++) {
		const char *tmpl = g->names.tmpl[i], *r = strstr(tmpl, WORKLOAD_RAND);
		char *name = xmalloc(b.size ? b.size : 1);

		if (r != NULL && g->cfg.keyspace > 0) {
			int head = (int)(r - tmpl);

			/* The engine writes WORKLOAD_RAND_LEN digits where the
			 * template has __rand_int__, as many bytes. */
			for (uint64_t k = 0; k < g->cfg.keyspace && rc == 0; k++) {
				snprintf(name, b.size, "%.*s%0*llu%s", head, tmpl, WORKLOAD_RAND_LEN,
					 (unsigned long long)k, r + rl);
				rc = guard_batch_add(g, &b, name, err);
			}
		} else {
			snprintf(name, b.size, "%s%s", tmpl, tag);
			rc = guard_batch_add(g, &b, name, err);
		}
		free(name);
	}
	if (rc == 0 && b.n > 0)
		rc = target_unlink(g->c, g->cfg.target, b.key, b.n, g->cfg.masters > 0 ? 1 : 256, err);
	for (size_t i = 0; i < GUARD_UNLINK_BATCH; i++)
		free(b.key[i]);
	free(b.key);
	*total = b.total;
	return rc;
}

/* For target_unlink_prefix: a key rsweep can have written since the last
 * delete, on this master's slots. */
static int guard_unlink_mine(void *ud, const char *key, size_t len)
{
	const struct guard *g = ud;

	return guard_name_ok(&g->names, key, len) &&
	       (g->cfg.owns == NULL || g->cfg.owns(g->cfg.cb_ud, key, len));
}

/* --key-prefix: delete every key rsweep can have written since the last
 * time, and nothing else.  Two ways, the cheaper one taken: name them
 * (one UNLINK argument a name: -r numbers for each __rand_int__ name), or
 * SCAN the prefix and UNLINK those of the keys found that have rsweep's
 * names (a walk over the database's keys, whatever -r is).  Either stops
 * at the next batch on ^C, except on the way out (guard_again's deaf
 * connection), where both are bounded by the keys the database holds. */
static enum guard_step guard_unlink(struct guard *g, struct rs_err *err)
{
	uint64_t names = guard_unlink_count(g), keys = 0, total = 0;
	struct target_keyspace ks;
	int scan = 0, rc;

	if (g->names.unnamed) {
		rs_err_set(err, "%s: with --key-prefix the keys of a command of one's own cannot be "
			   "named, so none can be deleted", g->cfg.target->desc);
		return GUARD_FINAL;
	}
	/* A batch of names is one round trip: no walk is cheaper. */
	if (names > GUARD_UNLINK_BATCH) {
		if (target_keyspace(g->c, g->cfg.target, &ks, err) < 0)
			return GUARD_RETRY;
		keys = target_keyspace_db(&ks, g->cfg.target->dbnum);
		target_keyspace_free(&ks);
		scan = keys < names;
	}
	if (scan)
		rc = target_unlink_prefix(g->c, g->cfg.target, g->cfg.prefix, guard_unlink_mine, g,
					  g->cfg.masters > 0 ? 1 : 256, &total, err);
	else
		rc = guard_unlink_names(g, &total, err);
	if (rc < 0)
		return GUARD_RETRY;
	g->dirty = 0;
	guard_names_clear(&g->names);
	g->allow = g->left = 0;
	if (scan)
		guard_debug(g, "%s: %llu keys of rsweep's under '%s' found in a SCAN of %llu and "
			    "unlinked (naming them would have taken %llu names)", g->cfg.target->desc,
			    (unsigned long long)total, g->cfg.prefix, (unsigned long long)keys,
			    (unsigned long long)names);
	else
		guard_debug(g, "%s: UNLINK of the %llu names rsweep can have written under '%s' done",
			    g->cfg.target->desc, (unsigned long long)total, g->cfg.prefix);
	return GUARD_OK;
}

enum guard_step guard_prefix_empty(struct guard *g, struct rs_err *err)
{
	char first[80];
	int rc = target_scan_prefix(g->c, g->cfg.target, g->cfg.prefix, first, sizeof first, err);

	if (rc < 0)
		return GUARD_RETRY;
	if (rc == 0)
		return GUARD_OK;
	rs_err_set(err, "%s: keys rsweep did not write are under the prefix '%s' ('%s' for one): "
		   "another client wrote there; left alone", g->cfg.target->desc, g->cfg.prefix,
		   first);
	return GUARD_FOREIGN;
}

enum guard_step guard_flush(struct guard *g, struct rs_err *err)
{
	const struct target *t = g->cfg.target;
	int db = g->cfg.flush == GUARD_FLUSH_DB;
	const char *cmd = db ? "FLUSHDB" : "FLUSHALL";
	enum target_scope scope = guard_scope(g);
	struct target_keyspace ks;
	enum guard_step st = GUARD_FINAL;
	uint64_t after;

	if (!g->vetted || g->foreign) {
		rs_err_set(err, "%s: not flushed: the guard has not passed this server", t->desc);
		return GUARD_FINAL;
	}
	if (g->cfg.prefix != NULL)
		return guard_unlink(g, err);
	g->bad[0] = '\0';
	if (!g->eval_off && !g->cfg.spawned)
		st = guard_flush_eval(g, db, err);
	if (st == GUARD_FINAL)
		st = guard_flush_checked(g, db, err);
	if (st != GUARD_OK)
		return st;
	g->dirty = 0;
	guard_names_clear(&g->names);
	/* Every point starts from nothing: check it, since a replica, a module
	 * or another client could refill the server under us. */
	if (target_keyspace(g->c, t, &ks, err) < 0)
		return GUARD_RETRY;
	after = db ? target_keyspace_db(&ks, t->dbnum) : ks.total;
	if (after != 0) {
		char when[64];

		g->allow = 0;
		snprintf(when, sizeof when, "right after %s", cmd);
		st = guard_foreign(g, &ks, when, err);
		target_keyspace_free(&ks);
		return st;
	}
	/* FLUSHDB leaves what a command of one's own moved elsewhere: its own. */
	g->left = scope == TARGET_SCOPE_ALL ? ks.total : 0;
	g->allow = g->left;
	target_keyspace_free(&ks);
	if (g->cfg.masters > 0)
		guard_debug(g, "%s: %s done, 0 keys (master %zu of %zu)", t->desc, cmd,
			    g->cfg.master + 1, g->cfg.masters);
	else
		guard_debug(g, "%s done, 0 keys", cmd);
	return GUARD_OK;
}

int guard_dirty(const struct guard *g)
{
	return g->dirty && g->c != NULL && g->cfg.flush != GUARD_FLUSH_NONE && !g->cfg.spawned;
}

int guard_keys(struct guard *g, uint64_t *n, struct rs_err *err)
{
	struct target_keyspace ks;

	if (target_keyspace(g->c, g->cfg.target, &ks, err) < 0)
		return -1;
	*n = guard_scope(g) == TARGET_SCOPE_ALL ? ks.total :
						  target_keyspace_db(&ks, g->cfg.target->dbnum);
	target_keyspace_free(&ks);
	return 0;
}

void guard_mark_foreign(struct guard *g)
{
	g->foreign = 1;
}

void guard_close(struct guard *g)
{
	target_close(g->c);
	g->c = NULL;
	guard_names_free(&g->names);
}
