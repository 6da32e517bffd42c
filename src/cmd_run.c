/* cmd_run.c: "rsweep run": options -> plan -> (spawned) server -> sweep ->
 * results on stdout, progress on stderr, rows in the CSV. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "log.h"
#include "progress.h"
#include "spawn.h"
#include "spec.h"
#include "sweep.h"
#include "workload.h"
#include "xalloc.h"

static volatile sig_atomic_t run_stop;

/* The first ^C abandons the point and lets the run end cleanly; a second one,
 * should anything keep the first waiting, ends rsweep at once (a spawned
 * server follows it through PR_SET_PDEATHSIG). */
static void run_on_signal(int sig)
{
	if (run_stop) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	run_stop = 1;
}

/* Seconds without a reply before a point fails, when --timeout is 0. */
#define RUN_DEFAULT_TIMEOUT 10

/* Points in one plan at the most: a million is days of measuring already. */
#define RUN_MAX_POINTS 1000000

struct run_ui {
	struct progress progress;
	int quiet;
	int multi_depth;
	size_t points;
	double timed;             /* seconds inside timed windows */
	long long errors;
};

/* One block per point, or with -q one line in redis-benchmark's form. */
static void run_print_point(struct run_ui *ui, const struct rs_row *r)
{
	char name[160];

	if (ui->multi_depth)
		snprintf(name, sizeof name, "%s P=%u", r->test, r->pipeline);
	else
		snprintf(name, sizeof name, "%s", r->test);
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

/* Checks that need more than one option; all before anything is touched. */
static int run_check(struct rs_config *cfg, struct rs_err *err)
{
	if (opts_given(cfg, "requests") && cfg->duration > 0) {
		enum opt_origin n = opts_origin(cfg, "requests"), d = opts_origin(cfg, "duration");

		/* The command line wins over the sweep file, in this as in all. */
		if (n == d)
			return rs_err_set(err, "-n and --duration exclude each other");
		if (n == ORIGIN_ARGV)
			cfg->duration = 0;
	}
	if (cfg->timeout > 0 && cfg->timeout < 0.001)
		return rs_err_set(err, "--timeout %g is below 1 ms (0 means the default)", cfg->timeout);
	if (cfg->label != NULL) {
		if (strlen(cfg->label) >= ROW_STR)
			return rs_err_set(err, "--label is longer than %d characters", ROW_STR - 1);
		for (const char *c = cfg->label; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				return rs_err_set(err, "--label holds a control character");
	}
	if (cfg->threads > cfg->clients)
		return rs_err_set(err, "--threads %llu is more than -c %llu connections",
				  (unsigned long long)cfg->threads, (unsigned long long)cfg->clients);
	if (cfg->spawn && (opts_given(cfg, "socket") || opts_given(cfg, "host") ||
			   opts_given(cfg, "port")))
		return rs_err_set(err, "--spawn starts its own server: drop -h, -p and -s");
	if (cfg->spawn_tcp && !cfg->spawn)
		return rs_err_set(err, "--spawn-tcp goes with --spawn");
	if (cfg->resume && cfg->output == NULL)
		return rs_err_set(err, "--resume needs -o FILE.csv");
	if (cfg->resume && cfg->overwrite)
		return rs_err_set(err, "--resume and --overwrite exclude each other");
	if (cfg->nargs > 0 && !cfg->dashdash)
		return rs_err_set(err, "unexpected operand '%s' (a custom command goes after --)",
				  cfg->args[0]);
	if (cfg->nargs > 0 && opts_given(cfg, "tests"))
		return rs_err_set(err, "-t and a custom command after -- exclude each other");
	if (cfg->dashdash && cfg->nargs == 0)
		return rs_err_set(err, "no command after --");
	return 0;
}

/* What the target column says of the server the options name: its
 * address, or for --spawn what it is (its socket is a new temporary path
 * every run, which would mean nothing in a row and differ on --resume). */
static void run_target_desc(const struct rs_config *cfg, char *buf, size_t size)
{
	struct target t = { .socket = cfg->socket, .host = cfg->host, .port = (unsigned)cfg->port };

	if (cfg->spawn) {
		snprintf(buf, size, "spawned redis-server (%s)",
			 cfg->spawn_tcp ? "TCP 127.0.0.1" : "UNIX socket");
		return;
	}
	target_describe(&t);
	xstrlcpy(buf, t.desc, size);
}

/* Resuming adds points to series measured before: refuse when this run
 * would measure them differently, rather than mix the two in one line. */
static int run_check_resume(const struct rs_config *cfg, const char *label,
			    const struct rs_rows *rows, struct rs_err *err)
{
	char desc[ROW_STR];

	run_target_desc(cfg, desc, sizeof desc);
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
		if (r->clients >= 0 && r->clients != (int64_t)cfg->clients)
			what = "-c", was = r->clients, now = (long long)cfg->clients;
		else if (r->data_size >= 0 && r->data_size != (int64_t)cfg->data_size)
			what = "-d", was = r->data_size, now = (long long)cfg->data_size;
		else if (r->keyspace >= 0 && r->keyspace != (int64_t)cfg->keyspace)
			what = "-r", was = r->keyspace, now = (long long)cfg->keyspace;
		else if (r->threads >= 0 && r->threads != (int64_t)cfg->threads)
			what = "--threads", was = r->threads, now = (long long)cfg->threads;
		else if (cfg->duration == 0 && r->errors == 0 && r->requests >= 0 &&
			 r->requests != (int64_t)cfg->requests)
			what = "-n", was = r->requests, now = (long long)cfg->requests;
		if (what != NULL)
			return rs_err_set(err, "%s:%u: label '%s' was measured with %s %lld, this run "
					  "uses %s %lld: resume with the same options, or use another "
					  "--label", r->src, r->line, label, what, was, what, now);
	}
	return 0;
}

static void run_dry(const struct rs_config *cfg, const struct workload *w,
		    const struct sweep_plan *plan, const char *label)
{
	double total = 0;

	printf("plan: %zu point%s (%zu test%s x %zu depth%s x %llu repeat%s), %zu to run, order %s\n",
	       plan->n, plan->n == 1 ? "" : "s", w->n, w->n == 1 ? "" : "s", cfg->pipeline.n,
	       cfg->pipeline.n == 1 ? "" : "s", (unsigned long long)cfg->repeat,
	       cfg->repeat == 1 ? "" : "s", plan->todo,
	       sweep_order_names[cfg->order]);
	printf("label: %s\n", label);
	for (size_t i = 0; i < plan->n; i++) {
		const struct sweep_point *p = &plan->v[i];
		/* A rough guess for -n runs: 100k rps at P=1, growing with depth to 1M. */
		double rps = 100000.0 * p->depth < 1e6 ? 100000.0 * p->depth : 1e6;
		double secs = cfg->duration > 0 ? cfg->duration : (double)cfg->requests / rps;

		if (!p->done)
			total += secs + cfg->warmup + cfg->pause + 0.01;
		printf("%5u  %-24s P=%-5u repeat %u%s\n", p->order, w->v[p->test].name, p->depth,
		       p->repeat, p->done ? "  (done)" : "");
	}
	printf("estimated duration: %.0f s%s\n", total,
	       cfg->duration > 0 ? "" : " (guessing 100k rps at P=1 up to 1M rps; -n runs vary)");
}

/* The sweep's settings, from the options. */
static void run_sweep_config(const struct rs_config *cfg, const char *label,
			     const struct target *t, struct run_ui *ui, struct sweep_config *sc)
{
	sc->label = label;
	sc->target = t;
	sc->spawned = cfg->spawn;
	sc->flush = (enum sweep_flush)cfg->flush;
	sc->force_flush = cfg->force_flush;
	sc->clients = (unsigned)cfg->clients;
	sc->threads = (unsigned)cfg->threads;
	sc->requests = cfg->requests;
	sc->duration = cfg->duration;
	sc->warmup = cfg->warmup;
	sc->pause = cfg->pause;
	sc->timeout = cfg->timeout > 0 ? cfg->timeout : RUN_DEFAULT_TIMEOUT;
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

/* The server: a spawned one (sp), or the one the options name. */
static int run_target(const struct rs_config *cfg, double timeout, struct spawn *sp,
		      struct target *t, struct rs_err *err)
{
	t->connect_timeout = cfg->connect_timeout;
	t->timeout = timeout;
	t->stop = &run_stop;
	t->dbnum = (unsigned)cfg->dbnum;
	t->user = cfg->user;
	t->password = cfg->password ? cfg->password : getenv("REDISCLI_AUTH");
	if (t->password != NULL && *t->password == '\0')
		t->password = NULL;
	if (cfg->spawn) {
		if (spawn_start(sp, cfg->spawn_path, cfg->spawn_tcp, NULL, 10, err) < 0)
			return -1;
		t->socket = sp->socket[0] ? sp->socket : NULL;
		t->host = "127.0.0.1";
		t->port = sp->port;
		t->password = NULL;   /* our own server has none */
	} else {
		t->socket = cfg->socket;
		t->host = cfg->host;
		t->port = (unsigned)cfg->port;
	}
	target_describe(t);
	/* Messages name the real socket; rows, the stable description. */
	run_target_desc(cfg, t->row_desc, sizeof t->row_desc);
	return 0;
}

/* Open the -o file before anything connects: a file another rsweep is
 * writing, or one that holds results without --resume or --overwrite, is
 * refused at once.  Nothing in it changes until the first row is written
 * (csv.h), so a run the guard refuses leaves no file behind.  With
 * --resume read the rows it holds and mark their points done.  Returns 0
 * or -1 with err's kind set by csv_out_open, or RS_E_REFUSED for a resume
 * that would mix two ways of measuring. */
static int run_output(const struct rs_config *cfg, const char *label, const struct workload *w,
		      struct sweep_plan *plan, struct csv_out *out, struct rs_rows *existing,
		      struct rs_err *err)
{
	if (csv_out_open(out, cfg->output, cfg->resume, cfg->overwrite, existing, err) < 0)
		return -1;
	if (run_check_resume(cfg, label, existing, err) < 0)
		return rs_err_as(err, RS_E_REFUSED);
	sweep_plan_mark_done(plan, w, label, existing);
	if (plan->todo == 0 && cfg->precision <= 0)
		rs_log(RS_LOG_INFO, "every point is already in %s", cfg->output);
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

/* From the output file to the last point: the file, signals, the
 * (spawned) server, the guard, the points, the summary.  Returns 0 or -1
 * (err and its kind set). */
static int run_sweep(const struct rs_config *cfg, struct sweep_config *sc, struct target *t,
		     const struct workload *w, struct sweep_plan *plan, struct run_ui *ui,
		     struct rs_err *err)
{
	struct sigaction sa, old_int, old_term;
	struct spawn sp = { .pid = -1 };
	struct csv_out out = { .fd = -1 };
	struct rs_rows existing = { 0 };
	struct sweep *s = NULL;
	enum sweep_status ss;
	int rc = 0;

	if (cfg->output != NULL &&
	    ((rc = run_output(cfg, sc->label, w, plan, &out, &existing, err)) < 0 ||
	     (plan->todo == 0 && sc->precision <= 0)))
		goto close;
	sc->prior = &existing;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = run_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	run_stop = 0;
	if ((rc = run_target(cfg, sc->timeout, &sp, t, err)) < 0)
		goto restore;
	progress_init(&ui->progress, stderr, cfg->quiet);
	ui->quiet = cfg->quiet;
	ui->multi_depth = cfg->pipeline.n > 1;
	/* A sweep nobody can measure again should not vanish unnoticed. */
	if (cfg->output == NULL)
		progress_note(&ui->progress, "no -o FILE.csv: the points are printed, not saved "
			      "(plot, report and --resume need the CSV)");
	ss = sweep_open(sc, w, &s, err);
	if (ss == SWEEP_OK)
		ss = sweep_points(s, plan, cfg->output ? &out : NULL, err);
	if (ui->points > 0)
		progress_summary(&ui->progress, ui->points, ui->timed, ui->errors, cfg->output);
	else
		progress_end(&ui->progress);
	rc = run_status(cfg, ss, err);
	sweep_close(s);
restore:
	spawn_stop(&sp);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
close:
	csv_out_close(&out);
	rows_free(&existing);
	return rc;
}

/* What one run is to do, worked out from the options before anything is
 * touched. */
struct run_job {
	struct workload w;
	struct sweep_plan plan;
	struct sweep_config sc;
	char host[ROW_STR];
	const char *label;
};

/* The label rows get: --label, or the machine's name. */
static const char *run_label(const struct rs_config *cfg, char *host, size_t size)
{
	if (cfg->label != NULL)
		return cfg->label;
	gethostname(host, size - 1);
	return host[0] ? host : "rsweep";
}

/* Step one: the options (and sweep file) into a checked plan of points.
 * Returns 0, or -1 with err of kind RS_E_USAGE (options) or RS_E_INPUT (a
 * sweep file, tests, a custom command). */
static int run_plan(struct rs_config *cfg, struct target *t, struct run_ui *ui,
		    struct run_job *job, struct rs_err *err)
{
	int rc;

	if (cfg->sweep != NULL && run_apply_sweep_file(cfg, err) < 0)
		return rs_err_as(err, RS_E_INPUT);
	if (run_check(cfg, err) < 0)
		return rs_err_as(err, RS_E_USAGE);
	rc = cfg->nargs > 0 ? workload_custom(cfg->nargs, cfg->args, &job->w, err) :
			      workload_select(cfg->tests, cfg->data_size, &job->w, err);
	if (rc < 0)
		return rs_err_as(err, RS_E_INPUT);
	job->label = run_label(cfg, job->host, sizeof job->host);
	if (job->w.n * cfg->pipeline.n * cfg->repeat > RUN_MAX_POINTS)
		return rs_err_setk(err, RS_E_USAGE, "%zu tests x %zu depths x %llu repeats is more "
				   "than %d points", job->w.n, cfg->pipeline.n,
				   (unsigned long long)cfg->repeat, RUN_MAX_POINTS);
	run_sweep_config(cfg, job->label, t, ui, &job->sc);
	if (sweep_check(&job->sc, &job->w, &cfg->pipeline, err) < 0)
		return rs_err_as(err, RS_E_INPUT);
	sweep_plan_build(job->w.n, &cfg->pipeline, (unsigned)cfg->repeat,
			 cfg->order == SWEEP_ORDER_SHUFFLED, cfg->seed, &job->plan);
	return 0;
}

int cmd_run(struct rs_config *cfg, struct rs_err *err)
{
	struct run_job job = { 0 };
	struct target t = { 0 };
	struct run_ui ui = { 0 };
	int rc;

	/* Step two: show the plan (--dry-run), or measure it. */
	rc = run_plan(cfg, &t, &ui, &job, err);
	if (rc == 0 && cfg->dry_run)
		run_dry(cfg, &job.w, &job.plan, job.label);
	else if (rc == 0)
		rc = run_sweep(cfg, &job.sc, &t, &job.w, &job.plan, &ui, err);
	sweep_plan_free(&job.plan);
	workload_free(&job.w);
	return rc;
}
