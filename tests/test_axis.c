/* test_axis.c: the lists of -c, -d and --threads (values, ranges, bounds,
 * duplicates) and their product: every combination once, in order, with
 * more threads than connections left out. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>

#include "base/axis.h"

static void parse_ok(const char *s, uint64_t min, uint64_t max, struct axis_list *a)
{
	struct rs_err err;

	cr_assert_eq(axis_parse(s, min, max, a, &err), 0, "%s: %s", s, err.msg);
}

Test(axis, values_ranges_and_suffixes)
{
	struct axis_list a = { 0 };

	parse_ok("50", 1, 100000, &a);
	cr_assert_eq(a.n, 1);
	cr_assert_eq(a.v[0], 50);
	parse_ok("1..64:x2", 1, 100000, &a);
	cr_assert_eq(a.n, 7);
	cr_assert_eq(a.v[6], 64);
	cr_assert_eq(axis_max(&a), 64);
	parse_ok("3,1k,16k", 1, 512 * 1024 * 1024, &a);
	cr_assert_eq(a.n, 3);
	cr_assert_eq(a.v[0], 3);
	cr_assert_geq(a.v[1], 1000, "k is a thousand or 1024");
	parse_ok("8,2,4", 1, 256, &a);
	cr_assert_eq(a.v[0], 8, "in the order given");
	axis_free(&a);
	cr_assert_null(a.v);
}

Test(axis, bad_lists_say_which_item)
{
	static const struct { const char *s, *msg; } bad[] = {
		{ "0", "0 is out of range (1 to 256)" },
		{ "1..512:x2", "'1..512:x2': 512 is out of range (1 to 256)" },
		{ "2,2", "2 is listed twice" },
		{ "1..100", "'1..100': more than 64 values" },
		{ "", "empty list" },
		{ "ten", "'ten' is not" },
	};
	struct axis_list a = { 0 };
	struct rs_err err;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cr_assert_eq(axis_parse(bad[i].s, 1, 256, &a, &err), -1, "%s", bad[i].s);
		cr_assert(strstr(err.msg, bad[i].msg) != NULL, "'%s': '%s'", bad[i].s, err.msg);
	}
	cr_assert_null(a.v, "a failed parse leaves the list as it was");
}

/* c x d x t: every combination once, d outermost, then c, then t; a
 * thread without a connection is no combination. */
Test(axis, product_of_three)
{
	struct axis_list c = { 0 }, d = { 0 }, t = { 0 };
	struct axis_point *p;
	size_t skipped, n;

	parse_ok("1,2,4", 1, 100000, &c);
	parse_ok("3,100", 1, 1000, &d);
	parse_ok("1,2", 1, 256, &t);
	n = axis_points(&c, &d, &t, &p, &skipped);
	cr_assert_eq(n, 3 * 2 * 2 - 2);
	cr_assert_eq(skipped, 2, "c=1 t=2 at each -d");
	cr_assert_eq(p[0].data_size, 3);
	cr_assert_eq(p[0].clients, 1);
	cr_assert_eq(p[0].threads, 1);
	cr_assert_eq(p[1].clients, 2);
	cr_assert_eq(p[1].threads, 1);
	cr_assert_eq(p[2].clients, 2);
	cr_assert_eq(p[2].threads, 2);
	cr_assert_eq(p[5].data_size, 100);
	for (size_t i = 0; i < n; i++) {
		cr_assert_leq(p[i].threads, p[i].clients);
		for (size_t j = 0; j < i; j++)
			cr_assert(p[i].clients != p[j].clients || p[i].data_size != p[j].data_size ||
				  p[i].threads != p[j].threads, "combination %zu twice", i);
	}
	free(p);
	axis_free(&c);
	axis_free(&d);
	axis_free(&t);
}
