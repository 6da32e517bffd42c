/* pubsub.h: the subscribers of a pub/sub run (-t publish --subscribers N).
 *
 * Each subscriber is a connection of its own that SUBSCRIBEs (or
 * PSUBSCRIBEs) to its channel before the point starts; the server's
 * PUBSUB NUMSUB (NUMPAT for patterns) confirms them before the first
 * publish.  Threads of their own (as many as the engine's, --threads)
 * then read the subscribers while the engine publishes, and after the timed window drains what is still on its way,
 * for a bounded time.  Each message's stamp (pubsub_msg.h) gives its
 * latency from publish to delivery and its place in its publisher's
 * stream, so that a message received twice is a duplicate and one never
 * received is lost. */
#ifndef RS_PUBSUB_H
#define RS_PUBSUB_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "results/hist.h"
#include "net/target.h"

/* Pub/sub (-t publish): subscribers on connections of their own hear
 * the job's PUBLISHes (pubsub.h).  The engine writes, in each request,
 * the channel's number (seq modulo channels) at chan_off and the
 * message's stamp (pubsub_msg.h) at stamp_off, per connection, so that
 * a job with pubsub never shares one batch between connections.  The
 * subscribers' channels are the command's argument 1 with those digits
 * (a cluster's tag after them: cluster_load.h). */
struct engine_pubsub {
	unsigned subscribers;     /* connections that SUBSCRIBE, >= 1 */
	unsigned channels;        /* 1..subscribers, a divisor of subscribers: subscriber i
				   * hears channel i % channels, every message reaches
				   * subscribers / channels of them */
	int pattern;              /* PSUBSCRIBE to a pattern that matches the channel */
	int sharded;              /* SPUBLISH and SSUBSCRIBE (not with pattern) */
	size_t chan_off;          /* RNG_DIGITS digits in cmd */
	size_t stamp_off;         /* PUBSUB_STAMP_LEN bytes in cmd */
};

struct pubsub_subs;

/* What the subscribers received, once they stopped. */
struct pubsub_tally {
	uint64_t delivered;       /* messages received once (summed over subscribers) */
	uint64_t dup;             /* messages received again */
	uint64_t gaps;            /* messages missing below the last each stream received */
	uint64_t foreign;         /* messages without rsweep's stamp, or not this run's */
	unsigned gone;            /* subscribers whose connection ended or broke */
	uint64_t last_ns;         /* when the last message arrived (engine_now_ns), 0: none */
	unsigned readers;         /* the threads that read the subscribers */
	double cpu_s;             /* their CPU time, summed, seconds */
	struct hist deliver;      /* publish-to-delivery latency, ns */
};

/* The longest channel name, in bytes. */
#define PUBSUB_NAME_MAX 128
/* The most streams a run keeps, subscribers x publishing connections
 * (struct pubsub_stream, about 60 bytes each, a few more with a gap). */
#define PUBSUB_STREAMS_MAX 2000000u

/* Connect ps->subscribers connections to t (AUTH, SELECT, TLS as the
 * engine's), subscribe subscriber i to channel i % ps->channels (SUBSCRIBE,
 * PSUBSCRIBE to the name and "*", or SSUBSCRIBE), wait for every
 * confirmation, check PUBSUB NUMSUB or SHARDNUMSUB (every channel has
 * subscribers / channels subscribers; with patterns NUMPAT counts at
 * least channels) on a connection of its own, and start reading.  A
 * channel's name is chan (chan_len bytes, at most PUBSUB_NAME_MAX) with
 * its number in RNG_DIGITS digits at digits_at.
 * publishers: the engine's connections, the stamps' publishers
 * 0..publishers-1; readers: the threads that read the subscribers (each
 * every readers-th of them; at most one a subscriber).  More than
 * PUBSUB_STREAMS_MAX streams is refused (RS_E_USAGE).  Each step waits at most timeout seconds; stop (or
 * NULL) interrupts it.  0 with *out, or -1 with err (nothing left open). */
int pubsub_start(const struct target *t, const struct engine_pubsub *ps, const char *chan,
		 size_t chan_len, size_t digits_at, unsigned publishers, unsigned readers,
		 double timeout, volatile sig_atomic_t *stop, struct pubsub_subs **out,
		 struct rs_err *err);
/* Wait until the subscribers have received want messages once, or
 * timeout seconds, or *stop; then stop reading and count into *out.
 * Returns 0, or -1 with err when the wait was interrupted (kind
 * RS_E_INTERRUPTED). */
int pubsub_finish(struct pubsub_subs *s, uint64_t want, double timeout,
		  volatile sig_atomic_t *stop, struct pubsub_tally *out, struct rs_err *err);
/* Stop reading (if reading) and close everything.  NULL allowed. */
void pubsub_free(struct pubsub_subs *s);

#endif
