/* replica_load.c: one engine per server of a replica set, run side by
 * side (replica_load.h). */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "engine/replica_load.h"

struct replica_part {
	const struct target *t;
	struct engine *e;
	struct engine_job job;
	struct engine_result res;
	struct rs_err err;
	int rc;
	pthread_t tid;
};

struct replica_load {
	struct replica_part *p;
	size_t n;
};

int replica_load_new(const struct target *ts, size_t n, unsigned clients, unsigned threads,
		     struct replica_load **out, struct rs_err *err)
{
	struct replica_load *rl = xcalloc(1, sizeof *rl);

	*out = NULL;
	rl->p = xcalloc(n ? n : 1, sizeof *rl->p);
	rl->n = n;
	for (size_t i = 0; i < n; i++) {
		rl->p[i].t = &ts[i];
		if (engine_new(&ts[i], clients, threads, &rl->p[i].e, err) < 0) {
			replica_load_free(rl);
			return -1;
		}
	}
	*out = rl;
	return 0;
}

int replica_load_reconnect(struct replica_load *rl, struct rs_err *err)
{
	for (size_t i = 0; i < rl->n; i++)
		if (engine_reconnect(rl->p[i].e, err) < 0)
			return -1;
	return 0;
}

void replica_load_free(struct replica_load *rl)
{
	if (rl == NULL)
		return;
	for (size_t i = 0; i < rl->n; i++)
		engine_free(rl->p[i].e);
	free(rl->p);
	free(rl);
}

void replica_load_sum(struct engine_result *res, const struct engine_result *part)
{
	res->requests += part->requests;
	res->errors += part->errors;
	res->misses += part->misses;
	res->redirects += part->redirects;
	/* A mix: each member's requests, over the servers. */
	for (size_t m = 0; m < ENGINE_MAX_MEMBERS; m++)
		res->member_sent[m] += part->member_sent[m];
	if (part->seconds > res->seconds)
		res->seconds = part->seconds;
	/* The slowest setup of any server's connections. */
	if (part->connect_ms > res->connect_ms)
		res->connect_ms = part->connect_ms;
	hist_merge(&res->hist, &part->hist);
	hist_merge(&res->service, &part->service);
	hist_merge(&res->slip, &part->slip);
	res->connects += part->connects;
	res->resumed += part->resumed;
	hist_merge(&res->connect, &part->connect);
	/* Pub/sub: each server's own subscribers (sharded on a cluster). */
	res->int_sum += part->int_sum;
	res->expected += part->expected;
	res->delivered += part->delivered;
	res->lost += part->lost;
	res->dup += part->dup;
	res->sub_cpu_s += part->sub_cpu_s;
	hist_merge(&res->deliver, &part->deliver);
	if (part->deliver_seconds > res->deliver_seconds)
		res->deliver_seconds = part->deliver_seconds;
	for (size_t k = 0; k < ENGINE_SLICES; k++)
		res->slice_rps[k] += part->slice_rps[k];
	if (res->first_error[0] == '\0' && part->first_error[0] != '\0')
		memcpy(res->first_error, part->first_error, sizeof res->first_error);
}

static void *replica_load_thread(void *arg)
{
	struct replica_part *p = arg;

	p->rc = engine_run(p->e, &p->job, &p->res, &p->err);
	return NULL;
}

int replica_load_run(struct replica_load *rl, const struct engine_job *job,
		     struct engine_result *res, struct engine_result *per, struct rs_err *err)
{
	sigset_t all, old;
	size_t started = 0;
	int rc = 0;

	engine_result_init(res);
	for (size_t i = 0; i < rl->n; i++) {
		struct replica_part *p = &rl->p[i];

		p->job = *job;
		p->job.requests = job->requests / rl->n + (i < job->requests % rl->n);
		p->job.seed = job->seed * 1000003u + i;
		/* An open loop's schedule is shared as the requests are: each
		 * server is offered its part of the rate, so that the servers
		 * together are offered the rate the row says. */
		if (job->rate > 0)
			p->job.rate = job->requests > 0 ?
				      job->rate * (double)p->job.requests / (double)job->requests :
				      job->rate / (double)rl->n;
	}
	/* Signals go to the main thread, which sets job->stop. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (; started < rl->n; started++)
		if (pthread_create(&rl->p[started].tid, NULL, replica_load_thread,
				   &rl->p[started]) != 0)
			break;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (started < rl->n)
		/* The others still run to their end, bounded by their job. */
		rc = rs_err_set(err, "cannot start a thread for %s", rl->p[started].t->desc);
	for (size_t i = 0; i < started; i++)
		pthread_join(rl->p[i].tid, NULL);
	for (size_t i = 0; i < started; i++) {
		struct replica_part *p = &rl->p[i];

		if (p->rc < 0 && rc == 0) {
			*err = p->err;
			rc = -1;
		}
		replica_load_sum(res, &p->res);
		if (per != NULL)
			per[i] = p->res;
	}
	return rc;
}
