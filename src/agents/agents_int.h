/* agents_int.h: what the leader's two halves share: agents.c (who the
 * agents are: the wait, the claims, the leader's heartbeat, letting them
 * go) and agents_point.c (a point: the shares, the start, collecting and
 * merging the results).  Not for other rooms. */
#ifndef RS_AGENTS_INT_H
#define RS_AGENTS_INT_H

#include <hiredis/hiredis.h>
#include <stddef.h>
#include <stdint.h>

#include "agents/agentmsg.h"
#include "agents/agents.h"
#include "base/err.h"
#include "net/target.h"

/* The start instant is this far ahead of the leader's reading of TIME, plus
 * two of its round trips: time for every agent to read the message and
 * open its connections before it. */
#define AGENTS_MARGIN_NS 250000000ull
/* How often the agents' heartbeats are checked while a point runs, ms;
 * and the result stream's XREAD block. */
#define AGENTS_POLL_MS 200
/* The floor of an agent's expected rate, for the deadline of a point by
 * requests: a share of n requests is given n / 100 seconds, plus
 * --timeout.  Generous: a stalled or dead agent is caught by its
 * heartbeat within seconds, and a stuck load by the engine's --timeout;
 * this bounds only an agent that heartbeats and never answers. */
#define AGENTS_MIN_RPS 100.0
/* After a point lost an agent: a second for its heartbeat to see its
 * claim gone, a tick for its engine to stop, and a margin. */
#define AGENTS_SETTLE_MS 2000

struct agents_member {
	char id[AGENTMSG_ID_MAX];
	char alive[160];          /* its heartbeat's value when taken: a restart changes it */
	int dead;
	/* the point under way */
	uint64_t share;
	int answered;
	double rps, skew_ms, cpu_s;
};

struct agents {
	struct agents_config cfg;
	struct target ctl;
	struct target_conn *c;
	char run[AGENTMSG_RUN_LEN + 1];
	char results_key[96];
	char leader_key[96];
	char last_id[48];
	char ctl_run_id[48];
	struct agents_member *m;
	size_t n;
	uint64_t seq;             /* point messages sent: each one's number */
	int dropped;              /* an agent was given up during the point under way */
	/* the last timed point */
	unsigned ok;
	double skew_ms, cpu_s;
	double *skews;
	size_t nskews;
	char rps[256];
};

/* Run argv (NUL-terminated strings) on the control Redis; *r gets the
 * reply to free (r NULL: freed here).  0, or -1 with err ("control: ..."). */
int agents_cmd(struct agents *a, redisReply **r, struct rs_err *err, int argc,
	       const char **argv);
/* Give up agent m for the rest of the run, and delete its claim. */
void agents_drop(struct agents *a, struct agents_member *m);
/* The leader's own heartbeat (SET EX).  0 or -1 with err. */
int agents_lead(struct agents *a, struct rs_err *err);
/* Whether member m still heartbeats as it did when taken, its claim
 * renewed: 1 yes, 0 no, -1 the control Redis failed (err). */
int agents_beating(struct agents *a, struct agents_member *m, struct rs_err *err);
/* Give up the lead and every claim (agents_close does it too). */
void agents_release(struct agents *a);
/* Sleep ms milliseconds, whatever signal comes. */
void agents_sleep_ms(unsigned ms);

#endif
