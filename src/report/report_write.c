/* report_write.c: analysis results as aligned text or markdown, and
 * report_write, which picks the writer (report_data.c writes csv and json,
 * report_notes.c the notes, report.c the numbers and the prose,
 * report_table.c the tables). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/depths.h"
#include "base/num.h"
#include "report/report.h"
#include "report/report_env.h"
#include "report/report_int.h"

/* ---- the sections, shared by text and markdown ---- */

static int report_any_bound(const struct analysis_result *r)
{
	for (size_t i = 0; i < r->nseries; i++)
		if (r->series[i].bound != BOUND_UNKNOWN)
			return 1;
	return 0;
}


/* The series table: every column when wide, else the answers in 120
 * columns (label, test, P=1, peak, saturation, gain, the busier side);
 * closed loops only (the open loop has report_open_table). */
static void report_series_table(const struct analysis_result *r, const struct report_opts *o,
				int wide, struct rtab *t)
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
	char b1[REPORT_CELL];

	if (wide)
		rtab_init(t, head, bound ? "lllrrrrrrrrrrrl" : "lllrrrrrrrrrrr");
	else
		rtab_init(t, head_short, bound ? "llrrrrl" : "llrrrr");
	for (size_t i = 0; i < r->nseries; i++) {
		const struct analysis_series *a = &r->series[i];
		int fit = a->fit.status == FIT_OK;

		if (isfinite(report_rate(o, a->rps)))
			continue;
		rtab_add(t, a->rps->label);
		rtab_add(t, a->rps->test);
		if (wide) {
			report_depths(a->rps, b1, sizeof b1);
			rtab_add(t, b1);
		}
		rtab_add(t, report_fnum(b1, sizeof b1, a->rps_at_1, 0));
		rtab_add(t, report_fci(b1, sizeof b1, a->peak_rps, a->peak_lo, a->peak_hi));
		if (wide) {
			rtab_add(t, report_fdepth(b1, sizeof b1, a->peak_depth));
			rtab_addf(t, "%s (P=%u)", report_fnum(b1, sizeof b1, a->top_rps, 0), a->top_depth);
		}
		rtab_add(t, report_fsat(b1, sizeof b1, a));
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
		rtab_add(t, report_fci(b1, sizeof b1, a->fit.asymptote, a->fit.asymptote_lo,
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

/* The open loop's table: a line for each point of each series whose rows
 * have an offered rate, by label, test and rate: the rate offered, the
 * depth, the rate achieved and its share of the offered one, the average
 * and p99 latency there (medians over repeats), and the repeats that fell
 * short of the rate.  Returns how many lines. */
static size_t report_open_table(const struct analysis_result *r, const struct report_opts *o,
				const struct series_set *p99set, struct rtab *t)
{
	static const char *const head[] = {
		"label", "test", "offered rps", "P", "achieved rps", "of offered", "avg ms",
		"p99 ms", "fell short",
	};
	char b1[REPORT_CELL];
	size_t n = 0;

	rtab_init(t, head, "llrrrrrrl");
	for (size_t i = 0; i < r->nseries; i++) {
		const struct analysis_series *a = &r->series[i];
		const struct series *s = a->rps;
		const struct series *p99 = p99set ? series_find(p99set, s->label, s->test) : NULL;
		double rate = report_rate(o, s);

		if (!isfinite(rate))
			continue;
		for (size_t k = 0; k < s->npts; k++) {
			const struct series_point *p = &s->pts[k];

			rtab_add(t, s->label);
			rtab_add(t, report_open_test(s, b1, sizeof b1));
			rtab_add(t, report_fnum(b1, sizeof b1, rate, 0));
			rtab_addf(t, "%u", p->depth);
			rtab_add(t, report_fnum(b1, sizeof b1, p->median, 0));
			rtab_addf(t, "%s%%", report_fnum(b1, sizeof b1, 100 * p->median / rate, 1));
			rtab_add(t, report_fnum(b1, sizeof b1, report_median_at(a->avg, p->depth), 3));
			rtab_add(t, report_fnum(b1, sizeof b1, report_median_at(p99, p->depth), 3));
			if (p->rate_short > 0)
				rtab_addf(t, "%zu of %zu repeats", p->rate_short, p->n);
			else
				rtab_add(t, "no");
			n++;
		}
	}
	return n;
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
	char b1[REPORT_CELL];

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
		rtab_add(t, report_fsigned(b1, sizeof b1, d->d_rps, 0));
		if (isfinite(d->d_pct))
			rtab_addf(t, "%s%%", report_fsigned(b1, sizeof b1, d->d_pct, 1));
		else
			rtab_add(t, "-");
		/* The p50's where a side has no average (a -q import): said so. */
		const char *p50 = isfinite(d->d_avg) && d->lat_metric == SM_P50 ? " (p50)" : "";

		if (isfinite(d->d_avg) && d->avg_depth != d->depth)
			rtab_addf(t, "%s at P=%u%s", report_fsigned(b1, sizeof b1, d->d_avg, 3),
				  d->avg_depth, p50);
		else
			rtab_addf(t, "%s%s", report_fsigned(b1, sizeof b1, d->d_avg, 3), p50);
	}
	if (isfinite(d->ratio))
		rtab_addf(t, "%sx", analysis_fmt_ratio(b1, sizeof b1, d->ratio));
	else
		rtab_add(t, "-");
	rtab_add(t, report_fratio_ci(b1, sizeof b1, &d->ci));
	rtab_add(t, report_verdict_words(b1, sizeof b1, d));
	if (!wide)
		return;
	/* The lowest and highest of the ratios depth by depth, in words: two
	 * ratios joined by ".." read as an interval, which this is not. */
	if (c->ndepths > 1 && isfinite(c->ratio_min)) {
		char lo[32], hi[32];

		analysis_fmt_ratio(lo, sizeof lo, c->ratio_min);
		analysis_fmt_ratio(hi, sizeof hi, c->ratio_max);
		if (strcmp(lo, hi) == 0)
			rtab_addf(t, "%sx at all %zu depths", lo, c->ndepths);
		else
			rtab_addf(t, "%sx to %sx over %zu depths", lo, hi, c->ndepths);
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
		"95% interval", "verdict", "per-depth ratios",
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
	char b1[REPORT_CELL];

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
		rtab_add(t, report_fratio_ci(b1, sizeof b1, &d->ci));
		if (bars) {
			/* 40 columns for the largest ratio: a glance shows the order. */
			size_t n = max > 0 ? (size_t)lround(40 * r->speedup[i].ratio / max) : 0;

			memset(b1, '#', n < sizeof b1 ? n : sizeof b1 - 1);
			b1[n < sizeof b1 ? n : sizeof b1 - 1] = '\0';
			rtab_add(t, b1);
		}
	}
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
	char s[4096];

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
		if (report_overall_words(r, r->speedup[i].label_idx, 1, s, sizeof s) > 0)
			fprintf(fp, "%s%s\n", md ? "\n" : "  ", s);
		i = j;
	}
	if (o->prose) {
		fprintf(fp, "\n%sIn words\n", h);
		if (md)
			fputc('\n', fp);
		for (size_t i = 0; i < r->ncmps; i++) {
			size_t li = r->series[r->cmps[i].other].rps->label_idx;

			/* A label's overall figure first, then its tests. */
			if ((i == 0 || r->series[r->cmps[i - 1].other].rps->label_idx != li) &&
			    report_overall_words(r, li, 0, s, sizeof s) > 0)
				fprintf(fp, "%s%s\n", md ? "- " : "  ", s);
			report_prose(r, &r->cmps[i], s, sizeof s);
			fprintf(fp, "%s%s\n", md ? "- " : "  ", s);
		}
	}
}

/* "Servers: redis = redis 7.0.15, valkey = valkey 8.0.1": what each label
 * was measured on, as the server names itself ("m1 = redis 7.0.15 and
 * redis 7.2.4" when its series name several), with a spawned server's
 * arguments ("ci = redis 7.0.15 [--appendfsync always]"), and a blank
 * line; nothing when no row names its server (imports).  O(series^2), a
 * few hundred at most. */
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
			char d[3 * ROW_STR + 4], e[3 * ROW_STR + 4];

			if (strcmp(r->series[j].rps->label, label) != 0 ||
			    rows_server_desc_args(r->series[j].rps->first->server, d,
						  sizeof d)[0] == '\0')
				continue;
			/* Each server of the label once. */
			for (k = i; k < j; k++)
				if (strcmp(r->series[k].rps->label, label) == 0 &&
				    strcmp(rows_server_desc_args(r->series[k].rps->first->server, e,
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
			 const struct series_set *p99, int md)
{
	int wide = md || o->wide;
	struct report_opts ow = *o;
	struct rtab t;
	char **notes, x[32];
	size_t nnotes;
	const char *h = md ? "## " : "", *open_gap = "";

	ow.wide = wide;
	nnotes = report_notes(r, &ow, &notes);
	/* What else differed between the labels, before anything else; a
	 * pull-request comment opens with the verdicts, then says it. */
	if (!md)
		report_env_block(fp, r, o->envs, o->nenvs, md);
	if (md) {
		report_verdict_table(fp, r);
		report_env_block(fp, r, o->envs, o->nenvs, md);
	}
	report_servers(fp, r);
	report_series_table(r, o, wide, &t);
	/* Every series of one depth (imports, redis-benchmark-default): a
	 * table of "gain 1.00x" rows says nothing; the note says so once and
	 * the comparison leads (issue 44). */
	if (!wide && r->nsingle == r->nseries && r->ncmps > 0 && t.ncells > 0) {
		rtab_free(&t);
		t.ncells = 0;
		t.cells = NULL;
	}
	if (t.ncells > 0) {
		if (wide)
			fprintf(fp, "%sSeries (medians over repeats; peak: the fitted level's; "
				"saturation: first depth whose level reaches %s%% of the peak; 95%% "
				"intervals by bootstrap)\n", h, report_fnum(x, sizeof x, 100 * o->knee, 0));
		else
			fprintf(fp, "Saturation (peak: the fitted level; saturation: first depth at %s%% "
				"of it; 95%% intervals)\n", report_fnum(x, sizeof x, 100 * o->knee, 0));
		if (md)
			fputc('\n', fp);
		report_table(fp, &t, md);
		open_gap = "\n";
	} else {
		rtab_free(&t);
	}
	report_axes_block(fp, r, o, md);
	if (report_open_table(r, o, p99, &t) > 0) {
		fprintf(fp, "%s%sOpen loop (the rate achieved against the rate offered, and the latency "
			"at it; medians over repeats)\n", open_gap, h);
		if (md)
			fputc('\n', fp);
		report_table(fp, &t, md);
	} else {
		rtab_free(&t);
	}
	if (wide)
		report_notes_block(fp, notes, nnotes, md);
	report_comparisons(fp, r, o, md, wide);
	report_runs_block(fp, r, md, wide);
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
	struct series_set p99 = { 0 };
	const struct series_set *lat = NULL;
	struct rs_err e;
	int open = 0;

	for (size_t i = 0; i < r->nseries && !open; i++)
		open = isfinite(report_rate(o, r->series[i].rps));
	/* The open loop's latency at each rate includes its tail: the rows'
	 * p99 grouped as the rps are (n log n in the rows, once).  Without
	 * it (a file whose rows have none) the column reads "-". */
	if (open && o->rows != NULL && series_build_known(o->rows, SM_P99, &p99, &e) == 0)
		lat = &p99;
	switch (o->format) {
	case FORMAT_TEXT: report_human(fp, r, o, lat, 0); break;
	case FORMAT_MARKDOWN: report_human(fp, r, o, lat, 1); break;
	case FORMAT_CSV: report_csv(fp, r, o, lat); break;
	case FORMAT_JSON: report_json(fp, r, o, lat); break;
	/* The page (report_html.h) holds the text report; alone, it is that. */
	case FORMAT_HTML: report_human(fp, r, o, lat, 0); break;
	}
	series_set_free(&p99);
	if (ferror(fp))
		return rs_err_set(err, "%s", strerror(errno ? errno : EIO));
	return 0;
}
