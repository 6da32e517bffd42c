/* test_decide.c: --until-decided's stop rule on known data: a decided
 * comparison stops, one whose interval straddles the band goes on, and a
 * spent budget or repeat cap stops with its reason and the list of what
 * stayed undecided. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "sweep/decide.h"
#include "sweep/sweep_plan.h"

/* Side k's repeats of every test at every depth of d: base rps times
 * ratio, with multiplicative noise sigma. */
static void fill(struct precision *pr, size_t ntests, const struct depth_list *d,
		 unsigned repeats, double ratio, double sigma, struct stats_rng *g)
{
	for (unsigned r = 1; r <= repeats; r++)
		for (size_t t = 0; t < ntests; t++)
			for (size_t i = 0; i < d->n; i++)
				precision_add(pr, t, d->v[i], r,
					      1e5 * (1 + t) * d->v[i] / (4.0 + d->v[i]) * ratio *
					      exp(sigma * stats_rng_normal(g)));
}

/* Two sides: pr[0] the baseline, pr[1] ratio times it. */
static void two(struct precision pr[2], size_t ntests, const struct depth_list *d,
		unsigned repeats, double ratio, double sigma, uint64_t seed)
{
	struct stats_rng g;

	stats_rng_seed(&g, seed);
	precision_init(&pr[0], ntests, d);
	precision_init(&pr[1], ntests, d);
	fill(&pr[0], ntests, d, repeats, 1.0, sigma, &g);
	fill(&pr[1], ntests, d, repeats, ratio, sigma, &g);
}

static unsigned p1[] = { 1 };
static const struct depth_list at1 = { p1, 1 };
static unsigned p4[] = { 1, 2, 4, 8 };
static const struct depth_list at4 = { p4, 4 };

/* The notes sweep_plan_more gives, one a line. */
static char notes[4096];

static void on_note(void *ud, const char *msg)
{
	(void)ud;
	strncat(notes, msg, sizeof notes - strlen(notes) - 2);
	strcat(notes, "\n");
}

static const char *const labels[] = { "a", "b", "c", "d" };

static struct sweep_plan_precision cfg(double budget, unsigned max_repeats)
{
	struct sweep_plan_precision c;

	memset(&c, 0, sizeof c);
	c.until_decided = 1;
	c.group = 1;
	c.label = labels;
	c.budget = budget;
	c.max_repeats = max_repeats;
	c.seed = 1;
	c.on_note = on_note;
	notes[0] = '\0';
	return c;
}

Test(decide, a_decided_ratio_stops)
{
	const struct depth_list *ds[] = { &at1, &at4 };

	for (size_t k = 0; k < 2; k++) {
		struct precision pr[2];
		struct precision_pick *pick;
		struct decide_state st;
		struct sweep_plan plan = { 0 };
		struct sweep_plan_precision c = cfg(300, 20);
		struct rs_err err;
		long m;

		two(pr, 3, ds[k], 5, 1.5, 0.02, 11);
		m = decide_next(pr, 2, 1, 20, 1, &pick, &st, &err);
		cr_assert_eq(m, 0, "%zu depths: %ld picks of a 1.5x ratio at 2%% noise", ds[k]->n, m);
		cr_assert_null(pick);
		cr_assert_eq(st.compared, 3 * ds[k]->n);
		cr_assert_eq(st.faster, 3 * ds[k]->n);
		cr_assert_eq(st.undecided, 0);
		decide_state_free(&st);
		cr_assert_eq(sweep_plan_more(&plan, &c, pr, 2, 1, 5, &err), 0);
		cr_assert_eq(plan.n, 0);
		cr_assert_not_null(strstr(notes, "every compared point decided"), "%s", notes);
		cr_assert_not_null(strstr(notes, "undecided: none"), "%s", notes);
		sweep_plan_free(&plan);
		precision_free(&pr[0]);
		precision_free(&pr[1]);
	}
}

Test(decide, the_same_within_the_band_stops_too)
{
	struct precision pr[2];
	struct precision_pick *pick;
	struct decide_state st;
	struct rs_err err;

	two(pr, 2, &at1, 6, 1.0, 0.003, 5);
	cr_assert_eq(decide_next(pr, 2, 1, 20, 1, &pick, &st, &err), 0);
	cr_assert_eq(st.same, 2, "%zu same of %zu", st.same, st.compared);
	decide_state_free(&st);
	precision_free(&pr[0]);
	precision_free(&pr[1]);
}

Test(decide, a_straddling_interval_goes_on_on_every_target_in_turns)
{
	struct precision pr[2];
	struct precision_pick *pick;
	struct decide_state st;
	struct sweep_plan plan = { 0 };
	struct sweep_plan_precision c = cfg(300, 20);
	struct rs_err err;
	long m;

	two(pr, 2, &at1, 3, 1.0, 0.25, 7);
	m = decide_next(pr, 2, 1, 20, 1, &pick, &st, &err);
	cr_assert_eq(m, 2, "both tests picked, once each (%ld)", m);
	cr_assert_eq(st.undecided, 2);
	for (size_t i = 0; i < st.undecided; i++) {
		cr_assert_not(decide_is_decided(st.open[i].cmp.verdict));
		cr_assert_lt(st.open[i].cmp.ratio.lo, 1.0);
		cr_assert_gt(st.open[i].cmp.ratio.hi, 1.0);
		cr_assert_eq(st.open[i].repeats, 3);
	}
	for (long i = 0; i < m; i++)
		cr_assert_eq(pick[i].repeat, 4);
	free(pick);
	decide_state_free(&st);
	/* The round: each point on both targets, back to back, repeat 4. */
	cr_assert_eq(sweep_plan_more(&plan, &c, pr, 2, 1, 5, &err), 4);
	cr_assert_eq(plan.n, 4);
	for (size_t i = 0; i < plan.n; i += 2) {
		cr_assert_eq(plan.v[i].test, plan.v[i + 1].test);
		cr_assert_neq(plan.v[i].target, plan.v[i + 1].target);
		cr_assert_eq(plan.v[i].repeat, 4);
		cr_assert_eq(plan.v[i + 1].repeat, 4);
	}
	cr_assert_eq(notes[0], '\0', "no note while it goes on: %s", notes);
	sweep_plan_free(&plan);
	precision_free(&pr[0]);
	precision_free(&pr[1]);
}

Test(decide, a_spent_budget_stops_and_names_what_stayed_undecided)
{
	struct precision pr[2];
	struct sweep_plan plan = { 0 };
	struct sweep_plan_precision c = cfg(20, 20);
	struct rs_err err;

	two(pr, 2, &at1, 3, 1.0, 0.25, 7);
	cr_assert_eq(sweep_plan_more(&plan, &c, pr, 2, 3, 21, &err), 0);
	cr_assert_eq(plan.n, 0);
	cr_assert_not_null(strstr(notes, "the 20 s budget is spent with 2 of 2 compared points "
				  "still undecided"), "%s", notes);
	cr_assert_not_null(strstr(notes, "undecided: test 1 P=1, b against a "), "%s", notes);
	cr_assert_not_null(strstr(notes, "undecided: test 2 P=1, b against a "), "%s", notes);
	cr_assert_not_null(strstr(notes, "3 repeats"), "%s", notes);
	sweep_plan_free(&plan);
	precision_free(&pr[0]);
	precision_free(&pr[1]);
}

Test(decide, the_repeat_cap_stops_with_its_reason)
{
	struct precision pr[2];
	struct precision_pick *pick;
	struct decide_state st;
	struct sweep_plan plan = { 0 };
	struct sweep_plan_precision c = cfg(300, 3);
	struct rs_err err;

	two(pr, 2, &at1, 3, 1.0, 0.25, 7);
	cr_assert_eq(decide_next(pr, 2, 1, 3, 1, &pick, &st, &err), 0);
	cr_assert_eq(st.undecided, 2);
	cr_assert_eq(st.capped, 2);
	decide_state_free(&st);
	cr_assert_eq(sweep_plan_more(&plan, &c, pr, 2, 2, 5, &err), 0);
	cr_assert_not_null(strstr(notes, "still undecided at 3 repeats (--max-repeats)"), "%s",
			   notes);
	sweep_plan_free(&plan);
	precision_free(&pr[0]);
	precision_free(&pr[1]);
}

/* With swept axes, side k is compared with side k % group: sides 2 and 3
 * (the second target's two combinations) with 0 and 1. */
Test(decide, each_combination_against_the_first_targets_own)
{
	struct precision pr[4];
	struct precision_pick *pick;
	struct decide_state st;
	struct stats_rng g;
	struct rs_err err;

	stats_rng_seed(&g, 3);
	for (size_t k = 0; k < 4; k++)
		precision_init(&pr[k], 1, &at1);
	fill(&pr[0], 1, &at1, 5, 1.0, 0.02, &g);
	fill(&pr[1], 1, &at1, 5, 3.0, 0.02, &g);    /* another combination, 3x */
	fill(&pr[2], 1, &at1, 5, 1.0, 0.002, &g);   /* the same as side 0 */
	fill(&pr[3], 1, &at1, 5, 1.5 * 3.0, 0.02, &g); /* 1.5x side 1 */
	cr_assert_geq(decide_next(pr, 4, 2, 20, 1, &pick, &st, &err), 0);
	cr_assert_eq(st.compared, 2);
	cr_assert_eq(st.faster, 1, "side 3 against side 1, not side 0 (%zu)", st.faster);
	cr_assert_eq(st.undecided + st.same, 1);
	free(pick);
	decide_state_free(&st);
	for (size_t k = 0; k < 4; k++)
		precision_free(&pr[k]);
}

Test(decide, a_point_one_side_lacks_is_measured_again)
{
	struct precision pr[2];
	struct precision_pick *pick;
	struct decide_state st;
	struct rs_err err;

	precision_init(&pr[0], 1, &at1);
	precision_init(&pr[1], 1, &at1);
	precision_add(&pr[0], 0, 1, 1, 1000);
	precision_add(&pr[1], 0, 1, 1, NAN);  /* failed: counted, not measured */
	cr_assert_eq(decide_next(pr, 2, 1, 20, 1, &pick, &st, &err), 1);
	cr_assert_eq(st.undecided, 1);
	cr_assert_eq(st.open[0].cmp.verdict, KNEE_UNKNOWN);
	free(pick);
	decide_state_free(&st);
	precision_free(&pr[0]);
	precision_free(&pr[1]);
}

Test(decide, budget_parses_seconds_and_units_and_refuses_the_rest)
{
	static const struct { const char *s; double v; } ok[] = {
		{ "90", 90 }, { "20s", 20 }, { "10m", 600 }, { "1.5h", 5400 }, { "0.5", 0.5 },
	};
	static const char *const bad[] = { "", "0", "-1", "10x", "m", "10mm", "inf", "nan",
					   "1e9" };
	struct rs_err err;
	double v;

	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		cr_assert_eq(decide_budget_parse(ok[i].s, &v, &err), 0, "%s: %s", ok[i].s, err.msg);
		cr_assert_float_eq(v, ok[i].v, 1e-9, "%s", ok[i].s);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cr_assert_eq(decide_budget_parse(bad[i], &v, &err), -1, "'%s' taken", bad[i]);
		cr_assert_neq(err.msg[0], '\0');
	}
}

/* The report's series holds a point's repeats in repeat order, and the
 * core's interval is not blind to the order: rows measured in a shuffled
 * plan (repeat 2 before repeat 1) must be judged as the report will judge
 * them, whatever order they were measured in. */
Test(decide, the_repeats_are_judged_in_repeat_order_as_the_report_reads_them)
{
	static const unsigned order[9] = { 2, 3, 1, 4, 5, 6, 7, 8, 9 };
	struct precision in[2], shuffled[2];
	struct precision_pick *pick;
	struct decide_state a, b;
	struct stats_rng g;
	struct rs_err err;
	double v[2][9];

	stats_rng_seed(&g, 17);
	for (size_t k = 0; k < 2; k++) {
		precision_init(&in[k], 1, &at1);
		precision_init(&shuffled[k], 1, &at1);
		for (size_t r = 0; r < 9; r++)
			v[k][r] = 1e5 * (k ? 1.3 : 1.0) * exp(0.4 * stats_rng_normal(&g));
	}
	for (size_t k = 0; k < 2; k++)
		for (unsigned r = 1; r <= 9; r++) {
			precision_add(&in[k], 0, 1, r, v[k][r - 1]);
			precision_add(&shuffled[k], 0, 1, order[r - 1], v[k][order[r - 1] - 1]);
		}
	cr_assert_geq(decide_next(in, 2, 1, 20, 1, &pick, &a, &err), 0);
	free(pick);
	cr_assert_geq(decide_next(shuffled, 2, 1, 20, 1, &pick, &b, &err), 0);
	free(pick);
	cr_assert_eq(a.undecided, b.undecided);
	cr_assert_eq(a.faster, b.faster);
	for (size_t i = 0; i < a.undecided; i++) {
		cr_assert_float_eq(a.open[i].cmp.ratio.lo, b.open[i].cmp.ratio.lo, 1e-12);
		cr_assert_float_eq(a.open[i].cmp.ratio.hi, b.open[i].cmp.ratio.hi, 1e-12);
	}
	decide_state_free(&a);
	decide_state_free(&b);
	for (size_t k = 0; k < 2; k++) {
		precision_free(&in[k]);
		precision_free(&shuffled[k]);
	}
}
