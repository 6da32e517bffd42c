/* csv.c: the results file's schema: its columns, in the order rsweep
 * writes them, each with its type and place in a row; the writer
 * (csv_write.c) and the reader (csv_read.c) both go by it. */
#include "config.h"

#include <stddef.h>

#include "base/sbuf.h"
#include "results/csv.h"
#include "results/csv_int.h"

#define COL_S(n, f) { #n, CT_STR, offsetof(struct rs_row, f), sizeof(((struct rs_row *)0)->f), 0, 0 }
#define COL_U(n, f) { #n, CT_UINT, offsetof(struct rs_row, f), 0, 0, 0 }
#define COL_I(n, f) { #n, CT_I64, offsetof(struct rs_row, f), 0, 0, 0 }
#define COL_D(n, f, p) { #n, CT_DBL, offsetof(struct rs_row, f), 0, p, 0 }

/* The schema, in the order rsweep writes it.  The first 15 are the contract
 * every later command and every user script relies on: never reorder them. */
const struct csv_col csv_cols[] = {
	{ "label", CT_STR, offsetof(struct rs_row, label), ROW_STR, 0, 1 },
	{ "test", CT_STR, offsetof(struct rs_row, test), ROW_STR, 0, 1 },
	{ "pipeline", CT_UINT, offsetof(struct rs_row, pipeline), 0, 0, 1 },
	COL_I(clients, clients),
	COL_I(requests, requests),
	COL_U(repeat, repeat),
	COL_D(seconds, seconds, 6),
	{ "rps", CT_DBL, offsetof(struct rs_row, rps), 0, 2, 1 },
	COL_D(avg_ms, avg_ms, 4),
	COL_D(min_ms, min_ms, 4),
	COL_D(p50_ms, p50_ms, 4),
	COL_D(p95_ms, p95_ms, 4),
	COL_D(p99_ms, p99_ms, 4),
	COL_D(max_ms, max_ms, 4),
	COL_I(errors, errors),
	/* Everything below may grow; readers find columns by name. */
	COL_D(p999_ms, p999_ms, 4),
	COL_I(misses, misses),
	COL_I(server_calls, server_calls),
	COL_I(order, order),
	COL_I(threads, threads),
	COL_I(data_size, data_size),
	COL_I(keyspace, keyspace),
	COL_S(mode, mode),
	COL_S(target, target),
	COL_S(redis_version, redis_version),
	COL_S(server_arch, server_arch),
	COL_S(server_os, server_os),
	COL_S(client_cpu, client_cpu),
	COL_S(started_at, started_at),
	COL_D(server_cpu_s, server_cpu_s, 6),
	COL_D(client_cpu_s, client_cpu_s, 6),
	COL_D(steal_pct, steal_pct, 2),
	COL_I(client_nivcsw, client_nivcsw),
	COL_D(drift_pct, drift_pct, 1),
	COL_D(other_cpus, other_cpus, 2),
	/* Clients differ by 2-3x at shallow depths: a comparison must know. */
	COL_S(client, client),
	/* Open loop (--rate): empty in closed-loop rows. */
	COL_D(rate_offered, rate_offered, 2),
	COL_I(rate_short, rate_short),
	COL_S(arrivals, arrivals),
	COL_D(svc_p50_ms, svc_p50_ms, 4),
	COL_D(svc_p99_ms, svc_p99_ms, 4),
	COL_D(svc_p999_ms, svc_p999_ms, 4),
	/* TLS handshakes are timed apart from the window. */
	COL_D(connect_ms, connect_ms, 3),
	/* Redis Cluster (--cluster): empty for a single server. */
	COL_I(redirects, redirects),
	COL_I(masters, masters),
	COL_S(busy_master, busy_master),
	COL_D(busy_cpu_s, busy_cpu_s, 6),
	COL_S(master_rps, master_rps),
	/* Agents (--control --agents): empty for a load from rsweep run itself. */
	COL_I(agents_ok, agents_ok),
	COL_I(agents_expected, agents_expected),
	COL_D(skew_ms, skew_ms, 3),
	COL_S(agent_rps, agent_rps),
	/* The server as it names itself: redis_version is, for most servers
	 * other than Redis, a compatibility claim (target_server.h). */
	COL_S(server_name, server_name),
	COL_S(server_version, server_version),
	/* --key-prefix: the server held other data (row.h). */
	COL_S(key_prefix, key_prefix),
	/* --runs: runs are a level of the evidence (analysis.h). */
	COL_I(run, run),
	/* --key-dist: how the point drew its keys (row.h). */
	COL_S(key_dist, key_dist),
	/* Axes of server settings: a spawned server's --spawn-args (row.h). */
	COL_S(server_args, server_args),
	/* Reads that found nothing, as the server counts them (row.h). */
	COL_I(server_hits, server_hits),
	COL_I(server_misses, server_misses),
	/* Mixes: each member's share, sent and counted (row.h). */
	COL_S(mix, mix),
	COL_S(mix_sent, mix_sent),
	COL_S(mix_calls, mix_calls),
	/* Values sized per request (row.h). */
	COL_S(data_size_range, data_size_range),
	/* TTLs (row.h). */
	COL_I(expire, expire),
	/* Placement of a spawned server and the load generator (row.h). */
	COL_S(server_cpus, server_cpus),
	COL_S(client_cpus, client_cpus),
	/* The generator's own lag (row.h), and --slo's search (slo.h). */
	COL_D(slip_p50_ms, slip_p50_ms, 4),
	COL_D(slip_p99_ms, slip_p99_ms, 4),
	COL_S(slo, slo),
	COL_S(slo_phase, slo_phase),
	COL_S(slo_verdict, slo_verdict),
	COL_D(slo_ms, slo_ms, 4),
	COL_D(slo_lo_ms, slo_lo_ms, 4),
	COL_D(slo_hi_ms, slo_hi_ms, 4),
	/* Pub/sub with subscribers (row.h). */
	COL_I(subscribers, subscribers),
	COL_I(channels, channels),
	COL_S(sub_mode, sub_mode),
	COL_I(delivered, delivered),
	COL_D(delivered_rps, delivered_rps, 2),
	COL_I(lost, lost),
	COL_I(dup, dup),
	COL_I(receivers, receivers),
	COL_D(deliver_p50_ms, deliver_p50_ms, 4),
	COL_D(deliver_p99_ms, deliver_p99_ms, 4),
	COL_D(deliver_p999_ms, deliver_p999_ms, 4),
	COL_D(deliver_max_ms, deliver_max_ms, 4),
	COL_D(sub_cpu_s, sub_cpu_s, 6),
	/* Connection churn (row.h). */
	COL_I(reconnect_every, reconnect_every),
	COL_I(connects, connects),
	COL_D(connects_per_s, connects_per_s, 1),
	/* Reads from replicas: where they went, each replica's calls, the lag (row.h). */
	COL_S(read_from, read_from),
	COL_S(replica_calls, replica_calls),
	COL_I(repl_lag, repl_lag),
	/* Connection churn: each connect's setup, TLS sessions resumed (row.h). */
	COL_D(connect_p50_ms, connect_p50_ms, 4),
	COL_D(connect_p99_ms, connect_p99_ms, 4),
	COL_I(tls_resumed, tls_resumed),
	/* Last, and quoted when it holds text (csv_format_row): a row a crash
	 * cut short inside it never reads as whole. */
	COL_S(first_error, first_error),
};
#define CSV_NCOLS (sizeof csv_cols / sizeof csv_cols[0])

size_t csv_ncols(void)
{
	return CSV_NCOLS;
}

const char *csv_col_name(size_t c)
{
	return csv_cols[c].name;
}

const char *csv_header(void)
{
	static char hdr[1024];

	if (hdr[0] == '\0') {
		struct sbuf b;

		sbuf_fixed(&b, hdr, sizeof hdr);
		for (size_t i = 0; i < CSV_NCOLS; i++)
			sbuf_item(&b, ",", "%s", csv_cols[i].name);
		sbuf_add(&b, "\n", 1);
	}
	return hdr;
}
