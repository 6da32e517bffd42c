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
#include "latency.h"
#include "row.h"

enum export_format { EXPORT_HGRM, EXPORT_BENCHSTAT };
/* --format's names, in enum order. */
static const char *const export_format_names[] = { "hgrm", "benchstat", NULL };

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

#endif
