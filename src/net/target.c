/* target.c: the control connection: one exchange on it within a deadline,
 * a reply-size cap and the stop flag, and the connect (AUTH, SELECT).  The
 * commands on it are target_admin.c's and target_keys.c's. */
#include "config.h"

#include <errno.h>
#include <hiredis/hiredis.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "net/conn.h"
#include "base/log.h"
#include "base/platform.h"
#include "net/target.h"
#include "net/target_int.h"
#include "base/xalloc.h"

/* The control connection: the conn, hiredis' reader as the parser, and
 * whether an exchange failed part-way (why: for the commands refused after). */
struct target_conn {
	struct conn *conn;
	redisReader *reader;
	int failed;
	char why[160];
	uint64_t rx;              /* bytes read since the connect */
	unsigned char first;      /* the first of them: a TLS record's type? */
	int eof;                  /* the server closed (or reset) the connection */
	double until;             /* no exchange goes past it (CLOCK_MONOTONIC s; 0: none) */
};

/* ---- one exchange on the control connection ----
 *
 * A blocking read waits with SO_RCVTIMEO, which starts again at every byte,
 * and hiredis reads a reply of any size: a server trickling a byte at a
 * time or sending a gigabyte would keep rsweep waiting, or eat its memory.
 * So hiredis is only the reader here: writes and reads go through the conn
 * (conn.h), non-blocking, each wait a poll() on the event the conn asked
 * for, no longer than the time left and than TARGET_SLICE_MS, so that a
 * stop is seen; and no wait while TLS holds decrypted bytes. */

#define TARGET_SLICE_MS 100
#define TARGET_READ_CHUNK 16384

static double target_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The exchange failed part-way: mark the context so that nothing more is
 * read from it as if it were the next reply.  Returns -1, err filled. */
static int target_fail(struct target_xchg *x, struct rs_err *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int target_fail(struct target_xchg *x, struct rs_err *err, const char *fmt, ...)
{
	char msg[RS_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	x->c->failed = 1;
	snprintf(x->c->why, sizeof x->c->why, "%.*s", (int)sizeof x->c->why - 1, msg);
	return rs_err_set(err, "%s: %s", x->t->desc, msg);
}

static int target_timed_out(struct target_xchg *x, struct rs_err *err)
{
	uint64_t got = x->partial + (x->c->reader->len - x->c->reader->pos);
	const char *how = got == 0 ? "the server stopped answering" :
				     "the server answers too slowly";

	if (x->capped)
		return target_fail(x, err, "%s (%s: no complete reply when the connections' setup "
				   "ran out of time, %llu bytes of it read)", how, x->what,
				   (unsigned long long)got);
	if (x->per_reply)
		return target_fail(x, err, "%s (%s timed out: no complete reply for %g s)", how,
				   x->what, x->t->timeout);
	if (got == 0)
		return target_fail(x, err, "%s (%s timed out after %g s)", how, x->what,
				   x->t->timeout);
	return target_fail(x, err, "%s (%s timed out after %g s with %llu bytes of its reply "
			   "read)", how, x->what, x->t->timeout, (unsigned long long)got);
}

/* Wait until the socket is ready for events, within the deadline and while
 * no stop arrives.  Returns poll's revents, or -1 (err filled).  Decrypted
 * bytes already buffered count as POLLIN at once. */
static int target_wait(struct target_xchg *x, short events, struct rs_err *err)
{
	struct pollfd p = { .fd = conn_fd(x->c->conn), .events = events };

	if ((events & POLLIN) && conn_pending(x->c->conn) > 0)
		return POLLIN;
	for (;;) {
		double left = x->deadline - target_now();
		int n;

		if (x->t->stop != NULL && *x->t->stop && !x->stop0)
			return target_fail(x, err, "interrupted during %s", x->what);
		if (left <= 0)
			return target_timed_out(x, err);
		n = poll(&p, 1, left * 1000 < TARGET_SLICE_MS ? (int)ceil(left * 1000) :
								 TARGET_SLICE_MS);
		if (n > 0)
			return p.revents;
		if (n < 0 && errno != EINTR)
			return target_fail(x, err, "%s: poll: %s", x->what, strerror(errno));
	}
}

/* Read what the socket has (at most max bytes) into the reader; 0, or -1 at
 * the end of the stream or on an error (err filled).  Nothing is read past
 * what the cap allows: memory stays bounded whatever the server sends. */
static int target_read(struct target_xchg *x, size_t max, struct rs_err *err)
{
	char buf[TARGET_READ_CHUNK];
	struct rs_err why = { .kind = RS_E_FAILED };
	ssize_t n = conn_read(x->c->conn, buf, max < sizeof buf ? max : sizeof buf, &why);

	if (n == CONN_WANT_READ || n == CONN_WANT_WRITE) {
		x->read_ev = n == CONN_WANT_READ ? POLLIN : POLLOUT;
		return 0;
	}
	x->read_ev = POLLIN;
	if (n < 0 || n == 0)
		x->c->eof = n == 0 || errno == ECONNRESET;
	if (n < 0) {
		target_fail(x, err, "%s: %s", x->what, why.msg);
		/* A TLS alert (no client certificate) is a TLS failure, exit 2. */
		return why.kind == RS_E_REFUSED ? rs_err_as(err, RS_E_REFUSED) : -1;
	}
	if (n == 0)
		return target_fail(x, err, "the server closed the connection during %s", x->what);
	if (x->c->rx == 0)
		x->c->first = (unsigned char)buf[0];
	x->c->rx += (uint64_t)n;
	if (x->headlen < sizeof x->head) {
		size_t k = sizeof x->head - x->headlen < (size_t)n ? sizeof x->head - x->headlen :
								      (size_t)n;

		memcpy(x->head + x->headlen, buf, k);
		x->headlen += k;
	}
	x->fed += (uint64_t)n;
	if (redisReaderFeed(x->c->reader, buf, (size_t)n) != REDIS_OK)
		return target_fail(x, err, "%s: reply reader: %s", x->what, x->c->reader->errstr);
	return 0;
}

/* A reply over the cap.  A bulk for a caller that asked (DUMP) is read to
 * its end and dropped, so that the connection goes on; anything else ends
 * the connection here, before more of it is read. */
static int target_too_large(struct target_xchg *x, struct rs_err *err)
{
	redisReader *fresh;
	uint64_t len, total;
	char *end;

	if (!x->drop_big_bulk || x->headlen < 4 || x->head[0] != '$')
		goto fail;
	len = strtoull(x->head + 1, &end, 10);
	if (end == x->head + 1 || end + 1 >= x->head + x->headlen || end[0] != '\r' ||
	    end[1] != '\n' || len > UINT64_MAX / 2)
		goto fail;
	total = (uint64_t)(end + 2 - x->head) + len + 2;
	if (total < x->fed)
		goto fail;        /* more than one reply: not a lone DUMP payload */
	/* The reader holds part of a bulk it will never finish: a new one. */
	if ((fresh = redisReaderCreate()) == NULL)
		goto fail;
	redisReaderFree(x->c->reader);
	x->c->reader = fresh;
	for (uint64_t left = total - x->fed; left > 0;) {
		char buf[TARGET_READ_CHUNK];
		struct rs_err why;
		ssize_t n;
		int ev = target_wait(x, x->read_ev, err);

		if (ev < 0)
			return -1;
		n = conn_read(x->c->conn, buf, left < sizeof buf ? (size_t)left : sizeof buf, &why);
		if (n == CONN_WANT_READ || n == CONN_WANT_WRITE) {
			x->read_ev = n == CONN_WANT_READ ? POLLIN : POLLOUT;
			continue;
		}
		x->read_ev = POLLIN;
		if (n < 0)
			return target_fail(x, err, "%s: %s", x->what, why.msg);
		if (n == 0)
			return target_fail(x, err, "the server closed the connection during %s",
					   x->what);
		left -= (uint64_t)n;
	}
	rs_err_set(err, "%s: the reply to %s is larger than %zu bytes (%zu MiB, the limit on "
		   "the control connection): dropped", x->t->desc, x->what, TARGET_MAX_REPLY,
		   TARGET_MAX_REPLY >> 20);
	return TARGET_DROPPED;
fail:
	return target_fail(x, err, "the reply to %s is larger than %zu bytes (%zu MiB, the limit "
			   "on the control connection)", x->what, TARGET_MAX_REPLY,
			   TARGET_MAX_REPLY >> 20);
}

/* Send out[0..len) and read n replies to it, each handed to x->on_reply.
 * Writing and reading go together, so that a long pipeline cannot fill
 * both directions.  Returns 0, TARGET_DROPPED (only with drop_big_bulk), or
 * -1 with err filled and the context unusable. */
int target_exchange(struct target_xchg *x, const char *out, size_t len, size_t n,
		    struct rs_err *err)
{
	struct target_conn *c = x->c;
	size_t sent = 0, got = 0;
	int writing;

	if (c->failed)
		return rs_err_set(err, "%s: %s not sent: the connection failed before (%s)",
				  x->t->desc, x->what, c->why);
	if (c->reader->len > c->reader->pos)
		return target_fail(x, err, "the server sent a reply that nobody asked for "
				   "(seen before %s)", x->what);
	x->stop0 = x->t->stop != NULL ? *x->t->stop : 0;
	x->deadline = target_now() + x->t->timeout;
	if (c->until > 0 && c->until < x->deadline) {
		x->deadline = c->until;
		x->capped = 1;
	}
	x->fed = x->partial = 0;
	x->headlen = 0;
	x->read_ev = POLLIN;
	x->write_ev = POLLOUT;
	while (got < n) {
		size_t unread = c->reader->len - c->reader->pos;
		void *reply;
		int ev;

		if (redisReaderGetReply(c->reader, &reply) != REDIS_OK)
			return target_fail(x, err, "protocol error in the reply to %s: %s", x->what,
					   c->reader->errstr);
		/* What the reader consumed of a reply it has not finished (the
		 * elements of an array so far) counts toward the cap too. */
		x->partial += unread - (c->reader->len - c->reader->pos);
		if (reply != NULL) {
			x->partial = 0;
			got++;
			if (x->per_reply)
				x->deadline = target_now() + x->t->timeout;
			x->on_reply(x, reply);
			continue;
		}
		unread = c->reader->len - c->reader->pos;
		if (x->partial + unread > TARGET_MAX_REPLY)
			return target_too_large(x, err);
		writing = sent < len && !x->write_failed;
		ev = target_wait(x, (short)(x->read_ev | (writing ? x->write_ev : 0)), err);
		if (ev < 0)
			return -1;
		if (ev & POLLNVAL)
			return target_fail(x, err, "%s: the socket is closed", x->what);
		if (writing && (ev & (x->write_ev | POLLHUP | POLLERR))) {
			struct rs_err why;
			ssize_t w = conn_write(c->conn, out + sent, len - sent, &why);

			x->write_ev = w == CONN_WANT_READ ? POLLIN : POLLOUT;
			if (w > 0)
				sent += (size_t)w;
			else if (w == CONN_ERROR)
				/* The server may have said why before it closed
				 * ("-ERR max number of clients reached"): read on. */
				x->write_failed = errno ? errno : EPIPE;
		}
		if ((ev & (x->read_ev | POLLHUP | POLLERR)) &&
		    target_read(x, TARGET_MAX_REPLY + 1 - (x->partial + unread), err) < 0)
			return -1;
	}
	if (sent < len) {
		/* Answered before it had it all: an error reply, the server
		 * about to close.  The reply is the caller's, the rest of the
		 * command can never be sent. */
		c->failed = 1;
		snprintf(c->why, sizeof c->why, "the server answered %s before taking all of it",
			 x->what);
	}
	return 0;
}

/* The reply of a one-reply exchange. */
void target_keep(struct target_xchg *x, redisReply *r)
{
	*(redisReply **)x->ud = r;
}

/* Run one command, formatted as redisCommand formats it, and hand back its
 * reply (any type, the caller frees it).  what names it in messages (NULL:
 * the format's first word); drop_big as in struct target_xchg.  Returns 0,
 * TARGET_DROPPED, or -1 with err filled. */
int target_vrun(struct target_conn *c, const struct target *t, const char *what, int drop_big,
		redisReply **reply, struct rs_err *err, const char *fmt, va_list ap)
{
	struct target_xchg x = { .c = c, .t = t, .drop_big_bulk = drop_big,
				 .on_reply = target_keep, .ud = reply };
	char name[32], *cmd;
	int len, rc;

	if (what == NULL) {
		snprintf(name, sizeof name, "%.*s", (int)strcspn(fmt, " "), fmt);
		what = name;
	}
	x.what = what;
	*reply = NULL;
	len = redisvFormatCommand(&cmd, fmt, ap);
	if (len < 0)
		return rs_err_set(err, "%s: %s: cannot format the command", t->desc, what);
	rc = target_exchange(&x, cmd, (size_t)len, 1, err);
	/* A password may be in there. */
	platform_wipe(cmd, (size_t)len);
	redisFreeCommand(cmd);
	if (rc == 0 && x.write_failed && (*reply)->type == REDIS_REPLY_ERROR) {
		/* The reply came, but the server had closed: it refused us. */
		rs_err_set(err, "%s: the server refused the connection: %.200s", t->desc,
			   (*reply)->str);
		freeReplyObject(*reply);
		*reply = NULL;
		c->failed = 1;
		snprintf(c->why, sizeof c->why, "the server closed the connection");
		return -1;
	}
	return rc;
}

int target_run(struct target_conn *c, const struct target *t, const char *what,
	       redisReply **reply, struct rs_err *err, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = target_vrun(c, t, what, 0, reply, err, fmt, ap);
	va_end(ap);
	return rc;
}

/* The first command on a plain connection failed: a server that answered
 * with a TLS record, or hung up on the first bytes, is a TLS port.  Say so
 * instead of a protocol error.  Returns -1. */
static int target_plain_to_tls(const struct target *t, struct target_conn *c, struct rs_err *err)
{
	/* 0x15 an alert, 0x16 a handshake: the record types a TLS server
	 * answers plain bytes with. */
	if (c->rx > 0 && (c->first == 0x15 || c->first == 0x16))
		return rs_err_setk(err, RS_E_INPUT, "the server at %s speaks TLS: use --tls or "
				   "rediss://", t->desc);
	if (c->rx == 0 && c->eof)
		return rs_err_setk(err, RS_E_INPUT, "the server at %s closed the connection without "
				   "a reply: a TLS port? (use --tls or rediss://)", t->desc);
	return -1;
}

/* One command of the connect (AUTH, SELECT), a plain connection's first
 * failure explained by target_plain_to_tls. */
static int target_run_first(struct target_conn *c, const struct target *t, const char *what,
			    redisReply **reply, struct rs_err *err, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = target_vrun(c, t, what, 0, reply, err, fmt, ap);
	va_end(ap);
	if (rc < 0 && !t->tls.on)
		target_plain_to_tls(t, c, err);
	return rc;
}

int target_simple(struct target_conn *c, const struct target *t, struct rs_err *err,
		  const char *fmt, ...)
{
	va_list ap;
	redisReply *r;
	int rc;

	va_start(ap, fmt);
	rc = target_vrun(c, t, NULL, 0, &r, err, fmt, ap);
	va_end(ap);
	if (rc < 0)
		return -1;
	if (r->type == REDIS_REPLY_ERROR) {
		rs_err_set(err, "%s: %.*s: %.200s", t->desc, (int)strcspn(fmt, " "), fmt, r->str);
		freeReplyObject(r);
		return -1;
	}
	freeReplyObject(r);
	return 0;
}

/* target_connect, every step of it (connect, handshake, AUTH, SELECT)
 * done before until (CLOCK_MONOTONIC seconds; 0: each step has its own
 * timeout only). */
static int target_connect_by(const struct target *t, double until, struct conn_session *sess,
			     struct target_conn **out, struct rs_err *err)
{
	struct target_conn *c;
	redisReply *r;

	*out = NULL;
	c = xcalloc(1, sizeof *c);
	if ((c->reader = redisReaderCreate()) == NULL) {
		free(c);
		return rs_err_set(err, "%s: cannot create a reply reader", t->desc);
	}
	c->until = until;
	if (conn_open_session(t, until, sess, &c->conn, err) < 0) {
		target_close(c);
		return -1;
	}
	if (t->password != NULL) {
		static int warned;

		/* Once a run, not once for each of the engine's connections. */
		if (!t->tls.on && !target_is_local(t) && !warned) {
			warned = 1;
			rs_log(RS_LOG_WARN, "%s: the password goes over a connection without TLS "
			       "(--tls or rediss:// would encrypt it)", t->desc);
		}
		/* The password goes only into the AUTH command, never into a message. */
		if ((t->user ? target_run_first(c, t, "AUTH", &r, err, "AUTH %s %s", t->user,
						t->password) :
			       target_run_first(c, t, "AUTH", &r, err, "AUTH %s", t->password)) < 0) {
			target_close(c);
			return -1;
		}
		if (r->type == REDIS_REPLY_ERROR) {
			rs_err_set(err, "%s: authentication failed: %.200s", t->desc, r->str);
			freeReplyObject(r);
			target_close(c);
			return -1;
		}
		freeReplyObject(r);
	}
	/* SELECT even for db 0: it proves the connection works without adding
	 * to cmdstat_ping, which the PING tests are checked against. */
	if (target_run_first(c, t, "SELECT", &r, err, "SELECT %u", t->dbnum) < 0) {
		target_close(c);
		return -1;
	}
	if (r->type == REDIS_REPLY_ERROR) {
		if (strncmp(r->str, "NOAUTH", 6) == 0)
			rs_err_set(err, "%s: the server needs a password (NOAUTH): set REDISCLI_AUTH "
				   "or use -a", t->desc);
		else
			rs_err_set(err, "%s: SELECT %u failed: %.200s", t->desc, t->dbnum, r->str);
		freeReplyObject(r);
		target_close(c);
		return -1;
	}
	freeReplyObject(r);
	/* A cluster replica serves its master's slots only after READONLY. */
	if (t->readonly && target_simple(c, t, err, "READONLY") < 0) {
		target_close(c);
		return -1;
	}
	c->until = 0;
	*out = c;
	return 0;
}

int target_connect(const struct target *t, struct target_conn **out, struct rs_err *err)
{
	return target_connect_by(t, 0, NULL, out, err);
}

int target_connect_conn(const struct target *t, struct conn **out, struct rs_err *err)
{
	return target_connect_until(t, 0, out, err);
}

int target_connect_until(const struct target *t, double until, struct conn **out,
			 struct rs_err *err)
{
	return target_connect_resume(t, until, NULL, out, err);
}

int target_connect_resume(const struct target *t, double until, struct conn_session *s,
			  struct conn **out, struct rs_err *err)
{
	struct target_conn *c;

	*out = NULL;
	if (target_connect_by(t, until, s, &c, err) < 0)
		return -1;
	*out = c->conn;
	c->conn = NULL;
	target_close(c);
	return 0;
}

int target_failed(const struct target_conn *c)
{
	return c->failed;
}

void target_close(struct target_conn *c)
{
	if (c == NULL)
		return;
	conn_close(c->conn);
	if (c->reader != NULL)
		redisReaderFree(c->reader);
	free(c);
}
