/* series_order.c: the order of a set's test names: redis-benchmark's
 * catalogue first, an open loop's series by offered rate, the series of
 * one variant by their axes' values. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/strtab.h"
#include "base/xalloc.h"
#include "analysis/series.h"
#include "analysis/series_int.h"
#include "workload/workload.h"

/* The length of the test a series' name belongs to: "GET" of "GET",
 * "GET window" and series_variant's "GET @50000/s[ poisson]"; *rate gets
 * the offered rate of the last, else -1. */
static size_t series_test_base(const char *name, double *rate)
{
	size_t len = strlen(name);
	const char *at = NULL;
	char *end;

	*rate = -1;
	for (const char *p = strstr(name, " @"); p != NULL; p = strstr(p + 1, " @"))
		at = p;           /* the last: a custom test's name may hold " @" */
	if (len > 7 && strcmp(name + len - 7, " window") == 0)
		return len - 7;
	if (at == NULL)
		return len;
	*rate = strtod(at + 2, &end);
	if (end == at + 2 || strncmp(end, "/s", 2) != 0 || !(*rate >= 0))
		*rate = -1;
	return (size_t)(at - name);
}

/* workload_rank of a series' test name, which may carry series_variant's
 * " window" or " @RATE/s[ poisson]": "GET window" ranks as GET, so that a
 * test's series stay together. */
static size_t series_test_rank(const char *name)
{
	size_t r = workload_rank(name), len;
	char base[ROW_STR];
	double rate;

	if (r < workload_rank(""))
		return r;
	len = series_test_base(name, &rate);
	if (len == strlen(name) || len >= sizeof base)
		return r;
	memcpy(base, name, len);
	base[len] = '\0';
	return workload_rank(base);
}

/* A test name's place: its rank, the first-seen place of its test (so
 * that unknown tests, which share the last rank, keep their series
 * together), its own first-seen index, and its offered rate (-1 for a
 * closed loop). */
struct series_test_key {
	size_t rank, group, variant, t;
	int64_t axis[SERIES_NAXES]; /* the axes' values; server arguments by first sight */
	double rate;
};

/* The series of one variant in the order of their axes' values. */
static int cmp_axes(const struct series_test_key *x, const struct series_test_key *y)
{
	for (unsigned a = 0; a < SERIES_NAXES; a++)
		if (x->axis[a] != y->axis[a])
			return x->axis[a] < y->axis[a] ? -1 : 1;
	return 0;
}

static int cmp_test_key(const void *a, const void *b)
{
	const struct series_test_key *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->variant != y->variant)
		return x->variant < y->variant ? -1 : 1;
	if (cmp_axes(x, y) != 0)
		return cmp_axes(x, y);
	return (x->t > y->t) - (x->t < y->t);
}

/* The open loop's series among them by rate, then first seen. */
static int cmp_test_rate(const void *a, const void *b)
{
	const struct series_test_key *x = a, *y = b;

	if (x->rate != y->rate)
		return x->rate < y->rate ? -1 : 1;
	if (cmp_axes(x, y) != 0)
		return cmp_axes(x, y);
	return (x->t > y->t) - (x->t < y->t);
}

/* Put set->tests in redis-benchmark's order (the catalogue's; names it
 * does not know after, as first seen), whatever order the rows came in (a
 * shuffled run's), so that every report and chart lists them alike; an
 * open loop's series of one test by offered rate (GET @50000/s before GET
 * @100000/s), not in the order a shuffled run met them: each test's other
 * series (window, closed loop) keep their first-seen places; the series of
 * one variant and their axes (meta, by first-seen index) by the axes'
 * values, so that c=2 comes before c=16.  Returns the new place of each
 * old index (caller frees).  n log n in the tests. */
uint32_t *series_order_tests(struct series_set *set, const struct series_test_meta *meta)
{
	size_t n = set->ntests;
	uint32_t *to = xcalloc(n ? n : 1, sizeof *to);
	struct series_test_key *key = xcalloc(n ? n : 1, sizeof *key), *rated;
	const char **sorted = xcalloc(n ? n : 1, sizeof *sorted);
	struct strtab bases = { 0 };  /* ids in first-seen order */
	struct strtab variants = { 0 }, args = { 0 };

	for (size_t t = 0; t < n; t++) {
		char variant[ROW_STR + 48];
		size_t vlen = meta[t].len < sizeof variant ? meta[t].len : sizeof variant - 1;
		size_t len;
		const struct rs_rec *r = meta[t].row;
		const char *sa = r->server->server_args;
		uint32_t id, vid, aid;

		memcpy(variant, set->tests[t], vlen);
		variant[vlen] = '\0';
		len = series_test_base(variant, &key[t].rate);
		/* Fails only past 2^31 names, as in series_name. */
		if (strtab_intern(&bases, variant, len, &id, NULL) < 0 ||
		    strtab_intern(&variants, variant, vlen, &vid, NULL) < 0 ||
		    strtab_intern(&args, sa, strlen(sa), &aid, NULL) < 0)
			abort();
		key[t].rank = series_test_rank(variant);
		key[t].group = id;
		key[t].variant = vid;
		key[t].axis[SERIES_AXIS_CLIENTS] = r->clients;
		key[t].axis[SERIES_AXIS_DATA_SIZE] = r->data_size;
		key[t].axis[SERIES_AXIS_THREADS] = r->threads;
		key[t].axis[SERIES_AXIS_SERVER_ARGS] = aid;
		key[t].t = t;
	}
	qsort(key, n, sizeof *key, cmp_test_key);
	/* A test's series stay as first seen, but those of the open loop
	 * take the places the open loop's had in rate order. */
	rated = xcalloc(n ? n : 1, sizeof *rated);
	for (size_t a = 0, b; a < n; a = b) {
		size_t nr = 0, k = 0;

		for (b = a; b < n && key[b].group == key[a].group && key[b].rank == key[a].rank; b++)
			if (key[b].rate >= 0)
				rated[nr++] = key[b];
		qsort(rated, nr, sizeof *rated, cmp_test_rate);
		for (size_t i = a; i < b; i++)
			if (key[i].rate >= 0)
				key[i] = rated[k++];
	}
	free(rated);
	for (size_t k = 0; k < n; k++) {
		to[key[k].t] = (uint32_t)k;
		sorted[k] = set->tests[key[k].t];
	}
	if (n > 0)
		memcpy(set->tests, sorted, n * sizeof *sorted);
	strtab_free(&bases);
	strtab_free(&variants);
	strtab_free(&args);
	free(key);
	free(sorted);
	return to;
}

void series_order_names(const char **names, const struct rs_rec *const *rows, size_t n,
			uint32_t *place)
{
	struct series_set tmp = { .tests = names, .ntests = n };
	struct series_test_meta *meta = xcalloc(n ? n : 1, sizeof *meta);
	uint32_t *to;

	for (size_t t = 0; t < n; t++) {
		meta[t].len = strlen(names[t]);
		meta[t].row = rows[t];
	}
	to = series_order_tests(&tmp, meta);
	if (place != NULL && n > 0)
		memcpy(place, to, n * sizeof *place);
	free(to);
	free(meta);
}
