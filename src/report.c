/* report.c: analysis results as aligned text, markdown, csv or json, and
 * the comparisons as sentences. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "depths.h"
#include "num.h"
#include "report.h"
#include "sbuf.h"
#include "vec.h"
#include "xalloc.h"

#define CELL 96
#define UTF8_PLUSMINUS "\xc2\xb1"

/* ---- numbers as text ---- */

/* v with prec decimals, or "-" when unknown. */
static const char *fnum(char *buf, size_t size, double v, int prec)
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
		return fnum(buf, size, v, prec);
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

static const char *fdepth(char *buf, size_t size, unsigned d)
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

/* The fit statuses as csv and json spell them. */
static const char *const fit_status[] = {
	[FIT_OK] = "ok", [FIT_TOO_FEW] = "too_few", [FIT_NONPOSITIVE] = "nonpositive",
	[FIT_POOR] = "poor", [FIT_FALLS] = "falls", [FIT_PATTERN] = "pattern",
};

/* "yes", "no", or "" when unknown. */
static const char *report_saturated(enum knee_sat s)
{
	return s == KNEE_SAT_YES ? "yes" : s == KNEE_SAT_NO ? "no" : "";
}

/* A verdict as csv and json spell it: "" when there is none. */
static const char *report_verdict(const struct analysis_delta *d)
{
	return d != NULL && d->valid && d->verdict != KNEE_UNKNOWN ? knee_verdict_name(d->verdict) : "";
}

/* "2578875 (-2.1%..+1.8%)": v with its interval as shares of v, or v
 * alone when the interval is unknown; "-" when v is. */
static const char *fci(char *buf, size_t size, double v, double lo, double hi)
{
	char a[32], b[32], c[32];

	if (!isfinite(v))
		return fnum(buf, size, v, 0);
	if (!isfinite(lo) || !(v > 0))
		return fnum(buf, size, v, 0);
	if (isfinite(hi))
		snprintf(buf, size, "%s (%s%%..%s%%)", fnum(a, sizeof a, v, 0),
			 fsigned(b, sizeof b, 100 * (lo / v - 1), 1),
			 fsigned(c, sizeof c, 100 * (hi / v - 1), 1));
	else
		snprintf(buf, size, "%s (%s%%..)", fnum(a, sizeof a, v, 0),
			 fsigned(b, sizeof b, 100 * (lo / v - 1), 1));
	return buf;
}

/* "1.15x..1.27x", or "-". */
static const char *fratio_ci(char *buf, size_t size, const struct stats_ci *c)
{
	char a[32], b[32];

	if (!isfinite(c->lo) || !isfinite(c->hi))
		return fnum(buf, size, NAN, 2);
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

int report_prose(const struct analysis_result *r, const struct analysis_cmp *c, char *buf,
		 size_t size)
{
	const struct analysis_delta *d = analysis_cmp_delta(r, c);
	const struct series *b = r->series[c->base].rps, *a = r->series[c->other].rps;
	char rps[64], x[32], y[32], z[32], thr[256], where[2 * ROW_STR + 64] = "";
	char latw[2 * ROW_STR + 256] = "", tail[64] = "";

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
	return snprintf(buf, size, "%s: %s showed %s%s%s.", a->test, a->label, thr, latw, tail);
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

static const char *report_bound_name(enum analysis_bound b)
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
		rtab_add(t, fnum(b1, sizeof b1, a->rps_at_1, 0));
		rtab_add(t, fci(b1, sizeof b1, a->peak_rps, a->peak_lo, a->peak_hi));
		if (wide) {
			rtab_add(t, fdepth(b1, sizeof b1, a->peak_depth));
			rtab_addf(t, "%s (P=%u)", fnum(b1, sizeof b1, a->top_rps, 0), a->top_depth);
		}
		if (a->saturated == KNEE_SAT_NO)
			rtab_addf(t, "not saturated by P=%u", a->rps->pts[a->rps->npts - 1].depth);
		else if (a->sat_depth && isfinite(a->sat_lo) && isfinite(a->sat_hi))
			rtab_addf(t, "%u (%s..%s)", a->sat_depth, fnum(b1, sizeof b1, a->sat_lo, 0),
				  fnum(b2, sizeof b2, a->sat_hi, 0));
		else
			rtab_add(t, fdepth(b1, sizeof b1, a->sat_depth));
		if (isfinite(a->gain))
			rtab_addf(t, "%sx", analysis_fmt_ratio(b1, sizeof b1, a->gain));
		else
			rtab_add(t, "-");
		if (!wide) {
			if (bound)
				rtab_add(t, a->bound == BOUND_UNKNOWN ? "-" : report_bound_name(a->bound));
			continue;
		}
		rtab_add(t, fnum(b1, sizeof b1, fit ? a->fit.a_us : NAN, 3));
		rtab_add(t, fnum(b1, sizeof b1, fit ? a->fit.b_us : NAN, 3));
		rtab_add(t, fci(b1, sizeof b1, a->fit.asymptote, a->fit.asymptote_lo,
				a->fit.asymptote_hi));
		rtab_add(t, fnum(b1, sizeof b1, a->fit.r2, 3));
		if (isfinite(a->max_cv))
			rtab_addf(t, "%s%%", fnum(b1, sizeof b1, 100 * a->max_cv, 1));
		else
			rtab_add(t, "-");
		if (bound) {
			char s[32], c[32];

			if (a->bound == BOUND_UNKNOWN)
				rtab_add(t, "-");
			else if (a->bound == BOUND_SERVER)
				rtab_addf(t, "server (%s vs client %s CPU)",
					  fnum(s, sizeof s, a->server_cpu, 2),
					  fnum(c, sizeof c, a->client_cpu, 2));
			else
				rtab_addf(t, "client (%s vs server %s CPU)",
					  fnum(c, sizeof c, a->client_cpu, 2),
					  fnum(s, sizeof s, a->server_cpu, 2));
		}
	}
}

/* Notes: one line each, "label test: what". */
/* An unstable point of series (its index), for the narrow report's worst. */
struct report_worst {
	size_t series;
	const struct analysis_unstable *u;
};
/* More unstable points than this are summarised, not listed. */
#define REPORT_UNSTABLE_LIST 6

void report_client_note(const struct analysis_result *r, size_t other, const char *base_client,
			char *buf, size_t size)
{
	const struct series *s = r->series[other].rps;

	snprintf(buf, size, "%s was measured by %s and %s by %s: every comparison between them "
		 "includes the difference between the two clients", s->label, s->first->client,
		 r->baseline, base_client);
}

static int report_unstable_by_cv(const void *x, const void *y)
{
	const struct analysis_unstable *a = *(const struct analysis_unstable *const *)x;
	const struct analysis_unstable *b = *(const struct analysis_unstable *const *)y;

	if (a->cv != b->cv)
		return a->cv > b->cv ? -1 : 1;
	return (a->depth > b->depth) - (a->depth < b->depth);
}

static int report_unstable_by_depth(const void *x, const void *y)
{
	const struct analysis_unstable *a = *(const struct analysis_unstable *const *)x;
	const struct analysis_unstable *b = *(const struct analysis_unstable *const *)y;

	return (a->depth > b->depth) - (a->depth < b->depth);
}

/* The notes on a's unstable points into v (room for REPORT_UNSTABLE_LIST
 * + 1); returns how many.  One line a point, with its likely cause; past
 * REPORT_UNSTABLE_LIST, a line that counts them by cause, then the worst. */
static size_t report_unstable_notes(const struct analysis_series *a, const struct report_opts *o,
				    char **v)
{
	const struct series *s = a->rps;
	const struct analysis_unstable **u;
	size_t n = 0, show = a->nunstable;
	char buf[512], x[32], why[160];

	if (a->nunstable == 0)
		return 0;
	u = xcalloc(a->nunstable, sizeof *u);
	for (size_t k = 0; k < a->nunstable; k++)
		u[k] = &a->unstable[k];
	if (a->nunstable > REPORT_UNSTABLE_LIST) {
		size_t count[CAUSE_UNKNOWN + 1] = { 0 };
		struct sbuf sb;

		for (size_t k = 0; k < a->nunstable; k++)
			count[a->unstable[k].cause.kind]++;
		sbuf_fixed(&sb, buf, sizeof buf);
		sbuf_printf(&sb, "%s %s: unstable (CV above %s%%) at %zu of %zu depths; likely causes: ",
			    s->label, s->test, fnum(x, sizeof x, 100 * o->cv_limit, 1), a->nunstable,
			    s->npts);
		for (int c = 0, first = 1; c <= CAUSE_UNKNOWN; c++)
			if (count[c] > 0) {
				sbuf_printf(&sb, "%s%s at %zu", first ? "" : ", ",
					    cause_name((enum cause_kind)c), count[c]);
				first = 0;
			}
		sbuf_printf(&sb, "; the %d worst:", REPORT_UNSTABLE_LIST);
		v[n++] = xstrdup(buf);
		qsort(u, a->nunstable, sizeof *u, report_unstable_by_cv);
		show = REPORT_UNSTABLE_LIST;
		qsort(u, show, sizeof *u, report_unstable_by_depth);
	}
	for (size_t k = 0; k < show; k++) {
		cause_format(&u[k]->cause, why, sizeof why);
		snprintf(buf, sizeof buf, "%s %s P=%u: CV %s%% over %zu repeats: %s", s->label, s->test,
			 u[k]->depth, fnum(x, sizeof x, 100 * u[k]->cv, 1), u[k]->n, why);
		v[n++] = xstrdup(buf);
	}
	free(u);
	return n;
}

static int report_unstable_worst(const void *x, const void *y)
{
	const struct report_worst *a = x, *b = y;

	if (a->u->cv != b->u->cv)
		return a->u->cv > b->u->cv ? -1 : 1;
	if (a->series != b->series)
		return a->series < b->series ? -1 : 1;
	return (a->u->depth > b->u->depth) - (a->u->depth < b->u->depth);
}

/* The narrow report's notes for every series at once, into v (room for
 * REPORT_UNSTABLE_LIST + 2): how many series are not saturated, and the
 * unstable points counted by likely cause with the worst few; returns how
 * many. */
static size_t report_summary_notes(const struct analysis_result *r, const struct report_opts *o,
				   char **v)
{
	size_t count[CAUSE_UNKNOWN + 1] = { 0 }, nopen = 0, npts = 0, nu = 0, n = 0;
	unsigned deepest = 0;
	int same_depth = 1;
	struct report_worst *w;
	char buf[512], x[32], why[160];
	struct sbuf sb;

	for (size_t i = 0; i < r->nseries; i++) {
		const struct analysis_series *a = &r->series[i];
		unsigned d = a->rps->pts[a->rps->npts - 1].depth;

		npts += a->rps->npts;
		nu += a->nunstable;
		if (a->saturated != KNEE_SAT_NO)
			continue;
		same_depth &= nopen == 0 || d == deepest;
		deepest = d;
		nopen++;
	}
	if (nopen > 0) {
		if (same_depth)
			snprintf(buf, sizeof buf, "%zu of %zu series not saturated by P=%u: sweep deeper",
				 nopen, r->nseries, deepest);
		else
			snprintf(buf, sizeof buf, "%zu of %zu series not saturated by their deepest depth: "
				 "sweep deeper", nopen, r->nseries);
		v[n++] = xstrdup(buf);
	}
	if (nu == 0)
		return n;
	w = xcalloc(nu, sizeof *w);
	nu = 0;
	for (size_t i = 0; i < r->nseries; i++)
		for (size_t k = 0; k < r->series[i].nunstable; k++) {
			w[nu].series = i;
			w[nu++].u = &r->series[i].unstable[k];
			count[r->series[i].unstable[k].cause.kind]++;
		}
	sbuf_fixed(&sb, buf, sizeof buf);
	sbuf_printf(&sb, "unstable: %zu of %zu points (CV above %s%%); causes: ", nu, npts,
		    fnum(x, sizeof x, 100 * o->cv_limit, 1));
	for (int c = 0, first = 1; c <= CAUSE_UNKNOWN; c++)
		if (count[c] > 0) {
			sbuf_printf(&sb, "%s%s at %zu", first ? "" : ", ", cause_name((enum cause_kind)c),
				    count[c]);
			first = 0;
		}
	if (nu > REPORT_UNSTABLE_LIST)
		sbuf_printf(&sb, "; worst:");
	v[n++] = xstrdup(buf);
	qsort(w, nu, sizeof *w, report_unstable_worst);
	for (size_t k = 0; k < nu && k < REPORT_UNSTABLE_LIST; k++) {
		const struct series *s = r->series[w[k].series].rps;

		cause_format(&w[k].u->cause, why, sizeof why);
		snprintf(buf, sizeof buf, "%s %s P=%u: CV %s%% over %zu repeats: %s", s->label, s->test,
			 w[k].u->depth, fnum(x, sizeof x, 100 * w[k].u->cv, 1), w[k].u->n, why);
		v[n++] = xstrdup(buf);
	}
	free(w);
	return n;
}

/* The note on an open-loop series' points whose achieved rate fell short
 * of the offered one, into buf; 0 when there are none. */
static int report_short_note(const struct series *s, char *buf, size_t size)
{
	struct sbuf b;
	size_t n = 0;

	sbuf_fixed(&b, buf, size);
	sbuf_printf(&b, "%s %s: the achieved rate fell short of the offered rate at P=", s->label,
		  s->test);
	for (size_t i = 0; i < s->npts; i++)
		if (s->pts[i].rate_short > 0)
			sbuf_printf(&b, "%s%u", n++ ? "," : "", s->pts[i].depth);
	sbuf_printf(&b, ": the server saturated below that rate");
	return n > 0;
}

/* A cluster's series: at the saturation depth, the master whose CPU
 * limits the cluster, when one does: busy at least 0.8 CPU and 1.5 times
 * the mean of the others (rows' busy_cpu_s, server_cpu_s, masters, over
 * the point's repeats).  Returns 1 with the note in buf, or 0. */
/* The rows report_busy_note can use (a cluster's, with a busy master),
 * sorted by label, test, depth, then file order: each series finds its
 * own with a binary search instead of a scan of every row, which made the
 * notes quadratic in the number of series (issue 25, T2). */
struct report_busy {
	const struct rs_rows *rows;
	const struct rs_rec **v;
	size_t n;
};

static void report_busy_index(const struct rs_rows *rows, struct report_busy *b)
{
	b->rows = rows;
	b->v = NULL;
	b->n = 0;
	if (rows == NULL)
		return;
	for (size_t i = 0; i < rows->n; i++) {
		const struct rs_rec *r = &rows->v[i];
		double secs = rows_fig(rows, r, ROW_SECONDS), m = rows_fig(rows, r, ROW_MASTERS);

		if (!(m >= 2) || !(secs > 0) || isnan(rows_fig(rows, r, ROW_BUSY_CPU_S)) ||
		    isnan(rows_fig(rows, r, ROW_SERVER_CPU_S)) || r->busy_master[0] == '\0')
			continue;
		if (b->v == NULL)
			b->v = xmalloc((rows->n - i) * sizeof *b->v);
		b->v[b->n++] = r;
	}
	if (b->n > 1)
		qsort(b->v, b->n, sizeof *b->v, rows_point_cmp);
}

static int report_busy_note(const struct report_busy *idx, const struct series *s, unsigned depth,
			    char *buf, size_t size)
{
	const struct rs_rows *rows = idx->rows;
	double busy = 0, others = 0;
	const char *who = NULL;
	size_t n = 0, lo = 0, hi = idx->n;

	if (rows == NULL || depth == 0)
		return 0;
	while (lo < hi) {        /* the first row of (label, test, depth) */
		size_t mid = lo + (hi - lo) / 2;
		const struct rs_rec *r = idx->v[mid];
		int c = strcmp(r->label, s->label);

		if (c == 0)
			c = strcmp(r->test, s->test);
		if (c == 0)
			c = (r->pipeline > depth) - (r->pipeline < depth);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < idx->n; i++) {
		const struct rs_rec *r = idx->v[i];
		double secs = rows_fig(rows, r, ROW_SECONDS), m = rows_fig(rows, r, ROW_MASTERS);
		double b = rows_fig(rows, r, ROW_BUSY_CPU_S), all = rows_fig(rows, r, ROW_SERVER_CPU_S);

		if (r->pipeline != depth || strcmp(r->label, s->label) != 0 ||
		    strcmp(r->test, s->test) != 0)
			break;
		busy += b / secs;
		others += (all - b) / (m - 1) / secs;
		if (who == NULL)
			who = r->busy_master;
		else if (strcmp(who, r->busy_master) != 0)
			return 0;     /* the repeats disagree on which: none limits alone */
		n++;
	}
	if (n == 0)
		return 0;
	busy /= (double)n;
	others /= (double)n;
	if (busy < 0.8 || busy < 1.5 * others)
		return 0;
	snprintf(buf, size, "%s %s: at P=%u %s at %.2f CPU while the others are at %.2f: one shard "
		 "limits this cluster", s->label, s->test, depth, who, busy, others);
	return 1;
}

static size_t report_notes(const struct analysis_result *r, const struct report_opts *o,
			   char ***out)
{
	/* At most seven notes a series and its unstable points, and one for
	 * them all: room for them at once, not a reallocation a note. */
	char **v = xcalloc((7 + REPORT_UNSTABLE_LIST) * r->nseries + r->nlabels +
			   REPORT_UNSTABLE_LIST + 3, sizeof *v);
	size_t n = 0;
	const char *base_client;
	long other;
	struct report_busy busy;

	report_busy_index(o->rows, &busy);
	for (size_t i = 0; i < r->nseries; i++) {
		const struct analysis_series *a = &r->series[i];
		const struct series *s = a->rps;
		char buf[512], x[32];

		buf[0] = '\0';
		/* When every series has one depth, one note says it for all. */
		if (s->npts == 1 && r->nsingle == r->nseries)
			;
		else if (s->npts == 1)
			snprintf(buf, sizeof buf, "%s %s: one depth only (P=%u): no saturation to find",
				 s->label, s->test, s->pts[0].depth);
		else if (a->fit.status == FIT_TOO_FEW)
			snprintf(buf, sizeof buf, "%s %s: %zu depths are too few to fit the throughput model",
				 s->label, s->test, s->npts);
		else if (a->fit.status == FIT_POOR)
			snprintf(buf, sizeof buf,
				 "%s %s: the throughput model does not fit (R² %s < %.1f): no asymptote given",
				 s->label, s->test, fnum(x, sizeof x, a->fit.r2, 3), ANALYSIS_MIN_R2);
		else if (a->fit.status == FIT_FALLS)
			snprintf(buf, sizeof buf,
				 "%s %s: throughput falls after its peak: highest measured %s rps at P=%u "
				 "(the model never falls: no asymptote given)", s->label, s->test,
				 fnum(x, sizeof x, a->top_rps, 0), a->top_depth);
		else if (a->fit.status == FIT_PATTERN)
			snprintf(buf, sizeof buf,
				 "%s %s: the throughput model misses the curve's shape (a sharper or "
				 "softer knee): no asymptote given", s->label, s->test);
		else if (a->fit.status == FIT_NONPOSITIVE)
			snprintf(buf, sizeof buf,
				 "%s %s: the throughput model does not fit (no positive asymptote)",
				 s->label, s->test);
		if (buf[0]) {
			v[n++] = xstrdup(buf);
		}
		/* No interval anywhere: say why, rather than leave cells blank. */
		if (s->npts > 1 && a->knee.ok && a->knee.res.noise == KNEE_NOISE_NONE) {
			snprintf(buf, sizeof buf, "%s %s: one measurement at each of %zu depths is too "
				 "little to learn the noise from: no intervals (measure with --repeat 3)",
				 s->label, s->test, s->npts);
			v[n++] = xstrdup(buf);
		}
		if (a->knee.ok && a->knee.res.peak_median) {
			snprintf(buf, sizeof buf,
				 "%s %s: the fitted level lay below every measurement of the deepest %d "
				 "depths: no honest level from %zu depths, so the peak is the highest "
				 "median (%s rps at P=%u)", s->label, s->test,
				 (int)(s->npts < KNEE_SHORT_TOP ? s->npts : KNEE_SHORT_TOP), s->npts,
				 fnum(x, sizeof x, a->peak_rps, 0), a->peak_depth);
			v[n++] = xstrdup(buf);
		}
		/* Narrow: the table says it, and one line counts them. */
		if (a->saturated == KNEE_SAT_NO && o->wide) {
			snprintf(buf, sizeof buf, "%s %s: not saturated by P=%u: sweep deeper", s->label,
				 s->test, s->pts[s->npts - 1].depth);
			v[n++] = xstrdup(buf);
		}
		if (o->wide)
			n += report_unstable_notes(a, o, v + n);
		if (report_short_note(s, buf, sizeof buf))
			v[n++] = xstrdup(buf);
		/* Unsaturated: no saturation depth, so the deepest. */
		if (report_busy_note(&busy, s, a->sat_depth ? a->sat_depth : s->pts[s->npts - 1].depth,
				     buf, sizeof buf))
			v[n++] = xstrdup(buf);
	}
	if (r->nsingle == r->nseries) {
		v[n++] = xstrdup("every series has one depth: no saturation depth or model fit, "
				 "comparisons only");
	}
	if (!o->wide)
		n += report_summary_notes(r, o, v + n);
	for (size_t k = 0; (other = analysis_other_client(r, k, &base_client)) >= 0; k++) {
		char buf[512];

		report_client_note(r, (size_t)other, base_client, buf, sizeof buf);
		v[n++] = xstrdup(buf);
	}
	free(busy.v);
	*out = v;
	return n;
}

static void report_free_notes(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
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
	rtab_add(t, fnum(b1, sizeof b1, d->base_rps, 0));
	rtab_add(t, fnum(b1, sizeof b1, d->rps, 0));
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
		rtab_add(t, fnum(b1, sizeof b1, d->rps, 0));
		rtab_add(t, fnum(b1, sizeof b1, d->base_rps, 0));
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
			char s[512];

			report_prose(r, &r->cmps[i], s, sizeof s);
			fprintf(fp, "%s%s\n", md ? "- " : "  ", s);
		}
	}
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
	if (wide)
		fprintf(fp, "%sSeries (medians over repeats; peak: the fitted level's; saturation: "
			"first depth whose level reaches %s%% of the peak; 95%% intervals by "
			"bootstrap)\n", h, fnum(x, sizeof x, 100 * o->knee, 0));
	else
		fprintf(fp, "Saturation (peak: the fitted level; saturation: first depth at %s%% of "
			"it; 95%% intervals)\n", fnum(x, sizeof x, 100 * o->knee, 0));
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

/* ---- csv ---- */

static void csv_depth(FILE *fp, unsigned d)
{
	if (d)
		fprintf(fp, ",%u", d);
	else
		fputc(',', fp);
}

/* ",lo,hi,verdict" of d's ratio (empty when unknown). */
static void csv_verdict(FILE *fp, const struct analysis_delta *d)
{
	int ok = d != NULL && d->valid;

	csv_put_num(fp, ok ? d->ci.lo : NAN, 4);
	csv_put_num(fp, ok ? d->ci.hi : NAN, 4);
	fprintf(fp, ",%s", report_verdict(d));
}

static void csv_delta(FILE *fp, const struct analysis_delta *d)
{
	int ok = d != NULL && d->valid;

	csv_put_num(fp, ok ? d->d_rps : NAN, 2);
	csv_put_num(fp, ok ? d->d_pct : NAN, 2);
	csv_put_num(fp, ok ? d->d_avg : NAN, 4);
	csv_put_num(fp, ok ? d->ratio : NAN, 4);
}

static void report_csv(FILE *fp, const struct analysis_result *r, const struct report_opts *o)
{
	char **notes;
	size_t nnotes = report_notes(r, o, &notes);
	/* Each series' comparison with the baseline, if it has one (a search
	 * of the comparisons per series made 30k labels take seconds). */
	const struct analysis_cmp **cmp_of = xcalloc(r->nseries ? r->nseries : 1, sizeof *cmp_of);

	for (size_t i = r->ncmps; i-- > 0;)
		cmp_of[r->cmps[i].other] = &r->cmps[i];
	fputs(REPORT_CSV_HEADER "\n", fp);
	for (size_t i = 0; i < r->nseries; i++) {
		const struct analysis_series *a = &r->series[i];
		const struct analysis_cmp *c = cmp_of[i];
		char b[512];
		struct sbuf sb;

		csv_put_field(fp, a->rps->label);
		fputc(',', fp);
		csv_put_field(fp, a->rps->test);
		fputc(',', fp);
		report_depths(a->rps, b, sizeof b);
		csv_put_field(fp, b);
		csv_put_num(fp, a->rps_at_1, 2);
		csv_put_num(fp, a->peak_rps, 2);
		csv_depth(fp, a->peak_depth);
		csv_depth(fp, a->sat_depth);
		csv_put_num(fp, a->gain, 4);
		csv_put_num(fp, a->fit.a_us, 4);
		csv_put_num(fp, a->fit.b_us, 4);
		csv_put_num(fp, a->fit.asymptote, 2);
		csv_put_num(fp, a->fit.r2, 4);
		csv_put_num(fp, a->max_cv, 4);
		fprintf(fp, ",%zu,%s,", a->rps->npts, fit_status[a->fit.status]);
		sbuf_fixed(&sb, b, sizeof b);
		for (size_t k = 0; k < a->nunstable && !sb.cut; k++)
			sbuf_item(&sb, " ", "%u", a->unstable[k].depth);
		csv_put_field(fp, b);
		fprintf(fp, ",%s", report_bound_name(a->bound));
		csv_put_num(fp, a->server_cpu, 4);
		csv_put_num(fp, a->client_cpu, 4);
		fputc(',', fp);
		if (c)
			csv_put_field(fp, r->baseline);
		csv_delta(fp, c ? &c->at_1 : NULL);
		csv_delta(fp, c ? &c->at_peak : NULL);
		csv_depth(fp, c ? r->depth : 0);
		csv_delta(fp, c && r->depth ? &c->at_depth : NULL);
		fputc(',', fp);
		if (c && o->prose) {
			report_prose(r, c, b, sizeof b);
			csv_put_field(fp, b);
		}
		/* The interval columns, after every older one. */
		csv_put_num(fp, a->sat_lo, 0);
		csv_put_num(fp, a->sat_hi, 0);
		fprintf(fp, ",%s", report_saturated(a->saturated));
		csv_put_num(fp, a->fit.asymptote_lo, 2);
		csv_put_num(fp, a->fit.asymptote_hi, 2);
		csv_verdict(fp, c ? &c->at_1 : NULL);
		csv_verdict(fp, c ? &c->at_peak : NULL);
		csv_verdict(fp, c && r->depth ? &c->at_depth : NULL);
		csv_put_num(fp, a->peak_lo, 2);
		csv_put_num(fp, a->peak_hi, 2);
		csv_put_num(fp, a->top_rps, 2);
		csv_depth(fp, a->top_depth);
		csv_depth(fp, c ? c->at_peak.avg_depth : 0);
		sbuf_fixed(&sb, b, sizeof b);
		for (size_t k = 0; k < a->nunstable && !sb.cut; k++)
			sbuf_item(&sb, " ", "%s", cause_name(a->unstable[k].cause.kind));
		fputc(',', fp);
		csv_put_field(fp, b);
		fputc('\n', fp);
	}
	free(cmp_of);
	report_free_notes(notes, nnotes);
}

/* ---- json ---- */

/* Length of the well-formed UTF-8 sequence s starts with (1 to 4), or 0:
 * RFC 3629's table, so no overlong form, surrogate or code point above
 * U+10FFFF.  Stops at the first byte that does not fit, so never reads
 * past a terminating NUL. */
static size_t json_utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xBF;
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		n = 2;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		n = 3, lo = s[0] == 0xE0 ? 0xA0 : 0x80, hi = s[0] == 0xED ? 0x9F : 0xBF;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		n = 4, lo = s[0] == 0xF0 ? 0x90 : 0x80, hi = s[0] == 0xF4 ? 0x8F : 0xBF;
	else
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	return n;
}

void report_json_str(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', fp);
	while (*p) {
		size_t n = json_utf8_len(p);

		if (n == 0) {
			fputs("\\ufffd", fp);
			p++;
			continue;
		}
		switch (*p) {
		case '"': fputs("\\\"", fp); break;
		case '\\': fputs("\\\\", fp); break;
		case '\n': fputs("\\n", fp); break;
		case '\r': fputs("\\r", fp); break;
		case '\t': fputs("\\t", fp); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(fp, "\\u%04x", *p);
			else
				fwrite(p, 1, n, fp);
		}
		p += n;
	}
	fputc('"', fp);
}

/* "key":number or "key":null. */
static void json_num(FILE *fp, const char *key, double v, int prec, int comma)
{
	char b[64];

	fprintf(fp, "%s\"%s\":", comma ? "," : "", key);
	if (isfinite(v)) {
		num_fmt(b, sizeof b, v, prec);
		fputs(b, fp);
	} else {
		fputs("null", fp);
	}
}

static void json_depth(FILE *fp, const char *key, unsigned d)
{
	if (d)
		fprintf(fp, ",\"%s\":%u", key, d);
	else
		fprintf(fp, ",\"%s\":null", key);
}

/* ,"verdict":"same","within_band":true, or nulls. */
static void json_verdict(FILE *fp, const struct analysis_delta *d)
{
	if (*report_verdict(d))
		fprintf(fp, ",\"verdict\":\"%s\",\"within_band\":%s", report_verdict(d),
			d->within_band ? "true" : "false");
	else
		fputs(",\"verdict\":null,\"within_band\":null", fp);
}

static void json_delta(FILE *fp, const char *key, const struct analysis_delta *d)
{
	fprintf(fp, ",\"%s\":", key);
	if (!d->valid) {
		fputs("null", fp);
		return;
	}
	fprintf(fp, "{\"baseline_depth\":%u,\"depth\":%u", d->base_depth, d->depth);
	json_num(fp, "baseline_rps", d->base_rps, 2, 1);
	json_num(fp, "rps", d->rps, 2, 1);
	json_num(fp, "delta_rps", d->d_rps, 2, 1);
	json_num(fp, "delta_pct", d->d_pct, 3, 1);
	json_num(fp, "baseline_avg_ms", d->base_avg, 4, 1);
	json_num(fp, "avg_ms", d->avg, 4, 1);
	json_num(fp, "delta_avg_ms", d->d_avg, 4, 1);
	json_num(fp, "ratio", d->ratio, 4, 1);
	json_num(fp, "ratio_lo", d->ci.lo, 4, 1);
	json_num(fp, "ratio_hi", d->ci.hi, 4, 1);
	json_verdict(fp, d);
	json_depth(fp, "avg_depth", d->avg_depth);
	fputc('}', fp);
}

/* One series' object of the "series" array (first: no comma before it). */
static void json_series(FILE *fp, const struct analysis_series *a, int first)
{
	char b[512];

	fputs(first ? "\n{" : ",\n{", fp);
	fputs("\"label\":", fp);
	report_json_str(fp, a->rps->label);
	fputs(",\"test\":", fp);
	report_json_str(fp, a->rps->test);
	report_depths(a->rps, b, sizeof b);
	fputs(",\"depths\":", fp);
	report_json_str(fp, b);
	fprintf(fp, ",\"points\":%zu", a->rps->npts);
	json_num(fp, "rps_at_1", a->rps_at_1, 2, 1);
	json_num(fp, "peak_rps", a->peak_rps, 2, 1);
	json_num(fp, "peak_rps_lo", a->peak_lo, 2, 1);
	json_num(fp, "peak_rps_hi", a->peak_hi, 2, 1);
	json_depth(fp, "peak_depth", a->peak_depth);
	json_num(fp, "highest_rps", a->top_rps, 2, 1);
	json_depth(fp, "highest_depth", a->top_depth);
	json_depth(fp, "saturation_depth", a->sat_depth);
	json_num(fp, "saturation_lo", a->sat_lo, 0, 1);
	json_num(fp, "saturation_hi", a->sat_hi, 0, 1);
	fputs(",\"saturated\":", fp);
	if (*report_saturated(a->saturated))
		report_json_str(fp, report_saturated(a->saturated));
	else
		fputs("null", fp);
	json_num(fp, "gain", a->gain, 4, 1);
	fprintf(fp, ",\"fit\":{\"status\":\"%s\"", fit_status[a->fit.status]);
	json_num(fp, "a_us", a->fit.a_us, 4, 1);
	json_num(fp, "b_us", a->fit.b_us, 4, 1);
	json_num(fp, "asymptote_rps", a->fit.asymptote, 2, 1);
	json_num(fp, "asymptote_lo", a->fit.asymptote_lo, 2, 1);
	json_num(fp, "asymptote_hi", a->fit.asymptote_hi, 2, 1);
	json_num(fp, "r2", a->fit.r2, 4, 1);
	fputc('}', fp);
	json_num(fp, "max_cv", a->max_cv, 4, 1);
	fputs(",\"unstable\":[", fp);
	for (size_t k = 0; k < a->nunstable; k++) {
		fprintf(fp, "%s{\"depth\":%u,\"repeats\":%zu", k ? "," : "", a->unstable[k].depth,
			a->unstable[k].n);
		json_num(fp, "cv", a->unstable[k].cv, 4, 1);
		fprintf(fp, ",\"cause\":\"%s\",\"why\":", cause_name(a->unstable[k].cause.kind));
		cause_format(&a->unstable[k].cause, b, sizeof b);
		report_json_str(fp, b);
		fputc('}', fp);
	}
	fputs("],\"busier\":", fp);
	if (a->bound == BOUND_UNKNOWN)
		fputs("null", fp);
	else
		report_json_str(fp, report_bound_name(a->bound));
	json_num(fp, "server_cpu", a->server_cpu, 4, 1);
	json_num(fp, "client_cpu", a->client_cpu, 4, 1);
	fputc('}', fp);
}

/* One comparison's object of the "comparisons" array. */
static void json_cmp(FILE *fp, const struct analysis_result *r, const struct analysis_cmp *c,
		     const struct report_opts *o, int first)
{
	fputs(first ? "\n{" : ",\n{", fp);
	fputs("\"label\":", fp);
	report_json_str(fp, r->series[c->other].rps->label);
	fputs(",\"test\":", fp);
	report_json_str(fp, r->series[c->other].rps->test);
	json_delta(fp, "at_1", &c->at_1);
	json_delta(fp, "at_peak", &c->at_peak);
	if (r->depth)
		json_delta(fp, "at_depth", &c->at_depth);
	json_num(fp, "ratio_min", c->ratio_min, 4, 1);
	json_num(fp, "ratio_max", c->ratio_max, 4, 1);
	fputs(",\"per_depth\":[", fp);
	for (size_t k = 0; k < c->ndepths; k++) {
		const struct analysis_delta *d = &c->per_depth[k];

		fprintf(fp, "%s{\"depth\":%u", k ? "," : "", d->depth);
		json_num(fp, "baseline_rps", d->base_rps, 2, 1);
		json_num(fp, "rps", d->rps, 2, 1);
		json_num(fp, "delta_avg_ms", d->d_avg, 4, 1);
		json_num(fp, "ratio", d->ratio, 4, 1);
		json_num(fp, "ratio_lo", d->ci.lo, 4, 1);
		json_num(fp, "ratio_hi", d->ci.hi, 4, 1);
		json_verdict(fp, d);
		fputc('}', fp);
	}
	fputc(']', fp);
	if (o->prose) {
		char s[512];

		report_prose(r, c, s, sizeof s);
		fputs(",\"prose\":", fp);
		report_json_str(fp, s);
	}
	fputc('}', fp);
}

/* One object of the "speedup" array. */
static void json_speedup(FILE *fp, const struct analysis_result *r,
			 const struct analysis_speedup *sp, int first)
{
	const struct analysis_cmp *c = &r->cmps[sp->cmp];

	fputs(first ? "\n{\"label\":" : ",\n{\"label\":", fp);
	report_json_str(fp, r->series[c->other].rps->label);
	fputs(",\"test\":", fp);
	report_json_str(fp, r->series[c->other].rps->test);
	json_num(fp, "ratio", sp->ratio, 4, 1);
	json_num(fp, "ratio_lo", analysis_cmp_delta(r, c)->ci.lo, 4, 1);
	json_num(fp, "ratio_hi", analysis_cmp_delta(r, c)->ci.hi, 4, 1);
	json_verdict(fp, analysis_cmp_delta(r, c));
	fputc('}', fp);
}

static void report_json(FILE *fp, const struct analysis_result *r, const struct report_opts *o)
{
	char **notes;
	size_t nnotes = report_notes(r, o, &notes);

	fputs("{", fp);
	json_num(fp, "knee", o->knee, 4, 0);
	json_num(fp, "cv_limit", o->cv_limit, 4, 1);
	fputs(",\"baseline\":", fp);
	report_json_str(fp, r->baseline);
	if (r->depth)
		fprintf(fp, ",\"depth\":%u", r->depth);
	else
		fputs(",\"depth\":null", fp);
	fputs(",\n\"series\":[", fp);
	for (size_t i = 0; i < r->nseries; i++)
		json_series(fp, &r->series[i], i == 0);
	fputs("],\n\"comparisons\":[", fp);
	for (size_t i = 0; i < r->ncmps; i++)
		json_cmp(fp, r, &r->cmps[i], o, i == 0);
	fputs("],\n\"speedup\":[", fp);
	for (size_t i = 0; i < r->nspeedup; i++)
		json_speedup(fp, r, &r->speedup[i], i == 0);
	fputs("],\n\"notes\":[", fp);
	for (size_t i = 0; i < nnotes; i++) {
		fputs(i ? ",\n" : "\n", fp);
		report_json_str(fp, notes[i]);
	}
	fputs("]", fp);
	if (o->json_more != NULL) {
		fputs(",\n", fp);
		o->json_more(fp, o->json_ud);
	}
	fputs("}\n", fp);
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
