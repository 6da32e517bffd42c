/* report_int.h: what the report's writers share, and nothing another room
 * may use (report.h is the report's interface): report.c writes numbers
 * and the prose; report_write.c text and markdown, and picks the writer;
 * report_notes.c the notes on the series; report_data.c csv and json.
 * Each calls only those after it in that list's reverse: report.c none. */
#ifndef RS_REPORT_INT_H
#define RS_REPORT_INT_H

#include <stddef.h>
#include <stdio.h>

#include "analysis.h"
#include "report.h"

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
/* A table cell's room, bytes. */
#define REPORT_CELL 96
/* v with an explicit sign ("+12.5", "-0.145", "0.000"), or "-". */
const char *report_fsigned(char *buf, size_t size, double v, int prec);
/* "2578875 (-2.1%..+1.8%)": v with its interval as shares of v, or v alone
 * when the interval is unknown; "-" when v is. */
const char *report_fci(char *buf, size_t size, double v, double lo, double hi);
/* "1.15x..1.27x", or "-". */
const char *report_fratio_ci(char *buf, size_t size, const struct stats_ci *c);
/* A verdict in words, as the table gives it: "faster", "slower", "same",
 * "cannot tell (+-20%)", or "no interval". */
const char *report_verdict_words(char *buf, size_t size, const struct analysis_delta *d);

/* The notes on r's series, one line each ("label test: what"), in *out:
 * each series' own when o->wide, else those that count them at once
 * (report_notes.c).  Returns how many; release with report_free_notes. */
size_t report_notes(const struct analysis_result *r, const struct report_opts *o, char ***out);
void report_free_notes(char **v, size_t n);

/* The runs block of text and markdown (report_runs.c): each label's runs,
 * what the intervals between labels hold of the drift between runs, and
 * where each series of several runs has its noise.  Nothing when every
 * comparison is within one run and every label has one. */
void report_runs_block(FILE *fp, const struct analysis_result *r, int md);

/* Markdown's opening table for a pull-request comment (report_gate.c):
 * every comparison's ratio, interval and verdict, slower first. */
void report_verdict_table(FILE *fp, const struct analysis_result *r);

/* The csv and json formats (report_data.c). */
void report_csv(FILE *fp, const struct analysis_result *r, const struct report_opts *o);
void report_json(FILE *fp, const struct analysis_result *r, const struct report_opts *o);

#endif
