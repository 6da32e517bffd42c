/* cmd_run_int.h: what the parts of "rsweep run" share: the plan
 * (cmd_run_plan.c: options, sweep file, targets, axes, checks), what is
 * said of it before it runs (cmd_run_dry.c: the estimate, the dry run)
 * and the measuring (cmd_run.c: output file, servers, guards, points,
 * progress).  Nobody else includes it. */
#ifndef RS_CMD_RUN_INT_H
#define RS_CMD_RUN_INT_H

#include <signal.h>
#include <stddef.h>

#include "agents/agentkey.h"
#include "agents/agents.h"
#include "base/axis.h"
#include "cli/cmd_targets.h"
#include "base/cpus.h"
#include "engine/keydist.h"
#include "cli/opts.h"
#include "base/rates.h"
#include "results/row.h"
#include "sweep/sweep.h"
#include "net/targets.h"
#include "workload/workload.h"

/* The sweep of one server of the run and one combination of its axes:
 * job->sweeps[k] is target k / job->nat, combination k % job->nat. */
struct run_target_sweep {
	struct sweep_config sc;
	struct sweep *s;
	size_t target;            /* index into job->targets.v */
	const struct workload *w; /* the tests formatted with its -d */
};

/* What one run is to do, worked out from the options before anything is
 * touched. */
struct run_job {
	struct workload w;         /* the tests (at the first -d of the list) */
	struct workload *ws;       /* [data_size_axis.n]: the tests at each -d */
	struct axis_point *at;     /* the combinations of -c, -d, --threads */
	size_t nat;
	size_t nsweeps;            /* targets.n x nat */
	struct sweep_plan plan;
	struct sweep_config sc;   /* the settings every target shares */
	char host[ROW_STR];
	const char *label;
	struct cmd_targets targets; /* the servers (cmd_targets.h) */
	struct run_target_sweep *sweeps; /* and their sweeps, nsweeps of them */
	struct rate_list rates;   /* --rate; none: closed loop */
	struct slo_objective slo; /* --slo, parsed (job->sc.slo points here) */
	struct agents *agents;    /* --agents: the leader's side */
	char agents_uri[TARGETS_URI_MAX]; /* what the agents connect to: the leader keeps it */
	struct targets_def control_def; /* --control, parsed */
	struct target control;
	struct agentkey agents_key; /* --agents-key: signs the agents' messages */
	char key_prefix[WORKLOAD_PREFIX_MAX + 1]; /* --key-prefix, "auto" made one; "": none */
	int key_prefix_resumed;   /* it is the one the file --resume continues records */
	struct keydist *keydist;  /* --key-dist's sampler; NULL: uniform */
	char key_dist[KEYDIST_NAME_MAX]; /* its name in the rows; "": fixed keys */
	unsigned run;             /* --runs: the run under way, 1-based */
	struct cpus_place place;  /* --cpus: where servers and client go */
	char server_cpus[64];     /* the rows' server_cpus: "" unknown */
	char client_cpus[64];     /* the rows' client_cpus: "" unknown */
};

/* ---- cmd_run_place.c ---- */

/* --cpus, and the CPUs this process may use, into job->place (cpus.h),
 * after the targets are built and before their sweeps' settings are
 * made: each spawned target's cpus, and the rows' server_cpus and
 * client_cpus.  Returns 0, or -1 with err (RS_E_USAGE). */
int run_place(const struct rs_config *cfg, struct run_job *job, struct rs_err *err);
/* Place this process (the load generator's threads, which start later)
 * as job->place says.  Returns 0, or -1 with err. */
int run_place_self(const struct run_job *job, struct rs_err *err);
/* The placement in a line for --dry-run and -v, into buf: "spawned
 * servers on CPU 1, the load generator on CPU 0", or why they are not
 * placed apart; "" when nothing is spawned and nothing placed. */
void run_place_say(const struct run_job *job, char *buf, size_t size);

/* ---- cmd_run_plan.c ---- */

/* Step one: the options (and sweep file) into a checked plan of points
 * over every target and combination of the axes; job->sc's stop,
 * on_point, on_note and ud (what the sweeps report to) are the caller's,
 * set before.  Returns 0, or -1 with
 * err of kind RS_E_USAGE (options, targets) or RS_E_INPUT (a sweep file,
 * tests, a custom command). */
int run_plan(struct rs_config *cfg, struct run_job *job, struct rs_err *err);
/* The points of run (1-based) into job->plan (run_plan makes run 1's). */
void run_plan_points(const struct rs_config *cfg, struct run_job *job, unsigned run);
/* Refuse (err) a resume of label on desc that would measure its rows
 * another way than they were (target, cluster, --key-dist, a setting
 * outside this run's lists, -n, and the settings row_way_differs
 * compares: --expire, --key-prefix or not (key_prefix: the run's, NULL
 * none), --data-size-range). */
int run_check_resume(const struct rs_config *cfg, const char *label, const char *desc,
		     const char *key_dist, const char *key_prefix, const struct rs_rows *rows,
		     struct rs_err *err);

/* ---- cmd_run_env.c ---- */

/* The run's environment (runenv.h), read once the servers have passed
 * their guards: the machine, and each target's server over a connection
 * of its own (what cannot be read stays unknown; nothing here fails).
 * fresh: the run made or emptied the -o file, so the sidecar's old lines
 * go.  NULL without an -o file. */
struct run_env;
struct run_env *run_env_open(const struct rs_config *cfg, const struct run_job *job, int fresh);
/* After row r is written: the line of r's target, once a run. */
void run_env_point(struct run_env *re, const struct rs_row *r);
/* The run's end: the load now, for each target that has its line; frees
 * re (NULL allowed). */
void run_env_close(struct run_env *re);

/* ---- cmd_run_dry.c ---- */

/* A guess at the seconds the whole job takes: the points of job->plan not
 * done, the whole plan for each later run (what --resume finds done there
 * is known when it starts), the pauses between runs. */
double run_estimate(const struct rs_config *cfg, const struct run_job *job);
/* --dry-run on stdout: a summary (points, runs, tests, depths, axes,
 * targets) and the estimate, then with -v each point of run 1. */
void run_dry(const struct rs_config *cfg, const struct run_job *job);
/* Warn (stderr) when a spawned server's threads (its --io-threads) and
 * rsweep's --threads want more CPUs than the machine has. */
void run_warn_cores(const struct rs_config *cfg, const struct run_job *job);

#endif
