/* engine_pubsub.c: the engine's side of a pub/sub run: each PUBLISH's
 * channel and stamp, written per batch, and the subscribers started
 * before the loops and drained after them (pubsub.h). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "engine/engine_int.h"
#include "engine/pubsub.h"
#include "engine/pubsub_msg.h"
#include "base/xalloc.h"

void engine_pubsub_stamp(struct engine_thread *th, struct engine_conn *c, unsigned k)
{
	const struct engine_job *job = th->job;
	const struct engine_pubsub *ps = job->pubsub;
	const struct engine *e = th->e;
	struct pubsub_stamp st;

	/* One clock reading a batch: its write follows at once. */
	st.sent_ns = engine_now_ns();
	/* Numbered as engine_reconnect numbers connections, from 0. */
	st.publisher = (uint32_t)((size_t)(th - e->th) + (size_t)(c - th->conns) * e->nthreads);
	for (unsigned i = 0; i < k; i++) {
		char *cmd = c->buf + (size_t)i * job->len;

		st.seq = c->pub_seq++;
		rng_put_digits(cmd + ps->chan_off, st.seq % ps->channels);
		pubsub_stamp_put(cmd + ps->stamp_off, &st);
	}
}

int engine_pubsub_begin(struct engine *e, const struct engine_job *job, struct rs_err *err)
{
	const struct engine_pubsub *ps = job->pubsub;
	size_t from, to;

	/* A cluster's route only redirects: the channel is fixed, tagged. */
	if (job->members != NULL || (job->route != NULL && job->route->key != NULL) ||
	    job->replies > 1)
		return rs_err_setk(err, RS_E_USAGE, "pub/sub publishes one plain command: no mix, "
				   "sequence or random key");
	if (ps->chan_off + RNG_DIGITS > job->len || ps->stamp_off + PUBSUB_STAMP_LEN > job->len)
		return rs_err_setk(err, RS_E_USAGE, "the PUBLISH command has no room for its channel "
				   "and stamp");
	/* The channel is the bulk string around the digits: from the end of
	 * its "$N\r\n" to its "\r\n". */
	for (from = ps->chan_off; from > 0 && job->cmd[from - 1] != '\n'; from--)
		;
	for (to = ps->chan_off; to < job->len && job->cmd[to] != '\r'; to++)
		;
	pubsub_free(e->subs);
	e->subs = NULL;
	return pubsub_start(e->t, ps, job->cmd + from, to - from, ps->chan_off - from, e->clients,
			    e->nthreads, job->timeout, job->stop, &e->subs, err);
}

int engine_pubsub_end(struct engine *e, const struct engine_job *job, struct engine_result *res,
		      int ok, struct rs_err *err)
{
	const struct engine_pubsub *ps = job->pubsub;
	struct pubsub_tally *t;
	uint64_t first = UINT64_MAX, want;
	int rc = 0;

	if (!ok || e->subs == NULL) {
		pubsub_free(e->subs);
		e->subs = NULL;
		return 0;
	}
	/* Every message the server accepted reaches subscribers / channels
	 * of them; it counted, in PUBLISH's replies, those it sent it to. */
	res->expected = (res->requests - res->errors) * (ps->subscribers / ps->channels);
	want = res->int_sum < res->expected ? res->int_sum : res->expected;
	t = xmalloc(sizeof *t);
	if (pubsub_finish(e->subs, want, job->timeout, job->stop, t, err) < 0)
		rc = -1;
	pubsub_free(e->subs);
	e->subs = NULL;
	res->delivered = t->delivered;
	res->dup = t->dup;
	res->lost = res->expected > t->delivered ? res->expected - t->delivered : 0;
	res->deliver = t->deliver;
	for (unsigned i = 0; i < e->nthreads; i++)
		if (e->th[i].first_ns < first)
			first = e->th[i].first_ns;
	res->deliver_seconds = t->last_ns > first ? (double)(t->last_ns - first) / 1e9 : 0;
	res->sub_cpu_s = t->cpu_s;
	free(t);
	return rc;
}
