/* load.h: where a point's load comes from: one interface over the local
 * engine (engine.h), the load on every master of a cluster
 * (cluster_load.h), on a primary's replicas (replica_load.h) and the
 * agents' (agents.h), so that the sweep measures
 * a point with one call whatever the topology.
 *
 * A load does not guard, flush, prepare or read the server's counters:
 * the sweep does that around it, on the servers it guards. */
#ifndef RS_LOAD_H
#define RS_LOAD_H

#include "agents/agents.h"
#include "net/cluster.h"
#include "engine/engine.h"
#include "base/err.h"
#include "results/row.h"
#include "net/target.h"

struct load;

/* clients connections over threads loops to t (kept by the caller). */
struct load *load_engine(const struct target *t, unsigned clients, unsigned threads);
/* The same to every master of topo (kept by the caller, updated in place
 * on MOVED), with seed's credentials, TLS and timeouts. */
struct load *load_cluster(const struct target *seed, struct cluster_topo *topo, unsigned clients,
			  unsigned threads);
/* The same to each master's first replica (READONLY), each reading its
 * master's slots (cluster_load.h): --read-from replicas on a cluster;
 * with all set, to each master and its replica, which share the master's
 * requests (--read-from all). */
struct load *load_cluster_replicas(const struct target *seed, struct cluster_topo *topo,
				   unsigned clients, unsigned threads, int all);
/* The same to each of the n servers ts[0..n) (kept by the caller) side by
 * side, which hold the same data (a primary's replicas, and it too for
 * --read-from all): each its -c connections and an equal share of the
 * requests (replica_load.h). */
struct load *load_replicas(const struct target *ts, size_t n, unsigned clients,
			   unsigned threads);
/* The agents' load (a, kept by the caller, open already). */
struct load *load_agents(struct agents *a);

/* Whether l's connections are open (a load from elsewhere always is). */
int load_connected(const struct load *l);
/* Whether l's connections are this process's, so that the server counts
 * them among its clients (the sweep waits for them to go at the end). */
int load_local(const struct load *l);
/* Connect, unless connected.  0, or -1 (err). */
int load_open(struct load *l, struct rs_err *err);
/* Whether job can run at all (a cluster: a random key that reaches every
 * master).  0, or -1 (err, RS_E_INPUT). */
int load_check(const struct load *l, const struct engine_job *job, struct rs_err *err);
/* Run job (of the test -t selects by test: its name, or a mix's spec
 * "mix:get=80,set=20", which the agents rebuild it from; warm: a warm-up)
 * into res.  0, or -1 (err; RS_E_USAGE: retrying would fail the same
 * way). */
int load_run(struct load *l, const struct engine_job *job, const char *test, int warm,
	     struct engine_result *res, struct rs_err *err);
/* After a failure: every connection anew (opened if none were). */
int load_reconnect(struct load *l, struct rs_err *err);
/* The load's own columns of the last timed run (the agents' columns). */
void load_row(const struct load *l, struct rs_row *row);
/* Master i's result of the last run (a cluster), or NULL. */
const struct engine_result *load_master(const struct load *l, size_t i);
/* Close the connections (load_open opens them again). */
void load_drop(struct load *l);
void load_free(struct load *l);

#endif
