/* conn_wait.c: waiting on a socket within a deadline, a stop seen every
 * 100 ms: for the connect (conn.c) and the TLS handshake (conn_tls.c). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <string.h>
#include <time.h>

#include "net/conn_int.h"

#define CONN_SLICE_MS 100

double conn_clock(void)
{
	return conn_now();
}

double conn_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int conn_wait(const struct target *t, int fd, short events, double deadline,
	      struct rs_err *err)
{
	struct pollfd p = { .fd = fd, .events = events };

	for (;;) {
		double left = deadline - conn_now();
		int n;

		if (t->stop != NULL && *t->stop)
			return rs_err_setk(err, RS_E_INTERRUPTED, "%s: interrupted while connecting",
					   t->desc);
		if (left <= 0)
			return 0;
		n = poll(&p, 1, left * 1000 < CONN_SLICE_MS ? (int)ceil(left * 1000) :
							       CONN_SLICE_MS);
		if (n > 0)
			return 1;
		if (n < 0 && errno != EINTR)
			return rs_err_set(err, "%s: poll: %s", t->desc, strerror(errno));
	}
}
