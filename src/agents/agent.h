/* agent.h: rsweep agent, a stateless load generator a leader drives through
 * a control Redis (agentmsg.h says what they say).
 *
 * It registers under its id and heartbeats from a thread of its own, so
 * that a heartbeat stops only when the process stops (killed, stalled).
 * It waits for point messages on its work stream; for each one it connects
 * to the target the message names (only there), warms up its connections
 * before the common instant, sleeps until that instant on its clock
 * corrected against the control Redis's TIME, runs its share with the
 * engine, and reports on the run's results stream.  It never flushes,
 * prepares or guards the target: the leader alone does.  A message that
 * does not decode, or whose instant is more than a second past, is refused
 * (one line in the agent's log, and an error result for its leader). */
#ifndef RS_AGENT_H
#define RS_AGENT_H

#include <signal.h>
#include <stdint.h>

#include "base/err.h"
#include "net/target.h"

struct agentkey;

struct agent_config {
	const struct target *control; /* where the leader is reached */
	/* Signs its results and checks its work (agentkey.h): a point message
	 * that does not verify is refused. */
	const struct agentkey *key;
	const char *id;           /* agentmsg_id_ok */
	/* How the agent reaches a target: TLS options for rediss://, the
	 * connect timeout; the password from REDISCLI_AUTH. */
	struct target_tls tls;
	const char *password;
	double connect_timeout;
	volatile sig_atomic_t *stop; /* SIGINT, SIGTERM: unregister and return */
	/* --allow-target: the only targets a point may name (a URI, compared
	 * parsed, or an fnmatch pattern on the URI); at least one. */
	char *const *allow;
	size_t nallow;
};

/* Run until stopped.  Returns -1 with err: RS_E_INTERRUPTED when stopped
 * (the agent has unregistered), RS_E_REFUSED when another live agent holds
 * the id, RS_E_FAILED when the control Redis cannot be reached or stops
 * answering. */
int agent_run(const struct agent_config *cfg, struct rs_err *err);

/* The offset of the control Redis's TIME from this machine's monotonic
 * clock: control_ns = monotonic_ns + *offset, from the sample of `samples`
 * with the least round trip (*rtt_ns).  Returns 0 or -1. */
int agent_clock(struct target_conn *c, const struct target *t, unsigned samples,
		int64_t *offset, uint64_t *rtt_ns, struct rs_err *err);

struct agentmsg_fields;
/* Sign the message fs for the stream key with sign (agentkey_sign), XADD
 * it there on the control Redis, capped at AGENTMSG_STREAM_MAX entries,
 * and give the stream AGENTMSG_KEY_TTL seconds to live: both sides' one
 * way to post.  Returns 0 or -1. */
int agent_xadd(struct target_conn *c, const struct target *t, const char *key,
	       const struct agentkey *sign, struct agentmsg_fields *fs, struct rs_err *err);

struct sbuf;
/* The same message's two commands (the XADD, its EXPIRE) appended to b as
 * the protocol's bytes, for a caller that posts many in one round trip
 * (target_pipeline): 2, or -1 when they cannot be formatted. */
int agent_xadd_format(const char *key, const struct agentkey *sign, struct agentmsg_fields *fs,
		      struct sbuf *b);

struct agentmsg_field;
/* The fields of a stream entry e (a flat array of name, value) into f (at
 * most AGENTMSG_MAX_FIELDS), checked against the signature under key for
 * the stream it was read from: the number of signed fields, or -1 with
 * err (RS_E_INPUT: not a list of fields, unsigned, or not verified).
 * *nall gets the number of fields read, signed or not, for a caller that
 * names a refused message's run and point. */
struct redisReply;
long agent_entry_fields(const struct agentkey *key, const char *stream,
			const struct redisReply *e, struct agentmsg_field *f, size_t *nall,
			struct rs_err *err);

#endif
