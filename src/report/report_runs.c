/* report_runs.c: the runs block of the text and markdown report: how many
 * runs each label has, where each series' noise is, and what intervals
 * between labels measured one run each leave out (knee.h: runs). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/knee.h"
#include "report/report_int.h"
#include "stats/stats.h"
#include "base/xalloc.h"

/* Without two runs of anything in the data, the drift between runs
 * assumed for a suggestion: the sd of ln peak of runs minutes apart that
 * rsweep's README measured on its 2-core VM (three runs of one sweep,
 * peaks 35% apart). */
#define REPORT_RUNS_SD_SEEN 0.15
#define REPORT_RUNS_SEEN_PCT 35
/* Most runs a side a suggestion names. */
#define REPORT_RUNS_MOST 30

/* The first series of label index li (its runs say the label's). */
static const struct analysis_series *report_label_series(const struct analysis_result *r,
							 size_t li)
{
	for (size_t i = 0; i < r->nseries; i++)
		if (r->series[i].rps->label_idx == li)
			return &r->series[i];
	return NULL;
}

/* The spread of s's run peaks, max / min; NAN under two runs. */
static double report_run_spread(const struct analysis_series *s)
{
	double lo = INFINITY, hi = 0;

	if (s->peak_runs.n < 2)
		return NAN;
	for (size_t k = 0; k < s->nruns; k++) {
		double p = s->run_knee[k].res.peak_rps.est;

		lo = fmin(lo, p);
		hi = fmax(hi, p);
	}
	return lo > 0 ? hi / lo : NAN;
}

/* Fewest points with a start for a run's own drift. */
#define REPORT_DRIFT_MIN 9

static int report_cmp_pair(const void *x, const void *y)
{
	const double *a = x, *b = y;

	return (a[0] > b[0]) - (a[0] < b[0]);
}

/* The drift label li's one run records itself: every point's ln ratio to
 * its series' fitted level, in the order they started, the median of the
 * last third less that of the first (a run is shuffled, so each third
 * holds every depth alike); NAN with fewer than REPORT_DRIFT_MIN points
 * with a start (imports have none) or a label of several runs. */
static double report_own_drift(const struct analysis_result *r, size_t li)
{
	double (*v)[2] = NULL, *w, d;
	size_t n = 0, cap = 0, k;

	for (size_t i = 0; i < r->nseries; i++) {
		const struct analysis_series *s = &r->series[i];

		if (s->rps->label_idx != li)
			continue;
		if (s->nruns > 1)
			break;
		if (!s->knee.ok || s->knee.res.m != s->rps->npts)
			continue;
		for (size_t p = 0; p < s->rps->npts; p++) {
			const struct series_point *pt = &s->rps->pts[p];
			double level = s->knee.res.pts[p].level;

			for (size_t j = 0; pt->started != NULL && j < pt->n; j++) {
				if (!isfinite(pt->started[j]) || !(pt->v[j] > 0) || !(level > 0))
					continue;
				if (n == cap) {
					cap = cap ? 2 * cap : 64;
					v = xreallocarray(v, cap, sizeof *v);
				}
				v[n][0] = pt->started[j];
				v[n++][1] = log(pt->v[j] / level);
			}
		}
	}
	if (n < REPORT_DRIFT_MIN) {
		free(v);
		return NAN;
	}
	qsort(v, n, sizeof *v, report_cmp_pair);
	k = n / 3;
	w = xcalloc(k, sizeof *w);
	for (size_t i = 0; i < k; i++)
		w[i] = v[n - k + i][1];
	d = stats_median_inplace(w, k);
	for (size_t i = 0; i < k; i++)
		w[i] = v[i][1];
	d -= stats_median_inplace(w, k);
	free(w);
	free(v);
	return exp(d) - 1;
}

/* "Runs: a 3 (a.csv), b 1 (b.csv)": each label's runs and their files. */
static void report_runs_line(FILE *fp, const struct analysis_result *r, int md)
{
	fprintf(fp, "%sRuns: ", md ? "- " : "  ");
	for (size_t li = 0, first = 1; li < r->nlabels; li++) {
		const struct analysis_series *s = report_label_series(r, li);

		if (s == NULL)
			continue;
		fprintf(fp, "%s%s %zu (", first ? "" : ", ", s->rps->label, s->nruns);
		for (size_t k = 0; k < s->rps->nruns; k++) {
			size_t j = 0;

			/* Each file once. */
			while (j < k && strcmp(s->rps->runs[j].src, s->rps->runs[k].src) != 0)
				j++;
			if (j == k)
				fprintf(fp, "%s%s", k ? ", " : "", s->rps->runs[k].src);
		}
		fputc(')', fp);
		first = 0;
	}
	fputc('\n', fp);
	/* Two files of one label: runs of one set-up, unless the user meant
	 * two (two hosts of one name, run without -l). */
	for (size_t li = 0; li < r->nlabels; li++) {
		const struct analysis_series *s = report_label_series(r, li);
		const char *base;
		size_t nfiles = 1;

		if (s == NULL)
			continue;
		for (size_t k = 1; k < s->rps->nruns; k++) {
			size_t j = 0;

			while (j < k && strcmp(s->rps->runs[j].src, s->rps->runs[k].src) != 0)
				j++;
			nfiles += j == k;
		}
		if (nfiles < 2)
			continue;
		base = strrchr(s->rps->runs[0].src, '/');
		fprintf(fp, "%s%s is in %zu files, read as runs of one set-up: to compare them give each "
			"its own label (--relabel %s:%s=NAME)\n", md ? "- " : "  ", s->rps->label, nfiles,
			base ? base + 1 : s->rps->runs[0].src, s->rps->label);
	}
}

/* The largest drift between runs in the data: the sd (ln) of a run's
 * peak beyond its own noise, and the widest spread of run peaks with its
 * series; 0 (sd NAN) when no series has two runs. */
static double report_runs_drift(const struct analysis_result *r, double *spread,
				const struct analysis_series **where)
{
	double sd = NAN;

	*spread = NAN;
	*where = NULL;
	for (size_t i = 0; i < r->nseries; i++) {
		const struct analysis_series *s = &r->series[i];
		double x = report_run_spread(s);

		if (s->peak_runs.n < 2)
			continue;
		if (!(sd >= s->peak_runs.between))
			sd = s->peak_runs.between;
		if (isfinite(x) && !(*spread >= x)) {
			*spread = x;
			*where = s;
		}
	}
	return sd;
}

/* One line for the comparisons of label other with the baseline. */
static void report_runs_pair(FILE *fp, const struct analysis_result *r, size_t other, int md)
{
	const struct analysis_series *where;
	double ds[64], spread, sd = report_runs_drift(r, &spread, &where), d;
	size_t nd = 0, nb = 0, no = 0;
	const char *label = NULL;
	int apart = 0, known = 0;
	char x[32];
	unsigned need;

	for (size_t i = 0; i < r->ncmps; i++) {
		const struct analysis_cmp *c = &r->cmps[i];

		if (r->series[c->other].rps->label_idx != other)
			continue;
		label = r->series[c->other].rps->label;
		nb = r->series[c->base].nruns;
		no = r->series[c->other].nruns;
		apart |= c->runs_apart;
		known |= c->runs_known;
		if (nd < sizeof ds / sizeof *ds && isfinite(c->at_peak.ratio) && c->at_peak.ratio > 0)
			ds[nd++] = fabs(log(c->at_peak.ratio));
	}
	if (label == NULL || !apart)
		return;
	fprintf(fp, "%s%s against %s: ", md ? "- " : "  ", label, r->baseline);
	if (known) {
		fprintf(fp, "%zu run%s against %zu: intervals resample runs first, then repeats within "
			"them%s\n", no, no == 1 ? "" : "s", nb,
			no == 1 || nb == 1 ? " (the side with one run takes the other's drift between "
					     "runs)" : "");
		return;
	}
	fprintf(fp, "one run each: the intervals hold the noise within each run, not the drift "
		"between runs, ");
	if (where != NULL) {
		fprintf(fp, "which put %s %s's %zu runs %s%% apart here", where->rps->label,
			where->rps->test, where->nruns,
			report_fnum(x, sizeof x, 100 * (spread - 1), 0));
	} else {
		double da = report_own_drift(r, other), db = NAN;

		for (size_t i = 0; i < r->nseries && !isfinite(db); i++)
			if (strcmp(r->series[i].rps->label, r->baseline) == 0)
				db = report_own_drift(r, r->series[i].rps->label_idx);
		if (isfinite(da) || isfinite(db)) {
			double most = fmax(isfinite(da) ? fabs(da) : 0, isfinite(db) ? fabs(db) : 0);

			fprintf(fp, "which the runs record only in part (each label's level moved up to "
				"%s%% from its run's first third to its last) and which ",
				report_fnum(x, sizeof x, 100 * most, 1));
		} else {
			fputs("which ", fp);
		}
		fprintf(fp, "put runs minutes apart up to %d%% apart on rsweep's 2-core test VM",
			REPORT_RUNS_SEEN_PCT);
	}
	d = nd ? ds[0] : NAN;
	/* The median difference over the tests. */
	if (nd > 1) {
		for (size_t i = 1; i < nd; i++)
			for (size_t j = i; j > 0 && ds[j - 1] > ds[j]; j--) {
				double t = ds[j];

				ds[j] = ds[j - 1];
				ds[j - 1] = t;
			}
		d = nd % 2 ? ds[nd / 2] : (ds[nd / 2 - 1] + ds[nd / 2]) / 2;
	}
	need = isfinite(d) ? knee_runs_needed(d, isfinite(sd) ? sd : REPORT_RUNS_SD_SEEN,
					      REPORT_RUNS_MOST) : 0;
	if (!isfinite(d))
		fputs("; measure each side with --runs 3 or more\n", fp);
	else if (fabs(d) <= log(1 + KNEE_CMP_BAND))
		fprintf(fp, "; the peaks differ by %s%% (median over tests), within the ±%.0f%% band\n",
			report_fnum(x, sizeof x, 100 * (exp(d) - 1), 1), 100 * KNEE_CMP_BAND);
	else if (need > 0)
		fprintf(fp, "; for peaks %s%% apart (median over tests), with drift like %s, measure "
			"about %u runs a side (--runs %u)\n", report_fnum(x, sizeof x, 100 * (exp(d) - 1), 1),
			isfinite(sd) ? "these runs'" : "that VM's", need, need);
	else
		fprintf(fp, "; peaks %s%% apart (median over tests) are within that drift: more than "
			"%d runs a side would be needed\n", report_fnum(x, sizeof x, 100 * (exp(d) - 1), 1),
			REPORT_RUNS_MOST);
}

/* Where series s's noise is: between runs (with two or more), within a
 * run at the peak, one point's, one window's. */
static void report_runs_levels(FILE *fp, const struct analysis_series *s, int md)
{
	const struct knee_runs *k = &s->peak_runs;
	double drift = NAN, sigma = s->knee.ok ? s->knee.res.sigma : NAN;
	char a[32], b[32], c[32], e[48];
	size_t nd = 0;

	for (size_t i = 0; i < s->rps->npts; i++)
		if (isfinite(s->rps->pts[i].noise.drift_pct)) {
			drift = isfinite(drift) ? drift + s->rps->pts[i].noise.drift_pct :
						  s->rps->pts[i].noise.drift_pct;
			nd++;
		}
	if (nd)
		drift /= (double)nd;
	if (isfinite(drift))
		snprintf(e, sizeof e, "a window's drift %.1f%%", drift);
	else
		snprintf(e, sizeof e, "no window's drift recorded");
	if (k->n < 2) {
		/* One run: the peak's own interval is the within-run noise. */
		double w = s->peak_lo > 0 && isfinite(s->peak_hi) ?
			   (log(s->peak_hi) - log(s->peak_lo)) / (2 * 1.959964) : NAN;

		fprintf(fp, "%s%s %s: one run: between runs unknown, within the run ±%s%% at the peak; "
			"one point ±%s%%, %s: measure runs (--runs 3) to learn the drift between them\n",
			md ? "- " : "    ", s->rps->label, s->rps->test, report_fnum(b, sizeof b, 100 * w, 1),
			report_fnum(c, sizeof c, 100 * sigma, 1), e);
		return;
	}
	if (k->between > 0)
		snprintf(a, sizeof a, "±%.1f%%", 100 * k->between);
	else
		snprintf(a, sizeof a, "no more than each run's own");
	fprintf(fp, "%s%s %s: between runs %s (%zu runs), within a run ±%s%% at the peak; one "
		"point ±%s%%, %s: %s\n", md ? "- " : "    ", s->rps->label, s->rps->test, a, k->n,
		report_fnum(b, sizeof b, 100 * k->within, 1), report_fnum(c, sizeof c, 100 * sigma, 1), e,
		k->between > k->within ? "more runs narrow it, not more repeats" :
		"more repeats (or --precision) narrow it as well as more runs");
}

void report_runs_block(FILE *fp, const struct analysis_result *r, int md, int wide)
{
	int any = 0;
	const char *h = md ? "## " : "";

	for (size_t i = 0; i < r->nseries; i++)
		any |= r->series[i].nruns > 1;
	for (size_t i = 0; i < r->ncmps; i++)
		any |= r->cmps[i].runs_apart;
	if (!any)
		return;
	fprintf(fp, "\n%sRuns\n", h);
	if (md)
		fputc('\n', fp);
	report_runs_line(fp, r, md);
	for (size_t li = 0; li < r->nlabels; li++)
		report_runs_pair(fp, r, li, md);
	/* Where the noise is: always for a series of several runs; for one
	 * of one run in the wide report. */
	for (size_t i = 0; i < r->nseries; i++)
		if (r->series[i].peak_runs.n > 1 || wide)
			report_runs_levels(fp, &r->series[i], md);
}
