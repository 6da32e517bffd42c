/* slo.h: run --slo: a latency objective ("p99=1ms,p999=5ms"), the verdict
 * of one open-loop probe on it, and the search of the highest rate a
 * depth sustains within it.
 *
 * The search, per test and depth: a closed-loop probe gives the start
 * (the rate the depth reaches with no schedule), the first open-loop
 * probe is half of it; the rate doubles while probes meet the objective
 * and halves while they miss it, then bisects between the highest rate
 * that met it and the lowest that missed until the two are within
 * SLO_PRECISION of each other, or the probes run out (--slo-probes).  A
 * probe whose percentile's interval straddles the budget (unsure) is run
 * again at the same rate, up to SLO_TRIES times, then counts as missed
 * (not shown to meet it).  A probe that did not meet the objective while
 * its generator slipped (the send slip's p99 over SLO_SLIP_SHARE of the
 * tightest budget) ends the search of its depth: the load generator, not
 * the server, was the limit.
 *
 * Pure: no clock, no connection; the sweep (slo_sweep.h) runs the
 * probes. */
#ifndef RS_SLO_H
#define RS_SLO_H

#include <stdint.h>

#include "base/err.h"
#include "results/hist.h"
#include "results/row.h"

#define SLO_MAX 4                 /* percentiles in one objective */
#define SLO_PRECISION 0.05        /* the bracket's relative width the search ends at */
#define SLO_TRIES 3               /* probes at one rate while unsure */
#define SLO_SLIP_SHARE 0.10       /* slip p99 above this share of the budget: the generator's */
/* A probe judges a percentile q over at least SLO_TAIL / (1 - q/100)
 * requests (p99: 5,000), so that its tail holds SLO_TAIL of them. */
#define SLO_TAIL 50.0
#define SLO_PROBES_DEFAULT 12

struct slo_objective {
	unsigned n;
	double q[SLO_MAX];        /* percentiles: 99, 99.9, in the order given */
	double budget_ms[SLO_MAX];
	char text[64];            /* canonical, slo_parse's input's spelling: "p99=1ms" */
};

/* Parse "p99=1ms[,p999=5ms...]": each a percentile p50..p9999 (the digits
 * after 'p' are the percent with the point after two digits: p999 is
 * 99.9) and a time with its unit (us, ms or s).  Returns 0, or -1 with
 * err (RS_E_USAGE) naming the part that does not read. */
int slo_parse(const char *s, struct slo_objective *o, struct rs_err *err);

/* The requests a probe needs so that every percentile of o rests on a
 * tail of SLO_TAIL requests. */
double slo_requests_needed(const struct slo_objective *o);

/* The verdict of one open-loop probe. */
struct slo_judged {
	enum row_slo_verdict verdict;
	unsigned which;           /* o's percentile nearest its budget (the row's) */
	double ms, lo_ms, hi_ms;  /* that percentile and its 95% interval */
};

/* Judge a probe on o from its latency (lat, ns from each request's
 * intended send), its slip p99 (ms; NAN: unknown, not judged) and whether
 * it fell short of its rate.  The interval of a percentile is the
 * order statistics' (distribution-free, the binomial's normal
 * approximation): it treats the requests as independent, which a queue
 * makes them not, so it is narrower than the truth. */
void slo_judge(const struct slo_objective *o, const struct hist *lat, double slip_p99_ms,
	       int rate_short, struct slo_judged *out);

/* Why a search ended. */
enum slo_end {
	SLO_GOING,                /* not ended */
	SLO_PRECISE,              /* the bracket is within SLO_PRECISION */
	SLO_CAPPED,               /* out of probes */
	SLO_GENERATOR,            /* the generator was the limit */
	SLO_NONE_MET,             /* no rate met it, down to SLO_FLOOR */
	SLO_NO_START,             /* the closed-loop probe gave no rate */
};
#define SLO_FLOOR 1.0             /* requests a second: no lower rate is probed */

/* One depth's search. */
struct slo_search {
	double start;             /* the closed loop's rate; 0: not yet known */
	double met, missed;       /* the bracket: highest met, lowest missed; 0: none yet */
	double rate;              /* the rate to probe next */
	unsigned probes;          /* open-loop probes recorded */
	unsigned tries;           /* of them at rate, unsure so far */
	unsigned max_probes;
	enum slo_end end;
};

void slo_search_init(struct slo_search *s, unsigned max_probes);
/* A closed-loop probe's rate (requests a second): the highest of them
 * (repeats) until the first open-loop probe starts the search at half. */
void slo_search_start(struct slo_search *s, double rps);
/* The rate of the next probe (whole requests a second, >= 1), or 0 when
 * the search has ended (s->end says why: SLO_NO_START when no start was
 * given); *repeat is the probe's try at that rate, 1-based. */
uint64_t slo_search_next(struct slo_search *s, unsigned *repeat);
/* A probe at rate judged v. */
void slo_search_record(struct slo_search *s, double rate, enum row_slo_verdict v);

#endif
