/* row_way.h: what makes a measured point another point.  One table holds
 * every column of a row (csv.c's schema), each in one class: where the
 * point is in a plan, a setting it was measured with, a result, or a fact
 * about where and when.  --resume and --precision reuse a row only when
 * its settings are the run's: row_way_differs says which one is not.  A
 * column the table leaves out fails tests/test_row_way.c. */
#ifndef RS_ROW_WAY_H
#define RS_ROW_WAY_H

#include "results/row.h"

enum row_way_kind {
	/* Which point of a plan: label, test, depth, repeat, rate, run, and
	 * the mode and arrivals that tell a plan's points apart
	 * (sweep_plan_same_way). */
	ROW_WAY_POINT,
	/* How it was measured: a row of a label whose setting is not the
	 * run's is refused by --resume (so --precision never pools it). */
	ROW_WAY_SETTING,
	/* What the point measured. */
	ROW_WAY_RESULT,
	/* Where and when: the server, the client, the clock. */
	ROW_WAY_FACT,
};

/* The class of CSV column name: an enum row_way_kind, or -1 for a name
 * the table does not hold. */
int row_way_kind(const char *col);
/* The option that sets a ROW_WAY_SETTING column, for messages ("--expire"),
 * or NULL. */
const char *row_way_option(const char *col);

/* The first setting that row rec (of rows) was measured with otherwise
 * than want (a row as the run would write it: its settings filled) says,
 * by column name, with the two values as text into was and now (size
 * bytes each); NULL when every setting the table compares is the same.
 * Settings a row does not carry (older files: -1, "") are the default
 * they had then (no TTL, no prefix, values of one size).  clients,
 * data_size, threads, keyspace, key_dist, target and masters are settings
 * too, checked against the run's axes by run_check_resume; this compares
 * the others. */
const char *row_way_differs(const struct rs_rows *rows, const struct rs_rec *rec,
			    const struct rs_row *want, char *was, char *now, size_t size);

#endif
