/* kqueue.c: kqueue(2) and kevent(2) emulated over poll(2), level-triggered
 * read and write filters only, for running src/os/ev_kqueue.c on Linux.
 * What it keeps of kqueue's documented behaviour: EV_ADD on a filter
 * already there changes it, and enables it unless EV_DISABLE is given;
 * EV_ENABLE, EV_DISABLE and EV_DELETE on a missing one fail with ENOENT;
 * a hang-up sets EV_EOF; a timeout of NULL waits for ever. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

#include "sys/event.h"

#define KQ_MAX_QUEUES 16
#define KQ_MAX_FILTERS 1024

struct kq_filter {
	int fd;
	short filter;
	int enabled;
	void *udata;
};

static struct kq_queue {
	int used;
	int kq;
	struct kq_filter f[KQ_MAX_FILTERS];
	unsigned n;
	unsigned next;            /* a reported event goes to the back, as in kqueue */
} kq_queues[KQ_MAX_QUEUES];

static struct kq_queue *kq_find(int kq)
{
	for (unsigned i = 0; i < KQ_MAX_QUEUES; i++)
		if (kq_queues[i].used && kq_queues[i].kq == kq)
			return &kq_queues[i];
	return NULL;
}

int kqueue(void)
{
	/* A real descriptor, so that close() and fcntl() work on it; close()
	 * does not reach this table, so a number that comes back again is a
	 * new queue in its old slot. */
	int fd = open("/dev/null", O_RDONLY);
	struct kq_queue *q;

	if (fd < 0)
		return -1;
	q = kq_find(fd);
	for (unsigned i = 0; i < KQ_MAX_QUEUES && q == NULL; i++)
		if (!kq_queues[i].used)
			q = &kq_queues[i];
	if (q == NULL) {
		close(fd);
		errno = EMFILE;
		return -1;
	}
	q->used = 1;
	q->kq = fd;
	q->n = q->next = 0;
	return fd;
}

static int kq_change(struct kq_queue *q, const struct kevent *k)
{
	unsigned i;

	if (k->filter != EVFILT_READ && k->filter != EVFILT_WRITE)
		return EINVAL;
	for (i = 0; i < q->n; i++)
		if (q->f[i].fd == (int)k->ident && q->f[i].filter == k->filter)
			break;
	if (k->flags & EV_ADD) {
		if (fcntl((int)k->ident, F_GETFD) < 0)
			return EBADF;
		if (i == q->n) {
			if (q->n == KQ_MAX_FILTERS)
				return ENOMEM;
			q->n++;
		}
		q->f[i] = (struct kq_filter){ (int)k->ident, k->filter, !(k->flags & EV_DISABLE),
					      k->udata };
		return 0;
	}
	if (i == q->n)
		return ENOENT;
	if (k->flags & EV_DELETE) {
		q->f[i] = q->f[--q->n];
		return 0;
	}
	if (k->flags & (EV_ENABLE | EV_DISABLE))
		q->f[i].enabled = !(k->flags & EV_DISABLE);
	q->f[i].udata = k->udata;
	return 0;
}

int kevent(int kq, const struct kevent *changelist, int nchanges, struct kevent *eventlist,
	   int nevents, const struct timespec *timeout)
{
	struct kq_queue *q = kq_find(kq);
	struct pollfd pfd[KQ_MAX_FILTERS];
	unsigned map[KQ_MAX_FILTERS], np = 0;
	int n, got = 0;

	if (q == NULL) {
		errno = EBADF;
		return -1;
	}
	for (int i = 0; i < nchanges; i++) {
		int e = kq_change(q, &changelist[i]);

		if (e != 0) {
			errno = e;
			return -1;
		}
	}
	if (nevents <= 0)
		return 0;
	for (unsigned i = 0; i < q->n; i++)
		if (q->f[i].enabled) {
			pfd[np] = (struct pollfd){ .fd = q->f[i].fd,
				.events = q->f[i].filter == EVFILT_READ ? POLLIN : POLLOUT };
			map[np++] = i;
		}
	n = poll(pfd, np, timeout == NULL ? -1 :
		 (int)(timeout->tv_sec * 1000 + timeout->tv_nsec / 1000000));
	if (n < 0)
		return -1;
	for (unsigned j = 0; j < np && got < nevents; j++) {
		unsigned i = (q->next + j) % np;
		const struct kq_filter *f = &q->f[map[i]];
		short r = pfd[i].revents;

		if (r == 0)
			continue;
		q->next = i + 1;
		EV_SET(&eventlist[got], (uintptr_t)f->fd, f->filter,
		       r & (POLLHUP | POLLERR) ? EV_EOF : 0, 0, 0, f->udata);
		got++;
	}
	return got;
}
