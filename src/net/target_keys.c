/* target_keys.c: the keyspace, for the safety guard (target.h): INFO
 * keyspace read and counted, the flush checked in one script, SCAN for
 * names and for a prefix, and what rsweep clean removes.  The exchange
 * itself is target.c's. */
#include "config.h"

#include <hiredis/hiredis.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "net/target.h"
#include "base/vec.h"
#include "base/xalloc.h"

void target_keyspace_free(struct target_keyspace *ks)
{
	if (ks == NULL)
		return;
	free(ks->v);
	memset(ks, 0, sizeof *ks);
}

int target_keyspace_parse(const char *info, struct target_keyspace *ks, struct rs_err *err)
{
	const char *line = info;

	memset(ks, 0, sizeof *ks);
	while (*line) {
		size_t len = strcspn(line, "\r\n");
		char num[32];
		size_t k, d = 2;
		uint64_t db, keys;
		struct rs_err e;

		/* "db0:keys=12,expires=0,avg_ttl=0"; "# Keyspace" and blank lines. */
		if (len >= 2 && strncmp(line, "db", 2) == 0) {
			while (d < len && line[d] >= '0' && line[d] <= '9')
				d++;
			k = d + 6;
			if (d == 2 || d - 2 >= sizeof num || k > len ||
			    strncmp(line + d, ":keys=", 6) != 0)
				goto bad;
			memcpy(num, line + 2, d - 2);
			num[d - 2] = '\0';
			if (num_parse_u64(num, 0, UINT32_MAX, 0, &db, &e) < 0)
				goto bad;
			while (k < len && line[k] >= '0' && line[k] <= '9')
				k++;
			if (k == d + 6 || k - d - 6 >= sizeof num || (k < len && line[k] != ','))
				goto bad;
			memcpy(num, line + d + 6, k - d - 6);
			num[k - d - 6] = '\0';
			if (num_parse_u64(num, 0, UINT64_MAX, 0, &keys, &e) < 0)
				goto bad;
			ks->v = xreallocarray(ks->v, ks->n + 1, sizeof *ks->v);
			ks->v[ks->n].db = (unsigned)db;
			ks->v[ks->n].keys = keys;
			ks->n++;
			ks->total = keys > UINT64_MAX - ks->total ? UINT64_MAX : ks->total + keys;
		}
		line += len;
		line += strspn(line, "\r\n");
		continue;
bad:
		rs_err_set(err, "INFO keyspace has a line rsweep cannot read: '%.*s'",
			   (int)(len < 80 ? len : 80), line);
		target_keyspace_free(ks);
		return -1;
	}
	return 0;
}

uint64_t target_keyspace_db(const struct target_keyspace *ks, unsigned db)
{
	for (size_t i = 0; i < ks->n; i++)
		if (ks->v[i].db == db)
			return ks->v[i].keys;
	return 0;
}

int target_keyspace_within(const struct target_keyspace *ks, unsigned dbnum,
			   enum target_scope scope, uint64_t allow)
{
	uint64_t mine = target_keyspace_db(ks, dbnum);

	switch (scope) {
	case TARGET_SCOPE_DB:
		return mine <= allow;
	case TARGET_SCOPE_ONLY:
		return mine <= allow && ks->total == mine;
	case TARGET_SCOPE_ALL:
		return ks->total <= allow;
	}
	return 0;
}

int target_keyspace(struct target_conn *c, const struct target *t, struct target_keyspace *ks,
		    struct rs_err *err)
{
	char *info;
	int rc;

	memset(ks, 0, sizeof *ks);
	if (target_info(c, t, "keyspace", &info, err) < 0)
		return -1;
	rc = target_keyspace_parse(info, ks, err);
	free(info);
	return rc < 0 ? rs_err_prefix(err, "%s", t->desc) : 0;
}

/* The check and the flush in one script, so that no other client's command
 * can come between them.  The same rules as target_keyspace_within, and as
 * strict as target_keyspace_parse: a "db" line it cannot read stops it.
 * ARGV: dbnum, scope (db, only, all), allow (-1: no limit), 1 for FLUSHDB. */
static const char target_flush_if_lua[] =
	"local dbnum, scope, allow = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3])\n"
	"local info = redis.call('INFO', 'keyspace')\n"
	"local total, mine = 0, 0\n"
	"for line in string.gmatch(info, '[^\\r\\n]+') do\n"
	"  if string.sub(line, 1, 2) == 'db' then\n"
	"    local db, n, rest = string.match(line, '^db(%d+):keys=(%d+)(.*)$')\n"
	"    if db == nil or (rest ~= '' and string.sub(rest, 1, 1) ~= ',') then\n"
	"      return {0, info}\n"
	"    end\n"
	"    total = total + tonumber(n)\n"
	"    if tonumber(db) == dbnum then mine = tonumber(n) end\n"
	"  end\n"
	"end\n"
	"if allow >= 0 then\n"
	"  local ok = total <= allow\n"
	"  if scope == 'db' then ok = mine <= allow\n"
	"  elseif scope == 'only' then ok = mine <= allow and total == mine end\n"
	"  if not ok then return {0, info} end\n"
	"  if ARGV[5] == '1' then\n"
	"    local cur = '0'\n"
	"    repeat\n"
	"      local r = redis.call('SCAN', cur, 'COUNT', 1000)\n"
	"      cur = r[1]\n"
	"      for _, k in ipairs(r[2]) do\n"
	"        local mine = false\n"
	"        for i = 6, #ARGV do\n"
	"          if string.find(k, ARGV[i]) then mine = true; break end\n"
	"        end\n"
	"        if not mine then return {0, info, k} end\n"
	"      end\n"
	"    until cur == '0'\n"
	"  end\n"
	"end\n"
	"if ARGV[4] == '1' then redis.call('FLUSHDB') else redis.call('FLUSHALL') end\n"
	"return {1, info}\n";

int target_flush_if(struct target_conn *c, const struct target *t, int db, unsigned dbnum,
		    enum target_scope scope, uint64_t allow, const struct target_names *names,
		    struct target_keyspace *ks, char *bad, size_t badsize, struct rs_err *err)
{
	static const char *const scopes[] = { "db", "only", "all" };
	size_t n = 8 + (names != NULL ? names->n : 0);
	const char **argv = xmalloc(n * sizeof *argv);
	size_t *lens = xmalloc(n * sizeof *lens);
	char dbs[16], allows[32];
	redisReply *r;
	int rc;

	memset(ks, 0, sizeof *ks);
	if (badsize > 0)
		bad[0] = '\0';
	snprintf(dbs, sizeof dbs, "%u", dbnum);
	/* Lua counts in doubles: beyond 2^53 a limit means nothing anyway. */
	if (allow >= (uint64_t)1 << 53)
		snprintf(allows, sizeof allows, "-1");
	else
		snprintf(allows, sizeof allows, "%llu", (unsigned long long)allow);
	argv[0] = "EVAL";
	argv[1] = target_flush_if_lua;
	argv[2] = "0";
	argv[3] = dbs;
	argv[4] = scopes[scope];
	argv[5] = allows;
	argv[6] = db ? "1" : "0";
	/* Names are checked only in the database the script runs in: the
	 * scope's count has already seen every other one empty. */
	argv[7] = names != NULL && scope != TARGET_SCOPE_ALL ? "1" : "0";
	n = 8;
	for (size_t i = 0; names != NULL && i < names->n; i++)
		argv[n++] = names->pat[i];
	for (size_t i = 0; i < n; i++)
		lens[i] = strlen(argv[i]);
	rc = target_command_any(c, t, (int)n, argv, lens, &r, err);
	free(argv);
	free(lens);
	if (rc < 0)
		return -1;
	if (r->type == REDIS_REPLY_ERROR) {
		/* "unknown command 'EVAL', with args beginning with: <the script>" */
		const char *args = strstr(r->str, ", with args");
		int m = args != NULL && args - r->str < 200 ? (int)(args - r->str) : 200;

		rs_err_set(err, "%s: EVAL refused: %.*s", t->desc, m, r->str);
		freeReplyObject(r);
		return 2;
	}
	if (r->type != REDIS_REPLY_ARRAY || r->elements < 2 || r->elements > 3 ||
	    r->element[0]->type != REDIS_REPLY_INTEGER ||
	    r->element[1]->type != REDIS_REPLY_STRING) {
		/* Not what the script returns: it may not have run at all. */
		rs_err_set(err, "%s: EVAL gave an unexpected reply", t->desc);
		freeReplyObject(r);
		return 2;
	}
	rc = r->element[0]->integer == 1 ? 0 : 1;
	if (rc == 1 && r->elements == 3 && r->element[2]->type == REDIS_REPLY_STRING && badsize > 0)
		snprintf(bad, badsize, "%.*s", (int)(r->element[2]->len < 64 ? r->element[2]->len : 64),
			 r->element[2]->str);
	if (target_keyspace_parse(r->element[1]->str, ks, err) < 0)
		rc = rs_err_prefix(err, "%s", t->desc);
	freeReplyObject(r);
	return rc;
}

/* SCAN the connection's database (only the keys match, a glob, names;
 * NULL: all), COUNT 1000 a call, handing each key to each: 0 goes on, 1
 * ends the walk (returned), -1 fails it (each set err).  0 when the walk
 * went through, 1, or -1 (the connection failed, or each did).  Bounded:
 * 2^20 calls at most. */
static int target_scan(struct target_conn *c, const struct target *t, const char *match,
		       int (*each)(void *ud, const char *key, size_t len, struct rs_err *err),
		       void *ud, struct rs_err *err)
{
	char cursor[32] = "0";
	unsigned rounds = 0;

	do {
		const char *argv[] = { "SCAN", cursor, "COUNT", "1000", "MATCH", match };
		size_t lens[] = { 4, strlen(cursor), 5, 4, 5, match ? strlen(match) : 0 };
		redisReply *r, *keys;
		int rc = 0;

		if (target_command(c, t, match ? 6 : 4, argv, lens, &r, err) < 0)
			return -1;
		if (r->type != REDIS_REPLY_ARRAY || r->elements != 2 ||
		    r->element[0]->type != REDIS_REPLY_STRING || r->element[0]->len >= sizeof cursor ||
		    r->element[1]->type != REDIS_REPLY_ARRAY) {
			freeReplyObject(r);
			return rs_err_set(err, "%s: SCAN gave an unexpected reply", t->desc);
		}
		keys = r->element[1];
		for (size_t i = 0; i < keys->elements && rc == 0; i++) {
			redisReply *k = keys->element[i];

			rc = k->type == REDIS_REPLY_STRING ? each(ud, k->str, k->len, err) :
			     rs_err_set(err, "%s: SCAN gave a key that is not a string", t->desc);
		}
		memcpy(cursor, r->element[0]->str, r->element[0]->len);
		cursor[r->element[0]->len] = '\0';
		freeReplyObject(r);
		if (rc != 0)
			return rc;
	} while (strcmp(cursor, "0") != 0 && ++rounds < 1u << 20);
	return 0;
}

/* For target_scan_names and target_scan_prefix: the first key ok says no
 * to goes into bad. */
struct target_first {
	int (*ok)(void *ud, const char *key, size_t len);
	void *ud;
	char *bad;
	size_t size;
};

static int target_first_bad(void *ud, const char *key, size_t len, struct rs_err *err)
{
	struct target_first *f = ud;

	(void)err;
	if (f->ok != NULL && f->ok(f->ud, key, len))
		return 0;
	if (f->size > 0)
		snprintf(f->bad, f->size, "%.*s", (int)(len < 64 ? len : 64), key);
	return 1;
}

int target_scan_names(struct target_conn *c, const struct target *t,
		      int (*ok)(void *ud, const char *key, size_t len), void *ud, char *bad,
		      size_t badsize, struct rs_err *err)
{
	struct target_first f = { ok, ud, bad, badsize };

	if (badsize > 0)
		bad[0] = '\0';
	return target_scan(c, t, NULL, target_first_bad, &f, err);
}

/* SCAN's MATCH pattern of the keys that start with prefix: a glob, in
 * which the prefix's special characters are themselves.  Malloc'd. */
static char *target_prefix_glob(const char *prefix)
{
	size_t n = strlen(prefix);
	char *glob = xmalloc(2 * n + 2), *g = glob;

	for (size_t i = 0; i < n; i++) {
		if (strchr("*?[]\\", prefix[i]) != NULL)
			*g++ = '\\';
		*g++ = prefix[i];
	}
	*g++ = '*';
	*g = '\0';
	return glob;
}

int target_scan_prefix(struct target_conn *c, const struct target *t, const char *prefix,
		       char *first, size_t size, struct rs_err *err)
{
	struct target_first f = { NULL, NULL, first, size };
	char *glob = target_prefix_glob(prefix);
	int rc;

	if (size > 0)
		first[0] = '\0';
	rc = target_scan(c, t, glob, target_first_bad, &f, err);
	free(glob);
	return rc;
}

int target_scan_prefix_each(struct target_conn *c, const struct target *t, const char *prefix,
			    int (*each)(void *ud, const char *key, size_t len, struct rs_err *err),
			    void *ud, struct rs_err *err)
{
	char *glob = target_prefix_glob(prefix);
	int rc = target_scan(c, t, glob, each, ud, err);

	free(glob);
	return rc;
}

/* For target_unlink_prefix: the keys found, UNLINKed a batch at a time. */
struct target_found {
	struct target_conn *c;
	const struct target *t;
	int (*mine)(void *ud, const char *key, size_t len);
	void *ud;
	size_t per;
	char **v;
	size_t n, cap;
	uint64_t removed;
};

static int target_found_send(struct target_found *f, struct rs_err *err)
{
	int rc = f->n > 0 ? target_unlink(f->c, f->t, f->v, f->n, f->per, err) : 0;

	if (rc == 0)
		f->removed += f->n;
	for (size_t i = 0; i < f->n; i++)
		free(f->v[i]);
	f->n = 0;
	return rc;
}

static int target_found_add(void *ud, const char *key, size_t len, struct rs_err *err)
{
	struct target_found *f = ud;

	/* A key with a NUL in its name is not rsweep's: never written. */
	if (memchr(key, '\0', len) != NULL || (f->mine != NULL && !f->mine(f->ud, key, len)))
		return 0;
	f->v = vec_reserve(f->v, &f->cap, f->n + 1, sizeof *f->v, 1024);
	f->v[f->n] = xmalloc(len + 1);
	memcpy(f->v[f->n], key, len);
	f->v[f->n++][len] = '\0';
	/* SCAN goes on over deleted keys; a batch keeps the memory bounded
	 * and each UNLINK a point where a stop (^C) is seen. */
	return f->n < TARGET_UNLINK_BATCH ? 0 : target_found_send(f, err);
}

int target_unlink_prefix(struct target_conn *c, const struct target *t, const char *prefix,
			 int (*mine)(void *ud, const char *key, size_t len), void *ud, size_t per,
			 uint64_t *removed, struct rs_err *err)
{
	struct target_found f = { c, t, mine, ud, per, NULL, 0, 0, 0 };
	char *glob = target_prefix_glob(prefix);
	int rc = target_scan(c, t, glob, target_found_add, &f, err);

	if (rc == 0)
		rc = target_found_send(&f, err);
	for (size_t i = 0; i < f.n; i++)
		free(f.v[i]);
	free(f.v);
	free(glob);
	*removed = f.removed;
	return rc < 0 ? -1 : 0;
}
