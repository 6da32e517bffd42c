/* analysis_runs.c: the figures of labels measured in several runs
 * (series.h: a file and its run number): each run's own core figures, the
 * peak over runs, and ratios at the peaks or a depth whose intervals
 * resample runs first (knee.h: runs).  Computes; never prints. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/analysis_int.h"
#include "base/xalloc.h"

/* Each run's figures, and the peak over runs in out->peak_runs (and
 * peak_rps, peak_lo, peak_hi): left as the pooled figures when a run has
 * no core result. */
void analysis_runs_compute(const struct series *rps, double knee, struct analysis_series *out)
{
	struct knee_run_fig *f = xcalloc(out->nruns, sizeof *f);
	struct knee_opts o;
	size_t ok = 0;

	out->run_knee = xcalloc(out->nruns, sizeof *out->run_knee);
	for (size_t r = 0; r < out->nruns; r++) {
		const struct knee_result *k = &out->run_knee[r].res;

		if (analysis_knee_of(rps, (long)r, knee, 0, &out->run_knee[r], NULL) < 0)
			break;
		f[r] = (struct knee_run_fig){ log(k->peak_rps.est), k->boot_peak, k->nboot, NAN };
		ok++;
	}
	analysis_knee_opts(knee, &o);
	if (ok == out->nruns && knee_runs_level(f, ok, &o, &out->peak_runs, NULL) == 0) {
		struct stats_ci ci = knee_runs_ci(&out->peak_runs);

		out->peak_rps = ci.est;
		out->peak_lo = ci.lo;
		out->peak_hi = ci.hi;
	} else {
		memset(&out->peak_runs, 0, sizeof out->peak_runs);
	}
	free(f);
}

/* Whether a and b were measured in the same runs (targets interleaved in
 * one invocation): then their points are paired in time, and the drift
 * between runs falls on both alike. */
int analysis_same_runs(const struct series *a, const struct series *b)
{
	if (a->nruns != b->nruns)
		return 0;
	for (size_t i = 0; i < a->nruns; i++) {
		size_t j = 0;

		while (j < b->nruns && !(a->runs[i].run == b->runs[j].run &&
					 strcmp(a->runs[i].src, b->runs[j].src) == 0))
			j++;
		if (j == b->nruns)
			return 0;
	}
	return 1;
}

/* Series s's figure at depth over its runs (depth 0: the peak) into out;
 * -1 when a run lacks a core result or no run has the depth. */
static int analysis_runs_at(const struct analysis_series *s, unsigned depth,
			    struct knee_runs *out)
{
	struct knee_run_fig *f;
	struct knee_opts o;
	size_t n = 0;
	int rc;

	if (depth == 0) {
		*out = s->peak_runs;
		return s->peak_runs.n > 0 ? 0 : -1;
	}
	if (s->run_knee == NULL)
		return -1;
	f = xcalloc(s->nruns, sizeof *f);
	for (size_t r = 0; r < s->nruns; r++) {
		const struct analysis_knee *k = &s->run_knee[r];
		long i = k->ok ? analysis_knee_index(k, depth) : -1;
		const struct knee_point *p;

		if (i < 0)
			continue;
		p = &k->res.pts[i];
		f[n].est = log(p->median.est);
		f[n].se = (log(p->median.hi) - log(p->median.lo)) / (2 * 1.959964);
		if (!isfinite(f[n].se) && k->ks.n[i] >= 2) {
			double m = 0, ss = 0;

			/* No pooled noise in the run: its repeats here. */
			for (size_t j = 0; j < k->ks.n[i]; j++)
				m += log(k->ks.v[i][j]);
			m /= (double)k->ks.n[i];
			for (size_t j = 0; j < k->ks.n[i]; j++)
				ss += (log(k->ks.v[i][j]) - m) * (log(k->ks.v[i][j]) - m);
			f[n].se = sqrt(ss / (double)(k->ks.n[i] - 1) / (double)k->ks.n[i]);
		}
		n++;
	}
	analysis_knee_opts(KNEE_DEFAULT_KNEE, &o);
	rc = n > 0 ? knee_runs_level(f, n, &o, out, NULL) : -1;
	free(f);
	return rc;
}

/* The run-level interval of a against b at depth (0: the peaks) into d,
 * when either side has several runs and they were not measured in the
 * same runs: 1, or 0 when it does not apply. */
int analysis_delta_runs(const struct analysis_series *b, const struct analysis_series *a,
			unsigned depth, struct analysis_delta *d)
{
	struct knee_runs ra, rb;
	struct knee_cmp k;

	if ((a->nruns < 2 && b->nruns < 2) || analysis_same_runs(a->rps, b->rps))
		return 0;
	if (analysis_runs_at(a, depth, &ra) < 0 || analysis_runs_at(b, depth, &rb) < 0)
		return 0;
	knee_runs_borrow(&ra, &rb);
	knee_runs_borrow(&rb, &ra);
	knee_compare_runs(&ra, &rb, &k);
	if (!isfinite(k.ratio.lo))
		return 0;
	/* Centred on the runs' means (at the peaks, the peaks are those);
	 * widened to hold the ratio shown, so that no verdict contradicts it. */
	if (isfinite(d->ratio)) {
		k.ratio.lo = fmin(k.ratio.lo, d->ratio);
		k.ratio.hi = fmax(k.ratio.hi, d->ratio);
	}
	d->ci = (struct stats_ci){ d->ratio, k.ratio.lo, k.ratio.hi };
	d->verdict = knee_verdict_of(d->ci.lo, d->ci.hi);
	d->within_band = d->verdict == KNEE_SAME;
	if (d->verdict == KNEE_UNKNOWN)
		d->ci.lo = d->ci.hi = NAN;
	return 1;
}
