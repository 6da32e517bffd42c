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
/* The most start skews a run keeps for its summary line. */
#define AGENTS_SKEWS_MAX ((size_t)1 << 20)

struct agents_member {
	char id[AGENTMSG_ID_MAX];
	char alive[160];          /* its heartbeat's value when taken: a restart changes it */
	int dead;
	/* the point under way */
	uint64_t share;
	int answered;
	int beat;                 /* agents_check: it heartbeats, its claim renewed */
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
	/* the run's: every agent's skew of every timed point, for the line
	 * agents_summary prints; and the start's margin (agents_margin) */
	double *run_skews;
	size_t run_nskews;
	uint64_t points;
	uint64_t margin_ns;
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
/* Whether the members still heartbeat as they did when taken, each
 * one's claim renewed: m->beat 1 yes, 0 no, for every member alive (but
 * those that answered, with skip_answered).  A few commands whatever the
 * number of agents (two MGETs and the renewals in one round trip).  0, or
 * -1 when the control Redis failed (err). */
int agents_check(struct agents *a, int skip_answered, struct rs_err *err);
/* Give up the lead and every claim (agents_close does it too). */
void agents_release(struct agents *a);
/* Print the run's start skews, one line (agents_close does). */
void agents_summary(struct agents *a);
/* qsort's order of doubles; the p-quantile (0..1) of n sorted values
 * (nearest rank; 0 for none). */
int agents_dbl_cmp(const void *x, const void *y);
double agents_q(const double *v, size_t n, double p);
/* Sleep ms milliseconds, whatever signal comes. */
void agents_sleep_ms(unsigned ms);

#endif
