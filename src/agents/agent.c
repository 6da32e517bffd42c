/* agent.c: rsweep agent's loop: register, heartbeat, wait for a point, run
 * it at the common instant, report. */
#include "config.h"

#include <hiredis/hiredis.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "agents/agent.h"
#include "agents/agentkey.h"
#include "agents/agentmsg.h"
#include "engine/engine.h"
#include "net/target_build.h"
#include "os/host.h"
#include "workload/job.h"
#include "base/log.h"
#include "base/sbuf.h"
#include "workload/workload.h"
#include "base/xalloc.h"

/* XREAD's block, ms: how long a stop or a dead control Redis may go unseen. */
#define AGENT_BLOCK_MS 1000
/* A point message whose instant is further past than this is refused: a
 * leader that died left it, or it waited in the stream while the agent was
 * stopped; either way nobody is measuring it. */
#define AGENT_STALE_NS 1000000000LL
/* A start further ahead than this is no leader's (it plans a second at most). */
#define AGENT_AHEAD_NS 10000000000LL

struct agent {
	const struct agent_config *cfg;
	struct target ctl;        /* the control target, with a timeout above the block */
	struct target_conn *c;
	char alive_key[96], work_key[96], alive[160];
	char last_id[48];         /* the last work entry read */
	char last_target[TARGETS_URI_MAX]; /* where the last point's load went */
	int64_t offset;           /* control_ns = monotonic + offset */
	uint64_t rtt;
	/* the heartbeat thread */
	pthread_t hb;
	int hb_started;
	int hb_quit;              /* __atomic: set by the main thread */
	int hb_failed;            /* __atomic: set after hb_why, read before it */
	char hb_why[RS_ERR_LEN];
	/* While a point runs (serving set, serving_run its run): the heartbeat
	 * checks each second that the run still holds this agent's claim,
	 * and sets abandon when it does not (the leader dropped this agent,
	 * or died and its claim expired), or when the agent is stopped: the
	 * engine then ends at once, and the agent loads no target nobody
	 * measures. */
	int serving;
	char serving_run[AGENTMSG_RUN_LEN + 1];
	volatile sig_atomic_t abandon;
};

/* Run argv on c, replying into *r (NULL: freed here). */
static int agent_cmd(struct target_conn *c, const struct target *t, redisReply **r,
		     struct rs_err *err, int argc, const char **argv)
{
	size_t len[64];
	redisReply *tmp;

	for (int i = 0; i < argc; i++)
		len[i] = strlen(argv[i]);
	if (target_command(c, t, argc, argv, len, r ? r : &tmp, err) < 0)
		return -1;
	if (r == NULL)
		freeReplyObject(tmp);
	return 0;
}

int agent_clock(struct target_conn *c, const struct target *t, unsigned samples,
		int64_t *offset, uint64_t *rtt_ns, struct rs_err *err)
{
	const char *argv[] = { "TIME" };
	uint64_t best = UINT64_MAX;

	for (unsigned i = 0; i < samples; i++) {
		uint64_t t0 = engine_now_ns(), t1, ctl;
		redisReply *r;

		if (agent_cmd(c, t, &r, err, 1, argv) < 0)
			return -1;
		t1 = engine_now_ns();
		if (r->type != REDIS_REPLY_ARRAY || r->elements != 2 ||
		    r->element[0]->type != REDIS_REPLY_STRING ||
		    r->element[1]->type != REDIS_REPLY_STRING) {
			freeReplyObject(r);
			return rs_err_set(err, "%s: TIME: unexpected reply", t->desc);
		}
		ctl = strtoull(r->element[0]->str, NULL, 10) * 1000000000ull +
		      strtoull(r->element[1]->str, NULL, 10) * 1000ull;
		freeReplyObject(r);
		/* The server read its clock somewhere in the round trip: its
		 * middle is the best guess, off by at most half the trip. */
		if (t1 - t0 < best) {
			best = t1 - t0;
			*offset = (int64_t)(ctl - (t0 + (t1 - t0) / 2));
		}
	}
	*rtt_ns = best;
	return 0;
}

/* The heartbeat: its own connection, SET EX every second, until told to
 * quit.  A failure is kept for the main loop, which gives up on it. */
static void *agent_heartbeat(void *arg)
{
	struct agent *a = arg;
	struct target_conn *c = NULL;
	struct rs_err e = { 0 };
	char ttl[16], ckey[96];

	snprintf(ttl, sizeof ttl, "%d", AGENTMSG_HEARTBEAT_TTL);
	snprintf(ckey, sizeof ckey, "%s%s", AGENTMSG_KEY_CLAIM, a->cfg->id);
	if (target_connect(&a->ctl, &c, &e) < 0)
		goto failed;
	while (!__atomic_load_n(&a->hb_quit, __ATOMIC_ACQUIRE)) {
		const char *set[] = { "SET", a->alive_key, a->alive, "EX", ttl };
		const char *sadd[] = { "SADD", AGENTMSG_KEY_AGENTS, a->cfg->id };
		const char *get[] = { "GET", ckey };
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		redisReply *r;

		if (agent_cmd(c, &a->ctl, NULL, &e, 5, set) < 0 ||
		    agent_cmd(c, &a->ctl, NULL, &e, 3, sadd) < 0)
			goto failed;
		if (__atomic_load_n(&a->serving, __ATOMIC_ACQUIRE)) {
			if (agent_cmd(c, &a->ctl, &r, &e, 2, get) < 0)
				goto failed;
			if (r->type != REDIS_REPLY_STRING || strcmp(r->str, a->serving_run) != 0) {
				rs_log(RS_LOG_WARN, "run %s no longer holds this agent: its load stops",
				       a->serving_run);
				__atomic_store_n(&a->abandon, 1, __ATOMIC_RELAXED);
			}
			freeReplyObject(r);
		}
		for (int i = 0; i < 10 && !__atomic_load_n(&a->hb_quit, __ATOMIC_ACQUIRE); i++) {
			if (a->cfg->stop != NULL && *a->cfg->stop)
				__atomic_store_n(&a->abandon, 1, __ATOMIC_RELAXED);
			nanosleep(&ts, NULL);
		}
	}
	target_close(c);
	return NULL;
failed:
	snprintf(a->hb_why, sizeof a->hb_why, "heartbeat: %.400s", e.msg);
	__atomic_store_n(&a->hb_failed, 1, __ATOMIC_RELEASE);
	target_close(c);
	return NULL;
}

/* Whether allowed (an --allow-target) names the target d: a pattern
 * matches the URI's text, a URI the same server (scheme, host and port, or
 * socket path; any database). */
static int agent_allowed_one(const char *allowed, const char *uri, const struct targets_def *d)
{
	struct targets_def w = { 0 };
	struct rs_err e;
	int same;

	if (strpbrk(allowed, "*?[") != NULL)
		return fnmatch(allowed, uri, 0) == 0;
	if (agentmsg_target_ok(allowed, &w, &e) < 0) {
		targets_def_free(&w);
		return 0;
	}
	same = w.kind == d->kind && w.tls == d->tls && w.port == d->port &&
	       (w.path == NULL) == (d->path == NULL) && (w.path == NULL || strcmp(w.path, d->path) == 0) &&
	       (w.host == NULL) == (d->host == NULL) && (w.host == NULL || strcmp(w.host, d->host) == 0);
	targets_def_free(&w);
	return same;
}

/* Build the target p names, as this agent reaches it. */
static int agent_target(const struct agent *a, const struct agentmsg_point *p,
			struct targets_def *d, struct target *t, struct rs_err *err)
{
	size_t i;

	if (agentmsg_target_ok(p->target, d, err) < 0)
		return -1;
	/* Before any connection: the control Redis's writers choose the
	 * target of a message, the agent's own command line what it may be
	 * (its password goes there). */
	for (i = 0; i < a->cfg->nallow; i++)
		if (agent_allowed_one(a->cfg->allow[i], p->target, d))
			break;
	if (i == a->cfg->nallow)
		return rs_err_set(err, "target %.128s is not allowed to this agent (its "
				  "--allow-target): nothing sent to it", p->target);
	{
		/* agentmsg_target_ok refused a password in the URI: the
		 * agent's own is the one sent. */
		const struct target_settings s = {
			.password = a->cfg->password, .tls = &a->cfg->tls,
			.connect_timeout = a->cfg->connect_timeout, .timeout = p->timeout,
			.stop = a->cfg->stop,
		};

		return target_build(d, &s, NULL, t, err);
	}
}

/* Sleep until monotonic ns `until`, in slices, so that a stop is seen. */
static void agent_sleep_until(uint64_t until, volatile sig_atomic_t *stop)
{
	for (;;) {
		uint64_t now = engine_now_ns(), left;
		struct timespec ts;

		if (now >= until || (stop && *stop))
			return;
		left = until - now;
		if (left > 100000000ull)
			left = 100000000ull;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)left;
		nanosleep(&ts, NULL);
	}
}

/* This agent's memory cap: what rsweep run allows a point
 * (WORKLOAD_MEMORY_MAX), or half the machine's physical memory when that
 * is less.  A message is data from the control Redis: what rsweep run
 * would refuse to allocate, an agent refuses too (job_memory_check). */
static uint64_t agent_memory_cap(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	double half = pages > 0 && psize > 0 ? (double)pages * (double)psize / 2 : 4e9;

	return half < (double)WORKLOAD_MEMORY_MAX ? (uint64_t)half : WORKLOAD_MEMORY_MAX;
}

/* Room for a point's connections among the open files: clients sockets,
 * and a few for each event loop and the control connections.  The soft
 * limit (often 1024) is raised to the hard one when it is short; a hard
 * limit that is short too fails the point with a line that says so,
 * rather than a connect failing on the way with EMFILE.  0, or -1 with
 * err. */
static int agent_fd_room(unsigned clients, unsigned threads, struct rs_err *err)
{
	struct rlimit rl;
	rlim_t need = (rlim_t)clients + 4 * (rlim_t)threads + 32;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need)
		return rs_err_set(err, "-c %u needs some %llu open files, and this agent may open at "
				  "most %llu (ulimit -Hn): raise its limit", clients,
				  (unsigned long long)need, (unsigned long long)rl.rlim_max);
	{
		rlim_t was = rl.rlim_cur;

		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			return rs_err_set(err, "-c %u needs some %llu open files: cannot raise this "
					  "agent's limit from %llu: %s", clients, (unsigned long long)need,
					  (unsigned long long)was, strerror(errno));
		rs_log(RS_LOG_INFO, "open files: limit raised from %llu to %s for -c %u",
		       (unsigned long long)was, rl.rlim_max == RLIM_INFINITY ? "unlimited" : "its hard limit",
		       clients);
	}
	return 0;
}

/* Run point p into r (r->ok 0 with r->error on failure). */
static void agent_point(struct agent *a, const struct agentmsg_point *p, struct agentmsg_result *r)
{
	struct targets_def d = { 0 };
	struct target t;
	struct job job = { 0 };
	struct engine *e = NULL;
	struct engine_result res;
	struct host_sample h0, h1;
	struct rs_err err = { 0 };
	uint64_t start_mono, t0, t1;

	if (agent_target(a, p, &d, &t, &err) < 0)
		goto failed;
	/* The log says where the load goes, every time that changes. */
	if (strcmp(a->last_target, p->target) != 0) {
		rs_log(RS_LOG_INFO, "run %s: load goes to %s (%s)", p->run, p->target, t.desc);
		xstrlcpy(a->last_target, p->target, sizeof a->last_target);
	}
	rs_log(RS_LOG_DEBUG, "run %s: %s %llu: %s P=%u, %llu requests, %g s", p->run,
	       p->kind == AGENTMSG_WARMUP ? "warm-up" : "point", (unsigned long long)p->point,
	       p->test, p->depth, (unsigned long long)p->requests, p->duration);
	/* The job as the leader built it, its memory checked before a byte
	 * of it is expanded: the same rule wherever a job runs. */
	{
		/* An open loop always keeps a window, as run's does. */
		const struct engine_job point = {
			.keyspace = p->keyspace, .seed = p->seed, .depth = p->depth,
			.mode = p->window || p->rate > 0 ? ENGINE_WINDOW : ENGINE_LOCKSTEP,
			.rate = p->rate, .requests = p->requests, .duration = p->duration,
			.timeout = p->timeout, .stop = &a->abandon,
		};

		if (agentmsg_job_decode(p->job, p->job_len, &point, p->clients, p->threads,
					agent_memory_cap(), &job, &err) < 0) {
			rs_err_prefix(&err, "test %.100s", p->test);
			goto failed;
		}
	}
	/* Connections before the instant: a connect inside the window would
	 * be timed, and would start this agent late. */
	if (agent_fd_room(p->clients, p->threads, &err) < 0 ||
	    engine_new(&t, p->clients, p->threads, &e, &err) < 0)
		goto failed;
	{
		int rc;

		a->abandon = a->cfg->stop != NULL && *a->cfg->stop;
		memcpy(a->serving_run, p->run, sizeof a->serving_run);
		__atomic_store_n(&a->serving, 1, __ATOMIC_RELEASE);
		start_mono = (uint64_t)((int64_t)p->start_ns - a->offset);
		agent_sleep_until(start_mono, &a->abandon);
		host_sample(&h0);
		t0 = engine_now_ns();
		rc = engine_run(e, &job.e, &res, &err);
		__atomic_store_n(&a->serving, 0, __ATOMIC_RELEASE);
		if (rc < 0)
			goto failed;
		t1 = engine_now_ns();
		host_sample(&h1);
	}
	r->ok = 1;
	r->requests = res.requests;
	r->errors = res.errors;
	r->misses = res.misses;
	r->seconds = res.seconds;
	r->start_ns = (uint64_t)((int64_t)t0 + a->offset);
	r->end_ns = (uint64_t)((int64_t)t1 + a->offset);
	r->cpu_s = h1.cpu_s - h0.cpu_s;
	rs_log(RS_LOG_DEBUG, "run %s: %s %llu done: %llu requests in %.3f s, started %.3f ms off "
	       "the instant", p->run, p->kind == AGENTMSG_WARMUP ? "warm-up" : "point",
	       (unsigned long long)p->point, (unsigned long long)res.requests, res.seconds,
	       ((double)r->start_ns - (double)p->start_ns) / 1e6);
	xstrlcpy(r->first_error, res.first_error, sizeof r->first_error);
	{
		struct sbuf b;

		sbuf_fixed(&b, r->sent, sizeof r->sent);
		for (size_t i = 0; job.e.members != NULL && i < job.e.nmembers; i++)
			sbuf_item(&b, ";", "%llu", (unsigned long long)res.member_sent[i]);
	}
	if (p->kind == AGENTMSG_POINT) {
		r->hist = res.hist;
		r->service = res.service;
	}
	goto done;
failed:
	r->ok = 0;
	xstrlcpy(r->error, err.msg, sizeof r->error);
	rs_log(RS_LOG_WARN, "run %s: point %llu failed: %s", p->run, (unsigned long long)p->point,
	       err.msg);
done:
	engine_free(e);
	job_free(&job);
	targets_def_free(&d);
}

int agent_xadd_format(const char *key, const struct agentkey *sign, struct agentmsg_fields *fs,
		      struct sbuf *b)
{
	const char *argv[8 + 2 * AGENTMSG_MAX_FIELDS];
	size_t len[8 + 2 * AGENTMSG_MAX_FIELDS];
	char cap[16], ttl[16];
	char *cmd;
	long long m;
	int argc = 0;

	agentkey_sign(sign, key, fs);
	snprintf(cap, sizeof cap, "%d", AGENTMSG_STREAM_MAX);
	snprintf(ttl, sizeof ttl, "%d", AGENTMSG_KEY_TTL);
	argv[argc++] = "XADD";
	argv[argc++] = key;
	argv[argc++] = "MAXLEN";
	argv[argc++] = "~";
	argv[argc++] = cap;
	argv[argc++] = "*";
	for (int i = 0; i < argc; i++)
		len[i] = strlen(argv[i]);
	for (size_t i = 0; i < fs->n; i++) {
		argv[argc] = fs->f[i].name;
		len[argc++] = fs->f[i].name_len;
		argv[argc] = fs->f[i].value;
		len[argc++] = fs->f[i].value_len;
	}
	if ((m = redisFormatCommandArgv(&cmd, argc, argv, len)) < 0)
		return -1;
	sbuf_add(b, cmd, (size_t)m);
	redisFreeCommand(cmd);
	{
		const char *exp[] = { "EXPIRE", key, ttl };
		const size_t elen[] = { 6, strlen(key), strlen(ttl) };

		if ((m = redisFormatCommandArgv(&cmd, 3, exp, elen)) < 0)
			return -1;
	}
	sbuf_add(b, cmd, (size_t)m);
	redisFreeCommand(cmd);
	return 2;
}

int agent_xadd(struct target_conn *c, const struct target *t, const char *key,
	       const struct agentkey *sign, struct agentmsg_fields *fs, struct rs_err *err)
{
	struct sbuf b;
	int n, rc;

	sbuf_heap(&b);
	n = agent_xadd_format(key, sign, fs, &b);
	/* One round trip for both. */
	rc = n < 0 ? rs_err_set(err, "XADD %s: cannot format the message", key) :
	     target_pipeline_as(c, t, "XADD", b.s, b.len, (size_t)n, err);
	free(b.s);
	return rc;
}

static int agent_report(struct agent *a, const struct agentmsg_result *r, struct rs_err *err)
{
	struct agentmsg_fields fs;
	char key[96];
	int rc;

	if (agentmsg_result_encode(r, &fs, err) < 0)
		return -1;
	snprintf(key, sizeof key, "%s%s:results", AGENTMSG_KEY_RESULTS, r->run);
	rc = agent_xadd(a->c, &a->ctl, key, a->cfg->key, &fs, err);
	agentmsg_fields_free(&fs);
	return rc;
}

/* Whether run is one this agent may serve: its leader heartbeats, and it
 * holds this agent's claim.  Returns 0 yes, 1 no (why says which), -1 the
 * control Redis failed (why). */
static int agent_run_known(struct agent *a, const char *run, struct rs_err *why)
{
	char lkey[96], ckey[96];
	const char *exists[] = { "EXISTS", lkey };
	const char *get[] = { "GET", ckey };
	redisReply *r;
	int ok;

	snprintf(lkey, sizeof lkey, "%s%s%s", AGENTMSG_KEY_RESULTS, run, AGENTMSG_KEY_LEADER);
	snprintf(ckey, sizeof ckey, "%s%s", AGENTMSG_KEY_CLAIM, a->cfg->id);
	if (agent_cmd(a->c, &a->ctl, &r, why, 2, exists) < 0)
		return -1;
	ok = r->type == REDIS_REPLY_INTEGER && r->integer == 1;
	freeReplyObject(r);
	if (!ok) {
		rs_err_setk(why, RS_E_INPUT, "unknown run %s: no leader heartbeats for it", run);
		return 1;
	}
	if (agent_cmd(a->c, &a->ctl, &r, why, 2, get) < 0)
		return -1;
	ok = r->type == REDIS_REPLY_STRING && strcmp(r->str, run) == 0;
	if (!ok)
		rs_err_setk(why, RS_E_INPUT, "run %s has not claimed this agent (%s holds it)", run,
			    r->type == REDIS_REPLY_STRING ? r->str : "no run");
	freeReplyObject(r);
	return ok ? 0 : 1;
}

long agent_entry_fields(const struct agentkey *key, const char *stream,
			const struct redisReply *e, struct agentmsg_field *f, size_t *nall,
			struct rs_err *err)
{
	size_t n = 0;

	*nall = 0;
	if (e->type != REDIS_REPLY_ARRAY || e->elements % 2 != 0 ||
	    e->elements / 2 > AGENTMSG_MAX_FIELDS)
		return rs_err_setk(err, RS_E_INPUT, "not a list of fields");
	for (size_t i = 0; i + 1 < e->elements; i += 2, n++) {
		f[n].name = e->element[i]->str ? e->element[i]->str : "";
		f[n].name_len = e->element[i]->str ? e->element[i]->len : 0;
		f[n].value = e->element[i + 1]->str ? e->element[i + 1]->str : "";
		f[n].value_len = e->element[i + 1]->str ? e->element[i + 1]->len : 0;
	}
	*nall = n;
	return agentkey_verify(key, stream, f, n, err);
}

/* Handle one work entry (its fields in e, a flat array of name, value). */
static int agent_entry(struct agent *a, const redisReply *e, struct rs_err *err)
{
	struct agentmsg_field f[AGENTMSG_MAX_FIELDS];
	struct agentmsg_point p;
	struct agentmsg_result *r;
	struct rs_err why = { 0 };
	size_t nall;
	long n;
	int rc = 0, bad;

	r = xcalloc(1, sizeof *r);
	hist_init(&r->hist);
	hist_init(&r->service);
	xstrlcpy(r->agent, a->cfg->id, sizeof r->agent);
	n = agent_entry_fields(a->cfg->key, a->work_key, e, f, &nall, &why);
	/* The run and point to answer, even for a message refused: an answer
	 * is signed, and tells a leader with another key why it waits. */
	for (size_t i = 0; i < nall; i++) {
		if (f[i].name_len == 3 && memcmp(f[i].name, "run", 3) == 0 &&
		    agentmsg_run_ok(f[i].value, f[i].value_len))
			memcpy(r->run, f[i].value, AGENTMSG_RUN_LEN);
		if (f[i].name_len == 5 && memcmp(f[i].name, "point", 5) == 0)
			r->point = strtoull(f[i].value, NULL, 10);
	}
	bad = n < 0 ? -1 : agentmsg_point_decode(f, (size_t)n, &p, &why);
	if (bad == 0) {
		int64_t now = (int64_t)engine_now_ns() + a->offset;

		r->kind = p.kind;
		if (now - (int64_t)p.start_ns > AGENT_STALE_NS)
			bad = rs_err_setk(&why, RS_E_INPUT, "its start is %.1f s past: no leader waits "
					  "for it", (double)(now - (int64_t)p.start_ns) / 1e9);
		else if ((int64_t)p.start_ns - now > AGENT_AHEAD_NS)
			bad = rs_err_setk(&why, RS_E_INPUT, "its start is %.1f s ahead: no leader "
					  "plans that far", (double)((int64_t)p.start_ns - now) / 1e9);
		else if ((bad = agent_run_known(a, p.run, &why)) > 0)
			bad = -1;
		else if (bad < 0) {
			free(r);
			*err = why;
			return -1;
		}
	}
	if (bad < 0) {
		rs_log(RS_LOG_WARN, "work entry %s refused: %s", a->last_id, why.msg);
		r->ok = 0;
		snprintf(r->error, sizeof r->error, "agent %s refused the message: %.400s", a->cfg->id,
			 why.msg);
	} else {
		agent_point(a, &p, r);
	}
	if (r->run[0] != '\0' && r->point > 0)
		rc = agent_report(a, r, err);
	free(r);
	return rc;
}

/* Wait up to AGENT_BLOCK_MS for work entries and handle them. */
static int agent_wait(struct agent *a, struct rs_err *err)
{
	const char *argv[] = { "XREAD", "COUNT", "16", "BLOCK", "1000", "STREAMS", a->work_key,
			       a->last_id };
	redisReply *r;
	int rc = 0;

	if (agent_cmd(a->c, &a->ctl, &r, err, 8, argv) < 0)
		return -1;
	if (r->type == REDIS_REPLY_ARRAY && r->elements == 1 &&
	    r->element[0]->type == REDIS_REPLY_ARRAY && r->element[0]->elements == 2) {
		const redisReply *entries = r->element[0]->element[1];

		for (size_t i = 0; rc == 0 && entries->type == REDIS_REPLY_ARRAY &&
				   i < entries->elements; i++) {
			const redisReply *en = entries->element[i];

			if (en->type != REDIS_REPLY_ARRAY || en->elements != 2 ||
			    en->element[0]->type != REDIS_REPLY_STRING)
				continue;
			snprintf(a->last_id, sizeof a->last_id, "%.40s", en->element[0]->str);
			/* The clock again before each point: cheap, and a drift
			 * between points does not accumulate. */
			if (agent_clock(a->c, &a->ctl, 5, &a->offset, &a->rtt, err) < 0)
				rc = -1;
			else
				rc = agent_entry(a, en->element[1], err);
		}
	}
	freeReplyObject(r);
	return rc;
}

/* Take the id: SET NX, so that two agents never share one. */
static int agent_register(struct agent *a, struct rs_err *err)
{
	char ttl[16];
	const char *set[] = { "SET", a->alive_key, a->alive, "NX", "EX", ttl };
	const char *get[] = { "GET", a->alive_key };
	redisReply *r;
	int taken;

	snprintf(ttl, sizeof ttl, "%d", AGENTMSG_HEARTBEAT_TTL);
	if (agent_cmd(a->c, &a->ctl, &r, err, 6, set) < 0)
		return -1;
	taken = r->type == REDIS_REPLY_NIL;
	freeReplyObject(r);
	if (!taken)
		return 0;
	if (agent_cmd(a->c, &a->ctl, &r, err, 2, get) < 0)
		return -1;
	rs_err_setk(err, RS_E_REFUSED, "agent id '%s' is taken by a live agent (%.100s): give "
		    "another --id", a->cfg->id, r->type == REDIS_REPLY_STRING ? r->str : "?");
	freeReplyObject(r);
	return -1;
}

/* Leave: the heartbeat's key and the id's place in the set. */
static void agent_unregister(struct agent *a)
{
	const char *del[] = { "DEL", a->alive_key };
	const char *srem[] = { "SREM", AGENTMSG_KEY_AGENTS, a->cfg->id };
	struct rs_err e;

	if (a->c == NULL || target_failed(a->c))
		return;
	agent_cmd(a->c, &a->ctl, NULL, &e, 2, del);
	agent_cmd(a->c, &a->ctl, NULL, &e, 3, srem);
}

int agent_run(const struct agent_config *cfg, struct rs_err *err)
{
	struct agent a = { .cfg = cfg };
	char host[128] = "";
	int rc = 0;

	a.ctl = *cfg->control;
	/* XREAD blocks a second: the deadline must be longer. */
	if (a.ctl.timeout < AGENT_BLOCK_MS / 1000.0 + 4)
		a.ctl.timeout = AGENT_BLOCK_MS / 1000.0 + 4;
	/* A stop is handled between commands, not inside one (the unregister). */
	a.ctl.stop = NULL;
	gethostname(host, sizeof host - 1);
	snprintf(a.alive_key, sizeof a.alive_key, "%s%s", AGENTMSG_KEY_ALIVE, cfg->id);
	snprintf(a.work_key, sizeof a.work_key, "%s%s", AGENTMSG_KEY_WORK, cfg->id);
	agentmsg_alive_encode(a.alive, sizeof a.alive, (long)getpid(), host);
	if (target_connect(&a.ctl, &a.c, err) < 0)
		return rs_err_prefix(err, "control");
	if (agent_clock(a.c, &a.ctl, 7, &a.offset, &a.rtt, err) < 0 ||
	    agent_register(&a, err) < 0) {
		target_close(a.c);
		return -1;
	}
	/* Work from now on: an entry older than the agent is no one's. */
	snprintf(a.last_id, sizeof a.last_id, "%llu-0",
		 (unsigned long long)(((int64_t)engine_now_ns() + a.offset) / 1000000));
	if (pthread_create(&a.hb, NULL, agent_heartbeat, &a) != 0) {
		agent_unregister(&a);
		target_close(a.c);
		return rs_err_set(err, "cannot start the heartbeat thread");
	}
	a.hb_started = 1;
	rs_log(RS_LOG_INFO, "agent %s on %s: waiting for work on %s (clock offset measured to "
	       "+-%.2f ms)", cfg->id, cfg->control->desc, a.work_key, (double)a.rtt / 2e6);
	while (rc == 0) {
		if (cfg->stop && *cfg->stop) {
			rc = rs_err_setk(err, RS_E_INTERRUPTED, "agent %s: stopped", cfg->id);
			break;
		}
		if (__atomic_load_n(&a.hb_failed, __ATOMIC_ACQUIRE)) {
			rc = rs_err_set(err, "%s", a.hb_why);
			break;
		}
		rc = agent_wait(&a, err);
	}
	__atomic_store_n(&a.hb_quit, 1, __ATOMIC_RELEASE);
	pthread_join(a.hb, NULL);
	agent_unregister(&a);
	target_close(a.c);
	return -1;
}
