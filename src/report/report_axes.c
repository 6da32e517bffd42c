/* report_axes.c: the tables along an axis of the text and markdown
 * reports: for each label and test whose series differ along one
 * setting (-c 1,4,16: clients), each value's saturation depth and peak
 * with their 95% intervals, in the setting's order, so that how both move
 * with it reads down one column (report_int.h). */
#include "config.h"

#include <stdio.h>

#include "analysis/along.h"
#include "report/report_int.h"

void report_axes_block(FILE *fp, const struct analysis_result *r, const struct report_opts *o,
		       int md)
{
	struct along_groups gs;
	char name[3 * ROW_STR + 64], b[REPORT_CELL];

	along_groups_make(r, o->rows, 0, &gs);
	if (!along_groups_any(&gs)) {
		along_groups_free(&gs);
		return;
	}
	fprintf(fp, "\n%sAlong a setting (the saturation and peak of each label and test's series, "
		"in the order of the setting they vary; 95%% intervals)\n", md ? "## " : "");
	for (size_t k = 0, nth = 0; k < gs.n; k++) {
		const struct along_group *g = &gs.v[k];
		const char *head[3];
		struct rtab t;

		if (g->n < 2)
			continue;
		head[0] = series_axis_title((enum series_axis)g->axis);
		head[1] = "saturation P (95%)";
		head[2] = "peak rps (95% interval)";
		/* A server's arguments are words, left-aligned. */
		rtab_init(&t, head, g->axis == SERIES_AXIS_SERVER_ARGS ? "lrr" : "rrr");
		for (size_t i = 0; i < g->n; i++) {
			const struct analysis_series *a = &r->series[g->v[i]];

			rtab_add(&t, series_axis_value(a->rps, (enum series_axis)g->axis, b, sizeof b));
			rtab_add(&t, report_fsat(b, sizeof b, a));
			rtab_add(&t, report_fci(b, sizeof b, a->peak_rps, a->peak_lo, a->peak_hi));
		}
		/* A blank line between two tables, as between sections. */
		fprintf(fp, "%s%s by %s:\n%s", md ? "\n" : nth++ ? "\n  " : "  ",
			along_group_name(g, r, name, sizeof name), head[0], md ? "\n" : "");
		report_table(fp, &t, md);
	}
	along_groups_free(&gs);
}
