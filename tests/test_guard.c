/* The guard's names (guard.h) on scripted key sets: every key a test of
 * the catalogue can write is rsweep's while that test is the last run;
 * another test's keys, and a foreign key at every position of a plan, are
 * not. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "sweep/guard.h"
#include "workload/workload.h"

static int ok(const struct guard_names *g, const char *key)
{
	return guard_name_ok(g, key, strlen(key));
}

/* A plan of every keyed test in turn; after each, as after a point, the
 * guard knows that test's names only (a flush clears them). */
Test(guard, a_foreign_key_at_every_position_of_the_plan)
{
	static const struct { const char *test, *mine, *other; } plan[] = {
		{ "set", "key:000000000042", "mylist" },
		{ "get", "key:000000000001", "counter:000000000001" },
		{ "incr", "counter:000000000007", "key:000000000007" },
		{ "lpush", "mylist", "myset" },
		{ "rpush", "mylist", "myzset" },
		{ "lpop", "mylist", "key:000000000001" },
		{ "rpop", "mylist", "myhash" },
		{ "sadd", "myset", "mylist" },
		{ "hset", "myhash", "myset" },
		{ "spop", "myset", "mylist" },
		{ "zadd", "myzset", "myset" },
		{ "zpopmin", "myzset", "mylist" },
		{ "lrange_100", "mylist", "myset" },
		{ "mset", "key:000000000003", "counter:000000000003" },
	};
	struct guard_names g;

	for (int tagged = 0; tagged <= 1; tagged++) {
		guard_names_init(&g, tagged);
		for (size_t i = 0; i < sizeof plan / sizeof plan[0]; i++) {
			struct workload w = { 0 };
			struct rs_err err = { 0 };

			cr_assert_eq(workload_select(plan[i].test, 3, &w, &err), 0, "%s", err.msg);
			guard_names_clear(&g);
			cr_assert(!ok(&g, plan[i].mine), "nothing run, yet %s is rsweep's", plan[i].mine);
			guard_names_add(&g, &w.v[0]);
			cr_assert(ok(&g, plan[i].mine), "%s: %s", plan[i].test, plan[i].mine);
			cr_assert(!ok(&g, plan[i].other), "%s: %s", plan[i].test, plan[i].other);
			cr_assert(!ok(&g, "fk:1"), "%s: fk:1", plan[i].test);
			cr_assert(!ok(&g, "precious"), "%s", plan[i].test);
			cr_assert(!ok(&g, ""), "%s", plan[i].test);
			/* A prefix or a longer name is another name. */
			cr_assert(!ok(&g, "mylistx") && !ok(&g, "key:") && !ok(&g, "key:12x"));
			/* A master's tagged key: only on a cluster. */
			if (strstr(plan[i].mine, ":") == NULL) {
				char tag[64];

				snprintf(tag, sizeof tag, "%s{12}", plan[i].mine);
				cr_assert_eq(ok(&g, tag), tagged, "%s", tag);
				snprintf(tag, sizeof tag, "%s{x}", plan[i].mine);
				cr_assert(!ok(&g, tag), "%s", tag);
			}
			workload_free(&w);
		}
		guard_names_free(&g);
	}
}

Test(guard, keyspace_zero_writes_the_literal_name)
{
	struct workload w = { 0 };
	struct rs_err err = { 0 };
	struct guard_names g;

	cr_assert_eq(workload_select("set", 3, &w, &err), 0);
	guard_names_init(&g, 0);
	guard_names_add(&g, &w.v[0]);
	cr_assert(ok(&g, "key:__rand_int__"));
	cr_assert(!ok(&g, "key:__rand_int"));
	guard_names_free(&g);
	workload_free(&w);
}

Test(guard, ping_names_nothing)
{
	struct workload w = { 0 };
	struct rs_err err = { 0 };
	struct guard_names g;

	cr_assert_eq(workload_select("ping", 3, &w, &err), 0);
	guard_names_init(&g, 0);
	for (size_t i = 0; i < w.n; i++)
		guard_names_add(&g, &w.v[i]);
	cr_assert_eq(g.n, 0);
	cr_assert(!ok(&g, "key:000000000001"));
	guard_names_free(&g);
	workload_free(&w);
}

Test(guard, a_command_of_ones_own_can_only_be_counted)
{
	char *argv[] = { "SET", "k:__rand_int__", "v" };
	struct workload w = { 0 };
	struct rs_err err = { 0 };
	struct guard_names g;

	cr_assert_eq(workload_custom(3, argv, &w, &err), 0, "%s", err.msg);
	guard_names_init(&g, 0);
	guard_names_add(&g, &w.v[0]);
	cr_assert(g.unnamed);
	cr_assert(ok(&g, "anything"));
	guard_names_free(&g);
	workload_free(&w);
}

Test(guard, the_lua_patterns_say_the_same)
{
	struct workload w = { 0 };
	struct rs_err err = { 0 };
	struct guard_names g;
	char **p;
	size_t n;

	cr_assert_eq(workload_select("incr,lpop", 3, &w, &err), 0);
	guard_names_init(&g, 1);
	guard_names_add(&g, &w.v[0]);
	guard_names_add(&g, &w.v[1]);
	n = guard_patterns(&g, &p);
	cr_assert_eq(n, 6);
	cr_assert_str_eq(p[0], "^counter:%d+$");
	cr_assert_str_eq(p[1], "^counter:__rand_int__$");
	cr_assert_str_eq(p[2], "^counter:%d+{%d+}$");
	cr_assert_str_eq(p[3], "^counter:__rand_int__{%d+}$");
	cr_assert_str_eq(p[4], "^mylist$");
	cr_assert_str_eq(p[5], "^mylist{%d+}$");
	guard_patterns_free(p, n);
	guard_names_free(&g);
	workload_free(&w);
}
