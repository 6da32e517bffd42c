/* sweep_replicas.c: a primary's replicas (--replica, --spawn-replicas):
 * the read tests' load on them (--read-from), the wait for them to hold
 * what was prepared, their counters around a read point, and the
 * replication lag (sweep_int.h).  The primary stays the one server the
 * sweep guards, flushes and prepares: the replicas follow it. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/sbuf.h"
#include "base/xalloc.h"
#include "engine/engine.h"
#include "sweep/sweep_int.h"

/* Poll a replica's offset this often while waiting for it. */
#define SWEEP_REPLICAS_POLL_MS 10

static double sweep_replicas_timeout(const struct sweep_config *cfg)
{
	return cfg->timeout > 0 ? cfg->timeout : TARGET_DEFAULT_TIMEOUT;
}

static void sweep_replicas_nap(void)
{
	struct timespec ts = { 0, SWEEP_REPLICAS_POLL_MS * 1000000L };

	nanosleep(&ts, NULL);
}

/* Whether test t writes nothing: the catalogue's GET, LRANGE_* and PINGs,
 * and a mix of only those.  A command after -- or from a file may write
 * keys rsweep cannot tell: it stays on the primary. */
static int sweep_replicas_reads(const struct workload_test *t)
{
	static const char *const reads[] = { "get", "lrange", "ping", NULL };

	if (t->custom || t->sequence)
		return 0;
	if (t->nmembers > 0) {
		for (size_t i = 0; i < t->nmembers; i++)
			if (!sweep_replicas_reads(&t->members[i]))
				return 0;
		return 1;
	}
	for (size_t i = 0; reads[i] != NULL; i++)
		if (strcmp(t->cmdstat, reads[i]) == 0)
			return 1;
	return 0;
}

struct load *sweep_replicas_load(const struct sweep *s, const struct workload_test *t)
{
	return s->rload != NULL && sweep_replicas_reads(t) ? s->rload : s->load;
}

/* Connect to replica i, check it replicates its primary, and wait for
 * its link (up to the timeout). */
static int sweep_replicas_one(struct sweep *s, size_t i, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	const struct target *rt = &s->rt[i];
	const struct sweep_server *prim = &s->srv[s->rprim[i]];
	struct target_repl pr, *p = &pr;
	uint64_t until = engine_now_ns() + (uint64_t)(sweep_replicas_timeout(cfg) * 1e9);
	struct target_repl r;

	if (target_repl(prim->g.c, &prim->t, p, err) < 0)
		return -1;
	if (target_connect(rt, &s->rc[i], err) < 0)
		return rs_err_as(err, RS_E_INPUT);
	for (;;) {
		if (target_repl(s->rc[i], rt, &r, err) < 0)
			return -1;
		if (!r.replica)
			return rs_err_setk(err, RS_E_INPUT, "replica %s is no replica (INFO "
					   "replication says it is a master): reads there would "
					   "find nothing the target prepared", rt->desc);
		if (r.link_up && p->replid[0] != '\0' && strcmp(r.replid, p->replid) == 0)
			return 0;
		if (r.link_up && r.replid[0] != '\0' && p->replid[0] != '\0' &&
		    strcmp(r.replid, p->replid) != 0)
			return rs_err_setk(err, RS_E_INPUT, "replica %s replicates another primary "
					   "than %s (master_replid %s, the primary's %s)", rt->desc,
					   prim->t.desc, r.replid, p->replid);
		if (engine_now_ns() > until)
			return rs_err_setk(err, RS_E_INPUT, "replica %s: no link to %s after %g s "
					   "(master_link_status is not up)", rt->desc,
					   prim->t.desc, sweep_replicas_timeout(cfg));
		if (cfg->stop != NULL && *cfg->stop)
			return rs_err_set(err, "interrupted");
		sweep_replicas_nap();
	}
}

/* A cluster's replicas, each master's first, into s (--read-from
 * replicas or all on a cluster).  0, or -1 (err). */
static int sweep_replicas_cluster(struct sweep *s, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;

	s->nr = s->nsrv;
	s->rt = xcalloc(s->nr, sizeof *s->rt);
	s->rprim = xcalloc(s->nr, sizeof *s->rprim);
	for (size_t i = 0; i < s->nr; i++) {
		if (cluster_replica_target(s->topo, i, cfg->target, &s->rt[i]) < 0)
			return rs_err_setk(err, RS_E_INPUT, "--read-from %s: master %s has no "
					   "replica", sweep_read_from_names[cfg->read_from],
					   s->srv[i].t.desc);
		s->rprim[i] = i;
	}
	return 0;
}

enum sweep_status sweep_replicas_open(struct sweep *s, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;

	s->repl_lag = -1;
	if (s->topo != NULL) {
		if (cfg->read_from == SWEEP_READ_MASTERS)
			return SWEEP_OK;
		if (sweep_replicas_cluster(s, err) < 0)
			return SWEEP_FAILED;
	} else if (cfg->nreplicas > 0) {
		s->nr = cfg->nreplicas;
		s->rt = xcalloc(s->nr, sizeof *s->rt);
		s->rprim = xcalloc(s->nr, sizeof *s->rprim);
		memcpy(s->rt, cfg->replicas, s->nr * sizeof *s->rt);
	} else {
		return SWEEP_OK;
	}
	s->rc = xcalloc(s->nr, sizeof *s->rc);
	s->rst0 = xcalloc(s->nr, sizeof *s->rst0);
	s->rst1 = xcalloc(s->nr, sizeof *s->rst1);
	for (size_t i = 0; i < s->nr; i++)
		if (sweep_replicas_one(s, i, err) < 0)
			return SWEEP_FAILED;
	if (cfg->verbose) {
		char list[512];
		struct sbuf b;

		sbuf_fixed(&b, list, sizeof list);
		for (size_t i = 0; i < s->nr; i++)
			sbuf_item(&b, ", ", "%s", s->rt[i].desc);
		sweep_debug(cfg, "%s: %zu replica%s in sync (%s); read tests go to the %s",
			    cfg->target->desc, s->nr, s->nr == 1 ? "" : "s", list,
			    cfg->read_from == SWEEP_READ_MASTERS ? "primary" :
			    cfg->read_from == SWEEP_READ_ALL ? "replicas and the primary" : "replicas");
	}
	if (s->topo != NULL) {
		int all = cfg->read_from == SWEEP_READ_ALL;

		/* all: each master's reads split between it and its replica. */
		s->rload = load_cluster_replicas(cfg->target, s->topo, cfg->clients, cfg->threads,
						 all);
		s->nreads = all ? 2 * s->nr : s->nr;
		return SWEEP_OK;
	}
	if (cfg->read_from == SWEEP_READ_MASTERS)
		return SWEEP_OK;
	/* --read-from all: the primary is one more server of the same data. */
	s->nreads = s->nr + (cfg->read_from == SWEEP_READ_ALL);
	s->reads = xcalloc(s->nreads, sizeof *s->reads);
	if (cfg->read_from == SWEEP_READ_ALL)
		s->reads[0] = *cfg->target;
	for (size_t i = 0; i < s->nr; i++)
		s->reads[s->nreads - s->nr + i] = s->rt[i];
	s->rload = load_replicas(s->reads, s->nreads, cfg->clients, cfg->threads);
	return SWEEP_OK;
}

int sweep_replicas_catch_up(struct sweep *s, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	uint64_t until = engine_now_ns() + (uint64_t)(sweep_replicas_timeout(cfg) * 1e9);
	struct target_repl p, r;

	for (size_t i = 0; i < s->nr; i++) {
		const struct sweep_server *prim = &s->srv[s->rprim[i]];

		if (target_repl(prim->g.c, &prim->t, &p, err) < 0)
			return -1;
		if (p.offset < 0)
			continue;         /* nothing to wait on */
		for (;;) {
			if (target_repl(s->rc[i], &s->rt[i], &r, err) < 0)
				return -1;
			if (r.offset < 0 || (r.link_up && r.offset >= p.offset))
				break;
			if (engine_now_ns() > until)
				return rs_err_set(err, "replica %s: still %lld bytes behind %s after "
						  "%g s", s->rt[i].desc,
						  (long long)(p.offset - r.offset), prim->t.desc,
						  sweep_replicas_timeout(cfg));
			if (cfg->stop != NULL && *cfg->stop)
				return rs_err_set(err, "interrupted");
			sweep_replicas_nap();
		}
	}
	return 0;
}

int sweep_replicas_stats(struct sweep *s, const char *name, struct target_stats *sts,
			 struct target_stats *sum, struct rs_err *err)
{
	for (size_t i = 0; i < s->nr; i++) {
		if (target_point_stats(s->rc[i], &s->rt[i], name, &sts[i], err) < 0)
			return -1;
		sweep_stats_add(sum, &sts[i]);
	}
	return 0;
}

int sweep_replicas_lag(struct sweep *s, struct rs_err *err)
{
	struct target_repl p, r;

	s->repl_lag = -1;
	for (size_t i = 0; i < s->nr; i++) {
		const struct sweep_server *prim = &s->srv[s->rprim[i]];
		int64_t behind;

		if (target_repl(prim->g.c, &prim->t, &p, err) < 0 ||
		    target_repl(s->rc[i], &s->rt[i], &r, err) < 0)
			return -1;
		if (p.offset < 0 || r.offset < 0) {
			s->repl_lag = -1;
			return 0;
		}
		behind = p.offset > r.offset ? p.offset - r.offset : 0;
		if (behind > s->repl_lag)
			s->repl_lag = behind;
	}
	return 0;
}

void sweep_replicas_row(const struct sweep *s, struct rs_row *row)
{
	struct sbuf b;

	if (s->nr == 0)
		return;
	row->repl_lag = s->repl_lag;
	/* The setting, on every row: what makes the run's points its own
	 * (row_way.h); replica_calls says which points read there. */
	xstrlcpy(row->read_from, sweep_read_from_names[s->cfg->read_from], sizeof row->read_from);
	if (!s->read_point)
		return;
	sbuf_fixed(&b, row->replica_calls, sizeof row->replica_calls);
	for (size_t i = 0; i < s->nr; i++) {
		int64_t a = s->rst0[i].calls, z = s->rst1[i].calls;

		if (a < 0 || z < 0) {
			/* A replica that gives no command statistics: none at all. */
			row->replica_calls[0] = '\0';
			return;
		}
		sbuf_item(&b, ";", "%s=%lld", s->rt[i].desc, (long long)(z - a));
	}
}

int sweep_replicas_reconnect(struct sweep *s, struct rs_err *err)
{
	for (size_t i = 0; i < s->nr && s->rc != NULL; i++) {
		target_close(s->rc[i]);
		s->rc[i] = NULL;
		if (target_connect(&s->rt[i], &s->rc[i], err) < 0)
			return -1;
	}
	return s->rload != NULL ? load_reconnect(s->rload, err) : 0;
}

void sweep_replicas_free(struct sweep *s)
{
	for (size_t i = 0; i < s->nr && s->rc != NULL; i++)
		target_close(s->rc[i]);
	free(s->rc);
	free(s->rt);
	free(s->rprim);
	free(s->rst0);
	free(s->rst1);
	load_free(s->rload);
	free(s->reads);
	s->rc = NULL;
	s->rt = NULL;
	s->rprim = NULL;
	s->nr = 0;
	s->rst0 = s->rst1 = NULL;
	s->rload = NULL;
	s->reads = NULL;
}
