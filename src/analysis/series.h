/* series.h: result rows grouped into series (label x test x the axes that
 * vary), one point per depth, summarised over repeats.
 *
 * Depth is every series' x axis.  The other settings a sweep can vary
 * (run -c, -d and --threads lists, --spawn-args alternatives) are axes
 * too: where one takes several values among a label's rows, each value is
 * a series of its own, its name the test's and the values ("GET c=8",
 * "GET c=8 d=1024", "SET [io-threads 4]"), so that a curve never mixes
 * two connection counts.  A label whose rows all share a setting keeps the
 * plain name ("GET"), as every file before axes.
 *
 * Every figure downstream (charts, report) is computed from these points:
 * the median over repeats is the line; each repeat's own figure is kept
 * (point.v) for the intervals of analysis.h. */
#ifndef RS_SERIES_H
#define RS_SERIES_H

#include <stddef.h>
#include <stdint.h>

#include "base/depths.h"
#include "base/err.h"
#include "results/row.h"

enum series_metric {
	SM_RPS, SM_AVG, SM_P50, SM_P95, SM_P99, SM_P999, SM_MAX,
};
/* The metrics' names (--metric, CSV headings), in enum order. */
static const char *const series_metric_names[] = {
	"rps", "avg", "p50", "p95", "p99", "p999", "max", NULL,
};

/* What the rows of one point say about its noise (host.h): the worst
 * repeat's figure, NAN when no repeat has it. */
struct series_noise {
	double steal_pct;         /* CPU time the host took */
	double other_cpus;        /* CPUs other processes kept busy */
	double nivcsw_rate;       /* rsweep's involuntary context switches a second */
	double drift_pct;         /* throughput's spread within one window */
	double server_ns;         /* median server CPU ns per request over repeats */
	double server_ns_max;     /* the largest repeat's */
};

struct series_point {
	unsigned depth;
	size_t n;                 /* repeats */
	double median, min, max, mean;
	double cv;                /* stddev / mean over repeats; 0 for one repeat */
	double server_cpu, client_cpu; /* median CPU seconds per timed second, NAN if unknown */
	int64_t errors;           /* summed over repeats, -1 if unknown */
	size_t rate_short;        /* open loop: repeats that fell short of the offered rate */
	/* Reads the server counted (keyspace_hits + keyspace_misses), those
	 * that found nothing, and nil replies among them, summed over
	 * repeats; -1 where a repeat does not say (an import, older rows). */
	int64_t reads, read_misses, nils;
	struct series_noise noise;
	const double *v;          /* [n]: each repeat's figure, by run, then in
				   * repeat order; points into series_set.values */
	const unsigned *run;      /* [n]: the run of each (an index into
				   * series.runs); points into series_set.value_runs */
	const double *started;    /* [n]: when each started, seconds since the
				   * epoch (NAN unknown), into series_set.value_started */
};

/* One run of a series: the rows of one file with one run number (--runs
 * writes 1..N; a file without the column is one run).  Runs are a level
 * of the evidence: analysis.h resamples them before the repeats. */
struct series_run {
	const char *src;          /* the file */
	unsigned run;             /* its run column, 0 when it has none */
};

/* The axes besides depth, as bits of struct series' axes. */
enum series_axis {
	SERIES_AXIS_CLIENTS,      /* -c: "c=8" */
	SERIES_AXIS_DATA_SIZE,    /* -d: "d=1024" */
	SERIES_AXIS_THREADS,      /* --threads: "t=2" */
	SERIES_AXIS_SERVER_ARGS,  /* --spawn-args: "[io-threads 4]" */
	SERIES_NAXES,
};

struct series {
	const char *label;        /* the rows' strings */
	const char *test;         /* its name: base and the axes it carries */
	const char *base;         /* series_variant's name, without axes: "GET",
				   * "GET window" */
	unsigned axes;            /* the axes (1u << enum series_axis) whose
				   * values the name carries: those that vary
				   * among the label's rows */
	/* Its settings, the first row's (-1, "": unknown): every row of the
	 * series has them where axes has the bit. */
	int64_t clients, data_size, threads;
	const char *server_args;
	size_t label_idx, test_idx; /* into series_set.labels / .tests */
	struct series_point *pts; /* sorted by depth, distinct depths */
	size_t npts;
	const struct rs_rec *first; /* a row of the series, for run parameters */
	struct series_run *runs;  /* [nruns], in order of first appearance; owned */
	size_t nruns;
};

struct series_index;

struct series_set {
	enum series_metric metric;
	struct series *v;         /* label-major, then tests in first-seen order */
	size_t n;
	const char **labels;      /* in order of first appearance */
	size_t nlabels;
	const char **tests;
	size_t ntests;
	struct series_index *index; /* names to series, for series_find */
	double *values;           /* every row's figure, one block that the
				   * points' v index into (8 bytes a row) */
	unsigned *value_runs;     /* the run of each, as values */
	double *value_started;    /* the start of each, as values */
	unsigned *label_axes;     /* [nlabels]: the axes each label's names carry */
};

/* Group rows into series for metric m.  Fails (err names file and line) on a
 * duplicate point (same label, test, pipeline, repeat and run: a file and
 * its run column) or a row without the metric.  The set points into rows: keep rows alive while using it.  Time
 * and memory grow as n log n in the rows, whatever the number of names. */
int series_build(const struct rs_rows *rows, enum series_metric m, struct series_set *out,
		 struct rs_err *err);
/* The same from the rows that have the metric (a 2-column import has no
 * latency); returns 0 with an empty set when none has it. */
int series_build_known(const struct rs_rows *rows, enum series_metric m,
		       struct series_set *out, struct rs_err *err);
void series_set_free(struct series_set *set);

/* The name of the series row belongs to (its test in series.test), which
 * keeps apart what was measured differently: the test for lock-step rows
 * (and files without a mode), "GET window" for a closed-loop window, "GET
 * @50000/s" (and " poisson") for the open loop.  Returns row->test or buf
 * (room for ROW_STR + 48). */
const char *series_variant(const struct rs_rows *rows, const struct rs_rec *row, char *buf,
			   size_t size);

/* The name of the series row belongs to in set (set's axes for row's
 * label appended to series_variant's name), into buf (room for ROW_STR * 2
 * + 96).  Returns buf or row->test. */
const char *series_row_name(const struct series_set *set, const struct rs_rows *rows,
			    const struct rs_rec *row, char *buf, size_t size);
/* Whether row is one of s's: its label, its base, and its values on the
 * axes s carries. */
int series_holds(const struct series *s, const struct rs_rows *rows, const struct rs_rec *row);
/* Whether series x and y have one value on axis a. */
int series_same_axis(const struct series *x, const struct series *y, enum series_axis a);
/* The value of s on axis a as its name writes it ("8", "1024", "io-threads
 * 4"), into buf; "?" when unknown, "defaults" for no server arguments. */
const char *series_axis_value(const struct series *s, enum series_axis a, char *buf,
			      size_t size);
/* "clients", "data size", "threads", "server arguments". */
const char *series_axis_title(enum series_axis a);

/* --by's names of the axes, in enum order. */
static const char *const series_axis_names[] = {
	"clients", "data-size", "threads", "server-args", NULL,
};
/* "clients" -> SERIES_AXIS_CLIENTS, ...; -1 for another name. */
int series_axis_parse(const char *name, enum series_axis *a);
/* --by AXIS: each row's label gets the row's value on axis a ("vm c=8",
 * "vm [--io-threads 4]"), so that a chart draws a line for each value and
 * a panel for each test.  0, or -1 (err) when a label would outgrow
 * ROW_STR. */
int series_label_by(struct rs_rows *rows, enum series_axis a, struct rs_err *err);

/* Put names[0..n), series' test names (series_variant's) in first-seen
 * order, each with a row of its (rows[i]), in the order series_build
 * gives its tests: redis-benchmark's, unknown names after as first seen,
 * an open loop's by offered rate.  place[i] (when place is not NULL) gets
 * the new index of names[i] as it was.  For rooms that group rows by test
 * themselves (grid.h). */
void series_order_names(const char **names, const struct rs_rec *const *rows, size_t n,
			uint32_t *place);

/* The series of (label, test), or NULL.  Constant time. */
const struct series *series_find(const struct series_set *set, const char *label,
				 const char *test);
/* The point at depth, or NULL. */
const struct series_point *series_at(const struct series *s, unsigned depth);

/* Metric m of r, a row of rows: NAN when the row does not have it. */
double series_metric_value(const struct rs_rows *rows, const struct rs_rec *r,
			   enum series_metric m);
/* "rps", "avg", "p50", "p95", "p99", "p999", "max"; -1 if unknown. */
int series_metric_parse(const char *name, enum series_metric *m);
const char *series_metric_name(enum series_metric m);
/* Axis title: "requests per second", "average latency (ms)", ... */
const char *series_metric_title(enum series_metric m);

/* Whether a --tests item as a user writes it ("get", "lrange", "lrange_*",
 * "LRANGE_100") names test as the data spells it ("LRANGE_100"): the name
 * itself in any case, a family whose members are ITEM_SOMETHING ("lrange",
 * "ping"), or a shell pattern.  Plot and report select tests with this one
 * rule. */
int series_test_matches(const char *item, const char *test);

/* The one reading of a --tests list ("get, lrange_*"), for plot, report and
 * plot files' panels: comma-separated items, blanks around each trimmed,
 * each matched against names[0..n) (the data's distinct tests) with
 * series_test_matches.  Appends the indices it selects to *out (grown
 * with xreallocarray; those already in it are not added again), in the
 * list's order.  strict (the command line): an empty item or one that
 * selects nothing is an error, "unknown test 'gett' (the data has GET,
 * SET)", of kind RS_E_INPUT; not strict (a plot file meant for many
 * sweeps): such items are passed over.  Returns 0 or -1. */
int series_tests_pick(const char *list, const char *const *names, size_t n, int strict,
		      size_t **out, size_t *nout, struct rs_err *err);

/* Keep only the rows at one of depths (--depths in plot and report).  Fails
 * when none is left. */
int series_keep_depths(struct rs_rows *rows, const struct depth_list *depths, struct rs_err *err);

/* Median of v[0..n), which holds no NAN (reorders v); NAN for n == 0. */
double series_median(double *v, size_t n);

#endif
