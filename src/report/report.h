/* report.h: analysis results as text a person reads (aligned columns,
 * markdown, prose) or a program reads (csv, json).  Formats; computes
 * nothing of its own. */
#ifndef RS_REPORT_H
#define RS_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "base/err.h"

/* html: one self-contained page (report_html.h), which the command that
 * draws its charts writes; report_write writes the others. */
enum report_format { FORMAT_TEXT, FORMAT_MARKDOWN, FORMAT_CSV, FORMAT_JSON, FORMAT_HTML };
/* --format's names, in enum order. */
static const char *const report_format_names[] = { "text", "markdown", "csv", "json", "html",
						   NULL };

/* The columns that open every csv report, in this order (a contract). */
#define REPORT_CSV_LEAD "label,test,depths,rps_at_1,peak_rps,peak_depth,saturation_depth,gain," \
	"fit_a_us,fit_b_us,asymptote_rps,fit_r2,max_cv"
/* Every column of a csv report, in this order: the lead, the older ones,
 * then the intervals, then the open loop's (each added after all others,
 * so no column moves). */
#define REPORT_CSV_HEADER REPORT_CSV_LEAD ",points,fit_status,unstable_depths,busier," \
	"server_cpu,client_cpu,baseline,delta_rps_at_1,delta_pct_at_1,delta_avg_ms_at_1," \
	"ratio_at_1,delta_rps_at_peak,delta_pct_at_peak,delta_avg_ms_at_peak,ratio_at_peak," \
	"depth,delta_rps_at_depth,delta_pct_at_depth,delta_avg_ms_at_depth,ratio_at_depth," \
	"prose,saturation_lo,saturation_hi,saturated,asymptote_lo,asymptote_hi," \
	"ratio_at_1_lo,ratio_at_1_hi,verdict_at_1,ratio_at_peak_lo,ratio_at_peak_hi," \
	"verdict_at_peak,ratio_at_depth_lo,ratio_at_depth_hi,verdict_at_depth," \
	"peak_rps_lo,peak_rps_hi,highest_rps,highest_depth,latency_depth_at_peak,unstable_causes," \
	"rate_offered,achieved_ratio,avg_ms_at_highest,p99_ms_at_highest,latency_metric," \
	"runs,between_runs_pct,mix,mix_sent_pct,mix_calls_differ," \
	"overall_ratio,overall_lo,overall_hi,overall_verdict,overall_tests"

struct report_env;

struct report_opts {
	enum report_format format;
	int prose;                /* add one sentence per comparison */
	double knee;              /* as analysed, for the headings */
	double cv_limit;
	/* json: writes more members of the top-level object (the budget's),
	 * without a comma before or after; NULL for none. */
	void (*json_more)(FILE *fp, void *ud);
	void *json_ud;
	const struct rs_rows *rows; /* the rows analysed, for the cluster's busiest master (NULL: none) */
	/* text: every column and each series' notes, the series first; else
	 * the answers first (saturation, then the comparisons) in 120 columns,
	 * unstable points counted by cause with the worst few */
	int wide;
	/* Each label's environment (report_env.h), said first when two
	 * differ, and in json; NULL: none. */
	const struct report_env *envs;
	size_t nenvs;
};

/* Write r to fp in o->format.  Returns 0, or -1 when fp reports a write
 * error, with the system's reason in err ("No space left on device") for
 * the caller to prefix with the file name. */
int report_write(FILE *fp, const struct analysis_result *r, const struct report_opts *o,
		 struct rs_err *err);

/* The label a --baseline FILE's rows take. */
#define REPORT_BASELINE_LABEL "baseline"

/* --fail-on slower[:PCT]: *pct (0 without PCT).  Returns 0, or -1 with
 * err set for anything else. */
int report_fail_on_parse(const char *spec, double *pct, struct rs_err *err);
/* 0 when no comparison of r (at --depth, else peak to peak: the speed-up
 * summary's) is slower than the baseline, by the one verdict rule and,
 * with pct, by more than pct percent (its whole interval below
 * 1 - pct / 100); else -1 with err of kind RS_E_REGRESSION naming each. */
int report_fail_on_check(const struct analysis_result *r, double pct, struct rs_err *err);

/* The sentence comparing c's label with the baseline, in the words people
 * already use: "GET: snap showed a 21.34k higher throughput and a 0.145ms
 * lower average latency."  At --depth when r has one, else at each series'
 * peak; a qualifier names the depths unless both are 1.  Returns the length
 * (truncated to size like snprintf). */
int report_prose(const struct analysis_result *r, const struct analysis_cmp *c, char *buf,
		 size_t size);

/* The overall figure of label label_idx against the baseline when it
 * compares ANALYSIS_OVERALL_MIN tests or more (analysis_overall): "Overall,
 * m1 showed 2.45x the throughput of intel (the geometric mean of 13 tests'
 * ratios, 95% interval 2.21x..2.71x: faster); 13 tests faster, 0 slower,
 * 0 the same, 0 undecided."; brief, the line under a speed-up table
 * ("Overall: 2.45x (2.21x..2.71x: faster), the geometric mean of 13 tests;
 * 13 faster, 0 slower, 0 the same, 0 undecided").  Returns its length, or
 * 0 (buf "") with fewer tests. */
int report_overall_words(const struct analysis_result *r, size_t label_idx, int brief, char *buf,
			 size_t size);

/* A depth list in the -P syntax, shortest form ("1..40", "1..64:x2",
 * "1..8,16"), for n depths v (ascending). */
void report_depths(const struct series *s, char *buf, size_t size);
/* The note for series other, whose label another client measured than the
 * baseline's base_client (analysis_other_client), into buf: "b was
 * measured by redis-benchmark and a by rsweep 0.1.0: every comparison
 * between them includes the difference between the two clients".  Report
 * and plot say it in the same words. */
void report_client_note(const struct analysis_result *r, size_t other, const char *base_client,
			char *buf, size_t size);

#endif
