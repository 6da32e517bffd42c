/* ev.h: one small event loop over file descriptors, with a back-end per
 * system (configure's --with-event-loop): ev_epoll.c on Linux, ev_kqueue.c
 * on macOS and the BSDs, ev_poll.c on any POSIX system.
 *
 * A loop watches descriptors for reading and writing; each carries a
 * pointer the caller gets back with its events.  A loop belongs to one
 * thread.  Hang-ups and errors on a descriptor are reported as EV_READ, so
 * that the caller's read() sees the end or the error itself. */
#ifndef RS_EV_H
#define RS_EV_H

#include <stdint.h>

#include "base/err.h"

#define EV_READ 1u
#define EV_WRITE 2u

struct ev_loop;

/* Which layout struct ev_event has: epoll's own, when the epoll back-end
 * is linked (config.h says so; a test linking another back-end sets
 * RS_EV_EPOLL_LAYOUT itself), so that a wait hands the kernel's events
 * over as they are, with nothing copied; else a plain one. */
#ifndef RS_EV_EPOLL_LAYOUT
#ifdef RS_EV_CONFIGURED_EPOLL
#define RS_EV_EPOLL_LAYOUT 1
#else
#define RS_EV_EPOLL_LAYOUT 0
#endif
#endif

#if RS_EV_EPOLL_LAYOUT
/* struct epoll_event as Linux defines it, packed on x86-64 as glibc
 * declares it; ev_epoll.c checks it against <sys/epoll.h>, which a shared
 * room may not include. */
#ifdef __x86_64__
#define EV_EPOLL_PACKED __attribute__((__packed__))
#else
#define EV_EPOLL_PACKED
#endif
#define EV_EPOLL_READ_BITS 0x019u    /* EPOLLIN | EPOLLERR | EPOLLHUP */
#define EV_EPOLL_WRITE_BITS 0x004u   /* EPOLLOUT */
struct ev_event {
	uint32_t events;
	union {
		void *ptr;        /* as given to ev_add */
		int fd;
		uint32_t u32;
		uint64_t u64;
	} data;
} EV_EPOLL_PACKED;

static inline void *ev_data(const struct ev_event *e)
{
	return e->data.ptr;
}

static inline int ev_readable(const struct ev_event *e)
{
	return (e->events & EV_EPOLL_READ_BITS) != 0;
}

static inline int ev_writable(const struct ev_event *e)
{
	return (e->events & EV_EPOLL_WRITE_BITS) != 0;
}
#else
struct ev_event {
	void *data;               /* as given to ev_add */
	unsigned what;            /* EV_READ and/or EV_WRITE */
};

static inline void *ev_data(const struct ev_event *e)
{
	return e->data;
}

static inline int ev_readable(const struct ev_event *e)
{
	return (e->what & EV_READ) != 0;
}

static inline int ev_writable(const struct ev_event *e)
{
	return (e->what & EV_WRITE) != 0;
}
#endif
/* ev_data: the pointer given to ev_add; ev_readable: there is something
 * to read, or the end, or an error; ev_writable: there is room to write. */

/* The back-end's name: "epoll", "kqueue" or "poll". */
const char *ev_backend(void);

/* A new loop in *out.  Returns 0, or -1 with err set (the system refused
 * a descriptor or memory for it); *out is then NULL. */
int ev_new(struct ev_loop **out, struct rs_err *err);
/* Let go of l (NULL is fine); the descriptors it watched stay open. */
void ev_free(struct ev_loop *l);

/* Watch fd for what (EV_READ, EV_WRITE, or both), handing back data with
 * its events.  fd must not be watched already.  Returns 0, or -1 with err
 * set naming the system call that refused. */
int ev_add(struct ev_loop *l, int fd, unsigned what, void *data, struct rs_err *err);
/* Change what a watched fd is watched for.  Returns 0, or -1 with err set. */
int ev_mod(struct ev_loop *l, int fd, unsigned what, void *data, struct rs_err *err);
/* Stop watching fd; call it before close(fd).  Returns 0, or -1 with err
 * set (fd was not watched, or the system refused). */
int ev_del(struct ev_loop *l, int fd, struct rs_err *err);

/* Wait up to timeout_ms (-1: for ever) for events, and put at most max of
 * them in evs (read them with ev_data, ev_readable and ev_writable).  Returns how many (0 on timeout or an interrupting signal),
 * or -1 with err set. */
int ev_wait(struct ev_loop *l, struct ev_event *evs, int max, int timeout_ms,
	    struct rs_err *err);
/* ev_wait with a timeout in nanoseconds, for a caller with a schedule to
 * keep (the engine's open loop): a millisecond timeout would wake it up
 * to 1 ms late.  It never wakes early; how late it may wake depends on the
 * back-end (poll's counts in milliseconds).  Returns as ev_wait. */
int ev_wait_ns(struct ev_loop *l, struct ev_event *evs, int max, uint64_t timeout_ns,
	       struct rs_err *err);

#endif
