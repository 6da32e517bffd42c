/* engine.h: the timed, pipelined load.
 *
 * An engine holds -c connections spread over --threads event loops (ev.h),
 * kept open from one point to the next.  engine_run() sends exactly
 * `requests` requests (or runs for `duration` seconds) of one command, at
 * most `depth` in flight on a connection: in lock-step batches (write P,
 * read their P replies, write the next P) or in a sliding window (a new
 * request for each reply), closed loop, or on a fixed schedule of `rate`
 * requests a second (open loop).  Replies go through hiredis' reader with
 * object functions that build nothing, so a reply costs no allocation.
 * Latency is per request: from the write that sent its last byte (open
 * loop: from the time it was due) to the read that brought its reply.
 * The engine never prints and knows nothing of CSV. */
#ifndef RS_ENGINE_H
#define RS_ENGINE_H

#include <signal.h>
#include <stdint.h>
#include <time.h>

#include "base/err.h"
#include "base/rng.h"
#include "engine/engine_clock.h"
#include "results/hist.h"
#include "net/target.h"

struct engine;
struct keydist;

/* Kinds of top-level reply, for engine_job.expect.  A nil counts as the
 * kind its header announced ($-1 a bulk, *-1 an array). */
#define ENGINE_REPLY_STATUS (1u << 0)     /* +OK, +PONG */
#define ENGINE_REPLY_BULK (1u << 1)       /* $ */
#define ENGINE_REPLY_INTEGER (1u << 2)    /* : */
#define ENGINE_REPLY_ARRAY (1u << 3)      /* * */

/* What depth means (engine_job.mode). */
enum engine_mode {
	ENGINE_LOCKSTEP,          /* write P, wait for all P replies, write the next P */
	ENGINE_WINDOW,            /* keep up to P in flight, a new one as each reply comes */
};

/* How an open-loop schedule spaces requests (engine_job.arrivals). */
enum engine_arrivals {
	ENGINE_UNIFORM,           /* evenly, threads staggered */
	ENGINE_POISSON,           /* exponential gaps of the same mean */
};

/* The names of the modes and the arrivals, in enum order: --mode's and
 * --arrivals' values (the option table points here), the CSV's mode and
 * arrivals columns (row.c, whose "" is a row without the column) and the
 * agents' messages. */
static const char *const engine_mode_names[] = { "lockstep", "window", NULL };
static const char *const engine_arrivals_names[] = { "uniform", "poisson", NULL };

/* A mix: each request is one of up to ENGINE_MAX_MEMBERS commands, drawn
 * per request with probability weight / (the members' total weight). */
#define ENGINE_MAX_MEMBERS 16
/* The largest weight, so that a draw's arithmetic cannot overflow. */
#define ENGINE_MAX_WEIGHT 1000000u

/* Keys chosen for the server the connections reach, and replies that
 * redirect: what a Redis Cluster needs (cluster_load.h), in terms the
 * engine need not understand.  NULL in engine_job.route for a plain
 * server. */
struct engine_route {
	/* Choose the key of the request at cmd: called once a request when
	 * keys are random (keyspace set), after the engine has written fresh
	 * digits at each rand_off[r] of the request's command but r ==
	 * key_draws[member].  member is the request's member of a mix
	 * (job->members' index), 0 for a job of one command (job->cmd,
	 * job->rand_off); a mix calls it for every member, and a member
	 * whose key the route leaves alone costs a return.  It may draw from
	 * rng with rng_next and write digits at any of the command's
	 * rand_off, so that the key falls where the connections are.  Called
	 * per request on the loop's thread: it must be cheap, and read what
	 * other loops may write (a shared map) atomically.  NULL: the
	 * engine's digits stand. */
	void (*key)(const struct engine_route *r, size_t member, char *cmd, uint64_t *rng);
	/* Per member (0 for a job of one command), the rand_off index whose
	 * digits key writes without the engine drawing them first (nrand or
	 * more: none), so that a key drawn by other means costs no draw it
	 * would throw away. */
	size_t key_draws[ENGINE_MAX_MEMBERS];
	/* An error reply's text: ENGINE_ROUTE_COUNT it as any error;
	 * ENGINE_ROUTE_RETRY the request was not run (MOVED, ASK, TRYAGAIN,
	 * CLUSTERDOWN): it does not count (in a mix, nor in its member's
	 * member_sent), another takes its place, drawn afresh, and why says
	 * what happened; ENGINE_ROUTE_FAIL fail the run with why. */
	int (*on_error)(const struct engine_route *r, const char *msg, size_t len, char *why,
			size_t size);
	void *ctx;
};
#define ENGINE_ROUTE_COUNT 0
#define ENGINE_ROUTE_RETRY 1
#define ENGINE_ROUTE_FAIL (-1)

struct engine_member {
	const char *cmd;          /* one request's bytes */
	size_t len;
	const size_t *rand_off;   /* places in cmd of RNG_DIGITS bytes */
	size_t nrand;
	size_t key_from;          /* as engine_job's */
	const size_t *copy_off;
	size_t ncopy;
	/* Its value (a RESP bulk string, "$N\r\n...\r\n") runs from
	 * value_at to value_end in cmd, after every digit place: with
	 * engine_job.vmax each request carries a value of its own size there.
	 * value_end 0: none. */
	size_t value_at, value_end;
	unsigned weight;          /* 1..ENGINE_MAX_WEIGHT */
};

struct engine_pubsub;          /* pubsub.h */

struct engine_job {
	/* A mix, or NULL: cmd, len, rand_off and nrand below, one request
	 * repeated.  With members the buffers are per connection and every
	 * member's digits are patched per request (keyspace, keydist as
	 * below); expect must be the union of the members' kinds.  With a
	 * route, each member's key is chosen as a command's (route->key
	 * with the member's index). */
	const struct engine_member *members;
	size_t nmembers;          /* 2..ENGINE_MAX_MEMBERS with members (1 works too) */
	const char *cmd;          /* one request's bytes */
	size_t len;
	const size_t *rand_off;   /* places in cmd of RNG_DIGITS bytes, patched per batch */
	size_t nrand;
	/* One key a request in several places: after the digits are drawn,
	 * each place of copy_off gets the digits at key_from (one of
	 * rand_off's).  ncopy 0: none. */
	size_t key_from;
	const size_t *copy_off;
	size_t ncopy;
	/* Replies to one request (a sequence of commands sent as one, their
	 * latency to the last reply): 0 or 1 for one command.  A request
	 * counts one error at most: a sequence's when any of its replies is
	 * an error, a transaction's (MULTI first, EXEC last: transaction set)
	 * when its last reply is (EXECABORT) or holds one (a command that
	 * failed when run): what went wrong while queueing shows there, and a
	 * command refused inside it that EXEC does not mind (MULTI) does not
	 * fail the request.  Not with a route, whose retries count each
	 * reply. */
	unsigned replies;
	int transaction;
	/* --data-size-range: each request's value (its member's value_at) of
	 * vmin..vmax bytes, uniformly, of random bytes from the loop's own
	 * generator.  vmax 0: the values are the commands' own.  Only with
	 * members (a plain command is a mix of one). */
	size_t vmin, vmax;
	uint64_t keyspace;        /* 0: leave __rand_int__ literal */
	/* --key-dist (keydist.h): how each __rand_int__ is drawn from the
	 * keyspace; NULL: uniformly, rng % keyspace.  Not with a route. */
	struct keydist *keydist;
	uint64_t seed;
	unsigned depth;           /* requests in flight per connection (the pipeline depth), >= 1 */
	enum engine_mode mode;
	/* Open loop: requests a second over all connections, sent when due
	 * whatever the replies do (a due request waits only for room in a
	 * window of depth); latency counts from the time it was due.  0:
	 * closed loop.  Rate runs always use the window. */
	double rate;
	enum engine_arrivals arrivals;
	uint64_t requests;        /* exactly this many, when duration == 0 */
	double duration;          /* seconds; > 0 switches to a timed run */
	double timeout;           /* fail after this long without a byte from the server */
	/* --reconnect-every: each connection is closed and opened again
	 * (connect, TLS handshake, AUTH, SELECT) after this many requests,
	 * inside the timed window, the first time before its first request;
	 * the latency of the first request after a connect includes it.  A
	 * batch or window never crosses a reconnect (its last batch is then
	 * shorter).  0: connections last the run.  Closed loop only, not with
	 * a route. */
	uint64_t reconnect_every;
	/* --tls-resume: a reconnect (reconnect_every) offers the TLS session
	 * of the connection it replaces, so that the server may resume it
	 * (an abbreviated handshake); 0: a full handshake each time, as a
	 * new client without a session cache pays.  Nothing on a plain
	 * connection. */
	int tls_resume;
	uint64_t max_reply;       /* a reply larger than this many bytes fails the point */
	unsigned expect;          /* ENGINE_REPLY_* the command's replies may be, 0: any; an
				   * error reply is always allowed (counted in errors) */
	volatile sig_atomic_t *stop; /* set asynchronously to abandon the run, or NULL */
	/* Cluster (closed loop only): requests route->on_error retries are
	 * not counted and are replaced, so that `requests` still complete. */
	const struct engine_route *route;
	/* Pub/sub, or NULL: a plain job (no members, no keyspace; a route
	 * only for a fixed key, cluster_load's). */
	const struct engine_pubsub *pubsub;
};

/* A timed window is cut in this many slices of equal request counts, so
 * that throughput drifting within one point shows. */
#define ENGINE_SLICES 4

struct engine_result {
	uint64_t requests;        /* requests answered (whole: every reply of a sequence) */
	uint64_t errors;          /* error replies among them */
	uint64_t misses;          /* nil replies and empty arrays */
	double seconds;           /* first write to last reply */
	struct hist hist;         /* latency, ns (open loop: from the time each was due) */
	struct hist service;      /* open loop: from each request's actual send; else empty */
	/* Open loop: how late the generator took each request, from when it
	 * was due or, when every window was full, from when the loop last
	 * found no room (a full window is the server's queue, not the
	 * generator's lag); else empty.  A slip that is a material share of
	 * the latency says the load generator, not the server, set it. */
	struct hist slip;
	/* Throughput in each successive quarter of the requests (summed over
	 * threads); NAN in --duration runs, and for a run of fewer requests
	 * than slices. */
	double slice_rps[ENGINE_SLICES];
	char first_error[128];    /* the first error reply's text */
	/* The slowest setup (connect, TLS handshake, AUTH, SELECT) of the
	 * connections the run used, in ms, from when they were last opened:
	 * never inside the timed window. */
	double connect_ms;
	uint64_t redirects;       /* replies job->route retried (not in requests) */
	/* Connections opened inside the timed window (job->reconnect_every);
	 * 0 without it. */
	uint64_t connects;
	/* Each of those connects' setup (connect, TLS handshake, AUTH,
	 * SELECT), ns; empty without churn. */
	struct hist connect;
	/* Of those connects, the TLS ones whose session was resumed. */
	uint64_t resumed;
	/* A mix: requests sent of each member (job->members' order), summed
	 * over threads, but those job->route retried (the server did not run
	 * them): in a run that ends well they add up to requests. */
	uint64_t member_sent[ENGINE_MAX_MEMBERS];
	/* The sum of the top-level integer replies: for PUBLISH, the
	 * receivers the server counted for each message. */
	uint64_t int_sum;
	/* Pub/sub (job->pubsub); 0 otherwise.  expected is every message
	 * answered times the subscribers of its channel; delivered the
	 * messages the subscribers received once (dup those received again),
	 * lost expected - delivered; deliver the latency from each message's
	 * stamp to its arrival, ns; deliver_seconds from the first publish to
	 * the last arrival. */
	uint64_t expected, delivered, lost, dup;
	double deliver_seconds;
	/* The CPU time of the threads that read the subscribers, from the
	 * first publish to the end of the drain: near deliver_seconds times
	 * the threads, rsweep's reading bounded the deliveries. */
	double sub_cpu_s;
	struct hist deliver;
};

/* Open clients connections to t over threads loops. */
int engine_new(const struct target *t, unsigned clients, unsigned threads, struct engine **out,
	       struct rs_err *err);

/* res emptied for a run to fill: every count 0, every histogram empty.
 * Each load (engine_run, cluster_load, replica_load, the agents' merge)
 * starts from it, so a histogram the result gains is empty in all. */
void engine_result_init(struct engine_result *res);

/* Run one job.  On failure (connection lost, timeout, protocol error,
 * interrupted) the connections are in an unknown state: call
 * engine_reconnect() before the next run.  An interrupted run fails with
 * *job->stop set. */
int engine_run(struct engine *e, const struct engine_job *job, struct engine_result *res,
	       struct rs_err *err);
/* Close and reopen every connection. */
int engine_reconnect(struct engine *e, struct rs_err *err);
void engine_free(struct engine *e);

#endif
