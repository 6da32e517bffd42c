/* fake_server.c: the fake Redis the tests share (fake_server.h). */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "fake_server.h"

/* How often a wait looks at the stop flag, ms. */
#define FAKE_TICK_MS 100
/* The largest request the scripted fake reads. */
#define FAKE_SCRIPT_BUF 65536

int fake_wait(struct fake_server *s, int fd, short events)
{
	struct pollfd p = { .fd = fd, .events = events };

	while (!atomic_load(&s->stop)) {
		int n = poll(&p, 1, FAKE_TICK_MS);

		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -1;
	}
	return -1;
}

int fake_send(struct fake_server *s, int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t w;

		if (fake_wait(s, fd, POLLOUT) < 0)
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

ssize_t fake_recv(struct fake_server *s, int fd, char *buf, size_t size, int ms)
{
	for (;;) {
		ssize_t n;

		if (ms < 0) {
			if (fake_wait(s, fd, POLLIN) < 0)
				return -1;
		} else {
			struct pollfd p = { .fd = fd, .events = POLLIN };

			if (atomic_load(&s->stop))
				return -1;
			if (poll(&p, 1, ms) <= 0)
				return 0;
		}
		n = recv(fd, buf, size, MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (ms < 0)
				continue;
			return 0;
		}
		return n > 0 ? n : -1;
	}
}

int fake_handshake(struct fake_conn *c)
{
	static const char select0[] = "*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n";
	char buf[sizeof select0];
	size_t have = 0;

	while (have < sizeof select0 - 1) {
		ssize_t n = fake_recv(c->srv, c->fd, buf + have, sizeof select0 - 1 - have, -1);

		if (n < 0)
			return -1;
		have += (size_t)n;
	}
	if (memcmp(buf, select0, sizeof select0 - 1) != 0)
		return -1;
	return fake_send(c->srv, c->fd, "+OK\r\n", 5);
}

/* "<type><digits>\r\n" at p: the number into *v.  Returns the byte after
 * it, NULL while incomplete, or p itself when it is not that. */
static const char *fake_header(const char *p, const char *end, char type, long *v)
{
	const char *nl;
	char *e;

	if (p == end)
		return NULL;
	if (*p != type)
		return p;
	nl = memchr(p, '\n', (size_t)(end - p));
	if (nl == NULL)
		return NULL;
	*v = strtol(p + 1, &e, 10);
	if (e != nl - 1 || *e != '\r' || *v < 0)
		return p;
	return nl + 1;
}

ssize_t fake_request(const char *buf, size_t have, char *verb, size_t size)
{
	const char *p = buf, *end = buf + have, *q;
	long n, len;

	if (verb != NULL)
		verb[0] = '\0';
	if ((q = fake_header(p, end, '*', &n)) == NULL)
		return 0;
	if (q == p || n < 1)
		return -1;
	p = q;
	for (long i = 0; i < n; i++) {
		if ((q = fake_header(p, end, '$', &len)) == NULL)
			return 0;
		if (q == p)
			return -1;
		if (end - q < len + 2)
			return 0;
		if (i == 0 && verb != NULL) {
			size_t k = (size_t)len < size - 1 ? (size_t)len : size - 1;

			for (size_t j = 0; j < k; j++)
				verb[j] = (char)(q[j] >= 'a' && q[j] <= 'z' ? q[j] - 32 : q[j]);
			verb[k] = '\0';
		}
		p = q + len + 2;
	}
	return p - buf;
}

void fake_serve_script(struct fake_conn *c)
{
	const char *const *replies = c->srv->ud;
	char *buf = malloc(FAKE_SCRIPT_BUF);
	size_t have = 0;

	if (buf == NULL)
		abort();
	for (size_t i = 0; replies[i] != NULL; i++) {
		ssize_t len, k;

		while ((len = fake_request(buf, have, NULL, 0)) == 0) {
			if (have == FAKE_SCRIPT_BUF ||
			    (k = fake_recv(c->srv, c->fd, buf + have, FAKE_SCRIPT_BUF - have, -1)) < 0)
				goto out;
			have += (size_t)k;
		}
		if (len < 0)
			break;
		memmove(buf, buf + len, have - (size_t)len);
		have -= (size_t)len;
		if (fake_send(c->srv, c->fd, replies[i], strlen(replies[i])) < 0)
			break;
	}
out:
	free(buf);
}

static void *fake_conn_thread(void *arg)
{
	struct fake_conn *c = arg;

	c->srv->serve(c);
	shutdown(c->fd, SHUT_RDWR);
	return NULL;
}

static void *fake_accept(void *arg)
{
	struct fake_server *s = arg;

	while (fake_wait(s, s->lfd, POLLIN) == 0) {
		int fd = accept(s->lfd, NULL, NULL);
		struct fake_conn *c;

		if (fd < 0)
			continue;
		if (s->nconns == FAKE_MAX_CONNS) {
			close(fd);
			continue;
		}
		c = &s->conns[s->nconns];
		c->srv = s;
		c->fd = fd;
		if (pthread_create(&c->tid, NULL, fake_conn_thread, c) != 0)
			abort();
		s->nconns++;
	}
	return NULL;
}

void fake_server_start(struct fake_server *s, const char *name, fake_serve_fn serve,
		       const void *ud)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	memset(s, 0, sizeof *s);
	s->lfd = -1;
	s->serve = serve;
	s->ud = ud;
	signal(SIGPIPE, SIG_IGN);
	snprintf(s->dir, sizeof s->dir, "/tmp/rsweep-%.16s-XXXXXX", name);
	cr_assert_not_null(mkdtemp(s->dir), "mkdtemp: %s", strerror(errno));
	snprintf(s->path, sizeof s->path, "%s/fake.sock", s->dir);
	snprintf(sa.sun_path, sizeof sa.sun_path, "%s", s->path);
	s->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	cr_assert_geq(s->lfd, 0, "socket: %s", strerror(errno));
	cr_assert_eq(bind(s->lfd, (struct sockaddr *)&sa, sizeof sa), 0, "bind: %s",
		     strerror(errno));
	cr_assert_eq(listen(s->lfd, 16), 0, "listen: %s", strerror(errno));
	cr_assert_eq(pthread_create(&s->tid, NULL, fake_accept, s), 0);
	s->running = 1;
}

void fake_server_stop(struct fake_server *s)
{
	/* A start that failed half way leaves what it made, and no thread. */
	if (s->dir[0] == '\0')
		return;
	atomic_store(&s->stop, 1);
	if (s->running) {
		pthread_join(s->tid, NULL);
		for (int i = 0; i < s->nconns; i++) {
			pthread_join(s->conns[i].tid, NULL);
			close(s->conns[i].fd);
		}
	}
	if (s->lfd >= 0)
		close(s->lfd);
	if (s->path[0] != '\0')
		unlink(s->path);
	rmdir(s->dir);
	memset(s, 0, sizeof *s);
}
