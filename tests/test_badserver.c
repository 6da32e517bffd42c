/* test_badserver.c: the load engine against a fake server that misbehaves on
 * purpose (the one place the tests fake a server: a real one will not send a
 * 200 MB reply or garbage on demand).  Each scenario must fail the run with
 * one clear line naming the problem, in bounded time, and never touch memory
 * it should not (run it in the --enable-sanitizers build). */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "engine.h"

enum bad_mode {
	BAD_NONE,                 /* a correct server: proves the fake itself works */
	BAD_HUGE_BULK,            /* "$209715200\r\n" and the data trickled after it */
	BAD_ENDLESS_ARRAY,        /* "*2000000000\r\n" and 64 KiB elements without end */
	BAD_WRONG_TYPE,           /* an integer where PING gets +PONG */
	BAD_GARBAGE,              /* "!x\r\n": no RESP type byte */
	BAD_DEEP_NESTING,         /* arrays nested deeper than the reader allows */
	BAD_EXTRA_REPLIES,        /* two replies for every request */
	BAD_CLOSE_MIDWAY,         /* "$10\r\nabc", then the connection closed */
	BAD_SILENT,               /* reads the requests and never answers */
	BAD_SILENT_MIDWAY,        /* half a reply, then nothing */
	BAD_LENGTH_OVERFLOW,      /* a bulk length that overflows 64 bits */
};

/* PING as the engine sends it; the fake counts requests by its length. */
static const char bad_ping[] = "*1\r\n$4\r\nPING\r\n";
#define BAD_PING_LEN (sizeof bad_ping - 1)
/* The handshake target_connect() makes (no password, db 0). */
static const char bad_select[] = "*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n";
#define BAD_GOOD_FIRST 10         /* replies answered correctly before misbehaving */
#define BAD_MAX_CONNS 8
#define BAD_ALARM_S 60            /* no scenario takes more than a few seconds */

struct bad_conn {
	int fd;
	pthread_t tid;
};

static struct {
	enum bad_mode mode;
	char dir[48];
	char path[64];
	int lfd;
	pthread_t tid;
	atomic_int stop;
	struct bad_conn conns[BAD_MAX_CONNS];
	int nconns;
} bad;

/* Wait until fd is ready for events; 0 when ready, -1 when stopping. */
static int bad_wait(int fd, short events)
{
	struct pollfd p = { .fd = fd, .events = events };

	while (!atomic_load(&bad.stop)) {
		int n = poll(&p, 1, 100);

		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -1;
	}
	return -1;
}

/* Send everything, or give up when the client went away or the test ends. */
static int bad_send(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t w;

		if (bad_wait(fd, POLLOUT) < 0)
			return -1;
		w = send(fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Read up to size bytes; the count, or -1 at end of stream or when stopping. */
static ssize_t bad_recv(int fd, char *buf, size_t size)
{
	for (;;) {
		ssize_t n;

		if (bad_wait(fd, POLLIN) < 0)
			return -1;
		n = recv(fd, buf, size, MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		return n > 0 ? n : -1;
	}
}

/* Send the same chunk until the client goes away or the test ends. */
static void bad_flood(int fd, const char *chunk, size_t len)
{
	while (bad_send(fd, chunk, len) == 0)
		;
}

/* What the fake sends for request number i (0-based) of a connection;
 * returns -1 to stop serving the connection. */
static int bad_answer(int fd, uint64_t i)
{
	static const char pong[] = "+PONG\r\n";

	if (bad.mode == BAD_NONE || i < BAD_GOOD_FIRST)
		return bad_send(fd, pong, sizeof pong - 1);
	switch (bad.mode) {
	case BAD_HUGE_BULK: {
		static const char hdr[] = "$209715200\r\n";
		char *chunk = malloc(256 * 1024);

		if (chunk == NULL)
			abort();
		memset(chunk, 'x', 256 * 1024);
		if (bad_send(fd, hdr, sizeof hdr - 1) == 0)
			bad_flood(fd, chunk, 256 * 1024);
		free(chunk);
		return -1;
	}
	case BAD_ENDLESS_ARRAY: {
		static const char hdr[] = "*2000000000\r\n";
		size_t n = 65536, len = 0;
		char *el = malloc(n + 32);

		if (el == NULL)
			abort();
		len = (size_t)snprintf(el, 32, "$%zu\r\n", n);
		memset(el + len, 'y', n);
		memcpy(el + len + n, "\r\n", 2);
		if (bad_send(fd, hdr, sizeof hdr - 1) == 0)
			bad_flood(fd, el, len + n + 2);
		free(el);
		return -1;
	}
	case BAD_WRONG_TYPE:
		return bad_send(fd, ":1\r\n", 4);
	case BAD_GARBAGE:
		bad_send(fd, "!x\r\n", 4);
		return -1;
	case BAD_DEEP_NESTING: {
		char nest[4 * 20 + 5];

		for (int k = 0; k < 20; k++)
			memcpy(nest + 4 * k, "*1\r\n", 4);
		memcpy(nest + 80, ":1\r\n", 5);
		bad_send(fd, nest, 84);
		return -1;
	}
	case BAD_EXTRA_REPLIES:
		return bad_send(fd, "+PONG\r\n+PONG\r\n", 14);
	case BAD_CLOSE_MIDWAY:
		bad_send(fd, "$10\r\nabc", 8);
		return -1;        /* the caller closes the connection */
	case BAD_SILENT:
		return 0;
	case BAD_SILENT_MIDWAY:
		if (i == BAD_GOOD_FIRST)
			return bad_send(fd, "$10\r\nabc", 8);
		return 0;
	case BAD_LENGTH_OVERFLOW:
		bad_send(fd, "$99999999999999999999999\r\nabc\r\n", 31);
		return 0;
	case BAD_NONE:
		break;
	}
	return -1;
}

static void *bad_serve(void *arg)
{
	struct bad_conn *c = arg;
	char buf[4096];
	size_t have = 0;
	uint64_t served = 0;

	/* The handshake: SELECT 0, answered +OK. */
	while (have < sizeof bad_select - 1) {
		ssize_t n = bad_recv(c->fd, buf + have, sizeof bad_select - 1 - have);

		if (n < 0)
			goto out;
		have += (size_t)n;
	}
	if (memcmp(buf, bad_select, sizeof bad_select - 1) != 0 || bad_send(c->fd, "+OK\r\n", 5) < 0)
		goto out;
	have = 0;
	for (;;) {
		ssize_t n = bad_recv(c->fd, buf + have, sizeof buf - have);
		size_t k;

		if (n < 0)
			break;
		have += (size_t)n;
		for (k = 0; k + BAD_PING_LEN <= have; k += BAD_PING_LEN) {
			if (memcmp(buf + k, bad_ping, BAD_PING_LEN) != 0)
				goto out;     /* not what the test sends: hang up */
			if (bad_answer(c->fd, served++) < 0)
				goto out;
		}
		memmove(buf, buf + k, have - k);
		have -= k;
	}
out:
	/* Closing wakes an engine that waits for the rest of a reply. */
	shutdown(c->fd, SHUT_RDWR);
	return NULL;
}

static void *bad_accept(void *arg)
{
	(void)arg;
	while (bad_wait(bad.lfd, POLLIN) == 0) {
		int fd = accept(bad.lfd, NULL, NULL);

		if (fd < 0)
			continue;
		if (bad.nconns == BAD_MAX_CONNS) {
			close(fd);
			continue;
		}
		bad.conns[bad.nconns].fd = fd;
		if (pthread_create(&bad.conns[bad.nconns].tid, NULL, bad_serve,
				   &bad.conns[bad.nconns]) != 0)
			abort();
		bad.nconns++;
	}
	return NULL;
}

static void bad_start(enum bad_mode mode)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	memset(&bad, 0, sizeof bad);
	bad.mode = mode;
	/* The engine writes to sockets the fake may close; rsweep's main
	 * ignores SIGPIPE the same way. */
	signal(SIGPIPE, SIG_IGN);
	snprintf(bad.dir, sizeof bad.dir, "/tmp/rsweep-badserver-XXXXXX");
	cr_assert_not_null(mkdtemp(bad.dir), "mkdtemp: %s", strerror(errno));
	snprintf(bad.path, sizeof bad.path, "%s/bad.sock", bad.dir);
	snprintf(sa.sun_path, sizeof sa.sun_path, "%s", bad.path);
	bad.lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	cr_assert_geq(bad.lfd, 0);
	cr_assert_eq(bind(bad.lfd, (struct sockaddr *)&sa, sizeof sa), 0, "bind: %s",
		     strerror(errno));
	cr_assert_eq(listen(bad.lfd, 16), 0);
	cr_assert_eq(pthread_create(&bad.tid, NULL, bad_accept, NULL), 0);
}

static void bad_stop(void)
{
	atomic_store(&bad.stop, 1);
	pthread_join(bad.tid, NULL);
	for (int i = 0; i < bad.nconns; i++) {
		pthread_join(bad.conns[i].tid, NULL);
		close(bad.conns[i].fd);
	}
	close(bad.lfd);
	unlink(bad.path);
	rmdir(bad.dir);
}

/* Run `requests` PINGs at depth pipeline through an engine of clients
 * connections against the fake in mode; returns engine_run's result, the
 * message in err. */
static int bad_run(enum bad_mode mode, unsigned clients, unsigned threads, unsigned pipeline,
		   uint64_t requests, struct engine_result *res, struct rs_err *err)
{
	struct target t = { .connect_timeout = 5, .timeout = 5 };
	struct engine_job job = {
		.cmd = bad_ping, .len = BAD_PING_LEN, .pipeline = pipeline,
		.requests = requests, .timeout = 1.0,
		/* As sweep.c sets it: no catalogue test gets more than 64 MiB. */
		.max_reply = 64u << 20,
		.expect = ENGINE_REPLY_STATUS,
	};
	struct engine *e;
	int rc;

	/* An endless array must be caught by its size, not by its type. */
	if (mode == BAD_ENDLESS_ARRAY)
		job.expect |= ENGINE_REPLY_ARRAY;
	/* Only whole replies count as progress, and reading 64 MiB of one reply
	 * can take more than a second under the sanitizers: give the size
	 * limit room to be what stops these two. */
	if (mode == BAD_HUGE_BULK || mode == BAD_ENDLESS_ARRAY)
		job.timeout = 20;
	/* Bounded time: a run that never ends (an engine that stopped
	 * bounding something) dies of SIGALRM and fails the test.  Not
	 * Criterion's .timeout: its BoxFort watchdog leaks a request when
	 * timed tests end together, which LeakSanitizer reports. */
	alarm(BAD_ALARM_S);
	bad_start(mode);
	t.socket = bad.path;
	target_describe(&t);
	memset(err, 0, sizeof *err);
	cr_assert_eq(engine_new(&t, clients, threads, &e, err), 0, "%s", err->msg);
	rc = engine_run(e, &job, res, err);
	engine_free(e);
	bad_stop();
	alarm(0);
	return rc;
}

/* The run failed with one line that names the target and says what. */
static void bad_expect_failure(int rc, const struct rs_err *err, const char *what)
{
	cr_log_info("%s", err->msg);
	cr_assert_eq(rc, -1, "the run should have failed with '%s'", what);
	cr_assert_not_null(strstr(err->msg, what), "message '%s' does not say '%s'", err->msg, what);
	cr_assert_eq(strncmp(err->msg, "unix:/tmp/rsweep-badserver-", 27), 0,
		     "message '%s' does not name the server", err->msg);
	cr_assert_null(strchr(err->msg, '\n'), "message '%s' is more than one line", err->msg);
}

Test(badserver, a_correct_fake_server_passes)
{
	struct engine_result res;
	struct rs_err err;

	cr_assert_eq(bad_run(BAD_NONE, 2, 2, 4, 1000, &res, &err), 0, "%s", err.msg);
	cr_assert_eq(res.requests, 1000);
	cr_assert_eq(res.errors, 0);
}

Test(badserver, a_200_mb_bulk_fails_at_max_reply)
{
	struct engine_result res;
	struct rs_err err;
	int rc = bad_run(BAD_HUGE_BULK, 1, 1, 1, 1000, &res, &err);

	bad_expect_failure(rc, &err, "a reply is larger than 67108864 bytes");
}

Test(badserver, an_endless_array_fails_at_max_reply)
{
	struct engine_result res;
	struct rs_err err;
	int rc = bad_run(BAD_ENDLESS_ARRAY, 1, 1, 4, 1000, &res, &err);

	bad_expect_failure(rc, &err, "a reply is larger than 67108864 bytes");
}

Test(badserver, a_reply_of_the_wrong_type_fails)
{
	struct engine_result res;
	struct rs_err err;
	int rc = bad_run(BAD_WRONG_TYPE, 1, 1, 4, 1000, &res, &err);

	bad_expect_failure(rc, &err, "replied with an integer where the command gets a status reply");
}

Test(badserver, garbage_is_a_protocol_error)
{
	struct engine_result res;
	struct rs_err err;
	int rc = bad_run(BAD_GARBAGE, 1, 1, 1, 1000, &res, &err);

	bad_expect_failure(rc, &err, "protocol error from the server");
}

Test(badserver, nesting_too_deep_is_a_protocol_error)
{
	struct engine_result res;
	struct rs_err err;
	int rc = bad_run(BAD_DEEP_NESTING, 1, 1, 2, 1000, &res, &err);

	bad_expect_failure(rc, &err, "protocol error from the server");
}

Test(badserver, more_replies_than_requests_fail)
{
	struct engine_result res;
	struct rs_err err;
	int rc = bad_run(BAD_EXTRA_REPLIES, 1, 1, 1, 1000, &res, &err);

	bad_expect_failure(rc, &err, "the server sent more replies than requests");
}

Test(badserver, a_connection_closed_inside_a_reply_fails)
{
	struct engine_result res;
	struct rs_err err;
	int rc = bad_run(BAD_CLOSE_MIDWAY, 1, 1, 2, 1000, &res, &err);

	bad_expect_failure(rc, &err, "closed the connection in the middle of a reply");
}

Test(badserver, a_server_that_stops_answering_times_out)
{
	struct engine_result res;
	struct rs_err err;
	int rc = bad_run(BAD_SILENT, 2, 1, 4, 1000, &res, &err);

	bad_expect_failure(rc, &err, "the server stopped answering (no reply for 1.0 s)");
}

Test(badserver, half_a_reply_then_silence_times_out)
{
	struct engine_result res;
	struct rs_err err;
	int rc = bad_run(BAD_SILENT_MIDWAY, 1, 1, 1, 1000, &res, &err);

	bad_expect_failure(rc, &err, "the server stopped answering");
}

Test(badserver, an_overflowing_bulk_length_fails)
{
	struct engine_result res;
	struct rs_err err;
	int rc = bad_run(BAD_LENGTH_OVERFLOW, 1, 1, 1, 1000, &res, &err);

	/* hiredis 0.14 reads the length with an unchecked conversion; what it
	 * makes of it varies, but the run must fail cleanly. */
	bad_expect_failure(rc, &err, "");
}
