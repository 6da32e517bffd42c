/* test_num.c: numbers in and out (num.h): whole strings or nothing, no
 * clamping, ranges stated in the message, '.' whatever the locale. */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "base/num.h"

Test(num, u64_plain_and_suffixed)
{
	struct rs_err err = { 0 };
	uint64_t v = 0;

	cr_assert_eq(num_parse_u64("0", 0, 10, 0, &v, &err), 0, "%s", err.msg);
	cr_assert_eq(v, 0);
	cr_assert_eq(num_parse_u64("18446744073709551615", 0, UINT64_MAX, 0, &v, &err), 0);
	cr_assert_eq(v, UINT64_MAX);
	cr_assert_eq(num_parse_u64("50k", 0, UINT64_MAX, 1, &v, &err), 0, "%s", err.msg);
	cr_assert_eq(v, 50000);
	cr_assert_eq(num_parse_u64("2M", 0, UINT64_MAX, 1, &v, &err), 0);
	cr_assert_eq(v, 2000000);
	cr_assert_eq(num_parse_u64("3g", 0, UINT64_MAX, 1, &v, &err), 0);
	cr_assert_eq(v, 3000000000u);
	cr_assert_eq(num_parse_u64("7", 7, 7, 0, &v, &err), 0, "bounds are inclusive");
}

/* One refused input, its bounds and the message it must get. */
struct num_u64_bad {
	char s[32];
	uint64_t min, max;
	int suffix;
	char msg[80];
};

ParameterizedTestParameters(num, u64_refused)
{
	static struct num_u64_bad cases[] = {
		{ "", 0, 10, 0, "empty value" },
		{ "12x", 0, 100, 0, "'12x' is not a whole number" },
		{ " 5", 0, 10, 0, "' 5' is not a non-negative whole number" },
		{ "5 ", 0, 10, 0, "'5 ' is not a whole number" },
		{ "-3", 0, 10, 0, "'-3' is not a non-negative whole number" },
		{ "+3", 0, 10, 0, "'+3' is not a non-negative whole number" },
		{ "1.5", 0, 10, 0, "'1.5' is not a whole number" },
		{ "5k", 0, UINT64_MAX, 0, "'5k' is not a whole number" },
		{ "5kk", 0, UINT64_MAX, 1, "'5kk' is not a whole number" },
		{ "5t", 0, UINT64_MAX, 1, "'5t' is not a whole number" },
		{ "18446744073709551616", 0, UINT64_MAX, 0, "'18446744073709551616' is too large" },
		{ "18446744073709552G", 0, UINT64_MAX, 1, "'18446744073709552G' is too large" },
		{ "11", 0, 10, 0, "11 is out of range (0 to 10)" },
		{ "0", 1, 10, 0, "0 is out of range (1 to 10)" },
		{ "2k", 1, 1000, 1, "2k is out of range (1 to 1000)" },
	};

	return cr_make_param_array(struct num_u64_bad, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(struct num_u64_bad *c, num, u64_refused)
{
	struct rs_err err = { 0 };
	uint64_t v = 12345;

	cr_assert_eq(num_parse_u64(c->s, c->min, c->max, c->suffix, &v, &err), -1, "'%s' accepted",
		     c->s);
	cr_assert_str_eq(err.msg, c->msg, "'%s'", c->s);
	cr_assert_eq(v, 12345, "'%s': the output was written on failure", c->s);
}

Test(num, u64_null_is_empty)
{
	struct rs_err err = { 0 };
	uint64_t v;

	cr_assert_eq(num_parse_u64(NULL, 0, 10, 0, &v, &err), -1);
	cr_assert_str_eq(err.msg, "empty value");
	cr_assert_eq(num_parse_double(NULL, 0, 10, &(double){ 0 }, &err), -1);
	cr_assert_str_eq(err.msg, "empty value");
}

Test(num, double_accepted)
{
	struct rs_err err = { 0 };
	double v = 0;

	cr_assert_eq(num_parse_double("0.5", 0, 1, &v, &err), 0, "%s", err.msg);
	cr_assert_eq(v, 0.5);
	cr_assert_eq(num_parse_double("-2.25", -10, 10, &v, &err), 0);
	cr_assert_eq(v, -2.25);
	cr_assert_eq(num_parse_double("1e3", 0, 1e4, &v, &err), 0);
	cr_assert_eq(v, 1000);
	cr_assert_eq(num_parse_double("10", 0, 10, &v, &err), 0, "bounds are inclusive");
	/* Plain decimals take a fast path: it must round as strtod does. */
	cr_assert_eq(num_parse_double("123456.789", 0, 1e9, &v, &err), 0);
	cr_assert_eq(v, 123456.789);
	cr_assert_eq(num_parse_double("0.1", 0, 1, &v, &err), 0);
	cr_assert_eq(v, 0.1);
	cr_assert_eq(num_parse_double("1234567890.12345678", 0, 1e10, &v, &err), 0);
	cr_assert_eq(v, 1234567890.12345678);
}

/* One refused real number and its message. */
struct num_double_bad {
	char s[32];
	double min, max;
	char msg[80];
};

ParameterizedTestParameters(num, double_refused)
{
	static struct num_double_bad cases[] = {
		{ "", 0, 1, "empty value" },
		{ "nan", -1e300, 1e300, "'nan' is not a number" },
		{ "inf", -1e300, 1e300, "'inf' is not a number" },
		{ "1e400", -1e300, 1e300, "'1e400' is not a number" },
		{ "0x10", 0, 100, "'0x10' is not a number" },
		{ "1,5", 0, 10, "'1,5' is not a number" },
		{ "2.5s", 0, 10, "'2.5s' is not a number" },
		{ " 1", 0, 10, "' 1' is not a number" },
		{ "1.5", 2, 10, "1.5 is out of range (2 to 10)" },
		{ "-0.5", 0, 10, "-0.5 is out of range (0 to 10)" },
		{ "11", 0, 10, "11 is out of range (0 to 10)" },
	};

	return cr_make_param_array(struct num_double_bad, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(struct num_double_bad *c, num, double_refused)
{
	struct rs_err err = { 0 };
	double v = 42;

	cr_assert_eq(num_parse_double(c->s, c->min, c->max, &v, &err), -1, "'%s' accepted", c->s);
	cr_assert_str_eq(err.msg, c->msg, "'%s'", c->s);
	cr_assert_eq(v, 42, "'%s': the output was written on failure", c->s);
}

Test(num, double_n_reads_only_its_bytes)
{
	double v = 0;

	cr_assert_eq(num_parse_double_n("12.5,99", 4, &v), 0);
	cr_assert_eq(v, 12.5);
	cr_assert_eq(num_parse_double_n("12.5,99", 5, &v), -1, "the comma is junk");
	cr_assert_eq(num_parse_double_n("", 0, &v), -1);
	cr_assert_eq(num_parse_double_n("-", 1, &v), -1);
	cr_assert_eq(num_parse_double_n(".", 1, &v), -1);
	cr_assert_eq(num_parse_double_n("1e", 2, &v), -1);
	cr_assert_eq(num_parse_double_n("NaN", 3, &v), -1);
	cr_assert_eq(num_parse_double_n("-inf", 4, &v), -1);
	cr_assert_eq(num_parse_double_n("2.5e-3", 6, &v), 0);
	cr_assert_eq(v, 2.5e-3);
	/* Longer than any figure a CSV holds: refused, not cut. */
	cr_assert_eq(num_parse_double_n("1111111111111111111111111111111111111111111111111111111"
					"111111111111111", 70, &v), -1);
}

Test(num, formats)
{
	char buf[64];

	cr_assert_eq(num_fmt(buf, sizeof buf, 3.14159, 2), 4);
	cr_assert_str_eq(buf, "3.14");
	num_fmt(buf, sizeof buf, 2.5, 0);
	cr_assert_str_eq(buf, "2", "round half to even, as printf");
	num_fmt(buf, sizeof buf, -0.0004, 3);
	cr_assert_str_eq(buf, "-0.000");
	num_fmt_g(buf, sizeof buf, 1234567.0, 3);
	cr_assert_str_eq(buf, "1.23e+06");
	num_fmt_g(buf, sizeof buf, 0.5, 6);
	cr_assert_str_eq(buf, "0.5");
	/* Cut to the buffer, returning the length it wanted, as snprintf. */
	cr_assert_eq(num_fmt(buf, 4, 12345.678, 3), 9);
	cr_assert_str_eq(buf, "123");
}

/* A locale whose decimal mark is ',' changes neither reading nor writing. */
Test(num, decimal_point_whatever_the_locale)
{
	static const char *const names[] = { "de_DE.UTF-8", "fr_FR.UTF-8", "de_DE", NULL };
	const char *got = NULL;
	struct rs_err err;
	char buf[32];
	double v = 0;

	for (size_t i = 0; names[i] && got == NULL; i++)
		got = setlocale(LC_ALL, names[i]);
	if (got == NULL)
		cr_skip_test("no locale with a decimal comma installed (apt-get install locales-all)");
	cr_assert_str_eq(localeconv()->decimal_point, ",", "%s", got);
	num_fmt(buf, sizeof buf, 1.5, 2);
	cr_assert_str_eq(buf, "1.50");
	num_fmt_g(buf, sizeof buf, 0.25, 4);
	cr_assert_str_eq(buf, "0.25");
	cr_assert_eq(num_parse_double("2.75e1", 0, 100, &v, &err), 0, "%s", err.msg);
	cr_assert_eq(v, 27.5);
	cr_assert_eq(num_parse_double("2,75", 0, 100, &v, &err), -1, "a locale's comma was read");
	setlocale(LC_ALL, "C");
}
