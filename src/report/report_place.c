/* report_place.c: the report's note on placement (report_int.h): where the
 * rows say spawned servers and the load generator ran (run --cpus,
 * cpus.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "base/cpus.h"
#include "report/report_int.h"
#include "results/row.h"

/* "CPU 1" or "CPUs 2-3" for a CPU list. */
static const char *report_place_cpus(const char *list, char *buf, size_t size)
{
	struct cpus c;

	snprintf(buf, size, "CPU%s %s", cpus_list_parse(list, strlen(list), &c, NULL) == 0 &&
		 cpus_count(&c) > 1 ? "s" : "", list);
	return buf;
}

/* Whether a row's server and client were on CPUs apart. */
static int report_place_apart(const struct rs_server *s)
{
	struct cpus a, b;

	return cpus_list_parse(s->server_cpus, strlen(s->server_cpus), &a, NULL) == 0 &&
	       cpus_list_parse(s->client_cpus, strlen(s->client_cpus), &b, NULL) == 0 &&
	       !cpus_overlap(&a, &b);
}

int report_place_note(const struct rs_rows *rows, char *buf, size_t size)
{
	const struct rs_server *first = NULL;
	size_t servers = 0, apart = 0, same = 1;
	char s[80], c[80];

	if (rows == NULL)
		return 0;
	/* Servers and labels are interned (row.c): a pointer each, the
	 * placement in the server's.  Two targets of one binary are one
	 * server under two labels.  O(rows^2) at worst, over distinct pairs
	 * mostly the first rows. */
	for (size_t i = 0; i < rows->n; i++) {
		const struct rs_server *sv = rows->v[i].server;
		size_t k = 0;

		if (sv->server_cpus[0] == '\0' || sv->client_cpus[0] == '\0')
			continue;
		while (k < i && (rows->v[k].server != sv || rows->v[k].label != rows->v[i].label))
			k++;
		if (k < i)
			continue;
		servers++;
		apart += (size_t)report_place_apart(sv);
		if (first == NULL)
			first = sv;
		else if (strcmp(first->server_cpus, sv->server_cpus) != 0 ||
			 strcmp(first->client_cpus, sv->client_cpus) != 0)
			same = 0;
	}
	if (servers == 0)
		return 0;
	if (apart == servers && same) {
		snprintf(buf, size, "placement: every spawned server on %s, the load generator on %s "
			 "(run --cpus)", report_place_cpus(first->server_cpus, s, sizeof s),
			 report_place_cpus(first->client_cpus, c, sizeof c));
		return 1;
	}
	if (servers < 2)
		return 0;
	if (apart == servers) {
		snprintf(buf, size, "placement: the spawned servers were placed on different CPUs "
			 "(%s for one, and others): comparisons between them include it",
			 report_place_cpus(first->server_cpus, s, sizeof s));
		return 1;
	}
	if (same && strcmp(first->server_cpus, first->client_cpus) == 0 &&
	    strpbrk(first->client_cpus, ",-") == NULL) {
		snprintf(buf, size, "placement: one CPU (%s) for the spawned servers and the load "
			 "generator alike: A/B verdicts between spawned servers carry the "
			 "scheduler's bias (where it put each process)", first->client_cpus);
		return 1;
	}
	snprintf(buf, size, "placement: spawned servers shared CPUs with the load generator "
		 "(run --cpus none, or beside a target rsweep did not start): A/B verdicts between "
		 "them carry the scheduler's bias (where it put each process)");
	return 1;
}
