/* engine_clock.c: the engine's clock, CLOCK_MONOTONIC in nanoseconds, on
 * a file of its own: the loop, the open loop's schedule and pub/sub's
 * stamps all read it, and none of them calls another for it. */
#include "config.h"

#include <stdint.h>
#include <time.h>

#include "engine/engine.h"

uint64_t engine_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
