/* knee_int.h: what the files of the knee room share, and nothing another
 * room may use (knee.h is the room's interface).  From the top down, each
 * calling only files below it: knee_cmp.c (comparisons of two series);
 * knee.c (one series: checks, fits, the level and its figures, the short
 * series' rules); knee_boot.c (the resampling: resampled medians, the
 * per-depth intervals, the bootstraps of the level); knee_smooth.c (the
 * smoother and the figures of a level curve); knee_noise.c (the noise
 * pool and sigma); knee_fit.c (the curves fitted by nonlinear least
 * squares, and how well they fit). */
#ifndef RS_KNEE_INT_H
#define RS_KNEE_INT_H

#include <stddef.h>

#include "base/err.h"
#include "stats/knee.h"
#include "stats/stats.h"

/* Stream tags: each figure draws from a stream of its own. */
enum { KNEE_TAG_SMOOTH = 1, KNEE_TAG_MODEL, KNEE_TAG_POINT, KNEE_TAG_CMP_A, KNEE_TAG_CMP_B,
       KNEE_TAG_PEAK };
/* Residuals (rms of ln rps) below this are rounding: a perfect fit. */
#define KNEE_EXACT 1e-9
/* Fits stop when a step moves the fitted ln rps by less than this: the
 * data's fit to rounding, a replicate's to far below its noise. */
#define KNEE_TOL 1e-12
#define KNEE_TOL_BOOT 1e-3
/* Huber's constant (95% efficient on normal noise): the robust fits' and
 * the noise pool's centre. */
#define KNEE_HUBER 1.345

/* ---- the curves (knee_fit.c) ---- */

/* What a fit sees: ln medians y at depths p, with weights w. */
struct knee_data {
	size_t m;
	const double *p, *lnp, *y, *w;
	double sumw;
};

/* ln rps of a curve with parameters t at depth p (lnp its log), and its
 * gradient J in t.  Returns -1 outside the curve's domain. */
typedef int knee_eval(const double *t, double p, double lnp, double *g, double *J);

struct knee_model {
	size_t np;                /* parameters */
	knee_eval *eval;
	double lo[3], hi[3];      /* bounds of each parameter */
};

/* How well curve t describes d. */
struct knee_check {
	double r2;                /* rps scale */
	double rms;               /* of ln rps residuals */
	double scale;             /* their robust scale, 1.4826 MAD */
	double runs_z;
};

/* The two curves: the model ln rps = ln P - ln(a + b P), t = (a, b), and
 * the general knee t = (a, b, 1/s) (knee_fit.c). */
extern const struct knee_model knee_mm, knee_gen;

/* Levenberg-Marquardt fit of mod to d from t (updated in place), at most
 * iters steps, stopping when a step moves the fit by less than tol;
 * returns the weighted sum of squares, or NAN. */
double knee_lm(const struct knee_model *mod, const struct knee_data *d, double *t, int iters,
	       double tol);
/* Starting values for the model: weighted linear fit of 1/rps on 1/P;
 * 0, or -1 when the data cannot give one. */
int knee_linear_fit(const struct knee_data *d, double *t);
/* R², rms and robust scale of the residuals of (mod, t) on d, and their
 * runs test, into c. */
void knee_check_fit(const struct knee_model *mod, const struct knee_data *d, const double *t,
		    struct knee_check *c);
/* Whether a fit is poor beyond the noise sigma, or its residuals run in
 * stretches beyond chance. */
int knee_poor(const struct knee_check *c, double sigma);
int knee_pattern(const struct knee_check *c);
/* Solve (A + lambda diag A) x = g for np <= 3 by Gaussian elimination;
 * -1 when singular (the fits' steps, and leverages of the noise pool). */
int knee_solve(double A[3][3], double lambda, const double g[3], size_t np, double x[3]);
/* R = 1/b and K = a/b of the model t = (a, b); +inf for b <= 0. */
void knee_ab_to_rk(const double *t, double *R, double *K);
/* Huber's M-estimate of curve mod on d from t (updated in place): prec the
 * weights before, wts (what d->w points to) gets them after; sigma the
 * noise's, or NAN for the residuals' own scale.  Returns the final
 * weighted sum of squares, or NAN (knee_fit.c). */
double knee_huber(const struct knee_model *mod, struct knee_data *d, const double *prec,
		  double *wts, double *t, double sigma, double sse);

/* ---- the noise (knee_noise.c) ---- */

/* Variance of the median of n standard normal values (n >= 1). */
double knee_medvar(size_t n);
/* Fill r->pool (owned by r), r->npool, r->sigma and r->noise from the
 * series (y: ln medians, x: log2 depths); KNEE_NOISE_NONE, sigma NAN and
 * no pool when there are too few residuals. */
void knee_noise(const struct knee_series *s, const double *x, const double *y,
		struct knee_result *r);
/* Replace a pool learnt from neighbours by the residuals about the fitted
 * level (mod, t) on d (prec: each depth's precision), when every depth
 * gives one; otherwise r is left as it is. */
void knee_noise_from_fit(const struct knee_model *mod, const struct knee_data *d,
			 const double *prec, const double *t, struct knee_result *r);

/* ---- the smoother and a level's figures (knee_smooth.c) ---- */

/* A linear smoother as rows of weights: level[i] = sum over j < len[i] of
 * w[off[i] + j] * z[lo[i] + j]. */
struct knee_smoother {
	size_t m;
	size_t *lo, *len, *off;
	double *w;
};

/* The figures of one level curve (knee_figures). */
struct knee_figs {
	size_t peak, sat;
	double peak_ln;           /* ln rps */
	double gain, fall;
};

/* Build h (released by knee_smoother_free, which accepts a zeroed h) for
 * depths x[0..m) (log2) with precisions prec. */
void knee_smoother_build(const double *x, const double *prec, size_t m,
			 struct knee_smoother *h);
void knee_smoother_free(struct knee_smoother *h);
/* level = h applied to z (both h->m long). */
void knee_smooth(const struct knee_smoother *h, const double *z, double *level);
/* Running median of 3 of y[0..m) (at x) into z, Tukey's end rule at the
 * deep end only. */
void knee_median3(const double *x, const double *y, size_t m, double *z);
/* Peak, saturation index, gain per doubling and fall of level[0..m) (ln
 * rps at x), lref the level at the gain's reference depth or NAN. */
void knee_figures(const double *x, const double *level, size_t m, double knee,
		  double lref, struct knee_figs *f);
/* The level of curve (mod, t) at every depth of d into level, and its
 * figures into f; -1 where the curve is outside its domain. */
int knee_curve_figures(const struct knee_model *mod, const struct knee_data *d,
		       const double *t, const double *x, double knee, double *level,
		       struct knee_figs *f);

/* ---- the resampling (knee_boot.c) ---- */

/* Replicates of each figure of a level curve. */
enum { KNEE_REP_SAT, KNEE_REP_GAIN, KNEE_REP_PEAK, KNEE_REP_FALL, KNEE_REP_R, KNEE_REP_K,
       KNEE_REP_NFIG };

/* What one analysis works in (knee.c allocates and frees it). */
struct knee_work {
	struct knee_data d_mm, d_gen;  /* the same data, each fit's own weights */
	double *x, *p, *lnp, *y, *prec, *w_mm, *w_gen, *z, *smooth, *centre, *ys, *zs, *ls, *work;
	double *rep[2][KNEE_REP_NFIG];  /* [smoothed / fitted bootstrap][figure][B] */
	double *fall_raw;
	/* With level_band: each replicate's level less the level it is a
	 * replicate of, ln rps, [smoothed / fitted][depth * B + replicate];
	 * lok[1][k]: whether fitted replicate k has a curve. */
	double *lrep[2];
	unsigned char *lok;
};

/* The exact laws of the resampled medians of the depths with KNEE_FAST_N
 * repeats or more, and the ranks of the repeats of those with
 * KNEE_BOOT_MIN_N or more, into r->medtab, released by knee_medtab_free (t
 * may be NULL; m its depths). */
void knee_medtab_build(const struct knee_series *s, struct knee_result *r);
void knee_medtab_free(struct knee_medtab *t, size_t m);
/* One resampled ln median of depth i of s (analysed into r): its repeats
 * from KNEE_BOOT_MIN_N on, else centre plus the median of n draws from the
 * pool; work holds n. */
double knee_draw(const struct knee_series *s, const struct knee_result *r, size_t i,
		 double centre, struct stats_rng *rng, double *work);
/* Each depth's median interval and method into r->pts (y: ln medians;
 * work holds the most repeats of a depth). */
void knee_points(const struct knee_series *s, const struct knee_opts *o,
		 struct knee_result *r, const double *y, double *work);
/* The smoothed bootstrap around w->smooth, smoothed again by h, as errors
 * about the data's figures fs: into w->rep[0], w->fall_raw, w->lrep[0]. */
void knee_boot_smoothed(const struct knee_series *s, const struct knee_opts *o,
			const struct knee_smoother *h, const struct knee_figs *fs,
			const struct knee_result *r, struct knee_work *w);
/* The fitted bootstrap around w->centre: the model refitted from ab (R, K)
 * and the level curve (lmod, lt) when fitted, into w->rep[1] and
 * w->lrep[1]; counts failed refits in r->fit.nfail. */
void knee_boot_fitted(const struct knee_series *s, const struct knee_opts *o,
		      const double *ab, const struct knee_model *lmod, const double *lt,
		      struct knee_result *r, struct knee_work *w);

/* ---- one series (knee.c) ---- */

/* 0, or -1 with err naming the option out of range. */
int knee_check_opts(const struct knee_opts *o, struct rs_err *err);

#endif
