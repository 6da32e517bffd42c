/* export.h: results in the formats of the tools around rsweep, so that
 * their dashboards, plotters and A/B tools read rsweep's sweeps.
 *
 * The writers take rows already read (csv.h) and their histograms
 * (latency.h), and write to a FILE *; they never touch stdout, sockets or
 * files by name.  Each returns 0, or -1 with err naming the row's file and
 * line and the problem; what went to fp before a failure is for the caller
 * to throw away (outfile.h). */
#ifndef RS_EXPORT_H
#define RS_EXPORT_H

#include <stdio.h>

#include "base/err.h"
#include "results/hist.h"
#include "analysis/latency.h"
#include "results/row.h"
#include "results/runenv.h"
#include "base/sbuf.h"

enum export_format { EXPORT_HGRM, EXPORT_BENCHSTAT, EXPORT_HLOG, EXPORT_MEMTIER,
		     EXPORT_VALKEY_METRICS };
/* --format's names, in enum order. */
static const char *const export_format_names[] = { "hgrm", "benchstat", "hlog", "memtier-json",
							    "valkey-metrics", NULL };

/* Go's benchmark format (golang.org/x/perf/benchfmt): the unit metadata
 * line "Unit rps better=higher", then one line per row,
 * "BenchmarkTEST/label=L/P=D 1 NS ns/op RPS rps AVG avg-ms ...", so that
 * benchstat -col /label compares the labels.  A label or test holding
 * white space or '/', or a test starting with a lower-case letter, cannot
 * be a name's part: refused with the row's file and line.
 *
 * With envs (the rows' environment records, runenv.h; NULL: none), the
 * environment of each row's run goes before it as benchfmt configuration
 * lines, "cpu: ...", "cores: 8", "governor: performance", "server: redis
 * 7.0.15", "io-threads: 1", "appendfsync: everysec" and the like, written
 * where it changes from the previous row's (benchfmt's configuration holds
 * until a line changes it; "key:" with no value takes a key out), so each
 * label's block carries its own machine and server; the rows are then
 * grouped by environment, in the order each first appears (file order
 * within one: an interleaved run's servers get their lines once each).  Only settings go
 * there, never what differs from run to run (the load, the start, the
 * command) nor the target: benchstat tells results apart by every key. */
int export_benchstat(FILE *fp, const struct rs_rows *rows, const struct runenv_set *envs,
		     struct rs_err *err);

/* HdrHistogram's percentile distribution text, one block per point (label,
 * test, depth: its repeats' histograms merged), in ms.  Every row must have
 * its histogram (the sidecar FILE.csv.hist): one without fails. */
int export_hgrm(FILE *fp, const struct rs_rows *rows, const struct latency_set *ls,
		struct rs_err *err);

/* HdrHistogram's interval log (export_hlog.c): a line a row, in start
 * order, "Tag=LABEL/TEST/P=D[/rate=R],START,SECONDS,MAX_MS,HISTFAAA...",
 * START in seconds from the first row's start (the log's BaseTime), the
 * histogram in HdrHistogram's V2 compressed encoding with rsweep's counts
 * exactly (ns, 2 significant digits).  Every row must have its histogram;
 * a label or test with a comma or a blank cannot be a tag: refused with
 * the row's file and line. */
int export_hlog(FILE *fp, const struct rs_rows *rows, const struct latency_set *ls,
		struct rs_err *err);
/* memtier_benchmark's --json-out-file (export_memtier.c), one document a
 * line (JSON Lines), one document per point (label, test, depth), in
 * point order.  Each has "ALL STATS": the point's rows merged (Count the
 * requests, Ops/sec requests over the timed seconds, the hits, misses and
 * bytes likewise, Average Latency weighted by requests, the maximum, and
 * min and percentiles from the merged histograms when every row has one),
 * so that $."ALL STATS".Totals."Ops/sec" reads every point.  With several
 * rows (repeats, runs) memtier's --run-count --print-all-runs sections
 * follow it: "RUN #K RESULTS" per row by run and repeat, "BEST RUN
 * RESULTS" and "WORST RUN RESULTS" (most and least rps), "AGGREGATED
 * AVERAGE RESULTS (K runs)" (counts summed, rates and average latencies
 * averaged, the rest as "ALL STATS").  A section holds the test's member
 * ("Gets" for GET), or for a mix one member per command it sent (its
 * requests and their rate, latencies null: rsweep times the mix whole),
 * and "Totals", the test's figures.  Hits/sec and Misses/sec are the
 * server's keyspace counts (a GET's nil replies without them), KB/sec the
 * bytes of the requests sent (as rsweep formats the test: workload.h);
 * what is not known is null.  "configuration" has memtier's keys and
 * ratio ("S:G": GET, SET, a mix of the two), and rsweep's label, test,
 * mix, client and target (whose password the input pipeline took out).
 * ls may be NULL.  Never fails. */
int export_memtier(FILE *fp, const struct rs_rows *rows, const struct latency_set *ls,
		   struct rs_err *err);
/* Where export_memtier_each writes a point: open returns the FILE for the
 * point whose first row is first (NULL: failed, err set), close finishes
 * it (0, or -1 with err set: the export stops). */
struct export_sink {
	FILE *(*open)(void *ud, const struct rs_rec *first, struct rs_err *err);
	int (*close)(void *ud, FILE *fp, struct rs_err *err);
	void *ud;
};
/* export_memtier's documents, each to fp, or with sink to the FILE its
 * open gives (--split DIR: a file a point).  Returns 0, or -1 with the
 * sink's err. */
int export_memtier_each(FILE *fp, const struct rs_rows *rows, const struct latency_set *ls,
			const struct export_sink *sink, struct rs_err *err);
/* The file name of the point whose row is r, appended to b:
 * "LABEL+TEST+PDEPTH.json", each of label and test with any byte but
 * A-Z a-z 0-9 _ - and a '.' not in front written %XX, so that names are
 * unique per point and none is hidden or a directory's. */
void export_memtier_file_name(const struct rs_rec *r, struct sbuf *b);
/* valkey-perf-benchmark's metrics.json (export_valkey.c): a JSON list of
 * one record per row, in point order (label, test, depth, then file order:
 * a point's repeats are records of their own, as valkey-perf-benchmark's
 * --runs writes them), each {timestamp, commit (the row's label),
 * repository, command, data_size, pipeline, clients, rps, avg_, min_,
 * p50_, p95_, p99_, max_latency_ms, cluster_mode, tls, requests}; a figure
 * the row does not have is null. */
int export_valkey_metrics(FILE *fp, const struct rs_rows *rows, struct rs_err *err);

#endif
