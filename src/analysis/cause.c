/* cause.c: naming the likely cause of an unstable point. */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "analysis/cause.h"

/* The strongest of n candidates: the figure furthest past its threshold,
 * as a multiple of it (a NAN figure is never past). */
static int cause_strongest(const struct cause *c, const double *threshold, int n,
			   struct cause *out)
{
	double best = 1;
	int found = 0;

	for (int i = 0; i < n; i++)
		if (c[i].figure / threshold[i] >= best) {
			best = c[i].figure / threshold[i];
			*out = c[i];
			found = 1;
		}
	return found;
}

void cause_of(const struct series_point *p, long threads, struct cause *out)
{
	const struct series_noise *z = &p->noise;
	double per_thread = threads > 0 ? p->client_cpu / (double)threads : p->client_cpu;
	double server_pct = z->server_ns > 0 ? 100.0 * (z->server_ns_max / z->server_ns - 1) : NAN;
	/* What took the CPU, and what a user can act on... */
	/* A server past one CPU a second runs threads of its own, and those
	 * are what keeps CPUs busy beside rsweep (a server's io-threads spin
	 * while they wait): the server's, not other processes' (issue 44). */
	int server_busy = p->server_cpu >= CAUSE_SERVER_CPUS;
	const struct cause first[] = {
		{ CAUSE_STEAL, z->steal_pct },
		server_busy ? (struct cause){ CAUSE_SERVER_THREADS, p->server_cpu } :
			      (struct cause){ CAUSE_OTHER_LOAD, z->other_cpus },
		{ CAUSE_PREEMPTED, z->nivcsw_rate }, { CAUSE_CLIENT_BOUND, per_thread },
	};
	const double first_at[] = { CAUSE_STEAL_PCT,
				    server_busy ? CAUSE_SERVER_CPUS : CAUSE_OTHER_CPUS,
				    CAUSE_NIVCSW_RATE, CAUSE_CLIENT_CPU };
	/* ...and, only without one of those, the symptoms. */
	const struct cause then[] = {
		{ CAUSE_SERVER_CPU, server_pct }, { CAUSE_DRIFT, z->drift_pct },
	};
	const double then_at[] = { CAUSE_SERVER_CPU_PCT, CAUSE_DRIFT_PCT };

	if (cause_strongest(first, first_at, 4, out) || cause_strongest(then, then_at, 2, out))
		return;
	out->figure = NAN;
	out->kind = CAUSE_UNKNOWN;
	for (int i = 0; i < 4; i++)
		if (isfinite(first[i].figure))
			out->kind = CAUSE_NONE;
	for (int i = 0; i < 2; i++)
		if (isfinite(then[i].figure))
			out->kind = CAUSE_NONE;
}

const char *cause_name(enum cause_kind kind)
{
	static const char *const name[] = {
		[CAUSE_STEAL] = "steal", [CAUSE_OTHER_LOAD] = "other-load",
		[CAUSE_PREEMPTED] = "preempted", [CAUSE_CLIENT_BOUND] = "client-bound",
		[CAUSE_SERVER_THREADS] = "server-threads",
		[CAUSE_SERVER_CPU] = "server-cpu", [CAUSE_DRIFT] = "drift",
		[CAUSE_NONE] = "none", [CAUSE_UNKNOWN] = "unknown",
	};

	return name[kind];
}

void cause_format(const struct cause *c, char *buf, size_t size)
{
	switch (c->kind) {
	case CAUSE_STEAL:
		snprintf(buf, size, "the host took %.0f%% of the CPU", c->figure);
		break;
	case CAUSE_OTHER_LOAD:
		snprintf(buf, size, "other processes kept %.1f CPUs busy", c->figure);
		break;
	case CAUSE_PREEMPTED:
		snprintf(buf, size, "rsweep was preempted %.0f times a second", c->figure);
		break;
	case CAUSE_CLIENT_BOUND:
		snprintf(buf, size, "client-bound: rsweep used %.0f%% of a CPU per thread",
			 100 * c->figure);
		break;
	case CAUSE_SERVER_THREADS:
		snprintf(buf, size, "the server's own threads kept %.1f CPUs busy (io-threads spin: "
			 "fewer of them, or more cores)", c->figure);
		break;
	case CAUSE_SERVER_CPU:
		snprintf(buf, size, "server CPU per request %.0f%% above the point's median in one "
			 "repeat", c->figure);
		break;
	case CAUSE_DRIFT:
		snprintf(buf, size, "throughput drifted %.0f%% within one window", c->figure);
		break;
	case CAUSE_NONE:
		snprintf(buf, size, "no recorded cause: the repeats differ between windows, not "
			 "within one");
		break;
	case CAUSE_UNKNOWN:
		snprintf(buf, size, "no cause recorded (the rows carry no host figures)");
		break;
	}
}
