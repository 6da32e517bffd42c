/* cmd_run.c: "rsweep run": options -> plan -> (spawned) server -> sweep ->
 * results on stdout, progress on stderr, rows in the CSV. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agentkey.h"
#include "agentmsg.h"
#include "agents.h"
#include "cmd.h"
#include "cmd_targets.h"
#include "histfile.h"
#include "keydist.h"
#include "log.h"
#include "progress.h"
#include "spawn.h"
#include "sbuf.h"
#include "series.h"
#include "spec.h"
#include "stats.h"
#include "sweep.h"
#include "targets.h"
#include "workload.h"
#include "xalloc.h"

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


/* Points in one plan at the most: a million is days of measuring already. */
#define RUN_MAX_POINTS 1000000

struct run_ui {
	struct progress progress;
	int quiet;
	int multi_depth;
	int multi_target;         /* name each point's target */
	size_t points;
	double timed;             /* seconds inside timed windows */
	long long errors;
	unsigned axes;            /* the settings swept (enum sweep_axis): named per point */
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

/* One block per point, or with -q one line in redis-benchmark's form. */
static void run_print_point(struct run_ui *ui, const struct rs_row *r)
{
	char name[320];

	if (ui->multi_depth)
		snprintf(name, sizeof name, "%s%s%s P=%u", ui->multi_target ? r->label : "",
			 ui->multi_target ? ": " : "", r->test, r->pipeline);
	else
		snprintf(name, sizeof name, "%s%s%s", ui->multi_target ? r->label : "",
			 ui->multi_target ? ": " : "", r->test);
	if (r->rate_offered > 0)
		snprintf(name + strlen(name), sizeof name - strlen(name), " @%.0f/s", r->rate_offered);
	run_name_axes(ui->axes, r, name, sizeof name);
	if (ui->quiet) {
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

static void run_on_point(void *ud, const struct rs_row *r, size_t i, size_t n)
{
	struct run_ui *ui = ud;

	ui->points++;
	ui->timed += r->seconds;
	ui->errors += r->errors > 0 ? r->errors : 0;
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

/* Apply --sweep's file to cfg (the command line wins over it).  Returns 0
 * or -1 (err says FILE:LINE where there is one). */
static int run_apply_sweep_file(struct rs_config *cfg, struct rs_err *err)
{
	char path[1024];
	struct spec sp;

	spec_find(cfg->sweep, "sweeps", ".sweep", path, sizeof path);
	if (strchr(cfg->sweep, '/') == NULL && access(path, F_OK) != 0 && errno == ENOENT)
		return spec_not_found(cfg->sweep, "sweeps", ".sweep", err);
	if (spec_read_file(path, &sp, err) < 0)
		return -1;
	for (size_t i = 0; i < sp.n; i++) {
		if (sp.v[i].section != 0) {
			rs_err_setk(err, RS_E_INPUT, "%s:%u: sweep files have no [sections]", path,
				    sp.v[i].line);
			spec_free(&sp);
			return -1;
		}
		if (opts_set_file_key(CMD_RUN, cfg, path, sp.v[i].line, sp.v[i].key, sp.v[i].value,
				      err) < 0) {
			spec_free(&sp);
			return -1;
		}
	}
	spec_free(&sp);
	return 0;
}

/* Where the sweep file and the command line both speak, the command line
 * wins: its -n or --duration, and its -h, -p, -s or --spawn over the
 * file's targets.  Both in one place is a contradiction.  Returns 0 or -1
 * (usage). */
static int run_settle(struct rs_config *cfg, struct rs_err *err)
{
	if (opts_given(cfg, "requests") && cfg->duration > 0) {
		enum opt_origin n = opts_origin(cfg, "requests"), d = opts_origin(cfg, "duration");

		if (n == d)
			return rs_err_set(err, "-n and --duration exclude each other");
		if (n == ORIGIN_ARGV)
			cfg->duration = 0;
	}
	cmd_targets_settle(cfg);
	return 0;
}

/* Checks that need more than one option, all before anything is touched:
 * first which values stand, then each value on its own, then the rules
 * between two options (opts_rules.c), then those a row cannot say: numbers
 * against numbers, --mode's value, TLS on by a URI's scheme, files on
 * disk. */
static int run_check(struct rs_config *cfg, struct rs_err *err)
{
	if (run_settle(cfg, err) < 0)
		return -1;
	if (cfg->timeout > 0 && cfg->timeout < 0.001)
		return rs_err_set(err, "--timeout %g is below 1 ms (0 means the default)", cfg->timeout);
	if (cfg->label != NULL) {
		if (strlen(cfg->label) >= ROW_STR)
			return rs_err_set(err, "--label is longer than %d characters", ROW_STR - 1);
		for (const char *c = cfg->label; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				return rs_err_set(err, "--label holds a control character");
	}
	if (cfg->nargs > 0 && !cfg->dashdash)
		return rs_err_set(err, "unexpected operand '%s' (a custom command goes after --)",
				  cfg->args[0]);
	if (cfg->dashdash && cfg->nargs == 0)
		return rs_err_set(err, "no command after --");
	/* The lists' largest values stand for them where one value is asked
	 * (the agents', -n's warning); each point has its own (axis.h). */
	cfg->clients = axis_max(&cfg->clients_axis);
	cfg->data_size = axis_max(&cfg->data_size_axis);
	cfg->threads = axis_max(&cfg->threads_axis);
	if (cfg->clients_axis.n == 1 && cfg->threads_axis.n == 1 && cfg->threads > cfg->clients)
		return rs_err_set(err, "--threads %llu is more than -c %llu connections",
				  (unsigned long long)cfg->threads,
				  (unsigned long long)cfg->clients);
	if (cfg->agents > 0 && (cfg->clients_axis.n > 1 || cfg->data_size_axis.n > 1 ||
				cfg->threads_axis.n > 1))
		return rs_err_set(err, "--agents measures one -c, -d and --threads: sweep a list of "
				  "them without agents");
	if (cfg->nargs > 0 && cfg->data_size_axis.n > 1)
		return rs_err_set(err, "-d LIST with a custom command: the command's own arguments "
				  "are its data");
	if (opts_rules_check(CMD_RUN, cfg, err) < 0 || cmd_targets_check_tls(cfg, err) < 0)
		return -1;
	if (cfg->rate != NULL && cfg->mode == ENGINE_LOCKSTEP && opts_given(cfg, "mode"))
		return rs_err_set(err, "--rate keeps a window of -P in flight: drop --mode lockstep");
	if (cfg->agents > 0 && cfg->duration <= 0 && cfg->requests < cfg->agents)
		return rs_err_set(err, "-n %llu is fewer requests than --agents %llu",
				  (unsigned long long)cfg->requests, (unsigned long long)cfg->agents);
	return 0;
}

/* Whether the list a holds v. */
static int run_axis_has(const struct axis_list *a, int64_t v)
{
	for (size_t i = 0; i < a->n; i++)
		if ((int64_t)a->v[i] == v)
			return 1;
	return 0;
}

/* Whether the option what ("-c", "-d", "--threads", "-r") has one value in
 * this run. */
static int run_axis_single(const struct rs_config *cfg, const char *what)
{
	return strcmp(what, "-c") == 0 ? cfg->clients_axis.n == 1 :
	       strcmp(what, "-d") == 0 ? cfg->data_size_axis.n == 1 :
	       strcmp(what, "--threads") == 0 ? cfg->threads_axis.n == 1 : 1;
}

/* Resuming adds points to series measured before: refuse when this run
 * would measure them differently, rather than mix the two in one line. */
static int run_check_resume(const struct rs_config *cfg, const char *label, const char *desc,
			    const char *key_dist, const struct rs_rows *rows, struct rs_err *err)
{
	for (size_t i = 0; i < rows->n; i++) {
		const struct rs_rec *r = &rows->v[i];
		const char *what = NULL;
		long long was = 0, now = 0;

		if (strcmp(r->label, label) != 0)
			continue;
		if (r->server->target[0] != '\0' && strcmp(r->server->target, desc) != 0)
			return rs_err_set(err, "%s:%u: label '%s' was measured on %s, this run is on %s: "
					  "resume on the same server, or use another --label", r->src,
					  r->line, label, r->server->target, desc);
		/* A cluster's rows and one server's are not one series, though
		 * the target column names the seed node alike. */
		if (isfinite(rows_fig(rows, r, ROW_MASTERS)) != (cfg->cluster != 0))
			return rs_err_set(err, "%s:%u: label '%s' was measured %s, this run %s: "
					  "resume the same way, or use another --label", r->src,
					  r->line, label, cfg->cluster ? "on one server" :
					  "with --cluster", cfg->cluster ? "with --cluster" :
					  "on one server");
		/* Rows from before the column drew their keys uniformly. */
		if (r->keyspace > 0 && r->keyspace == (int64_t)cfg->keyspace &&
		    strcmp(r->server->key_dist[0] ? r->server->key_dist : "uniform", key_dist) != 0)
			return rs_err_set(err, "%s:%u: label '%s' was measured with --key-dist %s, this "
					  "run uses --key-dist %s: resume with the same options, or use "
					  "another --label", r->src, r->line, label,
					  r->server->key_dist[0] ? r->server->key_dist : "uniform",
					  key_dist);
		if (r->clients >= 0 && !run_axis_has(&cfg->clients_axis, r->clients))
			what = "-c", was = r->clients, now = (long long)cfg->clients;
		else if (r->data_size >= 0 && !run_axis_has(&cfg->data_size_axis, r->data_size))
			what = "-d", was = r->data_size, now = (long long)cfg->data_size;
		else if (r->keyspace >= 0 && r->keyspace != (int64_t)cfg->keyspace)
			what = "-r", was = r->keyspace, now = (long long)cfg->keyspace;
		else if (r->threads >= 0 && !run_axis_has(&cfg->threads_axis, r->threads))
			what = "--threads", was = r->threads, now = (long long)cfg->threads;
		else if (cfg->duration == 0 && r->errors == 0 && r->requests >= 0 &&
			 r->requests != (int64_t)cfg->requests)
			what = "-n", was = r->requests, now = (long long)cfg->requests;
		if (what != NULL && strcmp(what, "-n") != 0 && !run_axis_single(cfg, what))
			return rs_err_set(err, "%s:%u: label '%s' was measured with %s %lld, which this "
					  "run's %s list leaves out: resume with the same options, or use "
					  "another --label", r->src, r->line, label, what, was, what);
		if (what != NULL)
			return rs_err_set(err, "%s:%u: label '%s' was measured with %s %lld, this run "
					  "uses %s %lld: resume with the same options, or use another "
					  "--label", r->src, r->line, label, what, was, what, now);
	}
	return 0;
}

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
	struct agents *agents;    /* --agents: the leader's side */
	char agents_uri[TARGETS_URI_MAX]; /* what the agents connect to: the leader keeps it */
	struct targets_def control_def; /* --control, parsed */
	struct target control;
	struct agentkey agents_key; /* --agents-key: signs the agents' messages */
	char key_prefix[WORKLOAD_PREFIX_MAX + 1]; /* --key-prefix, "auto" made one; "": none */
	struct keydist *keydist;  /* --key-dist's sampler; NULL: uniform */
	char key_dist[KEYDIST_NAME_MAX]; /* its name in the rows; "": fixed keys */
	unsigned run;             /* --runs: the run under way, 1-based */
};

static void run_dry(const struct rs_config *cfg, const struct run_job *job)
{
	const struct workload *w = &job->w;
	const struct sweep_plan *plan = &job->plan;
	double total = 0;

	printf("plan: %zu point%s (%zu test%s x %zu depth%s x %llu repeat%s", plan->n,
	       plan->n == 1 ? "" : "s", w->n, w->n == 1 ? "" : "s", cfg->pipeline.n,
	       cfg->pipeline.n == 1 ? "" : "s", (unsigned long long)cfg->repeat,
	       cfg->repeat == 1 ? "" : "s");
	if (job->targets.n > 1)
		printf(" x %zu targets", job->targets.n);
	if (job->nat > 1)
		printf(" x %zu combinations of -c, -d and --threads", job->nat);
	printf("), %zu to run, order %s%s\n", plan->todo, sweep_order_names[cfg->order],
	       job->nsweeps > 1 ? job->nat > 1 ? ", each point's combinations back to back, "
	       "ABBA" : ", targets interleaved ABBA" : "");
	if (job->nat > 1) {
		printf("axes:");
		for (size_t i = 0; i < job->nat; i++)
			printf(" c=%llu/d=%llu/t=%llu", (unsigned long long)job->at[i].clients,
			       (unsigned long long)job->at[i].data_size,
			       (unsigned long long)job->at[i].threads);
		printf("\n");
	}
	if (cfg->runs > 1)
		printf("runs: %llu, one after another, %g s apart, each shuffled anew (the points "
		       "below are run 1's)\n", (unsigned long long)cfg->runs, cfg->run_pause);
	if (job->targets.n == 1 && job->targets.v[0].def == NULL)
		printf("label: %s\n", job->label);
	for (size_t k = 0; k < job->targets.n && job->targets.v[k].def != NULL; k++) {
		const struct targets_def *d = job->targets.v[k].def;

		printf("target: %s = %s", d->label, d->uri);
		for (size_t a = 0; a < d->nargs; a++)
			printf(" %s", d->args[a]);
		printf("\n");
	}
	for (size_t i = 0; i < plan->n; i++) {
		const struct sweep_point *p = &plan->v[i];
		/* A rough guess for -n runs: 100k rps at P=1, growing with depth to 1M. */
		double rps = 100000.0 * p->depth < 1e6 ? 100000.0 * p->depth : 1e6;
		/* One connection at a time waits for each batch. */
		if (job->sweeps[p->target].sc.clients < 4)
			rps *= job->sweeps[p->target].sc.clients / 4.0;
		double secs = cfg->duration > 0 ? cfg->duration : (double)cfg->requests / rps;

		if (!p->done)
			total += secs + cfg->warmup + cfg->pause + 0.01;
		printf("%5u  ", p->order);
		const struct run_target_sweep *gs = &job->sweeps[p->target];

		if (job->targets.n > 1)
			printf("%-12s ", job->targets.v[gs->target].label);
		if (job->sc.axes & SWEEP_AXIS_SERVER_ARGS)
			printf("[%s] ", job->targets.v[gs->target].server_args);
		printf("%-24s P=%-5u ", w->v[p->test].name, p->depth);
		if (job->nat > 1)
			printf("c=%-5u d=%-7llu t=%-3u ", gs->sc.clients,
			       (unsigned long long)gs->sc.data_size, gs->sc.threads);
		if (p->rate > 0)
			printf("%llu/s ", (unsigned long long)p->rate);
		printf("repeat %u%s\n", p->repeat, p->done ? "  (done)" : "");
	}
	total = total * (double)cfg->runs + cfg->run_pause * (double)(cfg->runs - 1);
	printf("estimated duration: %.0f s%s\n", total,
	       cfg->duration > 0 ? "" : " (guessing 100k rps at P=1 up to 1M rps; -n runs vary)");
}

/* The sweep's settings, from the options. */
static void run_sweep_config(const struct rs_config *cfg, const char *label,
			     struct run_ui *ui, struct sweep_config *sc)
{
	sc->label = label;
	sc->spawned = cfg->spawn;
	sc->flush = (enum guard_flush)cfg->flush;
	sc->force_flush = cfg->force_flush;
	sc->cluster = cfg->cluster;
	sc->clients = (unsigned)cfg->clients;
	sc->threads = (unsigned)cfg->threads;
	sc->mode = cfg->mode;
	sc->arrivals = cfg->arrivals;
	sc->requests = cfg->requests;
	sc->duration = cfg->duration;
	sc->warmup = cfg->warmup;
	sc->pause = cfg->pause;
	sc->timeout = cfg->timeout > 0 ? cfg->timeout : TARGET_DEFAULT_TIMEOUT;
	sc->keyspace = cfg->keyspace;
	sc->data_size = cfg->data_size;
	sc->seed = cfg->seed;
	sc->retries = (unsigned)cfg->retries;
	sc->precision = cfg->precision / 100;
	sc->max_repeats = (unsigned)cfg->max_repeats;
	sc->budget = cfg->budget;
	sc->depths = &cfg->pipeline;
	sc->fail_on_error = cfg->fail_on_error;
	sc->prepare = !cfg->no_prepare;
	sc->verbose = cfg->verbose;
	sc->stop = &run_stop;
	sc->on_point = run_on_point;
	sc->on_note = run_on_note;
	sc->ud = ui;
}

/* The servers of job (cmd_targets_build), each with the shared settings
 * and its own label.  Returns 0 or -1 (err of kind RS_E_USAGE). */
static int run_targets(const struct rs_config *cfg, struct run_job *job, struct rs_err *err)
{
	if (cmd_targets_build(cfg, job->label, &job->targets, err) < 0)
		return -1;
	for (size_t k = 0; k < job->targets.n; k++)
		if (job->targets.v[k].server_args[0] != '\0')
			job->sc.axes |= SWEEP_AXIS_SERVER_ARGS;
	if (cfg->agents > 0 && job->targets.n > 1)
		return rs_err_set(err, "--agents loads one server: --spawn-args alternatives make %zu",
				  job->targets.n);
	job->nsweeps = job->targets.n * job->nat;
	job->sweeps = xcalloc(job->nsweeps, sizeof *job->sweeps);
	for (size_t k = 0; k < job->nsweeps; k++) {
		struct run_target_sweep *gs = &job->sweeps[k];
		struct cmd_target *g = &job->targets.v[k / job->nat];
		const struct axis_point *a = &job->at[k % job->nat];
		struct sweep_config *sc = &gs->sc;
		size_t d = 0;

		while (d + 1 < cfg->data_size_axis.n && cfg->data_size_axis.v[d] != a->data_size)
			d++;
		*sc = job->sc;
		sc->label = g->label;
		sc->spawned = g->spawned;
		sc->target = &g->t;
		sc->clients = (unsigned)a->clients;
		sc->data_size = a->data_size;
		sc->threads = (unsigned)a->threads;
		sc->server_args = g->server_args[0] ? g->server_args : NULL;
		gs->target = k / job->nat;
		gs->w = job->ws != NULL ? &job->ws[d] : &job->w;
	}
	return 0;
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
		    run_check_resume(cfg, g->label, desc, job->key_dist, existing, err) < 0)
			return rs_err_as(err, RS_E_REFUSED);
		sweep_who(&gs->sc, &who);
		sweep_plan_mark_target(&job->plan, &job->w, k, &who, existing);
	}
	if (job->plan.todo == 0 && cfg->precision <= 0)
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
			for (size_t i = 0; i < job->nat; i++)
				sweep_share(job->sweeps[j + i].s);
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
	ac.data_size = cfg->data_size;
	ac.stop = &run_stop;
	ac.target_run_id = sweep_run_id(gs->s);
	ac.target_desc = g->t.desc;
	rc = agents_open(&ac, &job->agents, err);
	if (rc == 0 && strcmp(agents_control_run_id(job->agents), sweep_run_id(gs->s)) == 0)
		rc = rs_err_setk(err, RS_E_USAGE, "--control %s reaches the target's server (%s): "
				 "the control Redis must be another server (the target is flushed)",
				 ctl->desc, g->t.desc);
	if (rc < 0)
		return SWEEP_FAILED;
	sweep_use_load(gs->s, load_agents(job->agents));
	return SWEEP_OK;
}

/* --runs: the pause before run (2 and later), cut short by a signal, and
 * the line that says which run starts. */
static void run_between(const struct rs_config *cfg, unsigned run)
{
	struct timespec step = { 0, 100000000 };
	double left = cfg->run_pause;

	rs_log(RS_LOG_INFO, "run %u of %llu%s", run, (unsigned long long)cfg->runs,
	       cfg->run_pause > 0 ? " after a pause (--run-pause)" : "");
	for (; left > 0 && !run_stop; left -= 0.1) {
		if (left < 0.1)
			step.tv_nsec = (long)(left * 1e9);
		nanosleep(&step, NULL);
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
	int rc;

	if ((rc = cmd_targets_probe(&job->targets, err)) < 0)
		return rc;
	if (cfg->output != NULL &&
	    ((rc = run_output(cfg, job, &out, &existing, err)) < 0 ||
	     (job->plan.todo == 0 && job->sc.precision <= 0)))
		goto close;
	for (size_t k = 0; k < job->nsweeps; k++)
		job->sweeps[k].sc.prior = &existing;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = run_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	run_stop = 0;
	if (job->run > 1)
		run_between(cfg, job->run);
	progress_init(&ui->progress, stderr, cfg->quiet);
	ui->quiet = cfg->quiet;
	ui->multi_depth = cfg->pipeline.n > 1;
	ui->multi_target = job->targets.n > 1;
	ui->axes = job->sc.axes;
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
	if (st == SWEEP_OK && cfg->output == NULL)
		progress_note(&ui->progress, "no -o FILE.csv: the points are printed, not saved "
			      "(plot, report and --resume need the CSV)");
	ss = xcalloc(job->nsweeps, sizeof *ss);
	for (size_t k = 0; k < job->nsweeps; k++)
		ss[k] = job->sweeps[k].s;
	if (st == SWEEP_OK)
		st = sweep_points_all(ss, job->nsweeps, &job->plan, cfg->output ? &out : NULL, err);
	free(ss);
	if (ui->points > 0)
		progress_summary(&ui->progress, ui->points, ui->timed, ui->errors, cfg->output);
	else
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
			spawn_stop(&job->targets.v[job->sweeps[k].target].sp);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
close:
	csv_out_close(&out);
	rows_free(&existing);
	return rc;
}

/* The label rows get: --label, or the machine's name. */
static const char *run_label(const struct rs_config *cfg, char *host, size_t size)
{
	if (cfg->label != NULL)
		return cfg->label;
	gethostname(host, size - 1);
	return host[0] ? host : "rsweep";
}

/* A fixed count smaller than one batch per connection leaves connections
 * idle: the point measures fewer connections than -c says.  Warn once,
 * at the shallowest depth where it happens. */
static void run_warn_idle(const struct rs_config *cfg)
{
	if (cfg->duration > 0 || cfg->rate != NULL || cfg->agents > 0)
		return;
	for (size_t i = 0; i < cfg->pipeline.n; i++) {
		uint64_t batch = cfg->clients * (uint64_t)cfg->pipeline.v[i];

		if (cfg->requests >= batch)
			continue;
		rs_log(RS_LOG_WARN, "-n %llu is less than one batch for each of the %llu connections "
		       "from P=%u on (%llu requests): some connections sit idle there; raise -n or "
		       "lower -c", (unsigned long long)cfg->requests,
		       (unsigned long long)cfg->clients, cfg->pipeline.v[i],
		       (unsigned long long)batch);
		return;
	}
}

/* --key-prefix into job->key_prefix: as given, or for "auto" one of this
 * run's own ("rsweep:" and 8 hex digits of the clock and the process, so
 * that two runs at once never share one).  0, or -1 (err). */
static int run_key_prefix(const struct rs_config *cfg, struct run_job *job, struct rs_err *err)
{
	if (strcmp(cfg->key_prefix, "auto") == 0) {
		struct timespec ts;
		uint64_t x;

		clock_gettime(CLOCK_REALTIME, &ts);
		x = ((uint64_t)ts.tv_sec * 1000000007u + (uint64_t)ts.tv_nsec) ^
		    ((uint64_t)getpid() << 32);
		x ^= x >> 29;
		x *= 0xbf58476d1ce4e5b9ULL;
		x ^= x >> 32;
		snprintf(job->key_prefix, sizeof job->key_prefix, "rsweep:%08x:", (unsigned)x);
		return 0;
	}
	if (workload_prefix_check(cfg->key_prefix, err) < 0)
		return rs_err_prefix(err, "--key-prefix");
	xstrlcpy(job->key_prefix, cfg->key_prefix, sizeof job->key_prefix);
	return 0;
}

/* --key-dist into job->keydist and the rows' name of it ("uniform" for
 * random keys without it, "" for fixed keys).  0, or -1 (err, RS_E_USAGE:
 * a spec that does not parse, a sampler -r cannot hold). */
static int run_key_dist(const struct rs_config *cfg, struct run_job *job, struct rs_err *err)
{
	struct keydist_spec spec = { KEYDIST_UNIFORM, 0, 0 };

	if (cfg->key_dist != NULL) {
		if (keydist_parse(cfg->key_dist, &spec, err) < 0 ||
		    keydist_new(&spec, cfg->keyspace, &job->keydist, err) < 0) {
			rs_err_prefix(err, "--key-dist");
			return -1;
		}
	}
	if (cfg->keyspace > 0)
		keydist_format(&spec, job->key_dist, sizeof job->key_dist);
	return 0;
}

/* The tests of a --cluster run: -t's, or without it every test of the
 * catalogue but MSET, into buf (size bytes).  A cluster refuses an MSET
 * whose keys are in more than one slot, and the catalogue's has ten keys:
 * run, every one of its requests is an error (CROSSSLOT), with -r or
 * without. */
static const char *run_cluster_tests(const struct rs_config *cfg, char *buf, size_t size)
{
	const char *const *names = workload_names();
	struct sbuf b;

	if (!cfg->cluster || cfg->nargs > 0 || (cfg->tests != NULL && *cfg->tests != '\0'))
		return cfg->tests;
	sbuf_fixed(&b, buf, size);
	for (size_t i = 0; names[i] != NULL; i++)
		if (strcmp(names[i], "MSET") != 0)
			sbuf_item(&b, ",", "%s", names[i]);
	return buf;
}

/* --cluster with MSET among the tests (-t mset, or a group that holds
 * it): refused before anything opens, not measured as errors.  0, or -1
 * (err, RS_E_USAGE). */
static int run_cluster_check_tests(const struct rs_config *cfg, const struct workload *w,
				   struct rs_err *err)
{
	if (!cfg->cluster || cfg->nargs > 0)
		return 0;
	for (size_t i = 0; i < w->n; i++)
		if (strcmp(w->v[i].name, "MSET") == 0)
			return rs_err_setk(err, RS_E_USAGE, "--cluster: MSET's keys fall in different "
					   "slots, which a cluster refuses (CROSSSLOT): leave mset out of "
					   "-t");
	return 0;
}

/* The most connections a run's combinations may hold open at once: every
 * combination keeps its own (sweep.h) for the whole run, and a server's
 * default maxclients is 10000. */
#define RUN_MAX_AXIS_CONNECTIONS 4096

/* The combinations of -c, -d and --threads into job->at (axis.h), and the
 * settings that vary into job->sc.axes.  0, or -1 (err): no combination
 * can run, or they would hold too many connections. */
static int run_axes(const struct rs_config *cfg, struct run_job *job, struct rs_err *err)
{
	size_t skipped;
	uint64_t conns = 0;

	job->nat = axis_points(&cfg->clients_axis, &cfg->data_size_axis, &cfg->threads_axis,
			       &job->at, &skipped);
	if (job->nat == 0)
		return rs_err_set(err, "--threads %llu is more than -c %llu connections: every "
				  "combination has more threads than connections",
				  (unsigned long long)cfg->threads_axis.v[0],
				  (unsigned long long)cfg->clients_axis.v[0]);
	if (skipped > 0)
		rs_log(RS_LOG_NOTE, "%zu combination%s of -c and --threads left out: more threads "
		       "than connections", skipped, skipped == 1 ? "" : "s");
	for (size_t i = 0; i < job->nat; i++)
		conns += job->at[i].clients;
	if (job->nat > 1 && conns > RUN_MAX_AXIS_CONNECTIONS)
		return rs_err_set(err, "the combinations of -c, -d and --threads hold %llu connections "
				  "open at once, more than %d: sweep fewer -c values, or one -c list "
				  "per run", (unsigned long long)conns, RUN_MAX_AXIS_CONNECTIONS);
	job->sc.axes = (cfg->clients_axis.n > 1 ? SWEEP_AXIS_CLIENTS : 0) |
		       (cfg->data_size_axis.n > 1 ? SWEEP_AXIS_DATA_SIZE : 0) |
		       (cfg->threads_axis.n > 1 ? SWEEP_AXIS_THREADS : 0);
	return 0;
}

/* The points of run (1-based) into job->plan: every run measures the
 * whole plan, in an order of its own (run 1's is --seed's, as without
 * --runs), and its rows mark only its own points done. */
static void run_plan_points(const struct rs_config *cfg, struct run_job *job, unsigned run)
{
	uint64_t seed = run == 1 ? cfg->seed : stats_seed_mix(cfg->seed, run);

	sweep_plan_free(&job->plan);
	sweep_plan_build_rates(job->w.n, &cfg->pipeline, &job->rates, (unsigned)cfg->repeat,
			       cfg->order == SWEEP_ORDER_SHUFFLED, seed, &job->plan);
	job->plan.mode = job->rates.n > 0 ? ENGINE_WINDOW : (enum engine_mode)cfg->mode;
	job->plan.arrivals = (enum engine_arrivals)cfg->arrivals;
	job->plan.run = run;
	sweep_plan_interleave(&job->plan, job->nsweeps);
	job->run = run;
	for (size_t k = 0; job->sweeps != NULL && k < job->nsweeps; k++)
		job->sweeps[k].sc.run = run;
}

/* Step one: the options (and sweep file) into a checked plan of points
 * over every target.  Returns 0, or -1 with err of kind RS_E_USAGE
 * (options, targets) or RS_E_INPUT (a sweep file, tests, a custom
 * command). */
static int run_plan(struct rs_config *cfg, struct run_ui *ui, struct run_job *job,
		    struct rs_err *err)
{
	size_t nrates;
	char cluster_tests[512];
	const char *tests;
	int rc;

	if (cfg->sweep != NULL && run_apply_sweep_file(cfg, err) < 0)
		return rs_err_as(err, RS_E_INPUT);
	if (run_check(cfg, err) < 0)
		return rs_err_as(err, RS_E_USAGE);
	tests = run_cluster_tests(cfg, cluster_tests, sizeof cluster_tests);
	/* Read once, here: a key file that cannot serve stops the run before
	 * anything opens. */
	if (cfg->control != NULL && cmd_agents_key(cfg, &job->agents_key, err) < 0)
		return -1;
	if (cfg->rate != NULL && rates_parse(cfg->rate, &job->rates, err) < 0) {
		rs_err_prefix(err, "--rate");
		return rs_err_as(err, RS_E_USAGE);
	}
	if (cfg->key_prefix != NULL && run_key_prefix(cfg, job, err) < 0)
		return rs_err_as(err, RS_E_USAGE);
	if (run_key_dist(cfg, job, err) < 0)
		return rs_err_as(err, RS_E_USAGE);
	if (run_axes(cfg, job, err) < 0)
		return rs_err_as(err, RS_E_USAGE);
	if (cfg->nargs == 0) {
		unsigned deepest = 0;

		/* Before workload_select formats -d bytes into every test: a
		 * point too large for memory is refused here, not after
		 * seconds and gigabytes of building it (issue 25, M1). */
		for (size_t d = 0; d < cfg->pipeline.n; d++)
			if (cfg->pipeline.v[d] > deepest)
				deepest = cfg->pipeline.v[d];
		for (size_t i = 0; i < job->nat; i++)
			if (workload_memory_check_prefix(tests, job->key_prefix, job->at[i].data_size,
							 deepest, job->at[i].clients, cfg->keyspace,
							 err) < 0)
				return rs_err_as(err, RS_E_USAGE);
	}
	rc = cfg->nargs > 0 ? workload_custom(cfg->nargs, cfg->args, &job->w, err) :
			      workload_select_prefix(tests, cfg->data_size_axis.v[0], job->key_prefix,
						     &job->w, err);
	if (rc < 0)
		return rs_err_as(err, RS_E_INPUT);
	/* Each -d of a list has the tests formatted with its values. */
	if (cfg->nargs == 0 && cfg->data_size_axis.n > 1) {
		job->ws = xcalloc(cfg->data_size_axis.n, sizeof *job->ws);
		for (size_t d = 0; d < cfg->data_size_axis.n; d++)
			if (workload_select_prefix(tests, cfg->data_size_axis.v[d], job->key_prefix,
						   &job->ws[d], err) < 0)
				return rs_err_as(err, RS_E_INPUT);
	}
	if (run_cluster_check_tests(cfg, &job->w, err) < 0)
		return -1;
	job->label = run_label(cfg, job->host, sizeof job->host);
	run_sweep_config(cfg, job->label, ui, &job->sc);
	job->sc.key_prefix = job->key_prefix[0] ? job->key_prefix : NULL;
	job->sc.keydist = job->keydist;
	job->sc.key_dist = job->key_dist;
	if (run_targets(cfg, job, err) < 0)
		return rs_err_as(err, RS_E_USAGE);
	nrates = job->rates.n ? job->rates.n : 1;
	if (job->w.n * cfg->pipeline.n * nrates * cfg->repeat * job->nsweeps > RUN_MAX_POINTS)
		return rs_err_setk(err, RS_E_USAGE, "%zu tests x %zu depths x %zu rates x %llu "
				   "repeats x %zu target%s x %zu combinations is more than %d points",
				   job->w.n, cfg->pipeline.n, nrates, (unsigned long long)cfg->repeat,
				   job->targets.n, job->targets.n == 1 ? "" : "s", job->nat,
				   RUN_MAX_POINTS);
	for (size_t k = 0; k < job->nat; k++)
		if (sweep_check(&job->sweeps[k].sc, job->sweeps[k].w, &cfg->pipeline, err) < 0)
			return rs_err_as(err, RS_E_INPUT);
	run_warn_idle(cfg);
	run_plan_points(cfg, job, 1);
	return 0;
}


int cmd_run(struct rs_config *cfg, struct rs_err *err)
{
	struct run_job job = { 0 };
	struct run_ui ui = { 0 };
	int rc;

	/* Step two: show the plan (--dry-run), or measure it. */
	rc = run_plan(cfg, &ui, &job, err);
	if (rc == 0 && cfg->dry_run)
		run_dry(cfg, &job);
	for (unsigned r = 1; rc == 0 && !cfg->dry_run && r <= cfg->runs && !run_stop; r++) {
		if (r > 1)
			run_plan_points(cfg, &job, r);
		rc = run_sweep(cfg, &job, &ui, err);
	}
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
