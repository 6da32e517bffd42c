/* agents_point.c: the leader's point: split it over the agents alive with
 * a common start, collect their results and merge them exactly. */
#include "config.h"

#include <hiredis/hiredis.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agents/agent.h"
#include "agents/agentmsg.h"
#include "agents/agents.h"
#include "agents/agents_int.h"
#include "base/log.h"
#include "base/sbuf.h"
#include "base/xalloc.h"

/* Append the XADD of point message p to member m's work stream, capped
 * and expiring, to b (*n counts the commands): sent to every agent in one
 * round trip, so that the last is not a round trip per agent later than
 * the first.  0, or -1 with err. */
static int agents_send_add(struct agents *a, const struct agents_member *m,
			   const struct agentmsg_point *p, struct sbuf *b, size_t *n,
			   struct rs_err *err)
{
	struct agentmsg_fields fs;
	char key[96];
	int c;

	if (agentmsg_point_encode(p, &fs, err) < 0)
		return -1;
	snprintf(key, sizeof key, "%s%s", AGENTMSG_KEY_WORK, m->id);
	c = agent_xadd_format(key, a->cfg.key, &fs, b);
	agentmsg_fields_free(&fs);
	if (c < 0)
		return rs_err_set(err, "control: XADD %s: cannot format the message", key);
	*n += (size_t)c;
	return 0;
}

/* The member whose id is id (n bytes), by bisection (a->m is sorted by
 * id): the leader's cost per result stays O(log N). */
static struct agents_member *agents_find(struct agents *a, const char *id, size_t n)
{
	size_t lo = 0, hi = a->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *m = a->m[mid].id;
		size_t ml = strlen(m);
		int c = memcmp(m, id, ml < n ? ml : n);

		if (c == 0)
			c = ml < n ? -1 : ml > n ? 1 : 0;
		if (c == 0)
			return &a->m[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
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
	/* for the -v line: when agents_load began, and when the messages
	 * were sent, monotonic; the control clock's offset from it */
	uint64_t t_entry, t_sent;
	int64_t offset;
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
	{
		struct agents_member *m = agents_find(a, id->value, id->value_len);

		return m == NULL || m->dead || m->answered ? NULL : m;
	}
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
	m = agents_find(a, r->agent, strlen(r->agent));
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
		const char *argv[] = { "XREAD", "COUNT", "128", "BLOCK", "200", "STREAMS",
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
			if (agents_lead(a, err) < 0 || agents_check(a, 1, err) < 0)
				return -1;
			for (size_t i = 0; i < a->n; i++) {
				struct agents_member *m = &a->m[i];

				if (m->dead || m->answered || m->beat)
					continue;
				if (!k->failed)
					rs_err_set(err, "agent %s stopped heartbeating (no %s%s within "
						   "%d s)", m->id, AGENTMSG_KEY_ALIVE, m->id,
						   AGENTMSG_HEARTBEAT_TTL);
				k->failed = 1;
				agents_drop(a, m);
				k->want--;
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

/* The next point's margin from how long this one's messages took to
 * plan and send (spent ns): never less than AGENTS_MARGIN_NS, and twice
 * what the sends took when that is more, so that with hundreds of agents
 * (or a slow control Redis) the last agent still reads its message
 * before the instant.  The agents refuse a start more than 10 s ahead:
 * it stays below. */
static void agents_margin(struct agents *a, uint64_t spent)
{
	uint64_t want = 2 * spent;

	if (want > 5000000000ull)
		want = 5000000000ull;
	if (spent > a->margin_ns / 2)
		rs_log(RS_LOG_WARN, "sending the point to %zu agents took %.0f ms of the %.0f ms "
		       "before its start: the next point starts %.0f ms ahead", a->n, (double)spent / 1e6,
		       (double)a->margin_ns / 1e6, (double)(want > AGENTS_MARGIN_NS ? want :
		       AGENTS_MARGIN_NS) / 1e6);
	a->margin_ns = want > AGENTS_MARGIN_NS ? want : AGENTS_MARGIN_NS;
}

/* The columns of the timed point k: agents_ok, the worst skew, the CPU,
 * each agent's rate; and the skews kept for the run's summary
 * (agents_close).  agent_rps lists every agent when the list fits the
 * column (some 20 agents); past that it says how many, the slowest and
 * the fastest by name and the median, rather than a list cut short. */
static void agents_columns(struct agents *a, const struct agents_take *k)
{
	struct sbuf b;
	double *rates = xcalloc(a->n + 1, sizeof *rates), *sk;
	const struct agents_member *lo = NULL, *hi = NULL;
	size_t nr = 0;

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
		rates[nr++] = m->rps;
		if (lo == NULL || m->rps < lo->rps)
			lo = m;
		if (hi == NULL || m->rps > hi->rps)
			hi = m;
	}
	if (b.cut && lo != NULL) {
		qsort(rates, nr, sizeof *rates, agents_dbl_cmp);
		snprintf(a->rps, sizeof a->rps, "agents=%zu;min=%.60s:%.0f;median=%.0f;max=%.60s:%.0f",
			 nr, lo->id, lo->rps, agents_q(rates, nr, 0.5), hi->id, hi->rps);
	}
	free(rates);
	/* The run's skews, for its summary line (at most a million). */
	if (a->run_nskews + a->nskews <= AGENTS_SKEWS_MAX) {
		a->run_skews = xreallocarray(a->run_skews, a->run_nskews + a->nskews + 1,
					     sizeof *a->run_skews);
		memcpy(a->run_skews + a->run_nskews, a->skews, a->nskews * sizeof *a->skews);
		a->run_nskews += a->nskews;
	}
	a->points++;
	sk = xcalloc(a->nskews + 1, sizeof *sk);
	memcpy(sk, a->skews, a->nskews * sizeof *sk);
	qsort(sk, a->nskews, sizeof *sk, agents_dbl_cmp);
	{
		uint64_t now = engine_now_ns();
		double merge = ((double)now + (double)k->offset - (double)k->end_ns) / 1e6;

		/* The leader's overhead: from agents_load's start to the
		 * messages sent, and from the last agent's end to the merge. */
		rs_log(RS_LOG_DEBUG, "run %s: point %llu: %u agents; start skew median %.3f ms, p90 "
		       "%.3f ms, worst %.3f ms; leader: %.3f ms to send, %.3f ms from the last end "
		       "to the merge, %.3f ms in all", a->run, (unsigned long long)k->seq, a->ok,
		       agents_q(sk, a->nskews, 0.5), agents_q(sk, a->nskews, 0.9), a->skew_ms,
		       (double)(k->t_sent - k->t_entry) / 1e6, merge,
		       (double)(now - k->t_entry) / 1e6);
	}
	free(sk);
}

int agents_load(struct agents *a, const struct engine_job *job, const char *test, int warm,
		 struct engine_result *res, struct rs_err *err)
{
	struct agents_take k = { .warm = warm, .res = res, .t_entry = engine_now_ns(),
				 .nmembers = job->members != NULL ? job->nmembers : 0 };
	size_t alive = 0, idx = 0;
	char *text = NULL;
	int64_t offset;
	uint64_t rtt, per, rest, longest = 0, deadline, t_plan;
	double expect;
	struct sbuf sends;
	size_t nsends = 0;
	int rc;

	engine_result_init(res);
	for (int i = 0; i < ENGINE_SLICES; i++)
		res->slice_rps[i] = NAN;
	if (agents_lead(a, err) < 0)
		return -1;
	/* Who is still there, before anything is sent: a point that would
	 * go to fewer agents than were asked is partial, and fails. */
	for (size_t i = 0; i < a->n; i++)
		a->m[i].answered = 0;
	if (agents_check(a, 0, err) < 0)
		return -1;
	for (size_t i = 0; i < a->n; i++) {
		struct agents_member *m = &a->m[i];

		if (m->dead)
			continue;
		if (!m->beat) {
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
	t_plan = engine_now_ns();
	k.start_ns = (uint64_t)((int64_t)t_plan + offset) + a->margin_ns + 2 * rtt;
	k.want = alive;
	/* The job as built, the same for every agent but its numbers. */
	text = agentmsg_job_encode(job);
	sbuf_heap(&sends);
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
		if (agents_send_add(a, m, &p, &sends, &nsends, err) < 0) {
			free(text);
			free(sends.s);
			return -1;
		}
		idx++;
	}
	free(text);
	rc = target_pipeline_as(a->c, &a->ctl, "XADD", sends.s, sends.len, nsends, err);
	free(sends.s);
	if (rc < 0)
		return rs_err_prefix(err, "control");
	k.t_sent = engine_now_ns();
	k.offset = offset;
	agents_margin(a, k.t_sent - t_plan);
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
	agents_columns(a, &k);
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
