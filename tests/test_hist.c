/* test_hist.c: histogram percentiles against an exact sort of random samples. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "hist.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static uint64_t exact_percentile(const uint64_t *sorted, size_t n, double p)
{
	size_t rank = (size_t)ceil(p / 100.0 * (double)n);

	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

/* Log-uniform values from 1 us to 60 s: every decade of the range is hit. */
static uint64_t sample(unsigned *seed)
{
	double u = (double)rand_r(seed) / RAND_MAX;

	return (uint64_t)(1000.0 * pow(60e9 / 1000.0, u));
}

static struct hist h;

Test(hist, percentiles_within_one_percent_of_exact_sort)
{
	enum { N = 200000 };
	uint64_t *v = malloc(N * sizeof *v);
	unsigned seed = 42;
	const double ps[] = { 0.1, 1, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 100 };

	hist_init(&h);
	for (size_t i = 0; i < N; i++) {
		v[i] = sample(&seed);
		hist_record_n(&h, v[i], 1);
	}
	qsort(v, N, sizeof *v, cmp_u64);
	cr_assert_eq(h.count, N);
	cr_assert_eq(h.min, v[0]);
	cr_assert_eq(h.max, v[N - 1]);
	for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
		double exact = (double)exact_percentile(v, N, ps[i]);
		double got = (double)hist_percentile(&h, ps[i]);

		cr_assert(fabs(got - exact) / exact <= 0.01, "p%g: got %.0f, exact %.0f", ps[i], got,
			  exact);
	}
	free(v);
}

Test(hist, mean_is_exact)
{
	hist_init(&h);
	hist_record_n(&h, 1000, 3);
	hist_record_n(&h, 4000, 1);
	cr_assert_float_eq(hist_mean(&h), 1750.0, 1e-9);
}

Test(hist, merge_equals_recording_in_one)
{
	static struct hist a, b, all;
	unsigned seed = 7;

	hist_init(&a);
	hist_init(&b);
	hist_init(&all);
	for (int i = 0; i < 10000; i++) {
		uint64_t x = sample(&seed);

		hist_record_n(i % 2 ? &a : &b, x, 1);
		hist_record_n(&all, x, 1);
	}
	hist_merge(&a, &b);
	cr_assert_eq(a.count, all.count);
	cr_assert_eq(a.sum, all.sum);
	cr_assert_eq(a.min, all.min);
	cr_assert_eq(a.max, all.max);
	for (double p = 1; p <= 100; p += 1)
		cr_assert_eq(hist_percentile(&a, p), hist_percentile(&all, p));
}

Test(hist, every_bucket_boundary_is_within_error)
{
	/* Walk values across bucket edges from 1 us to 60 s. */
	for (uint64_t v = 1000; v < 60000000000ULL; v += v / 97 + 1) {
		/* One value below and one above, so min and max clamp nothing. */
		hist_init(&h);
		hist_record_n(&h, 1, 1);
		hist_record_n(&h, v, 1);
		hist_record_n(&h, 1ULL << 40, 1);
		cr_assert(fabs((double)hist_percentile(&h, 50) - (double)v) / (double)v <= 0.01);
	}
}

Test(hist, empty_is_zero)
{
	hist_init(&h);
	cr_assert_eq(hist_percentile(&h, 50), 0);
	cr_assert_eq(hist_mean(&h), 0);
}
