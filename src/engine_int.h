/* engine_int.h: what the engine's loop (engine.c) shares with its reply
 * objects (engine_reply.c); nobody else includes it: engine.h is the
 * interface. */
#ifndef RS_ENGINE_INT_H
#define RS_ENGINE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

struct redisReader;

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
/* Why a reply of r->wrong_type fails the run, into buf: "the server
 * replied with an integer where the command gets a bulk string". */
void engine_reply_wrong(const struct engine_reply *r, char *buf, size_t size);

#endif
