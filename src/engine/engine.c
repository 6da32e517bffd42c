/* engine.c: the timed, pipelined load's per-thread loop: event loops
 * (ev.h), lock-step batches or a sliding window, closed or open loop,
 * hiredis' reader with allocation-free object functions (engine_reply.c).
 * The engine's connections, and a run's threads around the loops, are in
 * engine_run.c; what each batch of requests holds (keys, a mix's members,
 * sized values) is built in engine_batch.c. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <hiredis/hiredis.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/engine_int.h"
#include "net/conn.h"
#include "os/ev.h"
#include "base/xalloc.h"

#define ENGINE_MAX_EVENTS 256
#define ENGINE_TICK_MS 100        /* how often a loop looks at the clock and the stop flag */

static void engine_fifo_grow(struct engine_fifo *f)
{
	unsigned cap = f->cap ? f->cap * 2 : 8;
	struct engine_stamp *v = xreallocarray(NULL, cap, sizeof *v);

	for (unsigned i = 0; i < f->len; i++)
		v[i] = f->v[(f->head + i) & (f->cap - 1)];
	free(f->v);
	f->v = v;
	f->cap = cap;
	f->head = 0;
}

static inline void engine_fifo_push(struct engine_fifo *f, uint64_t n, uint64_t t)
{
	struct engine_stamp *s;

	if (f->len == f->cap)
		engine_fifo_grow(f);
	s = &f->v[(f->head + f->len++) & (f->cap - 1)];
	s->n = n;
	s->t = t;
}

static inline void engine_fifo_pop(struct engine_fifo *f)
{
	f->head = (f->head + 1) & (f->cap - 1);
	f->len--;
}

/* ---- the loop ---- */

/* Record the thread's first failure as "<target>: <reason>". */
static int engine_fail(struct engine_thread *th, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int engine_fail(struct engine_thread *th, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	if (th->failed)
		return -1;
	th->failed = 1;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	return rs_err_set(&th->err, "%s: %s", th->e->t->desc, why);
}

/* Register (out = 1) or drop (0) c's interest in EV_WRITE.  Returns 0, or
 * -1 with the run failed: a connection the loop can no longer watch would
 * otherwise stall until the timeout, or spin. */
static int engine_want_out(struct engine_thread *th, struct engine_conn *c, int out)
{
	struct rs_err why;

	if (ev_mod(th->ev, c->fd, EV_READ | (out ? EV_WRITE : 0u), c, &why) < 0)
		return engine_fail(th, "%s", why.msg);
	c->want_out = out;
	return 0;
}

/* A mix: how many of the buffer's requests the bytes written so far
 * finish (their ends are in c->ends, ascending; the buffer holds
 * c->queued - c->batch_base of them). */
static size_t engine_mix_done(const struct engine_conn *c)
{
	size_t lo = 0, hi = (size_t)(c->queued - c->batch_base);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->ends[mid] <= c->wpos)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Stamp the requests a write just finished as sent at now.  Out of line:
 * lock-step's common case, a batch its first write takes whole, needs
 * no stamp (start_ns is its time). */
static __attribute__((noinline)) void engine_stamp(struct engine_thread *th, struct engine_conn *c,
						   uint64_t now)
{
	/* Only a request whose last byte is out is sent: the rest of the
	 * batch may wait for the socket to drain. */
	uint64_t upto = c->wpos == c->blen ? c->queued :
			th->job->members != NULL ? c->batch_base + engine_mix_done(c) :
			c->batch_base + c->wpos / th->job->len;

	if (!c->stamped) {
		/* Lock-step: every earlier request is answered, and stamps start
		 * with this batch (the common case counts neither writes nor
		 * replies). */
		c->stamped = 1;
		c->written = c->replied = c->batch_base;
	}
	if (upto > c->written) {
		engine_fifo_push(&c->sent, upto, now);
		c->written = upto;
	}
}

/* A TLS write as write() answers: the count, or -1 with errno EAGAIN when
 * it must wait (for readable if c->wr_on_read) or EIO with the run failed.
 * The next call after a wait has the same buffer and length, or longer,
 * as OpenSSL wants. */
static __attribute__((noinline)) ssize_t engine_tls_write(struct engine_thread *th,
							  struct engine_conn *c,
							  const char *buf, size_t len)
{
	struct rs_err why;
	ssize_t w = conn_write(c->cn, buf, len, &why);

	c->wr_on_read = w == CONN_WANT_READ;
	if (w >= 0)
		return w;
	if (w == CONN_WANT_READ || w == CONN_WANT_WRITE) {
		errno = EAGAIN;
		return -1;
	}
	engine_fail(th, "%s", why.msg);
	errno = EIO;
	return -1;
}

/* Write what c's buffer still holds at now.  Returns 0, or -1 with the
 * run failed. */
static int engine_flush_out(struct engine_thread *th, struct engine_conn *c, uint64_t now)
{
	while (c->wpos < c->blen) {
		ssize_t w = c->tls ? engine_tls_write(th, c, c->buf + c->wpos, c->blen - c->wpos) :
				     write(c->fd, c->buf + c->wpos, c->blen - c->wpos);

		if (w > 0) {
			c->wpos += (size_t)w;
			if (c->stamped || c->wpos < c->blen)
				engine_stamp(th, c, now);
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			/* What waits for the socket is sent when it goes out. */
			if (!c->stamped)
				engine_stamp(th, c, now);
			/* TLS waiting to read first: the reads call again. */
			if (c->wr_on_read)
				return c->want_out && !c->rd_on_write ? engine_want_out(th, c, 0) : 0;
			return c->want_out ? 0 : engine_want_out(th, c, 1);
		}
		return engine_fail(th, "write failed: %s", strerror(errno));
	}
	return c->want_out && !c->rd_on_write ? engine_want_out(th, c, 0) : 0;
}

/* Lock-step's first write of a batch: the common case, a socket that
 * takes the whole batch at once, is sent at start_ns and costs no stamp
 * nor any of engine_flush_out's checks; anything else goes on there.
 * Returns 0, or -1 with the run failed. */
static inline int engine_write_batch(struct engine_thread *th, struct engine_conn *c, uint64_t now)
{
	ssize_t w;

	/* TLS: the whole batch in one SSL_write, records of up to 16 KiB, by
	 * the general path; the plain write stays as lean as it was. */
	if (c->tls)
		return engine_flush_out(th, c, now);
	w = write(c->fd, c->buf, c->blen);

	if (w == (ssize_t)c->blen) {
		c->wpos = c->blen;
		return c->want_out ? engine_want_out(th, c, 0) : 0;
	}
	if (w > 0) {
		c->wpos = (size_t)w;
		engine_stamp(th, c, now);
	}
	/* EINTR and EAGAIN: engine_flush_out writes again, or waits. */
	return engine_flush_out(th, c, now);
}

/* --reconnect-every: c, with nothing in flight, has sent its share since
 * it was opened: close it and open it again, now, inside the window.  The
 * connect counts in the latency of the requests sent next, which go out
 * stamped with now, the time they would have gone out on a kept
 * connection.  Returns 0, or -1 with the run failed. */
static __attribute__((noinline)) int engine_churn(struct engine_thread *th, struct engine_conn *c)
{
	struct rs_err why;
	size_t n = strlen(th->e->t->desc);

	if (engine_conn_reopen(th, c, &why) == 0)
		return 0;
	/* engine_fail names the target itself. */
	return engine_fail(th, "reconnecting (--reconnect-every): %s",
			   strncmp(why.msg, th->e->t->desc, n) == 0 && why.msg[n] == ':' ?
			   why.msg + n + 2 : why.msg);
}

/* --reconnect-every: how many of k requests c may queue before it must
 * reconnect (after engine_churn when its share is sent). */
static inline unsigned engine_churn_room(const struct engine_thread *th,
					 const struct engine_conn *c, unsigned k)
{
	uint64_t left = th->job->reconnect_every - c->since;

	return left < k ? (unsigned)left : k;
}

/* Lock-step: write the next batch on c, or retire c when the job is done. */
static int engine_next_batch(struct engine_thread *th, struct engine_conn *c, uint64_t now)
{
	const struct engine_job *job = th->job;
	unsigned k = job->depth;

	if (th->timed) {
		if (now >= th->deadline_ns)
			goto retire;
	} else {
		if (th->remaining == 0)
			goto retire;
		if (th->remaining < k)
			k = (unsigned)th->remaining;
	}
	if (__builtin_expect(job->reconnect_every > 0, 0)) {
		if (c->since >= job->reconnect_every && engine_churn(th, c) < 0)
			return -1;
		k = engine_churn_room(th, c, k);
		c->since += k;
	}
	if (!th->timed)
		th->remaining -= k;
	engine_batch_build(th, c, k);
	c->wpos = 0;
	c->inflight = k;
	/* Every earlier batch is answered: lock-step numbers each batch's
	 * requests from 0 (batch_base stays 0), one store per batch. */
	c->queued = k;
	c->stamped = 0;
	c->start_ns = c->last_io_ns = now;
	return engine_write_batch(th, c, now);
retire:
	c->done = 1;
	th->active--;
	return 0;
}

/* Uniform in (0, 1): never 0, so that its log is finite. */
static inline double engine_unit(uint64_t *s)
{
	return ((double)(rng_next(s) >> 11) + 0.5) * 0x1p-53;
}

/* Open loop: move the schedule to its next request. */
static void engine_schedule_next(struct engine_thread *th)
{
	const struct engine_job *job = th->job;

	th->arrival++;
	if (job->duration <= 0 && --th->remaining == 0) {
		th->exhausted = 1;
		return;
	}
	if (job->arrivals == ENGINE_POISSON)
		th->poisson_ns += -log(engine_unit(&th->rng)) * th->step_ns;
	else
		th->poisson_ns = th->phase_ns + (double)th->arrival * th->step_ns;
	th->next_due_ns = th->t0_ns + (uint64_t)th->poisson_ns;
	if (job->duration > 0 && th->next_due_ns >= th->deadline_ns)
		th->exhausted = 1;
}

/* Open loop: give c up to room requests that are due by now, stamped with
 * the times they were due; returns how many. */
static __attribute__((noinline)) unsigned engine_take_due(struct engine_thread *th,
							  struct engine_conn *c,
							   unsigned room, uint64_t now)
{
	unsigned k = 0;

	/* A timed run ends its schedule at the deadline: what a saturated
	 * server left unsent by then is not sent (the point falls short of
	 * its rate), or the run would go on long past its duration. */
	if (th->timed && now >= th->deadline_ns)
		th->exhausted = 1;
	while (k < room && !th->exhausted && th->next_due_ns <= now) {
		uint64_t from = th->next_due_ns > th->blocked_ns ? th->next_due_ns : th->blocked_ns;

		hist_record_n(&th->res.slip, now > from ? now - from : 0, 1);
		engine_fifo_push(&c->due, c->queued + k, th->next_due_ns);
		k++;
		engine_schedule_next(th);
	}
	return k;
}

/* Queue k requests on c and write them. */
static int engine_send(struct engine_thread *th, struct engine_conn *c, unsigned k, uint64_t now)
{
	engine_batch_build(th, c, k);
	c->wpos = 0;
	c->batch_base = c->queued;
	c->queued += k;
	/* A connection that was waiting for nothing starts its timeout now;
	 * one with replies outstanding keeps the time of its last reply, so
	 * sending more cannot hide a server that stopped answering. */
	if (c->inflight == 0)
		c->last_io_ns = now;
	c->inflight += k;
	return engine_flush_out(th, c, now);
}

/* Send on c what its mode lets it send now: lock-step, a batch of depth
 * once every reply is in (engine_next_batch); a window, one request for
 * each free place; open loop, the requests that are due, as far as the
 * window has room.  Retire c when the job has nothing more for it.
 * Returns 0, or -1 with the run failed. */
static __attribute__((noinline)) int engine_fill(struct engine_thread *th, struct engine_conn *c,
						 uint64_t now)
{
	const struct engine_job *job = th->job;
	unsigned k;

	/* The rest of a write is pending: its end fills again. */
	if (c->wpos < c->blen)
		return 0;
	if (th->lockstep)
		return c->inflight > 0 ? 0 : engine_next_batch(th, c, now);
	k = job->depth - c->inflight;
	if (th->open) {
		k = engine_take_due(th, c, k, now);
		if (k == 0 && (!th->exhausted || c->inflight > 0))
			return 0;
	} else if (th->timed) {
		if (now >= th->deadline_ns)
			k = 0;
	} else {
		if (th->remaining < k)
			k = (unsigned)th->remaining;
	}
	if (job->reconnect_every > 0 && k > 0 && !th->open) {
		/* A window never crosses a reconnect: what is in flight is
		 * answered first. */
		if (c->since >= job->reconnect_every) {
			if (c->inflight > 0)
				return 0;
			if (engine_churn(th, c) < 0)
				return -1;
		}
		k = engine_churn_room(th, c, k);
		c->since += k;
	}
	if (!th->open && !th->timed)
		th->remaining -= k;
	if (k > 0)
		return engine_send(th, c, k, now);
	if (c->inflight == 0) {
		c->done = 1;
		th->active--;
	}
	return 0;
}

/* Open loop: hand the requests due by now to the connections in turn,
 * each taking what its window has room for. */
static void engine_dispatch(struct engine_thread *th, uint64_t now)
{
	for (unsigned tries = 0; tries < th->nconns && !th->failed; tries++) {
		struct engine_conn *c = &th->conns[th->rr];

		if (!th->exhausted && th->next_due_ns > now)
			return;
		th->rr = th->rr + 1 < th->nconns ? th->rr + 1 : 0;
		if (!c->done)
			engine_fill(th, c, now);
	}
	/* Every window is full and a request is due: it waits for the
	 * server from now on, which is no slip of the generator's. */
	if (!th->exhausted && th->next_due_ns <= now)
		th->blocked_ns = now;
}

/* Wait for events as ev_wait does, but in the open loop only until the
 * next request is due, to the nanosecond where the back-end can (ev.h's
 * ev_wait_ns): a millisecond timeout would send every request up to 1 ms
 * late, and that lateness counts in its latency. */
static int engine_wait(struct engine_thread *th, struct ev_event *evs, uint64_t now,
		       struct rs_err *why)
{
	uint64_t ns = ENGINE_TICK_MS * 1000000ULL;

	/* Fallen due since the last dispatch (now is later than it): hand it
	 * out first, or it would wait a whole tick, and that wait would count
	 * in its latency. */
	if (!th->exhausted && th->next_due_ns <= now)
		engine_dispatch(th, now);
	if (th->failed)
		return 0;
	/* Due and no room anywhere: a reply will make room. */
	if (!th->exhausted && th->next_due_ns > now && th->next_due_ns - now < ns)
		ns = th->next_due_ns - now;
	return ev_wait_ns(th->ev, evs, ENGINE_MAX_EVENTS, ns, why);
}

/* The latency of c's k replies just read at now: each from the write that
 * sent it into h (and, open loop, from the time it was due into the
 * result's histogram).  Returns 0, or -1 with the run failed. */
static __attribute__((noinline)) int engine_record_slow(struct engine_thread *th,
							struct engine_conn *c,
							uint64_t now, uint64_t k, uint64_t skip)
{
	struct hist *h = th->open ? &th->res.service : &th->res.hist;
	uint64_t r = c->replied, end = c->replied + k;

	while (r < end) {
		const struct engine_stamp *s;
		uint64_t m;

		if (c->sent.len == 0)
			return engine_fail(th, "the server replied to a request before it was sent");
		s = &c->sent.v[c->sent.head];
		m = (s->n < end ? s->n : end) - r;
		/* Retried replies (skip) have no latency of their own: a read's
		 * replies are alike, so which of them go unrecorded matters not. */
		if (m > skip)
			hist_record_n(h, now - s->t, m - skip);
		skip = m > skip ? 0 : skip - m;
		r += m;
		if (r == s->n)
			engine_fifo_pop(&c->sent);
	}
	if (th->open)
		for (r = c->replied; r < end; r++) {
			hist_record_n(&th->res.hist, now - c->due.v[c->due.head].t, 1);
			engine_fifo_pop(&c->due);
		}
	c->replied = end;
	return 0;
}

/* engine_record_slow, after lock-step's common case: a batch written whole. */
static inline int engine_record(struct engine_thread *th, struct engine_conn *c, uint64_t now,
				uint64_t k,
				uint64_t skip)
{
	if (!c->stamped) {
		if (k > skip)
			hist_record_n(&th->res.hist, now - c->start_ns, k - skip);
		return 0;
	}
	return engine_record_slow(th, c, now, k, skip);
}

/* Fail the run on what the readers' object functions found odd: the
 * route's failure, or a reply of a kind the job refuses; returns -1. */
static __attribute__((noinline)) int engine_fail_reply(struct engine_thread *th)
{
	char why[192];

	if (th->reply.failed)
		return engine_fail(th, "%s", th->reply.fail_msg);
	engine_reply_wrong(&th->reply, why, sizeof why);
	return engine_fail(th, "%s", why);
}

/* Of k replies just read on c, th->reply.retry were retried by the route: they
 * are not answers, and as many requests go out again in their place.
 * Returns 0, or -1 with the run failed. */
static __attribute__((noinline)) int engine_retried(struct engine_thread *th, struct engine_conn *c,
						    uint64_t now, uint64_t k)
{
	uint64_t retry = th->reply.retry;

	th->reply.retry = 0;
	if (engine_record(th, c, now, k, retry) < 0)
		return -1;
	if (retry < k) {
		th->res.requests += k - retry;
		th->last_ns = now;
	}
	if (!th->timed)
		th->remaining += retry;
	return 0;
}

/* Of k replies just read on c, the requests they finish: a sequence's
 * request is answered by its last reply (th->replies of them).  Apart:
 * a job of one reply a request pays one test a read. */
static __attribute__((noinline)) uint64_t engine_whole(const struct engine_thread *th,
						       struct engine_conn *c, uint64_t k)
{
	uint64_t all = c->part + k;

	c->part = (unsigned)(all % th->replies);
	return all / th->replies;
}

/* A TLS read as read() answers: the count, 0 at the end, or -1 with errno
 * EAGAIN when it must wait (for writable if c->rd_on_write) or EIO with
 * the run failed. */
static __attribute__((noinline)) ssize_t engine_tls_read(struct engine_thread *th,
							 struct engine_conn *c)
{
	struct rs_err why;
	ssize_t n = conn_read(c->cn, th->rbuf, sizeof th->rbuf, &why);

	if (n >= 0)
		return n;
	if (n == CONN_WANT_WRITE) {
		c->rd_on_write = 1;
		if (!c->want_out && engine_want_out(th, c, 1) < 0) {
			errno = EIO;
			return -1;
		}
	}
	if (n == CONN_WANT_READ || n == CONN_WANT_WRITE) {
		errno = EAGAIN;
		return -1;
	}
	engine_fail(th, "%s", why.msg);
	errno = EIO;
	return -1;
}

/* Read what c has, record the replies, send what they let it send.  tls
 * is a constant in each caller, so that a plain connection's reads cost
 * what they did before TLS: read() on the fd, and a short read means the
 * socket is empty.  A TLS connection reads until SSL_read wants more, so
 * that no decrypted byte waits unseen by the event loop.  Returns 0, or
 * -1 with the run failed. */
static inline __attribute__((always_inline)) int engine_read_any(struct engine_thread *th,
								 struct engine_conn *c,
									const int tls)
{
	for (;;) {
		ssize_t n = tls ? engine_tls_read(th, c) : read(c->fd, th->rbuf, sizeof th->rbuf);
		uint64_t now, k = 0;
		void *reply;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (n < 0)
			return engine_fail(th, "read failed: %s", strerror(errno));
		if (n == 0)
			return engine_fail(th, "the server closed the connection%s",
					   c->partial > 0 || c->reader->len > c->reader->pos ?
					   " in the middle of a reply" :
					   c->inflight ? " with replies outstanding" : "");
		now = engine_now_ns();
		if (redisReaderFeed(c->reader, th->rbuf, (size_t)n) != REDIS_OK)
			return engine_fail(th, "reply reader: %s", c->reader->errstr);
		for (;;) {
			size_t unread = c->reader->len - c->reader->pos;

			if (redisReaderGetReply(c->reader, &reply) != REDIS_OK)
				return engine_fail(th, "protocol error from the server: %s",
						   c->reader->errstr);
			/* What the reader consumed of a reply it has not finished (the
			 * elements of an array so far) counts toward max_reply too:
			 * an endless array must not run for ever. */
			c->partial += unread - (c->reader->len - c->reader->pos);
			if (reply == NULL)
				break;
			c->partial = 0;
			k++;
		}
		if (th->reply.odd)
			return engine_fail_reply(th);
		if (c->partial + (c->reader->len - c->reader->pos) > th->job->max_reply)
			return engine_fail(th, "a reply is larger than %llu bytes, more than any test asks for",
					   (unsigned long long)th->job->max_reply);
		if (k == 0)
			goto more;
		/* Only a whole reply is progress: a server that trickles a byte now
		 * and then must not keep a point alive for ever. */
		c->last_io_ns = now;
		if (th->replies > 1 && (k = engine_whole(th, c, k)) == 0)
			goto more;
		if (k > c->inflight)
			return engine_fail(th, "the server sent more replies than requests");
		if (th->reply.retry > 0) {
			if (engine_retried(th, c, now, k) < 0)
				return -1;
		} else {
			if (engine_record(th, c, now, k, 0) < 0)
				return -1;
			th->res.requests += k;
			th->last_ns = now;
		}
		/* One compare per read; a read may close several slices. */
		while (th->mark < ENGINE_SLICES && th->res.requests >= th->mark_at[th->mark])
			th->mark_ns[th->mark++] = now;
		c->inflight -= (unsigned)k;
		if (th->lockstep) {
			if (c->inflight == 0)
				return engine_next_batch(th, c, now);
		} else if (engine_fill(th, c, now) < 0) {
			return -1;
		}
more:
		if (!tls && (size_t)n < sizeof th->rbuf)
			return 0;
	}
}

static __attribute__((noinline)) int engine_on_read_tls(struct engine_thread *th,
							struct engine_conn *c)
{
	c->rd_on_write = 0;
	if (engine_read_any(th, c, 1) < 0)
		return -1;
	/* A write that wanted to read first goes on now. */
	if (c->wr_on_read && c->wpos < c->blen)
		return engine_flush_out(th, c, engine_now_ns());
	if (c->want_out && !c->rd_on_write && c->wpos >= c->blen)
		return engine_want_out(th, c, 0);
	return 0;
}

static int engine_on_read(struct engine_thread *th, struct engine_conn *c)
{
	return c->tls ? engine_on_read_tls(th, c) : engine_read_any(th, c, 0);
}

/* Open loop: start th's schedule at now.  Each thread has its share of
 * the rate, and the threads are staggered by a fraction of a step, so
 * that together they send evenly rather than in step. */
static void engine_schedule_start(struct engine_thread *th, uint64_t now)
{
	const struct engine_job *job = th->job;
	struct engine *e = th->e;
	unsigned i = (unsigned)(th - e->th);

	th->t0_ns = now;
	th->step_ns = 1e9 * e->nthreads / job->rate;
	th->phase_ns = th->step_ns * i / e->nthreads;
	th->poisson_ns = job->arrivals == ENGINE_POISSON ?
			 -log(engine_unit(&th->rng)) * th->step_ns : th->phase_ns;
	th->arrival = 0;
	th->rr = 0;
	th->blocked_ns = 0;
	th->next_due_ns = now + (uint64_t)th->poisson_ns;
	th->exhausted = job->duration > 0 ? th->next_due_ns >= th->deadline_ns :
			th->remaining == 0;
}

void *engine_loop(void *arg)
{
	struct engine_thread *th = arg;
	const struct engine_job *job = th->job;
	struct ev_event evs[ENGINE_MAX_EVENTS];
	struct rs_err why;
	uint64_t timeout_ns = (uint64_t)(job->timeout * 1e9);
	uint64_t now = engine_now_ns(), next_scan = now + ENGINE_TICK_MS * 1000000ULL;

	th->first_ns = th->last_ns = now;
	th->deadline_ns = now + (uint64_t)(job->duration * 1e9);
	th->active = th->nconns;
	th->open = job->rate > 0;
	th->timed = job->duration > 0;
	th->lockstep = job->mode == ENGINE_LOCKSTEP && !th->open;
	th->replies = job->replies > 1 ? job->replies : 1;
	if (th->open) {
		engine_schedule_start(th, now);
		engine_dispatch(th, now);
	} else {
		for (unsigned i = 0; i < th->nconns && !th->failed; i++)
			engine_fill(th, &th->conns[i], now);
	}
	while (th->active > 0 && !th->failed) {
		/* Lock-step and the closed window keep the plain tick. */
		int n = th->open ? engine_wait(th, evs, now, &why) :
			ev_wait(th->ev, evs, ENGINE_MAX_EVENTS, ENGINE_TICK_MS, &why);

		if (n < 0) {
			engine_fail(th, "%s", why.msg);
			break;
		}
		for (int i = 0; i < n && !th->failed; i++) {
			struct engine_conn *c = ev_data(&evs[i]);

			if (ev_readable(&evs[i]))
				engine_on_read(th, c);
			if (!th->failed && ev_writable(&evs[i]) && c->wpos < c->blen) {
				uint64_t t = engine_now_ns();

				if (engine_flush_out(th, c, t) == 0 && !th->lockstep)
					engine_fill(th, c, t);
			}
			/* A TLS read that wanted to write first. */
			if (ev_writable(&evs[i]) && c->rd_on_write && !th->failed)
				engine_on_read_tls(th, c);
		}
		if (th->open && !th->failed)
			engine_dispatch(th, now = engine_now_ns());
		if ((job->stop != NULL && __atomic_load_n(job->stop, __ATOMIC_RELAXED)) ||
		    __atomic_load_n(&th->e->abort, __ATOMIC_RELAXED)) {
			engine_fail(th, "interrupted");
			break;
		}
		if (n > 0 && n < ENGINE_MAX_EVENTS && (now = engine_now_ns()) < next_scan)
			continue;
		now = engine_now_ns();
		next_scan = now + ENGINE_TICK_MS * 1000000ULL;
		/* Duration mode: a connection whose last batch ended exactly at the
		 * deadline has already retired; the others retire on their next reply. */
		if (job->duration > 0 && now > th->deadline_ns + timeout_ns) {
			engine_fail(th, "the server stopped answering (no end %.1f s after the deadline)",
				    job->timeout);
			break;
		}
		/* Cluster: replies that all say "not now" (CLUSTERDOWN, TRYAGAIN,
		 * MOVED to itself) are no progress either. */
		if (th->reply.retry_msg[0] != '\0' && now - th->last_ns > timeout_ns) {
			engine_fail(th, "no request answered for %.1f s: %s", job->timeout,
				    th->reply.retry_msg);
			break;
		}
		for (unsigned i = 0; i < th->nconns; i++) {
			struct engine_conn *c = &th->conns[i];
			uint64_t sent;

			/* An open loop's idle connection waits for no reply. */
			if (c->done || c->inflight == 0)
				continue;
			if (now - c->last_io_ns > timeout_ns) {
				engine_fail(th, "the server stopped answering (no reply for %.1f s)",
					    job->timeout);
				break;
			}
			/* A reply now and then is not enough: each request's own
			 * reply must come within the timeout, as on the control
			 * connection, or a server trickling its replies would
			 * hold the point for as long as it likes. */
			sent = !c->stamped ? c->start_ns : c->sent.len > 0 ?
			       c->sent.v[c->sent.head].t : now;
			if (now > sent && now - sent > timeout_ns) {
				engine_fail(th, "the server answers too slowly (a request's reply not "
					    "complete %.1f s after it was sent)", job->timeout);
				break;
			}
		}
	}
	return NULL;
}

