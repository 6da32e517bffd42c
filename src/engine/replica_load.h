/* replica_load.h: one load over several servers that hold the same data
 * (a primary's replicas, or them and the primary: --read-from): one
 * engine per server, run side by side, each with -c connections and an
 * equal share of the requests, any key on any server.  As the cluster's
 * load does for its masters, each server gets the same offered load, and
 * the point ends when the slowest is done.  This room never prints. */
#ifndef RS_REPLICA_LOAD_H
#define RS_REPLICA_LOAD_H

#include <stddef.h>

#include "base/err.h"
#include "engine/engine.h"
#include "net/target.h"

struct replica_load;

/* Connect clients connections over threads loops to each of the n
 * servers ts[0..n) (kept by the caller).  0, or -1 with err naming the
 * server. */
int replica_load_new(const struct target *ts, size_t n, unsigned clients, unsigned threads,
		     struct replica_load **out, struct rs_err *err);
/* Run job on every server at once: job->requests split evenly over them,
 * each engine its own seed.  res sums their results (seconds: the
 * slowest's); per[i] (NULL: not wanted) is server i's.  On failure err
 * names the server. */
int replica_load_run(struct replica_load *rl, const struct engine_job *job,
		     struct engine_result *res, struct engine_result *per, struct rs_err *err);
/* Close and reopen every connection. */
int replica_load_reconnect(struct replica_load *rl, struct rs_err *err);
void replica_load_free(struct replica_load *rl);

/* Add part, one engine's result of a run side by side with others, into
 * res (zeroed, its histograms initialised, before the first): counts
 * summed, seconds and connect_ms the largest, histograms merged, the
 * first error text kept.  cluster_load's masters are summed so too. */
void replica_load_sum(struct engine_result *res, const struct engine_result *part);

#endif
