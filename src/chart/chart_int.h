/* chart_int.h: what the chart room's files share, and nothing outside them
 * uses.  Each file calls only those listed below it:
 *
 *   chart_layout.c   chart_layout(): each series' test, label and figures,
 *                    each test's name (a mix's with its shares as sent),
 *                    then the kind's one entry (the last section here);
 *   chart_lines.c    the kinds: lines against depth (and one test's
 *   chart_facets.c   masters), small multiples past the palette, speed-up
 *   chart_speedup.c  bars, the three latency charts, and heat maps
 *   chart_latency.c  (whose colours chart_viridis.c holds), and run
 *   chart_heatmap.c  --slo's answer against depth;
 *   chart_slo.c
 *   chart_frame.c    titles, legend, footer, the still-rising mark;
 *   chart_figures.c  each series' figures from the analysis (median or
 *                    fitted level, interval, bands), as line charts draw them;
 *   chart_place.c    the space labels have taken, a free place for a note;
 *   chart.c          palette, ticks, the display list and chart_draw.
 *
 * All sizes are points at a font scale f of 1 (a 1200 x 800 chart); a
 * layout multiplies each by f. */
#ifndef RS_CHART_INT_H
#define RS_CHART_INT_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "chart/chart.h"
#include "base/err.h"
#include "render/render.h"

#define UTF8_TIMES "\xc3\x97"
#define UTF8_DIVIDE "\xc3\xb7"
#define UTF8_DOT "\xc2\xb7"
#define UTF8_EN_DASH "\xe2\x80\x93"
#define UTF8_EM_DASH "\xe2\x80\x94"
#define UTF8_PLUSMINUS "\xc2\xb1"
#define UTF8_ELLIPSIS "\xe2\x80\xa6"

static const struct render_color C_WHITE = { 255, 255, 255, 255 };
static const struct render_color C_TEXT = { 0x22, 0x22, 0x22, 255 };
static const struct render_color C_MUTED = { 0x66, 0x66, 0x66, 255 };
static const struct render_color C_AXIS = { 0x55, 0x55, 0x55, 255 };
static const struct render_color C_GRID = { 0xE3, 0xE3, 0xE3, 255 };
static const struct render_color C_GRID_X = { 0xF0, 0xF0, 0xF0, 255 };

/* Font sizes (times f). */
#define CHART_TICK_SIZE 11.5      /* tick labels */
#define CHART_AXIS_SIZE 12.5      /* axis titles */
#define CHART_LABEL_SIZE 11.5     /* end labels, bar labels, categories */
#define CHART_NOTE_SIZE 10.5      /* "P=12", "still rising" */
#define CHART_FOOTER_SIZE 10

/* Where text's baseline goes to centre it on a y: half of ascent less
 * descent ((RENDER_ASCENT - RENDER_DESCENT) / 2), as a fraction of its size. */
#define CHART_MID_BASELINE 0.27
/* How far a tick mark reaches out of its axis, and where its label starts. */
#define CHART_TICK_LEN 5
#define CHART_TICK_GAP 8
/* Stroke widths of the axes and of the grid. */
#define CHART_AXIS_WIDTH 1.2
#define CHART_GRID_WIDTH 1

/* A series' line, as chart_place.c looks it up. */
struct chart_lay_line {
	size_t item;              /* index into the chart's items */
	int sorted;               /* x never decreases along it */
};

/* The layout's working state. */
struct chart_lay {
	const struct chart_input *in;
	const struct render_ops *ops;
	void *ctx;
	struct chart *c;
	double f;                 /* font scale */
	double pad;
	struct chart_box *taken;  /* boxes later labels must avoid */
	size_t ntaken, captaken;
	size_t *test_of, *label_of; /* per series: its test and label */
	size_t *colour_of;        /* per series: its colour (test, or label in
				   * small multiples) */
	const struct analysis_series **an_of; /* per series: its figures in
				   * in->an, NULL when it has none */
	const char **tests, **labels;
	size_t ntests, nlabels;
	/* Per test: how legends and panels name it, a mix with its members'
	 * shares as sent over the chart's series of it ("MIX_GET80_SET20 (GET
	 * 80%, SET 20%)", mixshare.h), else tests[t] itself; owned. */
	char **test_names;
	int any_mix;              /* some test_names carries shares */
	struct chart_lay_line *lines; /* chart_place.c: the series' lines so far */
	size_t nlines, caplines;
	size_t lines_seen;        /* items it has looked at */
	int fit;                  /* draw the fitted levels (chart_fit_decide) */
	size_t unstable, points;  /* the report's unstable points of the chart,
				   * of its points with repeats */
};

/* A y scale: value v0 at p1 (the bottom), v1 at p0 (the top). */
struct chart_yscale {
	double v0, v1, p0, p1;    /* p0 top, p1 bottom */
};

static inline double chart_ymap(const struct chart_yscale *s, double v)
{
	return s->p1 - (v - s->v0) / (s->v1 - s->v0) * (s->p1 - s->p0);
}

/* A depth axis: depth d0 at p0, d1 at p1, linear or log2. */
struct chart_xscale {
	double d0, d1, p0, p1;
	int log;
};

static inline double chart_xmap(const struct chart_xscale *s, double d)
{
	double t;

	if (s->d1 == s->d0)
		return (s->p0 + s->p1) / 2;
	t = s->log ? (log2(d) - log2(s->d0)) / (log2(s->d1) - log2(s->d0)) :
		     (d - s->d0) / (s->d1 - s->d0);
	return s->p0 + t * (s->p1 - s->p0);
}

/* ---- the display list and the palette (chart.c) ---- */

/* A new zeroed item of op at the end of c (series -1); never fails. */
struct chart_item *chart_push(struct chart *c, enum chart_op op);
void chart_rect(struct chart *c, double x, double y, double w, double h, struct render_color col);
/* A polyline of n points xy (copied). */
void chart_line(struct chart *c, const double *xy, size_t n, double width, struct render_color col,
		enum render_dash dash, int series);
void chart_seg(struct chart *c, double x0, double y0, double x1, double y1, double width,
	       struct render_color col);
void chart_mark(struct chart *c, double x, double y, double size, enum render_marker m,
		struct render_color fill, struct render_color outline, double ow, int series);
/* A text item with the box it covers (measured with L's back-end);
 * returns it, valid until the next push. */
struct chart_item *chart_text(struct chart_lay *L, enum chart_role role, int series, double x,
			      double y, const char *s, double size, struct render_color col,
			      enum render_align align, int vertical);
/* Width of s at size, as the back-end measures it. */
double chart_tw(struct chart_lay *L, const char *s, double size);
/* Whether the i-th test's colour is too light for text on white. */
int chart_palette_light(size_t i);

/* ---- label placement (chart_place.c) ---- */

/* Reserve box b: no label placed later covers it. */
void chart_take(struct chart_lay *L, struct chart_box b);
/* Whether b overlaps no box taken so far. */
int chart_box_clear(const struct chart_lay *L, const struct chart_box *b);
/* Spread labels (sorted by wanted centre y) at least h apart inside
 * [top, bottom]; returns 0, or -1 (y untouched) if they do not fit. */
int chart_spread(double *y, size_t n, double h, double top, double bottom);
/* Place text (role, series i, in palette colour col: the colour of the
 * line it belongs to) next to the point (cx, cy), whose mark has radius
 * rr: the first of 24 places, next to the mark then further out with a
 * leader, that is inside inner, clear of the labels placed so far and off
 * every series' line; else next to the mark on a line, over a white halo;
 * else nowhere.  Returns 1 when placed. */
int chart_note(struct chart_lay *L, const struct chart_box *inner, enum chart_role role, size_t i,
	       size_t col, double cx, double cy, double rr, const char *text, double size);

/* ---- the frame every kind has (chart_frame.c) ---- */

/* Title and subtitle from the top; returns the y below them. */
double chart_titles(struct chart_lay *L, const char *title, const char *subtitle);
/* Footer lines (each label's setup) at the bottom, at font size fs;
 * returns the top of the block. */
double chart_footer_block(struct chart_lay *L, double fs);
/* What a legend explains besides tests and labels. */
#define CHART_LEGEND_RING 1       /* a saturation ring */
#define CHART_LEGEND_RISING 2     /* the open triangle of a line not saturated */
#define CHART_LEGEND_DIP 4        /* ... one of which ends on a dip */
/* What the legend of a line chart of L's series must explain: a ring
 * where a series has a saturation depth among its points, a triangle
 * where one is not saturated (and whether such a line ends going down);
 * nothing for a metric other than requests per second. */
int chart_legend_marks(const struct chart_lay *L);
/* The legend in rows from y (tests, then labels, then the saturation ring
 * and the still-rising mark, as marks says; with by_label, the labels'
 * colours), wrapping within the chart's width; returns the y below it. */
double chart_legend(struct chart_lay *L, double y, int marks, int by_label);
/* The mark of series i still rising at its deepest depth, an open
 * triangle of radius r on (x, y), drawn whatever room there is for the
 * words "still rising" (the report's "not saturated": no chart leaves such
 * a line bare), and taken. */
void chart_rising_mark(struct chart_lay *L, double x, double y, double r, size_t i);
/* The words by that mark: "still rising" where series i's drawn line
 * rises into its deepest depth, else "not saturated".  The report's
 * verdict is the gain over the last doubling of depth, the line's last
 * step is one depth: a noisy last point can dip below the one before
 * while the curve still gains, and "still rising" by a line going down
 * says what the reader can see is not so. */
const char *chart_rising_words(const struct chart_lay *L, size_t i);

/* ---- each series' figures from the analysis: whether every series has
 * them, and what line charts and their small multiples draw of them
 * (chart_figures.c) ---- */

/* 0 when every series has its figures in in->an, else -1 with err naming
 * the first one without (a caller that did not analyse what it draws). */
int chart_need_an(const struct chart_lay *L, struct rs_err *err);

/* L->unstable, L->points, and L->fit for a line chart of requests per
 * second: --fit yes, or auto with more than half of the points unstable;
 * never without every series' level band. */
void chart_fit_decide(struct chart_lay *L);
/* The y value series i is drawn at for its point p: the fitted level in
 * fit mode, else the median. */
double chart_point_value(const struct chart_lay *L, size_t i, size_t p);

/* The depths and figures of every series of a line chart. */
struct chart_extent {
	unsigned dmin, dmax;      /* 0 and 0 with fewer than two depths */
	int logx;                 /* log2 axis: asked for, or powers of two */
	size_t maxrep;            /* most repeats at any point, 1 at least */
	double ymax;              /* largest median */
};

void chart_lines_extent(const struct chart_lay *L, struct chart_extent *e);
/* The 95% interval of the median at point p of series i (of the fitted
 * level there, in fit mode), or 0 when it is unknown (the core refused the
 * series, or its noise is unknown). */
int chart_median_ci(const struct chart_lay *L, size_t i, size_t p, double *lo, double *hi);
/* Series i's bands on scales xs, ys, in its colour at alpha: one per run
 * of depths with a known interval, none across a depth without one,
 * rather than a band made up there. */
void chart_series_bands(struct chart_lay *L, size_t i, const struct chart_xscale *xs,
			const struct chart_yscale *ys, uint8_t alpha);
/* More lines of one test than this in a panel (--by's values, many
 * labels) cover one another's bands: none are drawn, and the subtitle
 * says so. */
#define CHART_MAX_BANDS 4
/* bands for a panel where some point has an interval (1, else 0): -n when
 * n lines of one test, more than CHART_MAX_BANDS, share it. */
int chart_bands_drawn(const struct chart_lay *L, int bands);
/* The given title, or "Requests per second against pipeline depth — a vs
 * b"; the subtitle (after what) says what lines and bands are (bands as
 * chart_bands_drawn says). */
void chart_lines_titles(const struct chart_lay *L, size_t maxrep, int bands, const char *what,
			char *title, size_t tsize, char *subtitle, size_t ssize);

/* ---- the kinds, one entry each, which chart_layout.c alone calls: each
 * lays out L->in into L->c and returns 0, or -1 with err set ---- */

/* Lines against depth, a colour per L->colour_of (chart_lines.c). */
int chart_lay_lines(struct chart_lay *L, struct rs_err *err);
/* Small multiples: one panel per test, the labels as colours
 * (chart_facets.c). */
int chart_lay_facets(struct chart_lay *L, struct rs_err *err);
/* Speed-up bars between two labels (chart_speedup.c). */
int chart_lay_speedup(struct chart_lay *L, struct rs_err *err);
/* The three latency kinds (chart_latency.c). */
int chart_lay_latency(struct chart_lay *L, struct rs_err *err);
/* Heat maps: a panel per grid, one colour scale (chart_heatmap.c). */
int chart_lay_heatmap(struct chart_lay *L, struct rs_err *err);
/* run --slo's answer: sustained rate and bracket against depth, beside
 * the closed loop's (chart_slo.c). */
int chart_lay_slo(struct chart_lay *L, struct rs_err *err);

#endif
