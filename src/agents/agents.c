/* agents.c: the leader's agents: wait for them, claim them, heartbeat as
 * their leader, and let them go (a point's shares and results:
 * agents_point.c). */
#include "config.h"

#include <hiredis/hiredis.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agents/agentmsg.h"
#include "agents/agents.h"
#include "agents/agents_int.h"
#include "base/log.h"
#include "base/sbuf.h"
#include "base/xalloc.h"

/* Run argv (NUL-terminated strings) on the control Redis. */
int agents_cmd(struct agents *a, redisReply **r, struct rs_err *err, int argc,
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
void agents_drop(struct agents *a, struct agents_member *m)
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
int agents_lead(struct agents *a, struct rs_err *err)
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

void agents_sleep_ms(unsigned ms)
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

/* Whether member m still heartbeats as it did when taken: 1 yes, 0 no. */
int agents_beating(struct agents *a, struct agents_member *m, struct rs_err *err)
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
void agents_release(struct agents *a)
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
