/* cmd_clean.c: `rsweep clean --key-prefix PREFIX`: remove the keys a run
 * with --key-prefix left behind (a kill -9 gives it no end to delete
 * them), and nothing else: only keys that start with the prefix, found
 * with SCAN MATCH and removed with UNLINK, on the server or on every
 * master of a cluster. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cluster.h"
#include "cmd.h"
#include "cmd_targets.h"
#include "log.h"
#include "target.h"
#include "workload.h"

/* Remove prefix's keys from t's server; count them into *removed. */
static int cmd_clean_one(const struct target *t, const char *prefix, size_t per,
			 uint64_t *removed, struct rs_err *err)
{
	struct target_conn *c;
	int rc;

	if (target_connect(t, &c, err) < 0)
		return -1;
	rc = target_unlink_prefix(c, t, prefix, NULL, NULL, per, removed, err);
	target_close(c);
	if (rc < 0)
		return rs_err_prefix(err, "%s", t->desc);
	rs_log(RS_LOG_INFO, "%s: %llu key%s under '%s' removed", t->desc,
	       (unsigned long long)*removed, *removed == 1 ? "" : "s", prefix);
	return 0;
}

/* --cluster: every master of the cluster t is a node of, one key a
 * command (UNLINK's keys must share a slot). */
static int cmd_clean_cluster(const struct target *t, const char *prefix, uint64_t *removed,
			     struct rs_err *err)
{
	struct cluster_topo topo;
	struct target_conn *c;
	int rc;

	*removed = 0;
	if (target_connect(t, &c, err) < 0)
		return -1;
	rc = cluster_read(c, t, &topo, err);
	target_close(c);
	for (size_t i = 0; rc == 0 && i < topo.n; i++) {
		struct target m;
		uint64_t n = 0;

		cluster_master_target(&topo, i, t, &m);
		rc = cmd_clean_one(&m, prefix, 1, &n, err);
		*removed += n;
	}
	cluster_topo_free(&topo);
	return rc;
}

int cmd_clean(struct rs_config *cfg, struct rs_err *err)
{
	struct cmd_targets ts = { 0 };
	uint64_t removed = 0;
	double timeout = cfg->timeout > 0 ? cfg->timeout : TARGET_DEFAULT_TIMEOUT;
	int rc;

	if (cfg->key_prefix == NULL || strcmp(cfg->key_prefix, "auto") == 0)
		return rs_err_setk(err, RS_E_USAGE, "rsweep clean needs the --key-prefix PREFIX a "
				   "run used (an auto one was printed when it began)");
	if (cfg->nargs > 0)
		return rs_err_setk(err, RS_E_USAGE, "rsweep clean takes no operands ('%s')",
				   cfg->args[0]);
	if (workload_prefix_check(cfg->key_prefix, err) < 0) {
		rs_err_prefix(err, "--key-prefix");
		return rs_err_as(err, RS_E_USAGE);
	}
	if (cmd_targets_build(cfg, "clean", &ts, err) < 0 ||
	    cmd_targets_start(cfg, timeout, NULL, &ts.v[0], err) < 0) {
		cmd_targets_free(&ts);
		return rs_err_as(err, RS_E_USAGE);
	}
	rc = cfg->cluster ? cmd_clean_cluster(&ts.v[0].t, cfg->key_prefix, &removed, err) :
			    cmd_clean_one(&ts.v[0].t, cfg->key_prefix, 256, &removed, err);
	if (rc == 0)
		printf("%llu key%s under '%s' removed\n", (unsigned long long)removed,
		       removed == 1 ? "" : "s", cfg->key_prefix);
	cmd_targets_free(&ts);
	return rc;
}
