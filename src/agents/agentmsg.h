/* agentmsg.h: what the leader and its agents say to each other through the
 * control Redis (rsweep agent, rsweep run --control).
 *
 * A message is a flat list of field=value pairs, the fields of one stream
 * entry.  A point message names a target URI, numbers, and the job the
 * engine runs (job.h, agentmsg_job.c): the commands a local run would
 * send, as the leader built them.  It is signed (agentkey.h): whoever
 * holds the key can make an agent send any command to a target its
 * --allow-target allows.
 *
 * A parser only: it never touches a socket, stdout or the clock, so tests
 * and fuzzers drive it from strings.  Decoding is strict: a field it does
 * not know, a field missing or given twice, a number that does not read
 * whole or is out of range, a job that does not read, a target that is
 * not redis://, rediss:// or unix://, another rsweep's version: each is
 * refused with one line naming the field (RS_E_INPUT). */
#ifndef RS_AGENTMSG_H
#define RS_AGENTMSG_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "results/hist.h"
#include "net/targets.h"

/* Keys on the control Redis (RUN: the leader's run id, ID: an agent's). */
#define AGENTMSG_KEY_AGENTS "rsweep:agents"          /* set of the agents' ids */
#define AGENTMSG_KEY_ALIVE "rsweep:agent:"           /* + ID: "VERSION PID HOST", EX 3 */
#define AGENTMSG_KEY_WORK "rsweep:work:"             /* + ID: its stream of point messages */
#define AGENTMSG_KEY_RESULTS "rsweep:run:"           /* + RUN + ":results": results stream */
#define AGENTMSG_KEY_CLAIM "rsweep:claim:"           /* + ID: the RUN whose leader holds it */
#define AGENTMSG_KEY_LEADER ":leader"                /* RESULTS + RUN + this: its leader lives */
#define AGENTMSG_HEARTBEAT_TTL 3                     /* seconds a heartbeat lives */
#define AGENTMSG_LEASE_TTL 5                         /* seconds a claim and a leader's key live */
#define AGENTMSG_STREAM_MAX 1000                     /* XADD MAXLEN ~ */
#define AGENTMSG_KEY_TTL 86400                       /* streams expire a day after use */

/* The most fields a message has, and the longest value but a histogram's. */
#define AGENTMSG_MAX_FIELDS 24
#define AGENTMSG_ID_MAX 65
#define AGENTMSG_RUN_LEN 16                          /* hex digits of a run id */
/* The longest field but a histogram, its NUL included: a result's error,
 * which holds a whole rs_err's message. */
#define AGENTMSG_TEXT_MAX RS_ERR_LEN

/* One field of a message, as a stream entry holds it (not NUL-terminated). */
struct agentmsg_field {
	const char *name;
	size_t name_len;
	const char *value;
	size_t value_len;
};

/* A message being built: fields whose names are literals and values are
 * the builder's (agentmsg_fields_free). */
struct agentmsg_fields {
	struct agentmsg_field f[AGENTMSG_MAX_FIELDS];
	char *own[AGENTMSG_MAX_FIELDS]; /* the values, to free */
	size_t n;
};
void agentmsg_fields_free(struct agentmsg_fields *fs);

/* What a point message asks: warm-up (untimed, by duration) or the timed
 * run of a point, one agent's share of it. */
enum agentmsg_kind { AGENTMSG_WARMUP, AGENTMSG_POINT };

struct agentmsg_point {
	char run[AGENTMSG_RUN_LEN + 1];
	uint64_t point;           /* the sweep's point number (order), 1-based */
	enum agentmsg_kind kind;
	char target[TARGETS_URI_MAX]; /* redis://, rediss:// or unix://, no password */
	/* The test's name, for the agent's log. */
	char test[400];
	/* The job's text (agentmsg_job_encode) and its length, as the message
	 * holds it: not NUL-terminated, and it points into the decoded fields
	 * (the encoder's own string when encoding). */
	const char *job;
	size_t job_len;
	unsigned depth;
	int window;               /* 0 lock-step, 1 sliding window */
	unsigned clients, threads; /* this agent's connections and event loops */
	uint64_t keyspace, seed;
	uint64_t requests;        /* this agent's share; 0 with a duration */
	double duration;          /* seconds; 0 with requests */
	/* Open loop: this agent's share of --rate, requests a second (its
	 * share of the requests over the point's rate); 0: closed loop. */
	double rate;
	uint64_t start_ns;        /* the common instant, on the control Redis's TIME */
	double timeout;           /* the engine's --timeout, seconds */
};

struct agentmsg_result {
	char run[AGENTMSG_RUN_LEN + 1];
	uint64_t point;
	enum agentmsg_kind kind;
	char agent[AGENTMSG_ID_MAX];
	int ok;                   /* 0: error says why, the figures are 0 */
	char error[AGENTMSG_TEXT_MAX];
	uint64_t requests, errors, misses;
	double seconds;           /* the agent's first write to last reply */
	uint64_t start_ns, end_ns; /* when it began and ended, on the control clock */
	double cpu_s;             /* its CPU seconds over the run */
	char first_error[128];
	/* A mix: the requests sent of each member, in the mix's order,
	 * "7994;2006"; "" for a plain test. */
	char sent[320];
	struct hist hist;         /* latency, ns; empty for a warm-up */
	/* Open loop: from each request's actual send (engine_result.service);
	 * else empty. */
	struct hist service;
};

/* Whether s (n bytes) is an acceptable agent id: 1 to 64 of [A-Za-z0-9._-]. */
int agentmsg_id_ok(const char *s, size_t n);
/* Whether s is a run id: AGENTMSG_RUN_LEN lower-case hex digits. */
int agentmsg_run_ok(const char *s, size_t n);

/* Check a target URI the way an agent will take it: redis://, rediss:// or
 * unix:// (targets.h), no password (it would travel through the control
 * Redis).  d, when not NULL, gets it parsed (targets_def_free).  Returns 0
 * or -1 with err. */
int agentmsg_target_ok(const char *uri, struct targets_def *d, struct rs_err *err);

/* Encode p (version: this rsweep's) into fs.  Returns 0 or -1 (p holds
 * something decoding would refuse; err says what). */
int agentmsg_point_encode(const struct agentmsg_point *p, struct agentmsg_fields *fs,
			  struct rs_err *err);
/* Decode a point message.  Returns 0, or -1 with err (RS_E_INPUT) naming the
 * field; another version is refused as "rsweep VERSION, not ours". */
int agentmsg_point_decode(const struct agentmsg_field *f, size_t n, struct agentmsg_point *p,
			  struct rs_err *err);

/* The same for a result message. */
int agentmsg_result_encode(const struct agentmsg_result *r, struct agentmsg_fields *fs,
			   struct rs_err *err);
int agentmsg_result_decode(const struct agentmsg_field *f, size_t n, struct agentmsg_result *r,
			   struct rs_err *err);

/* The job of a point message, one line (job.h's engine_job but its point's
 * numbers: depth, keyspace, seed, requests, ... travel as fields of their
 * own).  Returns a string to free. */
struct engine_job;
char *agentmsg_job_encode(const struct engine_job *job);
/* Decode the text s (n bytes) into *j (job_free), its point's numbers
 * from point (keyspace, depth, mode, seed, requests, duration, timeout,
 * stop).  The job's memory at clients connections over threads loops is
 * checked against cap (job_memory_check) before any command's bytes are
 * expanded or a key distribution's table built.  0, or -1 with err
 * (RS_E_INPUT) naming the problem, *j then empty. */
struct job;
/* Whether s (n bytes) reads as a job, as agentmsg_point_decode checks
 * it: without its memory, its bytes or its key distribution's table.
 * 0, or -1 with err (RS_E_INPUT). */
int agentmsg_job_check(const char *s, size_t n, struct rs_err *err);
int agentmsg_job_decode(const char *s, size_t n, const struct engine_job *point,
			uint64_t clients, unsigned threads, uint64_t cap, struct job *j,
			struct rs_err *err);

/* The heartbeat's value "VERSION PID HOST" into buf; and its parse:
 * version into ver (size vsize).  Returns 0, or -1 when it does not read. */
void agentmsg_alive_encode(char *buf, size_t size, long pid, const char *host);
int agentmsg_alive_decode(const char *s, size_t n, char *ver, size_t vsize);

#endif
