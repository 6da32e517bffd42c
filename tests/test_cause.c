/* test_cause.c: naming the likely cause of an unstable point, from noise
 * figures with known answers. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>

#include "analysis/cause.h"

/* A point whose every noise figure is known and quiet. */
static struct series_point quiet(void)
{
	struct series_point p = { .depth = 8, .n = 3, .client_cpu = 0.3 };

	p.noise = (struct series_noise){ .steal_pct = 0, .other_cpus = 0.05, .nivcsw_rate = 3,
					 .drift_pct = 2, .server_ns = 1000, .server_ns_max = 1050 };
	return p;
}

static enum cause_kind kind_of(const struct series_point *p, long threads, double *figure)
{
	struct cause c;

	cause_of(p, threads, &c);
	if (figure)
		*figure = c.figure;
	return c.kind;
}

Test(cause, quiet_figures_name_no_cause)
{
	struct series_point p = quiet();

	cr_assert_eq(kind_of(&p, 1, NULL), CAUSE_NONE);
}

Test(cause, nothing_recorded_is_unknown_not_none)
{
	struct series_point p = { .depth = 8, .n = 3, .client_cpu = NAN };

	p.noise = (struct series_noise){ NAN, NAN, NAN, NAN, NAN, NAN };
	cr_assert_eq(kind_of(&p, -1, NULL), CAUSE_UNKNOWN);
}

Test(cause, each_figure_past_its_threshold_names_its_cause)
{
	struct series_point p;
	double f;

	p = quiet();
	p.noise.steal_pct = 9;
	cr_assert_eq(kind_of(&p, 1, &f), CAUSE_STEAL);
	cr_assert_float_eq(f, 9, 1e-12);
	p = quiet();
	p.noise.other_cpus = 1.3;
	cr_assert_eq(kind_of(&p, 1, &f), CAUSE_OTHER_LOAD);
	cr_assert_float_eq(f, 1.3, 1e-12);
	p = quiet();
	p.noise.nivcsw_rate = 400;
	cr_assert_eq(kind_of(&p, 1, NULL), CAUSE_PREEMPTED);
	p = quiet();
	p.client_cpu = 0.95;
	cr_assert_eq(kind_of(&p, 1, NULL), CAUSE_CLIENT_BOUND);
	cr_assert_eq(kind_of(&p, 2, NULL), CAUSE_NONE, "0.95 CPU over two threads is not bound");
	p = quiet();
	p.noise.server_ns_max = 1400;
	cr_assert_eq(kind_of(&p, 1, &f), CAUSE_SERVER_CPU);
	cr_assert_float_eq(f, 40, 1e-9);
	p = quiet();
	p.noise.drift_pct = 30;
	cr_assert_eq(kind_of(&p, 1, NULL), CAUSE_DRIFT);
}

Test(cause, the_figure_furthest_past_its_threshold_wins)
{
	struct series_point p = quiet();

	p.noise.steal_pct = 3;    /* 1.5 times its threshold */
	p.noise.other_cpus = 1.0; /* 4 times */
	cr_assert_eq(kind_of(&p, 1, NULL), CAUSE_OTHER_LOAD);
	p.noise.steal_pct = 12;   /* 6 times */
	cr_assert_eq(kind_of(&p, 1, NULL), CAUSE_STEAL);
}

/* The man page's io-threads example on two cores (issue 44): the server
 * used 1.8 CPUs a second, and the CPUs counted busy beyond rsweep's are
 * its threads', not other processes'. */
Test(cause, a_server_past_one_cpu_takes_the_busy_cpus_for_its_own)
{
	struct series_point p = quiet();
	struct cause c;
	char buf[160];

	p.server_cpu = 1.8;
	p.noise.other_cpus = 1.0;
	cause_of(&p, 1, &c);
	cr_assert_eq(c.kind, CAUSE_SERVER_THREADS);
	cr_assert_float_eq(c.figure, 1.8, 1e-12);
	cause_format(&c, buf, sizeof buf);
	cr_assert_str_eq(buf, "the server's own threads kept 1.8 CPUs busy (io-threads spin: fewer "
			 "of them, or more cores)");
	cr_assert_str_eq(cause_name(c.kind), "server-threads");
	/* One CPU is a single-threaded server at work: other load stays theirs. */
	p.server_cpu = 0.98;
	cr_assert_eq(kind_of(&p, 1, NULL), CAUSE_OTHER_LOAD);
	/* The host's steal still comes first when it is further past. */
	p.server_cpu = 1.3;
	p.noise.steal_pct = 20;
	cr_assert_eq(kind_of(&p, 1, NULL), CAUSE_STEAL);
}

Test(cause, a_symptom_is_named_only_without_a_cause)
{
	struct series_point p = quiet();

	p.noise.drift_pct = 90;
	p.noise.other_cpus = 0.5;
	cr_assert_eq(kind_of(&p, 1, NULL), CAUSE_OTHER_LOAD,
		     "the drift is what the other load did");
}

Test(cause, words_for_a_person_and_a_file)
{
	struct cause c = { CAUSE_STEAL, 9.2 };
	char buf[160];

	cause_format(&c, buf, sizeof buf);
	cr_assert_str_eq(buf, "the host took 9% of the CPU");
	c = (struct cause){ CAUSE_SERVER_CPU, 40 };
	cause_format(&c, buf, sizeof buf);
	cr_assert_str_eq(buf, "server CPU per request 40% above the point's median in one repeat");
	cr_assert_str_eq(cause_name(CAUSE_OTHER_LOAD), "other-load");
	cr_assert_str_eq(cause_name(CAUSE_UNKNOWN), "unknown");
}
