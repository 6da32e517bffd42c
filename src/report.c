/* report.c: the report's numbers as text and its comparisons as
 * sentences, for every writer (report_write.c: text and markdown;
 * report_data.c: csv and json; report_notes.c: the notes). */
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
const char *report_fsigned(char *buf, size_t size, double v, int prec)
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

const char *report_fsat(char *buf, size_t size, const struct analysis_series *a)
{
	char lo[32], hi[32];

	if (a->saturated == KNEE_SAT_NO && a->knee.ok && a->knee.res.fall_unstable)
		/* Its low deep end is no evidence (knee.h, KNEE_UNSTABLE_CV):
		 * a note names the depths to measure again. */
		snprintf(buf, size, "not saturated, the deepest points unstable");
	else if (a->saturated == KNEE_SAT_NO)
		snprintf(buf, size, "not saturated by P=%u", a->rps->pts[a->rps->npts - 1].depth);
	else if (a->sat_depth && isfinite(a->sat_lo) && isfinite(a->sat_hi))
		snprintf(buf, size, "%u (%s..%s)", a->sat_depth, report_fnum(lo, sizeof lo, a->sat_lo, 0),
			 report_fnum(hi, sizeof hi, a->sat_hi, 0));
	else
		report_fdepth(buf, size, a->sat_depth);
	return buf;
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
const char *report_fci(char *buf, size_t size, double v, double lo, double hi)
{
	char a[32], b[32], c[32];

	if (!isfinite(v))
		return report_fnum(buf, size, v, 0);
	if (!isfinite(lo) || !(v > 0))
		return report_fnum(buf, size, v, 0);
	if (isfinite(hi))
		snprintf(buf, size, "%s (%s%%..%s%%)", report_fnum(a, sizeof a, v, 0),
			 report_fsigned(b, sizeof b, 100 * (lo / v - 1), 1),
			 report_fsigned(c, sizeof c, 100 * (hi / v - 1), 1));
	else
		snprintf(buf, size, "%s (%s%%..)", report_fnum(a, sizeof a, v, 0),
			 report_fsigned(b, sizeof b, 100 * (lo / v - 1), 1));
	return buf;
}

/* "1.15x..1.27x", or "-". */
const char *report_fratio_ci(char *buf, size_t size, const struct stats_ci *c)
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
const char *report_verdict_words(char *buf, size_t size, const struct analysis_delta *d)
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
 * its verdict, as for throughput, and nothing without an interval; of
 * the average, or of the p50 as d->lat_metric says. */
static void report_prose_latency(const struct analysis_result *r, const struct analysis_cmp *c,
				 const struct analysis_delta *d, char *latw, size_t size)
{
	char at[2 * ROW_STR + 96] = "", lat[64], x[32], y[32], z[32];
	const struct analysis_series *sb = &r->series[c->base], *sa = &r->series[c->other];
	unsigned deeper = sb->sat_depth > sa->sat_depth ? sb->sat_depth : sa->sat_depth;
	const struct analysis_series *open = sb->saturated == KNEE_SAT_NO ? sb : sa;
	/* The rows' average, or their p50 where a side has none (an imported
	 * redis-benchmark -q run): the words say which. */
	int p50 = d->lat_metric == SM_P50;
	const char *what = p50 ? "p50" : "average";

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
		snprintf(latw, size, " and a %sms %s %s latency (%sx, 95%% interval %sx..%sx)%s",
			 lat, d->avg_verdict == KNEE_FASTER ? "higher" : "lower", what, x, y, z, at);
		break;
	case KNEE_SAME:
		snprintf(latw, size, ", with the same %s latency (%sx, 95%% interval "
			 "%sx..%sx)%s", what, x, y, z, at);
		break;
	default:
		snprintf(latw, size, ", with %s %s latency that cannot be told apart (%sx, "
			 "95%% interval %sx..%sx)%s", p50 ? "a" : "an", what, x, y, z, at);
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
	char latw[2 * ROW_STR + 256] = "", tail[64] = "", who[4 * ROW_STR + 32], runs[96] = "";

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
		snprintf(tail, sizeof tail, c->runs_apart ? "; measure more runs (--runs) to tell" :
			 "; repeat the points to tell");
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
	if (c->runs_known)
		snprintf(runs, sizeof runs, " (%zu run%s against %zu)", r->series[c->other].nruns,
			 r->series[c->other].nruns == 1 ? "" : "s", r->series[c->base].nruns);
	else if (c->runs_apart && d->verdict != KNEE_UNKNOWN)
		snprintf(runs, sizeof runs, " (one run each: the drift between runs is not in the "
			 "interval)");
	return snprintf(buf, size, "%s: %s%s showed %s%s%s%s.", a->test, a->label, who, thr, latw,
			tail, runs);
}

double report_rate(const struct report_opts *o, const struct series *s)
{
	double v;

	if (o->rows == NULL || s->first == NULL)
		return NAN;
	v = rows_fig(o->rows, s->first, ROW_RATE);
	return v > 0 ? v : NAN;
}

int report_series_view(const struct report_opts *o, const struct analysis_series *a,
		       struct analysis_series *v)
{
	*v = *a;
	if (!isfinite(report_rate(o, a->rps)))
		return 0;
	v->sat_depth = 0;
	v->sat_lo = v->sat_hi = v->gain = NAN;
	v->saturated = KNEE_SAT_UNKNOWN;
	v->fit.a_us = v->fit.b_us = v->fit.r2 = NAN;
	v->fit.asymptote = v->fit.asymptote_lo = v->fit.asymptote_hi = NAN;
	return 1;
}

double report_median_at(const struct series *s, unsigned depth)
{
	const struct series_point *p = s != NULL ? series_at(s, depth) : NULL;

	return p != NULL ? p->median : NAN;
}

const char *report_open_test(const struct series *s, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s", s->first->test,
		 s->first->arrivals == ROW_ARRIVALS_POISSON ? " poisson" : "");
	return buf;
}

const char *report_lat_name(enum series_metric m)
{
	return m == SM_P50 ? "p50" : "avg";
}

const char *report_bound_name(enum analysis_bound b)
{
	return b == BOUND_SERVER ? "server" : b == BOUND_CLIENT ? "client" : "";
}
