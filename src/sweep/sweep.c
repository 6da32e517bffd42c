/* sweep.c: the sweep loop: for each point of the plan, ready the servers
 * (through their guards: guard.h), warm up, measure with the load
 * (load.h), store; retry, and leave the servers as they were found. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "results/histfile.h"
#include "workload/job.h"
#include "os/host.h"
#include "base/platform.h"
#include "sweep/precision.h"
#include "sweep/slo_sweep.h"
#include "sweep/sweep.h"
#include "sweep/sweep_int.h"
#include "net/target_server.h"
#include "base/xalloc.h"

/* ---- facts about the machines, for every row ---- */

/* The facts of INFO server's text into env. */
static void sweep_env_parse(const char *info, struct sweep_env *env)
{
	char *sp;

	memset(env, 0, sizeof *env);
	target_info_field(info, "run_id", env->run_id, sizeof env->run_id);
	target_info_field(info, "redis_version", env->redis_version, sizeof env->redis_version);
	target_info_field(info, "os", env->server_os, sizeof env->server_os);
	target_server_parse(info, &env->server);
	/* "Linux 6.1.0-18-amd64 x86_64": the machine is the last word. */
	sp = strrchr(env->server_os, ' ');
	xstrlcpy(env->server_arch, sp ? sp + 1 : env->server_os, sizeof env->server_arch);
	platform_cpu_model(env->client_cpu, sizeof env->client_cpu);
}

/* guard_config.on_server of the target itself: its guard's every INFO
 * server gives the facts (a restarted server may be another version). */
static void sweep_env_on_server(void *ud, const char *info)
{
	struct sweep_server *srv = ud;

	sweep_env_parse(info, &srv->s->env);
}

/* INFO server on c (a cluster's node given), parsed into env. */
static int sweep_env_read(struct target_conn *c, const struct target *t, struct sweep_env *env,
			  struct rs_err *err)
{
	char *info;

	if (target_info(c, t, "server", &info, err) < 0)
		return -1;
	sweep_env_parse(info, env);
	free(info);
	return 0;
}

/* To the nanosecond: started_at pairs a row with its histogram in the
 * sidecar (latency.c), and two runs started in one second must not pair
 * each other's (a copied CSV took the other run's histograms).  Older
 * files' whole seconds still read: the key is compared as text. */
static void sweep_iso_now(char *buf, size_t size)
{
	struct timespec ts;
	struct tm tm;
	char sec[24];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(sec, sizeof sec, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, size, "%.19s.%09uZ", sec, (unsigned)ts.tv_nsec % 1000000000u);
}

static void sweep_sleep(double s, volatile sig_atomic_t *stop)
{
	/* In slices, so that ^C is not kept waiting. */
	while (s > 0 && !(stop && *stop)) {
		double slice = s < 0.1 ? s : 0.1;
		struct timespec ts = { (time_t)slice, (long)((slice - floor(slice)) * 1e9) };

		nanosleep(&ts, NULL);
		s -= slice;
	}
}

/* target_point_stats summed over every server (each one's CPU into
 * cpus[i] too, cpus not NULL); a count one server does not give is
 * unknown (-1) in the sum.  On a read point that loads the replicas,
 * theirs are added, each replica's into rsts[i] too. */
static int sweep_stats(struct sweep *s, const char *name, struct target_stats *sum,
		       double *cpus, struct target_stats *rsts, struct rs_err *err)
{
	sum->calls = sum->hits = sum->misses = 0;
	sum->cpu = 0;
	memset(sum->each, 0, sizeof sum->each);
	sum->neach = 0;
	for (size_t i = 0; i < s->nsrv; i++) {
		struct sweep_server *srv = &s->srv[i];
		struct target_stats st;

		if (target_point_stats(srv->g.c, &srv->t, name, &st, err) < 0)
			return -1;
		sweep_stats_add(sum, &st);
		if (cpus != NULL)
			cpus[i] = st.cpu;
	}
	/* A read point on replicas: their counters too (sweep_replicas.c). */
	if (s->read_point && sweep_replicas_stats(s, name, rsts, sum, err) < 0)
		return -1;
	return 0;
}

/* Reads that found nothing though no reply was nil (GETBIT on a missing
 * key answers 0, HMGET a nil inside an array): the server's count shows
 * them, once a test, when they are more than 1% of the requests. */
static void sweep_note_misses(struct sweep *s, const struct workload_test *t,
			      const struct sweep_point *p, const struct rs_row *row)
{
	uint64_t bit = (uint64_t)1 << ((size_t)(t - s->w->v) % 64);

	if ((s->missed_noted & bit) || row->server_misses < 0 || row->requests <= 0 ||
	    row->server_misses <= row->misses || row->server_misses * 100 <= row->requests)
		return;
	s->missed_noted |= bit;
	sweep_note(s->cfg, "%s P=%u: the server counted %lld reads that found nothing "
		   "(keyspace_misses) in %lld requests, %lld of them with a nil reply: the rows' "
		   "server_misses say how many at each point", t->name, p->depth,
		   (long long)row->server_misses, (long long)row->requests, (long long)row->misses);
}

/* Measure one point into row: ready the servers, warm up, run the timed
 * window between two readings of the servers' counters. */
static enum guard_step sweep_measure(struct sweep *s, const struct workload_test *t,
				     const struct sweep_point *p, struct rs_row *row,
				     struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	const struct job_point jp = {
		.keyspace = cfg->keyspace, .keydist = cfg->keydist, .seed = cfg->seed + p->order,
		.depth = p->depth, .mode = cfg->mode, .rate = (double)p->rate,
		.arrivals = cfg->arrivals,
		/* --slo's probes run as long as their percentile needs. */
		.requests = p->duration > 0 ? 0 : cfg->requests,
		.duration = p->duration > 0 ? p->duration : cfg->duration,
		.timeout = cfg->timeout, .data_size = cfg->data_size,
		.vmin = (size_t)cfg->vmin, .vmax = (size_t)cfg->vmax, .stop = cfg->stop,
		.subscribers = cfg->subscribers, .channels = cfg->channels,
		.psubscribe = cfg->psubscribe,
	};
	char cmdstats[WORKLOAD_MIX_MAX * 16 + 64];
	unsigned at[WORKLOAD_MIX_MAX];
	struct job built;
	struct engine_job job;
	struct sweep_sample m;
	enum guard_step step;
	struct load *l;
	size_t nload;
	char why[256];

	/* The one job every load runs (job.h); job points at built's members. */
	job_build(t, &jp, &built);
	job = built.e;
	job.reconnect_every = cfg->reconnect_every;
	job.tls_resume = cfg->tls_resume;
	sweep_cmdstats(t, cmdstats, sizeof cmdstats, at);
	/* A read test on replicas (--read-from), or the target (each master). */
	l = sweep_replicas_load(s, t);
	s->read_point = l != s->load;
	nload = s->read_point ? s->nreads : s->topo ? s->nsrv : 1;
	/* The memory rule on the job, as an agent applies it to what it
	 * receives: each master of a cluster, each server of the reads, has
	 * -c connections of its own. */
	if (job_memory_check(&job, t->name, (uint64_t)cfg->clients * nload,
			     cfg->threads * (unsigned)nload, WORKLOAD_MEMORY_MAX, err) < 0 ||
	    load_check(l, &job, err) < 0)
		return GUARD_FINAL;
	if ((step = sweep_ready_all(s, t, err)) != GUARD_OK)
		return step;
	/* What was prepared is on the replicas before they are read. */
	if (s->read_point && (sweep_replicas_catch_up(s, err) < 0 || load_open(l, err) < 0))
		return GUARD_RETRY;
	if (cfg->warmup > 0) {
		struct engine_job warm = job;

		warm.duration = cfg->warmup;
		if (load_run(l, &warm, t->name, 1, &m.res, err) < 0) {
			rs_err_prefix(err, "warm-up");
			return GUARD_RETRY;
		}
	}
	if (sweep_stats(s, cmdstats, &m.st0, s->cpu0, s->rst0, err) < 0)
		return GUARD_RETRY;
	sweep_iso_now(row->started_at, sizeof row->started_at);
	host_sample(&m.h0);
	if (load_run(l, &job, t->name, 0, &m.res, err) < 0)
		return err->kind == RS_E_USAGE ? GUARD_FINAL : GUARD_RETRY;
	host_sample(&m.h1);
	if (sweep_stats(s, cmdstats, &m.st1, s->cpu1, s->rst1, err) < 0 ||
	    sweep_replicas_lag(s, err) < 0)
		return GUARD_RETRY;
	sweep_row_fill(s, t, p, &m, row);
	if (s->topo != NULL)
		sweep_cluster_row(s, &m.res, row);
	sweep_replicas_row(s, row);
	load_row(l, row);
	s->hist = m.res.hist;
	if (sweep_row_sanitise(row, s->unknown, why, sizeof why) > 0)
		sweep_note(cfg, "%s P=%u: %s", t->name, p->depth, why);
	if (row->rate_short > 0)
		sweep_note(cfg, "%s P=%u @%llu/s: achieved %.0f/s, short of the offered rate: the "
			   "server saturated below it", t->name, p->depth, (unsigned long long)p->rate,
			   row->rps);
	sweep_note_misses(s, t, p, row);
	return GUARD_OK;
}

/* Drop the control connections and the load's and open them again, the
 * servers first: each is checked (and its connection vetted) before the
 * load reconnects.  SWEEP_FAILED is worth another try; SWEEP_REFUSED: a
 * server process the guard refused. */
static enum sweep_status sweep_reconnect(struct sweep *s, struct rs_err *err)
{
	enum sweep_status st;

	if (s->topo != NULL && (st = sweep_cluster_reread(s, err)) != SWEEP_OK)
		return st;
	for (size_t i = 0; i < s->nsrv; i++)
		if ((st = sweep_guard_status(guard_reconnect(&s->srv[i].g, err))) != SWEEP_OK)
			return st;
	return sweep_replicas_reconnect(s, err) < 0 || load_reconnect(s->load, err) < 0 ?
	       SWEEP_FAILED : SWEEP_OK;
}

/* connected_clients of the server behind srv's connection, or -1. */
static long sweep_clients(struct sweep_server *srv)
{
	char *info, v[32];
	struct rs_err e;

	if (target_info(srv->g.c, &srv->t, "clients", &info, &e) < 0)
		return -1;
	target_info_field(info, "connected_clients", v, sizeof v);
	free(info);
	return v[0] ? strtol(v, NULL, 10) : -1;
}

/* Wait (1 s at most) until the server has let the load's connections go:
 * a point cut short (^C, a failure) leaves requests in flight, and one the
 * server runs after the last flush would leave a key behind (the next
 * run's guard then refuses the server).  The server runs what a client
 * sent before it notices the client is gone, so once connected_clients is
 * back to what it was, nothing of theirs is left. */
static void sweep_load_gone(struct sweep_server *srv)
{
	if (srv->clients0 < 0)
		return;
	for (int i = 0; i < 100; i++) {
		long n = sweep_clients(srv);
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		if (n < 0 || n <= srv->clients0)
			return;
		nanosleep(&ts, NULL);
	}
}

/* On every way out: leave the server as the guard found it, empty of what
 * the sweep wrote, so that the next run or a --resume is not refused
 * because of rsweep's own keys; but only through a vetted connection and
 * after the same check as any flush.  The load's connections are closed
 * already. */
static enum sweep_status sweep_server_leave(struct sweep *s, struct sweep_server *srv,
					    enum sweep_status st, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	struct rs_err fe;
	enum guard_step step;

	if (!guard_dirty(&srv->g))
		return st;
	if (!srv->g.vetted || srv->g.foreign) {
		sweep_debug(cfg, "%s: the benchmark's keys are left: %s", srv->t.desc,
			    srv->g.foreign ? "another client wrote to it" :
					     "the guard has not checked it");
		return st;
	}
	if (guard_again(&srv->g, &fe) < 0) {
		sweep_note(cfg, "the benchmark's keys are left on %s: %s", srv->t.desc, fe.msg);
		return st;
	}
	sweep_load_gone(srv);
	step = guard_flush(&srv->g, &fe);
	/* --key-prefix: the end is where the prefix is checked empty.  A key
	 * another client wrote under it is the prefix's promise broken (that
	 * client's work may have met the sweep's, and rsweep's writes its):
	 * refused, as a foreign key is in a flushed server. */
	if (step == GUARD_OK && cfg->key_prefix != NULL &&
	    (step = guard_prefix_empty(&srv->g, &fe)) != GUARD_OK) {
		if (step == GUARD_FOREIGN && (st == SWEEP_OK || st == SWEEP_ERROR_REPLIES)) {
			*err = fe;
			return SWEEP_REFUSED;
		}
		sweep_note(cfg, "%s", fe.msg);
		return st;
	}
	if (step == GUARD_FOREIGN && (st == SWEEP_OK || st == SWEEP_ERROR_REPLIES)) {
		*err = fe;
		return SWEEP_REFUSED;
	}
	if (step != GUARD_OK && st != SWEEP_FAILED)
		sweep_note(cfg, "could not flush the benchmark's keys at the end: %s", fe.msg);
	return st;
}

static enum sweep_status sweep_leave(struct sweep *s, enum sweep_status st, struct rs_err *err)
{
	/* The load's connections first: each server waits for them to go. */
	if (s->load != NULL)
		load_drop(s->load);
	if (s->rload != NULL)
		load_drop(s->rload);
	for (size_t i = 0; i < s->nsrv; i++)
		st = sweep_server_leave(s, &s->srv[i], st, err);
	return st;
}

/* A step that failed because ^C cut it short is an interruption (130),
 * not a failure of the server. */
static enum sweep_status sweep_stopped(const struct sweep_config *cfg, enum sweep_status st)
{
	return st == SWEEP_FAILED && cfg->stop && *cfg->stop ? SWEEP_INTERRUPTED : st;
}

/* The target itself: one guarded server, whose INFO server gives the facts
 * too, and the local engine's load on it. */
static enum sweep_status sweep_single_open(struct sweep *s, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	struct guard_config gc;
	enum sweep_status st;

	s->srv = xcalloc(1, sizeof *s->srv);
	s->nsrv = 1;
	s->srv[0].t = *cfg->target;
	sweep_guard_config(s, &s->srv[0].t, 0, 0, &gc);
	/* The facts from the guard's own INFO server, not a second one. */
	gc.on_server = sweep_env_on_server;
	gc.cb_ud = &s->srv[0];
	guard_init(&s->srv[0].g, &gc);
	s->load = load_engine(cfg->target, cfg->clients, cfg->threads);
	if ((st = sweep_server_open(s, 0, err)) != SWEEP_OK)
		return st;
	return sweep_replicas_open(s, err);
}

/* Before relying on the servers' counters: which of them they give at all
 * (a server other than redis-server, or INFO sections an ACL or a proxy
 * leaves out).  What one gives none of is left empty in every row, with
 * one note now, never a point failed or a count noted as wrong. */
static enum sweep_status sweep_probe(struct sweep *s, struct rs_err *err)
{
	for (size_t i = 0; i < s->nsrv; i++) {
		struct sweep_server *srv = &s->srv[i];
		struct target_stats st;

		if (target_point_stats(srv->g.c, &srv->t, "ping", &st, err) < 0)
			return SWEEP_FAILED;
		if (st.calls < 0 && !(s->unknown & SWEEP_NO_CALLS))
			sweep_note(s->cfg, "%s: INFO commandstats gives no command counts: server_calls "
				   "is left empty, requests are counted from the replies only",
				   srv->t.desc);
		if (isnan(st.cpu) && !(s->unknown & SWEEP_NO_CPU))
			sweep_note(s->cfg, "%s: INFO cpu gives no used_cpu_sys/used_cpu_user: "
				   "server_cpu_s is left empty", srv->t.desc);
		s->unknown |= (st.calls < 0 ? SWEEP_NO_CALLS : 0) | (isnan(st.cpu) ? SWEEP_NO_CPU : 0);
	}
	return SWEEP_OK;
}

enum sweep_status sweep_open(const struct sweep_config *cfg, const struct workload *w,
			     struct sweep **out, struct rs_err *err)
{
	struct sweep *s = xcalloc(1, sizeof *s);
	enum sweep_status st;

	s->cfg = cfg;
	s->w = w;
	*out = s;
	if (!cfg->cluster)
		st = sweep_single_open(s, err);
	/* A cluster: the facts and the topology from the node given. */
	else if (target_connect(cfg->target, &s->seed, err) < 0 ||
		 sweep_env_read(s->seed, cfg->target, &s->env, err) < 0)
		st = SWEEP_FAILED;
	else if ((st = sweep_cluster_open(s, err)) == SWEEP_OK)
		st = sweep_replicas_open(s, err);
	if (st == SWEEP_OK)
		st = sweep_probe(s, err);
	/* --resume: the label's rows are this server's, or nothing is touched
	 * (opening only read it). */
	if (st == SWEEP_OK && cfg->prior != NULL &&
	    rows_check_server(cfg->prior, cfg->label, s->env.server.name, s->env.server.version,
			      s->env.redis_version, err) < 0)
		st = SWEEP_REFUSED;
	if (st == SWEEP_OK && !cfg->spawned && cfg->flush != GUARD_FLUSH_NONE && w->n > 0 &&
	    w->v[0].custom &&
	    workload_key_bound(&w->v[0], sweep_sent(cfg), cfg->keyspace, 0) == UINT64_MAX)
		sweep_note(cfg, "the guard cannot tell the keys %s writes from another client's: "
			   "between points it checks only that each flush leaves the server empty",
			   w->v[0].name);
	/* The guard checks before and between points, not inside one. */
	for (size_t i = 0; st == SWEEP_OK && !cfg->spawned && i < w->n; i++) {
		char why[200];

		if (workload_danger(&w->v[i], why, sizeof why)) {
			sweep_note(cfg, "%s: another client's data on this server can be lost during "
				   "the sweep without a word (a server of one's own, --spawn, is safe)",
				   why);
			break;
		}
	}
	return sweep_stopped(cfg, st);
}

void sweep_use_load(struct sweep *s, struct load *l)
{
	load_free(s->load);
	s->load = l;
}

/* Seconds since t0 (engine_now_ns). */
static double sweep_since(uint64_t t0)
{
	return (double)(engine_now_ns() - t0) / 1e9;
}

/* ^C (or the caller's stop flag) asked the sweep to stop. */
static int sweep_interrupted(const struct sweep_config *cfg)
{
	return cfg->stop != NULL && *cfg->stop;
}

/* Name the point in err; returns SWEEP_FAILED. */
static enum sweep_status sweep_point_failed(const struct sweep_plan *plan,
					    const struct sweep_point *p,
					    const struct workload_test *t, struct rs_err *err)
{
	rs_err_prefix(err, "point %u of %zu (%s P=%u repeat %u)", p->order, plan->n, t->name,
		      p->depth, p->repeat);
	return SWEEP_FAILED;
}

/* After a failed try: wait (0.5 s, 1 s, 2 s, ... at most 10 s) and
 * reconnect, counting each reconnection that fails as another attempt.
 * Returns SWEEP_OK to try the point again, SWEEP_FAILED when *attempt
 * reached --retries, or the reconnection's other verdicts
 * (SWEEP_REFUSED, SWEEP_INTERRUPTED). */
static enum sweep_status sweep_back_off(struct sweep *s, unsigned *attempt, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;

	for (;;) {
		enum sweep_status st;

		sweep_sleep(fmin(10.0, 0.5 * pow(2.0, (double)(*attempt - 1))), cfg->stop);
		if (sweep_interrupted(cfg))
			return SWEEP_INTERRUPTED;
		if ((st = sweep_reconnect(s, err)) != SWEEP_FAILED)
			return st;
		if (*attempt >= cfg->retries)
			return SWEEP_FAILED;
		(*attempt)++;
	}
}

/* Measure point p into row, retrying up to --retries times on failures
 * worth a retry.  Returns SWEEP_OK, SWEEP_REFUSED (keys rsweep did not
 * write), SWEEP_INTERRUPTED, or SWEEP_FAILED with err naming the point. */
static enum sweep_status sweep_point(struct sweep *s, const struct sweep_plan *plan,
				     const struct sweep_point *p, struct rs_row *row,
				     struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	const struct workload_test *t = &s->w->v[p->test];
	unsigned attempt = 0;

	for (;;) {
		enum guard_step step;
		enum sweep_status st;

		row_init(row);
		step = sweep_measure(s, t, p, row, err);
		if (step == GUARD_OK)
			return SWEEP_OK;
		if (step == GUARD_FOREIGN)
			return SWEEP_REFUSED;
		if (sweep_interrupted(cfg))
			return SWEEP_INTERRUPTED;
		if (step == GUARD_FINAL || attempt >= cfg->retries)
			return sweep_point_failed(plan, p, t, err);
		attempt++;
		sweep_note(cfg, "%s P=%u: %s; reconnecting (retry %u of %u)", t->name, p->depth,
			   err->msg, attempt, cfg->retries);
		st = sweep_back_off(s, &attempt, err);
		if (st == SWEEP_FAILED)
			return sweep_point_failed(plan, p, t, err);
		if (st != SWEEP_OK)
			return st;
	}
}

/* What the points so far had of error replies. */
struct sweep_tally {
	size_t ran, with_errors, all_errors;
	char first_error[ROW_STR];
};

/* Count point p's row as done: --precision's record, the error tally,
 * the caller's progress callback. */
static void sweep_point_done(struct sweep *s, struct sweep_plan *plan, struct sweep_point *p,
			     const struct rs_row *row, struct precision *pr,
			     struct sweep_tally *tl)
{
	const struct sweep_config *cfg = s->cfg;

	p->done = 1;
	tl->ran++;
	if (cfg->precision > 0 || cfg->until_decided)
		precision_add(pr, p->test, p->depth, p->repeat, row->rps);
	if (row->errors > 0) {
		tl->with_errors++;
		if (tl->first_error[0] == '\0')
			snprintf(tl->first_error, sizeof tl->first_error, "%s", row->first_error);
		if (row->errors == row->requests)
			tl->all_errors++;
	}
	if (cfg->on_point)
		cfg->on_point(cfg->ud, row, tl->ran, plan->todo);
}

/* The verdict on a sweep that ran to its end: error replies fail it when
 * a point had nothing else, or always under --fail-on-error. */
static enum sweep_status sweep_tally_status(const struct sweep_config *cfg,
					    const struct sweep_tally *tl, struct rs_err *err)
{
	if (tl->all_errors == 0 && !(cfg->fail_on_error && tl->with_errors > 0))
		return SWEEP_OK;
	rs_err_set(err, "%zu point%s had error replies%s (first: %s)", tl->with_errors,
		   tl->with_errors == 1 ? "" : "s",
		   tl->all_errors ? ", some nothing but errors" : "", tl->first_error);
	return SWEEP_ERROR_REPLIES;
}

/* Open the load's connections, unless a sweep before left them open;
 * each server's client count first, to wait for them to go at the end. */
static enum sweep_status sweep_load_open(struct sweep *s, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	char who[2 * TARGET_SERVER_STR];

	for (size_t i = 0; i < s->nsrv; i++)
		s->srv[i].clients0 = load_local(s->load) && !load_connected(s->load) ?
				     sweep_clients(&s->srv[i]) : -1;
	if (load_open(s->load, err) < 0)
		return SWEEP_FAILED;
	if (s->topo != NULL)
		sweep_debug(cfg, "%s: %u connections to each of %zu masters over %u thread%s each",
			    cfg->target->desc, cfg->clients, s->nsrv, cfg->threads,
			    cfg->threads == 1 ? "" : "s");
	else if (!load_local(s->load))
		sweep_debug(cfg, "%s: %s on %s; the load comes from the agents", cfg->target->desc,
			    target_server_desc(s->env.server.name, s->env.server.version, who,
					       sizeof who), s->env.server_os);
	else
		sweep_debug(cfg, "%s: %s on %s; %u connections over %u thread%s; client CPU %s",
			    cfg->target->desc, target_server_desc(s->env.server.name,
			    s->env.server.version, who, sizeof who), s->env.server_os, cfg->clients,
			    cfg->threads, cfg->threads == 1 ? "" : "s", s->env.client_cpu);
	return SWEEP_OK;
}

/* Name s's target in err, when the sweep has more than one. */
static void sweep_name_target(const struct sweep *s, size_t n, struct rs_err *err)
{
	if (n > 1)
		rs_err_prefix(err, "target '%s'", s->cfg->label);
}

/* After a point of a target that shares its server with another: empty it
 * again through the guard's checks, as before every point. */
static enum sweep_status sweep_clean_after(struct sweep *s, struct rs_err *err)
{
	enum guard_step step = GUARD_OK;

	if (!s->shared || s->cfg->flush == GUARD_FLUSH_NONE)
		return SWEEP_OK;
	for (size_t i = 0; i < s->nsrv && step == GUARD_OK; i++)
		step = guard_flush(&s->srv[i].g, err);
	return step == GUARD_OK ? SWEEP_OK : step == GUARD_FOREIGN ? SWEEP_REFUSED : SWEEP_FAILED;
}

void sweep_who(const struct sweep_config *cfg, struct sweep_plan_who *who)
{
	who->label = cfg->label;
	who->clients = cfg->axes & SWEEP_AXIS_CLIENTS ? (int64_t)cfg->clients : -1;
	who->data_size = cfg->axes & SWEEP_AXIS_DATA_SIZE ? (int64_t)cfg->data_size : -1;
	who->threads = cfg->axes & SWEEP_AXIS_THREADS ? (int64_t)cfg->threads : -1;
	who->server_args = cfg->axes & SWEEP_AXIS_SERVER_ARGS ?
			   (cfg->server_args ? cfg->server_args : "") : NULL;
}

enum sweep_status sweep_points_all(struct sweep **ss, size_t n, struct sweep_plan *plan,
				   struct csv_out *out, struct rs_err *err)
{
	/* What the targets share (pause, stop, --precision) is the first's. */
	const struct sweep_config *cfg = ss[0]->cfg;
	size_t planned = plan->n;
	struct sweep_tally tl = { 0 };
	struct precision *pr = xcalloc(n, sizeof *pr);
	const char **label = xcalloc(n, sizeof *label);
	struct sweep_plan_precision po = {
		.precision = cfg->precision, .until_decided = cfg->until_decided,
		.group = cfg->decide_group, .label = label, .w = ss[0]->w,
		.budget = cfg->budget, .max_repeats = cfg->max_repeats,
		.seed = cfg->seed, .on_note = cfg->on_note, .ud = cfg->ud, .verbose = cfg->verbose,
	};
	int rounds = cfg->precision > 0 || cfg->until_decided;
	unsigned round = 0;
	uint64_t t0 = engine_now_ns();
	enum sweep_status st = SWEEP_OK;
	/* --slo: the searches append their probes as the plan's rounds. */
	struct slo_sweep *slo = cfg->slo ? slo_sweep_new(cfg, n, ss[0]->w->n, cfg->depths) : NULL;

	for (size_t k = 0; k < n; k++)
		label[k] = ss[k]->cfg->label;
	/* --precision, --until-decided: each target's points by its label
	 * (--resume's too). */
	for (size_t k = 0; k < n && rounds; k++) {
		struct sweep_plan_who who;

		sweep_who(ss[k]->cfg, &who);
		sweep_plan_precision_init(&pr[k], ss[k]->w, ss[k]->cfg->depths, &who,
					  ss[k]->cfg->mode, ss[k]->cfg->run, ss[k]->cfg->prior);
	}
	for (size_t k = 0; k < n && slo != NULL; k++) {
		struct sweep_plan_who who;

		sweep_who(ss[k]->cfg, &who);
		slo_sweep_replay(slo, k, ss[k]->w, &who, ss[k]->cfg->run, ss[k]->cfg->prior);
	}
	for (size_t k = 0; k < n && st == SWEEP_OK; k++)
		if ((st = sweep_load_open(ss[k], err)) != SWEEP_OK)
			sweep_name_target(ss[k], n, err);
	for (size_t i = 0; st == SWEEP_OK; i++) {
		struct sweep_point *p;
		struct sweep *s;
		struct rs_row row;

		if (i == plan->n) {
			/* The plan is done: --precision or --slo may add a round. */
			long more = slo != NULL ? (long)slo_sweep_more(slo, plan) :
				    sweep_plan_more(plan, &po, pr, n, round, sweep_since(t0), err);

			if (more < 0) {
				st = SWEEP_FAILED;
				break;
			}
			if (more == 0) {
				st = sweep_tally_status(cfg, &tl, err);
				break;
			}
			round++;
		}
		p = &plan->v[i];
		s = ss[p->target < n ? p->target : 0];
		if (p->done)
			continue;
		/* A round under way stops when the budget is spent, and says
		 * what it leaves undone. */
		if (i >= planned && cfg->budget > 0 && sweep_since(t0) >= cfg->budget) {
			st = sweep_plan_more(plan, &po, pr, n, round, sweep_since(t0), err) < 0 ?
			     SWEEP_FAILED : sweep_tally_status(cfg, &tl, err);
			break;
		}
		if (sweep_interrupted(cfg)) {
			st = SWEEP_INTERRUPTED;
			break;
		}
		if (tl.ran > 0 && cfg->pause > 0)
			sweep_sleep(cfg->pause, cfg->stop);
		if ((st = sweep_point(s, plan, p, &row, err)) != SWEEP_OK) {
			sweep_name_target(s, n, err);
			break;
		}
		if (slo != NULL)
			slo_sweep_row(slo, s->cfg, p, &s->hist, &row);
		/* The histogram before the row (under the CSV's lock, which
		 * histfile_append takes first): a row without its histogram could
		 * not be merged, a histogram without its row is ignored. */
		if (out != NULL && (histfile_append(out, &row, &s->hist, err) < 0 ||
				    csv_out_append(out, &row, err) < 0)) {
			st = SWEEP_FAILED;
			break;
		}
		sweep_point_done(s, plan, p, &row, &pr[p->target < n ? p->target : 0], &tl);
		if ((st = sweep_clean_after(s, err)) != SWEEP_OK)
			sweep_name_target(s, n, err);
	}
	slo_sweep_free(slo);
	for (size_t k = 0; k < n; k++)
		precision_free(&pr[k]);
	free(pr);
	free(label);
	/* The last target first: a target's engine connections count among the
	 * clients of a server it shares with an earlier one (sweep_load_gone). */
	for (size_t k = n; k-- > 0;)
		st = sweep_leave(ss[k], st, err);
	return sweep_stopped(cfg, st);
}

enum sweep_status sweep_points(struct sweep *s, struct sweep_plan *plan, struct csv_out *out,
			       struct rs_err *err)
{
	return sweep_points_all(&s, 1, plan, out, err);
}

const char *sweep_run_id(const struct sweep *s)
{
	return s->env.run_id;
}

void sweep_share(struct sweep *s)
{
	s->shared = 1;
}

void sweep_close(struct sweep *s)
{
	if (s == NULL)
		return;
	load_free(s->load);
	sweep_replicas_free(s);
	for (size_t i = 0; i < s->nsrv; i++) {
		guard_close(&s->srv[i].g);
		for (size_t k = 0; s->srv[i].snaps != NULL && k < s->w->n; k++)
			free(s->srv[i].snaps[k].payload);
		free(s->srv[i].snaps);
	}
	free(s->srv);
	target_close(s->seed);
	sweep_cluster_free(s);
	free(s);
}

enum sweep_status sweep_run(const struct sweep_config *cfg, const struct workload *w,
			    struct sweep_plan *plan, struct csv_out *out, struct rs_err *err)
{
	struct sweep *s;
	enum sweep_status st = sweep_open(cfg, w, &s, err);

	if (st == SWEEP_OK)
		st = sweep_points(s, plan, out, err);
	sweep_close(s);
	return st;
}
