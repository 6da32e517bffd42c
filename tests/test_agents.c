/* test_agents.c: the leader (agents.h) and the worker (agent.h) through a
 * control redis-server started here, loading a target redis-server started
 * here, both on private UNIX sockets.  Agents run as threads of this
 * process (agent_run until their stop flag is set); where a test needs an
 * agent that misbehaves, a scripted one stands in: it heartbeats, reads
 * its work and answers as the test says.  What the target ran is read
 * from its own INFO, outside rsweep's code. */
#include "config.h"

#include <criterion/criterion.h>
#include <hiredis/hiredis.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agents/agent.h"
#include "agents/agentkey.h"
#include "agents/agentmsg.h"
#include "agents/agents.h"
#include "engine/keydist.h"
#include "workload/workload.h"
#include "redis_helper.h"
#include "resp_helper.h"

static struct spawn ctl_srv, tgt_srv;
static struct target ctl, tgt;
static struct agentkey key, other_key;
static char tgt_uri[160];
static struct workload w;

static void ag_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void setup(void)
{
	redis_start(&ctl_srv, &ctl, NULL);
	redis_start(&tgt_srv, &tgt, NULL);
	snprintf(tgt_uri, sizeof tgt_uri, "unix://%s", tgt_srv.socket);
	key.n = 32;
	memset(key.k, 'k', key.n);
	other_key.n = 32;
	memset(other_key.k, 'o', other_key.n);
}

static void teardown(void)
{
	workload_free(&w);
	spawn_stop(&ctl_srv);
	spawn_stop(&tgt_srv);
}

/* A command on server srv's socket, outside rsweep's code (the caller
 * frees the reply). */
static redisReply *ag_cmd(const struct spawn *srv, const char *fmt, ...)
{
	redisContext *c = redisConnectUnix(srv->socket);
	redisReply *r;
	va_list ap;

	cr_assert(c != NULL && c->err == 0, "%s", c ? c->errstr : "no memory");
	va_start(ap, fmt);
	r = redisvCommand(c, fmt, ap);
	va_end(ap);
	cr_assert_not_null(r, "%s", c->errstr);
	redisFree(c);
	return r;
}

static long long ag_int(const struct spawn *srv, const char *fmt, const char *arg)
{
	redisReply *r = ag_cmd(srv, fmt, arg);
	long long v = r->type == REDIS_REPLY_INTEGER ? r->integer : -1;

	freeReplyObject(r);
	return v;
}

/* The target's calls of cmd (lower case), from INFO commandstats. */
static long long ag_calls(const char *cmd)
{
	redisReply *r = ag_cmd(&tgt_srv, "INFO commandstats");
	char field[64];
	const char *p;
	long long v = 0;

	snprintf(field, sizeof field, "cmdstat_%s:calls=", cmd);
	if ((p = strstr(r->str, field)) != NULL)
		v = atoll(p + strlen(field));
	freeReplyObject(r);
	return v;
}

static int ag_beats(const char *id)
{
	char k[96];

	snprintf(k, sizeof k, "%s%s", AGENTMSG_KEY_ALIVE, id);
	return ag_int(&ctl_srv, "EXISTS %s", k) == 1;
}

/* ---- real agents, as threads ---- */

struct ag {
	struct agent_config cfg;
	char id[32];
	char allowed[160];
	char *allow[1];
	volatile sig_atomic_t stop;
	pthread_t tid;
	int started, rc;
	struct rs_err err;
};

static void *ag_thread(void *arg)
{
	struct ag *a = arg;

	a->rc = agent_run(&a->cfg, &a->err);
	return NULL;
}

/* Start agent id, allowed to reach allow (NULL: the target); wait = 1:
 * until it heartbeats. */
static void ag_start(struct ag *a, const char *id, const char *allow, int wait)
{
	memset(a, 0, sizeof *a);
	snprintf(a->id, sizeof a->id, "%s", id);
	snprintf(a->allowed, sizeof a->allowed, "%s", allow ? allow : tgt_uri);
	a->allow[0] = a->allowed;
	a->cfg.control = &ctl;
	a->cfg.key = &key;
	a->cfg.id = a->id;
	a->cfg.connect_timeout = 5;
	a->cfg.stop = &a->stop;
	a->cfg.allow = a->allow;
	a->cfg.nallow = 1;
	cr_assert_eq(pthread_create(&a->tid, NULL, ag_thread, a), 0);
	a->started = 1;
	for (int i = 0; wait && i < 1000 && !ag_beats(id); i++)
		ag_sleep_ms(10);
	if (wait)
		cr_assert(ag_beats(id), "agent %s never heartbeat", id);
}

/* Wait for its end (its return and error in a->rc, a->err). */
static void ag_join(struct ag *a)
{
	if (!a->started)
		return;
	pthread_join(a->tid, NULL);
	a->started = 0;
}

static void ag_stop(struct ag *a)
{
	a->stop = 1;
	ag_join(a);
}

static struct agents_config ag_config(unsigned n, double wait)
{
	return (struct agents_config){
		.control = &ctl, .key = &key, .n = n, .wait = wait, .target_uri = tgt_uri,
		.clients = 2, .threads = 1,
	};
}

/* The catalogue's test name as a sweep would run it: -r 100, depth 4. */
static struct engine_job ag_job(const char *name, uint64_t requests)
{
	struct rs_err err = { 0 };

	workload_free(&w);
	cr_assert_eq(workload_select(name, 3, &w, &err), 0, "%s", err.msg);
	return (struct engine_job){
		.cmd = w.v[0].cmd, .len = w.v[0].len, .rand_off = w.v[0].rand_off,
		.nrand = w.v[0].nrand, .keyspace = 100, .seed = 7, .depth = 4,
		.mode = ENGINE_LOCKSTEP, .requests = requests, .timeout = 5,
		.max_reply = workload_max_reply(3), .expect = w.v[0].expect,
	};
}

/* ---- the leader and real agents ---- */

Test(agents, a_point_is_split_exactly_over_the_agents_and_merged, .init = setup,
     .fini = teardown)
{
	struct ag a1, a2;
	struct agents *ld = NULL;
	struct agents_config cfg = ag_config(2, 10);
	struct engine_job job = ag_job("set", 1001);
	struct engine_result res;
	struct rs_err err = { 0 };
	struct rs_row row = { 0 };
	const double *skews;
	size_t nskews;
	long long before = ag_calls("set");

	ag_start(&a1, "a1", NULL, 1);
	ag_start(&a2, "a2", NULL, 1);
	cr_assert_eq(agents_open(&cfg, &ld, &err), 0, "%s", err.msg);
	cr_assert_eq(agents_load(ld, &job, "set", 0, &res, &err), 0, "%s", err.msg);
	cr_assert_eq(res.requests, 1001);
	cr_assert_eq(res.hist.count, 1001, "the histograms merged, not averaged");
	cr_assert_eq(res.errors, 0);
	cr_assert_eq(ag_calls("set") - before, 1001, "the target ran another count");
	cr_assert_gt(res.seconds, 0);
	agents_row(ld, &row);
	cr_assert_eq(row.agents_ok, 2);
	cr_assert_eq(row.agents_expected, 2);
	cr_assert(strstr(row.agent_rps, "a1=") != NULL && strstr(row.agent_rps, ";a2=") != NULL,
		  "%s", row.agent_rps);
	skews = agents_skews(ld, &nskews);
	cr_assert_eq(nskews, 2);
	cr_assert_not_null(skews);
	/* A second point of the same run: the same agents, another count. */
	job.requests = 3;
	cr_assert_eq(agents_load(ld, &job, "set", 0, &res, &err), 0, "%s", err.msg);
	cr_assert_eq(res.requests, 3);
	cr_assert_eq(ag_calls("set") - before, 1004);
	agents_close(ld);
	ag_stop(&a1);
	ag_stop(&a2);
	cr_assert_eq(a1.err.kind, RS_E_INTERRUPTED, "%s", a1.err.msg);
	cr_assert_str_eq(a1.err.msg, "agent a1: stopped");
}

/* The job's key distribution reaches the agents (issue 43): 2000 SETs
 * under zipf:2 over a million keys write a few dozen keys, where uniform
 * draws would write nearly 2000. */
Test(agents, a_key_distribution_goes_with_the_job, .init = setup, .fini = teardown)
{
	struct ag a1, a2;
	struct agents *ld = NULL;
	struct agents_config cfg = ag_config(2, 10);
	struct engine_job job = ag_job("set", 2000);
	struct keydist_spec spec = { KEYDIST_ZIPF, 2, 0 };
	struct engine_result res;
	struct rs_err err = { 0 };
	long long keys;

	job.keyspace = 1000000;
	cr_assert_eq(keydist_new(&spec, job.keyspace, &job.keydist, &err), 0, "%s", err.msg);
	ag_start(&a1, "a1", NULL, 1);
	ag_start(&a2, "a2", NULL, 1);
	cr_assert_eq(agents_open(&cfg, &ld, &err), 0, "%s", err.msg);
	cr_assert_eq(agents_load(ld, &job, "set", 0, &res, &err), 0, "%s", err.msg);
	cr_assert_eq(res.requests, 2000);
	keys = ag_int(&tgt_srv, "DBSIZE%s", "");
	cr_assert(keys > 0 && keys < 500, "%lld keys: not zipf's few", keys);
	agents_close(ld);
	ag_stop(&a1);
	ag_stop(&a2);
	keydist_free(job.keydist);
}

/* A warm-up runs by duration and is not counted in the result. */
Test(agents, a_warmup_runs_and_counts_nothing, .init = setup, .fini = teardown)
{
	struct ag a1;
	struct agents *ld = NULL;
	struct agents_config cfg = ag_config(1, 10);
	struct engine_job job = ag_job("get", 0);
	struct engine_result res;
	struct rs_err err = { 0 };

	job.duration = 0.2;
	ag_start(&a1, "a1", NULL, 1);
	cr_assert_eq(agents_open(&cfg, &ld, &err), 0, "%s", err.msg);
	cr_assert_eq(agents_load(ld, &job, "get", 1, &res, &err), 0, "%s", err.msg);
	cr_assert_eq(res.requests, 0);
	cr_assert_eq(res.hist.count, 0);
	cr_assert_gt(ag_calls("get"), 0, "the warm-up sent nothing");
	agents_close(ld);
	ag_stop(&a1);
}

Test(agents, fewer_requests_than_agents_is_a_usage_error, .init = setup, .fini = teardown)
{
	struct ag a1, a2;
	struct agents *ld = NULL;
	struct agents_config cfg = ag_config(2, 10);
	struct engine_job job = ag_job("get", 1);
	struct engine_result res;
	struct rs_err err = { 0 };

	ag_start(&a1, "a1", NULL, 1);
	ag_start(&a2, "a2", NULL, 1);
	cr_assert_eq(agents_open(&cfg, &ld, &err), 0, "%s", err.msg);
	cr_assert_eq(agents_load(ld, &job, "get", 0, &res, &err), -1);
	cr_assert_eq(err.kind, RS_E_USAGE);
	cr_assert_str_eq(err.msg, "-n 1 is fewer requests than 2 agents");
	cr_assert_eq(ag_calls("get"), 0);
	agents_close(ld);
	ag_stop(&a1);
	ag_stop(&a2);
}

/* The wait ends naming every kind of missing agent: none, one registered
 * but silent, one of another version, one another leader holds. */
Test(agents, open_names_the_agents_missing_and_why, .init = setup, .fini = teardown)
{
	struct ag b1;
	struct agents *ld = NULL;
	struct agents_config cfg = ag_config(4, 0.3);
	struct rs_err err = { 0 };
	char want[512];
	redisReply *r;

	cr_assert_eq(agents_open(&cfg, &ld, &err), -1);
	snprintf(want, sizeof want, "waited 0.3 s for 4 agents on %s: 0 heartbeating; missing 4",
		 ctl.desc);
	cr_assert_str_eq(err.msg, want);
	agents_close(ld);
	ld = NULL;

	freeReplyObject(ag_cmd(&ctl_srv, "SADD %s ghost old", AGENTMSG_KEY_AGENTS));
	freeReplyObject(ag_cmd(&ctl_srv, "SET %sold %s", AGENTMSG_KEY_ALIVE, "0.0.1 1 elsewhere"));
	ag_start(&b1, "b1", NULL, 1);
	freeReplyObject(ag_cmd(&ctl_srv, "SET %sb1 %s", AGENTMSG_KEY_CLAIM, "00000000000000aa"));
	cr_assert_eq(agents_open(&cfg, &ld, &err), -1);
	snprintf(want, sizeof want, "waited 0.3 s for 4 agents on %s: 0 heartbeating; missing 4, "
		 "registered but silent: ghost, of another rsweep version: old (rsweep 0.0.1), "
		 "claimed by another leader: b1 (run 00000000000000aa)", ctl.desc);
	cr_assert_str_eq(err.msg, want);
	agents_close(ld);
	/* The leader that gave up let go of nothing it did not hold. */
	r = ag_cmd(&ctl_srv, "GET %sb1", AGENTMSG_KEY_CLAIM);
	cr_assert(r->type == REDIS_REPLY_STRING && strcmp(r->str, "00000000000000aa") == 0);
	freeReplyObject(r);
	ag_stop(&b1);
}

/* A control Redis that is the target's own server is refused at once. */
Test(agents, open_refuses_a_control_that_is_the_target, .init = setup, .fini = teardown)
{
	struct agents *ld = NULL;
	struct agents_config cfg = ag_config(1, 600);
	struct rs_err err = { 0 };
	redisReply *r = ag_cmd(&ctl_srv, "INFO server");
	char run_id[64] = "", want[512];
	const char *p = strstr(r->str, "run_id:");

	cr_assert_not_null(p);
	sscanf(p, "run_id:%63[0-9a-f]", run_id);
	freeReplyObject(r);
	cfg.target_run_id = run_id;
	cfg.target_desc = "the-target";
	cr_assert_eq(agents_open(&cfg, &ld, &err), -1);
	cr_assert_eq(err.kind, RS_E_USAGE);
	snprintf(want, sizeof want, "--control %s reaches the target's server (the-target): the "
		 "control Redis must be another server (the target is flushed)", ctl.desc);
	cr_assert_str_eq(err.msg, want);
	cr_assert_str_eq(agents_control_run_id(ld), run_id);
	agents_close(ld);
}

/* An agent refuses a point naming a target not in its --allow-target:
 * the point fails with its words, the target sees nothing, and the
 * agent is dropped from the run. */
Test(agents, an_agent_refuses_a_target_it_was_not_allowed, .init = setup, .fini = teardown)
{
	struct ag a1;
	struct agents *ld = NULL;
	struct agents_config cfg = ag_config(1, 10);
	struct engine_job job = ag_job("set", 10);
	struct engine_result res;
	struct rs_err err = { 0 };
	char want[512];

	ag_start(&a1, "a1", "unix:///nonexistent/*", 1);
	cr_assert_eq(agents_open(&cfg, &ld, &err), 0, "%s", err.msg);
	cr_assert_eq(agents_load(ld, &job, "set", 0, &res, &err), -1);
	snprintf(want, sizeof want, "agent a1: target %s is not allowed to this agent (its "
		 "--allow-target): nothing sent to it", tgt_uri);
	cr_assert_str_eq(err.msg, want);
	cr_assert_eq(ag_calls("set"), 0);
	cr_assert_eq(agents_load(ld, &job, "set", 0, &res, &err), -1);
	cr_assert_str_eq(err.msg, "no agent left alive");
	agents_close(ld);
	ag_stop(&a1);
}

/* An agent that stops (and unregisters) between points fails the next. */
Test(agents, an_agent_gone_between_points_fails_the_next, .init = setup, .fini = teardown)
{
	struct ag a1;
	struct agents *ld = NULL;
	struct agents_config cfg = ag_config(1, 10);
	struct engine_job job = ag_job("get", 10);
	struct engine_result res;
	struct rs_err err = { 0 };
	char want[256];

	ag_start(&a1, "a1", NULL, 1);
	cr_assert_eq(agents_open(&cfg, &ld, &err), 0, "%s", err.msg);
	ag_stop(&a1);
	cr_assert(!ag_beats("a1"), "a stopped agent left its heartbeat");
	cr_assert_eq(ag_int(&ctl_srv, "SISMEMBER " AGENTMSG_KEY_AGENTS " %s", "a1"), 0);
	cr_assert_eq(agents_load(ld, &job, "get", 0, &res, &err), -1);
	snprintf(want, sizeof want, "agent a1 stopped heartbeating (no %sa1 within %d s)",
		 AGENTMSG_KEY_ALIVE, AGENTMSG_HEARTBEAT_TTL);
	cr_assert_str_eq(err.msg, want);
	agents_close(ld);
}

Test(agents, an_id_held_by_a_live_agent_is_refused, .init = setup, .fini = teardown)
{
	struct ag a1;

	freeReplyObject(ag_cmd(&ctl_srv, "SET %sdup %s EX 60", AGENTMSG_KEY_ALIVE, "9 1 there"));
	ag_start(&a1, "dup", NULL, 0);
	ag_join(&a1);
	cr_assert_eq(a1.rc, -1);
	cr_assert_eq(a1.err.kind, RS_E_REFUSED);
	cr_assert_str_eq(a1.err.msg, "agent id 'dup' is taken by a live agent (9 1 there): give "
			 "another --id");
}

Test(agents, an_agent_without_its_control_fails_naming_it, .init = setup, .fini = teardown)
{
	struct ag a1;

	spawn_stop(&ctl_srv);
	ag_start(&a1, "a1", NULL, 0);
	ag_join(&a1);
	cr_assert_eq(a1.rc, -1);
	cr_assert_eq(strncmp(a1.err.msg, "control: ", 9), 0, "%s", a1.err.msg);
}

/* ---- the worker's refusals: signed point messages sent by hand ---- */

/* The control Redis's clock now, ns. */
static uint64_t ag_control_now(struct target_conn *c)
{
	struct rs_err err = { 0 };
	int64_t offset;
	uint64_t rtt;

	cr_assert_eq(agent_clock(c, &ctl, 3, &offset, &rtt, &err), 0, "%s", err.msg);
	return (uint64_t)((int64_t)engine_now_ns() + offset);
}

/* GET key:__rand_int__ as agentmsg_job_encode writes it, and a mix of a
 * SET of 16 MB and a GET (issue 40, D1), its values a run of a few bytes. */
#define AG_GET_JOB "mix=0 r=1 x=0 e=2 vmin=0 vmax=0 mr=67108864 kd=- arr=uniform " \
	"m=0,0,0,0,23,-,%2A2%0D%0A$3%0D%0AGET%0D%0A$16%0D%0Akey:__rand_int__%0D%0A"
#define AG_BIG_MIX "mix=1 r=1 x=0 e=15 vmin=0 vmax=0 mr=1677721600 kd=- arr=uniform " \
	"m=1,0,0,0,-,-,%2A3%0D%0A$3%0D%0ASET%0D%0A$1%0D%0Ak%0D%0A$16777216%0D%0A" \
	"*16777216.78%0D%0A m=1,0,0,0,-,-,%2A2%0D%0A$3%0D%0AGET%0D%0A$1%0D%0Ak%0D%0A"

/* A point message for agent a1 of run RUN, its start s seconds from now. */
#define RUN "fedcba9876543210"
static struct agentmsg_point ag_point(struct target_conn *c, uint64_t point, double s)
{
	struct agentmsg_point p = { 0 };

	memcpy(p.run, RUN, sizeof p.run);
	p.point = point;
	p.kind = AGENTMSG_POINT;
	cr_assert_lt(strlen(tgt_uri), sizeof p.target);
	memcpy(p.target, tgt_uri, strlen(tgt_uri) + 1);
	snprintf(p.test, sizeof p.test, "get");
	p.job = AG_GET_JOB;
	p.job_len = strlen(AG_GET_JOB);
	p.depth = 1;
	p.clients = 1;
	p.threads = 1;
	p.seed = 1;
	p.requests = 5;
	p.timeout = 5;
	p.start_ns = (uint64_t)((int64_t)ag_control_now(c) + (int64_t)(s * 1e9));
	return p;
}

static void ag_send(struct target_conn *c, const struct agentmsg_point *p,
		    const struct agentkey *sign)
{
	struct agentmsg_fields fs;
	struct rs_err err = { 0 };

	cr_assert_eq(agentmsg_point_encode(p, &fs, &err), 0, "%s", err.msg);
	cr_assert_eq(agent_xadd(c, &ctl, AGENTMSG_KEY_WORK "a1", sign, &fs, &err), 0, "%s", err.msg);
	agentmsg_fields_free(&fs);
}

/* Wait for the result of point on RUN's results stream (10 s at most),
 * verified with the agents' key, into r. */
static void ag_result(uint64_t point, struct agentmsg_result *r)
{
	for (int tries = 0; tries < 100; tries++) {
		redisReply *x = ag_cmd(&ctl_srv, "XRANGE " AGENTMSG_KEY_RESULTS RUN ":results - +");

		for (size_t i = 0; x->type == REDIS_REPLY_ARRAY && i < x->elements; i++) {
			struct agentmsg_field f[AGENTMSG_MAX_FIELDS];
			struct rs_err err = { 0 };
			size_t nall;
			long n = agent_entry_fields(&key, AGENTMSG_KEY_RESULTS RUN ":results",
						    x->element[i]->element[1], f, &nall, &err);

			cr_assert_geq(n, 0, "a result does not verify: %s", err.msg);
			memset(r, 0, sizeof *r);
			cr_assert_eq(agentmsg_result_decode(f, (size_t)n, r, &err), 0, "%s", err.msg);
			if (r->point == point) {
				freeReplyObject(x);
				return;
			}
		}
		freeReplyObject(x);
		ag_sleep_ms(100);
	}
	cr_assert_fail("no result for point %llu", (unsigned long long)point);
}

static void ag_refused(uint64_t point, const char *why)
{
	struct agentmsg_result r;

	ag_result(point, &r);
	cr_assert_eq(r.ok, 0, "point %llu was run", (unsigned long long)point);
	cr_assert_str_eq(r.agent, "a1");
	cr_assert_eq(strncmp(r.error, "agent a1 refused the message: ", 30), 0, "%s", r.error);
	cr_assert_not_null(strstr(r.error, why), "point %llu: '%s' does not say '%s'",
			   (unsigned long long)point, r.error, why);
}

Test(agents, the_worker_refuses_stale_far_unknown_and_unclaimed_points_and_runs_a_good_one,
     .init = setup, .fini = teardown)
{
	struct ag a1;
	struct target_conn *c = NULL;
	struct rs_err err = { 0 };
	struct agentmsg_point p;
	struct agentmsg_result r;

	ag_start(&a1, "a1", NULL, 1);
	cr_assert_eq(target_connect(&ctl, &c, &err), 0, "%s", err.msg);
	/* No leader heartbeats for RUN yet. */
	p = ag_point(c, 1, 2);
	ag_send(c, &p, &key);
	ag_refused(1, "unknown run " RUN ": no leader heartbeats for it");
	/* A leader, but the claim is another run's. */
	freeReplyObject(ag_cmd(&ctl_srv, "SET " AGENTMSG_KEY_RESULTS RUN AGENTMSG_KEY_LEADER " x EX 60"));
	freeReplyObject(ag_cmd(&ctl_srv, "SET " AGENTMSG_KEY_CLAIM "a1 00000000000000bb EX 60"));
	p = ag_point(c, 2, 2);
	ag_send(c, &p, &key);
	ag_refused(2, "run " RUN " has not claimed this agent (00000000000000bb holds it)");
	freeReplyObject(ag_cmd(&ctl_srv, "SET " AGENTMSG_KEY_CLAIM "a1 " RUN " EX 60"));
	/* Starts too far past and too far ahead. */
	p = ag_point(c, 3, -5);
	ag_send(c, &p, &key);
	ag_refused(3, " s past: no leader waits for it");
	p = ag_point(c, 4, 60);
	ag_send(c, &p, &key);
	ag_refused(4, " s ahead: no leader plans that far");
	/* More memory than the agent allows itself: a mix's job as a plain
	 * test's (issue 40, D1), refused before any of it is allocated. */
	p = ag_point(c, 5, 2);
	snprintf(p.test, sizeof p.test, "mix:set=1,get=1");
	p.job = AG_BIG_MIX;
	p.job_len = strlen(AG_BIG_MIX);
	p.depth = 100;
	p.clients = 64;
	ag_send(c, &p, &key);
	ag_result(5, &r);
	cr_assert_eq(r.ok, 0, "a point past the cap was run");
	cr_assert_not_null(strstr(r.error, "test mix:set=1,get=1: the job at depth 100 with 64 "
				  "connections needs about 107"), "%s", r.error);
	/* Signed with another key: refused, and answered (signed) all the same. */
	p = ag_point(c, 6, 2);
	ag_send(c, &p, &other_key);
	ag_refused(6, "refused the message");
	cr_assert_eq(ag_calls("get"), 0, "a refused point reached the target");
	/* And the same point, signed and claimed, runs. */
	p = ag_point(c, 7, 2);
	ag_send(c, &p, &key);
	ag_result(7, &r);
	cr_assert_eq(r.ok, 1, "%s", r.error);
	cr_assert_eq(r.requests, 5);
	cr_assert_eq(r.hist.count, 5);
	cr_assert_eq(ag_calls("get"), 5);
	cr_assert_str_eq(r.agent, "a1");
	cr_assert(ag_beats("a1"), "the agent died of a refused point");
	target_close(c);
	ag_stop(&a1);
}

/* ---- the leader against a scripted agent ---- */

enum sa_mode {
	SA_SHORT,                 /* reports one request fewer than its share */
	SA_BAD_KEY,               /* signs its result with another key */
	SA_SILENT,                /* reads its work and never answers */
};

static struct {
	enum sa_mode mode;
	volatile int quit;
	pthread_t tid;
} sa;

static void *sa_thread(void *arg)
{
	struct target_conn *c = NULL;
	struct rs_err err = { 0 };
	char last[64] = "0-0";

	(void)arg;
	if (target_connect(&ctl, &c, &err) < 0)
		return NULL;
	while (!sa.quit) {
		const char *argv[] = { "XREAD", "COUNT", "1", "BLOCK", "100", "STREAMS",
				       AGENTMSG_KEY_WORK "f1", last };
		size_t len[8];
		redisReply *r, *e;
		struct agentmsg_field f[AGENTMSG_MAX_FIELDS];
		struct agentmsg_point p;
		struct agentmsg_result res = { 0 };
		struct agentmsg_fields fs;
		size_t nall;
		long n;

		for (int i = 0; i < 8; i++)
			len[i] = strlen(argv[i]);
		if (target_command(c, &ctl, 8, argv, len, &r, &err) < 0)
			break;
		if (r->type != REDIS_REPLY_ARRAY) {
			freeReplyObject(r);
			continue;
		}
		e = r->element[0]->element[1]->element[0];
		snprintf(last, sizeof last, "%s", e->element[0]->str);
		n = agent_entry_fields(&key, AGENTMSG_KEY_WORK "f1", e->element[1], f, &nall, &err);
		if (n < 0 || agentmsg_point_decode(f, (size_t)n, &p, &err) < 0 ||
		    sa.mode == SA_SILENT) {
			freeReplyObject(r);
			continue;
		}
		memcpy(res.run, p.run, sizeof res.run);
		res.point = p.point;
		res.kind = p.kind;
		snprintf(res.agent, sizeof res.agent, "f1");
		res.ok = 1;
		res.requests = sa.mode == SA_SHORT ? p.requests - 1 : p.requests;
		res.seconds = 0.01;
		res.start_ns = p.start_ns;
		res.end_ns = p.start_ns + 10000000;
		hist_init(&res.hist);
		hist_init(&res.service);
		if (agentmsg_result_encode(&res, &fs, &err) == 0) {
			char k[96];

			snprintf(k, sizeof k, "%s%s:results", AGENTMSG_KEY_RESULTS, p.run);
			agent_xadd(c, &ctl, k, sa.mode == SA_BAD_KEY ? &other_key : &key, &fs, &err);
			agentmsg_fields_free(&fs);
		}
		freeReplyObject(r);
	}
	target_close(c);
	return NULL;
}

/* The scripted agent f1: heartbeating (long enough for a test), registered. */
static void sa_start(enum sa_mode mode)
{
	char alive[160];

	agentmsg_alive_encode(alive, sizeof alive, 1, "fake");
	freeReplyObject(ag_cmd(&ctl_srv, "SET %sf1 %s EX 60", AGENTMSG_KEY_ALIVE, alive));
	freeReplyObject(ag_cmd(&ctl_srv, "SADD %s f1", AGENTMSG_KEY_AGENTS));
	sa.mode = mode;
	sa.quit = 0;
	cr_assert_eq(pthread_create(&sa.tid, NULL, sa_thread, NULL), 0);
}

static void sa_stop(void)
{
	sa.quit = 1;
	pthread_join(sa.tid, NULL);
}

/* Run one point of 10 requests through the scripted agent; its error. */
static void sa_point(enum sa_mode mode, double timeout, struct rs_err *err)
{
	struct agents *ld = NULL;
	struct agents_config cfg = ag_config(1, 10);
	struct engine_job job = ag_job("get", 10);
	struct engine_result res;

	job.timeout = timeout;
	sa_start(mode);
	cr_assert_eq(agents_open(&cfg, &ld, err), 0, "%s", err->msg);
	cr_assert_eq(agents_load(ld, &job, "get", 0, &res, err), -1, "the point passed");
	agents_close(ld);
	sa_stop();
}

Test(agents, the_leader_refuses_a_result_short_of_the_share, .init = setup, .fini = teardown)
{
	struct rs_err err = { 0 };

	sa_point(SA_SHORT, 5, &err);
	cr_assert_str_eq(err.msg, "agent f1: reported 9 requests of a share of 10");
}

Test(agents, the_leader_refuses_a_result_signed_with_another_key, .init = setup,
     .fini = teardown)
{
	struct rs_err err = { 0 };

	sa_point(SA_BAD_KEY, 5, &err);
	cr_assert_eq(strncmp(err.msg, "agent f1: its result is refused: ", 33), 0, "%s", err.msg);
}

/* Deadline: 10 requests at the floor of 100 a second, plus --timeout 1. */
Test(agents, an_agent_that_never_answers_fails_the_point_by_its_deadline, .init = setup,
     .fini = teardown)
{
	struct rs_err err = { 0 };

	sa_point(SA_SILENT, 1, &err);
	cr_assert_str_eq(err.msg, "no result by the point's deadline from agent f1");
}

/* ---- the signature on a stream entry (agent_entry_fields) ---- */

/* The fields f[0..n) as a stream entry holds them: a flat array of name,
 * value. */
static redisReply *ag_entry(const struct agentmsg_field *f, size_t n)
{
	char buf[4096];
	size_t len = (size_t)snprintf(buf, sizeof buf, "*%zu\r\n", 2 * n);

	for (size_t i = 0; i < n; i++) {
		len += (size_t)snprintf(buf + len, sizeof buf - len, "$%zu\r\n%.*s\r\n$%zu\r\n%.*s\r\n",
					f[i].name_len, (int)f[i].name_len, f[i].name, f[i].value_len,
					(int)f[i].value_len, f[i].value);
		cr_assert_lt(len, sizeof buf);
	}
	return resp_reply(buf);
}

Test(agents, entry_fields_verify_the_stream_and_the_key)
{
	struct agentmsg_fields fs = { 0 };
	struct agentmsg_field f[AGENTMSG_MAX_FIELDS];
	struct rs_err err = { 0 };
	struct agentkey k = { .n = 16 }, k2 = { .n = 16 };
	redisReply *e;
	size_t nall;

	memset(k.k, 'a', 16);
	memset(k2.k, 'b', 16);
	fs.f[0] = (struct agentmsg_field){ "run", 3, "0123456789abcdef", 16 };
	fs.f[1] = (struct agentmsg_field){ "point", 5, "3", 1 };
	fs.n = 2;
	agentkey_sign(&k, "s1", &fs);
	cr_assert_eq(fs.n, 3);
	e = ag_entry(fs.f, fs.n);
	cr_assert_eq(agent_entry_fields(&k, "s1", e, f, &nall, &err), 2, "%s", err.msg);
	cr_assert_eq(nall, 3);
	cr_assert_eq(f[1].value_len, 1);
	cr_assert_eq(f[1].value[0], '3');
	/* Moved to another stream, or checked with another key: refused,
	 * but the fields are still there to name the run and point. */
	cr_assert_eq(agent_entry_fields(&k, "s2", e, f, &nall, &err), -1);
	cr_assert_eq(err.kind, RS_E_INPUT);
	cr_assert_eq(nall, 3);
	cr_assert_eq(agent_entry_fields(&k2, "s1", e, f, &nall, &err), -1);
	cr_assert_eq(err.kind, RS_E_INPUT);
	freeReplyObject(e);
	/* Without its signature. */
	e = ag_entry(fs.f, 2);
	cr_assert_eq(agent_entry_fields(&k, "s1", e, f, &nall, &err), -1);
	cr_assert_eq(err.kind, RS_E_INPUT);
	cr_assert_eq(nall, 2);
	freeReplyObject(e);
	agentmsg_fields_free(&fs);
}

/* Not a list of name, value pairs, or more of them than a message has:
 * refused before any is read. */
Test(agents, entry_fields_refuse_what_is_not_a_message)
{
	static const char *const bad[] = {
		"*3\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n", "$3\r\nabc\r\n", ":1\r\n",
	};
	struct agentmsg_field many[AGENTMSG_MAX_FIELDS + 1], f[AGENTMSG_MAX_FIELDS];
	struct rs_err err = { 0 };
	redisReply *e;
	size_t nall;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		e = resp_reply(bad[i]);
		nall = 99;
		cr_assert_eq(agent_entry_fields(&key, "s", e, f, &nall, &err), -1, "%s", bad[i]);
		cr_assert_str_eq(err.msg, "not a list of fields");
		cr_assert_eq(nall, 0);
		freeReplyObject(e);
	}
	for (size_t i = 0; i < AGENTMSG_MAX_FIELDS + 1; i++)
		many[i] = (struct agentmsg_field){ "x", 1, "y", 1 };
	e = ag_entry(many, AGENTMSG_MAX_FIELDS + 1);
	nall = 99;
	cr_assert_eq(agent_entry_fields(&key, "s", e, f, &nall, &err), -1);
	cr_assert_str_eq(err.msg, "not a list of fields");
	cr_assert_eq(nall, 0);
	freeReplyObject(e);
}

/* agent_xadd: the entry signed for its stream, the stream capped and
 * given its time to live. */
Test(agents, xadd_signs_caps_and_expires_the_stream, .init = setup, .fini = teardown)
{
	struct target_conn *c = NULL;
	struct rs_err err = { 0 };
	redisReply *x;
	long long len, ttl;

	cr_assert_eq(target_connect(&ctl, &c, &err), 0, "%s", err.msg);
	for (int i = 0; i < AGENTMSG_STREAM_MAX + 200; i++) {
		struct agentmsg_fields fs = { 0 };

		fs.f[0] = (struct agentmsg_field){ "point", 5, "1", 1 };
		fs.n = 1;
		cr_assert_eq(agent_xadd(c, &ctl, "st", &key, &fs, &err), 0, "%s", err.msg);
		agentmsg_fields_free(&fs);
	}
	len = ag_int(&ctl_srv, "XLEN %s", "st");
	cr_assert(len >= AGENTMSG_STREAM_MAX && len < AGENTMSG_STREAM_MAX + 200, "XLEN %lld", len);
	ttl = ag_int(&ctl_srv, "TTL %s", "st");
	cr_assert(ttl > 0 && ttl <= AGENTMSG_KEY_TTL, "TTL %lld", ttl);
	x = ag_cmd(&ctl_srv, "XRANGE st - + COUNT 1");
	{
		struct agentmsg_field f[AGENTMSG_MAX_FIELDS];
		size_t nall;

		cr_assert_eq(agent_entry_fields(&key, "st", x->element[0]->element[1], f, &nall,
						&err), 1, "%s", err.msg);
		cr_assert_eq(agent_entry_fields(&key, "other", x->element[0]->element[1], f, &nall,
						&err), -1);
	}
	freeReplyObject(x);
	target_close(c);
}

/* The clock offset maps this machine's monotonic clock onto the control
 * Redis's TIME, which on one machine is this machine's real time. */
Test(agents, clock_offset_maps_monotonic_onto_control_time, .init = setup, .fini = teardown)
{
	struct target_conn *c = NULL;
	struct rs_err err = { 0 };
	struct timespec ts;
	int64_t offset;
	uint64_t rtt, ctl_now;
	double apart;

	cr_assert_eq(target_connect(&ctl, &c, &err), 0, "%s", err.msg);
	cr_assert_eq(agent_clock(c, &ctl, 5, &offset, &rtt, &err), 0, "%s", err.msg);
	ctl_now = (uint64_t)((int64_t)engine_now_ns() + offset);
	clock_gettime(CLOCK_REALTIME, &ts);
	apart = ((double)ts.tv_sec * 1e9 + (double)ts.tv_nsec - (double)ctl_now) / 1e9;
	/* Correctness, not speed: a wrong unit or sign is off by years. */
	cr_assert(apart > -60 && apart < 60, "control time %.3f s from real time", apart);
	cr_assert_gt(rtt, 0);
	target_close(c);
}
