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

#include "cluster_load.h"
#include "xalloc.h"

struct cluster_shard {
	struct cluster_load *cl;
	size_t idx;
	struct target t;
	char tag[24];             /* "{N}": a slot this master serves */
	struct engine *e;
	struct engine_route route;
	/* per run */
	struct engine_job job;
	char *cmd;                /* the retagged command, or NULL */
	size_t *rand_off;
	/* A random key: key_len bytes at key_off in the command, its digits
	 * at job.rand_off[key_ri]. */
	size_t key_off, key_len, key_ri;
	const uint16_t *owner;    /* the live slot map, topo->owner */
	/* The keyspace's numbers whose keys were here when the run began
	 * (npool 0: none, the keyspace is too large): drawn from uniformly,
	 * they are the master's keys at one draw each, most of the time; the
	 * live map still has the last word, since slots may move during the
	 * run. */
	uint32_t *pool;
	uint16_t *pool_slot;      /* their keys' slots */
	size_t npool, cappool;
	struct engine_result res;
	struct rs_err err;
	int rc;
	pthread_t tid;
};

struct cluster_load {
	struct cluster_topo *topo;
	struct cluster_shard *sh;
	size_t n;
};

/* Draws for one key at most: a master the keyspace no longer reaches (its
 * slots resharded away) sends the key as it is, and the reply's MOVED
 * says so. */
#define CLUSTER_LOAD_TRIES 100000

/* engine_route.key without a pool: draw the key again until its slot is
 * this master's (rejection sampling: the keys stay uniform over that
 * master's share of the keyspace).  A hash a draw. */
static void cluster_load_draw(const struct engine_route *r, char *cmd, uint64_t *rng)
{
	const struct cluster_shard *sh = r->ctx;
	char *digits = cmd + sh->job.rand_off[sh->key_ri];

	for (unsigned tries = 0; tries < CLUSTER_LOAD_TRIES; tries++) {
		unsigned slot = cluster_key_slot(cmd + sh->key_off, sh->key_len);

		if (__atomic_load_n(&sh->owner[slot], __ATOMIC_RELAXED) == sh->idx)
			return;
		engine_put_digits(digits, engine_rand(rng) % sh->job.keyspace);
	}
}

/* engine_route.key with a pool: a number of the pool whose key's slot,
 * known beforehand, is this master's in the live map, so that a draw
 * costs no hash; its digits are written once it is taken. */
static void cluster_load_draw_pool(const struct engine_route *r, char *cmd, uint64_t *rng)
{
	const struct cluster_shard *sh = r->ctx;
	size_t j = 0;

	for (unsigned tries = 0; tries < CLUSTER_LOAD_TRIES; tries++) {
		j = (size_t)(engine_rand(rng) % sh->npool);
		if (__atomic_load_n(&sh->owner[sh->pool_slot[j]], __ATOMIC_RELAXED) == sh->idx)
			break;
	}
	engine_put_digits(cmd + sh->job.rand_off[sh->key_ri], sh->pool[j]);
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
	/* A test of one key: this master's key itself moved, and every
	 * request would meet the same MOVED.  The point is measured again
	 * (--retries) with a key of a slot the master now serves. */
	if (r->key == NULL) {
		snprintf(why, size, "MOVED %u %s:%u: the key this master's connections use moved "
			 "with its slot", slot, host, port);
		return ENGINE_ROUTE_FAIL;
	}
	snprintf(why, size, "MOVED %u %s:%u", slot, host, port);
	return ENGINE_ROUTE_RETRY;
}

int cluster_load_new(const struct target *seed, struct cluster_topo *topo, unsigned clients,
		     unsigned threads, struct cluster_load **out, struct rs_err *err)
{
	struct cluster_load *cl = xcalloc(1, sizeof *cl);

	*out = NULL;
	cl->topo = topo;
	cl->n = topo->n;
	cl->sh = xcalloc(cl->n, sizeof *cl->sh);
	for (size_t i = 0; i < cl->n; i++) {
		struct cluster_shard *sh = &cl->sh[i];

		sh->cl = cl;
		sh->idx = i;
		cluster_master_target(topo, i, seed, &sh->t);
		sh->route.on_error = cluster_load_error;
		sh->route.ctx = sh;
		if (cluster_tag(topo, i, sh->tag, sizeof sh->tag) < 0) {
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
		free(cl->sh[i].cmd);
		free(cl->sh[i].rand_off);
		free(cl->sh[i].pool);
		free(cl->sh[i].pool_slot);
	}
	free(cl->sh);
	free(cl);
}

/* Where job's key is and whether it is random: 1 random (rand_off index
 * in *ri), 0 fixed, -1 no key at all (PING). */
static int cluster_load_key(const struct engine_job *job, size_t *koff, size_t *klen, size_t *ri)
{
	int none;

	/* A script's argument 1 is its body: with no keys it runs anywhere. */
	if (cluster_is_script(job->cmd, job->len, &none))
		return -1;
	if (cluster_key_arg(job->cmd, job->len, koff, klen) < 0)
		return -1;
	for (size_t r = 0; r < job->nrand && job->keyspace > 0; r++)
		if (job->rand_off[r] >= *koff && job->rand_off[r] < *koff + *klen) {
			*ri = r;
			return 1;
		}
	return 0;
}

int cluster_load_check(const struct cluster_load *cl, const struct engine_job *job,
		       struct rs_err *err)
{
	size_t koff, klen, ri;
	int none;

	if (job->rate > 0)
		return rs_err_setk(err, RS_E_USAGE, "--cluster runs closed loop only: drop --rate");
	/* Each master's keys are drawn for its own slots (cluster_load_draw):
	 * a distribution over the whole keyspace would be another one there. */
	if (job->keydist != NULL)
		return rs_err_setk(err, RS_E_USAGE, "--cluster draws each master's keys uniformly: "
				   "drop --key-dist");
	if (cluster_is_script(job->cmd, job->len, &none) && !none)
		return rs_err_setk(err, RS_E_USAGE, "--cluster runs a script or function only with "
				   "no keys (numkeys 0): its keys could be on any master");
	if (cluster_is_mset(job->cmd, job->len) && job->nrand > 1 && job->keyspace > 0)
		return rs_err_setk(err, RS_E_INPUT, "--cluster: MSET's random keys fall in "
				   "different slots, which a cluster refuses (CROSSSLOT): leave MSET out");
	if (cluster_load_key(job, &koff, &klen, &ri) != 1)
		return 0;
	for (size_t i = 0; i < cl->n; i++)
		if (!cluster_owns_any(cl->topo, i, job->cmd + koff, klen, job->rand_off[ri] - koff,
				      ENGINE_RAND_DIGITS, job->keyspace))
			return rs_err_setk(err, RS_E_INPUT, "with -r %llu no key of the keyspace "
					   "falls on %s's slots: give a larger -r",
					   (unsigned long long)job->keyspace, cl->sh[i].t.desc);
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

static void cluster_load_pools(struct cluster_load *cl, const struct engine_job *job,
			       size_t koff, size_t klen, size_t ri)
{
	char key[512];

	for (size_t i = 0; i < cl->n; i++)
		cl->sh[i].npool = 0;
	if (job->keyspace > CLUSTER_LOAD_POOL_MAX || klen > sizeof key)
		return;
	memcpy(key, job->cmd + koff, klen);
	for (uint32_t v = 0; v < job->keyspace; v++) {
		struct cluster_shard *sh;
		unsigned o, slot;

		engine_put_digits(key + (job->rand_off[ri] - koff), v);
		slot = cluster_key_slot(key, klen);
		o = cl->topo->owner[slot];
		if (o >= cl->n)
			continue;
		sh = &cl->sh[o];
		if (sh->npool == sh->cappool) {
			sh->cappool = sh->cappool ? sh->cappool * 2 : 1024;
			sh->pool = xreallocarray(sh->pool, sh->cappool, sizeof *sh->pool);
			sh->pool_slot = xreallocarray(sh->pool_slot, sh->cappool,
						      sizeof *sh->pool_slot);
		}
		sh->pool_slot[sh->npool] = (uint16_t)slot;
		sh->pool[sh->npool++] = v;
	}
}

/* Master i's job: its share of the requests, its key. */
static int cluster_load_job(struct cluster_load *cl, size_t i, const struct engine_job *job,
			    struct rs_err *err)
{
	struct cluster_shard *sh = &cl->sh[i];
	size_t koff = 0, klen = 0, ri = 0;
	int kind = cluster_load_key(job, &koff, &klen, &ri), rc;

	/* Slots may have moved since the last run (MOVED, a fresh topology):
	 * the tag follows them, as the preparation's does (sweep.c). */
	if (cluster_tag(cl->topo, i, sh->tag, sizeof sh->tag) < 0)
		return rs_err_set(err, "%s serves no slot now", sh->t.desc);
	sh->job = *job;
	sh->job.requests = job->requests / cl->n + (i < job->requests % cl->n);
	sh->job.seed = job->seed * 1000003u + i;
	sh->job.route = &sh->route;
	sh->key_off = koff;
	sh->key_len = klen;
	sh->key_ri = ri;
	sh->owner = cl->topo->owner;
	/* A fixed key (or none) is chosen once, below: the engine's digits
	 * (of a value, say) stand. */
	sh->route.key = kind != 1 ? NULL : sh->npool > 0 ? cluster_load_draw_pool : cluster_load_draw;
	/* The pool's draw writes the key's digits: the engine need not. */
	sh->route.key_draws = kind == 1 && sh->npool > 0 ? ri : SIZE_MAX;
	free(sh->cmd);
	free(sh->rand_off);
	sh->cmd = NULL;
	sh->rand_off = NULL;
	if (kind != 0)
		return 0;
	/* One fixed key: each master its own, on one of its slots. */
	sh->rand_off = xcalloc(job->nrand ? job->nrand : 1, sizeof *sh->rand_off);
	rc = cluster_retag(job->cmd, job->len, job->rand_off, job->nrand, sh->tag, &sh->cmd,
			   &sh->job.len, sh->rand_off);
	if (rc == -2)
		return rs_err_setk(err, RS_E_INPUT, "the command's key has a hash tag of its own "
				   "({...}): with --cluster a fixed key gets one per master, so it "
				   "must have none");
	if (rc < 0)
		return rs_err_set(err, "cannot give the command's key a hash tag");
	sh->job.cmd = sh->cmd;
	sh->job.rand_off = sh->rand_off;
	return 0;
}

int cluster_load_run(struct cluster_load *cl, const struct engine_job *job,
		     struct engine_result *res, struct engine_result *per, struct rs_err *err)
{
	size_t koff = 0, klen = 0, ri = 0;
	sigset_t all, old;
	size_t started = 0;
	int rc = 0;

	memset(res, 0, sizeof *res);
	hist_init(&res->hist);
	hist_init(&res->service);
	if (cluster_load_key(job, &koff, &klen, &ri) == 1)
		cluster_load_pools(cl, job, koff, klen, ri);
	else
		for (size_t i = 0; i < cl->n; i++)
			cl->sh[i].npool = 0;
	for (size_t i = 0; i < cl->n; i++)
		if (cluster_load_job(cl, i, job, err) < 0)
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
	for (size_t k = 0; k < ENGINE_SLICES; k++)
		res->slice_rps[k] = 0;
	for (size_t i = 0; i < started; i++) {
		struct cluster_shard *sh = &cl->sh[i];

		if (sh->rc < 0 && rc == 0) {
			*err = sh->err;
			rc = -1;
		}
		res->requests += sh->res.requests;
		res->errors += sh->res.errors;
		res->misses += sh->res.misses;
		res->redirects += sh->res.redirects;
		if (sh->res.seconds > res->seconds)
			res->seconds = sh->res.seconds;
		/* The slowest setup of any master's connections. */
		if (sh->res.connect_ms > res->connect_ms)
			res->connect_ms = sh->res.connect_ms;
		hist_merge(&res->hist, &sh->res.hist);
		hist_merge(&res->service, &sh->res.service);
		for (size_t k = 0; k < ENGINE_SLICES; k++)
			res->slice_rps[k] += sh->res.slice_rps[k];
		if (res->first_error[0] == '\0' && sh->res.first_error[0] != '\0')
			memcpy(res->first_error, sh->res.first_error, sizeof res->first_error);
		if (per != NULL)
			per[i] = sh->res;
	}
	return rc;
}
