/* job_memory.c: the one rule on the memory a job needs (job.h), and a
 * decoded job's release: apart from the builder, so that the agents'
 * message decoder (agentmsg_job.c) needs no workload. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "workload/job.h"
#include "engine/keydist.h"

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
	/* One read-only batch for all when no request changes (engine_run);
	 * pub/sub stamps every message. */
	shared = job->members == NULL && !(job->nrand > 0 && job->keyspace > 0) &&
		 job->pubsub == NULL;
	batches = shared ? 1 : clients;
	need = job_add(room, job_mul(job_mul(batches, job->depth), room));
	/* Per connection, as a run starts: a mix's ends and members (8 and 1
	 * bytes), depth each.  The rings of timestamps grow with the writes,
	 * not the depth, and are not counted. */
	per_conn = job->members != NULL ? job_mul(job->depth, 8 + 1) : 0;
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
