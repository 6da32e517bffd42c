/* knee_noise.c: the noise of one series, a pool of standardised
 * residuals of ln rps learnt from the repeats, from neighbouring depths or
 * from the residuals about a fitted level, and its scale sigma (the noise
 * model is in knee.h; knee_int.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/knee.h"
#include "stats/knee_int.h"
#include "base/xalloc.h"

/* M_PI is X/Open, not POSIX: not there under strict feature macros. */
#define KNEE_PI 3.14159265358979323846
/* Residuals below which their MAD alone is no scale and the pool is
 * widened by t over z (knee_pool_centre; knee.h). */
#define KNEE_SMALL_POOL 10

/* Variance of the median of n standard normal values: up to 16 by
 * simulation (10^6 medians each, within 0.3%; 1 and 2 exact), beyond by
 * pi / 2n with the parity's correction fitted to the table's end. */
double knee_medvar(size_t n)
{
	static const double t[] = { 1.0,    0.5,    0.4487, 0.2982, 0.2868, 0.2147,
				    0.2104, 0.1682, 0.1661, 0.1383, 0.1375, 0.1177,
				    0.1167, 0.1022, 0.1015, 0.0905 };

	if (n <= sizeof t / sizeof t[0])
		return t[n - 1];
	return KNEE_PI / (2.0 * (double)n) * (1 - (n % 2 ? 0.5 : 1.25) / (double)n);
}

/* Student's t, two-sided 95% (the 0.975 quantile), for df >= 1: the table
 * to 30, then the Cornish-Fisher expansion (within 0.001 from there). */
double knee_t975(size_t df)
{
	static const double t[] = {
		12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
	};
	double z = 1.959964, n = (double)df;

	if (df >= 1 && df <= sizeof t / sizeof *t)
		return t[df - 1];
	return z + (z * z * z + z) / (4 * n) + (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * n * n);
}

/* Centre pool[0..n) on its Huber location and winsorise it at
 * KNEE_POOL_CLIP sigma; returns sigma, 1.4826 MAD.  The Huber location,
 * not the median: the fits are Huber estimates, and a replicate drawn from
 * a skewed pool (dips) centred on its median would lift every refitted
 * curve above the data's. */
static double knee_pool_centre(double *pool, size_t n)
{
	double mu = stats_median(pool, n), sigma = STATS_MAD_TO_SD * stats_mad(pool, n);

	for (int it = 0; it < 50 && sigma > 0; it++) {
		double sw = 0, swe = 0, next;

		for (size_t i = 0; i < n; i++) {
			double d = fabs(pool[i] - mu), c = KNEE_HUBER * sigma;
			double h = d > c ? c / d : 1;

			sw += h;
			swe += h * pool[i];
		}
		next = swe / sw;
		if (fabs(next - mu) <= 1e-12 * sigma) {
			mu = next;
			break;
		}
		mu = next;
	}
	/* A MAD of a handful of residuals (a short series: 3 to 8) is no
	 * scale: two of four near zero make it 0.02 for 14% noise, and the
	 * clip below then squeezes the whole pool to nothing, a zero-width
	 * interval for a series of single measurements.  Below
	 * KNEE_SMALL_POOL the scale is at least the residuals' root mean
	 * square. */
	if (n < KNEE_SMALL_POOL) {
		double ss = 0;

		for (size_t i = 0; i < n; i++)
			ss += (pool[i] - mu) * (pool[i] - mu);
		sigma = fmax(sigma, sqrt(ss / (double)n));
	}
	for (size_t i = 0; i < n; i++)
		pool[i] = fmax(-KNEE_POOL_CLIP * sigma, fmin(KNEE_POOL_CLIP * sigma, pool[i] - mu));
	/* And a handful of residuals is a scale known to few degrees of
	 * freedom: resampled as they are, they make a normal interval of an
	 * estimated sigma (80% coverage of the true peak on 5 single
	 * measurements, not 95%).  The pool is widened by Student's t over
	 * the normal quantile (t(3) / z = 1.62, t(9) / z = 1.15), as a t
	 * interval would be; sigma stays the estimate. */
	if (n < KNEE_SMALL_POOL) {
		double f = knee_t975(n) / 1.959964;

		for (size_t i = 0; i < n; i++)
			pool[i] *= f;
	}
	return sigma;
}

/* Fill r->pool, r->npool, r->sigma and r->noise from the series (y: ln
 * medians, x: log2 depths). */
void knee_noise(const struct knee_series *s, const double *x, const double *y,
		struct knee_result *r)
{
	size_t df = 0, np = 0, total = 0;
	double *pool;

	for (size_t i = 0; i < s->m; i++) {
		df += s->n[i] - 1;
		total += s->n[i];
	}
	pool = xcalloc(total + s->m, sizeof *pool);
	if (df >= KNEE_WITHIN_MIN_DF) {
		r->noise = KNEE_NOISE_REPEATS;
		for (size_t i = 0; i < s->m; i++) {
			size_t n = s->n[i];
			double mean = 0, scale;

			if (n < 2)
				continue;
			for (size_t j = 0; j < n; j++)
				mean += log(s->v[i][j]);
			mean /= (double)n;
			/* Var(v - mean) = sigma² (1 - 1/n). */
			scale = sqrt((double)n / (double)(n - 1));
			for (size_t j = 0; j < n; j++)
				pool[np++] = (log(s->v[i][j]) - mean) * scale;
		}
	} else {
		r->noise = KNEE_NOISE_NEIGHBOURS;
		for (size_t i = 1; i + 1 < s->m; i++) {
			double al = (x[i + 1] - x[i]) / (x[i + 1] - x[i - 1]), ar = 1 - al;
			double var = al * al * knee_medvar(s->n[i - 1]) +
				     ar * ar * knee_medvar(s->n[i + 1]) + knee_medvar(s->n[i]);

			pool[np++] = (y[i] - al * y[i - 1] - ar * y[i + 1]) / sqrt(var);
		}
	}
	r->sigma = NAN;
	if (np < KNEE_MIN_POOL) {
		free(pool);
		r->noise = KNEE_NOISE_NONE;
		return;
	}
	r->sigma = knee_pool_centre(pool, np);
	r->pool = pool;
	r->npool = np;
}

/* Where the level is a fitted curve, its residuals are the better pool
 * than neighbouring depths: a straight line through two neighbours misses
 * the knee's bend where depths are sparse (on 1, 2, 4 ... 64 it takes a
 * noise-free curve for 5% noise), the fitted curve does not.  Each
 * residual is scaled to one measurement's noise and by sqrt(1 - h), h its
 * leverage in the fit, so that the pool's variance is the noise's.  Only
 * replaces a pool learnt from neighbours (repeats tell the noise
 * directly), and only when every depth but the fit's own parameters'
 * worth gives a residual (leverage below 1). */
void knee_noise_from_fit(const struct knee_model *mod, const struct knee_data *d,
			 const double *prec, const double *t, struct knee_result *r)
{
	double M[3][3] = { { 0 } }, *e, *Js;
	size_t np = mod->np, ne = 0;

	if (r->noise != KNEE_NOISE_NEIGHBOURS || d->m < np + KNEE_MIN_POOL)
		return;
	Js = xcalloc(d->m * 3, sizeof *Js);
	e = xcalloc(d->m, sizeof *e);
	for (size_t i = 0; i < d->m; i++) {
		double fit, *J = Js + 3 * i;

		mod->eval(t, d->p[i], d->lnp[i], &fit, J);
		e[i] = d->y[i] - fit;
		for (size_t k = 0; k < np; k++)
			for (size_t l = 0; l < np; l++)
				M[k][l] += prec[i] * J[k] * J[l];
	}
	for (size_t i = 0; i < d->m; i++) {
		double *J = Js + 3 * i, x[3], h = 0;

		if (knee_solve(M, 0, J, np, x) < 0)
			break;
		for (size_t k = 0; k < np; k++)
			h += prec[i] * J[k] * x[k];
		if (!(h < 1 - 1e-9))
			continue;
		e[ne++] = e[i] * sqrt(prec[i] / (1 - h));
	}
	free(Js);
	if (ne < d->m - np) {
		free(e);
		return;
	}
	free(r->pool);
	r->pool = e;
	r->npool = ne;
	r->noise = KNEE_NOISE_RESIDUALS;
	r->sigma = knee_pool_centre(e, ne);
}
