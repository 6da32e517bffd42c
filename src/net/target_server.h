/* target_server.h: which server answers, as it names itself, from the text
 * of INFO server.
 *
 * Every Redis-compatible server publishes redis_version, but for most it is
 * a compatibility claim, not the server's version (Valkey 8 says 7.2.4,
 * Dragonfly 7.4.0, Kvrocks 4.0.0): a row that kept only it would label a
 * Redis-against-Valkey comparison as two Redis versions.  This room reads
 * the fields each server publishes under its own name; it takes text and
 * never touches a socket. */
#ifndef RS_TARGET_SERVER_H
#define RS_TARGET_SERVER_H

#include <stddef.h>

#define TARGET_SERVER_STR 32

struct target_server {
	/* As the server names itself: "redis", "valkey", "keydb",
	 * "dragonfly", "garnet", "kvrocks", or another server's server_name
	 * as it is; "" when the text says nothing rsweep can read. */
	char name[TARGET_SERVER_STR];
	/* The version under that name ("7.0.15", "8.0.1", "df-v1.23.0"), as
	 * published; "" when unknown. */
	char version[TARGET_SERVER_STR];
};

/* Read s from info, the text of INFO server (or of INFO, or of any reply
 * holding its Server section); never fails.  The rules, first that
 * applies (target_server.c cites each server's source):
 *   server_name:N      N, version from N_version, else redis_version
 *                      (Valkey, Garnet)
 *   dragonfly_version  "dragonfly" and that field
 *   kvrocks_version    "kvrocks" and that field
 *   features:          "keydb": KeyDB alone publishes this field in its
 *                      Server section, and its redis_version is its own
 *   redis_version      "redis" and that field
 * Values longer than the fields are cut. */
void target_server_parse(const char *info, struct target_server *s);

/* "valkey 8.0.1" into buf (size bytes, NUL included): the name and the
 * version, whichever are known; "" when neither is.  Returns buf. */
const char *target_server_desc(const char *name, const char *version, char *buf, size_t size);

#endif
