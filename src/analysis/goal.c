/* goal.c: the cell that best meets --goal, and those not told from it
 * (goal.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/csv.h"
#include "analysis/goal.h"
#include "base/json.h"
#include "base/num.h"
#include "base/xalloc.h"

/* Cell (series i, its point k) with the core's interval of its median. */
static void goal_cell_of(const struct analysis_result *r, size_t i, size_t k,
			 struct goal_cell *c)
{
	const struct analysis_series *a = &r->series[i];
	const struct series_point *p = &a->rps->pts[k];

	memset(c, 0, sizeof *c);
	c->series = i;
	c->depth = p->depth;
	c->rps = p->median;
	c->rps_lo = c->rps_hi = NAN;
	c->cmp.ratio.est = c->cmp.ratio.lo = c->cmp.ratio.hi = NAN;
	c->cmp.verdict = KNEE_UNKNOWN;
	if (a->knee.ok && a->knee.res.m == a->rps->npts) {
		c->rps_lo = a->knee.res.pts[k].median.lo;
		c->rps_hi = a->knee.res.pts[k].median.hi;
	}
}

void goal_find(const struct along_groups *gs, const struct analysis_result *r, enum goal_kind kind,
	       struct goal **out, size_t *n)
{
	struct goal *v = xcalloc(gs->n ? gs->n : 1, sizeof *v);

	(void)kind;  /* max-rps is the one goal so far */
	for (size_t k = 0; k < gs->n; k++) {
		const struct along_group *g = &gs->v[k];
		struct goal *o = &v[k];
		size_t bi = 0, bk = 0;

		o->g = g;
		for (size_t i = 0; i < g->n; i++) {
			const struct series *s = r->series[g->v[i]].rps;

			for (size_t p = 0; p < s->npts; p++) {
				o->ncells++;
				/* Ties go to the first: the smaller setting, the
				 * shallower depth. */
				if (s->pts[p].median > 0 &&
				    (!o->found || s->pts[p].median > o->best.rps)) {
					o->found = 1;
					o->best.rps = s->pts[p].median;
					bi = g->v[i];
					bk = p;
				}
			}
		}
		if (!o->found)
			continue;
		goal_cell_of(r, bi, bk, &o->best);
		o->same = xcalloc(o->ncells, sizeof *o->same);
		o->unknown = xcalloc(o->ncells, sizeof *o->unknown);
		for (size_t i = 0; i < g->n; i++) {
			const struct series *s = r->series[g->v[i]].rps;

			for (size_t p = 0; p < s->npts; p++) {
				struct goal_cell c;

				if (g->v[i] == bi && p == bk)
					continue;
				goal_cell_of(r, g->v[i], p, &c);
				if (analysis_point_ratio(&r->series[g->v[i]], c.depth, &r->series[bi],
							 o->best.depth, &c.cmp) < 0)
					continue;
				if (!isfinite(c.cmp.ratio.lo) || !isfinite(c.cmp.ratio.hi))
					o->unknown[o->nunknown++] = c;
				else if (c.cmp.ratio.lo <= 1 && c.cmp.ratio.hi >= 1)
					o->same[o->nsame++] = c;
			}
		}
	}
	*out = v;
	*n = gs->n;
}

void goal_free(struct goal *v, size_t n)
{
	for (size_t i = 0; v != NULL && i < n; i++) {
		free(v[i].same);
		free(v[i].unknown);
	}
	free(v);
}

/* "P=16 with 4 clients (0.93x, 0.85x..1.02x)" into buf; without the
 * ratio when it has none. */
static void goal_cell_words(const struct analysis_result *r, const struct goal *o,
			    const struct goal_cell *c, char *buf, size_t size)
{
	char cell[2 * ROW_STR + 64], x[32], y[32], z[32];

	along_cell_words(r->series[c->series].rps, o->g->axis, c->depth, cell, sizeof cell);
	if (isfinite(c->cmp.ratio.lo) && isfinite(c->cmp.ratio.hi))
		snprintf(buf, size, "%s (%sx, %sx..%sx)", cell,
			 analysis_fmt_ratio(x, sizeof x, c->cmp.ratio.est),
			 analysis_fmt_ratio(y, sizeof y, c->cmp.ratio.lo),
			 analysis_fmt_ratio(z, sizeof z, c->cmp.ratio.hi));
	else
		snprintf(buf, size, "%s", cell);
}

/* Most tied cells listed on the group's own line; more go in a table. */
#define GOAL_INLINE_MAX 6

/* Whether tied cell b follows a in its series with nothing but the best
 * cell between them (a run of depths). */
static int goal_next(const struct analysis_result *r, const struct goal *o,
		     const struct goal_cell *a, const struct goal_cell *b)
{
	const struct series *s = r->series[a->series].rps;
	size_t k = 0;

	if (a->series != b->series)
		return 0;
	while (k < s->npts && s->pts[k].depth != a->depth)
		k++;
	if (k + 1 < s->npts && s->pts[k + 1].depth == b->depth)
		return 1;
	return k + 2 < s->npts && s->pts[k + 2].depth == b->depth && o->best.series == a->series &&
	       s->pts[k + 1].depth == o->best.depth;
}

/* The tied cells of o as a small table: for a group along depth alone,
 * runs of depths with their ratios' range ("P=23..36  14  0.87x-0.98x");
 * along a setting, a row a cell with its ratio and interval. */
static void goal_ties_table(FILE *fp, const struct analysis_result *r, const struct goal *o,
			    int md)
{
	const char *ind = md ? "  - " : "      ";

	if (o->g->axis >= 0) {
		for (size_t i = 0; i < o->nsame; i++) {
			char w[3 * ROW_STR + 128];

			goal_cell_words(r, o, &o->same[i], w, sizeof w);
			fprintf(fp, "%s%s\n", ind, w);
		}
		return;
	}
	if (!md)
		fprintf(fp, "%s%-12s %5s  %s\n", ind, "depths", "cells", "ratio to it");
	for (size_t i = 0, j; i < o->nsame; i = j) {
		double lo = o->same[i].cmp.ratio.est, hi = lo;
		char d[64], x[32], y[32];

		for (j = i + 1; j < o->nsame && goal_next(r, o, &o->same[j - 1], &o->same[j]); j++) {
			lo = fmin(lo, o->same[j].cmp.ratio.est);
			hi = fmax(hi, o->same[j].cmp.ratio.est);
		}
		if (j - i == 1)
			snprintf(d, sizeof d, "P=%u", o->same[i].depth);
		else
			snprintf(d, sizeof d, "P=%u..%u", o->same[i].depth, o->same[j - 1].depth);
		analysis_fmt_ratio(x, sizeof x, lo);
		analysis_fmt_ratio(y, sizeof y, hi);
		if (md)
			fprintf(fp, "%s%s: %zu cell%s, %sx-%sx\n", ind, d, j - i, j - i == 1 ? "" : "s",
				x, y);
		else if (j - i == 1)
			fprintf(fp, "%s%-12s %5zu  %sx\n", ind, d, j - i, x);
		else
			fprintf(fp, "%s%-12s %5zu  %sx-%sx\n", ind, d, j - i, x, y);
	}
}

/* One group's line. */
static void goal_line(FILE *fp, const struct analysis_result *r, const struct goal *o, int md)
{
	char name[3 * ROW_STR + 64], cell[2 * ROW_STR + 64], a[32], b[32], c[32];

	along_group_name(o->g, r, name, sizeof name);
	fprintf(fp, "%s%s: ", md ? "- " : "  ", name);
	if (!o->found) {
		fputs("no point has a throughput above zero\n", fp);
		return;
	}
	along_cell_words(r->series[o->best.series].rps, o->g->axis, o->best.depth, cell, sizeof cell);
	fprintf(fp, "%s gives the most of %zu cells, %s rps", cell, o->ncells,
		along_fmt_rps(a, sizeof a, o->best.rps));
	if (isfinite(o->best.rps_lo) && isfinite(o->best.rps_hi))
		fprintf(fp, " (%s..%s)", along_fmt_rps(b, sizeof b, o->best.rps_lo),
			along_fmt_rps(c, sizeof c, o->best.rps_hi));
	if (o->nsame == 0 && o->nunknown == 0) {
		fputs(o->ncells > 1 ? "; every other cell's ratio to it has an interval below 1\n" :
		      "\n", fp);
		return;
	}
	if (o->nsame > GOAL_INLINE_MAX) {
		/* Many ties: a small table under the line, not one long line
		 * (issue 44: 20 tied cells in a row). */
		fprintf(fp, "; %zu cells not told apart from it (ratio to it, 95%% interval "
			"holding 1)%s", o->nsame, o->nunknown > 0 ? "" : ":\n");
		if (o->nunknown == 0) {
			goal_ties_table(fp, r, o, md);
			return;
		}
	} else if (o->nsame > 0) {
		fprintf(fp, "; not told apart from it (ratio to it, 95%% interval holding 1): ");
		for (size_t i = 0; i < o->nsame; i++) {
			char w[3 * ROW_STR + 128];

			goal_cell_words(r, o, &o->same[i], w, sizeof w);
			fprintf(fp, "%s%s", i ? ", " : "", w);
		}
	} else if (o->ncells - 1 > o->nunknown) {
		fputs("; every other cell with an interval is below it", fp);
	}
	if (o->nunknown > 0) {
		fprintf(fp, "; no interval (one measurement, noise unknown: --repeat 5) for ");
		for (size_t i = 0; i < o->nunknown; i++) {
			char w[3 * ROW_STR + 128];

			goal_cell_words(r, o, &o->unknown[i], w, sizeof w);
			fprintf(fp, "%s%s", i ? ", " : "", w);
		}
	}
	fputc('\n', fp);
	if (o->nsame > GOAL_INLINE_MAX) {
		fputs(md ? "  - the cells not told apart:\n" : "    the cells not told apart:\n", fp);
		goal_ties_table(fp, r, o, md);
	}
}

void goal_write(FILE *fp, const struct analysis_result *r, const struct goal *v, size_t n,
		enum goal_kind kind, int md)
{
	int axis = 0;

	for (size_t i = 0; i < n; i++)
		axis |= v[i].g->axis >= 0;
	if (n == 0)
		return;
	fprintf(fp, "\n%sGoal %s (of each label and test, the %s with the highest median "
		"throughput, and the cells whose ratio to it has a 95%% interval that holds 1: not "
		"told apart)\n", md ? "## " : "", goal_names[kind],
		axis ? "cell of depth and setting" : "depth");
	if (md)
		fputc('\n', fp);
	for (size_t i = 0; i < n; i++)
		goal_line(fp, r, &v[i], md);
}

/* A cell's object; with its ratio to the best unless best. */
static void goal_json_cell(FILE *fp, const struct analysis_result *r, const struct goal *o,
			   const struct goal_cell *c, int best)
{
	const struct series *s = r->series[c->series].rps;

	fputs("{\"test\":", fp);
	json_write_str(fp, s->test);
	fprintf(fp, ",\"depth\":%u,\"value\":", c->depth);
	along_json_value(fp, s, o->g->axis);
	json_write_num(fp, "rps", c->rps, 2);
	json_write_num(fp, "rps_lo", c->rps_lo, 2);
	json_write_num(fp, "rps_hi", c->rps_hi, 2);
	if (!best) {
		json_write_num(fp, "ratio", c->cmp.ratio.est, 4);
		json_write_num(fp, "ratio_lo", c->cmp.ratio.lo, 4);
		json_write_num(fp, "ratio_hi", c->cmp.ratio.hi, 4);
	}
	fputc('}', fp);
}

void goal_write_json(FILE *fp, const struct analysis_result *r, const struct goal *v, size_t n,
		     enum goal_kind kind)
{
	fputs("\"goal\":{\"name\":", fp);
	json_write_str(fp, goal_names[kind]);
	fputs(",\"groups\":[", fp);
	for (size_t i = 0; i < n; i++) {
		const struct goal *o = &v[i];

		fputs(i ? ",\n{\"label\":" : "\n{\"label\":", fp);
		json_write_str(fp, o->g->label);
		fputs(",\"test\":", fp);
		json_write_str(fp, o->g->base);
		fputs(",\"axis\":", fp);
		if (o->g->axis >= 0)
			json_write_str(fp, along_json_key(o->g->axis));
		else
			fputs("null", fp);
		along_json_held(fp, o->g, r);
		fprintf(fp, ",\"cells\":%zu,\"best\":", o->ncells);
		if (o->found)
			goal_json_cell(fp, r, o, &o->best, 1);
		else
			fputs("null", fp);
		fputs(",\"not_told_apart\":[", fp);
		for (size_t k = 0; k < o->nsame; k++) {
			if (k)
				fputc(',', fp);
			goal_json_cell(fp, r, o, &o->same[k], 0);
		}
		fputs("],\"no_interval\":[", fp);
		for (size_t k = 0; k < o->nunknown; k++) {
			if (k)
				fputc(',', fp);
			goal_json_cell(fp, r, o, &o->unknown[k], 0);
		}
		fputs("]}", fp);
	}
	fputs("]}", fp);
}

/* One line of the csv. */
static void goal_csv_cell(FILE *fp, const struct analysis_result *r, const struct goal *o,
			  enum goal_kind kind, const char *role, const struct goal_cell *c)
{
	const struct series *s = r->series[c->series].rps;
	char v[ROW_STR];

	csv_put_field(fp, o->g->label);
	fputc(',', fp);
	csv_put_field(fp, o->g->base);
	fputc(',', fp);
	if (o->g->axis >= 0)
		csv_put_field(fp, series_axis_title((enum series_axis)o->g->axis));
	fprintf(fp, ",%s,%s,", goal_names[kind], role);
	csv_put_field(fp, s->test);
	fprintf(fp, ",%u,", c->depth);
	if (o->g->axis >= 0)
		csv_put_field(fp, series_axis_value(s, (enum series_axis)o->g->axis, v, sizeof v));
	csv_put_num(fp, c->rps, 2);
	csv_put_num(fp, c->rps_lo, 2);
	csv_put_num(fp, c->rps_hi, 2);
	csv_put_num(fp, c->cmp.ratio.est, 4);
	csv_put_num(fp, c->cmp.ratio.lo, 4);
	csv_put_num(fp, c->cmp.ratio.hi, 4);
	fputc('\n', fp);
}

void goal_write_csv(FILE *fp, const struct analysis_result *r, const struct goal *v, size_t n,
		    enum goal_kind kind)
{
	fputs(GOAL_CSV_HEADER "\n", fp);
	for (size_t i = 0; i < n; i++) {
		const struct goal *o = &v[i];

		if (!o->found)
			continue;
		goal_csv_cell(fp, r, o, kind, "best", &o->best);
		for (size_t k = 0; k < o->nsame; k++)
			goal_csv_cell(fp, r, o, kind, "not_told_apart", &o->same[k]);
		for (size_t k = 0; k < o->nunknown; k++)
			goal_csv_cell(fp, r, o, kind, "no_interval", &o->unknown[k]);
	}
}
