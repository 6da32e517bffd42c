/* test_engine_epoll.c: the engine fails a run, with a message, when the
 * kernel refuses to change what epoll watches on a connection.
 *
 * The failure cannot be provoked from outside, so this program defines
 * epoll_ctl itself (the executable's definition wins over libc's for the
 * engine linked into it) and refuses EPOLL_CTL_MOD; the real call goes
 * through syscall(2).  The peer answers the connection's SELECT and then
 * reads nothing, so a large request fills the socket buffer and the
 * engine must ask for EPOLLOUT. */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "engine/engine.h"
#include "net/target.h"

static int refuse_mod;

int epoll_ctl(int ep, int op, int fd, struct epoll_event *ev)
{
	if (op == EPOLL_CTL_MOD && refuse_mod) {
		errno = ENOMEM;
		return -1;
	}
	return (int)syscall(SYS_epoll_ctl, ep, op, fd, ev);
}

static int peer_fd = -1;

/* Accept one connection, answer its SELECT, then read no more. */
static void *peer(void *arg)
{
	char buf[256];

	peer_fd = accept(*(int *)arg, NULL, NULL);
	if (peer_fd < 0 || read(peer_fd, buf, sizeof buf) <= 0 || write(peer_fd, "+OK\r\n", 5) != 5)
		abort();
	return NULL;
}

Test(engine_epoll, a_refused_epoll_mod_fails_the_run)
{
	char dir[] = "/tmp/rsweep-epoll-XXXXXX", path[sizeof dir + 8];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct target t = { .connect_timeout = 5, .timeout = 5 };
	size_t len = 4u << 20;    /* far more than a UNIX socket buffers */
	char *cmd = malloc(len);
	struct engine_job job = {
		.cmd = cmd, .len = len, .depth = 1, .requests = 1,
		/* Without the check the run ends here, as a silent server. */
		.timeout = 3.0, .max_reply = 1024,
	};
	struct engine_result res;
	struct rs_err err = { 0 };
	struct engine *e;
	pthread_t tid;
	int lfd, rc;

	cr_assert_not_null(cmd);
	memset(cmd, ' ', len);
	signal(SIGPIPE, SIG_IGN);
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/s.sock", dir);
	snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
	lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	cr_assert_geq(lfd, 0);
	cr_assert_eq(bind(lfd, (struct sockaddr *)&sa, sizeof sa), 0, "bind: %s", strerror(errno));
	cr_assert_eq(listen(lfd, 4), 0);
	t.socket = path;
	target_describe(&t);
	alarm(30);
	cr_assert_eq(pthread_create(&tid, NULL, peer, &lfd), 0);
	cr_assert_eq(engine_new(&t, 1, 1, &e, &err), 0, "%s", err.msg);
	refuse_mod = 1;
	rc = engine_run(e, &job, &res, &err);
	refuse_mod = 0;
	alarm(0);
	engine_free(e);
	pthread_join(tid, NULL);
	close(peer_fd);
	close(lfd);
	unlink(path);
	rmdir(dir);
	free(cmd);
	cr_assert_eq(rc, -1);
	cr_assert(strstr(err.msg, "epoll_ctl: ") != NULL, "the message names the call: %s", err.msg);
	cr_assert(strchr(err.msg, '\n') == NULL);
}
