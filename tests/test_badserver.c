/* test_badserver.c: the load engine and the control connection against a
 * fake server that misbehaves on purpose (the one place the tests fake a
 * server: a real one will not send a 200 MB reply, garbage or a reply a byte
 * at a time on demand).  Each scenario must fail the run with one clear line
 * naming the problem, in bounded time, and never touch memory it should not
 * (run it in the --enable-sanitizers build). */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "sweep/sweep.h"
#include "net/target.h"
#include "fake_server.h"

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
	/* The control connection (target_* and rsweep run): a small server
	 * that answers what rsweep asks, and misbehaves on the first request
	 * named bad.verb. */
	BAD_CTL_GOOD,             /* never misbehaves: proves this fake works */
	BAD_CTL_TRICKLE,          /* the reply one byte every BAD_TRICKLE_MS */
	BAD_CTL_HUGE,             /* a bulk of bad.huge bytes, streamed */
	BAD_CTL_ERR_NEWLINE,      /* an error reply with a newline inside */
};

/* PING as the engine sends it; the fake counts requests by its length. */
static const char bad_ping[] = "*1\r\n$4\r\nPING\r\n";
#define BAD_PING_LEN (sizeof bad_ping - 1)
#define BAD_GOOD_FIRST 10         /* replies answered correctly before misbehaving */
#define BAD_ALARM_S 60            /* no scenario takes more than a few seconds */
#define BAD_TRICKLE_MS 300        /* well inside any timeout, so only a deadline stops it */
#define BAD_CTL_BUF 65536         /* the largest request the control fake reads */

static struct {
	struct fake_server fs;
	enum bad_mode mode;
	const char *verb;         /* BAD_CTL_*: the command it misbehaves on */
	uint64_t huge;            /* BAD_CTL_HUGE: the bulk's length */
	atomic_int misbehaved;    /* it has begun to misbehave */
	atomic_ullong sent;       /* bytes of the misbehaving reply sent so far */
} bad;

static int bad_send(int fd, const char *buf, size_t len)
{
	return fake_send(&bad.fs, fd, buf, len);
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
	case BAD_CTL_GOOD:
	case BAD_CTL_TRICKLE:
	case BAD_CTL_HUGE:
	case BAD_CTL_ERR_NEWLINE:
		break;            /* bad_ctl_answer's */
	}
	return -1;
}

static void bad_serve(struct fake_conn *c)
{
	char buf[4096];
	size_t have = 0;
	uint64_t served = 0;

	if (fake_handshake(c) < 0)
		return;
	for (;;) {
		ssize_t n = fake_recv(&bad.fs, c->fd, buf + have, sizeof buf - have, -1);
		size_t k;

		if (n < 0)
			break;
		have += (size_t)n;
		for (k = 0; k + BAD_PING_LEN <= have; k += BAD_PING_LEN) {
			if (memcmp(buf + k, bad_ping, BAD_PING_LEN) != 0)
				return;       /* not what the test sends: hang up */
			if (bad_answer(c->fd, served++) < 0)
				return;       /* the fixture closes the connection */
		}
		memmove(buf, buf + k, have - k);
		have -= k;
	}
}

/* ---- the control-connection fake ---- */

/* Wait ms, or less when the test ends; -1 when it ends. */
static int bad_pause(int ms)
{
	for (; ms > 0; ms -= 10) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		if (atomic_load(&bad.fs.stop))
			return -1;
		nanosleep(&ts, NULL);
	}
	return 0;
}

/* What INFO answers, every section at once: enough for the guard (no
 * keys), the facts in every row and the counters around a point. */
static const char bad_info[] = "# Server\r\nredis_version:7.0.0\r\nrun_id:0000fake\r\n"
			       "os:Fake 1.0 x86_64\r\n# CPU\r\nused_cpu_sys:0.5\r\n"
			       "used_cpu_user:0.5\r\n# Commandstats\r\n# Keyspace\r\n";

/* The replies sent a byte at a time: long enough that a client whose
 * timeout restarts at every byte would wait for seconds. */
static const char bad_slow_info[] = "$20\r\n# Keyspace\r\n# slow\r\n\r\n";
static const char bad_slow_status[] = "+OK but very slowly\r\n";

static int bad_ctl_misbehave(int fd, const char *verb)
{
	switch (bad.mode) {
	case BAD_CTL_TRICKLE: {
		const char *r = strcmp(verb, "INFO") == 0 ? bad_slow_info : bad_slow_status;

		for (; *r; r++) {
			if (bad_send(fd, r, 1) < 0)
				return -1;
			atomic_fetch_add(&bad.sent, 1);
			if (bad_pause(BAD_TRICKLE_MS) < 0)
				return -1;
		}
		return 0;
	}
	case BAD_CTL_HUGE: {
		size_t size = 256 * 1024;
		char hdr[32], *chunk = malloc(size);
		uint64_t left = bad.huge;
		int rc = 0;

		if (chunk == NULL)
			abort();
		memset(chunk, 'x', size);
		snprintf(hdr, sizeof hdr, "$%llu\r\n", (unsigned long long)bad.huge);
		rc = bad_send(fd, hdr, strlen(hdr));
		while (rc == 0 && left > 0) {
			size_t n = left < size ? (size_t)left : size;

			rc = bad_send(fd, chunk, n);
			if (rc == 0)
				atomic_fetch_add(&bad.sent, n);
			left -= n;
		}
		free(chunk);
		return rc < 0 ? -1 : bad_send(fd, "\r\n", 2);
	}
	case BAD_CTL_ERR_NEWLINE: {
		static const char e[] = "-ERR first line\nsecond line\r\n";

		return bad_send(fd, e, sizeof e - 1);
	}
	default:
		break;
	}
	return -1;
}

/* Answer one request named verb; -1 to stop serving the connection. */
static int bad_ctl_answer(int fd, const char *verb)
{
	char hdr[32];

	if (bad.mode != BAD_CTL_GOOD && strcmp(verb, bad.verb) == 0 &&
	    atomic_exchange(&bad.misbehaved, 1) == 0)
		return bad_ctl_misbehave(fd, verb);
	if (strcmp(verb, "PING") == 0)
		return bad_send(fd, "+PONG\r\n", 7);
	if (strcmp(verb, "DUMP") == 0)
		return bad_send(fd, "$-1\r\n", 5);
	if (strcmp(verb, "INFO") == 0) {
		snprintf(hdr, sizeof hdr, "$%zu\r\n", sizeof bad_info - 1);
		if (bad_send(fd, hdr, strlen(hdr)) < 0 ||
		    bad_send(fd, bad_info, sizeof bad_info - 1) < 0)
			return -1;
		return bad_send(fd, "\r\n", 2);
	}
	if (strcmp(verb, "RPUSH") == 0)
		return bad_send(fd, ":1\r\n", 4);
	return bad_send(fd, "+OK\r\n", 5);
}

static void bad_serve_ctl(struct fake_conn *c)
{
	char *buf = malloc(BAD_CTL_BUF), verb[32];
	size_t have = 0;

	if (buf == NULL)
		abort();
	for (;;) {
		ssize_t used, n;

		while ((used = fake_request(buf, have, verb, sizeof verb)) > 0) {
			if (bad_ctl_answer(c->fd, verb) < 0)
				goto out;
			memmove(buf, buf + used, have - (size_t)used);
			have -= (size_t)used;
		}
		if (used < 0 || have == BAD_CTL_BUF)
			break;        /* not what rsweep sends: hang up */
		if ((n = fake_recv(&bad.fs, c->fd, buf + have, BAD_CTL_BUF - have, -1)) < 0)
			break;
		have += (size_t)n;
	}
out:
	free(buf);
}

/* Start the fake in mode; the control modes misbehave on the first
 * request named verb, BAD_CTL_HUGE with a bulk of huge bytes. */
static void bad_start_ctl(enum bad_mode mode, const char *verb, uint64_t huge)
{
	memset(&bad, 0, sizeof bad);
	bad.mode = mode;
	bad.verb = verb;
	bad.huge = huge;
	fake_server_start(&bad.fs, "badserver", mode >= BAD_CTL_GOOD ? bad_serve_ctl : bad_serve,
			  NULL);
}

static void bad_start(enum bad_mode mode)
{
	bad_start_ctl(mode, NULL, 0);
}

static void bad_stop(void)
{
	fake_server_stop(&bad.fs);
}

/* Run `requests` PINGs at depth `depth` through an engine of clients
 * connections against the fake in mode; returns engine_run's result, the
 * message in err. */
static int bad_run(enum bad_mode mode, unsigned clients, unsigned threads, unsigned depth,
		   uint64_t requests, struct engine_result *res, struct rs_err *err)
{
	struct target t = { .connect_timeout = 5, .timeout = 5 };
	struct engine_job job = {
		.cmd = bad_ping, .len = BAD_PING_LEN, .depth = depth,
		.requests = requests, .timeout = 1.0,
		/* As a sweep sets it at -d 3. */
		.max_reply = workload_max_reply(3),
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
	t.socket = bad.fs.path;
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

/* ---- the control connection ---- */

static double bad_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Start the fake in a control mode and point t at it. */
static void bad_ctl_start(struct target *t, double timeout, enum bad_mode mode, const char *verb,
			  uint64_t huge)
{
	alarm(BAD_ALARM_S);
	bad_start_ctl(mode, verb, huge);
	memset(t, 0, sizeof *t);
	t->socket = bad.fs.path;
	t->connect_timeout = 5;
	t->timeout = timeout;
	target_describe(t);
}

static void bad_ctl_stop(struct target_conn *c)
{
	target_close(c);
	bad_stop();
	alarm(0);
}

/* A control command failed in about t->timeout, and said so in one line. */
static void bad_expect_deadline(int rc, double t0, const struct target *t,
				const struct rs_err *err, const char *what)
{
	double took = bad_now() - t0;

	bad_expect_failure(rc, err, what);
	/* The trickle lasts many times the timeout: only a deadline that
	 * does not restart at every byte ends the command this soon. */
	cr_assert_lt(took, t->timeout + 1, "took %.2f s with --timeout %g", took, t->timeout);
}

Test(badserver, the_control_fake_answers_what_rsweep_asks)
{
	struct target t;
	struct rs_err err;
	struct target_conn *c;
	struct target_stats st;
	uint64_t keys;

	bad_ctl_start(&t, 1, BAD_CTL_GOOD, NULL, 0);
	cr_assert_eq(target_connect(&t, &c, &err), 0, "%s", err.msg);
	cr_assert_eq(target_key_count(c, &t, &keys, &err), 0, "%s", err.msg);
	cr_assert_eq(keys, 0);
	cr_assert_eq(target_flush(c, &t, 0, &err), 0, "%s", err.msg);
	cr_assert_eq(target_point_stats(c, &t, "ping", &st, &err), 0, "%s", err.msg);
	cr_assert_float_eq(st.cpu, 1.0, 1e-9);
	cr_assert_eq(target_simple(c, &t, &err, "PING"), 0, "%s", err.msg);
	bad_ctl_stop(c);
}

Test(badserver, a_trickled_select_reply_fails_at_the_timeout)
{
	struct target t;
	struct rs_err err;
	struct target_conn *c;
	double t0;
	int rc;

	bad_ctl_start(&t, 1, BAD_CTL_TRICKLE, "SELECT", 0);
	t0 = bad_now();
	rc = target_connect(&t, &c, &err);
	bad_expect_deadline(rc, t0, &t, &err, "SELECT timed out after 1 s");
	bad_ctl_stop(c);
}

Test(badserver, a_trickled_info_reply_fails_at_the_timeout)
{
	struct target t;
	struct rs_err err;
	struct target_conn *c;
	char *info = NULL;
	double t0;
	int rc;

	bad_ctl_start(&t, 1, BAD_CTL_TRICKLE, "INFO", 0);
	cr_assert_eq(target_connect(&t, &c, &err), 0, "%s", err.msg);
	t0 = bad_now();
	rc = target_info(c, &t, "keyspace", &info, &err);
	free(info);
	bad_expect_deadline(rc, t0, &t, &err, "INFO timed out after 1 s");
	bad_ctl_stop(c);
}

Test(badserver, a_trickled_flushall_reply_fails_at_the_timeout)
{
	struct target t;
	struct rs_err err;
	struct target_conn *c;
	double t0;
	int rc;

	bad_ctl_start(&t, 1, BAD_CTL_TRICKLE, "FLUSHALL", 0);
	cr_assert_eq(target_connect(&t, &c, &err), 0, "%s", err.msg);
	t0 = bad_now();
	rc = target_flush(c, &t, 0, &err);
	bad_expect_deadline(rc, t0, &t, &err, "FLUSHALL timed out after 1 s");
	/* The connection is not used again: the rest of that reply would be
	 * taken for the next command's. */
	cr_assert_eq(target_simple(c, &t, &err, "PING"), -1);
	bad_ctl_stop(c);
}

Test(badserver, a_trickled_reply_in_a_preparation_pipeline_fails_at_the_timeout)
{
	static const char cmds[] = "*3\r\n$5\r\nRPUSH\r\n$1\r\nl\r\n$1\r\nx\r\n"
				   "*3\r\n$5\r\nRPUSH\r\n$1\r\nl\r\n$1\r\nx\r\n";
	struct target t;
	struct rs_err err;
	struct target_conn *c;
	double t0;
	int rc;

	bad_ctl_start(&t, 1, BAD_CTL_TRICKLE, "RPUSH", 0);
	cr_assert_eq(target_connect(&t, &c, &err), 0, "%s", err.msg);
	t0 = bad_now();
	rc = target_pipeline(c, &t, cmds, sizeof cmds - 1, 2, &err);
	bad_expect_deadline(rc, t0, &t, &err, "preparation");
	cr_assert_not_null(strstr(err.msg, "timed out"), "%s", err.msg);
	bad_ctl_stop(c);
}

/* Peak resident memory of this process, in bytes. */
static uint64_t bad_maxrss(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)ru.ru_maxrss * 1024;
}

Test(badserver, a_300_mb_info_reply_fails_at_the_cap_in_bounded_memory)
{
	struct target t;
	struct rs_err err;
	struct target_conn *c;
	char *info = NULL, what[96];
	const char *san = getenv("RS_SANITIZERS");
	int rc;

	/* The cap, not the timeout, must be what stops it. */
	bad_ctl_start(&t, 20, BAD_CTL_HUGE, "INFO", (uint64_t)300 << 20);
	cr_assert_eq(target_connect(&t, &c, &err), 0, "%s", err.msg);
	rc = target_info(c, &t, "server", &info, &err);
	free(info);
	snprintf(what, sizeof what, "the reply to INFO is larger than %zu bytes", TARGET_MAX_REPLY);
	bad_expect_failure(rc, &err, what);
	target_close(c);
	c = NULL;
	cr_log_info("%llu bytes sent, peak RSS %llu MB", (unsigned long long)atomic_load(&bad.sent),
		    (unsigned long long)(bad_maxrss() >> 20));
	/* Read no further than the cap and what was in flight past it. */
	cr_assert_lt(atomic_load(&bad.sent), TARGET_MAX_REPLY + ((uint64_t)16 << 20),
		     "%llu bytes were sent", (unsigned long long)atomic_load(&bad.sent));
	/* The sanitizers' allocator keeps freed memory in quarantine: only
	 * the plain build measures the peak. */
	if (san == NULL || strcmp(san, "yes") != 0)
		cr_assert_lt(bad_maxrss(), (uint64_t)200 << 20, "peak RSS %llu MB",
			     (unsigned long long)(bad_maxrss() >> 20));
	bad_ctl_stop(c);
}

Test(badserver, a_dump_larger_than_the_cap_is_dropped_and_the_connection_kept)
{
	struct target t;
	struct rs_err err;
	struct target_conn *c;
	char *payload = NULL;
	size_t len = 0;
	int rc;

	bad_ctl_start(&t, 20, BAD_CTL_HUGE, "DUMP", TARGET_MAX_REPLY + (1u << 20));
	cr_assert_eq(target_connect(&t, &c, &err), 0, "%s", err.msg);
	rc = target_dump(c, &t, "myset", &payload, &len, &err);
	free(payload);
	cr_log_info("%s", err.msg);
	/* Not a failed connection: the payload is too big to keep, so the
	 * sweep prepares with commands, on the same connection. */
	cr_assert_eq(rc, 1, "DUMP gave %d: %s", rc, err.msg);
	cr_assert_not_null(strstr(err.msg, "larger than"), "%s", err.msg);
	cr_assert_eq(target_simple(c, &t, &err, "PING"), 0, "%s", err.msg);
	bad_ctl_stop(c);
}

Test(badserver, an_error_reply_with_a_newline_is_one_line)
{
	struct target t;
	struct rs_err err;
	struct target_conn *c;
	int rc;

	bad_ctl_start(&t, 1, BAD_CTL_ERR_NEWLINE, "SELECT", 0);
	rc = target_connect(&t, &c, &err);
	bad_expect_failure(rc, &err, "ERR first line\\nsecond line");
	bad_ctl_stop(c);
}

/* ---- rsweep run against the control fake ---- */

struct bad_child {
	pid_t pid;
	char out[96], errf[96];
};

/* Start rsweep run against the fake: PING, one point, stderr to a file. */
static void bad_rsweep(struct bad_child *ch, double timeout)
{
	/* make check says where (AM_TESTS_ENVIRONMENT); by hand, from the
	 * build directory, it is there. */
	const char *rsweep = getenv("RSWEEP") ? getenv("RSWEEP") : "src/rsweep";
	char tmo[32];

	snprintf(ch->out, sizeof ch->out, "%s/out", bad.fs.dir);
	snprintf(ch->errf, sizeof ch->errf, "%s/err", bad.fs.dir);
	snprintf(tmo, sizeof tmo, "%g", timeout);
	ch->pid = fork();
	cr_assert_geq(ch->pid, 0, "fork: %s", strerror(errno));
	if (ch->pid == 0) {
		int o = open(ch->out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(ch->errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(126);
		signal(SIGPIPE, SIG_DFL);
		execl(rsweep, "rsweep", "run", "-s", bad.fs.path, "-t", "ping_mbulk",
		      "-n", "100", "-c", "1", "-q", "--timeout", tmo, (char *)NULL);
		_exit(127);
	}
}

/* Wait for the child at most s seconds (then kill it); its wait status. */
static int bad_rsweep_wait(struct bad_child *ch, double s)
{
	double end = bad_now() + s;
	int status;

	while (waitpid(ch->pid, &status, WNOHANG) == 0) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		if (bad_now() > end) {
			kill(ch->pid, SIGKILL);
			waitpid(ch->pid, &status, 0);
			cr_log_error("rsweep was still running after %.1f s", s);
			return -1;
		}
		nanosleep(&ts, NULL);
	}
	return status;
}

static void bad_slurp(const char *path, char *buf, size_t size)
{
	FILE *fp = fopen(path, "r");
	size_t n = fp ? fread(buf, 1, size - 1, fp) : 0;

	buf[n] = '\0';
	if (fp)
		fclose(fp);
}

/* Its files go before the fake's directory does. */
static void bad_rsweep_clean(const struct bad_child *ch)
{
	unlink(ch->out);
	unlink(ch->errf);
}

Test(badserver, sigint_ends_a_run_stuck_on_a_control_command_with_130)
{
	struct bad_child ch;
	char msg[4096];
	double t0;
	int st;

	alarm(BAD_ALARM_S);
	bad_start_ctl(BAD_CTL_TRICKLE, "FLUSHALL", 0);
	/* --timeout well past the 2 s allowed: only the ^C may end it. */
	bad_rsweep(&ch, 5);
	for (int i = 0; i < 1000 && atomic_load(&bad.sent) == 0; i++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	cr_assert_gt(atomic_load(&bad.sent), 0, "rsweep never reached the first FLUSHALL");
	t0 = bad_now();
	kill(ch.pid, SIGINT);
	st = bad_rsweep_wait(&ch, 10);
	bad_slurp(ch.errf, msg, sizeof msg);
	cr_log_info("%.2f s: %s", bad_now() - t0, msg);
	bad_rsweep_clean(&ch);
	bad_stop();
	alarm(0);
	cr_assert(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 130, "status %d: %s", st, msg);
	cr_assert_lt(bad_now() - t0, 2.0, "exit %.2f s after SIGINT", bad_now() - t0);
	cr_assert_not_null(strstr(msg, "interrupted"), "%s", msg);
}

Test(badserver, rsweep_run_prints_an_error_with_a_newline_on_one_line)
{
	struct bad_child ch;
	char msg[4096];
	int st;

	alarm(BAD_ALARM_S);
	bad_start_ctl(BAD_CTL_ERR_NEWLINE, "FLUSHALL", 0);
	bad_rsweep(&ch, 5);
	st = bad_rsweep_wait(&ch, 20);
	bad_slurp(ch.errf, msg, sizeof msg);
	bad_rsweep_clean(&ch);
	bad_stop();
	alarm(0);
	cr_log_info("%s", msg);
	cr_assert(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 1, "status %d: %s", st, msg);
	cr_assert_not_null(strstr(msg, "FLUSHALL failed: ERR first line\\nsecond line\n"), "%s", msg);
	/* Notes may come before it (the fake has no EVAL, so the guard says it
	 * falls back), but the server's words never start a line. */
	cr_assert_null(strstr(msg, "\nsecond line"), "the error took two lines: %s", msg);
}
