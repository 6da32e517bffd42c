/* test_workload.c: command templates and preparation of each test. */
#include "config.h"

#include <criterion/criterion.h>
#include <hiredis/hiredis.h>
#include <stdlib.h>
#include <string.h>

#include "workload/workload.h"

static const struct workload_test *find(const struct workload *w, const char *name)
{
	for (size_t i = 0; i < w->n; i++)
		if (strcmp(w->v[i].name, name) == 0)
			return &w->v[i];
	abort();                  /* a test asked for a test it did not select */
}

Test(workload, all_nineteen_tests_by_default)
{
	struct workload w;
	struct rs_err err;

	cr_assert_eq(workload_select(NULL, 3, &w, &err), 0);
	cr_assert_eq(w.n, 19);
	workload_free(&w);
}

Test(workload, templates_have_redis_benchmarks_shape)
{
	struct workload w;
	struct rs_err err;
	const struct workload_test *t;

	cr_assert_eq(workload_select("ping,get,set,mset,lrange,zadd", 5, &w, &err), 0, "%s", err.msg);
	cr_assert_eq(w.n, 10);   /* 2 pings + get + set + mset + 4 lrange + zadd */
	t = find(&w, "PING_INLINE");
	cr_assert_str_eq(t->cmd, "PING\r\n");
	t = find(&w, "PING_MBULK");
	cr_assert_str_eq(t->cmd, "*1\r\n$4\r\nPING\r\n");
	t = find(&w, "SET");
	cr_assert_str_eq(t->cmd, "*3\r\n$3\r\nSET\r\n$16\r\nkey:__rand_int__\r\n$5\r\nxxxxx\r\n");
	cr_assert_eq(t->nrand, 1);
	cr_assert_eq(memcmp(t->cmd + t->rand_off[0], "__rand_int__", 12), 0);
	cr_assert_str_eq(t->cmdstat, "set");
	t = find(&w, "GET");
	cr_assert_eq(t->prep, PREP_STRINGS);
	t = find(&w, "MSET");
	cr_assert_eq(t->nrand, 10);
	t = find(&w, "LRANGE_500");
	cr_assert(strstr(t->cmd, "$3\r\n449\r\n") != NULL);
	workload_free(&w);
}

Test(workload, unknown_test_is_an_error)
{
	struct workload w;
	struct rs_err err;

	cr_assert_eq(workload_select("get,gett", 3, &w, &err), -1);
	cr_assert(strncmp(err.msg, "unknown test 'gett'", 19) == 0, "%s", err.msg);
}

Test(workload, custom_command)
{
	struct workload w;
	struct rs_err err;
	char *argv[] = { "SET", "k:__rand_int__", "v", NULL };

	cr_assert_eq(workload_custom(3, argv, &w, &err), 0);
	cr_assert_str_eq(w.v[0].name, "SET k:__rand_int__ v");
	cr_assert_str_eq(w.v[0].cmdstat, "set");
	cr_assert_eq(w.v[0].nrand, 1);
	workload_free(&w);
}

Test(workload, the_unknown_test_message_lists_every_name)
{
	const char *const *names = workload_names();
	struct workload w;
	struct rs_err err;

	cr_assert_eq(workload_select("gett", 3, &w, &err), -1);
	for (size_t i = 0; names[i] != NULL; i++) {
		char lower[64];
		size_t k;

		for (k = 0; names[i][k] && k + 1 < sizeof lower; k++)
			lower[k] = (char)(names[i][k] >= 'A' && names[i][k] <= 'Z' ? names[i][k] + 32
										    : names[i][k]);
		lower[k] = '\0';
		cr_assert(strstr(err.msg, lower) != NULL, "%s missing from: %s", lower, err.msg);
	}
	cr_assert(strstr(err.msg, "(known: ping, ping_inline, ping_mbulk, set, get,") != NULL,
		  "groups first, then catalogue order: %s", err.msg);
	cr_assert(strstr(err.msg, "lrange, lrange_100,") != NULL, "%s", err.msg);
}

/* Preparation is valid RESP: parse it back with hiredis' reader. */
static size_t count_commands(const char *buf, size_t len)
{
	redisReader *r = redisReaderCreate();
	void *reply;
	size_t n = 0;

	redisReaderFeed(r, buf, len);
	while (redisReaderGetReply(r, &reply) == REDIS_OK && reply != NULL) {
		freeReplyObject(reply);
		n++;
	}
	redisReaderFree(r);
	return n;
}

Test(workload, preparation_covers_every_request)
{
	struct workload w;
	struct rs_err err;
	char *buf = NULL;
	size_t len, n;

	cr_assert_eq(workload_select("lpop,spop,zpopmin,lrange_600,get,set", 3, &w, &err), 0);
	cr_assert_eq(workload_prepare_cmds(find(&w, "LPOP"), 2500, 0, 3, &buf, &len, &n, &err), 0);
	cr_assert_eq(n, 3);      /* 1000 + 1000 + 500 elements */
	cr_assert_eq(count_commands(buf, len), 3);
	cr_assert_eq(workload_prepare_cmds(find(&w, "ZPOPMIN"), 10, 0, 3, &buf, &len, &n, &err), 0);
	cr_assert(strstr(buf, "ZADD") != NULL);
	cr_assert_eq(workload_prepare_cmds(find(&w, "GET"), 10, 0, 3, &buf, &len, &n, &err), 0);
	cr_assert(memmem(buf, len, "key:__rand_int__", 16) != NULL);
	cr_assert_eq(workload_prepare_cmds(find(&w, "GET"), 10, 2500, 3, &buf, &len, &n, &err), 0);
	cr_assert_eq(n, 3);
	cr_assert(memmem(buf, len, "key:000000002499", 16) != NULL);
	cr_assert_eq(workload_prepare_cmds(find(&w, "SET"), 10, 0, 3, &buf, &len, &n, &err), 0);
	cr_assert_eq(n, 0);
	cr_assert_eq(workload_prepare_cmds(find(&w, "GET"), 10, 1000000000, 3, &buf, &len, &n,
					   &err), -1);
	free(buf);
	workload_free(&w);
}

Test(workload, key_bounds_count_what_each_test_can_write)
{
	struct workload w;
	struct rs_err err;
	char *set[] = { "SET", "k:__rand_int__", "v", NULL };
	char *mset[] = { "MSET", "a:__rand_int__:__rand_int__", "v", NULL };
	char *eval[] = { "eval", "return 1", "0", NULL };

	cr_assert_eq(workload_select("ping,get,set,lpop,hset,mset", 3, &w, &err), 0, "%s", err.msg);
	/* PING writes nothing. */
	cr_assert_eq(workload_key_bound(find(&w, "PING_INLINE"), UINT64_MAX, 1000, 1), 0);
	cr_assert_eq(workload_key_bound(find(&w, "PING_MBULK"), UINT64_MAX, 1000, 1), 0);
	/* Fixed keys (-r 0): the one literal key:__rand_int__. */
	cr_assert_eq(workload_key_bound(find(&w, "GET"), 100000, 0, 1), 1);
	cr_assert_eq(workload_key_bound(find(&w, "SET"), 100000, 0, 1), 1);
	/* GET reads what preparation wrote: the whole keyspace, or nothing. */
	cr_assert_eq(workload_key_bound(find(&w, "GET"), 10, 1000, 1), 1000);
	cr_assert_eq(workload_key_bound(find(&w, "GET"), 10, 1000, 0), 0);
	/* SET: a key per request, at most the keyspace. */
	cr_assert_eq(workload_key_bound(find(&w, "SET"), 10, 1000, 1), 10);
	cr_assert_eq(workload_key_bound(find(&w, "SET"), UINT64_MAX, 1000, 1), 1000);
	/* MSET: ten a request. */
	cr_assert_eq(workload_key_bound(find(&w, "MSET"), 10, 1000, 1), 100);
	/* One key, whatever the members: mylist, myhash. */
	cr_assert_eq(workload_key_bound(find(&w, "LPOP"), UINT64_MAX, 1000, 1), 1);
	cr_assert_eq(workload_key_bound(find(&w, "HSET"), UINT64_MAX, 1000, 1), 1);
	workload_free(&w);

	/* A command of one's own: any argument may be a key. */
	cr_assert_eq(workload_custom(3, set, &w, &err), 0);
	cr_assert(w.v[0].custom);
	cr_assert_eq(workload_key_bound(&w.v[0], 10, 1000, 1), 20);
	cr_assert_eq(workload_key_bound(&w.v[0], UINT64_MAX, 1000, 1), 1001);
	cr_assert_eq(workload_key_bound(&w.v[0], UINT64_MAX, 0, 1), 2);
	workload_free(&w);
	/* Two __rand_int__ in one name: no bound on names, only on requests. */
	cr_assert_eq(workload_custom(3, mset, &w, &err), 0);
	cr_assert_eq(workload_key_bound(&w.v[0], 10, 1000, 1), 20);
	cr_assert_eq(workload_key_bound(&w.v[0], UINT64_MAX, 1000, 1), UINT64_MAX);
	workload_free(&w);
	/* A script can write keys no argument names: no bound at all. */
	cr_assert_eq(workload_custom(3, eval, &w, &err), 0);
	cr_assert_eq(workload_key_bound(&w.v[0], 1, 0, 1), UINT64_MAX);
	workload_free(&w);
}

/* ---- --key-prefix ---- */

/* The arguments of the one RESP command in buf[0..len), as hiredis parses
 * it (a command is an array of bulk strings, as a reply can be). */
static redisReply *parse_one(const char *buf, size_t len)
{
	redisReader *r = redisReaderCreate();
	void *reply = NULL;

	redisReaderFeed(r, buf, len);
	cr_assert_eq(redisReaderGetReply(r, &reply), REDIS_OK);
	cr_assert_not_null(reply, "a whole command");
	redisReaderFree(r);
	cr_assert_eq(((redisReply *)reply)->type, REDIS_REPLY_ARRAY);
	return reply;
}

/* Which arguments of a catalogue command are keys, written out here
 * rather than taken from the catalogue, so that a wrong mask fails. */
static int is_key_arg(const char *test, size_t i)
{
	if (strcmp(test, "PING_MBULK") == 0)
		return 0;
	if (strcmp(test, "MSET") == 0)
		return i % 2 == 1;
	return i == 1;
}

static const char long_prefix[] =
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abc__r";

Test(workload_prefix, every_key_and_nothing_else_carries_the_prefix)
{
	/* "x__rand_int_" holds most of __rand_int__: no false match where it
	 * meets the key. */
	const char *prefixes[] = { "rsw:", "p", "x__rand_int_", long_prefix };
	struct workload plain, pre;
	struct rs_err err;

	cr_assert_eq(strlen(long_prefix), WORKLOAD_PREFIX_MAX);
	cr_assert_eq(workload_select(NULL, 3, &plain, &err), 0, "%s", err.msg);
	for (size_t k = 0; k < sizeof prefixes / sizeof prefixes[0]; k++) {
		const char *pfx = prefixes[k];
		size_t plen = strlen(pfx);

		cr_assert_eq(workload_select_prefix(NULL, 3, pfx, &pre, &err), 0, "%s", err.msg);
		cr_assert_eq(pre.n, plain.n);
		for (size_t i = 0; i < plain.n; i++) {
			const struct workload_test *a = &plain.v[i], *b = &pre.v[i];
			redisReply *ra, *rb;
			size_t nkeys = 0;

			cr_assert_str_eq(b->name, a->name);
			cr_assert_str_eq(b->prefix, pfx);
			cr_assert_str_eq(a->prefix, "");
			cr_assert_eq(b->nrand, a->nrand, "%s under '%s'", b->name, pfx);
			cr_assert_eq(b->key_fixed, a->key_fixed);
			cr_assert_eq(b->key_rand, a->key_rand);
			cr_assert_eq(b->key_per_request, a->key_per_request);
			for (size_t r = 0; r < b->nrand; r++) {
				cr_assert_leq(b->rand_off[r] + 12, b->len);
				cr_assert_eq(memcmp(b->cmd + b->rand_off[r], "__rand_int__", 12), 0,
					     "%s under '%s': offset %zu", b->name, pfx, b->rand_off[r]);
				cr_assert(r == 0 || b->rand_off[r] >= b->rand_off[r - 1] + 12);
			}
			if (strcmp(a->name, "PING_INLINE") == 0) {
				cr_assert_eq(b->len, a->len);
				cr_assert_eq(memcmp(b->cmd, a->cmd, a->len), 0);
				continue;
			}
			ra = parse_one(a->cmd, a->len);
			rb = parse_one(b->cmd, b->len);
			cr_assert_eq(rb->elements, ra->elements);
			for (size_t j = 0; j < ra->elements; j++) {
				const redisReply *ea = ra->element[j], *eb = rb->element[j];

				if (is_key_arg(a->name, j)) {
					nkeys++;
					cr_assert_eq(eb->len, plen + ea->len);
					cr_assert_eq(memcmp(eb->str, pfx, plen), 0);
					cr_assert_eq(memcmp(eb->str + plen, ea->str, ea->len), 0,
						     "%s argument %zu", a->name, j);
				} else {
					cr_assert_eq(eb->len, ea->len, "%s argument %zu", a->name, j);
					cr_assert_eq(memcmp(eb->str, ea->str, ea->len), 0,
						     "%s argument %zu is not a key", a->name, j);
				}
			}
			cr_assert_eq(nkeys, strcmp(a->name, "MSET") == 0 ? 10 :
				     strcmp(a->name, "PING_MBULK") == 0 ? 0 : 1);
			freeReplyObject(ra);
			freeReplyObject(rb);
		}
		workload_free(&pre);
	}
	workload_free(&plain);
}

Test(workload_prefix, no_prefix_is_workload_select_byte_for_byte)
{
	const char *none[] = { NULL, "" };
	struct workload plain, pre;
	struct rs_err err;

	cr_assert_eq(workload_select(NULL, 7, &plain, &err), 0, "%s", err.msg);
	for (size_t k = 0; k < 2; k++) {
		cr_assert_eq(workload_select_prefix(NULL, 7, none[k], &pre, &err), 0, "%s", err.msg);
		cr_assert_eq(pre.n, plain.n);
		for (size_t i = 0; i < plain.n; i++) {
			cr_assert_eq(pre.v[i].len, plain.v[i].len);
			cr_assert_eq(memcmp(pre.v[i].cmd, plain.v[i].cmd, plain.v[i].len), 0);
			cr_assert_eq(pre.v[i].nrand, plain.v[i].nrand);
			for (size_t r = 0; r < plain.v[i].nrand; r++)
				cr_assert_eq(pre.v[i].rand_off[r], plain.v[i].rand_off[r]);
			cr_assert_str_eq(pre.v[i].prefix, "");
		}
		workload_free(&pre);
	}
	cr_assert_str_eq(workload_prepare_key(find(&plain, "LPOP")), "mylist");
	cr_assert_str_eq(workload_prepare_key(find(&plain, "SPOP")), "myset");
	cr_assert_str_eq(workload_prepare_key(find(&plain, "ZPOPMIN")), "myzset");
	workload_free(&plain);
}

Test(workload_prefix, custom_commands_are_sent_as_given)
{
	struct workload w;
	struct rs_err err;
	char *argv[] = { "SET", "k:__rand_int__", "v", NULL };

	cr_assert_eq(workload_custom(3, argv, &w, &err), 0);
	cr_assert_str_eq(w.v[0].prefix, "");
	workload_free(&w);
}

Test(workload_prefix, the_prepared_key_is_prefixed)
{
	struct workload w;
	struct rs_err err;

	cr_assert_eq(workload_select_prefix("lpop,rpop,lrange,spop,zpopmin,get,set,ping", 3, "rsw:",
					    &w, &err), 0, "%s", err.msg);
	cr_assert_str_eq(workload_prepare_key(find(&w, "LPOP")), "rsw:mylist");
	cr_assert_str_eq(workload_prepare_key(find(&w, "RPOP")), "rsw:mylist");
	cr_assert_str_eq(workload_prepare_key(find(&w, "LRANGE_600")), "rsw:mylist");
	cr_assert_str_eq(workload_prepare_key(find(&w, "SPOP")), "rsw:myset");
	cr_assert_str_eq(workload_prepare_key(find(&w, "ZPOPMIN")), "rsw:myzset");
	cr_assert_null(workload_prepare_key(find(&w, "GET")));
	cr_assert_null(workload_prepare_key(find(&w, "SET")));
	cr_assert_null(workload_prepare_key(find(&w, "PING_MBULK")));
	workload_free(&w);
}

/* Every command of a preparation writes keys under pfx only: the key
 * arguments (SET's 1, MSET's odd ones, RPUSH/SADD/ZADD's 1) start with
 * it, and nothing else does.  Returns the number of commands. */
static size_t check_prepared(const char *buf, size_t len, const char *pfx, const char *verb)
{
	redisReader *r = redisReaderCreate();
	size_t plen = strlen(pfx), n = 0;
	void *v;

	redisReaderFeed(r, buf, len);
	while (redisReaderGetReply(r, &v) == REDIS_OK && v != NULL) {
		redisReply *c = v;

		cr_assert_eq(c->type, REDIS_REPLY_ARRAY);
		cr_assert_str_eq(c->element[0]->str, verb);
		for (size_t j = 1; j < c->elements; j++) {
			int key = strcmp(verb, "MSET") == 0 ? j % 2 == 1 : j == 1;
			int has = c->element[j]->len >= plen && memcmp(c->element[j]->str, pfx, plen) == 0;

			cr_assert_eq(has, key, "%s argument %zu: %s", verb, j, c->element[j]->str);
		}
		freeReplyObject(c);
		n++;
	}
	redisReaderFree(r);
	return n;
}

Test(workload_prefix, preparation_writes_prefixed_keys_only)
{
	const char *prefixes[] = { "rsw:", long_prefix };
	struct rs_err err;

	for (size_t k = 0; k < 2; k++) {
		const char *pfx = prefixes[k];
		struct workload w;
		char *buf = NULL, want[128];
		size_t len, n;

		cr_assert_eq(workload_select_prefix("get,lpop,lrange_100,spop,zpopmin", 3, pfx, &w, &err),
			     0, "%s", err.msg);
		/* GET with -r 0 reads the one literal key. */
		cr_assert_eq(workload_prepare_cmds(find(&w, "GET"), 10, 0, 3, &buf, &len, &n, &err), 0);
		cr_assert_eq(n, 1);
		cr_assert_eq(check_prepared(buf, len, pfx, "SET"), 1);
		snprintf(want, sizeof want, "%skey:__rand_int__", pfx);
		cr_assert(memmem(buf, len, want, strlen(want)) != NULL);
		/* With -r 2500: every key of the keyspace, in three MSETs. */
		cr_assert_eq(workload_prepare_cmds(find(&w, "GET"), 10, 2500, 3, &buf, &len, &n, &err),
			     0);
		cr_assert_eq(n, 3);
		cr_assert_eq(check_prepared(buf, len, pfx, "MSET"), 3);
		snprintf(want, sizeof want, "%skey:000000002499", pfx);
		cr_assert(memmem(buf, len, want, strlen(want)) != NULL);
		snprintf(want, sizeof want, "%skey:000000000000", pfx);
		cr_assert(memmem(buf, len, want, strlen(want)) != NULL);
		cr_assert_null(memmem(buf, len, "\r\nkey:", 6), "no key outside the prefix");
		/* Lists, sets, sorted sets: the one key, members as they were. */
		cr_assert_eq(workload_prepare_cmds(find(&w, "LPOP"), 2500, 0, 3, &buf, &len, &n, &err),
			     0);
		cr_assert_eq(check_prepared(buf, len, pfx, "RPUSH"), 3);
		cr_assert_eq(workload_prepare_cmds(find(&w, "LRANGE_100"), 1, 0, 3, &buf, &len, &n,
						   &err), 0);
		cr_assert_eq(check_prepared(buf, len, pfx, "RPUSH"), 1);
		cr_assert_eq(workload_prepare_cmds(find(&w, "SPOP"), 1500, 0, 3, &buf, &len, &n, &err),
			     0);
		cr_assert_eq(check_prepared(buf, len, pfx, "SADD"), 2);
		cr_assert(memmem(buf, len, "\r\nelement:000000001499\r\n", 24) != NULL);
		cr_assert_eq(workload_prepare_cmds(find(&w, "ZPOPMIN"), 10, 0, 3, &buf, &len, &n, &err),
			     0);
		cr_assert_eq(check_prepared(buf, len, pfx, "ZADD"), 1);
		cr_assert(memmem(buf, len, "\r\n9\r\n$20\r\nelement:000000000009\r\n", 31) != NULL);
		cr_assert_null(memmem(buf, len, "\r\nmyzset", 8));
		cr_assert_null(memmem(buf, len, "\r\nmylist", 8));
		free(buf);
		workload_free(&w);
	}
}

Test(workload_prefix, sizes_count_the_prefix)
{
	struct workload w;
	struct workload_memory plain, pre;
	struct rs_err err;

	/* Preparation: 50M values of 85 bytes fit in 4 GiB, with 4 more
	 * bytes on each key they do not. */
	cr_assert_eq(workload_select_prefix("get", 85, NULL, &w, &err), 0);
	cr_assert_eq(workload_prepare_check(&w.v[0], 1, 50000000, 85, &err), 0, "%s", err.msg);
	workload_free(&w);
	cr_assert_eq(workload_select_prefix("get", 85, "rsw:", &w, &err), 0);
	cr_assert_eq(workload_prepare_check(&w.v[0], 1, 50000000, 85, &err), -1);
	cr_assert_str_eq(err.msg, "GET would need 4450000000 bytes prepared (more than 4 GiB): use "
			 "a smaller -d, -r or -n");
	workload_free(&w);
	/* Request buffers: a SET is 4 bytes longer, in each of P copies and
	 * the template; an MSET 40. */
	cr_assert_eq(workload_memory("set", 3, 10, 1, 0, &plain, &err), 0);
	cr_assert_eq(workload_memory_prefix("set", "rsw:", 3, 10, 1, 0, &pre, &err), 0);
	cr_assert_eq(pre.bytes, plain.bytes + 11 * 4);
	cr_assert_eq(workload_memory("mset", 3, 10, 1, 0, &plain, &err), 0);
	cr_assert_eq(workload_memory_prefix("mset", "rsw:", 3, 10, 1, 0, &pre, &err), 0);
	cr_assert_eq(pre.bytes, plain.bytes + 11 * 40);
	cr_assert_eq(workload_memory_prefix("mset", "", 3, 10, 1, 0, &pre, &err), 0);
	cr_assert_eq(pre.bytes, plain.bytes);
	cr_assert_eq(workload_memory_check_prefix("set", "a b", 3, 10, 1, 0, &err), -1);
	cr_assert(strstr(err.msg, "blank") != NULL, "%s", err.msg);
}

Test(workload_prefix, bad_prefixes_are_refused_with_their_reason)
{
	static const struct {
		const char *prefix, *msg;
	} bad[] = {
		{ "", "key prefix is empty" },
		{ "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef!",
		  "key prefix is 65 bytes, longer than 64" },
		{ "rsw run:", "key prefix 'rsw run:' holds a blank (space) at byte 4" },
		{ "rsw\t:", "key prefix 'rsw\\t:' holds a blank (tab) at byte 4" },
		{ "rsw\n", "key prefix 'rsw\\n' holds control character 0x0a at byte 4" },
		{ "\x7frsw", "key prefix '\\x7frsw' holds control character 0x7f at byte 1" },
		{ "{rsw}:", "key prefix '{rsw}:' holds '{': a hash tag would move every key of a "
			    "cluster into one slot" },
		{ "rsw}:", "key prefix 'rsw}:' holds '}': a hash tag would move every key of a "
			   "cluster into one slot" },
		{ "a__rand_int__:", "key prefix 'a__rand_int__:' holds __rand_int__, which every "
				    "request would carry as random digits" },
	};
	struct workload w;
	struct rs_err err;

	cr_assert_eq(workload_prefix_check(long_prefix, &err), 0);
	cr_assert_eq(workload_prefix_check("rsw:bench:", &err), 0);
	cr_assert_eq(workload_prefix_check("r\xc3\xa9sultat:", &err), 0, "UTF-8 is fine");
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		memset(&err, 0, sizeof err);
		cr_assert_eq(workload_prefix_check(bad[i].prefix, &err), -1, "%s", bad[i].prefix);
		cr_assert_str_eq(err.msg, bad[i].msg);
		cr_assert_eq(err.kind, RS_E_USAGE);
		if (bad[i].prefix[0] == '\0')
			continue;         /* "" selects without a prefix */
		memset(&err, 0, sizeof err);
		cr_assert_eq(workload_select_prefix("set", 3, bad[i].prefix, &w, &err), -1);
		cr_assert_str_eq(err.msg, bad[i].msg);
		cr_assert_eq(w.n, 0);
		cr_assert_null(w.v);
	}
}

/* ---- mixes (issue 29) ---- */

Test(workload_mix, a_mix_is_one_test_among_plain_ones)
{
	struct workload w;
	struct rs_err err = { 0 };
	const struct workload_test *t;
	char spec[128];

	cr_assert_eq(workload_select("get,mix:get=80,set=20,incr", 3, &w, &err), 0, "%s", err.msg);
	cr_assert_eq(w.n, 3);
	cr_assert_str_eq(w.v[0].name, "GET");
	cr_assert_str_eq(w.v[1].name, "MIX_GET80_SET20");
	cr_assert_str_eq(w.v[2].name, "INCR");
	t = &w.v[1];
	cr_assert_eq(t->nmembers, 2);
	cr_assert_str_eq(t->members[0].name, "GET");
	cr_assert_str_eq(t->members[1].name, "SET");
	cr_assert_eq(t->weights[0], 80);
	cr_assert_eq(t->weights[1], 20);
	/* No bytes of its own: the engine draws the members'. */
	cr_assert_null(t->cmd);
	cr_assert_eq(t->len, t->members[0].len > t->members[1].len ? t->members[0].len :
		     t->members[1].len);
	cr_assert_eq(t->expect, t->members[0].expect | t->members[1].expect);
	cr_assert_str_eq(t->cmdstat, "");
	workload_mix_spec(t, spec, sizeof spec);
	cr_assert_str_eq(spec, "get=80,set=20");
	workload_mix_spec(&w.v[0], spec, sizeof spec);
	cr_assert_str_eq(spec, "");
	workload_free(&w);
	/* Any case, blanks after commas, members in the order given. */
	cr_assert_eq(workload_select("MIX:Set=1, lrange_100=3", 3, &w, &err), 0, "%s", err.msg);
	cr_assert_eq(w.n, 1);
	cr_assert_str_eq(w.v[0].name, "MIX_SET1_LRANGE_1003");
	workload_free(&w);
	/* A mix given twice is one test, as a name given twice is. */
	cr_assert_eq(workload_select("mix:get=1,set=1,mix:get=1,set=1", 3, &w, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(w.n, 1);
	workload_free(&w);
}

Test(workload_mix, bad_mixes_name_their_problem)
{
	static const struct {
		const char *list, *says;
	} bad[] = {
		{ "mix:get=80", "one member" },
		{ "mix:get=80,get=20", "named twice" },
		{ "mix:get=80,nosuch=20", "unknown test 'nosuch'" },
		{ "mix:get=0,set=20", "out of range" },
		{ "mix:get=80,set=-1", "not a positive integer" },
		{ "mix:get=80,set=2x", "not a positive integer" },
		{ "mix:get=80,set=", "not a positive integer" },
		{ "mix:get=80,set=1000001", "out of range" },
		{ "mix:get,set=1", "no weight" },
		{ "mix:", "empty member" },
		{ "mix:lrange=1,get=1", "names several tests" },
		{ "mix:=1,get=1", "no test name" },
		{ "mix:ping_inline=1,ping_mbulk=1,set=1,get=1,incr=1,lpush=1,rpush=1,lpop=1,rpop=1,"
		  "sadd=1,hset=1,spop=1,zadd=1,zpopmin=1,lrange_100=1,lrange_300=1,lrange_500=1",
		  "more than 16 members" },
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct workload w;
		struct rs_err err = { 0 };

		cr_assert_eq(workload_select(bad[i].list, 3, &w, &err), -1, "%s", bad[i].list);
		cr_assert_eq(err.kind, RS_E_USAGE, "%s", bad[i].list);
		cr_assert(strstr(err.msg, bad[i].says) != NULL, "%s: %s", bad[i].list, err.msg);
		cr_assert(strchr(err.msg, '\n') == NULL, "%s: one line", bad[i].list);
	}
}

Test(workload_mix, sixteen_members_are_allowed)
{
	struct workload w;
	struct rs_err err = { 0 };

	cr_assert_eq(workload_select("mix:ping_inline=1,ping_mbulk=1,set=1,get=1,incr=1,lpush=1,"
				     "rpush=1,lpop=1,rpop=1,sadd=1,hset=1,spop=1,zadd=1,zpopmin=1,"
				     "lrange_100=1,lrange_300=1", 3, &w, &err), 0, "%s", err.msg);
	cr_assert_eq(w.v[0].nmembers, 16);
	workload_free(&w);
}

/* Preparation covers every member for every request (each may draw
 * it); the key bound is the members' sum; the memory rule the longest. */
Test(workload_mix, preparation_bounds_and_memory_cover_every_member)
{
	struct workload w, g, p;
	struct rs_err err = { 0 };
	char *buf = NULL;
	size_t len, n;
	struct workload_memory m, mg, ml;

	cr_assert_eq(workload_select("mix:get=1,lpop=1,set=1", 3, &w, &err), 0, "%s", err.msg);
	cr_assert_eq(workload_select("get,lpop,set", 3, &g, &err), 0, "%s", err.msg);
	cr_assert_eq(workload_prepare_cmds(&w.v[0], 2500, 1500, 3, &buf, &len, &n, &err), 0, "%s",
		     err.msg);
	/* GET's 1500 keys (2 MSETs) and LPOP's 2500 elements (3 RPUSHes). */
	cr_assert_eq(n, 5);
	cr_assert(memmem(buf, len, "MSET", 4) != NULL);
	cr_assert(memmem(buf, len, "RPUSH", 5) != NULL);
	free(buf);
	cr_assert_eq(workload_key_bound(&w.v[0], 2500, 1500, 1),
		     workload_key_bound(&g.v[0], 2500, 1500, 1) +
		     workload_key_bound(&g.v[1], 2500, 1500, 1) +
		     workload_key_bound(&g.v[2], 2500, 1500, 1));
	cr_assert_eq(workload_prepare_check(&w.v[0], 100000000, 10, 3, &err), -1);
	cr_assert(strstr(err.msg, "MIX_GET1_LPOP1_SET1") != NULL, "%s", err.msg);
	workload_free(&w);
	workload_free(&g);
	/* Memory: a buffer per connection of the longest member (SET at -d
	 * 1000), and GET's reply, as SET and GET alone would need. */
	cr_assert_eq(workload_memory("mix:get=1,set=1", 1000, 16, 4, 0, &m, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(workload_memory("set", 1000, 16, 4, 1000, &ml, &err), 0);
	cr_assert_eq(workload_memory("get", 1000, 16, 4, 1000, &mg, &err), 0);
	cr_assert_str_eq(m.test, "MIX_GET1_SET1");
	cr_assert_geq(m.bytes, ml.bytes);
	cr_assert_geq(m.bytes, mg.bytes);
	cr_assert_eq(workload_select("mix:get=1,set=1", 1000, &p, &err), 0);
	cr_assert_geq(m.bytes, (uint64_t)16 * 4 * p.v[0].len);
	workload_free(&p);
}

/* --ratio S:G is memtier's Set:Get: the mix set=S,get=G. */
Test(workload_mix, ratio_is_a_set_get_mix)
{
	static const struct {
		const char *ratio, *says;
	} bad[] = {
		{ "3", "is not S:G" }, { ":3", "no SET weight" }, { "3:", "no GET weight" },
		{ "0:1", "out of range" }, { "1:0", "out of range" }, { "1:x", "not a positive" },
		{ "-1:2", "not a positive" }, { "1:2:3", "not a positive" },
		{ "1:99999999999999999999", "out of range" },
	};
	char buf[64];
	struct rs_err err = { 0 };
	struct workload w;

	cr_assert_eq(workload_ratio("1:10", buf, sizeof buf, &err), 0, "%s", err.msg);
	cr_assert_str_eq(buf, "mix:set=1,get=10");
	cr_assert_eq(workload_select(buf, 3, &w, &err), 0, "%s", err.msg);
	cr_assert_str_eq(w.v[0].name, "MIX_SET1_GET10");
	workload_free(&w);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cr_assert_eq(workload_ratio(bad[i].ratio, buf, sizeof buf, &err), -1, "%s",
			     bad[i].ratio);
		cr_assert_eq(err.kind, RS_E_USAGE);
		cr_assert(strstr(err.msg, bad[i].says) != NULL, "%s: %s", bad[i].ratio, err.msg);
	}
}

/* A command file (--commands): one mix of custom members, by weight. */
Test(workload_file, a_file_is_one_mix_of_custom_commands)
{
	static const char text[] = "# reads and writes\r\n"
				   "80 GET user:__rand_int__\n"
				   "\n"
				   "   # indented comment\n"
				   "20 SET 'user:__key__' __data__\n"
				   "1 HSET h \"a b\" v:__data__";
	struct workload w;
	struct rs_err err = { 0 };
	const struct workload_test *t, *m;
	char spec[384];

	cr_assert_eq(workload_commands_parse(text, strlen(text), "dir/kv.cmds", 5, &w, &err), 0,
		     "%s", err.msg);
	cr_assert_eq(w.n, 1);
	t = &w.v[0];
	cr_assert_str_eq(t->name, "MIX_KV");
	cr_assert_eq(t->nmembers, 3);
	cr_assert(t->custom, "a custom member may touch any database: so may the mix");
	cr_assert_eq(t->expect, 0, "replies of any kind");
	cr_assert_eq(t->weights[0], 80);
	cr_assert_eq(t->weights[1], 20);
	cr_assert_eq(t->weights[2], 1);
	/* Named by the line as written; counted under the command's name. */
	m = &t->members[1];
	cr_assert_str_eq(m->name, "SET user:__key__ __data__");
	cr_assert_str_eq(m->cmdstat, "set");
	cr_assert(m->custom);
	/* __key__ is __rand_int__ (drawn like it), __data__ -d bytes of 'x'. */
	cr_assert_eq(m->nrand, 1);
	cr_assert(strstr(m->cmd, "\r\nuser:__rand_int__\r\n$5\r\nxxxxx\r\n") != NULL, "%s", m->cmd);
	cr_assert_eq(m->key_rand, 1);
	m = &t->members[2];
	cr_assert_str_eq(m->cmdstat, "hset");
	cr_assert(strstr(m->cmd, "$3\r\na b\r\n$7\r\nv:xxxxx\r\n") != NULL, "%s", m->cmd);
	cr_assert_str_eq(t->members[0].cmdstat, "get");
	cr_assert_eq(t->len, t->members[2].len > t->members[1].len ?
			     (t->members[2].len > t->members[0].len ? t->members[2].len : t->members[0].len) :
			     (t->members[1].len > t->members[0].len ? t->members[1].len : t->members[0].len));
	/* The CSV's mix column keeps a custom member's line as written. */
	workload_mix_spec(t, spec, sizeof spec);
	cr_assert_str_eq(spec, "GET user:__rand_int__=80,SET user:__key__ __data__=20,"
			       "HSET h a b v:__data__=1");
	/* A bound on the keys: the members' sum, as for any mix; any
	 * argument of a custom command may name a key (GET 10, SET 10 + 1,
	 * HSET 3). */
	cr_assert_eq(workload_key_bound(t, 1000, 10, 0), 10 + 11 + 3);
	workload_free(&w);
}

Test(workload_file, one_command_and_sixteen_are_allowed)
{
	char text[1024] = "";
	struct workload w;
	struct rs_err err = { 0 };

	cr_assert_eq(workload_commands_parse("7 PING", 6, "-", 3, &w, &err), 0, "%s", err.msg);
	cr_assert_str_eq(w.v[0].name, "MIX_FILE");
	cr_assert_eq(w.v[0].nmembers, 1);
	workload_free(&w);
	for (int i = 0; i < 16; i++)
		snprintf(text + strlen(text), sizeof text - strlen(text), "1000000 GET k%d\n", i);
	cr_assert_eq(workload_commands_parse(text, strlen(text), "a b.c.cmds", 3, &w, &err), 0,
		     "%s", err.msg);
	cr_assert_str_eq(w.v[0].name, "MIX_A_B_C");
	cr_assert_eq(w.v[0].nmembers, 16);
	workload_free(&w);
}

Test(workload_file, bad_lines_name_file_and_line)
{
	static const struct {
		const char *text, *says;
	} bad[] = {
		{ "GET k\n", "f.cmds:1: 'GET' is not a weight" },
		{ "# c\n\n0 GET k\n", "f.cmds:3: weight 0 is out of range (1 to 1000000)" },
		{ "1000001 GET k\n", "f.cmds:1: weight 1000001 is out of range" },
		{ "99999999999999999999999 GET k\n", "f.cmds:1: weight 99999999999999999999999 is out" },
		{ "-1 GET k\n", "f.cmds:1: '-1' is not a weight" },
		{ "1 GET k\n5\n", "f.cmds:2: no command after the weight 5" },
		{ "5 '' k\n", "f.cmds:1: an empty command after the weight 5" },
		{ "5 \"GET k\n", "f.cmds:1: unclosed \"" },
		{ "# nothing\n\n", "f.cmds: no command" },
		{ "", "f.cmds: no command" },
		{ "1 GET a\n2  GET   a\n", "f.cmds:2: the same command as line 1" },
		{ "1 A\n1 B\n1 C\n1 D\n1 E\n1 F\n1 G\n1 H\n1 I\n1 J\n1 K\n1 L\n1 M\n1 N\n1 O\n1 P\n"
		  "# fine so far\n1 Q\n", "f.cmds:18: more than 16 commands" },
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct workload w;
		struct rs_err err = { 0 };

		cr_assert_eq(workload_commands_parse(bad[i].text, strlen(bad[i].text), "f.cmds", 3, &w,
						     &err), -1, "%s", bad[i].text);
		cr_assert_eq(err.kind, RS_E_INPUT, "%s", bad[i].text);
		cr_assert(strstr(err.msg, bad[i].says) != NULL, "%s: %s", bad[i].text, err.msg);
		cr_assert(strchr(err.msg, '\n') == NULL, "%s: one line", bad[i].text);
		cr_assert_eq(w.n, 0);
	}
}

Test(workload_file, a_file_that_cannot_be_read_is_named)
{
	struct workload w;
	struct rs_err err = { 0 };

	cr_assert_eq(workload_commands_file("/nonexistent/x.cmds", 3, &w, &err), -1);
	cr_assert_eq(err.kind, RS_E_INPUT);
	cr_assert(strstr(err.msg, "--commands: /nonexistent/x.cmds: ") != NULL, "%s", err.msg);
	cr_assert_eq(workload_commands_file("/", 3, &w, &err), -1);
	cr_assert(strstr(err.msg, "/") != NULL, "%s", err.msg);
}

/* The command after --: one command as workload_custom makes it, its
 * placeholders expanded; several, or MULTI/EXEC, one sequence. */
Test(workload_seq, one_command_is_a_plain_custom_test)
{
	struct workload w;
	struct rs_err err;
	char *argv[] = { "SET", "k:__key__", "__data__", NULL };

	cr_assert_eq(workload_sequence(3, argv, 4, 0, &w, &err), 0, "%s", err.msg);
	cr_assert_eq(w.n, 1);
	cr_assert_str_eq(w.v[0].name, "SET k:__key__ __data__");
	cr_assert_str_eq(w.v[0].cmd, "*3\r\n$3\r\nSET\r\n$14\r\nk:__rand_int__\r\n$4\r\nxxxx\r\n");
	cr_assert_eq(w.v[0].nrand, 1);
	cr_assert_eq(w.v[0].key_from, w.v[0].rand_off[0]);
	cr_assert_eq(w.v[0].ncopy, 0);
	cr_assert_eq(w.v[0].sequence, 0);
	cr_assert_eq(w.v[0].nmembers, 0);
	cr_assert_eq(w.v[0].key_rand, 1);
	workload_free(&w);
}

Test(workload_seq, a_sequence_is_one_request_of_its_commands)
{
	struct workload w;
	struct rs_err err;
	char *argv[] = { "SET", "k:__key__", "v", ";", "3", "GET", "k:__key__", ";", "INCR",
			 "n:__rand_int__", NULL };
	const struct workload_test *t;
	char set[] = "*3\r\n$3\r\nSET\r\n$14\r\nk:__rand_int__\r\n$1\r\nv\r\n";
	char get[] = "*2\r\n$3\r\nGET\r\n$14\r\nk:__rand_int__\r\n";
	size_t sl = strlen(set), gl = strlen(get);

	cr_assert_eq(workload_sequence(10, argv, 3, 0, &w, &err), 0, "%s", err.msg);
	cr_assert_eq(w.n, 1);
	t = &w.v[0];
	cr_assert_str_eq(t->name, "SET k:__key__ v ; 3 GET k:__key__ ; INCR n:__rand_int__");
	cr_assert(t->sequence);
	cr_assert_eq(t->replies, 5);
	cr_assert_eq(t->nmembers, 3);
	cr_assert_eq(t->weights[0], 1);
	cr_assert_eq(t->weights[1], 3);
	cr_assert_eq(t->weights[2], 1);
	cr_assert_str_eq(t->members[1].cmdstat, "get");
	cr_assert_eq(memcmp(t->cmd, set, sl), 0);
	for (int i = 0; i < 3; i++)
		cr_assert_eq(memcmp(t->cmd + sl + (size_t)i * gl, get, gl), 0);
	/* The first __key__ is drawn, the three GETs' repeat it; INCR's
	 * __rand_int__ is drawn apart. */
	cr_assert_eq(t->nrand, 2);
	cr_assert_eq(t->key_from, t->rand_off[0]);
	cr_assert_eq(memcmp(t->cmd + t->key_from, "__rand_int__", 12), 0);
	cr_assert_eq(t->ncopy, 3);
	for (size_t i = 0; i < t->ncopy; i++)
		cr_assert_eq(t->copy_off[i], sl + i * gl + gl - 14);
	cr_assert(memcmp(t->cmd + t->rand_off[1] - 2, "n:__rand_int__", 14) == 0);
	cr_assert_eq(t->len, sl + 3 * gl + strlen("*2\r\n$4\r\nINCR\r\n$14\r\nn:__rand_int__\r\n"));
	/* The guard's bound: any argument of a custom command may name a key
	 * (SET's two, GET's and INCR's one), as often as the command is sent. */
	cr_assert_eq(workload_key_bound(t, 10, 1000, 0), 2 * 10 + 30 + 10);
	workload_free(&w);
}

Test(workload_seq, a_transaction_wraps_the_sequence)
{
	struct workload w;
	struct rs_err err;
	char *argv[] = { "INCR", "a", NULL };

	cr_assert_eq(workload_sequence(2, argv, 3, 1, &w, &err), 0, "%s", err.msg);
	cr_assert_str_eq(w.v[0].name, "MULTI ; INCR a ; EXEC");
	cr_assert_eq(w.v[0].replies, 3);
	cr_assert_str_eq(w.v[0].cmd, "*1\r\n$5\r\nMULTI\r\n*2\r\n$4\r\nINCR\r\n$1\r\na\r\n"
			 "*1\r\n$4\r\nEXEC\r\n");
	cr_assert_str_eq(w.v[0].members[0].cmdstat, "multi");
	cr_assert_str_eq(w.v[0].members[2].cmdstat, "exec");
	workload_free(&w);
}

Test(workload_seq, bad_sequences_name_their_problem)
{
	static struct {
		int argc;
		char *argv[8];
		const char *msg;
	} bad[] = {
		{ 3, { "GET", "a", ";" }, "an empty command in the sequence after --" },
		{ 3, { ";", "GET", "a" }, "an empty command in the sequence after --" },
		{ 5, { "GET", "a", ";", ";", "GET" }, "an empty command in the sequence after --" },
		{ 3, { "0", "GET", "a" }, "repeat count 0 is out of range (1 to 1000)" },
		{ 3, { "99999999999999999999", "GET", "a" }, "repeat count 99999999999999999999 is out of range" },
		/* A signed number is no command (issue 40, m7). */
		{ 3, { "-5", "GET", "a" }, "repeat count -5 has a sign" },
		{ 1, { "5" }, "repeat count 5 in the sequence after -- has no command after it" },
		{ 4, { "GET", "a", ";", "7" }, "repeat count 7 in the sequence after -- has no command" },
		/* RESP3 is not spoken (m8). */
		{ 2, { "HELLO", "3" }, "HELLO 3 asks for RESP3, which rsweep does not speak" },
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct workload w;
		struct rs_err err;

		cr_assert_eq(workload_sequence(bad[i].argc, bad[i].argv, 3, 0, &w, &err), -1);
		cr_assert_eq(err.kind, RS_E_USAGE);
		cr_assert(strstr(err.msg, bad[i].msg) != NULL, "%s", err.msg);
		cr_assert_eq(w.n, 0);
	}
}
