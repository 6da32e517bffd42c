/* cmd_agent.c: "rsweep agent": options -> the control Redis -> agent_run. */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "agents/agent.h"
#include "agents/agentkey.h"
#include "agents/agentmsg.h"
#include "cli/cmd.h"
#include "net/targets.h"
#include "base/xalloc.h"

static volatile sig_atomic_t cmd_agent_stop;

static void cmd_agent_on_signal(int sig)
{
	(void)sig;
	cmd_agent_stop = 1;
}

int cmd_agent(struct rs_config *cfg, struct rs_err *err)
{
	struct targets_def d = { 0 };
	struct target ctl;
	struct agentkey *key;
	struct agent_config ac = { 0 };
	struct sigaction sa;
	int rc;

	if (cfg->nargs > 0)
		return rs_err_setk(err, RS_E_USAGE, "unexpected operand '%s'", cfg->args[0]);
	if (cfg->id == NULL)
		return rs_err_setk(err, RS_E_USAGE, "--id NAME is needed");
	if (!agentmsg_id_ok(cfg->id, strlen(cfg->id)))
		return rs_err_setk(err, RS_E_USAGE, "--id '%.80s': 1 to 64 of A-Z a-z 0-9 . _ -",
				   cfg->id);
	if (cfg->allow_target.n == 0)
		return rs_err_setk(err, RS_E_USAGE, "--allow-target URI is needed: the targets this "
				   "agent may load and send its password to");
	for (size_t i = 0; i < cfg->allow_target.n; i++) {
		const char *u = cfg->allow_target.v[i];

		if (strpbrk(u, "*?[") == NULL && agentmsg_target_ok(u, NULL, err) < 0)
			return rs_err_prefix(err, "--allow-target"), rs_err_as(err, RS_E_USAGE);
	}
	if (cmd_tls_files_check(cfg, err) < 0)
		return -1;
	key = xcalloc(1, sizeof *key);
	if (cmd_agent_control(cfg, &d, &ctl, err) < 0 || cmd_agents_key(cfg, key, err) < 0) {
		targets_def_free(&d);
		agentkey_clear(key);
		free(key);
		return -1;
	}
	ac.control = &ctl;
	ac.key = key;
	ac.id = cfg->id;
	ac.connect_timeout = cfg->connect_timeout;
	cmd_tls_settings(cfg, &ac.tls);
	ac.password = targets_env_password();
	ac.stop = &cmd_agent_stop;
	ac.allow = cfg->allow_target.v;
	ac.nallow = cfg->allow_target.n;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = cmd_agent_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	rc = agent_run(&ac, err);
	targets_def_free(&d);
	agentkey_clear(key);
	free(key);
	return rc;
}
