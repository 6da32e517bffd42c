/* cmd_report.c: `rsweep report`: read sweep CSVs, analyse every series,
 * compare the labels, and write the report to stdout or -o FILE. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "cmd.h"
#include "csv.h"
#include "log.h"
#include "outfile.h"
#include "report.h"
#include "series.h"
#include "xalloc.h"

/* Keep the rows whose test is selected by list; every item must select
 * something, so that a typo does not silently drop a test. */
static int report_filter_tests(struct rs_rows *rows, const char *list, struct rs_err *err)
{
	const char *p = list;
	unsigned char *keep = xcalloc(rows->n ? rows->n : 1, 1);
	size_t w = 0;

	while (*p) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		int hit = 0;

		while (n > 0 && (*p == ' ' || *p == '\t'))
			p++, n--;
		while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (n == 0) {
			free(keep);
			return rs_err_set(err, "--tests '%s': empty item", list);
		}
		{
			char item[ROW_STR];

			snprintf(item, sizeof item, "%.*s", (int)(n < sizeof item ? n : sizeof item - 1), p);
			for (size_t i = 0; i < rows->n; i++)
				if (series_test_matches(item, rows->v[i].test))
					keep[i] = hit = 1;
		}
		if (!hit) {
			free(keep);
			return rs_err_set(err, "--tests: '%.*s' matches no test in the data", (int)n, p);
		}
		if (end == NULL)
			break;
		p = end + 1;
	}
	for (size_t i = 0; i < rows->n; i++)
		if (keep[i])
			rows->v[w++] = rows->v[i];
	rows->n = w;
	free(keep);
	return 0;
}

/* Write the report to stdout or -o, whole or not at all.  Returns 0 or -1
 * (err set: a failure to write). */
static int report_output(const struct rs_config *cfg, const struct analysis_result *res,
			 struct rs_err *err)
{
	struct report_opts ro;
	struct outfile o;

	ro.format = (enum report_format)cfg->format;
	ro.prose = cfg->prose;
	ro.knee = cfg->knee;
	ro.cv_limit = cfg->cv_limit;
	if (cfg->output == NULL || strcmp(cfg->output, "-") == 0)
		return report_write(stdout, res, &ro, err);
	/* A report file is written whole or not at all, like charts and imports. */
	if (outfile_open(&o, cfg->output, err) < 0)
		return -1;
	if (report_write(o.fp, res, &ro, err) < 0) {
		outfile_abort(&o);
		return rs_err_prefix(err, "%s", cfg->output);
	}
	return outfile_commit(&o, err);
}

int cmd_report(struct rs_config *cfg, struct rs_err *err)
{
	struct rs_rows rows = { 0 };
	struct series_set rps = { 0 }, avg = { 0 };
	struct analysis_result res = { 0 };
	struct analysis_opts ao;
	int rc = -1;
	size_t nsingle = 0;

	if (cfg->nargs == 0)
		return rs_err_setk(err, RS_E_USAGE, "no CSV files given (rsweep report FILE.csv...)");
	for (int i = 0; i < cfg->nargs; i++) {
		struct csv_info info;
		char note[RS_ERR_LEN];

		if (csv_read_file(cfg->args[i], &rows, &info, err) < 0)
			goto bad;
		if (!cfg->quiet && csv_info_note(&info, cfg->args[i], note, sizeof note) != NULL)
			rs_log(RS_LOG_INFO, "%s", note);
	}
	if (rows.n == 0) {
		rs_err_set(err, "no result rows in %s%s", cfg->args[0], cfg->nargs > 1 ? " and the others" : "");
		goto bad;
	}
	if (cfg->relabel && rows_relabel(&rows, cfg->relabel, err) < 0)
		goto bad;
	if (cfg->tests && report_filter_tests(&rows, cfg->tests, err) < 0)
		goto bad;
	if (opts_given(cfg, "depths") && series_keep_depths(&rows, &cfg->depths, err) < 0)
		goto bad;
	/* Latency from the rows that carry it: an imported 2-column
	 * redis-benchmark CSV has none. */
	if (series_build(&rows, SM_RPS, &rps, err) < 0 ||
	    series_build_known(&rows, SM_AVG, &avg, err) < 0)
		goto bad;
	for (size_t i = 0; i < rps.n; i++)
		nsingle += rps.v[i].npts == 1;
	/* With one depth per series there is no saturation to find; two or more
	 * labels can still be compared at that depth (the stock redis-benchmark
	 * runs people already have), so only a lone label is refused. */
	if (nsingle == rps.n && rps.nlabels < 2) {
		rs_err_set(err, "every series has one depth (%s %s: P=%u): no saturation to find and "
			   "nothing to compare; sweep several depths (-P 1..40) or give a second label",
			   rps.v[0].label, rps.v[0].test, rps.v[0].pts[0].depth);
		goto bad;
	}
	ao.knee = cfg->knee;
	ao.cv_limit = cfg->cv_limit;
	ao.baseline = cfg->baseline;
	ao.depth = (unsigned)cfg->depth;
	/* Only json prints an interval per depth. */
	ao.per_depth_ci = cfg->format == FORMAT_JSON;
	if (analysis_run(&rps, avg.n ? &avg : NULL, &ao, &res, err) < 0)
		goto bad;
	rc = report_output(cfg, &res, err);
	goto out;
bad:
	/* Everything before the output is about the files and options given. */
	rs_err_as(err, RS_E_INPUT);
out:
	analysis_result_free(&res);
	series_set_free(&avg);
	series_set_free(&rps);
	rows_free(&rows);
	return rc;
}
