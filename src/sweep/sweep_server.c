/* sweep_server.c: a server the sweep guards (sweep_int.h): its guard's
 * settings and its opening, for sweep.c and sweep_cluster.c alike. */
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
