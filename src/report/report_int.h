/* report_int.h: what the report's writers share, and nothing another room
 * may use (report.h is the report's interface): report.c writes numbers
 * and the prose; report_table.c the tables of text and markdown;
 * report_axes.c the tables along a setting; report_write.c text and
 * markdown, and picks the writer; report_notes.c the notes on the series;
 * report_data.c csv and json.  Each calls only those after it in that
 * list's reverse: report.c none. */
#ifndef RS_REPORT_INT_H
#define RS_REPORT_INT_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "report/report.h"

/* v with prec decimals, or "-" when not finite. */
const char *report_fnum(char *buf, size_t size, double v, int prec);
/* Depth d, or "-" for none (0). */
const char *report_fdepth(char *buf, size_t size, unsigned d);
/* "yes", "no" or "" (unknown). */
const char *report_saturated(enum knee_sat s);
/* The verdict's name, or "" without an interval. */
const char *report_verdict(const struct analysis_delta *d);
/* "server", "client" or "". */
const char *report_bound_name(enum analysis_bound b);
/* "avg" or "p50": the latency a comparison compares (lat_metric). */
const char *report_lat_name(enum series_metric m);
/* A table cell's room, bytes. */
#define REPORT_CELL 96
/* v with an explicit sign ("+12.5", "-0.145", "0.000"), or "-". */
const char *report_fsigned(char *buf, size_t size, double v, int prec);
/* "2578875 (-2.1%..+1.8%)": v with its interval as shares of v, or v alone
 * when the interval is unknown; "-" when v is. */
const char *report_fci(char *buf, size_t size, double v, double lo, double hi);
/* The ends of c (lo < hi, both finite) as ratios are printed, each into a
 * buffer of 32; an interval narrower than the printed precision has them
 * rounded outward ("4.49".."4.51"), so that no printed interval is of zero
 * width. */
void report_ratio_ends(const struct stats_ci *c, char *a, char *b);
/* "1.15x..1.27x", or "-". */
const char *report_fratio_ci(char *buf, size_t size, const struct stats_ci *c);
#define UTF8_PLUSMINUS "\xc2\xb1"
/* |v| with prec decimals, trailing zeros (and a bare '.') dropped: 16, 0.36. */
void report_fshort(char *buf, size_t size, double v, int prec);
/* An interval's half-width as a share of its estimate, percent. */
double report_halfwidth(const struct stats_ci *c);
/* A verdict in words, as the table gives it: "faster", "slower", "same",
 * "faster (size unsure)", "slower (size unsure)", "cannot tell (+-20%)", or
 * "no interval". */
const char *report_verdict_words(char *buf, size_t size, const struct analysis_delta *d);

/* The saturation cell of the series tables: "16 (8..32)", "not saturated
 * by P=64", the depth alone without an interval, or "-". */
const char *report_fsat(char *buf, size_t size, const struct analysis_series *a);

/* ---- tables (report_table.c) ---- */

/* A table for text or markdown: a header and cells added row by row. */
struct rtab {
	size_t ncols;
	const char *const *head;
	const char *align;        /* 'l' or 'r' per column */
	char **cells;             /* row-major */
	size_t ncells, cap;
};

/* An empty table of strlen(align) columns; head is borrowed. */
void rtab_init(struct rtab *t, const char *const *head, const char *align);
/* The next cell, copied. */
void rtab_add(struct rtab *t, const char *s);
void rtab_addf(struct rtab *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rtab_free(struct rtab *t);
/* t as aligned text (columns as wide as their widest cell, in terminal
 * columns) or as markdown (md), then freed. */
void report_table(FILE *fp, struct rtab *t, int md);

/* The offered rate of series s (its rows' rate_offered, from o->rows):
 * above zero for an open loop's, NAN for a closed loop's or without
 * rows.  An open loop's series runs on a schedule of one rate: the report
 * gives it the rate it achieved against that one and the latency at it,
 * not the saturation, gain and model of a sweep of depths, which mean
 * nothing there. */
double report_rate(const struct report_opts *o, const struct series *s);
/* a into *v as csv and json give it: for an open loop's series
 * (report_rate) without the saturation, gain and model (unknown: empty or
 * null).  Returns 1 for an open loop's, else 0 (*v a copy of a). */
int report_series_view(const struct report_opts *o, const struct analysis_series *a,
		       struct analysis_series *v);
/* The median of s's point at depth, or NAN (s NULL, or no such point). */
double report_median_at(const struct series *s, unsigned depth);
/* The test of an open loop's series as the open loop's table names it:
 * "GET", or "GET poisson" (the rate has a column of its own). */
const char *report_open_test(const struct series *s, char *buf, size_t size);

/* Each series' mix (mixshare.h) from o->rows, by index into r->series:
 * NULL for a series that is no mix's, and for every series without rows
 * (report_notes.c).  Release with report_free_mixes(v, r->nseries). */
struct mixshare;
struct mixshare **report_mixes(const struct analysis_result *r, const struct report_opts *o);
void report_free_mixes(struct mixshare **v, size_t n);

/* The notes on r's series, one line each ("label test: what"), in *out:
 * each series' own when o->wide, else those that count them at once
 * (report_notes.c).  Returns how many; release with report_free_notes. */
size_t report_notes(const struct analysis_result *r, const struct report_opts *o, char ***out);
/* The note on where spawned servers and the load generator ran (the
 * rows' server_cpus and client_cpus, run --cpus) into buf: placed apart,
 * placed differently, or sharing CPUs when two spawned servers or more
 * are compared (their A/B verdicts carry the scheduler's bias).  Returns
 * 1 with a note, 0 when rows say nothing to note (report_place.c). */
int report_place_note(const struct rs_rows *rows, char *buf, size_t size);
void report_free_notes(char **v, size_t n);

/* The runs block of text and markdown (report_runs.c): each label's runs,
 * what the intervals between labels hold of the drift between runs, and
 * a line a series on where its noise is (between runs, within a run, a
 * point, a window): every series of several runs, and with wide every
 * series.  Nothing when every comparison is within one run and every
 * label has one. */
void report_runs_block(FILE *fp, const struct analysis_result *r, int md, int wide);

/* The tables along a setting of text and markdown (report_axes.c): for
 * each label and test whose series vary a setting (along.h), each value's
 * saturation depth and peak with their intervals; the other settings
 * held, a table for each of their values.  Nothing when no label varies
 * one: a report of such files reads as before. */
void report_axes_block(FILE *fp, const struct analysis_result *r, const struct report_opts *o,
		       int md);

/* Markdown's opening table for a pull-request comment (report_gate.c):
 * every comparison's ratio, interval and verdict, slower first. */
void report_verdict_table(FILE *fp, const struct analysis_result *r);

/* The csv and json formats (report_data.c); p99: the rows' p99 latency,
 * for the open loop's latency at each rate (NULL: none). */
void report_csv(FILE *fp, const struct analysis_result *r, const struct report_opts *o,
		const struct series_set *p99);
void report_json(FILE *fp, const struct analysis_result *r, const struct report_opts *o,
		 const struct series_set *p99);

#endif
