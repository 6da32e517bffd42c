/* test_window.c: what depth means, checked from the server's side.  A
 * fake server (a test may fake one only to see what a real one cannot
 * show) counts, on each connection, the requests it has read and not yet
 * answered: in lock-step and in the window that count never passes the
 * depth, a window refills while replies are still due, and lock-step
 * never does.  A fake that stalls once shows that a request the socket
 * took late is timed from its own send, not from its batch's. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "sweep/sweep.h"
#include "net/target.h"
#include "fake_server.h"

static const char fk_ping[] = "*1\r\n$4\r\nPING\r\n";
#define FK_PING_LEN (sizeof fk_ping - 1)
#define FK_ALARM_S 60

enum fk_mode {
	FK_HOLD,                  /* hold each read's requests 1 ms, then answer them all */
	FK_ONE_BY_ONE,            /* answer the oldest one, hold 1 ms, and again */
	FK_STALL_ONCE,            /* after the first read sleep 300 ms, then answer at once */
};

static struct {
	struct fake_server fs;
	enum fk_mode mode;
	atomic_uint max_unanswered;  /* over all connections */
	atomic_uint overlaps;     /* requests that arrived while others were unanswered */
} fk;

static void fk_sleep_ms(int ms)
{
	struct timespec ts = { 0, (long)ms * 1000000L };

	nanosleep(&ts, NULL);
}

static int fk_send_pongs(int fd, uint64_t n)
{
	static const char pong[] = "+PONG\r\n";
	char buf[7 * 512];

	while (n > 0) {
		size_t k = n < 512 ? (size_t)n : 512, len = 0;

		for (size_t i = 0; i < k; i++, len += 7)
			memcpy(buf + len, pong, 7);
		if (fake_send(&fk.fs, fd, buf, len) < 0)
			return -1;
		n -= k;
	}
	return 0;
}

/* One connection: the handshake, then count PINGs in and PONGs out. */
static void fk_serve(struct fake_conn *c)
{
	int fd = c->fd, stalled = 0;
	char buf[65536];
	size_t have = 0;
	uint64_t got = 0, answered = 0;

	if (fake_handshake(c) < 0)
		return;
	for (;;) {
		ssize_t n = fake_recv(&fk.fs, fd, buf + have, sizeof buf - have,
				      got > answered ? (fk.mode == FK_STALL_ONCE ? 0 : 1) : 100);
		size_t k = 0;
		unsigned un;

		if (n < 0)
			break;
		have += (size_t)n;
		for (; k + FK_PING_LEN <= have; k += FK_PING_LEN) {
			if (memcmp(buf + k, fk_ping, FK_PING_LEN) != 0)
				return;
			if (got++ > answered)
				atomic_fetch_add(&fk.overlaps, 1);
		}
		memmove(buf, buf + k, have - k);
		have -= k;
		un = (unsigned)(got - answered);
		if (un > atomic_load(&fk.max_unanswered))
			atomic_store(&fk.max_unanswered, un);
		/* Hold: what the client sends meanwhile counts as in flight. */
		if (n > 0 && fk.mode != FK_STALL_ONCE)
			continue;
		if (got == answered)
			continue;
		if (fk.mode == FK_STALL_ONCE && !stalled) {
			stalled = 1;
			fk_sleep_ms(300);
		}
		if (fk.mode == FK_ONE_BY_ONE) {
			if (fk_send_pongs(fd, 1) < 0)
				break;
			answered++;
		} else {
			if (fk_send_pongs(fd, got - answered) < 0)
				break;
			answered = got;
		}
	}
}

static void fk_start(enum fk_mode mode)
{
	memset(&fk, 0, sizeof fk);
	fk.mode = mode;
	fake_server_start(&fk.fs, "window", fk_serve, NULL);
}

/* Run n PINGs at depth in mode over clients connections against the fake. */
static void fk_run(enum fk_mode fmode, enum engine_mode mode, unsigned clients, unsigned depth,
		   uint64_t n, struct engine_result *res)
{
	struct target t = { .connect_timeout = 5, .timeout = 5 };
	struct engine_job job = {
		.cmd = fk_ping, .len = FK_PING_LEN, .depth = depth, .mode = mode,
		.requests = n, .timeout = 5.0, .max_reply = workload_max_reply(3),
		.expect = ENGINE_REPLY_STATUS,
	};
	struct rs_err err = { 0 };
	struct engine *e;

	/* Bounded time without Criterion's watchdog (see test_badserver.c). */
	alarm(FK_ALARM_S);
	fk_start(fmode);
	t.socket = fk.fs.path;
	target_describe(&t);
	cr_assert_eq(engine_new(&t, clients, 1, &e, &err), 0, "%s", err.msg);
	cr_assert_eq(engine_run(e, &job, res, &err), 0, "%s", err.msg);
	engine_free(e);
	fake_server_stop(&fk.fs);
	alarm(0);
}

Test(window, never_more_than_depth_in_flight_and_exactly_n)
{
	struct engine_result res;

	fk_run(FK_HOLD, ENGINE_WINDOW, 3, 8, 3001, &res);
	cr_assert_eq(res.requests, 3001);
	cr_assert_eq(res.hist.count, 3001);
	cr_assert_leq(atomic_load(&fk.max_unanswered), 8, "the server saw %u in flight at depth 8",
		      atomic_load(&fk.max_unanswered));
	cr_assert_geq(atomic_load(&fk.max_unanswered), 2, "the window never filled");
}

Test(window, lockstep_never_more_than_depth_in_flight)
{
	struct engine_result res;

	fk_run(FK_HOLD, ENGINE_LOCKSTEP, 3, 8, 3001, &res);
	cr_assert_eq(res.requests, 3001);
	cr_assert_leq(atomic_load(&fk.max_unanswered), 8, "the server saw %u in flight at depth 8",
		      atomic_load(&fk.max_unanswered));
}

/* Answered one at a time, a window sends a new request while the others
 * wait; lock-step never does (it waits for the whole batch). */
Test(window, a_window_refills_before_the_batch_is_answered)
{
	struct engine_result res;

	fk_run(FK_ONE_BY_ONE, ENGINE_WINDOW, 1, 4, 200, &res);
	cr_assert_eq(res.requests, 200);
	cr_assert_leq(atomic_load(&fk.max_unanswered), 4);
	cr_assert_gt(atomic_load(&fk.overlaps), 150, "only %u requests overlapped (lock-step: 150)",
		     atomic_load(&fk.overlaps));
}

Test(window, lockstep_waits_for_the_whole_batch)
{
	struct engine_result res;

	fk_run(FK_ONE_BY_ONE, ENGINE_LOCKSTEP, 1, 4, 200, &res);
	cr_assert_eq(res.requests, 200);
	/* Only a batch's own requests overlap: 3 of every 4. */
	cr_assert_eq(atomic_load(&fk.overlaps), 150, "%u overlapped", atomic_load(&fk.overlaps));
}

/* A batch far larger than the socket buffers: the fake sleeps 300 ms
 * after its first read, so the requests still in rsweep's buffer go out
 * only after the stall.  Timed from their own send they are fast; timed
 * from the batch's write (the way redis-benchmark times a batch) every
 * one of them would carry the stall. */
Test(window, a_request_sent_late_is_timed_from_its_own_send)
{
	struct engine_result res;
	const unsigned depth = 100000;  /* 1.4 MB of PINGs in one batch */

	fk_run(FK_STALL_ONCE, ENGINE_LOCKSTEP, 1, depth, depth, &res);
	cr_assert_eq(res.requests, depth);
	cr_assert_geq(res.hist.max, 300000000ull, "max %llu ns: the stall was not seen",
		      (unsigned long long)res.hist.max);
	cr_assert_lt(hist_percentile(&res.hist, 50), 150000000ull,
		     "p50 %llu ns: requests sent after the stall were charged for it",
		     (unsigned long long)hist_percentile(&res.hist, 50));
}
