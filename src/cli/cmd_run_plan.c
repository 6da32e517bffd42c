/* cmd_run_plan.c: "rsweep run", step one: the options and the sweep file
 * into a checked plan (targets, the combinations of the axes, the tests at
 * each -d, the points of each run), and --dry-run's account of it.
 * Nothing here connects or measures (cmd_run.c does). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/pubsub.h"
#include "cli/cmd.h"
#include "cli/cmd_run_int.h"
#include "results/csv.h"
#include "results/row_way.h"
#include "sweep/decide.h"
#include "base/log.h"
#include "base/num.h"
#include "base/sbuf.h"
#include "base/spec.h"
#include "stats/stats.h"
#include "base/xalloc.h"

/* Points in one plan at the most: a million is days of measuring already. */
#define RUN_MAX_POINTS 1000000

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
/* --data-size-range MIN..MAX into cfg->value_min and value_max (both 0
 * without it): each 1 to 512 MiB as -d takes them, MIN no more than MAX.
 * 0, or -1 with err. */
static int run_values(struct rs_config *cfg, struct rs_err *err)
{
	const char *s = cfg->data_size_range, *dots;
	uint64_t *vmin = &cfg->value_min, *vmax = &cfg->value_max;
	char lo[32];

	*vmin = *vmax = 0;
	if (s == NULL)
		return 0;
	if ((dots = strstr(s, "..")) == NULL || (size_t)(dots - s) >= sizeof lo)
		return rs_err_set(err, "--data-size-range '%s' is not MIN..MAX (such as 16..4096)", s);
	memcpy(lo, s, (size_t)(dots - s));
	lo[dots - s] = '\0';
	if (num_parse_u64(lo, 1, 512 * 1024 * 1024, 1, vmin, err) < 0 ||
	    num_parse_u64(dots + 2, 1, 512 * 1024 * 1024, 1, vmax, err) < 0)
		return rs_err_prefix(err, "--data-size-range '%s'", s);
	if (*vmin > *vmax)
		return rs_err_set(err, "--data-size-range '%s': MIN is more than MAX", s);
	return 0;
}

/* Under --data-size-range every value a test sends must be one the
 * engine can size per request: one value, after every key.  0, or -1
 * with err (RS_E_USAGE) naming the test. */
static int run_check_values(const struct rs_config *cfg, const struct workload *w,
			    struct rs_err *err)
{
	for (size_t i = 0; cfg->data_size_range != NULL && i < w->n; i++) {
		const struct workload_test *t = &w->v[i];

		if (t->sequence && t->ndata > 0)
			return rs_err_setk(err, RS_E_USAGE, "--data-size-range: a sequence's values "
					   "keep -d's size (%s is one): drop its value or the range",
					   t->custom ? "the command after --" : t->name);
		for (size_t m = 0; m <= t->nmembers && !t->sequence; m++) {
			const struct workload_test *x = m < t->nmembers ? &t->members[m] : t;

			if (x->ndata > 1)
				return rs_err_setk(err, RS_E_USAGE, "--data-size-range: %s sends %u values "
						   "a request, which one size cannot stand for: leave it "
						   "out", x->name, x->ndata);
			if (x->ndata == 1 && x->value_end == 0)
				return rs_err_setk(err, RS_E_USAGE, "--data-size-range: %s has a key after "
						   "its value (__data__): put the value last", x->name);
		}
	}
	return 0;
}

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
	/* Sized per request: the tests are formatted, and their memory
	 * counted, at the largest value. */
	if (run_values(cfg, err) < 0)
		return -1;
	if (cfg->value_max > 0)
		cfg->data_size_axis.v[0] = cfg->value_max;
	cfg->clients = axis_max(&cfg->clients_axis);
	cfg->data_size = axis_max(&cfg->data_size_axis);
	cfg->threads = axis_max(&cfg->threads_axis);
	if (cfg->clients_axis.n == 1 && cfg->threads_axis.n == 1 && cfg->threads > cfg->clients)
		return rs_err_set(err, "--threads %llu is more than -c %llu connections",
				  (unsigned long long)cfg->threads,
				  (unsigned long long)cfg->clients);
	/* Each agent opens its connections once for the run; a point's job
	 * carries its values, so -d may vary. */
	if (cfg->agents > 0 && (cfg->clients_axis.n > 1 || cfg->threads_axis.n > 1))
		return rs_err_set(err, "--agents opens one -c and --threads for the run: sweep a "
				  "list of them without agents");
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
/* The settings row_way_differs compares, as this run writes them in its
 * rows (sweep_row_fill). */
static void run_way(const struct rs_config *cfg, const char *key_prefix, struct rs_row *want)
{
	row_init(want);
	want->expire = (int64_t)cfg->expire;
	want->reconnect_every = (int64_t)cfg->reconnect_every;
	xstrlcpy(want->key_prefix, key_prefix ? key_prefix : "", sizeof want->key_prefix);
	if (cfg->value_max > 0)
		snprintf(want->data_size_range, sizeof want->data_size_range, "%llu..%llu",
			 (unsigned long long)cfg->value_min, (unsigned long long)cfg->value_max);
	/* Rows of a run with replicas say its --read-from (sweep_replicas_row). */
	if (cfg->replica.n > 0 || cfg->spawn_replicas > 0 ||
	    (cfg->cluster && cfg->read_from != SWEEP_READ_MASTERS))
		xstrlcpy(want->read_from, sweep_read_from_names[cmd_targets_read_from(cfg)],
			 sizeof want->read_from);
}

int run_check_resume(const struct rs_config *cfg, const char *label, const char *desc,
		     const char *key_dist, const char *key_prefix, const struct rs_rows *rows,
		     struct rs_err *err)
{
	struct rs_row want;

	run_way(cfg, key_prefix, &want);
	for (size_t i = 0; i < rows->n; i++) {
		const struct rs_rec *r = &rows->v[i];
		const char *what = NULL, *col;
		long long was = 0, now = 0;
		char a[80], b[80];

		if (strcmp(r->label, label) != 0)
			continue;
		/* The settings of row_way.c's one table, so that a point
		 * measured another way is never taken for this run's. */
		if ((col = row_way_differs(rows, r, &want, a, b, sizeof a)) != NULL)
			return rs_err_set(err, "%s:%u: label '%s' was measured with %s %s, this run "
					  "with %s %s: resume with the same options, or use another "
					  "--label", r->src, r->line, label, row_way_option(col), a,
					  row_way_option(col), b);
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

/* The sweep's settings, from the options (what it reports to, job->sc's
 * stop, on_point, on_note and ud, cmd_run sets). */
static void run_sweep_config(const struct rs_config *cfg, const char *label,
			     struct sweep_config *sc)
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
	sc->vmin = cfg->value_min;
	sc->vmax = cfg->value_max;
	sc->seed = cfg->seed;
	sc->expire = cfg->expire;
	sc->subscribers = cfg->subscribers > 0 ? (unsigned)cfg->subscribers : 1;
	sc->channels = cfg->channels > 0 ? (unsigned)cfg->channels : 1;
	sc->psubscribe = cfg->psubscribe;
	sc->reconnect_every = cfg->reconnect_every;
	sc->tls_resume = cfg->tls_resume;
	sc->retries = (unsigned)cfg->retries;
	sc->precision = cfg->precision / 100;
	sc->max_repeats = (unsigned)cfg->max_repeats;
	sc->budget = cfg->budget;
	sc->depths = &cfg->pipeline;
	sc->fail_on_error = cfg->fail_on_error;
	sc->prepare = !cfg->no_prepare;
	sc->verbose = cfg->verbose;
}

/* --until-decided into job->sc: its budget (BUDGET, else
 * DECIDE_DEFAULT_BUDGET), its repeat cap (--max-repeats, else
 * DECIDE_DEFAULT_MAX_REPEATS), each target's combinations compared with the
 * first target's.  0, or -1 (err, RS_E_USAGE). */
static int run_until_decided(const struct rs_config *cfg, struct run_job *job,
			     struct rs_err *err)
{
	struct sweep_config *sc = &job->sc;

	if (!cfg->until_decided)
		return 0;
	sc->until_decided = 1;
	sc->decide_group = job->nat;
	sc->budget = DECIDE_DEFAULT_BUDGET;
	if (cfg->until_decided_budget != NULL &&
	    decide_budget_parse(cfg->until_decided_budget, &sc->budget, err) < 0) {
		rs_err_prefix(err, "--until-decided");
		return rs_err_as(err, RS_E_USAGE);
	}
	if (!opts_given(cfg, "max-repeats"))
		sc->max_repeats = DECIDE_DEFAULT_MAX_REPEATS;
	return 0;
}

/* The servers of job (cmd_targets_build), each with the shared settings
 * and its own label.  Returns 0 or -1 (err of kind RS_E_USAGE). */
static int run_targets(const struct rs_config *cfg, struct run_job *job, struct rs_err *err)
{
	if (cmd_targets_build(cfg, job->label, &job->targets, err) < 0 ||
	    run_place(cfg, job, err) < 0)
		return -1;
	for (size_t k = 0; k < job->targets.n; k++)
		if (job->targets.v[k].alternatives)
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
		sc->replicas = g->replicas;
		sc->nreplicas = g->nreplicas;
		sc->read_from = (enum sweep_read_from)job->targets.read_from;
		sc->clients = (unsigned)a->clients;
		sc->data_size = a->data_size;
		sc->threads = (unsigned)a->threads;
		sc->server_args = g->server_args[0] ? g->server_args : NULL;
		sc->server_cpus = g->spawned && job->server_cpus[0] ? job->server_cpus : NULL;
		/* --agents: the load is generated elsewhere. */
		sc->client_cpus = job->client_cpus[0] && cfg->agents == 0 ? job->client_cpus : NULL;
		gs->target = k / job->nat;
		gs->w = job->ws != NULL ? &job->ws[d] : &job->w;
	}
	return 0;
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

/* --resume: the prefix the output file's last row with one records (a
 * killed run's, whose keys the guard then clears), into buf.  1 found, 0
 * none (no file, no row with a prefix, or one that cannot be read: then
 * opening the file says what is wrong with it). */
static int run_key_prefix_resumed(const struct rs_config *cfg, char *buf, size_t size)
{
	struct rs_rows rows = { 0 };
	struct csv_info info;
	struct rs_err e;
	int found = 0;

	if (!cfg->resume || cfg->output == NULL || access(cfg->output, F_OK) != 0)
		return 0;
	if (csv_read_file(cfg->output, &rows, &info, &e) == 0)
		for (size_t i = rows.n; i-- > 0 && !found;) {
			const char *p = rows.v[i].server->key_prefix;

			if (p[0] != '\0' && workload_prefix_check(p, &e) == 0) {
				xstrlcpy(buf, p, size);
				found = 1;
			}
		}
	rows_free(&rows);
	return found;
}

/* --key-prefix into job->key_prefix: as given, or for "auto" the one the
 * file --resume continues records, else one of this run's own ("rsweep:"
 * and 8 hex digits of the clock and the process, so that two runs at once
 * never share one).  0, or -1 (err). */
static int run_key_prefix(const struct rs_config *cfg, struct run_job *job, struct rs_err *err)
{
	char was[WORKLOAD_PREFIX_MAX + 1];
	int resumed = run_key_prefix_resumed(cfg, was, sizeof was);

	if (strcmp(cfg->key_prefix, "auto") == 0) {
		struct timespec ts;
		uint64_t x;

		if (resumed) {
			xstrlcpy(job->key_prefix, was, sizeof job->key_prefix);
			job->key_prefix_resumed = 1;
			return 0;
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		x = ((uint64_t)ts.tv_sec * 1000000007u + (uint64_t)ts.tv_nsec) ^
		    ((uint64_t)getpid() << 32);
		x ^= x >> 29;
		x *= 0xbf58476d1ce4e5b9ULL;
		x ^= x >> 32;
		snprintf(job->key_prefix, sizeof job->key_prefix, "rsweep:%08x:", (unsigned)x);
		return 0;
	}
	job->key_prefix_resumed = resumed && strcmp(was, cfg->key_prefix) == 0;
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
		/* Pub/sub, as without --cluster, only by name. */
		if (strcmp(names[i], "MSET") != 0 && strcmp(names[i], "PUBLISH") != 0 &&
		    strcmp(names[i], "SPUBLISH") != 0)
			sbuf_item(&b, ",", "%s", names[i]);
	return buf;
}

/* --cluster with a sequence, or with MSET among the tests (-t mset, a
 * group that holds it, or a mix's member): refused before anything
 * opens, not measured as errors.  0, or -1 (err, RS_E_USAGE). */
static int run_cluster_check_tests(const struct rs_config *cfg, const struct workload *w,
				   struct rs_err *err)
{
	/* A sequence's commands may each need another master. */
	for (size_t i = 0; i < w->n && cfg->cluster; i++)
		if (w->v[i].sequence && w->v[i].custom)
			return rs_err_setk(err, RS_E_USAGE, "--cluster does not run a sequence of "
					   "commands (';' or --transaction after --): each command may "
					   "need another master");
		else if (w->v[i].sequence)
			return rs_err_setk(err, RS_E_USAGE, "--cluster does not send --expire's EXPIRE "
					   "after %s yet: leave it out of -t (SET takes EX)",
					   w->v[i].name);
	if (!cfg->cluster || cfg->nargs > 0)
		return 0;
	for (size_t i = 0; i < w->n; i++) {
		if (strcmp(w->v[i].name, "MSET") == 0)
			return rs_err_setk(err, RS_E_USAGE, "--cluster: MSET's keys fall in different "
					   "slots, which a cluster refuses (CROSSSLOT): leave mset out of "
					   "-t");
		for (size_t m = 0; m < w->v[i].nmembers; m++)
			if (!w->v[i].members[m].custom && strcmp(w->v[i].members[m].name, "MSET") == 0)
				return rs_err_setk(err, RS_E_USAGE, "--cluster: MSET's keys fall in "
						   "different slots, which a cluster refuses (CROSSSLOT): "
						   "leave mset out of %s", w->v[i].name);
	}
	return 0;
}

/* -t publish or spublish and their options: --subscribers only with a
 * test that publishes, the channels a divisor of the subscribers, a
 * cluster's pub/sub sharded and without patterns, and none of what the
 * subscribers cannot follow (the agents, values sized per request).  0,
 * or -1 (err, RS_E_USAGE). */
static int run_pubsub_check(const struct rs_config *cfg, const struct workload *w,
			    struct rs_err *err)
{
	uint64_t subs = cfg->subscribers > 0 ? cfg->subscribers : 1;
	uint64_t chans = cfg->channels > 0 ? cfg->channels : 1;
	int publish = 0;

	for (size_t i = 0; i < w->n; i++)
		publish |= w->v[i].pubsub;
	if (!publish)
		return cfg->subscribers > 0 ?
		       rs_err_setk(err, RS_E_USAGE, "--subscribers goes with -t publish or spublish: no "
				   "test of this run publishes") : 0;
	/* A cluster's PUBLISH goes to every node: only its shards' own. */
	if (cfg->cluster && (publish & 1))
		return rs_err_setk(err, RS_E_USAGE, "--cluster runs sharded pub/sub: -t spublish "
				   "(SPUBLISH, SSUBSCRIBE), not -t publish");
	if (cfg->psubscribe && (publish & 2))
		return rs_err_setk(err, RS_E_USAGE, "--psubscribe: sharded pub/sub (-t spublish) has "
				   "no patterns");
	if (cfg->control != NULL)
		return rs_err_setk(err, RS_E_USAGE, "--agents do not run -t publish: its "
				   "subscribers are this process's own");
	/* The readers keep no subscribers (row_way.c): a file measured with
	 * others must not pool with this run's rows. */
	if (cfg->resume)
		return rs_err_setk(err, RS_E_USAGE, "--resume does not continue a pub/sub file yet: "
				   "drop --resume");
	if (cfg->value_max > 0)
		return rs_err_setk(err, RS_E_USAGE, "--data-size-range does not size -t publish's "
				   "messages: give -d");
	if (chans > subs || subs % chans != 0)
		return rs_err_setk(err, RS_E_USAGE, "--channels %llu does not divide --subscribers "
				   "%llu: every channel gets the same number of subscribers",
				   (unsigned long long)chans, (unsigned long long)subs);
	/* Each subscriber follows each publishing connection's sequence. */
	for (size_t i = 0; i < cfg->clients_axis.n; i++)
		if (subs * cfg->clients_axis.v[i] > PUBSUB_STREAMS_MAX)
			return rs_err_setk(err, RS_E_USAGE, "--subscribers %llu x -c %llu: each "
					   "subscriber follows each connection's messages, more than %u "
					   "streams; fewer of either", (unsigned long long)subs,
					   (unsigned long long)cfg->clients_axis.v[i], PUBSUB_STREAMS_MAX);
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
void run_plan_points(const struct rs_config *cfg, struct run_job *job, unsigned run)
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

/* The tests of a run formatted with data_size bytes of data: the command
 * after --, the command file's mix, or the catalogue's tests.  0, or -1
 * with err. */
static int run_workload(const struct rs_config *cfg, const char *tests, uint64_t data_size,
			const char *prefix, struct workload *w, struct rs_err *err)
{
	if (cfg->nargs > 0)
		return workload_sequence(cfg->nargs, cfg->args, data_size, cfg->transaction, w, err);
	if (cfg->commands != NULL)
		return workload_commands_file(cfg->commands, data_size, w, err);
	if (workload_select_prefix(tests, data_size, prefix, w, err) < 0)
		return -1;
	if (cfg->expire > 0 && workload_expire(w, cfg->expire, err) < 0) {
		workload_free(w);
		return -1;
	}
	return 0;
}

/* --reconnect-every K below a depth P: a connection closed after K
 * requests never has P in flight, and the point's row would say P for a
 * pipeline of K.  Refused rather than measured as another depth; K need
 * not be a multiple of P (each connection's last batch before it
 * reconnects is then shorter).  0, or -1 (err). */
static int run_churn_check(const struct rs_config *cfg, struct rs_err *err)
{
	for (size_t d = 0; d < cfg->pipeline.n && cfg->reconnect_every > 0; d++)
		if (cfg->pipeline.v[d] > cfg->reconnect_every)
			return rs_err_set(err, "--reconnect-every %llu is below the depth %u (-P): a "
					  "connection closed after %llu requests never has %u in flight",
					  (unsigned long long)cfg->reconnect_every, cfg->pipeline.v[d],
					  (unsigned long long)cfg->reconnect_every, cfg->pipeline.v[d]);
	return 0;
}

int run_plan(struct rs_config *cfg, struct run_job *job, struct rs_err *err)
{
	size_t nrates;
	char cluster_tests[512], ratio_tests[64];
	const char *tests;
	int rc;

	if (cfg->sweep != NULL && run_apply_sweep_file(cfg, err) < 0)
		return rs_err_as(err, RS_E_INPUT);
	if (run_check(cfg, err) < 0 || run_churn_check(cfg, err) < 0)
		return rs_err_as(err, RS_E_USAGE);
	tests = run_cluster_tests(cfg, cluster_tests, sizeof cluster_tests);
	/* --ratio S:G stands for -t mix:set=S,get=G (the rules refuse both). */
	if (cfg->ratio != NULL) {
		if (workload_ratio(cfg->ratio, ratio_tests, sizeof ratio_tests, err) < 0)
			return -1;
		tests = ratio_tests;
	}
	/* Read once, here: a key file that cannot serve stops the run before
	 * anything opens. */
	if (cfg->control != NULL && cmd_agents_key(cfg, &job->agents_key, err) < 0)
		return -1;
	if (cfg->rate != NULL && rates_parse(cfg->rate, &job->rates, err) < 0) {
		rs_err_prefix(err, "--rate");
		return rs_err_as(err, RS_E_USAGE);
	}
	if (cfg->slo != NULL && slo_parse(cfg->slo, &job->slo, err) < 0)
		return -1;
	if (cfg->key_prefix != NULL && run_key_prefix(cfg, job, err) < 0)
		return rs_err_as(err, RS_E_USAGE);
	if (run_key_dist(cfg, job, err) < 0)
		return rs_err_as(err, RS_E_USAGE);
	if (run_axes(cfg, job, err) < 0)
		return rs_err_as(err, RS_E_USAGE);
	/* A command file's members are sized by sweep_check, as a command
	 * after -- is. */
	if (cfg->nargs == 0 && cfg->commands == NULL) {
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
	rc = run_workload(cfg, tests, cfg->data_size_axis.v[0], job->key_prefix, &job->w, err);
	if (rc < 0)
		return rs_err_as(err, RS_E_INPUT);
	/* Each -d of a list has the tests formatted with its values (a
	 * command file's __data__ too). */
	if (cfg->nargs == 0 && cfg->data_size_axis.n > 1) {
		job->ws = xcalloc(cfg->data_size_axis.n, sizeof *job->ws);
		for (size_t d = 0; d < cfg->data_size_axis.n; d++)
			if (run_workload(cfg, tests, cfg->data_size_axis.v[d], job->key_prefix,
					 &job->ws[d], err) < 0)
				return rs_err_as(err, RS_E_INPUT);
	}
	if (run_pubsub_check(cfg, &job->w, err) < 0 || run_cluster_check_tests(cfg, &job->w, err) < 0 ||
	    run_check_values(cfg, &job->w, err) < 0)
		return -1;
	job->label = run_label(cfg, job->host, sizeof job->host);
	run_sweep_config(cfg, job->label, &job->sc);
	job->sc.key_prefix = job->key_prefix[0] ? job->key_prefix : NULL;
	job->sc.key_prefix_resumed = job->key_prefix_resumed;
	job->sc.keydist = job->keydist;
	job->sc.key_dist = job->key_dist;
	if (cfg->slo != NULL) {
		job->sc.slo = &job->slo;
		job->sc.slo_probes = (unsigned)cfg->slo_probes;
	}
	if (run_until_decided(cfg, job, err) < 0 || run_targets(cfg, job, err) < 0)
		return rs_err_as(err, RS_E_USAGE);
	/* One target has nothing to compare (the rules refused no --target). */
	if (cfg->until_decided && job->targets.n < 2)
		return rs_err_setk(err, RS_E_USAGE, "--until-decided decides a comparison, and one "
				   "target has none: give two --target LABEL=URI or more (or "
				   "--spawn-args A|B alternatives)");
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
	run_warn_cores(cfg, job);
	run_plan_points(cfg, job, 1);
	return 0;
}
