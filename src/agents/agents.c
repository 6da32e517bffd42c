/* agents.c: the leader's agents: wait for them, claim them, heartbeat as
 * their leader, and let them go (a point's shares and results:
 * agents_point.c). */
#include "config.h"

#include <hiredis/hiredis.h>
#include <errno.h>
#include <stdio.h>
#include <math.h>
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

/* Run "CMD [ARG] PREFIX+ids[0] ... PREFIX+ids[n-1]" as one command: one
 * round trip for any number of agents (each id at most AGENTMSG_ID_MAX).
 * *r gets the reply to free (r NULL: freed here).  0, or -1 with err. */
static int agents_keys(struct agents *a, const char *cmd, const char *arg, const char *prefix,
		       const char *const *ids, size_t n, redisReply **r, struct rs_err *err)
{
	size_t argc = 0, plen = strlen(prefix);
	const char **argv = xcalloc(n + 2, sizeof *argv);
	size_t *len = xcalloc(n + 2, sizeof *len);
	char *keys = xmalloc(n * (plen + AGENTMSG_ID_MAX) + 1), *k = keys;
	redisReply *tmp;
	int rc;

	argv[argc] = cmd;
	len[argc++] = strlen(cmd);
	if (arg != NULL) {
		argv[argc] = arg;
		len[argc++] = strlen(arg);
	}
	for (size_t i = 0; i < n; i++) {
		size_t il = strnlen(ids[i], AGENTMSG_ID_MAX - 1);

		memcpy(k, prefix, plen);
		memcpy(k + plen, ids[i], il);
		argv[argc] = k;
		len[argc++] = plen + il;
		k += plen + il;
	}
	rc = target_command(a->c, &a->ctl, (int)argc, argv, len, r ? r : &tmp, err);
	if (rc < 0)
		rs_err_prefix(err, "control");
	else if (r == NULL)
		freeReplyObject(tmp);
	free(argv);
	free(len);
	free(keys);
	return rc;
}

/* MGET of PREFIX+id for the n ids: *r an array of n strings or nils.
 * 0, or -1 with err (any other reply). */
static int agents_mget(struct agents *a, const char *prefix, const char *const *ids, size_t n,
		       redisReply **r, struct rs_err *err)
{
	if (agents_keys(a, "MGET", NULL, prefix, ids, n, r, err) < 0)
		return -1;
	if ((*r)->type != REDIS_REPLY_ARRAY || (*r)->elements != n) {
		freeReplyObject(*r);
		*r = NULL;
		return rs_err_set(err, "control: MGET of %zu keys: unexpected reply", n);
	}
	return 0;
}

/* The string of element i of an MGET's reply, or "" for a nil. */
static const char *agents_mget_str(const redisReply *r, size_t i)
{
	const redisReply *e = r->element[i];

	return e->type == REDIS_REPLY_STRING && e->str != NULL ? e->str : "";
}

/* Append EXPIRE on the claim of id, for a run's claims renewed in one
 * round trip (agents_renew). */
static void agents_renew_add(struct sbuf *b, size_t *n, const char *id)
{
	char *cmd;
	int m = redisFormatCommand(&cmd, "EXPIRE %s%s %d", AGENTMSG_KEY_CLAIM, id,
				   AGENTMSG_LEASE_TTL);

	if (m < 0)
		return;
	sbuf_add(b, cmd, (size_t)m);
	redisFreeCommand(cmd);
	(*n)++;
}

/* Send the n EXPIREs in b (then freed).  0 or -1 with err. */
static int agents_renew(struct agents *a, struct sbuf *b, size_t n, struct rs_err *err)
{
	int rc = target_pipeline_as(a->c, &a->ctl, "EXPIRE", b->s, b->len, n, err);

	free(b->s);
	b->s = NULL;
	return rc < 0 ? rs_err_prefix(err, "control") : 0;
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

/* The ids of the set rsweep:agents that read as ids, sorted (so that a
 * look takes the same agents however often it is run), pointing into
 * *r (to free): their number, or -1 with err. */
static int agents_str_cmp(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static long agents_members(struct agents *a, redisReply **r, const char ***ids, struct rs_err *err)
{
	const char *members[] = { "SMEMBERS", AGENTMSG_KEY_AGENTS };
	size_t n = 0;

	*ids = NULL;
	if (agents_cmd(a, r, err, 2, members) < 0)
		return -1;
	*ids = xcalloc((*r)->type == REDIS_REPLY_ARRAY ? (*r)->elements + 1 : 1, sizeof **ids);
	for (size_t i = 0; (*r)->type == REDIS_REPLY_ARRAY && i < (*r)->elements; i++) {
		const redisReply *e = (*r)->element[i];

		if (e->type == REDIS_REPLY_STRING && agentmsg_id_ok(e->str, e->len))
			(*ids)[n++] = e->str;
	}
	qsort(*ids, n, sizeof **ids, agents_str_cmp);
	return (long)n;
}

/* Forget the agents of the set that no longer heartbeat: one killed
 * (SIGKILL, out of memory) never unregistered, and a launcher that names
 * agents after their pods would grow the set without end.  One that is
 * only stopped adds itself again when it goes on.  Three commands
 * whatever the number of agents: SMEMBERS, MGET, SREM. */
static void agents_prune(struct agents *a)
{
	redisReply *r, *al = NULL;
	const char **ids;
	struct rs_err e;
	long n = agents_members(a, &r, &ids, &e);
	size_t nsilent = 0;

	if (n > 0 && agents_mget(a, AGENTMSG_KEY_ALIVE, ids, (size_t)n, &al, &e) == 0) {
		for (size_t i = 0; i < (size_t)n; i++)
			if (agents_mget_str(al, i)[0] == '\0')
				ids[nsilent++] = ids[i];
		if (nsilent > 0)
			(void)agents_keys(a, "SREM", AGENTMSG_KEY_AGENTS, "", ids, nsilent, NULL, &e);
		freeReplyObject(al);
	}
	free(ids);
	if (n >= 0)
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
 * a->m (sorted by id), claimed for this run, the others listed in silent,
 * other and busy.  A few commands whatever the number of agents
 * (SMEMBERS, two MGETs, the renewals in one round trip), but a SET NX for
 * each agent not yet claimed. */
static int agents_look(struct agents *a, struct sbuf *silent, struct sbuf *other,
		       struct sbuf *busy, struct rs_err *err)
{
	redisReply *r, *al = NULL, *cl = NULL;
	const char **ids;
	struct sbuf renew;
	size_t nrenew = 0;
	long n = agents_members(a, &r, &ids, err);
	int rc = 0;

	if (n < 0)
		return -1;
	free(a->m);
	a->m = xcalloc((size_t)n + 1, sizeof *a->m);
	a->n = 0;
	sbuf_heap(&renew);
	if (n > 0 && (agents_mget(a, AGENTMSG_KEY_ALIVE, ids, (size_t)n, &al, err) < 0 ||
		      agents_mget(a, AGENTMSG_KEY_CLAIM, ids, (size_t)n, &cl, err) < 0))
		rc = -1;
	for (size_t i = 0; rc == 0 && i < (size_t)n && a->n < a->cfg.n; i++) {
		const char *alive = agents_mget_str(al, i), *claim = agents_mget_str(cl, i);
		char ver[40];

		if (alive[0] == '\0') {
			sbuf_item(silent, ", ", "%s", ids[i]);
			continue;
		}
		if (agentmsg_alive_decode(alive, strlen(alive), ver, sizeof ver) < 0 ||
		    strcmp(ver, PACKAGE_VERSION) != 0) {
			sbuf_item(other, ", ", "%s (rsweep %s)", ids[i], ver);
			continue;
		}
		if (strcmp(claim, a->run) == 0) {
			agents_renew_add(&renew, &nrenew, ids[i]);
		} else if (claim[0] != '\0') {
			sbuf_item(busy, ", ", "%s (run %.40s)", ids[i], claim);
			continue;
		} else {
			switch (agents_claim(a, ids[i], ver, sizeof ver, err)) {
			case -1:
				rc = -1;
				continue;
			case 0:
				sbuf_item(busy, ", ", "%s (run %s)", ids[i], ver);
				continue;
			}
		}
		xstrlcpy(a->m[a->n].id, ids[i], sizeof a->m[a->n].id);
		xstrlcpy(a->m[a->n].alive, alive, sizeof a->m[a->n].alive);
		a->n++;
	}
	if (rc == 0 && agents_renew(a, &renew, nrenew, err) < 0)
		rc = -1;
	free(renew.s);
	if (al != NULL)
		freeReplyObject(al);
	if (cl != NULL)
		freeReplyObject(cl);
	free(ids);
	freeReplyObject(r);
	qsort(a->m, a->n, sizeof *a->m, agents_id_cmp);
	return rc;
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
	a->margin_ns = AGENTS_MARGIN_NS;
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

int agents_check(struct agents *a, int skip_answered, struct rs_err *err)
{
	const char **ids = xcalloc(a->n + 1, sizeof *ids);
	struct agents_member **who = xcalloc(a->n + 1, sizeof *who);
	redisReply *al = NULL, *cl = NULL;
	struct sbuf renew;
	size_t n = 0, nrenew = 0;
	int rc = 0;

	sbuf_heap(&renew);
	for (size_t i = 0; i < a->n; i++) {
		struct agents_member *m = &a->m[i];

		m->beat = 0;
		if (m->dead || (skip_answered && m->answered))
			continue;
		who[n] = m;
		ids[n++] = m->id;
	}
	if (n > 0 && (agents_mget(a, AGENTMSG_KEY_ALIVE, ids, n, &al, err) < 0 ||
		      agents_mget(a, AGENTMSG_KEY_CLAIM, ids, n, &cl, err) < 0))
		rc = -1;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		struct agents_member *m = who[i];
		const char *claim = agents_mget_str(cl, i);
		char holder[48], alive[sizeof m->alive];

		/* A restart changes the value: its pid.  (Compared as kept:
		 * cut to the member's field, as agents_look took it.) */
		xstrlcpy(alive, agents_mget_str(al, i), sizeof alive);
		if (strcmp(alive, m->alive) != 0)
			continue;
		if (strcmp(claim, a->run) == 0) {
			agents_renew_add(&renew, &nrenew, m->id);
			m->beat = 1;
			continue;
		}
		/* Ours expired: take it again, unless another leader did. */
		if (claim[0] == '\0') {
			int c = agents_claim(a, m->id, holder, sizeof holder, err);

			if (c < 0)
				rc = -1;
			m->beat = c == 1;
		} else {
			snprintf(holder, sizeof holder, "%.40s", claim);
		}
		if (rc == 0 && !m->beat)
			rs_log(RS_LOG_WARN, "agent %s is claimed by run %s now", m->id, holder);
	}
	if (rc == 0 && agents_renew(a, &renew, nrenew, err) < 0)
		rc = -1;
	free(renew.s);
	if (al != NULL)
		freeReplyObject(al);
	if (cl != NULL)
		freeReplyObject(cl);
	free(ids);
	free(who);
	return rc;
}

/* Every claim of this run's: a->m's, an earlier look's (agents_look
 * starts a->m anew each time it looks), or one whose SET ^C cut short
 * after the server ran it.  Each agent of the set or of a->m whose claim
 * holds this run's id loses it: three commands whatever their number. */
static void agents_release_claims(struct agents *a)
{
	redisReply *r, *cl = NULL;
	const char **ids, **all;
	struct rs_err e;
	long n = agents_members(a, &r, &ids, &e);
	size_t nall = 0, mine = 0;

	if (n < 0)
		return;
	all = xcalloc((size_t)n + a->n + 1, sizeof *all);
	for (size_t i = 0; i < (size_t)n; i++)
		all[nall++] = ids[i];
	for (size_t i = 0; i < a->n; i++)
		all[nall++] = a->m[i].id;
	if (nall > 0 && agents_mget(a, AGENTMSG_KEY_CLAIM, all, nall, &cl, &e) == 0) {
		for (size_t i = 0; i < nall; i++)
			if (strcmp(agents_mget_str(cl, i), a->run) == 0)
				all[mine++] = all[i];
		if (mine > 0)
			(void)agents_keys(a, "DEL", NULL, AGENTMSG_KEY_CLAIM, all, mine, NULL, &e);
		freeReplyObject(cl);
	}
	free(all);
	free(ids);
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

		agents_cmd(a, NULL, &e, 2, del);
		/* Before the prune: a silent agent's claim is found by the set. */
		agents_release_claims(a);
		agents_prune(a);
	}
}

int agents_dbl_cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/* The p-quantile (0..1) of the n sorted values v (nearest rank). */
double agents_q(const double *v, size_t n, double p)
{
	size_t i = (size_t)ceil(p * (double)n);

	return n == 0 ? 0 : v[i == 0 ? 0 : i > n ? n - 1 : i - 1];
}

void agents_summary(struct agents *a)
{
	if (a->run_nskews == 0)
		return;
	qsort(a->run_skews, a->run_nskews, sizeof *a->run_skews, agents_dbl_cmp);
	rs_log(RS_LOG_INFO, "agents: start skew over %llu points and %zu agent starts: median "
	       "%.3f ms, p90 %.3f ms, p99 %.3f ms, from %.3f to %.3f ms", (unsigned long long)a->points,
	       a->run_nskews, agents_q(a->run_skews, a->run_nskews, 0.5),
	       agents_q(a->run_skews, a->run_nskews, 0.9), agents_q(a->run_skews, a->run_nskews, 0.99),
	       a->run_skews[0], a->run_skews[a->run_nskews - 1]);
}

void agents_close(struct agents *a)
{
	if (a == NULL)
		return;
	agents_summary(a);
	agents_release(a);
	target_close(a->c);
	free(a->m);
	free(a->skews);
	free(a->run_skews);
	free(a);
}
