/* test_mixshare.c: a mix's shares as sent, summed over rows, and the
 * server's calls against them (mixshare.h): the words report and plot
 * print, custom members whose lines hold separators, lists that do not
 * read, and the rows of one series found among a file's. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/mixshare.h"
#include "analysis/series.h"

Test(mixshare, shares_summed_over_rows_in_words)
{
	struct mixshare m;
	char buf[512];

	mixshare_init(&m);
	cr_assert_eq(mixshare_add(&m, "get=80,set=20", "GET=7994;SET=2006", "GET=7994;SET=2006"), 1);
	cr_assert_eq(mixshare_add(&m, "get=80,set=20", "GET=8006;SET=1994", "GET=8006;SET=1994"), 1);
	cr_assert_eq(m.n, 2);
	cr_assert_eq(m.sent[0], 16000);
	cr_assert_eq(m.sent[1], 4000);
	cr_assert_float_eq(mixshare_share(&m, 0), 0.8, 1e-12);
	cr_assert_eq(mixshare_words(&m, buf, sizeof buf), 1);
	cr_assert_str_eq(buf, "GET 80.0% and SET 20.0% of its requests as sent (weights 80:20)");
	cr_assert_eq(mixshare_legend(&m, buf, sizeof buf), 1);
	cr_assert_str_eq(buf, "GET 80%, SET 20%");
}

Test(mixshare, calls_that_disagree_are_said)
{
	struct mixshare m;
	char buf[512];

	mixshare_init(&m);
	mixshare_add(&m, "get=1,set=1,incr=2", "GET=250;SET=250;INCR=500", "GET=250;SET=240;INCR=500");
	/* A row without command statistics adds its requests, not its calls. */
	mixshare_add(&m, "get=1,set=1,incr=2", "GET=250;SET=250;INCR=500", "");
	mixshare_words(&m, buf, sizeof buf);
	cr_assert_str_eq(buf, "GET 25.0%, SET 25.0% and INCR 50.0% of its requests as sent "
			 "(weights 1:1:2); the server counted 240 SET calls for 250 sent");
}

/* LRANGE_100 and LRANGE_300 are both LRANGE: one entry of calls, against
 * the two members' requests together. */
Test(mixshare, members_sharing_a_command_are_one_count)
{
	struct mixshare m;
	char buf[512];

	mixshare_init(&m);
	mixshare_add(&m, "lrange_100=1,lrange_300=1,get=2", "LRANGE_100=10;LRANGE_300=30;GET=60",
		     "LRANGE_100+LRANGE_300=41;GET=60");
	cr_assert_eq(m.ngroups, 2);
	cr_assert_eq(m.group_sent[0], 40);
	mixshare_words(&m, buf, sizeof buf);
	cr_assert(strstr(buf, "; the server counted 41 LRANGE_100+LRANGE_300 calls for 40 sent") != NULL,
		  "%s", buf);
	cr_assert(strstr(buf, "GET calls") == NULL, "%s", buf);
}

/* A --commands file's members are its lines, which may hold ',', ';', '='
 * and '+': each entry still reads as NAME=DIGITS. */
Test(mixshare, custom_lines_hold_separators)
{
	struct mixshare m;
	char buf[512];

	mixshare_init(&m);
	cr_assert_eq(mixshare_add(&m, "SET k:__key__ a=b,c=3,EVAL return+1 0=1",
				  "SET k:__key__ a=b,c=30;EVAL return+1 0=10",
				  "SET k:__key__ a=b,c=30;EVAL return+1 0=10"), 1);
	cr_assert_eq(m.n, 2);
	cr_assert_str_eq(m.name[0], "SET k:__key__ a=b,c");
	cr_assert_str_eq(m.name[1], "EVAL return+1 0");
	cr_assert_eq(m.weight[0], 3);
	mixshare_words(&m, buf, sizeof buf);
	cr_assert_str_eq(buf, "'SET k:__key__ a=b,c' 75.0% and 'EVAL return+1 0' 25.0% of its "
			 "requests as sent (weights 3:1)");
}

Test(mixshare, lists_that_do_not_read_add_nothing)
{
	static const char *const bad[][3] = {
		{ "", "", "" },                                  /* a plain test */
		{ "get=80,set=20", "", "" },                     /* sent cut short */
		{ "get=80,set=20", "GET=1", "" },                /* fewer entries */
		{ "get=80", "GET=1", "" },                       /* one member */
		{ "get=80,set=20", "GET=1;SET=", "" },
		{ "get=80,set=20", "GET=1;SET=2;", "" },
		{ "get=80,set=20", "=1;SET=2", "" },
		{ "get=80,set=20", "GET=99999999999999999999999;SET=2", "" },
	};
	struct mixshare m;
	char buf[64];

	mixshare_init(&m);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		cr_assert_eq(mixshare_add(&m, bad[i][0], bad[i][1], bad[i][2]), 0, "case %zu", i);
	cr_assert_eq(m.rows, 0);
	cr_assert_eq(mixshare_words(&m, buf, sizeof buf), 0);
	cr_assert_str_empty(buf);
	cr_assert(isnan(mixshare_share(&m, 0)));
	/* Calls that name no member of the row: the requests count, no calls. */
	cr_assert_eq(mixshare_add(&m, "get=1,set=1", "GET=5;SET=5", "GET=5;DEL=5"), 1);
	cr_assert_eq(m.ngroups, 0);
}

Test(mixshare, rows_of_different_mixes_say_so)
{
	struct mixshare m;
	char buf[512];

	mixshare_init(&m);
	mixshare_add(&m, "GET a=1,SET a b=1", "GET a=50;SET a b=50", "");
	mixshare_add(&m, "GET a=1,DEL a=1", "GET a=50;DEL a=50", "");
	cr_assert_eq(m.n, 3);
	mixshare_words(&m, buf, sizeof buf);
	cr_assert_str_eq(buf, "'GET a' 50.0%, 'SET a b' 25.0% and 'DEL a' 25.0% of its requests "
			 "as sent (its rows hold different mixes)");
}

static void put(struct rs_rows *rows, const char *label, const char *test, unsigned depth,
		const char *mix, const char *sent)
{
	struct rs_row r;
	struct rs_err err = { 0 };

	row_init(&r);
	snprintf(r.label, sizeof r.label, "%s", label);
	snprintf(r.test, sizeof r.test, "%s", test);
	r.pipeline = depth;
	r.repeat = 1;
	r.rps = 1000 * depth;
	r.requests = 100;
	snprintf(r.mix, sizeof r.mix, "%s", mix);
	snprintf(r.mix_sent, sizeof r.mix_sent, "%s", sent);
	snprintf(r.mix_calls, sizeof r.mix_calls, "%s", sent);
	cr_assert_not_null(rows_add(rows, &r, &err), "%s", err.msg);
}

/* The compact rows keep the three columns, and a series finds its own
 * among every label's. */
Test(mixshare, a_series_finds_its_rows)
{
	struct rs_rows rows = { 0 };
	struct series_set set = { 0 };
	struct rs_err err = { 0 };
	const struct rs_rec **idx;
	const struct series *a, *b;
	struct mixshare m;
	size_t n;

	put(&rows, "b", "MIX_GET1_SET1", 1, "get=1,set=1", "GET=30;SET=70");
	put(&rows, "a", "GET", 1, "", "");
	put(&rows, "a", "MIX_GET1_SET1", 1, "get=1,set=1", "GET=50;SET=50");
	put(&rows, "a", "MIX_GET1_SET1", 2, "get=1,set=1", "GET=52;SET=48");
	put(&rows, "b", "MIX_GET1_SET1", 2, "get=1,set=1", "GET=30;SET=70");
	cr_assert_str_empty(rows.v[1].extra->mix);
	cr_assert_str_empty(rows.v[1].extra->mix_calls);
	cr_assert_str_eq(rows.v[2].extra->mix, "get=1,set=1");
	cr_assert_str_eq(rows.v[2].extra->mix_sent, "GET=50;SET=50");
	cr_assert_str_eq(rows.v[2].extra->mix_calls, "GET=50;SET=50");
	cr_assert_str_empty(rows.v[2].extra->master_rps);
	cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0, "%s", err.msg);
	n = mixshare_index(&rows, &idx);
	cr_assert_eq(n, 4);
	a = series_find(&set, "a", "MIX_GET1_SET1");
	b = series_find(&set, "b", "MIX_GET1_SET1");
	cr_assert(a != NULL && b != NULL);
	mixshare_init(&m);
	cr_assert_eq(mixshare_series(&m, &rows, idx, n, a), 2);
	cr_assert_eq(m.sent[0], 102);
	cr_assert_eq(m.sent[1], 98);
	mixshare_init(&m);
	cr_assert_eq(mixshare_series(&m, &rows, idx, n, b), 2);
	cr_assert_eq(m.sent[1], 140);
	mixshare_init(&m);
	cr_assert_eq(mixshare_series(&m, &rows, idx, n, series_find(&set, "a", "GET")), 0);
	free(idx);
	series_set_free(&set);
	rows_free(&rows);
}
