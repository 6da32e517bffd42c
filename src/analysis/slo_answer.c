/* slo_answer.c: the answers of run --slo's searches, from their rows
 * (slo_answer.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/slo_answer.h"
#include "base/vec.h"
#include "base/xalloc.h"

/* Whether rec is a row of g's search: one label, test, objective,
 * clients, threads, value size and server. */
static int slo_answer_of(const struct slo_group *g, const struct rs_rec *rec)
{
	return strcmp(g->label, rec->label) == 0 && strcmp(g->test, rec->test) == 0 &&
	       strcmp(g->slo, rec->extra->slo) == 0 && g->clients == rec->clients &&
	       g->data_size == rec->data_size && g->threads == rec->threads &&
	       strcmp(g->server_args, rec->server->server_args) == 0;
}

/* The group of rec, made when new. */
static struct slo_group *slo_answer_group(struct slo_answers *a, size_t *cap,
					  const struct rs_rec *rec)
{
	for (size_t i = 0; i < a->n; i++)
		if (slo_answer_of(&a->v[i], rec))
			return &a->v[i];
	a->v = vec_reserve(a->v, cap, a->n + 1, sizeof *a->v, 8);
	memset(&a->v[a->n], 0, sizeof a->v[a->n]);
	a->v[a->n].label = rec->label;
	a->v[a->n].test = rec->test;
	a->v[a->n].slo = rec->extra->slo;
	a->v[a->n].clients = rec->clients;
	a->v[a->n].data_size = rec->data_size;
	a->v[a->n].threads = rec->threads;
	a->v[a->n].server_args = rec->server->server_args;
	return &a->v[a->n++];
}

/* The depth of g, kept in ascending order, made when new. */
static struct slo_depth *slo_answer_depth(struct slo_group *g, unsigned depth)
{
	size_t i = 0;

	while (i < g->nd && g->d[i].depth < depth)
		i++;
	if (i < g->nd && g->d[i].depth == depth)
		return &g->d[i];
	g->d = xreallocarray(g->d, g->nd + 1, sizeof *g->d);
	memmove(&g->d[i + 1], &g->d[i], (g->nd - i) * sizeof *g->d);
	g->nd++;
	memset(&g->d[i], 0, sizeof g->d[i]);
	g->d[i].depth = depth;
	g->d[i].start_rps = NAN;
	g->d[i].ms = g->d[i].lo_ms = g->d[i].hi_ms = g->d[i].slip_p99_ms = NAN;
	return &g->d[i];
}

/* One row of a search into its depth's answer. */
static void slo_answer_add(const struct rs_rows *rows, const struct rs_rec *rec,
			   struct slo_depth *d)
{
	double rate = rows_fig(rows, rec, ROW_RATE);

	if (rec->slo_phase == ROW_SLO_START) {
		double rps = rows_fig(rows, rec, ROW_RPS);

		if (isnan(d->start_rps) || rps > d->start_rps)
			d->start_rps = rps;
		return;
	}
	if (!(rate > 0))
		return;
	d->probes++;
	switch (rec->slo_verdict) {
	case ROW_SLO_MET:
		/* At the highest rate that met it, the last probe's figure. */
		if (rate >= d->met) {
			d->met = rate;
			d->ms = rows_fig(rows, rec, ROW_SLO_MS);
			d->lo_ms = rows_fig(rows, rec, ROW_SLO_LO_MS);
			d->hi_ms = rows_fig(rows, rec, ROW_SLO_HI_MS);
		}
		break;
	case ROW_SLO_GENERATOR:
		if (d->generator == 0 || rate < d->generator) {
			d->generator = rate;
			d->slip_p99_ms = rows_fig(rows, rec, ROW_SLIP_P99_MS);
		}
		break;
	case ROW_SLO_UNSURE:
		d->unsure++;
		break;
	default:
		break;
	}
}

/* The lowest miss above met: unsure probes count as the search counts
 * them once out of tries, so the bracket's top is the lowest rate not
 * shown to meet the objective. */
static void slo_answer_bracket(const struct rs_rows *rows, const struct slo_group *g,
			       struct slo_depth *d)
{
	d->missed = 0;
	for (size_t r = 0; r < rows->n; r++) {
		const struct rs_rec *rec = &rows->v[r];
		double rate = rows_fig(rows, rec, ROW_RATE);

		if (rec->slo_phase != ROW_SLO_PROBE || rec->pipeline != d->depth ||
		    rec->slo_verdict == ROW_SLO_MET || rec->slo_verdict == ROW_SLO_GENERATOR ||
		    !(rate > d->met) || !slo_answer_of(g, rec))
			continue;
		if (d->missed == 0 || rate < d->missed)
			d->missed = rate;
	}
}

void slo_answers_find(const struct rs_rows *rows, struct slo_answers *out)
{
	size_t cap = 0;

	memset(out, 0, sizeof *out);
	for (size_t r = 0; r < rows->n; r++) {
		const struct rs_rec *rec = &rows->v[r];

		if (rec->slo_phase == ROW_SLO_NONE)
			continue;
		slo_answer_add(rows, rec, slo_answer_depth(slo_answer_group(out, &cap, rec),
							   rec->pipeline));
	}
	for (size_t i = 0; i < out->n; i++) {
		struct slo_group *g = &out->v[i];

		g->best = g->second = g->nd;
		for (size_t k = 0; k < g->nd; k++) {
			slo_answer_bracket(rows, g, &g->d[k]);
			if (g->d[k].met <= 0)
				continue;
			if (g->best == g->nd || g->d[k].met > g->d[g->best].met) {
				g->second = g->best;
				g->best = k;
			} else if (g->second == g->nd || g->d[k].met > g->d[g->second].met) {
				g->second = k;
			}
		}
		for (size_t j = 0; j < out->n; j++)
			if (j != i && strcmp(out->v[j].label, g->label) == 0 &&
			    strcmp(out->v[j].test, g->test) == 0)
				g->axes = 1;
	}
}

void slo_answers_free(struct slo_answers *a)
{
	if (a == NULL)
		return;
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i].d);
	free(a->v);
	memset(a, 0, sizeof *a);
}

size_t slo_rows_drop_probes(struct rs_rows *rows)
{
	size_t k = 0;

	for (size_t r = 0; r < rows->n; r++)
		if (rows->v[r].slo_phase != ROW_SLO_PROBE)
			rows->v[k++] = rows->v[r];
	k = rows->n - k;
	rows->n -= k;
	return k;
}
