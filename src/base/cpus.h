/* cpus.h: where a run places the servers it starts and its own load
 * generator (--cpus), so that spawned servers compared with each other are
 * measured alike (issue 41).
 *
 * On a machine of few cores the scheduler may keep one spawned server on
 * the client's core and another on a free one for a whole sweep, and no
 * interleaving removes a difference that lasts the sweep.  So by default,
 * when every target is a server rsweep starts and the process may use two
 * CPUs or more, every spawned server gets the same CPUs (the upper half
 * of those rsweep may use, at least one) and the load generator the rest;
 * servers are measured in turns, so they do not compete for them.
 * "--cpus SERVER:CLIENT" (CPU lists as taskset -c writes them, either
 * side empty to leave it unplaced) overrides that; "--cpus none" turns it
 * off.
 *
 * Parsers and rules only: the CPUs a process may use come in from
 * platform.h, and nothing here calls the system. */
#ifndef RS_CPUS_H
#define RS_CPUS_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

#define CPUS_WORDS 16             /* 1024 CPUs */
#define CPUS_MAX (CPUS_WORDS * 64)

/* A set of CPUs: CPU i is bit i % 64 of w[i / 64] (platform.h's form). */
struct cpus {
	uint64_t w[CPUS_WORDS];
};

enum cpus_mode {
	CPUS_AUTO = 0,            /* no --cpus: the default placement */
	CPUS_NONE,                /* --cpus none */
	CPUS_GIVEN,               /* --cpus SERVER:CLIENT */
};

struct cpus_spec {
	enum cpus_mode mode;
	int has_server, has_client; /* CPUS_GIVEN: which side names CPUs */
	struct cpus server, client;
};

/* Parse a CPU list, "0", "0,2", "1-3", "0,4-7" (ascending or not, no
 * blanks, each CPU below CPUS_MAX), into out.  Returns 0, or -1 with err
 * (RS_E_USAGE) naming what is wrong. */
int cpus_list_parse(const char *s, size_t len, struct cpus *out, struct rs_err *err);
/* Parse --cpus: "none", "auto", or "SERVER:CLIENT" with at least one
 * side a CPU list.  Returns 0, or -1 with err (RS_E_USAGE, one line
 * starting "--cpus"). */
int cpus_spec_parse(const char *s, struct cpus_spec *out, struct rs_err *err);
/* c as a CPU list, "0,2-3", into buf ("" for no CPU).  Returns buf. */
const char *cpus_format(const struct cpus *c, char *buf, size_t size);
unsigned cpus_count(const struct cpus *c);
/* Whether a and b share a CPU. */
int cpus_overlap(const struct cpus *a, const struct cpus *b);

/* A run's placement. */
struct cpus_place {
	int server_on;            /* spawned servers go on server */
	int client_on;            /* the load generator goes on client */
	struct cpus server, client;
	int known;                /* allowed is known (the system tells) */
	struct cpus allowed;      /* the CPUs the process may use */
	/* Why spawned servers are not placed apart from the load generator,
	 * when there are some and they are not: "--cpus none", "one CPU",
	 * "placement not available on this system", "a target rsweep does
	 * not start"; NULL otherwise. */
	const char *unplaced;
	int one_cpu;              /* the process may use one CPU: nothing to place apart */
};

/* Decide the placement of a run from spec, the CPUs the process may use
 * (allowed; NULL where the system cannot tell or place), and its targets:
 * spawned of them are servers rsweep starts, of all in all.  A given
 * list must lie within allowed, and a SERVER side needs a spawned target.
 * Returns 0, or -1 with err (RS_E_USAGE) naming the CPU or the reason. */
int cpus_decide(const struct cpus_spec *spec, const struct cpus *allowed, size_t spawned,
		size_t all, struct cpus_place *out, struct rs_err *err);

#endif
