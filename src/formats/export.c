/* export.c: rsweep's rows and histograms in the formats of benchstat (with
 * the runs' environments as its configuration) and HdrHistogram
 * (export.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/export.h"
#include "results/hist.h"
#include "base/xalloc.h"

/* A name part benchfmt can hold: no white space, no '/' (its separator). */
static int export_name_ok(const char *s)
{
	return *s != '\0' && strpbrk(s, " \t\r\n/") == NULL;
}

/* The environment's fields (runenv.h) a benchstat configuration carries,
 * under benchfmt's names (lower case, words joined by '-'). */
static const struct {
	const char *key, *name;
} export_env_keys[] = {
	{ "cpu_model", "cpu" }, { "cores", "cores" }, { "governor", "governor" },
	{ "turbo", "turbo" }, { "virt", "virt" }, { "kernel", "kernel" }, { "thp", "thp" },
	{ "server", "server" }, { "server_args", "server-args" }, { "io_threads", "io-threads" },
	{ "appendonly", "appendonly" }, { "appendfsync", "appendfsync" }, { "save", "save" },
	{ "maxmemory", "maxmemory" }, { "maxmemory_policy", "maxmemory-policy" },
};
#define EXPORT_NENV (sizeof export_env_keys / sizeof export_env_keys[0])

/* The configuration lines that take the configuration from was (NULL:
 * none) to now: a line for each key now has, whole (so that each block
 * says its machine and server, read alone), and "key:" for one that
 * goes.  A value's line breaks become blanks (benchfmt's value is the
 * rest of its line). */
static void export_benchstat_env(FILE *fp, const struct runenv *was, const struct runenv *now)
{
	for (size_t k = 0; k < EXPORT_NENV; k++) {
		const char *a = was ? runenv_get(was, export_env_keys[k].key) : "";
		const char *b = now ? runenv_get(now, export_env_keys[k].key) : "";

		if (*a == '\0' && *b == '\0')
			continue;
		fprintf(fp, "%s:%s", export_env_keys[k].name, *b ? " " : "");
		for (; *b != '\0'; b++)
			fputc(*b == '\n' || *b == '\r' ? ' ' : *b, fp);
		fputc('\n', fp);
	}
}

/* The order benchstat's rows are written in, into ix (n rows) and each
 * row's environment into env: the rows as read, or with envs, grouped by
 * their run's environment in the order each first appears (file order
 * within a group), so that an interleaved run's two servers get their
 * configuration lines once each, not at every row. */
static void export_benchstat_order(const struct rs_rows *rows, const struct runenv_set *envs,
				   size_t *ix, const struct runenv **env)
{
	const struct runenv **group = xcalloc(rows->n ? rows->n : 1, sizeof *group);
	size_t *gid = xcalloc(rows->n ? rows->n : 1, sizeof *gid);
	size_t *at = xcalloc(rows->n + 1, sizeof *at);
	size_t ng = 0;

	for (size_t i = 0; i < rows->n; i++) {
		const struct rs_rec *r = &rows->v[i];
		size_t g;

		env[i] = envs != NULL && r->src != NULL && r->server != NULL ?
			 runenv_find(envs, r->src, r->label, r->server->target,
				     r->server->server_args) : NULL;
		for (g = 0; g < ng && group[g] != env[i]; g++)
			;
		if (g == ng)
			group[ng++] = env[i];
		gid[i] = g;
		at[g + 1]++;
	}
	for (size_t g = 0; g < ng; g++)
		at[g + 1] += at[g];
	for (size_t i = 0; i < rows->n; i++)
		ix[at[gid[i]]++] = i;
	free(at);
	free(gid);
	free(group);
}

int export_benchstat(FILE *fp, const struct rs_rows *rows, const struct runenv_set *envs,
		     struct rs_err *err)
{
	static const struct {
		enum row_fig f;
		const char *unit;
	} lat[] = {
		{ ROW_AVG_MS, "avg-ms" }, { ROW_P50_MS, "p50-ms" }, { ROW_P95_MS, "p95-ms" },
		{ ROW_P99_MS, "p99-ms" }, { ROW_P999_MS, "p999-ms" }, { ROW_MAX_MS, "max-ms" },
	};
	size_t *ix = xcalloc(rows->n ? rows->n : 1, sizeof *ix);
	const struct runenv **env = xcalloc(rows->n ? rows->n : 1, sizeof *env);
	const struct runenv *cur = NULL;
	int rc = 0;

	export_benchstat_order(rows, envs, ix, env);
	/* benchstat takes a custom unit as lower-is-better unless told, by
	 * benchfmt's unit metadata line "Unit UNIT KEY=VALUE". */
	fprintf(fp, "Unit rps better=higher\n");
	for (size_t k = 0; k < rows->n && rc == 0; k++) {
		const struct rs_rec *r = &rows->v[ix[k]];
		double rps = rows_fig(rows, r, ROW_RPS);

		/* benchfmt: a name is "Benchmark" and then no lower-case letter. */
		if (r->test[0] >= 'a' && r->test[0] <= 'z') {
			rc = rs_err_set(err, "%s:%u: test '%s' starts with a lower-case letter, which "
					"a benchmark name cannot (Benchmark%s is no benchmark to "
					"benchstat)", r->src, r->line, r->test, r->test);
			break;
		}
		if (!export_name_ok(r->label) || !export_name_ok(r->test)) {
			rc = rs_err_set(err, "%s:%u: label '%s' or test '%s' holds white space or "
					"'/', which a benchmark name cannot (use --relabel in rsweep "
					"report's way: rename it in the CSV)", r->src, r->line,
					r->label, r->test);
			break;
		}
		if (!(rps > 0)) {
			rc = rs_err_set(err, "%s:%u: rps is %g: no time per request to write", r->src,
					r->line, rps);
			break;
		}
		if (env[ix[k]] != cur)
			export_benchstat_env(fp, cur, env[ix[k]]);
		cur = env[ix[k]];
		fprintf(fp, "Benchmark%s/label=%s/P=%u 1 %.6g ns/op %.6g rps", r->test, r->label,
			r->pipeline, 1e9 / rps, rps);
		for (size_t f = 0; f < sizeof lat / sizeof lat[0]; f++) {
			double v = rows_fig(rows, r, lat[f].f);

			if (!isnan(v))
				fprintf(fp, " %.6g %s", v, lat[f].unit);
		}
		fputc('\n', fp);
	}
	free(env);
	free(ix);
	return rc;
}

/* ---- hgrm ---- */

/* rsweep's buckets are HdrHistogram's counts array for 2 significant
 * digits (256 sub-buckets, half count 128), unit 1 ns: index i holds the
 * values from export_low(i) to export_high(i), as HDR's counts_index. */
static uint64_t export_low(unsigned i)
{
	unsigned shift;

	if (i < HIST_SUB)
		return i;
	shift = i / HIST_SUB - 1;
	return (uint64_t)(HIST_SUB + i % HIST_SUB) << shift;
}

static uint64_t export_high(unsigned i)
{
	return i < HIST_SUB ? i : export_low(i) + ((uint64_t)1 << (i / HIST_SUB - 1)) - 1;
}

/* One line of the distribution: HDR's Java and C writers' columns. */
static void export_hgrm_line(FILE *fp, uint64_t value, double pct, uint64_t count, int last)
{
	if (last)
		fprintf(fp, "%12.3f %2.12f %10llu\n", (double)value / 1e6, pct / 100.0,
			(unsigned long long)count);
	else
		fprintf(fp, "%12.3f %2.12f %10llu %14.2f\n", (double)value / 1e6, pct / 100.0,
			(unsigned long long)count, 1.0 / (1.0 - pct / 100.0));
}

/* h as HdrHistogram's outputPercentileDistribution writes it: levels 0,
 * 10, 20, ... closing on 100 by halves, five ticks per halving, each with
 * the highest value of the bucket that reaches it. */
static void export_hgrm_hist(FILE *fp, const struct hist *h)
{
	double level = 0, var = 0, mean = hist_mean(h);
	uint64_t cum = 0;
	unsigned last = 0;

	fprintf(fp, "%12s %14s %10s %14s\n\n", "Value", "Percentile", "TotalCount",
		"1/(1-Percentile)");
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (h->bucket[i])
			last = i;
	for (unsigned i = 0; i <= last; i++) {
		if (h->bucket[i] == 0)
			continue;
		cum += h->bucket[i];
		var += (double)h->bucket[i] * pow(((double)export_low(i) + (double)export_high(i)) / 2 -
						  mean, 2);
		while (100.0 * (double)cum / (double)h->count >= level) {
			export_hgrm_line(fp, export_high(i), level, cum, 0);
			level += 100.0 / (5.0 * pow(2, floor(log2(100.0 / (100.0 - level))) + 1));
			/* The last bucket reaches every level: HDR writes one, then 100%. */
			if (i == last)
				break;
		}
	}
	export_hgrm_line(fp, export_high(last), 100.0, h->count, 1);
	fprintf(fp, "#[Mean    = %12.3f, StdDeviation   = %12.3f]\n", mean / 1e6,
		sqrt(var / (double)h->count) / 1e6);
	fprintf(fp, "#[Max     = %12.3f, Total count    = %12llu]\n", (double)h->max / 1e6,
		(unsigned long long)h->count);
	fprintf(fp, "#[Buckets = %12d, SubBuckets     = %12d]\n", HIST_TOP_BIT - HIST_SUB_BITS,
		2 * HIST_SUB);
}

int export_hgrm(FILE *fp, const struct rs_rows *rows, const struct latency_set *ls,
		struct rs_err *err)
{
	const struct rs_rec **ix = xcalloc(rows->n ? rows->n : 1, sizeof *ix);
	struct hist *h = xmalloc(sizeof *h);
	int rc = 0;

	for (size_t i = 0; i < rows->n; i++)
		ix[i] = &rows->v[i];
	qsort(ix, rows->n, sizeof *ix, rows_point_cmp);
	for (size_t a = 0, b; a < rows->n && rc == 0; a = b) {
		const struct rs_rec *first = ix[a];

		hist_init(h);
		for (b = a; b < rows->n; b++) {
			const struct rs_rec *r = ix[b];

			if (strcmp(r->label, first->label) != 0 || strcmp(r->test, first->test) != 0 ||
			    r->pipeline != first->pipeline)
				break;
			if (latency_row_merge(ls, r, h) < 0) {
				rc = rs_err_set(err, "%s:%u: the row has no latency histogram (no sidecar "
						"%s%s, or no line of it for the row)", r->src, r->line,
						r->src, ".hist");
				break;
			}
		}
		if (rc == 0 && h->count == 0)
			rc = rs_err_set(err, "%s:%u: the point's histograms are empty", first->src,
					first->line);
		if (rc < 0)
			break;
		fprintf(fp, "#[label=%s test=%s P=%u repeats=%zu]\n", first->label, first->test,
			first->pipeline, b - a);
		export_hgrm_hist(fp, h);
		if (b < rows->n)
			fputc('\n', fp);
	}
	free(h);
	free(ix);
	return rc;
}
