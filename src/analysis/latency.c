/* latency.c: points' latency percentiles from their repeats' merged
 * histograms, with bootstrap intervals over repeats. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/infile.h"
#include "analysis/analysis.h"
#include "results/csv.h"
#include "results/histfile.h"
#include "analysis/latency.h"
#include "base/sbuf.h"
#include "stats/stats.h"
#include "base/strtab.h"
#include "base/xalloc.h"

/* Resamples of each point's interval: its statistic costs a few binary
 * searches, so the analysis' precision costs nothing here. */
#define LATENCY_B 2000

/* A histogram with only its non-empty buckets, ascending. */
struct latency_sparse {
	uint64_t count, min, max, sum;
	uint32_t nb;
	uint32_t *idx;
	uint64_t *cnt;
};

struct latency_row {
	const char *src;          /* the rows' copy of the file name */
	unsigned line;
	struct latency_sparse h;
};

static void latency_sparse_of(const struct hist *h, struct latency_sparse *s)
{
	uint32_t n = 0;

	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		n += h->bucket[i] != 0;
	s->count = h->count;
	s->min = h->min;
	s->max = h->max;
	s->sum = h->sum;
	s->nb = n;
	s->idx = xcalloc(n ? n : 1, sizeof *s->idx);
	s->cnt = xcalloc(n ? n : 1, sizeof *s->cnt);
	n = 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (h->bucket[i] != 0) {
			s->idx[n] = i;
			s->cnt[n++] = h->bucket[i];
		}
}

static void latency_sparse_free(struct latency_sparse *s)
{
	free(s->idx);
	free(s->cnt);
	memset(s, 0, sizeof *s);
}

/* The sidecar's key of a point, as one string: the seven key fields, the
 * rate as the sidecar writes it, and its started_at as the row reads it
 * (row_started_time: one text gives one double; NAN for none). */
static void latency_key(struct sbuf *b, const char *label, const char *test, unsigned pipeline,
			const char *mode, double rate, const char *arrivals, unsigned repeat,
			double started)
{
	b->len = 0;
	/* A row of a file without a mode column is lock-step, as its line in
	 * the sidecar says. */
	sbuf_printf(b, "%s%c%s%c%u%c%s%c", label, 0x1f, test, 0x1f, pipeline, 0x1f,
		    *mode ? mode : "lockstep", 0x1f);
	if (isfinite(rate))
		sbuf_printf(b, "%.2f", rate);
	sbuf_printf(b, "%c%s%c%u%c", 0x1f, arrivals, 0x1f, repeat, 0x1f);
	if (isfinite(started))
		sbuf_printf(b, "%a", started);
}

/* One file's sidecar lines by key, the last line of a key kept. */
struct latency_file {
	struct strtab keys;
	struct latency_sparse *h; /* by key id */
	size_t cap;
	struct sbuf key;
};

static int latency_keep_line(void *ud, const struct histfile_line *l, struct rs_err *err)
{
	struct latency_file *f = ud;
	const struct rs_row *k = &l->key;
	uint32_t id;
	int added;

	(void)err;
	latency_key(&f->key, k->label, k->test, k->pipeline, k->mode, k->rate_offered, k->arrivals,
		    k->repeat, row_started_time(k->started_at));
	if (strtab_intern(&f->keys, f->key.s, f->key.len, &id, &added) < 0)
		abort();  /* more than 2^32 keys: the file size limit is far below */
	if (id >= f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 64;

		f->h = xreallocarray(f->h, cap, sizeof *f->h);
		memset(f->h + f->cap, 0, (cap - f->cap) * sizeof *f->h);
		f->cap = cap;
	}
	latency_sparse_free(&f->h[id]);
	latency_sparse_of(&l->h, &f->h[id]);
	return 0;
}

static int latency_cmp_row(const void *a, const void *b)
{
	const struct latency_row *x = a, *y = b;
	int c = strcmp(x->src, y->src);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* Read the sidecar of src, if there is one, and keep the histogram of each
 * of rows' rows from src. */
static int latency_load_file(const struct rs_rows *rows, const char *src, struct latency_set *ls,
			     size_t *cap, struct rs_err *err)
{
	struct latency_file f = { 0 };
	struct sbuf path;
	struct stat st;
	char *buf = NULL;
	size_t len, nrows = 0, found = 0;
	int rc = 0;

	for (size_t i = 0; i < rows->n; i++)
		nrows += strcmp(rows->v[i].src, src) == 0;
	sbuf_heap(&path);
	sbuf_printf(&path, "%s%s", src, HISTFILE_SUFFIX);
	if (strcmp(src, "-") == 0 || (stat(path.s, &st) < 0 && errno == ENOENT)) {
		if (ls->file_without == NULL)
			ls->file_without = src;
		ls->rows_without += nrows;
		free(path.s);
		return 0;
	}
	sbuf_heap(&f.key);
	if (infile_slurp(path.s, (size_t)1 << 30, &buf, &len, err) < 0 ||
	    histfile_parse(buf, len, path.s, latency_keep_line, &f, err) < 0)
		rc = -1;
	for (size_t i = 0; rc == 0 && i < rows->n; i++) {
		const struct rs_rec *r = &rows->v[i];
		int64_t id;

		if (strcmp(r->src, src) != 0)
			continue;
		latency_key(&f.key, r->label, r->test, r->pipeline, row_mode_name(r->mode),
			    rows_fig(rows, r, ROW_RATE), row_arrivals_name(r->arrivals), r->repeat,
			    r->started);
		id = strtab_find(&f.keys, f.key.s, f.key.len);
		if (id < 0)
			continue;
		if (ls->n == *cap) {
			*cap = *cap ? 2 * *cap : 64;
			ls->v = xreallocarray(ls->v, *cap, sizeof *ls->v);
		}
		ls->v[ls->n].src = r->src;
		ls->v[ls->n].line = r->line;
		/* The row takes the line's histogram: a key is one row's. */
		ls->v[ls->n++].h = f.h[id];
		memset(&f.h[id], 0, sizeof f.h[id]);
		found++;
	}
	ls->rows_without += nrows - found;
	for (size_t k = 0; k < f.cap; k++)
		latency_sparse_free(&f.h[k]);
	free(f.h);
	strtab_free(&f.keys);
	free(f.key.s);
	free(buf);
	free(path.s);
	return rc;
}

int latency_load(const struct rs_rows *rows, struct latency_set *ls, struct rs_err *err)
{
	struct strtab files = { 0 };
	size_t cap = 0;
	int rc = 0;

	memset(ls, 0, sizeof *ls);
	for (size_t i = 0; i < rows->n && rc == 0; i++) {
		uint32_t id;
		int added;

		if (strtab_intern(&files, rows->v[i].src, strlen(rows->v[i].src), &id, &added) < 0)
			abort();
		if (added)
			rc = latency_load_file(rows, rows->v[i].src, ls, &cap, err);
	}
	strtab_free(&files);
	if (rc < 0) {
		latency_free(ls);
		return -1;
	}
	if (ls->n > 1)
		qsort(ls->v, ls->n, sizeof *ls->v, latency_cmp_row);
	return 0;
}

void latency_free(struct latency_set *ls)
{
	for (size_t i = 0; i < ls->n; i++)
		latency_sparse_free(&ls->v[i].h);
	free(ls->v);
	memset(ls, 0, sizeof *ls);
}

static const struct latency_sparse *latency_find(const struct latency_set *ls,
						 const struct rs_rec *r)
{
	struct latency_row key;
	const struct latency_row *hit;

	if (ls == NULL || ls->n == 0)
		return NULL;
	key.src = r->src;
	key.line = r->line;
	hit = bsearch(&key, ls->v, ls->n, sizeof *ls->v, latency_cmp_row);
	return hit ? &hit->h : NULL;
}

int latency_row_merge(const struct latency_set *ls, const struct rs_rec *r, struct hist *h)
{
	const struct latency_sparse *s = latency_find(ls, r);

	if (s == NULL)
		return -1;
	for (uint32_t k = 0; k < s->nb; k++)
		h->bucket[s->idx[k]] += s->cnt[k];
	h->count += s->count;
	h->sum += s->sum;
	if (s->count && s->min < h->min)
		h->min = s->min;
	if (s->count && s->max > h->max)
		h->max = s->max;
	return 0;
}

double latency_metric_pct(enum series_metric m)
{
	switch (m) {
	case SM_P50:
		return 50;
	case SM_P95:
		return 95;
	case SM_P99:
		return 99;
	case SM_P999:
		return 99.9;
	default:
		return NAN;
	}
}

/* One point's repeats as cumulative counts over the union of their
 * buckets, so that the percentile of any merge of them (each repeat taken
 * w times) is a binary search: the bootstrap's statistic. */
struct latency_merge {
	size_t n, nu;             /* repeats; buckets in the union */
	uint32_t *u;              /* the union's bucket indices, ascending */
	uint64_t *cum;            /* [n][nu]: repeat i's count up to bucket u[j] */
	const struct latency_sparse **h;
	double pct;
	unsigned *w;              /* scratch: each repeat's weight */
};

static int latency_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

static void latency_merge_init(struct latency_merge *m, const struct latency_sparse **h, size_t n,
			       double pct)
{
	size_t total = 0, nu = 0;

	for (size_t i = 0; i < n; i++)
		total += h[i]->nb;
	m->u = xcalloc(total ? total : 1, sizeof *m->u);
	for (size_t i = 0; i < n; i++)
		for (uint32_t k = 0; k < h[i]->nb; k++)
			m->u[nu++] = h[i]->idx[k];
	qsort(m->u, nu, sizeof *m->u, latency_cmp_u32);
	m->nu = 0;
	for (size_t j = 0; j < nu; j++)
		if (m->nu == 0 || m->u[m->nu - 1] != m->u[j])
			m->u[m->nu++] = m->u[j];
	m->n = n;
	m->h = h;
	m->pct = pct;
	m->cum = xcalloc(n * (m->nu ? m->nu : 1), sizeof *m->cum);
	m->w = xcalloc(n, sizeof *m->w);
	for (size_t i = 0; i < n; i++) {
		uint64_t run = 0;
		uint32_t k = 0;

		for (size_t j = 0; j < m->nu; j++) {
			if (k < h[i]->nb && h[i]->idx[k] == m->u[j])
				run += h[i]->cnt[k++];
			m->cum[i * m->nu + j] = run;
		}
	}
}

static void latency_merge_free(struct latency_merge *m)
{
	free(m->u);
	free(m->cum);
	free(m->w);
}

/* The percentile, in ms, of the merge of each repeat i taken m->w[i]
 * times: what hist_percentile gives for the merged histogram. */
static double latency_merge_pct(const struct latency_merge *m)
{
	uint64_t count = 0, lo = UINT64_MAX, hi = 0, rank, mid;
	size_t a = 0, b;

	for (size_t i = 0; i < m->n; i++) {
		if (m->w[i] == 0 || m->h[i]->count == 0)
			continue;
		count += m->w[i] * m->h[i]->count;
		if (m->h[i]->min < lo)
			lo = m->h[i]->min;
		if (m->h[i]->max > hi)
			hi = m->h[i]->max;
	}
	if (count == 0 || m->nu == 0)
		return NAN;
	rank = (uint64_t)ceil(m->pct / 100.0 * (double)count);
	if (rank < 1)
		rank = 1;
	if (rank > count)
		rank = count;
	/* The first bucket whose cumulative count reaches the rank. */
	b = m->nu - 1;
	while (a < b) {
		size_t j = a + (b - a) / 2;
		uint64_t seen = 0;

		for (size_t i = 0; i < m->n; i++)
			seen += m->w[i] * m->cum[i * m->nu + j];
		if (seen >= rank)
			b = j;
		else
			a = j + 1;
	}
	mid = hist_bucket_mid(m->u[a]);
	if (mid < lo)
		mid = lo;
	if (mid > hi)
		mid = hi;
	return (double)mid / 1e6;
}

/* stats_bootstrap's statistic: x holds repeat numbers (as doubles). */
static double latency_statistic(double *x, size_t n, void *ctx)
{
	struct latency_merge *m = ctx;

	memset(m->w, 0, m->n * sizeof *m->w);
	for (size_t i = 0; i < n; i++)
		m->w[(size_t)x[i]]++;
	return latency_merge_pct(m);
}

/* Point k of series si: its repeats' histograms (all of them, or it keeps
 * its median) into ci. */
static void latency_point(struct series_point *p, const struct latency_sparse **h, size_t n,
			  double pct, uint64_t tag, struct latency_ci *ci)
{
	struct latency_merge m;
	struct stats_ci sc;
	double *x;
	struct rs_err e;

	ci->merged = 0;
	ci->est = p->median;
	ci->lo = ci->hi = NAN;
	if (n == 0 || n != p->n)
		return;
	latency_merge_init(&m, h, n, pct);
	x = xcalloc(n, sizeof *x);
	for (size_t i = 0; i < n; i++)
		x[i] = (double)i;
	if (stats_bootstrap(x, n, latency_statistic, &m, LATENCY_B, 0.95,
			    stats_seed_mix(ANALYSIS_SEED, tag), &sc, NULL, &e) == 0 &&
	    isfinite(sc.est)) {
		ci->merged = 1;
		ci->est = p->median = sc.est;
		ci->lo = sc.lo;
		ci->hi = sc.hi;
	}
	free(x);
	latency_merge_free(&m);
}

int latency_apply(struct series_set *set, const struct rs_rows *rows, const struct latency_set *ls,
		  struct latency_points *pts)
{
	double pct = latency_metric_pct(set->metric);
	size_t total = 0, *off = xcalloc(set->n + 1, sizeof *off), *fill;
	const struct latency_sparse **h;
	struct latency_ci *ci;
	char variant[2 * ROW_STR + 96];

	for (size_t i = 0; i < set->n; i++) {
		off[i] = total;
		total += set->v[i].npts;
	}
	off[set->n] = total;
	ci = xcalloc(total ? total : 1, sizeof *ci);
	for (size_t i = 0; i < set->n; i++)
		for (size_t k = 0; k < set->v[i].npts; k++) {
			ci[off[i] + k].est = set->v[i].pts[k].median;
			ci[off[i] + k].lo = ci[off[i] + k].hi = NAN;
		}
	if (isfinite(pct)) {
		/* Each point's repeats' histograms, gathered point by point. */
		size_t *cnt = xcalloc(total ? total : 1, sizeof *cnt), *at;
		size_t nh = 0;

		fill = xcalloc(rows->n ? rows->n : 1, sizeof *fill);
		for (size_t r = 0; r < rows->n; r++) {
			const struct rs_rec *row = &rows->v[r];
			const struct series *s = series_find(set, row->label,
							     series_row_name(set, rows, row,
									     variant,
									     sizeof variant));
			const struct series_point *p = s ? series_at(s, row->pipeline) : NULL;

			fill[r] = SIZE_MAX;
			if (p == NULL || latency_find(ls, row) == NULL ||
			    !isfinite(series_metric_value(rows, row, set->metric)))
				continue;
			fill[r] = off[s - set->v] + (size_t)(p - s->pts);
			cnt[fill[r]]++;
			nh++;
		}
		at = xcalloc(total + 1, sizeof *at);
		for (size_t q = 0; q < total; q++)
			at[q + 1] = at[q] + cnt[q];
		h = xcalloc(nh ? nh : 1, sizeof *h);
		memset(cnt, 0, (total ? total : 1) * sizeof *cnt);
		for (size_t r = 0; r < rows->n; r++)
			if (fill[r] != SIZE_MAX) {
				h[at[fill[r]] + cnt[fill[r]]] = latency_find(ls, &rows->v[r]);
				cnt[fill[r]]++;
			}
		for (size_t i = 0; i < set->n; i++)
			for (size_t k = 0; k < set->v[i].npts; k++) {
				size_t q = off[i] + k;

				latency_point(&set->v[i].pts[k], h + at[q], cnt[q], pct,
					      ((uint64_t)i << 32) | k, &ci[q]);
			}
		free(h);
		free(at);
		free(cnt);
		free(fill);
	}
	if (pts != NULL) {
		pts->off = off;
		pts->ci = ci;
		pts->merged = pts->fallback = 0;
		for (size_t q = 0; q < total && isfinite(pct); q++) {
			pts->merged += ci[q].merged;
			pts->fallback += !ci[q].merged;
		}
	} else {
		free(off);
		free(ci);
	}
	return 0;
}

void latency_points_free(struct latency_points *pts)
{
	if (pts == NULL)
		return;
	free(pts->off);
	free(pts->ci);
	pts->off = NULL;
	pts->ci = NULL;
}

const char *latency_note(const struct latency_set *ls, const struct latency_points *pts,
			 const char *metric, char *buf, size_t size)
{
	size_t all = pts->merged + pts->fallback;

	if (pts->fallback == 0)
		return NULL;
	if (ls->file_without != NULL)
		snprintf(buf, size, "%s has no histogram sidecar (%s%s): %zu of %zu points' %s are "
			 "medians of their repeats', not percentiles of merged histograms",
			 ls->file_without, ls->file_without, HISTFILE_SUFFIX, pts->fallback, all,
			 metric);
	else
		snprintf(buf, size, "%zu of %zu points have rows without a histogram: their %s are "
			 "medians of their repeats', not percentiles of merged histograms",
			 pts->fallback, all, metric);
	return buf;
}
