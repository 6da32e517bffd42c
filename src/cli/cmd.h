/* cmd.h: the subcommands.  Each lives in its own cmd_NAME.c, takes the
 * parsed options, writes its results, and returns 0, or -1 with err set and
 * its kind saying what failed; only main (rsweep.c) prints err and turns its
 * kind into an exit code (err.h). */
#ifndef RS_CMD_H
#define RS_CMD_H

#include "base/err.h"
#include "cli/opts.h"

int cmd_run(struct rs_config *cfg, struct rs_err *err);
int cmd_plot(struct rs_config *cfg, struct rs_err *err);
int cmd_report(struct rs_config *cfg, struct rs_err *err);
int cmd_import(struct rs_config *cfg, struct rs_err *err);
int cmd_agent(struct rs_config *cfg, struct rs_err *err);
int cmd_export(struct rs_config *cfg, struct rs_err *err);
int cmd_clean(struct rs_config *cfg, struct rs_err *err);

struct targets_def;
struct target;
struct agentkey;
/* --control's URI (redis://, rediss://, unix://) into d (targets_def_free)
 * and t, with the connection options of cfg.  Returns 0 or -1
 * (RS_E_USAGE). */
int cmd_agent_control(const struct rs_config *cfg, struct targets_def *d, struct target *t,
		      struct rs_err *err);
/* --agents-key's key into key (agentkey_clear), read once, before anything
 * opens.  Returns 0 or -1 (RS_E_USAGE when it is missing, RS_E_INPUT for a
 * file that cannot serve). */
int cmd_agents_key(const struct rs_config *cfg, struct agentkey *key, struct rs_err *err);
struct target_tls;
/* The TLS options of cfg (--insecure, --sni, --cacert, ...) into tls,
 * whose on stays as it is. */
void cmd_tls_settings(const struct rs_config *cfg, struct target_tls *tls);
/* The files the TLS options name, checked before anything connects:
 * --cacert, --cert and --key regular files (a FIFO would block OpenSSL's
 * read for ever), --cacertdir a directory.  Returns 0 or -1 with err
 * (RS_E_INPUT). */
int cmd_tls_files_check(const struct rs_config *cfg, struct rs_err *err);

#endif
