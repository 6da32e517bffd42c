/* sys/event.h: kqueue's interface as kqueue(2) documents it (FreeBSD,
 * macOS, OpenBSD, NetBSD 10), for building src/os/ev_kqueue.c on a system
 * without kqueue.  tests/shim/kqueue.c emulates the calls over poll(2),
 * enough for the event loop's tests; no system's real header is copied. */
#ifndef RS_SHIM_SYS_EVENT_H
#define RS_SHIM_SYS_EVENT_H

#include <stdint.h>
#include <time.h>

struct kevent {
	uintptr_t ident;          /* the descriptor */
	short filter;             /* EVFILT_* */
	unsigned short flags;     /* EV_* */
	unsigned int fflags;
	intptr_t data;
	void *udata;              /* handed back with the event */
};

#define EV_SET(kevp, a, b, c, d, e, f) do {	\
	struct kevent *ev_set_p = (kevp);	\
	ev_set_p->ident = (a);			\
	ev_set_p->filter = (b);			\
	ev_set_p->flags = (c);			\
	ev_set_p->fflags = (d);			\
	ev_set_p->data = (e);			\
	ev_set_p->udata = (f);			\
} while (0)

#define EVFILT_READ (-1)
#define EVFILT_WRITE (-2)

#define EV_ADD 0x0001
#define EV_DELETE 0x0002
#define EV_ENABLE 0x0004
#define EV_DISABLE 0x0008
#define EV_ERROR 0x4000
#define EV_EOF 0x8000

int kqueue(void);
int kevent(int kq, const struct kevent *changelist, int nchanges, struct kevent *eventlist,
	   int nevents, const struct timespec *timeout);

#endif
