/* series.c: rows -> series (label x test: depth -> median, min, max over repeats). */
#include "config.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "series.h"
#include "xalloc.h"

static const char *const metric_names[] = { "rps", "avg", "p50", "p95", "p99", "p999", "max" };
static const char *const metric_titles[] = {
	"requests per second", "average latency (ms)", "p50 latency (ms)",
	"p95 latency (ms)", "p99 latency (ms)", "p99.9 latency (ms)", "max latency (ms)",
};

int series_metric_parse(const char *name, enum series_metric *m)
{
	for (size_t i = 0; i < sizeof metric_names / sizeof metric_names[0]; i++)
		if (strcmp(name, metric_names[i]) == 0) {
			*m = (enum series_metric)i;
			return 0;
		}
	return -1;
}

const char *series_metric_name(enum series_metric m)
{
	return metric_names[m];
}

const char *series_metric_title(enum series_metric m)
{
	return metric_titles[m];
}

double series_metric_value(const struct rs_row *r, enum series_metric m)
{
	switch (m) {
	case SM_RPS: return r->rps;
	case SM_AVG: return r->avg_ms;
	case SM_P50: return r->p50_ms;
	case SM_P95: return r->p95_ms;
	case SM_P99: return r->p99_ms;
	case SM_P999: return r->p999_ms;
	case SM_MAX: return r->max_ms;
	}
	return NAN;
}

int series_test_matches(const char *item, const char *test)
{
	size_t n = strlen(item);

	if (strpbrk(item, "*?[") != NULL)
		return fnmatch(item, test, FNM_CASEFOLD) == 0;
	return strncasecmp(item, test, n) == 0 && (test[n] == '\0' || test[n] == '_');
}

int series_keep_depths(struct rs_rows *rows, const struct depth_list *depths, struct rs_err *err)
{
	size_t keep = 0;

	for (size_t i = 0; i < rows->n; i++)
		if (depths_contains(depths, rows->v[i].pipeline))
			rows->v[keep++] = rows->v[i];
	rows->n = keep;
	if (keep == 0)
		return rs_err_set(err, "--depths: no row is at any of these depths");
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double series_median(double *v, size_t n)
{
	if (n == 0)
		return NAN;
	qsort(v, n, sizeof *v, cmp_double);
	/* a + (b - a) / 2: (a + b) / 2 overflows for figures near DBL_MAX. */
	return n % 2 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

/* Index of s in a first-seen list, appending it if new. */
static size_t series_intern(char (**list)[ROW_STR], size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*list)[i], s) == 0)
			return i;
	*list = xreallocarray(*list, *n + 1, sizeof **list);
	memcpy((*list)[*n], s, ROW_STR);
	return (*n)++;
}

struct series_key {
	size_t label, test;
	unsigned pipeline, repeat;
	const struct rs_row *row;
};

static int cmp_key(const void *a, const void *b)
{
	const struct series_key *x = a, *y = b;

	if (x->label != y->label)
		return x->label < y->label ? -1 : 1;
	if (x->test != y->test)
		return x->test < y->test ? -1 : 1;
	if (x->pipeline != y->pipeline)
		return x->pipeline < y->pipeline ? -1 : 1;
	if (x->repeat != y->repeat)
		return x->repeat < y->repeat ? -1 : 1;
	/* Stable for duplicates: earlier file line first. */
	return (x->row > y->row) - (x->row < y->row);
}

static double cpu_ratio(double cpu, double seconds)
{
	return isfinite(cpu) && isfinite(seconds) && seconds > 0 ? cpu / seconds : NAN;
}

/* Summarise keys[0..n) (one depth of one series) into p. */
static void series_point_fill(struct series_point *p, const struct series_key *k, size_t n,
			      enum series_metric m, double *tmp)
{
	double sum = 0, sq = 0;
	size_t ns = 0, nc = 0;

	p->depth = k[0].pipeline;
	p->n = n;
	p->min = INFINITY;
	p->max = -INFINITY;
	p->errors = 0;
	for (size_t i = 0; i < n; i++) {
		double v = series_metric_value(k[i].row, m);

		tmp[i] = v;
		sum += v;
		p->min = fmin(p->min, v);
		p->max = fmax(p->max, v);
		if (k[i].row->errors < 0 || p->errors < 0)
			p->errors = -1;
		else
			p->errors += k[i].row->errors;
	}
	p->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (tmp[i] - p->mean) * (tmp[i] - p->mean);
	p->cv = n > 1 && p->mean > 0 ? sqrt(sq / (double)(n - 1)) / p->mean : 0;
	p->median = series_median(tmp, n);
	for (size_t i = 0; i < n; i++) {
		double s = cpu_ratio(k[i].row->server_cpu_s, k[i].row->seconds);

		if (isfinite(s))
			tmp[ns++] = s;
	}
	p->server_cpu = ns == n ? series_median(tmp, ns) : NAN;
	for (size_t i = 0; i < n; i++) {
		double c = cpu_ratio(k[i].row->client_cpu_s, k[i].row->seconds);

		if (isfinite(c))
			tmp[nc++] = c;
	}
	p->client_cpu = nc == n ? series_median(tmp, nc) : NAN;
}

int series_build(const struct rs_rows *rows, enum series_metric m, struct series_set *out,
		 struct rs_err *err)
{
	struct series_key *keys;
	double *tmp;
	size_t i = 0;

	memset(out, 0, sizeof *out);
	out->metric = m;
	if (rows->n == 0)
		return rs_err_set(err, "no result rows");
	keys = xcalloc(rows->n, sizeof *keys);
	tmp = xcalloc(rows->n, sizeof *tmp);
	for (size_t r = 0; r < rows->n; r++) {
		const struct rs_row *row = &rows->v[r];
		double v = series_metric_value(row, m);

		if (!isfinite(v)) {
			free(keys);
			free(tmp);
			series_set_free(out);
			return rs_err_set(err, "%s:%u: no %s figure in this row", row->src, row->line,
					  series_metric_name(m));
		}
		keys[r].label = series_intern(&out->labels, &out->nlabels, row->label);
		keys[r].test = series_intern(&out->tests, &out->ntests, row->test);
		keys[r].pipeline = row->pipeline;
		keys[r].repeat = row->repeat;
		keys[r].row = row;
	}
	qsort(keys, rows->n, sizeof *keys, cmp_key);
	for (size_t r = 1; r < rows->n; r++)
		if (cmp_key(&keys[r - 1], &keys[r]) != 0 && keys[r - 1].label == keys[r].label &&
		    keys[r - 1].test == keys[r].test && keys[r - 1].pipeline == keys[r].pipeline &&
		    keys[r - 1].repeat == keys[r].repeat) {
			const struct rs_row *a = keys[r - 1].row, *b = keys[r].row;

			rs_err_set(err, "%s:%u: duplicate point (label '%s', %s, P=%u, repeat %u; first at %s:%u)",
				   b->src, b->line, b->label, b->test, b->pipeline, b->repeat, a->src, a->line);
			free(keys);
			free(tmp);
			series_set_free(out);
			return -1;
		}
	while (i < rows->n) {
		size_t j = i;
		struct series *s;

		while (j < rows->n && keys[j].label == keys[i].label && keys[j].test == keys[i].test)
			j++;
		out->v = xreallocarray(out->v, out->n + 1, sizeof *out->v);
		s = &out->v[out->n++];
		memset(s, 0, sizeof *s);
		memcpy(s->label, out->labels[keys[i].label], ROW_STR);
		memcpy(s->test, out->tests[keys[i].test], ROW_STR);
		s->label_idx = keys[i].label;
		s->test_idx = keys[i].test;
		s->first = keys[i].row;
		s->pts = xcalloc(j - i, sizeof *s->pts);
		for (size_t a = i; a < j;) {
			size_t b = a;

			while (b < j && keys[b].pipeline == keys[a].pipeline)
				b++;
			series_point_fill(&s->pts[s->npts++], &keys[a], b - a, m, tmp);
			a = b;
		}
		i = j;
	}
	free(keys);
	free(tmp);
	return 0;
}

void series_set_free(struct series_set *set)
{
	if (set == NULL)
		return;
	for (size_t i = 0; i < set->n; i++)
		free(set->v[i].pts);
	free(set->v);
	free(set->labels);
	free(set->tests);
	memset(set, 0, sizeof *set);
}

const struct series *series_find(const struct series_set *set, const char *label,
				 const char *test)
{
	for (size_t i = 0; i < set->n; i++)
		if (strcmp(set->v[i].label, label) == 0 && strcmp(set->v[i].test, test) == 0)
			return &set->v[i];
	return NULL;
}

const struct series_point *series_at(const struct series *s, unsigned depth)
{
	for (size_t i = 0; i < s->npts; i++)
		if (s->pts[i].depth == depth)
			return &s->pts[i];
	return NULL;
}
