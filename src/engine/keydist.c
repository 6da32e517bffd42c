/* keydist.c: the key distributions of --key-dist: the spec's parser, the
 * samplers built once a run, and the draw the engine makes per key. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "engine/keydist.h"
#include "base/num.h"
#include "base/xalloc.h"

static const char *const keydist_names[] = {
	[KEYDIST_UNIFORM] = "uniform", [KEYDIST_SEQUENTIAL] = "sequential", [KEYDIST_ZIPF] = "zipf",
	[KEYDIST_GAUSSIAN] = "gaussian", [KEYDIST_HOTSPOT] = "hotspot",
};

/* A number of the spec: the whole field, finite (num.h's parser). */
static int keydist_num(const char *p, size_t len, double *v)
{
	return num_parse_double_n(p, len, v);
}

int keydist_parse(const char *text, struct keydist_spec *out, struct rs_err *err)
{
	const char *colon = strchr(text, ':');
	size_t nlen = colon ? (size_t)(colon - text) : strlen(text);
	const char *args = colon ? colon + 1 : NULL;
	struct keydist_spec sp = { KEYDIST_UNIFORM, 0, 0 };
	size_t k;

	for (k = 0; k < sizeof keydist_names / sizeof keydist_names[0]; k++)
		if (strlen(keydist_names[k]) == nlen && strncmp(text, keydist_names[k], nlen) == 0)
			break;
	if (k == sizeof keydist_names / sizeof keydist_names[0])
		return rs_err_setk(err, RS_E_USAGE, "'%.*s' is no key distribution (uniform, "
				   "sequential, zipf:S, gaussian:SIGMA, hotspot:FRACTION:SHARE)",
				   (int)nlen, text);
	sp.kind = (enum keydist_kind)k;
	switch (sp.kind) {
	case KEYDIST_UNIFORM:
	case KEYDIST_SEQUENTIAL:
		if (args != NULL)
			return rs_err_setk(err, RS_E_USAGE, "%s takes no parameter: '%s'",
					   keydist_names[k], text);
		break;
	case KEYDIST_ZIPF:
		sp.a = 0.99;
		if (args != NULL && keydist_num(args, strlen(args), &sp.a) < 0)
			return rs_err_setk(err, RS_E_USAGE, "zipf:S needs a number S: '%s'", text);
		if (!(sp.a > 0))
			return rs_err_setk(err, RS_E_USAGE, "zipf:S needs S > 0: '%s'", text);
		if (sp.a > 10)
			return rs_err_setk(err, RS_E_USAGE, "zipf:S needs S of 10 at most (S %g sends "
					   "nearly every draw to one key): '%s'", sp.a, text);
		break;
	case KEYDIST_GAUSSIAN:
		sp.a = 1.0 / 6;
		if (args != NULL && keydist_num(args, strlen(args), &sp.a) < 0)
			return rs_err_setk(err, RS_E_USAGE, "gaussian:SIGMA needs a number SIGMA: '%s'",
					   text);
		if (!(sp.a > 0))
			return rs_err_setk(err, RS_E_USAGE, "gaussian:SIGMA needs SIGMA > 0: '%s'",
					   text);
		break;
	case KEYDIST_HOTSPOT: {
		const char *c2 = args ? strchr(args, ':') : NULL;

		sp.a = 0.2;
		sp.b = 0.8;
		if (args != NULL && keydist_num(args, c2 ? (size_t)(c2 - args) : strlen(args),
						&sp.a) < 0)
			return rs_err_setk(err, RS_E_USAGE, "hotspot:FRACTION:SHARE needs a number "
					   "FRACTION: '%s'", text);
		if (c2 != NULL && keydist_num(c2 + 1, strlen(c2 + 1), &sp.b) < 0)
			return rs_err_setk(err, RS_E_USAGE, "hotspot:FRACTION:SHARE needs a number "
					   "SHARE: '%s'", text);
		if (!(sp.a > 0 && sp.a < 1))
			return rs_err_setk(err, RS_E_USAGE, "hotspot:FRACTION:SHARE needs FRACTION "
					   "above 0 and below 1: '%s'", text);
		if (!(sp.b >= 0 && sp.b <= 1))
			return rs_err_setk(err, RS_E_USAGE, "hotspot:FRACTION:SHARE needs SHARE in "
					   "0..1: '%s'", text);
		break;
	}
	}
	*out = sp;
	return 0;
}

const char *keydist_format(const struct keydist_spec *spec, char *buf, size_t size)
{
	const char *name = keydist_names[spec->kind];

	switch (spec->kind) {
	case KEYDIST_ZIPF:
	case KEYDIST_GAUSSIAN:
		snprintf(buf, size, "%s:%g", name, spec->a);
		break;
	case KEYDIST_HOTSPOT:
		snprintf(buf, size, "%s:%g:%g", name, spec->a, spec->b);
		break;
	default:
		snprintf(buf, size, "%s", name);
	}
	return buf;
}

/* ---- zipf ----
 * H(x) = (x^(1-s) - 1) / (1 - s) (log x at s = 1), the integral of
 * h(x) = x^-s, and its inverse, in the forms of Apache Commons RNG's
 * RejectionInversionZipfSampler, which stay exact as s nears 1. */

static double keydist_log1p_x(double x)  /* log1p(x) / x */
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

static double keydist_expm1_x(double x)  /* expm1(x) / x */
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x * 0.5 * (1 + x * (1.0 / 3) * (1 + 0.25 * x));
}

static double keydist_h(const struct keydist *kd, double x)
{
	return exp(-kd->s * log(x));
}

static double keydist_hint(const struct keydist *kd, double x)
{
	double lx = log(x);

	return keydist_expm1_x(kd->oms * lx) * lx;
}

static double keydist_hinv(const struct keydist *kd, double u)
{
	double t = u * kd->oms;

	/* Past the integral's end (1 - s < 0 bounds it): the largest x. */
	if (t <= -1)
		t = -1 + 1e-16;
	return exp(keydist_log1p_x(t) * u);
}

/* A rank in a..n by rejection-inversion: about one pass, a log1p and an
 * exp each, apart from an acceptance test most draws skip. */
uint64_t keydist_zipf_tail(const struct keydist *kd, uint64_t *rng)
{
	uint64_t a = (uint64_t)kd->nhead + 1;

	for (;;) {
		double unit = (double)(rng_next(rng) >> 11) * 0x1p-53;
		double u = kd->t_hn + unit * (kd->t_hx1 - kd->t_hn);
		double x = keydist_hinv(kd, u);
		double kf = floor(x + 0.5);
		uint64_t k;

		if (kf < (double)a)
			kf = (double)a;
		else if (kf > (double)kd->n)
			kf = (double)kd->n;
		k = (uint64_t)kf;
		if (kf - x <= kd->t_sq || u >= keydist_hint(kd, kf + 0.5) - keydist_h(kd, kf))
			return k;
	}
}

/* sum of k^-s for k in a..b (a large): Euler-Maclaurin to the first
 * derivative; the next term is below 1e-20 of the sum from a = 65537. */
static double keydist_zipf_sum(const struct keydist *kd, double a, double b)
{
	double integral = keydist_hint(kd, b) - keydist_hint(kd, a);
	double fa = keydist_h(kd, a), fb = keydist_h(kd, b);

	return integral + (fa + fb) / 2 + kd->s * (fa / a - fb / b) / 12;
}

/* Vose's alias method over the weights q[0..m) (overwritten) into cells. */
static void keydist_alias(struct keydist_cell *cells, double *q, uint32_t m)
{
	uint32_t *small = xmalloc(m * sizeof *small), *large = xmalloc(m * sizeof *large);
	uint32_t ns = 0, nl = 0;
	double total = 0;

	for (uint32_t k = 0; k < m; k++)
		total += q[k];
	/* columns of mean weight 1 */
	for (uint32_t k = 0; k < m; k++) {
		q[k] *= m / total;
		if (q[k] < 1)
			small[ns++] = k;
		else
			large[nl++] = k;
	}
	while (ns > 0 && nl > 0) {
		uint32_t l = small[--ns], g = large[nl - 1];

		cells[l].thresh = (uint32_t)fmin(q[l] * 0x1p32, 4294967295.0);
		cells[l].alias = g;
		q[g] -= 1 - q[l];
		if (q[g] < 1) {
			nl--;
			small[ns++] = g;
		}
	}
	/* What rounding leaves, in either list, is a whole column. */
	while (nl > 0) {
		uint32_t g = large[--nl];

		cells[g].thresh = UINT32_MAX;
		cells[g].alias = g;
	}
	while (ns > 0) {
		uint32_t l = small[--ns];

		cells[l].thresh = UINT32_MAX;
		cells[l].alias = l;
	}
	free(small);
	free(large);
}

static void keydist_zipf_build(struct keydist *kd)
{
	double *q = xmalloc(kd->ncols * sizeof *q);

	for (uint32_t k = 0; k < kd->nhead; k++)
		q[k] = keydist_h(kd, (double)k + 1);
	if (kd->ncols > kd->nhead) {
		double a = (double)kd->nhead + 1;

		q[kd->nhead] = keydist_zipf_sum(kd, a, (double)kd->n);
		kd->t_hx1 = keydist_hint(kd, a + 0.5) - keydist_h(kd, a);
		kd->t_hn = keydist_hint(kd, (double)kd->n + 0.5);
		kd->t_sq = a + 1 - keydist_hinv(kd, keydist_hint(kd, a + 1.5) - keydist_h(kd, a + 1));
	}
	keydist_alias(kd->cells, q, kd->ncols);
	free(q);
}

/* ---- gaussian ----
 * The normal's density over [lo, lo + KEYDIST_GAUSS_BINS w), mean +- 10 sd
 * cut to 0..n (the mass beyond 10 sd is 1.5e-23), in bins of equal width
 * w: a bin is drawn by the alias method in proportion to the density's
 * largest value on it, a point uniformly in it, and the point kept with
 * probability density / largest (rejection from the step function above
 * the density).  squeeze[i] is the smallest over the largest, of 2^32: a
 * point under it is kept without an exp, and bins are so narrow (2e-4
 * sd wide, at 10 sd) that nearly all are. */

static double keydist_gauss_f(const struct keydist *kd, double x)  /* unnormalised */
{
	double z = (x - kd->mean) / kd->sd;

	return exp(-0.5 * z * z);
}

/* The density's largest value on bin i. */
static double keydist_gauss_top(const struct keydist *kd, uint32_t i)
{
	double a = kd->lo + i * kd->w, b = a + kd->w;

	if (a <= kd->mean && kd->mean <= b)
		return 1;
	return keydist_gauss_f(kd, b < kd->mean ? b : a);
}

static void keydist_gauss_build(struct keydist *kd)
{
	uint32_t m = KEYDIST_GAUSS_BINS;
	double *q = xmalloc(m * sizeof *q);
	double lo = fmax(0, kd->mean - 10 * kd->sd), hi = fmin((double)kd->n, kd->mean + 10 * kd->sd);

	kd->lo = lo;
	kd->w = (hi - lo) / m;
	kd->ncols = m;
	kd->cells = xcalloc(m, sizeof *kd->cells);
	kd->squeeze = xcalloc(m, sizeof *kd->squeeze);
	for (uint32_t i = 0; i < m; i++) {
		double a = lo + i * kd->w, b = a + kd->w;
		double top = keydist_gauss_top(kd, i);
		double bottom = fmin(keydist_gauss_f(kd, a), keydist_gauss_f(kd, b));

		q[i] = top;
		kd->squeeze[i] = top > 0 ? (uint32_t)(bottom / top * 0x1p32 * (1 - 1e-12)) : 0;
	}
	keydist_alias(kd->cells, q, m);
	free(q);
}

int keydist_gauss_keep(const struct keydist *kd, uint32_t bin, uint32_t u, double x)
{
	return ((double)u + 0.5) * 0x1p-32 * keydist_gauss_top(kd, bin) <= keydist_gauss_f(kd, x);
}

int keydist_new(const struct keydist_spec *spec, uint64_t keyspace, struct keydist **out,
		struct rs_err *err)
{
	struct keydist *kd;

	*out = NULL;
	if (keyspace == 0)
		return rs_err_setk(err, RS_E_USAGE, "a key distribution needs keys: give -r N > 0");
	if (spec->kind == KEYDIST_UNIFORM)
		return 0;
	kd = xcalloc(1, sizeof *kd);
	kd->kind = spec->kind;
	kd->spec = *spec;
	kd->n = keyspace;
	switch (spec->kind) {
	case KEYDIST_UNIFORM:
	case KEYDIST_SEQUENTIAL:
		break;
	case KEYDIST_ZIPF:
		kd->s = spec->a;
		kd->oms = 1 - spec->a;
		kd->nhead = (uint32_t)(keyspace < KEYDIST_ZIPF_TABLE ? keyspace : KEYDIST_ZIPF_TABLE);
		kd->ncols = kd->nhead + (keyspace > kd->nhead);
		kd->cells = xcalloc(kd->ncols, sizeof *kd->cells);
		keydist_zipf_build(kd);
		break;
	case KEYDIST_GAUSSIAN:
		kd->sd = spec->a < 1 ? spec->a * (double)keyspace : spec->a;
		if (kd->sd > (double)keyspace) {
			keydist_free(kd);
			return rs_err_setk(err, RS_E_USAGE, "gaussian:SIGMA: SIGMA %g is more keys than "
					   "-r %llu (below 1 it is a fraction of -r)", spec->a,
					   (unsigned long long)keyspace);
		}
		/* memtier's median: the middle of the range, its keys floor(x). */
		kd->mean = (double)keyspace / 2;
		keydist_gauss_build(kd);
		break;
	case KEYDIST_HOTSPOT:
		/* YCSB's hot interval: the fraction of the keys, rounded down. */
		kd->hot = (uint64_t)((double)keyspace * spec->a);
		kd->cold = keyspace - kd->hot;
		if (kd->hot == 0 || kd->cold == 0) {
			rs_err_setk(err, RS_E_USAGE, "hotspot:%g:%g over -r %llu leaves the %s set "
				    "without a key: give a larger -r", spec->a, spec->b,
				    (unsigned long long)keyspace, kd->hot == 0 ? "hot" : "cold");
			keydist_free(kd);
			return -1;
		}
		kd->all_hot = spec->b >= 1;
		kd->share = kd->all_hot ? 0 : (uint64_t)(spec->b * 0x1p64);
		break;
	}
	*out = kd;
	return 0;
}

const struct keydist_spec *keydist_spec_of(const struct keydist *kd)
{
	return kd != NULL ? &kd->spec : NULL;
}

void keydist_free(struct keydist *kd)
{
	if (kd == NULL)
		return;
	free(kd->cells);
	free(kd->squeeze);
	free(kd);
}

enum keydist_kind keydist_kind(const struct keydist *kd)
{
	return kd == NULL ? KEYDIST_UNIFORM : kd->kind;
}

void keydist_rewind(struct keydist *kd)
{
	if (kd != NULL)
		__atomic_store_n(&kd->seq, 0, __ATOMIC_RELAXED);
}

void keydist_claim(struct keydist *kd, struct keydist_state *st, uint64_t n)
{
	if (kd->kind == KEYDIST_SEQUENTIAL)
		st->next = __atomic_fetch_add(&kd->seq, n, __ATOMIC_RELAXED) % kd->n;
}
