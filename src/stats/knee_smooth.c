/* knee_smooth.c: the level of last resort, the ln medians through a
 * running median of 3 and a local linear smoother on log2 depth, and the
 * figures read off any level curve: peak, saturation index, gain per
 * doubling and fall (knee_int.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/knee.h"
#include "stats/knee_int.h"
#include "base/xalloc.h"

/* The narrowest half-width of the smoother at a depth, in distances to its
 * second nearest neighbour: below 1 that neighbour would have no weight. */
#define KNEE_MIN_REACH 1.25

/* Release h's rows (h may be zeroed). */
void knee_smoother_free(struct knee_smoother *h)
{
	free(h->lo);
	free(h->len);
	free(h->off);
	free(h->w);
	memset(h, 0, sizeof *h);
}

/* Distance from x[i] to its second nearest neighbour (the nearest for two
 * depths, 0 for one). */
static double knee_reach2(const double *x, size_t m, size_t i)
{
	size_t l = i, r = i, got = 0;
	double d = 0;

	while (got < 2 && (l > 0 || r + 1 < m)) {
		double dl = l > 0 ? x[i] - x[l - 1] : INFINITY;
		double dr = r + 1 < m ? x[r + 1] - x[i] : INFINITY;

		if (dl <= dr)
			d = x[i] - x[--l];
		else
			d = x[++r] - x[i];
		got++;
	}
	return d;
}

/* Local linear regression on x with tricube weights of half-width
 * max(KNEE_SMOOTH_WIDTH, KNEE_MIN_REACH x second-neighbour distance), at
 * most KNEE_MAX_WINDOW nearest points, each point also weighted by prec
 * (the precision of a median of its repeats). */
void knee_smoother_build(const double *x, const double *prec, size_t m,
			 struct knee_smoother *h)
{
	size_t used = 0;

	h->m = m;
	h->lo = xcalloc(m, sizeof *h->lo);
	h->len = xcalloc(m, sizeof *h->len);
	h->off = xcalloc(m, sizeof *h->off);
	h->w = xcalloc(m, KNEE_MAX_WINDOW * sizeof *h->w);
	for (size_t i = 0; i < m; i++) {
		double hw = fmax(KNEE_SMOOTH_WIDTH, KNEE_MIN_REACH * knee_reach2(x, m, i));
		double s0 = 0, s1 = 0, s2 = 0, den, *w = h->w + used;
		size_t l = i, r = i + 1; /* the window is [l, r) */

		/* Grow the window nearest first, while inside the half-width. */
		while (r - l < KNEE_MAX_WINDOW) {
			double dl = l > 0 ? x[i] - x[l - 1] : INFINITY;
			double dr = r < m ? x[r] - x[i] : INFINITY;

			if (dl <= dr && dl < hw)
				l--;
			else if (dr < hw)
				r++;
			else
				break;
		}
		h->lo[i] = l;
		h->len[i] = r - l;
		h->off[i] = used;
		for (size_t j = l; j < r; j++) {
			double dx = x[j] - x[i], u = fabs(dx) / hw, k = 1 - u * u * u;

			k = k * k * k * prec[j];
			w[j - l] = k;
			s0 += k;
			s1 += k * dx;
			s2 += k * dx * dx;
		}
		den = s0 * s2 - s1 * s1;
		for (size_t j = l; j < r; j++) {
			/* One point with weight (one depth) is its own level. */
			if (!(den > 1e-12 * s0 * s2))
				w[j - l] = j == i ? 1 : 0;
			else
				w[j - l] *= (s2 - (x[j] - x[i]) * s1) / den;
		}
		used += r - l;
	}
}

/* level = h applied to z (both h->m long). */
void knee_smooth(const struct knee_smoother *h, const double *z, double *level)
{
	for (size_t i = 0; i < h->m; i++) {
		const double *w = h->w + h->off[i], *zz = z + h->lo[i];
		double s = 0;

		for (size_t j = 0; j < h->len[i]; j++)
			s += w[j] * zz[j];
		level[i] = s;
	}
}

/* Running median of 3 of y into z.  The deep end is the median of its
 * value, its smoothed neighbour and the line through its two smoothed
 * neighbours (Tukey's end rule, on the depth axis), so that a spike at
 * P_max cannot make the peak; the shallow end is kept, since that line
 * overshoots a curve bending towards saturation and would lift depth 1. */
void knee_median3(const double *x, const double *y, size_t m, double *z)
{
	if (m < 3) {
		memcpy(z, y, m * sizeof *z);
		return;
	}
	z[0] = y[0];
	for (size_t i = 1; i + 1 < m; i++)
		z[i] = stats_mid3(y[i - 1], y[i], y[i + 1]);
	if (m >= 4) {
		double a = z[m - 3], b = z[m - 2];
		double e = b + (b - a) * (x[m - 1] - x[m - 2]) / (x[m - 2] - x[m - 3]);

		z[m - 1] = stats_mid3(y[m - 1], b, e);
	} else {
		z[m - 1] = y[m - 1];
	}
}

/* ---- figures of one level curve ---- */

/* Peak, saturation index, gain per doubling and fall of level[0..m) (ln
 * rps at x = log2 depths).  lref is the level at the gain's reference
 * depth when known exactly (a model), else NAN (interpolated). */
void knee_figures(const double *x, const double *level, size_t m, double knee,
		  double lref, struct knee_figs *f)
{
	double target, xref;
	size_t j;

	f->peak = 0;
	for (size_t i = 1; i < m; i++)
		if (level[i] > level[f->peak])
			f->peak = i;
	f->peak_ln = level[f->peak];
	target = f->peak_ln + log(knee);
	for (f->sat = 0; f->sat < f->peak && level[f->sat] < target; f->sat++)
		;
	f->fall = exp(level[m - 1] - f->peak_ln);
	f->gain = NAN;
	if (m < 2)
		return;
	/* Per doubling over the last doubling, or over what there is. */
	xref = fmax(x[m - 1] - 1, x[0]);
	if (isnan(lref)) {
		for (j = 0; j + 2 < m && x[j + 1] < xref; j++)
			;
		lref = level[j] + (level[j + 1] - level[j]) * (xref - x[j]) / (x[j + 1] - x[j]);
	}
	f->gain = exp((level[m - 1] - lref) / (x[m - 1] - xref));
}

/* The gain's reference depth (see knee_figures). */
static double knee_ref_depth(const double *x, size_t m)
{
	return exp2(fmax(x[m - 1] - 1, x[0]));
}

/* The level of curve (mod, t) at every depth, and its figures. */
int knee_curve_figures(const struct knee_model *mod, const struct knee_data *d,
		       const double *t, const double *x, double knee, double *level,
		       struct knee_figs *f)
{
	double J[3], pref = knee_ref_depth(x, d->m), lref;

	for (size_t i = 0; i < d->m; i++)
		if (mod->eval(t, d->p[i], d->lnp[i], &level[i], J) < 0)
			return -1;
	if (mod->eval(t, pref, log(pref), &lref, J) < 0)
		return -1;
	knee_figures(x, level, d->m, knee, d->m > 1 ? lref : NAN, f);
	return 0;
}
