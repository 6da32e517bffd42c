/* test_host.c: steal time and drift, from samples with known answers. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <unistd.h>

#include "os/host.h"

Test(host, drift_is_the_spread_of_the_slices_over_their_mean)
{
	cr_assert_float_eq(host_drift_pct((double[]){ 100, 100, 100, 100 }, 4), 0, 1e-12);
	/* (120 - 80) / 100 */
	cr_assert_float_eq(host_drift_pct((double[]){ 80, 100, 120, 100 }, 4), 40, 1e-9);
	cr_assert(isnan(host_drift_pct((double[]){ 80, NAN, 120, 100 }, 4)));
	cr_assert(isnan(host_drift_pct((double[]){ 80, 0, 120, 100 }, 4)));
	cr_assert(isnan(host_drift_pct((double[]){ 80 }, 1)));
}

Test(host, steal_is_the_share_of_the_ticks_between_two_samples)
{
	struct host_sample a = { .steal = 10, .total = 1000, .have_ticks = 1 };
	struct host_sample b = { .steal = 19, .total = 1100, .have_ticks = 1 };
	struct host_sample none = { .have_ticks = 0 };

	cr_assert_float_eq(host_steal_pct(&a, &b), 9, 1e-9);
	cr_assert(isnan(host_steal_pct(&a, &a)), "no tick between them is unknown, not 0");
	cr_assert(isnan(host_steal_pct(&b, &a)), "counters going back are unknown");
	cr_assert(isnan(host_steal_pct(&none, &b)));
}

Test(host, a_sample_of_this_process_reads)
{
	struct host_sample a, b;
	volatile double x = 0;

	host_sample(&a);
	for (int i = 0; i < 2000000; i++)
		x += i;
	host_sample(&b);
	cr_assert_geq(b.cpu_s, a.cpu_s);
	cr_assert_geq(a.nivcsw, 0);
	cr_assert_geq(b.nivcsw, a.nivcsw);
#ifdef __linux__
	cr_assert(a.have_ticks && b.have_ticks, "/proc/stat is read on Linux");
	cr_assert_geq(b.total, a.total);
#endif
}

Test(host, other_cpus_is_the_busy_share_less_rsweep_and_a_local_server)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	/* Over 2 s, half the ticks busy: ncpu / 2 CPUs.  rsweep used 0.2 s
	 * (0.1 CPU) and the server 0.6 s (0.3 CPU). */
	struct host_sample a = { .cpu_s = 1.0, .busy = 1000, .total = 100000, .have_ticks = 1,
				 .wall_s = 10 };
	struct host_sample b = { .cpu_s = 1.2, .busy = 51000, .total = 200000, .have_ticks = 1,
				 .wall_s = 12 };
	struct host_sample short_b = b;

	cr_assert_float_eq(host_other_cpus(&a, &b, 0.6, 1), ncpu / 2.0 - 0.1 - 0.3, 1e-9);
	cr_assert_float_eq(host_other_cpus(&a, &b, 0.6, 0), ncpu / 2.0 - 0.1, 1e-9,
			   "a remote server's CPU is not this machine's");
	cr_assert(isnan(host_other_cpus(&a, &b, NAN, 1)), "a local server's CPU unknown");
	cr_assert_float_eq(host_other_cpus(&a, &b, NAN, 0), ncpu / 2.0 - 0.1, 1e-9);
	cr_assert(isnan(host_other_cpus(&a, &a, 0, 0)), "no tick between them");
	short_b.total = a.total + 4 * (uint64_t)ncpu * (uint64_t)ncpu - 1;
	short_b.busy = a.busy + 1;
	cr_assert(isnan(host_other_cpus(&a, &short_b, 0, 0)), "too few ticks to tell");
	b.busy = 1000;
	cr_assert_eq(host_other_cpus(&a, &b, 0.6, 1), 0, "rounded-down ticks are no load");
}
