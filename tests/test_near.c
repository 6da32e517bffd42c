/* test_near.c: the likely typo (near.c): edit distances with a swap of
 * neighbours as one edit, and what counts as near enough to suggest. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "base/near.h"

static size_t dist(const char *a, const char *b)
{
	return near_distance(a, strlen(a), b);
}

Test(near, edits_and_swaps)
{
	cr_assert_eq(dist("report", "report"), 0);
	cr_assert_eq(dist("reprot", "report"), 1, "a swap of neighbours is one edit");
	cr_assert_eq(dist("m1-artcle", "m1-article"), 1);
	cr_assert_eq(dist("rnu", "run"), 1);
	cr_assert_eq(dist("", "run"), 3);
	cr_assert_eq(dist("plot", "report"), 4);
}

Test(near, too_long_is_far)
{
	char a[NEAR_NAME_MAX + 2];

	memset(a, 'x', sizeof a - 1);
	a[sizeof a - 1] = '\0';
	cr_assert_eq(near_distance(a, strlen(a), "x"), SIZE_MAX);
}

Test(near, likely_and_the_nearest_kept)
{
	static const char *const names[] = { "run", "plot", "report", "import", "export", "agent" };
	const char *best = NULL;
	size_t bestd = SIZE_MAX;

	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		near_keep("reprot", 6, names[i], &best, &bestd);
	cr_assert_str_eq(best, "report");
	cr_assert(near_likely(bestd, 6));
	cr_assert(!near_likely(2, 4), "two edits of four characters is another word");
	cr_assert(!near_likely(3, 20), "three edits is too many");
}
