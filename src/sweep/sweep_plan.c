/* sweep_plan.c: build, interleave and mark the plan of a sweep (see
 * sweep_plan.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "sweep/decide.h"
#include "sweep/sweep_plan.h"
#include "base/xalloc.h"

void sweep_plan_build(size_t ntests, const struct depth_list *depths, unsigned repeats,
		      int shuffled, uint64_t seed, struct sweep_plan *plan)
{
	sweep_plan_build_rates(ntests, depths, NULL, repeats, shuffled, seed, plan);
}

void sweep_plan_build_rates(size_t ntests, const struct depth_list *depths,
			    const struct rate_list *rates, unsigned repeats, int shuffled,
			    uint64_t seed, struct sweep_plan *plan)
{
	static const uint64_t closed = 0;
	const uint64_t *rv = rates != NULL && rates->n > 0 ? rates->v : &closed;
	size_t k = 0, nr = rates != NULL && rates->n > 0 ? rates->n : 1;
	uint64_t s = seed * 6364136223846793005ULL + 1442695040888963407ULL;

	memset(plan, 0, sizeof *plan);
	plan->n = ntests * depths->n * nr * repeats;
	plan->v = xcalloc(plan->n ? plan->n : 1, sizeof *plan->v);
	for (size_t t = 0; t < ntests; t++)
		for (size_t d = 0; d < depths->n; d++)
			for (size_t q = 0; q < nr; q++)
				for (unsigned r = 1; r <= repeats; r++) {
					plan->v[k].test = t;
					plan->v[k].depth = depths->v[d];
					plan->v[k].rate = rv[q];
					plan->v[k].repeat = r;
					k++;
				}
	if (shuffled) {
		for (size_t i = plan->n; i > 1; i--) {
			size_t j;
			struct sweep_point tmp;

			s = s * 6364136223846793005ULL + 1442695040888963407ULL;
			j = (size_t)((s >> 33) % i);
			tmp = plan->v[i - 1];
			plan->v[i - 1] = plan->v[j];
			plan->v[j] = tmp;
		}
	}
	for (size_t i = 0; i < plan->n; i++)
		plan->v[i].order = (unsigned)i + 1;
	plan->todo = plan->n;
}

void sweep_plan_interleave(struct sweep_plan *plan, size_t ntargets)
{
	struct sweep_point *v;
	size_t k = 0;

	if (ntargets < 2)
		return;
	v = xcalloc(plan->n * ntargets, sizeof *v);
	for (size_t i = 0; i < plan->n; i++)
		for (size_t t = 0; t < ntargets; t++) {
			v[k] = plan->v[i];
			v[k].target = i % 2 == 0 ? t : ntargets - 1 - t;
			v[k].order = (unsigned)k + 1;
			k++;
		}
	free(plan->v);
	plan->v = v;
	plan->n = k;
	plan->todo = k;
}

/* Order of plan points by (target, test, depth, repeat), for bsearch. */
static int sweep_point_cmp(const void *a, const void *b)
{
	const struct sweep_point *p = *(const struct sweep_point *const *)a;
	const struct sweep_point *q = *(const struct sweep_point *const *)b;

	if (p->target != q->target)
		return p->target < q->target ? -1 : 1;
	if (p->test != q->test)
		return p->test < q->test ? -1 : 1;
	if (p->depth != q->depth)
		return p->depth < q->depth ? -1 : 1;
	if (p->rate != q->rate)
		return p->rate < q->rate ? -1 : 1;
	return p->repeat < q->repeat ? -1 : p->repeat > q->repeat;
}

int sweep_plan_row_is(const struct rs_rec *row, const struct sweep_plan_who *who)
{
	return strcmp(row->label, who->label) == 0 &&
	       (who->clients < 0 || row->clients == who->clients) &&
	       (who->data_size < 0 || row->data_size == who->data_size) &&
	       (who->threads < 0 || row->threads == who->threads) &&
	       (who->server_args == NULL || strcmp(row->server->server_args, who->server_args) == 0);
}

void sweep_plan_mark_done(struct sweep_plan *plan, const struct workload *w, const char *label,
			  const struct rs_rows *rows)
{
	struct sweep_plan_who who = { label, -1, -1, -1, NULL };

	sweep_plan_mark_target(plan, w, 0, &who, rows);
}

void sweep_plan_mark_target(struct sweep_plan *plan, const struct workload *w, size_t target,
			    const struct sweep_plan_who *who, const struct rs_rows *rows)
{
	/* A file of a million rows against a plan of thousands of points:
	 * each row finds its point by binary search, not by a scan. */
	struct sweep_point **by = xcalloc(plan->n ? plan->n : 1, sizeof *by);

	for (size_t i = 0; i < plan->n; i++)
		by[i] = &plan->v[i];
	qsort(by, plan->n, sizeof *by, sweep_point_cmp);
	for (size_t r = 0; r < rows->n; r++) {
		const struct rs_rec *row = &rows->v[r];
		double rate = rows_fig(rows, row, ROW_RATE);
		struct sweep_point key = { .depth = row->pipeline, .repeat = row->repeat,
					   .rate = isfinite(rate) ? (uint64_t)rate : 0,
					   .target = target };
		struct sweep_point *kp = &key, **hit;

		if (!sweep_plan_row_is(row, who) || !sweep_plan_same_run(row, plan->run) ||
		    !sweep_plan_same_way(row, plan->mode, key.rate > 0, plan->arrivals))
			continue;
		for (key.test = 0; key.test < w->n; key.test++)
			if (strcmp(w->v[key.test].name, row->test) == 0)
				break;
		if (key.test == w->n)
			continue;
		hit = bsearch(&kp, by, plan->n, sizeof *by, sweep_point_cmp);
		if (hit != NULL && !(*hit)->done) {
			(*hit)->done = 1;
			plan->todo--;
		}
	}
	free(by);
}

void sweep_plan_free(struct sweep_plan *plan)
{
	if (plan == NULL)
		return;
	free(plan->v);
	plan->v = NULL;
	plan->n = plan->todo = 0;
}

int sweep_plan_same_way(const struct rs_rec *row, enum engine_mode mode, int open,
			enum engine_arrivals arrivals)
{
	enum engine_mode m = row->mode == ROW_MODE_WINDOW ? ENGINE_WINDOW : ENGINE_LOCKSTEP;
	enum engine_arrivals a = row->arrivals == ROW_ARRIVALS_POISSON ? ENGINE_POISSON :
				 ENGINE_UNIFORM;

	return m == mode && (!open || a == arrivals);
}

int sweep_plan_same_run(const struct rs_rec *row, unsigned run)
{
	return (row->run ? row->run : 1) == (run ? run : 1);
}

/* ---- --precision's rounds ---- */

void sweep_plan_precision_init(struct precision *pr, const struct workload *w,
				const struct depth_list *depths, const struct sweep_plan_who *who,
				enum engine_mode mode, unsigned run, const struct rs_rows *prior)
{
	/* --precision takes no --rate: the mode alone tells the ways apart. */

	precision_init(pr, w->n, depths);
	for (size_t r = 0; prior != NULL && r < prior->n; r++) {
		const struct rs_rec *row = &prior->v[r];

		/* The rows of this label measured this way: another mode's
		 * repeats are another point's. */
		if (!sweep_plan_row_is(row, who) || !sweep_plan_same_run(row, run) ||
		    !sweep_plan_same_way(row, mode, 0, ENGINE_UNIFORM))
			continue;
		for (size_t t = 0; t < w->n; t++)
			if (strcmp(w->v[t].name, row->test) == 0)
				precision_add(pr, t, row->pipeline, row->repeat,
					      rows_fig(prior, row, ROW_RPS));
	}
}

/* The highest repeat number pr has seen of test at depth (0: none). */
static unsigned sweep_plan_last(const struct precision *pr, size_t test, unsigned depth)
{
	for (size_t d = 0; d < pr->ndepths; d++)
		if (pr->depth[d] == depth)
			return pr->cells[test * pr->ndepths + d].last;
	return 0;
}

#define sweep_plan_note(cfg, ...) rs_note_to((cfg)->on_note, (cfg)->ud, __VA_ARGS__)

/* --precision's picks over the n targets, once a test and depth, into
 * *all (malloc'd) and what they found into *ps.  Returns how many, or -1
 * (err set). */
static long sweep_plan_precision_picks(const struct sweep_plan_precision *cfg,
				       const struct precision *pr, size_t n, unsigned round,
				       struct precision_pick **all, struct precision_state *ps,
				       struct rs_err *err)
{
	size_t k = 0, cells = pr[0].ntests * pr[0].ndepths;
	unsigned char *seen = xcalloc(cells ? cells : 1, 1);

	*all = NULL;
	ps->worst = 0;
	ps->over = 0;
	for (size_t t = 0; t < n; t++) {
		struct precision_pick *pick;
		struct precision_state st;
		long m = precision_next(&pr[t], cfg->precision, cfg->max_repeats, cfg->seed + round,
					&pick, &st, err);

		if (m < 0) {
			free(*all);
			*all = NULL;
			free(seen);
			return -1;
		}
		ps->worst = isnan(st.worst) || st.worst > ps->worst ? st.worst : ps->worst;
		ps->over += st.over;
		*all = xreallocarray(*all, k + (size_t)m + 1, sizeof **all);
		for (long i = 0; i < m; i++) {
			size_t d = 0;

			while (d < pr[t].ndepths && pr[t].depth[d] != pick[i].depth)
				d++;
			if (d == pr[t].ndepths || seen[pick[i].test * pr[t].ndepths + d])
				continue;
			seen[pick[i].test * pr[t].ndepths + d] = 1;
			(*all)[k++] = pick[i];
		}
		free(pick);
	}
	free(seen);
	return (long)k;
}

/* Why --precision adds no round (a note), or 0 when it goes on. */
static int sweep_plan_precision_done(const struct sweep_plan_precision *cfg, size_t k,
				     const struct precision_state *ps, unsigned round,
				     double elapsed)
{
	if (k == 0 && ps->over == 0)
		sweep_plan_note(cfg, "--precision: every point within +-%g%% (widest +-%.1f%%) after %u "
			   "round%s", 100 * cfg->precision, 100 * ps->worst, round, round == 1 ? "" : "s");
	else if (k == 0)
		sweep_plan_note(cfg, "--precision: %zu point%s still wider than +-%g%% at %u repeats "
			   "(--max-repeats; widest +-%.1f%%)", ps->over, ps->over == 1 ? "" : "s",
			   100 * cfg->precision, cfg->max_repeats, 100 * ps->worst);
	else if (cfg->budget > 0 && elapsed >= cfg->budget)
		sweep_plan_note(cfg, "--precision: the %g s budget is spent with %zu point%s still wider "
			   "than +-%g%% (widest +-%.1f%%)", cfg->budget, ps->over,
			   ps->over == 1 ? "" : "s", 100 * cfg->precision, 100 * ps->worst);
	else {
		if (cfg->verbose)
			sweep_plan_note(cfg, "--precision: round %u measures %zu point%s again (widest "
					"+-%.1f%%)", round + 1, k, k == 1 ? "" : "s", 100 * ps->worst);
		return 0;
	}
	return 1;
}

/* The most undecided points --until-decided names one by one. */
#define SWEEP_PLAN_OPEN_MAX 20

/* One note for each point still undecided: which, its ratio and interval
 * so far, its verdict, its repeats. */
static void sweep_plan_decide_list(const struct sweep_plan_precision *cfg,
				   const struct decide_state *st)
{
	for (size_t i = 0; i < st->undecided && i < SWEEP_PLAN_OPEN_MAX; i++) {
		const struct decide_open *o = &st->open[i];
		const struct knee_cmp *c = &o->cmp;
		char test[sizeof cfg->w->v[0].name], a[ROW_STR], b[ROW_STR], iv[96];

		if (cfg->w != NULL && o->test < cfg->w->n)
			snprintf(test, sizeof test, "%s", cfg->w->v[o->test].name);
		else
			snprintf(test, sizeof test, "test %zu", o->test + 1);
		if (cfg->label != NULL) {
			snprintf(a, sizeof a, "%s", cfg->label[o->target]);
			snprintf(b, sizeof b, "%s", cfg->label[o->base]);
		} else {
			snprintf(a, sizeof a, "target %zu", o->target + 1);
			snprintf(b, sizeof b, "target %zu", o->base + 1);
		}
		if (isfinite(c->ratio.lo) && isfinite(c->ratio.hi))
			snprintf(iv, sizeof iv, "%.2fx (%.2fx..%.2fx), %s", c->ratio.est, c->ratio.lo,
				 c->ratio.hi, knee_verdict_name(c->verdict));
		else if (isfinite(c->ratio.est))
			snprintf(iv, sizeof iv, "%.2fx, no interval yet", c->ratio.est);
		else
			snprintf(iv, sizeof iv, "not measured on both sides");
		sweep_plan_note(cfg, "--until-decided: undecided: %s P=%u, %s against %s %s, %u "
				"repeat%s", test, o->depth, a, b, iv, o->repeats,
				o->repeats == 1 ? "" : "s");
	}
	if (st->undecided > SWEEP_PLAN_OPEN_MAX)
		sweep_plan_note(cfg, "--until-decided: and %zu more undecided (rsweep report names "
				"every verdict)", st->undecided - SWEEP_PLAN_OPEN_MAX);
}

/* Why --until-decided adds no round (notes: the tally and each point
 * still undecided), or 0 when it goes on. */
static int sweep_plan_decide_done(const struct sweep_plan_precision *cfg, size_t k,
				  const struct decide_state *st, unsigned round, double elapsed)
{
	char tally[160];

	snprintf(tally, sizeof tally, "%zu faster, %zu slower, %zu the same, %zu undecided",
		 st->faster, st->slower, st->same, st->undecided);
	if (k == 0 && st->undecided == 0)
		sweep_plan_note(cfg, "--until-decided: every compared point decided after %u round%s "
				"(%s); undecided: none", round, round == 1 ? "" : "s", tally);
	else if (k == 0)
		sweep_plan_note(cfg, "--until-decided: %zu of %zu compared point%s still undecided at "
				"%u repeats (--max-repeats) after %u round%s (%s)", st->undecided,
				st->compared, st->compared == 1 ? "" : "s", cfg->max_repeats, round,
				round == 1 ? "" : "s", tally);
	else if (cfg->budget > 0 && elapsed >= cfg->budget)
		sweep_plan_note(cfg, "--until-decided: the %g s budget is spent with %zu of %zu "
				"compared point%s still undecided after %u round%s (%s)", cfg->budget,
				st->undecided, st->compared, st->compared == 1 ? "" : "s", round,
				round == 1 ? "" : "s", tally);
	else {
		if (cfg->verbose)
			sweep_plan_note(cfg, "--until-decided: round %u measures %zu point%s again "
					"(%s)", round + 1, k, k == 1 ? "" : "s", tally);
		return 0;
	}
	sweep_plan_decide_list(cfg, st);
	return 1;
}

long sweep_plan_more(struct sweep_plan *plan, const struct sweep_plan_precision *cfg,
		     const struct precision *pr, size_t n, unsigned round, double elapsed,
		     struct rs_err *err)
{
	struct precision_pick *all = NULL;
	size_t k;

	if (cfg->until_decided) {
		struct decide_state st;
		long m = decide_next(pr, n, cfg->group, cfg->max_repeats, cfg->seed + round, &all,
				     &st, err);
		int done = m >= 0 && sweep_plan_decide_done(cfg, (size_t)m, &st, round, elapsed);

		decide_state_free(&st);
		if (m < 0 || done) {
			free(all);
			return m < 0 ? -1 : 0;
		}
		k = (size_t)m;
	} else {
		struct precision_state ps;
		long m;

		if (cfg->precision <= 0)
			return 0;
		m = sweep_plan_precision_picks(cfg, pr, n, round, &all, &ps, err);
		if (m < 0)
			return -1;
		if (sweep_plan_precision_done(cfg, (size_t)m, &ps, round, elapsed)) {
			free(all);
			return 0;
		}
		k = (size_t)m;
	}
	plan->v = xreallocarray(plan->v, plan->n + k * n, sizeof *plan->v);
	/* The turns go on from the plan's: its points come n at a time. */
	for (size_t i = 0, base = plan->n / n; i < k; i++)
		for (size_t j = 0; j < n; j++) {
			struct sweep_point *p = &plan->v[plan->n];
			size_t t = (base + i) % 2 == 0 ? j : n - 1 - j;

			memset(p, 0, sizeof *p);
			p->test = all[i].test;
			p->depth = all[i].depth;
			p->repeat = sweep_plan_last(&pr[t], all[i].test, all[i].depth) + 1;
			p->target = t;
			p->order = (unsigned)plan->n + 1;
			plan->n++;
			plan->todo++;
		}
	free(all);
	return (long)(k * n);
}
