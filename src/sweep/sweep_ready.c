/* sweep_ready.c: a point's servers made ready before it is timed, each
 * through its guard (guard.h): flushed, or under --key-prefix its keys
 * deleted, then the test's data prepared, a part at a time so that ^C
 * stops it, or restored from the snapshot of its first preparation; and
 * sweep_check, what the plan's deepest point would need, before any runs. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/sweep.h"
#include "sweep/sweep_int.h"
#include "base/xalloc.h"

/* Elements prepared per second of --duration or --warmup for the pop tests:
 * above what this kind of client reaches, so a timed run does not drain the
 * list; misses in the CSV show it if it ever does. */
#define SWEEP_POP_RATE 2000000.0

/* Requests a point may send, timed or warming up: what pop tests prepare. */
static uint64_t sweep_prepare_count(const struct sweep_config *cfg)
{
	uint64_t count = cfg->duration > 0 ? (uint64_t)ceil(cfg->duration * SWEEP_POP_RATE) :
					     cfg->requests;

	return count + (uint64_t)ceil(cfg->warmup * SWEEP_POP_RATE);
}

/* Batch buffers: P copies of a request, one per connection with random keys. */
#define SWEEP_MAX_BATCH_BYTES ((uint64_t)1 << 30)

int sweep_check(const struct sweep_config *cfg, const struct workload *w,
		const struct depth_list *depths, struct rs_err *err)
{
	unsigned deepest = 0;

	for (size_t d = 0; d < depths->n; d++)
		if (depths->v[d] > deepest)
			deepest = depths->v[d];
	for (size_t i = 0; i < w->n; i++) {
		const struct workload_test *t = &w->v[i];
		/* A mix's batches differ per connection: len is its longest member's. */
		uint64_t copies = (uint64_t)deepest *
				  ((cfg->keyspace && t->nrand) || t->nmembers || cfg->vmax ?
				   cfg->clients : 1);

		if (cfg->prepare && workload_prepare_check(t, sweep_prepare_count(cfg), cfg->keyspace,
							   cfg->data_size, err) < 0)
			return -1;
		if (copies * t->len > SWEEP_MAX_BATCH_BYTES)
			return rs_err_set(err, "%s at P=%u needs %llu bytes of request buffers (more than "
					  "1 GiB): use a smaller -d, -P or -c", t->name, deepest,
					  (unsigned long long)(copies * t->len));
	}
	return 0;
}

/* The server would not DUMP or RESTORE (why in err): said once a server
 * (-v: once a test), since every point then prepares with commands. */
static void sweep_snap_off(const struct sweep_config *cfg, struct sweep_server *srv,
			   const struct workload_test *t, const struct rs_err *err)
{
	if (!srv->snap_said)
		sweep_note(cfg, "%s; the data of the one-key tests (lists, sets) is prepared with "
			   "commands before every point (longer between points; the timed window is "
			   "the same)", err->msg);
	else
		sweep_debug(cfg, "%s: %s; preparing with commands every time", t->name, err->msg);
	srv->snap_said = 1;
}

/* The one key test t's preparation fills on srv, into buf (size bytes):
 * on a cluster's master with its hash tag, as sweep_cluster_prepare routed
 * it there (the bare name's slot is another master's, which answers
 * MOVED).  NULL when it fills none or many. */
static const char *sweep_snap_key(const struct sweep_server *srv, const struct workload_test *t,
				  char *buf, size_t size)
{
	const char *key = workload_prepare_key(t);

	if (key == NULL)
		return NULL;
	snprintf(buf, size, "%s%s", key, srv->tag);
	return buf;
}

/* Bring back test t's data from its snapshot: 0 done, 1 to prepare
 * instead, -1 the connection failed. */
static int sweep_restore(const struct sweep_config *cfg, struct sweep_server *srv,
			 const struct workload_test *t, struct sweep_snap *snap, struct rs_err *err)
{
	char key[WORKLOAD_PREFIX_MAX + 64];
	int rc;

	if (snap->payload == NULL || sweep_snap_key(srv, t, key, sizeof key) == NULL)
		return 1;
	rc = target_restore(srv->g.c, &srv->t, key, snap->payload, snap->len, err);
	if (rc == 1) {
		/* A server of another version (a restart under --retries), or
		 * RESTORE forbidden: build the data with commands again. */
		sweep_snap_off(cfg, srv, t, err);
		free(snap->payload);
		snap->payload = NULL;
		snap->off = 1;
	} else if (rc == 0) {
		sweep_debug(cfg, "%s: restored (%zu bytes)", t->name, snap->len);
	}
	return rc;
}

/* Keep what was just prepared for test t as a snapshot, if it is one key
 * and the server lets us.  Only a lost connection is an error. */
static int sweep_snapshot(const struct sweep_config *cfg, struct sweep_server *srv,
			  const struct workload_test *t, struct sweep_snap *snap, struct rs_err *err)
{
	char key[WORKLOAD_PREFIX_MAX + 64];
	int rc;

	if (snap->off || snap->payload != NULL || sweep_snap_key(srv, t, key, sizeof key) == NULL)
		return 0;
	rc = target_dump(srv->g.c, &srv->t, key, &snap->payload, &snap->len, err);
	if (rc == 1) {
		sweep_snap_off(cfg, srv, t, err);
		snap->off = 1;
		return 0;
	}
	return rc;
}

/* ---- the servers: guard, flush, prepare, counters ---- */

uint64_t sweep_sent(const struct sweep_config *cfg)
{
	return cfg->duration > 0 || cfg->warmup > 0 ? UINT64_MAX : cfg->requests;
}

/* bound and the tagged keys the masters of a cluster may hold beside the
 * test's own: one a master, one a member of a mix. */
static uint64_t sweep_add_tagged(const struct sweep *s, const struct workload_test *t,
				 uint64_t bound)
{
	uint64_t tagged = (uint64_t)s->nsrv * (t->nmembers > 0 ? t->nmembers : 1);

	return bound > UINT64_MAX - tagged ? UINT64_MAX : bound + tagged;
}

/* sweep_prepare_cmds' arguments besides the test, for a mix's members. */
struct sweep_part_args {
	const struct sweep *s;
	const struct sweep_server *srv;
	uint64_t from, upto;
};

/* A mix's member's part on a cluster (workload_part_fn): as
 * sweep_prepare_cmds. */
static int sweep_prepare_member(void *ctx, const struct workload_test *m, char **buf,
				size_t *len, size_t *ncmds, struct rs_err *err);

/* The part from..upto-1 of test t's preparation for server srv
 * (workload_prepare_part) into *buf (len bytes, ncmds commands): a
 * cluster's routed to its master, a mix's member by member there, since
 * each member's key is its own (random, or tagged for the master).  0, or
 * -1 (err). */
static int sweep_prepare_cmds(const struct sweep *s, const struct sweep_server *srv,
			      const struct workload_test *t, uint64_t from, uint64_t upto,
			      char **buf, size_t *len, size_t *ncmds, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	struct sweep_part_args a = { s, srv, from, upto };

	*buf = NULL;
	*len = *ncmds = 0;
	if (s->topo == NULL || t->nmembers == 0) {
		if (workload_prepare_part(t, sweep_prepare_count(cfg), cfg->keyspace,
					  cfg->vmax > 0 ? cfg->vmin : cfg->data_size, cfg->data_size,
					  from, upto, buf, len, ncmds, err) < 0)
			return -1;
		return s->topo != NULL ? sweep_cluster_prepare(s, srv, t, buf, len, ncmds, err) : 0;
	}
	return workload_prepare_members(t, sweep_prepare_member, &a, buf, len, ncmds, err);
}

static int sweep_prepare_member(void *ctx, const struct workload_test *m, char **buf,
				size_t *len, size_t *ncmds, struct rs_err *err)
{
	const struct sweep_part_args *a = ctx;

	return sweep_prepare_cmds(a->s, a->srv, m, a->from, a->upto, buf, len, ncmds, err);
}

/* Prepare test t on server srv, a part at a time (built, sent, its
 * replies read), so that the memory is one part's whatever -r is, and ^C
 * stops it between parts as well as inside one.  GUARD_OK, GUARD_FINAL
 * (it cannot be built) or GUARD_RETRY (sending failed, or a stop). */
static enum guard_step sweep_prepare(struct sweep *s, struct sweep_server *srv,
				     const struct workload_test *t, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	uint64_t total = workload_prepare_elements(t, sweep_prepare_count(cfg), cfg->keyspace);
	size_t sent = 0, bytes = 0;
	int rc = 0;

	for (uint64_t from = 0; from < total; from += WORKLOAD_PREP_PART) {
		char *buf = NULL;
		size_t len, ncmds;

		if (cfg->stop != NULL && *cfg->stop) {
			rs_err_set(err, "%s: preparation interrupted", t->name);
			rc = -1;
			break;
		}
		if (sweep_prepare_cmds(s, srv, t, from, from + WORKLOAD_PREP_PART, &buf, &len, &ncmds,
				       err) < 0)
			return GUARD_FINAL;
		rc = target_pipeline(srv->g.c, &srv->t, buf, len, ncmds, err);
		free(buf);
		if (rc < 0)
			break;
		sent += ncmds;
		bytes += len;
	}
	if (rc < 0) {
		if (cfg->stop != NULL && *cfg->stop)
			sweep_debug(cfg, "%s: preparation stopped (^C) after %zu commands", t->name,
				    sent);
		return GUARD_RETRY;
	}
	if (sent > 0)
		sweep_debug(cfg, "%s: prepared with %zu commands (%zu bytes)", t->name, sent, bytes);
	return GUARD_OK;
}

/* Flush and prepare server srv for test t. */
static enum guard_step sweep_ready(struct sweep *s, struct sweep_server *srv,
				   const struct workload_test *t, struct sweep_snap *snap,
				   struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	uint64_t bound = workload_key_bound(t, sweep_sent(cfg), cfg->keyspace, cfg->prepare);
	enum guard_step step;
	int rc;

	if (cfg->flush != GUARD_FLUSH_NONE && (step = guard_flush(&srv->g, err)) != GUARD_OK)
		return step;
	/* A master of a cluster may end up with any of the test's random keys
	 * (a reshard migrates them), and with every master's tagged key of a
	 * single-key test (of each member of a mix): at most bound + n (n
	 * times the members), however they are spread. */
	if (s->topo != NULL)
		bound = sweep_add_tagged(s, t, bound);
	/* From here on the server may hold this test's keys. */
	guard_written(&srv->g, t, bound);
	if (!cfg->prepare)
		return GUARD_OK;
	/* Snapshots only onto an emptied server, where nothing is in the way. */
	if (cfg->flush != GUARD_FLUSH_NONE && (rc = sweep_restore(cfg, srv, t, snap, err)) <= 0)
		return rc == 0 ? GUARD_OK : GUARD_RETRY;
	if ((step = sweep_prepare(s, srv, t, err)) != GUARD_OK)
		return step;
	if (cfg->flush != GUARD_FLUSH_NONE && sweep_snapshot(cfg, srv, t, snap, err) < 0)
		return GUARD_RETRY;
	return GUARD_OK;
}

/* Flush and prepare every server for test t, each through its own guard. */
enum guard_step sweep_ready_all(struct sweep *s, const struct workload_test *t,
				struct rs_err *err)
{
	size_t ti = (size_t)(t - s->w->v);
	uint64_t bound = workload_key_bound(t, sweep_sent(s->cfg), s->cfg->keyspace,
					    s->cfg->prepare);
	uint64_t left = 0;
	enum guard_step step = s->topo != NULL ? sweep_cluster_keys(s, err) : GUARD_OK;

	for (size_t i = 0; i < s->nsrv && step == GUARD_OK; i++) {
		step = sweep_ready(s, &s->srv[i], t, &s->srv[i].snaps[ti], err);
		left = left > UINT64_MAX - s->srv[i].g.left ? UINT64_MAX : left + s->srv[i].g.left;
	}
	if (step != GUARD_OK || s->topo == NULL)
		return step;
	/* The test's keys, once, and each master's tagged keys. */
	bound = sweep_add_tagged(s, t, bound);
	s->cl_allow = left > UINT64_MAX - bound ? UINT64_MAX : left + bound;
	return GUARD_OK;
}
