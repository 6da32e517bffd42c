/* analysis_overall.c: the figure people quote across several tests ("2-3x
 * faster"): the geometric mean of one label's ratios to the baseline,
 * with an interval that holds the tests' own variation, and how many tests
 * each verdict got. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "analysis/analysis.h"

void analysis_geomean(const double *x, const double *se, size_t n, struct stats_ci *out,
		      enum knee_verdict *verdict)
{
	double m = 0, ss = 0, w = 0, s;
	struct knee_cmp k;

	out->est = out->lo = out->hi = NAN;
	*verdict = KNEE_UNKNOWN;
	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++)
		m += x[i];
	m /= (double)n;
	out->est = exp(m);
	if (n < 2)
		return;
	for (size_t i = 0; i < n; i++) {
		ss += (x[i] - m) * (x[i] - m);
		if (se != NULL && isfinite(se[i]))
			w += se[i] * se[i];
	}
	/* The tests' spread about their mean (each test's own noise is in it
	 * too), never less than what the tests' own intervals give. */
	s = fmax(sqrt(ss / (double)(n - 1) / (double)n), sqrt(w) / (double)n);
	knee_ratio_from_logs(m, s, n - 1, out->est, &k);
	out->lo = k.ratio.lo;
	out->hi = k.ratio.hi;
	*verdict = k.verdict;
}

int analysis_overall(const struct analysis_result *r, size_t label_idx,
		     struct analysis_overall *out)
{
	double x[ANALYSIS_OVERALL_MAX], se[ANALYSIS_OVERALL_MAX];
	size_t n = 0;

	memset(out, 0, sizeof *out);
	out->gm.est = out->gm.lo = out->gm.hi = NAN;
	out->verdict = KNEE_UNKNOWN;
	for (size_t i = 0; i < r->ncmps && n < ANALYSIS_OVERALL_MAX; i++) {
		const struct analysis_cmp *c = &r->cmps[i];
		const struct analysis_delta *d = analysis_cmp_delta(r, c);

		if (r->series[c->other].rps->label_idx != label_idx || !d->valid ||
		    !(d->ratio > 0) || !isfinite(d->ratio))
			continue;
		x[n] = log(d->ratio);
		se[n] = isfinite(d->ci.lo) && isfinite(d->ci.hi) && d->ci.hi > d->ci.lo ?
			log(d->ci.hi / d->ci.lo) / (2 * 1.959964) : NAN;
		n++;
		if (KNEE_VERDICT_FASTERISH(d->verdict))
			out->faster++;
		else if (KNEE_VERDICT_SLOWERISH(d->verdict))
			out->slower++;
		else if (d->verdict == KNEE_SAME)
			out->same++;
		else
			out->undecided++;
	}
	out->n = n;
	if (n < ANALYSIS_OVERALL_MIN)
		return -1;
	analysis_geomean(x, se, n, &out->gm, &out->verdict);
	return 0;
}
