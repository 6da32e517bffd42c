/* budget.c: the depth that fits a latency budget. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "num.h"
#include "xalloc.h"

int budget_parse(const char *s, double *ms, struct rs_err *err)
{
	static const struct {
		const char *unit;
		double ms;
	} units[] = { { "us", 1e-3 }, { "µs", 1e-3 }, { "ms", 1 }, { "s", 1e3 } };
	size_t n = strlen(s);

	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		size_t u = strlen(units[i].unit);
		char num[64];
		double v;
		struct rs_err e;

		if (n <= u || n - u >= sizeof num || strcmp(s + n - u, units[i].unit) != 0)
			continue;
		/* "1ms" ends in "s" too: the longer units are tried first. */
		if (units[i].unit[0] == 's' && n >= 2 && (s[n - 2] == 'm' || s[n - 2] == 'u'))
			continue;
		memcpy(num, s, n - u);
		num[n - u] = '\0';
		if (num_parse_double(num, 0, 1e9, &v, &e) < 0)
			return rs_err_set(err, "'%s': %s", s, e.msg);
		if (v <= 0)
			return rs_err_set(err, "'%s': a budget is above 0", s);
		*ms = v * units[i].ms;
		return 0;
	}
	return rs_err_set(err, "'%s': a budget needs its unit (us, ms or s), as in 1ms", s);
}

/* The range of a point's repeats' figures. */
static void budget_range(const struct series_point *p, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < p->n; i++) {
		*lo = fmin(*lo, p->v[i]);
		*hi = fmax(*hi, p->v[i]);
	}
}

void budget_find(const struct series_set *rps, const struct series_set *lat, double budget_ms,
		 struct budget_pick **out)
{
	struct budget_pick *v = xcalloc(rps->n ? rps->n : 1, sizeof *v);

	for (size_t i = 0; i < rps->n; i++) {
		const struct series *s = &rps->v[i];
		const struct series *l = series_find(lat, s->label, s->test);
		struct budget_pick *b = &v[i];

		b->s = s;
		b->best_lat = NAN;
		if (l == NULL)
			continue;
		for (size_t k = 0; k < s->npts; k++) {
			const struct series_point *p = &s->pts[k];
			const struct series_point *q = series_at(l, p->depth);

			if (q == NULL)
				continue;
			if (isnan(b->best_lat) || q->median < b->best_lat) {
				b->best_lat = q->median;
				b->best_depth = p->depth;
			}
			/* The median repeat decides, as for every figure of the report. */
			if (q->median > budget_ms || (b->found && p->median <= b->rps))
				continue;
			b->found = 1;
			b->depth = p->depth;
			b->rps = p->median;
			b->lat = q->median;
			b->n = p->n;
			budget_range(p, &b->rps_lo, &b->rps_hi);
			budget_range(q, &b->lat_lo, &b->lat_hi);
			b->marginal = b->lat_hi > budget_ms;
		}
	}
	*out = v;
}

void budget_write(FILE *fp, const struct budget_pick *v, size_t n, const char *metric,
		  double budget_ms, int md)
{
	const char *sep = md ? " | " : "  ";

	fprintf(fp, "\n%sLatency budget: %s <= %g ms (the depth with the highest throughput within "
		"it; ranges over repeats)\n", md ? "## " : "", metric, budget_ms);
	if (md)
		fprintf(fp, "\n| label | test | P | rps (range) | %s (range) |\n|---|---|---|---|---|\n",
			metric);
	else
		fprintf(fp, "  %-12s%s%-24s%s%6s%s%-28s%s%s (range)\n", "label", sep, "test", sep, "P", sep,
			"rps (range)", sep, metric);
	for (size_t i = 0; i < n; i++) {
		const struct budget_pick *b = &v[i];
		char r[64], l[96];

		if (!b->found) {
			if (isnan(b->best_lat))
				snprintf(l, sizeof l, "no depth meets the budget (no %s figures)", metric);
			else
				snprintf(l, sizeof l, "no depth meets the budget (lowest %.3f ms, at P=%u)",
					 b->best_lat, b->best_depth);
			if (md)
				fprintf(fp, "| %s | %s | - | %s | |\n", b->s->label, b->s->test, l);
			else
				fprintf(fp, "  %-12s%s%-24s%s%6s%s%s\n", b->s->label, sep, b->s->test, sep, "-",
					sep, l);
			continue;
		}
		snprintf(r, sizeof r, "%.0f (%.0f-%.0f)", b->rps, b->rps_lo, b->rps_hi);
		snprintf(l, sizeof l, "%.3f (%.3f-%.3f)%s", b->lat, b->lat_lo, b->lat_hi,
			 b->marginal ? " marginal: a repeat is over" : "");
		if (md)
			fprintf(fp, "| %s | %s | %u | %s | %s |\n", b->s->label, b->s->test, b->depth, r, l);
		else
			fprintf(fp, "  %-12s%s%-24s%s%6u%s%-28s%s%s\n", b->s->label, sep, b->s->test, sep,
				b->depth, sep, r, sep, l);
	}
}
