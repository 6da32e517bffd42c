/* spawn.h: start, and always stop, a private redis-server.
 *
 * The server runs with persistence off, in a private temporary directory
 * (mode 0700), on a UNIX socket there or on a free 127.0.0.1 port, and never
 * outlives rsweep: it is stopped by spawn_stop() and, should rsweep die
 * without calling it, by PR_SET_PDEATHSIG. */
#ifndef RS_SPAWN_H
#define RS_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

#include "err.h"

struct spawn {
	pid_t pid;
	char dir[64];             /* the private directory */
	char socket[128];         /* dir/redis.sock, or "" for TCP */
	unsigned port;            /* TCP port, or 0 */
	char version[32];
};

/* Start path (NULL: "redis-server" from PATH); wait until it answers PING
 * (up to timeout seconds).  tcp: listen on 127.0.0.1 only.  extra is a
 * NULL-terminated list of further "--name value" arguments, or NULL. */
int spawn_start(struct spawn *s, const char *path, int tcp, const char *const *extra,
		double timeout, struct rs_err *err);
/* Before starting anything: find path (NULL: "redis-server" on PATH),
 * its absolute name into abs, and run "path --version" (5 s at most) for
 * its version into version.  Returns 0, or -1 with err of kind RS_E_INPUT
 * when there is no such program or it is not redis-server (its output's
 * first line, or how it ended). */
int spawn_probe(const char *path, char *abs, size_t abs_size, char *version, size_t version_size,
		struct rs_err *err);
/* Stop the server (SIGTERM, then SIGKILL after 2 s) and remove its files.
 * Safe to call twice, or on a spawn that never started. */
void spawn_stop(struct spawn *s);

#endif
