/* cluster_load.h: the load on a Redis Cluster: one engine per master,
 * run side by side, each with -c connections and its share of the
 * requests, its keys drawn for its own slots (cluster.h): uniformly from
 * a pool of the keyspace's numbers whose keys the master had when the run
 * began, checked against the live slot map.
 *
 * Each master gets the same offered load (the same connections, depth
 * and request count), so that the busiest master shows: the point ends
 * when the slowest master is done.  This room never prints. */
#ifndef RS_CLUSTER_LOAD_H
#define RS_CLUSTER_LOAD_H

#include "net/cluster.h"
#include "engine/engine.h"
#include "base/err.h"
#include "net/target.h"

struct cluster_load;

/* Where a cluster load's connections go (--read-from): */
#define CLUSTER_LOAD_MASTERS 0    /* every master */
#define CLUSTER_LOAD_REPLICAS 1   /* each master's first replica instead */
#define CLUSTER_LOAD_ALL 2        /* each master and its first replica */

/* Connect clients connections over threads loops to every master of
 * topo (kept by the caller, and updated in place on MOVED while a run
 * goes on), with seed's credentials, TLS and timeouts; with `where`
 * CLUSTER_LOAD_REPLICAS to each master's first replica instead (READONLY),
 * which reads its master's slots; with CLUSTER_LOAD_ALL to both, clients
 * connections each.  A master without a replica then fails, err naming
 * it. */
int cluster_load_new(const struct target *seed, struct cluster_topo *topo, unsigned clients,
		     unsigned threads, int where, struct cluster_load **out,
		     struct rs_err *err);
/* Run job on every master at once: job->requests split evenly over them
 * (every one completes: a redirected request is replaced, engine.h),
 * each request's key on its master's slots; a command whose key has no
 * random part (LPUSH mylist) gets a key per master, "mylist{N}", N a hash
 * tag of a slot the master serves.  A mix's members are keyed so, each
 * as its own command (engine_route.key with the member), and a
 * redirected request is not counted in member_sent.  res sums the
 * masters' results (member_sent too; seconds: the slowest master's);
 * per[i] (NULL: not wanted) is master i's.  CLUSTER_LOAD_ALL splits each
 * master's share between it (the odd request) and its replica, as
 * replica_load does a primary's, and per[i] sums the two.  On failure err
 * names the master. */
int cluster_load_run(struct cluster_load *cl, const struct engine_job *job,
		     struct engine_result *res, struct engine_result *per, struct rs_err *err);
/* Check, before a run, that job (each member of a mix) can run on every
 * master: a random key that reaches each master's slots within the
 * keyspace.  Bad input: err (kind RS_E_INPUT) says why. */
int cluster_load_check(const struct cluster_load *cl, const struct engine_job *job,
		       struct rs_err *err);
/* Close and reopen every connection. */
int cluster_load_reconnect(struct cluster_load *cl, struct rs_err *err);
/* The hash tag of master i's single-key tests ("{N}"). */
const char *cluster_load_tag(const struct cluster_load *cl, size_t i);
void cluster_load_free(struct cluster_load *cl);

#endif
