/* slo_sweep.c: the searches of run --slo, driven by the sweep's loop
 * (slo_sweep.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "sweep/slo_sweep.h"
#include "sweep/sweep_int.h"

struct slo_sweep {
	const struct slo_objective *o;
	double min_s;             /* --duration */
	size_t ntargets, ntests, ndepths;
	unsigned *depth;          /* the depths, each once */
	struct slo_search *cell;  /* [target][test][depth] */
	unsigned char *noted;     /* the cell's end was said */
	int slip_noted;           /* a probe without its slip was said */
	uint64_t rng;             /* each round's order */
};

struct slo_sweep *slo_sweep_new(const struct sweep_config *cfg, size_t ntargets, size_t ntests,
				const struct depth_list *depths)
{
	struct slo_sweep *ss = xcalloc(1, sizeof *ss);
	size_t n;

	ss->o = cfg->slo;
	ss->min_s = cfg->duration;
	ss->rng = cfg->seed * 6364136223846793005ULL + 1442695040888963407ULL;
	ss->depth = xcalloc(depths->n ? depths->n : 1, sizeof *ss->depth);
	for (size_t i = 0; i < depths->n; i++) {
		size_t k = 0;

		while (k < ss->ndepths && ss->depth[k] != depths->v[i])
			k++;
		if (k == ss->ndepths)
			ss->depth[ss->ndepths++] = depths->v[i];
	}
	ss->ntargets = ntargets;
	ss->ntests = ntests;
	n = ntargets * ntests * ss->ndepths;
	ss->cell = xcalloc(n ? n : 1, sizeof *ss->cell);
	ss->noted = xcalloc(n ? n : 1, 1);
	for (size_t i = 0; i < n; i++)
		slo_search_init(&ss->cell[i], cfg->slo_probes);
	return ss;
}

void slo_sweep_free(struct slo_sweep *ss)
{
	if (ss == NULL)
		return;
	free(ss->depth);
	free(ss->cell);
	free(ss->noted);
	free(ss);
}

/* The index of the search of (target, test, depth), or -1. */
static long slo_sweep_cell(const struct slo_sweep *ss, size_t target, size_t test,
			   unsigned depth)
{
	for (size_t d = 0; d < ss->ndepths; d++)
		if (ss->depth[d] == depth)
			return target < ss->ntargets && test < ss->ntests ?
			       (long)((target * ss->ntests + test) * ss->ndepths + d) : -1;
	return -1;
}

double slo_probe_seconds(const struct slo_objective *o, double rate, double min_s)
{
	double s = rate > 0 ? slo_requests_needed(o) / rate : 0;

	/* A few scheduling hiccups of a loaded machine are a large share of
	 * a tenth of a second: half a second at least, or --duration. */
	s = fmax(s, min_s > 0 ? min_s : 0.5);
	return fmin(s, fmax(60, min_s));
}

void slo_sweep_replay(struct slo_sweep *ss, size_t target, const struct workload *w,
		      const struct sweep_plan_who *who, unsigned run, const struct rs_rows *prior)
{
	for (size_t r = 0; prior != NULL && r < prior->n; r++) {
		const struct rs_rec *row = &prior->v[r];
		int open = rows_fig(prior, row, ROW_RATE) > 0;
		size_t t = 0;
		long c;

		/* A closed-loop row is a start whatever it was measured for (the
		 * plan counts it done: a plain sweep, another objective's); a
		 * probe counts for its own objective only. */
		if ((open && (row->slo_phase != ROW_SLO_PROBE || strcmp(row->extra->slo, ss->o->text) != 0)) ||
		    !sweep_plan_row_is(row, who) || !sweep_plan_same_run(row, run))
			continue;
		while (t < w->n && strcmp(w->v[t].name, row->test) != 0)
			t++;
		if ((c = slo_sweep_cell(ss, target, t, row->pipeline)) < 0)
			continue;
		if (!open)
			slo_search_start(&ss->cell[c], rows_fig(prior, row, ROW_RPS));
		else
			slo_search_record(&ss->cell[c], rows_fig(prior, row, ROW_RATE),
					  (enum row_slo_verdict)row->slo_verdict);
	}
}

/* Say, once a search, why it ended where the reason is worth a word. */
static void slo_sweep_said(struct slo_sweep *ss, long c, const struct sweep_config *cfg,
			   const char *test, unsigned depth, const struct rs_row *row)
{
	const struct slo_search *s = &ss->cell[c];

	if (ss->noted[c] || s->end == SLO_GOING)
		return;
	ss->noted[c] = 1;
	if (s->end == SLO_GENERATOR && row->slo_verdict[0] != '\0')
		sweep_note(cfg, "%s P=%u: rsweep's own load generation was the limit at %.0f/s, not "
			   "the server: its sends slipped %.3f ms behind schedule at p99, over %.0f%% of "
			   "the budget (%s); the search of this depth stops here.  Give the generator "
			   "more: --threads N (a loop a core), or agents (--control --agents)",
			   test, depth, row->rate_offered, row->slip_p99_ms, 100 * SLO_SLIP_SHARE,
			   ss->o->text);
	else if (s->end == SLO_NONE_MET)
		sweep_note(cfg, "%s P=%u: no rate down to %.0f/s met %s", test, depth, SLO_FLOOR,
			   ss->o->text);
	else if (s->end == SLO_NO_START)
		sweep_note(cfg, "%s P=%u: the closed-loop probe gave no rate to start the search "
			   "from", test, depth);
	else if (s->end == SLO_CAPPED && s->met > 0 && s->missed > 0)
		sweep_debug(cfg, "%s P=%u: out of probes (--slo-probes %u) with %s between %.0f/s "
			    "and %.0f/s", test, depth, s->max_probes, ss->o->text, s->met, s->missed);
}

void slo_sweep_row(struct slo_sweep *ss, const struct sweep_config *cfg,
		   const struct sweep_point *p, const struct hist *lat, struct rs_row *row)
{
	long c = slo_sweep_cell(ss, p->target, p->test, p->depth);
	struct slo_judged j;

	xstrlcpy(row->slo, ss->o->text, sizeof row->slo);
	if (p->rate == 0) {
		xstrlcpy(row->slo_phase, "start", sizeof row->slo_phase);
		if (c >= 0)
			slo_search_start(&ss->cell[c], row->rps);
	} else {
		xstrlcpy(row->slo_phase, "probe", sizeof row->slo_phase);
		/* The agents' loads do not send their slip back. */
		if (isnan(row->slip_p99_ms) && !ss->slip_noted) {
			ss->slip_noted = 1;
			sweep_note(cfg, "--slo: this load does not measure its send slip (agents): a "
				   "miss cannot be told from the generator's own lag, and counts "
				   "against the server");
		}
		slo_judge(ss->o, lat, row->slip_p99_ms, row->rate_short > 0, &j);
		xstrlcpy(row->slo_verdict, row_slo_verdict_name(j.verdict), sizeof row->slo_verdict);
		row->slo_ms = j.ms;
		row->slo_lo_ms = j.lo_ms;
		row->slo_hi_ms = j.hi_ms;
		if (c >= 0)
			slo_search_record(&ss->cell[c], (double)p->rate, j.verdict);
	}
	if (c >= 0)
		slo_sweep_said(ss, c, cfg, row->test, p->depth, row);
}

size_t slo_sweep_more(struct slo_sweep *ss, struct sweep_plan *plan)
{
	size_t n = ss->ntargets * ss->ntests * ss->ndepths, k = 0;

	plan->v = xreallocarray(plan->v, plan->n + (n ? n : 1), sizeof *plan->v);
	for (size_t i = 0; i < n; i++) {
		unsigned repeat;
		uint64_t rate = slo_search_next(&ss->cell[i], &repeat);
		struct sweep_point *p;

		if (rate == 0)
			continue;
		p = &plan->v[plan->n];
		memset(p, 0, sizeof *p);
		p->target = i / (ss->ntests * ss->ndepths);
		p->test = (i / ss->ndepths) % ss->ntests;
		p->depth = ss->depth[i % ss->ndepths];
		p->rate = rate;
		p->repeat = repeat;
		p->slo = ROW_SLO_PROBE;
		p->duration = slo_probe_seconds(ss->o, (double)rate, ss->min_s);
		plan->n++;
		plan->todo++;
		k++;
	}
	/* Shuffled, as --precision's rounds are: a drift of the machine then
	 * falls on every depth alike, not on the last of each round. */
	for (size_t i = k; i > 1; i--) {
		struct sweep_point *v = &plan->v[plan->n - k], tmp;
		size_t j;

		ss->rng = ss->rng * 6364136223846793005ULL + 1442695040888963407ULL;
		j = (size_t)((ss->rng >> 33) % i);
		tmp = v[i - 1];
		v[i - 1] = v[j];
		v[j] = tmp;
	}
	for (size_t i = plan->n - k; i < plan->n; i++)
		plan->v[i].order = (unsigned)i + 1;
	return k;
}
