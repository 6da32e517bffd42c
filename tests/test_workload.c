/* test_workload.c: command templates and preparation of each test. */
#include "config.h"

#include <criterion/criterion.h>
#include <hiredis/hiredis.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

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
