/* budget.c: the depth that fits a latency budget. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/budget.h"
#include "results/csv.h"
#include "base/json.h"
#include "base/num.h"
#include "stats/stats.h"
#include "base/xalloc.h"

/* Resamples of each pick's intervals. */
#define BUDGET_B 2000

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

/* The 95% bootstrap interval of the median of a point's repeats' figures
 * (stats_bootstrap; one repeat gives its own figure). */
static void budget_ci(const struct series_point *p, uint64_t tag, double *lo, double *hi)
{
	struct stats_ci ci;
	struct rs_err e;

	*lo = *hi = NAN;
	if (p->n > 0 && stats_bootstrap(p->v, p->n, stats_median_statistic, NULL, BUDGET_B, 0.95,
					stats_seed_mix(ANALYSIS_SEED, tag), &ci, NULL, &e) == 0) {
		*lo = ci.lo;
		*hi = ci.hi;
	}
}

void budget_find(const struct series_set *rps, const struct series_set *lat,
		 const struct latency_points *lp, double budget_ms, struct budget_pick **out)
{
	struct budget_pick *v = xcalloc(rps->n ? rps->n : 1, sizeof *v);

	for (size_t i = 0; i < rps->n; i++) {
		const struct series *s = &rps->v[i];
		const struct series *l = series_find(lat, s->label, s->test);
		const struct series_point *pick = NULL, *lpick = NULL;
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
			/* The point's figure decides: the median repeat's
			 * throughput, the merged histograms' percentile. */
			if (q->median > budget_ms || (b->found && p->median <= b->rps))
				continue;
			b->found = 1;
			b->depth = p->depth;
			b->rps = p->median;
			b->lat = q->median;
			b->n = p->n;
			pick = p;
			lpick = q;
		}
		if (!b->found)
			continue;
		budget_ci(pick, (uint64_t)i << 1, &b->rps_lo, &b->rps_hi);
		b->lat_merged = 0;
		if (lp != NULL && lp->ci != NULL) {
			const struct latency_ci *c = &lp->ci[lp->off[l - lat->v] + (size_t)(lpick - l->pts)];

			if (c->merged) {
				b->lat_merged = 1;
				b->lat_lo = c->lo;
				b->lat_hi = c->hi;
			}
		}
		if (!b->lat_merged)
			budget_ci(lpick, (uint64_t)i << 1 | 1, &b->lat_lo, &b->lat_hi);
		b->marginal = b->lat_hi > budget_ms;
	}
	*out = v;
}

void budget_write(FILE *fp, const struct budget_pick *v, size_t n, const char *metric,
		  double budget_ms, int md)
{
	const char *sep = md ? " | " : "  ";

	fprintf(fp, "\n%sLatency budget: %s <= %g ms (the depth with the highest throughput within "
		"it; 95%% intervals by bootstrap over repeats)\n", md ? "## " : "", metric, budget_ms);
	if (md)
		fprintf(fp, "\n| label | test | P | rps (95%% CI) | %s (95%% CI) |\n|---|---|---|---|---|\n",
			metric);
	else
		fprintf(fp, "  %-12s%s%-24s%s%6s%s%-28s%s%s (95%% CI)\n", "label", sep, "test", sep, "P",
			sep, "rps (95% CI)", sep, metric);
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
			 b->marginal ? " marginal: the interval is over" : "");
		if (md)
			fprintf(fp, "| %s | %s | %u | %s | %s |\n", b->s->label, b->s->test, b->depth, r, l);
		else
			fprintf(fp, "  %-12s%s%-24s%s%6u%s%-28s%s%s\n", b->s->label, sep, b->s->test, sep,
				b->depth, sep, r, sep, l);
	}
}

void budget_write_csv(FILE *fp, const struct budget_pick *v, size_t n, const char *metric,
		      double budget_ms)
{
	fputs(BUDGET_CSV_HEADER "\n", fp);
	for (size_t i = 0; i < n; i++) {
		const struct budget_pick *b = &v[i];

		csv_put_field(fp, b->s->label);
		fputc(',', fp);
		csv_put_field(fp, b->s->test);
		fprintf(fp, ",%s,%g", metric, budget_ms);
		fprintf(fp, ",%d,", b->found);
		if (b->found)
			fprintf(fp, "%u", b->depth);
		csv_put_num(fp, b->found ? b->rps : NAN, 2);
		csv_put_num(fp, b->found ? b->rps_lo : NAN, 2);
		csv_put_num(fp, b->found ? b->rps_hi : NAN, 2);
		csv_put_num(fp, b->found ? b->lat : NAN, 4);
		csv_put_num(fp, b->found ? b->lat_lo : NAN, 4);
		csv_put_num(fp, b->found ? b->lat_hi : NAN, 4);
		fprintf(fp, ",%s,%s", !b->found ? "" : b->lat_merged ? "1" : "0",
			!b->found ? "" : b->marginal ? "1" : "0");
		csv_put_num(fp, b->best_lat, 4);
		fputc(',', fp);
		if (b->best_depth)
			fprintf(fp, "%u", b->best_depth);
		fputc('\n', fp);
	}
}

void budget_write_json(FILE *fp, const struct budget_pick *v, size_t n, const char *metric,
		       double budget_ms)
{
	fputs("\"latency_budget\":{\"metric\":", fp);
	json_write_str(fp, metric);
	fprintf(fp, ",\"budget_ms\":%g", budget_ms);
	fputs(",\"series\":[", fp);
	for (size_t i = 0; i < n; i++) {
		const struct budget_pick *b = &v[i];

		fputs(i ? ",\n{\"label\":" : "\n{\"label\":", fp);
		json_write_str(fp, b->s->label);
		fputs(",\"test\":", fp);
		json_write_str(fp, b->s->test);
		fprintf(fp, ",\"found\":%s", b->found ? "true" : "false");
		if (b->found) {
			fprintf(fp, ",\"depth\":%u", b->depth);
			json_write_num(fp, "rps", b->rps, 2);
			json_write_num(fp, "rps_lo", b->rps_lo, 2);
			json_write_num(fp, "rps_hi", b->rps_hi, 2);
			json_write_num(fp, "latency_ms", b->lat, 4);
			json_write_num(fp, "latency_lo", b->lat_lo, 4);
			json_write_num(fp, "latency_hi", b->lat_hi, 4);
			fprintf(fp, ",\"merged\":%s,\"marginal\":%s", b->lat_merged ? "true" : "false",
				b->marginal ? "true" : "false");
		}
		json_write_num(fp, "lowest_ms", b->best_lat, 4);
		if (b->best_depth)
			fprintf(fp, ",\"lowest_depth\":%u", b->best_depth);
		else
			fputs(",\"lowest_depth\":null", fp);
		fputc('}', fp);
	}
	fputs("]}", fp);
}
