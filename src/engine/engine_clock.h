/* engine_clock.h: the engine's clock, for the loop, the open loop's
 * schedule and pub/sub's stamps alike; a header of its own so that the
 * subscribers (pubsub.c) read it without the engine's interface. */
#ifndef RS_ENGINE_CLOCK_H
#define RS_ENGINE_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Monotonic nanoseconds.  Inline: the loop reads it a few times a
 * request, and a call into another file cost 1.7% of the client's
 * instructions a request at P=1 (callgrind, engine_bench.sh). */
static inline uint64_t engine_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
