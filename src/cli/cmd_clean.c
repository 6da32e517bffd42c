/* cmd_clean.c: `rsweep clean --key-prefix PREFIX`: remove the keys a run
 * with --key-prefix left behind (a kill -9 gives it no end to delete
 * them), and nothing else: only keys that start with the prefix and have
 * the names rsweep's tests write there (guard_names_catalogue), found with
 * SCAN MATCH and removed with UNLINK, on the server or on every master of
 * a cluster.  A prefix that holds any other key was never (only) a run's:
 * refused, nothing removed, unless --force-flush says every key under it
 * may go.  --dry-run lists what would go and removes nothing. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/cluster.h"
#include "cli/cmd.h"
#include "cli/cmd_targets.h"
#include "sweep/guard.h"
#include "base/log.h"
#include "net/target.h"
#include "workload/workload.h"
#include "base/xalloc.h"

/* What a walk over the prefix found on one server. */
struct clean_scan {
	struct guard_names *names;
	int list;                 /* --dry-run: print each key that would go */
	int force;                /* --force-flush: every key would go */
	uint64_t mine, other;     /* keys with rsweep's names, and the others */
	char first_other[80];
};

/* A key as one line of text: control characters as '?'. */
static void clean_print(const char *key, size_t len)
{
	for (size_t i = 0; i < len; i++)
		putchar((unsigned char)key[i] < 0x20 || key[i] == 0x7f ? '?' : key[i]);
	putchar('\n');
}

static int clean_count(void *ud, const char *key, size_t len, struct rs_err *err)
{
	struct clean_scan *c = ud;
	int mine = guard_name_ok(c->names, key, len);

	(void)err;
	if (mine) {
		c->mine++;
	} else if (c->other++ == 0) {
		snprintf(c->first_other, sizeof c->first_other, "%.*s", (int)(len < 64 ? len : 64), key);
		for (char *p = c->first_other; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				*p = '?';
	}
	if (c->list && (mine || c->force))
		clean_print(key, len);
	return 0;
}

/* For target_unlink_prefix: a key with one of rsweep's names. */
static int clean_mine(void *ud, const char *key, size_t len)
{
	return guard_name_ok(ud, key, len);
}

/* The servers to clean: t itself, or with --cluster every master of the
 * cluster t is a node of (read into topo, which the targets point into:
 * cluster_topo_free it after them).  A malloc'd array into *out, its count
 * into *n. */
static int clean_servers(const struct rs_config *cfg, const struct target *t,
			 struct cluster_topo *topo, struct target **out, size_t *n,
			 struct rs_err *err)
{
	struct target_conn *c;
	int rc;

	*out = NULL;
	*n = 0;
	if (!cfg->cluster) {
		*out = xcalloc(1, sizeof **out);
		**out = *t;
		*n = 1;
		return 0;
	}
	if (target_connect(t, &c, err) < 0)
		return -1;
	rc = cluster_read(c, t, topo, err);
	target_close(c);
	if (rc < 0)
		return -1;
	*out = xcalloc(topo->n ? topo->n : 1, sizeof **out);
	for (size_t i = 0; i < topo->n; i++)
		cluster_master_target(topo, i, t, &(*out)[i]);
	*n = topo->n;
	return 0;
}

/* prefix's keys on t: counted into sc (remove 0), or removed, their count
 * into *removed (remove 1: rsweep's names, every key with sc->force). */
static int clean_one(const struct target *t, const char *prefix, struct clean_scan *sc,
		     int remove, size_t per, uint64_t *removed, struct rs_err *err)
{
	struct target_conn *c;
	int rc;

	if (target_connect(t, &c, err) < 0)
		return -1;
	if (!remove)
		rc = target_scan_prefix_each(c, t, prefix, clean_count, sc, err) < 0 ? -1 : 0;
	else
		rc = target_unlink_prefix(c, t, prefix, sc->force ? NULL : clean_mine,
					  sc->names, per, removed, err);
	target_close(c);
	return rc < 0 ? rs_err_prefix(err, "%s", t->desc) : 0;
}

static int clean_run(const struct rs_config *cfg, const struct target *t, struct rs_err *err)
{
	const char *prefix = cfg->key_prefix;
	struct guard_names names;
	struct clean_scan sc = { &names, cfg->dry_run, cfg->force_flush, 0, 0, "" };
	struct cluster_topo topo = { 0 };
	struct target *srv;
	uint64_t removed = 0;
	size_t n;
	int rc;

	if (clean_servers(cfg, t, &topo, &srv, &n, err) < 0) {
		cluster_topo_free(&topo);
		return -1;
	}
	guard_names_init(&names, cfg->cluster);
	guard_names_catalogue(&names, prefix);
	/* First look, everywhere: a prefix that holds another key is refused
	 * before anything is removed. */
	rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = clean_one(&srv[i], prefix, &sc, 0, 0, NULL, err);
	if (rc == 0 && cfg->dry_run) {
		printf("%llu key%s under '%s' would be removed\n",
		       (unsigned long long)(sc.force ? sc.mine + sc.other : sc.mine),
		       (sc.force ? sc.mine + sc.other : sc.mine) == 1 ? "" : "s", prefix);
		if (sc.other > 0 && !sc.force)
			printf("%llu key%s under '%s' %s not named as rsweep names its keys ('%s' for "
			       "one): clean refuses the prefix without --force-flush\n",
			       (unsigned long long)sc.other, sc.other == 1 ? "" : "s", prefix,
			       sc.other == 1 ? "is" : "are", sc.first_other);
	} else if (rc == 0 && sc.other > 0 && !sc.force) {
		rc = rs_err_setk(err, RS_E_REFUSED, "%llu key%s under '%s' %s not named as rsweep "
				 "names its keys ('%s' for one): not what a run left, so nothing was "
				 "removed (--dry-run lists the keys; --force-flush removes every key "
				 "under the prefix)", (unsigned long long)sc.other,
				 sc.other == 1 ? "" : "s", prefix, sc.other == 1 ? "is" : "are",
				 sc.first_other);
	} else if (rc == 0) {
		for (size_t i = 0; i < n && rc == 0; i++) {
			uint64_t k = 0;

			/* One key a command on a cluster: UNLINK's keys must share a slot. */
			rc = clean_one(&srv[i], prefix, &sc, 1, cfg->cluster ? 1 : 256, &k, err);
			removed += k;
			if (rc == 0)
				rs_log(RS_LOG_INFO, "%s: %llu key%s under '%s' removed", srv[i].desc,
				       (unsigned long long)k, k == 1 ? "" : "s", prefix);
		}
		if (rc == 0)
			printf("%llu key%s under '%s' removed\n", (unsigned long long)removed,
			       removed == 1 ? "" : "s", prefix);
	}
	guard_names_free(&names);
	free(srv);
	cluster_topo_free(&topo);
	return rc;
}

int cmd_clean(struct rs_config *cfg, struct rs_err *err)
{
	struct cmd_targets ts = { 0 };
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
	rc = clean_run(cfg, &ts.v[0].t, err);
	cmd_targets_free(&ts);
	return rc;
}
