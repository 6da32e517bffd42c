/* conn_int.h: what conn.c and conn_tls.c share; nobody else includes it. */
#ifndef RS_CONN_INT_H
#define RS_CONN_INT_H

#include <sys/types.h>

#include "conn.h"

struct ssl_st;

struct conn {
	int fd;
	struct ssl_st *ssl;       /* NULL: plain */
	int tls_failed;           /* a fatal TLS error: no close_notify */
};

/* Seconds on CLOCK_MONOTONIC. */
double conn_now(void);

/* Wait until fd is ready for events (POLLIN, POLLOUT) or the deadline
 * passes, looking at t->stop every 100 ms.  Returns 1 ready, 0 the
 * deadline passed, -1 stopped or poll failed (err filled, with t->desc). */
int conn_wait(const struct target *t, int fd, short events, double deadline,
	      struct rs_err *err);

/* The TLS handshake on c->fd, connected, within the deadline.  Returns 0
 * with c->ssl set, or -1 with err filled as conn_open says. */
int conn_tls_start(struct conn *c, const struct target *t, double deadline, struct rs_err *err);
/* As conn_read, conn_write, conn_pending, on c->ssl. */
ssize_t conn_tls_read(struct conn *c, void *buf, size_t len, struct rs_err *err);
ssize_t conn_tls_write(struct conn *c, const void *buf, size_t len, struct rs_err *err);
size_t conn_tls_pending(const struct conn *c);
/* Free c->ssl (a close_notify is sent if the socket takes it at once). */
void conn_tls_free(struct conn *c);

#endif
