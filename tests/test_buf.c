/* test_buf.c: the growable array (vec.h) and the string builder (sbuf.h). */
#include "config.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/sbuf.h"
#include "base/vec.h"

Test(vec, grows_by_doubling_and_keeps_elements)
{
	unsigned *v = NULL;
	size_t n = 0, cap = 0;

	for (unsigned i = 0; i < 1000; i++) {
		v = vec_reserve(v, &cap, n + 1, sizeof *v, 16);
		v[n++] = i;
	}
	cr_assert_geq(cap, 1000);
	cr_assert_eq(cap, 1024, "16 doubled six times");
	for (unsigned i = 0; i < 1000; i++)
		cr_assert_eq(v[i], i);
	free(v);
}

Test(vec, no_growth_when_there_is_room)
{
	size_t cap = 0;
	int *v = vec_reserve(NULL, &cap, 1, sizeof *v, 0);
	int *w;

	cr_assert_eq(cap, 1, "min_cap 0 starts at one element");
	w = vec_reserve(v, &cap, 1, sizeof *v, 0);
	cr_assert_eq(w, v, "room already there: the same pointer");
	w = vec_reserve(w, &cap, 5, sizeof *v, 0);
	cr_assert_eq(cap, 8, "a jump past double doubles until it fits");
	free(w);
}

Test(sbuf, fixed_cuts_and_stays_terminated)
{
	char small[8];
	struct sbuf b;

	sbuf_fixed(&b, small, sizeof small);
	cr_assert_str_eq(b.s, "");
	sbuf_printf(&b, "%s", "abc");
	cr_assert_str_eq(small, "abc");
	cr_assert(!b.cut);
	sbuf_printf(&b, "%d", 12345);
	cr_assert_str_eq(small, "abc1234", "cut at the array's size");
	cr_assert(b.cut);
	cr_assert_eq(b.len, 7);
	/* Appending past the end is harmless: no wrap of size - len. */
	sbuf_printf(&b, "more");
	sbuf_add(&b, "xyz", 3);
	sbuf_item(&b, ", ", "%s", "q");
	cr_assert_str_eq(small, "abc1234");
	cr_assert_eq(b.len, 7);
}

Test(sbuf, heap_grows_past_any_size)
{
	struct sbuf b;

	sbuf_heap(&b);
	for (int i = 0; i < 1000; i++)
		sbuf_printf(&b, "%04d", i);
	cr_assert_eq(b.len, 4000);
	cr_assert_eq(strlen(b.s), 4000);
	cr_assert(strncmp(b.s + 3996, "0999", 4) == 0);
	cr_assert(!b.cut);
	free(b.s);
}

Test(sbuf, items_are_separated)
{
	char out[64];
	struct sbuf b;

	sbuf_fixed(&b, out, sizeof out);
	sbuf_item(&b, ", ", "%s", "ping");
	sbuf_item(&b, ", ", "%s", "set");
	sbuf_item(&b, " or ", "%u", 3u);
	cr_assert_str_eq(out, "ping, set or 3");
}

Test(sbuf, fill_pads_and_cuts)
{
	char out[6];
	struct sbuf b;

	sbuf_fixed(&b, out, sizeof out);
	sbuf_add(&b, "ab", 2);
	sbuf_fill(&b, '-', 2);
	cr_assert_str_eq(out, "ab--");
	sbuf_fill(&b, '.', 9);
	cr_assert_str_eq(out, "ab--.");
	cr_assert(b.cut);
	sbuf_heap(&b);
	sbuf_fill(&b, ' ', 1000);
	cr_assert_eq(b.len, 1000);
	cr_assert_eq(strspn(b.s, " "), 1000);
	free(b.s);
}

Test(sbuf, add_copies_bytes)
{
	struct sbuf b;

	sbuf_heap(&b);
	sbuf_add(&b, "a\0b", 3);
	cr_assert_eq(b.len, 3);
	cr_assert_eq(memcmp(b.s, "a\0b", 4), 0);
	free(b.s);
}
