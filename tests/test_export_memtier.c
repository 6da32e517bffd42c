/* test_export_memtier.c: memtier-json read as its users read it (issue
 * 44): every document answers the README's JSONPath
 * $."ALL STATS".Totals."Ops/sec" (a point's repeats merged: Count its
 * requests, Ops/sec requests over its timed seconds), the per-run sections
 * stay beside it; a mix is its members and a ratio, not an invented
 * member; Hits/sec, Misses/sec and KB/sec are numbers; --split's names.
 * The documents are read with the strict reader json.c (RFC 8259), by a
 * JSONPath walk of member names, so no jq or python is needed. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/csv.h"
#include "formats/export.h"
#include "base/json.h"
#include "base/sbuf.h"

/* A JSONPath of member names only, $."a".b."c": the node, or NULL. */
static const struct json_node *jpath(const struct json_doc *d, const char *path)
{
	const struct json_node *n = json_root(d);
	char name[128];

	cr_assert(path[0] == '$');
	for (const char *p = path + 1; *p && n != NULL;) {
		size_t k = 0;

		cr_assert_eq(*p, '.', "%s", path);
		p++;
		if (*p == '"') {
			for (p++; *p && *p != '"'; p++)
				name[k++] = *p;
			p++;
		} else {
			for (; *p && *p != '.'; p++)
				name[k++] = *p;
		}
		name[k] = '\0';
		n = json_get(d, n, name);
	}
	return n;
}

static double jnum(const struct json_doc *d, const char *path)
{
	const struct json_node *n = jpath(d, path);

	cr_assert_not_null(n, "no %s", path);
	cr_assert_eq(n->type, JSON_NUMBER, "%s is not a number", path);
	return n->u.num;
}

/* The export of csv (one document a line) into docs[], at most max. */
static size_t export_docs(const char *csv, struct json_doc *docs, size_t max)
{
	struct rs_rows rows = { 0 };
	struct csv_info info;
	struct rs_err err;
	char *buf = NULL;
	size_t len = 0, n = 0, pos = 0;
	unsigned line = 1;
	FILE *fp = open_memstream(&buf, &len);

	cr_assert_not_null(fp);
	cr_assert_eq(csv_parse(csv, strlen(csv), "t.csv", &rows, &info, &err), 0, "%s", err.msg);
	cr_assert_eq(export_memtier(fp, &rows, NULL, &err), 0);
	cr_assert_eq(fclose(fp), 0);
	/* JSON Lines: one document a line, each line one document. */
	for (size_t i = 0; i < len; i++)
		n += buf[i] == '\n';
	cr_assert(n <= max);
	for (size_t k = 0; k < n; k++) {
		const char *nl = memchr(buf + pos, '\n', len - pos);

		cr_assert_not_null(nl);
		cr_assert_eq(json_parse(buf + pos, (size_t)(nl - (buf + pos)), "export", &docs[k], &err),
			     0, "%s", err.msg);
		pos = (size_t)(nl - buf) + 1;
		line++;
	}
	free(buf);
	rows_free(&rows);
	return n;
}

#define HDR "label,test,pipeline,clients,requests,repeat,seconds,rps,avg_ms,p50_ms,max_ms," \
	"target,server_hits,server_misses,data_size,mix,mix_sent\n"

Test(export_memtier, every_document_answers_the_readme_jsonpath)
{
	struct json_doc d[4];
	size_t n = export_docs(HDR
			       "m1,GET,16,50,1000,1,0.01,100000,0.5,0.4,2,h:6379,900,100,3,,\n"
			       "m1,GET,16,50,1000,2,0.02,50000,0.9,0.8,3,h:6379,1000,0,3,,\n"
			       "m1,GET,16,50,2000,3,0.02,100000,0.5,0.4,4,h:6379,2000,0,3,,\n"
			       "m1,SET,1,50,500,1,0.05,10000,1.5,1.4,5,h:6379,0,0,3,,\n", d, 4);

	cr_assert_eq(n, 2);
	/* Three repeats merged: 4000 requests over 0.05 s. */
	cr_expect_float_eq(jnum(&d[0], "$.\"ALL STATS\".Totals.\"Ops/sec\""), 80000, 1e-6);
	cr_expect_float_eq(jnum(&d[0], "$.\"ALL STATS\".Totals.Count"), 4000, 1e-9);
	cr_expect_float_eq(jnum(&d[0], "$.\"ALL STATS\".Gets.Count"), 4000, 1e-9);
	/* Weighted by requests: (0.5 + 0.9 + 1.0) / 4. */
	cr_expect_float_eq(jnum(&d[0], "$.\"ALL STATS\".Totals.\"Average Latency\""), 0.6, 1e-9);
	cr_expect_float_eq(jnum(&d[0], "$.\"ALL STATS\".Totals.\"Max Latency\""), 4, 1e-9);
	cr_expect_float_eq(jnum(&d[0], "$.\"ALL STATS\".Totals.\"Hits/sec\""), 78000, 1e-6);
	cr_expect_float_eq(jnum(&d[0], "$.\"ALL STATS\".Totals.\"Misses/sec\""), 2000, 1e-6);
	/* GET's request: *2 $3 GET $16 key:__rand_int__, 36 bytes. */
	cr_expect_float_eq(jnum(&d[0], "$.\"ALL STATS\".Totals.\"KB/sec\""),
			   round(4000 * 36 / 0.05 / 1024 * 100) / 100, 1e-6);
	/* The runs beside it, as memtier --print-all-runs writes them. */
	cr_expect_float_eq(jnum(&d[0], "$.\"RUN #2 RESULTS\".Totals.\"Ops/sec\""), 50000, 1e-6);
	cr_expect_float_eq(jnum(&d[0], "$.\"BEST RUN RESULTS\".Totals.\"Ops/sec\""), 100000, 1e-6);
	cr_expect_float_eq(jnum(&d[0], "$.\"WORST RUN RESULTS\".Totals.\"Ops/sec\""), 50000, 1e-6);
	cr_expect_not_null(jpath(&d[0], "$.\"AGGREGATED AVERAGE RESULTS (3 runs)\".Totals"));
	cr_expect_float_eq(jnum(&d[0], "$.configuration.pipeline"), 16, 0);
	cr_expect_str_eq(json_str(&d[0], jpath(&d[0], "$.configuration.ratio")), "0:1");
	cr_expect_str_eq(json_str(&d[0], jpath(&d[0], "$.configuration.server")), "h");
	cr_expect_float_eq(jnum(&d[0], "$.configuration.port"), 6379, 0);
	/* One row: ALL STATS, and no run sections. */
	cr_expect_float_eq(jnum(&d[1], "$.\"ALL STATS\".Totals.\"Ops/sec\""), 10000, 1e-6);
	cr_expect_null(jpath(&d[1], "$.\"RUN #1 RESULTS\""));
	cr_expect_str_eq(json_str(&d[1], jpath(&d[1], "$.configuration.ratio")), "1:0");
	cr_expect_float_eq(jnum(&d[1], "$.\"ALL STATS\".Sets.\"Hits/sec\""), 0, 0);
	for (size_t i = 0; i < n; i++)
		json_free(&d[i]);
}

Test(export_memtier, a_mix_is_its_members_and_a_ratio)
{
	struct json_doc d[1];
	size_t n = export_docs(HDR
			       "m1,MIX_GET80_SET20,4,50,1000,1,0.01,100000,0.5,0.4,2,h:6379,790,10,3,"
			       "\"get=80,set=20\",GET=800;SET=200\n", d, 1);

	cr_assert_eq(n, 1);
	cr_expect_null(jpath(&d[0], "$.\"ALL STATS\".Mix_get80_set20s"));
	cr_expect_str_eq(json_str(&d[0], jpath(&d[0], "$.configuration.ratio")), "20:80");
	cr_expect_float_eq(jnum(&d[0], "$.\"ALL STATS\".Gets.Count"), 800, 0);
	cr_expect_float_eq(jnum(&d[0], "$.\"ALL STATS\".Sets.Count"), 200, 0);
	cr_expect_float_eq(jnum(&d[0], "$.\"ALL STATS\".Gets.\"Ops/sec\""), 80000, 1e-6);
	cr_expect_float_eq(jnum(&d[0], "$.\"ALL STATS\".Totals.\"Ops/sec\""), 100000, 1e-6);
	cr_expect_float_eq(jnum(&d[0], "$.\"ALL STATS\".Gets.\"Misses/sec\""), 1000, 1e-6);
	cr_expect_float_eq(jnum(&d[0], "$.\"ALL STATS\".Sets.\"Hits/sec\""), 0, 0);
	cr_expect_float_eq(jnum(&d[0], "$.\"ALL STATS\".Totals.\"KB/sec\""),
			   jnum(&d[0], "$.\"ALL STATS\".Gets.\"KB/sec\"") +
			   jnum(&d[0], "$.\"ALL STATS\".Sets.\"KB/sec\""), 0.011);
	json_free(&d[0]);
}

Test(export_memtier, split_names_are_one_a_point)
{
	static const char csv[] = "label,test,pipeline,rps\n"
				  "m1,GET,16,1\n.hidden,LRANGE_100,1,1\n\"a/b+c d\",GET,2,1\n";
	static const char *const want[] = { "m1+GET+P16.json", "%2Ehidden+LRANGE_100+P1.json",
					    "a%2Fb%2Bc%20d+GET+P2.json" };
	struct rs_rows rows = { 0 };
	struct csv_info info;
	struct rs_err err;

	cr_assert_eq(csv_parse(csv, strlen(csv), "t.csv", &rows, &info, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < rows.n; i++) {
		struct sbuf b;

		sbuf_heap(&b);
		export_memtier_file_name(&rows.v[i], &b);
		cr_expect_str_eq(b.s, want[i]);
		free(b.s);
	}
	rows_free(&rows);
}
