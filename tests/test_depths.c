/* test_depths.c: the -P depth-list syntax. */
#include "config.h"

#include <criterion/criterion.h>
#include <string.h>

#include "depths.h"

static void expect(const char *s, const unsigned *want, size_t n)
{
	struct depth_list d = { 0 };
	struct rs_err err;

	cr_assert_eq(depths_parse(s, &d, &err), 0, "%s: %s", s, err.msg);
	cr_assert_eq(d.n, n, "%s: %zu depths", s, d.n);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(d.v[i], want[i], "%s[%zu]", s, i);
	depths_free(&d);
}

Test(depths, forms)
{
	expect("16", (unsigned[]){ 16 }, 1);
	expect("1..4", (unsigned[]){ 1, 2, 3, 4 }, 4);
	expect("1..64:x2", (unsigned[]){ 1, 2, 4, 8, 16, 32, 64 }, 7);
	expect("1..10:+4", (unsigned[]){ 1, 5, 9 }, 3);
	expect("1..3,24,32", (unsigned[]){ 1, 2, 3, 24, 32 }, 5);
	expect("7..7", (unsigned[]){ 7 }, 1);
}

Test(depths, errors)
{
	const char *bad[] = { "", "0", "1..0", "3..1", "1..", "..4", "a", "1,,2", "1,1", "1..4:x1",
			      "1..4:y2", "1..5000", "2000000", "-1", "1..4:x", " 1" };

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct depth_list d = { 0 };
		struct rs_err err = { "" };

		cr_assert_eq(depths_parse(bad[i], &d, &err), -1, "'%s' accepted", bad[i]);
		cr_assert(err.msg[0] != '\0');
	}
}

/* A dash between numbers is what other tools take for a range: say how
 * this one writes it. */
Test(depths, dash_range_suggests_dots)
{
	struct depth_list d = { 0 };
	struct rs_err err = { "" };

	cr_assert_eq(depths_parse("1-8", &d, &err), -1);
	cr_assert_str_eq(err.msg, "'1-8' is not a depth; a range is written 1..8");
	cr_assert_eq(depths_parse("1..4,16-64:x2", &d, &err), -1);
	cr_assert_str_eq(err.msg, "'16-64:x2' is not a depth; a range is written 16..64:x2");
	cr_assert_eq(depths_parse("-1", &d, &err), -1);
	cr_assert(strstr(err.msg, "range") == NULL, "%s", err.msg);
	cr_assert_null(d.v);
}

Test(depths, powers_of_two)
{
	cr_assert(depths_powers_of_two((unsigned[]){ 1, 2, 4, 8 }, 4));
	cr_assert(!depths_powers_of_two((unsigned[]){ 1, 2, 3 }, 3));
}
