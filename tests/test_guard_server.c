/* test_guard_server.c: a guarded server (guard.h) against a real
 * redis-server started here on a private UNIX socket: what the guard
 * refuses, what it flushes, and what it leaves alone, step by step, as the
 * sweep drives it.  (The names alone: test_guard.c.) */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/guard.h"
#include "net/spawn.h"
#include "net/target.h"
#include "workload/workload.h"
#include "redis_helper.h"

static struct spawn srv;
static struct target tgt;
static struct target_conn *ctl;   /* the test's own connection, beside the guard's */
static struct guard g;
static char notes[2048];

static void on_note(void *ud, const char *msg)
{
	(void)ud;
	snprintf(notes + strlen(notes), sizeof notes - strlen(notes), "%s\n", msg);
}

static void start(const char *const *extra)
{
	struct rs_err err = { 0 };

	cr_assert_eq(spawn_start(&srv, redis_server(), 0, extra, 10, &err), 0, "%s", err.msg);
	memset(&tgt, 0, sizeof tgt);
	tgt.socket = srv.socket;
	tgt.connect_timeout = 5;
	tgt.timeout = 10;
	target_describe(&tgt);
	cr_assert_eq(target_connect(&tgt, &ctl, &err), 0, "%s", err.msg);
	notes[0] = '\0';
}

static void setup(void)
{
	start(NULL);
}

static void teardown(void)
{
	guard_close(&g);
	target_close(ctl);
	ctl = NULL;
	spawn_stop(&srv);
}

/* Run a command on the test's own connection. */
#define run_ok(...)                                                                       \
	do {                                                                              \
		struct rs_err e_ = { 0 };                                                \
		cr_assert_eq(target_simple(ctl, &tgt, &e_, __VA_ARGS__), 0, "%s", e_.msg); \
	} while (0)

static uint64_t keys(unsigned db)
{
	struct target_keyspace ks;
	struct rs_err err = { 0 };
	uint64_t n;

	cr_assert_eq(target_keyspace(ctl, &tgt, &ks, &err), 0, "%s", err.msg);
	n = target_keyspace_db(&ks, db);
	target_keyspace_free(&ks);
	return n;
}

static void guard_with(enum guard_flush flush, int spawned)
{
	struct guard_config gc = {
		.target = &tgt, .flush = flush, .spawned = spawned, .on_note = on_note,
	};

	guard_init(&g, &gc);
}

/* Test name's keys are rsweep's from now on, at most bound of them. */
static void written(const char *name, uint64_t bound)
{
	struct workload w = { 0 };
	struct rs_err err = { 0 };

	cr_assert_eq(workload_select(name, 3, &w, &err), 0, "%s", err.msg);
	guard_written(&g, &w.v[0], bound);
	workload_free(&w);
}

Test(guard_server, an_empty_server_passes_and_nothing_is_written,
     .init = setup, .fini = teardown)
{
	struct rs_err err = { 0 };

	guard_with(GUARD_FLUSH_ALL, 0);
	cr_assert_eq(guard_open(&g, &err), GUARD_OK, "%s", err.msg);
	cr_assert(g.vetted);
	cr_assert(!guard_dirty(&g), "nothing written yet: nothing to flush at the end");
	cr_assert_neq(g.run_id[0], '\0');
	cr_assert_eq(keys(0), 0);
}

Test(guard_server, a_foreign_key_refuses_the_server_untouched, .init = setup, .fini = teardown)
{
	struct rs_err err = { 0 };

	run_ok("SET precious 1");
	guard_with(GUARD_FLUSH_ALL, 0);
	cr_assert_eq(guard_open(&g, &err), GUARD_FOREIGN);
	cr_assert(!g.vetted);
	cr_assert(strstr(err.msg, "holds 1 key that rsweep did not write") != NULL, "%s", err.msg);
	cr_assert(strstr(err.msg, "Nothing was changed.") != NULL, "%s", err.msg);
	/* And nothing flushes through a guard that refused. */
	cr_assert_eq(guard_flush(&g, &err), GUARD_FINAL);
	cr_assert(strstr(err.msg, "not flushed") != NULL, "%s", err.msg);
	cr_assert_eq(keys(0), 1);
}

Test(guard_server, a_key_in_another_database_stops_flushall_not_flushdb,
     .init = setup, .fini = teardown)
{
	struct rs_err err = { 0 };

	run_ok("SELECT 3");
	run_ok("SET elsewhere 1");
	run_ok("SELECT 0");
	guard_with(GUARD_FLUSH_ALL, 0);
	cr_assert_eq(guard_open(&g, &err), GUARD_FOREIGN, "FLUSHALL would empty db3 too");
	cr_assert(strstr(err.msg, "db3: 1 key") != NULL, "%s", err.msg);
	guard_close(&g);
	guard_with(GUARD_FLUSH_DB, 0);
	cr_assert_eq(guard_open(&g, &err), GUARD_OK, "%s", err.msg);
	written("set", 100);
	run_ok("SET key:000000000001 x");
	cr_assert_eq(guard_flush(&g, &err), GUARD_OK, "%s", err.msg);
	cr_assert_eq(keys(0), 0);
	cr_assert_eq(keys(3), 1, "FLUSHDB left the other database alone");
}

Test(guard_server, flush_none_says_it_would_overwrite, .init = setup, .fini = teardown)
{
	struct rs_err err = { 0 };

	run_ok("SET precious 1");
	guard_with(GUARD_FLUSH_NONE, 0);
	cr_assert_eq(guard_open(&g, &err), GUARD_FOREIGN);
	cr_assert(strstr(err.msg, "would overwrite or pop") != NULL, "%s", err.msg);
}

Test(guard_server, rsweeps_own_keys_are_flushed_and_the_server_checked_empty,
     .init = setup, .fini = teardown)
{
	struct rs_err err = { 0 };

	guard_with(GUARD_FLUSH_ALL, 0);
	cr_assert_eq(guard_open(&g, &err), GUARD_OK, "%s", err.msg);
	written("set", 100);
	cr_assert(guard_dirty(&g));
	run_ok("SET key:000000000001 x");
	run_ok("SET key:000000000002 x");
	cr_assert_eq(guard_flush(&g, &err), GUARD_OK, "%s", err.msg);
	cr_assert_eq(keys(0), 0);
	cr_assert(!guard_dirty(&g));
	cr_assert_eq(g.allow, 0, "after a flush nothing more is rsweep's");
}

Test(guard_server, a_foreign_name_stops_the_flush_whatever_the_count,
     .init = setup, .fini = teardown)
{
	struct rs_err err = { 0 };

	guard_with(GUARD_FLUSH_ALL, 0);
	cr_assert_eq(guard_open(&g, &err), GUARD_OK, "%s", err.msg);
	written("set", 100);
	run_ok("SET key:000000000001 x");
	run_ok("SET user:1 precious");
	cr_assert_eq(guard_flush(&g, &err), GUARD_FOREIGN);
	cr_assert(strstr(err.msg, "'user:1' is not a name rsweep writes") != NULL, "%s", err.msg);
	cr_assert(g.foreign);
	cr_assert_eq(keys(0), 2, "nothing was flushed");
	/* Never again, even once the key is gone. */
	run_ok("DEL user:1");
	cr_assert_eq(guard_flush(&g, &err), GUARD_FINAL);
	cr_assert_eq(keys(0), 1);
}

Test(guard_server, more_keys_than_the_test_can_write_stops_the_flush,
     .init = setup, .fini = teardown)
{
	struct rs_err err = { 0 };

	guard_with(GUARD_FLUSH_ALL, 0);
	cr_assert_eq(guard_open(&g, &err), GUARD_OK, "%s", err.msg);
	written("set", 2);
	run_ok("SET key:000000000001 x");
	run_ok("SET key:000000000002 x");
	run_ok("SET key:000000000003 x");
	cr_assert_eq(guard_flush(&g, &err), GUARD_FOREIGN);
	cr_assert(strstr(err.msg, "at most 2 of them rsweep's") != NULL, "%s", err.msg);
	cr_assert_eq(keys(0), 3);
}

/* Without EVAL the check and the flush are two commands: said once, and a
 * foreign name is still found (by SCAN) before the flush. */
Test(guard_server, without_eval_the_guard_checks_then_flushes, .fini = teardown)
{
	static const char *const no_eval[] = { "--rename-command", "EVAL", "", NULL };
	struct rs_err err = { 0 };

	start(no_eval);
	guard_with(GUARD_FLUSH_ALL, 0);
	cr_assert_eq(guard_open(&g, &err), GUARD_OK, "%s", err.msg);
	written("set", 100);
	run_ok("SET key:000000000001 x");
	cr_assert_eq(guard_flush(&g, &err), GUARD_OK, "%s", err.msg);
	cr_assert(g.eval_off);
	cr_assert(strstr(notes, "the guard checks the keys, then flushes") != NULL, "%s", notes);
	cr_assert_eq(keys(0), 0);
	written("set", 100);
	run_ok("SET key:000000000001 x");
	run_ok("SET user:1 precious");
	cr_assert_eq(guard_flush(&g, &err), GUARD_FOREIGN);
	cr_assert(strstr(err.msg, "'user:1'") != NULL, "%s", err.msg);
	cr_assert_eq(keys(0), 2);
	cr_assert_eq(strstr(strstr(notes, "then flushes") + 1, "then flushes"), NULL,
		     "the fallback is said once: %s", notes);
}

Test(guard_server, force_flush_lets_the_first_flush_take_the_keys,
     .init = setup, .fini = teardown)
{
	struct guard_config gc = { .target = &tgt, .flush = GUARD_FLUSH_ALL, .force_flush = 1 };
	struct rs_err err = { 0 };

	run_ok("SET old 1");
	guard_init(&g, &gc);
	cr_assert_eq(guard_open(&g, &err), GUARD_OK, "%s", err.msg);
	cr_assert_eq(guard_flush(&g, &err), GUARD_OK, "%s", err.msg);
	cr_assert_eq(keys(0), 0);
	/* After it, the guard counts as for any server. */
	written("set", 1);
	run_ok("SET x 1");
	run_ok("SET y 1");
	cr_assert_eq(guard_flush(&g, &err), GUARD_FOREIGN);
}

/* The same process after a reconnection: still vetted, keys and all. */
Test(guard_server, a_reconnection_to_the_same_process_keeps_what_was_known,
     .init = setup, .fini = teardown)
{
	struct rs_err err = { 0 };

	guard_with(GUARD_FLUSH_ALL, 0);
	cr_assert_eq(guard_open(&g, &err), GUARD_OK, "%s", err.msg);
	written("set", 100);
	run_ok("SET key:000000000001 x");
	cr_assert_eq(guard_reconnect(&g, &err), GUARD_OK, "%s", err.msg);
	cr_assert(g.vetted && g.dirty);
	cr_assert_eq(guard_flush(&g, &err), GUARD_OK, "%s", err.msg);
	cr_assert_eq(keys(0), 0);
}

/* A new process at the address (a restart): checked again from nothing,
 * its keys none of rsweep's; at a spawned server's address, refused. */
Test(guard_server, a_new_process_is_checked_again, .init = setup, .fini = teardown)
{
	struct rs_err err = { 0 };
	char old[sizeof g.run_id];

	for (int spawned = 0; spawned <= 1; spawned++) {
		guard_with(GUARD_FLUSH_ALL, spawned);
		cr_assert_eq(guard_open(&g, &err), GUARD_OK, "%s", err.msg);
		memcpy(old, g.run_id, sizeof old);
		target_close(ctl);
		ctl = NULL;
		spawn_stop(&srv);
		start(NULL);
		run_ok("SET key:000000000001 x");
		if (spawned) {
			cr_assert_eq(guard_reconnect(&g, &err), GUARD_FINAL);
			cr_assert(strstr(err.msg, "the spawned server is gone") != NULL, "%s", err.msg);
		} else {
			cr_assert_eq(guard_reconnect(&g, &err), GUARD_FOREIGN);
			cr_assert(strstr(err.msg, "is a new server process and holds 1 key") != NULL,
				  "%s", err.msg);
			cr_assert(strstr(notes, "run_id changed") != NULL, "%s", notes);
		}
		cr_assert_str_neq(g.run_id, old);
		cr_assert(!g.vetted);
		cr_assert_eq(keys(0), 1, "not touched");
		guard_close(&g);
	}
}

static int refuse(void *ud, struct target_conn *c, struct rs_err *err)
{
	(void)c;
	++*(int *)ud;
	return rs_err_set(err, "not the node meant");
}

/* A process its caller does not recognise: nothing is read or changed. */
Test(guard_server, identify_refuses_before_the_check, .init = setup, .fini = teardown)
{
	int asked = 0;
	struct guard_config gc = {
		.target = &tgt, .flush = GUARD_FLUSH_ALL, .identify = refuse, .cb_ud = &asked,
	};
	struct rs_err err = { 0 };

	run_ok("SET precious 1");
	guard_init(&g, &gc);
	cr_assert_eq(guard_open(&g, &err), GUARD_FINAL);
	cr_assert_str_eq(err.msg, "not the node meant");
	cr_assert_eq(asked, 1);
	cr_assert(!g.vetted);
	cr_assert_eq(keys(0), 1);
}

/* A master of a cluster: its keys may carry a hash tag, and its note
 * names it. */
Test(guard_server, a_masters_tagged_key_is_its_own, .init = setup, .fini = teardown)
{
	struct guard_config gc = {
		.target = &tgt, .flush = GUARD_FLUSH_ALL, .master = 1, .masters = 3,
		.on_note = on_note, .verbose = 1,
	};
	struct rs_err err = { 0 };

	guard_init(&g, &gc);
	cr_assert_eq(guard_open(&g, &err), GUARD_OK, "%s", err.msg);
	written("lpush", 100);
	run_ok("LPUSH mylist{42} x");
	cr_assert_eq(guard_flush(&g, &err), GUARD_OK, "%s", err.msg);
	cr_assert(strstr(notes, "FLUSHALL done, 0 keys (master 2 of 3)") != NULL, "%s", notes);
}

/* The way out of an interrupted run: a new connection, vetted only when
 * it reaches the process the guard checked. */
Test(guard_server, again_vets_only_the_same_process, .init = setup, .fini = teardown)
{
	struct rs_err err = { 0 };

	guard_with(GUARD_FLUSH_ALL, 0);
	cr_assert_eq(guard_open(&g, &err), GUARD_OK, "%s", err.msg);
	cr_assert_eq(guard_again(&g, &err), 0, "a working connection is kept: %s", err.msg);
	target_close(ctl);
	ctl = NULL;
	spawn_stop(&srv);
	start(NULL);
	/* The guard's connection is to the old process: make it fail. */
	target_simple(g.c, &tgt, &err, "PING");
	if (!target_failed(g.c))
		cr_skip_test("the closed connection did not fail on this system");
	cr_assert_eq(guard_again(&g, &err), -1);
	cr_assert(strstr(err.msg, "another server process now") != NULL, "%s", err.msg);
	cr_assert(!g.vetted);
}
