/* row.h: one measured point: the full row a writer builds, and the compact
 * row every reader keeps.
 *
 * struct rs_row is the CSV schema in C.  The first 15 fields are the public
 * contract (csv.c lists the column names); the rest describe where and how
 * the point was measured.  A figure a file did not carry is NAN (doubles)
 * or -1 (integers); strings are then empty.  The sweep fills one per point
 * and csv_format_row() writes it; the reader parses each line into one.
 *
 * struct rs_rec is what a reader keeps of a row: what plot, report and
 * --resume use, in a tenth of the space (a file of millions of rows must
 * fit in memory).  Strings that repeat from row to row are stored once, in
 * the pool of their struct rs_rows; figures are kept in fixed point at the
 * precision the CSV writes them, and exactly in a side table when they
 * need more. */
#ifndef RS_ROW_H
#define RS_ROW_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/strtab.h"

#define ROW_STR 128
/* Most runs of one invocation (--runs), and the largest run number a row may
 * carry. */
#define ROW_MAX_RUN 1000

struct rs_row {
	char label[ROW_STR];      /* what this sweep is called: "m1", "tcp" */
	char test[ROW_STR];       /* upper case: GET, LRANGE_100, or a custom name */
	unsigned pipeline;        /* depth: requests in flight per connection */
	int64_t clients;
	int64_t requests;         /* replies counted in the timed window */
	unsigned repeat;          /* 1..K */
	double seconds;           /* timed window, first write to last reply */
	double rps;
	double avg_ms, min_ms, p50_ms, p95_ms, p99_ms, max_ms;
	int64_t errors;           /* error replies among requests */

	double p999_ms;
	int64_t misses;           /* nil replies (a read that found nothing) */
	int64_t server_calls;     /* INFO commandstats delta of the command */
	int64_t order;            /* position in the run order, 1-based */
	int64_t threads;
	int64_t data_size;        /* -d */
	int64_t keyspace;         /* -r, 0 when keys are fixed */
	char mode[16];            /* "lockstep" or "window" */
	char target[ROW_STR];     /* unix:/path or host:port */
	char redis_version[32];
	char server_arch[32];     /* arch_bits + multiplexing + uname machine */
	char server_os[ROW_STR];
	char client_cpu[ROW_STR];
	char started_at[32];      /* ISO 8601 UTC */
	double server_cpu_s;      /* used_cpu_user+sys delta over the point */
	double client_cpu_s;      /* rsweep's getrusage delta over the point */
	char client[32];          /* what measured it: "rsweep 1.2", "redis-benchmark" */
	char first_error[ROW_STR];
	/* What explains noise in the point (host.h): */
	double steal_pct;         /* CPU time the host took, % of the machine's */
	int64_t client_nivcsw;    /* times rsweep was preempted */
	double drift_pct;         /* throughput's spread across the window's quarters */
	double other_cpus;        /* CPUs other processes kept busy (host.h) */
	/* Open loop (--rate); NAN, -1 or empty in a closed-loop row: */
	double rate_offered;      /* requests a second the schedule sent */
	int64_t rate_short;       /* 1: the achieved rate (rps) fell short of it */
	char arrivals[16];        /* "uniform" or "poisson" */
	double svc_p50_ms, svc_p99_ms, svc_p999_ms; /* service time: from the actual send */
	/* The slowest setup (connect, TLS handshake, AUTH, SELECT) of the
	 * load connections the point ran on, from when they were last
	 * opened; NAN in rows written before it was kept. */
	double connect_ms;
	/* Redis Cluster (--cluster); -1, NAN or empty otherwise: */
	int64_t redirects;        /* MOVED, ASK, TRYAGAIN, CLUSTERDOWN replies, sent again */
	int64_t masters;          /* masters the load went to */
	char busy_master[64];     /* host:port of the master with the most server CPU */
	double busy_cpu_s;        /* its CPU seconds (server_cpu_s sums every master's) */
	/* Each master's own rate, its requests over its own window:
	 * "host:port=rps;host:port=rps", in the topology's order (empty when
	 * the list would not fit). */
	char master_rps[1024];
	/* Agents (run --control --agents); -1, NAN or empty otherwise: */
	int64_t agents_ok;        /* agents whose results the row merges */
	int64_t agents_expected;  /* --agents N */
	double skew_ms;           /* the worst agent's start off the common instant */
	char agent_rps[256];      /* "ID=rps;ID=rps": each agent's own rate */
	/* The server as it names itself (target_server.h): "valkey" and
	 * "8.0.1", where redis_version says what it is compatible with;
	 * empty in rows written before they were kept. */
	char server_name[32];
	char server_version[32];
	/* --key-prefix: the prefix every key of the point had ("" without):
	 * the server held other data, and its CPU time and call counts
	 * include other clients' traffic. */
	char key_prefix[72];
	/* --runs N: which run of the invocation the point belongs to, 1..N
	 * (-1 in rows written before it was kept: one run a file). */
	int64_t run;
	/* --key-dist: how the point drew its keys, "uniform", "zipf:0.99"
	 * (keydist_format); "" with fixed keys (-r 0) and in rows written
	 * before it was kept (which drew uniformly). */
	char key_dist[64];
	/* A spawned server's extra arguments (--spawn-args; one alternative
	 * of an axis of them: "--io-threads 4"), as one line, a word that is
	 * empty or has blanks quoted; "" for a server rsweep did not start or
	 * started without them, and in rows written before it was kept. */
	char server_args[ROW_STR];
	/* The server's INFO keyspace_hits and keyspace_misses over the timed
	 * window (summed over a cluster's masters): a read that found nothing
	 * counts here even when its reply is no nil (GETBIT, HMGET's fields),
	 * which misses cannot see.  -1 when the server gives none, and in rows
	 * written before they were kept. */
	int64_t server_hits, server_misses;
	/* A mix (-t mix:get=80,set=20, --ratio): its members and weights as
	 * -t spells them, "get=80,set=20"; the requests sent of each member,
	 * "GET=80123;SET=19877"; the server's calls of each, in the same
	 * form, members that share a command (LRANGE_100, LRANGE_300) as one
	 * "LRANGE_100+LRANGE_300=N" entry.  "" for a plain test, in rows
	 * written before they were kept, and (mix_calls) where the server
	 * gives no command statistics. */
	char mix[384];
	char mix_sent[512];
	char mix_calls[640];
	/* --data-size-range: "MIN..MAX", each request's value of a size drawn
	 * uniformly between them, of random bytes (data_size is their mean);
	 * "" for values of data_size bytes of 'x', and in rows written before
	 * it was kept. */
	char data_size_range[48];
	/* --expire: the TTL in seconds the writes and prepared keys got; 0
	 * none, -1 in rows written before it was kept. */
	int64_t expire;
	/* --reconnect-every: the requests after which each connection was
	 * closed and opened again, inside the window; 0 none, -1 in rows
	 * written before it was kept.  connects: the connections opened in
	 * the window, and connects_per_s, them a second of it; -1 and NAN
	 * without churn. */
	int64_t reconnect_every;
	int64_t connects;
	double connects_per_s;
	/* With churn: the p50 and p99 of those connects' setup (connect, TLS
	 * handshake, AUTH, SELECT), ms, and, over TLS, how many of them
	 * resumed their session (--tls-resume); NAN and -1 without churn
	 * (tls_resumed also over a plain connection) and in rows written
	 * before they were kept. */
	double connect_p50_ms, connect_p99_ms;
	int64_t tls_resumed;
	/* Placement (run --cpus, cpus.h): the CPUs the spawned server and
	 * the load generator were given, as CPU lists ("1", "0"; the same
	 * list in both when they were not placed apart); "" where it is not
	 * known (a server rsweep did not start, a system that cannot tell),
	 * and in rows written before they were kept. */
	char server_cpus[64];
	char client_cpus[64];
	/* Open loop: how far each send was behind its schedule (the load
	 * generator's own lag, engine.h), p50 and p99 in ms; NAN in a
	 * closed-loop row, where the load does not measure it (agents), and
	 * in rows written before it was kept. */
	double slip_p50_ms, slip_p99_ms;
	/* --slo (slo.h): the objective the row was a step of the search for,
	 * as slo_format spells it ("p99=1ms,p999=5ms"); the step, "start"
	 * (the closed-loop probe the search starts from) or "probe" (an
	 * open-loop probe of the rate); a probe's verdict, "met", "missed",
	 * "unsure" (the interval straddles the budget) or "generator" (the
	 * generator's slip was the limit: not counted against the server);
	 * and the judged percentile (the one nearest its budget) with its
	 * 95% interval, in ms.  "" and NAN in every other row. */
	char slo[64];
	char slo_phase[16];
	char slo_verdict[16];
	double slo_ms, slo_lo_ms, slo_hi_ms;
	/* Pub/sub (-t publish --subscribers N); -1, NAN or empty otherwise:
	 * the subscribers and their channels, "subscribe" or "psubscribe";
	 * messages the subscribers received once (delivered), again (dup)
	 * and never (lost: of every message answered times the subscribers
	 * of its channel); the server's own count, the sum of PUBLISH's
	 * replies (receivers); delivered a second from the first publish to
	 * the last delivery; publish-to-delivery latency from each message's
	 * own stamp; below, what reading them cost. */
	int64_t subscribers, channels;
	char sub_mode[16];
	int64_t delivered, lost, dup, receivers;
	double delivered_rps;
	double deliver_p50_ms, deliver_p99_ms, deliver_p999_ms, deliver_max_ms;
	/* The CPU seconds of rsweep's threads that read the subscribers: near
	 * their count times the seconds from the first publish to the last
	 * delivery, the client bounded the deliveries. */
	double sub_cpu_s;
	/* Replicas (run --replica, --spawn-replicas): where the point's
	 * reads went, "masters", "replicas" or "all" (a write test's row
	 * says "masters"), "" for a run without replicas and in rows written
	 * before it was kept, which read from the masters; each replica's
	 * calls of the test's commands over the window, from its INFO
	 * commandstats, "host:port=N;host:port=N" ("" for a point that did
	 * not read from them); the most bytes a replica's offset stood
	 * behind the primary's right after the window (-1 unknown). */
	char read_from[16];
	char replica_calls[512];
	int64_t repl_lag;

	/* Where a row came from, for messages; not a column. */
	const char *src;
	unsigned line;
};

/* A row with every optional figure unknown. */
void row_init(struct rs_row *r);

/* The server a point was measured on, shared by every row that names the
 * same one (the chart footer's facts). */
struct rs_server {
	const char *target;       /* "" when unknown, as every string below */
	const char *redis_version;
	const char *server_arch;
	const char *server_name;  /* "valkey"; "" in rows of older files */
	const char *server_version;
	const char *key_prefix;   /* "" without --key-prefix */
	const char *key_dist;     /* "" with fixed keys, or in older files */
	const char *server_args;  /* a spawned server's --spawn-args; "" none */
	const char *server_cpus;  /* its placement, as CPU lists; "" unknown */
	const char *client_cpus;
};

/* What the server called itself, "valkey 8.0.1", into buf (size bytes):
 * from server_name and server_version, or for rows that lack them
 * "redis " and redis_version; "" when nothing is known.  Returns buf. */
const char *rows_server_desc(const struct rs_server *s, char *buf, size_t size);
/* rows_server_desc, then " [ARGS]" when the server was spawned with
 * arguments (server_args): "redis 7.0.15 [--appendfsync always]"; "" when
 * nothing is known.  Returns buf. */
const char *rows_server_desc_args(const struct rs_server *s, char *buf, size_t size);

/* The figures of a struct rs_rec, read with rows_fig(). */
enum row_fig {
	ROW_RPS, ROW_SECONDS, ROW_AVG_MS, ROW_P50_MS, ROW_P95_MS, ROW_P99_MS, ROW_P999_MS,
	ROW_MAX_MS, ROW_SERVER_CPU_S, ROW_CLIENT_CPU_S,
	/* What explains noise (host.h); client_nivcsw is a count. */
	ROW_STEAL_PCT, ROW_DRIFT_PCT, ROW_OTHER_CPUS, ROW_NIVCSW,
	ROW_RATE,                 /* rate_offered: NAN in a closed-loop row */
	/* Reads: nil replies (misses), the server's keyspace_hits and
	 * keyspace_misses; counts, NAN when unknown. */
	ROW_MISSES, ROW_SERVER_HITS, ROW_SERVER_MISSES,
	/* The figures few rows have (ROW_FIRST_RARE on), kept apart from the
	 * row (struct rs_rec's rare): */
	ROW_BUSY_CPU_S,           /* --cluster: the busiest master's CPU seconds */
	ROW_MASTERS,              /* --cluster: masters; NAN for a single server */
	/* Open loop: the send slip (ms); --slo: the judged percentile and
	 * its interval (ms). */
	ROW_SLIP_P50_MS, ROW_SLIP_P99_MS, ROW_SLO_MS, ROW_SLO_LO_MS, ROW_SLO_HI_MS,
	ROW_REPL_LAG,             /* replicas: bytes behind the primary; NAN unknown */
	ROW_NFIGS,
};
#define ROW_FIRST_RARE ROW_BUSY_CPU_S
#define ROW_NRARE (ROW_NFIGS - ROW_FIRST_RARE)

/* The mode and arrivals columns as the readers keep them. */
enum row_mode { ROW_MODE_NONE, ROW_MODE_LOCKSTEP, ROW_MODE_WINDOW };
enum row_arrivals { ROW_ARRIVALS_NONE, ROW_ARRIVALS_UNIFORM, ROW_ARRIVALS_POISSON };
/* Their names as the CSV writes them ("" for NONE). */
const char *row_mode_name(unsigned mode);
/* The read_from column as the readers keep it: 0 for "" (a row of a run
 * without replicas, or written before the column) and "masters" alike,
 * 1 "replicas", 2 "all".  Its name: "masters" for 0. */
const char *row_read_from_name(unsigned read_from);
const char *row_arrivals_name(unsigned arrivals);
/* The slo_phase and slo_verdict columns as the readers keep them. */
enum row_slo_phase { ROW_SLO_NONE, ROW_SLO_START, ROW_SLO_PROBE };
enum row_slo_verdict {
	ROW_SLO_UNJUDGED, ROW_SLO_MET, ROW_SLO_MISSED, ROW_SLO_UNSURE, ROW_SLO_GENERATOR,
};
/* Their names as the CSV writes them ("" for NONE and UNJUDGED). */
const char *row_slo_phase_name(unsigned phase);
const char *row_slo_verdict_name(unsigned verdict);

/* The columns most rows lack, with the names and meanings of struct
 * rs_row's: a cluster's, a mix's, sized values'.  Each is "" when the row
 * has none (-1 for the two settings); one copy serves every row that has
 * the same (a row of a single server without a mix points at a shared
 * empty one), so that a row keeps one pointer for nine. */
struct rs_extra {
	const char *busy_master;  /* --cluster: host:port of the busiest master */
	const char *master_rps;   /* --cluster: each master's rate */
	const char *mix;          /* a mix: its members and weights */
	const char *mix_sent;     /* ... the requests each member was sent */
	const char *mix_calls;    /* ... the calls the server counted */
	const char *data_size_range; /* --data-size-range: "MIN..MAX" */
	const char *slo;          /* --slo's objective; "" in other rows */
	int32_t expire;           /* --expire's TTL; -1 in rows written before it was kept */
	int32_t reconnect_every;  /* --reconnect-every; -1 in rows written before it was kept */
};

/* A row as the readers keep it.  The fields have the names and meanings of
 * struct rs_row's; strings point into the rows' pool ("" when absent) and
 * live as long as the rows.  Figures (min_ms, and the columns nothing reads
 * back, are not kept) go through rows_fig(). */
struct rs_rec {
	const char *label;
	const char *test;
	const char *client;       /* what measured it: "rsweep 0.1.0", "redis-benchmark" */
	const struct rs_extra *extra; /* the columns most rows lack; never NULL */
	const struct rs_server *server;
	const char *src;          /* file name, for messages */
	unsigned pipeline;
	unsigned repeat;
	unsigned line;            /* of src */
	int32_t clients;          /* -1 when unknown, as the integers below */
	int32_t data_size;
	uint16_t run;             /* 1..ROW_MAX_RUN; 0 when the row has no run
				   * column */
	int16_t threads;          /* at most 32767 */
	int64_t requests;
	int64_t errors;
	int64_t keyspace;
	uint32_t fig[ROW_FIRST_RARE]; /* encoded: see rows_fig() */
	uint32_t rare;            /* 1 + the index of the row's ROW_NRARE rare figures
				   * in rows->rare; 0: the row has none */
	unsigned char mode;       /* enum row_mode */
	unsigned char arrivals;   /* enum row_arrivals */
	signed char rate_short;   /* 1, 0, or -1 when unknown */
	unsigned char slo_phase;  /* enum row_slo_phase */
	unsigned char slo_verdict; /* enum row_slo_verdict */
	unsigned char read_from;  /* row_read_from_name */
	/* started_at in seconds since the epoch (row_started_time); NAN when
	 * the row has none (an import, an older file).  It also pairs the row
	 * with its histogram in the sidecar (latency.c), so that a CSV copied
	 * over another's never takes the other's histograms. */
	double started;
};

/* A started_at text, "2026-12-02T12:20:33.123456789Z" (the fraction and
 * its digits optional), in seconds since the epoch; NAN for "" or any
 * other text. */
double row_started_time(const char *started_at);

/* A growable array of compact rows and the storage they point into. */
struct rs_rows {
	struct rs_rec *v;
	size_t n, cap;
	struct strtab pool;       /* every string of the rows, and file names */
	struct strtab server_ids; /* (target, versions, arch, name) -> index in servers */
	struct rs_server **servers;
	size_t capservers;
	struct strtab extra_ids;  /* struct rs_extra's strings -> index in extras */
	struct rs_extra **extras;
	size_t capextras;
	double *wide;             /* figures fixed point cannot hold exactly */
	size_t nwide, capwide;
	uint32_t *rare;           /* the rare figures of the rows that have any,
				   * ROW_NRARE a row, encoded as struct rs_rec's */
	size_t nrare;             /* rows that have them */
	size_t caprare;           /* room, in figures */
};

/* qsort's comparator for an array of const struct rs_rec * into one rows
 * array: by point (label, test, depth), then in file order. */
int rows_point_cmp(const void *a, const void *b);

/* Append the compact form of r to rows; returns it, or NULL (err set) for
 * a figure the compact row cannot hold: clients or data_size above
 * 2147483647, threads above 32767, any of them below -1; a mode other than lockstep or window, or
 * arrivals other than uniform or poisson (empty is unknown). */
struct rs_rec *rows_add(struct rs_rows *rows, const struct rs_row *r, struct rs_err *err);
/* Figure f of rec, a row of rows: NAN when unknown. */
double rows_fig(const struct rs_rows *rows, const struct rs_rec *rec, enum row_fig f);
/* Room for more rows without moving the array again (a reader that knows
 * how many lines it holds: growing a large array by doubling copies it,
 * and touches twice the memory). */
void rows_reserve(struct rs_rows *rows, size_t more);
/* Keep name for the rows' lifetime; returns the stored copy. */
const char *rows_add_name(struct rs_rows *rows, const char *name);
/* --relabel: "[FILE:]OLD=NEW[,OLD=NEW...]" gives the rows labelled OLD the
 * label NEW (so that two files that both carry the host name can be
 * compared): with FILE, only the rows of that file (a name rows came from
 * as given, or its last components: "hostA.csv" is data/hostA.csv; the
 * longest part before a ':' that an '=' follows and that names a file,
 * so that a file's name may hold ':' or '=').
 * Fails (err set, rows unchanged) on a malformed list, a NEW the CSV's
 * readers would refuse, an OLD that labels no row (of FILE), or a FILE
 * that names two of the files. */
int rows_relabel(struct rs_rows *rows, const char *spec, struct rs_err *err);
/* rows_relabel with each of specs[0..n), in order: a later one reads the
 * labels the earlier ones gave.  Stops at the first that fails. */
int rows_relabel_list(struct rs_rows *rows, char *const *specs, size_t n, struct rs_err *err);
/* --kind masters: replace each row by one row per master of its
 * master_rps, labelled "host:port" ("LABEL host:port" when the rows have
 * several labels), its rps the master's; every other figure is the
 * row's.  Fails (err "FILE:LINE: ...", rows unchanged) for a row without
 * master_rps or with one that does not read as host:port=rps;... */
int rows_by_master(struct rs_rows *rows, struct rs_err *err);
/* --resume: whether the rows of label were measured on the server now
 * answering, which calls itself name version (target_server.h) and
 * publishes redis_version: a series is one server's, and Redis and Valkey,
 * or two versions of one, are two.  Rows that do not name their server
 * (older files) are compared by redis_version; rows with no server facts
 * at all (imports), and a server that gives none, are not compared.
 * Returns 0, or -1 with err "FILE:LINE: label 'L' was measured on redis
 * 7.0.15, this run is on valkey 8.0.1: ...". */
int rows_check_server(const struct rs_rows *rows, const char *label, const char *name,
		      const char *version, const char *redis_version, struct rs_err *err);
/* Release rows (NULL is allowed); a zeroed struct rs_rows is empty. */
void rows_free(struct rs_rows *rows);

#endif
