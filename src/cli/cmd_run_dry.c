/* cmd_run_dry.c: "rsweep run", what is said of a plan before it runs: the
 * estimate of its duration, --dry-run's account of it (a summary first,
 * the points with -v), and the warning that the server's threads and
 * rsweep's want more CPUs than the machine has.  Nothing here connects. */
#include "config.h"

#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd_run_int.h"
#include "sweep/slo_sweep.h"
#include "base/log.h"
#include "base/num.h"

/* Keys a second the estimate guesses the server prepares, flushes or
 * deletes. */
#define RUN_DRY_KEYS_RATE 500000.0

/* The keys a point of test t moves outside its timed window: its
 * preparation's elements, and what the flush or (--key-prefix) the delete
 * after it removes, at most what the test can have written. */
static double run_dry_keys(const struct rs_config *cfg, const struct workload_test *t)
{
	uint64_t sent = cfg->duration > 0 || cfg->warmup > 0 ? UINT64_MAX : cfg->requests;
	/* --duration: as many requests as a second at the guessed rate. */
	uint64_t count = cfg->duration > 0 ? (uint64_t)(cfg->duration * 1e6) : cfg->requests;
	uint64_t bound = workload_key_bound(t, sent, cfg->keyspace, !cfg->no_prepare);
	double keys = cfg->no_prepare ? 0 : (double)workload_prepare_elements(t, count,
									       cfg->keyspace);

	/* A command of one's own has no bound: nothing to guess from. */
	if (bound != UINT64_MAX)
		keys += (double)bound;
	return keys;
}

/* A guess at point p's seconds (timed, warm-up, pause, and the keys moved
 * around it): with -n, 100k rps at P=1 growing with depth to 1M, less
 * with fewer than 4 connections, each waiting for its batch, and never
 * more than --rate's. */
static double run_point_secs(const struct rs_config *cfg, const struct run_job *job,
			     const struct sweep_point *p)
{
	double rps = 100000.0 * p->depth < 1e6 ? 100000.0 * p->depth : 1e6;
	unsigned clients = job->sweeps[p->target].sc.clients;
	double secs;

	if (clients < 4)
		rps *= clients / 4.0;
	if (p->rate > 0 && (double)p->rate < rps)
		rps = (double)p->rate;
	secs = cfg->duration > 0 ? cfg->duration : (double)cfg->requests / rps;
	return secs + cfg->warmup + cfg->pause + 0.01 +
	       run_dry_keys(cfg, &job->w.v[p->test]) / RUN_DRY_KEYS_RATE;
}

double run_estimate(const struct rs_config *cfg, const struct run_job *job)
{
	double todo = 0, all = 0;

	for (size_t i = 0; i < job->plan.n; i++) {
		double s = run_point_secs(cfg, job, &job->plan.v[i]);

		all += s;
		todo += job->plan.v[i].done ? 0 : s;
	}
	/* Later runs counted whole: what --resume finds done in them is
	 * known only when each starts. */
	return todo + all * (double)(cfg->runs - 1) + cfg->run_pause * (double)(cfg->runs - 1);
}

/* One line of the plan: point p. */
static void run_dry_point(const struct run_job *job, const struct sweep_point *p)
{
	const struct run_target_sweep *gs = &job->sweeps[p->target];

	printf("%5u  ", p->order);
	if (job->targets.n > 1)
		printf("%-12s ", job->targets.v[gs->target].label);
	if (job->sc.axes & SWEEP_AXIS_SERVER_ARGS)
		printf("[%s] ", job->targets.v[gs->target].server_args);
	printf("%-24s P=%-5u ", job->w.v[p->test].name, p->depth);
	if (job->nat > 1)
		printf("c=%-5u d=%-7llu t=%-3u ", gs->sc.clients, (unsigned long long)gs->sc.data_size,
		       gs->sc.threads);
	if (p->rate > 0)
		printf("%llu/s ", (unsigned long long)p->rate);
	printf("repeat %u%s\n", p->repeat, p->done ? "  (done)" : "");
}

void run_dry(const struct rs_config *cfg, const struct run_job *job)
{
	const struct workload *w = &job->w;
	const struct sweep_plan *plan = &job->plan;
	double total = run_estimate(cfg, job);

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
	if (cfg->runs > 1)
		printf("runs: %llu, one after another, %g s apart, each shuffled anew: %llu points in "
		       "all\n", (unsigned long long)cfg->runs, cfg->run_pause,
		       (unsigned long long)plan->todo * cfg->runs);
	printf("tests: ");
	for (size_t i = 0; i < w->n; i++)
		printf("%s%s", i ? "," : "", w->v[i].name);
	printf("\ndepths: ");
	/* Runs of consecutive depths as FIRST..LAST, as -P takes them. */
	for (size_t i = 0, j; i < cfg->pipeline.n; i = j) {
		for (j = i + 1; j < cfg->pipeline.n &&
		     cfg->pipeline.v[j] == cfg->pipeline.v[j - 1] + 1; j++)
			;
		printf("%s%u", i ? "," : "", cfg->pipeline.v[i]);
		if (j - i > 2)
			printf("..%u", cfg->pipeline.v[j - 1]);
		else if (j - i == 2)
			printf(",%u", cfg->pipeline.v[i + 1]);
	}
	printf("\n");
	if (job->nat > 1) {
		printf("axes:");
		for (size_t i = 0; i < job->nat; i++)
			printf(" c=%llu/d=%llu/t=%llu", (unsigned long long)job->at[i].clients,
			       (unsigned long long)job->at[i].data_size,
			       (unsigned long long)job->at[i].threads);
		printf("\n");
	}
	if (job->targets.n == 1 && job->targets.v[0].def == NULL)
		printf("label: %s\n", job->label);
	for (size_t k = 0; k < job->targets.n && job->targets.v[k].def != NULL; k++) {
		const struct targets_def *d = job->targets.v[k].def;

		printf("target: %s = %s", d->label, d->uri);
		for (size_t a = 0; a < d->nargs; a++)
			printf(" %s", d->args[a]);
		printf("\n");
	}
	{
		char place[320];

		run_place_say(job, place, sizeof place);
		if (place[0] != '\0')
			printf("%s\n", place);
	}
	if (job->sc.slo != NULL) {
		/* A climb of a step or two and a bisection from half the start
		 * to 5% (four), at most --slo-probes: about 6 a depth, each at
		 * the guessed rate's half. */
		double probes = fmin(6, (double)cfg->slo_probes), more = 0;

		for (size_t i = 0; i < plan->n; i++) {
			const struct sweep_point *p = &plan->v[i];
			double rps = fmin(100000.0 * p->depth, 1e6) / 2;

			if (p->repeat == 1)
				more += probes * (slo_probe_seconds(job->sc.slo, rps, cfg->duration) +
						  cfg->warmup + cfg->pause + 0.01);
		}
		printf("search: --slo %s from each depth's closed-loop point: about %.0f open-loop "
		       "probes a depth (at most %llu, repeats where unsure included), each long enough "
		       "for "
		       "%.0f requests; about %.0f s more\n", job->sc.slo->text, probes,
		       (unsigned long long)cfg->slo_probes, slo_requests_needed(job->sc.slo), more);
		total += more;
	}
	printf("estimated duration: %.0f s (%skeys prepared, flushed or deleted between points at "
	       "%.0fk a second)\n", total, cfg->duration > 0 ? "" : "guessing 100k rps at P=1 up to "
	       "1M rps, at most --rate's, -n runs vary; ", RUN_DRY_KEYS_RATE / 1000);
	if (job->sc.until_decided)
		printf("then --until-decided: the points whose comparison is undecided measured again, up to "
		       "%u repeats a point, no new point after %.0f s of the sweep\n",
		       job->sc.max_repeats, job->sc.budget);
	if (!cfg->verbose) {
		printf("points: -v lists the %zu point%s%s\n", plan->n, plan->n == 1 ? "" : "s",
		       cfg->runs > 1 ? " of run 1" : "");
		return;
	}
	printf("points%s:\n", cfg->runs > 1 ? " (run 1's; each run is shuffled anew)" : "");
	for (size_t i = 0; i < plan->n; i++)
		run_dry_point(job, &plan->v[i]);
}

/* The threads a spawned server runs its requests on: --io-threads N of
 * its arguments (N counts the main thread), else 1. */
static unsigned long run_server_threads(const struct cmd_target *g)
{
	unsigned long n = 1;

	for (size_t i = 0; g->extra != NULL && g->extra[i] != NULL; i++) {
		const char *a = g->extra[i];
		uint64_t v;
		struct rs_err err;

		if (strcmp(a, "--io-threads") != 0 || g->extra[i + 1] == NULL)
			continue;
		if (num_parse_u64(g->extra[i + 1], 1, 1024, 1, &v, &err) == 0)
			n = (unsigned long)v;
	}
	return n;
}

void run_warn_cores(const struct rs_config *cfg, const struct run_job *job)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long most = 0;
	const struct cmd_target *at = NULL;
	char why[160] = "";

	if (ncpu < 1 || cfg->agents > 0)
		return;
	for (size_t k = 0; k < job->targets.n; k++) {
		const struct cmd_target *g = &job->targets.v[k];
		unsigned long n = g->spawned ? run_server_threads(g) : 0;

		if (n > most)
			most = n, at = g;
	}
	if (at == NULL || most + cfg->threads <= (unsigned long)ncpu)
		return;
	if (most > 1)
		snprintf(why, sizeof why, " (--io-threads %lu%s%s)", most,
			 at->label != NULL && job->targets.n > 1 ? ", target " : "",
			 at->label != NULL && job->targets.n > 1 ? at->label : "");
	rs_log(RS_LOG_WARN, "the spawned server's %lu thread%s%s and rsweep's %llu want %llu CPUs, "
	       "and this machine has %ld: they take turns (a server's io-threads spin while they "
	       "wait), a point can take many times the estimate, and what is measured is the "
	       "contention: fewer --io-threads or --threads, or a machine with more cores",
	       most, most == 1 ? "" : "s", why, (unsigned long long)cfg->threads,
	       (unsigned long long)(most + cfg->threads), ncpu);
}
