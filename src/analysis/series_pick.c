/* series_pick.c: what a command picks from its rows by name: a metric
 * (--metric), tests (--tests, with patterns) and depths (--depths). */
#include "config.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/sbuf.h"
#include "base/vec.h"
#include "base/xalloc.h"
#include "analysis/series.h"

static const char *const metric_titles[] = {
	"requests per second", "average latency (ms)", "p50 latency (ms)",
	"p95 latency (ms)", "p99 latency (ms)", "p99.9 latency (ms)", "max latency (ms)",
};

int series_metric_parse(const char *name, enum series_metric *m)
{
	for (size_t i = 0; i < (size_t)SM_MAX + 1; i++)
		if (strcmp(name, series_metric_names[i]) == 0) {
			*m = (enum series_metric)i;
			return 0;
		}
	return -1;
}

const char *series_metric_name(enum series_metric m)
{
	return series_metric_names[m];
}

const char *series_metric_title(enum series_metric m)
{
	return metric_titles[m];
}

static const enum row_fig metric_figs[] = {
	[SM_RPS] = ROW_RPS, [SM_AVG] = ROW_AVG_MS, [SM_P50] = ROW_P50_MS, [SM_P95] = ROW_P95_MS,
	[SM_P99] = ROW_P99_MS, [SM_P999] = ROW_P999_MS, [SM_MAX] = ROW_MAX_MS,
};

double series_metric_value(const struct rs_rows *rows, const struct rs_rec *r,
			   enum series_metric m)
{
	return rows_fig(rows, r, metric_figs[m]);
}

int series_test_matches(const char *item, const char *test)
{
	size_t n = strlen(item);

	if (strpbrk(item, "*?[") != NULL) {
		/* FNM_CASEFOLD is not POSIX: fold both to lower case instead. */
		char *pat = xstrdup(item), *name = xstrdup(test);
		int match;

		for (char *s = pat; *s; s++)
			*s = (char)tolower((unsigned char)*s);
		for (char *s = name; *s; s++)
			*s = (char)tolower((unsigned char)*s);
		match = fnmatch(pat, name, 0) == 0;
		free(pat);
		free(name);
		return match;
	}
	/* "get" also picks "GET window" and "GET @50000/s", GET's other series. */
	return strncasecmp(item, test, n) == 0 &&
	       (test[n] == '\0' || test[n] == '_' || test[n] == ' ');
}

/* The error for item, which selects none of names: what the data has. */
static int series_tests_unknown(const char *item, const char *const *names, size_t n,
				struct rs_err *err)
{
	char have[256];
	struct sbuf b;

	sbuf_fixed(&b, have, sizeof have);
	/* Tests, not series: "GET window" and "GET @50000/s" are GET's. */
	for (size_t t = 0; t < n && !b.cut; t++) {
		size_t len = strcspn(names[t], " ");
		size_t u = 0;

		while (u < t && !(strncmp(names[u], names[t], len) == 0 &&
				  (names[u][len] == '\0' || names[u][len] == ' ')))
			u++;
		if (u == t)
			sbuf_item(&b, ", ", "%.*s", (int)len, names[t]);
	}
	return rs_err_setk(err, RS_E_INPUT, "unknown test '%s' (tests in these files: %s)", item,
			   have);
}

int series_tests_pick(const char *list, const char *const *names, size_t n, int strict,
		      size_t **out, size_t *nout, struct rs_err *err)
{
	char *copy = xstrdup(list), *item = copy;
	unsigned char *taken = xcalloc(n ? n : 1, 1);
	size_t cap = *nout;       /* *out holds *nout already */
	int rc = 0;

	for (size_t k = 0; k < *nout; k++)
		taken[(*out)[k]] = 1;
	/* Not strtok: it would pass over the empty item in "a,,b". */
	for (char *next; item != NULL && rc == 0; item = next) {
		size_t found = 0;

		next = strchr(item, ',');
		if (next != NULL)
			*next++ = '\0';
		item += strspn(item, " \t");
		for (char *e = item + strlen(item); e > item && (e[-1] == ' ' || e[-1] == '\t');)
			*--e = '\0';
		if (*item == '\0') {
			if (strict)
				rc = rs_err_setk(err, RS_E_INPUT, "'%s': empty item", list);
			continue;
		}
		for (size_t t = 0; t < n; t++) {
			if (!series_test_matches(item, names[t]))
				continue;
			found++;
			if (!taken[t]) {
				taken[t] = 1;
				*out = vec_reserve(*out, &cap, *nout + 1, sizeof **out, 0);
				(*out)[(*nout)++] = t;
			}
		}
		if (found == 0 && strict)
			rc = series_tests_unknown(item, names, n, err);
	}
	free(copy);
	free(taken);
	return rc;
}

int series_keep_depths(struct rs_rows *rows, const struct depth_list *depths, struct rs_err *err)
{
	/* One bit per depth: a list of thousands against millions of rows. */
	unsigned char *want = xcalloc(DEPTHS_MAX_VALUE / 8 + 1, 1);
	size_t keep = 0;

	for (size_t i = 0; i < depths->n; i++)
		if (depths->v[i] <= DEPTHS_MAX_VALUE)
			want[depths->v[i] / 8] |= (unsigned char)(1u << (depths->v[i] % 8));
	for (size_t i = 0; i < rows->n; i++) {
		unsigned d = rows->v[i].pipeline;

		if (d <= DEPTHS_MAX_VALUE && (want[d / 8] & (1u << (d % 8))))
			rows->v[keep++] = rows->v[i];
	}
	free(want);
	rows->n = keep;
	if (keep == 0)
		return rs_err_set(err, "--depths: no row is at any of these depths");
	return 0;
}
