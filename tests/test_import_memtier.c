/* test_import_memtier.c: the strict JSON reader (json.c) and the reader of
 * memtier_benchmark's --json-out-file (import_memtier.c), on the real
 * files of tests/data/memtier (see its README for how each was made). */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/infile.h"
#include "results/csv.h"
#include "formats/import.h"
#include "base/json.h"

static char *slurp(const char *name, size_t *len)
{
	char path[1024];
	char *buf;
	struct rs_err err = { 0 };

	snprintf(path, sizeof path, "%s/tests/data/memtier/%s", RS_TOP_SRCDIR, name);
	cr_assert_eq(infile_slurp_bytes(path, 1 << 20, &buf, len, &err), 0, "%s", err.msg);
	return buf;
}

static void parse_file(const char *name, struct import_memtier *m)
{
	struct rs_err err = { 0 };
	size_t len;
	char *buf = slurp(name, &len);

	cr_assert_eq(import_memtier_parse(buf, len, name, m, &err), 0, "%s", err.msg);
	free(buf);
}

static void near(double got, double want, const char *what)
{
	cr_assert(fabs(got - want) <= 1e-9 * (fabs(want) + 1), "%s: %.10g, want %.10g", what, got,
		  want);
}

Test(json, values_and_strings)
{
	static const char text[] = "{\"a\": [1, -2.5e3, true, false, null],\n"
				   " \"s\\u00e9\\ud83d\\ude00\\n\": \"x\\\"y\", \"o\": {}}";
	struct json_doc d;
	struct rs_err err = { 0 };
	const struct json_node *root, *a, *e;

	cr_assert_eq(json_parse(text, strlen(text), "t.json", &d, &err), 0, "%s", err.msg);
	root = json_root(&d);
	cr_assert_eq(root->type, JSON_OBJECT);
	cr_assert_eq(root->n, 3);
	a = json_get(&d, root, "a");
	cr_assert_eq(a->type, JSON_ARRAY);
	cr_assert_eq(a->n, 5);
	e = json_first(&d, a);
	cr_assert_eq(e->u.num, 1);
	e = json_next(&d, e);
	cr_assert_eq(e->u.num, -2500);
	cr_assert_eq(json_next(&d, e)->type, JSON_TRUE);
	e = json_get(&d, root, "s\xc3\xa9\xf0\x9f\x98\x80\n");
	cr_assert_not_null(e);
	cr_assert_str_eq(json_str(&d, e), "x\"y");
	cr_assert_eq(e->line, 2);
	cr_assert_eq(json_get(&d, root, "o")->n, 0);
	cr_assert_null(json_get(&d, root, "missing"));
	json_free(&d);
}

Test(json, refuses_what_is_not_json)
{
	static const struct {
		const char *text, *msg;
	} c[] = {
		{ "", "t.json:1: the text ends where a value should be" },
		{ "{\"a\":1,}", "t.json:1: a ',' before the closing bracket" },
		{ "{1:2}", "t.json:1: a member's name is not a string" },
		{ "[1,]", "t.json:1: a ',' before the closing bracket" },
		{ "{\"a\" 1}", "t.json:1: no ':' after a member's name" },
		{ "{\n\n\"a\":01}", "t.json:3: no ',' or '}' after a member" },
		{ "[1] [2]", "t.json:1: more text after the JSON value" },
		{ "[\"a\tb\"]", "t.json:1: a control character inside a string" },
		{ "[\"\\ud800\"]", "t.json:1: a high surrogate without its low one in a string" },
		{ "[\"\\u0000\"]", "t.json:1: \\u0000 in a string" },
		{ "[\"\xc3\"]", "t.json:1: a string is not valid UTF-8" },
		{ "[1e999]", "t.json:1: a number out of a double's range" },
		{ "[.5]", "t.json:1: not a JSON value" },
		{ "[1.]", "t.json:1: a number has no digit after its '.'" },
		{ "// c\n[]", "t.json:1: not a JSON value" },
		{ "['a']", "t.json:1: not a JSON value" },
		{ "[nul]", "t.json:1: not a JSON value" },
		{ "{\"a\":[1,2}", "t.json:1: no ',' or ']' after an element" },
		{ "{\"a\":\"b", "t.json:1: a string is not closed" },
	};

	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		struct json_doc d;
		struct rs_err err = { 0 };

		cr_assert_eq(json_parse(c[i].text, strlen(c[i].text), "t.json", &d, &err), -1, "%s",
			     c[i].text);
		cr_assert(strncmp(err.msg, c[i].msg, strlen(c[i].msg)) == 0, "%s: %s", c[i].text,
			  err.msg);
		cr_assert_eq(err.kind, RS_E_INPUT);
		cr_assert_null(json_root(&d));
	}
}

Test(json, depth_is_bounded)
{
	char text[2 * JSON_MAX_DEPTH + 8];
	struct json_doc d;
	struct rs_err err = { 0 };
	size_t n = JSON_MAX_DEPTH + 1;

	memset(text, '[', n);
	memset(text + n, ']', n);
	cr_assert_eq(json_parse(text, 2 * n, "t.json", &d, &err), -1);
	cr_assert(strstr(err.msg, "nested deeper") != NULL, "%s", err.msg);
	cr_assert_eq(json_parse(text + 1, 2 * n - 2, "t.json", &d, &err), 0, "%s", err.msg);
	json_free(&d);
}

/* Every figure of the file's rows, as memtier wrote it (README: -t 1 -c 5
 * -n 2000 --ratio 1:1 --pipeline 1). */
Test(import_memtier, ratio_1_1_pipeline_1)
{
	struct import_memtier m;
	const struct rs_row *set, *get;

	parse_file("ratio11-p1.json", &m);
	cr_assert_eq(m.n, 2);
	cr_assert_str_eq(m.section, "ALL STATS");
	cr_assert(m.mixed);
	cr_assert_str_eq(m.ratio, "1:1");
	cr_assert_eq(m.nempty, 1, "Waits counted nothing");
	set = &m.v[0];
	get = &m.v[1];
	cr_assert_str_eq(set->test, "SET");
	cr_assert_str_eq(get->test, "GET");
	for (int i = 0; i < 2; i++) {
		const struct rs_row *r = &m.v[i];

		cr_assert_eq(r->pipeline, 1);
		cr_assert_eq(r->clients, 5);
		cr_assert_eq(r->threads, 1);
		cr_assert_eq(r->requests, 5000);
		cr_assert_eq(r->data_size, 32);
		cr_assert_eq(r->repeat, 1);
		near(r->rps, 24153.07, "rps");
		near(r->seconds, 5000 / 24153.07, "seconds");
		near(r->avg_ms, 0.102, "avg");
		near(r->min_ms, 0.024, "min");
		near(r->p50_ms, 0.095, "p50");
		near(r->p99_ms, 0.239, "p99");
		cr_assert(isnan(r->p95_ms), "memtier printed no p95");
		cr_assert_eq(r->errors, -1);
		cr_assert_str_eq(r->client, "memtier_benchmark");
		cr_assert_str_eq(r->target, "unix:/tmp/mt/r.sock");
		cr_assert_str_eq(r->started_at, "2026-12-02T12:26:50.017Z");
	}
	near(set->max_ms, 0.455, "SET max");
	near(set->p999_ms, 0.319, "SET p99.9");
	cr_assert_eq(set->misses, 0);
	near(get->max_ms, 0.399, "GET max");
	near(get->p999_ms, 0.287, "GET p99.9");
	/* Misses/sec 24153.07 over the run: every GET missed. */
	cr_assert_eq(get->misses, 5000);
	import_memtier_free(&m);
}

Test(import_memtier, pipeline_8)
{
	struct import_memtier m;

	parse_file("ratio11-p8.json", &m);
	cr_assert_eq(m.n, 2);
	cr_assert_eq(m.v[1].pipeline, 8);
	near(m.v[1].rps, 89652.33, "rps");
	near(m.v[1].avg_ms, 0.219, "avg");
	near(m.v[1].min_ms, 0.072, "min");
	near(m.v[1].p50_ms, 0.199, "p50");
	near(m.v[1].p99_ms, 0.487, "p99");
	near(m.v[1].p999_ms, 1.935, "p99.9");
	near(m.v[1].max_ms, 1.935, "max");
	import_memtier_free(&m);
}

/* Two threads of 4 clients: 8 connections; only GETs counted anything. */
Test(import_memtier, get_only_two_threads)
{
	struct import_memtier m;

	parse_file("get-p16.json", &m);
	cr_assert_eq(m.n, 1);
	cr_assert(!m.mixed);
	cr_assert_eq(m.nempty, 2, "Sets and Waits counted nothing");
	cr_assert_str_eq(m.v[0].test, "GET");
	cr_assert_eq(m.v[0].pipeline, 16);
	cr_assert_eq(m.v[0].clients, 8);
	cr_assert_eq(m.v[0].threads, 2);
	cr_assert_eq(m.v[0].requests, 8000);
	near(m.v[0].rps, 375041.02, "rps");
	near(m.v[0].p99_ms, 2.943, "p99");
	near(m.v[0].max_ms, 4.159, "max");
	cr_assert_eq(m.v[0].misses, 4000);
	import_memtier_free(&m);
}

/* --run-count 2 --print-all-runs: each run a repeat; BEST, WORST and the
 * average are not rows. */
Test(import_memtier, runs_are_repeats)
{
	struct import_memtier m;

	parse_file("ratio11-p4-runs2.json", &m);
	cr_assert_eq(m.n, 4);
	cr_assert_eq(m.nruns, 2);
	cr_assert(!m.aggregate);
	cr_assert_str_eq(m.v[0].test, "SET");
	cr_assert_eq(m.v[0].repeat, 1);
	near(m.v[0].rps, 81787.55, "run 1 rps");
	near(m.v[0].max_ms, 5.087, "run 1 max");
	cr_assert_str_eq(m.v[3].test, "GET");
	cr_assert_eq(m.v[3].repeat, 2);
	near(m.v[3].rps, 49907.17, "run 2 rps");
	near(m.v[3].p999_ms, 8.255, "run 2 p99.9");
	cr_assert_str_eq(m.v[3].started_at, "2026-12-02T12:26:54.035Z");
	import_memtier_free(&m);
}

Test(import_memtier, detection_and_bad_files)
{
	static const struct {
		const char *text, *msg;
	} c[] = {
		{ "[]", "m.json:1: the JSON is no object" },
		{ "{\"ALL STATS\":{}}", "m.json:1: no \"configuration\" object" },
		{ "{\"configuration\":{\"pipeline\":0}}", "m.json:1: configuration: \"pipeline\" is not a whole" },
		{ "{\"configuration\":{\"pipeline\":2}}", "m.json:1: no \"ALL STATS\"" },
		{ "{\"configuration\":{\"pipeline\":2},\n\"ALL STATS\":{\"Gets\":{\"Count\":0}}}",
		  "m.json:1: its results hold no command that counted anything" },
		{ "{\"configuration\":{\"pipeline\":2},\n\"ALL STATS\":{\"Gets\":{\"Count\":3}}}",
		  "m.json:2: ALL STATS: Gets: no \"Ops/sec\"" },
		{ "{\"configuration\":{\"pipeline\":2},\n\"ALL STATS\":{\"Gets\":{\"Count\":3,\n"
		  "\"Ops/sec\":1,\"Percentile Latencies\":{\"p50.00\":\"x\"}}}}",
		  "m.json:3: ALL STATS: Gets: percentile \"p50.00\" is not a number" },
		{ "{\"configuration\":{\"pipeline\":2},\"ALL STATS\":{\"Gets\":{\"Count\":3,"
		  "\"Ops/sec\":1}}}\n x", "m.json:2: not a JSON value" },
	};
	struct import_memtier m;

	cr_assert(import_is_json("\n  {\"a\":1}", 10));
	cr_assert(!import_is_json("SET: 1 requests per second", 26));
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		struct rs_err err = { 0 };

		cr_assert_eq(import_memtier_parse(c[i].text, strlen(c[i].text), "m.json", &m, &err),
			     -1, "%s", c[i].text);
		cr_assert(strncmp(err.msg, c[i].msg, strlen(c[i].msg)) == 0, "%s: %s", c[i].text,
			  err.msg);
		cr_assert_eq(m.n, 0);
	}
}

/* A name given twice: the last member counts, as jq and Python read it,
 * in an object small enough to be scanned and in one large enough for
 * the table of names. */
Test(json, a_name_given_twice_is_the_last)
{
	struct json_doc d;
	struct rs_err err = { 0 };
	char big[4096];
	size_t n = 0;
	const struct json_node *root, *m;
	unsigned seen = 0;

	cr_assert_eq(json_parse("{\"a\": 1, \"b\": 2, \"a\": 3}", 24, "t.json", &d, &err), 0, "%s",
		     err.msg);
	root = json_root(&d);
	cr_expect_eq(json_get(&d, root, "a")->u.num, 3);
	cr_expect_eq(root->n, 2);
	for (m = json_first(&d, root); m; m = json_next(&d, m))
		seen++;
	cr_expect_eq(seen, 2);
	json_free(&d);
	n += (size_t)snprintf(big + n, sizeof big - n, "{");
	for (int i = 0; i < 100; i++)
		n += (size_t)snprintf(big + n, sizeof big - n, "%s\"k%d\": %d", i ? ", " : "", i % 40, i);
	n += (size_t)snprintf(big + n, sizeof big - n, "}");
	cr_assert_eq(json_parse(big, n, "big.json", &d, &err), 0, "%s", err.msg);
	root = json_root(&d);
	cr_expect_eq(root->n, 40);
	cr_expect_eq(json_get(&d, root, "k0")->u.num, 80);
	cr_expect_eq(json_get(&d, root, "k19")->u.num, 99);
	cr_expect_eq(json_get(&d, root, "k39")->u.num, 79);
	json_free(&d);
}

Test(import_memtier, duplicate_keys_keep_the_last)
{
	static const char text[] = "{\"configuration\": {\"pipeline\": 1, \"pipeline\": 4},\n"
				   " \"ALL STATS\": {\"Gets\": {\"Count\": 10, \"Ops/sec\": 5, "
				   "\"Ops/sec\": 7}}}\n";
	struct import_memtier m;
	struct rs_err err = { 0 };

	cr_assert_eq(import_memtier_parse(text, strlen(text), "dup.json", &m, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(m.n, 1);
	cr_expect_eq(m.v[0].pipeline, 4);
	cr_expect_eq(m.v[0].rps, 7);
	import_memtier_free(&m);
}

/* rsweep export's own mix: one row of the mix's test, its members'
 * counts its mix_sent, not a row per member; and a server URI's password
 * is never kept. */
Test(import_memtier, rsweeps_own_mix_is_one_row_and_no_password)
{
	static const char text[] =
		"{\"configuration\":{\"label\":\"m1\",\"test\":\"MIX_GET80_SET20\","
		"\"mix\":\"get=80,set=20\",\"server\":\"redis://admin:Sekrit99@10.0.0.1\","
		"\"port\":6379,\"pipeline\":4,\"ratio\":\"20:80\"},"
		"\"ALL STATS\":{\"Gets\":{\"Count\":800,\"Ops/sec\":80000.00},"
		"\"Sets\":{\"Count\":200,\"Ops/sec\":20000.00},"
		"\"Totals\":{\"Count\":1000,\"Ops/sec\":100000.00,\"Average Latency\":0.5}}}\n";
	struct import_memtier m;
	struct rs_err err = { 0 };

	cr_assert_eq(import_memtier_parse(text, strlen(text), "mix.json", &m, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(m.n, 1);
	cr_expect_str_eq(m.v[0].test, "MIX_GET80_SET20");
	cr_expect_str_eq(m.v[0].mix, "get=80,set=20");
	cr_expect_str_eq(m.v[0].mix_sent, "GET=800;SET=200");
	cr_expect_eq(m.v[0].rps, 100000);
	cr_expect_eq(m.v[0].requests, 1000);
	cr_expect_eq(m.mixed, 0);
	cr_expect_str_eq(m.v[0].target, "redis://admin@10.0.0.1:6379");
	import_memtier_free(&m);
}
