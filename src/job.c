/* job.c: one builder from a test to the engine's job, and the one rule on
 * the memory a job needs. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "job.h"
#include "keydist.h"

int job_is_transaction(const struct workload_test *t)
{
	return t->sequence && t->nmembers >= 2 &&
	       strcasecmp(t->members[0].cmdstat, "multi") == 0 &&
	       strcasecmp(t->members[t->nmembers - 1].cmdstat, "exec") == 0;
}

void job_build(const struct workload_test *t, const struct job_point *p, struct job *j)
{
	/* Values sized per request go through the engine's members: a plain
	 * test with a value is a mix of one. */
	int sized = p->vmax > 0 && t->nmembers == 0 && t->value_end > 0;
	/* A sequence's members are sent in order, all of them: one request. */
	int mixed = t->nmembers > 0 && !t->sequence;

	memset(j, 0, sizeof *j);
	j->e = (struct engine_job){
		.members = mixed || sized ? j->members : NULL,
		.nmembers = sized ? 1 : mixed ? t->nmembers : 0,
		.vmin = p->vmin, .vmax = p->vmax,
		.cmd = t->cmd, .len = t->len, .rand_off = t->rand_off, .nrand = t->nrand,
		.key_from = t->key_from, .copy_off = t->copy_off, .ncopy = t->ncopy,
		.replies = t->replies, .transaction = job_is_transaction(t),
		.keyspace = p->keyspace, .keydist = p->keydist, .seed = p->seed,
		.depth = p->depth,
		.mode = p->rate > 0 ? ENGINE_WINDOW : p->mode, .rate = p->rate,
		.arrivals = p->arrivals,
		.requests = p->requests, .duration = p->duration, .timeout = p->timeout,
		.max_reply = workload_max_reply(p->data_size), .expect = t->expect, .stop = p->stop,
	};
	if (mixed)
		for (size_t i = 0; i < t->nmembers; i++)
			j->members[i] = (struct engine_member){
				.cmd = t->members[i].cmd, .len = t->members[i].len,
				.rand_off = t->members[i].rand_off, .nrand = t->members[i].nrand,
				.key_from = t->members[i].key_from, .copy_off = t->members[i].copy_off,
				.ncopy = t->members[i].ncopy, .weight = t->weights[i],
				.value_at = t->members[i].value_at,
				.value_end = t->members[i].value_end,
			};
	if (sized)
		j->members[0] = (struct engine_member){
			.cmd = t->cmd, .len = t->len, .rand_off = t->rand_off, .nrand = t->nrand,
			.key_from = t->key_from, .copy_off = t->copy_off, .ncopy = t->ncopy,
			.weight = 1, .value_at = t->value_at, .value_end = t->value_end,
		};
}

/* a + b, or UINT64_MAX past it. */
static uint64_t job_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* a * b, or UINT64_MAX past it. */
static uint64_t job_mul(uint64_t a, uint64_t b)
{
	return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* The most bytes one request of member m takes: its value at vmax bytes
 * when the job sizes values ("$", 20 digits of length and two CRLFs at
 * most), as the engine's batches make room for it. */
static uint64_t job_room(const struct engine_job *job, const struct engine_member *m)
{
	if (job->vmax == 0 || m->value_end == 0 || m->value_end - m->value_at > m->len)
		return m->len;
	return job_add(m->len - (m->value_end - m->value_at) + 1 + 20 + 2 + 2, job->vmax);
}

uint64_t job_memory(const struct engine_job *job, uint64_t clients, unsigned threads)
{
	uint64_t room = job->len, batches, need, per_conn;
	int shared;

	if (job->members != NULL) {
		room = 0;
		for (size_t i = 0; i < job->nmembers; i++)
			if (job_room(job, &job->members[i]) > room)
				room = job_room(job, &job->members[i]);
	}
	/* One read-only batch for all when no request changes (engine_run). */
	shared = job->members == NULL && !(job->nrand > 0 && job->keyspace > 0);
	batches = shared ? 1 : clients;
	need = job_add(room, job_mul(job_mul(batches, job->depth), room));
	/* Per connection: two rings of stamps (16 bytes) and a mix's ends and
	 * members (8 and 1), depth each. */
	per_conn = job_mul(job->depth, 16 * 2 + 8 + 1);
	need = job_add(need, job_mul(clients, per_conn));
	if (job->vmax > 0)
		need = job_add(need, job_mul(threads, job_add(job->vmax, 4096)));
	return need;
}

int job_memory_check(const struct engine_job *job, const char *test, uint64_t clients,
		     unsigned threads, uint64_t cap, struct rs_err *err)
{
	uint64_t need = job_memory(job, clients, threads);

	if (need <= cap)
		return 0;
	return rs_err_setk(err, RS_E_INPUT, "%.100s at depth %u with %llu connections needs about "
			   "%.0f MB of client memory, more than the %.0f MB allowed: use a smaller "
			   "-d, -P or -c", test, job->depth, (unsigned long long)clients,
			   (double)need / 1e6, (double)cap / 1e6);
}

void job_free(struct job *j)
{
	if (j == NULL)
		return;
	for (size_t i = 0; i < ENGINE_MAX_MEMBERS; i++) {
		free(j->own_cmd[i]);
		free(j->own_rand[i]);
		free(j->own_copy[i]);
	}
	keydist_free(j->own_kd);
	memset(j, 0, sizeof *j);
}
