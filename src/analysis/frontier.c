/* frontier.c: the cell with the most throughput within a latency budget,
 * along an axis (frontier.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/frontier.h"
#include "base/json.h"
#include "base/num.h"
#include "base/xalloc.h"

void frontier_find(const struct along_groups *gs, const struct budget_pick *picks,
		   struct frontier **out, size_t *n)
{
	struct frontier *v = xcalloc(gs->n ? gs->n : 1, sizeof *v);
	size_t nv = 0;

	for (size_t k = 0; k < gs->n; k++) {
		const struct along_group *g = &gs->v[k];
		struct frontier *f = &v[nv];

		if (g->n < 2 || g->axis < 0)
			continue;
		nv++;
		f->g = g;
		for (size_t i = 0; i < g->n; i++) {
			const struct budget_pick *p = &picks[g->v[i]];

			if (!p->found) {
				if (isfinite(p->best_lat) && (f->lowest == NULL ||
							      p->best_lat < f->lowest->best_lat))
					f->lowest = p;
				continue;
			}
			/* Ties go to the first, the smaller setting. */
			if (f->best == NULL || p->rps > f->best->rps) {
				f->runner = f->best;
				f->best = p;
			} else if (f->runner == NULL || p->rps > f->runner->rps) {
				f->runner = p;
			}
		}
		if (f->best == NULL)
			continue;
		f->lowest = NULL;
		f->close = xcalloc(g->n, sizeof *f->close);
		for (size_t i = 0; i < g->n; i++) {
			const struct budget_pick *p = &picks[g->v[i]];

			/* An interval unknown on either side overlaps nothing:
			 * budget_find gives one to every pick, even of one repeat
			 * (its own figure). */
			if (p->found && p != f->best && p->rps_hi >= f->best->rps_lo &&
			    p->rps_lo <= f->best->rps_hi)
				f->close[f->nclose++] = p;
		}
	}
	*out = v;
	*n = nv;
}

void frontier_free(struct frontier *v, size_t n)
{
	for (size_t i = 0; v != NULL && i < n; i++)
		free(v[i].close);
	free(v);
}

/* The metric as words say it: "p99", "average", "p99.9". */
static const char *frontier_metric_word(const char *metric)
{
	static const char *const names[][2] = {
		{ "avg_ms", "average" }, { "p50_ms", "p50" }, { "p95_ms", "p95" },
		{ "p99_ms", "p99" }, { "p999_ms", "p99.9" }, { "max_ms", "maximum" },
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(metric, names[i][0]) == 0)
			return names[i][1];
	return metric;
}

const char *frontier_budget_words(const char *metric, double budget_ms, char *buf, size_t size)
{
	char b[32];

	num_fmt_g(b, sizeof b, budget_ms, 6);
	snprintf(buf, size, "a %s ms %s", b, frontier_metric_word(metric));
	return buf;
}

/* A latency in ms with three decimals, as the budget's table ("0.912"),
 * or "-". */
static const char *frontier_fms(char *buf, size_t size, double v)
{
	if (!isfinite(v))
		snprintf(buf, size, "-");
	else
		num_fmt(buf, size, v, 3);
	return buf;
}

/* A pick's figures, "727k rps (545k..899k), p99 0.912 ms (0.850..0.970)",
 * and for a marginal pick why, into buf. */
static void frontier_figures(const struct budget_pick *p, const char *metric, double budget_ms,
			     char *buf, size_t size)
{
	char r[3][32], l[3][32], b[32], why[96] = "";
	const char *m = frontier_metric_word(metric);

	if (p->marginal) {
		num_fmt_g(b, sizeof b, budget_ms, 6);
		snprintf(why, sizeof why, ", marginal: its %s interval reaches past %s ms", m, b);
	}
	snprintf(buf, size, "%s rps (%s..%s), %s %s ms (%s..%s)%s",
		 along_fmt_rps(r[0], sizeof r[0], p->rps), along_fmt_rps(r[1], sizeof r[1], p->rps_lo),
		 along_fmt_rps(r[2], sizeof r[2], p->rps_hi), m,
		 frontier_fms(l[0], sizeof l[0], p->lat), frontier_fms(l[1], sizeof l[1], p->lat_lo),
		 frontier_fms(l[2], sizeof l[2], p->lat_hi), why);
}

/* One frontier's line: "vm GET: within a 1 ms p99, P=32 with 16 clients
 * gives the most: 412k rps (...), p99 0.910 ms (...); runner-up P=64 with
 * 8 clients: ...; not told apart from the most ...". */
static void frontier_line(FILE *fp, const struct analysis_result *r, const struct frontier *f,
			  const char *metric, double budget_ms, int md)
{
	char name[3 * ROW_STR + 64], words[96], cell[2 * ROW_STR + 64], fig[256];

	along_group_name(f->g, r, name, sizeof name);
	frontier_budget_words(metric, budget_ms, words, sizeof words);
	fprintf(fp, "%s%s: ", md ? "- " : "  ", name);
	if (f->best == NULL) {
		if (f->lowest == NULL) {
			fprintf(fp, "no cell has %s figures\n", frontier_metric_word(metric));
			return;
		}
		along_cell_words(f->lowest->s, f->g->axis, f->lowest->best_depth, cell, sizeof cell);
		fprintf(fp, "no cell meets %s (the lowest, %s ms, at %s)\n", words,
			frontier_fms(fig, sizeof fig, f->lowest->best_lat), cell);
		return;
	}
	along_cell_words(f->best->s, f->g->axis, f->best->depth, cell, sizeof cell);
	frontier_figures(f->best, metric, budget_ms, fig, sizeof fig);
	fprintf(fp, "within %s, %s gives the most: %s", words, cell, fig);
	if (f->runner == NULL) {
		fputs("; no other cell meets the budget\n", fp);
		return;
	}
	along_cell_words(f->runner->s, f->g->axis, f->runner->depth, cell, sizeof cell);
	frontier_figures(f->runner, metric, budget_ms, fig, sizeof fig);
	fprintf(fp, "; runner-up %s: %s", cell, fig);
	if (f->nclose == 0) {
		fputs("; the most's throughput interval overlaps no other cell's\n", fp);
		return;
	}
	if (f->nclose == 1 && f->close[0] == f->runner) {
		fputs("; their throughput intervals overlap: the two are not told apart\n", fp);
		return;
	}
	fputs("; not told apart from the most (their throughput intervals overlap): ", fp);
	for (size_t i = 0; i < f->nclose; i++)
		fprintf(fp, "%s%s", i ? ", " : "", along_cell_words(f->close[i]->s, f->g->axis,
								     f->close[i]->depth, cell,
								     sizeof cell));
	fputc('\n', fp);
}

void frontier_write(FILE *fp, const struct analysis_result *r, const struct frontier *v, size_t n,
		    const char *metric, double budget_ms, int md)
{
	char words[96];

	if (n == 0)
		return;
	frontier_budget_words(metric, budget_ms, words, sizeof words);
	fprintf(fp, "\n%sFrontier within %s (of each label and test whose series vary a setting: "
		"the cell of depth and setting with the most throughput within it, the runner-up, and "
		"the cells whose throughput interval overlaps the most's; 95%% intervals)\n",
		md ? "## " : "", words);
	if (md)
		fputc('\n', fp);
	for (size_t i = 0; i < n; i++)
		frontier_line(fp, r, &v[i], metric, budget_ms, md);
}

/* A pick as a cell object, or null. */
static void frontier_json_cell(FILE *fp, const struct along_group *g, const struct budget_pick *p)
{
	if (p == NULL) {
		fputs("null", fp);
		return;
	}
	fputs("{\"test\":", fp);
	json_write_str(fp, p->s->test);
	fprintf(fp, ",\"depth\":%u,\"value\":", p->depth);
	along_json_value(fp, p->s, g->axis);
	json_write_num(fp, "rps", p->rps, 2);
	json_write_num(fp, "rps_lo", p->rps_lo, 2);
	json_write_num(fp, "rps_hi", p->rps_hi, 2);
	json_write_num(fp, "latency_ms", p->lat, 4);
	json_write_num(fp, "latency_lo", p->lat_lo, 4);
	json_write_num(fp, "latency_hi", p->lat_hi, 4);
	fprintf(fp, ",\"marginal\":%s}", p->marginal ? "true" : "false");
}

void frontier_write_json(FILE *fp, const struct analysis_result *r, const struct frontier *v,
			 size_t n)
{
	fputs("\"frontier\":[", fp);
	for (size_t i = 0; i < n; i++) {
		const struct frontier *f = &v[i];

		fputs(i ? ",\n{\"label\":" : "\n{\"label\":", fp);
		json_write_str(fp, f->g->label);
		fputs(",\"test\":", fp);
		json_write_str(fp, f->g->base);
		fputs(",\"axis\":", fp);
		json_write_str(fp, along_json_key(f->g->axis));
		along_json_held(fp, f->g, r);
		fputs(",\"best\":", fp);
		frontier_json_cell(fp, f->g, f->best);
		fputs(",\"runner_up\":", fp);
		frontier_json_cell(fp, f->g, f->runner);
		fputs(",\"not_told_apart\":[", fp);
		for (size_t k = 0; k < f->nclose; k++) {
			if (k)
				fputc(',', fp);
			frontier_json_cell(fp, f->g, f->close[k]);
		}
		fputc(']', fp);
		json_write_num(fp, "lowest_ms", f->lowest ? f->lowest->best_lat : NAN, 4);
		if (f->lowest != NULL) {
			fprintf(fp, ",\"lowest_depth\":%u,\"lowest_test\":", f->lowest->best_depth);
			json_write_str(fp, f->lowest->s->test);
		} else {
			fputs(",\"lowest_depth\":null,\"lowest_test\":null", fp);
		}
		fputc('}', fp);
	}
	fputs("]", fp);
}
