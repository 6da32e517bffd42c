/* test_rates.c: the --rate list syntax (rates.h): the lists it accepts and
 * what they stand for, and every kind of refusal with its message. */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <string.h>

#include "base/rates.h"

/* One accepted list and the rates it stands for.  Parameters are copied
 * into each test's process: text by value, never by pointer. */
struct rates_case {
	char s[40];
	size_t n;
	uint64_t want[8];
};

ParameterizedTestParameters(rates, accepted_lists_expand_in_order)
{
	static struct rates_case cases[] = {
		{ "50k", 1, { 50000 } },
		{ "1", 1, { 1 } },
		{ "1G", 1, { 1000000000 } },      /* RATES_MAX_VALUE itself */
		{ "3M", 1, { 3000000 } },
		{ "2500K", 1, { 2500000 } },
		{ "50k..400k:x2", 4, { 50000, 100000, 200000, 400000 } },
		{ "50k..400k:*2", 4, { 50000, 100000, 200000, 400000 } },
		{ "10k..50k:+10k", 5, { 10000, 20000, 30000, 40000, 50000 } },
		{ "1k,5k,20k", 3, { 1000, 5000, 20000 } },
		{ "20k,1k", 2, { 20000, 1000 } },   /* as given, not sorted */
		{ "5..20:+10", 2, { 5, 15 } },       /* the bound need not be reached */
		{ "1k..1k", 1, { 1000 } },
		{ "1..4", 4, { 1, 2, 3, 4 } },
		{ "1k..3k:x2,5k", 3, { 1000, 2000, 5000 } },
	};

	return cr_make_param_array(struct rates_case, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(struct rates_case *c, rates, accepted_lists_expand_in_order)
{
	struct rate_list r = { 0 };
	struct rs_err err = { 0 };

	cr_assert_eq(rates_parse(c->s, &r, &err), 0, "%s: %s", c->s, err.msg);
	cr_assert_eq(r.n, c->n, "%s: %zu rates", c->s, r.n);
	for (size_t i = 0; i < c->n; i++)
		cr_assert_eq(r.v[i], c->want[i], "%s[%zu]: %llu", c->s, i, (unsigned long long)r.v[i]);
	rates_free(&r);
	cr_assert_null(r.v);
	cr_assert_eq(r.n, 0);
}

/* One refused list and the whole message it must give. */
struct rates_bad {
	char s[48];
	char msg[112];
};

ParameterizedTestParameters(rates, refusals_name_the_item_and_the_rule)
{
	static struct rates_bad bad[] = {
		{ "", "empty rate list" },
		{ "0", "'0': a rate is at least 1 request a second" },
		{ "0k..4k", "'0k..4k': a rate is at least 1 request a second" },
		{ "1k..4k:+0", "'1k..4k:+0': a rate is at least 1 request a second" },
		{ "2G", "'2G': rate 2000000000 is over 1000000000 requests a second" },
		{ "1000000001", "'1000000001': rate 1000000001 is over 1000000000 requests a second" },
		{ "1k..2G:x2", "'1k..2G:x2': rate 2000000000 is over 1000000000 requests a second" },
		{ "1k,,2k", "'1k,,2k': empty item in rate list" },
		{ ",1k", "',1k': empty item in rate list" },
		{ "1k,", "'1k,': empty item in rate list" },
		{ "1k,1000", "'1000': rate 1000 is listed twice" },
		{ "1k..2k:+500,1500", "'1500': rate 1500 is listed twice" },
		{ "4k..1k", "'4k..1k': descending range (4000 > 1000)" },
		{ "1k..4k:x1", "'1k..4k:x1': a multiplying step must be at least 2" },
		{ "1k..4k:y2", "'1k..4k:y2': a step is ':xK' (multiply) or ':+K' (add)" },
		{ "1k..4k:2", "'1k..4k:2': a step is ':xK' (multiply) or ':+K' (add)" },
		{ "1k..4k:x", "'1k..4k:x': expected a rate (requests a second)" },
		{ "1k..", "'1k..': expected a rate (requests a second)" },
		{ "..4k", "'..4k': expected a rate (requests a second)" },
		{ "1..1025", "'1..1025': more than 1024 rates" },
		/* Stops at the 1025th: never expands a billion. */
		{ "1..1000000000", "'1..1000000000': more than 1024 rates" },
		{ "1000000000000000000000000000000000", "'1000000000000000000000000000000000': "
		  "expected a rate (requests a second)" },
		{ "abc", "'abc': 'abc' is not a non-negative whole number" },
		{ "-5", "'-5': '-5' is not a non-negative whole number" },
		{ " 5", "' 5': ' 5' is not a non-negative whole number" },
		{ "5 ", "'5 ': '5 ' is not a whole number" },
		{ "1.5k", "'1.5k': '1.5k' is not a whole number" },
		{ "5kk", "'5kk': '5kk' is not a whole number" },
		{ "1e6", "'1e6': '1e6' is not a whole number" },
		{ "99999999999999999999", "'99999999999999999999': '99999999999999999999' is too large" },
		{ "1-8", "'1-8': '1-8' is not a whole number" },
	};

	return cr_make_param_array(struct rates_bad, bad, sizeof bad / sizeof bad[0]);
}

ParameterizedTest(struct rates_bad *bad, rates, refusals_name_the_item_and_the_rule)
{
	struct rate_list r = { 0 };
	struct rs_err err = { 0 };

	cr_assert_eq(rates_parse(bad->s, &r, &err), -1, "'%s' accepted", bad->s);
	cr_assert_str_eq(err.msg, bad->msg, "'%s'", bad->s);
	cr_assert_null(r.v, "'%s': rates left behind", bad->s);
	cr_assert_eq(r.n, 0);
}

Test(rates, no_list_at_all_is_an_empty_list)
{
	struct rate_list r = { 0 };
	struct rs_err err = { 0 };

	cr_assert_eq(rates_parse(NULL, &r, &err), -1);
	cr_assert_str_eq(err.msg, "empty rate list");
}

/* The most a list may hold is accepted whole. */
Test(rates, exactly_the_most_points_is_accepted)
{
	struct rate_list r = { 0 };
	struct rs_err err = { 0 };
	char s[32];

	snprintf(s, sizeof s, "1..%d", RATES_MAX_POINTS);
	cr_assert_eq(rates_parse(s, &r, &err), 0, "%s", err.msg);
	cr_assert_eq(r.n, RATES_MAX_POINTS);
	cr_assert_eq(r.v[RATES_MAX_POINTS - 1], RATES_MAX_POINTS);
	rates_free(&r);
}

/* A good list replaces what the list held; a bad one leaves it as it was. */
Test(rates, a_good_list_replaces_a_bad_one_leaves_the_old)
{
	struct rate_list r = { 0 };
	struct rs_err err = { 0 };

	cr_assert_eq(rates_parse("1k,2k,3k", &r, &err), 0, "%s", err.msg);
	cr_assert_eq(rates_parse("1k,oops", &r, &err), -1);
	cr_assert_eq(r.n, 3, "a refused list changed the old one");
	cr_assert_eq(r.v[2], 3000);
	cr_assert_eq(rates_parse("7", &r, &err), 0, "%s", err.msg);
	cr_assert_eq(r.n, 1);
	cr_assert_eq(r.v[0], 7);
	rates_free(&r);
	rates_free(&r);  /* twice: a freed list is an empty one */
	cr_assert_eq(r.n, 0);
}

/* The first bad item is the one named, however many follow. */
Test(rates, the_first_bad_item_is_named)
{
	struct rate_list r = { 0 };
	struct rs_err err = { 0 };

	cr_assert_eq(rates_parse("1k,0,2G,x", &r, &err), -1);
	cr_assert_str_eq(err.msg, "'0': a rate is at least 1 request a second");
}
