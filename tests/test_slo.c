/* test_slo.c: run --slo's objective (spelling, verdicts) and its search
 * (climb, bisect, try again where unsure) against model servers whose
 * answer is known. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats/stats.h"
#include "sweep/slo.h"

Test(slo, parses_the_spelling)
{
	struct slo_objective o;
	struct rs_err err;

	cr_assert_eq(slo_parse("p99=1ms", &o, &err), 0, "%s", err.msg);
	cr_assert_eq(o.n, 1);
	cr_assert_float_eq(o.q[0], 99, 1e-9);
	cr_assert_float_eq(o.budget_ms[0], 1, 1e-12);
	cr_assert_str_eq(o.text, "p99=1ms");
	cr_assert_eq(slo_parse("p99=250us,p999=5ms,p9999=2s,p50=0.5ms", &o, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(o.n, 4);
	cr_assert_float_eq(o.budget_ms[0], 0.25, 1e-12);
	cr_assert_float_eq(o.q[1], 99.9, 1e-9);
	cr_assert_float_eq(o.q[2], 99.99, 1e-9);
	cr_assert_float_eq(o.budget_ms[2], 2000, 1e-9);
	cr_assert_float_eq(o.q[3], 50, 1e-9);
	/* p99.9 needs 5,000 x 10 requests for its tail of 50. */
	cr_assert_eq(slo_parse("p99=1ms,p999=5ms", &o, &err), 0);
	cr_assert_float_eq(slo_requests_needed(&o), 50000, 1);
}

Test(slo, refuses_bad_spellings)
{
	static const char *const bad[] = {
		"", "p99", "p99=", "=1ms", "p99=1", "p99=1xs", "p99=0ms", "p99=-1ms", "p100=1ms",
		"p40=1ms", "p9=1ms", "p99.9=1ms", "q99=1ms", "p99=1ms,", "p99=1ms,p99=2ms",
		"p99=nanms", "p99=1e9s", "p99=1ms;p999=2ms", "p99999=1ms",
		"p50=1ms,p90=1ms,p95=1ms,p99=1ms,p999=1ms",
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct slo_objective o;
		struct rs_err err;

		err.msg[0] = '\0';
		cr_assert_eq(slo_parse(bad[i], &o, &err), -1, "'%s' was taken", bad[i]);
		cr_assert_eq(err.kind, RS_E_USAGE, "'%s'", bad[i]);
		cr_assert(strncmp(err.msg, "--slo: ", 7) == 0, "'%s': %s", bad[i], err.msg);
		cr_assert_null(strchr(err.msg, '\n'), "'%s': %s", bad[i], err.msg);
	}
}

/* n values of ms each into h. */
static void fill(struct hist *h, double ms, uint64_t n)
{
	hist_record_n(h, (uint64_t)(ms * 1e6), n);
}

Test(slo, judges_a_probe_with_its_interval)
{
	struct slo_objective o;
	struct slo_judged j;
	struct rs_err err;
	struct hist h;

	cr_assert_eq(slo_parse("p99=1ms", &o, &err), 0);
	/* Everything well under: met. */
	hist_init(&h);
	fill(&h, 0.5, 10000);
	slo_judge(&o, &h, NAN, 0, &j);
	cr_assert_eq(j.verdict, ROW_SLO_MET);
	cr_assert(j.lo_ms <= j.ms && j.ms <= j.hi_ms);
	/* Everything over: missed. */
	hist_init(&h);
	fill(&h, 2, 10000);
	slo_judge(&o, &h, NAN, 0, &j);
	cr_assert_eq(j.verdict, ROW_SLO_MISSED);
	/* Exactly 1% slow: the p99 is fast, its interval reaches the slow
	 * ones: unsure. */
	hist_init(&h);
	fill(&h, 0.5, 9900);
	fill(&h, 10, 100);
	slo_judge(&o, &h, NAN, 0, &j);
	cr_assert_eq(j.verdict, ROW_SLO_UNSURE);
	cr_assert(j.ms < 1 && j.hi_ms > 1, "p99 %g ms, interval to %g", j.ms, j.hi_ms);
	/* 0.2% slow: the interval clears the budget. */
	hist_init(&h);
	fill(&h, 0.5, 9980);
	fill(&h, 10, 20);
	slo_judge(&o, &h, NAN, 0, &j);
	cr_assert_eq(j.verdict, ROW_SLO_MET);
	/* A miss whose generator slipped over 10% of the budget is the
	 * generator's; a met probe stays met, slip and all; a slip under
	 * 10% leaves the miss the server's. */
	hist_init(&h);
	fill(&h, 2, 10000);
	slo_judge(&o, &h, 0.2, 0, &j);
	cr_assert_eq(j.verdict, ROW_SLO_GENERATOR);
	slo_judge(&o, &h, 0.05, 0, &j);
	cr_assert_eq(j.verdict, ROW_SLO_MISSED);
	hist_init(&h);
	fill(&h, 0.5, 10000);
	slo_judge(&o, &h, 0.2, 0, &j);
	cr_assert_eq(j.verdict, ROW_SLO_MET);
	/* Short of its rate: missed, whatever the latency of what was sent. */
	slo_judge(&o, &h, NAN, 1, &j);
	cr_assert_eq(j.verdict, ROW_SLO_MISSED);
	/* Nothing answered: missed. */
	hist_init(&h);
	slo_judge(&o, &h, NAN, 0, &j);
	cr_assert_eq(j.verdict, ROW_SLO_MISSED);
	/* Two percentiles: the row's is the one nearest its budget. */
	cr_assert_eq(slo_parse("p99=1ms,p999=5ms", &o, &err), 0);
	hist_init(&h);
	fill(&h, 0.1, 99000);
	fill(&h, 0.9, 900);
	fill(&h, 4.9, 100);
	slo_judge(&o, &h, NAN, 0, &j);
	cr_assert_eq(j.which, 1, "p99 %g", j.ms);
}

/* A model server of capacity cap (req/s) and service time svc (ms): at
 * rate r, latencies are exponential with mean svc / (1 - r / cap) (an
 * M/M/1 queue's response time); past cap it falls short.  Its p99 is
 * ln(100) times the mean, so the highest rate with p99 <= budget is
 * cap (1 - ln(100) svc / budget). */
struct model {
	double cap, svc;
	struct stats_rng rng;
};

static enum row_slo_verdict model_probe(struct model *m, const struct slo_objective *o,
					double rate)
{
	uint64_t n = (uint64_t)slo_requests_needed(o) * 4;
	struct slo_judged j;
	struct hist h;

	hist_init(&h);
	if (rate < m->cap) {
		double mean = m->svc / (1 - rate / m->cap);

		for (uint64_t i = 0; i < n; i++) {
			double u = (stats_rng_uniform(&m->rng) + 1e-12);

			hist_record_n(&h, (uint64_t)(-log(u) * mean * 1e6), 1);
		}
	}
	slo_judge(o, &h, NAN, rate >= m->cap, &j);
	return j.verdict;
}

/* Run a search to its end against m; returns the probes it took. */
static unsigned search(struct slo_search *s, struct model *m, const struct slo_objective *o)
{
	unsigned n = 0, repeat;
	uint64_t rate;

	slo_search_start(s, m->cap);
	while ((rate = slo_search_next(s, &repeat)) > 0) {
		slo_search_record(s, (double)rate, model_probe(m, o, (double)rate));
		n++;
		cr_assert(n <= s->max_probes, "past the cap");
	}
	return n;
}

Test(slo, search_finds_a_model_servers_answer)
{
	static const double budgets[] = { 0.5, 1, 2, 5 };
	struct slo_objective o;
	struct rs_err err;

	for (size_t b = 0; b < sizeof budgets / sizeof budgets[0]; b++)
		for (uint64_t seed = 1; seed <= 5; seed++) {
			struct model m = { 100000, 0.05, { { 0 } } };
			char spec[32];
			struct slo_search s;
			double want;
			unsigned n;

			stats_rng_seed(&m.rng, seed);
			snprintf(spec, sizeof spec, "p99=%gms", budgets[b]);
			cr_assert_eq(slo_parse(spec, &o, &err), 0);
			want = m.cap * (1 - log(100) * m.svc / budgets[b]);
			slo_search_init(&s, 20);
			n = search(&s, &m, &o);
			cr_assert_eq(s.end, SLO_PRECISE, "%s seed %llu: ended %d after %u", spec,
				     (unsigned long long)seed, s.end, n);
			/* The bracket holds the answer, and is within 5%; the rate
			 * that met is within 10% of it. */
			cr_assert(s.met <= want * 1.02 && s.missed >= want * 0.98,
				  "%s: [%g, %g] does not hold %g", spec, s.met, s.missed, want);
			cr_assert(s.missed - s.met <= SLO_PRECISION * s.met + 1);
			cr_assert(fabs(s.met - want) <= 0.10 * want, "%s: %g vs %g", spec, s.met, want);
		}
}

/* A search fed verdicts by a rule: met up to limit, unsure at unsure. */
static enum row_slo_verdict rule(double rate, double limit, double unsure)
{
	if (rate == unsure)
		return ROW_SLO_UNSURE;
	return rate <= limit ? ROW_SLO_MET : ROW_SLO_MISSED;
}

Test(slo, climbs_then_bisects)
{
	struct slo_search s;
	unsigned repeat;

	slo_search_init(&s, 30);
	cr_assert_eq(slo_search_next(&s, &repeat), 0, "no start, no probe");
	slo_search_init(&s, 30);
	slo_search_start(&s, 800);
	slo_search_start(&s, 1000);  /* the higher of two starts */
	cr_assert_eq(slo_search_next(&s, &repeat), 500);
	cr_assert_eq(repeat, 1);
	slo_search_record(&s, 500, rule(500, 3000, -1));
	cr_assert_eq(slo_search_next(&s, &repeat), 1000);
	slo_search_record(&s, 1000, rule(1000, 3000, -1));
	cr_assert_eq(slo_search_next(&s, &repeat), 2000);
	slo_search_record(&s, 2000, rule(2000, 3000, -1));
	cr_assert_eq(slo_search_next(&s, &repeat), 4000);
	slo_search_record(&s, 4000, rule(4000, 3000, -1));
	/* Bisect [2000, 4000]. */
	cr_assert_eq(slo_search_next(&s, &repeat), 3000);
	while (s.end == SLO_GOING) {
		uint64_t r = slo_search_next(&s, &repeat);

		cr_assert(r > s.met && r < s.missed);
		slo_search_record(&s, (double)r, rule((double)r, 3000, -1));
	}
	cr_assert_eq(s.end, SLO_PRECISE);
	cr_assert(s.met <= 3000 && s.missed > 3000);
	cr_assert(s.missed - s.met <= 0.05 * s.met);
}

Test(slo, descends_when_the_start_misses)
{
	struct slo_search s;
	unsigned repeat;
	uint64_t r;

	slo_search_init(&s, 30);
	slo_search_start(&s, 100000);
	while ((r = slo_search_next(&s, &repeat)) > 0)
		slo_search_record(&s, (double)r, rule((double)r, 7000, -1));
	cr_assert_eq(s.end, SLO_PRECISE);
	cr_assert(s.met <= 7000 && s.missed > 7000, "[%g, %g]", s.met, s.missed);
	/* Nothing meets it: down to the floor, then done. */
	slo_search_init(&s, 100);
	slo_search_start(&s, 1000);
	while ((r = slo_search_next(&s, &repeat)) > 0)
		slo_search_record(&s, (double)r, ROW_SLO_MISSED);
	cr_assert_eq(s.end, SLO_NONE_MET);
	cr_assert_eq(s.met, 0);
}

Test(slo, repeats_where_unsure_then_counts_it_missed)
{
	struct slo_search s;
	unsigned repeat;

	slo_search_init(&s, 30);
	slo_search_start(&s, 1000);
	cr_assert_eq(slo_search_next(&s, &repeat), 500);
	slo_search_record(&s, 500, ROW_SLO_MET);
	cr_assert_eq(slo_search_next(&s, &repeat), 1000);
	for (unsigned k = 1; k < SLO_TRIES; k++) {
		slo_search_record(&s, 1000, ROW_SLO_UNSURE);
		cr_assert_eq(slo_search_next(&s, &repeat), 1000, "try %u again", k + 1);
		cr_assert_eq(repeat, k + 1);
	}
	/* Unsure once more: not shown to meet, so missed: bisect below. */
	slo_search_record(&s, 1000, ROW_SLO_UNSURE);
	cr_assert_eq(s.missed, 1000);
	cr_assert_eq(slo_search_next(&s, &repeat), 750);
	cr_assert_eq(repeat, 1);
	/* An unsure probe that settles: met. */
	slo_search_record(&s, 750, ROW_SLO_UNSURE);
	cr_assert_eq(slo_search_next(&s, &repeat), 750);
	slo_search_record(&s, 750, ROW_SLO_MET);
	cr_assert_eq(s.met, 750);
	cr_assert_eq(slo_search_next(&s, &repeat), 875);
}

Test(slo, ends_on_the_generator_and_on_the_cap)
{
	struct slo_search s;
	unsigned repeat;
	uint64_t r;
	unsigned n = 0;

	slo_search_init(&s, 30);
	slo_search_start(&s, 1000);
	slo_search_record(&s, 500, ROW_SLO_MET);
	slo_search_record(&s, 1000, ROW_SLO_GENERATOR);
	cr_assert_eq(s.end, SLO_GENERATOR);
	cr_assert_eq(slo_search_next(&s, &repeat), 0);
	cr_assert_eq(s.met, 500, "what met before stands");
	slo_search_init(&s, 3);
	slo_search_start(&s, 1000);
	while ((r = slo_search_next(&s, &repeat)) > 0) {
		slo_search_record(&s, (double)r, rule((double)r, 3000, (double)r));
		n++;
	}
	cr_assert_eq(n, 3);
	cr_assert_eq(s.end, SLO_CAPPED);
}
