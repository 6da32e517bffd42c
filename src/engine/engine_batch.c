/* engine_batch.c: what a batch of requests holds, built in c's buffer
 * before each write: fresh random keys (uniform, --key-dist's, or a
 * cluster route's), one key a request in several places, and a mix's
 * members drawn by weight, their values sized per request.  The loop
 * (engine.c) calls it through engine_int.h's engine_batch_build, whose
 * plain path is inline there; everything here is apart (noinline), so
 * that a plain job's batch costs what it did.  No I/O: bytes only. */
#include "config.h"

#include <string.h>

#include "engine/engine.h"
#include "engine/engine_int.h"

/* Fresh random keys in the first k requests of c's buffer, each then
 * given to the route's key choice (a cluster's: on c's master), apart,
 * so that the plain loop costs what it did before clusters (callgrind: 4
 * instructions a request at P=1).  The digits the route draws itself are
 * not drawn here first as well. */
__attribute__((noinline)) void engine_randomize_routed(struct engine_thread *th,
							      struct engine_conn *c,
							      unsigned k)
{
	const struct engine_job *job = th->job;
	const struct engine_route *rt = job->route;

	for (unsigned i = 0; i < k; i++) {
		char *cmd = c->buf + (size_t)i * job->len;

		for (size_t r = 0; r < job->nrand; r++)
			if (r != rt->key_draws[0])
				rng_put_digits(cmd + job->rand_off[r],
						  rng_next(&th->rng) % job->keyspace);
		rt->key(rt, 0, cmd, &th->rng);
	}
}

/* Fresh keys of the job's --key-dist (keydist.h) in the first k requests
 * of c's buffer, apart, so that a uniform run costs what it did (one
 * test more a batch).  A sequential claim is one per batch, not per
 * request. */
__attribute__((noinline)) void engine_randomize_dist(struct engine_thread *th,
							    struct engine_conn *c, unsigned k)
{
	const struct engine_job *job = th->job;
	struct keydist *kd = job->keydist;

	keydist_claim(kd, &th->kds, (uint64_t)k * job->nrand);
	for (unsigned i = 0; i < k; i++) {
		char *cmd = c->buf + (size_t)i * job->len;

		for (size_t r = 0; r < job->nrand; r++)
			rng_put_digits(cmd + job->rand_off[r], keydist_draw(kd, &th->kds, &th->rng));
	}
}

/* One key a request: its other places repeat the digits at key_from. */
static inline void engine_copy_key(char *cmd, size_t key_from, const size_t *copy_off,
				   size_t ncopy)
{
	for (size_t i = 0; i < ncopy; i++)
		memcpy(cmd + copy_off[i], cmd + key_from, RNG_DIGITS);
}

/* engine_copy_key in the first k requests of c's buffer, apart: a job
 * without __key__ pays one test a batch. */
__attribute__((noinline)) void engine_copy_keys(const struct engine_job *job,
						       struct engine_conn *c, unsigned k)
{
	for (unsigned i = 0; i < k; i++)
		engine_copy_key(c->buf + (size_t)i * job->len, job->key_from, job->copy_off,
				job->ncopy);
}

/* A mix: the member of one request, from one draw (struct engine_mix). */
static inline unsigned engine_mix_pick(const struct engine_mix *mix, uint64_t *rng)
{
	uint64_t u = rng_next(rng);
	struct engine_mix_col col = mix->col[u >> mix->shift];

	return (uint32_t)u < col.keep ? col.member : col.alias;
}

/* Request of member mb at cmd with a value of the job's sizes
 * (--data-size-range): mb's bytes up to its value, the value's header,
 * vmin..vmax bytes of the loop's pool from a random place, and the rest
 * of mb after its value.  Returns the request's length.  Only a mix's
 * general path (engine_mix_fill_general) sends it. */
static __attribute__((noinline)) size_t engine_put_value(struct engine_thread *th, char *cmd,
							 const struct engine_member *mb)
{
	const struct engine_job *job = th->job;
	uint64_t r = rng_next(&th->rng);
	size_t n = job->vmin + (size_t)((r >> 12) % (job->vmax - job->vmin + 1));
	size_t tail = mb->len - mb->value_end;
	char digits[24], *p = cmd + mb->value_at;
	int nd = 0;

	memcpy(cmd, mb->cmd, mb->value_at);
	for (size_t v = n; nd == 0 || v > 0; v /= 10)
		digits[nd++] = (char)('0' + v % 10);
	*p++ = '$';
	while (nd > 0)
		*p++ = digits[--nd];
	*p++ = '\r';
	*p++ = '\n';
	memcpy(p, th->pool + (r & (ENGINE_POOL_STARTS - 1)), n);
	p += n;
	*p++ = '\r';
	*p++ = '\n';
	if (tail > 0)
		memcpy(p, mb->cmd + mb->value_end, tail);
	return (size_t)(p - cmd) + tail;
}

/* One request of member mb at cmd: its bytes, or with a value of the
 * job's sizes.  Returns its length. */
static inline size_t engine_put_member(struct engine_thread *th, char *cmd,
				       const struct engine_member *mb)
{
	if (th->job->vmax > 0 && mb->value_end > 0)
		return engine_put_value(th, cmd, mb);
	memcpy(cmd, mb->cmd, mb->len);
	return mb->len;
}

/* A mix under --key-dist, with values sized per request or with keys
 * that repeat (__key__): the members first (their indices in ends), so
 * that a sequential claim takes exactly the numbers the batch patches.
 * Apart, so that the plain mix's loop stays as lean as it was. */
static __attribute__((noinline)) size_t engine_mix_fill_general(struct engine_thread *th,
								struct engine_conn *c, unsigned k)
{
	const struct engine_job *job = th->job;
	struct keydist *kd = job->keyspace > 0 ? job->keydist : NULL;
	size_t off = 0, draws = 0;

	for (unsigned i = 0; i < k; i++) {
		/* A plain test with sized values is a mix of one: no draw. */
		unsigned m = job->nmembers > 1 ? engine_mix_pick(&th->e->mix, &th->rng) : 0;

		c->ends[i] = m;
		draws += job->members[m].nrand;
		th->res.member_sent[m]++;
	}
	if (kd != NULL)
		keydist_claim(kd, &th->kds, draws);
	for (unsigned i = 0; i < k; i++) {
		const struct engine_member *mb = &job->members[c->ends[i]];
		char *cmd = c->buf + off;
		size_t len = engine_put_member(th, cmd, mb);

		if (job->keyspace > 0) {
			for (size_t r = 0; r < mb->nrand; r++)
				rng_put_digits(cmd + mb->rand_off[r],
						  kd != NULL ? keydist_draw(kd, &th->kds, &th->rng) :
						  rng_next(&th->rng) % job->keyspace);
			engine_copy_key(cmd, mb->key_from, mb->copy_off, mb->ncopy);
		}
		off += len;
		c->ends[i] = off;
	}
	return off;
}

/* A mix with a route (a cluster's): each member's key chosen by the
 * route as a command's is (engine_randomize_routed), and each request's
 * member kept on c's ring in the order sent, so that a reply the route
 * retries takes its member's count back (engine_reply.c): that request
 * was not run, and the one that takes its place is drawn afresh.
 * Returns the bytes filled. */
static __attribute__((noinline)) size_t engine_mix_fill_routed(struct engine_thread *th,
							       struct engine_conn *c, unsigned k)
{
	const struct engine_job *job = th->job;
	const struct engine_route *rt = job->route;
	uint64_t keyspace = job->keyspace;
	unsigned tail = c->mtail;
	size_t off = 0;

	for (unsigned i = 0; i < k; i++) {
		unsigned m = engine_mix_pick(&th->e->mix, &th->rng);
		const struct engine_member *mb = &job->members[m];
		char *cmd = c->buf + off;
		/* Its bytes, with a value of its own size (--data-size-range):
		 * every place the route writes lies before it. */
		size_t len = engine_put_member(th, cmd, mb);

		if (keyspace > 0) {
			for (size_t r = 0; r < mb->nrand; r++)
				if (r != rt->key_draws[m])
					rng_put_digits(cmd + mb->rand_off[r],
							  rng_next(&th->rng) % keyspace);
			if (rt->key != NULL)
				rt->key(rt, m, cmd, &th->rng);
			/* __key__'s other places repeat the key as chosen. */
			engine_copy_key(cmd, mb->key_from, mb->copy_off, mb->ncopy);
		}
		off += len;
		c->ends[i] = off;
		th->res.member_sent[m]++;
		c->mring[tail] = (unsigned char)m;
		tail = tail + 1 < job->depth ? tail + 1 : 0;
	}
	c->mtail = tail;
	return off;
}

/* A mix: fill c's buffer with k requests, each a member drawn from the
 * job's weights (one draw and one look-up), its digits patched as the
 * plain path patches them, and set c->blen and c->ends.  Apart, so that
 * a job of one command costs what it did: one test more a batch.  One
 * pass for uniform keys (callgrind: a pass of its own costs 10
 * instructions a request more). */
__attribute__((noinline)) void engine_mix_fill(struct engine_thread *th,
						      struct engine_conn *c, unsigned k)
{
	const struct engine_job *job = th->job;
	const struct engine_mix *mix = &th->e->mix;
	uint64_t keyspace = job->keyspace;
	size_t off = 0;

	/* A route's mix (mix->general) is apart too: the plain loop below
	 * stays as it was. */
	if ((keyspace > 0 && job->keydist != NULL) || mix->general) {
		c->blen = job->route != NULL ? engine_mix_fill_routed(th, c, k) :
			  engine_mix_fill_general(th, c, k);
		return;
	}
	for (unsigned i = 0; i < k; i++) {
		unsigned m = engine_mix_pick(mix, &th->rng);
		const struct engine_member *mb = &job->members[m];
		char *cmd = c->buf + off;

		memcpy(cmd, mb->cmd, mb->len);
		if (keyspace > 0)
			for (size_t r = 0; r < mb->nrand; r++)
				rng_put_digits(cmd + mb->rand_off[r], rng_next(&th->rng) % keyspace);
		off += mb->len;
		c->ends[i] = off;
		th->res.member_sent[m]++;
	}
	c->blen = off;
}
