/* goal.h: rsweep report --goal: the cell that best meets a goal, and the
 * cells that cannot be told from it (issue 30).
 *
 * --goal max-rps: over every point of a label and test's series (its
 * depths, and along an axis every value's: a group of along.h), the cell
 * (depth, setting) of the highest median throughput; beside it each
 * other cell whose ratio to it has a 95% interval that holds 1, by the
 * comparisons' own rule for two points (analysis_point_ratio: the core's
 * interval, else the repeats', paired when the sides have as many).
 * Such cells are as good as the best by what was measured: a list of
 * them is the honest answer where one cell alone would claim more than
 * the data tell.  A cell with no interval at all (one repeat, no noise
 * estimate) is listed apart.  Computes, and writes what it found. */
#ifndef RS_GOAL_H
#define RS_GOAL_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/along.h"

enum goal_kind { GOAL_NONE, GOAL_MAX_RPS };
/* --goal's names, in enum order (the option table points here). */
static const char *const goal_names[] = { "none", "max-rps", NULL };

/* A point of a group's series. */
struct goal_cell {
	size_t series;            /* into analysis_result.series */
	unsigned depth;
	double rps, rps_lo, rps_hi; /* its median and 95% interval (the core's;
				   * NAN when unknown) */
	struct knee_cmp cmp;      /* its ratio to the best, with interval */
};

struct goal {
	const struct along_group *g;   /* borrowed */
	size_t ncells;            /* the group's points */
	int found;                /* some point has a throughput above zero */
	struct goal_cell best;
	struct goal_cell *same;   /* the cells not told from the best; owned */
	size_t nsame;
	struct goal_cell *unknown;/* the cells without an interval; owned */
	size_t nunknown;
};

/* One goal for each group of gs (kind GOAL_MAX_RPS).  *out (goal_free
 * it) gets gs->n of them.  O(points) ratios a group, each of
 * KNEE_DEFAULT_B resamples. */
void goal_find(const struct along_groups *gs, const struct analysis_result *r, enum goal_kind kind,
	       struct goal **out, size_t *n);
void goal_free(struct goal *v, size_t n);

/* The goals in words, one line each: text, or markdown (md). */
void goal_write(FILE *fp, const struct analysis_result *r, const struct goal *v, size_t n,
		enum goal_kind kind, int md);
/* As a member of a JSON object, without a comma before or after:
 * "goal":{"name":"max-rps","groups":[{"label", "test": the base, "axis":
 * its title or null, "held", "cells", "best": a cell or null, "not_told_apart":
 * [cells], "no_interval":[cells]}]}; a cell is {"test", "depth",
 * "value" (null without an axis), "rps", "rps_lo", "rps_hi", and but for
 * the best "ratio", "ratio_lo", "ratio_hi"}. */
void goal_write_json(FILE *fp, const struct analysis_result *r, const struct goal *v, size_t n,
		     enum goal_kind kind);

/* The columns of goal_write_csv, in this order. */
#define GOAL_CSV_HEADER "label,test,axis,goal,role,cell_test,depth,value,rps,rps_lo,rps_hi," \
	"ratio,ratio_lo,ratio_hi"

/* As CSV (--format csv with --goal, in place of the report): a header,
 * then a line for the best cell of each group (role "best") and each cell
 * not told apart from it ("not_told_apart") or without an interval
 * ("no_interval"); figures unknown are empty. */
void goal_write_csv(FILE *fp, const struct analysis_result *r, const struct goal *v, size_t n,
		    enum goal_kind kind);

#endif
