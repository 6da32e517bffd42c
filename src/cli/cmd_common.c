/* cmd_common.c: what run and agent share of the command layer: the TLS
 * options and their files, and the control Redis with the agents' key
 * (cmd.h).  Neither command calls the other. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "agents/agentkey.h"
#include "cli/cmd.h"
#include "base/infile.h"
#include "net/target.h"
#include "net/target_build.h"
#include "net/targets.h"

int cmd_tls_files_check(const struct rs_config *cfg, struct rs_err *err)
{
	struct stat st;

	if ((cfg->cacert != NULL && infile_check("--cacert", cfg->cacert, err) < 0) ||
	    (cfg->cert != NULL && infile_check("--cert", cfg->cert, err) < 0) ||
	    (cfg->key != NULL && infile_check("--key", cfg->key, err) < 0))
		return -1;
	if (cfg->cacertdir == NULL)
		return 0;
	if (stat(cfg->cacertdir, &st) < 0)
		return rs_err_setk(err, RS_E_INPUT, "--cacertdir %s: %s", cfg->cacertdir,
				   strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return rs_err_setk(err, RS_E_INPUT, "--cacertdir %s: not a directory",
				   cfg->cacertdir);
	return 0;
}

void cmd_tls_settings(const struct rs_config *cfg, struct target_tls *tls)
{
	tls->insecure = cfg->insecure;
	tls->sni = cfg->sni;
	tls->cacert = cfg->cacert;
	tls->cacertdir = cfg->cacertdir;
	tls->cert = cfg->cert;
	tls->key = cfg->key;
	tls->ciphers = cfg->tls_ciphers;
	tls->ciphersuites = cfg->tls_ciphersuites;
}

int cmd_agents_key(const struct rs_config *cfg, struct agentkey *key, struct rs_err *err)
{
	if (cfg->agents_key == NULL)
		return rs_err_setk(err, RS_E_USAGE, "--agents-key FILE is needed with --control: "
				   "the key the leader and its agents sign their messages with "
				   "(make one: head -c 32 /dev/urandom | base64 > FILE; chmod 600 "
				   "FILE)");
	return agentkey_load(cfg->agents_key, key, err);
}

int cmd_agent_control(const struct rs_config *cfg, struct targets_def *d, struct target *t,
		      struct rs_err *err)
{
	char spec[TARGETS_URI_MAX + 16];
	struct target_tls tls = { 0 };
	const struct target_settings s = {
		.tls = &tls, .connect_timeout = cfg->connect_timeout,
		.timeout = cfg->timeout > 0 ? cfg->timeout : TARGET_DEFAULT_TIMEOUT,
	};

	memset(t, 0, sizeof *t);
	if (cfg->control == NULL)
		return rs_err_setk(err, RS_E_USAGE, "--control URI is needed");
	if (strncmp(cfg->control, "redis://", 8) != 0 && strncmp(cfg->control, "rediss://", 9) != 0 &&
	    strncmp(cfg->control, "unix://", 7) != 0)
		/* Only the scheme is quoted, as for --target: the rest may hold
		 * a password. */
		return rs_err_setk(err, RS_E_USAGE, "--control '%.*s...' is not redis://, rediss:// "
				   "or unix://", (int)strcspn(cfg->control, ":/@"), cfg->control);
	snprintf(spec, sizeof spec, "control=%s", cfg->control);
	if (targets_parse_one(spec, d, err) < 0)
		return rs_err_as(err, RS_E_USAGE);
	/* The control Redis takes its password from its URI only. */
	cmd_tls_settings(cfg, &tls);
	return target_build(d, &s, NULL, t, err);
}
