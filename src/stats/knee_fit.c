/* knee_fit.c: the curves of the knee room, fitted to ln medians by
 * nonlinear least squares (Levenberg-Marquardt), robustly (Huber weights),
 * and how well they fit. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/knee.h"
#include "stats/knee_int.h"
#include "base/xalloc.h"

/* Bounds of the knee exponent s: 0.25 is a knee spread over 5 doublings,
 * 200 a corner within 0.4% of a broken line. */
#define KNEE_S_MIN 0.25
#define KNEE_S_MAX 200.0
/* Residuals (ln rps) whose sign the runs test ignores: a noise-free curve
 * fitted by a near neighbour of itself leaves 10^-7 runs far from the knee. */
#define KNEE_SIGN_FLOOR 1e-6
/* The reweighting rounds allowed to a Huber fit. */
#define KNEE_HUBER_ROUNDS 10




/* The model, t = (a, b): ln rps = ln P - ln(a + b P). */
static int knee_mm_eval(const double *t, double p, double lnp, double *g, double *J)
{
	double d = t[0] + t[1] * p;

	if (!(d > 0))
		return -1;
	*g = lnp - log(d);
	J[0] = -1 / d;
	J[1] = -p / d;
	return 0;
}

/* The curve P R / (K^s + P^s)^(1/s), t = (ln R, ln K, v = 1/s):
 * ln rps = ln R + u - v softplus(u / v) with u = ln P - ln K.  v = 1 is the
 * model; small v a line that turns flat at K.  In v, not s, the shape
 * moves smoothly from soft to sharp, and Newton steps stay well scaled. */
static int knee_gen_eval(const double *t, double p, double lnp, double *g, double *J)
{
	double u = lnp - t[1], v = t[2], z = u / v, e = exp(-fabs(z));
	double sp = fmax(z, 0) + log1p(e), sg = z >= 0 ? 1 / (1 + e) : e / (1 + e);

	(void)p;
	*g = t[0] + u - v * sp;
	J[0] = 1;
	J[1] = sg - 1;
	J[2] = z * sg - sp;
	return 0;
}

const struct knee_model knee_mm = {
	2, knee_mm_eval, { -INFINITY, -INFINITY, 0 }, { INFINITY, INFINITY, 0 }
};
const struct knee_model knee_gen = {
	3, knee_gen_eval,
	{ -INFINITY, -INFINITY, 1 / KNEE_S_MAX }, { INFINITY, INFINITY, 1 / KNEE_S_MIN }
};

/* Whether symmetric M (np <= 3) is positive definite (Cholesky). */
static int knee_posdef(double M[3][3], size_t np)
{
	double L[3][3] = { { 0 } };

	for (size_t j = 0; j < np; j++) {
		double v = M[j][j];

		for (size_t k = 0; k < j; k++)
			v -= L[j][k] * L[j][k];
		if (!(v > 0))
			return 0;
		L[j][j] = sqrt(v);
		for (size_t i = j + 1; i < np; i++) {
			double u = M[i][j];

			for (size_t k = 0; k < j; k++)
				u -= L[i][k] * L[j][k];
			L[i][j] = u / L[j][j];
		}
	}
	return 1;
}

/* knee_pass for the model. */
static double knee_pass_mm(const struct knee_data *d, const double *t, double A[3][3],
			   double g[3])
{
	double sse = 0, g0 = 0, g1 = 0, a00 = 0, a01 = 0, a11 = 0, s00 = 0, s01 = 0, s11 = 0;

	for (size_t i = 0; i < d->m; i++) {
		double p = d->p[i], den = t[0] + t[1] * p, q, r, w = d->w[i], wq, wq2, wrq2;

		if (!(den > 0))
			return INFINITY;
		q = 1 / den;
		r = d->y[i] - d->lnp[i] + log(den);
		wq = w * q;
		wq2 = wq * q;
		wrq2 = wq2 * r;
		sse += w * r * r;
		/* J = -(q, p q), H = q² (1, p; p, p²). */
		g0 -= wq * r;
		g1 -= wq * p * r;
		a00 += wq2;
		a01 += wq2 * p;
		a11 += wq2 * p * p;
		s00 += wrq2;
		s01 += wrq2 * p;
		s11 += wrq2 * p * p;
	}
	memset(A, 0, 9 * sizeof A[0][0]);
	memset(g, 0, 3 * sizeof g[0]);
	g[0] = g0;
	g[1] = g1;
	A[0][0] = a00;
	A[0][1] = A[1][0] = a01;
	A[1][1] = a11;
	a00 -= s00;
	a01 -= s01;
	a11 -= s11;
	if (a00 > 0 && a11 > 0 && a00 * a11 - a01 * a01 > 0) {
		A[0][0] = a00;
		A[0][1] = A[1][0] = a01;
		A[1][1] = a11;
	}
	return isfinite(sse) ? sse : INFINITY;
}

/* knee_pass for the curve with a free exponent.
 * Beyond |z| = 37 exp(-|z|) is below 10^-16 of 1: the softplus is its
 * linear part and needs neither exp nor log1p (most depths of a sharp
 * knee). */
static double knee_pass_gen(const struct knee_data *d, const double *t, double A[3][3],
			    double g[3])
{
	double sse = 0, v = t[2], iv = 1 / v, G[3] = { 0, 0, 0 }, N[3][3] = { { 0 } }, S[3] = { 0 };

	for (size_t i = 0; i < d->m; i++) {
		double u = d->lnp[i] - t[1], z = u * iv, sp, sg, sd, r, w = d->w[i], j1, j2, wr;

		if (z > 37) {
			sp = z;
			sg = 1;
			sd = 0;
		} else if (z < -37) {
			sp = sg = sd = 0;
		} else {
			double e = exp(-fabs(z));

			sp = fmax(z, 0) + log1p(e);
			sg = z >= 0 ? 1 / (1 + e) : e / (1 + e);
			sd = sg * (1 - sg);
		}
		r = d->y[i] - (t[0] + u - v * sp);
		sse += w * r * r;
		j1 = sg - 1;
		j2 = z * sg - sp;
		wr = w * r;
		G[0] += wr;
		G[1] += wr * j1;
		G[2] += wr * j2;
		N[0][0] += w;
		N[0][1] += w * j1;
		N[0][2] += w * j2;
		N[1][1] += w * j1 * j1;
		N[1][2] += w * j1 * j2;
		N[2][2] += w * j2 * j2;
		/* H: (1,1) -sd/v, (1,2) -sd z/v, (2,2) -sd z²/v. */
		S[0] += wr * sd * iv;
		S[1] += wr * sd * z * iv;
		S[2] += wr * sd * z * z * iv;
	}
	memcpy(g, G, sizeof G);
	for (size_t k = 0; k < 3; k++)
		for (size_t l = 0; l < k; l++)
			N[k][l] = N[l][k];
	memcpy(A, N, sizeof N);
	N[1][1] += S[0];
	N[1][2] = N[2][1] = N[1][2] + S[1];
	N[2][2] += S[2];
	if (knee_posdef(N, 3))
		memcpy(A, N, sizeof N);
	return isfinite(sse) ? sse : INFINITY;
}

/* Weighted residual sum of squares of curve t on d, with the normal
 * equations A x = g of a Newton step: A = J'WJ - sum of w r H, H the
 * curve's Hessian (the second term makes the step converge quadratically
 * even with 15% noise, where Gauss-Newton alone gains only a factor 30 a
 * step), or J'WJ alone where that sum is not positive definite; g = J'Wr.
 * INFINITY outside the domain.  Written out for each curve: the fits of
 * the replicates spend their time here. */
static double knee_pass(const struct knee_model *mod, const struct knee_data *d, const double *t,
			double A[3][3], double g[3])
{
	return mod == &knee_mm ? knee_pass_mm(d, t, A, g) : knee_pass_gen(d, t, A, g);
}

/* Solve (A + lambda diag A) x = g for np <= 3 by Gaussian elimination.
 * Returns -1 when singular. */
int knee_solve(double A[3][3], double lambda, const double g[3], size_t np, double x[3])
{
	double M[3][4];

	for (size_t k = 0; k < np; k++) {
		for (size_t l = 0; l < np; l++)
			M[k][l] = A[k][l] * (k == l ? 1 + lambda : 1);
		M[k][np] = g[k];
	}
	for (size_t c = 0; c < np; c++) {
		size_t piv = c;

		for (size_t k = c + 1; k < np; k++)
			if (fabs(M[k][c]) > fabs(M[piv][c]))
				piv = k;
		if (!(fabs(M[piv][c]) > 0))
			return -1;
		for (size_t l = 0; l <= np; l++) {
			double t = M[c][l];

			M[c][l] = M[piv][l];
			M[piv][l] = t;
		}
		for (size_t k = c + 1; k < np; k++) {
			double f = M[k][c] / M[c][c];

			for (size_t l = c; l <= np; l++)
				M[k][l] -= f * M[c][l];
		}
	}
	for (size_t c = np; c-- > 0;) {
		double v = M[c][np];

		for (size_t l = c + 1; l < np; l++)
			v -= M[c][l] * x[l];
		x[c] = v / M[c][c];
	}
	for (size_t c = 0; c < np; c++)
		if (!isfinite(x[c]))
			return -1;
	return 0;
}

/* The damped step x from t: (A + lambda diag A) x = g, with a parameter
 * that sits on its bound and would step beyond it held there (else the
 * others' steps, computed as if it moved, would be wrong and the fit would
 * crawl along the bound).  Returns -1 when singular. */
static int knee_step(const struct knee_model *mod, const double *t, double A[3][3], double lambda,
		     const double g[3], double x[3])
{
	size_t np = mod->np;
	int held[3] = { 0, 0, 0 };
	double tr = 0;

	/* A parameter the data do not inform (a zero column of J: a corner
	 * beyond every depth, all of them on the flat) is held: else the
	 * system is singular at every damping, no step is ever taken, and
	 * every replicate keeps the data's fit (a zero-width interval). */
	for (size_t k = 0; k < np; k++)
		tr += fabs(A[k][k]);
	for (size_t k = 0; k < np; k++)
		held[k] = !(A[k][k] > 1e-12 * tr);
	for (size_t round = 0; round <= np; round++) {
		double M[3][3], h[3];
		int more = 0;

		for (size_t k = 0; k < np; k++) {
			for (size_t l = 0; l < np; l++)
				M[k][l] = held[k] || held[l] ? (k == l) : A[k][l];
			h[k] = held[k] ? 0 : g[k];
		}
		if (knee_solve(M, lambda, h, np, x) < 0)
			return -1;
		for (size_t k = 0; k < np; k++)
			if (!held[k] && ((t[k] <= mod->lo[k] && x[k] < 0) ||
					 (t[k] >= mod->hi[k] && x[k] > 0))) {
				held[k] = 1;
				more = 1;
			}
		if (!more)
			return 0;
	}
	return 0;
}

/* Levenberg-Marquardt from t (inside the domain), at most iters trials; t
 * gets the fit.  One pass over the data a trial: an accepted trial's pass
 * gives the next step.  Stops when a step moves the fitted ln rps by less
 * than tol (root mean square) or the sum of squares by a relative tol².
 * Returns the residual sum of squares, or INFINITY (t untouched) when t is
 * outside the domain. */
double knee_lm(const struct knee_model *mod, const struct knee_data *d, double *t, int iters,
	       double tol)
{
	double A[3][3], g[3], sse = knee_pass(mod, d, t, A, g), lambda = 1e-3;
	size_t np = mod->np;

	if (!isfinite(sse))
		return INFINITY;
	for (int it = 0; it < iters && lambda < 1e12; it++) {
		double nA[3][3], ng[3], nt[3], x[3], ns, moved = 0;

		if (knee_step(mod, t, A, lambda, g, x) < 0) {
			lambda *= 10;
			continue;
		}
		for (size_t k = 0; k < np; k++)
			nt[k] = fmin(mod->hi[k], fmax(mod->lo[k], t[k] + x[k]));
		ns = knee_pass(mod, d, nt, nA, ng);
		if (!(ns <= sse)) {
			lambda *= 10;
			continue;
		}
		/* The step's mean square change of the fitted ln rps. */
		for (size_t k = 0; k < np; k++)
			for (size_t l = 0; l < np; l++)
				moved += (nt[k] - t[k]) * A[k][l] * (nt[l] - t[l]);
		memcpy(t, nt, np * sizeof *t);
		memcpy(A, nA, sizeof nA);
		memcpy(g, ng, sizeof ng);
		if (sse - ns <= tol * tol * sse || moved <= tol * tol * d->sumw) {
			sse = ns;
			break;
		}
		sse = ns;
		lambda = fmax(lambda / 10, 1e-12);
	}
	return sse;
}

/* The rps²-weighted linear fit of 1/rps = b + a/P (today's analysis_fit):
 * the model's starting point.  Returns -1 when degenerate. */
int knee_linear_fit(const struct knee_data *d, double *t)
{
	double sw = 0, sx = 0, sz = 0, sxx = 0, sxz = 0, den;

	for (size_t i = 0; i < d->m; i++) {
		double rps = exp(d->y[i]), x = 1 / d->p[i], z = 1 / rps, w = rps * rps;

		sw += w;
		sx += w * x;
		sz += w * z;
		sxx += w * x * x;
		sxz += w * x * z;
	}
	den = sw * sxx - sx * sx;
	if (!(den > 0))
		return -1;
	t[0] = (sw * sxz - sx * sz) / den;
	t[1] = (sz - t[0] * sx) / sw;
	return isfinite(t[0]) && isfinite(t[1]) ? 0 : -1;
}

/* Wald-Wolfowitz runs test of the signs of r[0..m) (residuals of ln rps
 * beyond KNEE_SIGN_FLOOR); NAN when it cannot tell (below 10 signs, or one
 * sign only). */
static double knee_runs_z(const double *r, size_t m)
{
	size_t pos = 0, neg = 0, runs = 0;
	int last = 0;
	double n, mu, var;

	for (size_t i = 0; i < m; i++) {
		/* The sign of a residual at rounding level tells nothing. */
		int sg = r[i] > KNEE_SIGN_FLOOR ? 1 : r[i] < -KNEE_SIGN_FLOOR ? -1 : 0;

		if (sg == 0)
			continue;
		pos += sg > 0;
		neg += sg < 0;
		runs += sg != last;
		last = sg;
	}
	n = (double)(pos + neg);
	if (pos + neg < 10 || pos == 0 || neg == 0)
		return NAN;
	mu = 1 + 2.0 * (double)pos * (double)neg / n;
	var = 2.0 * (double)pos * (double)neg * (2.0 * (double)pos * (double)neg - n) /
	      (n * n * (n - 1));
	return var > 0 ? ((double)runs - mu) / sqrt(var) : NAN;
}


/* Fill c for curve (mod, t) on d: R², rms and robust scale of the ln
 * residuals, and their runs test. */
void knee_check_fit(const struct knee_model *mod, const struct knee_data *d, const double *t,
		    struct knee_check *c)
{
	double mean = 0, ss_tot = 0, ss_res = 0, ss_ln = 0, *res = xcalloc(d->m, sizeof *res);

	for (size_t i = 0; i < d->m; i++)
		mean += exp(d->y[i]);
	mean /= (double)d->m;
	for (size_t i = 0; i < d->m; i++) {
		double fit, J[3], rps = exp(d->y[i]);

		mod->eval(t, d->p[i], d->lnp[i], &fit, J);
		ss_res += (rps - exp(fit)) * (rps - exp(fit));
		ss_tot += (rps - mean) * (rps - mean);
		res[i] = d->y[i] - fit;
		ss_ln += res[i] * res[i];
	}
	c->r2 = ss_tot > 0 ? 1 - ss_res / ss_tot : ss_res > 0 ? 0 : 1;
	c->rms = sqrt(ss_ln / (double)d->m);
	/* Residuals at rounding level: a perfect fit has no pattern to test. */
	c->runs_z = c->rms > KNEE_EXACT ? knee_runs_z(res, d->m) : NAN;
	c->scale = STATS_MAD_TO_SD * stats_mad(res, d->m);
	free(res);
}

/* Whether a fit describes the curve as far as its residuals tell: no
 * systematic run, and an R² that is high or low only by the noise's doing
 * (residuals' robust scale within KNEE_POOR_NOISE sigma, so that one dip
 * does not condemn the model; an unknown sigma compares false, and R²
 * alone decides). */
int knee_poor(const struct knee_check *c, double sigma)
{
	return c->r2 < KNEE_MIN_R2 && !(c->scale <= KNEE_POOR_NOISE * sigma);
}

/* Whether the residuals run in stretches beyond chance. */
int knee_pattern(const struct knee_check *c)
{
	return c->runs_z < KNEE_RUNS_Z;
}

/* R = 1/b and K = a/b of the model t = (a, b); both +inf for b <= 0 (no
 * asymptote within any depth). */
void knee_ab_to_rk(const double *t, double *R, double *K)
{
	*R = t[1] > 0 ? 1 / t[1] : INFINITY;
	*K = t[1] > 0 ? t[0] / t[1] : INFINITY;
}

/* Huber's M-estimate: refit curve mod with the weight of each depth whose
 * residual exceeds KNEE_HUBER sigma cut to KNEE_HUBER sigma / |residual|,
 * until the weights settle.  Throughput noise on a shared machine comes
 * as dips (a time slice lost to the host halves a point), and least
 * squares would bend the whole curve towards one.  sigma is the noise's,
 * or, unknown, the residuals' own robust scale.  prec holds the weights
 * before, wts (what d->w points to) gets them after, for the replicates.
 * Returns the final weighted sum of squares. */
double knee_huber(const struct knee_model *mod, struct knee_data *d, const double *prec,
		  double *wts, double *t, double sigma, double sse)
{
	double *res = xcalloc(d->m, sizeof *res);

	for (int round = 0; round < KNEE_HUBER_ROUNDS && isfinite(sse); round++) {
		double scale = sigma, J[3], fit = NAN;
		int changed = 0;

		for (size_t i = 0; i < d->m; i++) {
			mod->eval(t, d->p[i], d->lnp[i], &fit, J);
			res[i] = fabs(d->y[i] - fit);
		}
		if (isnan(scale))
			scale = STATS_MAD_TO_SD * stats_median(res, d->m);
		if (!(scale > KNEE_EXACT))
			break;
		d->sumw = 0;
		for (size_t i = 0; i < d->m; i++) {
			double h = res[i] > KNEE_HUBER * scale ? KNEE_HUBER * scale / res[i] : 1;
			double nw = prec[i] * h;

			changed |= fabs(nw - wts[i]) > 1e-3 * prec[i];
			wts[i] = nw;
			d->sumw += nw;
		}
		if (!changed)
			break;
		sse = knee_lm(mod, d, t, 200, KNEE_TOL);
	}
	free(res);
	return sse;
}
