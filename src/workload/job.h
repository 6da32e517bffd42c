/* job.h: the job the engine runs, built from a test, one way for every
 * load.
 *
 * A test of the workload (a catalogue test, a mix, a sequence, a
 * transaction, a command file's mix, with its key prefix and TTLs already
 * in its bytes) and a point's numbers (depth, keyspace, key distribution,
 * sized values, requests, ...) make one engine_job: the local engine runs
 * it, the cluster load routes it to every master, and the agents receive
 * it in their point message (agentmsg_job.c) and run it as it is.  Its
 * memory is checked here, by one rule, wherever it runs, before anything
 * is allocated.  No socket, no stdout. */
#ifndef RS_JOB_H
#define RS_JOB_H

#include <signal.h>
#include <stdint.h>

#include "engine/engine.h"
#include "engine/pubsub.h"
#include "base/err.h"
#include "workload/workload.h"

/* What a point says about how a test is run. */
struct job_point {
	uint64_t keyspace;        /* -r; 0: __rand_int__ stays literal */
	struct keydist *keydist;  /* --key-dist's sampler (the caller's), or NULL */
	uint64_t seed;
	unsigned depth;
	enum engine_mode mode;
	double rate;              /* 0: closed loop (then the mode is the window) */
	enum engine_arrivals arrivals;
	uint64_t requests;
	double duration, timeout;
	uint64_t data_size;       /* -d (or the range's largest): the largest reply */
	size_t vmin, vmax;        /* --data-size-range; vmax 0: the test's own values */
	volatile sig_atomic_t *stop;
	/* -t publish: its subscribers (0: none), the channels they are
	 * spread over (1..subscribers, a divisor), and whether they
	 * PSUBSCRIBE (engine_pubsub). */
	unsigned subscribers, channels;
	int psubscribe;
};

/* A job and the members it points at.  A built job points into its test
 * (which must outlive it); a decoded one (agentmsg_job_decode) owns its
 * bytes (job_free).  job.e.members points at job.members: copy job.e,
 * never the struct job. */
struct job {
	struct engine_job e;
	struct engine_member members[ENGINE_MAX_MEMBERS];
	struct engine_pubsub pubsub; /* job.e.pubsub's, for a test of PUBLISH to subscribers */
	/* a decoded job's own: each member's bytes, rand_off and copy_off,
	 * and its key distribution's sampler */
	char *own_cmd[ENGINE_MAX_MEMBERS];
	size_t *own_rand[ENGINE_MAX_MEMBERS], *own_copy[ENGINE_MAX_MEMBERS];
	struct keydist *own_kd;
};

/* Build *j (overwritten) for test t at point p: a mix's members drawn by
 * their weights, a sequence's commands sent as one request (a
 * transaction's errors from its EXEC), a plain test with values sized
 * per request as a mix of one, PUBLISH (t->pubsub) to p's subscribers
 * (at least one) with its channel and stamp written by the engine. */
void job_build(const struct workload_test *t, const struct job_point *p, struct job *j);

/* Whether a sequence of t's commands is a transaction: MULTI first, EXEC
 * last (--transaction, or written so). */
int job_is_transaction(const struct workload_test *t);

/* The bytes a run of job needs in the client as it starts, worked out
 * from the job alone (nothing is allocated): one request's template, its
 * batch buffers (depth requests per connection, one set shared when no
 * request changes from one to the next), a mix's depth ends per
 * connection, and each loop's pool of random value bytes.  UINT64_MAX
 * when the sum overflows. */
uint64_t job_memory(const struct engine_job *job, uint64_t clients, unsigned threads);

/* The one memory rule: 0 when job_memory fits cap bytes, else -1 with err
 * (RS_E_INPUT) naming the test, depth, connections and bytes.  rsweep run
 * checks a point's job with WORKLOAD_MEMORY_MAX before it runs, an agent
 * with the smaller of that and half its memory before it allocates. */
int job_memory_check(const struct engine_job *job, const char *test, uint64_t clients,
		     unsigned threads, uint64_t cap, struct rs_err *err);

/* Let go of what a decoded job owns (a built one owns nothing); *j is
 * then empty.  NULL allowed. */
void job_free(struct job *j);

#endif
