/* report_data.c: the report as csv (one line per label and test, the
 * columns of REPORT_CSV_HEADER) and json, for programs (report_int.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/along.h"
#include "results/csv.h"
#include "base/json.h"
#include "analysis/mixshare.h"
#include "base/num.h"
#include "report/report_env.h"
#include "report/report_int.h"
#include "base/sbuf.h"
#include "base/xalloc.h"

/* The fit statuses as csv and json spell them. */
static const char *const fit_status[] = {
	[FIT_OK] = "ok", [FIT_TOO_FEW] = "too_few", [FIT_NONPOSITIVE] = "nonpositive",
	[FIT_POOR] = "poor", [FIT_FALLS] = "falls", [FIT_PATTERN] = "pattern",
};

/* ---- csv ---- */

static void report_csv_depth(FILE *fp, unsigned d)
{
	if (d)
		fprintf(fp, ",%u", d);
	else
		fputc(',', fp);
}

/* ",lo,hi,verdict" of d's ratio (empty when unknown). */
static void report_csv_verdict(FILE *fp, const struct analysis_delta *d)
{
	int ok = d != NULL && d->valid;

	csv_put_num(fp, ok ? d->ci.lo : NAN, 4);
	csv_put_num(fp, ok ? d->ci.hi : NAN, 4);
	fprintf(fp, ",%s", report_verdict(d));
}

static void report_csv_delta(FILE *fp, const struct analysis_delta *d)
{
	int ok = d != NULL && d->valid;

	csv_put_num(fp, ok ? d->d_rps : NAN, 2);
	csv_put_num(fp, ok ? d->d_pct : NAN, 2);
	csv_put_num(fp, ok ? d->d_avg : NAN, 4);
	csv_put_num(fp, ok ? d->ratio : NAN, 4);
}

static void report_csv_mix(FILE *fp, const struct mixshare *m)
{
	char b[MIXSHARE_MAX * (MIXSHARE_NAME + 24)];

	fputc(',', fp);
	if (m == NULL) {
		fputs(",,", fp);
		return;
	}
	csv_put_field(fp, m->first_mix);
	fputc(',', fp);
	mixshare_pct_list(m, b, sizeof b);
	csv_put_field(fp, b);
	fputc(',', fp);
	mixshare_differ_list(m, b, sizeof b);
	csv_put_field(fp, b);
}

/* Each label's overall figure (analysis_overall), by rps label index;
 * n below ANALYSIS_OVERALL_MIN where there is none.  Release with free. */
static struct analysis_overall *report_overalls(const struct analysis_result *r)
{
	size_t nl = 1;
	struct analysis_overall *v;

	for (size_t i = 0; i < r->nseries; i++)
		if (r->series[i].rps->label_idx + 1 > nl)
			nl = r->series[i].rps->label_idx + 1;
	v = xcalloc(nl, sizeof *v);
	for (size_t i = 0; i < r->ncmps; i++) {
		size_t li = r->series[r->cmps[i].other].rps->label_idx;

		if (v[li].n == 0)
			analysis_overall(r, li, &v[li]);
	}
	return v;
}

void report_csv(FILE *fp, const struct analysis_result *r, const struct report_opts *o,
		const struct series_set *p99set)
{
	char **notes;
	size_t nnotes = report_notes(r, o, &notes);
	struct mixshare **mixes = report_mixes(r, o);
	/* Each series' comparison with the baseline, if it has one (a search
	 * of the comparisons per series made 30k labels take seconds). */
	const struct analysis_cmp **cmp_of = xcalloc(r->nseries ? r->nseries : 1, sizeof *cmp_of);

	struct analysis_overall *ov = report_overalls(r);

	for (size_t i = r->ncmps; i-- > 0;)
		cmp_of[r->cmps[i].other] = &r->cmps[i];
	fputs(REPORT_CSV_HEADER "\n", fp);
	for (size_t i = 0; i < r->nseries; i++) {
		struct analysis_series view;
		int open = report_series_view(o, &r->series[i], &view);
		const struct analysis_series *a = &view;
		const struct analysis_cmp *c = cmp_of[i];
		const struct series *p99 = open && p99set ? series_find(p99set, a->rps->label,
									a->rps->test) : NULL;
		double rate = report_rate(o, a->rps);
		char b[4096];
		struct sbuf sb;

		csv_put_field(fp, a->rps->label);
		fputc(',', fp);
		csv_put_field(fp, a->rps->test);
		fputc(',', fp);
		report_depths(a->rps, b, sizeof b);
		csv_put_field(fp, b);
		csv_put_num(fp, a->rps_at_1, 2);
		csv_put_num(fp, a->peak_rps, 2);
		report_csv_depth(fp, a->peak_depth);
		report_csv_depth(fp, a->sat_depth);
		csv_put_num(fp, a->gain, 4);
		csv_put_num(fp, a->fit.a_us, 4);
		csv_put_num(fp, a->fit.b_us, 4);
		csv_put_num(fp, a->fit.asymptote, 2);
		csv_put_num(fp, a->fit.r2, 4);
		csv_put_num(fp, a->max_cv, 4);
		fprintf(fp, ",%zu,%s,", a->rps->npts, open ? "" : fit_status[a->fit.status]);
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
		report_csv_delta(fp, c ? &c->at_1 : NULL);
		report_csv_delta(fp, c ? &c->at_peak : NULL);
		report_csv_depth(fp, c ? r->depth : 0);
		report_csv_delta(fp, c && r->depth ? &c->at_depth : NULL);
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
		report_csv_verdict(fp, c ? &c->at_1 : NULL);
		report_csv_verdict(fp, c ? &c->at_peak : NULL);
		report_csv_verdict(fp, c && r->depth ? &c->at_depth : NULL);
		csv_put_num(fp, a->peak_lo, 2);
		csv_put_num(fp, a->peak_hi, 2);
		csv_put_num(fp, a->top_rps, 2);
		report_csv_depth(fp, a->top_depth);
		report_csv_depth(fp, c ? c->at_peak.avg_depth : 0);
		sbuf_fixed(&sb, b, sizeof b);
		for (size_t k = 0; k < a->nunstable && !sb.cut; k++)
			sbuf_item(&sb, " ", "%s", cause_name(a->unstable[k].cause.kind));
		fputc(',', fp);
		csv_put_field(fp, b);
		/* The open loop's: the rate offered, the highest achieved as a
		 * share of it, and the latency there. */
		csv_put_num(fp, rate, 2);
		csv_put_num(fp, open ? a->top_rps / rate : NAN, 4);
		csv_put_num(fp, open ? report_median_at(a->avg, a->top_depth) : NAN, 4);
		csv_put_num(fp, open ? report_median_at(p99, a->top_depth) : NAN, 4);
		/* What the delta_avg_ms columns compare: avg, or p50 where a side
		 * has no average (a -q import). */
		fprintf(fp, ",%s", c != NULL && (isfinite(c->at_1.d_avg) || isfinite(c->at_peak.d_avg) ||
						 isfinite(c->at_depth.d_avg)) ?
			report_lat_name(c->at_peak.lat_metric) : "");
		/* Runs (knee.h): how many, and the drift between them. */
		fprintf(fp, ",%zu", a->nruns);
		csv_put_num(fp, a->peak_runs.n > 1 ? 100 * a->peak_runs.between : NAN, 2);
		/* A mix's members: the weights, the shares as sent, the calls
		 * the server counted otherwise (mixshare.h); empty for others. */
		report_csv_mix(fp, mixes[i]);
		/* The label's overall figure on each of its comparison rows. */
		if (c != NULL && ov[a->rps->label_idx].n >= ANALYSIS_OVERALL_MIN) {
			const struct analysis_overall *g = &ov[a->rps->label_idx];

			csv_put_num(fp, g->gm.est, 4);
			csv_put_num(fp, g->gm.lo, 4);
			csv_put_num(fp, g->gm.hi, 4);
			fprintf(fp, ",%s,%zu", g->verdict == KNEE_UNKNOWN ? "" :
				knee_verdict_name(g->verdict), g->n);
		} else {
			fputs(",,,,,", fp);
		}
		fputc('\n', fp);
	}
	free(ov);
	report_free_mixes(mixes, r->nseries);
	free(cmp_of);
	report_free_notes(notes, nnotes);
}

/* ---- json ---- */

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

/* ,"ratio":R,"ratio_lo":..,"ratio_hi":..,"verdict":.. of d (ratio: its own
 * or a speed-up's). */
static void json_ratio(FILE *fp, double ratio, const struct analysis_delta *d)
{
	json_num(fp, "ratio", ratio, 4, 1);
	json_num(fp, "ratio_lo", d->ci.lo, 4, 1);
	json_num(fp, "ratio_hi", d->ci.hi, 4, 1);
	json_verdict(fp, d);
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
	if (isfinite(d->d_avg))
		fprintf(fp, ",\"latency_metric\":\"%s\"", report_lat_name(d->lat_metric));
	else
		fputs(",\"latency_metric\":null", fp);
	json_num(fp, "baseline_avg_ms", d->base_avg, 4, 1);
	json_num(fp, "avg_ms", d->avg, 4, 1);
	json_num(fp, "delta_avg_ms", d->d_avg, 4, 1);
	json_ratio(fp, d->ratio, d);
	json_depth(fp, "avg_depth", d->avg_depth);
	fputc('}', fp);
}

/* ,"rate_offered":R,"open_loop":[points] of an open loop's series a
 * (offered rate; p99set: the rows' p99 latency), or nulls. */
static void json_open_loop(FILE *fp, const struct analysis_series *a, double rate,
			   const struct series_set *p99set)
{
	const struct series *s = a->rps;
	const struct series *p99 = p99set ? series_find(p99set, s->label, s->test) : NULL;

	json_num(fp, "rate_offered", rate, 2, 1);
	if (!isfinite(rate)) {
		fputs(",\"open_loop\":null", fp);
		return;
	}
	fputs(",\"open_loop\":[", fp);
	for (size_t k = 0; k < s->npts; k++) {
		const struct series_point *p = &s->pts[k];

		fprintf(fp, "%s{\"depth\":%u", k ? "," : "", p->depth);
		json_num(fp, "achieved_rps", p->median, 2, 1);
		json_num(fp, "achieved_ratio", p->median / rate, 4, 1);
		json_num(fp, "avg_ms", report_median_at(a->avg, p->depth), 4, 1);
		json_num(fp, "p99_ms", report_median_at(p99, p->depth), 4, 1);
		fprintf(fp, ",\"repeats\":%zu,\"short_repeats\":%zu}", p->n, p->rate_short);
	}
	fputc(']', fp);
}

/* One series' object of the "series" array (first: no comma before it). */
/* ,"mix":{"weights":"get=80,set=20","sent_pct":{"GET":79.94,...},
 * "calls_differ":[{"members":"SET","calls":1995,"sent":2006}]}, or null
 * for a series that is no mix's (mixshare.h). */
static void json_mix(FILE *fp, const struct mixshare *m)
{
	char b[MIXSHARE_MAX * MIXSHARE_NAME];
	int any = 0;

	fputs(",\"mix\":", fp);
	if (m == NULL) {
		fputs("null", fp);
		return;
	}
	fputs("{\"weights\":", fp);
	json_write_str(fp, m->first_mix);
	fputs(",\"sent_pct\":{", fp);
	for (size_t i = 0; i < m->n; i++) {
		fputs(i ? "," : "", fp);
		json_write_str(fp, m->name[i]);
		num_fmt(b, sizeof b, 100 * mixshare_share(m, i), 2);
		fprintf(fp, ":%s", b);
	}
	fputs("},\"calls_differ\":[", fp);
	for (size_t g = 0; g < m->ngroups; g++) {
		if (m->group_calls[g] == m->group_sent[g])
			continue;
		mixshare_group_name(m, g, b, sizeof b);
		fputs(any++ ? ",{\"members\":" : "{\"members\":", fp);
		json_write_str(fp, b);
		fprintf(fp, ",\"calls\":%llu,\"sent\":%llu}", (unsigned long long)m->group_calls[g],
			(unsigned long long)m->group_sent[g]);
	}
	fputs("]}", fp);
}

static void json_series(FILE *fp, const struct analysis_series *full, const struct report_opts *o,
			const struct series_set *p99, int first,
			const struct mixshare *mix)
{
	struct analysis_series view;
	int open = report_series_view(o, full, &view);
	const struct analysis_series *a = &view;
	char b[512];

	fputs(first ? "\n{" : ",\n{", fp);
	fputs("\"label\":", fp);
	json_write_str(fp, a->rps->label);
	fputs(",\"test\":", fp);
	json_write_str(fp, a->rps->test);
	/* A series of a label that varies a setting: its test without it, and
	 * its values (nothing for others: such files read as before). */
	along_json_series(fp, a->rps);
	/* As the server names itself ("valkey 8.0.1"); null when no row says. */
	fputs(",\"server\":", fp);
	if (rows_server_desc(a->rps->first->server, b, sizeof b)[0] != '\0')
		json_write_str(fp, b);
	else
		fputs("null", fp);
	report_depths(a->rps, b, sizeof b);
	fputs(",\"depths\":", fp);
	json_write_str(fp, b);
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
		json_write_str(fp, report_saturated(a->saturated));
	else
		fputs("null", fp);
	json_num(fp, "gain", a->gain, 4, 1);
	if (open)
		fputs(",\"fit\":{\"status\":null", fp);
	else
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
		json_write_str(fp, b);
		fputc('}', fp);
	}
	fputs("],\"busier\":", fp);
	if (a->bound == BOUND_UNKNOWN)
		fputs("null", fp);
	else
		json_write_str(fp, report_bound_name(a->bound));
	json_num(fp, "server_cpu", a->server_cpu, 4, 1);
	json_num(fp, "client_cpu", a->client_cpu, 4, 1);
	json_open_loop(fp, a, report_rate(o, a->rps), p99);
	fprintf(fp, ",\"runs\":%zu", a->nruns);
	json_num(fp, "between_runs_pct", a->peak_runs.n > 1 ? 100 * a->peak_runs.between : NAN, 2,
		 1);
	json_mix(fp, mix);
	fputc('}', fp);
}

/* One comparison's object of the "comparisons" array. */
static void json_cmp(FILE *fp, const struct analysis_result *r, const struct analysis_cmp *c,
		     const struct report_opts *o, int first)
{
	fputs(first ? "\n{" : ",\n{", fp);
	fputs("\"label\":", fp);
	json_write_str(fp, r->series[c->other].rps->label);
	fputs(",\"test\":", fp);
	json_write_str(fp, r->series[c->other].rps->test);
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
		json_ratio(fp, d->ratio, d);
		fputc('}', fp);
	}
	fputc(']', fp);
	/* Runs a side, and whether the two were measured apart (knee.h). */
	fprintf(fp, ",\"runs_baseline\":%zu,\"runs\":%zu,\"runs_apart\":%s",
		r->series[c->base].nruns, r->series[c->other].nruns, c->runs_apart ? "true" : "false");
	if (o->prose) {
		char s[4096];

		report_prose(r, c, s, sizeof s);
		fputs(",\"prose\":", fp);
		json_write_str(fp, s);
	}
	fputc('}', fp);
}

/* One object of the "speedup" array. */
static void json_speedup(FILE *fp, const struct analysis_result *r,
			 const struct analysis_speedup *sp, int first)
{
	const struct analysis_cmp *c = &r->cmps[sp->cmp];

	fputs(first ? "\n{\"label\":" : ",\n{\"label\":", fp);
	json_write_str(fp, r->series[c->other].rps->label);
	fputs(",\"test\":", fp);
	json_write_str(fp, r->series[c->other].rps->test);
	json_ratio(fp, sp->ratio, analysis_cmp_delta(r, c));
	fputc('}', fp);
}

/* The "overall" array: each label's overall figure, where it has one. */
static void report_json_overall(FILE *fp, const struct analysis_result *r)
{
	struct analysis_overall *ov = report_overalls(r);
	int first = 1;

	for (size_t i = 0; i < r->ncmps; i++) {
		const struct series *s = r->series[r->cmps[i].other].rps;
		struct analysis_overall *g = &ov[s->label_idx];

		if (g->n < ANALYSIS_OVERALL_MIN)
			continue;
		fputs(first ? "\n{\"label\":" : ",\n{\"label\":", fp);
		first = 0;
		json_write_str(fp, s->label);
		json_num(fp, "ratio", g->gm.est, 4, 1);
		json_num(fp, "ratio_lo", g->gm.lo, 4, 1);
		json_num(fp, "ratio_hi", g->gm.hi, 4, 1);
		fputs(",\"verdict\":", fp);
		if (g->verdict == KNEE_UNKNOWN)
			fputs("null", fp);
		else
			json_write_str(fp, knee_verdict_name(g->verdict));
		fprintf(fp, ",\"tests\":%zu,\"faster\":%zu,\"slower\":%zu,\"same\":%zu,"
			"\"undecided\":%zu}", g->n, g->faster, g->slower, g->same, g->undecided);
		g->n = 0;
	}
	free(ov);
}

void report_json(FILE *fp, const struct analysis_result *r, const struct report_opts *o,
		 const struct series_set *p99)
{
	char **notes;
	size_t nnotes = report_notes(r, o, &notes);
	struct mixshare **mixes = report_mixes(r, o);

	fputs("{", fp);
	json_num(fp, "knee", o->knee, 4, 0);
	json_num(fp, "cv_limit", o->cv_limit, 4, 1);
	fputs(",\"baseline\":", fp);
	json_write_str(fp, r->baseline);
	if (r->depth)
		fprintf(fp, ",\"depth\":%u", r->depth);
	else
		fputs(",\"depth\":null", fp);
	fputs(",\n\"series\":[", fp);
	for (size_t i = 0; i < r->nseries; i++)
		json_series(fp, &r->series[i], o, p99, i == 0, mixes[i]);
	fputs("],\n\"comparisons\":[", fp);
	for (size_t i = 0; i < r->ncmps; i++)
		json_cmp(fp, r, &r->cmps[i], o, i == 0);
	fputs("],\n\"speedup\":[", fp);
	for (size_t i = 0; i < r->nspeedup; i++)
		json_speedup(fp, r, &r->speedup[i], i == 0);
	fputs("],\n\"overall\":[", fp);
	report_json_overall(fp, r);
	fputs("],\n\"notes\":[", fp);
	for (size_t i = 0; i < nnotes; i++) {
		fputs(i ? ",\n" : "\n", fp);
		json_write_str(fp, notes[i]);
	}
	fputs("]", fp);
	report_env_json(fp, o->envs, o->nenvs);
	if (o->json_more != NULL) {
		fputs(",\n", fp);
		o->json_more(fp, o->json_ud);
	}
	fputs("}\n", fp);
	report_free_mixes(mixes, r->nseries);
	report_free_notes(notes, nnotes);
}
