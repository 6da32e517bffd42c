/* export_memtier.c: rsweep's points as memtier_benchmark's --json-out-file
 * (export.h), in the shape its memtier_benchmark.cpp (config_print_to_json,
 * "run information") and run_stats.cpp (run_stats::print,
 * result_print_to_json) write, at RedisLabs/memtier_benchmark 2f74d61183f8
 * (2.2.0-28): the same names, the same precision ("%.2f" rates, "%.3f"
 * ms), so that the JSONPath of its users' dashboards,
 * $."ALL STATS".Totals."Ops/sec", reads rsweep's points too.
 *
 * One document per point, one a line (JSON Lines): memtier runs its
 * commands together and writes each run's members and their sum
 * ("Totals"); rsweep measures each test alone, so a document holds one
 * command (a mix: each member it sent), and its Totals are the test's
 * figures.  Every document has "ALL STATS", a point's repeats merged, so
 * that the JSONPath reads every point, repeats or not. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "formats/export.h"
#include "results/hist.h"
#include "base/json.h"
#include "base/sbuf.h"
#include "base/strtab.h"
#include "base/vec.h"
#include "workload/workload.h"
#include "base/xalloc.h"

/* v with prec decimals, or null for an unknown (NAN) figure. */
static void export_json_num(FILE *fp, int prec, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", fp);
	else
		fprintf(fp, "%.*f", prec, v);
}

/* ,"key":v */
static void export_json_fig(FILE *fp, const char *key, int prec, double v)
{
	fprintf(fp, ",\"%s\":", key);
	export_json_num(fp, prec, v);
}

/* memtier's member name of a test: its command lower cased, the first
 * letter upper cased, and "s" ("GET" "Gets", "LPUSH" "Lpushs"), as
 * run_stats::print_json names an arbitrary command. */
static void export_memtier_name(const char *test, size_t n, char *out, size_t size)
{
	if (n + 2 > size)
		n = size - 2;
	for (size_t i = 0; i < n; i++) {
		char c = test[i];

		out[i] = i == 0 ? (c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c)
				: (c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c);
	}
	out[n] = 's';
	out[n + 1] = '\0';
}

/* What one results member sums: counts (requests, the server's hits and
 * misses, bytes sent) over seconds, and the latencies.  A NAN is unknown,
 * and stays so through a sum. */
struct export_fig {
	double count, secs, ops, hits, misses, bytes, avg, min, max, p50, p95, p99, p999;
};

static void export_memtier_member(FILE *fp, const char *name, const struct export_fig *f)
{
	double s = f->secs;

	fprintf(fp, ",");
	json_write_str(fp, name);
	fputs(":{", fp);
	if (isnan(f->count))
		fputs("\"Count\":null", fp);
	else
		fprintf(fp, "\"Count\":%.0f", f->count);
	export_json_fig(fp, "Ops/sec", 2, f->ops);
	export_json_fig(fp, "Hits/sec", 2, s > 0 ? f->hits / s : NAN);
	export_json_fig(fp, "Misses/sec", 2, s > 0 ? f->misses / s : NAN);
	export_json_fig(fp, "Latency", 3, f->avg);
	export_json_fig(fp, "Average Latency", 3, f->avg);
	export_json_fig(fp, "Min Latency", 3, f->min);
	export_json_fig(fp, "Max Latency", 3, f->max);
	export_json_fig(fp, "KB/sec", 2, s > 0 ? f->bytes / s / 1024 : NAN);
	/* memtier's keys: "p%.3f" cut to six characters. */
	fputs(",\"Percentile Latencies\":{\"p50.00\":", fp);
	export_json_num(fp, 3, f->p50);
	export_json_fig(fp, "p95.00", 3, f->p95);
	export_json_fig(fp, "p99.00", 3, f->p99);
	export_json_fig(fp, "p99.90", 3, f->p999);
	fputs("}}", fp);
}

/* What the writer knows of the tests: each one's bytes a request, as
 * rsweep run formats it (workload.h), by test, value size and key prefix;
 * NAN for a test it cannot format (a custom command). */
struct export_bytes {
	struct strtab keys;
	double *per;
	size_t cap;
};

static double export_bytes_of(struct export_bytes *b, const char *test, int64_t size,
			      const char *prefix)
{
	char key[2 * ROW_STR + 96];
	struct workload w = { 0 };
	struct rs_err e;
	uint32_t id;
	int added, n;

	n = snprintf(key, sizeof key, "%s%c%lld%c%s", test, '\0', (long long)size, '\0', prefix);
	if (n < 0 || (size_t)n >= sizeof key ||
	    strtab_intern(&b->keys, key, (size_t)n, &id, &added) < 0)
		return NAN;
	b->per = vec_reserve(b->per, &b->cap, (size_t)id + 1, sizeof *b->per, 16);
	if (!added)
		return b->per[id];
	b->per[id] = NAN;
	/* Exactly this catalogue test (workload_select takes "lrange" for four). */
	if (size >= 0 && workload_select_prefix(test, (uint64_t)size, prefix, &w, &e) == 0 &&
	    w.n == 1 && strcasecmp(w.v[0].name, test) == 0)
		b->per[id] = (double)w.v[0].len;
	workload_free(&w);
	return b->per[id];
}

/* A mix's members and their requests sent, from its mix_sent column
 * "GET=80123;SET=19877" (NAME=COUNT;...): up to max, into name (each
 * ROW_STR) and sent.  Returns how many (0: a plain test, or a row that
 * kept none). */
static size_t export_mix_members(const struct rs_rec *r, char (*name)[ROW_STR], double *sent,
				 size_t max)
{
	const char *s = r->extra->mix_sent;
	size_t n = 0;

	while (*s && n < max) {
		size_t len = strcspn(s, ";");
		const char *eq = memchr(s, '=', len);

		if (eq == NULL || (size_t)(eq - s) >= ROW_STR)
			return 0;
		memcpy(name[n], s, (size_t)(eq - s));
		name[n][eq - s] = '\0';
		sent[n] = strtod(eq + 1, NULL);
		n++;
		s += len + (s[len] == ';');
	}
	return n;
}

/* The figures of row r into f; min and percentiles from its histogram h
 * (NULL: the row's own, min unknown). */
static void export_memtier_row(const struct rs_rows *rows, const struct rs_rec *r,
			       const struct hist *h, double bytes, struct export_fig *f)
{
	double hits = rows_fig(rows, r, ROW_SERVER_HITS), misses = rows_fig(rows, r, ROW_SERVER_MISSES);

	f->count = r->requests >= 0 ? (double)r->requests : NAN;
	f->ops = rows_fig(rows, r, ROW_RPS);
	f->secs = rows_fig(rows, r, ROW_SECONDS);
	if (!(f->secs > 0) && f->count > 0 && f->ops > 0)
		f->secs = f->count / f->ops;
	/* The server's keyspace hits and misses, as memtier's are its
	 * replies'; without them, a GET's nil replies are its misses. */
	if (isnan(hits) && isnan(misses) && strcmp(r->test, "GET") == 0 &&
	    !isnan(rows_fig(rows, r, ROW_MISSES)) && !isnan(f->count)) {
		misses = rows_fig(rows, r, ROW_MISSES);
		hits = f->count - misses;
	}
	f->hits = hits;
	f->misses = misses;
	f->bytes = bytes * f->count;
	f->avg = rows_fig(rows, r, ROW_AVG_MS);
	f->min = h && h->count ? (double)h->min / 1e6 : NAN;
	f->max = rows_fig(rows, r, ROW_MAX_MS);
	f->p50 = rows_fig(rows, r, ROW_P50_MS);
	f->p95 = rows_fig(rows, r, ROW_P95_MS);
	f->p99 = rows_fig(rows, r, ROW_P99_MS);
	f->p999 = rows_fig(rows, r, ROW_P999_MS);
}

/* The point's rows: their figures, histograms, and a mix's members. */
struct export_point {
	const struct rs_rows *rows;
	const struct rs_rec *const *ix;
	size_t k;
	struct export_fig *f;     /* a row each */
	struct hist *h;           /* a row each: its histogram (count 0: none) */
	char (*member)[ROW_STR];  /* a mix's members (of its first row) */
	double *msent;            /* [row * nmember + m]: requests of member m */
	double *mbytes;           /* member m's bytes a request */
	size_t nmember;
};

/* A section: its Runtime, the test's members (the command, or a mix's
 * members), and Totals (f).  rows[0..n) of p are the section's: one run,
 * or for "ALL STATS" the point's every row.  The members' opening ',' is
 * dropped after the '{'. */
static void export_memtier_section(FILE *fp, const char *title, const struct export_point *p,
				   size_t from, size_t n, const struct export_fig *f)
{
	char cmd[ROW_STR + 2];

	fputc(',', fp);
	json_write_str(fp, title);
	fputs(":{\"Runtime\":{\"Total duration\":", fp);
	export_json_num(fp, 0, f->secs * 1e3);
	fputs(",\"Time unit\":\"MILLISECONDS\"}", fp);
	if (p->nmember == 0) {
		export_memtier_name(p->ix[0]->test, strlen(p->ix[0]->test), cmd, sizeof cmd);
		export_memtier_member(fp, cmd, f);
	}
	for (size_t m = 0; m < p->nmember; m++) {
		struct export_fig mf;
		int reads = strcmp(p->member[m], "GET") == 0;

		/* memtier's members of a mix: its requests of each, their rate
		 * and bytes; the server's hits and misses are the GETs' in
		 * memtier's set:get mix, none a SET's; latencies are the
		 * test's alone (Totals). */
		memset(&mf, 0, sizeof mf);
		for (size_t i = from; i < from + n; i++)
			mf.count += p->msent[i * p->nmember + m];
		mf.secs = f->secs;
		mf.ops = f->secs > 0 ? mf.count / f->secs : NAN;
		mf.hits = reads ? f->hits : strcmp(p->member[m], "SET") == 0 ? 0 : NAN;
		mf.misses = reads ? f->misses : strcmp(p->member[m], "SET") == 0 ? 0 : NAN;
		mf.bytes = mf.count * p->mbytes[m];
		mf.avg = mf.min = mf.max = mf.p50 = mf.p95 = mf.p99 = mf.p999 = NAN;
		export_memtier_name(p->member[m], strlen(p->member[m]), cmd, sizeof cmd);
		export_memtier_member(fp, cmd, &mf);
	}
	export_memtier_member(fp, "Totals", f);
	fputc('}', fp);
}

/* The server's host and port in a target, into host (size bytes) and
 * *port: "redis://[user@]HOST:PORT[/db]", "HOST:PORT", an IPv6 host in
 * brackets.  Returns 0, or -1 for a target that names none (a socket, a
 * spawned server). */
static int export_memtier_hostport(const char *t, char *host, size_t size, unsigned *port)
{
	const char *s = strstr(t, "://"), *end, *at, *colon;
	unsigned long v;
	char *e;

	if (strncmp(t, "unix:", 5) == 0 || strchr(t, ' ') != NULL)
		return -1;
	s = s ? s + 3 : t;
	end = s + strcspn(s, "/");
	for (at = end; at > s && at[-1] != '@'; at--)
		;
	s = at > s ? at : s;
	colon = NULL;
	for (const char *c = s; c < end; c++)
		if (*c == ':')
			colon = c;
	if (colon == NULL || colon == s || (s[0] == '[' && colon[-1] != ']'))
		return -1;
	v = strtoul(colon + 1, &e, 10);
	if (e != end || e == colon + 1 || v == 0 || v > 65535)
		return -1;
	if (s[0] == '[')
		snprintf(host, size, "%.*s", (int)(colon - s - 2), s + 1);
	else
		snprintf(host, size, "%.*s", (int)(colon - s), s);
	*port = (unsigned)v;
	return 0;
}

/* memtier's ratio "SETS:GETS" of a test: GET 0:1, SET 1:0, a mix of SET
 * and GET its weights ("get=80,set=20" 20:80); NULL for any other. */
static const char *export_memtier_ratio(const struct rs_rec *r, char *buf, size_t size)
{
	const char *mix = r->extra->mix, *s;
	unsigned long w[2] = { 0, 0 };

	if (strcmp(r->test, "GET") == 0)
		return "0:1";
	if (strcmp(r->test, "SET") == 0)
		return "1:0";
	if (*mix == '\0')
		return NULL;
	for (s = mix; *s;) {
		size_t len = strcspn(s, ",");
		int set = strncasecmp(s, "set=", 4) == 0, get = strncasecmp(s, "get=", 4) == 0;

		if (!set && !get)
			return NULL;
		w[get] = strtoul(s + 4, NULL, 10);
		s += len + (s[len] == ',');
	}
	snprintf(buf, size, "%lu:%lu", w[0], w[1]);
	return buf;
}

/* "configuration" and "run information" of the point whose first row is
 * r, with k rows. */
static void export_memtier_head(FILE *fp, const struct rs_rec *r, size_t k)
{
	const char *t = r->server && r->server->target ? r->server->target : "";
	const char *mix = r->extra->mix, *ratio;
	int per = r->threads > 0 && r->clients > 0 && r->clients % r->threads == 0;
	long long cpt = per ? (long long)(r->clients / r->threads) : -1;
	char host[256], rbuf[48];
	unsigned port;

	fputs("{\"configuration\":{\"label\":", fp);
	json_write_str(fp, r->label);
	fputs(",\"test\":", fp);
	json_write_str(fp, r->test);
	if (*mix) {
		fputs(",\"mix\":", fp);
		json_write_str(fp, mix);
	}
	fputs(",\"client\":", fp);
	json_write_str(fp, r->client);
	fputs(",\"target\":", fp);
	json_write_str(fp, t);
	if (strncmp(t, "unix:", 5) == 0) {
		fputs(",\"unix socket\":", fp);
		json_write_str(fp, t[5] == '/' && t[6] == '/' ? t + 7 : t + 5);
	} else if (export_memtier_hostport(t, host, sizeof host, &port) == 0) {
		fputs(",\"server\":", fp);
		json_write_str(fp, host);
		fprintf(fp, ",\"port\":%u", port);
	}
	fprintf(fp, ",\"run_count\":%zu", k);
	if (per && r->requests >= 0 && r->requests % r->clients == 0 && k == 1)
		fprintf(fp, ",\"requests\":%lld", (long long)(r->requests / r->clients));
	if (per)
		fprintf(fp, ",\"clients\":%lld,\"threads\":%d", cpt, (int)r->threads);
	else
		fputs(",\"clients\":null,\"threads\":null", fp);
	if ((ratio = export_memtier_ratio(r, rbuf, sizeof rbuf)) != NULL)
		fprintf(fp, ",\"ratio\":\"%s\"", ratio);
	fprintf(fp, ",\"pipeline\":%u", r->pipeline);
	if (r->data_size >= 0)
		fprintf(fp, ",\"data_size\":%d", (int)r->data_size);
	fprintf(fp, ",\"print-all-runs\":\"%s\"}", k > 1 ? "true" : "false");
	fputs(",\"run information\":{", fp);
	if (per)
		fprintf(fp, "\"Threads\":%d,\"Connections per thread\":%lld,", (int)r->threads, cpt);
	else
		fputs("\"Threads\":null,\"Connections per thread\":null,", fp);
	fputs("\"Format version\":2}", fp);
}

/* A sum over rows: counts and seconds added (unknown when one row's is),
 * the average latency weighted by requests, the largest max, the minimum
 * and percentiles from the merged histograms when every row has one. */
static void export_memtier_merge(const struct export_point *p, struct export_fig *a)
{
	struct hist *all = xmalloc(sizeof *all);
	size_t nhist = 0;
	double rps = 0, w = 0;

	memset(a, 0, sizeof *a);
	hist_init(all);
	a->max = NAN;
	for (size_t i = 0; i < p->k; i++) {
		const struct export_fig *f = &p->f[i];

		a->count += f->count;
		a->secs += f->secs;
		a->hits += f->hits;
		a->misses += f->misses;
		a->bytes += f->bytes;
		a->avg += f->avg * f->count;
		w += f->count;
		rps += f->ops / (double)p->k;
		if (i == 0 || isnan(f->max) || f->max > a->max)
			a->max = i == 0 || !isnan(a->max) ? f->max : NAN;
		if (p->h[i].count > 0) {
			hist_merge(all, &p->h[i]);
			nhist++;
		}
	}
	/* Requests over the timed seconds; without them, the runs' mean rate. */
	a->ops = a->count > 0 && a->secs > 0 ? a->count / a->secs : rps;
	if (isnan(a->secs) && rps > 0 && a->count > 0)
		a->secs = a->count / rps;
	a->avg = w > 0 ? a->avg / w : NAN;
	if (nhist == p->k && all->count > 0) {
		a->min = (double)all->min / 1e6;
		a->p50 = (double)hist_percentile(all, 50) / 1e6;
		a->p95 = (double)hist_percentile(all, 95) / 1e6;
		a->p99 = (double)hist_percentile(all, 99) / 1e6;
		a->p999 = (double)hist_percentile(all, 99.9) / 1e6;
	} else {
		a->min = a->p50 = a->p95 = a->p99 = a->p999 = NAN;
	}
	free(all);
}

/* One point: rows ix[0..k) of one label, test and depth. */
static void export_memtier_point(FILE *fp, const struct rs_rows *rows,
				 const struct latency_set *ls, struct export_bytes *eb,
				 const struct rs_rec *const *ix, size_t k)
{
	struct export_point p = { rows, ix, k, NULL, NULL, NULL, NULL, NULL, 0 };
	struct export_fig agg, all;
	const char *prefix = ix[0]->server ? ix[0]->server->key_prefix : "";
	char title[64], (*names)[ROW_STR] = xcalloc(WORKLOAD_MIX_MAX, sizeof *names);
	double sent[WORKLOAD_MIX_MAX];
	size_t best = 0, worst = 0;

	p.f = xcalloc(k, sizeof *p.f);
	p.h = xcalloc(k, sizeof *p.h);
	p.nmember = export_mix_members(ix[0], names, sent, WORKLOAD_MIX_MAX);
	p.member = names;
	p.msent = xcalloc(k * p.nmember + 1, sizeof *p.msent);
	p.mbytes = xcalloc(p.nmember + 1, sizeof *p.mbytes);
	for (size_t m = 0; m < p.nmember; m++)
		p.mbytes[m] = export_bytes_of(eb, p.member[m], ix[0]->data_size, prefix);
	for (size_t i = 0; i < k; i++) {
		const struct rs_rec *r = ix[i];
		double bytes = 0;

		/* No histogram (or a row without its line): count 0, none. */
		hist_init(&p.h[i]);
		if (!(ls && latency_row_merge(ls, r, &p.h[i]) == 0))
			hist_init(&p.h[i]);
		/* A row's members as its own mix_sent has them, in the first's order. */
		if (p.nmember > 0) {
			char (*rn)[ROW_STR] = xcalloc(WORKLOAD_MIX_MAX, sizeof *rn);
			double rs[WORKLOAD_MIX_MAX];
			size_t n = export_mix_members(r, rn, rs, WORKLOAD_MIX_MAX);

			for (size_t m = 0; m < p.nmember; m++) {
				p.msent[i * p.nmember + m] = NAN;
				for (size_t j = 0; j < n; j++)
					if (strcmp(rn[j], p.member[m]) == 0)
						p.msent[i * p.nmember + m] = rs[j];
				bytes += p.msent[i * p.nmember + m] * p.mbytes[m];
			}
			free(rn);
			bytes = r->requests > 0 ? bytes / (double)r->requests : NAN;
		} else {
			bytes = export_bytes_of(eb, r->test, r->data_size, prefix);
		}
		export_memtier_row(rows, r, p.h[i].count ? &p.h[i] : NULL, bytes, &p.f[i]);
		if (rows_fig(rows, r, ROW_RPS) > rows_fig(rows, ix[best], ROW_RPS))
			best = i;
		if (rows_fig(rows, r, ROW_RPS) < rows_fig(rows, ix[worst], ROW_RPS))
			worst = i;
	}
	export_memtier_head(fp, ix[0], k);
	/* "ALL STATS" always: the point, its repeats merged, is what the
	 * JSONPath of memtier's users reads. */
	export_memtier_merge(&p, &all);
	export_memtier_section(fp, "ALL STATS", &p, 0, k, k == 1 ? &p.f[0] : &all);
	if (k > 1) {
		for (size_t i = 0; i < k; i++) {
			snprintf(title, sizeof title, "RUN #%zu RESULTS", i + 1);
			export_memtier_section(fp, title, &p, i, 1, &p.f[i]);
		}
		export_memtier_section(fp, "BEST RUN RESULTS", &p, best, 1, &p.f[best]);
		export_memtier_section(fp, "WORST RUN RESULTS", &p, worst, 1, &p.f[worst]);
		/* memtier's average of runs (run_stats::aggregate_average): counts
		 * summed, rates and average latencies averaged, the rest from
		 * the merged histograms (all's). */
		agg = all;
		agg.ops = agg.avg = 0;
		for (size_t i = 0; i < k; i++) {
			agg.ops += p.f[i].ops / (double)k;
			agg.avg += p.f[i].avg / (double)k;
		}
		snprintf(title, sizeof title, "AGGREGATED AVERAGE RESULTS (%zu runs)", k);
		export_memtier_section(fp, title, &p, 0, k, &agg);
	}
	fputs("}\n", fp);
	free(p.mbytes);
	free(p.msent);
	free(p.h);
	free(p.f);
	free(names);
}

/* A point's name part: bytes outside [A-Za-z0-9_.-], a leading '.' and
 * '%' as %XX, so that '+' separates the parts unambiguously and no name
 * is hidden, "." or "..". */
static void export_name_part(struct sbuf *b, const char *s)
{
	for (size_t i = 0; s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c == '_' || c == '-' || (c == '.' && i > 0))
			sbuf_printf(b, "%c", c);
		else
			sbuf_printf(b, "%%%02X", c);
	}
}

void export_memtier_file_name(const struct rs_rec *r, struct sbuf *b)
{
	export_name_part(b, r->label);
	sbuf_printf(b, "+");
	export_name_part(b, r->test);
	sbuf_printf(b, "+P%u.json", r->pipeline);
}

/* A point's rows as memtier numbers its runs: by run, then repeat, then
 * the file's order. */
static int export_memtier_run_cmp(const void *pa, const void *pb)
{
	const struct rs_rec *a = *(const struct rs_rec *const *)pa;
	const struct rs_rec *b = *(const struct rs_rec *const *)pb;
	int c;

	if (a->run != b->run)
		return a->run < b->run ? -1 : 1;
	if (a->repeat != b->repeat)
		return a->repeat < b->repeat ? -1 : 1;
	if ((c = strcmp(a->src, b->src)) != 0)
		return c;
	return a->line < b->line ? -1 : a->line > b->line;
}

int export_memtier_each(FILE *fp, const struct rs_rows *rows, const struct latency_set *ls,
			const struct export_sink *sink, struct rs_err *err)
{
	const struct rs_rec **ix = xcalloc(rows->n ? rows->n : 1, sizeof *ix);
	struct export_bytes eb = { 0 };
	int rc = 0;

	for (size_t i = 0; i < rows->n; i++)
		ix[i] = &rows->v[i];
	qsort(ix, rows->n, sizeof *ix, rows_point_cmp);
	for (size_t a = 0, b; a < rows->n && rc == 0; a = b) {
		FILE *out = fp;

		for (b = a + 1; b < rows->n; b++)
			if (strcmp(ix[b]->label, ix[a]->label) != 0 ||
			    strcmp(ix[b]->test, ix[a]->test) != 0 || ix[b]->pipeline != ix[a]->pipeline)
				break;
		qsort(ix + a, b - a, sizeof *ix, export_memtier_run_cmp);
		if (sink != NULL && (out = sink->open(sink->ud, ix[a], err)) == NULL) {
			rc = -1;
			break;
		}
		export_memtier_point(out, rows, ls, &eb, ix + a, b - a);
		if (sink != NULL)
			rc = sink->close(sink->ud, out, err);
	}
	free(eb.per);
	strtab_free(&eb.keys);
	free(ix);
	return rc;
}

int export_memtier(FILE *fp, const struct rs_rows *rows, const struct latency_set *ls,
		   struct rs_err *err)
{
	return export_memtier_each(fp, rows, ls, NULL, err);
}
