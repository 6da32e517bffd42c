/* chart_speedup.c: a speed-up chart: one bar per test, the ratio of one
 * label's requests per second to the baseline's, with its interval. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart/chart_int.h"
#include "base/xalloc.h"

#define SPEEDUP_TICK_PAIRS 4
#define SPEEDUP_TICKS_MAX (2 * SPEEDUP_TICK_PAIRS + 1)

/* Same, cannot tell, no interval: no finding, so no colour of its own. */
static const struct render_color C_NEUTRAL = { 0xAA, 0xAA, 0xAA, 255 };

struct bar {
	const char *test;
	double ratio;
	double lo, hi;            /* its 95% interval; NAN when unknown */
	enum knee_verdict verdict;/* the report's, which colours the bar */
};

/* What the steps of a speed-up chart's layout share. */
struct speedup {
	struct chart_lay *L;
	double ticks_s, axis_s, bar_s, cat_s; /* font sizes */
	size_t base, other;       /* label indices */
	struct bar *bars;         /* by ratio, largest first */
	size_t nb;
	double rmax;              /* the largest ratio or interval top, 1 at least */
	double rmin;              /* the smallest ratio or interval bottom, 1 at most */
	size_t nwhisk;            /* bars with an interval */
	double top, bottom, left, right; /* the plot area */
	double slot;              /* the width of a bar's column */
	double bw;                /* a bar's width */
	int beside;               /* the value labels fit beside the bars' ends */
	int vertical;             /* category names read bottom to top */
	double tick[SPEEDUP_TICKS_MAX]; /* ratios, ascending */
	size_t nticks;
	struct chart_yscale ys;   /* of the ratio's log, over the ratios and 1x */
};

/* The ratio axis is logarithmic: 2x as far above 1x as 0.5x is below, so
 * that a ratio and its inverse look alike.  It spans the ratios and their
 * intervals, and 1x, the reference: ratios of 0.99x to 1.18x fill it
 * rather than the top of an axis from 0 (or of one as far below 1x as
 * above).  Its ticks are 1x and these, or their inverses, within it, up to
 * SPEEDUP_TICK_PAIRS each side, spread apart. */
static const double speedup_tick_ratios[] = { 1.02, 1.05, 1.1, 1.2, 1.5, 2, 3, 5, 10, 20, 50,
					      100, 1000 };
/* The plot area needs this height, times f, to be worth drawing. */
#define SPEEDUP_MIN_PLOT 60
/* Names turn vertical past this fraction of a bar's column. */
#define SPEEDUP_NAME_FRACTION 0.92
/* A bar takes this fraction of its column, up to SPEEDUP_BAR_MAX points,
 * less where its value label needs the room beside it, down to
 * SPEEDUP_BAR_MIN points (below that the label goes beyond the whisker). */
#define SPEEDUP_BAR_FRACTION 0.62
#define SPEEDUP_BAR_MAX 70
#define SPEEDUP_BAR_MIN 8
/* Points between a bar's side and its value label. */
#define SPEEDUP_LABEL_GAP 3

static int cmp_bar(const void *a, const void *b)
{
	const struct bar *x = a, *y = b;

	if (x->ratio != y->ratio)
		return x->ratio > y->ratio ? -1 : 1;
	return strcmp(x->test, y->test);
}

/* "1.18×": as the report prints a ratio (analysis_fmt_ratio), so that a
 * bar and the report's line for it read the same. */
static void fmt_ratio(double r, char *buf, size_t size)
{
	analysis_fmt_ratio(buf, size, r);
	if (strlen(buf) + sizeof UTF8_TIMES <= size)
		strcat(buf, UTF8_TIMES);
}

/* The baseline's and the other label's indices.  The baseline is the
 * analysis' (in->an->baseline: --baseline, or the data's first label), the
 * one the report compares with.  Fails unless the chart has exactly two
 * labels, one of them that baseline. */
static int speedup_labels(struct speedup *S, struct rs_err *err)
{
	const struct chart_lay *L = S->L;
	const char *want = L->in->an != NULL ? L->in->an->baseline : NULL;

	if (L->nlabels != 2)
		return rs_err_set(err, "a speed-up chart compares two labels; the data has %zu%s",
				  L->nlabels, L->nlabels == 1 ? " (add a second sweep's CSV)" : "");
	for (S->base = 0; want != NULL && S->base < 2 && strcmp(L->labels[S->base], want) != 0;
	     S->base++)
		;
	if (want == NULL || S->base == 2)
		return rs_err_set(err, "baseline '%s' is not a label in the chart (%s, %s)",
				  want ? want : "(none)", L->labels[0], L->labels[1]);
	S->other = 1 - S->base;
	return 0;
}

/* After the tests' bars (three or more), the report's overall figure of
 * them (analysis_overall): their ratios' geometric mean with its
 * interval, coloured by its verdict like the others. */
static void speedup_overall_bar(struct speedup *S)
{
	const struct chart_lay *L = S->L;
	const struct chart_input *in = L->in;
	struct analysis_overall ov;
	struct bar *bar;
	long li = -1;

	if (S->nb < ANALYSIS_OVERALL_MIN)
		return;
	for (size_t i = 0; i < in->nseries && li < 0; i++)
		if (L->label_of[i] == S->other)
			li = (long)L->an_of[i]->rps->label_idx;
	/* Only when the report's figure rests on the very tests drawn. */
	if (li < 0 || analysis_overall(in->an, (size_t)li, &ov) < 0 || ov.n != S->nb)
		return;
	S->bars = xreallocarray(S->bars, S->nb + 1, sizeof *S->bars);
	bar = &S->bars[S->nb++];
	bar->test = CHART_SPEEDUP_OVERALL;
	bar->ratio = ov.gm.est;
	bar->lo = ov.gm.lo;
	bar->hi = ov.gm.hi;
	bar->verdict = ov.verdict;
	if (isfinite(bar->lo) && isfinite(bar->hi)) {
		S->nwhisk++;
		S->rmax = fmax(S->rmax, bar->hi);
		S->rmin = fmin(S->rmin, bar->lo);
	}
	S->rmax = fmax(S->rmax, bar->ratio);
	S->rmin = fmin(S->rmin, bar->ratio);
}

/* Each bar is the report's comparison of its test (the fitted peak
 * levels, or the medians at --depth) with its interval: the chart
 * computes no ratio of its own.  Fails when no test has one. */
static int speedup_bars(struct speedup *S, struct rs_err *err)
{
	const struct chart_lay *L = S->L;
	const struct chart_input *in = L->in;

	S->bars = xcalloc(L->ntests, sizeof *S->bars);
	for (size_t t = 0; t < L->ntests; t++) {
		const struct analysis_series *a = NULL;
		const struct analysis_cmp *cmp;
		const struct analysis_delta *d = NULL;
		struct bar *bar = &S->bars[S->nb];

		for (size_t i = 0; i < in->nseries; i++)
			if (L->test_of[i] == t && L->label_of[i] == S->other)
				a = L->an_of[i];
		if (a == NULL || (cmp = analysis_cmp_of(in->an, a)) == NULL)
			continue;
		/* The baseline's series of the test must be on the chart too. */
		for (size_t i = 0; i < in->nseries && d == NULL; i++)
			if (L->test_of[i] == t && L->an_of[i] == &in->an->series[cmp->base])
				d = analysis_cmp_delta(in->an, cmp);
		if (d == NULL || !d->valid || !isfinite(d->ratio))
			continue;
		bar->test = L->tests[t];
		bar->ratio = d->ratio;
		bar->lo = bar->hi = NAN;
		bar->verdict = d->verdict;
		if (isfinite(d->ci.lo) && isfinite(d->ci.hi)) {
			bar->lo = d->ci.lo;
			bar->hi = d->ci.hi;
			S->nwhisk++;
			S->rmax = fmax(S->rmax, d->ci.hi);
			S->rmin = fmin(S->rmin, d->ci.lo);
		}
		S->rmax = fmax(S->rmax, bar->ratio);
		S->rmin = fmin(S->rmin, bar->ratio);
		S->nb++;
	}
	if (S->nb == 0) {
		if (in->an->depth)
			return rs_err_set(err, "no test has both '%s' and '%s' at depth %u", L->labels[0],
					  L->labels[1], in->an->depth);
		return rs_err_set(err, "no test has figures for both '%s' and '%s'", L->labels[0],
				  L->labels[1]);
	}
	qsort(S->bars, S->nb, sizeof *S->bars, cmp_bar);
	speedup_overall_bar(S);
	return 0;
}

/* The title (given, or "Speed-up of a over b, per test") and a subtitle
 * saying what is divided by what. */
static void speedup_titles(struct speedup *S)
{
	struct chart_lay *L = S->L;
	const struct chart_input *in = L->in;
	const char *o = L->labels[S->other], *b = L->labels[S->base];
	char title[512], subtitle[512], what[320];
	int pale = 0;

	if (in->title && *in->title)
		snprintf(title, sizeof title, "%s", in->title);
	else
		snprintf(title, sizeof title, "Speed-up of %s over %s, per test", o, b);
	/* The subtitle promises only what is drawn. */
	for (size_t i = 0; i < S->nb; i++)
		pale |= S->bars[i].verdict == KNEE_FASTER_UNSURE ||
			S->bars[i].verdict == KNEE_SLOWER_UNSURE;
	if (S->nwhisk == S->nb)
		snprintf(what, sizeof what, "whiskers: 95%% interval; blue faster, vermilion slower%s, "
			 "grey same or cannot tell", pale ? " (pale: size unsure)" : "");
	else if (S->nwhisk > 0)
		snprintf(what, sizeof what, "whiskers: 95%% interval (none: one measurement per side); "
			 "blue faster, vermilion slower%s, grey same, cannot tell or no interval",
			 pale ? " (pale: size unsure)" : "");
	else
		snprintf(what, sizeof what, "no interval: one measurement per side; measure again "
			 "with --repeat 5");
	if (in->an->depth)
		snprintf(subtitle, sizeof subtitle,
			 "Median requests per second of %s " UTF8_DIVIDE " those of %s, at pipeline depth %u; %s",
			 o, b, in->an->depth, what);
	else
		snprintf(subtitle, sizeof subtitle,
			 "Peak requests per second of %s " UTF8_DIVIDE " those of %s (each its fitted peak level); %s",
			 o, b, what);
	S->top = chart_titles(L, title, subtitle) + 0.6 * S->ticks_s;
}

/* A tick label: "1.5×", "0.67×", "0.5×": two decimals at most, no
 * trailing zero. */
static void speedup_tick(const struct speedup *S, size_t i, char *buf, size_t size)
{
	char *e;

	snprintf(buf, size, "%.2f", S->tick[i]);
	for (e = buf + strlen(buf); e > buf && e[-1] == '0'; e--)
		;
	if (e > buf && e[-1] == '.')
		e--;
	snprintf(e, size - (size_t)(e - buf), "%s", UTF8_TIMES);
}

/* y of ratio r on the log axis (a ratio that is not positive: the bottom). */
static double speedup_y(const struct speedup *S, double r)
{
	return chart_ymap(&S->ys, r > 0 ? log(r) : S->ys.v0);
}

/* The ticks of one side of 1x (up: 1, above it, else below) within
 * log extent m (> 0): from the farthest in, each at least gap (in log)
 * from the one before and from 1x.  Returns how many, into r, farthest
 * first. */
static size_t speedup_side_ticks(double m, double gap, int up, double *r)
{
	double last = INFINITY;
	size_t ns = 0;

	for (size_t k = sizeof speedup_tick_ratios / sizeof *speedup_tick_ratios;
	     k-- > 0 && ns < SPEEDUP_TICK_PAIRS;) {
		double l = log(speedup_tick_ratios[k]);

		if (l <= m && l >= gap && last - l >= gap) {
			r[ns++] = up ? speedup_tick_ratios[k] : 1 / speedup_tick_ratios[k];
			last = l;
		}
	}
	return ns;
}

/* The log ratio axis over the ratios, their interval ends and 1x (12% of
 * the span more at each end, room for the labels beyond the bars; 1.05x
 * each way at least), and its ticks: 1x and those of each side. */
static void speedup_scale(struct speedup *S)
{
	double lo = fmin(log(S->rmin), 0), hi = fmax(log(S->rmax), 0), pad, gap;
	double up[SPEEDUP_TICK_PAIRS], down[SPEEDUP_TICK_PAIRS];
	size_t nu, nd;

	if (hi - lo < 2 * log(1.05)) {
		double grow = (2 * log(1.05) - (hi - lo)) / 2;

		/* Grow away from 1x where a side is empty: it stays near an edge. */
		if (lo == 0)
			hi += 2 * grow;
		else if (hi == 0)
			lo -= 2 * grow;
		else
			lo -= grow, hi += grow;
	}
	pad = 0.12 * (hi - lo);
	lo -= pad;
	hi += pad;
	gap = (hi - lo) / (2 * SPEEDUP_TICK_PAIRS + 2);
	nd = speedup_side_ticks(-lo, gap, 0, down);
	nu = speedup_side_ticks(hi, gap, 1, up);
	S->nticks = 0;
	for (size_t k = 0; k < nd; k++)
		S->tick[S->nticks++] = down[k];
	S->tick[S->nticks++] = 1;
	for (size_t k = nu; k-- > 0;)
		S->tick[S->nticks++] = up[k];
	S->ys.v0 = lo;
	S->ys.v1 = hi;
}

/* The bars' width, and whether each value label fits beside its bar's
 * end, clear of the whisker (which runs up the bar's middle) and of the
 * next column's bar: the bars narrow for it, to SPEEDUP_BAR_MIN. */
static void speedup_width(struct speedup *S)
{
	struct chart_lay *L = S->L;
	double f = L->f, lw = 0;
	char buf[64];

	for (size_t i = 0; i < S->nb; i++) {
		fmt_ratio(S->bars[i].ratio, buf, sizeof buf);
		lw = fmax(lw, chart_tw(L, buf, S->bar_s));
	}
	for (int pass = 0; pass < 2; pass++) {
		double over;

		S->bw = fmin(SPEEDUP_BAR_FRACTION * S->slot, SPEEDUP_BAR_MAX * f);
		/* Half a column's gap each side of a bar: the label takes its
		 * right one and the next column's left one. */
		S->bw = fmin(S->bw, S->slot - lw - 2 * SPEEDUP_LABEL_GAP * f);
		S->beside = S->bw >= SPEEDUP_BAR_MIN * f;
		if (!S->beside) {
			S->bw = fmin(SPEEDUP_BAR_FRACTION * S->slot, SPEEDUP_BAR_MAX * f);
			return;
		}
		/* The last column's label stays within the plot: the columns
		 * narrow by what it would stick out. */
		over = S->bw / 2 + SPEEDUP_LABEL_GAP * f + lw - S->slot / 2;
		if (pass > 0 || over <= 0)
			return;
		S->right -= over;
		S->slot = (S->right - S->left) / (double)S->nb;
	}
}

/* The footer, the log ratio scale (speedup_scale), the plot area and
 * whether category names must turn vertical.  Fails when the chart is too
 * small. */
static int speedup_frame(struct speedup *S, struct rs_err *err)
{
	struct chart_lay *L = S->L;
	double f = L->f, catw = 0, yw = 0;
	char buf[64];

	S->bottom = chart_footer_block(L, CHART_FOOTER_SIZE * f) - 10 * f;
	for (size_t i = 0; i < S->nb; i++)
		catw = fmax(catw, chart_tw(L, S->bars[i].test, S->cat_s));
	if (!(S->rmin > 0) || !isfinite(S->rmax))
		return rs_err_set(err, "cannot scale the speed-up axis (ratios %g to %g)", S->rmin,
				  S->rmax);
	speedup_scale(S);
	for (size_t i = 0; i < S->nticks; i++) {
		speedup_tick(S, i, buf, sizeof buf);
		yw = fmax(yw, chart_tw(L, buf, S->ticks_s));
	}
	S->left = L->pad + (RENDER_ASCENT + RENDER_DESCENT) * S->axis_s + 10 * f + yw +
		  CHART_TICK_GAP * f;
	S->right = L->in->width - L->pad;
	S->slot = (S->right - S->left) / (double)S->nb;
	S->vertical = catw > SPEEDUP_NAME_FRACTION * S->slot;
	speedup_width(S);
	S->bottom -= S->vertical ? catw + 8 * f : (RENDER_ASCENT + RENDER_DESCENT) * S->cat_s + 8 * f;
	if (S->bottom - S->top < SPEEDUP_MIN_PLOT * f)
		return rs_err_set(err, "chart of %.0fx%.0f is too small for %zu bars", L->in->width,
				  L->in->height, S->nb);
	L->c->plot = (struct chart_box){ S->left, S->top, S->right, S->bottom };
	S->ys.p0 = S->top;
	S->ys.p1 = S->bottom;
	return 0;
}

static void speedup_grid(struct speedup *S)
{
	struct chart_lay *L = S->L;
	double f = L->f;
	char buf[64];

	for (size_t i = 0; i < S->nticks; i++) {
		double y = speedup_y(S, S->tick[i]);

		chart_seg(L->c, S->left, y, S->right, y, CHART_GRID_WIDTH * f, C_GRID);
		speedup_tick(S, i, buf, sizeof buf);
		chart_seg(L->c, S->left - CHART_TICK_LEN * f, y, S->left, y, CHART_AXIS_WIDTH * f, C_AXIS);
		chart_text(L, ROLE_TICK, -1, S->left - CHART_TICK_GAP * f,
			   y + CHART_MID_BASELINE * S->ticks_s, buf, S->ticks_s, C_TEXT, RENDER_RIGHT, 0);
	}
}

/* Bar i from 1x to its ratio coloured by the report's verdict (blue faster,
 * vermilion slower, pale for a direction of unsure size, grey same,
 * cannot tell or no interval), its whisker, its value label beside the
 * bar's end (or, where the columns are too narrow, beyond the whisker's
 * end) and its test's name under the axis. */
static void speedup_bar(struct speedup *S, size_t i)
{
	struct chart_lay *L = S->L;
	struct chart *c = L->c;
	const struct bar *bar = &S->bars[i];
	double f = L->f, bar_s = S->bar_s, cat_s = S->cat_s;
	double cx = S->left + ((double)i + 0.5) * S->slot;
	double bw = S->bw;
	double y1 = speedup_y(S, 1), yr = speedup_y(S, bar->ratio);
	struct render_color col = KNEE_VERDICT_FASTERISH(bar->verdict) ? chart_palette(0)
				  : KNEE_VERDICT_SLOWERISH(bar->verdict) ? chart_palette(3)
									 : C_NEUTRAL;
	struct chart_item *it;
	double ylab = yr;
	char buf[64];

	/* At least a point high, so that a ratio of 1 still shows. */
	/* The direction known, its size not (the one verdict rule): the
	 * direction's colour, pale. */
	if (bar->verdict == KNEE_FASTER_UNSURE || bar->verdict == KNEE_SLOWER_UNSURE) {
		col.r = (unsigned char)((col.r + 2 * 255) / 3);
		col.g = (unsigned char)((col.g + 2 * 255) / 3);
		col.b = (unsigned char)((col.b + 2 * 255) / 3);
	}
	chart_rect(c, cx - bw / 2, fmin(y1, yr), bw, fmax(fabs(yr - y1), 1 * f), col);
	chart_take(L, (struct chart_box){ cx - bw / 2, fmin(y1, yr), cx + bw / 2, fmax(y1, yr) });
	if (isfinite(bar->lo)) {
		/* The whisker: a thin line over the interval, capped. */
		double ylo = speedup_y(S, bar->lo), yhi = speedup_y(S, bar->hi);
		double cw = fmin(bw / 4, 8 * f);

		chart_seg(c, cx, ylo, cx, yhi, CHART_AXIS_WIDTH * f, C_TEXT);
		c->items[c->n - 1].role = ROLE_WHISKER;
		chart_seg(c, cx - cw, ylo, cx + cw, ylo, CHART_AXIS_WIDTH * f, C_TEXT);
		chart_seg(c, cx - cw, yhi, cx + cw, yhi, CHART_AXIS_WIDTH * f, C_TEXT);
		chart_take(L, (struct chart_box){ cx - cw, fmin(ylo, yhi), cx + cw, fmax(ylo, yhi) });
		/* The label clears the whisker's far end. */
		ylab = bar->ratio >= 1 ? fmin(yr, yhi) : fmax(yr, ylo);
	}
	fmt_ratio(bar->ratio, buf, sizeof buf);
	if (S->beside)
		/* Beside the bar's end, on the bar's side of it: above the end of
		 * a bar that rises, below that of one that falls, so that it
		 * reads as the bar's and clears the 1x line. */
		it = chart_text(L, ROLE_BAR_LABEL, -1, cx + bw / 2 + SPEEDUP_LABEL_GAP * f,
				bar->ratio >= 1 ? yr - RENDER_DESCENT * bar_s :
				yr + RENDER_ASCENT * bar_s, buf, bar_s, C_TEXT, RENDER_LEFT, 0);
	else
		it = chart_text(L, ROLE_BAR_LABEL, -1, cx,
				bar->ratio >= 1 ? ylab - 5 * f : ylab + 5 * f + RENDER_ASCENT * bar_s,
				buf, bar_s, C_TEXT, RENDER_CENTER, 0);
	chart_take(L, it->box);
	if (S->vertical)
		chart_text(L, ROLE_CATEGORY, -1, cx + CHART_MID_BASELINE * cat_s, S->bottom + 8 * f,
			   bar->test, cat_s, C_TEXT, RENDER_RIGHT, 1);
	else
		chart_text(L, ROLE_CATEGORY, -1, cx, S->bottom + 8 * f + RENDER_ASCENT * cat_s, bar->test,
			   cat_s, C_TEXT, RENDER_CENTER, 0);
}

/* The 1x reference line over the bars, labelled where no bar is: right
 * above, right below, left above, left below. */
static void speedup_reference(struct speedup *S)
{
	struct chart_lay *L = S->L;
	double f = L->f, bar_s = S->bar_s;
	double y1 = speedup_y(S, 1), w, h = (RENDER_ASCENT + RENDER_DESCENT) * bar_s;
	double cand[4][2];
	char buf[64];

	chart_seg(L->c, S->left, y1, S->right, y1, 1.5 * f, C_TEXT);
	snprintf(buf, sizeof buf, "1" UTF8_TIMES " = %s", L->labels[S->base]);
	w = chart_tw(L, buf, bar_s);
	cand[0][0] = S->right - 4 * f - w, cand[0][1] = y1 - 4 * f - h;
	cand[1][0] = S->right - 4 * f - w, cand[1][1] = y1 + 4 * f;
	cand[2][0] = S->left + 4 * f, cand[2][1] = y1 - 4 * f - h;
	cand[3][0] = S->left + 4 * f, cand[3][1] = y1 + 4 * f;
	for (size_t k = 0; k < 4; k++) {
		struct chart_box b = { cand[k][0], cand[k][1], cand[k][0] + w, cand[k][1] + h };

		if (b.y0 < S->top || b.y1 > S->bottom || !chart_box_clear(L, &b))
			continue;
		chart_text(L, ROLE_REFERENCE, -1, b.x0, b.y0 + RENDER_ASCENT * bar_s, buf, bar_s, C_TEXT,
			   RENDER_LEFT, 0);
		break;
	}
}

static void speedup_axes(struct speedup *S)
{
	struct chart_lay *L = S->L;
	double f = L->f;
	char buf[64];

	chart_seg(L->c, S->left, S->bottom, S->right, S->bottom, CHART_AXIS_WIDTH * f, C_AXIS);
	chart_seg(L->c, S->left, S->top, S->left, S->bottom, CHART_AXIS_WIDTH * f, C_AXIS);
	snprintf(buf, sizeof buf, "speed-up (" UTF8_TIMES " %s, log scale)", L->labels[S->base]);
	chart_text(L, ROLE_AXIS_TITLE, -1, L->pad + RENDER_ASCENT * S->axis_s, (S->top + S->bottom) / 2,
		   buf, S->axis_s, C_TEXT, RENDER_CENTER, 1);
}

int chart_lay_speedup(struct chart_lay *L, struct rs_err *err)
{
	struct speedup S = { 0 };
	int rc = -1;

	S.L = L;
	S.ticks_s = CHART_TICK_SIZE * L->f;
	S.axis_s = CHART_AXIS_SIZE * L->f;
	S.bar_s = CHART_LABEL_SIZE * L->f;
	S.cat_s = CHART_LABEL_SIZE * L->f;
	S.rmax = 1;
	S.rmin = 1;
	if (speedup_labels(&S, err) < 0 || chart_need_an(L, err) < 0)
		return -1;
	if (speedup_bars(&S, err) < 0)
		goto out;
	speedup_titles(&S);
	if (speedup_frame(&S, err) < 0)
		goto out;
	speedup_grid(&S);
	for (size_t i = 0; i < S.nb; i++)
		speedup_bar(&S, i);
	speedup_reference(&S);
	speedup_axes(&S);
	rc = 0;
out:
	free(S.bars);
	return rc;
}
