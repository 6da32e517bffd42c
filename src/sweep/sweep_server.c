/* sweep_server.c: a server the sweep guards (sweep_int.h): its guard's
 * settings and its opening, for sweep.c and sweep_cluster.c alike; and
 * the sum of servers' point counters, for sweep.c's masters and
 * sweep_replicas.c's replicas. */
#include "config.h"

#include <string.h>

#include "sweep/sweep_int.h"
#include "base/xalloc.h"

void sweep_guard_config(const struct sweep *s, const struct target *t, size_t i, size_t n,
			struct guard_config *gc)
{
	const struct sweep_config *cfg = s->cfg;

	memset(gc, 0, sizeof *gc);
	gc->target = t;
	gc->flush = cfg->flush;
	gc->spawned = cfg->spawned;
	gc->force_flush = cfg->force_flush;
	gc->any_db = s->w->n > 0 && s->w->v[0].custom;
	gc->prefix = cfg->key_prefix;
	gc->prefix_resumed = cfg->key_prefix_resumed;
	gc->keyspace = cfg->keyspace;
	gc->master = i;
	gc->masters = n;
	gc->on_note = cfg->on_note;
	gc->ud = cfg->ud;
	gc->verbose = cfg->verbose;
}

enum sweep_status sweep_guard_status(enum guard_step step)
{
	return step == GUARD_OK ? SWEEP_OK : step == GUARD_RETRY ? SWEEP_FAILED : SWEEP_REFUSED;
}

enum sweep_status sweep_server_open(struct sweep *s, size_t k, struct rs_err *err)
{
	struct sweep_server *srv = &s->srv[k];

	srv->s = s;
	srv->idx = k;
	srv->clients0 = -1;
	srv->snaps = xcalloc(s->w->n ? s->w->n : 1, sizeof *srv->snaps);
	return sweep_guard_status(guard_open(&srv->g, err));
}

void sweep_stats_add(struct target_stats *sum, const struct target_stats *st)
{
	sum->calls = st->calls < 0 || sum->calls < 0 ? -1 : sum->calls + st->calls;
	for (size_t k = 0; k < st->neach; k++)
		sum->each[k] = st->each[k] < 0 || sum->each[k] < 0 ? -1 : sum->each[k] + st->each[k];
	sum->neach = st->neach;
	sum->hits = st->hits < 0 || sum->hits < 0 ? -1 : sum->hits + st->hits;
	sum->misses = st->misses < 0 || sum->misses < 0 ? -1 : sum->misses + st->misses;
	sum->cpu += st->cpu;
}
