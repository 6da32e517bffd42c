/* pubsub.c: the subscribers of a pub/sub run (pubsub.h): their
 * connections, their subscriptions and the server's word on them, the
 * thread that reads them, and the drain after the timed window. */
#include "config.h"

#include <hiredis/hiredis.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine_clock.h"
#include "engine/pubsub.h"
#include "engine/pubsub_msg.h"
#include "base/rng.h"
#include "base/xalloc.h"
#include "net/conn.h"

/* What the top-level array under way is (its first element says). */
enum pubsub_kind { PUBSUB_OTHER, PUBSUB_MESSAGE, PUBSUB_PMESSAGE, PUBSUB_CONFIRM };

struct pubsub_reader;

struct pubsub_sub {
	struct pubsub_subs *s;
	struct pubsub_reader *r;  /* the thread that reads it */
	struct conn *cn;
	int fd;
	struct redisReader *rd;
	unsigned channel;
	enum pubsub_kind kind;
	int confirmed;            /* the server answered its SUBSCRIBE */
	int gone;                 /* its connection ended or broke: no longer read */
	char error[128];          /* an error reply it got, or "" */
	struct pubsub_stream *streams; /* one per publisher */
};

/* A thread that reads subscribers first, first + step, ... of them, and
 * what it counted. */
struct pubsub_reader {
	struct pubsub_subs *s;
	unsigned first, step;
	pthread_t tid;
	int started;
	struct pollfd *pf;        /* one per subscriber it reads */
	uint64_t now;             /* the time of the read being fed, for latency */
	uint64_t dup, foreign, last_ns;
	double cpu_s;             /* its CPU time, once it stopped */
	struct hist deliver;
	char rbuf[65536];
};

struct pubsub_subs {
	struct pubsub_sub *v;
	struct pubsub_reader *r;
	unsigned n, nr, publishers, channels;
	int pattern, sharded;
	/* The channels' name: chan_len bytes, the channel's number in
	 * RNG_DIGITS digits at digits_at (pubsub_name). */
	char chan[PUBSUB_NAME_MAX];
	size_t chan_len, digits_at;
	int reading;              /* the threads run */
	int quit;                 /* atomic: the threads are to stop */
	uint64_t received;        /* atomic: messages received once, all subscribers */
};

/* ---- the replies: objects that build nothing ---- */

static char pubsub_obj;

static void pubsub_message(struct pubsub_sub *sub, const char *str, size_t len)
{
	struct pubsub_subs *s = sub->s;
	struct pubsub_reader *r = sub->r;
	struct pubsub_stamp st;

	if (pubsub_stamp_get(str, len, &st) < 0 || st.publisher >= s->publishers ||
	    st.seq % s->channels != sub->channel) {
		r->foreign++;
		return;
	}
	if (pubsub_stream_add(&sub->streams[st.publisher], st.seq / s->channels)) {
		hist_record_n(&r->deliver, r->now > st.sent_ns ? r->now - st.sent_ns : 0, 1);
		__atomic_add_fetch(&s->received, 1, __ATOMIC_RELAXED);
	} else {
		r->dup++;
	}
	r->last_ns = r->now;
}

static void *pubsub_string(const redisReadTask *task, char *str, size_t len)
{
	struct pubsub_sub *sub = task->privdata;

	if (task->parent == NULL) {
		if (task->type == REDIS_REPLY_ERROR && sub->error[0] == '\0')
			snprintf(sub->error, sizeof sub->error, "%.*s", (int)(len < 120 ? len : 120), str);
		return &pubsub_obj;
	}
	if (task->idx == 0) {
		if (len == 7 && memcmp(str, "message", 7) == 0)
			sub->kind = PUBSUB_MESSAGE;
		else if (len == 8 && memcmp(str, "pmessage", 8) == 0)
			sub->kind = PUBSUB_PMESSAGE;
		else if (len == 8 && memcmp(str, "smessage", 8) == 0)
			sub->kind = PUBSUB_MESSAGE;
		else if ((len == 9 && memcmp(str, "subscribe", 9) == 0) ||
			 (len == 10 && memcmp(str, "psubscribe", 10) == 0) ||
			 (len == 10 && memcmp(str, "ssubscribe", 10) == 0))
			sub->kind = PUBSUB_CONFIRM;
	} else if ((sub->kind == PUBSUB_MESSAGE && task->idx == 2) ||
		   (sub->kind == PUBSUB_PMESSAGE && task->idx == 3)) {
		pubsub_message(sub, str, len);
	}
	return &pubsub_obj;
}

static void *pubsub_array(const redisReadTask *task, int elements)
{
	struct pubsub_sub *sub = task->privdata;

	(void)elements;
	if (task->parent == NULL)
		sub->kind = PUBSUB_OTHER;
	return &pubsub_obj;
}

static void *pubsub_integer(const redisReadTask *task, long long value)
{
	struct pubsub_sub *sub = task->privdata;

	(void)value;
	if (task->parent != NULL && task->idx == 2 && sub->kind == PUBSUB_CONFIRM)
		sub->confirmed = 1;
	return &pubsub_obj;
}

static void *pubsub_nil(const redisReadTask *task)
{
	(void)task;
	return &pubsub_obj;
}

static void pubsub_free_obj(void *obj)
{
	(void)obj;
}

static redisReplyObjectFunctions pubsub_fns = {
	pubsub_string, pubsub_array, pubsub_integer, pubsub_nil, pubsub_free_obj,
};

/* ---- reading ---- */

static void pubsub_drop(struct pubsub_sub *sub)
{
	sub->gone = 1;
	conn_close(sub->cn);
	sub->cn = NULL;
	sub->fd = -1;
}

/* Read what sub has (a bounded number of chunks, so that one busy
 * subscriber does not starve the others) and feed it to its reader.  A
 * connection that ends or breaks is dropped (its messages count as
 * lost).  Returns 1 when it read anything. */
static int pubsub_read(struct pubsub_reader *rr, struct pubsub_sub *sub)
{
	struct rs_err err;
	int any = 0;

	for (int chunk = 0; chunk < 16 && !sub->gone; chunk++) {
		ssize_t r = conn_read(sub->cn, rr->rbuf, sizeof rr->rbuf, &err);
		void *obj;

		if (r == CONN_WANT_READ || r == CONN_WANT_WRITE)
			break;
		if (r <= 0) {
			pubsub_drop(sub);
			break;
		}
		any = 1;
		rr->now = engine_now_ns();
		if (redisReaderFeed(sub->rd, rr->rbuf, (size_t)r) != REDIS_OK) {
			pubsub_drop(sub);
			break;
		}
		do {
			if (redisReaderGetReply(sub->rd, &obj) != REDIS_OK) {
				pubsub_drop(sub);
				break;
			}
		} while (obj != NULL);
	}
	return any;
}

/* One round of reader r: wait up to ms for any of its subscribers to be
 * readable, read those that are. */
static void pubsub_round(struct pubsub_reader *r, int ms)
{
	struct pubsub_subs *s = r->s;
	struct pollfd *pf = r->pf;
	unsigned n = 0;
	int pending = 0;

	for (unsigned i = r->first; i < s->n; i += r->step, n++) {
		pf[n].fd = s->v[i].gone ? -1 : s->v[i].fd;
		pf[n].events = POLLIN;
		pf[n].revents = 0;
		/* TLS: bytes already decrypted never wake poll. */
		if (!s->v[i].gone && conn_pending(s->v[i].cn) > 0)
			pending = 1;
	}
	if (poll(pf, n, pending ? 0 : ms) < 0 && !pending)
		return;
	n = 0;
	for (unsigned i = r->first; i < s->n; i += r->step, n++)
		if (!s->v[i].gone && (pf[n].revents || conn_pending(s->v[i].cn) > 0))
			pubsub_read(r, &s->v[i]);
}

static void *pubsub_loop(void *arg)
{
	struct pubsub_reader *r = arg;
	struct timespec cpu;

	while (!__atomic_load_n(&r->s->quit, __ATOMIC_RELAXED))
		pubsub_round(r, 10);
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) == 0)
		r->cpu_s = (double)cpu.tv_sec + (double)cpu.tv_nsec / 1e9;
	return NULL;
}

/* ---- starting ---- */

static int pubsub_stopped(volatile sig_atomic_t *stop, struct rs_err *err)
{
	if (stop != NULL && *stop)
		return rs_err_setk(err, RS_E_INTERRUPTED, "interrupted while subscribing");
	return 0;
}

/* Channel c's name into buf (PUBSUB_NAME_MAX bytes, NUL-terminated). */
static void pubsub_name(const struct pubsub_subs *s, unsigned c, char *buf)
{
	memcpy(buf, s->chan, s->chan_len);
	rng_put_digits(buf + s->digits_at, c);
	buf[s->chan_len] = '\0';
}

/* The subscribe command: SUBSCRIBE, PSUBSCRIBE or SSUBSCRIBE. */
static const char *pubsub_verb(const struct pubsub_subs *s)
{
	return s->pattern ? "PSUBSCRIBE" : s->sharded ? "SSUBSCRIBE" : "SUBSCRIBE";
}

/* Send the subscribe command on sub, by deadline.  0, or -1 (err). */
static int pubsub_send(struct pubsub_subs *s, struct pubsub_sub *sub, uint64_t deadline,
		       volatile sig_atomic_t *stop, struct rs_err *err)
{
	char name[PUBSUB_NAME_MAX + 2], cmd[PUBSUB_NAME_MAX + 64]; /* + "*" and the NUL */
	size_t off = 0, len;

	pubsub_name(s, sub->channel, name);
	if (s->pattern)
		strcat(name, "*");
	len = (size_t)snprintf(cmd, sizeof cmd, "*2\r\n$%zu\r\n%s\r\n$%zu\r\n%s\r\n",
			       strlen(pubsub_verb(s)), pubsub_verb(s), strlen(name), name);
	while (off < len) {
		ssize_t w = conn_write(sub->cn, cmd + off, len - off, err);
		struct pollfd pf = { sub->fd, POLLOUT, 0 };

		if (w > 0) {
			off += (size_t)w;
			continue;
		}
		if (w == CONN_ERROR)
			return -1;
		if (pubsub_stopped(stop, err) < 0)
			return -1;
		if (engine_now_ns() >= deadline)
			return rs_err_set(err, "cannot send SUBSCRIBE in time");
		pf.events = w == CONN_WANT_READ ? POLLIN : POLLOUT;
		(void)poll(&pf, 1, 10);
	}
	return 0;
}

/* The server's own count: PUBSUB NUMSUB of every channel (each
 * subscribers / channels), or PUBSUB NUMPAT (at least channels). */
static int pubsub_confirm(const struct target *t, struct pubsub_subs *s, struct rs_err *err)
{
	struct target_conn *tc;
	struct redisReply *r = NULL;
	const char **argv = xcalloc((size_t)s->channels + 2, sizeof *argv);
	size_t *lens = xcalloc((size_t)s->channels + 2, sizeof *lens);
	char *names = xcalloc(s->channels, PUBSUB_NAME_MAX + 1);
	unsigned each = s->n / s->channels;
	int argc = 2, rc = 0;

	argv[0] = "PUBSUB";
	argv[1] = s->pattern ? "NUMPAT" : s->sharded ? "SHARDNUMSUB" : "NUMSUB";
	for (unsigned c = 0; c < s->channels && !s->pattern; c++) {
		pubsub_name(s, c, names + (size_t)c * (PUBSUB_NAME_MAX + 1));
		argv[argc++] = names + (size_t)c * (PUBSUB_NAME_MAX + 1);
	}
	for (int i = 0; i < argc; i++)
		lens[i] = strlen(argv[i]);
	if (target_connect(t, &tc, err) < 0) {
		rc = -1;
		goto out;
	}
	if (target_command(tc, t, argc, argv, lens, &r, err) < 0) {
		rc = rs_err_prefix(err, "PUBSUB %s", argv[1]);
	} else if (s->pattern) {
		if (r->type != REDIS_REPLY_INTEGER || r->integer < (long long)s->channels)
			rc = rs_err_set(err, "PUBSUB NUMPAT counts %lld patterns, fewer than the %u "
					"subscribed", r->type == REDIS_REPLY_INTEGER ? r->integer : -1LL,
					s->channels);
	} else if (r->type != REDIS_REPLY_ARRAY || r->elements != (size_t)s->channels * 2) {
		rc = rs_err_set(err, "PUBSUB %s's reply is not a pair for each of %u channels",
				argv[1], s->channels);
	} else {
		for (unsigned c = 0; c < s->channels && rc == 0; c++) {
			const struct redisReply *n = r->element[2 * c + 1];

			if (n->type != REDIS_REPLY_INTEGER || n->integer != (long long)each)
				rc = rs_err_set(err, "PUBSUB %s counts %lld subscribers of %s, not "
						"the %u subscribed (another client on rsweep's channels?)",
						argv[1], n->type == REDIS_REPLY_INTEGER ? n->integer : -1LL,
						argv[2 + c], each);
		}
	}
	if (r != NULL)
		freeReplyObject(r);
	target_close(tc);
out:
	free(argv);
	free(lens);
	free(names);
	return rc;
}

/* Wait until every subscriber's SUBSCRIBE is answered, by deadline. */
static int pubsub_wait_confirmed(struct pubsub_subs *s, uint64_t deadline,
				 volatile sig_atomic_t *stop, struct rs_err *err)
{
	int rc = 0;

	for (;;) {
		unsigned done = 0;

		for (unsigned i = 0; i < s->n && rc == 0; i++) {
			struct pubsub_sub *sub = &s->v[i];

			if (sub->error[0] != '\0')
				rc = rs_err_set(err, "subscriber %u: the server answered %s with %s", i + 1,
						pubsub_verb(s), sub->error);
			else if (sub->gone)
				rc = rs_err_set(err, "subscriber %u: the connection ended before its "
						"subscription was confirmed", i + 1);
			done += sub->confirmed;
		}
		if (rc < 0 || done == s->n)
			break;
		if ((rc = pubsub_stopped(stop, err)) < 0)
			break;
		if (engine_now_ns() >= deadline) {
			rc = rs_err_set(err, "%u of %u subscriptions unconfirmed after the timeout",
					s->n - done, s->n);
			break;
		}
		for (unsigned k = 0; k < s->nr; k++)
			pubsub_round(&s->r[k], 10 / (int)s->nr + 1);
	}
	return rc;
}

int pubsub_start(const struct target *t, const struct engine_pubsub *ps, const char *chan,
		 size_t chan_len, size_t digits_at, unsigned publishers, unsigned readers,
		 double timeout, volatile sig_atomic_t *stop, struct pubsub_subs **out,
		 struct rs_err *err)
{
	struct pubsub_subs *s;
	/* The subscribers are set up one after another under one deadline,
	 * as the engine's connections are (engine_reconnect): timeout, or a
	 * tenth of it a subscriber when that is more.  Their confirmations
	 * then have timeout of their own. */
	double setup = timeout * ps->subscribers / 10 > timeout ? timeout * ps->subscribers / 10 :
								   timeout;
	double until = conn_clock() + setup;
	uint64_t deadline = engine_now_ns() + (uint64_t)(setup * 1e9);
	int prc;

	*out = NULL;
	if (ps->subscribers < 1 || ps->channels < 1 || ps->channels > ps->subscribers ||
	    ps->subscribers % ps->channels != 0 || publishers < 1)
		return rs_err_setk(err, RS_E_USAGE, "%u subscribers on %u channels: the channels "
				   "must divide the subscribers", ps->subscribers, ps->channels);
	if (chan_len > PUBSUB_NAME_MAX || digits_at + RNG_DIGITS > chan_len)
		return rs_err_setk(err, RS_E_USAGE, "the channel's name (%zu bytes) does not hold "
				   "its number", chan_len);
	if ((uint64_t)ps->subscribers * publishers > PUBSUB_STREAMS_MAX)
		return rs_err_setk(err, RS_E_USAGE, "%u subscribers x %u publishing connections: "
				   "more than %u streams to follow", ps->subscribers, publishers,
				   PUBSUB_STREAMS_MAX);
	if (ps->pattern && ps->sharded)
		return rs_err_setk(err, RS_E_USAGE, "sharded pub/sub has no patterns");
	s = xcalloc(1, sizeof *s);
	s->n = ps->subscribers;
	s->channels = ps->channels;
	s->publishers = publishers;
	s->pattern = ps->pattern;
	s->sharded = ps->sharded;
	memcpy(s->chan, chan, chan_len);
	s->chan_len = chan_len;
	s->digits_at = digits_at;
	s->nr = readers < 1 ? 1 : readers > s->n ? s->n : readers;
	s->r = xcalloc(s->nr, sizeof *s->r);
	for (unsigned k = 0; k < s->nr; k++) {
		s->r[k].s = s;
		s->r[k].first = k;
		s->r[k].step = s->nr;
		s->r[k].pf = xcalloc(s->n / s->nr + 1, sizeof *s->r[k].pf);
		hist_init(&s->r[k].deliver);
	}
	s->v = xcalloc(s->n, sizeof *s->v);
	for (unsigned i = 0; i < s->n; i++) {
		s->v[i].fd = -1;
		s->v[i].gone = 1;
	}
	for (unsigned i = 0; i < s->n; i++) {
		struct pubsub_sub *sub = &s->v[i];

		sub->s = s;
		sub->r = &s->r[i % s->nr];
		sub->channel = i % s->channels;
		sub->streams = xcalloc(publishers, sizeof *sub->streams);
		if (target_connect_until(t, until, &sub->cn, err) < 0) {
			rs_err_prefix(err, "subscriber %u of %u", i + 1, s->n);
			goto fail;
		}
		sub->gone = 0;
		sub->fd = conn_fd(sub->cn);
		if ((sub->rd = redisReaderCreateWithFunctions(&pubsub_fns)) == NULL) {
			rs_err_set(err, "cannot create a reply reader");
			goto fail;
		}
		sub->rd->privdata = sub;
		sub->rd->maxbuf = 0;
		if (pubsub_send(s, sub, deadline, stop, err) < 0) {
			rs_err_prefix(err, "subscriber %u of %u", i + 1, s->n);
			goto fail;
		}
	}
	deadline = engine_now_ns() + (uint64_t)(timeout * 1e9);
	if (pubsub_wait_confirmed(s, deadline, stop, err) < 0 || pubsub_confirm(t, s, err) < 0)
		goto fail;
	/* Only what the run publishes counts. */
	for (unsigned k = 0; k < s->nr; k++) {
		s->r[k].dup = s->r[k].foreign = s->r[k].last_ns = 0;
		hist_init(&s->r[k].deliver);
	}
	__atomic_store_n(&s->received, 0, __ATOMIC_RELAXED);
	s->reading = 1;
	for (unsigned k = 0; k < s->nr; k++) {
		if ((prc = pthread_create(&s->r[k].tid, NULL, pubsub_loop, &s->r[k])) != 0) {
			rs_err_set(err, "cannot start subscriber thread %u of %u: %s", k + 1, s->nr,
				   strerror(prc));
			goto fail;
		}
		s->r[k].started = 1;
	}
	*out = s;
	return 0;
fail:
	pubsub_free(s);
	return -1;
}

/* ---- the drain ---- */

static void pubsub_halt(struct pubsub_subs *s)
{
	if (!s->reading)
		return;
	__atomic_store_n(&s->quit, 1, __ATOMIC_RELAXED);
	for (unsigned k = 0; k < s->nr; k++)
		if (s->r[k].started)
			pthread_join(s->r[k].tid, NULL);
	s->reading = 0;
}

int pubsub_finish(struct pubsub_subs *s, uint64_t want, double timeout,
		  volatile sig_atomic_t *stop, struct pubsub_tally *out, struct rs_err *err)
{
	uint64_t deadline = engine_now_ns() + (uint64_t)(timeout * 1e9);
	const struct timespec ms = { 0, 1000000 };
	int rc = 0;

	while (__atomic_load_n(&s->received, __ATOMIC_RELAXED) < want &&
	       engine_now_ns() < deadline) {
		if (stop != NULL && *stop) {
			rc = rs_err_setk(err, RS_E_INTERRUPTED, "interrupted while the subscribers "
					 "drained");
			break;
		}
		nanosleep(&ms, NULL);
	}
	pubsub_halt(s);
	memset(out, 0, sizeof *out);
	hist_init(&out->deliver);
	for (unsigned k = 0; k < s->nr; k++) {
		const struct pubsub_reader *r = &s->r[k];

		hist_merge(&out->deliver, &r->deliver);
		out->dup += r->dup;
		out->foreign += r->foreign;
		out->cpu_s += r->cpu_s;
		if (r->last_ns > out->last_ns)
			out->last_ns = r->last_ns;
	}
	out->readers = s->nr;
	for (unsigned i = 0; i < s->n; i++) {
		out->gone += (unsigned)s->v[i].gone;
		for (unsigned p = 0; p < s->publishers; p++) {
			out->delivered += s->v[i].streams[p].distinct;
			out->gaps += pubsub_stream_gaps(&s->v[i].streams[p]);
		}
	}
	return rc;
}

void pubsub_free(struct pubsub_subs *s)
{
	if (s == NULL)
		return;
	pubsub_halt(s);
	for (unsigned i = 0; i < s->n; i++) {
		struct pubsub_sub *sub = &s->v[i];

		conn_close(sub->cn);
		if (sub->rd != NULL)
			redisReaderFree(sub->rd);
		for (unsigned p = 0; sub->streams != NULL && p < s->publishers; p++)
			pubsub_stream_free(&sub->streams[p]);
		free(sub->streams);
	}
	for (unsigned k = 0; k < s->nr; k++)
		free(s->r[k].pf);
	free(s->r);
	free(s->v);
	free(s);
}
