/* engine_run.c: an engine's threads and their connections, and a run
 * over them: open, reopen and close the connections, prepare each thread
 * for a job, start the loops (engine.c) and gather their results.  Once
 * a run, or once a connection: nothing here is paid per request. */
#include "config.h"

#include <hiredis/hiredis.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/engine_int.h"
#include "net/conn.h"
#include "os/ev.h"
#include "base/xalloc.h"

int engine_new(const struct target *t, unsigned clients, unsigned threads, struct engine **out,
	       struct rs_err *err)
{
	struct engine *e = xcalloc(1, sizeof *e);

	*out = NULL;
	e->t = t;
	e->clients = clients;
	e->nthreads = threads;
	e->th = xcalloc(threads, sizeof *e->th);
	for (unsigned i = 0; i < threads; i++) {
		struct engine_thread *th = &e->th[i];

		th->e = e;
		th->nconns = clients / threads + (i < clients % threads);
		th->conns = xcalloc(th->nconns, sizeof *th->conns);
		for (unsigned k = 0; k < th->nconns; k++)
			th->conns[k].fd = -1;
		if (ev_new(&th->ev, err) < 0) {
			engine_free(e);
			return -1;
		}
	}
	if (engine_reconnect(e, err) < 0) {
		engine_free(e);
		return -1;
	}
	*out = e;
	return 0;
}

/* Every connection is set up (connect, TLS handshake, AUTH, SELECT)
 * within one deadline from the first connect: one by one, each with its
 * own, a server that answers each of them just in time would hold the
 * point for clients times --timeout before it began.  The deadline is
 * --timeout, or a tenth of it a connection when that is more: the
 * connections are opened one after another, and a healthy server 7 ms
 * away takes 7 s for a thousand of them. */
int engine_reconnect(struct engine *e, struct rs_err *err)
{
	double per = e->t->timeout > 0 ? e->t->timeout : TARGET_DEFAULT_TIMEOUT;
	double limit = per * e->clients / 10 > per ? per * e->clients / 10 : per;
	double until = conn_clock() + limit;
	unsigned ready = 0;

	e->connect_ms = 0;
	for (unsigned i = 0; i < e->nthreads; i++)
		for (unsigned k = 0; k < e->th[i].nconns; k++) {
			double t0 = conn_clock(), ms;

			engine_conn_close(&e->th[i].conns[k]);
			if (engine_conn_open(e, &e->th[i], &e->th[i].conns[k], until, err) < 0) {
				if (conn_clock() >= until && rs_err_status(err) == RS_FAILED) {
					char why[RS_ERR_LEN];

					memcpy(why, err->msg, sizeof why);
					rs_err_set(err, "%s; %u of the %u connections were set up "
						   "within %g s (one deadline for all: --timeout, or "
						   "a tenth of it a connection)", why, ready,
						   e->clients, limit);
				}
				return rs_err_prefix(err, "connection %u of %u", i + k * e->nthreads + 1,
						     e->clients);
			}
			ready++;
			/* Connect, TLS handshake, AUTH and SELECT: before any timed
			 * window. */
			ms = (conn_clock() - t0) * 1e3;
			if (ms > e->connect_ms)
				e->connect_ms = ms;
		}
	return 0;
}

void engine_free(struct engine *e)
{
	if (e == NULL)
		return;
	for (unsigned i = 0; i < e->nthreads; i++) {
		for (unsigned k = 0; k < e->th[i].nconns; k++) {
			engine_conn_close(&e->th[i].conns[k]);
			if (e->th[i].conns[k].buf != e->th[i].shared)
				free(e->th[i].conns[k].buf);
			free(e->th[i].conns[k].sent.v);
			free(e->th[i].conns[k].due.v);
			free(e->th[i].conns[k].ends);
			free(e->th[i].conns[k].mring);
			conn_session_free(e->th[i].conns[k].sess);
		}
		free(e->th[i].conns);
		free(e->th[i].pool);
		ev_free(e->th[i].ev);
	}
	free(e->th);
	free(e);
}

/* ---- a run ---- */

/* Throughput per slice, summed over the threads (which run side by side):
 * NAN where a thread did not reach the slice's end (a failed or
 * interrupted run, a timed run). */
static void engine_slices(const struct engine *e, struct engine_result *res)
{
	for (unsigned k = 0; k < ENGINE_SLICES; k++) {
		double sum = 0;

		for (unsigned i = 0; i < e->nthreads; i++) {
			const struct engine_thread *th = &e->th[i];
			uint64_t from = k ? th->mark_at[k - 1] : 0;
			uint64_t t0 = k ? th->mark_ns[k - 1] : th->first_ns;

			if (!th->sliced || th->mark < ENGINE_SLICES || th->mark_ns[k] <= t0) {
				sum = NAN;
				break;
			}
			sum += (double)(th->mark_at[k] - from) * 1e9 / (double)(th->mark_ns[k] - t0);
		}
		res->slice_rps[k] = sum;
	}
}

/* The most bytes one request of member m can take: its value at
 * job->vmax bytes when the job sizes values ("$" and 20 digits of length
 * at most). */
static size_t engine_member_room(const struct engine_job *job, const struct engine_member *m)
{
	if (job->vmax == 0 || m->value_end == 0)
		return m->len;
	return m->len - (m->value_end - m->value_at) + 1 + 20 + 2 + job->vmax + 2;
}

/* Whether member i's value can be sized per request: every place the
 * engine writes digits lies before it, so that they stay where they are
 * whatever the value's length.  0, or -1 with err. */
static int engine_value_check(const struct engine_job *job, const struct engine_member *m,
			      size_t i, struct rs_err *err)
{
	if (job->vmax == 0 || m->value_end == 0)
		return 0;
	if (job->vmin > job->vmax)
		return rs_err_set(err, "values of %zu to %zu bytes", job->vmin, job->vmax);
	if (m->value_at >= m->value_end || m->value_end > m->len || m->cmd[m->value_at] != '$')
		return rs_err_set(err, "member %zu of a mix has no value where it says", i + 1);
	for (size_t r = 0; r < m->nrand; r++)
		if (m->rand_off[r] + RNG_DIGITS > m->value_at)
			return rs_err_set(err, "member %zu of a mix has a random key after its value", i + 1);
	for (size_t r = 0; r < m->ncopy; r++)
		if (m->copy_off[r] + RNG_DIGITS > m->value_at)
			return rs_err_set(err, "member %zu of a mix has a key after its value", i + 1);
	return 0;
}

/* Check job's mix and build its draw into *mix: Walker's alias method
 * in integers, so that each member's chance is its weight's share to
 * within 2^-32 (a cumulative table of buckets would round every weight
 * to a bucket).  Returns 0, or -1 with err naming the problem. */
static int engine_mix_build(const struct engine_job *job, struct engine_mix *mix,
			    struct rs_err *err)
{
	uint64_t total = 0, scaled[ENGINE_MAX_MEMBERS];
	unsigned cols = 2, bits = 1, small[ENGINE_MAX_MEMBERS], large[ENGINE_MAX_MEMBERS];
	unsigned ns = 0, nl = 0;

	memset(mix, 0, sizeof *mix);
	if (job->nmembers < 1 || job->nmembers > ENGINE_MAX_MEMBERS)
		return rs_err_set(err, "a mix of %zu commands (1 to %d)", job->nmembers,
				  ENGINE_MAX_MEMBERS);
	/* A route's retries take back the member of each reply's request
	 * (engine_conn.mring): one reply a request. */
	if (job->route != NULL && job->replies > 1)
		return rs_err_set(err, "a mix on a route gets one reply a request, not %u",
				  job->replies);
	for (size_t i = 0; i < job->nmembers; i++) {
		const struct engine_member *m = &job->members[i];

		if (m->weight < 1 || m->weight > ENGINE_MAX_WEIGHT)
			return rs_err_set(err, "member %zu of a mix has weight %u (1 to %u)", i + 1,
					  m->weight, ENGINE_MAX_WEIGHT);
		total += m->weight;
		if (engine_value_check(job, m, i, err) < 0)
			return -1;
		if (engine_member_room(job, m) > mix->maxlen)
			mix->maxlen = engine_member_room(job, m);
		mix->general |= (job->vmax > 0 && m->value_end > 0) || m->ncopy > 0;
	}
	/* A route's keys and retries: engine_mix_fill's routed path. */
	mix->general |= job->route != NULL;
	while (cols < job->nmembers) {
		cols *= 2;
		bits++;
	}
	mix->shift = 64 - bits;
	/* Each column holds `total` of probability mass; a member brings
	 * weight * cols.  Padding columns bring none. */
	for (unsigned i = 0; i < cols; i++) {
		scaled[i] = i < job->nmembers ? (uint64_t)job->members[i].weight * cols : 0;
		if (scaled[i] < total)
			small[ns++] = i;
		else
			large[nl++] = i;
	}
	while (ns > 0 && nl > 0) {
		unsigned s = small[--ns], l = large[nl - 1];

		mix->col[s].member = (unsigned char)s;
		mix->col[s].alias = (unsigned char)l;
		/* Below 2^32: scaled[s] < total. */
		mix->col[s].keep = (uint32_t)((scaled[s] << 32) / total);
		scaled[l] -= total - scaled[s];
		if (scaled[l] < total) {
			nl--;
			small[ns++] = l;
		}
	}
	/* What is left is full (exactly, in integers): its member either way. */
	while (nl > 0) {
		unsigned l = large[--nl];

		mix->col[l].member = mix->col[l].alias = (unsigned char)l;
		mix->col[l].keep = UINT32_MAX;
	}
	while (ns > 0) {
		unsigned s = small[--ns];

		mix->col[s].member = mix->col[s].alias = (unsigned char)s;
		mix->col[s].keep = UINT32_MAX;
	}
	return 0;
}

/* A batch: job->depth copies of one request, in memory the caller frees;
 * for a mix, room for depth of its longest member, filled per batch. */
static char *engine_batch_new(const struct engine *e, const struct engine_job *job)
{
	char *b;

	if (job->members != NULL)
		return xmalloc((size_t)job->depth * e->mix.maxlen);
	b = xmalloc((size_t)job->depth * job->len);

	for (unsigned p = 0; p < job->depth; p++)
		memcpy(b + (size_t)p * job->len, job->cmd, job->len);
	return b;
}

/* Reset thread i's counters and connections for job.  With random keys
 * each connection gets its own batch to patch; otherwise all share
 * `shared`, which they only read. */
static void engine_thread_prepare(struct engine *e, unsigned i, const struct engine_job *job,
				  char *shared)
{
	struct engine_thread *th = &e->th[i];
	int mring = job->members != NULL && job->route != NULL;

	th->job = job;
	th->remaining = job->requests / e->nthreads + (i < job->requests % e->nthreads);
	/* No slices in a timed run (the count is not known in advance),
	 * nor for fewer requests than slices. */
	th->sliced = job->duration <= 0 && th->remaining >= ENGINE_SLICES;
	th->mark = 0;
	for (unsigned k = 0; k < ENGINE_SLICES; k++)
		th->mark_at[k] = th->remaining * (k + 1) / ENGINE_SLICES;
	th->rng = (job->seed + 1) * 0x9E3779B97F4A7C15ULL + i;
	if (th->rng == 0)
		th->rng = 1;
	free(th->pool);
	th->pool = NULL;
	/* The values' bytes: random, from this loop's own generator. */
	if (job->vmax > 0) {
		size_t n = job->vmax + ENGINE_POOL_STARTS;

		th->pool = xmalloc(n);
		for (size_t k = 0; k < n; k += 8) {
			uint64_t r = rng_next(&th->rng);

			memcpy(th->pool + k, &r, n - k < 8 ? n - k : 8);
		}
	}
	memset(&th->kds, 0, sizeof th->kds);
	th->failed = 0;
	engine_reply_reset(&th->reply, job);
	memset(&th->res, 0, sizeof th->res);
	hist_init(&th->res.hist);
	hist_init(&th->res.service);
	hist_init(&th->res.slip);
	hist_init(&th->res.connect);
	for (unsigned k = 0; k < th->nconns; k++) {
		struct engine_conn *c = &th->conns[k];

		if (c->buf != th->shared)
			free(c->buf);
		c->done = 0;
		c->inflight = 0;
		c->part = 0;
		c->partial = 0;
		c->blen = c->wpos = 0;
		c->queued = c->written = c->replied = c->batch_base = 0;
		c->sent.len = c->due.len = 0;
		c->sent.head = c->due.head = 0;
		c->pub_seq = 0;
		c->stamped = job->mode != ENGINE_LOCKSTEP || job->rate > 0;
		c->buf = shared != NULL ? shared : engine_batch_new(e, job);
		free(c->ends);
		c->ends = job->members != NULL ? xcalloc(job->depth, sizeof *c->ends) : NULL;
		/* A mix with a route keeps each request's member until its reply. */
		free(c->mring);
		c->mring = mring ? xcalloc(job->depth, sizeof *c->mring) : NULL;
		c->mhead = c->mtail = 0;
		engine_conn_track(th, c, job);
		/* Churn: every connection the point uses is opened inside its
		 * window, the first before its first request. */
		c->since = job->reconnect_every;
	}
	th->shared = shared;
}

/* Run every thread's loop to its end: in this thread when there is one,
 * else one pthread each.  Returns 0, or -1 with err set when a thread
 * could not start (the others are stopped; the run fails as a whole). */
static int engine_loops(struct engine *e, struct rs_err *err)
{
	unsigned started = 0;
	sigset_t all, old;
	int prc = 0;

	if (e->nthreads == 1) {
		engine_loop(&e->th[0]);
		return 0;
	}
	/* Signals go to the main thread, which sets job->stop. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e->abort = 0;
	for (; started < e->nthreads; started++)
		if ((prc = pthread_create(&e->th[started].tid, NULL, engine_loop,
					  &e->th[started])) != 0)
			break;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (started < e->nthreads) {
		__atomic_store_n(&e->abort, 1, __ATOMIC_RELAXED);
		rs_err_set(err, "cannot start thread %u of %u: %s", started + 1, e->nthreads,
			   strerror(prc));
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(e->th[i].tid, NULL);
	return started < e->nthreads ? -1 : 0;
}

/* Sum the threads' results into res and let go of the shared batch.
 * Returns rc, or -1 with err set to the first thread's failure when rc
 * is 0. */
static int engine_gather(struct engine *e, struct engine_result *res, const char *shared,
			 int rc, struct rs_err *err)
{
	uint64_t first = UINT64_MAX, last = 0;

	for (unsigned i = 0; i < e->nthreads; i++) {
		struct engine_thread *th = &e->th[i];

		if (th->failed && rc == 0 && !e->abort) {
			*err = th->err;
			rc = -1;
		}
		res->requests += th->res.requests;
		res->errors += th->reply.errors;
		res->misses += th->reply.misses;
		res->redirects += th->reply.redirects;
		res->int_sum += th->reply.int_sum;
		res->connects += th->res.connects;
		res->resumed += th->res.resumed;
		hist_merge(&res->connect, &th->res.connect);
		for (unsigned m = 0; m < ENGINE_MAX_MEMBERS; m++)
			res->member_sent[m] += th->res.member_sent[m];
		if (res->first_error[0] == '\0' && th->reply.first_error[0] != '\0')
			memcpy(res->first_error, th->reply.first_error, sizeof res->first_error);
		hist_merge(&res->hist, &th->res.hist);
		hist_merge(&res->service, &th->res.service);
		hist_merge(&res->slip, &th->res.slip);
		if (th->first_ns < first)
			first = th->first_ns;
		if (th->last_ns > last)
			last = th->last_ns;
		for (unsigned k = 0; k < th->nconns; k++)
			if (th->conns[k].buf == shared)
				th->conns[k].buf = NULL;
		th->shared = NULL;
	}
	res->seconds = last > first ? (double)(last - first) / 1e9 : 0;
	engine_slices(e, res);
	return rc;
}

void engine_result_init(struct engine_result *res)
{
	memset(res, 0, sizeof *res);
	hist_init(&res->hist);
	hist_init(&res->service);
	hist_init(&res->slip);
	hist_init(&res->deliver);
	hist_init(&res->connect);
}

int engine_run(struct engine *e, const struct engine_job *job, struct engine_result *res,
	       struct rs_err *err)
{
	char *shared = NULL;
	int rc;

	engine_result_init(res);
	if (job->members != NULL && engine_mix_build(job, &e->mix, err) < 0)
		return -1;
	/* Subscribed and confirmed before the first publish. */
	if (job->pubsub != NULL && engine_pubsub_begin(e, job, err) < 0)
		return -1;
	/* With fixed keys one read-only batch serves every connection; a
	 * mix's batches differ from one to the next, and so do pub/sub's. */
	if (job->members == NULL && !(job->nrand > 0 && job->keyspace > 0) && job->pubsub == NULL)
		shared = engine_batch_new(e, job);
	/* Each point walks a sequential keyspace from its first key. */
	keydist_rewind(job->keydist);
	for (unsigned i = 0; i < e->nthreads; i++)
		engine_thread_prepare(e, i, job, shared);
	rc = engine_loops(e, err);
	rc = engine_gather(e, res, shared, rc, err);
	res->connect_ms = e->connect_ms;
	if (job->pubsub != NULL && engine_pubsub_end(e, job, res, rc == 0, err) < 0)
		rc = -1;
	free(shared);
	return rc;
}
