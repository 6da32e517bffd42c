/* agents.h: the leader's side of rsweep run --control URI --agents N.
 *
 * Wait for N agents heartbeating on the control Redis, then for each
 * point: split its requests exactly over the agents alive (the shares sum
 * to -n), publish "start at T" (T on the control Redis's TIME, far enough
 * ahead for every agent to connect first), collect every agent's result
 * and merge them exactly: counts summed, histograms by hist_merge, never
 * a percentile averaged.  The sweep around it flushes, prepares, guards
 * and reads commandstats as for a local load: agents never do.
 *
 * A point is whole only when every agent asked answered ok: an agent that
 * stops heartbeating, answers with an error, or does not answer by the
 * deadline fails the point (-1) and is dropped, so that a retry
 * (--retries) asks only those still alive. */
#ifndef RS_AGENTS_H
#define RS_AGENTS_H

#include <signal.h>
#include <stdint.h>

#include "engine/engine.h"
#include "base/err.h"
#include "results/row.h"
#include "net/target.h"

struct agents;

struct agentkey;

struct agents_config {
	const struct target *control;
	const struct agentkey *key; /* signs the points, checks the results */
	unsigned n;               /* agents to wait for */
	double wait;              /* seconds to wait for them */
	const char *target_uri;   /* what the agents connect to (no password); the
				   * caller keeps it until agents_close */
	unsigned clients, threads; /* each agent's */
	volatile sig_atomic_t *stop;
	/* The target's INFO run_id and description, when known: a control
	 * Redis that is that server is refused at once (RS_E_USAGE), before
	 * any wait for agents. */
	const char *target_run_id, *target_desc;
};

/* Connect to the control Redis, take a run id, and wait for cfg->n agents
 * of this rsweep version to heartbeat.  Fails (RS_E_FAILED) after
 * cfg->wait seconds naming those missing: registered but silent, or of
 * another version.  *out is set either way (agents_close). */
int agents_open(const struct agents_config *cfg, struct agents **out, struct rs_err *err);

/* The control Redis's INFO run_id, to tell it from the target. */
const char *agents_control_run_id(const struct agents *a);

/* Run job (of the test named test) on the agents alive: a
 * warm-up (warm: by job->duration) or the timed window, into res as if one
 * engine had run it; seconds is from T to the last agent's last reply. */
int agents_load(struct agents *a, const struct engine_job *job, const char *test, int warm,
		 struct engine_result *res, struct rs_err *err);

/* The agents' columns of the last timed point: agents_ok, agents_expected,
 * skew_ms, agent_rps, and client_cpu_s summed over the agents (clients
 * stays -c, each agent's connections, so that --resume compares alike). */
void agents_row(const struct agents *a, struct rs_row *row);

/* The start skews of the last timed point, ms (for figures): n of them. */
const double *agents_skews(const struct agents *a, size_t *n);

void agents_close(struct agents *a);

#endif
