/* load.c: the four loads behind load.h, each a table of its functions. */
#include "config.h"

#include <stdlib.h>

#include "engine/cluster_load.h"
#include "engine/replica_load.h"
#include "sweep/load.h"
#include "base/xalloc.h"

/* A NULL member: nothing to do. */
struct load_ops {
	int (*open)(struct load *l, struct rs_err *err);
	int (*check)(const struct load *l, const struct engine_job *job, struct rs_err *err);
	int (*run)(struct load *l, const struct engine_job *job, const char *test, int warm,
		   struct engine_result *res, struct rs_err *err);
	int (*reconnect)(struct load *l, struct rs_err *err);
	void (*row)(const struct load *l, struct rs_row *row);
	void (*drop)(struct load *l);
};

struct load {
	const struct load_ops *ops;
	const struct target *t;
	unsigned clients, threads;
	struct engine *e;         /* the local engine's */
	struct cluster_topo *topo; /* a cluster's */
	struct cluster_load *cl;
	struct engine_result *per; /* each master's share of the last run */
	struct agents *agents;    /* the agents' */
	int replicas;             /* a cluster's: CLUSTER_LOAD_* (cluster_load.h) */
	const struct target *ts;  /* a replica set's servers */
	size_t nts;
	struct replica_load *rl;
};

/* ---- the local engine ---- */

static int load_engine_open(struct load *l, struct rs_err *err)
{
	return engine_new(l->t, l->clients, l->threads, &l->e, err);
}

static int load_engine_run(struct load *l, const struct engine_job *job, const char *test,
			   int warm, struct engine_result *res, struct rs_err *err)
{
	(void)test;
	(void)warm;
	return engine_run(l->e, job, res, err);
}

static int load_engine_reconnect(struct load *l, struct rs_err *err)
{
	return engine_reconnect(l->e, err);
}

static void load_engine_drop(struct load *l)
{
	engine_free(l->e);
	l->e = NULL;
}

static const struct load_ops load_engine_ops = {
	load_engine_open, NULL, load_engine_run, load_engine_reconnect, NULL, load_engine_drop,
};

/* ---- every master of a cluster ---- */

static int load_cluster_open(struct load *l, struct rs_err *err)
{
	return cluster_load_new(l->t, l->topo, l->clients, l->threads, l->replicas, &l->cl, err);
}

static int load_cluster_check(const struct load *l, const struct engine_job *job,
			      struct rs_err *err)
{
	/* Not connected yet: the first run's connect checks it. */
	return l->cl != NULL ? cluster_load_check(l->cl, job, err) : 0;
}

static int load_cluster_run(struct load *l, const struct engine_job *job, const char *test,
			    int warm, struct engine_result *res, struct rs_err *err)
{
	(void)test;
	(void)warm;
	return cluster_load_run(l->cl, job, res, l->per, err);
}

static int load_cluster_reconnect(struct load *l, struct rs_err *err)
{
	return cluster_load_reconnect(l->cl, err);
}

static void load_cluster_drop(struct load *l)
{
	cluster_load_free(l->cl);
	l->cl = NULL;
}

static const struct load_ops load_cluster_ops = {
	load_cluster_open, load_cluster_check, load_cluster_run, load_cluster_reconnect, NULL,
	load_cluster_drop,
};

/* ---- servers of the same data side by side (a primary's replicas) ---- */

static int load_replicas_open(struct load *l, struct rs_err *err)
{
	return replica_load_new(l->ts, l->nts, l->clients, l->threads, &l->rl, err);
}

static int load_replicas_run(struct load *l, const struct engine_job *job, const char *test,
			     int warm, struct engine_result *res, struct rs_err *err)
{
	(void)test;
	(void)warm;
	return replica_load_run(l->rl, job, res, NULL, err);
}

static int load_replicas_reconnect(struct load *l, struct rs_err *err)
{
	return replica_load_reconnect(l->rl, err);
}

static void load_replicas_drop(struct load *l)
{
	replica_load_free(l->rl);
	l->rl = NULL;
}

static const struct load_ops load_replicas_ops = {
	load_replicas_open, NULL, load_replicas_run, load_replicas_reconnect, NULL,
	load_replicas_drop,
};

/* ---- the agents: connected for the whole run by the caller ---- */

static int load_agents_run(struct load *l, const struct engine_job *job, const char *test,
			   int warm, struct engine_result *res, struct rs_err *err)
{
	return agents_load(l->agents, job, test, warm, res, err);
}

static void load_agents_row(const struct load *l, struct rs_row *row)
{
	agents_row(l->agents, row);
}

static const struct load_ops load_agents_ops = {
	NULL, NULL, load_agents_run, NULL, load_agents_row, NULL,
};

/* ---- the interface ---- */

struct load *load_engine(const struct target *t, unsigned clients, unsigned threads)
{
	struct load *l = xcalloc(1, sizeof *l);

	l->ops = &load_engine_ops;
	l->t = t;
	l->clients = clients;
	l->threads = threads;
	return l;
}

struct load *load_cluster(const struct target *seed, struct cluster_topo *topo, unsigned clients,
			  unsigned threads)
{
	struct load *l = load_engine(seed, clients, threads);

	l->ops = &load_cluster_ops;
	l->topo = topo;
	l->per = xcalloc(topo->n ? topo->n : 1, sizeof *l->per);
	return l;
}

struct load *load_cluster_replicas(const struct target *seed, struct cluster_topo *topo,
				   unsigned clients, unsigned threads, int all)
{
	struct load *l = load_cluster(seed, topo, clients, threads);

	l->replicas = all ? CLUSTER_LOAD_ALL : CLUSTER_LOAD_REPLICAS;
	return l;
}

struct load *load_replicas(const struct target *ts, size_t n, unsigned clients,
			   unsigned threads)
{
	struct load *l = load_engine(&ts[0], clients, threads);

	l->ops = &load_replicas_ops;
	l->ts = ts;
	l->nts = n;
	return l;
}

struct load *load_agents(struct agents *a)
{
	struct load *l = xcalloc(1, sizeof *l);

	l->ops = &load_agents_ops;
	l->agents = a;
	return l;
}

int load_connected(const struct load *l)
{
	return l->ops->open == NULL || l->e != NULL || l->cl != NULL || l->rl != NULL;
}

int load_local(const struct load *l)
{
	return l->ops->open != NULL;
}

int load_open(struct load *l, struct rs_err *err)
{
	return load_connected(l) ? 0 : l->ops->open(l, err);
}

int load_check(const struct load *l, const struct engine_job *job, struct rs_err *err)
{
	return l->ops->check != NULL ? l->ops->check(l, job, err) : 0;
}

int load_run(struct load *l, const struct engine_job *job, const char *test, int warm,
	     struct engine_result *res, struct rs_err *err)
{
	return l->ops->run(l, job, test, warm, res, err);
}

int load_reconnect(struct load *l, struct rs_err *err)
{
	if (l->ops->reconnect == NULL)
		return 0;
	return load_connected(l) ? l->ops->reconnect(l, err) : l->ops->open(l, err);
}

void load_row(const struct load *l, struct rs_row *row)
{
	if (l->ops->row != NULL)
		l->ops->row(l, row);
}

const struct engine_result *load_master(const struct load *l, size_t i)
{
	return l->per != NULL && i < l->topo->n ? &l->per[i] : NULL;
}

void load_drop(struct load *l)
{
	if (l->ops->drop != NULL)
		l->ops->drop(l);
}

void load_free(struct load *l)
{
	if (l == NULL)
		return;
	load_drop(l);
	free(l->per);
	free(l);
}
