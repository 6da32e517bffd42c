/* ev_kqueue.c: the event loop on kqueue, for macOS, FreeBSD, OpenBSD and
 * NetBSD (ev.h).  Written to the documented kqueue(2) interface only;
 * this project's CI compiles it against tests/shim/sys/event.h but has no
 * such system to run it on.
 *
 * kqueue watches reading and writing as two filters: both are added with
 * the descriptor, each enabled or disabled as asked, so that ev_mod never
 * meets a filter that is not there. */
#include "config.h"

#include <sys/types.h>
#include <sys/event.h>
#include <sys/time.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "os/ev.h"
#include "base/xalloc.h"

#if RS_EV_EPOLL_LAYOUT
#error "this back-end fills ev.h's plain layout: define RS_EV_EPOLL_LAYOUT to 0"
#endif

#define EV_KQ_BATCH 256

/* NetBSD before 10 declares udata an intptr_t; the others a void *. */
#if defined(__NetBSD__) && defined(__NetBSD_Version__) && __NetBSD_Version__ < 999001700
#define EV_KQ_UDATA(p) ((intptr_t)(p))
#define EV_KQ_PTR(u) ((void *)(u))
#else
#define EV_KQ_UDATA(p) (p)
#define EV_KQ_PTR(u) (u)
#endif

struct ev_loop {
	int kq;
	struct kevent evs[EV_KQ_BATCH];
};

const char *ev_backend(void)
{
	return "kqueue";
}

int ev_new(struct ev_loop **out, struct rs_err *err)
{
	struct ev_loop *l = xmalloc(sizeof *l);

	*out = NULL;
	l->kq = kqueue();
	if (l->kq < 0) {
		int e = errno;

		free(l);
		return rs_err_set(err, "kqueue: %s", strerror(e));
	}
	/* kqueue descriptors are not inherited by fork() anyway, but a
	 * spawned server must not see one even where they would be. */
	(void)fcntl(l->kq, F_SETFD, FD_CLOEXEC);
	*out = l;
	return 0;
}

void ev_free(struct ev_loop *l)
{
	if (l == NULL)
		return;
	close(l->kq);
	free(l);
}

static void ev_kq_set(struct kevent *k, int fd, short filter, unsigned short flags, void *data)
{
	EV_SET(k, (uintptr_t)fd, filter, flags, 0, 0, 0);
	k->udata = EV_KQ_UDATA(data);
}

/* Apply n changes at once.  Returns 0, or -1 with err set. */
static int ev_kq_change(struct ev_loop *l, const struct kevent *ch, int n, struct rs_err *err)
{
	if (kevent(l->kq, ch, n, NULL, 0, NULL) < 0)
		return rs_err_set(err, "kevent: %s", strerror(errno));
	return 0;
}

int ev_add(struct ev_loop *l, int fd, unsigned what, void *data, struct rs_err *err)
{
	struct kevent ch[2];

	ev_kq_set(&ch[0], fd, EVFILT_READ, EV_ADD | (what & EV_READ ? EV_ENABLE : EV_DISABLE), data);
	ev_kq_set(&ch[1], fd, EVFILT_WRITE, EV_ADD | (what & EV_WRITE ? EV_ENABLE : EV_DISABLE), data);
	return ev_kq_change(l, ch, 2, err);
}

int ev_mod(struct ev_loop *l, int fd, unsigned what, void *data, struct rs_err *err)
{
	struct kevent ch[2];

	ev_kq_set(&ch[0], fd, EVFILT_READ, what & EV_READ ? EV_ENABLE : EV_DISABLE, data);
	ev_kq_set(&ch[1], fd, EVFILT_WRITE, what & EV_WRITE ? EV_ENABLE : EV_DISABLE, data);
	return ev_kq_change(l, ch, 2, err);
}

int ev_del(struct ev_loop *l, int fd, struct rs_err *err)
{
	struct kevent ch[2];

	ev_kq_set(&ch[0], fd, EVFILT_READ, EV_DELETE, NULL);
	ev_kq_set(&ch[1], fd, EVFILT_WRITE, EV_DELETE, NULL);
	return ev_kq_change(l, ch, 2, err);
}

/* One wait up to *ts (NULL: for ever): kevent takes a timespec, so a
 * nanosecond timeout costs nothing more than a millisecond one. */
static int ev_kq_wait(struct ev_loop *l, struct ev_event *evs, int max,
		      const struct timespec *ts, struct rs_err *err)
{
	int n = kevent(l->kq, NULL, 0, l->evs, max < EV_KQ_BATCH ? max : EV_KQ_BATCH, ts);

	if (n < 0) {
		if (errno == EINTR)
			return 0;
		return rs_err_set(err, "kevent: %s", strerror(errno));
	}
	for (int i = 0; i < n; i++) {
		const struct kevent *k = &l->evs[i];

		evs[i].data = EV_KQ_PTR(k->udata);
		/* EV_EOF and EV_ERROR come as a read: read() then tells which. */
		evs[i].what = k->filter == EVFILT_WRITE && !(k->flags & (EV_EOF | EV_ERROR)) ?
			      EV_WRITE : EV_READ;
	}
	return n;
}

int ev_wait(struct ev_loop *l, struct ev_event *evs, int max, int timeout_ms,
	    struct rs_err *err)
{
	struct timespec ts = { timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L };

	return ev_kq_wait(l, evs, max, timeout_ms < 0 ? NULL : &ts, err);
}

int ev_wait_ns(struct ev_loop *l, struct ev_event *evs, int max, uint64_t timeout_ns,
	       struct rs_err *err)
{
	struct timespec ts = { (time_t)(timeout_ns / 1000000000u),
			       (long)(timeout_ns % 1000000000u) };

	return ev_kq_wait(l, evs, max, &ts, err);
}
