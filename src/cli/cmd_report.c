/* cmd_report.c: `rsweep report`: read sweep CSVs, analyse every series,
 * compare the labels, and write the report to stdout or -o FILE, with
 * --latency-budget's picks and frontiers and --goal's cells. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/along.h"
#include "analysis/budget.h"
#include "analysis/frontier.h"
#include "analysis/goal.h"
#include "cli/inputs.h"
#include "analysis/latency.h"
#include "cli/cmd.h"
#include "cli/cmd_report_int.h"
#include "report/report_env.h"
#include "results/csv.h"
#include "results/runenv.h"
#include "base/log.h"
#include "base/outfile.h"
#include "report/report.h"
#include "report/report_slo.h"
#include "analysis/series.h"
#include "base/xalloc.h"

/* What follows the report: with --latency-budget the picks and, where
 * series vary a setting, their frontiers; with --goal its cells. */
struct cmd_report_more {
	const struct analysis_result *res;
	const struct budget_pick *picks;  /* NULL without --latency-budget */
	size_t n;
	const char *metric;
	double budget_ms;
	const struct frontier *fr;
	size_t nfr;
	const struct slo_answers *slo;    /* run --slo's searches (none: n 0) */
	const struct goal *goals;         /* NULL without --goal */
	size_t ngoals;
	enum goal_kind goal;
};

/* report_json's hook: the members, a comma between two. */
static void cmd_report_more_json(FILE *fp, void *ud)
{
	const struct cmd_report_more *m = ud;
	const char *sep = "";

	if (m->picks != NULL) {
		budget_write_json(fp, m->picks, m->n, m->metric, m->budget_ms);
		sep = ",\n";
	}
	if (m->picks != NULL && m->nfr > 0) {
		fputs(sep, fp);
		frontier_write_json(fp, m->res, m->fr, m->nfr);
	}
	if (m->goals != NULL) {
		fputs(sep, fp);
		goal_write_json(fp, m->res, m->goals, m->ngoals, m->goal);
		sep = ",\n";
	}
	if (m->slo != NULL && m->slo->n > 0) {
		fputs(sep, fp);
		report_slo_write_json(fp, m->slo);
	}
}

/* The report and what follows it (m): after the text or markdown report,
 * inside the json one, and in place of the csv one (a CSV holds one
 * table: the budget's picks, or the goal's cells).  Returns 0 or -1 (err
 * set: a failure to write). */
static int cmd_report_emit(FILE *fp, const struct rs_config *cfg, struct report_opts *ro,
			   struct cmd_report_more *m, struct rs_err *err)
{
	int md = cfg->format == FORMAT_MARKDOWN;

	if ((m->picks != NULL || m->goals != NULL) && cfg->format == FORMAT_CSV) {
		if (m->picks != NULL)
			budget_write_csv(fp, m->picks, m->n, m->metric, m->budget_ms);
		else
			goal_write_csv(fp, m->res, m->goals, m->ngoals, m->goal);
		if (ferror(fp))
			return rs_err_set(err, "%s", strerror(errno ? errno : EIO));
		return 0;
	}
	if ((m->picks != NULL || m->goals != NULL || (m->slo != NULL && m->slo->n > 0)) &&
	    cfg->format == FORMAT_JSON) {
		ro->json_more = cmd_report_more_json;
		ro->json_ud = m;
	}
	if (report_write(fp, m->res, ro, err) < 0)
		return -1;
	if (cfg->format == FORMAT_JSON)
		return 0;
	if (m->picks != NULL) {
		budget_write(fp, m->picks, m->n, m->metric, m->budget_ms, md);
		frontier_write(fp, m->res, m->fr, m->nfr, m->metric, m->budget_ms, md);
	}
	if (m->goals != NULL)
		goal_write(fp, m->res, m->goals, m->ngoals, m->goal, md);
	if (m->slo != NULL && cfg->format != FORMAT_CSV)
		report_slo_write(fp, m->slo, md);
	if (ferror(fp))
		return rs_err_set(err, "%s", strerror(errno ? errno : EIO));
	return 0;
}

/* Write the report (and what follows it) to stdout or -o, whole or not
 * at all; the environments of the labels read from the files' sidecars.
 * Returns 0 or -1 (err set: a failure to write). */
static int cmd_report_output(const struct rs_config *cfg, const struct rs_rows *rows,
			     const struct latency_set *ls, struct cmd_report_more *m,
			     struct rs_err *err)
{
	struct report_opts ro = { 0 };
	struct runenv_set envset = { 0 };
	struct report_env *envs = NULL;
	struct outfile o;
	FILE *fp = stdout;
	int rc;

	ro.rows = rows;
	ro.format = (enum report_format)cfg->format;
	ro.prose = cfg->prose;
	ro.wide = cfg->wide || cfg->verbose;
	ro.knee = cfg->knee;
	ro.cv_limit = cfg->cv_limit;
	inputs_envs(rows, &envset, "the report");
	report_env_collect(m->res, &envset, &envs, &ro.nenvs);
	ro.envs = envs;
	/* A report file is written whole or not at all, like charts and imports. */
	if (cfg->output != NULL && strcmp(cfg->output, "-") != 0) {
		if ((rc = outfile_open(&o, cfg->output, err)) < 0)
			goto out;
		fp = o.fp;
	}
	if (cfg->format == FORMAT_HTML)
		rc = cmd_report_html(fp, cfg, rows, ls, m->res, m->slo, &ro, err);
	else
		rc = cmd_report_emit(fp, cfg, &ro, m, err);
	if (fp != stdout) {
		if (rc < 0) {
			outfile_abort(&o);
			rs_err_prefix(err, "%s", cfg->output);
		} else {
			rc = outfile_commit(&o, err);
		}
	}
out:
	free(envs);
	runenv_set_free(&envset);
	return rc;
}

/* Step one: the rows of the CSV files, through the input pipeline
 * (inputs.h: sidecars when --latency-budget needs them, --relabel,
 * --tests, --depths).  Returns 0 or -1 (err set, RS_E_INPUT). */
static int cmd_report_rows(const struct rs_config *cfg, struct rs_rows *rows,
			   struct latency_set *ls, struct rs_err *err)
{
	struct inputs_opts io;

	inputs_opts_from(cfg, &io);
	/* The page draws each point's p99 from the merged histograms too. */
	io.hist = cfg->latency_budget != NULL || cfg->format == FORMAT_HTML;
	io.quiet = cfg->quiet;
	return inputs_read(&io, rows, ls, err);
}

/* Step two: the series of rps, and of average latency from the rows that
 * carry it (an imported 2-column redis-benchmark CSV has none).  Returns
 * 0 or -1 (err set). */
static int cmd_report_series(const struct rs_rows *rows, struct series_set *rps,
			     struct series_set *avg, struct rs_err *err)
{
	size_t nsingle = 0;

	if (series_build(rows, SM_RPS, rps, err) < 0 ||
	    series_build_known(rows, SM_AVG, avg, err) < 0)
		return -1;
	/* An open loop's series (rate_offered) has the rate it achieved to
	 * report at any number of depths, and a --slo search its answer:
	 * never counted as one depth. */
	for (size_t i = 0; i < rps->n; i++)
		nsingle += rps->v[i].npts == 1 && !(rows_fig(rows, rps->v[i].first, ROW_RATE) > 0) &&
			   rps->v[i].first->slo_phase == ROW_SLO_NONE;
	/* With one depth per series there is no saturation to find; two or more
	 * labels can still be compared at that depth (the stock redis-benchmark
	 * runs people already have), so only a lone label is refused. */
	if (nsingle == rps->n && rps->nlabels < 2)
		return rs_err_set(err, "every series has one depth (%s %s: P=%u): no saturation to "
				  "find and nothing to compare; sweep several depths (-P 1..40) or "
				  "give a second label", rps->v[0].label, rps->v[0].test,
				  rps->v[0].pts[0].depth);
	return 0;
}

/* --baseline FILE: a CSV kept from an earlier run (a name that ends in
 * .csv, or names a file).  Its rows, of one label, are read first and
 * labelled "baseline"; cfg->baseline becomes that.  Returns 0 (nothing
 * done for a label), or -1 (err set). */
static int cmd_report_baseline_file(struct rs_config *cfg, struct rs_rows *rows,
				    struct rs_err *err)
{
	const char *b = cfg->baseline;
	size_t n = strlen(b);
	char spec[2 * ROW_STR + 2];
	struct csv_info info;

	if (!(n > 4 && strcmp(b + n - 4, ".csv") == 0) && access(b, F_OK) != 0)
		return 0;
	if (cfg->latency_budget != NULL)
		return rs_err_set(err, "--baseline FILE and --latency-budget: give the baseline's "
				  "label and its file instead");
	if (csv_read_file(b, rows, &info, err) < 0)
		return rs_err_prefix(err, "--baseline");
	if (rows->n == 0)
		return rs_err_set(err, "--baseline %s: no result rows", b);
	for (size_t i = 1; i < rows->n; i++)
		if (strcmp(rows->v[i].label, rows->v[0].label) != 0)
			return rs_err_set(err, "--baseline %s holds labels '%s' and '%s': a baseline "
					  "file has one (give its label, and the file among the others)",
					  b, rows->v[0].label, rows->v[i].label);
	if (strcmp(rows->v[0].label, REPORT_BASELINE_LABEL) != 0) {
		snprintf(spec, sizeof spec, "%s=%s", rows->v[0].label, REPORT_BASELINE_LABEL);
		if (rows_relabel(rows, spec, err) < 0)
			return rs_err_prefix(err, "--baseline");
	}
	free(cfg->baseline);
	cfg->baseline = xstrdup(REPORT_BASELINE_LABEL);
	return 0;
}

int cmd_report(struct rs_config *cfg, struct rs_err *err)
{
	struct rs_rows rows = { 0 };
	struct series_set rps = { 0 }, avg = { 0 }, lat = { 0 }, p50 = { 0 };
	struct budget_pick *picks = NULL;
	struct latency_set ls = { 0 };
	struct latency_points lp = { 0 };
	char note[RS_ERR_LEN];
	double budget_ms = 0;
	struct analysis_result res = { 0 };
	struct analysis_opts ao = { 0 };
	struct along_groups groups = { 0 };
	struct frontier *fr = NULL;
	struct goal *goals = NULL;
	struct cmd_report_more more = { 0 };
	struct slo_answers slo = { 0 };
	double fail_pct = 0;
	int rc;

	if (cfg->nargs == 0)
		return rs_err_setk(err, RS_E_USAGE, "no CSV files given (rsweep report FILE.csv...)");
	/* The report never goes over what it reads (a --baseline file too). */
	if (inputs_output_check(cfg->output, cfg->args, (size_t)cfg->nargs, err) < 0 ||
	    (cfg->baseline != NULL && access(cfg->baseline, F_OK) == 0 &&
	     inputs_output_check(cfg->output, &cfg->baseline, 1, err) < 0))
		return -1;
	if (cfg->latency_budget != NULL) {
		if (budget_parse(cfg->latency_budget, &budget_ms, err) < 0) {
			rs_err_prefix(err, "--latency-budget");
			return rs_err_as(err, RS_E_USAGE);
		}
	} else if (opts_given(cfg, "budget-metric")) {
		return rs_err_setk(err, RS_E_USAGE, "--budget-metric goes with --latency-budget");
	}
	if (cfg->latency_budget != NULL && cfg->goal != GOAL_NONE && cfg->format == FORMAT_CSV)
		return rs_err_setk(err, RS_E_USAGE, "--format csv holds one table: give "
				   "--latency-budget or --goal, not both (json holds both)");
	if (cfg->format == FORMAT_HTML && (cfg->latency_budget != NULL || cfg->goal != GOAL_NONE))
		return rs_err_setk(err, RS_E_USAGE, "--format html holds the report, not the %s: "
				   "give it with text, markdown or json", cfg->latency_budget != NULL ?
				   "--latency-budget picks" : "--goal cells");
	if (cfg->fail_on != NULL && report_fail_on_parse(cfg->fail_on, &fail_pct, err) < 0) {
		rs_err_prefix(err, "--fail-on");
		return rs_err_as(err, RS_E_USAGE);
	}
	rc = cfg->baseline != NULL ? cmd_report_baseline_file(cfg, &rows, err) : 0;
	if (rc < 0) {
		rows_free(&rows);
		return rs_err_as(err, RS_E_INPUT);
	}
	ao.knee = cfg->knee;
	ao.cv_limit = cfg->cv_limit;
	ao.baseline = cfg->baseline;
	ao.depth = (unsigned)cfg->depth;
	/* Only json prints an interval per depth. */
	ao.per_depth_ci = cfg->format == FORMAT_JSON;
	rc = cmd_report_rows(cfg, &rows, &ls, err);
	/* run --slo: the searches' answers; then the depth series see the
	 * closed-loop starts only, not a series a probed rate. */
	if (rc == 0) {
		slo_answers_find(&rows, &slo);
		slo_rows_drop_probes(&rows);
		more.slo = &slo;
	}
	if (rc == 0)
		rc = cmd_report_series(&rows, &rps, &avg, err);
	/* A series without an average latency (redis-benchmark -q output has
	 * rps and p50 alone) has its p50 compared instead. */
	if (rc == 0 && avg.n < rps.n)
		rc = series_build_known(&rows, SM_P50, &p50, err);
	if (rc == 0)
		rc = analysis_run_lat(&rps, avg.n ? &avg : NULL, p50.n ? &p50 : NULL, &ao, &res, err);
	if (rc == 0 && cfg->latency_budget != NULL) {
		rc = series_build_known(&rows, SM_AVG + cfg->budget_metric, &lat, err);
		if (rc == 0) {
			/* Percentiles over repeats from the merged histograms. */
			latency_apply(&lat, &rows, &ls, &lp);
			if (latency_note(&ls, &lp, budget_metric_names[cfg->budget_metric], note,
					 sizeof note) != NULL)
				rs_log(RS_LOG_DEBUG, "%s", note);
			budget_find(&rps, &lat, &lp, budget_ms, &picks);
		}
	}
	/* The series of a label and test along a setting, for the frontier
	 * and the goal; without axes, one a series (the goal's depths). */
	if (rc == 0 && (picks != NULL || cfg->goal != GOAL_NONE))
		along_groups_make(&res, &rows, 1, &groups);
	more.res = &res;
	if (rc == 0 && picks != NULL) {
		more.picks = picks;
		more.n = rps.n;
		more.metric = budget_metric_names[cfg->budget_metric];
		more.budget_ms = budget_ms;
		frontier_find(&groups, picks, &fr, &more.nfr);
		more.fr = fr;
	}
	if (rc == 0 && cfg->goal != GOAL_NONE) {
		more.goal = (enum goal_kind)cfg->goal;
		goal_find(&groups, &res, more.goal, &goals, &more.ngoals);
		more.goals = goals;
	}
	/* Everything before the output is about the files and options given. */
	if (rc < 0)
		rs_err_as(err, RS_E_INPUT);
	else
		rc = cmd_report_output(cfg, &rows, &ls, &more, err);
	/* The report is out whole; then the verdict a CI gates on. */
	if (rc == 0 && cfg->fail_on != NULL)
		rc = report_fail_on_check(&res, fail_pct, err);
	slo_answers_free(&slo);
	goal_free(goals, more.ngoals);
	frontier_free(fr, more.nfr);
	along_groups_free(&groups);
	free(picks);
	latency_points_free(&lp);
	latency_free(&ls);
	series_set_free(&lat);
	analysis_result_free(&res);
	series_set_free(&avg);
	series_set_free(&p50);
	series_set_free(&rps);
	rows_free(&rows);
	return rc;
}
