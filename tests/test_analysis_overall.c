/* test_analysis_overall.c: the overall figure across tests (issue 42):
 * the geometric mean of the ratios and its interval, on known answers. */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>

#include "analysis/analysis.h"
#include "stats/stats.h"

/* 13 tests whose true ratios lie between 2x and 3x, each measured with
 * 10-30% noise (its own standard error known, as its interval gives it):
 * the interval covers the true geometric mean in at least 90% of 200
 * trials (printed with --verbose). */
Test(analysis_overall, covers_the_true_geometric_mean)
{
	enum { TESTS = 13, TRIALS = 200 };
	struct stats_rng rng;
	size_t covered = 0, decided = 0;
	double width = 0;

	stats_rng_seed(&rng, 42);
	for (size_t t = 0; t < TRIALS; t++) {
		double x[TESTS], se[TESTS], truth = 0;
		struct stats_ci ci;
		enum knee_verdict v;

		for (size_t i = 0; i < TESTS; i++) {
			double r = 2 + stats_rng_uniform(&rng), sd = 0.10 + 0.20 * stats_rng_uniform(&rng);

			truth += log(r) / TESTS;
			se[i] = sd;
			x[i] = log(r) + sd * stats_rng_normal(&rng);
		}
		analysis_geomean(x, se, TESTS, &ci, &v);
		cr_assert(isfinite(ci.lo) && isfinite(ci.hi) && ci.lo < ci.est && ci.est < ci.hi);
		covered += ci.lo <= exp(truth) && exp(truth) <= ci.hi;
		decided += v == KNEE_FASTER;
		width += log(ci.hi / ci.lo) / 2;
	}
	cr_log_info("overall figure of %d tests (true 2-3x, noise 10-30%%): covered the true "
		    "geometric mean in %zu of %d trials, half-width %.1f%% on average, called "
		    "faster in %zu", TESTS, covered, TRIALS, 100 * (exp(width / TRIALS) - 1),
		    decided);
	cr_assert_geq(covered, 0.9 * TRIALS, "covered %zu of %d", covered, TRIALS);
	cr_assert_eq(decided, TRIALS, "2-3x faster is faster");
}

/* No spread and fewer than two: no interval, never a zero-width one. */
Test(analysis_overall, no_spread_no_interval)
{
	static const double same[3] = { 0.3, 0.3, 0.3 };
	struct stats_ci ci;
	enum knee_verdict v;

	analysis_geomean(same, NULL, 3, &ci, &v);
	cr_assert(isnan(ci.lo) && isnan(ci.hi) && v == KNEE_UNKNOWN);
	cr_assert_float_eq(ci.est, exp(0.3), 1e-12);
	analysis_geomean(same, NULL, 1, &ci, &v);
	cr_assert(isnan(ci.lo) && v == KNEE_UNKNOWN);
}
