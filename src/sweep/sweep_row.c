/* sweep_row.c: a point's row, from what the load measured and the servers
 * counted (sweep_int.h), and the figures of a row that cannot be right
 * (sweep_row.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "os/host.h"
#include "base/sbuf.h"
#include "sweep/sweep_int.h"
#include "base/xalloc.h"

int sweep_row_sanitise(struct rs_row *row, unsigned unknown, char *why, size_t size)
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
		if ((isfinite(*dbl[i].v) && *dbl[i].v >= 0) ||
		    ((unknown & SWEEP_NO_CPU) && dbl[i].v == &row->server_cpu_s))
			continue;
		sbuf_item(&b, ", ", "%s %g", dbl[i].name, *dbl[i].v);
		*dbl[i].v = NAN;
		dropped++;
	}
	for (size_t i = 0; i < sizeof cnt / sizeof cnt[0]; i++) {
		if (*cnt[i].v >= 0 || ((unknown & SWEEP_NO_CALLS) && cnt[i].v == &row->server_calls))
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
	if (row->requests > 0 && row->server_calls >= 0 && row->server_calls < row->requests &&
	    !(unknown & SWEEP_NO_CALLS)) {
		sbuf_item(&b, "; ", "server_calls %lld, fewer than requests %lld: the server did "
			  "not run what was counted", (long long)row->server_calls,
			  (long long)row->requests);
		dropped++;
	}
	return dropped;
}


size_t sweep_cmdstats(const struct workload_test *t, char *list, size_t size, unsigned *at)
{
	const char *names[WORKLOAD_MIX_MAX];
	size_t n = 0;
	struct sbuf b;

	sbuf_fixed(&b, list, size);
	if (t->nmembers == 0) {
		sbuf_printf(&b, "%s", t->cmdstat);
		return 1;
	}
	for (size_t i = 0; i < t->nmembers; i++) {
		size_t k = 0;

		while (k < n && strcmp(names[k], t->members[i].cmdstat) != 0)
			k++;
		if (k == n) {
			names[n++] = t->members[i].cmdstat;
			sbuf_item(&b, ",", "%s", t->members[i].cmdstat);
		}
		at[i] = (unsigned)k;
	}
	return n;
}

/* A mix's columns (row.h): its members and weights, the requests sent of
 * each, and the server's calls of each ("" when the server gives none),
 * members that share a command as one entry, "LRANGE_100+LRANGE_300=N",
 * since the server counts them together. */
static void sweep_row_mix(const struct workload_test *t, const struct sweep_sample *m,
			  struct rs_row *row)
{
	char list[WORKLOAD_MIX_MAX * 16 + 64];
	unsigned at[WORKLOAD_MIX_MAX];
	size_t n = sweep_cmdstats(t, list, sizeof list, at);
	int known = m->st0.neach == n && m->st1.neach == n;
	struct sbuf b, c;

	workload_mix_spec(t, row->mix, sizeof row->mix);
	sbuf_fixed(&b, row->mix_sent, sizeof row->mix_sent);
	/* A sequence sends each of its commands weight times a request. */
	for (size_t i = 0; i < t->nmembers; i++)
		sbuf_item(&b, ";", "%s=%llu", t->members[i].name, (unsigned long long)
			  (t->sequence ? m->res.requests * t->weights[i] : m->res.member_sent[i]));
	for (size_t k = 0; k < n && known; k++)
		known = m->st0.each[k] >= 0 && m->st1.each[k] >= m->st0.each[k];
	sbuf_fixed(&c, row->mix_calls, sizeof row->mix_calls);
	for (size_t k = 0; k < n && known; k++) {
		int first = 1;

		sbuf_item(&c, ";", "%s", "");
		for (size_t i = 0; i < t->nmembers; i++)
			if (at[i] == k) {
				sbuf_printf(&c, "%s%s", first ? "" : "+", t->members[i].name);
				first = 0;
			}
		sbuf_printf(&c, "=%lld", (long long)(m->st1.each[k] - m->st0.each[k]));
	}
	/* A list cut short would read as whole: none rather than a part. */
	if (b.cut)
		row->mix_sent[0] = '\0';
	if (c.cut)
		row->mix_calls[0] = '\0';
}

/* A pub/sub point's columns: what the subscribers received. */
static void sweep_row_pubsub(const struct sweep_config *cfg, const struct workload_test *t,
			     const struct engine_result *res, struct rs_row *row)
{
	row->subscribers = cfg->subscribers;
	row->channels = cfg->channels;
	snprintf(row->sub_mode, sizeof row->sub_mode, "%s",
		 t->pubsub == 2 ? "ssubscribe" : cfg->psubscribe ? "psubscribe" : "subscribe");
	row->delivered = (int64_t)res->delivered;
	row->lost = (int64_t)res->lost;
	row->dup = (int64_t)res->dup;
	row->receivers = (int64_t)res->int_sum;
	row->sub_cpu_s = res->sub_cpu_s;
	row->delivered_rps = res->deliver_seconds > 0 ?
			     (double)res->delivered / res->deliver_seconds : 0;
	/* Said once a point, as it happens: a row's count alone is easy to
	 * miss. */
	if (res->lost > 0 || res->dup > 0)
		sweep_note(cfg, "%s P=%lld: of %llu messages owed to the subscribers, %llu never "
			   "arrived and %llu arrived twice; the server counted %llu receivers (a "
			   "subscriber it dropped, client-output-buffer-limit pubsub, shows as lost)",
			   t->name, (long long)row->pipeline, (unsigned long long)res->expected,
			   (unsigned long long)res->lost, (unsigned long long)res->dup,
			   (unsigned long long)res->int_sum);
	if (res->deliver.count > 0) {
		row->deliver_p50_ms = (double)hist_percentile(&res->deliver, 50) / 1e6;
		row->deliver_p99_ms = (double)hist_percentile(&res->deliver, 99) / 1e6;
		row->deliver_p999_ms = (double)hist_percentile(&res->deliver, 99.9) / 1e6;
		row->deliver_max_ms = (double)res->deliver.max / 1e6;
	}
}

void sweep_row_fill(const struct sweep *s, const struct workload_test *t,
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
	if (cfg->reconnect_every > 0) {
		row->connects = (int64_t)res->connects;
		row->connects_per_s = res->seconds > 0 ? (double)res->connects / res->seconds : 0;
		if (res->connect.count > 0) {
			row->connect_p50_ms = (double)hist_percentile(&res->connect, 50) / 1e6;
			row->connect_p99_ms = (double)hist_percentile(&res->connect, 99) / 1e6;
		}
		if (cfg->target->tls.on)
			row->tls_resumed = (int64_t)res->resumed;
	}
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
		if (res->slip.count > 0) {
			row->slip_p50_ms = (double)hist_percentile(&res->slip, 50) / 1e6;
			row->slip_p99_ms = (double)hist_percentile(&res->slip, 99) / 1e6;
		}
	}
	row->errors = (int64_t)res->errors;
	row->misses = (int64_t)res->misses;
	row->server_calls = m->st0.calls < 0 || m->st1.calls < 0 ? -1 :
			    m->st1.calls - m->st0.calls;
	/* A count that went backwards (a restart, CONFIG RESETSTAT) is no
	 * count: unknown, as where the server gives none. */
	row->server_hits = m->st0.hits < 0 || m->st1.hits < m->st0.hits ? -1 :
			   m->st1.hits - m->st0.hits;
	row->server_misses = m->st0.misses < 0 || m->st1.misses < m->st0.misses ? -1 :
			     m->st1.misses - m->st0.misses;
	row->order = p->order;
	row->run = cfg->run ? cfg->run : 1;
	row->threads = cfg->threads;
	row->data_size = (int64_t)cfg->data_size;
	row->expire = (int64_t)cfg->expire;
	row->reconnect_every = (int64_t)cfg->reconnect_every;
	if (cfg->vmax > 0) {
		/* Sized per request: the mean size, and the range. */
		row->data_size = (int64_t)((cfg->vmin + cfg->vmax) / 2);
		snprintf(row->data_size_range, sizeof row->data_size_range, "%llu..%llu",
			 (unsigned long long)cfg->vmin, (unsigned long long)cfg->vmax);
	}
	row->keyspace = (int64_t)cfg->keyspace;
	snprintf(row->mode, sizeof row->mode, "%s",
		 engine_mode_names[p->rate > 0 ? ENGINE_WINDOW : cfg->mode]);
	xstrlcpy(row->target, cfg->target->row_desc[0] ? cfg->target->row_desc : cfg->target->desc,
		 sizeof row->target);
	memcpy(row->redis_version, env->redis_version, sizeof row->redis_version);
	xstrlcpy(row->server_name, env->server.name, sizeof row->server_name);
	xstrlcpy(row->server_version, env->server.version, sizeof row->server_version);
	xstrlcpy(row->key_prefix, cfg->key_prefix ? cfg->key_prefix : "", sizeof row->key_prefix);
	xstrlcpy(row->key_dist, cfg->key_dist ? cfg->key_dist : "", sizeof row->key_dist);
	xstrlcpy(row->server_args, cfg->server_args ? cfg->server_args : "",
		 sizeof row->server_args);
	xstrlcpy(row->server_cpus, cfg->server_cpus ? cfg->server_cpus : "",
		 sizeof row->server_cpus);
	xstrlcpy(row->client_cpus, cfg->client_cpus ? cfg->client_cpus : "",
		 sizeof row->client_cpus);
	memcpy(row->server_arch, env->server_arch, sizeof row->server_arch);
	memcpy(row->server_os, env->server_os, sizeof row->server_os);
	memcpy(row->client_cpu, env->client_cpu, sizeof row->client_cpu);
	snprintf(row->client, sizeof row->client, "rsweep %s", PACKAGE_VERSION);
	row->server_cpu_s = m->st1.cpu - m->st0.cpu;
	row->client_cpu_s = m->h1.cpu_s - m->h0.cpu_s;
	row->client_nivcsw = m->h0.nivcsw >= 0 && m->h1.nivcsw >= m->h0.nivcsw ?
			     m->h1.nivcsw - m->h0.nivcsw : -1;
	row->steal_pct = host_steal_pct(&m->h0, &m->h1);
	row->drift_pct = host_drift_pct(res->slice_rps, ENGINE_SLICES);
	row->other_cpus = host_other_cpus(&m->h0, &m->h1, row->server_cpu_s, cfg->spawned ||
					  target_is_local(cfg->target));
	snprintf(row->first_error, sizeof row->first_error, "%s", res->first_error);
	if (t->nmembers > 0)
		sweep_row_mix(t, m, row);
	if (t->pubsub)
		sweep_row_pubsub(cfg, t, res, row);
}
