/* target_build.h: the one place a server's definition becomes a struct
 * target that can be connected: run's targets (--target, -h/-p/-s,
 * --spawn), the control Redis of run and agent, an agent's target, and
 * clean's server all come through target_build.
 *
 * The definition says where the server is (targets.h: a URI's socket, or
 * host, port and TLS; a spawned kind, whose running server spawn.h gives),
 * and what it names of database, user and password; the settings say the
 * rest, the same for every target of one command: the defaults where the
 * definition names nothing (--dbnum, --user, -a, REDISCLI_AUTH), the TLS
 * settings (--cacert ...), the timeouts and the stop flag. */
#ifndef RS_TARGET_BUILD_H
#define RS_TARGET_BUILD_H

#include <signal.h>

#include "base/err.h"
#include "net/spawn.h"
#include "net/target_addr.h"
#include "net/targets.h"

struct target_settings {
	const char *user;         /* where the definition names none (--user); NULL: none */
	/* Where the definition names none: password (-a; "" means none, as
	 * targets_password says), or, when it is NULL and env_password is
	 * set, REDISCLI_AUTH's (targets_env_password). */
	const char *password;
	int env_password;
	unsigned dbnum;           /* where the definition names none (--dbnum) */
	/* TLS settings beyond on and off, for a TLS server that is not
	 * spawned (its on is ignored); NULL: verified against the system's CAs. */
	const struct target_tls *tls;
	double connect_timeout;   /* seconds */
	double timeout;           /* seconds a command may take */
	volatile sig_atomic_t *stop; /* NULL: never */
};

/* t, from nothing, for the server d defines, with s's settings.  For a
 * spawned kind sp is its running server (spawn_start): the address is
 * its socket or 127.0.0.1 port, no password (rsweep's own server has
 * none), and over TLS verified against its own certificate only; for any
 * other kind sp is NULL.  Where d names a database, user or password it
 * wins over s's.  t's strings point into d, s and sp, which must outlive
 * it; t->desc is written (target_describe), t->row_desc left "".
 * Returns 0, or -1 with err (RS_E_INPUT) for a spawned kind without its
 * server or a server given to a kind that is not spawned. */
int target_build(const struct targets_def *d, const struct target_settings *s,
		 const struct spawn *sp, struct target *t, struct rs_err *err);

/* The definition of an address (-h, -p, -s, --tls: the one server of the
 * options), for target_build: a UNIX socket when socket is not NULL, else
 * host and port, plain or TLS; no label, URI, database, user or password.
 * d owns copies of socket and host (targets_def_free). */
void target_build_addr(struct targets_def *d, const char *socket, const char *host,
		       unsigned port, int tls);

/* The definition of --spawn's server (the one of the options): the
 * spawned kind of its transport, owning nothing (targets_def_free is
 * harmless). */
void target_build_spawned(struct targets_def *d, enum spawn_transport transport);

#endif
