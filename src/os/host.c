/* host.c: rsweep's own CPU and preemption, and the host's steal time. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "os/host.h"
#include "base/platform.h"

static double host_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void host_sample(struct host_sample *s)
{
	memset(s, 0, sizeof *s);
	if (platform_rusage(&s->cpu_s, &s->nivcsw) < 0) {
		s->cpu_s = NAN;
		s->nivcsw = -1;
	}
	s->have_ticks = platform_cpu_ticks(&s->steal, &s->busy, &s->total) == 0;
	s->wall_s = host_now();
}

double host_steal_pct(const struct host_sample *a, const struct host_sample *b)
{
	if (!a->have_ticks || !b->have_ticks || b->total <= a->total || b->steal < a->steal)
		return NAN;
	return 100.0 * (double)(b->steal - a->steal) / (double)(b->total - a->total);
}

double host_other_cpus(const struct host_sample *a, const struct host_sample *b,
		       double server_cpu_s, int server_local)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double wall = b->wall_s - a->wall_s, busy, other;

	if (!a->have_ticks || !b->have_ticks || b->total <= a->total || b->busy < a->busy ||
	    ncpu < 1 || !(wall > 0) || !isfinite(a->cpu_s) || !isfinite(b->cpu_s))
		return NAN;
	if (server_local && !isfinite(server_cpu_s))
		return NAN;
	/* Each CPU's counter moves in whole ticks, so the busy count is good to
	 * about ncpu ticks: over fewer than 4 ncpu^2 ticks in all (80 ms on 2
	 * CPUs, 640 ms on 16), that is more than a quarter of a CPU, the
	 * figure that names other load as a cause (cause.h). */
	if ((double)(b->total - a->total) < 4.0 * (double)ncpu * (double)ncpu)
		return NAN;
	busy = (double)ncpu * (double)(b->busy - a->busy) / (double)(b->total - a->total);
	other = busy - (b->cpu_s - a->cpu_s) / wall - (server_local ? server_cpu_s / wall : 0);
	return other > 0 ? other : 0;
}

double host_drift_pct(const double *v, unsigned n)
{
	double lo = INFINITY, hi = -INFINITY, sum = 0;

	if (n < 2)
		return NAN;
	for (unsigned i = 0; i < n; i++) {
		if (!isfinite(v[i]) || v[i] <= 0)
			return NAN;
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
		sum += v[i];
	}
	return 100.0 * (hi - lo) / (sum / n);
}
