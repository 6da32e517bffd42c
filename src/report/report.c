/* report.c: the report's numbers as text, for every writer
 * (report_write.c: text and markdown; report_data.c: csv and json;
 * report_notes.c: the notes); the sentences are report_prose.c's. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/depths.h"
#include "base/num.h"
#include "report/report.h"
#include "report/report_int.h"
#include "base/sbuf.h"
#include "base/vec.h"
#include "base/xalloc.h"


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
void report_fshort(char *buf, size_t size, double v, int prec)
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

void report_ratio_ends(const struct stats_ci *c, char *a, char *b)
{
	const char *dot;
	double step, lo, hi;
	int prec;

	analysis_fmt_ratio(a, 32, c->lo);
	analysis_fmt_ratio(b, 32, c->hi);
	if (strcmp(a, b) != 0 || !(c->hi > c->lo))
		return;
	/* Narrower than the printed precision: its ends rounded outward,
	 * never a zero-width "4.50x..4.50x". */
	dot = strchr(a, '.');
	prec = dot ? (int)strlen(dot + 1) : 0;
	step = pow(10, -prec);
	lo = floor(c->lo / step) * step;
	hi = ceil(c->hi / step) * step;
	if (!(hi > lo))
		hi = lo + step;
	num_fmt(a, 32, lo, prec);
	num_fmt(b, 32, hi, prec);
}

/* "1.15x..1.27x", or "-". */
const char *report_fratio_ci(char *buf, size_t size, const struct stats_ci *c)
{
	char a[32], b[32];

	if (!isfinite(c->lo) || !isfinite(c->hi) || !(c->hi > c->lo))
		return report_fnum(buf, size, NAN, 2);
	report_ratio_ends(c, a, b);
	snprintf(buf, size, "%sx..%sx", a, b);
	return buf;
}

/* The interval's half-width as a share of the ratio, percent: 20 for
 * 0.59x..0.99x around 0.76x. */
double report_halfwidth(const struct stats_ci *c)
{
	return 100 * (c->hi - c->lo) / (2 * c->est);
}

/* A verdict in words, as the table gives it: "faster", "slower", "same",
 * "faster (size unsure)", "cannot tell (+-20%)", or "no interval". */
const char *report_verdict_words(char *buf, size_t size, const struct analysis_delta *d)
{
	char hw[32];

	switch (d->verdict) {
	case KNEE_CANNOT_TELL:
		report_fshort(hw, sizeof hw, report_halfwidth(&d->ci), 0);
		snprintf(buf, size, "cannot tell (" UTF8_PLUSMINUS "%s%%)", hw);
		return buf;
	case KNEE_UNKNOWN:
		return "no interval";
	default:
		return knee_verdict_name(d->verdict);
	}
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
