/* cmd_run_place.c: where a run puts the servers it starts and its own load
 * generator (--cpus; the rule is cpus.h's), decided with the CPUs the
 * process may use, and applied to this process. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cmd_run_int.h"
#include "base/platform.h"

int run_place(const struct rs_config *cfg, struct run_job *job, struct rs_err *err)
{
	struct cpus_spec spec;
	struct cpus allowed;
	size_t spawned = 0;
	int known;

	if (cpus_spec_parse(cfg->cpus, &spec, err) < 0)
		return -1;
	/* Whatever taskset or a cgroup allows: placement stays within it. */
	known = platform_cpus_get(0, allowed.w, CPUS_WORDS) == 0;
	for (size_t k = 0; k < job->targets.n; k++)
		spawned += job->targets.v[k].spawned != 0;
	if (cpus_decide(&spec, known ? &allowed : NULL, spawned, job->targets.n, &job->place,
			err) < 0)
		return -1;
	job->server_cpus[0] = job->client_cpus[0] = '\0';
	if (!known)
		return 0;
	cpus_format(job->place.server_on ? &job->place.server : &job->place.allowed,
		    job->server_cpus, sizeof job->server_cpus);
	cpus_format(job->place.client_on ? &job->place.client : &job->place.allowed,
		    job->client_cpus, sizeof job->client_cpus);
	/* Unplaced servers get the whole allowed set explicitly: after a
	 * first run (--runs) this process is on the client's CPUs, and a
	 * server would inherit them. */
	for (size_t k = 0; k < job->targets.n; k++)
		if (job->targets.v[k].spawned)
			job->targets.v[k].cpus = job->place.server_on ? &job->place.server :
						 &job->place.allowed;
	return 0;
}

int run_place_self(const struct run_job *job, struct rs_err *err)
{
	char set[64];

	if (!job->place.client_on)
		return 0;
	if (platform_cpus_set(0, job->place.client.w, CPUS_WORDS) < 0)
		return rs_err_set(err, "cannot place the load generator on CPUs %s: %s",
				  cpus_format(&job->place.client, set, sizeof set), strerror(errno));
	return 0;
}

void run_place_say(const struct run_job *job, char *buf, size_t size)
{
	const struct cpus_place *p = &job->place;
	size_t spawned = 0;

	for (size_t k = 0; k < job->targets.n; k++)
		spawned += job->targets.v[k].spawned != 0;
	buf[0] = '\0';
	if (p->one_cpu)
		snprintf(buf, size, "placement: one CPU (%s) for servers and load generator alike: "
			 "A/B verdicts between spawned servers carry the scheduler's bias",
			 job->client_cpus);
	else if (p->unplaced != NULL && !p->server_on && !p->client_on)
		snprintf(buf, size, "placement: spawned servers not placed apart from the load "
			 "generator (%s): A/B verdicts between them carry the scheduler's bias",
			 p->unplaced);
	else if (p->server_on || p->client_on)
		snprintf(buf, size, "placement: %s%s%s%s%s%s%s%s", p->server_on ? "spawned servers on "
			 "CPU" : "", p->server_on ? cpus_count(&p->server) > 1 ? "s " : " " : "",
			 p->server_on ? job->server_cpus : "",
			 p->server_on && p->client_on ? ", " : "",
			 p->client_on ? "the load generator on CPU" : "",
			 p->client_on ? cpus_count(&p->client) > 1 ? "s " : " " : "",
			 p->client_on ? job->client_cpus : "",
			 p->unplaced != NULL && spawned > 0 ? " (not apart: A/B verdicts between spawned "
			 "servers carry the scheduler's bias)" : "");
}
