/* test_strtab.c: the string table, and the rows' strings interned with it. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/row.h"
#include "rows_helper.h"
#include "base/strtab.h"

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

/* Rows keep each string once: equal strings are the same copy, whichever
 * row (not only the one before) had it first. */
Test(strtab, rows_share_their_strings)
{
	struct rs_rows rows = { 0 };
	struct rs_row r;
	const struct rs_rec *a, *b, *c;

	fill(&r, "m1", "GET", 1, 1, 1000, NAN);
	snprintf(r.target, sizeof r.target, "unix:/tmp/x.sock");
	snprintf(r.redis_version, sizeof r.redis_version, "7.0.15");
	push(&rows, &r);
	fill(&r, "intel", "SET", 1, 1, 1000, NAN);
	push(&rows, &r);
	fill(&r, "m1", "SET", 2, 1, 1000, NAN);
	snprintf(r.target, sizeof r.target, "unix:/tmp/x.sock");
	snprintf(r.redis_version, sizeof r.redis_version, "7.0.15");
	push(&rows, &r);
	a = &rows.v[0];
	b = &rows.v[1];
	c = &rows.v[2];
	cr_assert_eq(a->label, c->label, "the same label, the same copy");
	cr_assert_eq(b->test, c->test);
	cr_assert_neq(a->label, b->label);
	cr_assert_str_eq(b->label, "intel");
	cr_assert_eq(a->server, c->server, "the same server, one struct rs_server");
	cr_assert_neq(a->server, b->server);
	cr_assert_str_eq(b->server->target, "", "an unknown string is empty");
	cr_assert_str_eq(c->server->redis_version, "7.0.15");
	cr_assert_eq(a->src, c->src);
	cr_assert_str_eq(a->src, "mem.csv");
	rows_free(&rows);
}

/* What reading a file of millions of rows costs: a row in 192 bytes (it
 * was a struct of ten 128-byte strings, 1.1 KB; 128 before the four
 * figures that explain noise, 144 before the offered rate and the mode,
 * 152 before a cluster's busiest master and its CPU, 168 before the
 * started_at hash that pairs a row with its histogram; then the run
 * (--runs) and started_at itself, in seconds, took the hash's place, with
 * threads and the run in 16 bits each; 176 before the three counts of
 * reads, nils and the server's hits and misses, that the report's note on
 * reads that found nothing sums: 188, aligned to 8; 240 with the send
 * slip, --slo's objective and figures, churn and replicas, until the
 * figures few rows have went apart (rows->rare) and the objective, the
 * TTL and churn into the shared struct rs_extra). */
Test(strtab, a_row_is_small)
{
	cr_assert_leq(sizeof(struct rs_rec), 192, "%zu bytes", sizeof(struct rs_rec));
}

/* The compact row's figures: fixed point when the text's decimals allow,
 * exact whatever they are, and unknown stays unknown. */
Test(strtab, figures_come_back_exactly)
{
	static const double v[] = {
		0, 0.01, 810000.25, 21474836.47, 21474836.48, 1e15, 0.1 + 0.2, 1.0 / 3, 123.456789,
		5e-324, INFINITY,
	};
	struct rs_rows rows = { 0 };

	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		struct rs_row r;
		const struct rs_rec *x;

		fill(&r, "m1", "GET", 1, (unsigned)i + 1, v[i], v[i]);
		r.seconds = v[i];
		r.p999_ms = NAN;
		x = push(&rows, &r);
		cr_assert(rows_fig(&rows, x, ROW_RPS) == v[i], "rps %.17g: %.17g", v[i],
			  rows_fig(&rows, x, ROW_RPS));
		cr_assert(rows_fig(&rows, x, ROW_AVG_MS) == v[i], "avg %.17g", v[i]);
		cr_assert(rows_fig(&rows, x, ROW_SECONDS) == v[i], "seconds %.17g", v[i]);
		cr_assert(isnan(rows_fig(&rows, x, ROW_P999_MS)));
	}
	/* Only those fixed point cannot hold took the side table. */
	cr_assert_lt(rows.nwide, 3 * sizeof v / sizeof v[0]);
	cr_assert_gt(rows.nwide, 0);
	rows_free(&rows);
}
