/* spawn_args.h: which server settings --spawn-args may give a server that
 * rsweep starts (spawn.h), decided by what a setting can do.
 *
 * A spawned server is private: it listens on loopback or on a socket in a
 * directory of mode 0700, keeps its files there, has no password, loads
 * nothing but itself and lives as rsweep's child.  A setting that could
 * change one of these is refused by its class, whatever its spelling:
 *
 *   listen   where it listens or what it connects to (port, bind,
 *            unixsocket, tls-port, replicaof, cluster-announce-*)
 *   file     a file or directory it reads or writes (dir, logfile,
 *            dbfilename, appendfilename, pidfile, cluster-config-file,
 *            tls-*-file, syslog-*)
 *   code     code or config it loads, or the commands that load it at run
 *            time (loadmodule, include, enable-*-command, a lone "-" that
 *            reads config from standard input)
 *   secret   a password, a user or who may connect (requirepass,
 *            masterauth, user, aclfile, tls-auth-clients)
 *   process  how the process lives (daemonize, supervised, sentinel)
 *
 * A name is classed by a table of the names Redis 7, Valkey 8 and KeyDB
 * know, and else by its words (split at '-'): a word port, bind, socket,
 * addr or announce is listen; a word dir or one ending in file, filename,
 * dirname or path is file; module, include or a first word enable is
 * code; a word ending in pass, password, auth or secret, or a last word
 * ending in user, is secret.  So the next new name for the same thing is
 * refused too.  Whatever the name, a value that names a path (it holds a
 * '/', or is "." or "..", or starts with '~') is refused as class file:
 * a setting rsweep does not know may still write where it is told.
 *
 * Every '|' alternative of a word is checked apart, as the server will
 * get it (cmd_targets.h splits them later).  Parses strings only. */
#ifndef RS_SPAWN_ARGS_H
#define RS_SPAWN_ARGS_H

#include <stddef.h>

#include "base/err.h"

/* The most words one server's --spawn-args may have (spawn.c's command
 * line has room for them beside its own). */
#define SPAWN_ARGS_MAX 32

enum spawn_args_class {
	SPAWN_ARGS_FREE = 0,      /* a setting --spawn-args may give */
	SPAWN_ARGS_LISTEN,
	SPAWN_ARGS_FILE,
	SPAWN_ARGS_CODE,
	SPAWN_ARGS_SECRET,
	SPAWN_ARGS_PROCESS,
};

/* The class of setting name (len bytes, without its "--", any case). */
enum spawn_args_class spawn_args_class(const char *name, size_t len);
/* The class's one word ("listen", "file", ...; "free" for none). */
const char *spawn_args_class_name(enum spawn_args_class c);

/* Check the words w[0..n) of one server's --spawn-args, each '|'
 * alternative of each word apart: the first word's alternatives start
 * with "--"; a word starting with "--" names a setting ([A-Za-z0-9-],
 * then the end or a blank and its values, without quotes or
 * backslashes) of no refused class; no value names a path; no word is a
 * lone "-"; at most SPAWN_ARGS_MAX words.  Returns 0, or -1 with err of
 * kind RS_E_USAGE: "--spawn-args may not set --NAME (CLASS: why)", or
 * what else is wrong, in one line. */
int spawn_args_check(char *const *w, size_t n, struct rs_err *err);

#endif
