/* cmd_run.c: "rsweep run": the plan (cmd_run_plan.c) -> (spawned) servers
 * -> sweep -> results on stdout, progress on stderr, rows in the CSV. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agents/agentkey.h"
#include "agents/agentmsg.h"
#include "agents/agents.h"
#include "cli/cmd.h"
#include "cli/cmd_run_int.h"
#include "cli/cmd_targets.h"
#include "results/histfile.h"
#include "base/log.h"
#include "cli/progress.h"
#include "net/spawn.h"
#include "analysis/series.h"
#include "sweep/sweep.h"
#include "workload/workload.h"
#include "base/xalloc.h"

static volatile sig_atomic_t run_stop;

/* The first ^C (or TERM) abandons the point and lets the run end cleanly,
 * with its guarded flush; a second one, often sent within a millisecond of
 * the first (timeout(1), a shell's kill and a supervisor's), must not cut
 * that flush short, so only a third, should anything keep the first
 * waiting, ends rsweep at once (a spawned server follows it through
 * PR_SET_PDEATHSIG). */
static void run_on_signal(int sig)
{
	if (run_stop >= 2) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	run_stop++;
}

/* What the run prints, and its count of the whole job: with --runs the
 * points of every run, so that [i/N] and the ETA cover the job. */
struct run_ui {
	struct progress progress;
	int quiet;
	int verbose;              /* -v: a block per point */
	int lines;                /* one line per point on stdout (-q, or no -o file) */
	int multi_depth;
	int multi_target;         /* name each point's target */
	size_t points;
	double timed;             /* seconds inside timed windows */
	long long errors;
	unsigned axes;            /* the settings swept (enum sweep_axis): named per point */
	unsigned run, runs;       /* the run under way (1-based) of runs */
	size_t before;            /* points of the runs before this one */
	size_t in_run;            /* points of this run so far */
	size_t per_run;           /* points of a whole run, for the runs still to come */
	double estimate;          /* run_estimate's seconds for the job; 0: none */
	struct run_env *env;      /* the run's environment, written with its rows */
	int revised;              /* the estimate was revised once */
};

/* " c=8 d=1024" for the settings of r that the run sweeps (axes), after
 * what is in buf (size bytes). */
static void run_name_axes(unsigned axes, const struct rs_row *r, char *buf, size_t size)
{
	size_t at = strlen(buf);

	if (axes & SWEEP_AXIS_CLIENTS)
		at += (size_t)snprintf(buf + at, at < size ? size - at : 0, " c=%lld",
				       (long long)r->clients);
	if (axes & SWEEP_AXIS_DATA_SIZE)
		at += (size_t)snprintf(buf + at, at < size ? size - at : 0, " d=%lld",
				       (long long)r->data_size);
	if (axes & SWEEP_AXIS_THREADS)
		at += (size_t)snprintf(buf + at, at < size ? size - at : 0, " t=%lld",
				       (long long)r->threads);
	if ((axes & SWEEP_AXIS_SERVER_ARGS) && at < size)
		snprintf(buf + at, size - at, " [%s]", r->server_args);
}

/* With -v one block per point; with -q, or without an -o file to hold
 * the rows, one line in redis-benchmark's form; else nothing (the
 * progress line shows each point, the CSV holds it). */
static void run_print_point(struct run_ui *ui, const struct rs_row *r)
{
	char name[320];

	if (!ui->verbose && !ui->lines)
		return;
	if (ui->multi_depth)
		snprintf(name, sizeof name, "%s%s%s P=%u", ui->multi_target ? r->label : "",
			 ui->multi_target ? ": " : "", r->test, r->pipeline);
	else
		snprintf(name, sizeof name, "%s%s%s", ui->multi_target ? r->label : "",
			 ui->multi_target ? ": " : "", r->test);
	if (r->rate_offered > 0)
		snprintf(name + strlen(name), sizeof name - strlen(name), " @%.0f/s", r->rate_offered);
	run_name_axes(ui->axes, r, name, sizeof name);
	if (!ui->verbose) {
		printf("%s: %.2f requests per second, p50=%.3f msec", name, r->rps, r->p50_ms);
		if (r->errors > 0)
			printf(" (%lld ERRORS of %lld replies)", (long long)r->errors,
			       (long long)r->requests);
		printf("\n");
		return;
	}
	printf("====== %s ======\n", name);
	printf("  %lld requests completed in %.3f seconds\n", (long long)r->requests, r->seconds);
	printf("  %lld parallel clients, pipeline %u, %lld bytes payload, %lld thread%s\n",
	       (long long)r->clients, r->pipeline, (long long)r->data_size, (long long)r->threads,
	       r->threads == 1 ? "" : "s");
	printf("  throughput: %.2f requests per second\n", r->rps);
	printf("  latency (msec): avg %.3f  min %.3f  p50 %.3f  p95 %.3f  p99 %.3f  p99.9 %.3f  "
	       "max %.3f\n", r->avg_ms, r->min_ms, r->p50_ms, r->p95_ms, r->p99_ms, r->p999_ms,
	       r->max_ms);
	if (r->rate_offered > 0)
		printf("  open loop: offered %.0f/s, achieved %.0f/s%s; service time (msec): p50 %.3f  "
		       "p99 %.3f  p99.9 %.3f\n", r->rate_offered, r->rps,
		       r->rate_short > 0 ? " (SHORT: the target did not keep up)" : "", r->svc_p50_ms,
		       r->svc_p99_ms, r->svc_p999_ms);
	printf("  server counted %lld calls; misses %lld; CPU seconds: server %.3f, rsweep %.3f\n",
	       (long long)r->server_calls, (long long)r->misses, r->server_cpu_s, r->client_cpu_s);
	if (r->errors > 0)
		printf("  ERRORS: %lld of %lld replies were errors; first: %s\n", (long long)r->errors,
		       (long long)r->requests, r->first_error);
	printf("\n");
}

/* Once, when the first points say the estimate was off by more than
 * half: what they say instead. */
static void run_revise(struct run_ui *ui, size_t i, size_t n)
{
	const struct progress *pg = &ui->progress;
	/* The pauses between runs are known: only the points' time is learnt. */
	double waits = pg->paused + pg->ahead;
	double projected, el = progress_elapsed(pg);
	char msg[200], took[32], all[32], was[32];

	if (ui->revised || ui->quiet ||
	    !progress_revise(ui->estimate - waits, el - pg->paused, i, n, &projected))
		return;
	projected += waits;
	ui->revised = 1;
	progress_hms(took, sizeof took, el);
	progress_hms(all, sizeof all, projected);
	progress_hms(was, sizeof was, ui->estimate);
	snprintf(msg, sizeof msg, "the first %zu points took %s: about %s in all, not the %s "
		 "estimated (the ETA follows the points)", i, took, all, was);
	progress_note(&ui->progress, msg);
}

/* i of n are this run's; the job's count adds the runs before and those
 * after, each counted whole (what --resume finds done in a later run is
 * known when it starts). */
static void run_on_point(void *ud, const struct rs_row *r, size_t i, size_t n)
{
	struct run_ui *ui = ud;

	ui->in_run = i;
	n = ui->before + n + ui->per_run * (size_t)(ui->runs - ui->run);
	i += ui->before;
	run_revise(ui, i, n);
	ui->points++;
	ui->timed += r->seconds;
	ui->errors += r->errors > 0 ? r->errors : 0;
	run_env_point(ui->env, r);
	progress_end(&ui->progress);
	run_print_point(ui, r);
	fflush(stdout);
	if (ui->multi_target || ui->axes) {
		char name[3 * ROW_STR + 2];

		snprintf(name, sizeof name, "%s%s%s", ui->multi_target ? r->label : "",
			 ui->multi_target ? ": " : "", r->test);
		run_name_axes(ui->axes, r, name, sizeof name);
		progress_point(&ui->progress, i, n, name, r->pipeline, r->rps);
		return;
	}
	progress_point(&ui->progress, i, n, r->test, r->pipeline, r->rps);
}

static void run_on_note(void *ud, const char *msg)
{
	struct run_ui *ui = ud;

	progress_note(&ui->progress, msg);
}

/* Open the -o file before anything connects: a file another rsweep is
 * writing, or one that holds results without --resume or --overwrite, is
 * refused at once, and so is a sidecar (histfile.h) not ours to add to.
 * Nothing in it changes until the first row is written
 * (csv.h), so a run the guard refuses leaves no file behind.  With
 * --resume read the rows it holds and mark each target's points done.
 * Returns 0 or -1 with err's kind set by csv_out_open, or RS_E_REFUSED for
 * a resume that would mix two ways of measuring. */
static int run_output(const struct rs_config *cfg, struct run_job *job, struct csv_out *out,
		      struct rs_rows *existing, struct rs_err *err)
{
	/* Run 2 and later add to what run 1 opened. */
	int later = job->run > 1;

	if (csv_out_open(out, cfg->output, cfg->resume || later, cfg->overwrite && !later, existing,
			 err) < 0 ||
	    histfile_check(cfg->output, err) < 0)
		return -1;
	/* A file report refuses (a duplicate point) is not one to add to:
	 * the point would count as done here and break the report there. */
	if (existing->n > 0) {
		struct series_set set;
		struct rs_err why;

		if (series_build_known(existing, SM_RPS, &set, &why) < 0) {
			rs_err_set(err, "%s (report and plot refuse this file too): fix it, or use a "
				   "new -o file", why.msg);
			return rs_err_as(err, RS_E_INPUT);
		}
		series_set_free(&set);
	}
	if (out->missing != NULL) {
		/* The columns that tell how a row was measured: without them a
		 * window, open-loop or cluster row would read as a plain one. */
		static const struct { const char *col, *why; } need[] = {
			{ "mode", "--mode window" }, { "rate_offered", "--rate" },
			{ "arrivals", "--rate" }, { "masters", "--cluster" },
			{ "key_dist", "--key-dist" },
		};
		int uses[] = { cfg->mode == ENGINE_WINDOW || cfg->rate != NULL, cfg->rate != NULL,
			       cfg->rate != NULL, cfg->cluster, job->keydist != NULL };

		for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
			if (uses[i] && csv_out_lacks(out, need[i].col))
				return rs_err_setk(err, RS_E_INPUT, "%s was written by an older rsweep "
						   "and has no %s column, which %s rows need to be "
						   "told apart: use a new -o file", cfg->output,
						   need[i].col, need[i].why);
		rs_log(RS_LOG_NOTE, "%s was written by an older rsweep: the rows added to it leave "
		       "out %s (a new -o file keeps them)", cfg->output, out->missing);
	}
	for (size_t k = 0; k < job->nsweeps; k++) {
		const struct run_target_sweep *gs = &job->sweeps[k];
		const struct cmd_target *g = &job->targets.v[gs->target];
		struct sweep_plan_who who;
		char desc[ROW_STR];

		cmd_targets_row(cfg, g, desc, sizeof desc);
		if (k % job->nat == 0 &&
		    run_check_resume(cfg, g->label, desc, job->key_dist,
				     job->key_prefix[0] ? job->key_prefix : NULL, existing, err) < 0)
			return rs_err_as(err, RS_E_REFUSED);
		sweep_who(&gs->sc, &who);
		sweep_plan_mark_target(&job->plan, &job->w, k, &who, existing);
	}
	if (job->plan.todo == 0 && cfg->precision <= 0 && !cfg->until_decided && cfg->slo == NULL)
		rs_log(RS_LOG_INFO, "every point%s is already in %s",
		       cfg->runs > 1 ? " of this run" : "", cfg->output);
	return 0;
}

/* 0 after a sweep that ended as ss, else -1 with err's kind saying how it
 * ended; for an interruption err says where the completed points are. */
static int run_status(const struct rs_config *cfg, enum sweep_status ss, struct rs_err *err)
{
	switch (ss) {
	case SWEEP_OK:
		return 0;
	case SWEEP_REFUSED:
		return rs_err_as(err, RS_E_REFUSED);
	case SWEEP_INTERRUPTED:
		return rs_err_setk(err, RS_E_INTERRUPTED, "interrupted; completed points are in %s%s",
				   cfg->output ? cfg->output : "(no -o file)",
				   cfg->output ? ": --resume finishes the sweep" : "");
	case SWEEP_FAILED:
	case SWEEP_ERROR_REPLIES:
		break;
	}
	return rs_err_as(err, RS_E_FAILED);
}

/* Start or reach every target and run its guard, before anything is
 * measured.  With --target, a target that cannot be reached is bad input
 * (the sweep has not begun): err names it.  Two targets that reach one
 * server process over one kind of connection and one database are one
 * target given twice; over a UNIX socket and TCP they share the server.
 * Returns SWEEP_OK, or how it ended with err set. */
static enum sweep_status run_open(const struct rs_config *cfg, struct run_job *job,
				  struct rs_err *err)
{
	for (size_t k = 0; k < job->nsweeps; k++) {
		struct run_target_sweep *gs = &job->sweeps[k];
		struct cmd_target *g = &job->targets.v[gs->target];
		enum sweep_status st;

		/* A target's server once, for the first of its combinations. */
		if (k % job->nat == 0 && cmd_targets_start(cfg, gs->sc.timeout, &run_stop, g, err) < 0)
			return SWEEP_FAILED;
		st = sweep_open(&gs->sc, gs->w, &gs->s, err);
		/* No server where the user pointed (or at the default address):
		 * say how to get one. */
		if (st == SWEEP_FAILED && !g->spawned && strstr(err->msg, ": cannot connect: ") != NULL) {
			char was[RS_ERR_LEN];

			xstrlcpy(was, err->msg, sizeof was);
			rs_err_setk(err, err->kind, "%s (no server there? --spawn starts a private one)",
				    was);
		}
		if (st != SWEEP_OK && g->def != NULL) {
			rs_err_prefix(err, "target '%s'", g->label);
			if (st == SWEEP_FAILED)
				rs_err_as(err, RS_E_INPUT);
		}
		if (st != SWEEP_OK)
			return st;
		/* The combinations of one target share its server: each empties
		 * it after its points, so that the next one's guard finds only
		 * what it wrote. */
		if (job->nat > 1)
			sweep_share(gs->s);
		for (size_t j = 0; j < k && !g->spawned && k % job->nat == 0; j += job->nat) {
			struct run_target_sweep *hs = &job->sweeps[j];
			struct cmd_target *h = &job->targets.v[hs->target];

			if (h->spawned || strcmp(sweep_run_id(hs->s), sweep_run_id(gs->s)) != 0)
				continue;
			if ((h->t.socket != NULL) == (g->t.socket != NULL) && h->t.dbnum == g->t.dbnum) {
				rs_err_setk(err, RS_E_USAGE, "target '%s': %s reaches the server of target "
					    "'%s' (%s) again: one target given twice", g->label, g->t.desc,
					    h->label, h->t.desc);
				return SWEEP_FAILED;
			}
			/* With combinations, every sweep shares already. */
			sweep_share(hs->s);
			sweep_share(gs->s);
		}
	}
	return SWEEP_OK;
}

/* Whether two targets name one address: the same socket, or the same
 * host and port. */
static int run_same_address(const struct target *a, const struct target *b)
{
	if ((a->socket != NULL) != (b->socket != NULL))
		return 0;
	if (a->socket != NULL)
		return strcmp(a->socket, b->socket) == 0;
	return a->port == b->port && strcmp(a->host, b->host) == 0;
}

/* --control, --agents: refuse a control Redis that is the target (by
 * address, then by server process), and wait for the agents.  Returns
 * SWEEP_OK, or SWEEP_FAILED with err (RS_E_USAGE for the control Redis
 * being the target). */
static enum sweep_status run_agents(const struct rs_config *cfg, struct run_job *job,
				    struct rs_err *err)
{
	struct cmd_target *g = &job->targets.v[0];
	struct run_target_sweep *gs = &job->sweeps[0];
	struct targets_def *d = &job->control_def;
	struct target *ctl = &job->control;
	struct agents_config ac = { 0 };
	char *uri = job->agents_uri;
	int rc;

	if (cmd_agent_control(cfg, d, ctl, err) < 0)
		return SWEEP_FAILED;
	ctl->stop = &run_stop;
	cmd_targets_uri(g, uri, sizeof job->agents_uri);
	{
		/* The database the agents will load, as they read the URI, is
		 * the one this sweep guards and flushes, or nothing runs. */
		struct targets_def u = { 0 };
		unsigned db;

		if (agentmsg_target_ok(uri, &u, err) < 0) {
			targets_def_free(&u);
			return SWEEP_FAILED;
		}
		db = u.has_db ? u.dbnum : 0;
		targets_def_free(&u);
		if (db != g->t.dbnum) {
			rs_err_setk(err, RS_E_USAGE, "--agents: the agents would load database %u of "
				    "%s, and this sweep guards database %u: give the database in a "
				    "redis:// URI (redis://HOST:PORT/%u)", db, uri, g->t.dbnum,
				    g->t.dbnum);
			return SWEEP_FAILED;
		}
	}
	if (run_same_address(ctl, &g->t)) {
		rs_err_setk(err, RS_E_USAGE, "--control %s is the target's address: the control "
			    "Redis must be another server (the target is flushed)", ctl->desc);
		return SWEEP_FAILED;
	}
	ac.control = ctl;
	ac.key = &job->agents_key;
	ac.n = (unsigned)cfg->agents;
	ac.wait = cfg->agents_wait;
	ac.target_uri = uri;
	ac.clients = (unsigned)cfg->clients;
	ac.threads = (unsigned)cfg->threads;
	ac.stop = &run_stop;
	ac.target_run_id = sweep_run_id(gs->s);
	ac.target_desc = g->t.desc;
	rc = agents_open(&ac, &job->agents, err);
	if (rc == 0 && strcmp(agents_control_run_id(job->agents), sweep_run_id(gs->s)) == 0)
		rc = rs_err_setk(err, RS_E_USAGE, "--control %s reaches the target's server (%s): "
				 "the control Redis must be another server (the target is flushed)",
				 ctl->desc, g->t.desc);
	/* ^C while it waited for the agents is an interruption (130). */
	if (rc < 0)
		return run_stop ? SWEEP_INTERRUPTED : SWEEP_FAILED;
	/* Every combination of the target (a -d list's values) is loaded by
	 * the same agents: each point's job carries its values. */
	for (size_t k = 0; k < job->nsweeps; k++)
		sweep_use_load(job->sweeps[k].s, load_agents(job->agents));
	return SWEEP_OK;
}

/* --runs: the pause before run (2 and later), cut short by a signal, and
 * the line that says which run starts. */
static void run_between(const struct rs_config *cfg, struct progress *pg, unsigned run)
{
	struct timespec step = { 0, 100000000 };
	double left = cfg->run_pause, t0 = progress_elapsed(pg);

	progress_end(pg);
	rs_log(RS_LOG_INFO, "run %u of %llu%s", run, (unsigned long long)cfg->runs,
	       cfg->run_pause > 0 ? " after a pause (--run-pause)" : "");
	for (; left > 0 && !run_stop; left -= 0.1) {
		if (left < 0.1)
			step.tv_nsec = (long)(left * 1e9);
		nanosleep(&step, NULL);
	}
	pg->paused += progress_elapsed(pg) - t0;
	pg->ahead = cfg->run_pause * (double)(cfg->runs - run);
}

/* The job's progress, its clock started once for every run, and how
 * its points are printed. */
static void run_ui_start(const struct rs_config *cfg, const struct run_job *job,
			 struct run_ui *ui)
{
	progress_init(&ui->progress, stderr, cfg->quiet);
	ui->quiet = cfg->quiet;
	ui->verbose = cfg->verbose;
	ui->lines = cfg->quiet || cfg->output == NULL;
	ui->runs = (unsigned)cfg->runs;
	ui->run = 1;
	ui->per_run = job->plan.n;
	ui->progress.ahead = cfg->run_pause * (double)(cfg->runs - 1);
}

/* Before run 1's first point (what --resume left to do known, the guards
 * passed): the job's estimate, said unless -q, and kept for run_revise. */
static void run_ui_estimate(const struct rs_config *cfg, const struct run_job *job,
			    struct run_ui *ui)
{
	ui->estimate = job->plan.todo > 0 ? run_estimate(cfg, job) : 0;
	if (!cfg->quiet && job->plan.todo > 0 && cfg->precision <= 0 && !cfg->until_decided &&
	    cfg->slo == NULL) {
		char msg[160], t[32];

		progress_hms(t, sizeof t, ui->estimate);
		snprintf(msg, sizeof msg, "%zu points%s, about %s by the estimate%s",
			 job->plan.todo + job->plan.n * (size_t)(cfg->runs - 1),
			 cfg->runs > 1 ? " (every run)" : "", t,
			 cfg->duration > 0 ? "" : " (-n runs vary: the first points revise it)");
		progress_note(&ui->progress, msg);
	}
}

/* From the output file to the last point: the file, signals, the
 * (spawned) servers, the guards, the points, the summary.  Returns 0 or
 * -1 (err and its kind set). */
static int run_sweep(const struct rs_config *cfg, struct run_job *job, struct run_ui *ui,
		     struct rs_err *err)
{
	struct sigaction sa, old_int, old_term;
	struct csv_out out = { .fd = -1 };
	struct rs_rows existing = { 0 };
	struct sweep **ss;
	enum sweep_status st;
	int rc, fresh;

	if ((rc = cmd_targets_probe(&job->targets, err)) < 0)
		return rc;
	if (cfg->output != NULL &&
	    ((rc = run_output(cfg, job, &out, &existing, err)) < 0 ||
	     (job->plan.todo == 0 && job->sc.precision <= 0 && !job->sc.until_decided &&
	      job->sc.slo == NULL)))
		goto close;
	/* Made or emptied by this run (--overwrite), when its first row comes. */
	fresh = out.create || out.replace;
	for (size_t k = 0; k < job->nsweeps; k++)
		job->sweeps[k].sc.prior = &existing;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = run_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	run_stop = 0;
	if (job->run > 1)
		run_between(cfg, &ui->progress, job->run);
	ui->run = job->run;
	ui->in_run = 0;
	ui->multi_depth = cfg->pipeline.n > 1;
	ui->multi_target = job->targets.n > 1;
	ui->axes = job->sc.axes;
	if (run_place_self(job, err) < 0) {
		rc = -1;
		goto restore;
	}
	if (job->run <= 1) {
		char msg[320];
		size_t spawned = 0;

		for (size_t k = 0; k < job->targets.n; k++)
			spawned += job->targets.v[k].spawned != 0;
		/* Two spawned servers unplaced: their verdicts need the warning. */
		run_place_say(job, msg, sizeof msg);
		if (msg[0] != '\0' && job->place.unplaced != NULL && spawned > 1)
			progress_note(&ui->progress, msg);
		else if (msg[0] != '\0')
			rs_log(RS_LOG_DEBUG, "%s", msg);
	}
	st = run_stop ? SWEEP_INTERRUPTED : run_open(cfg, job, err);
	if (st == SWEEP_OK && cfg->agents > 0)
		st = run_agents(cfg, job, err);
	/* As for -a: a sweep file holds no password, so this one was in argv. */
	for (size_t k = 0; st == SWEEP_OK && k < job->targets.n; k++)
		if (job->targets.v[k].def != NULL && job->targets.v[k].def->password != NULL) {
			char msg[160];

			snprintf(msg, sizeof msg, "warning: target '%s': a password on the command line "
				 "may not be safe; prefer the REDISCLI_AUTH environment variable",
				 job->targets.v[k].label);
			progress_note(&ui->progress, msg);
		}
	/* A prefix the user did not choose is one to know after a kill -9. */
	if (st == SWEEP_OK && cfg->key_prefix != NULL && strcmp(cfg->key_prefix, "auto") == 0) {
		char msg[2 * WORKLOAD_PREFIX_MAX + 100];

		snprintf(msg, sizeof msg, "keys under '%s' (rsweep clean --key-prefix %s removes what "
			 "a killed run leaves)", job->key_prefix, job->key_prefix);
		progress_note(&ui->progress, msg);
	}
	/* A sweep nobody can measure again should not vanish unnoticed. */
	if (st == SWEEP_OK && cfg->output == NULL && job->run == 1)
		progress_note(&ui->progress, "no -o FILE.csv: the points are printed, not saved "
			      "(plot, report and --resume need the CSV)");
	ss = xcalloc(job->nsweeps, sizeof *ss);
	for (size_t k = 0; k < job->nsweeps; k++)
		ss[k] = job->sweeps[k].s;
	/* Once the servers have passed their guards, before the first point. */
	if (st == SWEEP_OK && job->run == 1)
		run_ui_estimate(cfg, job, ui);
	if (st == SWEEP_OK)
		ui->env = run_env_open(cfg, job, fresh);
	if (st == SWEEP_OK)
		st = sweep_points_all(ss, job->nsweeps, &job->plan, cfg->output ? &out : NULL, err);
	run_env_close(ui->env);
	ui->env = NULL;
	free(ss);
	ui->before += ui->in_run;
	progress_end(&ui->progress);
	/* An unreachable or twice-given --target is bad input, not a failure;
	 * so is a certificate that does not verify (refused). */
	rc = st == SWEEP_FAILED && (err->kind == RS_E_INPUT || err->kind == RS_E_USAGE ||
				    err->kind == RS_E_REFUSED) ? -1 :
	     run_status(cfg, st, err);
	agents_close(job->agents);
	job->agents = NULL;
	for (size_t k = job->nsweeps; k-- > 0;) {
		sweep_close(job->sweeps[k].s);
		job->sweeps[k].s = NULL;
		if (k % job->nat == 0)
			cmd_targets_stop(&job->targets.v[job->sweeps[k].target]);
	}
restore:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
close:
	csv_out_close(&out);
	rows_free(&existing);
	return rc;
}

int cmd_run(struct rs_config *cfg, struct rs_err *err)
{
	struct run_job job = { 0 };
	struct run_ui ui = { 0 };
	int rc;

	/* What the sweeps report to: this file's progress and signals. */
	job.sc.stop = &run_stop;
	job.sc.on_point = run_on_point;
	job.sc.on_note = run_on_note;
	job.sc.ud = &ui;
	/* Step two: show the plan (--dry-run), or measure it. */
	rc = run_plan(cfg, &job, err);
	if (rc == 0 && cfg->dry_run)
		run_dry(cfg, &job);
	if (rc == 0 && !cfg->dry_run)
		run_ui_start(cfg, &job, &ui);
	for (unsigned r = 1; rc == 0 && !cfg->dry_run && r <= cfg->runs && !run_stop; r++) {
		if (r > 1)
			run_plan_points(cfg, &job, r);
		rc = run_sweep(cfg, &job, &ui, err);
	}
	/* One summary for the job: every run's points over the job's wall time. */
	if (ui.points > 0)
		progress_summary(&ui.progress, ui.points, ui.run, ui.timed, ui.errors, cfg->output);
	sweep_plan_free(&job.plan);
	workload_free(&job.w);
	for (size_t d = 0; job.ws != NULL && d < cfg->data_size_axis.n; d++)
		workload_free(&job.ws[d]);
	free(job.ws);
	free(job.at);
	cmd_targets_free(&job.targets);
	targets_def_free(&job.control_def);
	agentkey_clear(&job.agents_key);
	rates_free(&job.rates);
	keydist_free(job.keydist);
	free(job.sweeps);
	return rc;
}
