/* export_valkey.c: rsweep's rows as valkey-perf-benchmark's metrics.json
 * (export.h).
 *
 * The record is the one valkey-perf-benchmark's MetricsProcessor writes
 * (process_metrics.py, create_metrics and write_metrics, at
 * valkey-io/valkey-perf-benchmark d565f1c0702e95df9ff399a11aad9c9f9ea2025b):
 * a JSON list of flat objects, json.dump(indent=4), with timestamp, commit,
 * repository, command, data_size, pipeline, clients, rps, avg_, min_, p50_,
 * p95_, p99_ and max_latency_ms, cluster_mode, tls and requests.  Its
 * comparer (utils/compare_benchmark_results.py) groups records by every
 * other key, names each file by its first record's commit, averages the
 * records of one configuration (one per run of --runs) and skips null
 * figures; so the rows' label goes in commit, each row is a record of its
 * own, a figure rsweep does not have is null (never 0, which it would
 * average in), and no key of rsweep's own is added (it would split the
 * groups). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/export.h"
#include "base/json.h"
#include "base/xalloc.h"

/* A figure: the shortest decimal that the CSV's fixed point gave, or null. */
static void export_json_number(FILE *fp, double v)
{
	if (isfinite(v))
		fprintf(fp, "%.15g", v);
	else
		fputs("null", fp);
}

static void export_json_count(FILE *fp, int64_t v)
{
	if (v >= 0)
		fprintf(fp, "%lld", (long long)v);
	else
		fputs("null", fp);
}

int export_valkey_metrics(FILE *fp, const struct rs_rows *rows, struct rs_err *err)
{
	static const struct {
		const char *key;
		enum row_fig f;
	} lat[] = {
		{ "avg_latency_ms", ROW_AVG_MS }, { "min_latency_ms", ROW_NFIGS },
		{ "p50_latency_ms", ROW_P50_MS }, { "p95_latency_ms", ROW_P95_MS },
		{ "p99_latency_ms", ROW_P99_MS }, { "max_latency_ms", ROW_MAX_MS },
	};
	const struct rs_rec **ix = xcalloc(rows->n ? rows->n : 1, sizeof *ix);

	(void)err;   /* every row has a record: there is nothing to refuse */
	for (size_t i = 0; i < rows->n; i++)
		ix[i] = &rows->v[i];
	qsort(ix, rows->n, sizeof *ix, rows_point_cmp);
	fputc('[', fp);
	for (size_t i = 0; i < rows->n; i++) {
		const struct rs_rec *r = ix[i];
		const char *target = r->server ? r->server->target : "";
		double masters = rows_fig(rows, r, ROW_MASTERS);

		fputs(i ? ",\n    {\n" : "\n    {\n", fp);
		/* The commit's time there; rsweep knows no commit. */
		fputs("        \"timestamp\": null,\n        \"commit\": ", fp);
		json_write_str(fp, r->label);
		fputs(",\n        \"repository\": null,\n        \"command\": ", fp);
		json_write_str(fp, r->test);
		fputs(",\n        \"data_size\": ", fp);
		export_json_count(fp, r->data_size);
		fprintf(fp, ",\n        \"pipeline\": %u,\n        \"clients\": ", r->pipeline);
		export_json_count(fp, r->clients);
		fputs(",\n        \"rps\": ", fp);
		export_json_number(fp, rows_fig(rows, r, ROW_RPS));
		for (size_t k = 0; k < sizeof lat / sizeof lat[0]; k++) {
			fprintf(fp, ",\n        \"%s\": ", lat[k].key);
			/* min_ms is not kept by the CSV's readers (row.h). */
			export_json_number(fp, lat[k].f == ROW_NFIGS ? NAN : rows_fig(rows, r, lat[k].f));
		}
		/* rsweep's own rows say whether they ran on a cluster (masters)
		 * and over TLS (rediss:// targets); an imported row may not. */
		fputs(",\n        \"cluster_mode\": ", fp);
		if (isfinite(masters) && masters > 0)
			fputs("true", fp);
		else if (strncmp(r->client, "rsweep ", 7) == 0)
			fputs("false", fp);
		else
			fputs("null", fp);
		fputs(",\n        \"tls\": ", fp);
		fputs(strncmp(target, "rediss://", 9) == 0 ? "true" : target[0] ? "false" : "null", fp);
		fputs(",\n        \"requests\": ", fp);
		export_json_count(fp, r->requests);
		fputs("\n    }", fp);
	}
	fputs(rows->n ? "\n]\n" : "]\n", fp);
	free(ix);
	return 0;
}
