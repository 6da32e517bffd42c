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

#include "err.h"
#include "hist.h"
#include "latency.h"
#include "row.h"

enum export_format { EXPORT_HGRM, EXPORT_BENCHSTAT, EXPORT_HLOG, EXPORT_MEMTIER,
		     EXPORT_VALKEY_METRICS };
/* --format's names, in enum order. */
static const char *const export_format_names[] = { "hgrm", "benchstat", "hlog", "memtier-json",
							    "valkey-metrics", NULL };

/* Go's benchmark format (golang.org/x/perf/benchfmt): a "unit rps higher"
 * line, then one line per row, "BenchmarkTEST/label=L/P=D 1 NS ns/op RPS
 * rps AVG avg-ms ...", so that benchstat -col /label compares the labels.
 * A label or test holding white space or '/' cannot be a name's part:
 * refused with the row's file and line. */
int export_benchstat(FILE *fp, const struct rs_rows *rows, struct rs_err *err);

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
 * line, one document per point (label, test, depth) with its one command
 * ("Gets" for GET) and "Totals" alike: "ALL STATS" for a point of one row;
 * for several rows (repeats, runs) memtier's --run-count --print-all-runs
 * form: "RUN #K RESULTS" per row in file order, "BEST RUN RESULTS" and
 * "WORST RUN RESULTS" (the rows of most and least rps), "AGGREGATED
 * AVERAGE RESULTS (K runs)" (counts summed, rates and averages averaged,
 * min and percentiles from the merged histograms when every row has one).
 * ls may be NULL; a row's histogram gives its Min Latency.  What rsweep
 * does not know (hits, misses, KB/sec, a min without a histogram) is
 * null.  Never fails. */
int export_memtier(FILE *fp, const struct rs_rows *rows, const struct latency_set *ls,
		   struct rs_err *err);
/* valkey-perf-benchmark's metrics.json (export_valkey.c): a JSON list of
 * one record per row, in point order (label, test, depth, then file order:
 * a point's repeats are records of their own, as valkey-perf-benchmark's
 * --runs writes them), each {timestamp, commit (the row's label),
 * repository, command, data_size, pipeline, clients, rps, avg_, min_,
 * p50_, p95_, p99_, max_latency_ms, cluster_mode, tls, requests}; a figure
 * the row does not have is null. */
int export_valkey_metrics(FILE *fp, const struct rs_rows *rows, struct rs_err *err);

#endif
