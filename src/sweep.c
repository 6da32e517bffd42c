/* sweep.c: the sweep loop: guard, flush, prepare, warm up, measure, store. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "engine.h"
#include "guard.h"
#include "histfile.h"
#include "host.h"
#include "platform.h"
#include "precision.h"
#include "sbuf.h"
#include "sweep.h"
#include "cluster_load.h"
#include "xalloc.h"

/* Elements prepared per second of --duration or --warmup for the pop tests:
 * above what this kind of client reaches, so a timed run does not drain the
 * list; misses in the CSV show it if it ever does. */
#define SWEEP_POP_RATE 2000000.0

/* ---- facts about the machines, for every row ---- */

struct sweep_env {
	char run_id[48];          /* changes when the server restarts, or is another one */
	char redis_version[32];
	char server_arch[32];
	char server_os[ROW_STR];
	char client_cpu[ROW_STR];
};

static int sweep_env_read(struct target_conn *c, const struct target *t, struct sweep_env *env,
			  struct rs_err *err)
{
	char *info, *sp;

	memset(env, 0, sizeof *env);
	if (target_info(c, t, "server", &info, err) < 0)
		return -1;
	target_info_field(info, "run_id", env->run_id, sizeof env->run_id);
	target_info_field(info, "redis_version", env->redis_version, sizeof env->redis_version);
	target_info_field(info, "os", env->server_os, sizeof env->server_os);
	free(info);
	/* "Linux 6.1.0-18-amd64 x86_64": the machine is the last word. */
	sp = strrchr(env->server_os, ' ');
	xstrlcpy(env->server_arch, sp ? sp + 1 : env->server_os, sizeof env->server_arch);
	platform_cpu_model(env->client_cpu, sizeof env->client_cpu);
	return 0;
}

/* To the nanosecond: started_at pairs a row with its histogram in the
 * sidecar (latency.c), and two runs started in one second must not pair
 * each other's (a copied CSV took the other run's histograms).  Older
 * files' whole seconds still read: the key is compared as text. */
static void sweep_iso_now(char *buf, size_t size)
{
	struct timespec ts;
	struct tm tm;
	char sec[24];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(sec, sizeof sec, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, size, "%.19s.%09uZ", sec, (unsigned)ts.tv_nsec % 1000000000u);
}

static void sweep_sleep(double s, volatile sig_atomic_t *stop)
{
	/* In slices, so that ^C is not kept waiting. */
	while (s > 0 && !(stop && *stop)) {
		double slice = s < 0.1 ? s : 0.1;
		struct timespec ts = { (time_t)slice, (long)((slice - floor(slice)) * 1e9) };

		nanosleep(&ts, NULL);
		s -= slice;
	}
}

static void sweep_note(const struct sweep_config *cfg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sweep_note(const struct sweep_config *cfg, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (cfg->on_note == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	cfg->on_note(cfg->ud, msg);
}

#define sweep_debug(cfg, ...) do { if ((cfg)->verbose) sweep_note(cfg, __VA_ARGS__); } while (0)

/* Requests a point may send, timed or warming up: what pop tests prepare. */
static uint64_t sweep_prepare_count(const struct sweep_config *cfg)
{
	uint64_t count = cfg->duration > 0 ? (uint64_t)ceil(cfg->duration * SWEEP_POP_RATE) :
					     cfg->requests;

	return count + (uint64_t)ceil(cfg->warmup * SWEEP_POP_RATE);
}

/* Batch buffers: P copies of a request, one per connection with random keys. */
#define SWEEP_MAX_BATCH_BYTES ((uint64_t)1 << 30)

int sweep_check(const struct sweep_config *cfg, const struct workload *w,
		const struct depth_list *depths, struct rs_err *err)
{
	unsigned deepest = 0;

	for (size_t d = 0; d < depths->n; d++)
		if (depths->v[d] > deepest)
			deepest = depths->v[d];
	for (size_t i = 0; i < w->n; i++) {
		const struct workload_test *t = &w->v[i];
		uint64_t copies = (uint64_t)deepest * (cfg->keyspace && t->nrand ? cfg->clients : 1);

		if (cfg->prepare && workload_prepare_check(t, sweep_prepare_count(cfg), cfg->keyspace,
							   cfg->data_size, err) < 0)
			return -1;
		if (copies * t->len > SWEEP_MAX_BATCH_BYTES)
			return rs_err_set(err, "%s at P=%u needs %llu bytes of request buffers (more than "
					  "1 GiB): use a smaller -d, -P or -c", t->name, deepest,
					  (unsigned long long)(copies * t->len));
	}
	return 0;
}

/* How a step of a point (flush, preparation, measurement) ended: the
 * retry loop decides from this alone, never from a special return value. */
enum sweep_step {
	SWEEP_STEP_OK,
	SWEEP_STEP_RETRY,         /* the server or connection failed: worth a retry */
	SWEEP_STEP_FINAL,         /* retrying would fail the same way */
	SWEEP_STEP_FOREIGN,       /* keys rsweep did not write: stop, and flush nothing */
};

/* A test's prepared data, kept as a DUMP payload after its first point:
 * RESTORE brings a 100,000-element set or sorted set back two to three
 * times faster than the commands that built it, a list thirty times
 * faster, and that time is outside every timed window. */
struct sweep_snap {
	char *payload;
	size_t len;
	int off;                  /* DUMP or RESTORE refused: prepare every time */
};

/* Bring back test t's data from its snapshot: 0 done, 1 to prepare
 * instead, -1 the connection failed. */
static int sweep_restore(const struct sweep_config *cfg, struct target_conn *c,
			 const struct workload_test *t, struct sweep_snap *snap, struct rs_err *err)
{
	int rc;

	if (snap->payload == NULL)
		return 1;
	rc = target_restore(c, cfg->target, workload_prepare_key(t), snap->payload, snap->len, err);
	if (rc == 1) {
		/* A server of another version (a restart under --retries), or
		 * RESTORE forbidden: build the data with commands again. */
		sweep_debug(cfg, "%s: %s; preparing with commands", t->name, err->msg);
		free(snap->payload);
		snap->payload = NULL;
		snap->off = 1;
	} else if (rc == 0) {
		sweep_debug(cfg, "%s: restored (%zu bytes)", t->name, snap->len);
	}
	return rc;
}

/* Keep what was just prepared for test t as a snapshot, if it is one key
 * and the server lets us.  Only a lost connection is an error. */
static int sweep_snapshot(const struct sweep_config *cfg, struct target_conn *c,
			  const struct workload_test *t, struct sweep_snap *snap, struct rs_err *err)
{
	int rc;

	if (snap->off || snap->payload != NULL || workload_prepare_key(t) == NULL)
		return 0;
	rc = target_dump(c, cfg->target, workload_prepare_key(t), &snap->payload, &snap->len, err);
	if (rc == 1) {
		sweep_debug(cfg, "%s: %s; preparing with commands every time", t->name, err->msg);
		snap->off = 1;
		return 0;
	}
	return rc;
}

/* ---- the guard ---- */

/* A sweep under way: its connections, and what rsweep knows of the server
 * behind the control connection. */
struct sweep {
	const struct sweep_config *cfg;
	const struct workload *w;
	struct target_conn *c;    /* control: guard, flush, prepare, INFO */
	struct engine *e;
	struct sweep_env env;     /* env.run_id: the server process c reaches */
	/* Nothing flushes through c unless vetted: the guard passed for the
	 * process env.run_id names, read on c itself.  Replacing c clears it. */
	int vetted;
	int foreign;              /* keys rsweep did not write were seen: no flush, ever */
	int dirty;                /* rsweep may have written since the last flush */
	/* Keys in the guard's scope (sweep_scope) that may be rsweep's: what
	 * the last flush left (left) and what the test since can have made.
	 * UINT64_MAX: no limit (--force-flush before the first flush, or a
	 * command whose keys have no bound). */
	uint64_t allow, left;
	int eval_off;             /* the server will not run the check-and-flush script */
	char bad[80];             /* the foreign key the last check named, or "" */
	/* The names of the keys rsweep can have written since the last flush:
	 * a key in scope without one is foreign, however few keys there are. */
	struct guard_names names;
	long clients0;            /* connected_clients before the engine connected; -1 unknown */
	int shared;               /* another target reaches this server: flush after each point */
	struct sweep_snap *snaps;
	struct hist hist;         /* the last point's latency, for the CSV's sidecar */
	/* --cluster: the topology read through c, a sweep of its own per
	 * master (its guard, flush, preparation and INFO; c only reads the
	 * topology), the load on them all, and each master's share of it. */
	struct cluster_topo *topo;
	struct sweep **shard;
	struct sweep_config *shard_cfg;
	struct target *shard_t;
	struct cluster_load *cl;
	struct engine_result *per;
	double *cpu0, *cpu1;
	/* Keys in scope the masters together may hold that are rsweep's: each
	 * master's own allow bounds one master, this the cluster (a reshard
	 * moves keys between masters, it does not multiply them).  UINT64_MAX
	 * until the first test is ready. */
	uint64_t cl_allow;
};

/* Which databases the guard counts: those a flush or the tests can touch. */
static enum target_scope sweep_scope(const struct sweep *s)
{
	/* A command of one's own may touch any database (MOVE, SWAPDB,
	 * FLUSHALL), and the keys it moves are still its own. */
	if (s->w->n > 0 && s->w->v[0].custom)
		return TARGET_SCOPE_ALL;
	/* The tests write only --dbnum; FLUSHALL empties every database. */
	return s->cfg->flush == SWEEP_FLUSH_ALL ? TARGET_SCOPE_ONLY : TARGET_SCOPE_DB;
}

/* "db0: 2 keys, at most 1 of them rsweep's; db3: 1 key": every database
 * that holds keys, into buf; those out of scope only with others set, and
 * marked as left alone. */
static void sweep_keys_text(const struct sweep *s, const struct target_keyspace *ks, int others,
			    char *buf, size_t size)
{
	enum target_scope scope = sweep_scope(s);
	unsigned dbnum = s->cfg->target->dbnum;
	struct sbuf b;

	sbuf_fixed(&b, buf, size);
	for (size_t i = 0; i < ks->n && !b.cut; i++) {
		const struct target_db_keys *d = &ks->v[i];
		int out = scope == TARGET_SCOPE_DB && d->db != dbnum;

		if (out && !others)
			continue;
		sbuf_item(&b, "; ", "db%u: %llu key%s%s", d->db, (unsigned long long)d->keys,
			  d->keys == 1 ? "" : "s", out ? ", left alone" : "");
		if (s->allow > 0 && scope != TARGET_SCOPE_ALL && d->db == dbnum)
			sbuf_printf(&b, ", at most %llu of them rsweep's", (unsigned long long)s->allow);
	}
	if (s->allow > 0 && scope == TARGET_SCOPE_ALL)
		sbuf_printf(&b, "; at most %llu in all rsweep's", (unsigned long long)s->allow);
}

/* Check the server c reaches before anything is written to it (a new
 * connection to a new process too): every database in scope empty.  On
 * success c is vetted.  Nothing is changed either way. */
static enum sweep_status sweep_guard(struct sweep *s, int fresh, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	enum target_scope scope = sweep_scope(s);
	struct target_keyspace ks;
	char what[256];
	uint64_t keys;

	s->allow = s->left = 0;
	s->dirty = 0;
	guard_names_clear(&s->names);
	if (cfg->spawned || cfg->force_flush) {
		/* Ours, or the user said its keys may go: the first flush takes them. */
		s->allow = cfg->spawned ? 0 : UINT64_MAX;
		s->vetted = 1;
		return SWEEP_OK;
	}
	if (target_keyspace(s->c, cfg->target, &ks, err) < 0)
		return SWEEP_FAILED;
	if (target_keyspace_within(&ks, cfg->target->dbnum, scope, 0)) {
		target_keyspace_free(&ks);
		s->vetted = 1;
		return SWEEP_OK;
	}
	keys = scope == TARGET_SCOPE_DB ? target_keyspace_db(&ks, cfg->target->dbnum) : ks.total;
	sweep_keys_text(s, &ks, 1, what, sizeof what);
	rs_err_set(err, "%s %sholds %llu key%s that rsweep did not write%s (%s)%s; a sweep %s %s. %s "
		   "Point rsweep at a server for benchmarks (or use --spawn), or give --force-flush "
		   "if these keys may go", cfg->target->desc, fresh ? "" : "is a new server process and ",
		   (unsigned long long)keys, keys == 1 ? "" : "s",
		   scope == TARGET_SCOPE_DB ? " in the database the sweep uses" : "", what,
		   scope == TARGET_SCOPE_ALL ? ", and a command of your own may touch any database" : "",
		   cfg->flush == SWEEP_FLUSH_NONE ? "would overwrite or pop" : "would flush",
		   keys == 1 ? "it" : "them", fresh ? "Nothing was changed." : "It was not touched.");
	target_keyspace_free(&ks);
	return SWEEP_REFUSED;
}

/* Seen keys rsweep did not write: say so, and never flush this server
 * again.  Returns SWEEP_STEP_FOREIGN. */
static enum sweep_step sweep_foreign(struct sweep *s, const struct target_keyspace *ks, const char *when,
			 struct rs_err *err)
{
	char what[256];

	sweep_keys_text(s, ks, 0, what, sizeof what);
	if (s->bad[0] != '\0') {
		size_t n = strlen(what);

		snprintf(what + n, sizeof what - n, "; '%s' is not a name rsweep writes", s->bad);
	}
	s->foreign = 1;
	rs_err_set(err, "%s: keys rsweep did not write %s (%s): another client is writing to "
		   "this server; stopped without flushing it", s->cfg->target->desc, when, what);
	return SWEEP_STEP_FOREIGN;
}

/* For target_scan_names: whether a key can be rsweep's. */
static int sweep_name_ok(void *ud, const char *key, size_t len)
{
	const struct sweep *s = ud;

	return guard_name_ok(&s->names, key, len);
}

/* The one way rsweep flushes: through a vetted connection, and only when
 * the server holds no more keys in scope than rsweep may have written
 * (checked in the same script as the flush when the server runs EVAL, else
 * one round trip before it); then check it is empty.  Returns
 * SWEEP_STEP_FINAL for a connection the guard has not vetted. */
static enum sweep_step sweep_flush(struct sweep *s, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	const struct target *t = cfg->target;
	int db = cfg->flush == SWEEP_FLUSH_DB;
	const char *cmd = db ? "FLUSHDB" : "FLUSHALL";
	enum target_scope scope = sweep_scope(s);
	struct target_keyspace ks;
	enum sweep_step step;
	uint64_t after;
	int rc = 2;

	if (!s->vetted || s->foreign) {
		rs_err_set(err, "%s: not flushed: the guard has not passed this server", t->desc);
		return SWEEP_STEP_FINAL;
	}
	s->bad[0] = '\0';
	if (!s->eval_off && !cfg->spawned) {
		struct target_names names = { NULL, 0 };

		if (!s->names.unnamed)
			names.n = guard_patterns(&s->names, &names.pat);
		rc = target_flush_if(s->c, t, db, t->dbnum, scope, s->allow,
				     s->names.unnamed ? NULL : &names, &ks, s->bad, sizeof s->bad, err);
		guard_patterns_free(names.pat, names.n);
		if (rc == 2) {
			sweep_note(cfg, "%s; the guard checks the keys, then flushes (a write in "
				   "between goes unseen)", err->msg);
			s->eval_off = 1;
		} else if (rc < 0) {
			return SWEEP_STEP_RETRY;
		} else if (rc == 1) {
			step = sweep_foreign(s, &ks, "appeared during the sweep", err);
			target_keyspace_free(&ks);
			return step;
		} else {
			target_keyspace_free(&ks);
		}
	}
	if (rc == 2) {
		if (!cfg->spawned) {
			if (target_keyspace(s->c, t, &ks, err) < 0)
				return SWEEP_STEP_RETRY;
			rc = !target_keyspace_within(&ks, t->dbnum, scope, s->allow);
			/* No key in the database: no name to check. */
			if (!rc && !s->names.unnamed && s->allow != UINT64_MAX && scope != TARGET_SCOPE_ALL &&
			    target_keyspace_db(&ks, t->dbnum) > 0) {
				rc = target_scan_names(s->c, t, sweep_name_ok, s, s->bad, sizeof s->bad, err);
				if (rc < 0) {
					target_keyspace_free(&ks);
					return SWEEP_STEP_RETRY;
				}
			}
			if (rc) {
				step = sweep_foreign(s, &ks, "appeared during the sweep", err);
				target_keyspace_free(&ks);
				return step;
			}
			target_keyspace_free(&ks);
		}
		if (target_flush(s->c, t, db, err) < 0)
			return SWEEP_STEP_RETRY;
	}
	s->dirty = 0;
	guard_names_clear(&s->names);
	/* Every point starts from nothing: check it, since a replica, a module
	 * or another client could refill the server under us. */
	if (target_keyspace(s->c, t, &ks, err) < 0)
		return SWEEP_STEP_RETRY;
	after = db ? target_keyspace_db(&ks, t->dbnum) : ks.total;
	if (after != 0) {
		char when[64];

		s->allow = 0;
		snprintf(when, sizeof when, "right after %s", cmd);
		step = sweep_foreign(s, &ks, when, err);
		target_keyspace_free(&ks);
		return step;
	}
	/* FLUSHDB leaves what a command of one's own moved elsewhere: its own. */
	s->left = scope == TARGET_SCOPE_ALL ? ks.total : 0;
	s->allow = s->left;
	target_keyspace_free(&ks);
	if (cfg->shard_topo != NULL)
		sweep_debug(cfg, "%s: %s done, 0 keys (master %zu of %zu)", t->desc, cmd,
			    cfg->shard_idx + 1, cfg->shard_topo->n);
	else
		sweep_debug(cfg, "%s done, 0 keys", cmd);
	return SWEEP_STEP_OK;
}

/* Requests a point sends, when known. */
static uint64_t sweep_sent(const struct sweep_config *cfg)
{
	return cfg->duration > 0 || cfg->warmup > 0 ? UINT64_MAX : cfg->requests;
}

/* A master of a cluster: of the preparation in *buf, the commands whose
 * keys are on this master; for a test of one key (mylist) all of them,
 * on the master's own tagged key as the load uses it (cluster_load.h).
 * Returns 0 or -1. */
static int sweep_shard_prepare(const struct sweep_config *cfg, const struct workload_test *t,
			       char **buf, size_t *len, size_t *ncmds, struct rs_err *err)
{
	size_t koff, klen, n;
	int random = 0, rc;
	char tag[24], *out;

	if (cluster_key_arg(t->cmd, t->len, &koff, &klen) == 0)
		for (size_t r = 0; r < t->nrand && cfg->keyspace > 0; r++)
			random |= t->rand_off[r] >= koff && t->rand_off[r] < koff + klen;
	if (!random && cluster_tag(cfg->shard_topo, cfg->shard_idx, tag, sizeof tag) < 0)
		return rs_err_set(err, "%s serves no slot", cfg->target->desc);
	rc = cluster_route_cmds(cfg->shard_topo, cfg->shard_idx, random ? NULL : tag, *buf, *len,
				*ncmds, &out, len, &n, err);
	free(*buf);
	*buf = out;
	*ncmds = n;
	return rc;
}

/* Flush and prepare for test t, on the control connection. */
static enum sweep_step sweep_ready(struct sweep *s, const struct workload_test *t, struct sweep_snap *snap,
		       struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	uint64_t bound = workload_key_bound(t, sweep_sent(cfg), cfg->keyspace, cfg->prepare);
	enum sweep_step step;
	char *buf = NULL;
	size_t len, ncmds;
	int rc;

	if (cfg->flush != SWEEP_FLUSH_NONE && (step = sweep_flush(s, err)) != SWEEP_STEP_OK)
		return step;
	/* A master of a cluster may end up with any of the test's random keys
	 * (a reshard migrates them), and with every master's tagged key of a
	 * single-key test: at most bound + n, however they are spread. */
	if (cfg->shard_topo != NULL)
		bound = bound > UINT64_MAX - cfg->shard_topo->n ? UINT64_MAX :
			bound + cfg->shard_topo->n;
	/* From here on the server may hold this test's keys. */
	s->dirty = 1;
	s->allow = s->left > UINT64_MAX - bound ? UINT64_MAX : s->left + bound;
	guard_names_add(&s->names, t);
	if (!cfg->prepare)
		return SWEEP_STEP_OK;
	/* Snapshots only onto an emptied server, where nothing is in the way. */
	if (cfg->flush != SWEEP_FLUSH_NONE && (rc = sweep_restore(cfg, s->c, t, snap, err)) <= 0)
		return rc == 0 ? SWEEP_STEP_OK : SWEEP_STEP_RETRY;
	if (workload_prepare_cmds(t, sweep_prepare_count(cfg), cfg->keyspace, cfg->data_size, &buf,
				  &len, &ncmds, err) < 0)
		return SWEEP_STEP_FINAL;
	if (cfg->shard_topo != NULL && sweep_shard_prepare(cfg, t, &buf, &len, &ncmds, err) < 0)
		return SWEEP_STEP_FINAL;
	rc = target_pipeline(s->c, cfg->target, buf, len, ncmds, err);
	free(buf);
	if (rc == 0 && ncmds > 0)
		sweep_debug(cfg, "%s: prepared with %zu commands (%zu bytes)", t->name, ncmds, len);
	if (rc == 0 && ncmds > 0 && cfg->flush != SWEEP_FLUSH_NONE)
		rc = sweep_snapshot(cfg, s->c, t, snap, err);
	return rc == 0 ? SWEEP_STEP_OK : SWEEP_STEP_RETRY;
}

int sweep_row_sanitise(struct rs_row *row, char *why, size_t size)
{
	struct { const char *name; double *v; } dbl[] = {
		{ "seconds", &row->seconds }, { "rps", &row->rps }, { "avg_ms", &row->avg_ms },
		{ "min_ms", &row->min_ms }, { "p50_ms", &row->p50_ms }, { "p95_ms", &row->p95_ms },
		{ "p99_ms", &row->p99_ms }, { "p999_ms", &row->p999_ms }, { "max_ms", &row->max_ms },
		{ "server_cpu_s", &row->server_cpu_s }, { "client_cpu_s", &row->client_cpu_s },
	};
	struct { const char *name; int64_t *v; } cnt[] = {
		{ "requests", &row->requests }, { "errors", &row->errors },
		{ "misses", &row->misses }, { "server_calls", &row->server_calls },
	};
	struct sbuf b;
	int dropped = 0;

	sbuf_fixed(&b, why, size);
	for (size_t i = 0; i < sizeof dbl / sizeof dbl[0]; i++) {
		if (isfinite(*dbl[i].v) && *dbl[i].v >= 0)
			continue;
		sbuf_item(&b, ", ", "%s %g", dbl[i].name, *dbl[i].v);
		*dbl[i].v = NAN;
		dropped++;
	}
	for (size_t i = 0; i < sizeof cnt / sizeof cnt[0]; i++) {
		if (*cnt[i].v >= 0)
			continue;
		sbuf_item(&b, ", ", "%s %lld", cnt[i].name, (long long)*cnt[i].v);
		*cnt[i].v = -1;
		dropped++;
	}
	if (dropped > 0)
		sbuf_printf(&b, " cannot be right (the server restarted, or CONFIG "
			    "RESETSTAT ran?): stored as unknown");
	/* Fewer calls than replies counted: the server did not run what the
	 * row claims (a result that was not measured, or calls it rejected).
	 * Kept, never as whole without this note. */
	if (row->requests > 0 && row->server_calls >= 0 && row->server_calls < row->requests) {
		sbuf_item(&b, "; ", "server_calls %lld, fewer than requests %lld: the server did "
			  "not run what was counted", (long long)row->server_calls,
			  (long long)row->requests);
		dropped++;
	}
	return dropped;
}

/* What the engine measured and the server counted around one point. */
struct sweep_sample {
	struct engine_result res;
	int64_t calls0, calls1;   /* the command's calls in INFO commandstats */
	double cpu0, cpu1;        /* the server's CPU seconds */
	struct host_sample h0, h1;
};

/* Fill row from one point's sample. */
static void sweep_row_fill(const struct sweep *s, const struct workload_test *t,
			   const struct sweep_point *p, const struct sweep_sample *m,
			   struct rs_row *row)
{
	const struct sweep_config *cfg = s->cfg;
	const struct sweep_env *env = &s->env;
	const struct engine_result *res = &m->res;

	snprintf(row->label, sizeof row->label, "%s", cfg->label);
	snprintf(row->test, sizeof row->test, "%s", t->name);
	row->pipeline = p->depth;
	row->clients = cfg->clients;
	row->requests = (int64_t)res->requests;
	row->repeat = p->repeat;
	row->seconds = res->seconds;
	row->connect_ms = res->connect_ms > 0 ? res->connect_ms : NAN;
	row->rps = res->seconds > 0 ? (double)res->requests / res->seconds : 0;
	row->avg_ms = hist_mean(&res->hist) / 1e6;
	row->min_ms = res->hist.count ? (double)res->hist.min / 1e6 : 0;
	row->p50_ms = (double)hist_percentile(&res->hist, 50) / 1e6;
	row->p95_ms = (double)hist_percentile(&res->hist, 95) / 1e6;
	row->p99_ms = (double)hist_percentile(&res->hist, 99) / 1e6;
	row->p999_ms = (double)hist_percentile(&res->hist, 99.9) / 1e6;
	row->max_ms = (double)res->hist.max / 1e6;
	if (p->rate > 0) {
		row->rate_offered = (double)p->rate;
		row->rate_short = row->rps < (double)p->rate * (1 - SWEEP_RATE_SHORT);
		snprintf(row->arrivals, sizeof row->arrivals, "%s", engine_arrivals_names[cfg->arrivals]);
		row->svc_p50_ms = (double)hist_percentile(&res->service, 50) / 1e6;
		row->svc_p99_ms = (double)hist_percentile(&res->service, 99) / 1e6;
		row->svc_p999_ms = (double)hist_percentile(&res->service, 99.9) / 1e6;
	}
	row->errors = (int64_t)res->errors;
	row->misses = (int64_t)res->misses;
	row->server_calls = m->calls1 - m->calls0;
	row->order = p->order;
	row->threads = cfg->threads;
	row->data_size = (int64_t)cfg->data_size;
	row->keyspace = (int64_t)cfg->keyspace;
	snprintf(row->mode, sizeof row->mode, "%s",
		 engine_mode_names[p->rate > 0 ? ENGINE_WINDOW : cfg->mode]);
	xstrlcpy(row->target, cfg->target->row_desc[0] ? cfg->target->row_desc : cfg->target->desc,
		 sizeof row->target);
	memcpy(row->redis_version, env->redis_version, sizeof row->redis_version);
	memcpy(row->server_arch, env->server_arch, sizeof row->server_arch);
	memcpy(row->server_os, env->server_os, sizeof row->server_os);
	memcpy(row->client_cpu, env->client_cpu, sizeof row->client_cpu);
	snprintf(row->client, sizeof row->client, "rsweep %s", PACKAGE_VERSION);
	row->server_cpu_s = m->cpu1 - m->cpu0;
	row->client_cpu_s = m->h1.cpu_s - m->h0.cpu_s;
	row->client_nivcsw = m->h0.nivcsw >= 0 && m->h1.nivcsw >= m->h0.nivcsw ?
			     m->h1.nivcsw - m->h0.nivcsw : -1;
	row->steal_pct = host_steal_pct(&m->h0, &m->h1);
	row->drift_pct = host_drift_pct(res->slice_rps, ENGINE_SLICES);
	row->other_cpus = host_other_cpus(&m->h0, &m->h1, row->server_cpu_s, cfg->spawned ||
					  target_is_local(cfg->target));
	snprintf(row->first_error, sizeof row->first_error, "%s", res->first_error);
}

/* ---- --cluster: hooks that send the steps of a point to every master ---- */

/* Flush and prepare every master for test t, each through its own guard. */
/* Before any master is flushed: the keys in scope on all the masters
 * together must be no more than rsweep's own can be (s->cl_allow), since
 * each master's check alone would let every master hold the whole test's
 * keys.  Returns SWEEP_STEP_OK, or how the step ends with err set. */
static enum sweep_step sweep_cluster_keys(struct sweep *s, struct rs_err *err)
{
	uint64_t total = 0;

	if (s->cl_allow == UINT64_MAX || s->cfg->flush == SWEEP_FLUSH_NONE)
		return SWEEP_STEP_OK;
	for (size_t i = 0; i < s->topo->n; i++) {
		struct sweep *sh = s->shard[i];
		const struct target *t = sh->cfg->target;
		struct target_keyspace ks;

		if (target_keyspace(sh->c, t, &ks, err) < 0)
			return SWEEP_STEP_RETRY;
		total += sweep_scope(sh) == TARGET_SCOPE_ALL ? ks.total :
							      target_keyspace_db(&ks, t->dbnum);
		target_keyspace_free(&ks);
	}
	if (total <= s->cl_allow)
		return SWEEP_STEP_OK;
	for (size_t i = 0; i < s->topo->n; i++)
		s->shard[i]->foreign = 1;
	rs_err_set(err, "%s: keys rsweep did not write appeared during the sweep (%llu keys on "
		   "the %zu masters together, at most %llu of them rsweep's): another client is "
		   "writing to this cluster; stopped without flushing it", s->cfg->target->desc,
		   (unsigned long long)total, s->topo->n, (unsigned long long)s->cl_allow);
	return SWEEP_STEP_FOREIGN;
}

static enum sweep_step sweep_cluster_ready(struct sweep *s, const struct workload_test *t,
					   struct rs_err *err)
{
	size_t ti = (size_t)(t - s->w->v);
	uint64_t bound = workload_key_bound(t, sweep_sent(s->cfg), s->cfg->keyspace,
					    s->cfg->prepare);
	uint64_t left = 0;
	enum sweep_step step = sweep_cluster_keys(s, err);

	if (step != SWEEP_STEP_OK)
		return step;
	for (size_t i = 0; i < s->topo->n; i++) {
		step = sweep_ready(s->shard[i], t, &s->shard[i]->snaps[ti], err);
		if (step != SWEEP_STEP_OK)
			return step;
		left = left > UINT64_MAX - s->shard[i]->left ? UINT64_MAX : left + s->shard[i]->left;
	}
	/* The test's keys, once, and each master's tagged key. */
	bound = bound > UINT64_MAX - s->topo->n ? UINT64_MAX : bound + s->topo->n;
	s->cl_allow = left > UINT64_MAX - bound ? UINT64_MAX : left + bound;
	return SWEEP_STEP_OK;
}

/* Run job (test t's; warm: the warm-up) on s's server, on every master of
 * its cluster, or from the agents. */
static int sweep_load(struct sweep *s, const struct engine_job *job, const struct workload_test *t,
		      int warm, struct engine_result *res, struct rs_err *err)
{
	if (s->cfg->agents != NULL)
		return agents_load(s->cfg->agents, job, t->name, warm, res, err);
	if (s->cl != NULL)
		return cluster_load_run(s->cl, job, res, s->per, err);
	return engine_run(s->e, job, res, err);
}

/* target_point_stats on s's server, or summed over every master (each
 * one's CPU into cpus[i] too). */
static int sweep_stats(struct sweep *s, const char *name, int64_t *calls, double *cpu,
		       double *cpus, struct rs_err *err)
{
	if (s->topo == NULL)
		return target_point_stats(s->c, s->cfg->target, name, calls, cpu, err);
	*calls = 0;
	*cpu = 0;
	for (size_t i = 0; i < s->topo->n; i++) {
		struct sweep *sh = s->shard[i];
		int64_t c;

		if (target_point_stats(sh->c, sh->cfg->target, name, &c, &cpus[i], err) < 0)
			return -1;
		*calls += c;
		*cpu += cpus[i];
	}
	return 0;
}

/* master_rps: each master's requests over its own window, which with -n
 * (the same requests on each) is shortest on the fastest master; the one
 * that limits has the lowest rate.  Left empty, with a note, when the
 * list does not fit the column. */
static void sweep_master_rps(const struct sweep *s, struct rs_row *row)
{
	size_t n = 0, size = sizeof row->master_rps;

	row->master_rps[0] = '\0';
	for (size_t i = 0; i < s->topo->n; i++) {
		const struct engine_result *m = &s->per[i];
		int k = snprintf(row->master_rps + n, size - n, "%s%s=%.2f", i ? ";" : "",
				 s->shard_t[i].desc, m->seconds > 0 ? (double)m->requests / m->seconds : 0);

		if (k < 0 || (size_t)k >= size - n) {
			row->master_rps[0] = '\0';
			sweep_note(s->cfg, "%zu masters' rates do not fit the master_rps column (%zu "
				   "bytes): left empty", s->topo->n, size - 1);
			return;
		}
		n += (size_t)k;
	}
}

/* A cluster's columns: redirects, masters, the busiest master, each
 * master's rate. */
static void sweep_cluster_row(const struct sweep *s, const struct engine_result *res,
			      struct rs_row *row)
{
	size_t busy = 0;

	row->redirects = (int64_t)res->redirects;
	row->masters = (int64_t)s->topo->n;
	for (size_t i = 1; i < s->topo->n; i++)
		if (s->cpu1[i] - s->cpu0[i] > s->cpu1[busy] - s->cpu0[busy])
			busy = i;
	xstrlcpy(row->busy_master, s->shard_t[busy].desc, sizeof row->busy_master);
	row->busy_cpu_s = s->cpu1[busy] - s->cpu0[busy];
	sweep_master_rps(s, row);
}

/* Measure one point into row: ready the server, warm up, run the timed
 * window between two readings of the server's counters. */
static enum sweep_step sweep_measure(struct sweep *s, const struct workload_test *t,
				     struct sweep_snap *snap, const struct sweep_point *p,
				     struct rs_row *row, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	struct engine_job job = {
		.cmd = t->cmd, .len = t->len, .rand_off = t->rand_off, .nrand = t->nrand,
		.keyspace = cfg->keyspace, .seed = cfg->seed + p->order, .depth = p->depth,
		.mode = p->rate > 0 ? ENGINE_WINDOW : cfg->mode, .rate = (double)p->rate,
		.arrivals = cfg->arrivals,
		.requests = cfg->requests, .duration = cfg->duration, .timeout = cfg->timeout,
		.max_reply = workload_max_reply(cfg->data_size), .expect = t->expect, .stop = cfg->stop,
	};
	struct sweep_sample m;
	enum sweep_step step;
	char why[256];

	if (s->cl != NULL && cluster_load_check(s->cl, &job, err) < 0)
		return SWEEP_STEP_FINAL;
	step = s->topo != NULL ? sweep_cluster_ready(s, t, err) : sweep_ready(s, t, snap, err);
	if (step != SWEEP_STEP_OK)
		return step;
	if (cfg->warmup > 0) {
		struct engine_job warm = job;

		warm.duration = cfg->warmup;
		if (sweep_load(s, &warm, t, 1, &m.res, err) < 0) {
			rs_err_prefix(err, "warm-up");
			return SWEEP_STEP_RETRY;
		}
	}
	if (sweep_stats(s, t->cmdstat, &m.calls0, &m.cpu0, s->cpu0, err) < 0)
		return SWEEP_STEP_RETRY;
	sweep_iso_now(row->started_at, sizeof row->started_at);
	host_sample(&m.h0);
	if (sweep_load(s, &job, t, 0, &m.res, err) < 0)
		return err->kind == RS_E_USAGE ? SWEEP_STEP_FINAL : SWEEP_STEP_RETRY;
	host_sample(&m.h1);
	if (sweep_stats(s, t->cmdstat, &m.calls1, &m.cpu1, s->cpu1, err) < 0)
		return SWEEP_STEP_RETRY;
	sweep_row_fill(s, t, p, &m, row);
	if (s->topo != NULL)
		sweep_cluster_row(s, &m.res, row);
	if (cfg->agents != NULL)
		agents_row(cfg->agents, row);
	s->hist = m.res.hist;
	if (sweep_row_sanitise(row, why, sizeof why) > 0)
		sweep_note(cfg, "%s P=%u: %s", t->name, p->depth, why);
	if (row->rate_short > 0)
		sweep_note(cfg, "%s P=%u @%llu/s: achieved %.0f/s, short of the offered rate: the "
			   "server saturated below it", t->name, p->depth, (unsigned long long)p->rate,
			   row->rps);
	return SWEEP_STEP_OK;
}

/* A master of a cluster: the process at its address is the node CLUSTER
 * SLOTS named, by node id, or nothing there is touched (a slot map can
 * name any address, and a plain server or another cluster's node there
 * must not be guarded, flushed or loaded as this cluster's).  Returns
 * SWEEP_OK, or SWEEP_REFUSED with err set. */
static enum sweep_status sweep_shard_identity(struct sweep *s, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	const struct cluster_master *m = &cfg->shard_topo->m[cfg->shard_idx];
	char id[64];

	if (target_cluster_myid(s->c, cfg->target, id, sizeof id, err) < 0) {
		rs_err_setk(err, RS_E_REFUSED, "%s: named a master of the cluster, but it answers "
			    "no node id (%s): not touched", cfg->target->desc, err->msg);
		return SWEEP_REFUSED;
	}
	if (m->id[0] == '\0' || strcmp(id, m->id) != 0) {
		rs_err_setk(err, RS_E_REFUSED, "%s: named master %.40s of the cluster, but the node "
			    "there is %.40s: not touched", cfg->target->desc,
			    m->id[0] ? m->id : "(no id)", id);
		return SWEEP_REFUSED;
	}
	return SWEEP_OK;
}

static enum sweep_status sweep_reconnect(struct sweep *s, struct rs_err *err);

/* --cluster: read the topology through s->c and open a sweep per master,
 * each with its guard: nothing is changed anywhere unless every master
 * passes. */
static enum sweep_status sweep_cluster_open(struct sweep *s, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	char list[512];
	struct sbuf b;
	size_t n;

	s->cl_allow = UINT64_MAX;
	s->topo = xcalloc(1, sizeof *s->topo);
	if (cluster_read(s->c, cfg->target, s->topo, err) < 0) {
		cluster_topo_free(s->topo);
		return SWEEP_FAILED;
	}
	n = s->topo->n;
	s->shard = xcalloc(n, sizeof *s->shard);
	s->shard_cfg = xcalloc(n, sizeof *s->shard_cfg);
	s->shard_t = xcalloc(n, sizeof *s->shard_t);
	s->per = xcalloc(n, sizeof *s->per);
	s->cpu0 = xcalloc(n, sizeof *s->cpu0);
	s->cpu1 = xcalloc(n, sizeof *s->cpu1);
	sbuf_fixed(&b, list, sizeof list);
	for (size_t i = 0; i < n; i++) {
		enum sweep_status st;

		s->shard_t[i] = *cfg->target;
		s->shard_t[i].host = s->topo->m[i].host;
		s->shard_t[i].port = s->topo->m[i].port;
		s->shard_t[i].socket = NULL;
		s->shard_t[i].row_desc[0] = '\0';
		target_describe(&s->shard_t[i]);
		s->shard_cfg[i] = *cfg;
		s->shard_cfg[i].cluster = 0;
		s->shard_cfg[i].target = &s->shard_t[i];
		s->shard_cfg[i].shard_topo = s->topo;
		s->shard_cfg[i].shard_idx = i;
		sbuf_item(&b, ", ", "%s (%u slots)", s->shard_t[i].desc, s->topo->m[i].slots);
		if ((st = sweep_open(&s->shard_cfg[i], s->w, &s->shard[i], err)) != SWEEP_OK)
			return st;
		/* Two masters that are one process (two addresses of one node)
		 * would flush each other's prepared keys. */
		for (size_t j = 0; j < i; j++)
			if (strcmp(s->shard[j]->env.run_id, s->shard[i]->env.run_id) == 0) {
				rs_err_setk(err, RS_E_REFUSED, "%s and %s are one server process: the "
					    "slot map is not a cluster's", s->shard_t[j].desc,
					    s->shard_t[i].desc);
				return SWEEP_REFUSED;
			}
	}
	sweep_debug(cfg, "%s: a cluster of %zu master%s: %s; the guard and every flush cover each "
		    "master", cfg->target->desc, n, n == 1 ? "" : "s", list);
	s->vetted = 1;
	return SWEEP_OK;
}

/* --cluster, after a failure: read the topology again (through a new
 * connection to the node given) and reconnect every master's sweep and
 * the load.  Masters that are not those the sweep began with (added,
 * gone, or a failover) fail it: their guard never checked them. */
static enum sweep_status sweep_cluster_reconnect(struct sweep *s, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	struct cluster_topo fresh;
	enum sweep_status st;

	target_close(s->c);
	s->c = NULL;
	if (target_connect(cfg->target, &s->c, err) < 0)
		return SWEEP_FAILED;
	if (cluster_read(s->c, cfg->target, &fresh, err) < 0) {
		cluster_topo_free(&fresh);
		rs_err_as(err, RS_E_FAILED);
		return SWEEP_FAILED;
	}
	if (fresh.n != s->topo->n) {
		rs_err_set(err, "%s: the cluster has %zu masters now, %zu when the sweep began: "
			   "start the sweep again", cfg->target->desc, fresh.n, s->topo->n);
		cluster_topo_free(&fresh);
		return SWEEP_FAILED;
	}
	for (size_t i = 0; i < fresh.n; i++)
		if (cluster_find(s->topo, fresh.m[i].host, fresh.m[i].port) < 0) {
			rs_err_set(err, "%s: the cluster's masters changed (%s is new): start the "
				   "sweep again", cfg->target->desc, fresh.m[i].desc);
			cluster_topo_free(&fresh);
			return SWEEP_FAILED;
		}
	for (size_t slot = 0; slot < CLUSTER_SLOTS; slot++) {
		unsigned o = fresh.owner[slot];

		s->topo->owner[slot] = (uint16_t)cluster_find(s->topo, fresh.m[o].host,
							      fresh.m[o].port);
	}
	cluster_topo_free(&fresh);
	for (size_t i = 0; i < s->topo->n; i++)
		if ((st = sweep_reconnect(s->shard[i], err)) != SWEEP_OK)
			return st;
	if (s->cl == NULL)
		return cluster_load_new(cfg->target, s->topo, cfg->clients, cfg->threads, &s->cl,
					err) < 0 ? SWEEP_FAILED : SWEEP_OK;
	return cluster_load_reconnect(s->cl, err) < 0 ? SWEEP_FAILED : SWEEP_OK;
}

/* Drop the control connection and the engine's and open them again, the
 * control one first: the server behind it is checked (and the connection
 * vetted) before the engine reconnects.  SWEEP_FAILED is worth another try;
 * SWEEP_REFUSED: a new server process the guard refused. */
static enum sweep_status sweep_reconnect(struct sweep *s, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	char old_id[sizeof s->env.run_id];
	enum sweep_status st;

	if (s->topo != NULL)
		return sweep_cluster_reconnect(s, err);
	target_close(s->c);
	s->c = NULL;
	s->vetted = 0;
	if (target_connect(cfg->target, &s->c, err) < 0)
		return SWEEP_FAILED;
	/* The same process as before: what the guard found still holds. */
	memcpy(old_id, s->env.run_id, sizeof old_id);
	if (sweep_env_read(s->c, cfg->target, &s->env, err) < 0)
		return SWEEP_FAILED;
	if (cfg->shard_topo != NULL && (st = sweep_shard_identity(s, err)) != SWEEP_OK)
		return st;
	if (strcmp(old_id, s->env.run_id) == 0) {
		s->vetted = 1;
	} else if (cfg->spawned) {
		/* rsweep's own server is gone: whatever answers at its address
		 * now (another server that took the free port) is not ours, and
		 * the spawned shortcut of the guard must not pass it. */
		rs_err_setk(err, RS_E_REFUSED, "%s: the spawned server is gone and another process "
			    "answers there: not touched", cfg->target->desc);
		return SWEEP_REFUSED;
	} else {
		/* It restarted, or the address now leads to another server:
		 * none of its keys are rsweep's. */
		sweep_note(cfg, "%s is a new server process (run_id changed): checking it again",
			   cfg->target->desc);
		if ((st = sweep_guard(s, 0, err)) != SWEEP_OK)
			return st;
	}
	/* A master of a cluster: the cluster's sweep holds the load; agents
	 * hold theirs. */
	if (cfg->shard_topo != NULL || cfg->agents != NULL)
		return SWEEP_OK;
	if (s->e == NULL)
		return engine_new(cfg->target, cfg->clients, cfg->threads, &s->e, err) < 0 ?
		       SWEEP_FAILED : SWEEP_OK;
	return engine_reconnect(s->e, err) < 0 ? SWEEP_FAILED : SWEEP_OK;
}

/* On every way out: leave the server as the guard found it, empty of what
 * the sweep wrote, so that the next run or a --resume is not refused
 * because of rsweep's own keys; but only through a vetted connection and
 * after the same check as any flush. */
/* connected_clients of the server behind c, or -1. */
static long sweep_clients(struct sweep *s)
{
	char *info, v[32];
	struct rs_err e;

	if (target_info(s->c, s->cfg->target, "clients", &info, &e) < 0)
		return -1;
	target_info_field(info, "connected_clients", v, sizeof v);
	free(info);
	return v[0] ? strtol(v, NULL, 10) : -1;
}

/* Close the engine's connections and wait (1 s at most) until the server
 * has let them go: a point cut short (^C, a failure) leaves requests in
 * flight, and one the server runs after the last flush would leave a key
 * behind (the next run's guard then refuses the server).  The server runs
 * what a client sent before it notices the client is gone, so once
 * connected_clients is back to what it was, nothing of theirs is left. */
static void sweep_engine_gone(struct sweep *s)
{
	engine_free(s->e);
	s->e = NULL;
	if (s->clients0 < 0)
		return;
	for (int i = 0; i < 100; i++) {
		long n = sweep_clients(s);
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		if (n < 0 || n <= s->clients0)
			return;
		nanosleep(&ts, NULL);
	}
}

/* A control command cut short (^C, a timeout) leaves its connection
 * unusable (target.h), and the last flush must still happen: open a new
 * one, vetted only if it reaches the process the guard checked.  Returns
 * 0 when s->c can be used. */
static int sweep_control_again(struct sweep *s, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	struct target deaf = *cfg->target;
	struct sweep_env env;

	if (s->c != NULL && !target_failed(s->c))
		return 0;
	target_close(s->c);
	s->c = NULL;
	s->vetted = 0;
	/* On the way out of an interrupted run: a connection deaf to the stop,
	 * so that the guarded flush still happens (S1, S2). */
	deaf.stop = NULL;
	if (target_connect(&deaf, &s->c, err) < 0 || sweep_env_read(s->c, &deaf, &env, err) < 0)
		return -1;
	if (strcmp(env.run_id, s->env.run_id) != 0)
		return rs_err_set(err, "%s is another server process now", cfg->target->desc);
	s->vetted = 1;
	return 0;
}

static enum sweep_status sweep_leave(struct sweep *s, enum sweep_status st, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	struct rs_err fe;
	enum sweep_step step;

	if (s->topo != NULL) {
		/* The load's connections first: each master waits for them to go. */
		cluster_load_free(s->cl);
		s->cl = NULL;
		for (size_t i = 0; i < s->topo->n; i++)
			if (s->shard[i] != NULL)
				st = sweep_leave(s->shard[i], st, err);
		return st;
	}
	if (!s->dirty || s->c == NULL || cfg->flush == SWEEP_FLUSH_NONE || cfg->spawned)
		return st;
	if (!s->vetted || s->foreign) {
		sweep_debug(cfg, "%s: the benchmark's keys are left: %s", cfg->target->desc,
			    s->foreign ? "another client wrote to it" : "the guard has not checked it");
		return st;
	}
	if (sweep_control_again(s, &fe) < 0) {
		sweep_note(cfg, "the benchmark's keys are left on %s: %s", cfg->target->desc, fe.msg);
		return st;
	}
	sweep_engine_gone(s);
	step = sweep_flush(s, &fe);
	if (step == SWEEP_STEP_FOREIGN && (st == SWEEP_OK || st == SWEEP_ERROR_REPLIES)) {
		*err = fe;
		return SWEEP_REFUSED;
	}
	if (step != SWEEP_STEP_OK && st != SWEEP_FAILED)
		sweep_note(cfg, "could not flush the benchmark's keys at the end: %s", fe.msg);
	return st;
}

/* A step that failed because ^C cut it short is an interruption (130),
 * not a failure of the server. */
static enum sweep_status sweep_stopped(const struct sweep_config *cfg, enum sweep_status st)
{
	return st == SWEEP_FAILED && cfg->stop && *cfg->stop ? SWEEP_INTERRUPTED : st;
}

enum sweep_status sweep_open(const struct sweep_config *cfg, const struct workload *w,
			     struct sweep **out, struct rs_err *err)
{
	struct sweep *s = xcalloc(1, sizeof *s);

	s->cfg = cfg;
	s->w = w;
	s->snaps = xcalloc(w->n ? w->n : 1, sizeof *s->snaps);
	guard_names_init(&s->names, cfg->shard_topo != NULL);
	*out = s;
	/* The facts first, on the connection the guard then checks. */
	if (target_connect(cfg->target, &s->c, err) < 0 ||
	    sweep_env_read(s->c, cfg->target, &s->env, err) < 0)
		return sweep_stopped(cfg, SWEEP_FAILED);
	if (cfg->shard_topo != NULL) {
		enum sweep_status st = sweep_shard_identity(s, err);

		if (st != SWEEP_OK)
			return sweep_stopped(cfg, st);
	}
	if (cfg->cluster)
		return sweep_stopped(cfg, sweep_cluster_open(s, err));
	if (!cfg->spawned && cfg->flush != SWEEP_FLUSH_NONE && w->n > 0 && w->v[0].custom &&
	    workload_key_bound(&w->v[0], sweep_sent(cfg), cfg->keyspace, 0) == UINT64_MAX)
		sweep_note(cfg, "the guard cannot tell the keys %s writes from another client's: "
			   "between points it checks only that each flush leaves the server empty",
			   w->v[0].name);
	return sweep_stopped(cfg, sweep_guard(s, 1, err));
}

/* --precision: the points measured so far, from --resume's rows of this
 * label and this run's. */
static void sweep_precision_init(const struct sweep_config *cfg, const struct workload *w,
				 struct precision *pr)
{
	/* --precision takes no --rate: the mode alone tells the ways apart. */

	precision_init(pr, w->n, cfg->depths);
	for (size_t r = 0; cfg->prior != NULL && r < cfg->prior->n; r++) {
		const struct rs_rec *row = &cfg->prior->v[r];

		/* The rows of this label measured this way: another mode's
		 * repeats are another point's. */
		if (strcmp(row->label, cfg->label) != 0 ||
		    !sweep_plan_same_way(row, cfg->mode, 0, ENGINE_UNIFORM))
			continue;
		for (size_t t = 0; t < w->n; t++)
			if (strcmp(w->v[t].name, row->test) == 0)
				precision_add(pr, t, row->pipeline, row->repeat,
					      rows_fig(cfg->prior, row, ROW_RPS));
	}
}

/* The highest repeat number pr has seen of test at depth (0: none). */
static unsigned sweep_precision_last(const struct precision *pr, size_t test, unsigned depth)
{
	for (size_t d = 0; d < pr->ndepths; d++)
		if (pr->depth[d] == depth)
			return pr->cells[test * pr->ndepths + d].last;
	return 0;
}

/* The next round of --precision over n targets (pr[n], one a target):
 * append to plan the points to measure again.  A point one target picks
 * is measured on every target, back to back in ABBA turns as in the plan,
 * so that the targets stay paired (a target may so get a repeat more than
 * it needed, or than --max-repeats).  Returns how many points (0: done, or
 * out of repeats or time), or -1 (err set). */
static long sweep_more(const struct sweep_config *cfg, struct sweep_plan *plan,
		       const struct precision *pr, size_t n, unsigned round, double elapsed,
		       struct rs_err *err)
{
	struct precision_pick *all = NULL;
	struct precision_state ps = { 0, 0 };
	size_t k = 0, cells = pr[0].ntests * pr[0].ndepths;
	unsigned char *seen;

	if (cfg->precision <= 0)
		return 0;
	seen = xcalloc(cells ? cells : 1, 1);
	for (size_t t = 0; t < n; t++) {
		struct precision_pick *pick;
		struct precision_state st;
		long m = precision_next(&pr[t], cfg->precision, cfg->max_repeats, cfg->seed + round,
					&pick, &st, err);

		if (m < 0) {
			free(all);
			free(seen);
			return -1;
		}
		ps.worst = isnan(st.worst) || st.worst > ps.worst ? st.worst : ps.worst;
		ps.over += st.over;
		all = xreallocarray(all, k + (size_t)m + 1, sizeof *all);
		for (long i = 0; i < m; i++) {
			size_t d = 0;

			while (d < pr[t].ndepths && pr[t].depth[d] != pick[i].depth)
				d++;
			if (d == pr[t].ndepths || seen[pick[i].test * pr[t].ndepths + d])
				continue;
			seen[pick[i].test * pr[t].ndepths + d] = 1;
			all[k++] = pick[i];
		}
		free(pick);
	}
	free(seen);
	if (k == 0 && ps.over == 0) {
		sweep_note(cfg, "--precision: every point within +-%g%% (widest +-%.1f%%) after %u "
			   "round%s", 100 * cfg->precision, 100 * ps.worst, round, round == 1 ? "" : "s");
		free(all);
		return 0;
	}
	if (k == 0) {
		sweep_note(cfg, "--precision: %zu point%s still wider than +-%g%% at %u repeats "
			   "(--max-repeats; widest +-%.1f%%)", ps.over, ps.over == 1 ? "" : "s",
			   100 * cfg->precision, cfg->max_repeats, 100 * ps.worst);
		free(all);
		return 0;
	}
	if (cfg->budget > 0 && elapsed >= cfg->budget) {
		sweep_note(cfg, "--precision: the %g s budget is spent with %zu point%s still wider "
			   "than +-%g%% (widest +-%.1f%%)", cfg->budget, ps.over,
			   ps.over == 1 ? "" : "s", 100 * cfg->precision, 100 * ps.worst);
		free(all);
		return 0;
	}
	sweep_debug(cfg, "--precision: round %u measures %zu point%s again (widest +-%.1f%%)",
		    round + 1, k, k == 1 ? "" : "s", 100 * ps.worst);
	plan->v = xreallocarray(plan->v, plan->n + k * n, sizeof *plan->v);
	/* The turns go on from the plan's: its points come n at a time. */
	for (size_t i = 0, base = plan->n / n; i < k; i++)
		for (size_t j = 0; j < n; j++) {
			struct sweep_point *p = &plan->v[plan->n];
			size_t t = (base + i) % 2 == 0 ? j : n - 1 - j;

			memset(p, 0, sizeof *p);
			p->test = all[i].test;
			p->depth = all[i].depth;
			p->repeat = sweep_precision_last(&pr[t], all[i].test, all[i].depth) + 1;
			p->target = t;
			p->order = (unsigned)plan->n + 1;
			plan->n++;
			plan->todo++;
		}
	free(all);
	return (long)(k * n);
}

/* Seconds since t0 (engine_now_ns). */
static double sweep_since(uint64_t t0)
{
	return (double)(engine_now_ns() - t0) / 1e9;
}

/* ^C (or the caller's stop flag) asked the sweep to stop. */
static int sweep_interrupted(const struct sweep_config *cfg)
{
	return cfg->stop != NULL && *cfg->stop;
}

/* Name the point in err; returns SWEEP_FAILED. */
static enum sweep_status sweep_point_failed(const struct sweep_plan *plan,
					    const struct sweep_point *p,
					    const struct workload_test *t, struct rs_err *err)
{
	rs_err_prefix(err, "point %u of %zu (%s P=%u repeat %u)", p->order, plan->n, t->name,
		      p->depth, p->repeat);
	return SWEEP_FAILED;
}

/* After a failed try: wait (0.5 s, 1 s, 2 s, ... at most 10 s) and
 * reconnect, counting each reconnection that fails as another attempt.
 * Returns SWEEP_OK to try the point again, SWEEP_FAILED when *attempt
 * reached --retries, or the reconnection's other verdicts
 * (SWEEP_REFUSED, SWEEP_INTERRUPTED). */
static enum sweep_status sweep_back_off(struct sweep *s, unsigned *attempt, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;

	for (;;) {
		enum sweep_status st;

		sweep_sleep(fmin(10.0, 0.5 * pow(2.0, (double)(*attempt - 1))), cfg->stop);
		if (sweep_interrupted(cfg))
			return SWEEP_INTERRUPTED;
		if ((st = sweep_reconnect(s, err)) != SWEEP_FAILED)
			return st;
		if (*attempt >= cfg->retries)
			return SWEEP_FAILED;
		(*attempt)++;
	}
}

/* Measure point p into row, retrying up to --retries times on failures
 * worth a retry.  Returns SWEEP_OK, SWEEP_REFUSED (keys rsweep did not
 * write), SWEEP_INTERRUPTED, or SWEEP_FAILED with err naming the point. */
static enum sweep_status sweep_point(struct sweep *s, const struct sweep_plan *plan,
				     const struct sweep_point *p, struct rs_row *row,
				     struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;
	const struct workload_test *t = &s->w->v[p->test];
	unsigned attempt = 0;

	for (;;) {
		enum sweep_step step;
		enum sweep_status st;

		row_init(row);
		step = sweep_measure(s, t, &s->snaps[p->test], p, row, err);
		if (step == SWEEP_STEP_OK)
			return SWEEP_OK;
		if (step == SWEEP_STEP_FOREIGN)
			return SWEEP_REFUSED;
		if (sweep_interrupted(cfg))
			return SWEEP_INTERRUPTED;
		if (step == SWEEP_STEP_FINAL || attempt >= cfg->retries)
			return sweep_point_failed(plan, p, t, err);
		attempt++;
		sweep_note(cfg, "%s P=%u: %s; reconnecting (retry %u of %u)", t->name, p->depth,
			   err->msg, attempt, cfg->retries);
		st = sweep_back_off(s, &attempt, err);
		if (st == SWEEP_FAILED)
			return sweep_point_failed(plan, p, t, err);
		if (st != SWEEP_OK)
			return st;
	}
}

/* What the points so far had of error replies. */
struct sweep_tally {
	size_t ran, with_errors, all_errors;
	char first_error[ROW_STR];
};

/* Count point p's row as done: --precision's record, the error tally,
 * the caller's progress callback. */
static void sweep_point_done(struct sweep *s, struct sweep_plan *plan, struct sweep_point *p,
			     const struct rs_row *row, struct precision *pr,
			     struct sweep_tally *tl)
{
	const struct sweep_config *cfg = s->cfg;

	p->done = 1;
	tl->ran++;
	if (cfg->precision > 0)
		precision_add(pr, p->test, p->depth, p->repeat, row->rps);
	if (row->errors > 0) {
		tl->with_errors++;
		if (tl->first_error[0] == '\0')
			snprintf(tl->first_error, sizeof tl->first_error, "%s", row->first_error);
		if (row->errors == row->requests)
			tl->all_errors++;
	}
	if (cfg->on_point)
		cfg->on_point(cfg->ud, row, tl->ran, plan->todo);
}

/* The verdict on a sweep that ran to its end: error replies fail it when
 * a point had nothing else, or always under --fail-on-error. */
static enum sweep_status sweep_tally_status(const struct sweep_config *cfg,
					    const struct sweep_tally *tl, struct rs_err *err)
{
	if (tl->all_errors == 0 && !(cfg->fail_on_error && tl->with_errors > 0))
		return SWEEP_OK;
	rs_err_set(err, "%zu point%s had error replies%s (first: %s)", tl->with_errors,
		   tl->with_errors == 1 ? "" : "s",
		   tl->all_errors ? ", some nothing but errors" : "", tl->first_error);
	return SWEEP_ERROR_REPLIES;
}

/* Open the engine's connections, unless a sweep before left them open. */
static enum sweep_status sweep_engine_open(struct sweep *s, struct rs_err *err)
{
	const struct sweep_config *cfg = s->cfg;

	if (s->topo != NULL) {
		for (size_t i = 0; i < s->topo->n && s->cl == NULL; i++)
			s->shard[i]->clients0 = sweep_clients(s->shard[i]);
		if (s->cl == NULL && cluster_load_new(cfg->target, s->topo, cfg->clients, cfg->threads,
						      &s->cl, err) < 0)
			return SWEEP_FAILED;
		sweep_debug(cfg, "%s: %u connections to each of %zu masters over %u thread%s each",
			    cfg->target->desc, cfg->clients, s->topo->n, cfg->threads,
			    cfg->threads == 1 ? "" : "s");
		return SWEEP_OK;
	}
	if (cfg->agents != NULL) {
		s->clients0 = -1;
		sweep_debug(cfg, "%s: redis %s on %s; the load comes from the agents",
			    cfg->target->desc, s->env.redis_version, s->env.server_os);
		return SWEEP_OK;
	}
	s->clients0 = s->e == NULL ? sweep_clients(s) : -1;
	if (s->e == NULL &&
	    engine_new(cfg->target, cfg->clients, cfg->threads, &s->e, err) < 0)
		return SWEEP_FAILED;
	sweep_debug(cfg, "%s: redis %s on %s; %u connections over %u thread%s; client CPU %s",
		    cfg->target->desc, s->env.redis_version, s->env.server_os, cfg->clients,
		    cfg->threads, cfg->threads == 1 ? "" : "s", s->env.client_cpu);
	return SWEEP_OK;
}

/* Name s's target in err, when the sweep has more than one. */
static void sweep_name_target(const struct sweep *s, size_t n, struct rs_err *err)
{
	if (n > 1)
		rs_err_prefix(err, "target '%s'", s->cfg->label);
}

/* After a point of a target that shares its server with another: empty it
 * again through the guard's checks, as before every point. */
static enum sweep_status sweep_clean_after(struct sweep *s, struct rs_err *err)
{
	enum sweep_step step;

	if (!s->shared || s->cfg->flush == SWEEP_FLUSH_NONE)
		return SWEEP_OK;
	step = sweep_flush(s, err);
	return step == SWEEP_STEP_OK ? SWEEP_OK : step == SWEEP_STEP_FOREIGN ? SWEEP_REFUSED :
	       SWEEP_FAILED;
}

enum sweep_status sweep_points_all(struct sweep **ss, size_t n, struct sweep_plan *plan,
				   struct csv_out *out, struct rs_err *err)
{
	/* What the targets share (pause, stop, --precision) is the first's. */
	const struct sweep_config *cfg = ss[0]->cfg;
	size_t planned = plan->n;
	struct sweep_tally tl = { 0 };
	struct precision *pr = xcalloc(n, sizeof *pr);
	unsigned round = 0;
	uint64_t t0 = engine_now_ns();
	enum sweep_status st = SWEEP_OK;

	/* --precision: each target's points by its label (--resume's too). */
	for (size_t k = 0; k < n && cfg->precision > 0; k++)
		sweep_precision_init(ss[k]->cfg, ss[k]->w, &pr[k]);
	for (size_t k = 0; k < n && st == SWEEP_OK; k++)
		if ((st = sweep_engine_open(ss[k], err)) != SWEEP_OK)
			sweep_name_target(ss[k], n, err);
	for (size_t i = 0; st == SWEEP_OK; i++) {
		struct sweep_point *p;
		struct sweep *s;
		struct rs_row row;

		if (i == plan->n) {
			/* The plan is done: --precision may add a round. */
			long more = sweep_more(cfg, plan, pr, n, round, sweep_since(t0), err);

			if (more < 0) {
				st = SWEEP_FAILED;
				break;
			}
			if (more == 0) {
				st = sweep_tally_status(cfg, &tl, err);
				break;
			}
			round++;
		}
		p = &plan->v[i];
		s = ss[p->target < n ? p->target : 0];
		if (p->done)
			continue;
		/* A round under way stops when the budget is spent. */
		if (i >= planned && cfg->budget > 0 && sweep_since(t0) >= cfg->budget) {
			st = sweep_tally_status(cfg, &tl, err);
			break;
		}
		if (sweep_interrupted(cfg)) {
			st = SWEEP_INTERRUPTED;
			break;
		}
		if (tl.ran > 0 && cfg->pause > 0)
			sweep_sleep(cfg->pause, cfg->stop);
		if ((st = sweep_point(s, plan, p, &row, err)) != SWEEP_OK) {
			sweep_name_target(s, n, err);
			break;
		}
		/* The histogram before the row (under the CSV's lock, which
		 * histfile_append takes first): a row without its histogram could
		 * not be merged, a histogram without its row is ignored. */
		if (out != NULL && (histfile_append(out, &row, &s->hist, err) < 0 ||
				    csv_out_append(out, &row, err) < 0)) {
			st = SWEEP_FAILED;
			break;
		}
		sweep_point_done(s, plan, p, &row, &pr[p->target < n ? p->target : 0], &tl);
		if ((st = sweep_clean_after(s, err)) != SWEEP_OK)
			sweep_name_target(s, n, err);
	}
	for (size_t k = 0; k < n; k++)
		precision_free(&pr[k]);
	free(pr);
	/* The last target first: a target's engine connections count among the
	 * clients of a server it shares with an earlier one (sweep_engine_gone). */
	for (size_t k = n; k-- > 0;)
		st = sweep_leave(ss[k], st, err);
	return sweep_stopped(cfg, st);
}

enum sweep_status sweep_points(struct sweep *s, struct sweep_plan *plan, struct csv_out *out,
			       struct rs_err *err)
{
	return sweep_points_all(&s, 1, plan, out, err);
}

const char *sweep_run_id(const struct sweep *s)
{
	return s->env.run_id;
}

void sweep_share(struct sweep *s)
{
	s->shared = 1;
}

void sweep_close(struct sweep *s)
{
	if (s == NULL)
		return;
	if (s->topo != NULL) {
		cluster_load_free(s->cl);
		for (size_t i = 0; i < s->topo->n; i++)
			sweep_close(s->shard[i]);
		free(s->shard);
		free(s->shard_cfg);
		free(s->shard_t);
		free(s->per);
		free(s->cpu0);
		free(s->cpu1);
		cluster_topo_free(s->topo);
		free(s->topo);
	}
	engine_free(s->e);
	target_close(s->c);
	for (size_t i = 0; i < s->w->n; i++)
		free(s->snaps[i].payload);
	free(s->snaps);
	guard_names_free(&s->names);
	free(s);
}

enum sweep_status sweep_run(const struct sweep_config *cfg, const struct workload *w,
			    struct sweep_plan *plan, struct csv_out *out, struct rs_err *err)
{
	struct sweep *s;
	enum sweep_status st = sweep_open(cfg, w, &s, err);

	if (st == SWEEP_OK)
		st = sweep_points(s, plan, out, err);
	sweep_close(s);
	return st;
}
