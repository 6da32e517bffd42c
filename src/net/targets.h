/* targets.h: the servers of one sweep, as --target LABEL=URI names them.
 *
 * A parser only: it never connects, starts or prints anything, so tests and
 * fuzzers can drive it from strings.  URIs:
 *
 *   unix:///path/to.sock                      a UNIX socket
 *   redis://[user[:password]@]host[:port][/db] TCP (redis-cli -u); port 6379
 *   rediss://[user[:password]@]host[:port][/db] the same over TLS, with the
 *                                             global TLS options (--cacert...)
 *   spawn:[PATH]                              a private server from PATH (or
 *                                             redis-server on PATH), UNIX socket
 *   spawn+tcp:[PATH]                          the same, on a free 127.0.0.1 port
 *   spawn+tls:[PATH]                          the same over TLS only, with a
 *                                             throwaway certificate (tlscert.h)
 *
 * A password is kept for AUTH and nowhere else: targets_def.uri, which
 * messages and the CSV show, never holds it. */
#ifndef RS_TARGETS_H
#define RS_TARGETS_H

#include <stddef.h>

#include "base/err.h"

enum targets_kind {
	TARGETS_UNIX, TARGETS_TCP, TARGETS_SPAWN, TARGETS_SPAWN_TCP, TARGETS_SPAWN_TLS
};

/* Whether kind is a server rsweep starts (spawn:, spawn+tcp:, spawn+tls:). */
int targets_spawned(enum targets_kind kind);

/* The longest label and URI kept (the CSV's label and target fields). */
#define TARGETS_LABEL_MAX 64
#define TARGETS_URI_MAX 128

struct targets_def {
	char label[TARGETS_LABEL_MAX];
	enum targets_kind kind;
	char *path;               /* UNIX: the socket; spawn: the binary (NULL: on PATH) */
	char *host;               /* TCP */
	unsigned port;            /* TCP */
	int has_db;               /* the URI named a database (/db) */
	unsigned dbnum;
	char *user, *password;    /* TCP, percent-decoded; NULL when absent */
	int tls;                  /* TCP: rediss:// */
	char **args;              /* spawn: extra server arguments (--spawn-args) */
	size_t nargs;
	char uri[TARGETS_URI_MAX]; /* the URI without its password, for messages */
};

struct targets {
	struct targets_def *v;
	size_t n;
};

/* Parse "LABEL=URI" into d (freed with targets_def_free, also after a
 * failure).  Returns 0, or -1 with err "target 'LABEL': reason" (or
 * quoting the start of spec when it has no label), never quoting a
 * password. */
int targets_parse_one(const char *spec, struct targets_def *d, struct rs_err *err);
/* Parse every spec into ts, then refuse a label given twice and one
 * address given twice (same socket path, or same host, port and
 * database).  Returns 0, or -1 with err naming the target. */
int targets_parse(char *const *specs, size_t n, struct targets *ts, struct rs_err *err);
/* Apply --spawn-args values: "LABEL=ARGS" for one spawned target, or ARGS
 * (starting with "--") for every spawned one.  ARGS split at blanks, with
 * '...' and "..." quoting.  Settings of a refused class (spawn_args.h:
 * listen, file, code, secret, process), in any '|' alternative, are
 * refused, as is a label that is not a spawned target.
 * Returns 0 or -1 with err naming the target and the argument. */
int targets_spawn_args(struct targets *ts, char *const *specs, size_t n, struct rs_err *err);
/* Split s into words, as targets_spawn_args does, into a NULL-terminated
 * malloc'd vector (*argv, *n words).  Returns 0, or -1 for an unclosed
 * quote. */
int targets_split(const char *s, char ***argv, size_t *n, struct rs_err *err);
/* Whether a target from a shared sweep file is acceptable there: no
 * program to run (spawn:PATH) and no password.  Returns 0 or -1 (err says
 * why). */
int targets_file_ok(const char *spec, struct rs_err *err);
/* Overwrite with '*' the password in "LABEL=SCHEME://user:password@host"
 * (any scheme: argv, so that ps and /proc/PID/cmdline no longer show it;
 * every option whose argument in the option table (opts_table.c) says URI goes through it). */
void targets_blank_password(char *spec);
void targets_def_free(struct targets_def *d);
void targets_free(struct targets *ts);

struct target;
/* Point t at the server d names: for unix://, redis:// and rediss:// its
 * socket, or host and port, and TLS on or off (the other TLS settings are
 * the caller's: the options'); for a spawned kind the address is left to
 * the caller, who knows it once the server runs (spawn.h).  The database,
 * user and password d gives replace t's; where d gives none, t keeps its
 * own (the caller's defaults: --dbnum, --user, REDISCLI_AUTH).  The one
 * place a definition becomes a struct target's address.  t's strings
 * point into d, which must outlive it; nothing is described (call
 * target_describe after). */
void targets_apply(const struct targets_def *d, struct target *t);

/* The URI of the server at t's address, as another process (an agent)
 * reaches it: "unix://SOCKET", or "redis://" ("rediss://" when t->tls.on)
 * "HOST:PORT", an IPv6 host in brackets, then "/DB" when with_db.  Never
 * a user or a password: the other process has its own.  Into buf (size
 * bytes, cut to fit).  targets_def.uri is written by the same rule, with
 * the URI's user and database as given. */
void targets_uri(const struct target *t, int with_db, char *buf, size_t size);
/* What the CSV's target column says of a server (into buf, size bytes, cut
 * to fit), stable from run to run: for a definition d, its URI, or for a
 * spawned kind its scheme, abs (the binary's absolute path) and d's
 * --spawn-args, quoted as targets_split reads them back; with d NULL, the
 * server at t's address: t->desc (target_describe first), or its
 * rediss:// URI over TLS.  " (insecure)" follows any TLS server's when
 * insecure (--insecure). */
void targets_row(const struct targets_def *d, const struct target *t, const char *abs,
		 int insecure, char *buf, size_t size);

/* A password as AUTH is to send it: pw, or NULL when pw is NULL or empty.
 * The one home of "an empty password means none", for every source: -a,
 * a URI's userinfo, REDISCLI_AUTH. */
const char *targets_password(const char *pw);
/* The password from the environment, as redis-cli takes it: REDISCLI_AUTH,
 * through targets_password (NULL: none). */
const char *targets_env_password(void);

#endif
