/* row_way.c: what makes a measured point another point (row_way.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "results/row_way.h"

/* A setting compared here: whether rec's is want's, each as text. */
typedef int (*row_way_cmp)(const struct rs_rows *rows, const struct rs_rec *rec,
			   const struct rs_row *want, char *was, char *now, size_t size);

static int row_way_expire(const struct rs_rows *rows, const struct rs_rec *rec,
			  const struct rs_row *want, char *was, char *now, size_t size)
{
	/* Rows from before the column were written without a TTL. */
	long long a = rec->extra->expire > 0 ? rec->extra->expire : 0, b = want->expire > 0 ? want->expire : 0;

	(void)rows;
	snprintf(was, size, "%lld", a);
	snprintf(now, size, "%lld", b);
	return a == b;
}

static int row_way_churn(const struct rs_rows *rows, const struct rs_rec *rec,
			 const struct rs_row *want, char *was, char *now, size_t size)
{
	/* Rows from before the column kept their connections. */
	long long a = rec->extra->reconnect_every > 0 ? rec->extra->reconnect_every : 0;
	long long b = want->reconnect_every > 0 ? want->reconnect_every : 0;

	(void)rows;
	snprintf(was, size, "%lld", a);
	snprintf(now, size, "%lld", b);
	return a == b;
}

static int row_way_prefix(const struct rs_rows *rows, const struct rs_rec *rec,
			  const struct rs_row *want, char *was, char *now, size_t size)
{
	/* The prefix's value is any run's own (auto makes one per run); what
	 * it changes is the measurement's: a server holding other data,
	 * and deletes in place of a flush. */
	int a = rec->server->key_prefix[0] != '\0', b = want->key_prefix[0] != '\0';

	(void)rows;
	snprintf(was, size, "%s", a ? rec->server->key_prefix : "none (flushed)");
	snprintf(now, size, "%s", b ? want->key_prefix : "none (flushed)");
	return a == b;
}

static int row_way_range(const struct rs_rows *rows, const struct rs_rec *rec,
			 const struct rs_row *want, char *was, char *now, size_t size)
{
	const char *a = rec->extra->data_size_range;

	(void)rows;
	snprintf(was, size, "%s", a[0] ? a : "none");
	snprintf(now, size, "%s", want->data_size_range[0] ? want->data_size_range : "none");
	return strcmp(a, want->data_size_range) == 0;
}

static int row_way_read_from(const struct rs_rows *rows, const struct rs_rec *rec,
			     const struct rs_row *want, char *was, char *now, size_t size)
{
	/* Rows from before the column, and of runs without replicas, read
	 * from the masters. */
	const char *a = row_read_from_name(rec->read_from);
	const char *b = want->read_from[0] ? want->read_from : "masters";

	(void)rows;
	snprintf(was, size, "%s", a);
	snprintf(now, size, "%s", b);
	return strcmp(a, b) == 0;
}

/* Every column of csv.c's schema, in its order. */
static const struct row_way_col {
	const char *name;
	enum row_way_kind kind;
	const char *option;       /* a setting's option, for messages */
	row_way_cmp same;         /* a setting compared here; NULL: by run_check_resume */
} row_way_cols[] = {
	{ "label", ROW_WAY_POINT, NULL, NULL },
	{ "test", ROW_WAY_POINT, NULL, NULL },
	{ "pipeline", ROW_WAY_POINT, NULL, NULL },
	{ "clients", ROW_WAY_SETTING, "-c", NULL },
	/* -n is checked by run_check_resume; the count is the window's. */
	{ "requests", ROW_WAY_RESULT, NULL, NULL },
	{ "repeat", ROW_WAY_POINT, NULL, NULL },
	{ "seconds", ROW_WAY_RESULT, NULL, NULL },
	{ "rps", ROW_WAY_RESULT, NULL, NULL },
	{ "avg_ms", ROW_WAY_RESULT, NULL, NULL },
	{ "min_ms", ROW_WAY_RESULT, NULL, NULL },
	{ "p50_ms", ROW_WAY_RESULT, NULL, NULL },
	{ "p95_ms", ROW_WAY_RESULT, NULL, NULL },
	{ "p99_ms", ROW_WAY_RESULT, NULL, NULL },
	{ "max_ms", ROW_WAY_RESULT, NULL, NULL },
	{ "errors", ROW_WAY_RESULT, NULL, NULL },
	{ "p999_ms", ROW_WAY_RESULT, NULL, NULL },
	{ "misses", ROW_WAY_RESULT, NULL, NULL },
	{ "server_calls", ROW_WAY_RESULT, NULL, NULL },
	{ "order", ROW_WAY_FACT, NULL, NULL },
	{ "threads", ROW_WAY_SETTING, "--threads", NULL },
	{ "data_size", ROW_WAY_SETTING, "-d", NULL },
	{ "keyspace", ROW_WAY_SETTING, "-r", NULL },
	{ "mode", ROW_WAY_POINT, NULL, NULL },
	{ "target", ROW_WAY_SETTING, "the target", NULL },
	{ "redis_version", ROW_WAY_FACT, NULL, NULL },
	{ "server_arch", ROW_WAY_FACT, NULL, NULL },
	{ "server_os", ROW_WAY_FACT, NULL, NULL },
	{ "client_cpu", ROW_WAY_FACT, NULL, NULL },
	{ "started_at", ROW_WAY_FACT, NULL, NULL },
	{ "server_cpu_s", ROW_WAY_RESULT, NULL, NULL },
	{ "client_cpu_s", ROW_WAY_RESULT, NULL, NULL },
	{ "steal_pct", ROW_WAY_RESULT, NULL, NULL },
	{ "client_nivcsw", ROW_WAY_RESULT, NULL, NULL },
	{ "drift_pct", ROW_WAY_RESULT, NULL, NULL },
	{ "other_cpus", ROW_WAY_RESULT, NULL, NULL },
	{ "client", ROW_WAY_FACT, NULL, NULL },
	{ "rate_offered", ROW_WAY_POINT, NULL, NULL },
	{ "rate_short", ROW_WAY_RESULT, NULL, NULL },
	{ "arrivals", ROW_WAY_POINT, NULL, NULL },
	{ "svc_p50_ms", ROW_WAY_RESULT, NULL, NULL },
	{ "svc_p99_ms", ROW_WAY_RESULT, NULL, NULL },
	{ "svc_p999_ms", ROW_WAY_RESULT, NULL, NULL },
	{ "connect_ms", ROW_WAY_RESULT, NULL, NULL },
	{ "redirects", ROW_WAY_RESULT, NULL, NULL },
	{ "masters", ROW_WAY_SETTING, "--cluster", NULL },
	{ "busy_master", ROW_WAY_RESULT, NULL, NULL },
	{ "busy_cpu_s", ROW_WAY_RESULT, NULL, NULL },
	{ "master_rps", ROW_WAY_RESULT, NULL, NULL },
	{ "agents_ok", ROW_WAY_RESULT, NULL, NULL },
	{ "agents_expected", ROW_WAY_FACT, NULL, NULL },
	{ "skew_ms", ROW_WAY_RESULT, NULL, NULL },
	{ "agent_rps", ROW_WAY_RESULT, NULL, NULL },
	{ "server_name", ROW_WAY_FACT, NULL, NULL },
	{ "server_version", ROW_WAY_FACT, NULL, NULL },
	{ "key_prefix", ROW_WAY_SETTING, "--key-prefix", row_way_prefix },
	{ "run", ROW_WAY_POINT, NULL, NULL },
	{ "key_dist", ROW_WAY_SETTING, "--key-dist", NULL },
	/* An axis of them is a point's (sweep_plan_row_is). */
	{ "server_args", ROW_WAY_POINT, NULL, NULL },
	{ "server_hits", ROW_WAY_RESULT, NULL, NULL },
	{ "server_misses", ROW_WAY_RESULT, NULL, NULL },
	/* A mix's members and weights are in its test name. */
	{ "mix", ROW_WAY_POINT, NULL, NULL },
	{ "mix_sent", ROW_WAY_RESULT, NULL, NULL },
	{ "mix_calls", ROW_WAY_RESULT, NULL, NULL },
	{ "data_size_range", ROW_WAY_SETTING, "--data-size-range", row_way_range },
	{ "expire", ROW_WAY_SETTING, "--expire", row_way_expire },
	/* Where the run placed its servers and itself (--cpus): the report
	 * says when the labels' placements differ. */
	{ "server_cpus", ROW_WAY_FACT, NULL, NULL },
	{ "client_cpus", ROW_WAY_FACT, NULL, NULL },
	{ "slip_p50_ms", ROW_WAY_RESULT, NULL, NULL },
	{ "slip_p99_ms", ROW_WAY_RESULT, NULL, NULL },
	/* A search's rows are points of their own (slo.h). */
	{ "slo", ROW_WAY_POINT, NULL, NULL },
	{ "slo_phase", ROW_WAY_POINT, NULL, NULL },
	{ "slo_verdict", ROW_WAY_RESULT, NULL, NULL },
	{ "slo_ms", ROW_WAY_RESULT, NULL, NULL },
	{ "slo_lo_ms", ROW_WAY_RESULT, NULL, NULL },
	{ "slo_hi_ms", ROW_WAY_RESULT, NULL, NULL },
	/* How pub/sub was measured: --resume refuses -t publish and spublish
	 * (cmd_run_plan.c) until the readers keep them, so that no row of other
	 * subscribers pools. */
	{ "subscribers", ROW_WAY_FACT, NULL, NULL },
	{ "channels", ROW_WAY_FACT, NULL, NULL },
	{ "sub_mode", ROW_WAY_FACT, NULL, NULL },
	{ "delivered", ROW_WAY_RESULT, NULL, NULL },
	{ "delivered_rps", ROW_WAY_RESULT, NULL, NULL },
	{ "lost", ROW_WAY_RESULT, NULL, NULL },
	{ "dup", ROW_WAY_RESULT, NULL, NULL },
	{ "receivers", ROW_WAY_RESULT, NULL, NULL },
	{ "deliver_p50_ms", ROW_WAY_RESULT, NULL, NULL },
	{ "deliver_p99_ms", ROW_WAY_RESULT, NULL, NULL },
	{ "deliver_p999_ms", ROW_WAY_RESULT, NULL, NULL },
	{ "deliver_max_ms", ROW_WAY_RESULT, NULL, NULL },
	{ "sub_cpu_s", ROW_WAY_RESULT, NULL, NULL },
	{ "reconnect_every", ROW_WAY_SETTING, "--reconnect-every", row_way_churn },
	{ "connects", ROW_WAY_RESULT, NULL, NULL },
	{ "connects_per_s", ROW_WAY_RESULT, NULL, NULL },
	/* Where the reads went: a setting of the point's (row_way_read_from). */
	{ "read_from", ROW_WAY_SETTING, "--read-from", row_way_read_from },
	{ "replica_calls", ROW_WAY_RESULT, NULL, NULL },
	{ "repl_lag", ROW_WAY_RESULT, NULL, NULL },
	/* Churn's connect times, and the TLS sessions resumed: what the
	 * connects cost, results (--tls-resume is not kept as a setting). */
	{ "connect_p50_ms", ROW_WAY_RESULT, NULL, NULL },
	{ "connect_p99_ms", ROW_WAY_RESULT, NULL, NULL },
	{ "tls_resumed", ROW_WAY_RESULT, NULL, NULL },
	{ "first_error", ROW_WAY_RESULT, NULL, NULL },
};
#define ROW_WAY_NCOLS (sizeof row_way_cols / sizeof row_way_cols[0])

static const struct row_way_col *row_way_find(const char *col)
{
	for (size_t i = 0; i < ROW_WAY_NCOLS; i++)
		if (strcmp(row_way_cols[i].name, col) == 0)
			return &row_way_cols[i];
	return NULL;
}

int row_way_kind(const char *col)
{
	const struct row_way_col *c = row_way_find(col);

	return c != NULL ? (int)c->kind : -1;
}

const char *row_way_option(const char *col)
{
	const struct row_way_col *c = row_way_find(col);

	return c != NULL ? c->option : NULL;
}

const char *row_way_differs(const struct rs_rows *rows, const struct rs_rec *rec,
			    const struct rs_row *want, char *was, char *now, size_t size)
{
	for (size_t i = 0; i < ROW_WAY_NCOLS; i++) {
		const struct row_way_col *c = &row_way_cols[i];

		if (c->kind == ROW_WAY_SETTING && c->same != NULL &&
		    !c->same(rows, rec, want, was, now, size))
			return c->name;
	}
	return NULL;
}
