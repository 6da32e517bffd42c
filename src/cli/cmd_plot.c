/* cmd_plot.c: `rsweep plot`: CSV files in, one chart per panel out, as PNG,
 * PDF or SVG, written atomically. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/budget.h"
#include "chart/chart.h"
#include "cli/cmd.h"
#include "cli/cmd_plot_int.h"
#include "render/font.h"
#include "analysis/grid.h"
#include "results/histfile.h"
#include "cli/inputs.h"
#include "analysis/latency.h"
#include "base/log.h"
#include "base/outfile.h"
#include "chart/plotfile.h"
#include "report/report.h"
#include "report/report_env.h"
#include "render/render_pdf.h"
#include "render/render_png.h"
#include "render/render_svg.h"
#include "analysis/series.h"
#include "analysis/slo_answer.h"
#include "base/spec.h"
#include "sweep/slo.h"
#include "base/xalloc.h"

/* The back-ends, by the output's extension (any case). */
static const struct plot_backend {
	const char *ext;
	enum plot_format format;
} plot_backends[] = { { ".png", PLOT_PNG }, { ".pdf", PLOT_PDF }, { ".svg", PLOT_SVG } };

/* The back-end of output path, or NULL when its extension is none of them. */
static const struct plot_backend *plot_backend(const char *path)
{
	const char *ext = path ? strrchr(path, '.') : NULL;

	for (size_t i = 0; ext && i < sizeof plot_backends / sizeof plot_backends[0]; i++)
		if (strcasecmp(ext, plot_backends[i].ext) == 0)
			return &plot_backends[i];
	return NULL;
}

/* More series than this in one chart are refused: its styles (7 colours x
 * 8 markers for tests, 4 dashes for labels) tell 224 apart at best, and
 * laying out labels among thousands of lines takes minutes. */
#define PLOT_MAX_SERIES 256


static void plot_free(struct plot *p)
{
	for (size_t i = 0; i < p->npanels; i++) {
		free(p->panels[i].title);
		free(p->panels[i].series);
		free(p->panels[i].grids);
		free(p->panels[i].slo);
	}
	free(p->panels);
	free(p->by_test);
	free(p->by_test_start);
	analysis_result_free(&p->an);
	latency_points_free(&p->lpts);
	latency_points_free(&p->lset_pts);
	series_set_free(&p->lset);
	latency_free(&p->lat);
	series_set_free(&p->set);
	grid_set_free(&p->grids);
	grid_set_free(&p->budget);
	slo_answers_free(&p->slo);
	rows_free(&p->rows);
}

/* Whether panel draws series s: a --slo search's probes (rows kept for a
 * latency panel of the same plot file) only in a latency chart. */
static int plot_panel_draws(const struct plot_panel *panel, const struct series *s)
{
	return CHART_KIND_LATENCY(panel->kind) || s->first == NULL ||
	       s->first->slo_phase != ROW_SLO_PROBE;
}

/* Fill panel with the series of the chosen tests, test by test, the
 * baseline label first. */
static void plot_panel_series(struct plot *p, struct plot_panel *panel, const size_t *tests,
			      size_t ntests)
{
	const struct series_set *set = &p->set;
	size_t base = 0, n = 0;

	if (p->cfg->baseline)
		for (size_t l = 0; l < set->nlabels; l++)
			if (strcmp(set->labels[l], p->cfg->baseline) == 0)
				base = l;
	for (size_t t = 0; t < ntests; t++)
		n += p->by_test_start[tests[t] + 1] - p->by_test_start[tests[t]];
	panel->series = xreallocarray(panel->series, panel->n + n + 1, sizeof *panel->series);
	/* Each test's series: the baseline's, then the other labels' in order. */
	for (size_t t = 0; t < ntests; t++) {
		const size_t *v = p->by_test + p->by_test_start[tests[t]];
		size_t nv = p->by_test_start[tests[t] + 1] - p->by_test_start[tests[t]];

		for (size_t k = 0; k < nv; k++)
			if (set->v[v[k]].label_idx == base && plot_panel_draws(panel, &set->v[v[k]]))
				panel->series[panel->n++] = &set->v[v[k]];
		for (size_t k = 0; k < nv; k++)
			if (set->v[v[k]].label_idx != base && plot_panel_draws(panel, &set->v[v[k]]))
				panel->series[panel->n++] = &set->v[v[k]];
	}
}

/* Bucket the series by test (the set is label-major, so each bucket keeps
 * the labels' order): a panel is then made in the time of its series. */
static void plot_index_tests(struct plot *p)
{
	const struct series_set *set = &p->set;
	size_t *fill;

	p->by_test_start = xcalloc(set->ntests + 1, sizeof *p->by_test_start);
	p->by_test = xcalloc(set->n ? set->n : 1, sizeof *p->by_test);
	for (size_t i = 0; i < set->n; i++)
		p->by_test_start[set->v[i].test_idx + 1]++;
	for (size_t t = 0; t < set->ntests; t++)
		p->by_test_start[t + 1] += p->by_test_start[t];
	fill = xcalloc(set->ntests ? set->ntests : 1, sizeof *fill);
	memcpy(fill, p->by_test_start, set->ntests * sizeof *fill);
	for (size_t i = 0; i < set->n; i++)
		p->by_test[fill[set->v[i].test_idx]++] = i;
	free(fill);
}

static struct plot_panel *plot_add_panel(struct plot *p, const char *title, int kind)
{
	struct plot_panel *panel;

	p->panels = xreallocarray(p->panels, p->npanels + 1, sizeof *p->panels);
	panel = &p->panels[p->npanels++];
	memset(panel, 0, sizeof *panel);
	panel->title = title ? xstrdup(title) : NULL;
	panel->kind = kind;
	return panel;
}

/* The plot file's panels, each with its tests that are in the data and,
 * given --tests, in in_filter too; a panel left with none is dropped. */
static void plot_file_panels(struct plot *p, const struct plotfile *pf,
			     const unsigned char *in_filter, struct rs_err *err)
{
	for (size_t i = 0; i < pf->n; i++) {
		const struct plotfile_panel *fp = &pf->v[i];
		size_t *tests = NULL, ntests = 0, keep = 0;
		struct plot_panel *panel;

		if (fp->tests == NULL) {
			for (size_t t = 0; t < p->set.ntests; t++) {
				tests = xreallocarray(tests, ntests + 1, sizeof *tests);
				tests[ntests++] = t;
			}
		} else {
			/* A panel's test missing from the data is left out: one plot
			 * file serves sweeps of fewer tests. */
			series_tests_pick(fp->tests, p->set.tests, p->set.ntests, 0, &tests, &ntests,
					  err);
		}
		for (size_t k = 0; k < ntests; k++)
			if (in_filter == NULL || in_filter[tests[k]])
				tests[keep++] = tests[k];
		if (keep > 0) {
			panel = plot_add_panel(p, fp->title, fp->kind >= 0 ? fp->kind : p->cfg->kind);
			plot_panel_series(p, panel, tests, keep);
			if (panel->n == 0) {
				free(panel->title);
				free(panel->series);
				p->npanels--;
			}
		}
		free(tests);
	}
}

/* Whether the panels can be drawn: some series, not too many in one
 * chart, two depths for a line chart.  Returns 0 or -1 (RS_E_INPUT). */
static int plot_panels_check(const struct plot *p, const struct plotfile *pf,
			     struct rs_err *err)
{
	if (p->npanels == 0 || p->panels[0].n == 0) {
		if (pf && pf->n > 0)
			return rs_err_setk(err, RS_E_INPUT, "%s: none of its panels' tests is in the "
					   "data", pf->name);
		return rs_err_setk(err, RS_E_INPUT, "no series to draw");
	}
	for (size_t i = 0; i < p->npanels; i++)
		if (p->panels[i].n > PLOT_MAX_SERIES)
			return rs_err_setk(err, RS_E_INPUT, "%s%s%s%zu series (labels x tests) in one "
					   "chart, more than %d: choose tests with --tests, or plot "
					   "fewer labels", p->panels[i].title ? "panel '" : "",
					   p->panels[i].title ? p->panels[i].title : "",
					   p->panels[i].title ? "': " : "", p->panels[i].n,
					   PLOT_MAX_SERIES);
	/* A line chart needs two depths (the chart's rule): bad input, said
	 * before any file is written. */
	for (size_t i = 0; i < p->npanels; i++)
		if ((p->panels[i].kind == CHART_LINES || p->panels[i].kind == CHART_MASTERS ||
		     p->panels[i].kind == CHART_MULTIPLES) &&
		    chart_lines_check(p->panels[i].series, p->panels[i].n, err) < 0)
			return rs_err_as(err, RS_E_INPUT);
	return 0;
}

/* A --slo chart's panel: the searches of its series' labels and tests.
 * Returns 0, or -1 (RS_E_INPUT) when the panel has none. */
static int plot_panel_slo(struct plot *p, struct plot_panel *panel, struct rs_err *err)
{
	panel->slo = xcalloc(p->slo.n + 1, sizeof *panel->slo);
	for (size_t g = 0; g < p->slo.n; g++)
		for (size_t k = 0; k < panel->n; k++)
			if (strcmp(panel->series[k]->label, p->slo.v[g].label) == 0 &&
			    strcmp(panel->series[k]->test, p->slo.v[g].test) == 0) {
				panel->slo[panel->nslo++] = &p->slo.v[g];
				break;
			}
	if (panel->nslo == 0)
		return rs_err_setk(err, RS_E_INPUT, "%s%s%s--kind slo: no run --slo search among "
				   "the data's series", panel->title ? "panel '" : "",
				   panel->title ? panel->title : "", panel->title ? "': " : "");
	return 0;
}

/* Build the panels: the plot file's sections, or one panel, of the tests
 * --tests chose.  Returns 0 or -1 (RS_E_INPUT). */
static int plot_panels(struct plot *p, const struct plotfile *pf, struct rs_err *err)
{
	struct rs_config *cfg = p->cfg;
	size_t *filter = NULL, nfilter = 0;
	unsigned char *in_filter = NULL;

	plot_index_tests(p);
	if (cfg->tests && series_tests_pick(cfg->tests, p->set.tests, p->set.ntests, 1, &filter,
					    &nfilter, err) < 0) {
		free(filter);
		return rs_err_prefix(err, "--tests");
	}
	if (filter != NULL) {
		in_filter = xcalloc(p->set.ntests ? p->set.ntests : 1, 1);
		for (size_t j = 0; j < nfilter; j++)
			in_filter[filter[j]] = 1;
	}
	if (cfg->kind == CHART_MASTERS && (filter ? nfilter : p->set.ntests) != 1) {
		free(filter);
		free(in_filter);
		return rs_err_setk(err, RS_E_USAGE, "--kind masters draws one test's masters and "
				   "the data has %zu tests: choose one with --tests",
				   filter ? nfilter : p->set.ntests);
	}
	if (pf == NULL || pf->n == 0) {
		char mt[ROW_STR + 64];
		struct plot_panel *panel;
		size_t *all = NULL, nall = 0;

		if (cfg->kind == CHART_MASTERS && cfg->title == NULL)
			snprintf(mt, sizeof mt, "%s: requests per second of each master against "
				 "pipeline depth", p->set.tests[filter ? filter[0] : 0]);
		panel = plot_add_panel(p, cfg->kind == CHART_MASTERS && cfg->title == NULL ? mt :
				       cfg->title, cfg->kind);

		if (filter == NULL) {
			all = xcalloc(p->set.ntests, sizeof *all);
			for (size_t t = 0; t < p->set.ntests; t++)
				all[nall++] = t;
		}
		plot_panel_series(p, panel, filter ? filter : all, filter ? nfilter : nall);
		free(all);
	} else {
		plot_file_panels(p, pf, in_filter, err);
	}
	free(filter);
	free(in_filter);
	for (size_t i = 0; i < p->npanels; i++)
		if (p->panels[i].kind == CHART_SLO && p->panels[i].n > 0 &&
		    plot_panel_slo(p, &p->panels[i], err) < 0)
			return -1;
	return plot_panels_check(p, pf, err);
}

/* ---- heat maps ---- */

/* An estimate of a text's width, for deciding before any font is loaded:
 * DejaVu Sans averages under 0.6 em a character in digits and lower case,
 * so an estimate of 0.62 errs on the side of room. */
static double plot_est_width(void *ctx, const char *s, double size)
{
	size_t n = 0;

	(void)ctx;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return 0.62 * size * (double)n;
}

static const struct render_ops plot_est_ops = { .text_width = plot_est_width };

/* The heat maps of the tests --tests chose, as panels: every map in one
 * chart where they all fit at --size, else a chart each (side by side in
 * a PNG, a page each in a PDF).  Returns 0 or -1 (RS_E_INPUT). */
static int plot_heat_panels(struct plot *p, struct rs_err *err)
{
	const struct grid_set *set = &p->grids;
	const char **names = xcalloc(set->n, sizeof *names);
	const struct grid **keep = xcalloc(set->n, sizeof *keep);
	size_t nnames = 0, nkeep = 0, *pick = NULL, npick = 0;
	struct chart_input in;
	struct chart *c = NULL;
	struct rs_err e;
	int rc = -1;

	for (size_t i = 0; i < set->n; i++) {
		size_t t = 0;

		while (t < nnames && strcmp(names[t], set->v[i].test) != 0)
			t++;
		if (t == nnames)
			names[nnames++] = set->v[i].test;
	}
	if (p->cfg->tests && series_tests_pick(p->cfg->tests, names, nnames, 1, &pick, &npick,
					       err) < 0) {
		rs_err_prefix(err, "--tests");
		goto out;
	}
	for (size_t i = 0; i < set->n; i++) {
		int in_pick = pick == NULL;

		for (size_t k = 0; k < npick && !in_pick; k++)
			in_pick = strcmp(names[pick[k]], set->v[i].test) == 0;
		if (in_pick)
			keep[nkeep++] = &set->v[i];
	}
	memset(&in, 0, sizeof in);
	in.kind = CHART_HEATMAP;
	in.width = p->cfg->width;
	in.height = p->cfg->height;
	in.metric = set->metric;
	in.grids = keep;
	in.ngrids = nkeep;
	in.gx = set->x;
	in.gy = set->y;
	plot_heat_budget(p, &in);
	if (nkeep > 1 && chart_layout(&in, &plot_est_ops, NULL, &c, &e) < 0) {
		for (size_t i = 0; i < nkeep; i++) {
			struct plot_panel *panel = plot_add_panel(p, p->cfg->title, CHART_HEATMAP);

			panel->grids = xcalloc(1, sizeof *panel->grids);
			panel->grids[0] = keep[i];
			panel->ngrids = 1;
		}
	} else {
		struct plot_panel *panel = plot_add_panel(p, p->cfg->title, CHART_HEATMAP);

		panel->grids = keep;
		panel->ngrids = nkeep;
		keep = NULL;
	}
	chart_free(c);
	rc = 0;
out:
	free(pick);
	free(names);
	free(keep);
	return rc < 0 ? rs_err_as(err, RS_E_INPUT) : 0;
}

/* The grids of the rows over --x and --y, of --z; what they leave out
 * (rows without the figure or an axis) is said.  Returns 0 or -1, a usage
 * error or bad input. */
static int plot_heat_read(struct plot *p, struct rs_err *err)
{
	const struct rs_config *cfg = p->cfg;
	size_t used = 0;

	if (grid_build(&p->rows, (enum grid_axis)cfg->heat_x, (enum grid_axis)cfg->heat_y,
		       (enum series_metric)cfg->heat_z, &p->grids, err) < 0)
		return rs_err_prefix(err, "--kind heatmap");
	/* The budget's latency, cell by cell: the median of the repeats'
	 * figures. */
	if (cfg->latency_budget != NULL && budget_parse(cfg->latency_budget, &p->budget_ms, err) < 0) {
		rs_err_prefix(err, "--latency-budget");
		return rs_err_as(err, RS_E_USAGE);
	}
	if (cfg->latency_budget != NULL &&
	    grid_build(&p->rows, (enum grid_axis)cfg->heat_x, (enum grid_axis)cfg->heat_y,
		       (enum series_metric)(SM_AVG + cfg->budget_metric), &p->budget, err) < 0)
		return rs_err_prefix(err, "--latency-budget");
	for (size_t i = 0; i < p->grids.n; i++)
		for (size_t k = 0; k < p->grids.v[i].nx * p->grids.v[i].ny; k++)
			used += p->grids.v[i].cells[k].n;
	if (used < p->rows.n)
		rs_log(RS_LOG_NOTE, "%zu of %zu rows have no %s figure, %s or %s: not drawn",
		       p->rows.n - used, p->rows.n, series_metric_name((enum series_metric)cfg->heat_z),
		       grid_axis_names[cfg->heat_x], grid_axis_names[cfg->heat_y]);
	return 0;
}

/* ---- reading ---- */

/* The figures the charts draw (rings, bands, whiskers), computed as the
 * report computes them, with the same knee, baseline and depth, so that a
 * chart and the report of the same files agree.  The comparisons' per-depth
 * intervals (per_depth_ci) are left out: no chart shows them, and the bands
 * are the medians' own intervals, which every series has anyway.  Fails
 * (bad input) for a --baseline that is not a label or a --depth that no
 * series has. */
static int plot_analyse(struct plot *p, struct rs_err *err)
{
	struct analysis_opts ao;
	unsigned char *only0 = xcalloc(p->set.n ? p->set.n : 1, 1), *only = only0;
	int rc;

	memset(&ao, 0, sizeof ao);
	ao.knee = p->cfg->knee > 0 ? p->cfg->knee : ANALYSIS_DEFAULT_KNEE;
	ao.cv_limit = ANALYSIS_DEFAULT_CV_LIMIT;
	ao.baseline = p->cfg->baseline;
	ao.depth = (unsigned)p->cfg->depth;
	/* The level bands a fitted curve is drawn with (B x depths doubles a
	 * series while they are worked out): only for a line chart that may
	 * draw one. */
	ao.level_band = p->need_band && p->cfg->fit != CHART_FIT_NO && p->cfg->metric == SM_RPS;
	/* Only the series the panels draw: --tests of a file of thousands of
	 * series analysed them all (issue 40).  Each series' analysis is its
	 * own, so a drawn one is the same either way; speed-up bars read
	 * comparisons, whose intervals pool every test's noise, so they take
	 * every series as before. */
	for (size_t i = 0; i < p->npanels; i++)
		if (p->panels[i].kind == CHART_SPEEDUP)
			only = NULL;
	if (only != NULL)
		for (size_t i = 0; i < p->npanels; i++)
			for (size_t k = 0; k < p->panels[i].n; k++)
				only[p->panels[i].series[k] - p->set.v] = 1;
	rc = only != NULL ? analysis_run_some(&p->set, &ao, only, &p->an, err) :
			    analysis_run(&p->set, NULL, &ao, &p->an, err);
	free(only0);
	if (rc < 0)
		return rs_err_as(err, RS_E_INPUT);
	/* A chart across clients says so, as the report does. */
	for (size_t k = 0;; k++) {
		const char *base;
		long other = analysis_other_client(&p->an, k, &base);
		char note[512];

		if (other < 0)
			break;
		report_client_note(&p->an, (size_t)other, base, note, sizeof note);
		rs_log(RS_LOG_NOTE, "%s", note);
	}
	return 0;
}

/* --kind latency over a --slo search: the budget of the percentile drawn
 * (lat_metric), where every search has the same objective and it has
 * one for that percentile. */
static void plot_slo_budget(struct plot *p)
{
	struct slo_objective o;
	struct rs_err e;
	double pct = latency_metric_pct(p->lat_metric);

	for (size_t i = 1; i < p->slo.n; i++)
		if (strcmp(p->slo.v[i].slo, p->slo.v[0].slo) != 0)
			return;
	if (p->slo.n == 0 || slo_parse(p->slo.v[0].slo, &o, &e) < 0)
		return;
	for (unsigned k = 0; k < o.n; k++)
		if (fabs(o.q[k] - pct) < 1e-9) {
			p->slo_budget_ms = o.budget_ms[k];
			snprintf(p->slo_budget_text, sizeof p->slo_budget_text, "%s %g ms (--slo %s)",
				 series_metric_name(p->lat_metric), o.budget_ms[k], o.text);
		}
}

/* run --slo's searches in the rows: without --kind, a plot file, --metric
 * or --by the chart is their answer (--kind slo); every chart but the
 * latency kinds sees the closed-loop starts alone, not a series a probed
 * rate, as the report does (the probes' rows are dropped, or with a
 * latency panel kept for it alone: plot_panel_draws).  --kind slo of rows
 * with no search is bad input. */
static int plot_read_slo(struct plot *p, struct rs_err *err)
{
	struct rs_config *cfg = p->cfg;

	slo_answers_find(&p->rows, &p->slo);
	if (p->slo.n == 0) {
		if (cfg->kind == CHART_SLO)
			return rs_err_setk(err, RS_E_INPUT, "--kind slo: no row of %s is a run --slo "
					   "search's", p->nfiles == 1 ? p->files[0] : "the files");
		return 0;
	}
	if (!opts_given(cfg, "kind") && cfg->plot == NULL && !opts_given(cfg, "metric") &&
	    cfg->by == NULL) {
		cfg->kind = CHART_SLO;
		p->need_band = 0;
	}
	if (!p->need_lat)
		slo_rows_drop_probes(&p->rows);
	return 0;
}

/* The footer's line of the labels' environments, where the sidecars
 * (runenv.h) say their machines or servers differ: into p->env_line. */
static void plot_env_line(struct plot *p)
{
	struct runenv_set envs = { 0 };
	struct report_env *e = NULL;
	size_t n = 0;

	inputs_envs(&p->rows, &envs, "the chart");
	if (envs.n > 0) {
		report_env_collect_rows(&p->rows, &envs, &e, &n);
		report_env_short(e, n, p->env_line, sizeof p->env_line);
		free(e);
	}
	runenv_set_free(&envs);
}

static int plot_read(struct plot *p, struct rs_err *err)
{
	struct rs_config *cfg = p->cfg;
	char lnote[RS_ERR_LEN];

	struct inputs_opts io;

	/* The input pipeline (inputs.h); the tests are picked per panel
	 * (plot_panels), not here.  Only a percentile needs the histograms. */
	inputs_opts_from(cfg, &io);
	io.tests = NULL;
	io.each_has_rows = 1;
	io.hist = p->need_lat || isfinite(latency_metric_pct((enum series_metric)cfg->metric));
	if (inputs_read(&io, &p->rows, &p->lat, err) < 0)
		return -1;
	/* By the labels as given, before --by or the masters relabel them. */
	plot_env_line(p);
	if (cfg->kind == CHART_HEATMAP)
		return plot_heat_read(p, err);
	if (plot_read_slo(p, err) < 0)
		return -1;
	/* --by: the axis' values are lines (labels), the tests panels. */
	if (cfg->by != NULL) {
		enum series_axis a;

		if (series_axis_parse(cfg->by, &a) < 0)
			return rs_err_setk(err, RS_E_USAGE, "--by: '%s' is not one of clients, "
					   "data-size, threads, server-args", cfg->by);
		if (series_label_by(&p->rows, a, err) < 0)
			return rs_err_as(err, RS_E_INPUT);
	}
	/* Each master a series of its own, labelled by its address. */
	if (cfg->kind == CHART_MASTERS && rows_by_master(&p->rows, err) < 0)
		return rs_err_as(err, RS_E_INPUT);
	/* The latency kinds draw the latency metric against the throughput. */
	if (series_build(&p->rows, CHART_KIND_LATENCY(cfg->kind) ? SM_RPS :
			 (enum series_metric)cfg->metric, &p->set, err) < 0)
		return rs_err_as(err, RS_E_INPUT);
	/* A percentile over repeats is the merged histograms'. */
	latency_apply(&p->set, &p->rows, &p->lat, &p->lpts);
	if (latency_note(&p->lat, &p->lpts, series_metric_name(p->set.metric), lnote,
			 sizeof lnote) != NULL)
		rs_log(RS_LOG_DEBUG, "%s", lnote);
	p->lat_metric = opts_given(cfg, "metric") ? (enum series_metric)cfg->metric : SM_P99;
	if (!p->need_lat)
		return 0;
	plot_slo_budget(p);
	if (series_build_known(&p->rows, p->lat_metric, &p->lset, err) < 0)
		return rs_err_as(err, RS_E_INPUT);
	latency_apply(&p->lset, &p->rows, &p->lat, &p->lset_pts);
	if (CHART_KIND_LATENCY(cfg->kind) && cfg->kind != CHART_LATENCY_CDF &&
	    latency_note(&p->lat, &p->lset_pts, series_metric_name(p->lat_metric), lnote,
			 sizeof lnote) != NULL)
		rs_log(RS_LOG_DEBUG, "%s", lnote);
	return 0;
}

/* ---- drawing ---- */

/* A plot file's global key is a plot option, as on the command line. */
static int plot_file_key(void *ud, const char *file, unsigned line, const char *key,
			 const char *value, struct rs_err *err)
{
	return opts_set_file_key(CMD_PLOT, ud, file, line, key, value, err);
}

/* A plot file by path, or by installed name ("m1-article"). */
static int plot_file(struct rs_config *cfg, struct plotfile *pf, struct rs_err *err)
{
	const char *path = cfg->plot;
	char alt[4096];

	spec_find(cfg->plot, "plots", ".plot", alt, sizeof alt);
	path = alt;
	/* A bare name found nowhere: where it was looked for, and the
	 * installed name it likely meant. */
	if (access(path, R_OK) != 0 && errno == ENOENT && strchr(cfg->plot, '/') == NULL) {
		spec_not_found(cfg->plot, "plots", ".plot", err);
		rs_err_prefix(err, "--plot");
		return rs_err_as(err, RS_E_INPUT);
	}
	if (access(path, R_OK) != 0)
		return rs_err_setk(err, RS_E_INPUT, "--plot %s: %s", cfg->plot, strerror(errno));
	if (plotfile_read(path, plot_file_key, cfg, pf, err) < 0)
		return rs_err_as(err, RS_E_INPUT);
	return 0;
}

/* The options no file can be drawn without, and which go together.
 * Returns 0, or -1 with err of kind RS_E_USAGE. */
static int plot_check(const struct rs_config *cfg, int nfiles, struct rs_err *err)
{
	static const char *const heat_only[] = { "x", "y", "z" };
	const struct plot_backend *be = plot_backend(cfg->output);

	if (cfg->output == NULL)
		return rs_err_setk(err, RS_E_USAGE, "no output file: give -o OUT.png, OUT.pdf or "
				   "OUT.svg");
	if (be == NULL)
		return rs_err_setk(err, RS_E_USAGE, "-o %s: the output is a .png, a .pdf or an .svg "
				   "file", cfg->output);
	if (nfiles == 0)
		return rs_err_setk(err, RS_E_USAGE, "no CSV file given (rsweep plot FILE.csv... "
				   "-o OUT.png)");
	if (cfg->kind == CHART_SPEEDUP && cfg->metric != SM_RPS)
		return rs_err_setk(err, RS_E_USAGE, "--kind speedup compares requests per second: "
				   "drop --metric");
	if (cfg->kind == CHART_SLO && (opts_given(cfg, "metric") || cfg->by != NULL))
		return rs_err_setk(err, RS_E_USAGE, "--kind slo draws each search's sustained "
				   "requests per second: drop --%s", cfg->by != NULL ? "by" : "metric");
	if (cfg->kind == CHART_MASTERS && cfg->metric != SM_RPS)
		return rs_err_setk(err, RS_E_USAGE, "--kind masters draws each master's requests "
				   "per second: drop --metric");
	if (CHART_KIND_LATENCY(cfg->kind) && opts_given(cfg, "metric") &&
	    (cfg->metric == SM_RPS || cfg->kind == CHART_LATENCY_CDF))
		return rs_err_setk(err, RS_E_USAGE, "--kind %s draws %s: %s",
				   chart_kind_names[cfg->kind], cfg->kind == CHART_LATENCY_CDF ?
				   "whole latency distributions" : "a latency",
				   cfg->kind == CHART_LATENCY_CDF ? "drop --metric" :
				   "--metric is avg, p50, p95, p99 (the default), p999 or max");
	for (size_t i = 0; cfg->kind != CHART_HEATMAP && i < 3; i++)
		if (opts_given(cfg, heat_only[i]))
			return rs_err_setk(err, RS_E_USAGE, "--%s goes with --kind heatmap",
					   heat_only[i]);
	if (cfg->kind == CHART_HEATMAP && opts_given(cfg, "metric"))
		return rs_err_setk(err, RS_E_USAGE, "--kind heatmap colours its cells by --z: say "
				   "--z %s, not --metric", series_metric_name((enum series_metric)cfg->metric));
	if (cfg->kind == CHART_HEATMAP && cfg->by != NULL)
		return rs_err_setk(err, RS_E_USAGE, "--by draws a line for each value; a heat map's "
				   "axes are --x and --y: drop --by");
	if (cfg->kind != CHART_HEATMAP &&
	    (opts_given(cfg, "latency-budget") || opts_given(cfg, "budget-metric")))
		return rs_err_setk(err, RS_E_USAGE, "--%s goes with --kind heatmap (rsweep report "
				   "--latency-budget finds each series' depth)",
				   opts_given(cfg, "latency-budget") ? "latency-budget" : "budget-metric");
	if (opts_given(cfg, "budget-metric") && !opts_given(cfg, "latency-budget"))
		return rs_err_setk(err, RS_E_USAGE, "--budget-metric goes with --latency-budget");
	if (cfg->kind == CHART_HEATMAP && cfg->heat_x == cfg->heat_y)
		return rs_err_setk(err, RS_E_USAGE, "--x and --y are both %s: a heat map needs two "
				   "different axes", grid_axis_names[cfg->heat_x]);
	if (cfg->points.n > 0 && cfg->kind != CHART_LATENCY_CDF)
		return rs_err_setk(err, RS_E_USAGE, "--points goes with --kind latency-cdf");
	if (cfg->split && be->format == PLOT_PDF)
		return rs_err_setk(err, RS_E_USAGE, "--split is for PNG and SVG output (a PDF has "
				   "one page per panel)");
	return 0;
}

int cmd_plot(struct rs_config *cfg, struct rs_err *err)
{
	struct plot p;
	struct plotfile pf;
	char font[4096] = "";
	int rc;

	memset(&p, 0, sizeof p);
	memset(&pf, 0, sizeof pf);
	p.cfg = cfg;
	p.files = cfg->args;
	p.nfiles = cfg->nargs;
	p.font = font;
	rc = cfg->plot ? plot_file(cfg, &pf, err) : 0;
	if (rc == 0)
		rc = plot_check(cfg, p.nfiles, err);
	if (rc == 0) {
		p.format = plot_backend(cfg->output)->format;
		/* font_find's error has its kind: a bad --font, or no font installed. */
		rc = font_find(cfg->font, RS_DEFAULT_FONT, font, sizeof font, err);
	}
	p.need_lat = CHART_KIND_LATENCY(cfg->kind);
	p.need_band = cfg->kind == CHART_LINES || cfg->kind == CHART_MASTERS ||
		      cfg->kind == CHART_MULTIPLES;
	for (size_t i = 0; cfg->plot && i < pf.n; i++) {
		p.need_lat |= pf.v[i].kind >= 0 && CHART_KIND_LATENCY(pf.v[i].kind);
		p.need_band |= pf.v[i].kind == CHART_LINES || pf.v[i].kind == CHART_MULTIPLES;
	}
	/* The masters' rows replace the data's, for every panel at once. */
	for (size_t i = 0; rc == 0 && cfg->plot && i < pf.n; i++)
		if (pf.v[i].kind == CHART_MASTERS || cfg->kind == CHART_MASTERS)
			rc = rs_err_setk(err, RS_E_USAGE, "%s: --kind masters draws one chart, "
					 "not a plot file's panel: give it on the command line, "
					 "without --plot", pf.name);
	/* A heat map's panels are its grids, not a plot file's tests. */
	for (size_t i = 0; rc == 0 && cfg->plot && i < pf.n; i++)
		if (pf.v[i].kind == CHART_HEATMAP || cfg->kind == CHART_HEATMAP)
			rc = rs_err_setk(err, RS_E_USAGE, "%s: --kind heatmap draws a panel per "
					 "grid, not a plot file's panels: give it on the command "
					 "line, without --plot", pf.name);
	if (rc == 0)
		rc = plot_read(&p, err);
	if (rc == 0)
		rc = cfg->kind == CHART_HEATMAP ? plot_heat_panels(&p, err) :
						  plot_panels(&p, cfg->plot ? &pf : NULL, err);
	/* The series' analysis (seconds on a big file) only once the panels
	 * are known to be drawable: a chart of 4,000 series is refused as
	 * soon as the series are known (issue 40). */
	if (rc == 0 && cfg->kind != CHART_HEATMAP)
		rc = plot_analyse(&p, err);
	if (rc == 0)
		rc = plot_outputs_check(&p, err);
	if (rc == 0)
		rc = p.format == PLOT_PDF ? plot_pdf(&p, err) : plot_canvas(&p, err);
	plotfile_free(&pf);
	plot_free(&p);
	return rc;
}
