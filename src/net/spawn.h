/* spawn.h: start, and always stop, a private redis-server (or valkey-server,
 * keydb-server: a server that answers --version as redis-server does).
 *
 * The server runs with persistence off, in a private temporary directory
 * (mode 0700), on a UNIX socket there or on a free 127.0.0.1 port (plain or
 * TLS), and never outlives rsweep: it is stopped by spawn_stop() and,
 * should rsweep die without calling it, by PR_SET_PDEATHSIG. */
#ifndef RS_SPAWN_H
#define RS_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

#include "base/err.h"

/* How the server is reached.  Zero is the UNIX socket, one plain TCP, so
 * that a flag "tcp" reads as one. */
enum spawn_transport {
	SPAWN_UNIX = 0,           /* dir/redis.sock, and no TCP port at all */
	SPAWN_TCP = 1,            /* a free 127.0.0.1 port */
	SPAWN_TLS = 2,            /* TLS only, on a free 127.0.0.1 port, with a
				   * throwaway certificate (tlscert.h) */
};

struct spawn {
	pid_t pid;
	enum spawn_transport transport;
	char dir[64];             /* the private directory */
	char socket[128];         /* dir/redis.sock, or "" for TCP */
	unsigned port;            /* TCP or TLS port, or 0 */
	char cafile[256];         /* TLS: dir/cert.pem, the one CA a client is to
				   * trust (the server's own certificate); else "" */
	char keyfile[256];        /* TLS: dir/key.pem, its key; else "" */
	char version[32];
};

/* The seconds a server rsweep starts (spawn:, --spawn) has to answer
 * before the run fails: spawn_start's timeout for every caller in src/.
 * Generous, since a loaded machine or a sanitizer build starts it slowly. */
#define SPAWN_START_WAIT 10

/* Start path (NULL: "redis-server" from PATH); wait until it answers, as
 * itself, on its transport (up to timeout seconds): over TLS that means a
 * handshake verified against s->cafile for 127.0.0.1.  TCP and TLS listen
 * on 127.0.0.1 only.  extra is a NULL-terminated list of further
 * "--name value" arguments, or NULL.  Returns 0, or -1 with err set and
 * nothing left running or on disk. */
int spawn_start(struct spawn *s, const char *path, enum spawn_transport transport,
		const char *const *extra, double timeout, struct rs_err *err);
struct cpus;
/* spawn_start, with the server restricted to the CPUs in cpus (NULL: it
 * keeps rsweep's), set in the child before it runs the server: a server
 * that cannot be placed so exits at start, and err says why. */
int spawn_start_on(struct spawn *s, const char *path, enum spawn_transport transport,
		   const char *const *extra, const struct cpus *cpus, double timeout,
		   struct rs_err *err);
/* Before starting anything: find path (NULL: "redis-server" on PATH),
 * its absolute name into abs, and run "path --version" (5 s at most):
 * what it says it is into version (spawn_version_parse).  Returns 0, or
 * -1 with err of kind RS_E_INPUT when there is no such program or it does
 * not answer as redis-server does (err quotes its output's first line, or
 * says how it ended). */
int spawn_probe(const char *path, char *abs, size_t abs_size, char *version, size_t version_size,
		struct rs_err *err);
/* Whether out, a program's --version output, is redis-server's or a
 * fork's that keeps its line: "[NAME ]server v=VERSION ..." ("Redis
 * server v=7.0.15 sha=...", "Valkey server v=8.0.1 ...", "KeyDB server
 * v=6.3.4 ...", Valkey 7.2's "Server v=7.2.5 ...").  Returns 0 with the
 * line up to the version into what ("Valkey server v=8.0.1", cut to
 * size), or -1. */
int spawn_version_parse(const char *out, char *what, size_t size);
/* Stop the server (SIGTERM, then SIGKILL after 2 s) and remove its files
 * (the certificate and key of a TLS one too).
 * Safe to call twice, or on a spawn that never started. */
void spawn_stop(struct spawn *s);

#endif
