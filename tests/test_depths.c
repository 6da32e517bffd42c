/* test_depths.c: the -P depth-list syntax. */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <string.h>

#include "base/depths.h"

/* One accepted form and the depths it stands for.  Parameters are copied
 * into each test's process, which is not a fork of this one: text goes by
 * value, never by pointer. */
struct depths_case {
	char s[32];
	size_t n;
	unsigned want[8];
};

ParameterizedTestParameters(depths, forms)
{
	static struct depths_case cases[] = {
		{ "16", 1, { 16 } },
		{ "1..4", 4, { 1, 2, 3, 4 } },
		{ "1..64:x2", 7, { 1, 2, 4, 8, 16, 32, 64 } },
		{ "1..10:+4", 3, { 1, 5, 9 } },
		{ "1..3,24,32", 5, { 1, 2, 3, 24, 32 } },
		{ "7..7", 1, { 7 } },
	};

	return cr_make_param_array(struct depths_case, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(struct depths_case *c, depths, forms)
{
	struct depth_list d = { 0 };
	struct rs_err err;

	cr_assert_eq(depths_parse(c->s, &d, &err), 0, "%s: %s", c->s, err.msg);
	cr_assert_eq(d.n, c->n, "%s: %zu depths", c->s, d.n);
	for (size_t i = 0; i < c->n; i++)
		cr_assert_eq(d.v[i], c->want[i], "%s[%zu]", c->s, i);
	depths_free(&d);
}

/* One refused list. */
struct depths_bad {
	char s[16];
};

ParameterizedTestParameters(depths, errors)
{
	static struct depths_bad bad[] = { { "" }, { "0" }, { "1..0" }, { "3..1" }, { "1.." }, { "..4" }, { "a" },
		    { "1,,2" }, { "1,1" }, { "1..4:x1" }, { "1..4:y2" }, { "1..5000" },
		    { "2000000" }, { "-1" }, { "1..4:x" }, { " 1" } };

	return cr_make_param_array(struct depths_bad, bad, sizeof bad / sizeof bad[0]);
}

ParameterizedTest(struct depths_bad *bad, depths, errors)
{
	struct depth_list d = { 0 };
	struct rs_err err = { 0 };

	cr_assert_eq(depths_parse(bad->s, &d, &err), -1, "'%s' accepted", bad->s);
	cr_assert(err.msg[0] != '\0', "'%s': no message", bad->s);
	cr_assert_null(d.v, "'%s': depths left behind", bad->s);
}

/* A dash between numbers is what other tools take for a range: say how
 * this one writes it. */
Test(depths, dash_range_suggests_dots)
{
	struct depth_list d = { 0 };
	struct rs_err err = { 0 };

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
	/* The README's list: nine powers of two among 24 depths, 17 of them in
	 * the first tenth of 1..256. */
	cr_assert(depths_log_axis((unsigned[]){ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
						16, 24, 32, 48, 64, 96, 128, 192, 256 }, 24));
	cr_assert(depths_log_axis((unsigned[]){ 1, 2, 4, 8, 16, 32, 64 }, 7));
	/* Every depth 1..40: evenly spread, a linear axis. */
	unsigned lin[40];
	for (unsigned i = 0; i < 40; i++)
		lin[i] = i + 1;
	cr_assert(!depths_log_axis(lin, 40));
	cr_assert(!depths_log_axis((unsigned[]){ 1, 2 }, 2));
	cr_assert(!depths_log_axis((unsigned[]){ 1, 3, 5, 7 }, 4));
}

/* The printer lives next to the parser: what it writes reads back. */
Test(depths, format_reads_back)
{
	static const char *const in[] = { "16", "1..40", "1..64:x2", "1..41:+4", "1..4,8",
					  "1,3,9,10,11,12,100", "2,3", "1..3,5..7" };
	static const char *const want[] = { "16", "1..40", "1..64:x2", "1..41:+4", "1..4,8",
					    "1,3,9..12,100", "2,3", "1..3,5..7" };
	char buf[128];

	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
		struct depth_list a = { 0 }, b = { 0 };
		struct rs_err err;

		cr_assert_eq(depths_parse(in[i], &a, &err), 0, "%s", err.msg);
		depths_format(a.v, a.n, buf, sizeof buf);
		cr_assert_str_eq(buf, want[i]);
		cr_assert_eq(depths_parse(buf, &b, &err), 0, "%s: %s", buf, err.msg);
		cr_assert_eq(a.n, b.n);
		cr_assert_arr_eq(a.v, b.v, a.n * sizeof *a.v);
		depths_free(&a);
		depths_free(&b);
	}
}

Test(depths, format_cut_ends_in_dots)
{
	unsigned v[] = { 1, 3, 5, 70, 900, 1000 };
	char buf[12];

	depths_format(v, 6, buf, sizeof buf);
	cr_assert_str_eq(buf, "1,3,5,70...");
	depths_format(v, 0, buf, sizeof buf);
	cr_assert_str_eq(buf, "");
}
