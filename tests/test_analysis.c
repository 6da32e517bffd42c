/* test_analysis.c: the analysis room against synthetic series whose answers
 * are known: saturation, the throughput model, stability, comparisons. */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "results/row.h"
#include "analysis/series.h"
#include "stats/stats.h"
#include "rows_helper.h"

static double model(double p, double a, double b)
{
	return p / (a + b * p);
}

/* A deterministic +-amp wobble, so "noisy" data is the same on every run. */
static double wobble(unsigned i, double amp)
{
	static const double w[] = { 0.3, -0.8, 1.0, -0.2, 0.6, -1.0, 0.1, 0.9, -0.5, -0.4 };

	return 1 + amp * w[i % 10];
}

static void build(const struct rs_rows *rows, struct series_set *set)
{
	struct rs_err err = { 0 };

	cr_assert_eq(series_build(rows, SM_RPS, set, &err), 0, "%s", err.msg);
}

Test(analysis, saturation_of_linear_then_flat_curve)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	struct analysis_series a;

	/* 10k per depth up to 16, flat at 160k after: 95% of the peak (152k) is
	 * first reached at 16, 90% (144k) at 15. */
	for (unsigned p = 1; p <= 40; p++)
		add(&rows, "x", "GET", p, 1, p <= 16 ? 10000.0 * p : 160000, NAN);
	build(&rows, &set);
	cr_assert_eq(set.n, 1);
	cr_assert_eq(set.v[0].pts[analysis_saturation(&set.v[0], 0.95)].depth, 16);
	cr_assert_eq(set.v[0].pts[analysis_saturation(&set.v[0], 0.90)].depth, 15);
	analysis_series_compute(&set.v[0], NULL, 0.95, 0.10, 0, &a);
	cr_assert_eq(a.sat_depth, 16);
	/* The highest measured point is the first on ties; the peak is the
	 * fitted level's, within a hair of the plateau. */
	cr_assert_eq(a.top_depth, 16, "first depth on ties");
	cr_assert_float_eq(a.top_rps, 160000, 1e-9);
	cr_assert_float_eq(a.peak_rps, 160000, 160);
	cr_assert_float_eq(a.rps_at_1, 10000, 1e-9);
	cr_assert_float_eq(a.gain, a.peak_rps / 10000, 1e-9);
	cr_assert(isnan(a.max_cv), "one repeat: no CV");
	cr_assert_eq(a.nunstable, 0);
	cr_assert_eq(a.bound, BOUND_UNKNOWN);
	analysis_series_free(&a);
	series_set_free(&set);
	rows_free(&rows);
}

Test(analysis, saturation_uses_medians_over_repeats)
{
	struct rs_rows rows = { 0 };
	struct series_set set;

	/* One wild repeat at depth 2 must not make it the saturation point. */
	for (unsigned p = 1; p <= 8; p++)
		for (unsigned r = 1; r <= 3; r++)
			add(&rows, "x", "GET", p, r, p == 2 && r == 2 ? 1e6 : 1000.0 * (p < 5 ? p : 5), NAN);
	build(&rows, &set);
	cr_assert_eq(set.v[0].pts[analysis_saturation(&set.v[0], 0.95)].depth, 5);
	series_set_free(&set);
	rows_free(&rows);
}

Test(analysis, fit_recovers_model_parameters)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	struct analysis_fit f;
	const double a = 40e-6, b = 2e-6; /* asymptote 500k rps */

	for (unsigned p = 1; p <= 40; p++)
		add(&rows, "x", "GET", p, 1, model(p, a, b), NAN);
	build(&rows, &set);
	analysis_fit(&set.v[0], &f);
	cr_assert_eq(f.status, FIT_OK);
	cr_assert_float_eq(f.a_us, 40, 1e-6);
	cr_assert_float_eq(f.b_us, 2, 1e-6);
	cr_assert_float_eq(f.asymptote, 500000, 1e-3);
	cr_assert_float_eq(f.r2, 1, 1e-9);
	series_set_free(&set);
	rows_free(&rows);
}

Test(analysis, fit_recovers_asymptote_from_noisy_repeats_within_2pct)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	struct analysis_fit f;
	const double a = 30e-6, b = 4e-6; /* asymptote 250k rps */
	unsigned i = 0;
	static const unsigned depths[] = { 1, 2, 4, 8, 16, 32, 64, 128 };

	for (size_t d = 0; d < sizeof depths / sizeof depths[0]; d++)
		for (unsigned r = 1; r <= 5; r++)
			add(&rows, "x", "SET", depths[d], r, model(depths[d], a, b) * wobble(i++, 0.03), NAN);
	build(&rows, &set);
	analysis_fit(&set.v[0], &f);
	cr_assert_eq(f.status, FIT_OK);
	cr_assert(fabs(f.asymptote - 250000) / 250000 < 0.02, "asymptote %f", f.asymptote);
	cr_assert_gt(f.r2, 0.99);
	series_set_free(&set);
	rows_free(&rows);
}

Test(analysis, fit_says_when_model_does_not_fit)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	struct analysis_fit f;

	/* Rises then collapses: no P/(a+bP) curve does that. */
	for (unsigned p = 1; p <= 20; p++)
		add(&rows, "x", "GET", p, 1, p <= 10 ? 10000.0 * p : 10000.0 * (21 - p), NAN);
	build(&rows, &set);
	analysis_fit(&set.v[0], &f);
	cr_assert(f.status == FIT_POOR || f.status == FIT_NONPOSITIVE, "status %d", f.status);
	cr_assert(isnan(f.asymptote), "no misleading asymptote");
	series_set_free(&set);
	rows_free(&rows);
}

Test(analysis, fit_needs_three_depths)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	struct analysis_fit f;

	add(&rows, "x", "GET", 1, 1, 1000, NAN);
	add(&rows, "x", "GET", 2, 1, 1900, NAN);
	build(&rows, &set);
	analysis_fit(&set.v[0], &f);
	cr_assert_eq(f.status, FIT_TOO_FEW);
	cr_assert(isnan(f.asymptote) && isnan(f.r2));
	series_set_free(&set);
	rows_free(&rows);
}

Test(analysis, noisy_repeats_listed_as_unstable)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	struct analysis_series a;

	/* Depths 3 and 7 vary by +-20% (CV 0.2), the others by +-1%. */
	for (unsigned p = 1; p <= 10; p++) {
		double base = 1000.0 * p, amp = p == 3 || p == 7 ? 0.2 : 0.01;

		add(&rows, "m1", "GET", p, 1, base * (1 - amp), NAN);
		add(&rows, "m1", "GET", p, 2, base, NAN);
		add(&rows, "m1", "GET", p, 3, base * (1 + amp), NAN);
	}
	build(&rows, &set);
	analysis_series_compute(&set.v[0], NULL, 0.95, 0.10, 0, &a);
	cr_assert_eq(a.nunstable, 2);
	cr_assert_eq(a.unstable[0].depth, 3);
	cr_assert_eq(a.unstable[1].depth, 7);
	cr_assert_eq(a.unstable[0].n, 3);
	cr_assert_float_eq(a.unstable[0].cv, 0.2, 1e-9);
	cr_assert_float_eq(a.max_cv, 0.2, 1e-9);
	analysis_series_free(&a);
	/* A looser limit lists nothing. */
	analysis_series_compute(&set.v[0], NULL, 0.95, 0.25, 0, &a);
	cr_assert_eq(a.nunstable, 0);
	analysis_series_free(&a);
	series_set_free(&set);
	rows_free(&rows);
}

Test(analysis, busier_process_at_saturation_depth)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	struct analysis_series a;

	for (unsigned p = 1; p <= 8; p++) {
		struct rs_row r;

		fill(&r, "x", "GET", p, 1, 1000.0 * (p < 4 ? p : 4), NAN);
		r.seconds = 2;
		/* The server is busier at depth 4 (saturation); not at depth 1. */
		r.server_cpu_s = p >= 4 ? 1.9 : 0.4;
		r.client_cpu_s = 1.0;
		push(&rows, &r);
	}
	build(&rows, &set);
	analysis_series_compute(&set.v[0], NULL, 0.95, 0.10, 0, &a);
	cr_assert_eq(a.sat_depth, 4);
	cr_assert_eq(a.bound, BOUND_SERVER);
	cr_assert_float_eq(a.server_cpu, 0.95, 1e-9);
	cr_assert_float_eq(a.client_cpu, 0.5, 1e-9);
	analysis_series_free(&a);
	series_set_free(&set);
	rows_free(&rows);
}

/* Two labels, "b" exactly ratio[t] times "a" at every depth. */
static void two_labels(struct rs_rows *rows, struct series_set *rps, struct series_set *avg)
{
	/* In redis-benchmark's order, the order comparisons come in. */
	static const char *const tests[] = { "SET", "GET", "SPOP" };
	static const double ratio[] = { 2.0, 1.25, 3.0 };
	struct rs_err err = { 0 };

	for (int t = 0; t < 3; t++)
		for (unsigned p = 1; p <= 16; p++) {
			double r = model(p, 40e-6, 2e-6);

			add(rows, "a", tests[t], p, 1, r, 0.5 * p);
			add(rows, "b", tests[t], p, 1, r * ratio[t], 0.5 * p / ratio[t]);
		}
	cr_assert_eq(series_build(rows, SM_RPS, rps, &err), 0, "%s", err.msg);
	cr_assert_eq(series_build(rows, SM_AVG, avg, &err), 0, "%s", err.msg);
}

Test(analysis, comparison_with_known_ratios)
{
	struct rs_rows rows = { 0 };
	struct series_set rps, avg;
	struct analysis_result r;
	struct analysis_opts o = { 0.95, 0.10, NULL, 0, 0, 0 };
	struct rs_err err = { 0 };
	const struct analysis_cmp *c;

	two_labels(&rows, &rps, &avg);
	cr_assert_eq(analysis_run(&rps, &avg, &o, &r, &err), 0, "%s", err.msg);
	cr_assert_str_eq(r.baseline, "a");
	cr_assert_eq(r.ncmps, 3);
	c = &r.cmps[0];
	cr_assert_str_eq(r.series[c->other].rps->label, "b");
	cr_assert_str_eq(r.series[c->other].rps->test, "SET");
	cr_assert(c->at_1.valid);
	cr_assert_float_eq(c->at_1.ratio, 2.0, 1e-12);
	cr_assert_float_eq(c->at_1.d_pct, 100.0, 1e-9);
	cr_assert_float_eq(c->at_1.d_rps, c->at_1.base_rps, 1e-9);
	cr_assert_float_eq(c->at_1.d_avg, -0.25, 1e-12);
	cr_assert_eq(c->at_peak.depth, 16);
	cr_assert_eq(c->at_peak.base_depth, 16);
	cr_assert_float_eq(c->at_peak.ratio, 2.0, 1e-12);
	cr_assert_eq(c->ndepths, 16);
	cr_assert_float_eq(c->ratio_min, 2.0, 1e-12);
	cr_assert_float_eq(c->ratio_max, 2.0, 1e-12);
	/* Speed-up summary: sorted, largest first. */
	cr_assert_eq(r.nspeedup, 3);
	cr_assert_float_eq(r.speedup[0].ratio, 3.0, 1e-12);
	cr_assert_float_eq(r.speedup[1].ratio, 2.0, 1e-12);
	cr_assert_float_eq(r.speedup[2].ratio, 1.25, 1e-12);
	cr_assert_str_eq(r.series[r.cmps[r.speedup[0].cmp].other].rps->test, "SPOP");
	analysis_result_free(&r);

	/* The other way round, at one depth. */
	o.baseline = "b";
	o.depth = 4;
	cr_assert_eq(analysis_run(&rps, &avg, &o, &r, &err), 0, "%s", err.msg);
	cr_assert_str_eq(r.baseline, "b");
	cr_assert(r.cmps[0].at_depth.valid);
	cr_assert_eq(r.cmps[0].at_depth.depth, 4);
	cr_assert_float_eq(r.cmps[0].at_depth.ratio, 0.5, 1e-12);
	cr_assert_float_eq(r.cmps[0].at_depth.d_pct, -50, 1e-9);
	analysis_result_free(&r);
	series_set_free(&rps);
	series_set_free(&avg);
	rows_free(&rows);
}

Test(analysis, unknown_baseline_and_depth_are_errors)
{
	struct rs_rows rows = { 0 };
	struct series_set rps, avg;
	struct analysis_result r;
	struct analysis_opts o = { 0.95, 0.10, "c", 0, 0, 0 };
	struct rs_err err = { 0 };

	two_labels(&rows, &rps, &avg);
	cr_assert_eq(analysis_run(&rps, &avg, &o, &r, &err), -1);
	cr_assert(strstr(err.msg, "--baseline 'c' is not a label") != NULL, "%s", err.msg);
	cr_assert(strstr(err.msg, "a, b") != NULL, "%s", err.msg);
	o.baseline = NULL;
	o.depth = 17;
	cr_assert_eq(analysis_run(&rps, &avg, &o, &r, &err), -1);
	cr_assert(strstr(err.msg, "--depth 17") != NULL, "%s", err.msg);
	analysis_result_free(&r);
	series_set_free(&rps);
	series_set_free(&avg);
	rows_free(&rows);
}

/* A label list too long for the message ends in "...": no label is left
 * out without a mark, however the cut falls. */
Test(analysis, long_label_list_is_marked_cut)
{
	struct rs_rows rows = { 0 };
	struct series_set rps, avg;
	struct analysis_result r;
	struct analysis_opts o = { 0.95, 0.10, "nosuch", 0, 0, 0 };
	struct rs_err err = { 0 };
	struct rs_err e = { 0 };
	const char *tail;

	/* 30 labels of 10 characters: the 25th ends 298 bytes in. */
	for (unsigned l = 0; l < 30; l++) {
		char label[16];

		snprintf(label, sizeof label, "label-%04u", l);
		for (unsigned p = 1; p <= 4; p++)
			add(&rows, label, "GET", p, 1, 1000.0 * p, 0.5 * p);
	}
	cr_assert_eq(series_build(&rows, SM_RPS, &rps, &e), 0, "%s", e.msg);
	cr_assert_eq(series_build(&rows, SM_AVG, &avg, &e), 0, "%s", e.msg);
	cr_assert_eq(analysis_run(&rps, &avg, &o, &r, &err), -1);
	cr_assert(strstr(err.msg, "label-0000, label-0001") != NULL, "%s", err.msg);
	cr_assert(strstr(err.msg, "label-0029") == NULL, "%s", err.msg);
	tail = err.msg + strlen(err.msg) - 4;
	cr_assert_str_eq(tail, "...)", "%s", err.msg);
	analysis_result_free(&r);
	series_set_free(&rps);
	series_set_free(&avg);
	rows_free(&rows);
}

Test(analysis, single_depth_series)
{
	struct rs_rows rows = { 0 };
	struct series_set rps;
	struct analysis_result r;
	struct analysis_opts o = { 0.95, 0.10, NULL, 0, 0, 0 };
	struct rs_err err = { 0 };

	add(&rows, "apt", "GET", 1, 1, 100000, NAN);
	add(&rows, "snap", "GET", 1, 1, 121340, NAN);
	build(&rows, &rps);
	cr_assert_eq(analysis_run(&rps, NULL, &o, &r, &err), 0, "%s", err.msg);
	cr_assert_eq(r.nsingle, 2);
	cr_assert_eq(r.series[0].sat_depth, 0);
	cr_assert_eq(r.series[0].fit.status, FIT_TOO_FEW);
	cr_assert_eq(r.ncmps, 1);
	cr_assert_float_eq(r.cmps[0].at_peak.d_rps, 21340, 1e-9);
	cr_assert(isnan(r.cmps[0].at_peak.d_avg), "no latency in the data");
	analysis_result_free(&r);
	series_set_free(&rps);
	rows_free(&rows);
}

/* ---- the interval core wired in ---- */

/* Noise of about 8%, the same on every run (a fixed stream). */
static double noise(struct stats_rng *g)
{
	return exp(0.08 * stats_rng_normal(g));
}

static void analyse_rows(const struct rs_rows *rows, struct series_set *rps,
			 struct analysis_result *r)
{
	struct analysis_opts o = { 0.95, 0.10, "a", 0, 0, 0 };
	struct rs_err err = { 0 };

	cr_assert_eq(series_build(rows, SM_RPS, rps, &err), 0, "%s", err.msg);
	cr_assert_eq(analysis_run(rps, NULL, &o, r, &err), 0, "%s", err.msg);
}

Test(analysis, model_curve_saturates_where_known)
{
	struct rs_rows rows = { 0 };
	struct series_set rps;
	struct analysis_result r;
	const struct analysis_series *a;

	/* 1e6 P / (3 + P) to P=60: 95% of the value at 60 (952381) is first
	 * reached at P = 28.5, so the depth 29; it gains 4.8% over the last
	 * doubling, below the 5% that would be still rising. */
	for (unsigned p = 1; p <= 60; p++)
		add(&rows, "a", "GET", p, 1, 1e6 * p / (3.0 + p), NAN);
	analyse_rows(&rows, &rps, &r);
	a = &r.series[0];
	cr_assert(a->knee.ok);
	cr_assert_eq(a->sat_depth, 29);
	cr_assert(a->sat_lo <= 29 && a->sat_hi >= 29, "%g..%g", a->sat_lo, a->sat_hi);
	cr_assert_eq(a->saturated, KNEE_SAT_YES);
	cr_assert_eq(a->fit.status, FIT_OK);
	cr_assert_float_eq(a->fit.asymptote, 1e6, 1);
	cr_assert(a->fit.asymptote_lo <= 1e6 + 1 && a->fit.asymptote_hi >= 1e6 - 1);
	analysis_result_free(&r);
	series_set_free(&rps);
	rows_free(&rows);
}

Test(analysis, straight_line_is_not_saturated)
{
	struct rs_rows rows = { 0 };
	struct series_set rps;
	struct analysis_result r;
	const struct analysis_series *a;

	for (unsigned p = 1; p <= 40; p++)
		add(&rows, "a", "GET", p, 1, 10000.0 * p, NAN);
	analyse_rows(&rows, &rps, &r);
	a = &r.series[0];
	cr_assert_eq(a->saturated, KNEE_SAT_NO);
	cr_assert(isnan(a->sat_hi), "beyond P_max");
	analysis_result_free(&r);
	series_set_free(&rps);
	rows_free(&rows);
}

Test(analysis, falling_curve_keeps_the_observed_peak)
{
	struct rs_rows rows = { 0 };
	struct series_set rps;
	struct analysis_result r;
	const struct analysis_series *a;

	/* Up to 100k at P=10, then down 40% by P=40. */
	for (unsigned p = 1; p <= 40; p++)
		add(&rows, "a", "GET", p, 1, p <= 10 ? 10000.0 * p : 100000 * (1 - 0.4 * (p - 10) / 30.0),
		    NAN);
	analyse_rows(&rows, &rps, &r);
	a = &r.series[0];
	cr_assert_eq(a->fit.status, FIT_FALLS);
	cr_assert(isnan(a->fit.asymptote));
	cr_assert_float_eq(a->top_rps, 100000, 1e-9);
	cr_assert_eq(a->top_depth, 10);
	analysis_result_free(&r);
	series_set_free(&rps);
	rows_free(&rows);
}

/* b against a: the same noisy data (same), or 1.5 times it (faster). */
struct cmp_case {
	double factor;
	enum knee_verdict want;
};

ParameterizedTestParameters(analysis, verdicts_of_known_ratios)
{
	static struct cmp_case c[] = { { 1.0, KNEE_SAME }, { 1.5, KNEE_FASTER }, { 0.6, KNEE_SLOWER } };

	return cr_make_param_array(struct cmp_case, c, sizeof c / sizeof c[0]);
}

ParameterizedTest(struct cmp_case *c, analysis, verdicts_of_known_ratios)
{
	struct rs_rows rows = { 0 };
	struct series_set rps;
	struct analysis_result r;
	struct stats_rng g;
	const struct analysis_cmp *k;

	stats_rng_seed(&g, 7);
	for (unsigned p = 1; p <= 40; p++) {
		double v = 1e6 * p / (4.0 + p) * noise(&g);

		add(&rows, "a", "GET", p, 1, v, NAN);
		add(&rows, "b", "GET", p, 1, v * c->factor, NAN);
	}
	analyse_rows(&rows, &rps, &r);
	cr_assert_eq(r.ncmps, 1);
	k = &r.cmps[0];
	if (c->want == KNEE_SAME) {
		/* One server against itself: no finding either way, whether the
		 * interval is narrow enough for "same" or not. */
		cr_assert(k->at_1.verdict == KNEE_SAME || k->at_1.verdict == KNEE_CANNOT_TELL,
			  "at 1: %s", knee_verdict_name(k->at_1.verdict));
		cr_assert(k->at_peak.verdict == KNEE_SAME || k->at_peak.verdict == KNEE_CANNOT_TELL,
			  "at peak: %s", knee_verdict_name(k->at_peak.verdict));
	} else {
		cr_assert_eq(k->at_1.verdict, c->want, "at 1: %s", knee_verdict_name(k->at_1.verdict));
		cr_assert_eq(k->at_peak.verdict, c->want, "at peak: %s",
			     knee_verdict_name(k->at_peak.verdict));
	}
	cr_assert(k->at_peak.ci.lo <= k->at_peak.ci.est && k->at_peak.ci.est <= k->at_peak.ci.hi);
	if (c->want == KNEE_SAME) {
		cr_assert(k->at_peak.ci.lo <= 1 && k->at_peak.ci.hi >= 1);
		cr_assert(k->at_1.ci.lo <= 1 && k->at_1.ci.hi >= 1);
	} else if (c->want == KNEE_FASTER) {
		cr_assert(k->at_peak.ci.lo > 1 && k->at_1.ci.lo > 1, "interval excludes 1");
	} else {
		cr_assert(k->at_peak.ci.hi < 1 && k->at_1.ci.hi < 1, "interval excludes 1");
	}
	analysis_result_free(&r);
	series_set_free(&rps);
	rows_free(&rows);
}

/* One rounding rule for a ratio, for the report and the charts: two
 * decimals below 10x, one below 100x, none above, decided on the printed
 * value. */
Test(analysis, ratio_format_one_rule)
{
	static const struct { double r; const char *want; } cases[] = {
		{ 1.18, "1.18" }, { 1.15, "1.15" }, { 0.994, "0.99" }, { 9.994, "9.99" },
		{ 9.996, "10.0" }, { 12.345, "12.3" }, { 99.94, "99.9" }, { 99.96, "100" },
		{ 250.4, "250" }, { NAN, "-" }, { INFINITY, "-" },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		cr_assert_str_eq(analysis_fmt_ratio(buf, sizeof buf, cases[i].r), cases[i].want,
				 "ratio %g", cases[i].r);
	/* A short buffer is cut, never overrun. */
	cr_assert_str_eq(analysis_fmt_ratio(buf, 3, 1.18), "1.");
}

/* Issue 32: a comparison whose sides do not both have an average latency
 * compares their p50 (label b's rows, a -q import, have no average; a's
 * have both), and says so; with both averages it stays the average. */
Test(analysis, p50_where_a_side_has_no_average)
{
	struct rs_rows rows = { 0 };
	struct series_set rps, avg, p50;
	struct analysis_result r;
	struct analysis_opts o = { 0.95, 0.10, "a", 0, 0, 0 };
	struct rs_err err = { 0 };
	struct rs_row row;

	for (unsigned k = 1; k <= 3; k++) {
		fill(&row, "a", "GET", 1, k, 100000 + 100 * k, 0.30);
		row.p50_ms = 0.20 + 0.01 * k;
		push(&rows, &row);
		fill(&row, "b", "GET", 1, k, 120000 + 100 * k, NAN);
		row.p50_ms = 0.10 + 0.01 * k;
		push(&rows, &row);
		fill(&row, "a", "SET", 1, k, 90000 + 100 * k, 0.40);
		push(&rows, &row);
		fill(&row, "b", "SET", 1, k, 90000 + 100 * k, 0.30 + 0.01 * k);
		push(&rows, &row);
	}
	build(&rows, &rps);
	cr_assert_eq(series_build_known(&rows, SM_AVG, &avg, &err), 0, "%s", err.msg);
	cr_assert_eq(series_build_known(&rows, SM_P50, &p50, &err), 0, "%s", err.msg);
	cr_assert_eq(analysis_run_lat(&rps, &avg, &p50, &o, &r, &err), 0, "%s", err.msg);
	cr_assert_eq(r.ncmps, 2);
	for (size_t i = 0; i < r.ncmps; i++) {
		const struct analysis_delta *d = &r.cmps[i].at_1;

		if (strcmp(r.series[r.cmps[i].other].rps->test, "GET") == 0) {
			cr_assert_eq(d->lat_metric, SM_P50);
			cr_assert_float_eq(d->d_avg, -0.10, 1e-9);
			cr_assert(isfinite(d->avg_ci.lo), "the paired repeats give an interval");
			cr_assert_eq(d->avg_verdict, KNEE_SLOWER, "a lower latency");
		} else {
			cr_assert_eq(d->lat_metric, SM_AVG);
			cr_assert_float_eq(d->d_avg, -0.08, 1e-9);
		}
	}
	analysis_result_free(&r);
	series_set_free(&rps);
	series_set_free(&avg);
	series_set_free(&p50);
	rows_free(&rows);
}

/* analysis_run_some (plot --tests of a file of thousands of series, issue
 * 40) the marked series are analysed exactly as with every series, the
 * others keep only their rps, and no comparison takes them. */
Test(analysis, only_the_marked_series_the_same_figures)
{
	struct rs_rows rows = { 0 };
	struct series_set rps, avg;
	struct analysis_result all, some;
	struct analysis_opts o = { 0.95, 0.10, NULL, 0, 0, 0 };
	struct rs_err err = { 0 };
	unsigned char *only;

	two_labels(&rows, &rps, &avg);
	cr_assert_eq(analysis_run(&rps, NULL, &o, &all, &err), 0, "%s", err.msg);
	only = calloc(rps.n, 1);
	/* One test of each label: one comparison left. */
	for (size_t i = 0; i < rps.n; i++)
		only[i] = strcmp(rps.v[i].test, "SET") == 0;
	cr_assert_eq(analysis_run_some(&rps, &o, only, &some, &err), 0, "%s", err.msg);
	cr_assert_eq(some.nseries, all.nseries);
	for (size_t i = 0; i < rps.n; i++) {
		const struct analysis_series *a = &all.series[i], *b = &some.series[i];

		cr_assert_eq(b->rps, &rps.v[i]);
		if (!only[i]) {
			cr_assert(!b->knee.ok, "series %zu was analysed", i);
			continue;
		}
		cr_assert(b->knee.ok);
		cr_assert(memcmp(&a->peak_rps, &b->peak_rps, sizeof a->peak_rps) == 0);
		cr_assert(memcmp(&a->peak_lo, &b->peak_lo, sizeof a->peak_lo) == 0);
		cr_assert(memcmp(&a->peak_hi, &b->peak_hi, sizeof a->peak_hi) == 0);
		cr_assert(memcmp(&a->sat_lo, &b->sat_lo, sizeof a->sat_lo) == 0);
		cr_assert(memcmp(&a->sat_hi, &b->sat_hi, sizeof a->sat_hi) == 0);
	}
	cr_assert_eq(some.ncmps, 1);
	cr_assert_str_eq(some.series[some.cmps[0].other].rps->test, "SET");
	analysis_result_free(&all);
	analysis_result_free(&some);
	free(only);
	series_set_free(&rps);
	series_set_free(&avg);
	rows_free(&rows);
}
