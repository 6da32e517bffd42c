/* test_target.c: the control connection (target.h) against a real
 * redis-server started here on a private UNIX socket, and, for replies a
 * real server will not give, a fake one that answers each request with
 * the next reply of a script. */
#include "config.h"

#include <criterion/criterion.h>
#include <hiredis/hiredis.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/spawn.h"
#include "net/target.h"
#include "fake_server.h"
#include "redis_helper.h"

static struct spawn srv;
static struct target tgt;
static struct target_conn *ctl;

static void setup(void)
{
	struct rs_err err = { 0 };

	redis_start(&srv, &tgt, NULL);
	cr_assert_eq(target_connect(&tgt, &ctl, &err), 0, "%s", err.msg);
}

static void teardown(void)
{
	if (ctl != NULL)
		target_close(ctl);
	ctl = NULL;
	spawn_stop(&srv);
}

/* Run CMD, a literal (hiredis formats it), on the control connection. */
#define run_ok(cmd)                                                                     \
	do {                                                                            \
		struct rs_err e_ = { 0 };                                              \
		cr_assert_eq(target_simple(ctl, &tgt, &e_, cmd), 0, "%s: %s", cmd, e_.msg); \
	} while (0)

Test(target, describe)
{
	struct target t = { .socket = "/tmp/x/redis.sock" };
	struct target u = { .host = "127.0.0.1", .port = 6380 };

	target_describe(&t);
	cr_assert_str_eq(t.desc, "unix:/tmp/x/redis.sock");
	target_describe(&u);
	cr_assert_str_eq(u.desc, "127.0.0.1:6380");
}

Test(target, info_and_fields, .init = setup, .fini = teardown)
{
	struct rs_err err = { 0 };
	char *info = NULL, v[64];

	cr_assert_eq(target_info(ctl, &tgt, "server", &info, &err), 0, "%s", err.msg);
	target_info_field(info, "redis_version", v, sizeof v);
	cr_assert_str_eq(v, srv.version);
	target_info_field(info, "no_such_field", v, sizeof v);
	cr_assert_str_empty(v);
	/* A field is matched whole, at the start of a line. */
	target_info_field("xredis_mode:a\r\nredis_mode:standalone\r\n", "redis_mode", v, sizeof v);
	cr_assert_str_eq(v, "standalone");
	target_info_field("tcp_port:0\r\n", "tcp", v, sizeof v);
	cr_assert_str_empty(v);
	target_info_field("f:abcdef\r\n", "f", v, 4);
	cr_assert_str_eq(v, "abc", "cut to the buffer");
	free(info);
}

Test(target, key_counts_and_flushes, .init = setup, .fini = teardown)
{
	struct rs_err err = { 0 };
	uint64_t keys = 99;

	cr_assert_eq(target_key_count(ctl, &tgt, &keys, &err), 0, "%s", err.msg);
	cr_assert_eq(keys, 0);
	run_ok("SET a 1");
	run_ok("SET b 2");
	run_ok("SELECT 3");
	run_ok("SET c 3");
	cr_assert_eq(target_key_count(ctl, &tgt, &keys, &err), 0, "%s", err.msg);
	cr_assert_eq(keys, 3, "all databases");
	cr_assert_eq(target_db_key_count(ctl, &tgt, 0, &keys, &err), 0, "%s", err.msg);
	cr_assert_eq(keys, 2);
	cr_assert_eq(target_db_key_count(ctl, &tgt, 5, &keys, &err), 0, "%s", err.msg);
	cr_assert_eq(keys, 0, "an empty database is absent from INFO");
	/* FLUSHDB: the connection's database (3) only. */
	cr_assert_eq(target_flush(ctl, &tgt, 1, &err), 0, "%s", err.msg);
	cr_assert_eq(target_key_count(ctl, &tgt, &keys, &err), 0);
	cr_assert_eq(keys, 2);
	cr_assert_eq(target_flush(ctl, &tgt, 0, &err), 0, "%s", err.msg);
	cr_assert_eq(target_key_count(ctl, &tgt, &keys, &err), 0);
	cr_assert_eq(keys, 0);
}

Test(target, simple_reports_the_error_reply, .init = setup, .fini = teardown)
{
	struct rs_err err = { 0 };
	char want[256];

	run_ok("SET s text");
	cr_assert_eq(target_simple(ctl, &tgt, &err, "INCR s"), -1);
	snprintf(want, sizeof want, "%s: INCR: ERR value is not an integer or out of range",
		 tgt.desc);
	cr_assert_str_eq(err.msg, want);
	run_ok("PING");  /* an error reply leaves the connection usable */
}

Test(target, point_stats_count_exactly, .init = setup, .fini = teardown)
{
	struct rs_err err = { 0 };
	struct target_stats a, b;

	cr_assert_eq(target_point_stats(ctl, &tgt, "incr", &a, &err), 0, "%s", err.msg);
	cr_assert_eq(a.calls, 0, "a command not run yet");
	cr_assert_geq(a.cpu, 0);
	cr_assert_geq(a.hits, 0);
	cr_assert_geq(a.misses, 0);
	for (int i = 0; i < 7; i++)
		run_ok("INCR n");
	for (int i = 0; i < 3; i++)
		run_ok("SET k v");
	/* Two reads that find their key, three that do not. */
	run_ok("GET n");
	run_ok("GET n");
	for (int i = 0; i < 3; i++)
		run_ok("GET missing");
	cr_assert_eq(target_point_stats(ctl, &tgt, "incr", &b, &err), 0, "%s", err.msg);
	cr_assert_eq(b.calls, 7);
	cr_assert_eq(b.neach, 1);
	cr_assert_eq(b.each[0], 7);
	cr_assert_geq(b.cpu, a.cpu);
	/* A write's look-up (INCR's, SET's) counts neither. */
	cr_assert_eq(b.hits - a.hits, 2, "hits %lld", (long long)(b.hits - a.hits));
	cr_assert_eq(b.misses - a.misses, 3, "misses %lld", (long long)(b.misses - a.misses));
	/* A mix's commands in the same one INFO: their sum, and each. */
	cr_assert_eq(target_point_stats(ctl, &tgt, "incr,set,lpush", &b, &err), 0, "%s", err.msg);
	cr_assert_eq(b.calls, 10);
	cr_assert_eq(b.neach, 3);
	cr_assert_eq(b.each[0], 7);
	cr_assert_eq(b.each[1], 3);
	cr_assert_eq(b.each[2], 0, "a command not run yet");
}

Test(target, pipeline_reads_every_reply, .init = setup, .fini = teardown)
{
	static const char ok[] = "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\n1\r\n"
				 "*2\r\n$4\r\nINCR\r\n$1\r\nk\r\n";
	static const char bad[] = "*2\r\n$5\r\nLPUSH\r\n$1\r\nk\r\n"       /* wrong arity */
				  "*2\r\n$4\r\nINCR\r\n$1\r\nk\r\n";
	struct rs_err err = { 0 };
	uint64_t keys;

	cr_assert_eq(target_pipeline(ctl, &tgt, ok, sizeof ok - 1, 2, &err), 0, "%s", err.msg);
	cr_assert_eq(target_pipeline(ctl, &tgt, bad, sizeof bad - 1, 2, &err), -1);
	cr_assert(strstr(err.msg, "preparation failed: ERR wrong number of arguments") != NULL, "%s",
		  err.msg);
	/* Both replies were read: the connection is in step. */
	cr_assert_eq(target_db_key_count(ctl, &tgt, 0, &keys, &err), 0, "%s", err.msg);
	cr_assert_eq(keys, 1);
	run_ok("PING");
	/* The INCR after the error ran too: k is 3. */
	cr_assert_eq(target_simple(ctl, &tgt, &err, "EVAL %s 0",
				   "if redis.call('GET', 'k') ~= '3' then "
				   "return redis.error_reply('k is not 3') end return 1"), 0, "%s",
		     err.msg);
}

Test(target, dump_and_restore, .init = setup, .fini = teardown)
{
	struct rs_err err = { 0 };
	char *payload = NULL;
	size_t len = 0;
	uint64_t keys;

	run_ok("RPUSH l a b c");
	cr_assert_eq(target_dump(ctl, &tgt, "l", &payload, &len, &err), 0, "%s", err.msg);
	cr_assert_gt(len, 0);
	run_ok("DEL l");
	cr_assert_eq(target_restore(ctl, &tgt, "l", payload, len, &err), 0, "%s", err.msg);
	cr_assert_eq(target_db_key_count(ctl, &tgt, 0, &keys, &err), 0);
	cr_assert_eq(keys, 1);
	/* A key in the way: the server refuses, the connection stays. */
	cr_assert_eq(target_restore(ctl, &tgt, "l", payload, len, &err), 1);
	cr_assert(strstr(err.msg, "RESTORE l: BUSYKEY") != NULL, "%s", err.msg);
	free(payload);
	payload = NULL;
	/* No such key: nothing to keep. */
	cr_assert_eq(target_dump(ctl, &tgt, "nosuch", &payload, &len, &err), 1);
	cr_assert_null(payload);
	run_ok("PING");
}

Test(target, flush_if_within_the_limit_only, .init = setup, .fini = teardown)
{
	struct rs_err err = { 0 };
	struct target_keyspace ks;
	uint64_t keys;

	run_ok("SET a 1");
	run_ok("SET b 1");
	/* Two keys, one allowed: left alone, and the keyspace says why. */
	cr_assert_eq(target_flush_if(ctl, &tgt, 0, 0, TARGET_SCOPE_DB, 1, NULL, &ks, NULL, 0, &err), 1, "%s",
		     err.msg);
	cr_assert_eq(ks.total, 2);
	cr_assert_eq(target_keyspace_db(&ks, 0), 2);
	target_keyspace_free(&ks);
	cr_assert_eq(target_key_count(ctl, &tgt, &keys, &err), 0);
	cr_assert_eq(keys, 2, "a flush beyond the limit ran");
	/* Keys elsewhere: "only" refuses, "db" does not look there. */
	run_ok("SELECT 2");
	run_ok("SET c 1");
	cr_assert_eq(target_flush_if(ctl, &tgt, 1, 0, TARGET_SCOPE_ONLY, 2, NULL, &ks, NULL, 0, &err), 1);
	target_keyspace_free(&ks);
	cr_assert_eq(target_flush_if(ctl, &tgt, 1, 0, TARGET_SCOPE_DB, 2, NULL, &ks, NULL, 0, &err), 0, "%s",
		     err.msg);
	target_keyspace_free(&ks);
	/* FLUSHDB ran on the connection's database, 2. */
	cr_assert_eq(target_db_key_count(ctl, &tgt, 0, &keys, &err), 0);
	cr_assert_eq(keys, 2);
	cr_assert_eq(target_db_key_count(ctl, &tgt, 2, &keys, &err), 0);
	cr_assert_eq(keys, 0);
	/* No limit: FLUSHALL. */
	cr_assert_eq(target_flush_if(ctl, &tgt, 0, 0, TARGET_SCOPE_ALL, UINT64_MAX, NULL, &ks, NULL, 0, &err), 0,
		     "%s", err.msg);
	target_keyspace_free(&ks);
	cr_assert_eq(target_key_count(ctl, &tgt, &keys, &err), 0);
	cr_assert_eq(keys, 0);
}

/* For target_scan_names: rsweep's keys in this test are the "my*" ones. */
static int names_my(void *ud, const char *key, size_t len)
{
	(void)ud;
	return len >= 2 && memcmp(key, "my", 2) == 0;
}

Test(target, flush_if_checks_names_in_the_same_script, .init = setup, .fini = teardown)
{
	char *only_mylist[] = { "^mylist$", "^mylist{%d+}$" };
	char *with_fk[] = { "^mylist$", "^fk:%d+$" };
	struct target_names n1 = { only_mylist, 2 }, n2 = { with_fk, 2 };
	struct rs_err err = { 0 };
	struct target_keyspace ks;
	char bad[80];
	uint64_t keys;

	/* A pop test's count allows a key; the one there is not its name. */
	run_ok("SET fk:1 v");
	cr_assert_eq(target_flush_if(ctl, &tgt, 0, 0, TARGET_SCOPE_DB, 1, &n1, &ks, bad, sizeof bad,
				     &err), 1, "%s", err.msg);
	target_keyspace_free(&ks);
	cr_assert_str_eq(bad, "fk:1");
	cr_assert_eq(target_key_count(ctl, &tgt, &keys, &err), 0);
	cr_assert_eq(keys, 1, "a foreign name was flushed");
	/* Hidden among the test's own keys, wherever it comes. */
	run_ok("RPUSH mylist a");
	run_ok("RPUSH mylist{7} a");
	cr_assert_eq(target_flush_if(ctl, &tgt, 0, 0, TARGET_SCOPE_DB, 3, &n1, &ks, bad, sizeof bad,
				     &err), 1, "%s", err.msg);
	target_keyspace_free(&ks);
	cr_assert_str_eq(bad, "fk:1");
	cr_assert_eq(target_scan_names(ctl, &tgt, names_my, NULL, bad, sizeof bad, &err), 1);
	cr_assert_str_eq(bad, "fk:1");
	/* Every name rsweep's: flushed. */
	run_ok("DEL fk:1");
	cr_assert_eq(target_scan_names(ctl, &tgt, names_my, NULL, bad, sizeof bad, &err), 0);
	run_ok("SET fk:2 v");
	cr_assert_eq(target_flush_if(ctl, &tgt, 0, 0, TARGET_SCOPE_DB, 3, &n2, &ks, bad, sizeof bad,
				     &err), 1, "mylist{7} is not a name of n2");
	target_keyspace_free(&ks);
	cr_assert_str_eq(bad, "mylist{7}");
	run_ok("DEL mylist{7}");
	cr_assert_eq(target_flush_if(ctl, &tgt, 0, 0, TARGET_SCOPE_DB, 3, &n2, &ks, bad, sizeof bad,
				     &err), 0, "%s", err.msg);
	target_keyspace_free(&ks);
	cr_assert_eq(target_key_count(ctl, &tgt, &keys, &err), 0);
	cr_assert_eq(keys, 0);
}

Test(target, no_server_is_a_connect_error)
{
	struct target t = { .socket = "/nonexistent/rsweep-test.sock", .connect_timeout = 1,
			    .timeout = 1 };
	struct rs_err err = { 0 };
	struct target_conn *c = (struct target_conn *)&t;

	target_describe(&t);
	cr_assert_eq(target_connect(&t, &c, &err), -1);
	cr_assert_null(c);
	cr_assert_str_eq(err.msg, "unix:/nonexistent/rsweep-test.sock: cannot connect: "
		     "No such file or directory");
}

Test(target, passwords, .init = setup, .fini = teardown)
{
	struct rs_err err = { 0 };
	struct target_conn *c = NULL;
	char want[256];

	run_ok("CONFIG SET requirepass s3cret");
	cr_assert_eq(target_connect(&tgt, &c, &err), -1);
	cr_assert_null(c);
	snprintf(want, sizeof want, "%s: the server needs a password (NOAUTH): set REDISCLI_AUTH "
		 "or use -a", tgt.desc);
	cr_assert_str_eq(err.msg, want);
	tgt.password = "wrong-pw";
	cr_assert_eq(target_connect(&tgt, &c, &err), -1);
	cr_assert(strstr(err.msg, "authentication failed") != NULL, "%s", err.msg);
	cr_assert(strstr(err.msg, "wrong-pw") == NULL, "the password was printed: %s", err.msg);
	tgt.password = "s3cret";
	cr_assert_eq(target_connect(&tgt, &c, &err), 0, "%s", err.msg);
	target_close(c);
}

Test(target, renamed_flush_and_eval, .fini = teardown)
{
	const char *const extra[] = { "--rename-command", "FLUSHALL", "", "--rename-command", "EVAL",
				      "", NULL };
	struct rs_err err = { 0 };
	struct target_keyspace ks;

	redis_start(&srv, &tgt, extra);
	cr_assert_eq(target_connect(&tgt, &ctl, &err), 0, "%s", err.msg);
	cr_assert_eq(target_flush(ctl, &tgt, 0, &err), -1);
	cr_assert(strstr(err.msg, "FLUSHALL is renamed or forbidden on this server") != NULL, "%s",
		  err.msg);
	cr_assert(strstr(err.msg, "use --flush none") != NULL, "%s", err.msg);
	cr_assert_eq(target_flush(ctl, &tgt, 1, &err), 0, "FLUSHDB is still there: %s", err.msg);
	cr_assert_eq(target_flush_if(ctl, &tgt, 0, 0, TARGET_SCOPE_ALL, 0, NULL, &ks, NULL, 0, &err), 2);
	cr_assert(strstr(err.msg, "EVAL refused: ERR unknown command") != NULL, "%s", err.msg);
	cr_assert(strstr(err.msg, "redis.call") == NULL, "the script was quoted: %s", err.msg);
	target_keyspace_free(&ks);
}

/* ---- a fake server for replies no real one gives ---- */

static struct fake_server fake;

/* Serve replies, in order, to the target's control connection. */
static void fake_start(const char *const *replies)
{
	struct rs_err err = { 0 };

	fake_server_start(&fake, "fake", fake_serve_script, replies);
	memset(&tgt, 0, sizeof tgt);
	tgt.socket = fake.path;
	tgt.connect_timeout = 5;
	tgt.timeout = 5;
	target_describe(&tgt);
	cr_assert_eq(target_connect(&tgt, &ctl, &err), 0, "%s", err.msg);
}

static void fake_stop(void)
{
	if (ctl != NULL)
		target_close(ctl);
	ctl = NULL;
	fake_server_stop(&fake);
}

Test(target, fake_info_error_reply, .fini = fake_stop)
{
	static const char *const replies[] = { "+OK\r\n", "-ERR INFO is busy\r\n", NULL };
	struct rs_err err = { 0 };
	char *info = NULL, want[256];

	fake_start(replies);
	cr_assert_eq(target_info(ctl, &tgt, "keyspace", &info, &err), -1);
	cr_assert_null(info);
	snprintf(want, sizeof want, "%s: INFO keyspace failed: ERR INFO is busy", tgt.desc);
	cr_assert_str_eq(err.msg, want);
}

/* The script's keyspace text that does not read so: the guard must not
 * guess, even when the script says it flushed. */
Test(target, fake_flush_if_unreadable_keyspace, .fini = fake_stop)
{
	static const char *const replies[] = {
		"+OK\r\n", "*2\r\n:1\r\n$19\r\n# Keyspace\r\ndb0:xx\r\n\r\n", NULL,
	};
	struct rs_err err = { 0 };
	struct target_keyspace ks;

	fake_start(replies);
	cr_assert_eq(target_flush_if(ctl, &tgt, 0, 0, TARGET_SCOPE_ALL, 0, NULL, &ks, NULL, 0, &err), -1);
	cr_assert(strstr(err.msg, "INFO keyspace has a line rsweep cannot read: 'db0:xx'") != NULL,
		  "%s", err.msg);
	cr_assert_eq(strncmp(err.msg, tgt.desc, strlen(tgt.desc)), 0, "%s", err.msg);
	target_keyspace_free(&ks);
}

/* A reply of another shape than the script's: it may not have run. */
Test(target, fake_flush_if_unexpected_reply, .fini = fake_stop)
{
	static const char *const replies[] = { "+OK\r\n", ":1\r\n", NULL };
	struct rs_err err = { 0 };
	struct target_keyspace ks;
	char want[256];

	fake_start(replies);
	cr_assert_eq(target_flush_if(ctl, &tgt, 0, 0, TARGET_SCOPE_ALL, 0, NULL, &ks, NULL, 0, &err), 2);
	snprintf(want, sizeof want, "%s: EVAL gave an unexpected reply", tgt.desc);
	cr_assert_str_eq(err.msg, want);
	target_keyspace_free(&ks);
}

Test(target, fake_point_stats_without_cpu, .fini = fake_stop)
{
	static const char *const replies[] = {
		"+OK\r\n", "$43\r\n# Commandstats\r\ncmdstat_get:calls=5,usec=1\r\n\r\n", "$0\r\n\r\n",
		NULL,
	};
	struct rs_err err = { 0 };
	struct target_stats st;

	fake_start(replies);
	cr_assert_eq(target_point_stats(ctl, &tgt, "get", &st, &err), 0, "%s", err.msg);
	cr_assert_eq(st.calls, 5);
	cr_assert(isnan(st.cpu), "a server without INFO cpu: CPU unknown, not a failure");
	cr_assert_eq(st.hits, -1, "no INFO stats: unknown");
	cr_assert_eq(st.misses, -1);
}

/* A server that counts no commands (no cmdstat_ line at all): the calls
 * are unknown (-1), not 0, which would read as nothing run. */
Test(target, fake_point_stats_without_commandstats, .fini = fake_stop)
{
	static const char *const replies[] = {
		"+OK\r\n", "$58\r\n# CPU\r\nused_cpu_sys:1.5\r\nused_cpu_user:2\r\n# Commandstats\r\n\r\n",
		NULL,
	};
	struct rs_err err = { 0 };
	struct target_stats st;

	fake_start(replies);
	cr_assert_eq(target_point_stats(ctl, &tgt, "get,set", &st, &err), 0, "%s", err.msg);
	cr_assert_eq(st.calls, -1);
	cr_assert_eq(st.each[0], -1);
	cr_assert_eq(st.each[1], -1);
	cr_assert_float_eq(st.cpu, 3.5, 1e-9);
}

/* A server that closes: the command fails, and so does every later one,
 * without being sent. */
Test(target, fake_closed_connection, .fini = fake_stop)
{
	static const char *const replies[] = { "+OK\r\n", NULL };
	struct rs_err err = { 0 };

	fake_start(replies);
	cr_assert_eq(target_simple(ctl, &tgt, &err, "PING"), -1);
	cr_assert_eq(strncmp(err.msg, tgt.desc, strlen(tgt.desc)), 0, "%s", err.msg);
	cr_assert_eq(target_simple(ctl, &tgt, &err, "PING"), -1);
	cr_assert(strstr(err.msg, "PING not sent: the connection failed before") != NULL, "%s",
		  err.msg);
}

/* INFO replication read for --read-from (issue 47): a primary's offset, a
 * replica's, its link, and the replication id that ties them. */
Test(target, repl_parse)
{
	struct target_repl r;

	target_repl_parse("# Replication\r\nrole:master\r\nconnected_slaves:1\r\n"
			  "master_replid:abc123\r\nmaster_repl_offset:4242\r\n", &r);
	cr_assert_eq(r.replica, 0);
	cr_assert_eq(r.offset, 4242);
	cr_assert_str_eq(r.replid, "abc123");
	target_repl_parse("# Replication\r\nrole:slave\r\nmaster_host:127.0.0.1\r\n"
			  "master_link_status:up\r\nslave_repl_offset:4200\r\n"
			  "master_replid:abc123\r\nmaster_repl_offset:4200\r\n", &r);
	cr_assert_eq(r.replica, 1);
	cr_assert_eq(r.link_up, 1);
	cr_assert_eq(r.offset, 4200, "a replica's own offset, not master_repl_offset");
	target_repl_parse("role:slave\r\nmaster_link_status:down\r\n", &r);
	cr_assert_eq(r.link_up, 0);
	cr_assert_eq(r.offset, -1, "no offset given: unknown");
}
