/* import.h: parsers of what redis-benchmark and valkey-benchmark print, so
 * that results people already have become rsweep rows.
 *
 * Read, in any mix, line by line:
 *   --csv  "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms",
 *          "p95_latency_ms","p99_latency_ms","max_latency_ms" (7.x), or the
 *          older "test","rps" form, with or without its header line;
 *   -q     "SET: 99403.58 requests per second, p50=0.255 msec" (6.2+) or
 *          "SET: 99403.58 requests per second" (older), each possibly
 *          preceded on the same line by carriage-return progress output
 *          ("SET: rps=0.0 (overall: nan) avg_msec=nan (overall: nan)\r");
 *   full   the default output: a "====== SET ======" block with "N requests
 *          completed in S seconds", "N parallel clients", "N bytes payload",
 *          then either (6.2+) "throughput summary: N requests per second"
 *          and a "latency summary (msec):" table of avg min p50 p95 p99 max,
 *          or (6.0 and older) a percentile list ended by "N requests per
 *          second" (its whole-millisecond buckets are not latencies: none is
 *          taken from it).
 * A file may hold several runs one after another (a shell loop): a test
 * title seen again in the current run, a second CSV header or a new
 * redis-benchmark command line starts the next run.
 * Lines that are plainly not results (a shell prompt, the command line, the
 * output of time(1), script(1)'s first and last lines, "OK" from redis-cli,
 * NAME=VALUE banners, redis-benchmark's version and warnings) are counted
 * and skipped; a command line's -P (1 when it has none), -c, -n and -d,
 * and its -h, -p and -s as a target, are kept for the runs that follow it.
 * valkey-benchmark prints the same forms (import_valkey.c reads what it
 * adds: its name on the command and version lines, and the "RPS Summary:"
 * block of a run limited by --rps).
 * Pure parsers: a buffer in, points out; no I/O. */
#ifndef RS_IMPORT_H
#define RS_IMPORT_H

#include <stddef.h>

#include "base/err.h"
#include "results/row.h"

/* IMPORT_VALKEY is no form: the input is valkey-benchmark's, each line read
 * as the form it has (as IMPORT_AUTO), and its runs are valkey-benchmark's
 * where the capture does not name the program. */
enum import_kind { IMPORT_AUTO, IMPORT_CSV, IMPORT_QUIET, IMPORT_MEMTIER, IMPORT_VALKEY,
		   IMPORT_FULL };
/* --from's names, in enum order; the full output is only ever detected. */
static const char *const import_kind_names[] = { "auto", "csv", "quiet", "memtier", "valkey",
						 NULL };

/* One test's result as redis-benchmark printed it.  Unknown figures are NAN. */
struct import_point {
	char test[ROW_STR];       /* normalised: GET, MSET, LPUSH, LRANGE_100 */
	unsigned line;            /* 1-based line in the input */
	unsigned run;             /* index into import_result.runs */
	double rps;
	double avg_ms, min_ms, p50_ms, p95_ms, p99_ms, max_ms;
	double seconds;           /* the full output's "completed in S seconds" */
	int64_t requests;         /* the full output's figures; -1 when not shown */
	int64_t clients;
	int64_t data_size;
	/* valkey-benchmark --rps: its "RPS Summary:" block, the target and
	 * the avg, min, p50, p95, p99 and max of the rate it sampled every
	 * 250 ms (requests a second, not latencies); NAN when not shown. */
	double target_rps;
	double rps_dist[6];
};

/* One redis-benchmark run of the input and what the capture shows of how it
 * was started (a pasted command line); 0 or -1 when it does not show. */
/* What redis-benchmark (and valkey-benchmark) measure with when their
 * command line names no -c, -n or -d: a capture of such a line measured
 * that, so imported rows say it and name their series as live ones do. */
#define IMPORT_DEFAULT_CLIENTS 50
#define IMPORT_DEFAULT_REQUESTS 100000
#define IMPORT_DEFAULT_DATA_SIZE 3
enum { IMPORT_DEF_CLIENTS = 1, IMPORT_DEF_REQUESTS = 2, IMPORT_DEF_DATA_SIZE = 4 };

struct import_run {
	unsigned line;            /* of its first result */
	unsigned cmd_line;        /* of the command line it came from, 0 if none */
	unsigned pipeline;        /* -P on that command line, 0 if not shown;
				   * 1 for a command line without -P */
	int pipeline_implied;     /* 1: that line has no -P (redis-benchmark's
				   * default depth, 1) */
	int64_t clients, requests, data_size; /* -c, -n, -d there, -1 if not shown;
				   * the program's own default where its
				   * command line is seen but silent */
	unsigned defaulted;       /* IMPORT_DEF_* bits: which of the three are
				   * the program's defaults, not shown */
	char version[16];         /* "7.0.15" when the capture shows it, else "" */
	char program[20];         /* "redis-benchmark" or "valkey-benchmark" as its
				   * command or version line names it, or the
				   * one IMPORT_VALKEY gives; "" when not shown */
	char target[ROW_STR];     /* its -h, -p, -s as the target column says
				   * them ("127.0.0.1:6379", "unix:/tmp/r.sock"),
				   * or "" when not shown */
};

/* A line that could not be read (kept only with skip_bad). */
struct import_bad {
	unsigned line;
	char reason[200];
};

struct import_result {
	enum import_kind kind;    /* what the input was (never IMPORT_AUTO on success) */
	struct import_point *v;   /* in input order; owned */
	size_t n;
	struct import_bad *bad;   /* owned */
	size_t nbad;
	struct import_run *runs;  /* owned; every run holds at least one point */
	size_t nruns;
	size_t nskipped;          /* lines recognised as not results */
	unsigned skip_line;       /* the first of them */
	char skip_text[64];       /* and its start */
	size_t cap, capbad, capruns; /* allocated room of v, bad, runs */
};

/* Parse buf[0..len) named name (for messages) as kind (IMPORT_AUTO: each
 * line as the form it has; IMPORT_CSV or IMPORT_QUIET: only that form;
 * IMPORT_FULL: only the default output; IMPORT_VALKEY: as IMPORT_AUTO, of
 * valkey-benchmark).  out->kind is the form of the first
 * result.  Blank lines are ignored, lines that are not results skipped and
 * counted.  A line that cannot be read fails
 * the parse with "name:line: reason", or with skip_bad is listed in
 * out->bad and skipped.  Input without a single result fails too.  On
 * failure out is empty; on success release it with import_result_free(). */
int import_parse(const char *buf, size_t len, const char *name, enum import_kind kind,
		 int skip_bad, struct import_result *out, struct rs_err *err);
void import_result_free(struct import_result *r);

/* redis-benchmark's test title title[0..n) as an rsweep test name into out:
 * a trailing " (...)" is dropped ("MSET (10 keys)" -> "MSET", "LPUSH
 * (needed to benchmark LRANGE)" -> "LPUSH") and a one-word name is upper
 * cased; a custom command ("set foo bar") is kept as it is.  Returns 0, or
 * -1 (err says why) for an empty, too long or unprintable title. */
int import_test_name(const char *title, size_t n, char *out, size_t size, struct rs_err *err);

/* ---- memtier_benchmark's --json-out-file (import_memtier.c) ----
 *
 * The rows of one memtier JSON file: one per command member of a results
 * section ("Gets" is GET, "Sets" SET, "Lpushs" LPUSH: memtier's name less
 * its "s", upper cased), members that counted nothing left out, "Totals"
 * never a row (it is the members' sum).  Which sections: each "RUN #K
 * RESULTS" (--print-all-runs) as repeat K; else "ALL STATS"; else (several
 * runs without --print-all-runs) "AGGREGATED AVERAGE RESULTS (N runs)",
 * memtier's average of the runs.  "BEST RUN" and "WORST RUN" are copies of
 * runs, never read. */
struct import_memtier {
	struct rs_row *v;         /* label empty, client "memtier_benchmark"; owned */
	size_t n, cap;
	char section[64];         /* the section read ("RUN #1 RESULTS" for the runs) */
	unsigned nruns;           /* "RUN #K RESULTS" sections read; 0 for none */
	int aggregate;            /* rows are memtier's average of nruns_avg runs */
	unsigned nruns_avg;
	int mixed;                /* commands ran together in one run: each rps a share */
	char ratio[32];           /* the configuration's "ratio" ("1:1"), or "" */
	size_t nempty;            /* members left out: they counted nothing */
	size_t ndocs;             /* documents read (JSON Lines hold several) */
};

/* Whether buf[0..len) is JSON text (its first byte past white space is
 * '{'): what redis-benchmark never prints. */
int import_is_json(const char *buf, size_t len);
/* Parse buf[0..len), named name in messages, as memtier_benchmark's JSON.
 * Returns 0 with at least one row in out (release with
 * import_memtier_free), or -1 with err "name:line: reason" (bad JSON, no
 * configuration or pipeline, a figure of the wrong type, no results
 * section or no command in it that counted anything) and out empty. */
int import_memtier_parse(const char *buf, size_t len, const char *name,
			 struct import_memtier *out, struct rs_err *err);
void import_memtier_free(struct import_memtier *m);

#endif
