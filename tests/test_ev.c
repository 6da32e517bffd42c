/* test_ev.c: the event loop's contract (src/os/ev.h), on whichever back-end
 * it is linked with: the configured one (tests/test_ev), and ev_kqueue.c
 * over the poll emulation of tests/shim/kqueue.c (tests/test_ev_kqueue).
 * Waits are bounded; no test measures time. */
#include "config.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "os/ev.h"

static struct ev_loop *l;
static int sp[2][2] = { { -1, -1 }, { -1, -1 } };

static void setup(void)
{
	struct rs_err err;

	signal(SIGPIPE, SIG_IGN);
	cr_assert_eq(ev_new(&l, &err), 0, "ev_new: %s", err.msg);
	for (int i = 0; i < 2; i++)
		cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sp[i]), 0);
}

static void teardown(void)
{
	ev_free(l);
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 2; k++)
			if (sp[i][k] >= 0)
				close(sp[i][k]);
}

/* What one wait up to 1 s reports for data, or'ed; 0 for none. */
static unsigned wait_for(void *data, int timeout_ms)
{
	struct ev_event evs[8];
	struct rs_err err;
	unsigned what = 0;
	int n = ev_wait(l, evs, 8, timeout_ms, &err);

	cr_assert_geq(n, 0, "ev_wait: %s", err.msg);
	for (int i = 0; i < n; i++)
		if (ev_data(&evs[i]) == data)
			what |= (ev_readable(&evs[i]) ? EV_READ : 0u) |
				(ev_writable(&evs[i]) ? EV_WRITE : 0u);
	return what;
}

TestSuite(ev, .init = setup, .fini = teardown, .timeout = 20);

Test(ev, names_its_backend)
{
	cr_assert(strcmp(ev_backend(), "epoll") == 0 || strcmp(ev_backend(), "kqueue") == 0 ||
		  strcmp(ev_backend(), "poll") == 0, "%s", ev_backend());
}

Test(ev, nothing_ready_times_out_empty)
{
	struct ev_event evs[4];
	struct rs_err err;

	cr_assert_eq(ev_add(l, sp[0][0], EV_READ, &sp[0][0], &err), 0, "%s", err.msg);
	cr_assert_eq(ev_wait(l, evs, 4, 10, &err), 0);
}

/* The nanosecond wait (the open loop's): a timeout with nothing ready,
 * then what is ready, at once, and a timeout of 0 does not block. */
Test(ev, a_nanosecond_wait_times_out_empty_then_reports_what_is_ready)
{
	struct ev_event evs[4];
	struct rs_err err;
	int tag;

	cr_assert_eq(ev_add(l, sp[0][0], EV_READ, &tag, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_wait_ns(l, evs, 4, 0, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_wait_ns(l, evs, 4, 2500000, &err), 0, "%s", err.msg);
	cr_assert_eq(write(sp[0][1], "x", 1), 1);
	cr_assert_eq(ev_wait_ns(l, evs, 4, 1000000000, &err), 1, "%s", err.msg);
	cr_assert(ev_data(&evs[0]) == &tag && ev_readable(&evs[0]));
}

Test(ev, readable_after_the_peer_writes_with_its_data)
{
	struct rs_err err;
	int tag;

	cr_assert_eq(ev_add(l, sp[0][0], EV_READ, &tag, &err), 0, "%s", err.msg);
	cr_assert_eq(write(sp[0][1], "x", 1), 1);
	cr_assert_eq(wait_for(&tag, 1000), EV_READ);
	/* Level-triggered: still readable until it is read. */
	cr_assert_eq(wait_for(&tag, 1000), EV_READ);
}

Test(ev, write_interest_comes_and_goes_with_mod)
{
	struct rs_err err;
	int a, b;

	cr_assert_eq(ev_add(l, sp[0][0], EV_READ, &a, &err), 0, "%s", err.msg);
	cr_assert_eq(wait_for(&a, 10), 0, "an empty socket is not readable");
	cr_assert_eq(ev_mod(l, sp[0][0], EV_READ | EV_WRITE, &b, &err), 0, "%s", err.msg);
	cr_assert_eq(wait_for(&b, 1000), EV_WRITE, "mod gives the new data");
	cr_assert_eq(ev_mod(l, sp[0][0], EV_READ, &a, &err), 0, "%s", err.msg);
	cr_assert_eq(wait_for(&a, 10), 0);
	cr_assert_eq(wait_for(&b, 10), 0);
}

Test(ev, a_hang_up_is_a_read)
{
	struct rs_err err;
	int tag;

	cr_assert_eq(ev_add(l, sp[0][0], EV_READ | EV_WRITE, &tag, &err), 0, "%s", err.msg);
	close(sp[0][1]);
	sp[0][1] = -1;
	cr_assert(wait_for(&tag, 1000) & EV_READ);
}

Test(ev, deleted_descriptors_are_not_reported)
{
	struct rs_err err;
	int a, b;

	cr_assert_eq(ev_add(l, sp[0][0], EV_READ, &a, &err), 0, "%s", err.msg);
	cr_assert_eq(ev_add(l, sp[1][0], EV_READ, &b, &err), 0, "%s", err.msg);
	cr_assert_eq(write(sp[0][1], "x", 1), 1);
	cr_assert_eq(write(sp[1][1], "x", 1), 1);
	cr_assert_eq(ev_del(l, sp[0][0], &err), 0, "%s", err.msg);
	cr_assert_eq(wait_for(&a, 10), 0);
	cr_assert_eq(wait_for(&b, 1000), EV_READ);
	/* Back again after a delete. */
	cr_assert_eq(ev_add(l, sp[0][0], EV_READ, &a, &err), 0, "%s", err.msg);
	cr_assert_eq(wait_for(&a, 1000), EV_READ);
}

Test(ev, deleting_what_is_not_watched_fails_with_a_message)
{
	struct rs_err err = { 0 };

	cr_assert_eq(ev_del(l, sp[0][0], &err), -1);
	cr_assert_neq(err.msg[0], '\0');
	cr_assert_eq(ev_mod(l, sp[0][0], EV_READ, NULL, &err), -1);
}

Test(ev, more_ready_than_room_all_get_their_turn)
{
	struct ev_event evs[1];
	struct rs_err err;
	int tags[2], seen[2] = { 0, 0 };

	for (int i = 0; i < 2; i++) {
		cr_assert_eq(ev_add(l, sp[i][0], EV_READ, &tags[i], &err), 0, "%s", err.msg);
		cr_assert_eq(write(sp[i][1], "x", 1), 1);
	}
	/* Room for one event a wait, both stay ready (nothing is read): the
	 * one reported first must not be the only one ever reported. */
	for (int w = 0; w < 4; w++) {
		int n = ev_wait(l, evs, 1, 1000, &err);

		cr_assert_eq(n, 1, "%s", err.msg);
		for (int i = 0; i < 2; i++)
			if (ev_data(&evs[0]) == &tags[i])
				seen[i]++;
		if (seen[0] && seen[1])
			break;
	}
	cr_assert(seen[0] && seen[1]);
}
