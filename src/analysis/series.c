/* series.c: rows -> series (label x test: depth -> median, min, max over repeats). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/series.h"
#include "analysis/series_int.h"
#include "base/strtab.h"
#include "base/vec.h"
#include "base/xalloc.h"
#include "stats/stats.h"

/* stats' selection, with the two middles' mean taken so that figures near
 * DBL_MAX do not overflow (stats_median_inplace adds them). */
double series_median(double *v, size_t n)
{
	double below;

	if (n == 0)
		return NAN;
	stats_select_inplace(v, n, n / 2);
	if (n % 2)
		return v[n / 2];
	below = v[0];
	for (size_t i = 1; i < n / 2; i++)
		if (v[i] > below)
			below = v[i];
	/* a + (b - a) / 2: (a + b) / 2 overflows for figures near DBL_MAX. */
	return below + (v[n / 2] - below) / 2;
}

/* The names of a set, and the way from a pair of names to its series. */
struct series_index {
	struct strtab labels;     /* id = label_idx */
	struct strtab tests;      /* id: the first-seen index, not test_idx
				   * (series_order_tests reorders those) */
	struct strtab pairs;      /* (label_idx, test_idx) as 8 bytes -> pair id */
	size_t *pair_series;      /* pair id -> index into set->v */
	struct strtab bases;      /* the series' bases (struct series.base) */
};

/* A row of one series, to sort by depth, run and repeat. */
struct series_key {
	unsigned pipeline, run, repeat;
	uint32_t row;             /* index into rows->v: file order breaks ties */
};

static int cmp_key(const void *a, const void *b)
{
	const struct series_key *x = a, *y = b;

	if (x->pipeline != y->pipeline)
		return x->pipeline < y->pipeline ? -1 : 1;
	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	if (x->repeat != y->repeat)
		return x->repeat < y->repeat ? -1 : 1;
	return (x->row > y->row) - (x->row < y->row);
}

/* A pair of names, to put the series in label-major order. */
struct series_pair {
	uint32_t label, test, id;
};

static int cmp_pair(const void *a, const void *b)
{
	const struct series_pair *x = a, *y = b;

	if (x->label != y->label)
		return x->label < y->label ? -1 : 1;
	return (x->test > y->test) - (x->test < y->test);
}

static double cpu_ratio(double cpu, double seconds)
{
	return isfinite(cpu) && isfinite(seconds) && seconds > 0 ? cpu / seconds : NAN;
}

/* The worst of each noise figure over keys[0..n) into p->noise; tmp has
 * room for n figures. */
static void series_noise_fill(struct series_point *p, const struct rs_rows *rows,
			      const struct series_key *k, size_t n, double *tmp)
{
	struct series_noise *z = &p->noise;
	size_t nt = 0;

	z->steal_pct = z->other_cpus = z->nivcsw_rate = z->drift_pct = NAN;
	z->server_ns = z->server_ns_max = NAN;
	for (size_t i = 0; i < n; i++) {
		const struct rs_rec *r = &rows->v[k[i].row];
		double secs = rows_fig(rows, r, ROW_SECONDS);
		double cpu = rows_fig(rows, r, ROW_SERVER_CPU_S);
		double rate = cpu_ratio(rows_fig(rows, r, ROW_NIVCSW), secs);

		/* fmax() of NAN and a figure is the figure: NAN only when none. */
		z->steal_pct = fmax(z->steal_pct, rows_fig(rows, r, ROW_STEAL_PCT));
		z->other_cpus = fmax(z->other_cpus, rows_fig(rows, r, ROW_OTHER_CPUS));
		z->drift_pct = fmax(z->drift_pct, rows_fig(rows, r, ROW_DRIFT_PCT));
		z->nivcsw_rate = fmax(z->nivcsw_rate, rate);
		if (isfinite(cpu) && r->requests > 0)
			tmp[nt++] = 1e9 * cpu / (double)r->requests;
	}
	if (nt > 0) {
		for (size_t i = 0; i < nt; i++)
			z->server_ns_max = fmax(z->server_ns_max, tmp[i]);
		z->server_ns = series_median(tmp, nt);
	}
}

/* Add one repeat's reads (the server's hits and misses, nil replies) to
 * p's; any unknown makes them all unknown (-1). */
static void series_reads(struct series_point *p, double hits, double misses, double nils)
{
	if (!isfinite(hits) || !isfinite(misses) || !isfinite(nils) || p->reads < 0) {
		p->reads = p->read_misses = p->nils = -1;
		return;
	}
	p->reads += (int64_t)(hits + misses);
	p->read_misses += (int64_t)misses;
	p->nils += (int64_t)nils;
}

/* Summarise keys[0..n) (one depth of one series) into p. */
static void series_point_fill(struct series_point *p, const struct rs_rows *rows,
			      const struct series_key *k, size_t n, enum series_metric m,
			      double *vals, unsigned *runs, double *started, double *tmp)
{
	double sum = 0, sq = 0;
	size_t ns = 0, nc = 0;

	p->depth = k[0].pipeline;
	p->n = n;
	p->min = INFINITY;
	p->max = -INFINITY;
	p->errors = 0;
	p->rate_short = 0;
	p->reads = p->read_misses = p->nils = 0;
	for (size_t i = 0; i < n; i++) {
		const struct rs_rec *r = &rows->v[k[i].row];
		double v = series_metric_value(rows, r, m);

		p->rate_short += r->rate_short > 0;
		series_reads(p, rows_fig(rows, r, ROW_SERVER_HITS), rows_fig(rows, r, ROW_SERVER_MISSES),
			     rows_fig(rows, r, ROW_MISSES));
		tmp[i] = vals[i] = v;
		runs[i] = k[i].run;
		started[i] = r->started;
		sum += v;
		p->min = fmin(p->min, v);
		p->max = fmax(p->max, v);
		if (r->errors < 0 || p->errors < 0)
			p->errors = -1;
		else
			p->errors += r->errors;
	}
	p->v = vals;
	p->run = runs;
	p->started = started;
	p->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (tmp[i] - p->mean) * (tmp[i] - p->mean);
	p->cv = n > 1 && p->mean > 0 ? sqrt(sq / (double)(n - 1)) / p->mean : 0;
	p->median = series_median(tmp, n);
	for (size_t i = 0; i < n; i++) {
		const struct rs_rec *r = &rows->v[k[i].row];
		double s = cpu_ratio(rows_fig(rows, r, ROW_SERVER_CPU_S), rows_fig(rows, r, ROW_SECONDS));

		if (isfinite(s))
			tmp[ns++] = s;
	}
	p->server_cpu = ns == n ? series_median(tmp, ns) : NAN;
	for (size_t i = 0; i < n; i++) {
		const struct rs_rec *r = &rows->v[k[i].row];
		double c = cpu_ratio(rows_fig(rows, r, ROW_CLIENT_CPU_S), rows_fig(rows, r, ROW_SECONDS));

		if (isfinite(c))
			tmp[nc++] = c;
	}
	p->client_cpu = nc == n ? series_median(tmp, nc) : NAN;
	series_noise_fill(p, rows, k, n, tmp);
}

/* The id of s in t; a new name is appended to *list (the rows' copy),
 * of *n names in *cap places. */
static uint32_t series_name(struct strtab *t, const char *s, const char ***list, size_t *n,
			    size_t *cap)
{
	uint32_t id;
	int added;

	/* Fails only past 2^31 names, more than memory holds rows for. */
	if (strtab_intern(t, s, strlen(s), &id, &added) < 0)
		abort();
	if (added) {
		*list = vec_reserve(*list, cap, *n + 1, sizeof **list, 0);
		/* The table's own copy: s may be a name built in a buffer. */
		(*list)[(*n)++] = strtab_str(t, id);
	}
	return id;
}

const char *series_variant(const struct rs_rows *rows, const struct rs_rec *row, char *buf,
			   size_t size)
{
	double rate = rows_fig(rows, row, ROW_RATE);

	if (isfinite(rate) && rate > 0)
		snprintf(buf, size, "%s @%.0f/s%s", row->test, rate,
			 row->arrivals == ROW_ARRIVALS_POISSON ? " poisson" : "");
	else if (row->mode == ROW_MODE_WINDOW)
		snprintf(buf, size, "%s window", row->test);
	else
		return row->test;
	return buf;
}

/* Each label's axes into out->label_axes (labels interned in first-seen
 * order, as series_make then finds them): the settings that take more than
 * one value among the label's rows that have metric m. */
static void series_label_axes(const struct rs_rows *rows, enum series_metric m,
			      struct series_set *out, size_t *caplabels)
{
	const struct rs_rec **first = NULL;
	size_t capfirst = 0, capaxes = 0;

	for (size_t r = 0; r < rows->n; r++) {
		const struct rs_rec *row = &rows->v[r];
		size_t n = out->nlabels;
		uint32_t l;

		if (!isfinite(series_metric_value(rows, row, m)))
			continue;
		l = series_name(&out->index->labels, row->label, &out->labels, &out->nlabels,
				caplabels);
		if (out->nlabels > n) {
			first = vec_reserve(first, &capfirst, out->nlabels, sizeof *first, 0);
			out->label_axes = vec_reserve(out->label_axes, &capaxes, out->nlabels,
						      sizeof *out->label_axes, 0);
			first[l] = row;
			out->label_axes[l] = 0;
			continue;
		}
		for (unsigned a = 0; a < SERIES_NAXES; a++)
			if (!series_same_on(first[l], row, (enum series_axis)a))
				out->label_axes[l] |= 1u << a;
	}
	free(first);
	if (out->label_axes == NULL)
		out->label_axes = xcalloc(1, sizeof *out->label_axes);
}

/* s's base, axes and settings, from its first row. */
static void series_axes_fill(struct series *s, const struct rs_rows *rows, unsigned axes,
			     struct series_index *idx)
{
	char variant[ROW_STR + 48];
	const char *v = series_variant(rows, s->first, variant, sizeof variant);
	uint32_t id;

	s->axes = axes;
	s->clients = s->first->clients;
	s->data_size = s->first->data_size;
	s->threads = s->first->threads;
	s->server_args = s->first->server->server_args;
	if (axes == 0) {
		s->base = s->test;
		return;
	}
	if (strtab_intern(&idx->bases, v, strlen(v), &id, NULL) < 0)
		abort();  /* as in series_name */
	s->base = strtab_str(&idx->bases, id);
}

int series_holds(const struct series *s, const struct rs_rows *rows, const struct rs_rec *row)
{
	char variant[ROW_STR + 48];

	if (strcmp(row->label, s->label) != 0 ||
	    strcmp(series_variant(rows, row, variant, sizeof variant), s->base) != 0)
		return 0;
	for (unsigned a = 0; a < SERIES_NAXES; a++)
		if ((s->axes & (1u << a)) && !series_same_on(s->first, row, (enum series_axis)a))
			return 0;
	return 1;
}

const char *series_row_name(const struct series_set *set, const struct rs_rows *rows,
			    const struct rs_rec *row, char *buf, size_t size)
{
	char variant[ROW_STR + 48];
	const char *v = series_variant(rows, row, variant, sizeof variant);
	int64_t l = set->index ? strtab_find(&set->index->labels, row->label,
					     strlen(row->label)) : -1;

	if (l >= 0 && set->label_axes[l] != 0)
		return series_axes_name(v, row, set->label_axes[l], buf, size);
	if (v == row->test)
		return v;
	snprintf(buf, size, "%s", v);
	return buf;
}

/* The index in s->runs of row's run (its file and run column), added when
 * new.  A series has a run or a few: a scan. */
static unsigned series_run_of(struct series *s, const struct rs_rec *row)
{
	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i].run == row->run &&
		    (s->runs[i].src == row->src || strcmp(s->runs[i].src, row->src) == 0))
			return (unsigned)i;
	s->runs = xreallocarray(s->runs, s->nruns + 1, sizeof *s->runs);
	s->runs[s->nruns].src = row->src;
	s->runs[s->nruns].run = row->run;
	return (unsigned)s->nruns++;
}

/* ", run N" for a message (a static buffer: one message at a time). */
static const char *series_run_word(unsigned run)
{
	static char buf[32];

	snprintf(buf, sizeof buf, ", run %u", run);
	return buf;
}

/* series_make's first step: each row's pair of names into of[r] (a pair
 * id, UINT32_MAX for a row without metric m when known), the labels and
 * tests interned into out (in first-seen order), and what each test was
 * first seen with into *meta (*capmeta places).  Returns the rows kept, or
 * -1 (err names the row) for a row without m when !known. */
static long series_name_rows(const struct rs_rows *rows, enum series_metric m, int known,
			     struct series_set *out, uint32_t *of, struct series_test_meta **meta,
			     size_t *capmeta, size_t *caplabels, struct rs_err *err)
{
	struct series_index *idx = out->index;
	const char *last_label = NULL, *last_test = NULL;
	const struct rs_rec *last_row = NULL;
	uint32_t last_pair = 0, key_last = 0;
	size_t nkept = 0, captests = 0;

	for (size_t r = 0, have = 0; r < rows->n; r++) {
		const struct rs_rec *row = &rows->v[r];
		uint32_t key[2];
		char variant[ROW_STR + 48], name[2 * ROW_STR + 96];
		const char *v;
		size_t ntests = out->ntests;

		if (!isfinite(series_metric_value(rows, row, m))) {
			if (known) {
				of[r] = UINT32_MAX;
				continue;
			}
			return rs_err_set(err, "%s:%u: no %s figure in this row", row->src, row->line,
					  series_metric_name(m));
		}
		/* A row's names are most often the row before's, in the same
		 * copies: no hashing then. */
		if (have && row->label == last_label && row->test == last_test &&
		    row->mode == last_row->mode && row->arrivals == last_row->arrivals &&
		    row->fig[ROW_RATE] == last_row->fig[ROW_RATE] &&
		    out->label_axes[key_last] == 0) {
			of[r] = last_pair;
			nkept++;
			continue;
		}
		key[0] = series_name(&idx->labels, row->label, &out->labels, &out->nlabels,
				     caplabels);
		v = series_variant(rows, row, variant, sizeof variant);
		key[1] = series_name(&idx->tests, series_axes_name(v, row, out->label_axes[key[0]],
								   name, sizeof name),
				     &out->tests, &out->ntests, &captests);
		if (out->ntests > ntests) {
			*meta = vec_reserve(*meta, capmeta, out->ntests, sizeof **meta, 0);
			(*meta)[ntests].len = strlen(v);
			(*meta)[ntests].row = row;
		}
		if (strtab_intern(&idx->pairs, key, sizeof key, &of[r], NULL) < 0)
			abort();  /* as in series_name */
		last_label = row->label;
		last_test = row->test;
		last_row = row;
		last_pair = of[r];
		key_last = key[0];
		have = 1;
		nkept++;
	}
	return (long)nkept;
}

/* series_make's second step: the series of out, one a pair of names, in
 * label-major order and tests in redis-benchmark's (meta: what each test
 * was first seen with), each with its names, and the way from a pair id to
 * its series (out->index->pair_series). */
static void series_place(struct series_set *out, const struct series_test_meta *meta)
{
	struct series_index *idx = out->index;
	uint32_t *test_to = series_order_tests(out, meta);
	struct series_pair *pairs;

	out->n = idx->pairs.n;
	pairs = xcalloc(out->n ? out->n : 1, sizeof *pairs);
	for (size_t p = 0; p < out->n; p++) {
		memcpy(&pairs[p].label, strtab_str(&idx->pairs, (uint32_t)p), sizeof pairs[p].label);
		memcpy(&pairs[p].test, strtab_str(&idx->pairs, (uint32_t)p) + 4, sizeof pairs[p].test);
		pairs[p].test = test_to[pairs[p].test];
		pairs[p].id = (uint32_t)p;
	}
	free(test_to);
	qsort(pairs, out->n, sizeof *pairs, cmp_pair);
	idx->pair_series = xcalloc(out->n ? out->n : 1, sizeof *idx->pair_series);
	out->v = xcalloc(out->n ? out->n : 1, sizeof *out->v);
	for (size_t i = 0; i < out->n; i++) {
		idx->pair_series[pairs[i].id] = i;
		out->v[i].label = out->labels[pairs[i].label];
		out->v[i].test = out->tests[pairs[i].test];
		out->v[i].label_idx = pairs[i].label;
		out->v[i].test_idx = pairs[i].test;
	}
	free(pairs);
}

/* series_make's third step: the kept rows (of[r] a pair id, or
 * UINT32_MAX) counted into their series, in file order within each: rows
 * of series i are order[start[i]..start[i + 1]) (start has out->n + 1
 * places); of[r] becomes the row's series; *most the most rows of one
 * series.  Returns order (caller frees it and *start). */
static uint32_t *series_group(const struct rs_rows *rows, const struct series_set *out,
			      uint32_t *of, size_t nkept, size_t **start, size_t *most)
{
	size_t *s = xcalloc(out->n + 1, sizeof *s), *fill;
	uint32_t *order = xmalloc((nkept ? nkept : 1) * sizeof *order);

	*most = 0;
	for (size_t r = 0; r < rows->n; r++)
		if (of[r] != UINT32_MAX)
			s[(of[r] = (uint32_t)out->index->pair_series[of[r]]) + 1]++;
	for (size_t i = 0; i < out->n; i++) {
		if (s[i + 1] > *most)
			*most = s[i + 1];
		s[i + 1] += s[i];
	}
	fill = xmalloc((out->n ? out->n : 1) * sizeof *fill);
	memcpy(fill, s, out->n * sizeof *fill);
	for (size_t r = 0; r < rows->n; r++)
		if (of[r] != UINT32_MAX)
			order[fill[of[r]]++] = (uint32_t)r;
	free(fill);
	*start = s;
	return order;
}

/* Where series_make's last step writes: each point's values, their runs
 * and start times (moved on past each point's), and room for one series'
 * keys and figures. */
struct series_fill {
	double *vals;
	unsigned *runs;
	double *started;
	struct series_key *keys;
	double *tmp;
};

/* series_make's last step for series s of set, of the n rows at[0..n)
 * (indices into rows->v): its rows sorted by depth, run and repeat, its
 * first row, axes and points.  0, or -1 (err names both rows) for two rows
 * of one point, run and repeat. */
static int series_fill_one(struct series *s, const struct series_set *set,
			   const struct rs_rows *rows, const uint32_t *at, size_t n,
			   struct series_fill *f, struct rs_err *err)
{
	struct series_key *keys = f->keys;

	for (size_t k = 0; k < n; k++) {
		const struct rs_rec *row = &rows->v[at[k]];

		keys[k].pipeline = row->pipeline;
		keys[k].run = series_run_of(s, row);
		keys[k].repeat = row->repeat;
		keys[k].row = at[k];
	}
	qsort(keys, n, sizeof *keys, cmp_key);
	for (size_t k = 1; k < n; k++)
		if (keys[k - 1].pipeline == keys[k].pipeline && keys[k - 1].run == keys[k].run &&
		    keys[k - 1].repeat == keys[k].repeat) {
			const struct rs_rec *a = &rows->v[keys[k - 1].row], *b = &rows->v[keys[k].row];

			return rs_err_set(err, "%s:%u: duplicate point (label '%s', %s, P=%u, repeat "
					  "%u%s; first at %s:%u)", b->src, b->line, b->label, s->test,
					  b->pipeline, b->repeat, b->run ? series_run_word(b->run) : "",
					  a->src, a->line);
		}
	s->first = &rows->v[keys[0].row];
	series_axes_fill(s, rows, set->label_axes[s->label_idx], set->index);
	s->pts = xcalloc(n, sizeof *s->pts);
	for (size_t a = 0; a < n;) {
		size_t b = a;

		while (b < n && keys[b].pipeline == keys[a].pipeline)
			b++;
		series_point_fill(&s->pts[s->npts++], rows, &keys[a], b - a, set->metric, f->vals,
				  f->runs, f->started, f->tmp);
		f->vals += b - a;
		f->runs += b - a;
		f->started += b - a;
		a = b;
	}
	return 0;
}

/* Group the rows that have metric m (known) or all of them (fail on the
 * first that has not).  Rows are numbered by series (each pair of names
 * found by hash), counted into their series, and sorted within it: no
 * step looks at more than one series' rows at a time. */
static int series_make(const struct rs_rows *rows, enum series_metric m, int known,
		       struct series_set *out, struct rs_err *err)
{
	struct series_test_meta *meta = NULL;
	struct series_fill f;
	uint32_t *of, *order;     /* per row: its series; rows by series */
	size_t *start, most, caplabels = 0, capmeta = 0;
	long nkept;
	int rc = 0;

	memset(out, 0, sizeof *out);
	out->metric = m;
	if (rows->n == 0 && !known)
		return rs_err_set(err, "no result rows");
	if (rows->n >= UINT32_MAX)
		return rs_err_set(err, "more than %u result rows", UINT32_MAX - 1);
	out->index = xcalloc(1, sizeof *out->index);
	series_label_axes(rows, m, out, &caplabels);
	of = xmalloc((rows->n ? rows->n : 1) * sizeof *of);
	nkept = series_name_rows(rows, m, known, out, of, &meta, &capmeta, &caplabels, err);
	if (nkept < 0) {
		free(of);
		free(meta);
		series_set_free(out);
		return -1;
	}
	series_place(out, meta);
	free(meta);
	order = series_group(rows, out, of, (size_t)nkept, &start, &most);
	free(of);
	f.vals = out->values = xmalloc((nkept ? (size_t)nkept : 1) * sizeof *out->values);
	f.runs = out->value_runs = xmalloc((nkept ? (size_t)nkept : 1) * sizeof *out->value_runs);
	f.started = out->value_started = xmalloc((nkept ? (size_t)nkept : 1) *
						 sizeof *out->value_started);
	f.keys = xmalloc((most ? most : 1) * sizeof *f.keys);
	f.tmp = xmalloc((most ? most : 1) * sizeof *f.tmp);
	for (size_t i = 0; i < out->n && rc == 0; i++)
		rc = series_fill_one(&out->v[i], out, rows, order + start[i], start[i + 1] - start[i],
				     &f, err);
	free(f.keys);
	free(f.tmp);
	free(order);
	free(start);
	if (rc < 0)
		series_set_free(out);
	return rc;
}

int series_build(const struct rs_rows *rows, enum series_metric m, struct series_set *out,
		 struct rs_err *err)
{
	return series_make(rows, m, 0, out, err);
}

int series_build_known(const struct rs_rows *rows, enum series_metric m,
		       struct series_set *out, struct rs_err *err)
{
	return series_make(rows, m, 1, out, err);
}

void series_set_free(struct series_set *set)
{
	if (set == NULL)
		return;
	for (size_t i = 0; i < set->n; i++) {
		free(set->v[i].pts);
		free(set->v[i].runs);
	}
	free(set->v);
	free(set->values);
	free(set->value_runs);
	free(set->value_started);
	free(set->labels);
	free(set->tests);
	free(set->label_axes);
	if (set->index != NULL) {
		strtab_free(&set->index->bases);
		strtab_free(&set->index->labels);
		strtab_free(&set->index->tests);
		strtab_free(&set->index->pairs);
		free(set->index->pair_series);
		free(set->index);
	}
	memset(set, 0, sizeof *set);
}

const struct series *series_find(const struct series_set *set, const char *label,
				 const char *test)
{
	const struct series_index *idx = set->index;
	int64_t l, t, p;
	uint32_t key[2];

	if (idx == NULL)
		return NULL;
	l = strtab_find(&idx->labels, label, strlen(label));
	t = strtab_find(&idx->tests, test, strlen(test));
	if (l < 0 || t < 0)
		return NULL;
	key[0] = (uint32_t)l;
	key[1] = (uint32_t)t;
	p = strtab_find(&idx->pairs, key, sizeof key);
	return p < 0 ? NULL : &set->v[idx->pair_series[p]];
}

const struct series_point *series_at(const struct series *s, unsigned depth)
{
	size_t lo = 0, hi = s->npts;

	/* Points are sorted by depth. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->pts[mid].depth < depth)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->npts && s->pts[lo].depth == depth ? &s->pts[lo] : NULL;
}
