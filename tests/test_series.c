/* test_series.c: rows grouped into series: order, lookups by name, many
 * names, rows without the metric, duplicates, medians; metric names and
 * the --tests matching rule. */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rows_helper.h"
#include "analysis/series.h"

static void build(const struct rs_rows *rows, struct series_set *set)
{
	struct rs_err err = { 0 };

	cr_assert_eq(series_build(rows, SM_RPS, set, &err), 0, "%s", err.msg);
}

/* A row of label/test at depth p, repeat rep, with c clients, d bytes and
 * server arguments args. */
static void add_axes(struct rs_rows *rows, const char *label, const char *test, unsigned p,
		     unsigned rep, int64_t c, int64_t d, const char *args, double rps)
{
	struct rs_row r;

	fill(&r, label, test, p, rep, rps, NAN);
	r.clients = c;
	r.data_size = d;
	r.threads = 1;
	snprintf(r.server_args, sizeof r.server_args, "%s", args);
	push(rows, &r);
}

/* An axis that varies among a label's rows splits its series, named by
 * the values, in the values' order (2 before 16, whatever the rows'
 * order); a label whose rows share the setting keeps plain names, as do
 * the axes that do not vary; a point at one depth and repeat on two
 * connection counts is no duplicate. */
Test(series, axes_split_series)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series *s;
	char buf[2 * ROW_STR + 96], v[32];

	add_axes(&rows, "a", "GET", 1, 1, 16, 3, "", 160);
	add_axes(&rows, "a", "GET", 1, 1, 2, 3, "", 20);
	add_axes(&rows, "a", "GET", 2, 1, 2, 3, "", 40);
	add_axes(&rows, "a", "SET", 1, 1, 2, 3, "", 10);
	add_axes(&rows, "b", "GET", 1, 1, 50, 3, "io-threads 4", 500);
	add_axes(&rows, "b", "GET", 1, 2, 50, 3, "io-threads 4", 510);
	build(&rows, &set);
	cr_assert_eq(set.n, 4);
	/* redis-benchmark's order: SET before GET. */
	cr_assert_str_eq(set.v[0].test, "SET c=2");
	cr_assert_str_eq(set.v[1].test, "GET c=2");
	cr_assert_str_eq(set.v[2].test, "GET c=16");
	cr_assert_str_eq(set.v[3].test, "GET");
	s = series_find(&set, "a", "GET c=2");
	cr_assert_not_null(s);
	cr_assert_eq(s->npts, 2);
	cr_assert_str_eq(s->base, "GET");
	cr_assert_eq(s->axes, 1u << SERIES_AXIS_CLIENTS);
	cr_assert_eq(s->clients, 2);
	cr_assert_str_eq(series_axis_value(s, SERIES_AXIS_CLIENTS, v, sizeof v), "2");
	cr_assert(series_holds(s, &rows, &rows.v[2]));
	cr_assert_not(series_holds(s, &rows, &rows.v[0]), "c=16 is another series");
	cr_assert_not(series_holds(s, &rows, &rows.v[3]), "SET is another test");
	cr_assert_str_eq(series_row_name(&set, &rows, &rows.v[0], buf, sizeof buf), "GET c=16");
	cr_assert_str_eq(series_row_name(&set, &rows, &rows.v[4], buf, sizeof buf), "GET");
	s = series_find(&set, "b", "GET");
	cr_assert_eq(s->axes, 0);
	cr_assert_eq(s->base, s->test);
	cr_assert_str_eq(s->server_args, "io-threads 4");
	cr_assert(series_holds(s, &rows, &rows.v[5]));
	series_set_free(&set);
	rows_free(&rows);
}

/* Server arguments as an axis: in brackets, "defaults" for none; two axes
 * at once. */
Test(series, axes_server_args_and_two_axes)
{
	struct rs_rows rows = { 0 };
	struct series_set set;

	add_axes(&rows, "a", "GET", 1, 1, 4, 3, "io-threads 4", 100);
	add_axes(&rows, "a", "GET", 1, 1, 4, 3, "", 90);
	add_axes(&rows, "a", "GET", 1, 1, 4, 1024, "", 80);
	build(&rows, &set);
	cr_assert_eq(set.n, 3);
	cr_assert_str_eq(set.v[0].test, "GET d=3 [io-threads 4]");
	cr_assert_str_eq(set.v[1].test, "GET d=3 [defaults]");
	cr_assert_str_eq(set.v[2].test, "GET d=1024 [defaults]");
	cr_assert_eq(set.v[0].axes, (1u << SERIES_AXIS_DATA_SIZE) | (1u << SERIES_AXIS_SERVER_ARGS));
	series_set_free(&set);
	rows_free(&rows);
}

/* --by clients: the values become labels, the tests stay whole. */
Test(series, label_by_axis)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	struct rs_err err;
	enum series_axis a;

	add_axes(&rows, "a", "GET", 1, 1, 16, 3, "", 160);
	add_axes(&rows, "a", "GET", 1, 1, 2, 3, "", 20);
	cr_assert_eq(series_axis_parse("clients", &a), 0);
	cr_assert_eq(a, SERIES_AXIS_CLIENTS);
	cr_assert_eq(series_axis_parse("colour", &a), -1);
	cr_assert_eq(series_label_by(&rows, SERIES_AXIS_CLIENTS, &err), 0, "%s", err.msg);
	build(&rows, &set);
	cr_assert_eq(set.n, 2);
	cr_assert_str_eq(set.v[0].label, "a c=16");
	cr_assert_str_eq(set.v[0].test, "GET");
	cr_assert_str_eq(set.v[1].label, "a c=2");
	series_set_free(&set);
	rows_free(&rows);
}

/* Labels and tests in order of first appearance; series label-major, then
 * by test order; points by depth; found by name. */
Test(series, order_and_lookup)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series *s;

	add(&rows, "b", "SET", 4, 1, 400, NAN);
	add(&rows, "a", "GET", 2, 1, 200, NAN);
	add(&rows, "b", "GET", 1, 1, 100, NAN);
	add(&rows, "a", "SET", 1, 1, 10, NAN);
	add(&rows, "b", "SET", 1, 2, 120, NAN);
	add(&rows, "b", "SET", 1, 1, 80, NAN);
	build(&rows, &set);
	cr_assert_eq(set.nlabels, 2);
	cr_assert_str_eq(set.labels[0], "b");
	cr_assert_str_eq(set.labels[1], "a");
	cr_assert_eq(set.ntests, 2);
	cr_assert_str_eq(set.tests[0], "SET");
	cr_assert_eq(set.n, 4);
	cr_assert_str_eq(set.v[0].label, "b");
	cr_assert_str_eq(set.v[0].test, "SET");
	cr_assert_str_eq(set.v[1].test, "GET");
	cr_assert_str_eq(set.v[2].label, "a");
	cr_assert_str_eq(set.v[2].test, "SET");
	s = series_find(&set, "b", "SET");
	cr_assert_eq(s, &set.v[0]);
	cr_assert_eq(s->npts, 2);
	cr_assert_eq(s->pts[0].depth, 1);
	cr_assert_eq(s->pts[0].n, 2);
	cr_assert_float_eq(s->pts[0].median, 100, 1e-9);
	cr_assert_eq(s->first->line, 7, "the series' first row: smallest depth, repeat, line");
	cr_assert_eq(series_at(s, 4), &s->pts[1]);
	cr_assert_null(series_at(s, 2));
	cr_assert_null(series_at(s, 5));
	cr_assert_eq(series_find(&set, "a", "GET"), &set.v[3]);
	cr_assert_null(series_find(&set, "a", "LPUSH"));
	cr_assert_null(series_find(&set, "c", "GET"));
	series_set_free(&set);
	rows_free(&rows);
}

/* Tests come out in redis-benchmark's order whatever the rows' order (a
 * shuffled run's), names it does not know after, as first seen; lookups
 * still find every series. */
Test(series, tests_in_benchmark_order)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	static const char *const want[] = { "SET", "GET", "SADD", "MSET", "MY_EVAL", "ANOTHER" };

	add(&rows, "a", "MY_EVAL", 1, 1, 10, NAN);
	add(&rows, "a", "SADD", 1, 1, 20, NAN);
	add(&rows, "a", "MSET", 2, 1, 30, NAN);
	add(&rows, "a", "GET", 1, 1, 40, NAN);
	add(&rows, "a", "ANOTHER", 1, 1, 50, NAN);
	add(&rows, "a", "SET", 1, 1, 60, NAN);
	build(&rows, &set);
	cr_assert_eq(set.ntests, 6);
	for (size_t i = 0; i < 6; i++) {
		cr_assert_str_eq(set.tests[i], want[i], "test %zu", i);
		cr_assert_str_eq(set.v[i].test, want[i], "series %zu", i);
		cr_assert_eq(set.v[i].test_idx, i);
		cr_assert_eq(series_find(&set, "a", want[i]), &set.v[i], "%s", want[i]);
	}
	cr_assert_float_eq(series_find(&set, "a", "GET")->pts[0].median, 40, 1e-9);
	series_set_free(&set);
	rows_free(&rows);
}

/* Thousands of names, each its own series: every one is found by name
 * and sits where the order says.  (Each name was a scan of the names
 * before it, and each lookup one of the series: minutes at this size.) */
static void many_names(int labels)
{
	enum { N = 30000 };
	struct rs_rows rows = { 0 };
	struct series_set set;
	char a[32], b[32];

	for (int i = 0; i < N; i++) {
		snprintf(a, sizeof a, "name%d", (i * 7919) % N);
		add(&rows, labels ? a : "x", labels ? "GET" : a, 1, 1, 1000 + i, NAN);
		add(&rows, labels ? a : "x", labels ? "GET" : a, 2, 1, 2000 + i, NAN);
	}
	build(&rows, &set);
	cr_assert_eq(set.n, N);
	cr_assert_eq(labels ? set.nlabels : set.ntests, N);
	for (int i = 0; i < N; i++) {
		const struct series *s;

		snprintf(a, sizeof a, "name%d", (i * 7919) % N);
		s = series_find(&set, labels ? a : "x", labels ? "GET" : a);
		cr_assert_not_null(s, "%s", a);
		cr_assert_eq(s, &set.v[i], "%s is series %td, not %d", a, s - set.v, i);
		cr_assert_eq(s->npts, 2);
		cr_assert_float_eq(s->pts[1].median, 2000 + i, 1e-9);
		cr_assert_str_eq(labels ? set.labels[i] : set.tests[i], a);
	}
	snprintf(b, sizeof b, "name%d", N);
	cr_assert_null(series_find(&set, labels ? b : "x", labels ? "GET" : b));
	series_set_free(&set);
	rows_free(&rows);
}

Test(series, thirty_thousand_labels)
{
	many_names(1);
}

Test(series, thirty_thousand_tests)
{
	many_names(0);
}

/* A 2-column import has no latency: the latency set is built from the
 * rows that have it, and is empty when none has. */
Test(series, build_known_skips_rows_without_the_metric)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	struct rs_err err = { 0 };

	add(&rows, "a", "GET", 1, 1, 100, NAN);
	add(&rows, "b", "GET", 1, 1, 100, 0.5);
	add(&rows, "b", "GET", 2, 1, 100, 0.25);
	cr_assert_eq(series_build(&rows, SM_AVG, &set, &err), -1);
	cr_assert(strstr(err.msg, "mem.csv:2: no avg figure") != NULL, "%s", err.msg);
	cr_assert_eq(series_build_known(&rows, SM_AVG, &set, &err), 0, "%s", err.msg);
	cr_assert_eq(set.n, 1);
	cr_assert_eq(set.nlabels, 1, "label a has no latency: not in the set");
	cr_assert_str_eq(set.v[0].label, "b");
	cr_assert_float_eq(set.v[0].pts[1].median, 0.25, 1e-12);
	series_set_free(&set);
	rows_free(&rows);
	add(&rows, "a", "GET", 1, 1, 100, NAN);
	cr_assert_eq(series_build_known(&rows, SM_AVG, &set, &err), 0, "%s", err.msg);
	cr_assert_eq(set.n, 0);
	cr_assert_null(series_find(&set, "a", "GET"));
	series_set_free(&set);
	rows_free(&rows);
}

/* The first duplicate in series order is named, with where it was first. */
Test(series, duplicate_points_are_refused)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	struct rs_err err = { 0 };

	add(&rows, "a", "GET", 1, 1, 100, NAN);
	add(&rows, "b", "GET", 1, 1, 100, NAN);
	add(&rows, "b", "GET", 1, 1, 100, NAN);
	add(&rows, "a", "GET", 2, 1, 100, NAN);
	add(&rows, "a", "GET", 2, 1, 100, NAN);
	cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), -1);
	cr_assert_str_eq(err.msg, "mem.csv:6: duplicate point (label 'a', GET, P=2, repeat 1; "
		     "first at mem.csv:5)");
	rows_free(&rows);
}

Test(series, keep_depths)
{
	struct rs_rows rows = { 0 };
	struct depth_list d = { (unsigned[]){ 1000000, 2 }, 2 };
	struct rs_err err = { 0 };

	for (unsigned p = 1; p <= 4; p++)
		add(&rows, "a", "GET", p, 1, 100.0 * p, NAN);
	add(&rows, "a", "GET", 1000000, 1, 1e6, NAN);
	cr_assert_eq(series_keep_depths(&rows, &d, &err), 0, "%s", err.msg);
	cr_assert_eq(rows.n, 2);
	cr_assert_eq(rows.v[0].pipeline, 2);
	cr_assert_eq(rows.v[1].pipeline, 1000000);
	d.v[0] = 3;
	d.n = 1;
	cr_assert_eq(series_keep_depths(&rows, &d, &err), -1);
	cr_assert(strstr(err.msg, "no row is at any of these depths") != NULL, "%s", err.msg);
	rows_free(&rows);
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median found by selection is the one sorting gives, bit for bit,
 * on random, sorted, reversed and repetitive values. */
Test(series, median_is_the_sorted_middle)
{
	unsigned seed = 7;
	double v[301], w[301];

	cr_assert(isnan(series_median(v, 0)));
	for (int round = 0; round < 4000; round++) {
		size_t n = 1 + (size_t)(round % 301);
		int kind = round % 5;
		double want;

		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			v[i] = kind == 0 ? (double)(seed >> 8) / 1e3 :
			       kind == 1 ? (double)i : kind == 2 ? (double)(n - i) :
			       kind == 3 ? (double)((seed >> 16) % 3) : 1e308 * ((seed >> 16) % 2 ? 1 : -1);
		}
		memcpy(w, v, n * sizeof *v);
		qsort(w, n, sizeof *w, cmp);
		want = n % 2 ? w[n / 2] : w[n / 2 - 1] + (w[n / 2] - w[n / 2 - 1]) / 2;
		cr_assert(series_median(v, n) == want, "round %d, n %zu", round, n);
	}
}

Test(series, metric_names_round_trip)
{
	static const char *const names[] = { "rps", "avg", "p50", "p95", "p99", "p999", "max" };
	enum series_metric m;

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		m = (enum series_metric)99;
		cr_assert_eq(series_metric_parse(names[i], &m), 0, "%s", names[i]);
		cr_assert_eq((size_t)m, i, "%s", names[i]);
		cr_assert_str_eq(series_metric_name(m), names[i]);
		cr_assert(series_metric_title(m)[0] != '\0', "%s has no axis title", names[i]);
	}
	cr_assert_str_eq(series_metric_title(SM_RPS), "requests per second");
	cr_assert_str_eq(series_metric_title(SM_AVG), "average latency (ms)");
	m = SM_P99;
	cr_assert_eq(series_metric_parse("RPS", &m), -1, "names are lower case");
	cr_assert_eq(series_metric_parse("p90", &m), -1);
	cr_assert_eq(series_metric_parse("", &m), -1);
	cr_assert_eq(m, SM_P99, "a refused name changed the metric");
}

/* A --tests item, a test as the data spells it, and whether one names the
 * other. */
struct series_match_case {
	char item[16];
	char test[16];
	int want;
};

ParameterizedTestParameters(series, test_matches)
{
	static struct series_match_case cases[] = {
		{ "get", "GET", 1 },
		{ "GET", "GET", 1 },
		{ "get", "GETSET", 0 },       /* a family is ITEM_SOMETHING, not a prefix */
		{ "lrange", "LRANGE_100", 1 },
		{ "lrange_100", "LRANGE_100", 1 },
		{ "lrange_10", "LRANGE_100", 0 },
		{ "ping", "PING_INLINE", 1 },
		{ "ping_mbulk", "PING_INLINE", 0 },
		{ "lrange_*", "LRANGE_600", 1 },
		{ "lrange_*", "LRANGE", 0 },
		{ "?pop", "LPOP", 1 },
		{ "[lr]push", "RPUSH", 1 },
		{ "[lr]push", "SADD", 0 },
		{ "", "GET", 0 },
		{ "set", "MSET", 0 },
	};

	return cr_make_param_array(struct series_match_case, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(struct series_match_case *c, series, test_matches)
{
	cr_assert_eq(series_test_matches(c->item, c->test), c->want, "'%s' against %s: wanted %d",
		     c->item, c->test, c->want);
}

Test(series, metric_value_reads_the_metric_figure)
{
	struct rs_rows rows = { 0 };
	struct rs_err err = { 0 };
	struct rs_row r;
	const struct rs_rec *rec;

	row_init(&r);
	snprintf(r.label, sizeof r.label, "a");
	snprintf(r.test, sizeof r.test, "GET");
	r.pipeline = 1;
	r.repeat = 1;
	r.rps = 1000.5;
	r.avg_ms = 0.25;
	r.p999_ms = 2.5;
	r.max_ms = 9;
	rec = rows_add(&rows, &r, &err);
	cr_assert_not_null(rec, "%s", err.msg);
	cr_assert_eq(series_metric_value(&rows, rec, SM_RPS), 1000.5);
	cr_assert_eq(series_metric_value(&rows, rec, SM_AVG), 0.25);
	cr_assert_eq(series_metric_value(&rows, rec, SM_P999), 2.5);
	cr_assert_eq(series_metric_value(&rows, rec, SM_MAX), 9);
	cr_assert(isnan(series_metric_value(&rows, rec, SM_P50)), "unknown is NAN");
	rows_free(&rows);
}

/* Plot, report and plot files read --tests through one function. */
Test(series, tests_pick_is_the_one_reading_of_a_tests_list)
{
	static const char *const names[] = { "GET", "SET", "LRANGE_100", "LRANGE_300" };
	struct rs_err err = { 0 };
	size_t *out = NULL, n = 0;

	/* The list's order, blanks trimmed, each test once. */
	cr_assert_eq(series_tests_pick(" set ,\tlrange, get,SET", names, 4, 1, &out, &n, &err), 0,
		     "%s", err.msg);
	cr_assert_eq(n, 4);
	cr_assert_eq(out[0], 1);
	cr_assert_eq(out[1], 2);
	cr_assert_eq(out[2], 3);
	cr_assert_eq(out[3], 0);
	/* Strict: a typo or an empty item is bad input, never a test dropped. */
	cr_assert_eq(series_tests_pick("get,gett", names, 4, 1, &out, &n, &err), -1);
	cr_assert_eq(err.kind, RS_E_INPUT);
	cr_assert_str_eq(err.msg, "unknown test 'gett' (tests in these files: GET, SET, LRANGE_100, "
			 "LRANGE_300)");
	/* Series of other modes and rates are their tests'. */
	{
		static const char *const modes[] = { "GET", "SET window", "GET window", "SET @5000/s" };
		size_t *o2 = NULL, n2 = 0;

		cr_assert_eq(series_tests_pick("lrange", modes, 4, 1, &o2, &n2, &err), -1);
		cr_assert_str_eq(err.msg, "unknown test 'lrange' (tests in these files: GET, SET)");
		free(o2);
	}
	cr_assert_eq(series_tests_pick("get,,set", names, 4, 1, &out, &n, &err), -1);
	cr_assert_str_eq(err.msg, "'get,,set': empty item");
	free(out);
	/* Not strict (a panel of a plot file): what the data lacks is passed over. */
	out = NULL;
	n = 0;
	cr_assert_eq(series_tests_pick("gett,,set", names, 4, 0, &out, &n, &err), 0);
	cr_assert_eq(n, 1);
	cr_assert_eq(out[0], 1);
	free(out);
}

/* A series is label x test x mode: lock-step and window rows of one test
 * are two lines (one chart can overlay them), and an open-loop row is a
 * series per offered rate; -t get picks every one of them. */
Test(series, modes_and_rates_are_series_of_their_own)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	struct rs_row r;

	fill(&r, "a", "GET", 4, 1, 100, NAN);
	snprintf(r.mode, sizeof r.mode, "lockstep");
	push(&rows, &r);
	fill(&r, "a", "GET", 4, 1, 90, NAN);
	snprintf(r.mode, sizeof r.mode, "window");
	push(&rows, &r);
	fill(&r, "a", "GET", 4, 1, 50, NAN);
	snprintf(r.mode, sizeof r.mode, "window");
	r.rate_offered = 50000;
	snprintf(r.arrivals, sizeof r.arrivals, "uniform");
	push(&rows, &r);
	fill(&r, "a", "GET", 4, 1, 49, NAN);
	snprintf(r.mode, sizeof r.mode, "window");
	r.rate_offered = 50000;
	snprintf(r.arrivals, sizeof r.arrivals, "poisson");
	push(&rows, &r);
	add(&rows, "a", "GET", 8, 1, 200, NAN);   /* no mode: a file without the column */
	build(&rows, &set);
	cr_assert_eq(set.n, 4, "%zu series", set.n);
	cr_assert_str_eq(set.v[0].test, "GET");
	cr_assert_eq(set.v[0].npts, 2, "lock-step and mode-less rows are one series");
	cr_assert_str_eq(set.v[1].test, "GET window");
	cr_assert_str_eq(set.v[2].test, "GET @50000/s");
	cr_assert_str_eq(set.v[3].test, "GET @50000/s poisson");
	cr_assert(series_test_matches("get", "GET window"));
	cr_assert(series_test_matches("get", "GET @50000/s"));
	cr_assert_not(series_test_matches("get", "GETRANGE window"));
	series_set_free(&set);
	rows_free(&rows);
}

Test(series, an_unknown_mode_is_refused)
{
	struct rs_rows rows = { 0 };
	struct rs_row r;
	struct rs_err err = { 0 };

	fill(&r, "a", "GET", 4, 1, 100, NAN);
	snprintf(r.mode, sizeof r.mode, "burst");
	cr_assert_null(rows_add(&rows, &r, &err));
	cr_assert_str_eq(err.msg, "mode 'burst' is neither lockstep nor window");
	rows_free(&rows);
}

/* series_order_tests puts a test's other series with it, in the
 * catalogue's order: a shuffled file's SET window before GET still
 * charts GET first. */
Test(series, a_tests_modes_keep_the_catalogue_order)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	struct rs_row r;

	fill(&r, "a", "SET", 4, 1, 100, NAN);
	snprintf(r.mode, sizeof r.mode, "window");
	push(&rows, &r);
	fill(&r, "a", "GET", 4, 1, 90, NAN);
	snprintf(r.mode, sizeof r.mode, "window");
	r.rate_offered = 50000;
	snprintf(r.arrivals, sizeof r.arrivals, "uniform");
	push(&rows, &r);
	add(&rows, "a", "SET", 4, 1, 80, NAN);
	add(&rows, "a", "GET", 4, 1, 70, NAN);
	build(&rows, &set);
	cr_assert_eq(set.n, 4, "%zu series", set.n);
	cr_assert_str_eq(set.v[0].test, "SET window");
	cr_assert_str_eq(set.v[1].test, "SET");
	cr_assert_str_eq(set.v[2].test, "GET @50000/s");
	cr_assert_str_eq(set.v[3].test, "GET");
	series_set_free(&set);
	rows_free(&rows);
}
