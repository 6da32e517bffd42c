/* cmd_plot_int.h: what `rsweep plot` plans (cmd_plot.c: the inputs, the
 * panels, their analysis) and draws (cmd_plot_draw.c: each panel's chart
 * and the files written), shared by the two. */
#ifndef RS_CMD_PLOT_INT_H
#define RS_CMD_PLOT_INT_H

#include "analysis/analysis.h"
#include "analysis/grid.h"
#include "analysis/latency.h"
#include "analysis/series.h"
#include "analysis/slo_answer.h"
#include "chart/chart.h"
#include "cli/cmd.h"

enum plot_format { PLOT_PNG, PLOT_PDF, PLOT_SVG };

/* One chart to draw: its title, kind and series (a heat map's: grids). */
struct plot_panel {
	char *title;              /* NULL: the chart's default */
	int kind;
	const struct series **series;
	size_t n;
	const struct grid **grids;
	size_t ngrids;
	const struct slo_group **slo; /* CHART_SLO: its series' searches */
	size_t nslo;
};

struct plot {
	struct rs_config *cfg;
	struct rs_rows rows;
	struct series_set set;
	struct grid_set grids;    /* --kind heatmap: the rows over --x and --y */
	struct grid_set budget;   /* ... and of --budget-metric, with --latency-budget */
	double budget_ms;
	struct analysis_result an; /* the figures of set, as report has them */
	struct slo_answers slo;   /* run --slo's searches in the rows (n 0: none) */
	double slo_budget_ms;     /* --kind latency: their budget for lat_metric; 0: none */
	char slo_budget_text[128];
	struct latency_set lat;   /* the rows' histograms, from the sidecars */
	struct latency_points lpts; /* set's points' merged percentiles */
	/* The latency kinds: set is requests per second, lset the latency
	 * metric's series of the rows that have it, lset_pts its points. */
	enum series_metric lat_metric;
	struct series_set lset;
	struct latency_points lset_pts;
	size_t *by_test;          /* indices into set.v, by test, labels in order */
	size_t *by_test_start;    /* test t's are by_test[start[t]..start[t+1]) */
	struct plot_panel *panels;
	size_t npanels;
	enum plot_format format;
	const char *font;
	int need_lat;             /* some panel is a latency chart */
	int need_band;            /* some panel is a line chart --fit may draw */
	char **files;             /* the CSV operands (cfg->args) */
	char env_line[1024];      /* the footer's line of the labels' environments
				   * (report_env_short); "": none */
	int nfiles;
};

/* --latency-budget's grids and budget into a heat map's in (none
 * without it). */
void plot_heat_budget(const struct plot *p, struct chart_input *in);
/* No file the chart goes to (each of --split's) is one of the inputs.
 * Returns 0 or -1 (RS_E_USAGE). */
int plot_outputs_check(const struct plot *p, struct rs_err *err);
/* PNG and SVG: the panels side by side in a grid, or with --split a file
 * each.  Returns 0 or -1. */
int plot_canvas(struct plot *p, struct rs_err *err);
/* PDF: a page a panel.  Returns 0 or -1. */
int plot_pdf(struct plot *p, struct rs_err *err);

#endif
