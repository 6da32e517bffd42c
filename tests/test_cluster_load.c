/* test_cluster_load.c: the load on a cluster (cluster_load.h) against three
 * redis-servers started here on 127.0.0.1, standing in for a cluster's
 * masters: the slot map is a canned CLUSTER SLOTS reply naming them.  A
 * standalone server takes any key, so what each one holds afterwards shows
 * where the load sent its keys: each master's share of the requests, each
 * key on its master's slots, a fixed key tagged per master.  Redirects
 * (MOVED, ASK), which only a live cluster gives, are the CLI scripts'
 * (tests/cli/cluster_*.sh). */
#include "config.h"

#include <criterion/criterion.h>
#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/cluster.h"
#include "engine/cluster_load.h"
#include "workload/workload.h"
#include "redis_helper.h"
#include "resp_helper.h"

#define CL_N 3

static struct spawn srv[CL_N];
static struct cluster_topo topo;
static struct cluster_load *cl;
static struct target seed;
static struct workload w;

/* Three servers, and the slot map redis-cli --cluster create would make
 * of them: 0-5460, 5461-10922, 10923-16383. */
static void cl_setup(void)
{
	static const unsigned lo[CL_N] = { 0, 5461, 10923 }, hi[CL_N] = { 5460, 10922, 16383 };
	struct rs_err err = { 0 };
	char resp[1024];
	size_t n;
	redisReply *r;

	for (int i = 0; i < CL_N; i++)
		cr_assert_eq(spawn_start(&srv[i], redis_server(), SPAWN_TCP, NULL, 10, &err), 0, "%s",
			     err.msg);
	n = (size_t)snprintf(resp, sizeof resp, "*%d\r\n", CL_N);
	for (int i = 0; i < CL_N; i++)
		n += (size_t)snprintf(resp + n, sizeof resp - n,
				      "*3\r\n:%u\r\n:%u\r\n*3\r\n$9\r\n127.0.0.1\r\n:%u\r\n$2\r\nn%d\r\n",
				      lo[i], hi[i], srv[i].port, i);
	r = resp_reply(resp);
	cr_assert_eq(cluster_parse_slots(r, "127.0.0.1", &topo, &err), 0, "%s", err.msg);
	freeReplyObject(r);
	cr_assert_eq(topo.n, CL_N);
	memset(&seed, 0, sizeof seed);
	seed.host = "127.0.0.1";
	seed.port = srv[0].port;
	seed.connect_timeout = 5;
	seed.timeout = 10;
	target_describe(&seed);
}

static void cl_open(void)
{
	struct rs_err err = { 0 };

	cl_setup();
	cr_assert_eq(cluster_load_new(&seed, &topo, 2, 1, 0, &cl, &err), 0, "%s", err.msg);
}

static void cl_teardown(void)
{
	cluster_load_free(cl);
	cl = NULL;
	cluster_topo_free(&topo);
	workload_free(&w);
	for (int i = 0; i < CL_N; i++)
		spawn_stop(&srv[i]);
}

/* The job a sweep runs for the catalogue's test name, at depth 4. */
static struct engine_job cl_job(const char *name, uint64_t keyspace, uint64_t requests)
{
	struct rs_err err = { 0 };
	struct engine_job job;

	workload_free(&w);
	cr_assert_eq(workload_select(name, 3, &w, &err), 0, "%s", err.msg);
	cr_assert_eq(w.n, 1, "%s", name);
	job = (struct engine_job){
		.cmd = w.v[0].cmd, .len = w.v[0].len, .rand_off = w.v[0].rand_off,
		.nrand = w.v[0].nrand, .keyspace = keyspace, .seed = 1, .depth = 4,
		.mode = ENGINE_LOCKSTEP, .requests = requests, .timeout = 10,
		.max_reply = workload_max_reply(3), .expect = w.v[0].expect,
	};
	return job;
}

static redisContext *cl_connect(int i)
{
	redisContext *c = redisConnect("127.0.0.1", (int)srv[i].port);

	cr_assert(c != NULL && c->err == 0, "127.0.0.1:%u: %s", srv[i].port, c ? c->errstr : "");
	return c;
}

/* Server i's count of calls of cmd (lower case), from INFO commandstats:
 * an independent look, outside rsweep's code. */
static long long cl_calls(int i, const char *cmd)
{
	redisContext *c = cl_connect(i);
	redisReply *r = redisCommand(c, "INFO commandstats");
	char field[64];
	const char *p;
	long long v = 0;

	cr_assert(r != NULL && r->type == REDIS_REPLY_STRING);
	snprintf(field, sizeof field, "cmdstat_%s:calls=", cmd);
	if ((p = strstr(r->str, field)) != NULL)
		v = atoll(p + strlen(field));
	freeReplyObject(r);
	redisFree(c);
	return v;
}

/* Server i's keys (KEYS *: a test's few thousand). */
static redisReply *cl_keys(int i)
{
	redisContext *c = cl_connect(i);
	redisReply *r = redisCommand(c, "KEYS *");

	cr_assert(r != NULL && r->type == REDIS_REPLY_ARRAY);
	redisFree(c);
	return r;
}

Test(cluster_load, each_master_runs_its_share_with_keys_of_its_slots, .init = cl_open,
     .fini = cl_teardown)
{
	struct engine_job job = cl_job("set", 1000, 3001);
	struct engine_result res, per[CL_N];
	struct rs_err err = { 0 };
	long long before[CL_N];
	size_t keys = 0;

	for (int i = 0; i < CL_N; i++)
		before[i] = cl_calls(i, "set");
	cr_assert_eq(cluster_load_check(cl, &job, &err), 0, "%s", err.msg);
	cr_assert_eq(cluster_load_run(cl, &job, &res, per, &err), 0, "%s", err.msg);
	cr_assert_eq(res.requests, 3001);
	cr_assert_eq(res.errors, 0, "%s", res.first_error);
	cr_assert_eq(res.redirects, 0);
	cr_assert_eq(res.hist.count, 3001);
	for (int i = 0; i < CL_N; i++) {
		redisReply *k = cl_keys(i);
		uint64_t share = i == 0 ? 1001 : 1000;  /* 3001 over 3, the rest to the first */

		cr_assert_eq(per[i].requests, share, "master %d ran %llu", i,
			     (unsigned long long)per[i].requests);
		cr_assert_eq(cl_calls(i, "set") - before[i], (long long)share,
			     "master %d's server counted otherwise", i);
		cr_assert_gt(k->elements, 0, "master %d got no key", i);
		for (size_t j = 0; j < k->elements; j++) {
			const redisReply *e = k->element[j];
			unsigned slot = cluster_key_slot(e->str, e->len);

			cr_assert_eq(strncmp(e->str, "key:", 4), 0, "%s", e->str);
			cr_assert_eq(topo.owner[slot], i, "%s (slot %u) is on master %d", e->str, slot, i);
		}
		keys += k->elements;
		freeReplyObject(k);
	}
	cr_assert_leq(keys, 1000, "%zu keys from a keyspace of 1000", keys);
}

/* LPUSH mylist has no random part: each master gets its own list, tagged
 * with a slot it serves, and every push of its share goes there. */
Test(cluster_load, a_fixed_key_gets_one_tagged_key_per_master, .init = cl_open,
     .fini = cl_teardown)
{
	struct engine_job job = cl_job("lpush", 1000, 300);
	struct engine_result res, per[CL_N];
	struct rs_err err = { 0 };

	cr_assert_eq(cluster_load_check(cl, &job, &err), 0, "%s", err.msg);
	cr_assert_eq(cluster_load_run(cl, &job, &res, per, &err), 0, "%s", err.msg);
	cr_assert_eq(res.requests, 300);
	for (int i = 0; i < CL_N; i++) {
		redisReply *k = cl_keys(i);
		redisContext *c = cl_connect(i);
		redisReply *len;
		char want[64];

		snprintf(want, sizeof want, "mylist%s", cluster_load_tag(cl, (size_t)i));
		cr_assert_eq(k->elements, 1, "master %d holds %zu keys", i, k->elements);
		cr_assert_str_eq(k->element[0]->str, want);
		cr_assert_eq(topo.owner[cluster_key_slot(want, strlen(want))], i, "%s", want);
		len = redisCommand(c, "LLEN %s", want);
		cr_assert_eq(len->integer, 100, "%s has %lld elements", want, len->integer);
		freeReplyObject(len);
		freeReplyObject(k);
		redisFree(c);
	}
}

/* PING names no key: it runs on every master, each its share. */
Test(cluster_load, a_command_without_key_runs_on_every_master, .init = cl_open,
     .fini = cl_teardown)
{
	struct engine_job job = cl_job("ping_mbulk", 0, 31);
	struct engine_result res;
	struct rs_err err = { 0 };
	long long before[CL_N];

	for (int i = 0; i < CL_N; i++)
		before[i] = cl_calls(i, "ping");
	cr_assert_eq(cluster_load_check(cl, &job, &err), 0, "%s", err.msg);
	cr_assert_eq(cluster_load_run(cl, &job, &res, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(res.requests, 31);
	for (int i = 0; i < CL_N; i++)
		cr_assert_eq(cl_calls(i, "ping") - before[i], i == 0 ? 11 : 10, "master %d", i);
}

/* A mix of SET (key:N), INCR (counter:N, a pool of its own) and LPUSH
 * (mylist, tagged per master): each member's keys on the master's slots,
 * and each master's count of each member what its server ran. */
static void cl_mix(enum engine_mode mode, unsigned depth)
{
	static const char *const cmds[] = { "set", "incr", "lpush" };
	struct engine_member members[3];
	struct engine_result res, per[CL_N];
	struct rs_err err = { 0 };
	long long before[CL_N][3];
	uint64_t total = 0;

	workload_free(&w);
	cr_assert_eq(workload_select("mix:set=2,incr=1,lpush=1", 3, &w, &err), 0, "%s", err.msg);
	for (size_t m = 0; m < 3; m++)
		members[m] = (struct engine_member){
			.cmd = w.v[0].members[m].cmd, .len = w.v[0].members[m].len,
			.rand_off = w.v[0].members[m].rand_off, .nrand = w.v[0].members[m].nrand,
			.weight = w.v[0].weights[m],
		};
	struct engine_job job = {
		.members = members, .nmembers = 3, .keyspace = 1000, .seed = 7, .depth = depth,
		.mode = mode, .requests = 3001, .timeout = 10, .max_reply = workload_max_reply(3),
		.expect = w.v[0].expect,
	};

	for (int i = 0; i < CL_N; i++)
		for (size_t m = 0; m < 3; m++)
			before[i][m] = cl_calls(i, cmds[m]);
	cr_assert_eq(cluster_load_check(cl, &job, &err), 0, "%s", err.msg);
	cr_assert_eq(cluster_load_run(cl, &job, &res, per, &err), 0, "%s", err.msg);
	cr_assert_eq(res.requests, 3001);
	cr_assert_eq(res.errors, 0, "%s", res.first_error);
	for (size_t m = 0; m < 3; m++) {
		uint64_t sum = 0;

		for (int i = 0; i < CL_N; i++) {
			cr_assert_gt(per[i].member_sent[m], 0, "master %d never drew %s", i, cmds[m]);
			cr_assert_eq(cl_calls(i, cmds[m]) - before[i][m], (long long)per[i].member_sent[m],
				     "master %d: %s", i, cmds[m]);
			sum += per[i].member_sent[m];
		}
		cr_assert_eq(res.member_sent[m], sum, "%s summed over the masters", cmds[m]);
		total += sum;
	}
	cr_assert_eq(total, 3001);
	for (int i = 0; i < CL_N; i++) {
		redisReply *k = cl_keys(i);
		char list[64];
		int lists = 0;

		snprintf(list, sizeof list, "mylist%s", cluster_load_tag(cl, (size_t)i));
		for (size_t j = 0; j < k->elements; j++) {
			const redisReply *e = k->element[j];
			unsigned slot = cluster_key_slot(e->str, e->len);

			cr_assert(strncmp(e->str, "key:", 4) == 0 || strncmp(e->str, "counter:", 8) == 0 ||
				  strcmp(e->str, list) == 0, "%s on master %d", e->str, i);
			cr_assert_eq(topo.owner[slot], i, "%s (slot %u) is on master %d", e->str, slot, i);
			lists += strcmp(e->str, list) == 0;
		}
		cr_assert_eq(lists, 1, "master %d has no %s", i, list);
		freeReplyObject(k);
	}
}

Test(cluster_load, a_mix_keys_each_member_for_its_master, .init = cl_open, .fini = cl_teardown)
{
	cl_mix(ENGINE_LOCKSTEP, 1);
	cl_mix(ENGINE_LOCKSTEP, 16);
	cl_mix(ENGINE_WINDOW, 7);
}

Test(cluster_load, check_refuses_an_open_loop, .init = cl_open, .fini = cl_teardown)
{
	struct engine_job job = cl_job("get", 1000, 100);
	struct rs_err err = { 0 };

	job.rate = 1000;
	cr_assert_eq(cluster_load_check(cl, &job, &err), -1);
	cr_assert_eq(err.kind, RS_E_USAGE);
	cr_assert_str_eq(err.msg, "--cluster runs closed loop only: drop --rate");
}

Test(cluster_load, check_refuses_a_script_with_keys_not_one_without, .init = cl_open,
     .fini = cl_teardown)
{
	static const char keyed[] = "*4\r\n$4\r\nEVAL\r\n$8\r\nreturn 1\r\n$1\r\n1\r\n$1\r\nk\r\n";
	static const char keyless[] = "*3\r\n$4\r\nEVAL\r\n$8\r\nreturn 1\r\n$1\r\n0\r\n";
	struct engine_job job = { .cmd = keyed, .len = sizeof keyed - 1, .depth = 1, .requests = 3,
				  .timeout = 10, .max_reply = workload_max_reply(3) };
	struct engine_result res;
	struct rs_err err = { 0 };

	cr_assert_eq(cluster_load_check(cl, &job, &err), -1);
	cr_assert_eq(err.kind, RS_E_USAGE);
	cr_assert_str_eq(err.msg, "--cluster runs a script or function only with no keys "
			 "(numkeys 0): its keys could be on any master");
	job.cmd = keyless;
	job.len = sizeof keyless - 1;
	cr_assert_eq(cluster_load_check(cl, &job, &err), 0, "%s", err.msg);
	cr_assert_eq(cluster_load_run(cl, &job, &res, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(res.requests, 3);
	cr_assert_eq(res.errors, 0, "%s", res.first_error);
}

Test(cluster_load, check_refuses_mset_with_random_keys_only, .init = cl_open,
     .fini = cl_teardown)
{
	struct engine_job job = cl_job("mset", 1000, 100);
	struct rs_err err = { 0 };

	cr_assert_gt(job.nrand, 1, "MSET of the catalogue has several keys");
	cr_assert_eq(cluster_load_check(cl, &job, &err), -1);
	cr_assert_eq(err.kind, RS_E_INPUT);
	cr_assert_str_eq(err.msg, "--cluster: MSET's random keys fall in different slots, which a "
			 "cluster refuses (CROSSSLOT): leave MSET out");
	job.keyspace = 0;
	cr_assert_eq(cluster_load_check(cl, &job, &err), 0, "literal keys: %s", err.msg);
}

/* -r 1: one key, on one master's slots; the first master without names it. */
Test(cluster_load, check_refuses_a_keyspace_that_misses_a_master, .init = cl_open,
     .fini = cl_teardown)
{
	struct engine_job job = cl_job("get", 1, 100);
	struct rs_err err = { 0 };
	unsigned owner = topo.owner[cluster_key_slot("key:000000000000", 16)];
	char want[160];

	snprintf(want, sizeof want, "with -r 1 no key of the keyspace falls on 127.0.0.1:%u's "
		 "slots: give a larger -r", srv[owner == 0 ? 1 : 0].port);
	cr_assert_eq(cluster_load_check(cl, &job, &err), -1);
	cr_assert_eq(err.kind, RS_E_INPUT);
	cr_assert_str_eq(err.msg, want);
	job.keyspace = 100;
	cr_assert_eq(cluster_load_check(cl, &job, &err), 0, "-r 100: %s", err.msg);
}

/* A tag after a key that has one would not move it: refused, before any
 * request is sent. */
Test(cluster_load, a_fixed_key_with_a_hash_tag_of_its_own_is_refused, .init = cl_open,
     .fini = cl_teardown)
{
	static const char incr[] = "*2\r\n$4\r\nINCR\r\n$4\r\nk{x}\r\n";
	struct engine_job job = { .cmd = incr, .len = sizeof incr - 1, .depth = 1, .requests = 3,
				  .timeout = 10, .max_reply = workload_max_reply(3) };
	struct engine_result res;
	struct rs_err err = { 0 };

	cr_assert_eq(cluster_load_run(cl, &job, &res, NULL, &err), -1);
	cr_assert_eq(err.kind, RS_E_INPUT);
	cr_assert_str_eq(err.msg, "the command's key has a hash tag of its own ({...}): with "
			 "--cluster a fixed key gets one per master, so it must have none");
	for (int i = 0; i < CL_N; i++)
		cr_assert_eq(cl_calls(i, "incr"), 0, "master %d was sent INCR", i);
}

/* The map gives every slot of master 2 to master 0: a master serving no
 * slot is refused when the load is made, and when it runs. */
static void cl_take_slots(unsigned from, unsigned to)
{
	for (unsigned s = 0; s < CLUSTER_SLOTS; s++)
		if (topo.owner[s] == from)
			topo.owner[s] = (uint16_t)to;
}

Test(cluster_load, a_master_serving_no_slot_is_refused_at_new, .init = cl_setup,
     .fini = cl_teardown)
{
	struct rs_err err = { 0 };
	char want[96];

	cl_take_slots(2, 0);
	snprintf(want, sizeof want, "127.0.0.1:%u serves no slot", srv[2].port);
	cr_assert_eq(cluster_load_new(&seed, &topo, 1, 1, 0, &cl, &err), -1);
	cr_assert_null(cl);
	cr_assert_str_eq(err.msg, want);
}

Test(cluster_load, a_master_serving_no_slot_now_fails_the_run, .init = cl_open,
     .fini = cl_teardown)
{
	struct engine_job job = cl_job("get", 1000, 100);
	struct engine_result res;
	struct rs_err err = { 0 };
	char want[96];

	cl_take_slots(1, 0);
	snprintf(want, sizeof want, "127.0.0.1:%u serves no slot now", srv[1].port);
	cr_assert_eq(cluster_load_run(cl, &job, &res, NULL, &err), -1);
	cr_assert_str_eq(err.msg, want);
}

/* A master gone: the run fails naming it, the others' results still
 * summed; after it is back, a reconnect makes the load whole again. */
Test(cluster_load, a_master_gone_fails_the_run_naming_it, .init = cl_open, .fini = cl_teardown)
{
	struct engine_job job = cl_job("get", 1000, 300);
	struct engine_result res;
	struct rs_err err = { 0 };
	char name[64];

	spawn_stop(&srv[1]);
	snprintf(name, sizeof name, "127.0.0.1:%u", topo.m[1].port);
	cr_assert_eq(cluster_load_run(cl, &job, &res, NULL, &err), -1);
	cr_log_info("%s", err.msg);
	cr_assert_not_null(strstr(err.msg, name), "'%s' does not name %s", err.msg, name);
	cr_assert_null(strchr(err.msg, '\n'));
	cr_assert_lt(res.requests, 300);
	cr_assert_geq(res.requests, 200, "the other masters' shares: %llu",
		      (unsigned long long)res.requests);
	cr_assert_neq(cluster_load_reconnect(cl, &err), 0, "reconnected to a server that is gone");
}

/* Every connection of every master anew: each sends its handshake again
 * (SELECT 0), two a master here. */
Test(cluster_load, reconnect_gives_every_master_fresh_connections, .init = cl_open,
     .fini = cl_teardown)
{
	struct engine_job job = cl_job("get", 1000, 300);
	struct engine_result res;
	struct rs_err err = { 0 };
	long long before[CL_N];

	for (int i = 0; i < CL_N; i++)
		before[i] = cl_calls(i, "select");
	cr_assert_eq(cluster_load_reconnect(cl, &err), 0, "%s", err.msg);
	for (int i = 0; i < CL_N; i++)
		cr_assert_eq(cl_calls(i, "select") - before[i], 2, "master %d", i);
	cr_assert_eq(cluster_load_run(cl, &job, &res, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(res.requests, 300);
}
