/* agents.c: the leader: wait for the agents, hand out each point's shares
 * with a common start, collect and merge their results. */
#include "config.h"

#include <hiredis/hiredis.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agents/agent.h"
#include "agents/agentkey.h"
#include "agents/agentmsg.h"
#include "agents/agents.h"
#include "base/log.h"
#include "base/sbuf.h"
#include "base/xalloc.h"

/* The start instant is this far ahead of the leader's reading of TIME, plus
 * two of its round trips: time for every agent to read the message and
 * open its connections before it. */
#define AGENTS_MARGIN_NS 250000000ull
/* How often the agents' heartbeats are checked while a point runs, ms;
 * and the result stream's XREAD block. */
#define AGENTS_POLL_MS 200
/* The floor of an agent's expected rate, for the deadline of a point by
 * requests: a share of n requests is given n / 100 seconds, plus
 * --timeout.  Generous: a stalled or dead agent is caught by its
 * heartbeat within seconds, and a stuck load by the engine's --timeout;
 * this bounds only an agent that heartbeats and never answers. */
#define AGENTS_MIN_RPS 100.0

struct agents_member {
	char id[AGENTMSG_ID_MAX];
	char alive[160];          /* its heartbeat's value when taken: a restart changes it */
	int dead;
	/* the point under way */
	uint64_t share;
	int answered;
	double rps, skew_ms, cpu_s;
};

struct agents {
	struct agents_config cfg;
	struct target ctl;
	struct target_conn *c;
	char run[AGENTMSG_RUN_LEN + 1];
	char results_key[96];
	char leader_key[96];
	char last_id[48];
	char ctl_run_id[48];
	struct agents_member *m;
	size_t n;
	uint64_t seq;             /* point messages sent: each one's number */
	int dropped;              /* an agent was given up during the point under way */
	/* the last timed point */
	unsigned ok;
	double skew_ms, cpu_s;
	double *skews;
	size_t nskews;
	char rps[256];
};

/* Run argv (NUL-terminated strings) on the control Redis. */
static int agents_cmd(struct agents *a, redisReply **r, struct rs_err *err, int argc,
		      const char **argv)
{
	size_t len[64];
	redisReply *tmp;

	for (int i = 0; i < argc; i++)
		len[i] = strlen(argv[i]);
	if (target_command(a->c, &a->ctl, argc, argv, len, r ? r : &tmp, err) < 0)
		return rs_err_prefix(err, "control");
	if (r == NULL)
		freeReplyObject(tmp);
	return 0;
}

/* An agent's heartbeat value into buf ("" when it has none). */
static int agents_alive(struct agents *a, const char *id, char *buf, size_t size,
			struct rs_err *err)
{
	char key[96];
	const char *argv[] = { "GET", key };
	redisReply *r;

	snprintf(key, sizeof key, "%s%s", AGENTMSG_KEY_ALIVE, id);
	if (agents_cmd(a, &r, err, 2, argv) < 0)
		return -1;
	snprintf(buf, size, "%s", r->type == REDIS_REPLY_STRING ? r->str : "");
	freeReplyObject(r);
	return 0;
}

/* Claim agent id for this run (SET NX, with the lease's expiry), or
 * renew a claim that is this run's already.  Returns 1 claimed, 0 held by
 * another run (holder: which), -1 on failure. */
static int agents_claim(struct agents *a, const char *id, char *holder, size_t size,
			struct rs_err *err)
{
	char key[96], ttl[16];
	const char *set[] = { "SET", key, a->run, "NX", "EX", ttl };
	const char *get[] = { "GET", key };
	const char *exp[] = { "EXPIRE", key, ttl };
	redisReply *r;
	int mine;

	snprintf(key, sizeof key, "%s%s", AGENTMSG_KEY_CLAIM, id);
	snprintf(ttl, sizeof ttl, "%d", AGENTMSG_LEASE_TTL);
	if (agents_cmd(a, &r, err, 6, set) < 0)
		return -1;
	mine = r->type != REDIS_REPLY_NIL;
	freeReplyObject(r);
	if (mine)
		return 1;
	if (agents_cmd(a, &r, err, 2, get) < 0)
		return -1;
	mine = r->type == REDIS_REPLY_STRING && strcmp(r->str, a->run) == 0;
	snprintf(holder, size, "%.40s", r->type == REDIS_REPLY_STRING ? r->str : "?");
	freeReplyObject(r);
	if (!mine)
		return 0;
	return agents_cmd(a, NULL, err, 3, exp) < 0 ? -1 : 1;
}

/* Give up agent m for the rest of the run, and let it know: its claim
 * goes, so that its heartbeat stops a load it may still be running
 * (within a second) instead of loading a point nobody measures. */
static void agents_drop(struct agents *a, struct agents_member *m)
{
	char key[96];
	const char *del[] = { "DEL", key };
	struct rs_err e;

	m->dead = 1;
	a->dropped = 1;
	snprintf(key, sizeof key, "%s%s", AGENTMSG_KEY_CLAIM, m->id);
	if (a->c != NULL && !target_failed(a->c))
		(void)agents_cmd(a, NULL, &e, 2, del);
}

/* Forget the agents of the set that no longer heartbeat: one killed
 * (SIGKILL, out of memory) never unregistered, and a launcher that names
 * agents after their pods would grow the set without end.  One that is
 * only stopped adds itself again when it goes on. */
static void agents_prune(struct agents *a)
{
	const char *members[] = { "SMEMBERS", AGENTMSG_KEY_AGENTS };
	redisReply *r;
	struct rs_err e;

	if (agents_cmd(a, &r, &e, 2, members) < 0)
		return;
	for (size_t i = 0; r->type == REDIS_REPLY_ARRAY && i < r->elements; i++) {
		const redisReply *m = r->element[i];
		const char *srem[] = { "SREM", AGENTMSG_KEY_AGENTS, m->str };
		char alive[160];

		if (m->type != REDIS_REPLY_STRING ||
		    agents_alive(a, m->str, alive, sizeof alive, &e) < 0)
			continue;
		if (alive[0] == '\0')
			(void)agents_cmd(a, NULL, &e, 3, srem);
	}
	freeReplyObject(r);
}

/* The leader's own heartbeat: agents run only a run whose leader lives. */
static int agents_lead(struct agents *a, struct rs_err *err)
{
	char ttl[16], alive[160], host[100] = "";
	const char *set[] = { "SET", a->leader_key, alive, "EX", ttl };

	gethostname(host, sizeof host - 1);
	agentmsg_alive_encode(alive, sizeof alive, (long)getpid(), host);
	snprintf(ttl, sizeof ttl, "%d", AGENTMSG_LEASE_TTL);
	return agents_cmd(a, NULL, err, 5, set);
}

static int agents_id_cmp(const void *x, const void *y)
{
	return strcmp(((const struct agents_member *)x)->id, ((const struct agents_member *)y)->id);
}

/* One look at who is there: the heartbeating agents of this version into
 * a->m (sorted by id), the others listed in silent and other. */
static int agents_str_cmp(const void *x, const void *y)
{
	const redisReply *a = *(redisReply *const *)x, *b = *(redisReply *const *)y;

	return strcmp(a->str ? a->str : "", b->str ? b->str : "");
}

static int agents_look(struct agents *a, struct sbuf *silent, struct sbuf *other,
		       struct sbuf *busy, struct rs_err *err)
{
	const char *argv[] = { "SMEMBERS", AGENTMSG_KEY_AGENTS };
	redisReply *r;

	if (agents_cmd(a, &r, err, 2, argv) < 0)
		return -1;
	free(a->m);
	a->m = xcalloc(r->elements + 1, sizeof *a->m);
	a->n = 0;
	/* By id: the same agents however often it is run. */
	if (r->type == REDIS_REPLY_ARRAY && r->elements > 1)
		qsort(r->element, r->elements, sizeof *r->element, agents_str_cmp);
	for (size_t i = 0; r->type == REDIS_REPLY_ARRAY && i < r->elements &&
			   a->n < a->cfg.n; i++) {
		const redisReply *e = r->element[i];
		char alive[160], ver[40];

		if (e->type != REDIS_REPLY_STRING || !agentmsg_id_ok(e->str, e->len))
			continue;
		if (agents_alive(a, e->str, alive, sizeof alive, err) < 0) {
			freeReplyObject(r);
			return -1;
		}
		if (alive[0] == '\0') {
			sbuf_item(silent, ", ", "%s", e->str);
			continue;
		}
		if (agentmsg_alive_decode(alive, strlen(alive), ver, sizeof ver) < 0 ||
		    strcmp(ver, PACKAGE_VERSION) != 0) {
			sbuf_item(other, ", ", "%s (rsweep %s)", e->str, ver);
			continue;
		}
		switch (agents_claim(a, e->str, ver, sizeof ver, err)) {
		case -1:
			freeReplyObject(r);
			return -1;
		case 0:
			sbuf_item(busy, ", ", "%s (run %s)", e->str, ver);
			continue;
		}
		xstrlcpy(a->m[a->n].id, e->str, sizeof a->m[a->n].id);
		xstrlcpy(a->m[a->n].alive, alive, sizeof a->m[a->n].alive);
		a->n++;
	}
	freeReplyObject(r);
	qsort(a->m, a->n, sizeof *a->m, agents_id_cmp);
	return 0;
}

/* A run id from the clocks and the pid: unique enough among the leaders
 * of one control Redis, and never a secret. */
static void agents_run_id(char *buf, size_t size)
{
	struct timespec ts;
	uint64_t x;

	clock_gettime(CLOCK_REALTIME, &ts);
	x = (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec ^
	    ((uint64_t)getpid() << 40) ^ engine_now_ns();
	/* splitmix64's finaliser: every bit of the inputs moves every digit. */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	snprintf(buf, size, "%016llx", (unsigned long long)x);
}

/* After a point lost an agent: a second for its heartbeat to see its
 * claim gone, a tick for its engine to stop, and a margin. */
#define AGENTS_SETTLE_MS 2000

static void agents_release(struct agents *a);

static void agents_sleep_ms(unsigned ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L }, rest;

	/* The whole time, whatever signal comes: a second ^C during the
	 * settle must not let the flush run before the agents stop. */
	while (nanosleep(&ts, &rest) < 0 && errno == EINTR)
		ts = rest;
}

int agents_open(const struct agents_config *cfg, struct agents **out, struct rs_err *err)
{
	struct agents *a = xcalloc(1, sizeof *a);
	uint64_t deadline = engine_now_ns() + (uint64_t)(cfg->wait * 1e9);
	char silent[256], other[256], have[256], busy[256];
	char *info;

	*out = a;
	a->cfg = *cfg;
	a->ctl = *cfg->control;
	if (a->ctl.timeout < AGENTS_POLL_MS / 1000.0 + 4)
		a->ctl.timeout = AGENTS_POLL_MS / 1000.0 + 4;
	agents_run_id(a->run, sizeof a->run);
	snprintf(a->results_key, sizeof a->results_key, "%s%s:results", AGENTMSG_KEY_RESULTS,
		 a->run);
	snprintf(a->leader_key, sizeof a->leader_key, "%s%s%s", AGENTMSG_KEY_RESULTS, a->run,
		 AGENTMSG_KEY_LEADER);
	/* A new run's stream: everything in it is this run's. */
	snprintf(a->last_id, sizeof a->last_id, "0-0");
	if (target_connect(&a->ctl, &a->c, err) < 0)
		return rs_err_prefix(err, "control");
	if (target_info(a->c, &a->ctl, "server", &info, err) < 0)
		return rs_err_prefix(err, "control");
	target_info_field(info, "run_id", a->ctl_run_id, sizeof a->ctl_run_id);
	free(info);
	if (cfg->target_run_id != NULL && cfg->target_run_id[0] != '\0' &&
	    strcmp(a->ctl_run_id, cfg->target_run_id) == 0)
		return rs_err_setk(err, RS_E_USAGE, "--control %s reaches the target's server (%s): "
				   "the control Redis must be another server (the target is "
				   "flushed)", a->ctl.desc, cfg->target_desc ? cfg->target_desc : "");
	for (;;) {
		struct sbuf s, o, h, b;

		sbuf_fixed(&b, busy, sizeof busy);
		sbuf_fixed(&s, silent, sizeof silent);
		sbuf_fixed(&o, other, sizeof other);
		sbuf_fixed(&h, have, sizeof have);
		if (agents_lead(a, err) < 0 || agents_look(a, &s, &o, &b, err) < 0)
			return -1;
		for (size_t i = 0; i < a->n; i++)
			sbuf_item(&h, ", ", "%s", a->m[i].id);
		if (a->n >= cfg->n) {
			rs_log(RS_LOG_DEBUG, "run %s: %u agents on %s: %s", a->run, cfg->n,
			       a->ctl.desc, have);
			return 0;
		}
		if (cfg->stop && *cfg->stop)
			return rs_err_setk(err, RS_E_INTERRUPTED, "interrupted while waiting for "
					   "agents");
		if (engine_now_ns() >= deadline)
			break;
		agents_sleep_ms(100);
	}
	return rs_err_set(err, "waited %g s for %u agent%s on %s: %zu heartbeating%s%s%s; "
			  "missing %zu%s%s%s%s%s%s", cfg->wait, cfg->n, cfg->n == 1 ? "" : "s",
			  a->ctl.desc, a->n, a->n ? " (" : "", have, a->n ? ")" : "",
			  (size_t)cfg->n - a->n, silent[0] ? ", registered but silent: " : "", silent,
			  other[0] ? ", of another rsweep version: " : "", other,
			  busy[0] ? ", claimed by another leader: " : "", busy);
}

const char *agents_control_run_id(const struct agents *a)
{
	return a->ctl_run_id;
}

/* XADD point message p to member m's work stream, capped, expiring. */
static int agents_send(struct agents *a, const struct agents_member *m,
		       const struct agentmsg_point *p, struct rs_err *err)
{
	struct agentmsg_fields fs;
	char key[96];
	int rc;

	if (agentmsg_point_encode(p, &fs, err) < 0)
		return -1;
	snprintf(key, sizeof key, "%s%s", AGENTMSG_KEY_WORK, m->id);
	rc = agent_xadd(a->c, &a->ctl, key, a->cfg.key, &fs, err);
	agentmsg_fields_free(&fs);
	return rc < 0 ? rs_err_prefix(err, "control") : 0;
}

/* Whether member m still heartbeats as it did when taken: 1 yes, 0 no. */
static int agents_beating(struct agents *a, struct agents_member *m, struct rs_err *err)
{
	char alive[160], holder[48];

	if (agents_alive(a, m->id, alive, sizeof alive, err) < 0)
		return -1;
	if (strcmp(alive, m->alive) != 0)
		return 0;
	/* Renew the claim; one another leader took (ours expired) loses it. */
	switch (agents_claim(a, m->id, holder, sizeof holder, err)) {
	case -1:
		return -1;
	case 0:
		rs_log(RS_LOG_WARN, "agent %s is claimed by run %s now", m->id, holder);
		return 0;
	}
	return 1;
}

/* What the collection of one point found. */
struct agents_take {
	uint64_t seq, start_ns;
	int warm;
	int counted;              /* -n: each agent's requests must be its share */
	size_t want, got;
	uint64_t end_ns;          /* the latest end */
	size_t nmembers;          /* a mix's: each result's sent has as many counts */
	struct engine_result *res;
	int failed;               /* an agent failed: err holds the first reason */
};

/* The member of this point a refused result names by its fields agent, run
 * and point (all three this point's), or NULL. */
static struct agents_member *agents_refused_whose(struct agents *a, const struct agents_take *k,
						  const struct agentmsg_field *f, size_t n)
{
	const struct agentmsg_field *id = NULL, *run = NULL, *pt = NULL;
	char num[24];

	for (size_t i = 0; i < n; i++) {
		if (f[i].name_len == 5 && memcmp(f[i].name, "agent", 5) == 0)
			id = &f[i];
		else if (f[i].name_len == 3 && memcmp(f[i].name, "run", 3) == 0)
			run = &f[i];
		else if (f[i].name_len == 5 && memcmp(f[i].name, "point", 5) == 0)
			pt = &f[i];
	}
	if (id == NULL || run == NULL || pt == NULL)
		return NULL;
	snprintf(num, sizeof num, "%llu", (unsigned long long)k->seq);
	if (run->value_len != strlen(a->run) || memcmp(run->value, a->run, run->value_len) != 0 ||
	    pt->value_len != strlen(num) || memcmp(pt->value, num, pt->value_len) != 0)
		return NULL;
	for (size_t i = 0; i < a->n; i++) {
		struct agents_member *m = &a->m[i];

		if (strlen(m->id) == id->value_len && memcmp(m->id, id->value, id->value_len) == 0)
			return m->dead || m->answered ? NULL : m;
	}
	return NULL;
}

/* A mix's counts of one result, r->sent ("7994;2006"), added to sent:
 * 0, or -1 when they are not nmembers numbers that add up to requests. */
static int agents_sent(const struct agentmsg_result *r, size_t nmembers, uint64_t *sent)
{
	uint64_t v[ENGINE_MAX_MEMBERS], sum = 0;
	const char *p = r->sent;
	size_t n = 0;

	while (n < nmembers && *p >= '0' && *p <= '9') {
		char *end;

		v[n] = strtoull(p, &end, 10);
		sum += v[n++];
		p = *end == ';' ? end + 1 : end;
		if (*end != ';' && *end != '\0')
			return -1;
	}
	if (n != nmembers || *p != '\0' || sum != r->requests)
		return -1;
	for (size_t i = 0; i < n; i++)
		sent[i] += v[i];
	return 0;
}

/* Take one result entry (its fields in e). */
static void agents_result(struct agents *a, struct agents_take *k, const redisReply *e,
			  struct rs_err *err)
{
	struct agentmsg_field f[AGENTMSG_MAX_FIELDS];
	struct agentmsg_result *r;
	struct agents_member *m = NULL;
	struct rs_err why = { 0 };
	size_t nall;
	long n;

	n = agent_entry_fields(a->cfg.key, a->results_key, e, f, &nall, &why);
	if (n < 0 && nall == 0)
		return;
	r = xcalloc(1, sizeof *r);
	if (n < 0 || agentmsg_result_decode(f, (size_t)n, r, &why) < 0) {
		/* Whose it is cannot be trusted, but when it names an agent of
		 * this point, this run and point, the point fails now with the
		 * real cause rather than by its deadline. */
		rs_log(RS_LOG_WARN, "a result on %s refused: %s", a->results_key, why.msg);
		m = agents_refused_whose(a, k, f, nall);
		if (m != NULL) {
			m->answered = 1;
			k->got++;
			if (!k->failed)
				rs_err_set(err, "agent %s: its result is refused: %s", m->id, why.msg);
			k->failed = 1;
			agents_drop(a, m);
		}
		free(r);
		return;
	}
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->m[i].id, r->agent) == 0)
			m = &a->m[i];
	/* Another try's, or an agent not asked: not this point's. */
	if (m == NULL || m->dead || m->answered || r->point != k->seq ||
	    strcmp(r->run, a->run) != 0) {
		free(r);
		return;
	}
	m->answered = 1;
	k->got++;
	/* A whole result of a count run has its share, exactly: the row's
	 * requests must be what the server ran. */
	if (r->ok && !k->warm && k->counted && r->requests != m->share) {
		r->ok = 0;
		snprintf(r->error, sizeof r->error, "reported %llu requests of a share of %llu",
			 (unsigned long long)r->requests, (unsigned long long)m->share);
	}
	/* A mix's members as sent: counts that add up to its requests. */
	if (r->ok && !k->warm && k->nmembers > 0 &&
	    agents_sent(r, k->nmembers, k->res->member_sent) < 0) {
		r->ok = 0;
		snprintf(r->error, sizeof r->error, "reported members' counts '%.60s' that are not "
			 "%zu numbers adding up to its %llu requests", r->sent, k->nmembers,
			 (unsigned long long)r->requests);
	}
	if (!r->ok) {
		if (!k->failed)
			rs_err_set(err, "agent %s: %s", m->id, r->error);
		k->failed = 1;
		agents_drop(a, m);
		free(r);
		return;
	}
	if (!k->warm) {
		struct engine_result *res = k->res;

		res->requests += r->requests;
		res->errors += r->errors;
		res->misses += r->misses;
		hist_merge(&res->hist, &r->hist);
		hist_merge(&res->service, &r->service);
		if (res->first_error[0] == '\0' && r->first_error[0] != '\0')
			xstrlcpy(res->first_error, r->first_error, sizeof res->first_error);
	}
	if (r->end_ns > k->end_ns)
		k->end_ns = r->end_ns;
	m->rps = r->seconds > 0 ? (double)r->requests / r->seconds : 0;
	m->skew_ms = ((double)r->start_ns - (double)k->start_ns) / 1e6;
	m->cpu_s = r->cpu_s;
	free(r);
}

/* Read results until every agent asked has answered, the deadline passes,
 * or one stops heartbeating.  A failure does not end the wait for the
 * others: an agent still loading the target would run into the flush of
 * the next try. */
static int agents_collect(struct agents *a, struct agents_take *k, uint64_t deadline,
			  struct rs_err *err)
{
	uint64_t next_beat = engine_now_ns();

	while (k->got < k->want) {
		const char *argv[] = { "XREAD", "COUNT", "16", "BLOCK", "200", "STREAMS",
				       a->results_key, a->last_id };
		redisReply *r;
		uint64_t now = engine_now_ns();

		if (a->cfg.stop && *a->cfg.stop)
			return rs_err_setk(err, RS_E_INTERRUPTED, "interrupted");
		if (now >= deadline) {
			struct sbuf b;
			char late[200];

			sbuf_fixed(&b, late, sizeof late);
			for (size_t i = 0; i < a->n; i++)
				if (!a->m[i].dead && !a->m[i].answered) {
					sbuf_item(&b, ", ", "%s", a->m[i].id);
					agents_drop(a, &a->m[i]);
				}
			if (!k->failed)
				rs_err_set(err, "no result by the point's deadline from agent%s %s",
					   strchr(late, ',') ? "s" : "", late);
			return -1;
		}
		if (now >= next_beat) {
			next_beat = now + 500000000ull;
			if (agents_lead(a, err) < 0)
				return -1;
			for (size_t i = 0; i < a->n; i++) {
				struct agents_member *m = &a->m[i];
				int b;

				if (m->dead || m->answered)
					continue;
				if ((b = agents_beating(a, m, err)) < 0)
					return -1;
				if (b == 0) {
					if (!k->failed)
						rs_err_set(err, "agent %s stopped heartbeating (no "
							   "%s%s within %d s)", m->id, AGENTMSG_KEY_ALIVE,
							   m->id, AGENTMSG_HEARTBEAT_TTL);
					k->failed = 1;
					agents_drop(a, m);
					k->want--;
				}
			}
			continue;
		}
		if (agents_cmd(a, &r, err, 8, argv) < 0)
			return -1;
		if (r->type == REDIS_REPLY_ARRAY && r->elements == 1 &&
		    r->element[0]->type == REDIS_REPLY_ARRAY && r->element[0]->elements == 2 &&
		    r->element[0]->element[1]->type == REDIS_REPLY_ARRAY) {
			const redisReply *en = r->element[0]->element[1];

			for (size_t i = 0; i < en->elements; i++) {
				const redisReply *x = en->element[i];

				if (x->type != REDIS_REPLY_ARRAY || x->elements != 2 ||
				    x->element[0]->type != REDIS_REPLY_STRING)
					continue;
				snprintf(a->last_id, sizeof a->last_id, "%.40s", x->element[0]->str);
				agents_result(a, k, x->element[1], err);
			}
		}
		freeReplyObject(r);
	}
	return k->failed ? -1 : 0;
}

int agents_load(struct agents *a, const struct engine_job *job, const char *test, int warm,
		 struct engine_result *res, struct rs_err *err)
{
	struct agents_take k = { .warm = warm, .res = res,
				 .nmembers = job->members != NULL ? job->nmembers : 0 };
	size_t alive = 0, idx = 0;
	char *text = NULL;
	int64_t offset;
	uint64_t rtt, per, rest, longest = 0, deadline;
	double expect;

	memset(res, 0, sizeof *res);
	hist_init(&res->hist);
	hist_init(&res->service);
	for (int i = 0; i < ENGINE_SLICES; i++)
		res->slice_rps[i] = NAN;
	if (agents_lead(a, err) < 0)
		return -1;
	/* Who is still there, before anything is sent: a point that would
	 * go to fewer agents than were asked is partial, and fails. */
	for (size_t i = 0; i < a->n; i++) {
		struct agents_member *m = &a->m[i];
		int b;

		m->answered = 0;
		if (m->dead)
			continue;
		if ((b = agents_beating(a, m, err)) < 0)
			return -1;
		if (b == 0) {
			agents_drop(a, m);
			return rs_err_set(err, "agent %s stopped heartbeating (no %s%s within %d s)",
					  m->id, AGENTMSG_KEY_ALIVE, m->id, AGENTMSG_HEARTBEAT_TTL);
		}
		alive++;
	}
	if (alive == 0)
		return rs_err_set(err, "no agent left alive");
	if (job->duration <= 0 && job->requests < alive)
		return rs_err_setk(err, RS_E_USAGE, "-n %llu is fewer requests than %zu agents",
				   (unsigned long long)job->requests, alive);
	if (agent_clock(a->c, &a->ctl, 3, &offset, &rtt, err) < 0)
		return rs_err_prefix(err, "control");
	k.seq = ++a->seq;
	k.start_ns = (uint64_t)((int64_t)engine_now_ns() + offset) + AGENTS_MARGIN_NS + 2 * rtt;
	k.want = alive;
	/* The job as built, the same for every agent but its numbers. */
	text = agentmsg_job_encode(job);
	per = job->duration > 0 ? 0 : job->requests / alive;
	rest = job->duration > 0 ? 0 : job->requests % alive;
	for (size_t i = 0; i < a->n; i++) {
		struct agents_member *m = &a->m[i];
		struct agentmsg_point p = { 0 };

		if (m->dead)
			continue;
		/* Exact: the shares sum to -n. */
		m->share = per + (idx < rest ? 1 : 0);
		if (m->share > longest)
			longest = m->share;
		memcpy(p.run, a->run, sizeof p.run);
		p.point = k.seq;
		p.kind = warm ? AGENTMSG_WARMUP : AGENTMSG_POINT;
		xstrlcpy(p.target, a->cfg.target_uri, sizeof p.target);
		xstrlcpy(p.test, test, sizeof p.test);
		p.job = text;
		p.job_len = strlen(text);
		p.depth = job->depth;
		p.window = job->mode == ENGINE_WINDOW;
		p.clients = a->cfg.clients;
		p.threads = a->cfg.threads;
		p.keyspace = job->keyspace;
		/* Each agent its own keys' sequence: the same seed would send
		 * the same keys in the same order from every agent. */
		p.seed = job->seed + (uint64_t)idx * 0x9e3779b97f4a7c15ull;
		p.requests = m->share;
		p.duration = job->duration > 0 ? job->duration : 0;
		/* An open loop: each agent its share of the rate, as of the
		 * requests, so that all end together. */
		p.rate = job->rate <= 0 ? 0 : job->duration > 0 ? job->rate / (double)alive :
			 job->rate * (double)m->share / (double)job->requests;
		p.start_ns = k.start_ns;
		p.timeout = job->timeout;
		if (agents_send(a, m, &p, err) < 0) {
			free(text);
			return -1;
		}
		idx++;
	}
	free(text);
	expect = job->duration > 0 ? job->duration : (double)longest / AGENTS_MIN_RPS;
	/* A rate slower than that: the schedule's own length. */
	if (job->duration <= 0 && job->rate > 0 && (double)job->requests / job->rate > expect)
		expect = (double)job->requests / job->rate;
	deadline = (uint64_t)((int64_t)k.start_ns - offset) + (uint64_t)((expect + job->timeout) * 1e9);
	a->dropped = 0;
	k.counted = job->duration <= 0;
	if (agents_collect(a, &k, deadline, err) < 0) {
		/* A dropped agent may still be loading: its heartbeat sees its
		 * claim gone within a second, its engine stops within a tick;
		 * the next flush waits for that. */
		if (a->dropped)
			agents_sleep_ms(AGENTS_SETTLE_MS);
		/* Interrupted (S1): the agents would go on loading after the
		 * leader's last flush and leave the test's keys; let them go
		 * now, and let the flush wait for their engines to stop. */
		if (a->cfg.stop && *a->cfg.stop) {
			agents_release(a);
			agents_sleep_ms(AGENTS_SETTLE_MS);
		}
		return -1;
	}
	res->seconds = k.end_ns > k.start_ns ? (double)(k.end_ns - k.start_ns) / 1e9 : 0;
	if (warm)
		return 0;
	/* The columns of this point. */
	{
		struct sbuf b;

		a->ok = 0;
		a->skew_ms = 0;
		a->cpu_s = 0;
		free(a->skews);
		a->skews = xcalloc(a->n + 1, sizeof *a->skews);
		a->nskews = 0;
		sbuf_fixed(&b, a->rps, sizeof a->rps);
		for (size_t i = 0; i < a->n; i++) {
			const struct agents_member *m = &a->m[i];

			if (m->dead || !m->answered)
				continue;
			a->ok++;
			a->cpu_s += m->cpu_s;
			a->skews[a->nskews++] = m->skew_ms;
			if (fabs(m->skew_ms) > a->skew_ms)
				a->skew_ms = fabs(m->skew_ms);
			sbuf_item(&b, ";", "%s=%.0f", m->id, m->rps);
		}
	}
	return 0;
}

void agents_row(const struct agents *a, struct rs_row *row)
{
	row->agents_ok = a->ok;
	row->agents_expected = a->cfg.n;
	row->skew_ms = a->skew_ms;
	xstrlcpy(row->agent_rps, a->rps, sizeof row->agent_rps);
	row->client_cpu_s = a->cpu_s;
}

const double *agents_skews(const struct agents *a, size_t *n)
{
	*n = a->nskews;
	return a->skews;
}

/* Every claim of this run's that a->m does not hold: an earlier look's
 * (agents_look starts a->m anew each time it looks), or one whose SET ^C
 * cut short after the server ran it.  Each agent of the set whose claim
 * holds this run's id loses it. */
static void agents_release_rest(struct agents *a)
{
	const char *members[] = { "SMEMBERS", AGENTMSG_KEY_AGENTS };
	redisReply *r;
	struct rs_err e;

	if (agents_cmd(a, &r, &e, 2, members) < 0)
		return;
	for (size_t i = 0; r->type == REDIS_REPLY_ARRAY && i < r->elements; i++) {
		const redisReply *m = r->element[i];
		char key[96];
		const char *get[] = { "GET", key }, *del[] = { "DEL", key };
		redisReply *v;
		int mine;

		if (m->type != REDIS_REPLY_STRING || !agentmsg_id_ok(m->str, m->len))
			continue;
		snprintf(key, sizeof key, "%s%s", AGENTMSG_KEY_CLAIM, m->str);
		if (agents_cmd(a, &v, &e, 2, get) < 0)
			break;
		mine = v->type == REDIS_REPLY_STRING && strcmp(v->str, a->run) == 0;
		freeReplyObject(v);
		if (mine)
			(void)agents_cmd(a, NULL, &e, 2, del);
	}
	freeReplyObject(r);
}

/* Give up the lead and every claim, on a connection deaf to the stop, so
 * that the agents stop loading now, not when the leases expire. */
static void agents_release(struct agents *a)
{
	struct rs_err e;

	/* A ^C fails the command under way and with it the connection: a
	 * fresh one, deaf to the stop, so that the keys below still go and the
	 * agents stop loading now, not when the leases expire. */
	if (a->c != NULL && target_failed(a->c)) {
		target_close(a->c);
		a->c = NULL;
		a->ctl.stop = NULL;
		if (target_connect(&a->ctl, &a->c, &e) < 0)
			a->c = NULL;
	}
	/* Let the agents go at once: another leader need not wait for the
	 * leases to expire, and an agent still loading stops (its heartbeat
	 * sees its claim gone). */
	if (a->c != NULL && !target_failed(a->c)) {
		const char *del[] = { "DEL", a->leader_key };
		char holder[48];

		agents_cmd(a, NULL, &e, 2, del);
		/* Before the prune: a silent agent's claim is found by the set. */
		agents_release_rest(a);
		agents_prune(a);
		for (size_t i = 0; i < a->n; i++) {
			char key[96];
			const char *d[] = { "DEL", key };

			snprintf(key, sizeof key, "%s%s", AGENTMSG_KEY_CLAIM, a->m[i].id);
			if (agents_claim(a, a->m[i].id, holder, sizeof holder, &e) == 1)
				agents_cmd(a, NULL, &e, 2, d);
		}
	}
}

void agents_close(struct agents *a)
{
	if (a == NULL)
		return;
	agents_release(a);
	target_close(a->c);
	free(a->m);
	free(a->skews);
	free(a);
}
