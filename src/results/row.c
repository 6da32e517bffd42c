/* row.c: the full row's defaults, and the compact rows readers keep. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "results/row.h"
#include "results/row_int.h"
#include "base/vec.h"
#include "base/xalloc.h"

void row_init(struct rs_row *r)
{
	memset(r, 0, sizeof *r);
	r->clients = r->requests = r->errors = -1;
	r->misses = r->server_calls = r->order = r->threads = -1;
	r->data_size = r->keyspace = -1;
	r->seconds = r->rps = NAN;
	r->avg_ms = r->min_ms = r->p50_ms = r->p95_ms = r->p99_ms = NAN;
	r->max_ms = r->p999_ms = NAN;
	r->server_cpu_s = r->client_cpu_s = NAN;
	r->steal_pct = r->drift_pct = r->other_cpus = NAN;
	r->client_nivcsw = -1;
	r->server_hits = r->server_misses = -1;
	r->expire = -1;
	r->subscribers = r->channels = r->delivered = r->lost = r->dup = r->receivers = -1;
	r->delivered_rps = r->deliver_p50_ms = r->deliver_p99_ms = NAN;
	r->deliver_p999_ms = r->deliver_max_ms = r->sub_cpu_s = NAN;
	r->reconnect_every = r->connects = -1;
	r->connects_per_s = NAN;
	r->connect_p50_ms = r->connect_p99_ms = NAN;
	r->tls_resumed = -1;
	r->rate_offered = r->svc_p50_ms = r->svc_p99_ms = r->svc_p999_ms = NAN;
	r->rate_short = -1;
	r->connect_ms = NAN;
	r->redirects = r->masters = -1;
	r->busy_cpu_s = NAN;
	r->agents_ok = r->agents_expected = -1;
	r->skew_ms = NAN;
	r->run = -1;
	r->slip_p50_ms = r->slip_p99_ms = NAN;
	r->slo_ms = r->slo_lo_ms = r->slo_hi_ms = NAN;
	r->repl_lag = -1;
}

/* ---- figures in 32 bits ----
 *
 * A figure is k / scale for a whole k below ROW_FIG_WIDE when that is
 * exactly the double the text gave: the CSV writes rps with 2 decimals,
 * latencies with 4 (ms), durations and CPU times with 6 (s), steal and
 * other CPUs with 2, drift with 1, context switches whole, and a decimal
 * with that many digits parses to k / 10^d, the very division decoding
 * does.  Anything else (more digits, a larger figure) goes whole into
 * rows->wide, so that no figure is ever rounded; a float would round them
 * all, and every one of them is compared, summed or divided. */
#define ROW_FIG_NONE UINT32_MAX  /* unknown: NAN */
#define ROW_FIG_WIDE 0x80000000u /* or'ed with an index into rows->wide */

static const double row_scale[ROW_NFIGS] = {
	[ROW_RPS] = 1e2, [ROW_SECONDS] = 1e6, [ROW_AVG_MS] = 1e4, [ROW_P50_MS] = 1e4,
	[ROW_P95_MS] = 1e4, [ROW_P99_MS] = 1e4, [ROW_P999_MS] = 1e4, [ROW_MAX_MS] = 1e4,
	[ROW_SERVER_CPU_S] = 1e6, [ROW_CLIENT_CPU_S] = 1e6, [ROW_STEAL_PCT] = 1e2,
	[ROW_DRIFT_PCT] = 1e1, [ROW_OTHER_CPUS] = 1e2, [ROW_NIVCSW] = 1, [ROW_RATE] = 1e2,
	[ROW_BUSY_CPU_S] = 1e6, [ROW_MASTERS] = 1,
	[ROW_SLIP_P50_MS] = 1e4, [ROW_SLIP_P99_MS] = 1e4, [ROW_SLO_MS] = 1e4,
	[ROW_SLO_LO_MS] = 1e4, [ROW_SLO_HI_MS] = 1e4,
	[ROW_REPL_LAG] = 1,
};

int row_fig_put(struct rs_rows *rows, double v, enum row_fig f, uint32_t *out,
		struct rs_err *err)
{
	double s = row_scale[f];

	if (isnan(v)) {
		*out = ROW_FIG_NONE;
		return 0;
	}
	if (v >= 0 && v * s < (double)ROW_FIG_WIDE) {
		long k = lround(v * s);

		if (k < (long)ROW_FIG_WIDE && (double)k / s == v) {
			*out = (uint32_t)k;
			return 0;
		}
	}
	if (rows->nwide >= ROW_FIG_NONE - ROW_FIG_WIDE)
		return rs_err_set(err, "more than %u figures that fixed point cannot hold",
				  ROW_FIG_NONE - ROW_FIG_WIDE);
	rows->wide = vec_reserve(rows->wide, &rows->capwide, rows->nwide + 1, sizeof *rows->wide, 64);
	rows->wide[rows->nwide] = v;
	*out = ROW_FIG_WIDE | (uint32_t)rows->nwide++;
	return 0;
}

double rows_fig(const struct rs_rows *rows, const struct rs_rec *rec, enum row_fig f)
{
	uint32_t k;

	if (f < ROW_FIRST_RARE)
		k = rec->fig[f];
	else if (rec->rare == 0)
		return NAN;
	else
		k = rows->rare[(size_t)(rec->rare - 1) * ROW_NRARE + (size_t)(f - ROW_FIRST_RARE)];

	if (k == ROW_FIG_NONE)
		return NAN;
	if (k & ROW_FIG_WIDE)
		return rows->wide[k & ~ROW_FIG_WIDE];
	return (double)k / row_scale[f];
}

/* ---- strings, once each ---- */

static const char row_empty[] = "";

/* The pool's copy of s[0..n).  Most rows repeat the strings of the row before
 * (a sweep's label, target, version): prev, that row's copy, is tried
 * before hashing. */
static const char *row_strn(struct rs_rows *rows, const char *s, size_t n, const char *prev,
			    struct rs_err *err)
{
	uint32_t id;

	if (n == 0)
		return row_empty;
	if (prev != NULL && strncmp(prev, s, n) == 0 && prev[n] == '\0')
		return prev;
	if (strtab_intern(&rows->pool, s, n, &id, NULL) < 0) {
		rs_err_set(err, "too many distinct strings");
		return NULL;
	}
	return strtab_str(&rows->pool, id);
}

/* row_strn of the whole of s. */
static const char *row_str(struct rs_rows *rows, const char *s, const char *prev,
			   struct rs_err *err)
{
	return row_strn(rows, s, strlen(s), prev, err);
}

/* A row without a busiest master, master_rps, a mix, a size range, an
 * objective, a TTL or churn. */
static const struct rs_extra row_no_extra = {
	row_empty, row_empty, row_empty, row_empty, row_empty, row_empty, row_empty, -1, -1,
};

/* The pool's copy of column col of r: its bytes up to a NUL, and never
 * its array's last byte (which a full column leaves for the NUL). */
#define ROW_COL(rows, r, col, prev, err) \
	row_strn(rows, (r)->col, strnlen((r)->col, sizeof (r)->col - 1), prev, err)

/* The shared struct rs_extra of r's busy_master, master_rps, mix,
 * mix_sent, mix_calls, data_size_range and slo, and of the settings
 * expire and reconnect_every (checked into 32 bits by the caller): most
 * rows have none of them, and a pointer more a row is 5% of a file of
 * millions.  prev, the last row's, is tried first. */
#define ROW_EXTRA_STRS 7
struct row_extra_key {
	const char *s[ROW_EXTRA_STRS];
	int32_t expire, reconnect_every;
};
static const struct rs_extra *row_extra(struct rs_rows *rows, const struct rs_row *r,
					int32_t expire, int32_t reconnect_every,
					const struct rs_extra *prev, struct rs_err *err)
{
	struct row_extra_key key;
	struct rs_extra *x;
	uint32_t id;
	int added, empty = expire == -1 && reconnect_every == -1;

	/* Interned as bytes: no padding may differ. */
	memset(&key, 0, sizeof key);
	key.s[0] = ROW_COL(rows, r, busy_master, prev ? prev->busy_master : NULL, err);
	key.s[1] = ROW_COL(rows, r, master_rps, prev ? prev->master_rps : NULL, err);
	key.s[2] = ROW_COL(rows, r, mix, prev ? prev->mix : NULL, err);
	key.s[3] = ROW_COL(rows, r, mix_sent, prev ? prev->mix_sent : NULL, err);
	key.s[4] = ROW_COL(rows, r, mix_calls, prev ? prev->mix_calls : NULL, err);
	key.s[5] = ROW_COL(rows, r, data_size_range, prev ? prev->data_size_range : NULL, err);
	key.s[6] = ROW_COL(rows, r, slo, prev ? prev->slo : NULL, err);
	key.expire = expire;
	key.reconnect_every = reconnect_every;
	for (int k = 0; k < ROW_EXTRA_STRS; k++) {
		if (key.s[k] == NULL)
			return NULL;
		empty &= key.s[k] == row_empty;
	}
	if (empty)
		return &row_no_extra;
	/* Interned strings are equal exactly when their copies are the same:
	 * the pointers are the key, as for row_server. */
	if (prev != NULL && prev->busy_master == key.s[0] && prev->master_rps == key.s[1] &&
	    prev->mix == key.s[2] && prev->mix_sent == key.s[3] && prev->mix_calls == key.s[4] &&
	    prev->data_size_range == key.s[5] && prev->slo == key.s[6] &&
	    prev->expire == expire && prev->reconnect_every == reconnect_every)
		return prev;
	if (strtab_intern(&rows->extra_ids, (const char *)&key, sizeof key, &id, &added) < 0) {
		rs_err_set(err, "too many distinct strings");
		return NULL;
	}
	if (!added)
		return rows->extras[id];
	rows->extras = vec_reserve(rows->extras, &rows->capextras, (size_t)id + 1,
				   sizeof *rows->extras, 0);
	x = xmalloc(sizeof *x);
	x->busy_master = key.s[0];
	x->master_rps = key.s[1];
	x->mix = key.s[2];
	x->mix_sent = key.s[3];
	x->mix_calls = key.s[4];
	x->data_size_range = key.s[5];
	x->slo = key.s[6];
	x->expire = expire;
	x->reconnect_every = reconnect_every;
	rows->extras[id] = x;
	return x;
}

const char *rows_add_name(struct rs_rows *rows, const char *name)
{
	uint32_t id;

	/* Only past 2^31 distinct strings, which no memory holds. */
	if (strtab_intern(&rows->pool, name, strlen(name), &id, NULL) < 0)
		abort();
	return strtab_str(&rows->pool, id);
}

/* The shared struct rs_server of these interned strings (key: target,
 * redis_version, server_arch, server_name, server_version, key_prefix,
 * key_dist, server_args, server_cpus, client_cpus). */
#define ROW_SERVER_KEYS 10
static const struct rs_server *row_server(struct rs_rows *rows,
					  const char *const key[ROW_SERVER_KEYS],
					  const struct rs_server *prev, struct rs_err *err)
{
	/* Interned strings are equal exactly when their copies are the same:
	 * the pointers are the key. */
	struct rs_server *s;
	uint32_t id;
	int added;

	if (prev != NULL && prev->target == key[0] && prev->redis_version == key[1] &&
	    prev->server_arch == key[2] && prev->server_name == key[3] &&
	    prev->server_version == key[4] && prev->key_prefix == key[5] &&
	    prev->key_dist == key[6] && prev->server_args == key[7] &&
	    prev->server_cpus == key[8] && prev->client_cpus == key[9])
		return prev;
	if (strtab_intern(&rows->server_ids, key, ROW_SERVER_KEYS * sizeof *key, &id, &added) < 0) {
		rs_err_set(err, "too many distinct servers");
		return NULL;
	}
	if (!added)
		return rows->servers[id];
	rows->servers = vec_reserve(rows->servers, &rows->capservers, (size_t)id + 1,
				    sizeof *rows->servers, 0);
	s = xmalloc(sizeof *s);
	s->target = key[0];
	s->redis_version = key[1];
	s->server_arch = key[2];
	s->server_name = key[3];
	s->server_version = key[4];
	s->key_prefix = key[5];
	s->key_dist = key[6];
	s->server_args = key[7];
	s->server_cpus = key[8];
	s->client_cpus = key[9];
	rows->servers[id] = s;
	return s;
}

const char *rows_server_desc(const struct rs_server *s, char *buf, size_t size)
{
	const char *name = s->server_name, *version = s->server_version;

	/* A row from before the columns: what its chart footer always said. */
	if (name[0] == '\0' && version[0] == '\0') {
		version = s->redis_version;
		name = version[0] ? "redis" : "";
	}
	snprintf(buf, size, "%s%s%s", name, name[0] && version[0] ? " " : "", version);
	return buf;
}

const char *rows_server_desc_args(const struct rs_server *s, char *buf, size_t size)
{
	size_t n = strlen(rows_server_desc(s, buf, size));

	if (n > 0 && s->server_args[0] != '\0' && n < size)
		snprintf(buf + n, size - n, " [%s]", s->server_args);
	return buf;
}

int rows_check_server(const struct rs_rows *rows, const char *label, const char *name,
		      const char *version, const char *redis_version, struct rs_err *err)
{
	char was[2 * ROW_STR], now[2 * ROW_STR];

	if (name[0] == '\0' && version[0] == '\0' && redis_version[0] == '\0')
		return 0;
	for (size_t i = 0; i < rows->n; i++) {
		const struct rs_rec *r = &rows->v[i];
		const struct rs_server *s = r->server;
		int older = s->server_name[0] == '\0' && s->server_version[0] == '\0';

		if (strcmp(r->label, label) != 0 || (older && s->redis_version[0] == '\0'))
			continue;
		if (older ? strcmp(s->redis_version, redis_version) == 0 :
		    strcmp(s->server_name, name) == 0 && strcmp(s->server_version, version) == 0)
			continue;
		if (older) {
			snprintf(was, sizeof was, "a server whose redis_version is %s", s->redis_version);
			snprintf(now, sizeof now, "%s", redis_version[0] ? redis_version : "unknown");
		} else {
			rows_server_desc(s, was, sizeof was);
			snprintf(now, sizeof now, "%s%s%s", name, name[0] && version[0] ? " " : "",
				 version);
		}
		return rs_err_set(err, "%s:%u: label '%s' was measured on %s, this run is on %s%s: "
				  "resume on the same server, or use another --label", r->src, r->line,
				  label, was, older ? "one whose is " : "", now);
	}
	return 0;
}

static int row_int32(const char *name, int64_t v, int32_t *out, struct rs_err *err)
{
	if (v > INT32_MAX)
		return rs_err_set(err, "%s %lld is above %d", name, (long long)v, INT32_MAX);
	if (v < -1)
		return rs_err_set(err, "%s %lld is negative", name, (long long)v);
	*out = (int32_t)v;
	return 0;
}

/* ---- the mode and arrivals columns ---- */

static const char *const row_mode_names[] = { "", "lockstep", "window", NULL };
static const char *const row_arrivals_names[] = { "", "uniform", "poisson", NULL };
static const char *const row_slo_phase_names[] = { "", "start", "probe", NULL };
static const char *const row_slo_verdict_names[] = { "", "met", "missed", "unsure", "generator",
						     NULL };
static const char *const row_read_from_names[] = { "", "replicas", "all", "masters", NULL };

/* Days from 1970-01-01 to year y, month m (1-12), day d of the Gregorian
 * calendar (Howard Hinnant's days_from_civil): timegm is not POSIX. */
static int64_t row_days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

double row_started_time(const char *started_at)
{
	struct tm tm;
	int n = 0;
	double frac = 0;
	const char *p;

	memset(&tm, 0, sizeof tm);
	if (sscanf(started_at, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
		   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 6 || n != 19)
		return NAN;
	p = started_at + n;
	if (*p == '.') {
		double unit = 0.1;

		if (p[1] < '0' || p[1] > '9')
			return NAN;
		for (p++; *p >= '0' && *p <= '9'; p++, unit /= 10)
			frac += (*p - '0') * unit;
	}
	if (strcmp(p, "Z") != 0 || tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 ||
	    tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
		return NAN;
	return (double)(row_days_from_civil(tm.tm_year, (unsigned)tm.tm_mon, (unsigned)tm.tm_mday) *
			86400 + tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec) + frac;
}

const char *row_mode_name(unsigned mode)
{
	return mode < 3 ? row_mode_names[mode] : "";
}

const char *row_read_from_name(unsigned read_from)
{
	return read_from == 1 ? "replicas" : read_from == 2 ? "all" : "masters";
}

const char *row_arrivals_name(unsigned arrivals)
{
	return arrivals < 3 ? row_arrivals_names[arrivals] : "";
}

const char *row_slo_phase_name(unsigned phase)
{
	return phase < 3 ? row_slo_phase_names[phase] : "";
}

const char *row_slo_verdict_name(unsigned verdict)
{
	return verdict < 5 ? row_slo_verdict_names[verdict] : "";
}

/* s's index in names (NULL-terminated); -1 when it is none of them. */
static int row_enum(const char *s, const char *const *names, unsigned char *out)
{
	for (unsigned i = 0; names[i] != NULL; i++)
		if (strcmp(s, names[i]) == 0) {
			*out = (unsigned char)i;
			return 0;
		}
	return -1;
}

/* ---- the array ---- */

void rows_reserve(struct rs_rows *rows, size_t more)
{
	if (rows->cap - rows->n < more) {
		rows->cap = rows->n + more;
		rows->v = xreallocarray(rows->v, rows->cap, sizeof *rows->v);
	}
}

struct rs_rec *rows_add(struct rs_rows *rows, const struct rs_row *r, struct rs_err *err)
{
	const struct rs_rec *prev = rows->n ? &rows->v[rows->n - 1] : NULL;
	const struct rs_server *ps = prev ? prev->server : NULL;
	const double figs[ROW_NFIGS] = {
		[ROW_RPS] = r->rps, [ROW_SECONDS] = r->seconds, [ROW_AVG_MS] = r->avg_ms,
		[ROW_P50_MS] = r->p50_ms, [ROW_P95_MS] = r->p95_ms, [ROW_P99_MS] = r->p99_ms,
		[ROW_P999_MS] = r->p999_ms, [ROW_MAX_MS] = r->max_ms,
		[ROW_SERVER_CPU_S] = r->server_cpu_s, [ROW_CLIENT_CPU_S] = r->client_cpu_s,
		[ROW_STEAL_PCT] = r->steal_pct, [ROW_DRIFT_PCT] = r->drift_pct,
		[ROW_OTHER_CPUS] = r->other_cpus,
		[ROW_NIVCSW] = r->client_nivcsw >= 0 ? (double)r->client_nivcsw : NAN,
		[ROW_RATE] = r->rate_offered,
		[ROW_BUSY_CPU_S] = r->busy_cpu_s,
		[ROW_MASTERS] = r->masters >= 0 ? (double)r->masters : NAN,
		[ROW_MISSES] = r->misses >= 0 ? (double)r->misses : NAN,
		[ROW_SERVER_HITS] = r->server_hits >= 0 ? (double)r->server_hits : NAN,
		[ROW_SERVER_MISSES] = r->server_misses >= 0 ? (double)r->server_misses : NAN,
		[ROW_SLIP_P50_MS] = r->slip_p50_ms, [ROW_SLIP_P99_MS] = r->slip_p99_ms,
		[ROW_SLO_MS] = r->slo_ms, [ROW_SLO_LO_MS] = r->slo_lo_ms,
		[ROW_SLO_HI_MS] = r->slo_hi_ms,
		[ROW_REPL_LAG] = r->repl_lag >= 0 ? (double)r->repl_lag : NAN,
	};
	struct rs_rec rec;
	const char *key[ROW_SERVER_KEYS];
	int32_t threads = -1, expire = -1, reconnect_every = -1;
	uint32_t rare[ROW_NRARE];
	int any_rare = 0;

	memset(&rec, 0, sizeof rec);
	if (row_int32("expire", r->expire, &expire, err) < 0 ||
	    row_int32("reconnect_every", r->reconnect_every, &reconnect_every, err) < 0)
		return NULL;
	rec.label = row_str(rows, r->label, prev ? prev->label : NULL, err);
	rec.test = row_str(rows, r->test, prev ? prev->test : NULL, err);
	rec.client = row_str(rows, r->client, prev ? prev->client : NULL, err);
	rec.extra = row_extra(rows, r, expire, reconnect_every, prev ? prev->extra : NULL, err);
	key[0] = row_str(rows, r->target, ps ? ps->target : NULL, err);
	key[1] = row_str(rows, r->redis_version, ps ? ps->redis_version : NULL, err);
	key[2] = row_str(rows, r->server_arch, ps ? ps->server_arch : NULL, err);
	key[3] = row_str(rows, r->server_name, ps ? ps->server_name : NULL, err);
	key[4] = row_str(rows, r->server_version, ps ? ps->server_version : NULL, err);
	key[5] = row_str(rows, r->key_prefix, ps ? ps->key_prefix : NULL, err);
	key[6] = row_str(rows, r->key_dist, ps ? ps->key_dist : NULL, err);
	key[7] = row_str(rows, r->server_args, ps ? ps->server_args : NULL, err);
	key[8] = row_str(rows, r->server_cpus, ps ? ps->server_cpus : NULL, err);
	key[9] = row_str(rows, r->client_cpus, ps ? ps->client_cpus : NULL, err);
	if (!rec.label || !rec.test || !rec.client || !rec.extra || !key[0] || !key[1] ||
	    !key[2] || !key[3] || !key[4] || !key[5] || !key[6] ||
	    !key[7] || !key[8] || !key[9])
		return NULL;
	if ((rec.server = row_server(rows, key, ps, err)) == NULL)
		return NULL;
	if (r->src == NULL)
		rec.src = row_empty;
	else if (prev != NULL && (prev->src == r->src || strcmp(prev->src, r->src) == 0))
		rec.src = prev->src;
	else
		rec.src = rows_add_name(rows, r->src);
	rec.pipeline = r->pipeline;
	rec.repeat = r->repeat;
	rec.line = r->line;
	if (row_int32("clients", r->clients, &rec.clients, err) < 0 ||
	    row_int32("threads", r->threads, &threads, err) < 0 ||
	    row_int32("data_size", r->data_size, &rec.data_size, err) < 0)
		return NULL;
	/* Kept in 16 bits: a row stays small (a file of millions of rows). */
	if (threads > INT16_MAX)
		return rs_err_set(err, "threads %d is above %d", (int)threads, INT16_MAX), NULL;
	rec.threads = (int16_t)threads;
	rec.requests = r->requests;
	rec.errors = r->errors;
	rec.keyspace = r->keyspace;
	if (r->run > (int64_t)ROW_MAX_RUN)
		return rs_err_set(err, "run %lld is more than %u", (long long)r->run, ROW_MAX_RUN),
		       NULL;
	rec.run = r->run > 0 ? (uint16_t)r->run : 0;
	rec.rate_short = (signed char)(r->rate_short < 0 ? -1 : r->rate_short > 0);
	rec.started = row_started_time(r->started_at);
	if (row_enum(r->mode, row_mode_names, &rec.mode) < 0)
		return rs_err_set(err, "mode '%s' is neither lockstep nor window", r->mode), NULL;
	if (row_enum(r->arrivals, row_arrivals_names, &rec.arrivals) < 0)
		return rs_err_set(err, "arrivals '%s' are neither uniform nor poisson", r->arrivals),
		       NULL;
	if (row_enum(r->slo_phase, row_slo_phase_names, &rec.slo_phase) < 0)
		return rs_err_set(err, "slo_phase '%s' is neither start nor probe", r->slo_phase),
		       NULL;
	if (row_enum(r->slo_verdict, row_slo_verdict_names, &rec.slo_verdict) < 0)
		return rs_err_set(err, "slo_verdict '%s' is none of met, missed, unsure, "
				  "generator", r->slo_verdict), NULL;
	if (row_enum(r->read_from, row_read_from_names, &rec.read_from) < 0)
		return rs_err_set(err, "read_from '%s' is none of masters, replicas and all",
				  r->read_from), NULL;
	/* "masters" is what a row without the column means. */
	rec.read_from = rec.read_from == 3 ? 0 : rec.read_from;
	for (int f = 0; f < ROW_FIRST_RARE; f++)
		if (row_fig_put(rows, figs[f], (enum row_fig)f, &rec.fig[f], err) < 0)
			return NULL;
	/* The rare figures, apart: a row without any keeps none. */
	for (int f = ROW_FIRST_RARE; f < ROW_NFIGS; f++) {
		if (row_fig_put(rows, figs[f], (enum row_fig)f, &rare[f - ROW_FIRST_RARE], err) < 0)
			return NULL;
		any_rare |= rare[f - ROW_FIRST_RARE] != ROW_FIG_NONE;
	}
	if (any_rare) {
		if (rows->nrare >= UINT32_MAX - 1)
			return rs_err_set(err, "more than %u rows with a cluster's, an open loop's "
					  "or replicas' figures", UINT32_MAX - 1), NULL;
		rows->rare = vec_reserve(rows->rare, &rows->caprare, (rows->nrare + 1) * ROW_NRARE,
					 sizeof *rows->rare, 64 * ROW_NRARE);
		memcpy(rows->rare + rows->nrare * ROW_NRARE, rare, sizeof rare);
		rec.rare = (uint32_t)++rows->nrare;
	}
	rows->v = vec_reserve(rows->v, &rows->cap, rows->n + 1, sizeof *rows->v, 64);
	rows->v[rows->n] = rec;
	return &rows->v[rows->n++];
}

void rows_free(struct rs_rows *rows)
{
	if (rows == NULL)
		return;
	for (size_t i = 0; i < rows->server_ids.n; i++)
		free(rows->servers[i]);
	free(rows->servers);
	strtab_free(&rows->server_ids);
	for (size_t i = 0; i < rows->extra_ids.n; i++)
		free(rows->extras[i]);
	free(rows->extras);
	strtab_free(&rows->extra_ids);
	free(rows->rare);
	strtab_free(&rows->pool);
	free(rows->wide);
	free(rows->v);
	memset(rows, 0, sizeof *rows);
}

int rows_point_cmp(const void *a, const void *b)
{
	const struct rs_rec *x = *(const struct rs_rec *const *)a;
	const struct rs_rec *y = *(const struct rs_rec *const *)b;
	int c = strcmp(x->label, y->label);

	if (c == 0)
		c = strcmp(x->test, y->test);
	if (c == 0)
		c = (x->pipeline > y->pipeline) - (x->pipeline < y->pipeline);
	if (c == 0)
		c = (x > y) - (x < y);   /* one array: file order */
	return c;
}
