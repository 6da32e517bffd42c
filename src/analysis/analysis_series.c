/* analysis_series.c: the figures of one series: the core's peak,
 * saturation depth and model (analysis_knee.c), the runs' (analysis_runs.c),
 * the gain over depth 1, the unstable points and their likely cause, and
 * what bound the load.  Computes; never prints. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/analysis_int.h"
#include "base/vec.h"

static enum analysis_fit_status analysis_fit_status_of(enum knee_fit_status k)
{
	switch (k) {
	case KNEE_FIT_OK: return FIT_OK;
	case KNEE_FIT_TOO_FEW: return FIT_TOO_FEW;
	case KNEE_FIT_NONPOSITIVE: return FIT_NONPOSITIVE;
	case KNEE_FIT_FALLS: return FIT_FALLS;
	case KNEE_FIT_POOR: return FIT_POOR;
	case KNEE_FIT_PATTERN: return FIT_PATTERN;
	}
	return FIT_NONPOSITIVE;
}

/* The core's figures into out (out->knee.ok set). */
static void analysis_from_knee(const struct series *rps, struct analysis_series *out)
{
	const struct knee_result *k = &out->knee.res;

	out->peak_rps = k->peak_rps.est;
	out->peak_lo = k->peak_rps.lo;
	out->peak_hi = k->peak_rps.hi;
	out->peak_depth = rps->pts[k->peak].depth;
	out->saturated = k->saturated;
	/* A curve still rising has no saturation depth: none is reported,
	 * in any format, beside saturated=no. */
	if (rps->npts > 1 && k->saturated != KNEE_SAT_NO) {
		out->sat_depth = rps->pts[k->sat].depth;
		out->sat_lo = k->sat_depth.lo;
		out->sat_hi = k->sat_depth.hi;
	}
	out->fit.status = analysis_fit_status_of(k->fit.status);
	out->fit.a_us = k->fit.a_us;
	out->fit.b_us = k->fit.b_us;
	out->fit.r2 = k->fit.r2;
	out->fit.asymptote = out->fit.asymptote_lo = out->fit.asymptote_hi = NAN;
	if (out->fit.status == FIT_OK) {
		out->fit.asymptote = k->fit.R.est;
		out->fit.asymptote_lo = k->fit.R.lo;
		out->fit.asymptote_hi = k->fit.R.hi;
	}
}

void analysis_series_compute(const struct series *rps, const struct series *avg, double knee,
			     double cv_limit, int level_band, struct analysis_series *out)
{
	const struct series_point *p1 = series_at(rps, 1), *at;
	size_t peak = analysis_peak(rps), sat = analysis_saturation(rps, knee);
	size_t capunstable = 0;

	memset(out, 0, sizeof *out);
	out->rps = rps;
	out->avg = avg;
	out->rps_at_1 = p1 ? p1->median : NAN;
	out->top_rps = rps->pts[peak].median;
	out->top_depth = rps->pts[peak].depth;
	out->peak_lo = out->peak_hi = out->sat_lo = out->sat_hi = NAN;
	out->saturated = KNEE_SAT_UNKNOWN;
	if (analysis_knee_compute(rps, knee, level_band, &out->knee, NULL) == 0) {
		analysis_from_knee(rps, out);
		sat = out->knee.res.sat;
	} else {
		/* A zero figure: the point figures, without intervals. */
		out->peak_rps = rps->pts[peak].median;
		out->peak_depth = rps->pts[peak].depth;
		out->sat_depth = rps->npts > 1 ? rps->pts[sat].depth : 0;
		analysis_fit(rps, &out->fit);
	}
	out->nruns = rps->nruns ? rps->nruns : 1;
	if (out->nruns > 1 && out->knee.ok)
		analysis_runs_compute(rps, knee, out);
	out->gain = p1 && p1->median > 0 ? out->peak_rps / p1->median : NAN;
	out->max_cv = NAN;
	for (size_t i = 0; i < rps->npts; i++) {
		const struct series_point *p = &rps->pts[i];

		if (p->n < 2)
			continue;
		if (!(out->max_cv >= p->cv))
			out->max_cv = p->cv;
		if (p->cv > cv_limit) {
			out->unstable = vec_reserve(out->unstable, &capunstable, out->nunstable + 1,
						    sizeof *out->unstable, 0);
			out->unstable[out->nunstable].depth = p->depth;
			out->unstable[out->nunstable].n = p->n;
			out->unstable[out->nunstable].cv = p->cv;
			cause_of(p, rps->first ? rps->first->threads : -1,
				 &out->unstable[out->nunstable].cause);
			out->nunstable++;
		}
	}
	at = &rps->pts[rps->npts > 1 ? sat : peak];
	out->server_cpu = at->server_cpu;
	out->client_cpu = at->client_cpu;
	out->bound = BOUND_UNKNOWN;
	if (isfinite(at->server_cpu) && isfinite(at->client_cpu))
		out->bound = at->server_cpu >= at->client_cpu ? BOUND_SERVER : BOUND_CLIENT;
}

void analysis_series_free(struct analysis_series *a)
{
	if (a == NULL)
		return;
	for (size_t r = 0; a->run_knee != NULL && r < a->nruns; r++)
		analysis_knee_free(&a->run_knee[r]);
	free(a->run_knee);
	a->run_knee = NULL;
	free(a->unstable);
	a->unstable = NULL;
	a->nunstable = 0;
	analysis_knee_free(&a->knee);
}
