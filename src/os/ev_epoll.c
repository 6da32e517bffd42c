/* ev_epoll.c: the event loop on Linux's epoll (ev.h). */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "os/ev.h"
#include "base/xalloc.h"

#if !RS_EV_EPOLL_LAYOUT
#error "ev_epoll.c is built with ev.h's plain layout: define RS_EV_EPOLL_LAYOUT to 1"
#endif
/* ev.h copies epoll's layout and bits without its header: hold it to them. */
_Static_assert(sizeof(struct ev_event) == sizeof(struct epoll_event), "struct epoll_event's size");
_Static_assert(offsetof(struct ev_event, events) == offsetof(struct epoll_event, events) &&
	       offsetof(struct ev_event, data) == offsetof(struct epoll_event, data),
	       "struct epoll_event's layout");
_Static_assert(EV_EPOLL_READ_BITS == (EPOLLIN | EPOLLERR | EPOLLHUP) &&
	       EV_EPOLL_WRITE_BITS == EPOLLOUT, "epoll's event bits");

struct ev_loop {
	int ep;
};

const char *ev_backend(void)
{
	return "epoll";
}

int ev_new(struct ev_loop **out, struct rs_err *err)
{
	struct ev_loop *l = xmalloc(sizeof *l);

	*out = NULL;
	l->ep = epoll_create1(EPOLL_CLOEXEC);
	if (l->ep < 0) {
		int e = errno;

		free(l);
		return rs_err_set(err, "epoll_create1: %s", strerror(e));
	}
	*out = l;
	return 0;
}

void ev_free(struct ev_loop *l)
{
	if (l == NULL)
		return;
	close(l->ep);
	free(l);
}

static int ev_ctl(struct ev_loop *l, int op, int fd, unsigned what, void *data,
		  struct rs_err *err)
{
	struct epoll_event ev = {
		.events = (what & EV_READ ? EPOLLIN : 0u) | (what & EV_WRITE ? EPOLLOUT : 0u),
		.data.ptr = data,
	};

	if (epoll_ctl(l->ep, op, fd, &ev) < 0)
		return rs_err_set(err, "epoll_ctl: %s", strerror(errno));
	return 0;
}

int ev_add(struct ev_loop *l, int fd, unsigned what, void *data, struct rs_err *err)
{
	return ev_ctl(l, EPOLL_CTL_ADD, fd, what, data, err);
}

int ev_mod(struct ev_loop *l, int fd, unsigned what, void *data, struct rs_err *err)
{
	return ev_ctl(l, EPOLL_CTL_MOD, fd, what, data, err);
}

int ev_del(struct ev_loop *l, int fd, struct rs_err *err)
{
	return ev_ctl(l, EPOLL_CTL_DEL, fd, 0, NULL, err);
}

int ev_wait(struct ev_loop *l, struct ev_event *evs, int max, int timeout_ms,
	    struct rs_err *err)
{
	/* The kernel writes the caller's array itself: nothing to translate. */
	int n = epoll_wait(l->ep, (struct epoll_event *)(void *)evs, max, timeout_ms);

	if (n < 0) {
		if (errno == EINTR)
			return 0;
		return rs_err_set(err, "epoll_wait: %s", strerror(errno));
	}
	return n;
}

int ev_wait_ns(struct ev_loop *l, struct ev_event *evs, int max, uint64_t timeout_ns,
	       struct rs_err *err)
{
	/* epoll_pwait2 came with Linux 5.11: an older kernel says ENOSYS
	 * once, and every wait after that counts in milliseconds. */
	static int no_pwait2;
	struct timespec ts = { (time_t)(timeout_ns / 1000000000u),
			       (long)(timeout_ns % 1000000000u) };
	uint64_t ms;
	int n;

	if (!__atomic_load_n(&no_pwait2, __ATOMIC_RELAXED)) {
		n = epoll_pwait2(l->ep, (struct epoll_event *)(void *)evs, max, &ts, NULL);
		if (n >= 0)
			return n;
		if (errno == EINTR)
			return 0;
		if (errno != ENOSYS)
			return rs_err_set(err, "epoll_pwait2: %s", strerror(errno));
		__atomic_store_n(&no_pwait2, 1, __ATOMIC_RELAXED);
	}
	/* Rounded up: late rather than early. */
	ms = (timeout_ns + 999999u) / 1000000u;
	return ev_wait(l, evs, max, ms > INT_MAX ? INT_MAX : (int)ms, err);
}
