/* ev_poll.c: the event loop on poll(2), for any POSIX system (ev.h).
 *
 * The watched descriptors are a dense array of pollfd, as poll() wants
 * them, with an index from descriptor to slot so that ev_mod and ev_del
 * need no search.  Each wait scans every slot: fine for the tens of
 * connections a thread holds, and why epoll and kqueue come first. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "os/ev.h"
#include "base/xalloc.h"

#if RS_EV_EPOLL_LAYOUT
#error "this back-end fills ev.h's plain layout: define RS_EV_EPOLL_LAYOUT to 0"
#endif

struct ev_loop {
	struct pollfd *pfd;       /* the watched descriptors, slots 0..n */
	void **data;              /* data[k] goes with pfd[k] */
	unsigned n, cap;
	int *slot;                /* slot[fd]: fd's slot, or -1 */
	unsigned nslot;
	unsigned next;            /* where the next wait starts reporting */
};

const char *ev_backend(void)
{
	return "poll";
}

int ev_new(struct ev_loop **out, struct rs_err *err)
{
	(void)err;
	*out = xcalloc(1, sizeof **out);
	return 0;
}

void ev_free(struct ev_loop *l)
{
	if (l == NULL)
		return;
	free(l->pfd);
	free(l->data);
	free(l->slot);
	free(l);
}

static short ev_poll_events(unsigned what)
{
	return (short)((what & EV_READ ? POLLIN : 0) | (what & EV_WRITE ? POLLOUT : 0));
}

/* fd's slot, or -1 when fd is not watched. */
static int ev_poll_slot(const struct ev_loop *l, int fd)
{
	return fd >= 0 && (unsigned)fd < l->nslot ? l->slot[fd] : -1;
}

int ev_add(struct ev_loop *l, int fd, unsigned what, void *data, struct rs_err *err)
{
	if (fd < 0)
		return rs_err_set(err, "poll: %s", strerror(EBADF));
	if (ev_poll_slot(l, fd) >= 0)
		return rs_err_set(err, "poll: %s", strerror(EEXIST));
	if ((unsigned)fd >= l->nslot) {
		unsigned ns = l->nslot ? l->nslot : 64;

		while (ns <= (unsigned)fd)
			ns *= 2;
		l->slot = xrealloc(l->slot, ns * sizeof *l->slot);
		for (unsigned i = l->nslot; i < ns; i++)
			l->slot[i] = -1;
		l->nslot = ns;
	}
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->pfd = xrealloc(l->pfd, l->cap * sizeof *l->pfd);
		l->data = xrealloc(l->data, l->cap * sizeof *l->data);
	}
	l->pfd[l->n] = (struct pollfd){ .fd = fd, .events = ev_poll_events(what) };
	l->data[l->n] = data;
	l->slot[fd] = (int)l->n++;
	return 0;
}

int ev_mod(struct ev_loop *l, int fd, unsigned what, void *data, struct rs_err *err)
{
	int k = ev_poll_slot(l, fd);

	if (k < 0)
		return rs_err_set(err, "poll: %s", strerror(ENOENT));
	l->pfd[k].events = ev_poll_events(what);
	l->data[k] = data;
	return 0;
}

int ev_del(struct ev_loop *l, int fd, struct rs_err *err)
{
	int k = ev_poll_slot(l, fd);

	if (k < 0)
		return rs_err_set(err, "poll: %s", strerror(ENOENT));
	/* The last slot moves into the hole: the array stays dense. */
	l->n--;
	if ((unsigned)k != l->n) {
		l->pfd[k] = l->pfd[l->n];
		l->data[k] = l->data[l->n];
		l->slot[l->pfd[k].fd] = k;
	}
	l->slot[fd] = -1;
	return 0;
}

int ev_wait(struct ev_loop *l, struct ev_event *evs, int max, int timeout_ms,
	    struct rs_err *err)
{
	int n = poll(l->pfd, (nfds_t)l->n, timeout_ms), got = 0;
	unsigned start;

	if (n < 0) {
		if (errno == EINTR)
			return 0;
		return rs_err_set(err, "poll: %s", strerror(errno));
	}
	/* Start each report where the last one stopped: with more ready than
	 * max, the slots at the end must get their turn too. */
	start = l->next < l->n ? l->next : 0;
	for (unsigned i = 0; i < l->n && got < n && got < max; i++) {
		unsigned k = (start + i) % l->n;
		short r = l->pfd[k].revents;

		if (r == 0)
			continue;
		/* A descriptor closed while watched (POLLNVAL) is the caller's
		 * error: reading it says so. */
		evs[got].data = l->data[k];
		evs[got].what = (r & (POLLIN | POLLHUP | POLLERR | POLLNVAL) ? EV_READ : 0u) |
				(r & POLLOUT ? EV_WRITE : 0u);
		got++;
		l->next = k + 1;
	}
	return got;
}

int ev_wait_ns(struct ev_loop *l, struct ev_event *evs, int max, uint64_t timeout_ns,
	       struct rs_err *err)
{
	/* poll counts in milliseconds (ppoll's timespec is not POSIX), so
	 * the timeout is rounded up, late rather than early: on this
	 * back-end the engine's open loop sends each request up to 1 ms
	 * late, and the lateness counts in its latency. */
	uint64_t ms = (timeout_ns + 999999u) / 1000000u;

	return ev_wait(l, evs, max, ms > INT_MAX ? INT_MAX : (int)ms, err);
}
