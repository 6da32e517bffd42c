/* engine_int.h: what the engine's rooms share: the per-thread loop
 * (engine.c), the engine's connections and runs around it (engine_run.c)
 * and the reply objects (engine_reply.c).  Nobody else includes it:
 * engine.h is the interface. */
#ifndef RS_ENGINE_INT_H
#define RS_ENGINE_INT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "engine/keydist.h"

struct redisReader;
struct ev_loop;
struct pubsub_subs;

/* One loop's account of the replies its readers built in a run: the
 * reader's object functions fill it as they go, the loop reads it after
 * each feed, and engine_reply_reset clears it for the next run.  Only
 * top-level replies count. */
struct engine_reply {
	const struct engine_route *route; /* the run's, or NULL */
	unsigned expect;          /* the run's engine_job.expect */
	uint64_t errors;          /* error replies */
	uint64_t misses;          /* nils, empty arrays (ZPOPMIN, LRANGE on a missing key) */
	char first_error[128];    /* the first error reply's text */
	int wrong_type;           /* REDIS_REPLY_* of a reply expect refuses, or 0 */
	int failed;               /* route->on_error failed the run: fail_msg says why */
	/* Set with wrong_type or failed, so that the loop tests one flag after
	 * a feed: what a plain reply costs stays as it was. */
	int odd;
	/* Replies of the feed under way that route->on_error retried: the loop
	 * takes them and sets this back to 0. */
	uint64_t retry;
	uint64_t redirects;       /* the run's retried replies */
	uint64_t int_sum;         /* top-level integer replies' sum (plain jobs) */
	char retry_msg[160];      /* why the last one was retried */
	char fail_msg[160];
};

/* Clear r for a run of job. */
void engine_reply_reset(struct engine_reply *r, const struct engine_job *job);
/* A hiredis reader whose replies build nothing (every reply is one shared
 * static object, so a reply costs no allocation) and are counted in r,
 * which must outlive it.  It keeps its read buffer between replies.
 * Freed with redisReaderFree; NULL when it cannot be made. */
struct redisReader *engine_reply_reader(struct engine_reply *r);
/* Count rd's replies in r (c NULL), or, for a mix with a route, in c's
 * thread's and take each top-level reply's member off c's ring
 * (engine_conn.mring), so that one the route retries is not counted as
 * sent: apart, so that any other run's replies cost what they did.  Set
 * for each run. */
struct engine_conn;
void engine_reply_track(struct redisReader *rd, struct engine_reply *r, struct engine_conn *c);
/* The same for a sequence without a route (job->replies > 1, c->th->job
 * set): c's replies are counted a request at a time, one error at most
 * (engine_job.replies). */
void engine_reply_track_seq(struct redisReader *rd, struct engine_conn *c);
/* Why a reply of r->wrong_type fails the run, into buf: "the server
 * replied with an integer where the command gets a bulk string". */
void engine_reply_wrong(const struct engine_reply *r, char *buf, size_t size);

/* ---- the loop (engine.c) and its threads and connections ----
 *
 * No type of ev.h is held by value here, so that engine_run.c and
 * engine_reply.c are the same whatever ev.h's layout: a test that links
 * another back-end compiles its own engine.c only. */

#define ENGINE_READ_CHUNK 65536

struct engine_thread;

/* A mix's draw (Walker's alias method), built once a run: one rng_next
 * a request picks a column from its top bits, and its low 32 bits keep
 * the column's member (below keep) or take its alias.  Columns are a
 * power of two, padded with columns that always take their alias; a full
 * column has its member as its alias.  A column is one 8-byte load. */
struct engine_mix_col {
	uint32_t keep;            /* out of 2^32 */
	unsigned char member, alias;
};
struct engine_mix {
	unsigned shift;           /* 64 - log2(columns) */
	struct engine_mix_col col[ENGINE_MAX_MEMBERS];
	size_t maxlen;            /* the longest member's bytes (with the largest value) */
	/* Values sized per request (engine_job.vmax), a member's key in
	 * several places (copy_off) or a route: engine_mix_fill's general
	 * path (a route's own). */
	int general;
};

/* Random bytes a loop draws values from (engine_job.vmax): a value starts
 * at one of ENGINE_POOL_STARTS places, so that requests carry different
 * bytes for one draw each. */
#define ENGINE_POOL_STARTS 4096

/* A count and a time: "requests up to n were sent at t" (one per write
 * that finished requests), or "request n was due at t" (open loop). */
struct engine_stamp {
	uint64_t n, t;
};

/* A FIFO of stamps that grows by doubling: a write finishes at least one
 * request, so it never holds more than depth stamps, and most often one
 * or two (a lock-step batch written at once is one stamp, not P). */
struct engine_fifo {
	struct engine_stamp *v;
	unsigned cap, head, len;  /* cap: 0 or a power of two */
};

struct engine_conn {
	int fd;                   /* conn_fd(cn), read and written directly unless tls */
	struct conn *cn;
	int tls;                  /* reads and writes go through cn */
	int wr_on_read;           /* TLS: the pending write waits for readable */
	int rd_on_write;          /* TLS: a read waits for writable (a key update) */
	struct redisReader *reader;
	struct engine_thread *th;
	char *buf;                /* the batch: own copy when keys are random, else shared */
	size_t blen, wpos;
	/* A mix: where each request of the buffer ends (depth of them), so
	 * that a partial write knows how many requests it finished. */
	size_t *ends;
	/* A mix with a route: the member of each request in flight, oldest
	 * at mhead, the next sent at mtail (depth places, a ring): a reply
	 * the route retries gives its member's count back (engine_reply.c).
	 * NULL otherwise. */
	unsigned char *mring;
	unsigned mhead, mtail;
	unsigned inflight;        /* requests queued and not yet answered */
	unsigned part;            /* replies read of the request under way (engine_job.replies) */
	/* The same as the reader sees them, reply by reply, for a sequence's
	 * errors (engine_reply.c): the replies left of the request under way
	 * (of rreplies, its job's), whether it is a transaction, whether one
	 * reply counts as its error (a transaction's: its last), and whether
	 * the elements to come of the last request's EXEC may still hold its
	 * error.  Set for each run (engine_reply_track_seq). */
	unsigned rleft, rreplies;
	int rtx, rerr, rtail;
	int want_out;             /* EV_WRITE is registered */
	int done;
	uint64_t partial;         /* bytes the reader consumed of the reply in progress */
	uint64_t last_io_ns;      /* last reply read, or the send that ended a wait */
	/* Lock-step's common case costs no stamp: a batch that one write
	 * took whole was sent at start_ns.  Only a batch the socket took in
	 * pieces is `stamped` (its requests' times in `sent`), as a window
	 * always is. */
	uint64_t start_ns;
	int stamped;
	/* Requests numbered from 0 in the order they were queued this run: */
	uint64_t queued;          /* how many went into the buffer */
	uint64_t written;         /* how many have all their bytes written */
	uint64_t replied;         /* how many replies were read */
	uint64_t batch_base;      /* the number of the buffer's first request */
	struct engine_fifo sent;  /* when each written request was sent */
	struct engine_fifo due;   /* open loop: when each one in flight was due */
	uint64_t pub_seq;         /* pub/sub: the next message's sequence number */
	/* engine_job.reconnect_every: requests queued since the connection
	 * was last opened; at reconnect_every it is closed and opened again
	 * before its next request (engine_conn_reopen). */
	uint64_t since;
	/* engine_job.tls_resume: the session of the connection last closed,
	 * offered to the next one (conn.h); NULL: none yet, or plain. */
	struct conn_session *sess;
};

struct engine_thread {
	struct engine *e;
	pthread_t tid;
	struct ev_loop *ev;
	struct engine_conn *conns;
	unsigned nconns;

	/* per run */
	const struct engine_job *job;
	const char *shared;       /* P copies of the command, when keys are fixed */
	uint64_t remaining;       /* requests left to send (count mode) */
	uint64_t deadline_ns;     /* duration mode */
	/* Open loop: this thread's schedule.  Request k is due at t0 + phase
	 * + k * step (uniform), or after exponential gaps of mean step. */
	uint64_t t0_ns, next_due_ns, arrival;
	double step_ns, phase_ns, poisson_ns;
	unsigned rr;              /* the connection the next due request tries first */
	/* The last dispatch that left a due request for want of room in any
	 * window (0: none yet): a request's slip counts from then at the
	 * earliest (engine_result.slip). */
	uint64_t blocked_ns;
	int exhausted;            /* no request is left to schedule */
	/* The job's mode as flags, tested per request without a double. */
	int open, timed, lockstep;
	unsigned replies;         /* replies a request: the job's, at least 1 */
	uint64_t rng;
	char *pool;               /* engine_job.vmax + ENGINE_POOL_STARTS random bytes, or NULL */
	struct keydist_state kds; /* the job's keydist's draws on this loop */
	unsigned active;
	uint64_t first_ns, last_ns;
	/* Where the slices end (count mode): the replies that close slice k
	 * are mark_at[k], reached at mark_ns[k]; mark is the next to reach. */
	uint64_t mark_at[ENGINE_SLICES], mark_ns[ENGINE_SLICES];
	unsigned mark;
	int sliced;               /* this run keeps slices */
	struct engine_reply reply; /* what the readers' object functions count */
	struct engine_result res;
	int failed;
	struct rs_err err;
	char rbuf[ENGINE_READ_CHUNK];
};

struct engine {
	const struct target *t;
	unsigned nthreads, clients;
	double connect_ms;        /* the slowest connection setup of the last (re)connect */
	struct engine_thread *th;
	int abort;                /* a run could not start all its threads */
	struct engine_mix mix;    /* the run's mix, when its job has members */
	struct pubsub_subs *subs; /* a pub/sub run's subscribers (pubsub.h), or NULL */
};

/* Run th's loop for th->job, prepared by engine_run.c, to its end: a
 * pthread start routine (arg is a struct engine_thread *), or called directly
 * when there is one thread.  Returns NULL; a failure is in th->failed and
 * th->err. */
void *engine_loop(void *arg);

/* engine_run.c: close c and open it again (connect, TLS handshake, AUTH,
 * SELECT, within the job's timeout), watched by th's loop and readied for
 * th's job as engine_run readies every connection; c->since goes back to
 * 0 and th->res.connects up by one.  Called by th's own loop, inside the
 * timed window, with nothing in flight on c: the thread's other
 * connections wait meanwhile.  Returns 0, or -1 with err filled ("<target>:
 * <reason>"). */
/* engine_conn.c: open c before until (conn_clock's seconds) onto th's
 * loop (0, or -1 with err filled); close it (its fd leaves the loop
 * first); point its reader at job; reopen it mid-run (close, open within
 * the job's --timeout, track, count the connect).  */
int engine_conn_open(struct engine *e, struct engine_thread *th, struct engine_conn *c, double until,
		     struct rs_err *err);
void engine_conn_close(struct engine_conn *c);
void engine_conn_track(struct engine_thread *th, struct engine_conn *c, const struct engine_job *job);
int engine_conn_reopen(struct engine_thread *th, struct engine_conn *c, struct rs_err *err);

/* ---- a batch's bytes (engine_batch.c) ----
 *
 * engine_batch_build fills c's buffer with k requests for th's job and sets
 * c->blen (and c->ends for a mix): inline here for a plain job (one test a
 * batch more than its keys' loop), the rest apart in engine_batch.c. */
void engine_randomize_routed(struct engine_thread *th, struct engine_conn *c, unsigned k);
void engine_randomize_dist(struct engine_thread *th, struct engine_conn *c, unsigned k);
void engine_copy_keys(const struct engine_job *job, struct engine_conn *c, unsigned k);
void engine_mix_fill(struct engine_thread *th, struct engine_conn *c, unsigned k);
/* Pub/sub (engine_pubsub.c): each of c's k requests gets its channel and
 * its stamp, sent now. */
void engine_pubsub_stamp(struct engine_thread *th, struct engine_conn *c, unsigned k);
/* Around a pub/sub run (engine_run.c): start the subscribers before the
 * loops (0, or -1 with err), and after them wait for the messages to
 * arrive and count them into res (0, or -1 with err when the subscribers
 * failed; ok is 0 when the loops failed: the subscribers are only
 * stopped).  e->subs is freed in both. */
int engine_pubsub_begin(struct engine *e, const struct engine_job *job, struct rs_err *err);
int engine_pubsub_end(struct engine *e, const struct engine_job *job, struct engine_result *res,
		      int ok, struct rs_err *err);

static inline void engine_randomize(struct engine_thread *th, struct engine_conn *c, unsigned k)
{
	const struct engine_job *job = th->job;

	if (job->route != NULL && job->route->key != NULL) {
		engine_randomize_routed(th, c, k);
		return;
	}
	if (job->keydist != NULL) {
		engine_randomize_dist(th, c, k);
		return;
	}
	for (unsigned i = 0; i < k; i++) {
		char *cmd = c->buf + (size_t)i * job->len;

		for (size_t r = 0; r < job->nrand; r++)
			rng_put_digits(cmd + job->rand_off[r], rng_next(&th->rng) % job->keyspace);
	}
}

/* Always inline: the compiler would otherwise keep one copy for its two
 * callers, a call and its frame a batch (callgrind: 18 instructions a
 * request more for a plain GET at P=1). */
static inline __attribute__((always_inline)) void engine_batch_build(struct engine_thread *th,
								      struct engine_conn *c,
								      unsigned k)
{
	const struct engine_job *job = th->job;

	if (job->members != NULL) {
		engine_mix_fill(th, c, k);
		return;
	}
	if (job->nrand > 0 && job->keyspace > 0) {
		engine_randomize(th, c, k);
		if (job->ncopy > 0)
			engine_copy_keys(job, c, k);
	}
	if (job->pubsub != NULL)
		engine_pubsub_stamp(th, c, k);
	c->blen = (size_t)k * job->len;
}

#endif
