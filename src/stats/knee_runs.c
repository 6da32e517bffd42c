/* knee_runs.c: runs as a level of the evidence.  A figure measured in
 * several runs (a peak level, a depth's median) is the mean of the runs'
 * own, its standard error that of the two-level bootstrap of Kalibera and
 * Jones ("Rigorous benchmarking in reasonable time", ISMM 2013: runs drawn
 * first, each run's own bootstrap second) in closed form, less its double
 * count of the within-run noise; the interval's width is Student's t over
 * the runs' degrees of freedom, since a percentile interval of 3 runs
 * resampled covers about 75%. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/knee.h"
#include "stats/knee_int.h"
#include "base/xalloc.h"

/* Degrees of freedom that stand for "known": Student's t is then the
 * normal quantile to three decimals. */
#define KNEE_RUNS_DF_KNOWN 1000.0

/* The within-run standard error of f: the sd of its finite replicates (a
 * refit that failed is NAN, knee.h), else f->se (a NAN one, no noise known
 * within the run, counts as none). */
static double knee_run_within(const struct knee_run_fig *f)
{
	double m = 0, ss = 0;
	size_t k = 0;

	for (size_t j = 0; f->rep != NULL && j < f->nrep; j++)
		if (isfinite(f->rep[j])) {
			m += f->rep[j];
			k++;
		}
	if (k < 2)
		return isfinite(f->se) ? f->se : 0;
	m /= (double)k;
	for (size_t j = 0; j < f->nrep; j++)
		if (isfinite(f->rep[j]))
			ss += (f->rep[j] - m) * (f->rep[j] - m);
	return sqrt(ss / (double)(k - 1));
}

int knee_runs_level(const struct knee_run_fig *f, size_t n, const struct knee_opts *o,
		    struct knee_runs *out, struct rs_err *err)
{
	double *within, sum = 0, ss = 0, w2 = 0;

	memset(out, 0, sizeof *out);
	out->centre = out->se = out->between = out->within = NAN;
	if (knee_check_opts(o, err) < 0)
		return -1;
	if (n == 0)
		return rs_err_set(err, "no runs");
	for (size_t i = 0; i < n; i++)
		if (!isfinite(f[i].est))
			return rs_err_set(err, "run %zu has no figure", i + 1);
	out->n = n;
	within = xcalloc(n, sizeof *within);
	for (size_t i = 0; i < n; i++) {
		within[i] = knee_run_within(&f[i]);
		sum += f[i].est;
		w2 += within[i] * within[i];
	}
	out->centre = sum / (double)n;
	out->within = sqrt(w2 / (double)n);
	if (n == 1) {
		/* Nothing to tell runs apart: the run's own noise alone. */
		out->se = within[0];
		out->df = KNEE_RUNS_DF_KNOWN;
		free(within);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		ss += (f[i].est - out->centre) * (f[i].est - out->centre);
	/* Between runs, beyond what each run's own noise explains. */
	out->between = sqrt(fmax(0, ss / (double)(n - 1) - w2 / (double)n));
	/* The two-level bootstrap's variance of the mean of n runs, in closed
	 * form: ((n - 1) / n s2 + W) / n, s2 the runs' spread (n - 1) and W
	 * their mean within-run variance.  Resampled as it stands it counts
	 * the within-run noise twice (the runs' spread holds it already) and
	 * shrinks the spread by (n - 1) / n; both undone, it is s2 / n, floored
	 * at W / n: runs that happen to agree are no surer than each run's own
	 * noise allows.  On 400 synthetic pairs of 3 runs a side
	 * (tests/test_knee.c) this covered the true ratio 394 times, half-width
	 * 0.250 (ln), the bootstrap as it stands 399 times, 0.276. */
	out->se = sqrt(fmax(ss / (double)(n - 1), w2 / (double)n) / (double)n);
	out->df = (double)(n - 1);
	free(within);
	return 0;
}

void knee_runs_borrow(struct knee_runs *one, const struct knee_runs *from)
{
	if (one->n != 1 || from->n < 2 || !isfinite(from->between))
		return;
	one->se = sqrt(one->se * one->se + from->between * from->between);
	one->df = from->df;
	one->between = from->between;
	one->borrowed = 1;
}

/* Student's t at 97.5% for df degrees of freedom, fractional df rounded
 * down (the wider). */
static double knee_runs_t(double df)
{
	if (!(df >= 1))
		df = 1;
	return knee_t975(df >= KNEE_RUNS_DF_KNOWN ? (size_t)KNEE_RUNS_DF_KNOWN : (size_t)df);
}

struct stats_ci knee_runs_ci(const struct knee_runs *r)
{
	double half = knee_runs_t(r->df) * r->se;
	struct stats_ci ci = { exp(r->centre), NAN, NAN };

	if (isfinite(half)) {
		ci.lo = exp(r->centre - half);
		ci.hi = exp(r->centre + half);
	}
	return ci;
}

void knee_compare_runs(const struct knee_runs *a, const struct knee_runs *b, struct knee_cmp *out)
{
	double va = a->se * a->se, vb = b->se * b->se, den = 0, df;

	memset(out, 0, sizeof *out);
	if (a->df < KNEE_RUNS_DF_KNOWN)
		den += va * va / a->df;
	if (b->df < KNEE_RUNS_DF_KNOWN)
		den += vb * vb / b->df;
	/* Welch-Satterthwaite over the sides whose runs tell their spread. */
	df = den > 0 ? (va + vb) * (va + vb) / den : KNEE_RUNS_DF_KNOWN;
	if (!(df <= KNEE_RUNS_DF_KNOWN))
		df = KNEE_RUNS_DF_KNOWN;
	out->ratio = (struct stats_ci){ NAN, NAN, NAN };
	out->verdict = KNEE_UNKNOWN;
	if (!isfinite(a->centre) || !isfinite(b->centre) || !isfinite(va + vb))
		return;
	knee_ratio_from_logs(a->centre - b->centre, sqrt(va + vb), (size_t)(df >= 1 ? df : 1),
			     exp(a->centre - b->centre), out);
}

unsigned knee_runs_needed(double d, double sd, unsigned most)
{
	double room = fabs(d) - log(1 + KNEE_CMP_BAND);

	if (!(room > 0) || !(sd >= 0))
		return 0;
	for (unsigned n = 2; n <= most; n++)
		if (knee_t975(2 * (size_t)n - 2) * sd * sqrt(2.0 / n) < room)
			return n;
	return 0;
}
