/* job.c: one builder from a test to the engine's job, and the one rule on
 * the memory a job needs. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "workload/job.h"

int job_is_transaction(const struct workload_test *t)
{
	return t->sequence && t->nmembers >= 2 &&
	       strcasecmp(t->members[0].cmdstat, "multi") == 0 &&
	       strcasecmp(t->members[t->nmembers - 1].cmdstat, "exec") == 0;
}

/* PUBLISH to subscribers: the channel's digits are the engine's to
 * write (no key is drawn), the stamp opens the value's bytes. */
static void job_pubsub(const struct workload_test *t, const struct job_point *p, struct job *j)
{
	size_t at = t->value_at;

	while (at < t->value_end && t->cmd[at] != '\n')
		at++;
	j->pubsub = (struct engine_pubsub){
		.subscribers = p->subscribers ? p->subscribers : 1,
		.channels = p->channels ? p->channels : 1,
		.pattern = p->psubscribe,
		.sharded = t->pubsub == 2,
		.chan_off = t->rand_off[0],
		.stamp_off = at + 1,
	};
	j->e.pubsub = &j->pubsub;
	j->e.keyspace = 0;
	j->e.keydist = NULL;
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
	if (t->pubsub && t->nrand > 0 && t->value_end > 0)
		job_pubsub(t, p, j);
	if (sized)
		j->members[0] = (struct engine_member){
			.cmd = t->cmd, .len = t->len, .rand_off = t->rand_off, .nrand = t->nrand,
			.key_from = t->key_from, .copy_off = t->copy_off, .ncopy = t->ncopy,
			.weight = 1, .value_at = t->value_at, .value_end = t->value_end,
		};
}
