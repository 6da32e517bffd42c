/* chart.h: the chart model: series in, a laid-out display list out.
 *
 * chart_layout() (chart_layout.c) decides everything a reader sees (scales,
 * 1-2-5 ticks, SI labels, palette, legend, bands, markers, saturation
 * marks, labels placed without overlaps, footer) in points, and knows
 * nothing of pixels or PDF; chart_draw() (chart.c) plays the result
 * through any back-end of render.h. */
#ifndef RS_CHART_H
#define RS_CHART_H

#include <stddef.h>

#include "analysis/analysis.h"
#include "base/err.h"
#include "analysis/grid.h"
#include "results/hist.h"
#include "analysis/latency.h"
#include "render/render.h"
#include "analysis/series.h"
#include "analysis/slo_answer.h"

/* The category of a speed-up chart's last bar: the report's overall
 * figure, the geometric mean of the tests' ratios (three tests or more). */
#define CHART_SPEEDUP_OVERALL "all (geo. mean)"

enum chart_kind {
	CHART_LINES, CHART_SPEEDUP,
	CHART_MASTERS,            /* lines, a colour per label: one test's masters (cmd_plot.c) */
	CHART_MULTIPLES,          /* lines as small multiples: a panel per test, a colour
				   * per label, however few tests and labels */
	CHART_LATENCY,            /* latency against achieved throughput: the hockey stick */
	CHART_LATENCY_DEPTH,      /* latency against depth */
	CHART_LATENCY_CDF,        /* chosen points' latency percentiles */
	CHART_HEATMAP,            /* a metric over two axes: a map per grid (grid.h) */
	CHART_SLO,                /* run --slo's answer: the rate each depth sustains
				   * within the objective, against depth (chart_slo.c) */
};
/* --fit: draw each line chart's fitted level, with its band and the
 * medians as faint points: when most of its points are unstable (auto),
 * always (yes) or never (no). */
enum chart_fit { CHART_FIT_AUTO, CHART_FIT_YES, CHART_FIT_NO };
static const char *const chart_fit_names[] = { "auto", "yes", "no", NULL };
/* --kind's and plot files' names of the kinds, in enum order. */
static const char *const chart_kind_names[] = { "lines", "speedup", "masters", "multiples", "latency",
						 "latency-depth", "latency-cdf", "heatmap", "slo", NULL };
/* Whether kind k draws latency (chart_latency.c). */
#define CHART_KIND_LATENCY(k) ((k) >= CHART_LATENCY && (k) <= CHART_LATENCY_CDF)

/* One latency distribution for CHART_LATENCY_CDF: a point's repeats'
 * histograms merged, and its name in the legend ("a GET P=16"). */
struct chart_dist {
	const char *name;
	const struct hist *h;
};

struct chart_input {
	enum chart_kind kind;
	const char *title;        /* NULL: a default from the metric and labels */
	double width, height;     /* points */
	enum series_metric metric;
	/* The series to draw, in legend order (one per test and label).  Tests
	 * get colours and markers in order of first appearance here. */
	const struct series *const *series;
	size_t nseries;
	int log_x;                /* log2 x axis (also automatic for powers of two) */
	double knee;              /* saturation fraction; 0: ANALYSIS_DEFAULT_KNEE */
	/* The figures of the series: analysis_run over the set they point
	 * into, with the same knee, baseline and depth.  The saturation rings,
	 * "still rising" notes, bands (95% interval of each median) and
	 * whiskers (95% interval of each ratio) are read from it, so that the
	 * chart says what the report says.  A series it does not hold is an
	 * error. */
	const struct analysis_result *an;
	/* Requests per second as lines (kinds lines and masters, and their
	 * small multiples): the fitted level instead of the medians' line,
	 * where an was computed with level_band (analysis_opts). */
	enum chart_fit fit;
	/* The latency kinds.  series are then requests per second; lat[i] is
	 * the series of series[i]'s label and test for the latency metric
	 * (lat_metric), NULL when it has none, and lat_ci[i] its points'
	 * figures with their intervals (latency_apply's, in its points'
	 * order), NULL when unknown.  an may be NULL for them. */
	const struct series *const *lat;
	const struct latency_ci *const *lat_ci;
	enum series_metric lat_metric;
	/* CHART_LATENCY_CDF: the distributions to draw. */
	const struct chart_dist *dist;
	size_t ndist;
	/* The rows the series were built from, for the footer's size of a
	 * point: the requests every row of a label has, or a --duration run's
	 * seconds (its rows' requests differ).  NULL: the first row's
	 * requests. */
	const struct rs_rows *rows;
	/* CHART_HEATMAP: the maps to draw, a panel each (series unused), all
	 * over axes gx (across) and gy (up) and coloured by metric on one
	 * scale; rows (which the footer then needs) are those the grids were
	 * built from. */
	const struct grid *const *grids;
	size_t ngrids;
	enum grid_axis gx, gy;
	/* CHART_HEATMAP under --latency-budget: the same rows' grids of the
	 * budget's metric (budget_metric, a latency), in which each map's twin
	 * is found by label, test and held (grid_find), and the budget in
	 * milliseconds; each map outlines its cells whose twin's median is
	 * within it.  NULL: no budget. */
	const struct grid_set *budget;
	double budget_ms;
	enum series_metric budget_metric;
	/* CHART_SLO: run --slo's searches to draw (slo_answer.h), a line
	 * each, in legend order; series, when given, are the closed-loop
	 * starts' (the footer's rows), and need not be analysed. */
	const struct slo_group *const *slo;
	size_t nslo;
	/* CHART_LATENCY: a latency objective's budget for lat_metric, in ms,
	 * drawn as a horizontal line named lat_budget_text ("p99=1ms"); 0:
	 * none. */
	double lat_budget_ms;
	const char *lat_budget_text;
	/* The footer's last line: the labels' environments where they differ
	 * ("m1: 8 cores, performance governor; intel: 4 cores, powersave
	 * governor", composed by the caller); NULL or "": none. */
	const char *footer_env;
};

struct chart_box {
	double x0, y0, x1, y1;
};

enum chart_op { CHART_RECT, CHART_BAND, CHART_LINE, CHART_MARKER, CHART_TEXT };
/* A saturation ring is a CHART_MARKER of role ROLE_SATURATION. */

/* What a text item is, so tests can find the title, legend, ... */
enum chart_role {
	ROLE_NONE, ROLE_TITLE, ROLE_SUBTITLE, ROLE_LEGEND, ROLE_TICK, ROLE_AXIS_TITLE,
	ROLE_END_LABEL, ROLE_SATURATION, ROLE_BAR_LABEL, ROLE_CATEGORY, ROLE_FOOTER,
	ROLE_REFERENCE,
	ROLE_RISING,              /* TEXT: "still rising" by a line's end, and
				   * MARKER: the open triangle on that end, drawn
				   * whether the text fits or not */
	ROLE_WHISKER,             /* LINE: a speed-up bar's 95% interval */
	ROLE_PANEL,               /* TEXT: a small multiple's test, a heat map's grid */
	/* Heat maps (series is the grid's index in chart_input.grids): */
	ROLE_CELL,                /* RECT: a measured cell in its colour; TEXT: its value */
	ROLE_CELL_EMPTY,          /* RECT: a cell nobody measured, grey */
	ROLE_CELL_WIDE,           /* BAND: the corner mark of a cell whose interval is
				   * wide or unknown */
	ROLE_COLORBAR,            /* RECT: a slice of the colour bar; TEXT: its ticks */
	ROLE_BUDGET,              /* LINE: a side of the outline of a heat map's cells
				   * within --latency-budget, or a latency chart's
				   * --slo budget; TEXT: its legend */
	/* CHART_SLO (series is the group's index in chart_input.slo): */
	ROLE_SLO_BRACKET,         /* LINE: a depth's bracket, met to missed */
	ROLE_SLO_CLOSED,          /* LINE: the closed loop's rates */
	ROLE_SLO_GENERATOR,       /* MARKER: a hollow mark, the generator's limit */
};

struct chart_item {
	enum chart_op op;
	enum chart_role role;
	int series;               /* index into chart_input.series, -1 if none */
	struct render_color color;
	struct render_color outline; /* CHART_MARKER */
	double x, y, w, h;        /* RECT: the rectangle; MARKER: centre, w = size;
				     TEXT: anchor on the baseline */
	double width;             /* LINE: stroke width; MARKER: outline width */
	enum render_dash dash;
	enum render_marker marker;
	enum render_align align;
	int vertical;
	double size;              /* TEXT: font size */
	char *text;               /* TEXT, owned */
	double *v;                /* LINE: x,y pairs; BAND: x[n], ylo[n], yhi[n]; owned */
	size_t n;
	struct chart_box box;     /* TEXT: the box its layout reserved */
};

struct chart {
	double width, height;
	struct chart_box plot;    /* the plot area */
	struct chart_item *items; /* in drawing order */
	size_t n, cap;
};

/* Lay out one chart (one panel) of in->width x in->height points, measuring
 * text with ops->text_width(ctx, ...); a line chart past the palette
 * (CHART_NPALETTE tests or CHART_NDASHES labels) as small multiples.  On
 * success *out is a new chart for chart_free().  Fails with a one-line
 * reason on input it cannot draw: no series, fewer than two depths for
 * lines, more labels than colours, a size too small for the legend or
 * the panels, speedup without exactly two labels or without a test both
 * labels have, a series in->an does not hold; a heat map of no grid, or
 * whose cells would come out too small to tell apart. */
int chart_layout(const struct chart_input *in, const struct render_ops *ops, void *ctx,
		 struct chart **out, struct rs_err *err);
void chart_free(struct chart *c);

/* 0 when series[0..n) (each with points) hold two depths or more, what a
 * line chart needs, else -1 with err saying "FILE: every row is at
 * pipeline depth D" (FILE: the first series' first row's file, when it
 * has one).  chart_layout checks it too; callers that lay out many charts
 * can check first. */
int chart_lines_check(const struct series *const *series, size_t n, struct rs_err *err);

/* One depth of a --slo search as CHART_SLO draws it (chart_slo.c). */
struct chart_slo_point {
	unsigned depth;
	double sustained;         /* the highest rate that met the objective; NAN: none */
	double lo, hi;            /* the bracket: met, and the lowest rate that
				   * missed (NAN: none was shown to miss) */
	double closed;            /* the closed loop's rate (the start); NAN: none */
	int generator;            /* the generator was the limit: the rate drawn
				   * (sustained, else the generator's rate) is a floor */
	double floor;             /* where a generator-limited depth is marked; NAN */
};

/* Group g's depths as the chart draws them, into out (g->nd of them, the
 * caller's).  Returns how many have something to draw. */
size_t chart_slo_points(const struct slo_group *g, struct chart_slo_point *out);

/* Play c through ops with its top-left corner at (ox, oy). */
void chart_draw(const struct chart *c, const struct render_ops *ops, void *ctx, double ox,
		double oy);

/* Ticks of a scale. */
#define CHART_MAX_TICKS 64
struct chart_ticks {
	double v[CHART_MAX_TICKS];
	size_t n;
	double step;
};

/* 1-2-5 ticks (step 1, 2 or 5 times a power of ten) that cover [lo, hi]:
 * v[0] <= lo and v[n-1] >= hi (give or take a billionth of a step, so
 * that rounding adds no tick), with at most max_ticks ticks (>= 2).  A
 * flat range, or one too narrow for exact ticks, is widened upwards.
 * Returns 0, or -1 when the range is not finite or hi < lo, or when every
 * tick that would cover it is beyond the largest double. */
int chart_ticks_nice(double lo, double hi, unsigned max_ticks, struct chart_ticks *t);

/* Integer ticks for a depth axis inside [lo, hi] (both depths), at most
 * max_ticks; log2: powers of two only.  lo is included when it is not too
 * close to the next tick. */
void chart_ticks_depth(unsigned lo, unsigned hi, unsigned max_ticks, int log2,
		       struct chart_ticks *t);

/* Format v for a tick label with an SI suffix (k, M, G) and as many
 * decimals as step needs at that suffix: 250k, 1.25M, 0.5, 0.  Writes at
 * most size bytes (NUL included). */
void chart_si(double v, double step, char *buf, size_t size);

/* The palette's colours, and the line styles (solid, dashed, dotted,
 * dash-dot) that tell labels apart.  A line chart of more tests than
 * colours, or more labels than styles, is drawn as small multiples: one
 * panel per test, each label a colour (and more labels than colours are
 * refused). */
#define CHART_NPALETTE 7
#define CHART_NDASHES 4

/* The Okabe-Ito colour and the marker shape of the i-th test of a chart. */
struct render_color chart_palette(size_t i);
enum render_marker chart_marker(size_t i);

/* Viridis at t in [0, 1] (clamped; NAN gives 0): the heat maps' colour
 * scale, perceptually uniform and legible in grey and to colour-blind
 * readers, from dark blue-violet (0) to yellow (1). */
struct render_color chart_viridis(double t);
/* A heat map's cell is marked wide when its 95% interval's half-width is
 * over this share of its median, or when it has no interval. */
#define CHART_HEAT_WIDE 0.10

#endif
