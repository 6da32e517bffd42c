/* pubsub_msg.h: what a published message carries, and what a subscriber
 * makes of the messages it receives.
 *
 * Each PUBLISH of -t publish carries, at the start of its payload, a
 * stamp of PUBSUB_STAMP_LEN bytes: "rsps", the monotonic time it was sent
 * (engine_now_ns, 16 hex digits), the publishing connection (8 hex
 * digits) and that connection's sequence number of the message (16 hex
 * digits, from 0 each run).  A subscriber hears from each publisher one
 * stream of messages, every channels-th of its sequence (the channel a
 * message goes to is its sequence number modulo the channels): a stream
 * keeps which it has seen, so that a message seen twice is a duplicate
 * and one never seen is lost, whatever order they arrive in.  Pure: no
 * socket, no clock. */
#ifndef RS_PUBSUB_MSG_H
#define RS_PUBSUB_MSG_H

#include <stddef.h>
#include <stdint.h>

#define PUBSUB_STAMP_LEN 44
#define PUBSUB_MAGIC "rsps"

/* The channels' names: PUBSUB_CHANNEL and the channel's number in
 * RNG_DIGITS zero-padded decimal digits (the digits the engine writes in
 * the command).  A pattern subscriber's pattern is the name and "*". */
#define PUBSUB_CHANNEL "rsweep:ch:"

struct pubsub_stamp {
	uint64_t sent_ns;
	uint32_t publisher;
	uint64_t seq;
};

/* Write s's stamp at p (PUBSUB_STAMP_LEN bytes, no NUL). */
void pubsub_stamp_put(char *p, const struct pubsub_stamp *s);
/* Read a payload of len bytes: 0 and *s when it starts with a stamp, -1
 * when it does not (too short, another magic, a byte not hex). */
int pubsub_stamp_get(const char *p, size_t len, struct pubsub_stamp *s);

/* One stream: the messages one subscriber hears from one publisher,
 * numbered idx = seq / channels (0, 1, 2, ... in the order sent).  Every
 * idx below next was seen; those at or above it that were seen out of
 * order are bits of `bits`, bit i standing for idx base + i. */
struct pubsub_stream {
	uint64_t next;            /* every idx below it was seen */
	uint64_t hi;              /* one past the highest idx seen */
	uint64_t base;            /* the idx of bits' bit 0 (a multiple of 64) */
	uint64_t *bits;           /* NULL while nothing arrived out of order */
	size_t nwords;
	uint64_t distinct;        /* messages seen at least once */
	uint64_t dup;             /* messages seen again */
};

/* Note message idx in st: 1 when it is new, 0 when it was seen before
 * (counted in st->dup).  Memory grows with the span of a gap only. */
int pubsub_stream_add(struct pubsub_stream *st, uint64_t idx);
/* The messages of st below hi it has not seen: the gaps so far. */
uint64_t pubsub_stream_gaps(const struct pubsub_stream *st);
/* Let go of st's bits; *st is then empty.  NULL allowed. */
void pubsub_stream_free(struct pubsub_stream *st);

#endif
