/* test_row_way.c: the one table of what makes a point another point.
 * Every column the CSV writes must be in it (a new column of the plan left
 * out fails here), and the settings it compares tell rows measured
 * another way from the run's: --expire, --key-prefix or a flush, and
 * --data-size-range (issue 40, D8). */
#include "config.h"

#include <criterion/criterion.h>
#include <string.h>

#include "results/csv.h"
#include "results/csv_int.h"
#include "results/row.h"
#include "results/row_way.h"

Test(row_way, every_column_of_the_csv_is_classified)
{
	for (size_t c = 0; c < csv_ncols(); c++) {
		const char *name = csv_col_name(c);
		int k = row_way_kind(name);

		cr_assert(k >= 0, "column '%s' is in no class of row_way.c's table: say whether it "
			  "tells a point, a setting, a result or a fact", name);
		if (k == ROW_WAY_SETTING)
			cr_assert_not_null(row_way_option(name), "setting '%s' names no option", name);
	}
	cr_assert_eq(row_way_kind("no_such_column"), -1);
}

/* One row as the CSV reader would keep it, of r. */
static const struct rs_rec *rec_of(struct rs_rows *rows, const struct rs_row *r)
{
	struct rs_err err;
	const struct rs_rec *rec = rows_add(rows, r, &err);

	cr_assert_not_null(rec, "%s", err.msg);
	return rec;
}

static struct rs_row row_base(void)
{
	struct rs_row r;

	row_init(&r);
	strcpy(r.label, "L");
	strcpy(r.test, "GET");
	strcpy(r.mode, "lockstep");
	r.pipeline = 1;
	r.repeat = 1;
	r.expire = 0;
	r.reconnect_every = 0;
	return r;
}

Test(row_way, settings_measured_another_way_differ)
{
	struct rs_rows rows = { 0 };
	struct rs_row base = row_base(), want = row_base(), older = row_base();
	char was[80], now[80];
	const struct rs_rec *plain, *old;
	const char *col;

	plain = rec_of(&rows, &base);
	cr_assert_null(row_way_differs(&rows, plain, &want, was, now, sizeof was));
	/* --resume --expire 10 on rows measured without a TTL. */
	want.expire = 10;
	col = row_way_differs(&rows, plain, &want, was, now, sizeof was);
	cr_assert_str_eq(col, "expire");
	cr_assert_str_eq(was, "0");
	cr_assert_str_eq(now, "10");
	/* A row from before the column: no TTL then. */
	older.expire = -1;
	older.reconnect_every = -1;
	old = rec_of(&rows, &older);
	cr_assert_str_eq(row_way_differs(&rows, old, &want, was, now, sizeof was), "expire");
	want.expire = 0;
	cr_assert_null(row_way_differs(&rows, old, &want, was, now, sizeof was));
	/* --resume --reconnect-every 10 on rows whose connections lasted,
	 * and on rows from before the column (issue 47). */
	want.reconnect_every = 10;
	cr_assert_str_eq(row_way_differs(&rows, plain, &want, was, now, sizeof was),
			 "reconnect_every");
	cr_assert_str_eq(was, "0");
	cr_assert_str_eq(now, "10");
	cr_assert_str_eq(row_way_differs(&rows, old, &want, was, now, sizeof was),
			 "reconnect_every");
	want.reconnect_every = 0;
	cr_assert_null(row_way_differs(&rows, old, &want, was, now, sizeof was));
	/* --key-prefix on rows of a flush-mode run, and the other way. */
	strcpy(want.key_prefix, "rsw:");
	cr_assert_str_eq(row_way_differs(&rows, plain, &want, was, now, sizeof was), "key_prefix");
	want.key_prefix[0] = '\0';
	/* --data-size-range on rows of values of one size. */
	strcpy(want.data_size_range, "1..100");
	cr_assert_str_eq(row_way_differs(&rows, plain, &want, was, now, sizeof was),
			 "data_size_range");
	rows_free(&rows);
}

Test(row_way, another_runs_prefix_is_the_same_way)
{
	struct rs_rows rows = { 0 };
	struct rs_row r = row_base(), want = row_base();
	char was[80], now[80];

	strcpy(r.key_prefix, "rsweep:0badf00d:");
	strcpy(want.key_prefix, "rsweep:12345678:");
	cr_assert_null(row_way_differs(&rows, rec_of(&rows, &r), &want, was, now, sizeof was));
	rows_free(&rows);
}
