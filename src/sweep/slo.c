/* slo.c: a latency objective (--slo): its spelling, and the verdict of
 * one open-loop probe on it. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/num.h"
#include "base/sbuf.h"
#include "sweep/slo.h"

/* "p99" into the percent (99); -1 when it does not read. */
static double slo_percentile(const char *s, size_t n)
{
	double v = 0, unit = 10;

	if (n < 3 || n > 5 || s[0] != 'p')
		return -1;
	for (size_t i = 1; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		/* Two digits are the whole percent, the rest its fraction. */
		v += (s[i] - '0') * unit;
		unit /= 10;
	}
	return v >= 50 && v < 100 ? v : -1;
}

/* "1ms" into ms; -1 when it does not read. */
static double slo_time(const char *s, size_t n)
{
	static const struct {
		const char *unit;
		double ms;
	} units[] = { { "us", 1e-3 }, { "ms", 1 }, { "s", 1e3 } };

	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		size_t u = strlen(units[i].unit);
		double v;

		if (n <= u || memcmp(s + n - u, units[i].unit, u) != 0)
			continue;
		/* "1ms" ends in "s" too. */
		if (u == 1 && (s[n - 2] == 'm' || s[n - 2] == 'u'))
			continue;
		if (num_parse_double_n(s, n - u, &v) < 0 || !(v > 0) || v * units[i].ms > 600e3)
			return -1;
		return v * units[i].ms;
	}
	return -1;
}

int slo_parse(const char *s, struct slo_objective *o, struct rs_err *err)
{
	const char *p = s;
	struct sbuf b;

	memset(o, 0, sizeof *o);
	if (s == NULL || *s == '\0')
		return rs_err_setk(err, RS_E_USAGE, "--slo: empty; give PERCENTILE=TIME, as p99=1ms");
	for (;;) {
		const char *comma = strchr(p, ','), *end = comma ? comma : p + strlen(p);
		const char *eq = memchr(p, '=', (size_t)(end - p));
		double q, ms;

		if (eq == NULL)
			return rs_err_setk(err, RS_E_USAGE, "--slo: '%.*s' is not PERCENTILE=TIME, as "
					   "p99=1ms", (int)(end - p), p);
		if ((q = slo_percentile(p, (size_t)(eq - p))) < 0)
			return rs_err_setk(err, RS_E_USAGE, "--slo: '%.*s' is no percentile: p50..p99, "
					   "p999 (99.9), p9999 (99.99)", (int)(eq - p), p);
		if ((ms = slo_time(eq + 1, (size_t)(end - eq - 1))) < 0)
			return rs_err_setk(err, RS_E_USAGE, "--slo: '%.*s' is no time: a number above "
					   "0 and its unit (us, ms or s), at most 600s, as 1ms",
					   (int)(end - eq - 1), eq + 1);
		for (unsigned i = 0; i < o->n; i++)
			if (o->q[i] == q)
				return rs_err_setk(err, RS_E_USAGE, "--slo: '%.*s' is given twice",
						   (int)(eq - p), p);
		if (o->n == SLO_MAX)
			return rs_err_setk(err, RS_E_USAGE, "--slo: at most %d percentiles", SLO_MAX);
		o->q[o->n] = q;
		o->budget_ms[o->n++] = ms;
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	if (strlen(s) >= sizeof o->text)
		return rs_err_setk(err, RS_E_USAGE, "--slo: longer than %zu characters",
				   sizeof o->text - 1);
	/* As given: scripts compare it, and it says what the user wrote. */
	sbuf_fixed(&b, o->text, sizeof o->text);
	sbuf_add(&b, s, strlen(s));
	return 0;
}

double slo_requests_needed(const struct slo_objective *o)
{
	double n = 0;

	for (unsigned i = 0; i < o->n; i++)
		n = fmax(n, SLO_TAIL / (1 - o->q[i] / 100));
	/* 50 / (1 - 0.999) is 50000.000000001 in doubles. */
	return ceil(n - 1e-6);
}

/* The value at rank r (1-based, of n) of lat, in ms; r past either end
 * clamps to min or max. */
static double slo_rank_ms(const struct hist *lat, double r)
{
	double n = (double)lat->count;

	if (r <= 1)
		return (double)lat->min / 1e6;
	if (r >= n)
		return (double)lat->max / 1e6;
	return (double)hist_percentile(lat, 100 * r / n) / 1e6;
}

void slo_judge(const struct slo_objective *o, const struct hist *lat, double slip_p99_ms,
	       int rate_short, struct slo_judged *out)
{
	double worst = -1, tight = INFINITY;
	int missed = 0, unsure = 0;

	memset(out, 0, sizeof *out);
	out->ms = out->lo_ms = out->hi_ms = NAN;
	for (unsigned i = 0; i < o->n; i++) {
		double n = (double)lat->count, q = o->q[i] / 100;
		double r = ceil(q * n), sd = sqrt(n * q * (1 - q));
		double ms = lat->count ? (double)hist_percentile(lat, o->q[i]) / 1e6 : NAN;
		double lo = lat->count ? slo_rank_ms(lat, floor(r - 1.96 * sd)) : NAN;
		double hi = lat->count ? slo_rank_ms(lat, ceil(r + 1.96 * sd)) : NAN;

		tight = fmin(tight, o->budget_ms[i]);
		/* The percentile nearest its budget (or furthest past it) is
		 * the row's. */
		if (lat->count && ms / o->budget_ms[i] > worst) {
			worst = ms / o->budget_ms[i];
			out->which = i;
			out->ms = ms;
			out->lo_ms = lo;
			out->hi_ms = hi;
		}
		if (!lat->count || lo > o->budget_ms[i])
			missed = 1;
		else if (hi > o->budget_ms[i])
			unsure = 1;
	}
	/* A probe that met the objective met it, slip and all; one that did
	 * not is the generator's when its own slip is a material share of
	 * the budget: that slip is in every latency it measured. */
	if (!missed && !unsure && !rate_short)
		out->verdict = ROW_SLO_MET;
	else if (isfinite(slip_p99_ms) && slip_p99_ms > SLO_SLIP_SHARE * tight)
		out->verdict = ROW_SLO_GENERATOR;
	else
		out->verdict = missed || rate_short ? ROW_SLO_MISSED : ROW_SLO_UNSURE;
}
