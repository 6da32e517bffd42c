/* test_precision.c: which points --precision measures again, on series
 * with known noise. */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <stdlib.h>

#include "sweep/precision.h"
#include "stats/stats.h"

#define NDEPTHS 12

static unsigned depth_v[NDEPTHS] = { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64 };
static const struct depth_list depths = { depth_v, NDEPTHS };

/* A model curve (asymptote 1M rps, K = 4) with multiplicative noise sigma. */
static double draw(struct stats_rng *g, unsigned p, double sigma)
{
	return 1e6 * p / (4.0 + p) * exp(sigma * stats_rng_normal(g));
}

static void add_round(struct precision *pr, struct stats_rng *g, size_t t, double sigma)
{
	for (size_t i = 0; i < NDEPTHS; i++)
		precision_add(pr, t, depth_v[i], (unsigned)pr->cells[t * NDEPTHS + i].n + 1,
			      draw(g, depth_v[i], sigma));
}

Test(precision, a_quiet_series_needs_nothing_more_and_a_noisy_one_everything)
{
	struct precision pr;
	struct precision_pick *pick;
	struct precision_state st;
	struct stats_rng g;
	struct rs_err err;
	long k;

	stats_rng_seed(&g, 3);
	precision_init(&pr, 2, &depths);
	add_round(&pr, &g, 0, 0.005);
	add_round(&pr, &g, 1, 0.15);
	k = precision_next(&pr, 0.05, 10, 1, &pick, &st, &err);
	cr_assert_eq(k, NDEPTHS, "%ld picks: only the noisy series' points", k);
	cr_assert_eq(st.over, NDEPTHS);
	cr_assert_gt(st.worst, 0.05);
	for (long i = 0; i < k; i++) {
		cr_assert_eq(pick[i].test, 1);
		cr_assert_eq(pick[i].repeat, 2);
		cr_assert_gt(pick[i].width, 0.05);
	}
	free(pick);
	/* At the repeat limit nothing is picked, but the points still count. */
	k = precision_next(&pr, 0.05, 1, 1, &pick, &st, &err);
	cr_assert_eq(k, 0);
	cr_assert_null(pick);
	cr_assert_eq(st.over, NDEPTHS);
	precision_free(&pr);
}

Test(precision, a_series_with_a_depth_not_measured_is_left_to_the_plan)
{
	struct precision pr;
	struct precision_pick *pick;
	struct precision_state st;
	struct rs_err err;

	precision_init(&pr, 1, &depths);
	precision_add(&pr, 0, 1, 1, 1000);
	precision_add(&pr, 0, 5, 1, 1000);    /* not a depth of the list: ignored */
	precision_add(&pr, 0, 2, 1, NAN);     /* not a rate: ignored */
	cr_assert_eq(precision_next(&pr, 0.05, 10, 1, &pick, &st, &err), 0);
	cr_assert(isnan(st.worst));
	precision_free(&pr);
}

/* Points measured until every point of both series is within 5%: a quiet
 * series (2% noise) and a noisy one (12%), against the smallest uniform
 * --repeat K that gets there.  The noisy series needs K repeats either way;
 * the quiet one, measured once, is already within the target. */
Test(precision, fewer_points_than_a_uniform_repeat_at_equal_precision)
{
	const double target = 0.05, sigma[2] = { 0.02, 0.12 };
	size_t adaptive = 0, uniform = 0;
	unsigned K;

	{
		struct precision pr;
		struct stats_rng g;
		struct rs_err err;
		unsigned round;

		stats_rng_seed(&g, 11);
		precision_init(&pr, 2, &depths);
		for (size_t t = 0; t < 2; t++)
			add_round(&pr, &g, t, sigma[t]);
		adaptive = 2 * NDEPTHS;
		for (round = 0; round < 100; round++) {
			struct precision_pick *pick;
			struct precision_state st;
			long k = precision_next(&pr, target, 1000, round, &pick, &st, &err);

			cr_assert_geq(k, 0, "%s", err.msg);
			if (k == 0) {
				cr_assert_eq(st.over, 0);
				break;
			}
			for (long i = 0; i < k; i++)
				precision_add(&pr, pick[i].test, pick[i].depth, pick[i].repeat,
					      draw(&g, pick[i].depth, sigma[pick[i].test]));
			adaptive += (size_t)k;
			free(pick);
		}
		cr_assert_lt(round, 100);
		precision_free(&pr);
	}
	for (K = 1; K <= 100; K++) {
		struct precision pr;
		struct precision_pick *pick;
		struct precision_state st;
		struct stats_rng g;
		struct rs_err err;

		stats_rng_seed(&g, 11);
		precision_init(&pr, 2, &depths);
		for (unsigned r = 0; r < K; r++)
			for (size_t t = 0; t < 2; t++)
				add_round(&pr, &g, t, sigma[t]);
		cr_assert_geq(precision_next(&pr, target, K, 1, &pick, &st, &err), 0);
		free(pick);
		precision_free(&pr);
		if (st.over == 0)
			break;
	}
	uniform = (size_t)K * 2 * NDEPTHS;
	cr_log_info("within +-5%%: --precision measured %zu points, --repeat %u measures %zu",
		    adaptive, K, uniform);
	cr_assert_lt(adaptive, uniform);
}

/* A file resumed with gaps in its repeats (1 and 3 measured): the next
 * repeat is 4, not the 3 a count would give, which would be a duplicate
 * point that report refuses. */
Test(precision, the_next_repeat_is_past_the_highest_seen)
{
	struct precision pr;
	struct precision_pick *pick;
	struct precision_state st;
	struct stats_rng g;
	struct rs_err err;
	long k;

	stats_rng_seed(&g, 5);
	precision_init(&pr, 1, &depths);
	for (size_t i = 0; i < NDEPTHS; i++) {
		precision_add(&pr, 0, depth_v[i], 1, draw(&g, depth_v[i], 0.2));
		precision_add(&pr, 0, depth_v[i], 3, draw(&g, depth_v[i], 0.2));
	}
	k = precision_next(&pr, 0.01, 10, 1, &pick, &st, &err);
	cr_assert_eq(k, NDEPTHS);
	for (long i = 0; i < k; i++)
		cr_assert_eq(pick[i].repeat, 4, "repeat %u", pick[i].repeat);
	free(pick);
	precision_free(&pr);
}

/* precision_shuffle, the one shuffle of precision_next's and decide_next's
 * picks: a permutation, the same for the same seed, and the order both
 * had when each shuffled with a loop of its own (Fisher-Yates over
 * stats_rng_below), so that a seeded run measures its rounds in the same
 * order as before. */
Test(precision, one_shuffle_for_every_round_the_same_for_a_seed)
{
	enum { N = 50 };
	struct precision_pick a[N], b[N], want[N];
	struct stats_rng g;
	int seen[N] = { 0 }, moved = 0;

	for (size_t i = 0; i < N; i++)
		a[i] = b[i] = want[i] = (struct precision_pick){ i, (unsigned)i + 1, 1, 0.1 };
	precision_shuffle(a, N, 42);
	precision_shuffle(b, N, 42);
	stats_rng_seed(&g, 42);
	for (size_t i = N; i > 1; i--) {
		size_t j = (size_t)stats_rng_below(&g, i);
		struct precision_pick tmp = want[i - 1];

		want[i - 1] = want[j];
		want[j] = tmp;
	}
	for (size_t i = 0; i < N; i++) {
		cr_assert_eq(a[i].test, b[i].test, "the same seed, another order at %zu", i);
		cr_assert_eq(a[i].test, want[i].test, "not the order of before at %zu", i);
		cr_assert_eq(a[i].depth, a[i].test + 1, "a pick came apart at %zu", i);
		seen[a[i].test]++;
		moved += a[i].test != i;
	}
	for (size_t i = 0; i < N; i++)
		cr_assert_eq(seen[i], 1, "pick %zu kept %d times", i, seen[i]);
	cr_assert_gt(moved, N / 2, "hardly shuffled: %d of %d moved", moved, N);
	precision_shuffle(a, 0, 42);      /* nothing to shuffle is no error */
}
