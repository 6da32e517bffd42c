/* conn.c: opening a connection (TCP or UNIX, then TLS) within a deadline,
 * and non-blocking reads and writes on it. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "net/conn_int.h"
#include "base/platform.h"
#include "base/xalloc.h"

static const struct conn_ops conn_plain_ops;

/* A non-blocking, close-on-exec socket, or -1 with errno set. */
static int conn_socket(int family)
{
	int fd = socket(family, SOCK_STREAM, 0);
	int flags;

	if (fd < 0)
		return -1;
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0 ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* Connect fd to addr before the deadline.  Returns 0, 1 when it timed
 * out, or -1 with errno set (-2: err filled, a stop or poll failure). */
static int conn_connect_fd(const struct target *t, int fd, const struct sockaddr *addr,
			   socklen_t alen, double deadline, struct rs_err *err)
{
	int soerr = 0, rc;
	socklen_t slen = sizeof soerr;

	if (connect(fd, addr, alen) == 0)
		return 0;
	if (errno != EINPROGRESS && errno != EINTR && errno != EAGAIN)
		return -1;
	rc = conn_wait(t, fd, POLLOUT, deadline, err);
	if (rc < 0)
		return -2;
	if (rc == 0)
		return 1;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &slen) < 0)
		return -1;
	if (soerr != 0) {
		errno = soerr;
		return -1;
	}
	return 0;
}

/* The socket of a UNIX or TCP target, connected before the deadline
 * (allowed: its seconds, for the message).  Returns the fd, or -1 with
 * err filled. */
static int conn_dial(const struct target *t, double deadline, double allowed, struct rs_err *err)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_family = AF_UNSPEC };
	struct addrinfo *res, *ai;
	char port[16];
	int fd = -1, rc, e = 0, timed_out = 0;

	if (t->socket != NULL) {
		struct sockaddr_un sun = { .sun_family = AF_UNIX };

		if (strlen(t->socket) >= sizeof sun.sun_path)
			return rs_err_setk(err, RS_E_INPUT, "%s: the socket path is longer than %zu "
					   "bytes", t->desc, sizeof sun.sun_path - 1);
		memcpy(sun.sun_path, t->socket, strlen(t->socket) + 1);
		if ((fd = conn_socket(AF_UNIX)) < 0)
			return rs_err_set(err, "%s: socket: %s", t->desc, strerror(errno));
		rc = conn_connect_fd(t, fd, (struct sockaddr *)&sun, sizeof sun, deadline, err);
		if (rc == 0)
			return fd;
		e = errno;
		close(fd);
		if (rc == -2)
			return -1;
		if (rc == 1)
			return rs_err_set(err, "%s: connect timed out after %g s", t->desc, allowed);
		return rs_err_set(err, "%s: cannot connect: %s", t->desc, strerror(e));
	}
	snprintf(port, sizeof port, "%u", t->port);
	rc = getaddrinfo(t->host, port, &hints, &res);
	if (rc != 0)
		return rs_err_set(err, "%s: cannot connect: %s", t->desc,
				  rc == EAI_SYSTEM ? strerror(errno) : gai_strerror(rc));
	/* Each address in turn (::1 then 127.0.0.1 for localhost), as
	 * hiredis does. */
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		int one = 1;

		if ((fd = conn_socket(ai->ai_family)) < 0) {
			e = errno;
			continue;
		}
		rc = conn_connect_fd(t, fd, ai->ai_addr, ai->ai_addrlen, deadline, err);
		if (rc == 0) {
			/* A pipeline batch goes out at once, not after an ACK. */
			(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
			freeaddrinfo(res);
			return fd;
		}
		e = errno;
		close(fd);
		fd = -1;
		if (rc == -2) {
			freeaddrinfo(res);
			return -1;
		}
		if (rc == 1) {
			timed_out = 1;
			break;
		}
	}
	freeaddrinfo(res);
	if (timed_out)
		return rs_err_set(err, "%s: connect timed out after %g s", t->desc, allowed);
	return rs_err_set(err, "%s: cannot connect: %s", t->desc, strerror(e ? e : ECONNREFUSED));
}

int conn_open(const struct target *t, struct conn **out, struct rs_err *err)
{
	return conn_open_until(t, 0, out, err);
}

int conn_open_until(const struct target *t, double until, struct conn **out, struct rs_err *err)
{
	return conn_open_session(t, until, NULL, out, err);
}

int conn_open_session(const struct target *t, double until, struct conn_session *s,
		      struct conn **out, struct rs_err *err)
{
	double now = conn_now(), deadline = now + t->connect_timeout, allowed = t->connect_timeout;
	struct conn *c;
	int fd;

	*out = NULL;
	/* What the messages say was allowed: --connect-timeout, or what the
	 * caller's deadline left of it (in tenths: "0.4 s"). */
	if (until > 0 && until < deadline) {
		deadline = until;
		allowed = floor((deadline - now) * 10 + 0.5) / 10;
	}
	if ((fd = conn_dial(t, deadline, allowed, err)) < 0)
		return -1;
	c = xcalloc(1, sizeof *c);
	c->fd = fd;
	c->ops = &conn_plain_ops;
	if (t->tls.on && conn_tls_start(c, t, deadline, allowed, s, err) < 0) {
		conn_close(c);
		return -1;
	}
	*out = c;
	return 0;
}

/* ---- the plain transport ---- */

static ssize_t conn_plain_read(struct conn *c, void *buf, size_t len, struct rs_err *err)
{
	ssize_t n;
	int e;

	do
		n = read(c->fd, buf, len);
	while (n < 0 && errno == EINTR);
	if (n >= 0)
		return n;
	if (errno == EAGAIN || errno == EWOULDBLOCK)
		return CONN_WANT_READ;
	e = errno;
	rs_err_set(err, "read failed: %s", strerror(e));
	errno = e;                /* callers tell a reset from other errors */
	return CONN_ERROR;
}

static ssize_t conn_plain_write(struct conn *c, const void *buf, size_t len, struct rs_err *err)
{
	ssize_t n;
	int e;

	do
		n = platform_send_nowait(c->fd, buf, len);
	while (n < 0 && errno == EINTR);
	if (n >= 0)
		return n;
	if (errno == EAGAIN || errno == EWOULDBLOCK)
		return CONN_WANT_WRITE;
	e = errno;
	rs_err_set(err, "write failed: %s", strerror(e));
	errno = e;                /* callers tell a reset from other errors */
	return CONN_ERROR;
}

static size_t conn_plain_pending(const struct conn *c)
{
	(void)c;
	return 0;
}

static const struct conn_ops conn_plain_ops = {
	conn_plain_read, conn_plain_write, conn_plain_pending, NULL, 0,
};

/* ---- through the transport ---- */

ssize_t conn_read(struct conn *c, void *buf, size_t len, struct rs_err *err)
{
	return c->ops->read(c, buf, len, err);
}

ssize_t conn_write(struct conn *c, const void *buf, size_t len, struct rs_err *err)
{
	return c->ops->write(c, buf, len, err);
}

size_t conn_pending(const struct conn *c)
{
	return c->ops->pending(c);
}

int conn_fd(const struct conn *c)
{
	return c->fd;
}

int conn_is_tls(const struct conn *c)
{
	return c->ops->tls;
}

void conn_close(struct conn *c)
{
	if (c == NULL)
		return;
	if (c->ops->free != NULL)
		c->ops->free(c);
	if (c->fd >= 0)
		close(c->fd);
	free(c);
}
