/* test_keydist.c: --key-dist's samplers against their definitions, on a
 * million draws of fixed seeds (so a run is the same every time; the
 * bounds are 5 standard errors, which a correct sampler clears on any
 * libm), and its spec's parser. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/keydist.h"

#define DRAWS 1000000

static struct keydist *kd_make(const char *spec, uint64_t n)
{
	struct keydist_spec sp;
	struct keydist *kd;
	struct rs_err err;

	cr_assert_eq(keydist_parse(spec, &sp, &err), 0, "%s: %s", spec, err.msg);
	cr_assert_eq(keydist_new(&sp, n, &kd, &err), 0, "%s: %s", spec, err.msg);
	cr_assert_not_null(kd);
	return kd;
}

/* Counts of DRAWS draws over n keys (every draw checked to be a key). */
static uint64_t *kd_counts(struct keydist *kd, uint64_t n, uint64_t seed)
{
	uint64_t *c = calloc(n, sizeof *c);
	struct keydist_state st = { 0 };
	uint64_t rng = seed;

	keydist_claim(kd, &st, DRAWS);
	for (int i = 0; i < DRAWS; i++) {
		uint64_t k = keydist_draw(kd, &st, &rng);

		cr_assert_lt(k, n);
		c[k]++;
	}
	return c;
}

/* |seen - n p| within 5 standard errors of a binomial's. */
static void kd_near(uint64_t seen, double p, const char *what)
{
	double want = DRAWS * p, se = sqrt(DRAWS * p * (1 - p));

	cr_assert(fabs((double)seen - want) <= 5 * se + 1, "%s: %llu draws, want %.1f +- %.1f",
		  what, (unsigned long long)seen, want, 5 * se);
}

static double kd_harmonic(uint64_t n, double s)
{
	double h = 0;

	for (uint64_t k = n; k >= 1; k--)   /* smallest first */
		h += pow((double)k, -s);
	return h;
}

/* P(rank k) = 1 / (k^S H(N, S)), rank 1 the key 0. */
static void kd_zipf_top(const char *spec, double s, uint64_t n)
{
	struct keydist *kd = kd_make(spec, n);
	uint64_t *c = kd_counts(kd, n, 0x9E3779B97F4A7C15ULL);
	double h = kd_harmonic(n, s);
	char what[64];

	for (unsigned k = 1; k <= 10; k++) {
		snprintf(what, sizeof what, "%s over %llu, rank %u", spec, (unsigned long long)n, k);
		kd_near(c[k - 1], pow(k, -s) / h, what);
	}
	free(c);
	keydist_free(kd);
}

Test(keydist, zipf_top_ranks_follow_the_definition)
{
	kd_zipf_top("zipf", 0.99, 1000);
	kd_zipf_top("zipf:0.5", 0.5, 1000);
	kd_zipf_top("zipf:1", 1, 50000);
	kd_zipf_top("zipf:1.5", 1.5, 1000);
}

/* Past KEYDIST_ZIPF_TABLE ranks the tail is drawn by rejection-inversion:
 * the top ranks still match, and so do the tail's share and the share of
 * a band inside it. */
Test(keydist, zipf_tail_beyond_the_table)
{
	const uint64_t n = 10000000;
	const double s = 0.99;
	struct keydist *kd = kd_make("zipf:0.99", n);
	uint64_t *c = kd_counts(kd, n, 7);
	double h = kd_harmonic(n, s), tail = 0, band = 0;
	uint64_t in_tail = 0, in_band = 0;

	for (uint64_t k = n; k > KEYDIST_ZIPF_TABLE; k--)
		tail += pow((double)k, -s);
	for (uint64_t k = 1000000; k > 500000; k--)
		band += pow((double)k, -s);
	for (uint64_t k = KEYDIST_ZIPF_TABLE; k < n; k++) {
		in_tail += c[k];
		if (k >= 500000 && k < 1000000)
			in_band += c[k];
	}
	kd_near(c[0], 1 / h, "rank 1");
	kd_near(c[1], pow(2, -s) / h, "rank 2");
	kd_near(in_tail, tail / h, "ranks past the table");
	kd_near(in_band, band / h, "ranks 500001..1000000");
	free(c);
	keydist_free(kd);
}

/* One key past the table, and S > 1: draws stay in the keyspace and the
 * last key still comes. */
Test(keydist, zipf_tail_edges)
{
	const uint64_t n = KEYDIST_ZIPF_TABLE + 1;
	struct keydist *kd = kd_make("zipf:0.2", n);
	uint64_t *c = kd_counts(kd, n, 3);

	kd_near(c[n - 1], pow((double)n, -0.2) / kd_harmonic(n, 0.2), "the one key past the table");
	free(c);
	keydist_free(kd);
	kd = kd_make("zipf:2", 1000000000000ULL);
	{
		struct keydist_state st = { 0 };
		uint64_t rng = 11, past = 0;

		for (int i = 0; i < DRAWS; i++) {
			uint64_t k = keydist_draw(kd, &st, &rng);

			cr_assert_lt(k, 1000000000000ULL);
			past += k >= KEYDIST_ZIPF_TABLE;
		}
		/* sum k^-2 past 65536 over pi^2/6: 9.3e-6 */
		kd_near(past, 1.0 / KEYDIST_ZIPF_TABLE / (M_PI * M_PI / 6), "zipf:2's tail");
	}
	keydist_free(kd);
}

static void kd_moments(const uint64_t *c, uint64_t n, double *mean, double *sd)
{
	double m = 0, v = 0;

	for (uint64_t k = 0; k < n; k++)
		m += (double)k * (double)c[k];
	m /= DRAWS;
	for (uint64_t k = 0; k < n; k++)
		v += ((double)k - m) * ((double)k - m) * (double)c[k];
	*mean = m;
	*sd = sqrt(v / DRAWS);
}

/* Mean N/2 (its keys are floor(x): (N-1)/2 on average), sd SIGMA: a
 * fraction of N below 1, else keys; the default N/6 is truncated at 3 sd,
 * as memtier's, which narrows it to 0.9866 of N/6. */
Test(keydist, gaussian_mean_and_spread)
{
	static const struct { const char *spec; double sd; } cases[] = {
		{ "gaussian:0.1", 100000 },
		{ "gaussian:20000", 20000 },
		{ "gaussian", 1000000 / 6.0 * 0.98659 },
	};
	const uint64_t n = 1000000;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct keydist *kd = kd_make(cases[i].spec, n);
		uint64_t *c = kd_counts(kd, n, 42 + i);
		double mean, sd;

		kd_moments(c, n, &mean, &sd);
		/* the mean's standard error is sd / 1000 */
		cr_assert(fabs(mean - (n - 1) / 2.0) < 5 * cases[i].sd / 1000, "%s: mean %f",
			  cases[i].spec, mean);
		cr_assert(fabs(sd / cases[i].sd - 1) < 0.005, "%s: sd %f, want %f", cases[i].spec,
			  sd, cases[i].sd);
		free(c);
		keydist_free(kd);
	}
}

/* Each key of a small keyspace against the definition: key j has the
 * normal's mass on [j, j + 1) over its mass on [0, N). */
Test(keydist, gaussian_each_key_of_a_truncated_normal)
{
	const uint64_t n = 10;
	struct keydist *kd = kd_make("gaussian:0.3", n);
	uint64_t *c = kd_counts(kd, n, 9);
	double sd = 3, mean = 5;
	double all = erf((n - mean) / sd / M_SQRT2) - erf(-mean / sd / M_SQRT2);
	char what[32];

	for (uint64_t j = 0; j < n; j++) {
		double p = (erf((j + 1 - mean) / sd / M_SQRT2) - erf((j - mean) / sd / M_SQRT2)) / all;

		snprintf(what, sizeof what, "key %llu", (unsigned long long)j);
		kd_near(c[j], p, what);
	}
	free(c);
	keydist_free(kd);
}

/* YCSB's hotspot: the first FRACTION of the keys get SHARE of the draws,
 * uniformly among them, the rest the others. */
Test(keydist, hotspot_share_of_the_hot_set)
{
	const uint64_t n = 1000;
	struct keydist *kd = kd_make("hotspot:0.2:0.8", n);
	uint64_t *c = kd_counts(kd, n, 5);
	uint64_t hot = 0;

	for (uint64_t k = 0; k < n; k++) {
		cr_assert_gt(c[k], 0, "key %llu never drawn", (unsigned long long)k);
		hot += k < 200 ? c[k] : 0;
	}
	kd_near(hot, 0.8, "draws of the hot 20%");
	kd_near(c[0], 0.8 / 200, "one hot key");
	kd_near(c[999], 0.2 / 800, "one cold key");
	free(c);
	keydist_free(kd);
	kd = kd_make("hotspot:0.5:1", 10);
	c = kd_counts(kd, 10, 6);
	for (int k = 5; k < 10; k++)
		cr_assert_eq(c[k], 0);
	free(c);
	keydist_free(kd);
}

/* Sequential: 0, 1, ..., N-1, 0, ... on one loop; loops that claim
 * batches of any size in any order still cover every key once a pass. */
Test(keydist, sequential_covers_each_key_once_per_pass)
{
	const uint64_t n = 1000;
	struct keydist *kd = kd_make("sequential", n);
	struct keydist_state st[3] = { { 0 } };
	uint64_t rng = 1, c[1000] = { 0 };
	uint64_t left = 3 * n;

	keydist_claim(kd, &st[0], 2 * n + 5);
	for (uint64_t i = 0; i < 2 * n + 5; i++)
		cr_assert_eq(keydist_draw(kd, &st[0], &rng), i % n);
	keydist_rewind(kd);
	/* batches of 1..16 on three loops, taken in turn */
	for (unsigned i = 0; left > 0; i++) {
		uint64_t b = 1 + (i * 7) % 16;

		b = b < left ? b : left;
		keydist_claim(kd, &st[i % 3], b);
		for (uint64_t j = 0; j < b; j++)
			c[keydist_draw(kd, &st[i % 3], &rng)]++;
		left -= b;
	}
	for (uint64_t k = 0; k < n; k++)
		cr_assert_eq(c[k], 3, "key %llu: %llu draws", (unsigned long long)k,
			     (unsigned long long)c[k]);
	keydist_free(kd);
}

struct kd_thread {
	struct keydist *kd;
	uint64_t *c;              /* shared, added to atomically */
	uint64_t draws;
	unsigned batch;
};

static void *kd_thread_run(void *arg)
{
	struct kd_thread *t = arg;
	struct keydist_state st = { 0 };
	uint64_t rng = 1;

	for (uint64_t done = 0; done < t->draws; done += t->batch) {
		keydist_claim(t->kd, &st, t->batch);
		for (unsigned j = 0; j < t->batch; j++)
			__atomic_fetch_add(&t->c[keydist_draw(t->kd, &st, &rng)], 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* Four threads at once, as the engine's loops: 4 x 2500 draws of batches
 * 1, 5, 10 and 25 over 1000 keys are ten passes, each key ten times. */
Test(keydist, sequential_across_threads)
{
	const uint64_t n = 1000;
	struct keydist *kd = kd_make("sequential", n);
	uint64_t *c = calloc(n, sizeof *c);
	struct kd_thread t[4];
	pthread_t tid[4];
	static const unsigned batch[4] = { 1, 5, 10, 25 };

	for (int i = 0; i < 4; i++) {
		t[i] = (struct kd_thread){ kd, c, 2500, batch[i] };
		cr_assert_eq(pthread_create(&tid[i], NULL, kd_thread_run, &t[i]), 0);
	}
	for (int i = 0; i < 4; i++)
		pthread_join(tid[i], NULL);
	for (uint64_t k = 0; k < n; k++)
		cr_assert_eq(c[k], 10, "key %llu: %llu draws", (unsigned long long)k,
			     (unsigned long long)c[k]);
	free(c);
	keydist_free(kd);
}

Test(keydist, uniform_is_the_engines_own_draw)
{
	struct keydist_spec sp;
	struct keydist *kd = (struct keydist *)1;
	struct rs_err err;

	cr_assert_eq(keydist_parse("uniform", &sp, &err), 0);
	cr_assert_eq(keydist_new(&sp, 100, &kd, &err), 0);
	cr_assert_null(kd);
	cr_assert_eq(keydist_kind(NULL), KEYDIST_UNIFORM);
}

Test(keydist, specs_and_their_names)
{
	static const struct { const char *in, *name; } ok[] = {
		{ "uniform", "uniform" }, { "sequential", "sequential" },
		{ "zipf", "zipf:0.99" }, { "zipf:1.2", "zipf:1.2" }, { "zipf:1e-3", "zipf:0.001" },
		{ "gaussian", "gaussian:0.166667" }, { "gaussian:0.05", "gaussian:0.05" },
		{ "gaussian:5000", "gaussian:5000" },
		{ "hotspot", "hotspot:0.2:0.8" }, { "hotspot:0.01", "hotspot:0.01:0.8" },
		{ "hotspot:0.1:0.9", "hotspot:0.1:0.9" }, { "hotspot:0.1:1", "hotspot:0.1:1" },
	};

	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		struct keydist_spec sp;
		struct rs_err err;
		char name[KEYDIST_NAME_MAX];

		cr_assert_eq(keydist_parse(ok[i].in, &sp, &err), 0, "%s: %s", ok[i].in, err.msg);
		cr_assert_str_eq(keydist_format(&sp, name, sizeof name), ok[i].name);
	}
}

Test(keydist, bad_specs_say_what_is_wrong)
{
	static const struct { const char *in, *msg; } bad[] = {
		{ "zipf:0", "zipf:S needs S > 0: 'zipf:0'" },
		{ "zipf:-1", "zipf:S needs S > 0: 'zipf:-1'" },
		{ "zipf:", "zipf:S needs a number S: 'zipf:'" },
		{ "zipf:x", "zipf:S needs a number S: 'zipf:x'" },
		{ "zipf:nan", "zipf:S needs a number S: 'zipf:nan'" },
		{ "zipf:11", "zipf:S needs S of 10 at most (S 11 sends nearly every draw to one key): "
			     "'zipf:11'" },
		{ "gaussian:0", "gaussian:SIGMA needs SIGMA > 0: 'gaussian:0'" },
		{ "gaussian:1:2", "gaussian:SIGMA needs a number SIGMA: 'gaussian:1:2'" },
		{ "hotspot:1", "hotspot:FRACTION:SHARE needs FRACTION above 0 and below 1: "
			       "'hotspot:1'" },
		{ "hotspot:0:0.5", "hotspot:FRACTION:SHARE needs FRACTION above 0 and below 1: "
				   "'hotspot:0:0.5'" },
		{ "hotspot:0.2:1.5", "hotspot:FRACTION:SHARE needs SHARE in 0..1: 'hotspot:0.2:1.5'" },
		{ "hotspot:0.2:", "hotspot:FRACTION:SHARE needs a number SHARE: 'hotspot:0.2:'" },
		{ "sequential:2", "sequential takes no parameter: 'sequential:2'" },
		{ "zip", "'zip' is no key distribution (uniform, sequential, zipf:S, gaussian:SIGMA, "
			 "hotspot:FRACTION:SHARE)" },
		{ "", "'' is no key distribution (uniform, sequential, zipf:S, gaussian:SIGMA, "
		      "hotspot:FRACTION:SHARE)" },
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct keydist_spec sp;
		struct rs_err err;

		cr_assert_eq(keydist_parse(bad[i].in, &sp, &err), -1, "%s", bad[i].in);
		cr_assert_str_eq(err.msg, bad[i].msg);
		cr_assert_eq(err.kind, RS_E_USAGE);
	}
}

Test(keydist, samplers_the_keyspace_cannot_hold)
{
	static const struct { const char *spec; uint64_t n; const char *msg; } bad[] = {
		{ "zipf", 0, "a key distribution needs keys: give -r N > 0" },
		{ "hotspot:0.2:0.8", 4, "hotspot:0.2:0.8 over -r 4 leaves the hot set without a key: "
					"give a larger -r" },
		{ "hotspot:0.05:0.5", 19, "hotspot:0.05:0.5 over -r 19 leaves the hot set without "
					  "a key: give a larger -r" },
		{ "gaussian:5000", 1000, "gaussian:SIGMA: SIGMA 5000 is more keys than -r 1000 "
					 "(below 1 it is a fraction of -r)" },
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct keydist_spec sp;
		struct keydist *kd;
		struct rs_err err;

		cr_assert_eq(keydist_parse(bad[i].spec, &sp, &err), 0);
		cr_assert_eq(keydist_new(&sp, bad[i].n, &kd, &err), -1, "%s", bad[i].spec);
		cr_assert_null(kd);
		cr_assert_str_eq(err.msg, bad[i].msg);
	}
}
