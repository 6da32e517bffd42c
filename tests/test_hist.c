/* test_hist.c: histogram percentiles against an exact sort of random
 * samples; the stored text form and exact merges. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/hist.h"

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

/* The stored form merges exactly: three repeats, each encoded as the
 * sidecar keeps it and decoded again, add up to the histogram of all
 * their samples, bucket for bucket (never percentiles averaged). */
Test(hist, stored_repeats_merge_into_the_histogram_of_all_samples)
{
	static struct hist rep[3], back, merged, all;
	unsigned seed = 11;

	hist_init(&merged);
	hist_init(&all);
	for (int r = 0; r < 3; r++)
		hist_init(&rep[r]);
	for (int i = 0; i < 30000; i++) {
		uint64_t x = sample(&seed);

		hist_record_n(&rep[i % 3], x, 1 + (unsigned)(i % 2));
		hist_record_n(&all, x, 1 + (unsigned)(i % 2));
	}
	for (int r = 0; r < 3; r++) {
		struct sbuf b;
		struct rs_err err = { 0 };

		sbuf_heap(&b);
		hist_encode(&rep[r], &b);
		cr_assert_eq(hist_decode(b.s, b.len, &back, &err), 0, "%s", err.msg);
		cr_assert(hist_equal(&back, &rep[r]), "repeat %d changed on its way through text", r);
		free(b.s);
		hist_merge(&merged, &back);
	}
	cr_assert(hist_equal(&merged, &all));
	cr_assert_eq(hist_percentile(&merged, 99), hist_percentile(&all, 99));
}

Test(hist, an_empty_histogram_goes_through_text)
{
	static struct hist e, back;
	struct sbuf b;
	struct rs_err err = { 0 };

	hist_init(&e);
	sbuf_heap(&b);
	hist_encode(&e, &b);
	cr_assert_str_eq(b.s, "v1 0 0 0 0");
	cr_assert_eq(hist_decode(b.s, b.len, &back, &err), 0, "%s", err.msg);
	cr_assert(hist_equal(&back, &e));
	free(b.s);
}

Test(hist, malformed_text_is_refused_with_a_reason)
{
	static struct hist back;
	static const struct {
		const char *s, *why;
	} bad[] = {
		{ "v2 1 5 5 5 5:1", "not in the v1 form" },
		{ "v1 1 5 5", "expected COUNT SUM MIN MAX" },
		{ "v1 2 10 5 5 5:1", "its buckets hold 1 values, COUNT says 2" },
		{ "v1 2 10 5 6 6:1 5:1", "bucket 5 is out of order" },
		{ "v1 1 5 5 5 99999:1", "bucket 99999 is past the last" },
		{ "v1 1 5 5 5 5:0", "bucket 5 has a bad count" },
		{ "v1 1 5 5 5 5:1 ", "expected INDEX:COUNT" },
		{ "v1 2 10 6 5 5:1 6:1", "MIN is above MAX" },
		{ "v1 99999999999999999999 0 0 0", "expected COUNT SUM MIN MAX" },
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct rs_err err = { 0 };

		cr_assert_eq(hist_decode(bad[i].s, strlen(bad[i].s), &back, &err), -1, "'%s'", bad[i].s);
		cr_assert_not_null(strstr(err.msg, bad[i].why), "'%s': '%s'", bad[i].s, err.msg);
	}
}
