/* cluster_load.c: one engine per master of a cluster, run side by side;
 * keys chosen for the master's slots (engine_route.key), and MOVED, ASK,
 * TRYAGAIN and CLUSTERDOWN replies turned into retries. */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cluster_load.h"
#include "engine/pubsub.h"
#include "engine/replica_load.h"
#include "base/xalloc.h"

/* The keyspace's numbers whose keys (of one shape: the bytes around the
 * digits) were on a master when the run began (n 0: none, the keyspace
 * is too large): drawn from uniformly, they are the master's keys at one
 * draw each, most of the time; the live map still has the last word,
 * since slots may move during the run. */
struct cluster_pool {
	uint32_t *v;
	uint16_t *slot;           /* their keys' slots */
	size_t n, cap;
};

/* Where one command's key is (the job's one command, or a member of a
 * mix): kind 1 random, its key len bytes at off and its digits at doff,
 * drawn from pool (NULL: by rejection); 0 fixed, given the master's tag
 * once; -1 no key at all (PING). */
struct cluster_key {
	int kind;
	size_t off, len, ri, doff;
	const struct cluster_pool *pool;
};

struct cluster_shard {
	struct cluster_load *cl;
	size_t idx;
	struct target t;
	char tag[24];             /* "{N}": a slot this master serves */
	struct engine *e;
	struct engine_route route;
	/* per run */
	struct engine_job job;
	/* The job's commands, one or a mix's members, as this master sends
	 * them: a fixed key retagged into cmd[i] (NULL: the job's bytes). */
	struct engine_member members[ENGINE_MAX_MEMBERS];
	struct cluster_key key[ENGINE_MAX_MEMBERS];
	char *cmd[ENGINE_MAX_MEMBERS];
	size_t *rand_off[ENGINE_MAX_MEMBERS];
	size_t *copy_off[ENGINE_MAX_MEMBERS];
	/* The slot of tag when a command's key is fixed (tagged), else -1. */
	int fixed_slot;
	/* Sharded pub/sub: the job's, its channel tagged for this master. */
	struct engine_pubsub pubsub;
	const uint16_t *owner;    /* the live slot map, topo->owner */
	struct cluster_pool pool[ENGINE_MAX_MEMBERS]; /* one per shape of random key */
	struct engine_result res;
	struct rs_err err;
	int rc;
	pthread_t tid;
};

/* One shard a master, in topo's order; with CLUSTER_LOAD_ALL, then one a
 * master's replica, shard nm + i reading master i's slots (its idx i). */
struct cluster_load {
	struct cluster_topo *topo;
	struct cluster_shard *sh;
	size_t n;                 /* shards */
	size_t nm;                /* masters */
};

/* Draws for one key at most: a master the keyspace no longer reaches (its
 * slots resharded away) sends the key as it is, and the reply's MOVED
 * says so. */
#define CLUSTER_LOAD_TRIES 100000

/* Without a pool: draw the key again until its slot is this master's
 * (rejection sampling: the keys stay uniform over that master's share of
 * the keyspace).  A hash a draw. */
static inline void cluster_load_reject(const struct cluster_shard *sh, const struct cluster_key *k,
				       char *cmd, uint64_t *rng)
{
	for (unsigned tries = 0; tries < CLUSTER_LOAD_TRIES; tries++) {
		unsigned slot = cluster_key_slot(cmd + k->off, k->len);

		if (__atomic_load_n(&sh->owner[slot], __ATOMIC_RELAXED) == sh->idx)
			return;
		rng_put_digits(cmd + k->doff, rng_next(rng) % sh->job.keyspace);
	}
}

/* With a pool: a number of the pool whose key's slot, known beforehand,
 * is this master's in the live map, so that a draw costs no hash; its
 * digits are written once it is taken. */
static inline void cluster_load_pick(const struct cluster_shard *sh, const struct cluster_key *k,
				     char *cmd, uint64_t *rng)
{
	const struct cluster_pool *p = k->pool;
	size_t j = 0;

	for (unsigned tries = 0; tries < CLUSTER_LOAD_TRIES; tries++) {
		j = (size_t)(rng_next(rng) % p->n);
		if (__atomic_load_n(&sh->owner[p->slot[j]], __ATOMIC_RELAXED) == sh->idx)
			break;
	}
	rng_put_digits(cmd + k->doff, p->v[j]);
}

/* engine_route.key of one command, without a pool and with one. */
static void cluster_load_draw(const struct engine_route *r, size_t member, char *cmd,
			      uint64_t *rng)
{
	const struct cluster_shard *sh = r->ctx;

	(void)member;
	cluster_load_reject(sh, &sh->key[0], cmd, rng);
}

static void cluster_load_draw_pool(const struct engine_route *r, size_t member, char *cmd,
				   uint64_t *rng)
{
	const struct cluster_shard *sh = r->ctx;

	(void)member;
	cluster_load_pick(sh, &sh->key[0], cmd, rng);
}

/* engine_route.key of a mix: each member's key as its own command's; a
 * fixed key (tagged) or none stands. */
static void cluster_load_draw_mix(const struct engine_route *r, size_t member, char *cmd,
				  uint64_t *rng)
{
	const struct cluster_shard *sh = r->ctx;
	const struct cluster_key *k = &sh->key[member];

	if (k->kind != 1)
		return;
	if (k->pool != NULL)
		cluster_load_pick(sh, k, cmd, rng);
	else
		cluster_load_reject(sh, k, cmd, rng);
}

/* engine_route.on_error: MOVED updates the map and retries (the next key
 * is drawn against it); ASK retries with another key, since the one asked
 * about is in flight between two masters (no ASKING: the connection
 * stays with its master); TRYAGAIN and CLUSTERDOWN retry; a MOVED to a
 * node that is not a known master fails the run, naming it. */
static int cluster_load_error(const struct engine_route *r, const char *msg, size_t len,
			      char *why, size_t size)
{
	const struct cluster_shard *sh = r->ctx;
	char host[128];
	unsigned slot, port;
	int m;

	switch (cluster_parse_error(msg, len, &slot, host, sizeof host, &port)) {
	case CLUSTER_ERR_OTHER:
		return ENGINE_ROUTE_COUNT;
	case CLUSTER_ERR_RETRY:
		snprintf(why, size, "%.*s", (int)(len < 120 ? len : 120), msg);
		return ENGINE_ROUTE_RETRY;
	case CLUSTER_ERR_ASK:
		snprintf(why, size, "ASK %u %s:%u", slot, host, port);
		return ENGINE_ROUTE_RETRY;
	case CLUSTER_ERR_MOVED:
		break;
	}
	if ((m = cluster_find(sh->cl->topo, host, port)) < 0) {
		snprintf(why, size, "MOVED %u to %s:%u, which is not a master of the cluster as "
			 "rsweep read it (the topology changed)", slot, host, port);
		return ENGINE_ROUTE_FAIL;
	}
	__atomic_store_n(&sh->cl->topo->owner[slot], (uint16_t)m, __ATOMIC_RELAXED);
	/* A test of one key, or a member of a mix with one: this master's
	 * key itself moved, and every request of it would meet the same
	 * MOVED.  The point is measured again (--retries) with a key of a
	 * slot the master now serves. */
	if (r->key == NULL || (int)slot == sh->fixed_slot) {
		snprintf(why, size, "MOVED %u %s:%u: the key this master's connections use moved "
			 "with its slot", slot, host, port);
		return ENGINE_ROUTE_FAIL;
	}
	snprintf(why, size, "MOVED %u %s:%u", slot, host, port);
	return ENGINE_ROUTE_RETRY;
}

int cluster_load_new(const struct target *seed, struct cluster_topo *topo, unsigned clients,
		     unsigned threads, int where, struct cluster_load **out,
		     struct rs_err *err)
{
	struct cluster_load *cl = xcalloc(1, sizeof *cl);

	*out = NULL;
	cl->topo = topo;
	cl->nm = topo->n;
	cl->n = where == CLUSTER_LOAD_ALL ? 2 * topo->n : topo->n;
	cl->sh = xcalloc(cl->n, sizeof *cl->sh);
	for (size_t i = 0; i < cl->n; i++) {
		struct cluster_shard *sh = &cl->sh[i];
		int replica = where == CLUSTER_LOAD_REPLICAS || i >= cl->nm;

		sh->cl = cl;
		sh->idx = i % cl->nm;
		cluster_master_target(topo, sh->idx, seed, &sh->t);
		if (replica && cluster_replica_target(topo, sh->idx, seed, &sh->t) < 0) {
			rs_err_setk(err, RS_E_INPUT, "--read-from %s: master %s has no replica",
				    where == CLUSTER_LOAD_ALL ? "all" : "replicas",
				    topo->m[sh->idx].desc);
			cluster_load_free(cl);
			return -1;
		}
		sh->route.on_error = cluster_load_error;
		sh->route.ctx = sh;
		if (cluster_tag(topo, sh->idx, sh->tag, sizeof sh->tag) < 0) {
			rs_err_set(err, "%s serves no slot", sh->t.desc);
			cluster_load_free(cl);
			return -1;
		}
		if (engine_new(&sh->t, clients, threads, &sh->e, err) < 0) {
			cluster_load_free(cl);
			return -1;
		}
	}
	*out = cl;
	return 0;
}

const char *cluster_load_tag(const struct cluster_load *cl, size_t i)
{
	return cl->sh[i].tag;
}

int cluster_load_reconnect(struct cluster_load *cl, struct rs_err *err)
{
	for (size_t i = 0; i < cl->n; i++)
		if (engine_reconnect(cl->sh[i].e, err) < 0)
			return -1;
	return 0;
}

void cluster_load_free(struct cluster_load *cl)
{
	if (cl == NULL)
		return;
	for (size_t i = 0; i < cl->n; i++) {
		engine_free(cl->sh[i].e);
		for (size_t k = 0; k < ENGINE_MAX_MEMBERS; k++) {
			free(cl->sh[i].cmd[k]);
			free(cl->sh[i].rand_off[k]);
			free(cl->sh[i].copy_off[k]);
			free(cl->sh[i].pool[k].v);
			free(cl->sh[i].pool[k].slot);
		}
	}
	free(cl->sh);
	free(cl);
}

/* The commands of job into out: a mix's members, or its one command as
 * one.  Their count, 0 when a mix has more than the engine draws. */
static size_t cluster_load_cmds(const struct engine_job *job, struct engine_member *out)
{
	if (job->members == NULL) {
		out[0] = (struct engine_member){
			.cmd = job->cmd, .len = job->len, .rand_off = job->rand_off,
			.nrand = job->nrand, .key_from = job->key_from, .copy_off = job->copy_off,
			.ncopy = job->ncopy, .weight = 1,
		};
		return 1;
	}
	if (job->nmembers > ENGINE_MAX_MEMBERS)
		return 0;
	memcpy(out, job->members, job->nmembers * sizeof *out);
	return job->nmembers;
}

/* Where command m's key is and whether it is random: 1 random (rand_off
 * index in *ri), 0 fixed, -1 no key at all (PING). */
static int cluster_load_key(const struct engine_member *m, uint64_t keyspace, size_t *koff,
			    size_t *klen, size_t *ri)
{
	int none;

	/* A script's argument 1 is its body: with no keys it runs anywhere. */
	if (cluster_is_script(m->cmd, m->len, &none))
		return -1;
	if (cluster_key_arg(m->cmd, m->len, koff, klen) < 0)
		return -1;
	for (size_t r = 0; r < m->nrand && keyspace > 0; r++)
		if (m->rand_off[r] >= *koff && m->rand_off[r] < *koff + *klen) {
			*ri = r;
			return 1;
		}
	return 0;
}

/* cluster_load_check of one command (a mix's: each member). */
static int cluster_load_check_cmd(const struct cluster_load *cl, const struct engine_member *m,
				  uint64_t keyspace, struct rs_err *err)
{
	size_t koff, klen, ri;
	int none;

	if (cluster_is_script(m->cmd, m->len, &none) && !none)
		return rs_err_setk(err, RS_E_USAGE, "--cluster runs a script or function only with "
				   "no keys (numkeys 0): its keys could be on any master");
	if (cluster_is_mset(m->cmd, m->len) && m->nrand > 1 && keyspace > 0)
		return rs_err_setk(err, RS_E_INPUT, "--cluster: MSET's random keys fall in "
				   "different slots, which a cluster refuses (CROSSSLOT): leave MSET out");
	if (cluster_load_key(m, keyspace, &koff, &klen, &ri) != 1)
		return 0;
	for (size_t i = 0; i < cl->nm; i++)
		if (!cluster_owns_any(cl->topo, i, m->cmd + koff, klen, m->rand_off[ri] - koff,
				      RNG_DIGITS, keyspace))
			return rs_err_setk(err, RS_E_INPUT, "with -r %llu no key of the keyspace "
					   "falls on %s's slots: give a larger -r",
					   (unsigned long long)keyspace, cl->sh[i].t.desc);
	return 0;
}

int cluster_load_check(const struct cluster_load *cl, const struct engine_job *job,
		       struct rs_err *err)
{
	struct engine_member cmds[ENGINE_MAX_MEMBERS];
	size_t n = cluster_load_cmds(job, cmds);

	if (job->rate > 0)
		return rs_err_setk(err, RS_E_USAGE, "--cluster runs closed loop only: drop --rate");
	/* Each master's keys are drawn for its own slots (cluster_load_draw):
	 * a distribution over the whole keyspace would be another one there. */
	if (job->keydist != NULL)
		return rs_err_setk(err, RS_E_USAGE, "--cluster draws each master's keys uniformly: "
				   "drop --key-dist");
	if (n == 0)
		return rs_err_setk(err, RS_E_USAGE, "a mix of %zu commands (1 to %d)", job->nmembers,
				   ENGINE_MAX_MEMBERS);
	for (size_t i = 0; i < n; i++)
		if (cluster_load_check_cmd(cl, &cmds[i], job->keyspace, err) < 0)
			return -1;
	return 0;
}

static void *cluster_load_thread(void *arg)
{
	struct cluster_shard *sh = arg;

	sh->rc = engine_run(sh->e, &sh->job, &sh->res, &sh->err);
	return NULL;
}

/* The key pools: each master's numbers of the keyspace, from the slot map
 * as it is, and their keys' slots, so that a draw costs a look-up in the
 * live map, not a hash per master (rejection alone).  For a keyspace of
 * CLUSTER_LOAD_POOL_MAX numbers at most; beyond, cluster_load_draw
 * rejects as it draws. */
#define CLUSTER_LOAD_POOL_MAX (1u << 22)

/* Fill each master's pool p with the numbers of the key klen bytes at
 * key, its digits doff bytes in (a replica's shard draws from its
 * master's: cluster_load_cmd). */
static void cluster_load_pool(struct cluster_load *cl, size_t p, const char *key, size_t klen,
			      size_t doff, uint64_t keyspace)
{
	char k[512];

	for (size_t i = 0; i < cl->n; i++)
		cl->sh[i].pool[p].n = 0;
	if (keyspace > CLUSTER_LOAD_POOL_MAX || klen > sizeof k)
		return;
	memcpy(k, key, klen);
	for (uint32_t v = 0; v < keyspace; v++) {
		struct cluster_pool *pl;
		unsigned o, slot;

		rng_put_digits(k + doff, v);
		slot = cluster_key_slot(k, klen);
		o = cl->topo->owner[slot];
		if (o >= cl->nm)
			continue;
		pl = &cl->sh[o].pool[p];
		if (pl->n == pl->cap) {
			pl->cap = pl->cap ? pl->cap * 2 : 1024;
			pl->v = xreallocarray(pl->v, pl->cap, sizeof *pl->v);
			pl->slot = xreallocarray(pl->slot, pl->cap, sizeof *pl->slot);
		}
		pl->slot[pl->n] = (uint16_t)slot;
		pl->v[pl->n++] = v;
	}
}

/* The pools of the n commands' random keys, one per shape (GET's and
 * SET's key:__rand_int__ share one), each command's in shape[i]. */
static void cluster_load_pools(struct cluster_load *cl, const struct engine_member *cmds,
			       size_t n, uint64_t keyspace, size_t *shape)
{
	size_t koff[ENGINE_MAX_MEMBERS], klen[ENGINE_MAX_MEMBERS], ri, np = 0;
	size_t doff[ENGINE_MAX_MEMBERS];

	for (size_t i = 0; i < n; i++) {
		size_t j;

		shape[i] = SIZE_MAX;
		if (cluster_load_key(&cmds[i], keyspace, &koff[i], &klen[i], &ri) != 1)
			continue;
		doff[i] = cmds[i].rand_off[ri] - koff[i];
		for (j = 0; j < i; j++)
			if (shape[j] != SIZE_MAX && klen[j] == klen[i] && doff[j] == doff[i] &&
			    memcmp(cmds[j].cmd + koff[j], cmds[i].cmd + koff[i], klen[i]) == 0)
				break;
		if (j < i) {
			shape[i] = shape[j];
			continue;
		}
		shape[i] = np;
		cluster_load_pool(cl, np++, cmds[i].cmd + koff[i], klen[i], doff[i], keyspace);
	}
}

/* Master i's command c of the job: its key's place, and a fixed key
 * tagged for the master. */
static int cluster_load_cmd(struct cluster_shard *sh, size_t c, const struct engine_member *m,
			    uint64_t keyspace, size_t shape, struct rs_err *err)
{
	struct cluster_key *k = &sh->key[c];
	struct engine_member *out = &sh->members[c];
	size_t delta, end;
	int rc;

	*out = *m;
	memset(k, 0, sizeof *k);
	k->kind = cluster_load_key(m, keyspace, &k->off, &k->len, &k->ri);
	sh->route.key_draws[c] = SIZE_MAX;
	if (k->kind == 1) {
		/* A replica's shard draws from its master's pool. */
		const struct cluster_pool *pl =
			shape != SIZE_MAX ? &sh->cl->sh[sh->idx].pool[shape] : NULL;

		k->doff = m->rand_off[k->ri];
		k->pool = pl != NULL && pl->n > 0 ? pl : NULL;
		/* The pool's draw writes the key's digits: the engine need not. */
		if (k->pool != NULL)
			sh->route.key_draws[c] = k->ri;
	}
	if (k->kind != 0)
		return 0;
	/* One fixed key: each master its own, on one of its slots. */
	sh->rand_off[c] = xcalloc(m->nrand ? m->nrand : 1, sizeof *sh->rand_off[c]);
	rc = cluster_retag(m->cmd, m->len, m->rand_off, m->nrand, sh->tag, &sh->cmd[c], &out->len,
			   sh->rand_off[c]);
	if (rc == -2)
		return rs_err_setk(err, RS_E_INPUT, "the command's key has a hash tag of its own "
				   "({...}): with --cluster a fixed key gets one per master, so it "
				   "must have none");
	if (rc < 0)
		return rs_err_set(err, "cannot give the command's key a hash tag");
	out->cmd = sh->cmd[c];
	out->rand_off = sh->rand_off[c];
	/* The places after the key moved with its tag: __key__'s copies, and
	 * the value. */
	delta = out->len - m->len;
	end = k->off + k->len;
	if (m->ncopy > 0) {
		sh->copy_off[c] = xcalloc(m->ncopy, sizeof *sh->copy_off[c]);
		for (size_t r = 0; r < m->ncopy; r++)
			sh->copy_off[c][r] = m->copy_off[r] + (m->copy_off[r] >= end ? delta : 0);
		out->copy_off = sh->copy_off[c];
	}
	out->key_from += m->key_from >= end ? delta : 0;
	out->value_at += m->value_end > 0 && m->value_at >= end ? delta : 0;
	out->value_end += m->value_end > 0 && m->value_end >= end ? delta : 0;
	sh->fixed_slot = (int)cluster_key_slot(sh->tag, strlen(sh->tag));
	return 0;
}

/* Master i's job: its share of the requests, its keys. */
static int cluster_load_job(struct cluster_load *cl, size_t i, const struct engine_job *job,
			    const struct engine_member *cmds, size_t n, const size_t *shape,
			    struct rs_err *err)
{
	struct cluster_shard *sh = &cl->sh[i];
	uint64_t share = job->requests / cl->nm + (sh->idx < job->requests % cl->nm);
	int random = 0;

	/* Slots may have moved since the last run (MOVED, a fresh topology):
	 * the tag follows them, as the preparation's does (sweep.c). */
	if (cluster_tag(cl->topo, sh->idx, sh->tag, sizeof sh->tag) < 0)
		return rs_err_set(err, "%s serves no slot now", sh->t.desc);
	sh->job = *job;
	/* With replicas beside the masters, the master takes the odd one. */
	sh->job.requests = cl->n == cl->nm ? share : i < cl->nm ? share - share / 2 : share / 2;
	sh->job.seed = job->seed * 1000003u + i;
	sh->job.route = &sh->route;
	sh->owner = cl->topo->owner;
	sh->fixed_slot = -1;
	for (size_t c = 0; c < ENGINE_MAX_MEMBERS; c++) {
		free(sh->cmd[c]);
		free(sh->rand_off[c]);
		sh->cmd[c] = NULL;
		free(sh->copy_off[c]);
		sh->rand_off[c] = NULL;
		sh->copy_off[c] = NULL;
		sh->route.key_draws[c] = SIZE_MAX;
	}
	for (size_t c = 0; c < n; c++) {
		if (cluster_load_cmd(sh, c, &cmds[c], job->keyspace, shape[c], err) < 0)
			return -1;
		random |= sh->key[c].kind == 1;
	}
	if (job->members != NULL) {
		sh->job.members = sh->members;
		/* A fixed key (or none) is chosen once, above: the engine's digits
		 * (of a value, say) stand. */
		sh->route.key = random ? cluster_load_draw_mix : NULL;
		return 0;
	}
	/* SPUBLISH: the channel is a fixed key, tagged (its digits and the
	 * stamp after it moved with the tag), and the subscribers of this
	 * master SSUBSCRIBE to its channels (engine_pubsub_begin). */
	if (job->pubsub != NULL) {
		if (random || sh->members[0].nrand == 0)
			return rs_err_setk(err, RS_E_USAGE, "sharded pub/sub's channel takes no -r");
		sh->pubsub = *job->pubsub;
		sh->pubsub.chan_off = sh->members[0].rand_off[0];
		sh->pubsub.stamp_off += sh->members[0].len - cmds[0].len;
		sh->job.pubsub = &sh->pubsub;
	}
	sh->job.cmd = sh->members[0].cmd;
	sh->job.len = sh->members[0].len;
	sh->job.rand_off = sh->members[0].rand_off;
	sh->job.key_from = sh->members[0].key_from;
	sh->job.copy_off = sh->members[0].copy_off;
	sh->route.key = !random ? NULL : sh->key[0].pool != NULL ? cluster_load_draw_pool :
			cluster_load_draw;
	return 0;
}

int cluster_load_run(struct cluster_load *cl, const struct engine_job *job,
		     struct engine_result *res, struct engine_result *per, struct rs_err *err)
{
	struct engine_member cmds[ENGINE_MAX_MEMBERS];
	size_t n = cluster_load_cmds(job, cmds), shape[ENGINE_MAX_MEMBERS];
	sigset_t all, old;
	size_t started = 0;
	int rc = 0;

	engine_result_init(res);
	if (n == 0)
		return rs_err_set(err, "a mix of %zu commands (1 to %d)", job->nmembers,
				  ENGINE_MAX_MEMBERS);
	cluster_load_pools(cl, cmds, n, job->keyspace, shape);
	for (size_t i = 0; i < cl->n; i++)
		if (cluster_load_job(cl, i, job, cmds, n, shape, err) < 0)
			return -1;
	/* Signals go to the main thread, which sets job->stop. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (; started < cl->n; started++)
		if (pthread_create(&cl->sh[started].tid, NULL, cluster_load_thread,
				   &cl->sh[started]) != 0)
			break;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (started < cl->n) {
		rc = rs_err_set(err, "cannot start a thread for %s", cl->sh[started].t.desc);
		/* The others still run to their end, bounded by their job. */
	}
	for (size_t i = 0; i < started; i++)
		pthread_join(cl->sh[i].tid, NULL);
	for (size_t i = 0; i < started; i++) {
		struct cluster_shard *sh = &cl->sh[i];

		if (sh->rc < 0 && rc == 0) {
			*err = sh->err;
			rc = -1;
		}
		replica_load_sum(res, &sh->res);
		if (per != NULL && i < cl->nm)
			per[i] = sh->res;
		else if (per != NULL)
			replica_load_sum(&per[sh->idx], &sh->res);
	}
	return rc;
}
