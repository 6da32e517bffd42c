/* test_engine_mix.c: the engine's mixes (a job of several members drawn
 * per request) against a real redis-server started here on a private
 * UNIX socket: each member's requests sent equal the server's
 * commandstats calls for its command, at P=1 and P=16, lock-step, window
 * and open loop, and the draws meet the weights (a chi-square test whose
 * threshold is the 1e-9 quantile: a correct engine fails it once in a
 * billion runs). */
#include "config.h"

#include <criterion/criterion.h>
#include <hiredis/hiredis.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/keydist.h"
#include "net/spawn.h"
#include "sweep/sweep.h"
#include "workload/workload.h"
#include "redis_helper.h"

static struct spawn srv;
static struct target tgt;

static void setup(void)
{
	redis_start(&srv, &tgt, NULL);
}

static void teardown(void)
{
	spawn_stop(&srv);
}

/* The server's calls of one command (cmdstat_<cmd>), read by hiredis
 * outside rsweep's code. */
static long long calls(const char *cmd)
{
	redisContext *c = redisConnectUnix(srv.socket);
	redisReply *r = redisCommand(c, "INFO commandstats");
	char field[80];
	const char *p;
	long long v = 0;

	snprintf(field, sizeof field, "cmdstat_%s:calls=", cmd);
	if ((p = strstr(r->str, field)) != NULL)
		v = atoll(p + strlen(field));
	freeReplyObject(r);
	redisFree(c);
	return v;
}

/* The 1e-9 upper quantiles of chi-square with 1..3 degrees of freedom. */
static const double chi2_limit[] = { 0, 37.33, 41.45, 44.84 };

/* Chi-square of counts against weights (n of each). */
static double chi2(const uint64_t *count, const unsigned *weight, size_t n)
{
	double total = 0, wsum = 0, x = 0;

	for (size_t i = 0; i < n; i++) {
		total += (double)count[i];
		wsum += weight[i];
	}
	for (size_t i = 0; i < n; i++) {
		double want = total * weight[i] / wsum, d = (double)count[i] - want;

		x += d * d / want;
	}
	return x;
}

/* Run a mix of the catalogue tests names[] (with their server command
 * names cmds[]) at weights w, n requests, and check every member's sent
 * count against the server's calls, their sum against the replies, and
 * the weights by chi-square. */
static void run_mix(const char *list, const char *const *cmds, const unsigned *w, size_t nm,
		    uint64_t data_size, unsigned depth, enum engine_mode mode, double rate,
		    unsigned clients, unsigned threads, uint64_t n)
{
	struct workload wl;
	struct engine_member members[ENGINE_MAX_MEMBERS];
	struct engine *e;
	struct engine_result res;
	struct rs_err err = { 0 };
	long long before[ENGINE_MAX_MEMBERS];
	unsigned expect = 0;
	uint64_t sum = 0;

	cr_assert_eq(workload_select(list, data_size, &wl, &err), 0, "%s", err.msg);
	cr_assert_eq(wl.n, nm);
	for (size_t i = 0; i < nm; i++) {
		members[i] = (struct engine_member){ .cmd = wl.v[i].cmd, .len = wl.v[i].len,
			.rand_off = wl.v[i].rand_off, .nrand = wl.v[i].nrand, .weight = w[i] };
		expect |= wl.v[i].expect;
		before[i] = calls(cmds[i]);
	}
	struct engine_job job = {
		.members = members, .nmembers = nm, .keyspace = 1000, .seed = 7, .depth = depth,
		.mode = mode, .rate = rate, .requests = n, .timeout = 10,
		.max_reply = workload_max_reply(data_size), .expect = expect,
	};

	cr_assert_eq(engine_new(&tgt, clients, threads, &e, &err), 0, "%s", err.msg);
	cr_assert_eq(engine_run(e, &job, &res, &err), 0, "%s P=%u: %s", list, depth, err.msg);
	engine_free(e);
	cr_assert_eq(res.requests, n, "%s P=%u", list, depth);
	cr_assert_eq(res.errors, 0, "%s P=%u: %s", list, depth, res.first_error);
	/* Every request has a latency: stamps of partial writes included. */
	cr_assert_eq(res.hist.count, n, "%s P=%u", list, depth);
	for (size_t i = 0; i < nm; i++) {
		long long got = calls(cmds[i]) - before[i];

		cr_assert_eq(got, (long long)res.member_sent[i],
			     "%s P=%u mode %d: %s sent %llu, the server counted %lld", list, depth,
			     (int)mode, cmds[i], (unsigned long long)res.member_sent[i], got);
		sum += res.member_sent[i];
	}
	for (size_t i = nm; i < ENGINE_MAX_MEMBERS; i++)
		cr_assert_eq(res.member_sent[i], 0);
	cr_assert_eq(sum, n);
	cr_assert_lt(chi2(res.member_sent, w, nm), chi2_limit[nm - 1],
		     "%s P=%u: chi-square %g", list, depth, chi2(res.member_sent, w, nm));
	workload_free(&wl);
}

Test(engine_mix, lockstep_counts_per_member_match_commandstats, .init = setup,
     .fini = teardown, .timeout = 120)
{
	static const char *const cmds[] = { "get", "set" };
	static const unsigned w[] = { 80, 20 };

	run_mix("get,set", cmds, w, 2, 3, 1, ENGINE_LOCKSTEP, 0, 1, 1, 20000);
	run_mix("get,set", cmds, w, 2, 3, 16, ENGINE_LOCKSTEP, 0, 4, 2, 20011);
}

Test(engine_mix, window_counts_per_member_match_commandstats, .init = setup,
     .fini = teardown, .timeout = 120)
{
	static const char *const cmds[] = { "get", "set", "incr" };
	static const unsigned w[] = { 5, 3, 2 };

	run_mix("get,set,incr", cmds, w, 3, 3, 1, ENGINE_WINDOW, 0, 1, 1, 20000);
	run_mix("get,set,incr", cmds, w, 3, 3, 16, ENGINE_WINDOW, 0, 3, 2, 20011);
}

Test(engine_mix, open_loop_counts_per_member_match_commandstats, .init = setup,
     .fini = teardown, .timeout = 120)
{
	static const char *const cmds[] = { "get", "lpush" };
	static const unsigned w[] = { 1, 1 };

	run_mix("get,lpush", cmds, w, 2, 3, 16, ENGINE_WINDOW, 40000, 2, 1, 6001);
}

/* Members of very different lengths, and a batch larger than the
 * socket takes at once: partial writes end between requests and within
 * them, and each stamp must count the requests whose last byte is out. */
Test(engine_mix, partial_writes_of_unequal_members, .init = setup, .fini = teardown,
     .timeout = 120)
{
	static const char *const cmds[] = { "get", "set" };
	static const unsigned w[] = { 3, 1 };

	run_mix("get,set", cmds, w, 2, 100000, 16, ENGINE_LOCKSTEP, 0, 2, 1, 2000);
	run_mix("get,set", cmds, w, 2, 100000, 16, ENGINE_WINDOW, 0, 2, 1, 2000);
}

/* Five members at weights that no power of two divides: the alias draw
 * is exact, not rounded to buckets. */
Test(engine_mix, many_members_meet_their_weights, .init = setup, .fini = teardown,
     .timeout = 120)
{
	static const char *const cmds[] = { "get", "set", "incr", "sadd", "hset" };
	static const unsigned w[] = { 7, 1, 3, 11, 5 };
	/* df = 4: the 1e-9 quantile is 47.8; checked here as the helper's
	 * table stops at df 3. */
	struct workload wl;
	struct engine_member members[5];
	struct engine *e;
	struct engine_result res;
	struct rs_err err = { 0 };
	unsigned expect = 0;

	cr_assert_eq(workload_select("get,set,incr,sadd,hset", 3, &wl, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < 5; i++) {
		members[i] = (struct engine_member){ .cmd = wl.v[i].cmd, .len = wl.v[i].len,
			.rand_off = wl.v[i].rand_off, .nrand = wl.v[i].nrand, .weight = w[i] };
		expect |= wl.v[i].expect;
	}
	struct engine_job job = {
		.members = members, .nmembers = 5, .keyspace = 100, .seed = 3, .depth = 32,
		.mode = ENGINE_LOCKSTEP, .requests = 50000, .timeout = 10,
		.max_reply = workload_max_reply(3), .expect = expect,
	};

	cr_assert_eq(engine_new(&tgt, 2, 1, &e, &err), 0, "%s", err.msg);
	cr_assert_eq(engine_run(e, &job, &res, &err), 0, "%s", err.msg);
	cr_assert_eq(res.requests, 50000);
	for (size_t i = 0; i < 5; i++)
		cr_assert_gt(res.member_sent[i], 0, "%s never drawn", cmds[i]);
	cr_assert_lt(chi2(res.member_sent, w, 5), 47.8, "chi-square %g",
		     chi2(res.member_sent, w, 5));
	/* A weight of 0, or more members than the engine holds: refused
	 * before anything is sent. */
	members[1].weight = 0;
	cr_assert_eq(engine_run(e, &job, &res, &err), -1);
	cr_assert(strstr(err.msg, "weight 0") != NULL, "%s", err.msg);
	members[1].weight = 1;
	job.nmembers = ENGINE_MAX_MEMBERS + 1;
	cr_assert_eq(engine_run(e, &job, &res, &err), -1);
	cr_assert(strstr(err.msg, "mix of 17") != NULL, "%s", err.msg);
	engine_free(e);
	workload_free(&wl);
}

/* --key-dist sequential in a mix: the batch claims exactly the numbers
 * its members patch, so that N requests of SET and INCR (one key each)
 * over a keyspace of N write N distinct keys, each number once. */
Test(engine_mix, sequential_keys_claimed_per_member, .init = setup, .fini = teardown,
     .timeout = 60)
{
	struct workload wl;
	struct engine_member members[2];
	struct keydist_spec spec = { .kind = KEYDIST_SEQUENTIAL };
	struct keydist *kd;
	struct engine *e;
	struct engine_result res;
	struct rs_err err = { 0 };
	redisContext *c;
	redisReply *r;

	cr_assert_eq(workload_select("set,incr", 3, &wl, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < 2; i++)
		members[i] = (struct engine_member){ .cmd = wl.v[i].cmd, .len = wl.v[i].len,
			.rand_off = wl.v[i].rand_off, .nrand = wl.v[i].nrand, .weight = 1 };
	cr_assert_eq(keydist_new(&spec, 1000, &kd, &err), 0, "%s", err.msg);
	struct engine_job job = {
		.members = members, .nmembers = 2, .keyspace = 1000, .keydist = kd, .seed = 5,
		.depth = 7, .mode = ENGINE_WINDOW, .requests = 1000, .timeout = 10,
		.max_reply = workload_max_reply(3),
		.expect = ENGINE_REPLY_STATUS | ENGINE_REPLY_INTEGER,
	};

	cr_assert_eq(engine_new(&tgt, 3, 2, &e, &err), 0, "%s", err.msg);
	cr_assert_eq(engine_run(e, &job, &res, &err), 0, "%s", err.msg);
	cr_assert_eq(res.requests, 1000);
	c = redisConnectUnix(srv.socket);
	r = redisCommand(c, "DBSIZE");
	cr_assert_eq(r->integer, 1000, "%lld keys", r->integer);
	freeReplyObject(r);
	redisFree(c);
	engine_free(e);
	keydist_free(kd);
	workload_free(&wl);
}

/* ---- a mix through the sweep: its row's columns ---- */

static struct rs_row last_row;

static void keep_row(void *ud, const struct rs_row *row, size_t i, size_t n)
{
	(void)ud;
	(void)i;
	(void)n;
	last_row = *row;
}

/* "GET=8;SET=2" into names and counts; returns how many. */
static size_t split_counts(const char *s, char names[][32], long long *v)
{
	size_t n = 0;

	while (*s != '\0' && n < 16) {
		const char *eq = strchr(s, '='), *end = strchr(s, ';');

		cr_assert_not_null(eq, "%s", s);
		snprintf(names[n], 32, "%.*s", (int)(eq - s), s);
		v[n++] = atoll(eq + 1);
		s = end != NULL ? end + 1 : s + strlen(s);
	}
	return n;
}

static void sweep_mix(const char *tests, unsigned depth, enum engine_mode mode, uint64_t n)
{
	struct workload w;
	struct sweep_plan plan;
	struct depth_list d = { (unsigned[]){ depth }, 1 };
	uint64_t no_rate = 0;
	struct rate_list rates = { &no_rate, 0 };
	struct rs_err err = { 0 };
	struct sweep_config sc = {
		.label = "t", .target = &tgt, .spawned = 1, .flush = GUARD_FLUSH_ALL,
		.clients = 4, .threads = 2, .mode = mode, .requests = n, .timeout = 10,
		.keyspace = 1000, .data_size = 3, .seed = 1, .prepare = 1, .on_point = keep_row,
	};
	char sn[16][32], cn[16][32];
	long long sv[16], cv[16], sum = 0;
	size_t ns, nc;

	cr_assert_eq(workload_select(tests, 3, &w, &err), 0, "%s", err.msg);
	sweep_plan_build_rates(w.n, &d, &rates, 1, 0, 1, &plan);
	memset(&last_row, 0, sizeof last_row);
	cr_assert_eq(sweep_run(&sc, &w, &plan, NULL, &err), SWEEP_OK, "%s", err.msg);
	cr_assert_eq(last_row.requests, (int64_t)n);
	cr_assert_eq(last_row.server_calls, (int64_t)n, "the server counted %lld",
		     (long long)last_row.server_calls);
	/* Prepared: GET finds every key it asks for. */
	cr_assert_eq(last_row.misses, 0);
	ns = split_counts(last_row.mix_sent, sn, sv);
	nc = split_counts(last_row.mix_calls, cn, cv);
	cr_assert_eq(ns, w.v[0].nmembers, "%s", last_row.mix_sent);
	cr_assert_eq(nc, ns, "%s / %s", last_row.mix_sent, last_row.mix_calls);
	for (size_t i = 0; i < ns; i++) {
		cr_assert_str_eq(sn[i], cn[i]);
		cr_assert_eq(sv[i], cv[i], "%s: sent %lld, the server counted %lld", sn[i], sv[i],
			     cv[i]);
		sum += sv[i];
	}
	cr_assert_eq(sum, (long long)n);
	sweep_plan_free(&plan);
	workload_free(&w);
}

Test(engine_mix, sweep_rows_carry_each_members_counts, .init = setup, .fini = teardown,
     .timeout = 120)
{
	sweep_mix("mix:get=80,set=20", 1, ENGINE_LOCKSTEP, 5003);
	cr_assert_str_eq(last_row.test, "MIX_GET80_SET20");
	cr_assert_str_eq(last_row.mix, "get=80,set=20");
	sweep_mix("mix:get=80,set=20", 16, ENGINE_LOCKSTEP, 20011);
	sweep_mix("mix:get=80,set=20", 16, ENGINE_WINDOW, 20011);
	/* Pops prepared for every request, and a range read on the same list. */
	sweep_mix("mix:lpop=1,rpop=1,lrange_100=1,get=2", 16, ENGINE_WINDOW, 6001);
}

/* Two members of one command: the server counts them together, and so
 * does mix_calls. */
Test(engine_mix, members_of_one_command_share_their_calls, .init = setup, .fini = teardown,
     .timeout = 120)
{
	struct workload w;
	struct sweep_plan plan;
	struct depth_list d = { (unsigned[]){ 8 }, 1 };
	uint64_t no_rate = 0;
	struct rate_list rates = { &no_rate, 0 };
	struct rs_err err = { 0 };
	struct sweep_config sc = {
		.label = "t", .target = &tgt, .spawned = 1, .flush = GUARD_FLUSH_ALL,
		.clients = 2, .threads = 1, .mode = ENGINE_LOCKSTEP, .requests = 3000, .timeout = 10,
		.keyspace = 100, .data_size = 3, .seed = 1, .prepare = 1, .on_point = keep_row,
	};
	char sn[16][32], cn[16][32];
	long long sv[16], cv[16];

	cr_assert_eq(workload_select("mix:lrange_100=1,get=1,lrange_300=1", 3, &w, &err), 0, "%s",
		     err.msg);
	sweep_plan_build_rates(w.n, &d, &rates, 1, 0, 1, &plan);
	cr_assert_eq(sweep_run(&sc, &w, &plan, NULL, &err), SWEEP_OK, "%s", err.msg);
	cr_assert_eq(last_row.server_calls, 3000);
	cr_assert_eq(split_counts(last_row.mix_sent, sn, sv), 3);
	cr_assert_eq(split_counts(last_row.mix_calls, cn, cv), 2, "%s", last_row.mix_calls);
	cr_assert_str_eq(cn[0], "LRANGE_100+LRANGE_300");
	cr_assert_eq(cv[0], sv[0] + sv[2]);
	cr_assert_str_eq(cn[1], "GET");
	cr_assert_eq(cv[1], sv[1]);
	sweep_plan_free(&plan);
	workload_free(&w);
}
