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
 * command, and its Totals are that command's figures. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "hist.h"
#include "json.h"
#include "xalloc.h"

/* v with prec decimals, or null for an unknown (NAN) figure. */
static void export_json_num(FILE *fp, int prec, double v)
{
	if (isnan(v))
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
static void export_memtier_name(const char *test, char *out, size_t size)
{
	size_t n = strlen(test);

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

/* The figures of one results member (a command, or Totals). */
struct export_fig {
	double count, ops, avg, min, max, p50, p95, p99, p999;
};

static void export_memtier_member(FILE *fp, const char *name, const struct export_fig *f)
{
	fprintf(fp, ",");
	json_write_str(fp, name);
	fputs(":{", fp);
	if (isnan(f->count))
		fputs("\"Count\":null", fp);
	else
		fprintf(fp, "\"Count\":%.0f", f->count);
	export_json_fig(fp, "Ops/sec", 2, f->ops);
	/* rsweep's readers keep no misses: hits and misses are unknown. */
	export_json_fig(fp, "Hits/sec", 2, NAN);
	export_json_fig(fp, "Misses/sec", 2, NAN);
	export_json_fig(fp, "Latency", 3, f->avg);
	export_json_fig(fp, "Average Latency", 3, f->avg);
	export_json_fig(fp, "Min Latency", 3, f->min);
	export_json_fig(fp, "Max Latency", 3, f->max);
	export_json_fig(fp, "KB/sec", 2, NAN);
	/* memtier's keys: "p%.3f" cut to six characters. */
	fputs(",\"Percentile Latencies\":{\"p50.00\":", fp);
	export_json_num(fp, 3, f->p50);
	export_json_fig(fp, "p95.00", 3, f->p95);
	export_json_fig(fp, "p99.00", 3, f->p99);
	export_json_fig(fp, "p99.90", 3, f->p999);
	fputs("}}", fp);
}

/* A section ("ALL STATS", "RUN #1 RESULTS"): its Runtime, the command and
 * Totals.  The members' opening ',' is dropped after the '{'. */
static void export_memtier_section(FILE *fp, const char *title, const char *cmd, double ms,
				   const struct export_fig *f)
{
	fputc(',', fp);
	json_write_str(fp, title);
	fputs(":{\"Runtime\":{\"Total duration\":", fp);
	export_json_num(fp, 0, ms);
	fputs(",\"Time unit\":\"MILLISECONDS\"}", fp);
	export_memtier_member(fp, cmd, f);
	export_memtier_member(fp, "Totals", f);
	fputc('}', fp);
}

/* The figures of row r; min from its histogram h (NULL: unknown). */
static void export_memtier_row(const struct rs_rows *rows, const struct rs_rec *r,
			       const struct hist *h, struct export_fig *f)
{
	f->count = r->requests >= 0 ? (double)r->requests : NAN;
	f->ops = rows_fig(rows, r, ROW_RPS);
	f->avg = rows_fig(rows, r, ROW_AVG_MS);
	f->min = h && h->count ? (double)h->min / 1e6 : NAN;
	f->max = rows_fig(rows, r, ROW_MAX_MS);
	f->p50 = rows_fig(rows, r, ROW_P50_MS);
	f->p95 = rows_fig(rows, r, ROW_P95_MS);
	f->p99 = rows_fig(rows, r, ROW_P99_MS);
	f->p999 = rows_fig(rows, r, ROW_P999_MS);
}

/* "configuration" and "run information" of the point whose first row is
 * r, with k rows. */
static void export_memtier_head(FILE *fp, const struct rs_rec *r, size_t k)
{
	const char *t = r->server && r->server->target ? r->server->target : "";
	const char *colon = strrchr(t, ':');
	int per = r->threads > 0 && r->clients > 0 && r->clients % r->threads == 0;
	long long cpt = per ? (long long)(r->clients / r->threads) : -1;

	fputs("{\"configuration\":{\"label\":", fp);
	json_write_str(fp, r->label);
	fputs(",\"test\":", fp);
	json_write_str(fp, r->test);
	fputs(",\"client\":", fp);
	json_write_str(fp, r->client);
	fputs(",\"target\":", fp);
	json_write_str(fp, t);
	if (strncmp(t, "unix:", 5) == 0) {
		fputs(",\"unix socket\":", fp);
		json_write_str(fp, t[5] == '/' && t[6] == '/' ? t + 7 : t + 5);
	} else if (colon && colon != t && strspn(colon + 1, "0123456789") == strlen(colon + 1) &&
		   colon[1] && strchr(t, ' ') == NULL) {
		const char *host = strstr(t, "://") ? strstr(t, "://") + 3 : t;

		fprintf(fp, ",\"server\":\"%.*s\",\"port\":%s", (int)(colon - host), host, colon + 1);
	}
	fprintf(fp, ",\"run_count\":%zu", k);
	if (per && r->requests >= 0 && r->requests % r->clients == 0 && k == 1)
		fprintf(fp, ",\"requests\":%lld", (long long)(r->requests / r->clients));
	if (per)
		fprintf(fp, ",\"clients\":%lld,\"threads\":%d", cpt, (int)r->threads);
	else
		fputs(",\"clients\":null,\"threads\":null", fp);
	if (strcmp(r->test, "GET") == 0)
		fputs(",\"ratio\":\"0:1\"", fp);
	else if (strcmp(r->test, "SET") == 0)
		fputs(",\"ratio\":\"1:0\"", fp);
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

/* One point: rows ix[0..k) of one label, test and depth. */
static void export_memtier_point(FILE *fp, const struct rs_rows *rows,
				 const struct latency_set *ls, const struct rs_rec *const *ix,
				 size_t k)
{
	struct hist *h = xmalloc(sizeof *h), *all = xmalloc(sizeof *all);
	struct export_fig f, agg = { 0 };
	char cmd[ROW_STR + 2], title[64];
	size_t best = 0, worst = 0, nhist = 0;
	int sum_known = 1;

	export_memtier_name(ix[0]->test, cmd, sizeof cmd);
	export_memtier_head(fp, ix[0], k);
	hist_init(all);
	agg.min = agg.max = NAN;
	for (size_t i = 0; i < k; i++) {
		const struct rs_rec *r = ix[i];
		double secs = rows_fig(rows, r, ROW_SECONDS);
		int has;

		hist_init(h);
		has = ls && latency_row_merge(ls, r, h) == 0 && h->count > 0;
		if (has) {
			hist_merge(all, h);
			nhist++;
		}
		export_memtier_row(rows, r, has ? h : NULL, &f);
		if (k == 1) {
			export_memtier_section(fp, "ALL STATS", cmd, secs * 1e3, &f);
			break;
		}
		snprintf(title, sizeof title, "RUN #%zu RESULTS", i + 1);
		export_memtier_section(fp, title, cmd, secs * 1e3, &f);
		if (rows_fig(rows, r, ROW_RPS) > rows_fig(rows, ix[best], ROW_RPS))
			best = i;
		if (rows_fig(rows, r, ROW_RPS) < rows_fig(rows, ix[worst], ROW_RPS))
			worst = i;
		/* memtier's average of runs (run_stats::aggregate_average): counts
		 * summed, rates and average latencies averaged, the rest from
		 * the merged histograms. */
		if (isnan(f.count))
			sum_known = 0;
		agg.count += f.count;
		agg.ops += f.ops / (double)k;
		agg.avg += f.avg / (double)k;
		if (i == 0 || isnan(f.max))
			agg.max = f.max;
		else if (f.max > agg.max)
			agg.max = f.max;
	}
	if (k > 1) {
		const struct rs_rec *pick[2] = { ix[best], ix[worst] };
		const char *names[2] = { "BEST RUN RESULTS", "WORST RUN RESULTS" };

		for (int j = 0; j < 2; j++) {
			hist_init(h);
			if (!(ls && latency_row_merge(ls, pick[j], h) == 0 && h->count > 0))
				export_memtier_row(rows, pick[j], NULL, &f);
			else
				export_memtier_row(rows, pick[j], h, &f);
			export_memtier_section(fp, names[j], cmd, rows_fig(rows, pick[j], ROW_SECONDS) * 1e3,
					       &f);
		}
		if (!sum_known)
			agg.count = NAN;
		/* Percentiles over the runs only from every run's histogram. */
		if (nhist == k) {
			agg.min = (double)all->min / 1e6;
			agg.p50 = (double)hist_percentile(all, 50) / 1e6;
			agg.p95 = (double)hist_percentile(all, 95) / 1e6;
			agg.p99 = (double)hist_percentile(all, 99) / 1e6;
			agg.p999 = (double)hist_percentile(all, 99.9) / 1e6;
		} else {
			agg.min = agg.p50 = agg.p95 = agg.p99 = agg.p999 = NAN;
		}
		snprintf(title, sizeof title, "AGGREGATED AVERAGE RESULTS (%zu runs)", k);
		export_memtier_section(fp, title, cmd, NAN, &agg);
	}
	fputs("}\n", fp);
	free(all);
	free(h);
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

int export_memtier(FILE *fp, const struct rs_rows *rows, const struct latency_set *ls,
		   struct rs_err *err)
{
	const struct rs_rec **ix = xcalloc(rows->n ? rows->n : 1, sizeof *ix);

	(void)err;
	for (size_t i = 0; i < rows->n; i++)
		ix[i] = &rows->v[i];
	qsort(ix, rows->n, sizeof *ix, rows_point_cmp);
	for (size_t a = 0, b; a < rows->n; a = b) {
		for (b = a + 1; b < rows->n; b++)
			if (strcmp(ix[b]->label, ix[a]->label) != 0 ||
			    strcmp(ix[b]->test, ix[a]->test) != 0 || ix[b]->pipeline != ix[a]->pipeline)
				break;
		qsort(ix + a, b - a, sizeof *ix, export_memtier_run_cmp);
		export_memtier_point(fp, rows, ls, ix + a, b - a);
	}
	free(ix);
	return 0;
}
