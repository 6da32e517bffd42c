/* sweep_cluster.c: --cluster's fan-out: a guarded server per master, read
 * from the topology of the node given, and the columns that name them. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/cluster.h"
#include "base/sbuf.h"
#include "sweep/sweep_int.h"
#include "base/xalloc.h"

/* guard_config.identify for a master: the process at its address is the
 * node CLUSTER SLOTS named, by node id, or nothing there is touched (a slot
 * map can name any address, and a plain server or another cluster's node
 * there must not be guarded, flushed or loaded as this cluster's). */
static int sweep_cluster_identify(void *ud, struct target_conn *c, struct rs_err *err)
{
	const struct sweep_server *srv = ud;
	const struct cluster_master *m = &srv->s->topo->m[srv->idx];
	char id[64];

	if (target_cluster_myid(c, &srv->t, id, sizeof id, err) < 0)
		return rs_err_setk(err, RS_E_REFUSED, "%s: named a master of the cluster, but it "
				   "answers no node id (%s): not touched", srv->t.desc, err->msg);
	if (m->id[0] == '\0' || strcmp(id, m->id) != 0)
		return rs_err_setk(err, RS_E_REFUSED, "%s: named master %.40s of the cluster, but "
				   "the node there is %.40s: not touched", srv->t.desc,
				   m->id[0] ? m->id : "(no id)", id);
	return 0;
}

/* guard_config.owns for a master: whether a key is on its slots. */
static int sweep_cluster_owns(void *ud, const char *key, size_t len)
{
	const struct sweep_server *srv = ud;
	const uint16_t *owner = &srv->s->topo->owner[cluster_key_slot(key, len)];

	return __atomic_load_n(owner, __ATOMIC_RELAXED) == srv->idx;
}

enum sweep_status sweep_cluster_open(struct sweep *s, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	char list[512];
	struct sbuf b;
	size_t n;

	s->cl_allow = UINT64_MAX;
	s->topo = xcalloc(1, sizeof *s->topo);
	if (cluster_read(s->seed, cfg->target, s->topo, err) < 0)
		return SWEEP_FAILED;
	n = s->topo->n;
	s->srv = xcalloc(n, sizeof *s->srv);
	s->cpu0 = xcalloc(n, sizeof *s->cpu0);
	s->cpu1 = xcalloc(n, sizeof *s->cpu1);
	sbuf_fixed(&b, list, sizeof list);
	for (size_t i = 0; i < n; i++) {
		struct sweep_server *srv = &s->srv[i];
		struct guard_config gc;
		enum sweep_status st;

		cluster_master_target(s->topo, i, cfg->target, &srv->t);
		sweep_guard_config(s, &srv->t, i, n, &gc);
		gc.identify = sweep_cluster_identify;
		gc.owns = sweep_cluster_owns;
		gc.cb_ud = srv;
		if (cluster_tag(s->topo, i, srv->tag, sizeof srv->tag) == 0)
			gc.tag = srv->tag;
		guard_init(&srv->g, &gc);
		s->nsrv++;
		sbuf_item(&b, ", ", "%s (%u slots)", srv->t.desc, s->topo->m[i].slots);
		if ((st = sweep_server_open(s, i, err)) != SWEEP_OK)
			return st;
		/* Two masters that are one process (two addresses of one node)
		 * would flush each other's prepared keys. */
		for (size_t j = 0; j < i; j++)
			if (strcmp(s->srv[j].g.run_id, srv->g.run_id) == 0) {
				rs_err_setk(err, RS_E_REFUSED, "%s and %s are one server process: the "
					    "slot map is not a cluster's", s->srv[j].t.desc, srv->t.desc);
				return SWEEP_REFUSED;
			}
	}
	s->load = load_cluster(cfg->target, s->topo, cfg->clients, cfg->threads);
	sweep_debug(cfg, "%s: a cluster of %zu master%s: %s; the guard and every flush cover each "
		    "master", cfg->target->desc, n, n == 1 ? "" : "s", list);
	return SWEEP_OK;
}

enum sweep_status sweep_cluster_reread(struct sweep *s, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	struct cluster_topo fresh;

	target_close(s->seed);
	s->seed = NULL;
	if (target_connect(cfg->target, &s->seed, err) < 0)
		return SWEEP_FAILED;
	if (cluster_read(s->seed, cfg->target, &fresh, err) < 0) {
		cluster_topo_free(&fresh);
		rs_err_as(err, RS_E_FAILED);
		return SWEEP_FAILED;
	}
	if (fresh.n != s->topo->n) {
		rs_err_set(err, "%s: the cluster has %zu masters now, %zu when the sweep began: "
			   "start the sweep again", cfg->target->desc, fresh.n, s->topo->n);
		cluster_topo_free(&fresh);
		return SWEEP_FAILED;
	}
	for (size_t i = 0; i < fresh.n; i++)
		if (cluster_find(s->topo, fresh.m[i].host, fresh.m[i].port) < 0) {
			rs_err_set(err, "%s: the cluster's masters changed (%s is new): start the "
				   "sweep again", cfg->target->desc, fresh.m[i].desc);
			cluster_topo_free(&fresh);
			return SWEEP_FAILED;
		}
	for (size_t slot = 0; slot < CLUSTER_SLOTS; slot++) {
		unsigned o = fresh.owner[slot];

		s->topo->owner[slot] = (uint16_t)cluster_find(s->topo, fresh.m[o].host,
							      fresh.m[o].port);
	}
	cluster_topo_free(&fresh);
	return SWEEP_OK;
}

int sweep_cluster_prepare(const struct sweep *s, const struct sweep_server *srv,
			  const struct workload_test *t, char **buf, size_t *len, size_t *ncmds,
			  struct rs_err *err)
{
	size_t koff, klen, n;
	int random = 0, rc;
	char tag[24], *out;

	if (cluster_key_arg(t->cmd, t->len, &koff, &klen) == 0)
		for (size_t r = 0; r < t->nrand && s->cfg->keyspace > 0; r++)
			random |= t->rand_off[r] >= koff && t->rand_off[r] < koff + klen;
	if (!random && cluster_tag(s->topo, srv->idx, tag, sizeof tag) < 0)
		return rs_err_set(err, "%s serves no slot", srv->t.desc);
	rc = cluster_route_cmds(s->topo, srv->idx, random ? NULL : tag, *buf, *len, *ncmds, &out,
				len, &n, err);
	free(*buf);
	*buf = out;
	*ncmds = n;
	return rc;
}

enum guard_step sweep_cluster_keys(struct sweep *s, struct rs_err *err)
{
	uint64_t total = 0;

	/* --key-prefix: other keys are the server's own, and not counted. */
	if (s->cl_allow == UINT64_MAX || s->cfg->flush == GUARD_FLUSH_NONE ||
	    s->cfg->key_prefix != NULL)
		return GUARD_OK;
	for (size_t i = 0; i < s->nsrv; i++) {
		uint64_t keys;

		if (guard_keys(&s->srv[i].g, &keys, err) < 0)
			return GUARD_RETRY;
		total += keys;
	}
	if (total <= s->cl_allow)
		return GUARD_OK;
	for (size_t i = 0; i < s->nsrv; i++)
		guard_mark_foreign(&s->srv[i].g);
	rs_err_set(err, "%s: keys rsweep did not write appeared during the sweep (%llu keys on "
		   "the %zu masters together, at most %llu of them rsweep's): another client is "
		   "writing to this cluster; stopped without flushing it", s->cfg->target->desc,
		   (unsigned long long)total, s->nsrv, (unsigned long long)s->cl_allow);
	return GUARD_FOREIGN;
}

/* master_rps: each master's requests over its own window, which with -n
 * (the same requests on each) is shortest on the fastest master; the one
 * that limits has the lowest rate.  Left empty, with a note, when the
 * list does not fit the column. */
static void sweep_cluster_rates(const struct sweep *s, struct rs_row *row)
{
	size_t n = 0, size = sizeof row->master_rps;

	row->master_rps[0] = '\0';
	for (size_t i = 0; i < s->nsrv; i++) {
		/* A read point on the replicas: each master's replica's share. */
		const struct engine_result *m = load_master(s->read_point ? s->rload : s->load, i);
		int k = snprintf(row->master_rps + n, size - n, "%s%s=%.2f", i ? ";" : "",
				 s->srv[i].t.desc, m->seconds > 0 ? (double)m->requests / m->seconds : 0);

		if (k < 0 || (size_t)k >= size - n) {
			row->master_rps[0] = '\0';
			sweep_note(s->cfg, "%zu masters' rates do not fit the master_rps column (%zu "
				   "bytes): left empty", s->nsrv, size - 1);
			return;
		}
		n += (size_t)k;
	}
}

void sweep_cluster_row(const struct sweep *s, const struct engine_result *res, struct rs_row *row)
{
	size_t busy = 0;

	row->redirects = (int64_t)res->redirects;
	row->masters = (int64_t)s->nsrv;
	for (size_t i = 1; i < s->nsrv; i++)
		if (s->cpu1[i] - s->cpu0[i] > s->cpu1[busy] - s->cpu0[busy])
			busy = i;
	xstrlcpy(row->busy_master, s->srv[busy].t.desc, sizeof row->busy_master);
	row->busy_cpu_s = s->cpu1[busy] - s->cpu0[busy];
	sweep_cluster_rates(s, row);
}

void sweep_cluster_free(struct sweep *s)
{
	free(s->cpu0);
	free(s->cpu1);
	if (s->topo != NULL)
		cluster_topo_free(s->topo);
	free(s->topo);
}
