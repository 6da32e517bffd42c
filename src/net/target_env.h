/* target_env.h: how a server was configured when a run measured it, for
 * the run's environment (runenv.h): its name and version, io-threads,
 * appendonly and appendfsync, save, maxmemory and its policy, and its
 * process id, read from INFO and, where the server allows it, CONFIG GET.
 *
 * A server that refuses CONFIG (a managed service, a renamed command, an
 * ACL) still gives what INFO publishes (appendonly, maxmemory and its
 * policy); what neither gives is "" (unknown).  Nothing here reads a
 * password: CONFIG GET asks for the fields below by name only. */
#ifndef RS_TARGET_ENV_H
#define RS_TARGET_ENV_H

#include <stddef.h>

#include "base/err.h"
#include "net/target.h"
#include "net/target_server.h"

struct target_env {
	struct target_server server; /* "valkey", "8.0.1" */
	char io_threads[16];
	char appendonly[8];       /* "yes", "no" */
	char appendfsync[16];     /* "everysec", "always", "no" */
	char save[128];           /* "3600 1 300 100", "off" for none */
	char maxmemory[32];       /* bytes, "0" for no limit */
	char maxmemory_policy[32];
	long process_id;          /* INFO's process_id; 0 unknown */
	int config_refused;       /* CONFIG GET was refused: its fields are INFO's or unknown */
};

/* The names CONFIG GET asks for, in target_env_set_config's order. */
extern const char *const target_env_config_names[];

/* The fields INFO's text (every section, or server, persistence and
 * memory) gives into e, which it clears first.  Never fails. */
void target_env_parse_info(const char *info, struct target_env *e);
/* One CONFIG GET answer, name (one of target_env_config_names) = value,
 * into e: "save" with an empty value is "off".  Unknown names are
 * ignored. */
void target_env_set_config(struct target_env *e, const char *name, const char *value);

/* Read e from the server c reaches: INFO, then CONFIG GET of each name
 * (a refusal, any error reply, sets config_refused and stops asking).
 * Returns 0, or -1 with err when the connection fails (an INFO the server
 * refuses is a failure too). */
int target_env_read(struct target_conn *c, const struct target *t, struct target_env *e,
		    struct rs_err *err);

#endif
