/* test_knee_fall.c: a fall after the peak needs evidence (issue 41).  On
 * known-answer curves: a model curve still rising at P=40, three repeats a
 * depth, whose deepest three points are a noise burst (median 35% low, CV
 * about 37%: before this rule, a fall, and so "saturated"), is not called
 * falling in any of three draws of its noise,
 * and its saturation call is the same in all three; a real fall measured
 * by steady points is still called one. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "stats/knee.h"
#include "stats/stats.h"

#define M 40
#define N 3

struct fsyn {
	unsigned depth[M];
	size_t n[M];
	double v[M][N];
	const double *vp[M];
	struct knee_series s;
};

/* The model R P / (K + P), P = 1..40, three repeats each times
 * exp(sigma z); with burst, P=38..40 replaced by repeats of median 65%
 * of the curve and CV about 37%. */
static void fsyn_make(struct fsyn *y, double R, double K, double sigma, int burst, uint64_t seed)
{
	struct stats_rng r;

	stats_rng_seed(&r, seed);
	for (size_t i = 0; i < M; i++) {
		double c = R * (double)(i + 1) / (K + (double)(i + 1));

		y->depth[i] = (unsigned)(i + 1);
		y->n[i] = N;
		for (size_t j = 0; j < N; j++)
			y->v[i][j] = c * exp(sigma * stats_rng_normal(&r));
		if (burst && i + 1 >= 38) {
			y->v[i][0] = 0.40 * c;
			y->v[i][1] = 0.65 * c;
			y->v[i][2] = 0.95 * c;
		}
		y->vp[i] = y->v[i];
	}
	y->s.m = M;
	y->s.depth = y->depth;
	y->s.n = y->n;
	y->s.v = y->vp;
}

static void analyse(const struct fsyn *y, struct knee_result *r)
{
	struct knee_opts o;
	struct rs_err err = { 0 };

	knee_opts_default(&o);
	cr_assert_eq(knee_analyse(&y->s, &o, r, &err), 0, "%s", err.msg);
}

/* The three-run case of issue 41: the burst alone made a fall before
 * (its smoothed level ends 33% below the peak, the interval well clear of
 * the 5% line). */
Test(knee_fall, a_noise_burst_at_the_deep_end_is_no_fall)
{
	static struct fsyn y;
	enum knee_sat call[3];

	for (int run = 0; run < 3; run++) {
		struct knee_result r;

		fsyn_make(&y, 2500000, 12, 0.04, 1, 41 + (uint64_t)run);
		analyse(&y, &r);
		cr_assert_lt(r.fall.hi, 0.8, "run %d: the burst is a dip of the level", run);
		cr_assert(!r.falls, "run %d: fall %g [%g, %g] called on the burst", run, r.fall.est,
			  r.fall.lo, r.fall.hi);
		cr_assert_neq(r.fit.status, KNEE_FIT_FALLS, "run %d", run);
		cr_assert_eq(r.fall_unstable, 3, "run %d: %zu unstable deep depths", run,
			     r.fall_unstable);
		cr_assert_lt(r.fall_after, 38, "run %d: after P=%u", run, r.fall_after);
		/* K = 12: 77% of R at P=40, 23% a doubling: still rising. */
		call[run] = r.saturated;
		knee_result_free(&r);
	}
	cr_assert(call[0] == call[1] && call[1] == call[2], "calls %d %d %d", call[0], call[1],
		  call[2]);
	cr_assert_eq(call[0], KNEE_SAT_NO);
}

/* Without the burst the same curves were never called falling: the rule
 * changes nothing there. */
Test(knee_fall, the_same_curve_without_the_burst)
{
	static struct fsyn y;

	for (int run = 0; run < 3; run++) {
		struct knee_result r;

		fsyn_make(&y, 2500000, 12, 0.04, 0, 41 + (uint64_t)run);
		analyse(&y, &r);
		cr_assert(!r.falls && r.fall_unstable == 0, "run %d", run);
		cr_assert_eq(r.saturated, KNEE_SAT_NO, "run %d", run);
		knee_result_free(&r);
	}
}

/* A real fall, 30% from P=20 to P=40 on steady points (4% noise): still
 * a fall, whether or not its deepest points are also unstable. */
Test(knee_fall, a_real_fall_is_still_called)
{
	static struct fsyn y;
	struct stats_rng rng;

	for (int burst = 0; burst < 2; burst++) {
		struct knee_result r;

		stats_rng_seed(&rng, 7);
		for (size_t i = 0; i < M; i++) {
			double p = (double)(i + 1);
			double c = p <= 20 ? 10000 * p : 200000 * (1 - 0.3 * (p - 20) / 20);

			y.depth[i] = (unsigned)(i + 1);
			y.n[i] = N;
			for (size_t j = 0; j < N; j++)
				y.v[i][j] = c * exp(0.04 * stats_rng_normal(&rng));
			if (burst && i + 1 == 40) {
				y.v[i][0] = 0.40 * c;
				y.v[i][1] = 0.65 * c;
				y.v[i][2] = 0.95 * c;
			}
			y.vp[i] = y.v[i];
		}
		y.s.m = M;
		y.s.depth = y.depth;
		y.s.n = y.n;
		y.s.v = y.vp;
		analyse(&y, &r);
		cr_assert(r.falls, "burst %d: fall %g [%g, %g] not called", burst, r.fall.est,
			  r.fall.lo, r.fall.hi);
		cr_assert_eq(r.fall_unstable, 0);
		cr_assert_eq(r.saturated, KNEE_SAT_YES);
		knee_result_free(&r);
	}
}
