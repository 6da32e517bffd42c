/* report.c: analysis results as aligned text or markdown, the comparisons
 * as sentences, and report_write, which picks the writer (report_data.c
 * writes csv and json, report_notes.c the notes). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "depths.h"
#include "num.h"
#include "report.h"
#include "report_int.h"
#include "sbuf.h"
#include "vec.h"
#include "xalloc.h"

#define CELL 96
#define UTF8_PLUSMINUS "\xc2\xb1"

/* ---- numbers as text ---- */

/* v with prec decimals, or "-" when unknown. */
const char *report_fnum(char *buf, size_t size, double v, int prec)
{
	if (!isfinite(v))
		snprintf(buf, size, "-");
	else
		num_fmt(buf, size, v, prec);
	return buf;
}

/* Whether a formatted number is zero ("0.000", "-0.00"). */
static int fzero(const char *s)
{
	for (; *s; s++)
		if (*s >= '1' && *s <= '9')
			return 0;
	return 1;
}

/* v with an explicit sign ("+12.5", "-0.145", "0.000"), or "-". */
static const char *fsigned(char *buf, size_t size, double v, int prec)
{
	char tmp[64];

	if (!isfinite(v))
		return report_fnum(buf, size, v, prec);
	num_fmt(tmp, sizeof tmp, fabs(v), prec);
	snprintf(buf, size, "%s%s", fzero(tmp) ? "" : v < 0 ? "-" : "+", tmp);
	return buf;
}

/* |v| with prec decimals, trailing zeros (and a bare '.') dropped: 16, 0.36. */
static void fshort(char *buf, size_t size, double v, int prec)
{
	char *dot;
	size_t n;

	num_fmt(buf, size, fabs(v), prec);
	dot = strchr(buf, '.');
	if (dot == NULL)
		return;
	n = strlen(buf);
	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
}

const char *report_fdepth(char *buf, size_t size, unsigned d)
{
	if (d == 0)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%u", d);
	return buf;
}

void report_depths(const struct series *s, char *buf, size_t size)
{
	unsigned *v = xreallocarray(NULL, s->npts ? s->npts : 1, sizeof *v);

	for (size_t i = 0; i < s->npts; i++)
		v[i] = s->pts[i].depth;
	depths_format(v, s->npts, buf, size);
	free(v);
}

/* "yes", "no", or "" when unknown. */
const char *report_saturated(enum knee_sat s)
{
	return s == KNEE_SAT_YES ? "yes" : s == KNEE_SAT_NO ? "no" : "";
}

/* A verdict as csv and json spell it: "" when there is none. */
const char *report_verdict(const struct analysis_delta *d)
{
	return d != NULL && d->valid && d->verdict != KNEE_UNKNOWN ? knee_verdict_name(d->verdict) : "";
}

/* "2578875 (-2.1%..+1.8%)": v with its interval as shares of v, or v
 * alone when the interval is unknown; "-" when v is. */
static const char *fci(char *buf, size_t size, double v, double lo, double hi)
{
	char a[32], b[32], c[32];

	if (!isfinite(v))
		return report_fnum(buf, size, v, 0);
	if (!isfinite(lo) || !(v > 0))
		return report_fnum(buf, size, v, 0);
	if (isfinite(hi))
		snprintf(buf, size, "%s (%s%%..%s%%)", report_fnum(a, sizeof a, v, 0),
			 fsigned(b, sizeof b, 100 * (lo / v - 1), 1),
			 fsigned(c, sizeof c, 100 * (hi / v - 1), 1));
	else
		snprintf(buf, size, "%s (%s%%..)", report_fnum(a, sizeof a, v, 0),
			 fsigned(b, sizeof b, 100 * (lo / v - 1), 1));
	return buf;
}

/* "1.15x..1.27x", or "-". */
static const char *fratio_ci(char *buf, size_t size, const struct stats_ci *c)
{
	char a[32], b[32];

	if (!isfinite(c->lo) || !isfinite(c->hi))
		return report_fnum(buf, size, NAN, 2);
	snprintf(buf, size, "%sx..%sx", analysis_fmt_ratio(a, sizeof a, c->lo),
		 analysis_fmt_ratio(b, sizeof b, c->hi));
	return buf;
}

/* The interval's half-width as a share of the ratio, percent: 20 for
 * 0.59x..0.99x around 0.76x. */
static double report_halfwidth(const struct stats_ci *c)
{
	return 100 * (c->hi - c->lo) / (2 * c->est);
}

/* A verdict in words, as the table gives it: "faster", "slower", "same",
 * "cannot tell (+-20%)", or "no interval". */
static const char *report_verdict_words(char *buf, size_t size, const struct analysis_delta *d)
{
	char hw[32];

	switch (d->verdict) {
	case KNEE_CANNOT_TELL:
		fshort(hw, sizeof hw, report_halfwidth(&d->ci), 0);
		snprintf(buf, size, "cannot tell (" UTF8_PLUSMINUS "%s%%)", hw);
		return buf;
	case KNEE_UNKNOWN:
		return "no interval";
	default:
		return knee_verdict_name(d->verdict);
	}
}

/* ---- prose ---- */

/* A ratio's interval as the prose writes it: its estimate, low and high
 * ends, each into a buffer of 32. */
static void report_ci_words(const struct stats_ci *ci, char *x, char *y, char *z)
{
	analysis_fmt_ratio(x, 32, ci->est);
	analysis_fmt_ratio(y, 32, ci->lo);
	analysis_fmt_ratio(z, 32, ci->hi);
}

/* The latency's part of c's sentence into latw (size): at one common
 * depth, named when it is not the throughput's; a difference only with
 * its verdict, as for throughput, and nothing without an interval. */
static void report_prose_latency(const struct analysis_result *r, const struct analysis_cmp *c,
				 const struct analysis_delta *d, char *latw, size_t size)
{
	char at[2 * ROW_STR + 96] = "", lat[64], x[32], y[32], z[32];
	const struct analysis_series *sb = &r->series[c->base], *sa = &r->series[c->other];
	unsigned deeper = sb->sat_depth > sa->sat_depth ? sb->sat_depth : sa->sat_depth;
	const struct analysis_series *open = sb->saturated == KNEE_SAT_NO ? sb : sa;

	latw[0] = '\0';
	if (!isfinite(d->d_avg) || d->avg_verdict == KNEE_UNKNOWN)
		return;
	if (!r->depth && (d->base_depth != 1 || d->depth != 1)) {
		if (sb->saturated == KNEE_SAT_NO && sa->saturated == KNEE_SAT_NO)
			snprintf(at, sizeof at, " at P=%u (neither saturated by P=%u)", d->avg_depth,
				 d->avg_depth);
		else if (sb->saturated == KNEE_SAT_NO || sa->saturated == KNEE_SAT_NO)
			/* One saturation depth: the other is past the data. */
			snprintf(at, sizeof at, " at P=%u (%s%s; %s not saturated by P=%u)",
				 d->avg_depth, d->avg_depth == deeper ? "the saturation depth of "
				 : "the common depth nearest the saturation depth of ",
				 open == sb ? sa->rps->label : sb->rps->label, open->rps->label,
				 open->rps->pts[open->rps->npts - 1].depth);
		else
			snprintf(at, sizeof at, " at P=%u (%s)", d->avg_depth,
				 d->avg_depth == deeper ? "the deeper saturation depth"
				 : "the common depth nearest the deeper saturation depth");
	}
	fshort(lat, sizeof lat, d->d_avg, 3);
	report_ci_words(&d->avg_ci, x, y, z);
	switch (d->avg_verdict) {
	case KNEE_FASTER:
	case KNEE_SLOWER:
		snprintf(latw, size, " and a %sms %s average latency (%sx, 95%% interval %sx..%sx)%s",
			 lat, d->avg_verdict == KNEE_FASTER ? "higher" : "lower", x, y, z, at);
		break;
	case KNEE_SAME:
		snprintf(latw, size, ", with the same average latency (%sx, 95%% interval "
			 "%sx..%sx)%s", x, y, z, at);
		break;
	default:
		snprintf(latw, size, ", with an average latency that cannot be told apart (%sx, "
			 "95%% interval %sx..%sx)%s", x, y, z, at);
		break;
	}
}

/* " (valkey 8.0.1, against redis 7.0.15)" into buf when a and its baseline
 * b were measured on servers that name themselves differently: a
 * comparison of two servers says which; "" otherwise. */
static void report_prose_servers(const struct series *a, const struct series *b, char *buf,
				 size_t size)
{
	char sa[2 * ROW_STR], sb[2 * ROW_STR];

	buf[0] = '\0';
	rows_server_desc(a->first->server, sa, sizeof sa);
	rows_server_desc(b->first->server, sb, sizeof sb);
	if (sa[0] != '\0' && sb[0] != '\0' && strcmp(sa, sb) != 0)
		snprintf(buf, size, " (%s, against %s)", sa, sb);
}

int report_prose(const struct analysis_result *r, const struct analysis_cmp *c, char *buf,
		 size_t size)
{
	const struct analysis_delta *d = analysis_cmp_delta(r, c);
	const struct series *b = r->series[c->base].rps, *a = r->series[c->other].rps;
	char rps[64], x[32], y[32], z[32], thr[256], where[2 * ROW_STR + 64] = "";
	char latw[2 * ROW_STR + 256] = "", tail[64] = "", who[4 * ROW_STR + 32];

	if (!d->valid)
		return snprintf(buf, size, "%s: %s has no point at pipeline depth %u to compare.",
				a->test, series_at(a, r->depth) ? b->label : a->label, r->depth);
	if (r->depth)
		snprintf(where, sizeof where, " at pipeline depth %u", r->depth);
	else if (d->base_depth != 1 || d->depth != 1)
		snprintf(where, sizeof where, " at the peaks (%s P=%u, %s P=%u)", a->label, d->depth,
			 b->label, d->base_depth);
	/* Throughput: the verdict decides the words, never the point ratio
	 * alone (a ratio whose interval holds 1 is no speed-up). */
	fshort(rps, sizeof rps, d->d_rps / 1000, 2);
	report_ci_words(&d->ci, x, y, z);
	switch (d->verdict) {
	case KNEE_FASTER:
	case KNEE_SLOWER:
		snprintf(thr, sizeof thr, "a %sk %s throughput (%sx, 95%% interval %sx..%sx: %s)%s",
			 rps, d->verdict == KNEE_FASTER ? "higher" : "lower", x, y, z,
			 knee_verdict_name(d->verdict), where);
		break;
	case KNEE_SAME:
		snprintf(thr, sizeof thr, "the same throughput (%sx, 95%% interval %sx..%sx, within "
			 UTF8_PLUSMINUS "%.0f%%)%s", x, y, z, 100 * KNEE_CMP_BAND, where);
		break;
	case KNEE_CANNOT_TELL: {
		char sp[32];

		fshort(sp, sizeof sp, report_halfwidth(&d->ci), 0);
		snprintf(thr, sizeof thr, "throughput that cannot be told apart (%sx, 95%% interval "
			 "%sx..%sx, " UTF8_PLUSMINUS "%s%%)%s", x, y, z, sp, where);
		snprintf(tail, sizeof tail, "; repeat the points to tell");
		break;
	}
	case KNEE_UNKNOWN:
		/* No difference is stated without its verdict. */
		snprintf(thr, sizeof thr, "throughput with no interval%s (one measurement per side; "
			 "measure again with --repeat 5)", where);
		break;
	}
	report_prose_latency(r, c, d, latw, sizeof latw);
	report_prose_servers(a, b, who, sizeof who);
	return snprintf(buf, size, "%s: %s%s showed %s%s%s.", a->test, a->label, who, thr, latw,
			tail);
}

/* ---- tables for text and markdown ---- */

struct rtab {
	size_t ncols;
	const char *const *head;
	const char *align;        /* 'l' or 'r' per column */
	char **cells;             /* row-major */
	size_t ncells, cap;
};

static void rtab_init(struct rtab *t, const char *const *head, const char *align)
{
	memset(t, 0, sizeof *t);
	t->head = head;
	t->align = align;
	t->ncols = strlen(align);
}

static void rtab_add(struct rtab *t, const char *s)
{
	t->cells = vec_reserve(t->cells, &t->cap, t->ncells + 1, sizeof *t->cells, 64);
	t->cells[t->ncells++] = xstrdup(s);
}

static void rtab_addf(struct rtab *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void rtab_addf(struct rtab *t, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	rtab_add(t, buf);
}

static void rtab_free(struct rtab *t)
{
	for (size_t i = 0; i < t->ncells; i++)
		free(t->cells[i]);
	free(t->cells);
}

/* Columns a terminal gives s: UTF-8 continuation bytes take none. */
static size_t rtab_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xC0) != 0x80;
	return w;
}

static void rtab_text_row(FILE *fp, const struct rtab *t, const char *const *row, const size_t *w)
{
	struct sbuf line;

	sbuf_heap(&line);
	sbuf_fill(&line, ' ', 2);
	for (size_t c = 0; c < t->ncols; c++) {
		size_t pad = w[c] - rtab_width(row[c]);

		if (t->align[c] == 'r')
			sbuf_fill(&line, ' ', pad);
		sbuf_add(&line, row[c], strlen(row[c]));
		if (t->align[c] != 'r')
			sbuf_fill(&line, ' ', pad);
		sbuf_fill(&line, ' ', 2);
	}
	/* No trailing blanks: the last column is often left-aligned. */
	while (line.len > 0 && line.s[line.len - 1] == ' ')
		line.len--;
	line.s[line.len] = '\0';
	sbuf_add(&line, "\n", 1);
	fwrite(line.s, 1, line.len, fp);
	free(line.s);
}

static void rtab_text(FILE *fp, const struct rtab *t)
{
	size_t *w = xcalloc(t->ncols, sizeof *w);

	for (size_t c = 0; c < t->ncols; c++)
		w[c] = rtab_width(t->head[c]);
	for (size_t i = 0; i < t->ncells; i++) {
		size_t x = rtab_width(t->cells[i]);

		if (x > w[i % t->ncols])
			w[i % t->ncols] = x;
	}
	rtab_text_row(fp, t, t->head, w);
	for (size_t i = 0; i < t->ncells; i += t->ncols)
		rtab_text_row(fp, t, (const char *const *)&t->cells[i], w);
	free(w);
}

/* A markdown cell: '|' would end it early. */
static void md_cell(FILE *fp, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', fp);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, fp);
	}
}

static void rtab_markdown(FILE *fp, const struct rtab *t)
{
	fputc('|', fp);
	for (size_t c = 0; c < t->ncols; c++) {
		fputc(' ', fp);
		md_cell(fp, t->head[c]);
		fputs(" |", fp);
	}
	fputs("\n|", fp);
	for (size_t c = 0; c < t->ncols; c++)
		fputs(t->align[c] == 'r' ? " ---: |" : " --- |", fp);
	fputc('\n', fp);
	for (size_t i = 0; i < t->ncells; i += t->ncols) {
		fputc('|', fp);
		for (size_t c = 0; c < t->ncols; c++) {
			fputc(' ', fp);
			md_cell(fp, t->cells[i + c]);
			fputs(" |", fp);
		}
		fputc('\n', fp);
	}
}

/* ---- the sections, shared by text and markdown ---- */

static int report_any_bound(const struct analysis_result *r)
{
	for (size_t i = 0; i < r->nseries; i++)
		if (r->series[i].bound != BOUND_UNKNOWN)
			return 1;
	return 0;
}

const char *report_bound_name(enum analysis_bound b)
{
	return b == BOUND_SERVER ? "server" : b == BOUND_CLIENT ? "client" : "";
}

/* The series table: every column when wide, else the answers in 120
 * columns (label, test, P=1, peak, saturation, gain, the busier side). */
static void report_series_table(const struct analysis_result *r, int wide, struct rtab *t)
{
	static const char *const head[] = {
		"label", "test", "depths", "rps at P=1", "peak rps (95% interval)", "at P",
		"highest measured", "saturation P (95%)", "gain", "a (µs)", "b (µs)",
		"asymptote rps (95% interval)", "R²", "max CV", "busier at saturation",
	};
	static const char *const head_short[] = {
		"label", "test", "rps at P=1", "peak rps (95% interval)", "saturation P (95%)", "gain",
		"busier",
	};
	int bound = report_any_bound(r);
	char b1[CELL], b2[CELL];

	if (wide)
		rtab_init(t, head, bound ? "lllrrrrrrrrrrrl" : "lllrrrrrrrrrrr");
	else
		rtab_init(t, head_short, bound ? "llrrrrl" : "llrrrr");
	for (size_t i = 0; i < r->nseries; i++) {
		const struct analysis_series *a = &r->series[i];
		int fit = a->fit.status == FIT_OK;

		rtab_add(t, a->rps->label);
		rtab_add(t, a->rps->test);
		if (wide) {
			report_depths(a->rps, b1, sizeof b1);
			rtab_add(t, b1);
		}
		rtab_add(t, report_fnum(b1, sizeof b1, a->rps_at_1, 0));
		rtab_add(t, fci(b1, sizeof b1, a->peak_rps, a->peak_lo, a->peak_hi));
		if (wide) {
			rtab_add(t, report_fdepth(b1, sizeof b1, a->peak_depth));
			rtab_addf(t, "%s (P=%u)", report_fnum(b1, sizeof b1, a->top_rps, 0), a->top_depth);
		}
		if (a->saturated == KNEE_SAT_NO)
			rtab_addf(t, "not saturated by P=%u", a->rps->pts[a->rps->npts - 1].depth);
		else if (a->sat_depth && isfinite(a->sat_lo) && isfinite(a->sat_hi))
			rtab_addf(t, "%u (%s..%s)", a->sat_depth, report_fnum(b1, sizeof b1, a->sat_lo, 0),
				  report_fnum(b2, sizeof b2, a->sat_hi, 0));
		else
			rtab_add(t, report_fdepth(b1, sizeof b1, a->sat_depth));
		if (isfinite(a->gain))
			rtab_addf(t, "%sx", analysis_fmt_ratio(b1, sizeof b1, a->gain));
		else
			rtab_add(t, "-");
		if (!wide) {
			if (bound)
				rtab_add(t, a->bound == BOUND_UNKNOWN ? "-" : report_bound_name(a->bound));
			continue;
		}
		rtab_add(t, report_fnum(b1, sizeof b1, fit ? a->fit.a_us : NAN, 3));
		rtab_add(t, report_fnum(b1, sizeof b1, fit ? a->fit.b_us : NAN, 3));
		rtab_add(t, fci(b1, sizeof b1, a->fit.asymptote, a->fit.asymptote_lo,
				a->fit.asymptote_hi));
		rtab_add(t, report_fnum(b1, sizeof b1, a->fit.r2, 3));
		if (isfinite(a->max_cv))
			rtab_addf(t, "%s%%", report_fnum(b1, sizeof b1, 100 * a->max_cv, 1));
		else
			rtab_add(t, "-");
		if (bound) {
			char s[32], c[32];

			if (a->bound == BOUND_UNKNOWN)
				rtab_add(t, "-");
			else if (a->bound == BOUND_SERVER)
				rtab_addf(t, "server (%s vs client %s CPU)",
					  report_fnum(s, sizeof s, a->server_cpu, 2),
					  report_fnum(c, sizeof c, a->client_cpu, 2));
			else
				rtab_addf(t, "client (%s vs server %s CPU)",
					  report_fnum(c, sizeof c, a->client_cpu, 2),
					  report_fnum(s, sizeof s, a->server_cpu, 2));
		}
	}
}

/* "P=1", "peak P=15/33" (baseline / other). */
static void report_at(const struct analysis_delta *d, int peak, char *buf, size_t size)
{
	if (peak)
		snprintf(buf, size, "peak P=%u/%u", d->base_depth, d->depth);
	else
		snprintf(buf, size, "P=%u", d->depth);
}

static void report_delta_row(struct rtab *t, const struct analysis_result *r,
			     const struct analysis_cmp *c, const struct analysis_delta *d, int peak,
			     int wide)
{
	char b1[CELL];

	rtab_add(t, r->series[c->other].rps->test);
	rtab_add(t, r->series[c->other].rps->label);
	report_at(d, peak, b1, sizeof b1);
	rtab_add(t, b1);
	if (!d->valid) {
		for (int k = 0; k < (wide ? 9 : 5); k++)
			rtab_add(t, "-");
		return;
	}
	rtab_add(t, report_fnum(b1, sizeof b1, d->base_rps, 0));
	rtab_add(t, report_fnum(b1, sizeof b1, d->rps, 0));
	if (wide) {
		rtab_add(t, fsigned(b1, sizeof b1, d->d_rps, 0));
		if (isfinite(d->d_pct))
			rtab_addf(t, "%s%%", fsigned(b1, sizeof b1, d->d_pct, 1));
		else
			rtab_add(t, "-");
		if (isfinite(d->d_avg) && d->avg_depth != d->depth)
			rtab_addf(t, "%s at P=%u", fsigned(b1, sizeof b1, d->d_avg, 3), d->avg_depth);
		else
			rtab_add(t, fsigned(b1, sizeof b1, d->d_avg, 3));
	}
	if (isfinite(d->ratio))
		rtab_addf(t, "%sx", analysis_fmt_ratio(b1, sizeof b1, d->ratio));
	else
		rtab_add(t, "-");
	rtab_add(t, fratio_ci(b1, sizeof b1, &d->ci));
	rtab_add(t, report_verdict_words(b1, sizeof b1, d));
	if (!wide)
		return;
	if (c->ndepths > 1 && isfinite(c->ratio_min)) {
		char lo[32], hi[32];

		rtab_addf(t, "%sx..%sx (%zu)", analysis_fmt_ratio(lo, sizeof lo, c->ratio_min),
			  analysis_fmt_ratio(hi, sizeof hi, c->ratio_max), c->ndepths);
	} else {
		rtab_add(t, "-");
	}
}

/* Whether d's row says "no interval": a ratio without one. */
static int report_no_interval(const struct analysis_delta *d)
{
	return d->valid && d->verdict == KNEE_UNKNOWN && isfinite(d->ratio);
}

/* The comparison table (every column when wide, else the ratios and their
 * verdicts); returns how many of its rows have no interval. */
static size_t report_cmp_table(const struct analysis_result *r, int wide, struct rtab *t)
{
	static const char *const head[] = {
		"test", "label", "at", "baseline rps", "rps", "Δrps", "Δrps %", "Δavg ms", "ratio",
		"95% interval", "verdict", "ratio over common depths",
	};
	static const char *const head_short[] = {
		"test", "label", "at", "baseline rps", "rps", "ratio", "95% interval", "verdict",
	};
	size_t bare = 0;

	if (wide)
		rtab_init(t, head, "lllrrrrrrrlr");
	else
		rtab_init(t, head_short, "lllrrrrl");
	for (size_t i = 0; i < r->ncmps; i++) {
		const struct analysis_cmp *c = &r->cmps[i];

		if (r->depth) {
			report_delta_row(t, r, c, &c->at_depth, 0, wide);
			bare += report_no_interval(&c->at_depth);
			continue;
		}
		if (c->at_1.valid) {
			report_delta_row(t, r, c, &c->at_1, 0, wide);
			bare += report_no_interval(&c->at_1);
		}
		if (!c->at_1.valid || c->at_peak.base_depth != 1 || c->at_peak.depth != 1) {
			report_delta_row(t, r, c, &c->at_peak, 1, wide);
			bare += report_no_interval(&c->at_peak);
		}
	}
	return bare;
}

/* Speed-up rows of other label index group [from, to) of r->speedup. */
static void report_speedup_table(const struct analysis_result *r, size_t from, size_t to,
				 int bars, struct rtab *t)
{
	static const char *const head_bars[] = { "test", "rps", "baseline rps", "speed-up",
						  "95% interval", "" };
	static const char *const head[] = { "test", "rps", "baseline rps", "speed-up",
					    "95% interval" };
	double max = 0;
	char b1[CELL];

	rtab_init(t, bars ? head_bars : head, bars ? "lrrrrl" : "lrrrr");
	for (size_t i = from; i < to; i++)
		max = fmax(max, r->speedup[i].ratio);
	for (size_t i = from; i < to; i++) {
		const struct analysis_cmp *c = &r->cmps[r->speedup[i].cmp];
		const struct analysis_delta *d = analysis_cmp_delta(r, c);

		rtab_add(t, r->series[c->other].rps->test);
		rtab_add(t, report_fnum(b1, sizeof b1, d->rps, 0));
		rtab_add(t, report_fnum(b1, sizeof b1, d->base_rps, 0));
		rtab_addf(t, "%sx", analysis_fmt_ratio(b1, sizeof b1, r->speedup[i].ratio));
		rtab_add(t, fratio_ci(b1, sizeof b1, &d->ci));
		if (bars) {
			/* 40 columns for the largest ratio: a glance shows the order. */
			size_t n = max > 0 ? (size_t)lround(40 * r->speedup[i].ratio / max) : 0;

			memset(b1, '#', n < sizeof b1 ? n : sizeof b1 - 1);
			b1[n < sizeof b1 ? n : sizeof b1 - 1] = '\0';
			rtab_add(t, b1);
		}
	}
}

/* rtab t as text or markdown, then freed. */
static void report_table(FILE *fp, struct rtab *t, int md)
{
	if (md)
		rtab_markdown(fp, t);
	else
		rtab_text(fp, t);
	rtab_free(t);
}

static void report_notes_block(FILE *fp, char **notes, size_t nnotes, int md)
{
	if (nnotes == 0)
		return;
	fprintf(fp, "\n%sNotes\n", md ? "## " : "");
	if (md)
		fputc('\n', fp);
	for (size_t i = 0; i < nnotes; i++)
		fprintf(fp, "%s%s\n", md ? "- " : "  ", notes[i]);
}

/* The comparisons: the table, the speed-up tables and the prose. */
static void report_comparisons(FILE *fp, const struct analysis_result *r,
			       const struct report_opts *o, int md, int wide)
{
	const char *h = md ? "## " : "";
	struct rtab t;
	size_t bare;

	if (r->ncmps == 0) {
		if (r->nlabels > 1)
			fprintf(fp, "\n%s\n", md ? "*No test appears under both the baseline and another label.*" :
				"No test appears under both the baseline and another label.");
		return;
	}
	if (r->depth)
		fprintf(fp, "\n%sCompared with %s at pipeline depth %u\n", h, r->baseline, r->depth);
	else
		fprintf(fp, "\n%sCompared with %s at depth 1 and at each series' peak (P=baseline/other)\n",
			h, r->baseline);
	if (md)
		fputc('\n', fp);
	bare = report_cmp_table(r, wide, &t);
	report_table(fp, &t, md);
	if (bare > 0)
		fprintf(fp, "%s%zu %s no interval: one measurement per side; measure again with "
			"--repeat 5.%s\n", md ? "\n*" : "", bare, bare == 1 ? "ratio has" : "ratios have",
			md ? "*" : "");
	for (size_t i = 0; i < r->nspeedup;) {
		size_t j = i;
		const char *label = r->series[r->cmps[r->speedup[i].cmp].other].rps->label;

		while (j < r->nspeedup && r->speedup[j].label_idx == r->speedup[i].label_idx)
			j++;
		if (r->depth)
			fprintf(fp, "\n%sSpeed-up of %s over %s at pipeline depth %u, sorted\n", h, label,
				r->baseline, r->depth);
		else
			fprintf(fp, "\n%sSpeed-up of %s over %s, peak to peak, sorted\n", h, label,
				r->baseline);
		if (md)
			fputc('\n', fp);
		report_speedup_table(r, i, j, !md, &t);
		report_table(fp, &t, md);
		i = j;
	}
	if (o->prose) {
		fprintf(fp, "\n%sIn words\n", h);
		if (md)
			fputc('\n', fp);
		for (size_t i = 0; i < r->ncmps; i++) {
			char s[768];

			report_prose(r, &r->cmps[i], s, sizeof s);
			fprintf(fp, "%s%s\n", md ? "- " : "  ", s);
		}
	}
}

/* "Servers: redis = redis 7.0.15, valkey = valkey 8.0.1": what each label
 * was measured on, as the server names itself ("m1 = redis 7.0.15 and
 * redis 7.2.4" when its series name several), and a blank line; nothing
 * when no row names its server (imports).  O(series^2), a few hundred at
 * most. */
static void report_servers(FILE *fp, const struct analysis_result *r)
{
	int any = 0;

	for (size_t i = 0; i < r->nseries; i++) {
		const char *label = r->series[i].rps->label;
		size_t j, k;
		int n = 0;

		/* Each label once, from its first series. */
		for (j = 0; j < i && strcmp(r->series[j].rps->label, label) != 0; j++)
			;
		if (j < i)
			continue;
		for (j = i; j < r->nseries; j++) {
			char d[2 * ROW_STR], e[2 * ROW_STR];

			if (strcmp(r->series[j].rps->label, label) != 0 ||
			    rows_server_desc(r->series[j].rps->first->server, d, sizeof d)[0] == '\0')
				continue;
			/* Each server of the label once. */
			for (k = i; k < j; k++)
				if (strcmp(r->series[k].rps->label, label) == 0 &&
				    strcmp(rows_server_desc(r->series[k].rps->first->server, e,
							    sizeof e), d) == 0)
					break;
			if (k < j)
				continue;
			if (n++ == 0)
				fprintf(fp, "%s%s = %s", any ? ", " : "Servers: ", label, d);
			else
				fprintf(fp, " and %s", d);
			any = 1;
		}
	}
	if (any)
		fputs("\n\n", fp);
}

/* Text or markdown.  Wide (and markdown): the series with every column,
 * each series' notes, then the comparisons.  Else the answers first, in
 * 120 columns: saturation per series, the comparisons with their
 * verdicts, then the notes, with the unstable points counted by cause. */
static void report_human(FILE *fp, const struct analysis_result *r, const struct report_opts *o,
			 int md)
{
	int wide = md || o->wide;
	struct report_opts ow = *o;
	struct rtab t;
	char **notes, x[32];
	size_t nnotes;
	const char *h = md ? "## " : "";

	ow.wide = wide;
	nnotes = report_notes(r, &ow, &notes);
	report_servers(fp, r);
	if (wide)
		fprintf(fp, "%sSeries (medians over repeats; peak: the fitted level's; saturation: "
			"first depth whose level reaches %s%% of the peak; 95%% intervals by "
			"bootstrap)\n", h, report_fnum(x, sizeof x, 100 * o->knee, 0));
	else
		fprintf(fp, "Saturation (peak: the fitted level; saturation: first depth at %s%% of "
			"it; 95%% intervals)\n", report_fnum(x, sizeof x, 100 * o->knee, 0));
	if (md)
		fputc('\n', fp);
	report_series_table(r, wide, &t);
	report_table(fp, &t, md);
	if (wide)
		report_notes_block(fp, notes, nnotes, md);
	report_comparisons(fp, r, o, md, wide);
	if (!wide) {
		report_notes_block(fp, notes, nnotes, md);
		fprintf(fp, "\nEvery column, each series' notes: --wide; every figure: --format csv or "
			"json.\n");
	}
	report_free_notes(notes, nnotes);
}

int report_write(FILE *fp, const struct analysis_result *r, const struct report_opts *o,
		 struct rs_err *err)
{
	switch (o->format) {
	case FORMAT_TEXT: report_human(fp, r, o, 0); break;
	case FORMAT_MARKDOWN: report_human(fp, r, o, 1); break;
	case FORMAT_CSV: report_csv(fp, r, o); break;
	case FORMAT_JSON: report_json(fp, r, o); break;
	}
	if (ferror(fp))
		return rs_err_set(err, "%s", strerror(errno ? errno : EIO));
	return 0;
}
