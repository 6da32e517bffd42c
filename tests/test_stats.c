/* test_stats.c: the generic statistics room: the generator, order
 * statistics against sorting, quantiles against R's type 7, MAD, and the
 * percentile bootstrap's coverage on samples whose answer is known. */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

Test(stats, rng_is_deterministic_for_a_seed)
{
	struct stats_rng a, b, c;
	int differ = 0;

	stats_rng_seed(&a, 42);
	stats_rng_seed(&b, 42);
	stats_rng_seed(&c, 43);
	for (int i = 0; i < 1000; i++) {
		uint64_t x = stats_rng_next(&a);

		cr_assert_eq(x, stats_rng_next(&b));
		differ |= x != stats_rng_next(&c);
	}
	cr_assert(differ, "another seed, another stream");
	/* Seed 0 is a seed like any other (splitmix64 fills the state). */
	stats_rng_seed(&a, 0);
	cr_assert_neq(stats_rng_next(&a), 0);
	cr_assert_neq(stats_seed_mix(7, 1), stats_seed_mix(7, 2));
	cr_assert_eq(stats_seed_mix(7, 1), stats_seed_mix(7, 1));
}

Test(stats, uniform_and_below_cover_their_range_evenly)
{
	struct stats_rng r;
	size_t count[10] = { 0 };
	double chi = 0, lo = 1, hi = 0;

	stats_rng_seed(&r, 1);
	for (int i = 0; i < 100000; i++) {
		double u = stats_rng_uniform(&r);

		cr_assert(u >= 0 && u < 1);
		lo = fmin(lo, u);
		hi = fmax(hi, u);
		count[stats_rng_below(&r, 10)]++;
	}
	cr_assert(lo < 1e-3 && hi > 1 - 1e-3);
	for (int k = 0; k < 10; k++)
		chi += (count[k] - 10000.0) * (count[k] - 10000.0) / 10000.0;
	/* chi-square, 9 degrees of freedom: 27.9 is p = 0.001. */
	cr_assert_lt(chi, 27.9, "chi-square %g", chi);
	cr_assert_eq(stats_rng_below(&r, 1), 0);
	for (int i = 0; i < 1000; i++)
		cr_assert_lt(stats_rng_below(&r, 3), 3);
}

Test(stats, normal_has_mean_0_and_variance_1)
{
	struct stats_rng r;
	double s = 0, s2 = 0;
	int n = 100000, beyond = 0;

	stats_rng_seed(&r, 2);
	for (int i = 0; i < n; i++) {
		double z = stats_rng_normal(&r);

		s += z;
		s2 += z * z;
		beyond += fabs(z) > 1.959964;
	}
	cr_assert_lt(fabs(s / n), 0.015);
	cr_assert_lt(fabs(s2 / n - 1), 0.02);
	cr_assert_lt(fabs(beyond / (double)n - 0.05), 0.005);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

Test(stats, select_agrees_with_sorting, .timeout = 10)
{
	struct stats_rng r;

	stats_rng_seed(&r, 3);
	for (int trial = 0; trial < 300; trial++) {
		size_t n = 1 + stats_rng_below(&r, 200), k = stats_rng_below(&r, n);
		double v[200], sorted[200], got;
		/* Some arrays with many ties, as bootstrap replicates of a
		 * depth are. */
		unsigned levels = trial % 3 == 0 ? 3 : 1000000;

		for (size_t i = 0; i < n; i++)
			v[i] = (double)stats_rng_below(&r, levels);
		memcpy(sorted, v, n * sizeof *v);
		qsort(sorted, n, sizeof *sorted, cmp_double);
		got = stats_select_inplace(v, n, k);
		cr_assert_eq(got, sorted[k]);
		cr_assert_eq(v[k], sorted[k]);
		for (size_t i = 0; i < k; i++)
			cr_assert_leq(v[i], got);
		for (size_t i = k + 1; i < n; i++)
			cr_assert_geq(v[i], got);
	}
}

Test(stats, select_is_linear_on_all_ties, .timeout = 10)
{
	size_t n = 200000;
	double *v = malloc(n * sizeof *v);

	/* Two-way partitioning is quadratic here: 2 * 10^10 steps. */
	for (size_t i = 0; i < n; i++)
		v[i] = 17;
	cr_assert_eq(stats_select_inplace(v, n, n / 3), 17);
	cr_assert_eq(stats_median_inplace(v, n), 17);
	free(v);
}

Test(stats, sort_sorts)
{
	struct stats_rng r;
	double v[500], w[500];

	stats_rng_seed(&r, 4);
	for (size_t n = 0; n <= 500; n += 7) {
		for (size_t i = 0; i < n; i++)
			v[i] = w[i] = stats_rng_normal(&r);
		stats_sort(v, n);
		qsort(w, n, sizeof *w, cmp_double);
		cr_assert_arr_eq(v, w, n * sizeof *v);
	}
}

Test(stats, median_of_odd_even_and_empty_leaves_input_alone)
{
	const double odd[] = { 5, 1, 4, 2, 3 }, even[] = { 4, 1, 3, 2 };
	double copy[5];

	memcpy(copy, odd, sizeof odd);
	cr_assert_eq(stats_median(copy, 5), 3);
	cr_assert_arr_eq(copy, odd, sizeof odd, "stats_median does not reorder");
	cr_assert_eq(stats_median(even, 4), 2.5);
	cr_assert(isnan(stats_median(odd, 0)));
	cr_assert_eq(stats_median(odd, 1), 5);
	cr_assert_eq(stats_median_inplace(copy, 5), 3);
}

Test(stats, median_of_a_large_array_allocates_and_frees)
{
	size_t n = 1001;
	double *v = malloc(n * sizeof *v);

	for (size_t i = 0; i < n; i++)
		v[i] = (double)((i * 7919) % n);
	cr_assert_eq(stats_median(v, n), 500);
	cr_assert_eq(v[1], 7919 % 1001, "left as it was");
	free(v);
}

struct qcase {
	double p, want;
};

ParameterizedTestParameters(stats, quantile_type7)
{
	/* R: quantile(1:10, p, type = 7). */
	static struct qcase c[] = {
		{ 0, 1 }, { 0.1, 1.9 }, { 0.25, 3.25 }, { 0.5, 5.5 },
		{ 0.75, 7.75 }, { 0.975, 9.775 }, { 1, 10 },
	};

	return cr_make_param_array(struct qcase, c, sizeof c / sizeof c[0]);
}

ParameterizedTest(struct qcase *c, stats, quantile_type7)
{
	const double v[] = { 7, 3, 10, 1, 9, 2, 8, 4, 6, 5 };

	cr_assert_float_eq(stats_quantile(v, 10, c->p), c->want, 1e-12, "p = %g", c->p);
}

Test(stats, quantile_edges)
{
	const double one[] = { 4 }, inf[] = { 1, INFINITY, INFINITY };

	cr_assert_eq(stats_quantile(one, 1, 0.3), 4);
	cr_assert(isnan(stats_quantile(one, 0, 0.5)));
	cr_assert(isnan(stats_quantile(one, 1, -0.1)));
	cr_assert(isnan(stats_quantile(one, 1, 1.5)));
	cr_assert(isnan(stats_quantile(one, 1, NAN)));
	/* Between two infinities there is no inf - inf. */
	cr_assert(isinf(stats_quantile(inf, 3, 0.75)));
}

Test(stats, mad_ignores_the_outlier)
{
	const double v[] = { 1, 2, 3, 4, 100 };

	cr_assert_eq(stats_mad(v, 5), 1);
	cr_assert(isnan(stats_mad(v, 0)));
	cr_assert_float_eq(STATS_MAD_TO_SD, 1 / 0.6744897501960817, 1e-12);
}

Test(stats, percentile_leaves_out_nan_replicates)
{
	double rep[102], lo, hi;

	for (int i = 0; i < 100; i++)
		rep[i] = i;
	rep[100] = NAN;
	rep[101] = NAN;
	cr_assert_eq(stats_percentile_inplace(rep, 102, 0.9, &lo, &hi), 100);
	cr_assert_float_eq(lo, 4.95, 1e-12);
	cr_assert_float_eq(hi, 94.05, 1e-12);
	rep[0] = NAN;
	cr_assert_eq(stats_percentile_inplace(rep, 1, 0.9, &lo, &hi), 0);
	cr_assert(isnan(lo) && isnan(hi));
}

Test(stats, bootstrap_rejects_bad_arguments)
{
	const double x[] = { 1, 2, 3 };
	struct stats_ci ci;
	struct rs_err err = { 0 };

	cr_assert_eq(stats_bootstrap(x, 0, stats_median_statistic, NULL, 100, 0.95, 1, &ci, NULL,
				     &err), -1);
	cr_assert(strstr(err.msg, "empty"), "%s", err.msg);
	cr_assert_eq(stats_bootstrap(x, 3, stats_median_statistic, NULL, 1, 0.95, 1, &ci, NULL,
				     &err), -1);
	cr_assert(strstr(err.msg, "resamples"), "%s", err.msg);
	cr_assert_eq(stats_bootstrap(x, 3, stats_median_statistic, NULL, 100, 1, 1, &ci, NULL,
				     &err), -1);
	cr_assert(strstr(err.msg, "level"), "%s", err.msg);
}

Test(stats, bootstrap_is_deterministic_and_contains_the_estimate)
{
	struct stats_rng r;
	struct stats_ci a, b, c;
	double x[30], before[30];
	size_t nfail = 99;

	stats_rng_seed(&r, 5);
	for (int i = 0; i < 30; i++)
		x[i] = before[i] = 100 + 10 * stats_rng_normal(&r);
	cr_assert_eq(stats_bootstrap(x, 30, stats_median_statistic, NULL, 500, 0.95, 9, &a, &nfail,
				     NULL), 0);
	cr_assert_eq(nfail, 0);
	stats_bootstrap(x, 30, stats_median_statistic, NULL, 500, 0.95, 9, &b, NULL, NULL);
	stats_bootstrap(x, 30, stats_median_statistic, NULL, 500, 0.95, 10, &c, NULL, NULL);
	cr_assert_arr_eq(x, before, sizeof x, "the sample is left alone");
	cr_assert_eq(memcmp(&a, &b, sizeof a), 0, "one seed, one interval");
	cr_assert(a.lo != c.lo || a.hi != c.hi, "another seed, other draws");
	cr_assert_eq(a.est, stats_median(x, 30));
	cr_assert(a.lo <= a.est && a.est <= a.hi);
}

/* A statistic undefined on some resamples: NaN when the first draw is the
 * smallest value. */
static double picky(double *x, size_t n, void *ctx)
{
	double min = *(const double *)ctx;

	return x[0] == min ? NAN : stats_median_inplace(x, n);
}

Test(stats, bootstrap_counts_failed_resamples)
{
	const double x[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	double min = 1;
	struct stats_ci ci;
	size_t nfail = 0;

	stats_bootstrap(x, 10, picky, &min, 1000, 0.95, 3, &ci, &nfail, NULL);
	/* About one resample in ten starts with the 1. */
	cr_assert(nfail > 50 && nfail < 160, "%zu", nfail);
	cr_assert(isfinite(ci.lo) && isfinite(ci.hi));
}

/* The percentile interval of the median of 50 normal values covers the
 * true median at about its nominal 95%: between 90% and 99% of 400
 * samples (a binomial 95% band around 0.95 is 0.93..0.97 at 400).  It
 * covers 384 (96%); at 12 values 376, at 25 363, at 100 379 (B = 400). */
Test(stats, bootstrap_median_interval_covers_at_nominal_rate)
{
	int covered = 0, seeds = 400;
	double width = 0;

	for (int s = 0; s < seeds; s++) {
		struct stats_rng r;
		struct stats_ci ci;
		double x[50];

		stats_rng_seed(&r, 1000 + (uint64_t)s);
		for (int i = 0; i < 50; i++)
			x[i] = 50 + 4 * stats_rng_normal(&r);
		stats_bootstrap(x, 50, stats_median_statistic, NULL, 400, 0.95, (uint64_t)s, &ci,
				NULL, NULL);
		covered += ci.lo <= 50 && 50 <= ci.hi;
		width += ci.hi - ci.lo;
	}
	cr_log_info("median of 50 normals: covered %d of %d, mean width %.2f", covered, seeds,
		    width / seeds);
	cr_assert(covered >= 0.90 * seeds && covered <= 0.99 * seeds, "covered %d of %d", covered,
		  seeds);
	/* sd of a median of 50 normals is 1.2533 * 4 / sqrt(50) = 0.71: the
	 * interval is about 2 x 1.96 x 0.71 = 2.8 wide. */
	cr_assert(width / seeds > 2.2 && width / seeds < 3.4, "mean width %g", width / seeds);
}

Test(stats, quantile6_bounds_a_new_value)
{
	double v[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19 };

	/* n = 19: (n+1) 0.05 = 1 and (n+1) 0.95 = 19, the extremes. */
	cr_assert_eq(stats_quantile6_inplace(v, 19, 0.05), 1);
	cr_assert_eq(stats_quantile6_inplace(v, 19, 0.95), 19);
	cr_assert_eq(stats_quantile6_inplace(v, 19, 0.5), 10);
	/* R: quantile(1:19, 0.26, type = 6). */
	cr_assert_float_eq(stats_quantile6_inplace(v, 19, 0.26), 5.2, 1e-12);
	cr_assert_eq(stats_quantile6_inplace(v, 19, 0.001), 1, "clamped");
	cr_assert(isnan(stats_quantile6_inplace(v, 0, 0.5)));
	cr_assert(isnan(stats_quantile6_inplace(v, 19, 2)));
}

/* The resampled medians by ranks (issue 40: half of a big report's time
 * went into sorting drawn values) give the bits sorting gives: every
 * sample size from 1 to 70, samples with many ties, negative values and
 * infinities, and with a zero or a NaN (which take the sorting path). */
static double gen_value(struct stats_rng *r, int kind)
{
	double u = stats_rng_uniform(r);

	switch (kind) {
	case 0:
		return 1e5 * (1 + u);
	case 1:
		return (double)(int)(u * 4) + 1;   /* mostly ties */
	case 2:
		return u < 0.1 ? INFINITY : u < 0.2 ? -INFINITY : u - 0.5;
	case 3:
		return u < 0.2 ? 0.0 : u < 0.3 ? -0.0 : u;
	default:
		return u < 0.1 ? NAN : u;
	}
}

Test(stats, bootstrap_median_by_ranks_is_the_sorted_median)
{
	struct stats_rng g;

	stats_rng_seed(&g, 40);
	for (int kind = 0; kind < 5; kind++)
		for (size_t n = 1; n <= 70; n++) {
			double x[70], w[70], rep[200], lo, hi;
			struct stats_ci ci;
			struct stats_rng r;

			for (size_t i = 0; i < n; i++)
				x[i] = gen_value(&g, kind);
			cr_assert_eq(stats_bootstrap(x, n, stats_median_statistic, NULL, 200, 0.9, 7 + n,
						     &ci, NULL, NULL), 0);
			/* The general loop, as it was. */
			stats_rng_seed(&r, 7 + n);
			for (size_t b = 0; b < 200; b++) {
				for (size_t i = 0; i < n; i++)
					w[i] = x[stats_rng_below(&r, n)];
				rep[b] = stats_median_inplace(w, n);
			}
			stats_percentile_inplace(rep, 200, 0.9, &lo, &hi);
			cr_assert(memcmp(&lo, &ci.lo, sizeof lo) == 0 && memcmp(&hi, &ci.hi, sizeof hi) == 0,
				  "kind %d n %zu: %a..%a by ranks, %a..%a sorted", kind, n, ci.lo, ci.hi,
				  lo, hi);
		}
}

Test(stats, rank_refuses_zero_and_nan_and_ranks_the_rest)
{
	double x[5] = { 3, 1, 2, 1, 5 }, xs[5];
	uint32_t rank[5];

	cr_assert_eq(stats_rank(x, 5, xs, rank), 0);
	for (size_t j = 0; j < 5; j++)
		cr_assert_eq(xs[rank[j]], x[j]);
	for (size_t j = 1; j < 5; j++)
		cr_assert_leq(xs[j - 1], xs[j]);
	x[2] = 0;
	cr_assert_eq(stats_rank(x, 5, xs, rank), -1);
	x[2] = NAN;
	cr_assert_eq(stats_rank(x, 5, xs, rank), -1);
}
