/* slo_search.c: one depth's search of the highest rate that meets a
 * latency objective (slo.h): climb, bisect, try again where unsure. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sweep/slo.h"

void slo_search_init(struct slo_search *s, unsigned max_probes)
{
	memset(s, 0, sizeof *s);
	s->max_probes = max_probes ? max_probes : SLO_PROBES_DEFAULT;
}

/* Where to go after the bracket moved: climb, descend, bisect, or end. */
static void slo_search_step(struct slo_search *s)
{
	s->tries = 0;
	if (s->probes >= s->max_probes) {
		s->end = SLO_CAPPED;
	} else if (s->met == 0) {
		/* Nothing met yet: halve below the lowest miss. */
		s->rate = floor(s->missed / 2);
		if (s->rate < SLO_FLOOR)
			s->end = SLO_NONE_MET;
	} else if (s->missed == 0) {
		s->rate = s->met * 2;
	} else if ((s->missed - s->met) <= SLO_PRECISION * s->met || s->missed - s->met <= 1) {
		s->end = SLO_PRECISE;
	} else {
		s->rate = floor((s->met + s->missed) / 2);
	}
}

void slo_search_start(struct slo_search *s, double rps)
{
	/* Repeats of the start (-r): the highest, until the first probe. */
	if (s->probes > 0 || s->end != SLO_GOING || !isfinite(rps) || rps <= s->start)
		return;
	s->start = rps;
	/* The closed loop's rate is the depth's capacity with no schedule:
	 * a schedule at it queues, so the climb starts at half. */
	s->rate = floor(rps / 2);
}

uint64_t slo_search_next(struct slo_search *s, unsigned *repeat)
{
	*repeat = s->tries + 1;
	/* No start, or one too slow to halve: nothing to search from. */
	if (s->end == SLO_GOING && s->probes == 0 && s->start < 2 * SLO_FLOOR)
		s->end = SLO_NO_START;
	if (s->end != SLO_GOING)
		return 0;
	return (uint64_t)s->rate;
}

void slo_search_record(struct slo_search *s, double rate, enum row_slo_verdict v)
{
	if (s->end != SLO_GOING || s->start <= 0)
		return;
	s->probes++;
	switch (v) {
	case ROW_SLO_GENERATOR:
		s->end = SLO_GENERATOR;
		return;
	case ROW_SLO_UNSURE:
		/* Again at the same rate, unless out of tries or probes: then
		 * it was not shown to meet the objective. */
		if (++s->tries < SLO_TRIES && s->probes < s->max_probes) {
			s->rate = rate;
			return;
		}
		/* fall through */
	case ROW_SLO_MISSED:
	case ROW_SLO_UNJUDGED:
		if (s->missed == 0 || rate < s->missed)
			s->missed = rate;
		/* A miss below a rate that met (noise): that met no longer
		 * brackets. */
		if (s->met >= s->missed)
			s->met = 0;
		break;
	case ROW_SLO_MET:
		if (rate > s->met)
			s->met = rate;
		if (s->missed != 0 && s->missed <= s->met)
			s->missed = 0;
		break;
	}
	slo_search_step(s);
}
