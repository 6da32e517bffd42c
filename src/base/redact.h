/* redact.h: the password out of a server's address as a results file or
 * a peer's output gives it, so that no output of rsweep carries one: the
 * input pipeline's rows (inputs.h) and the importers' (import_memtier.c)
 * go through it.  A string function only: no I/O, no allocation. */
#ifndef RS_REDACT_H
#define RS_REDACT_H

/* Take the password out of a target in place: in "SCHEME://USER:PASS@HOST"
 * the ":PASS" goes, and a userinfo without ':' (redis-cli reads
 * "SCHEME://PASS@HOST" as a password, and cannot be told from a user)
 * goes whole, '@' and all.  Anything without "://" and '@' after it is
 * left alone.  Returns 1 when something was taken out, else 0. */
int redact_target(char *target);

/* Take the password out of a server's arguments in place ("--requirepass
 * X", "masterauth=X", as --spawn-args or a command line gives them): the
 * word after each of those names becomes '*'s of its length.  Returns 1
 * when something was taken out, else 0. */
int redact_args(char *s);

#endif
