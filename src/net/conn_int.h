/* conn_int.h: what conn.c, conn_tls.c and conn_wait.c share; nobody else
 * includes it.
 *
 * A connection is a socket and a table of functions for its transport, as
 * hiredis plugs TLS in: plain (conn.c) or TLS (conn_tls.c, which
 * conn_tls_start puts in place).  conn.c calls into conn_tls.c only
 * through conn_tls_start and the table; both wait through conn_wait.c. */
#ifndef RS_CONN_INT_H
#define RS_CONN_INT_H

#include <sys/types.h>

#include "net/conn.h"

struct ssl_st;

/* A transport: as conn_read, conn_write and conn_pending say; free
 * releases what the transport holds (not the socket). */
struct conn_ops {
	ssize_t (*read)(struct conn *c, void *buf, size_t len, struct rs_err *err);
	ssize_t (*write)(struct conn *c, const void *buf, size_t len, struct rs_err *err);
	size_t (*pending)(const struct conn *c);
	void (*free)(struct conn *c);
	int tls;
};

struct conn {
	int fd;
	const struct conn_ops *ops;
	struct ssl_st *ssl;       /* TLS: the session */
	int tls_failed;           /* a fatal TLS error: no close_notify */
};

/* ---- conn_wait.c ---- */

/* Seconds on CLOCK_MONOTONIC. */
double conn_now(void);

/* Wait until fd is ready for events (POLLIN, POLLOUT) or the deadline
 * passes, looking at t->stop every 100 ms.  Returns 1 ready, 0 the
 * deadline passed, -1 stopped or poll failed (err filled, with t->desc). */
int conn_wait(const struct target *t, int fd, short events, double deadline,
	      struct rs_err *err);

/* ---- conn_tls.c ---- */

/* The TLS handshake on c->fd, connected, within the deadline (allowed:
 * the seconds the connect had in all, for messages), offering session s
 * (NULL: none).  Returns 0 with c's
 * transport TLS, or -1 with err filled as conn_open says (c's transport
 * may be TLS already: conn_close frees it). */
int conn_tls_start(struct conn *c, const struct target *t, double deadline, double allowed,
		   struct conn_session *s, struct rs_err *err);

#endif
