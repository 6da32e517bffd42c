/* test_strtab.c: the string table. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strtab.h"

Test(strtab, ids_in_first_seen_order_and_found_again)
{
	struct strtab t = { 0 };
	uint32_t id;
	int added;

	cr_assert_eq(strtab_find(&t, "a", 1), -1, "an empty table finds nothing");
	cr_assert_eq(strtab_intern(&t, "GET", 3, &id, &added), 0);
	cr_assert_eq(id, 0);
	cr_assert(added);
	cr_assert_eq(strtab_intern(&t, "SET", 3, &id, &added), 0);
	cr_assert_eq(id, 1);
	cr_assert_eq(strtab_intern(&t, "GET", 3, &id, &added), 0);
	cr_assert_eq(id, 0, "the same key, the same id");
	cr_assert(!added);
	cr_assert_eq(strtab_find(&t, "SET", 3), 1);
	cr_assert_eq(strtab_find(&t, "GE", 2), -1, "a prefix is another key");
	cr_assert_eq(strtab_find(&t, "GETX", 3), 0, "only len bytes count");
	cr_assert_str_eq(strtab_str(&t, 1), "SET");
	cr_assert_eq(strtab_len(&t, 1), 3);
	cr_assert_eq(t.n, 2);
	strtab_free(&t);
	cr_assert_eq(t.n, 0);
	cr_assert_eq(strtab_find(&t, "GET", 3), -1, "a freed table is empty");
}

Test(strtab, any_bytes_make_a_key)
{
	struct strtab t = { 0 };
	uint32_t a, b, c, e;
	const uint32_t pair1[2] = { 0, 1 }, pair2[2] = { 1, 0 };

	/* Pairs of numbers, with NUL bytes inside, and the empty key. */
	cr_assert_eq(strtab_intern(&t, pair1, sizeof pair1, &a, NULL), 0);
	cr_assert_eq(strtab_intern(&t, pair2, sizeof pair2, &b, NULL), 0);
	cr_assert_eq(strtab_intern(&t, "x\0y", 3, &c, NULL), 0);
	cr_assert_eq(strtab_intern(&t, "", 0, &e, NULL), 0);
	cr_assert_neq(a, b);
	cr_assert_eq(strtab_find(&t, pair1, sizeof pair1), a);
	cr_assert_eq(strtab_find(&t, "x\0z", 3), -1);
	cr_assert_eq(strtab_find(&t, "x", 1), -1);
	cr_assert_eq(strtab_find(&t, "", 0), e);
	cr_assert_eq(memcmp(strtab_str(&t, c), "x\0y", 4), 0, "copies end in a NUL");
	strtab_free(&t);
}

/* Many keys (the table grows many times), long ones among them (more than
 * a chunk): every key keeps its id, and every copy stays where it was. */
Test(strtab, copies_never_move_as_the_table_grows)
{
	enum { N = 100000 };
	struct strtab t = { 0 };
	const char **first = calloc(N, sizeof *first);
	char *big = malloc(200000);
	char key[32];

	memset(big, 'z', 199999);
	big[199999] = '\0';
	for (uint32_t i = 0; i < N; i++) {
		uint32_t id;
		int n = snprintf(key, sizeof key, "label-%u", i);

		if (i == N / 2) {
			cr_assert_eq(strtab_intern(&t, big, strlen(big), &id, NULL), 0);
			cr_assert_eq(id, i);
			first[i] = strtab_str(&t, id);
			continue;
		}
		cr_assert_eq(strtab_intern(&t, key, (size_t)n, &id, NULL), 0);
		cr_assert_eq(id, i);
		first[i] = strtab_str(&t, id);
	}
	for (uint32_t i = 0; i < N; i++) {
		int n = snprintf(key, sizeof key, "label-%u", i);

		if (i == N / 2) {
			cr_assert_eq(strtab_find(&t, big, strlen(big)), i);
			cr_assert_str_eq(first[i], big);
			continue;
		}
		cr_assert_eq(strtab_find(&t, key, (size_t)n), i, "%s", key);
		cr_assert_eq(strtab_str(&t, i), first[i], "%s moved", key);
		cr_assert_str_eq(first[i], key);
	}
	strtab_free(&t);
	free(first);
	free(big);
}
