/* conn.h: one connection to a target, plain (TCP, UNIX) or TLS, for a
 * non-blocking caller: the control path (target.c) and the engine both.
 *
 * conn_open connects within t->connect_timeout (one deadline for the
 * connect and the TLS handshake together) and honours t->stop.  The
 * socket is then non-blocking: conn_read and conn_write never wait, they
 * say which event the caller must wait for.  TLS may want the other
 * direction (SSL_read may need to write, SSL_write to read), so a caller
 * waits on what the call asked for, and never waits at all while
 * conn_pending says decrypted bytes are already buffered. */
#ifndef RS_CONN_H
#define RS_CONN_H

#include <stddef.h>
#include <sys/types.h>

#include "base/err.h"
#include "net/target_addr.h"

struct conn;

/* What conn_read and conn_write return besides a count: */
#define CONN_ERROR (-1)           /* failed: err says why, errno is set */
#define CONN_WANT_READ (-2)       /* call again once the socket is readable */
#define CONN_WANT_WRITE (-3)      /* call again once the socket is writable */

/* Connect to t: TCP (TCP_NODELAY) or UNIX, then TLS when t->tls.on, all
 * within t->connect_timeout.  Returns 0 with *out set, or -1 with *out
 * NULL and err "<desc>: <reason>": a timeout, a stop (kind
 * RS_E_INTERRUPTED), a refused connect (RS_E_FAILED), a TLS failure
 * (RS_E_REFUSED for a certificate that does not verify, RS_E_INPUT for
 * a server that does not speak TLS or options that do not load). */
int conn_open(const struct target *t, struct conn **out, struct rs_err *err);

/* conn_open within the earlier of t->connect_timeout and until (seconds
 * on CLOCK_MONOTONIC, as conn_clock; 0: no such bound): a caller that
 * opens many connections under one deadline.  The timeout message says
 * how long this connect was allowed. */
int conn_open_until(const struct target *t, double until, struct conn **out,
		    struct rs_err *err);

/* A TLS session a connection held, to offer when the next connection to
 * the same target opens (--tls-resume): the server may then resume it,
 * an abbreviated handshake without the certificate's exchange. */
struct conn_session;

/* conn_open_until offering s (NULL: none; a plain target ignores it).  A
 * server that does not resume it does a full handshake: not an error. */
int conn_open_session(const struct target *t, double until, struct conn_session *s,
		      struct conn **out, struct rs_err *err);

/* c's TLS session, when it can be resumed, as a new reference the caller
 * frees with conn_session_free; NULL for a plain connection, or a TLS
 * one with nothing to resume (TLS 1.3: no ticket read yet). */
struct conn_session *conn_session_get(const struct conn *c);

/* Let go of s (NULL is allowed). */
void conn_session_free(struct conn_session *s);

/* 1 when c's TLS handshake resumed a session, 0 for a full handshake
 * and for a plain connection. */
int conn_resumed(const struct conn *c);

/* Seconds on CLOCK_MONOTONIC: the clock of conn_open_until's until and
 * target_connect_until's. */
double conn_clock(void);

/* Read at most len bytes.  Returns the count (> 0), 0 at the end of the
 * stream, CONN_WANT_READ or CONN_WANT_WRITE, or CONN_ERROR with err
 * filled ("read failed: <reason>").  EINTR is retried here. */
ssize_t conn_read(struct conn *c, void *buf, size_t len, struct rs_err *err);

/* Write at most len bytes (TLS: in records of up to 16 KiB, one call).
 * Returns the count written (> 0), CONN_WANT_READ or CONN_WANT_WRITE
 * (TLS: call again with the same buf and len), or CONN_ERROR with err
 * filled ("write failed: <reason>"). */
ssize_t conn_write(struct conn *c, const void *buf, size_t len, struct rs_err *err);

/* Bytes already read and decrypted, waiting in the TLS layer: while there
 * are some the socket may never become readable again for them.  0 for a
 * plain connection. */
size_t conn_pending(const struct conn *c);

/* The socket, for poll or an event loop. */
int conn_fd(const struct conn *c);

/* 1 for a TLS connection, 0 for a plain one (whose fd a caller may read
 * and write directly). */
int conn_is_tls(const struct conn *c);

/* Close and free (NULL is allowed). */
void conn_close(struct conn *c);

#endif
