/* test_import.c: the redis-benchmark importers, on text from the seeds and
 * on output produced here by redis-benchmark against a private server. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/infile.h"
#include "cli/cmd.h"
#include "results/csv.h"
#include "formats/import.h"
#include "cli/opts.h"
#include "rows_helper.h"
#include "net/spawn.h"
#include "redis_helper.h"

static void parse_ok(const char *text, enum import_kind kind, struct import_result *r)
{
	struct rs_err err = { 0 };

	cr_assert_eq(import_parse(text, strlen(text), "in.txt", kind, 0, r, &err), 0, "%s", err.msg);
}

Test(import, test_names_as_rsweep_names)
{
	static const struct {
		const char *title, *want;
	} c[] = {
		{ "PING_INLINE", "PING_INLINE" },
		{ "MSET (10 keys)", "MSET" },
		{ "LPUSH (needed to benchmark LRANGE)", "LPUSH" },
		{ "LRANGE_100 (first 100 elements)", "LRANGE_100" },
		{ "  get ", "GET" },
		{ "set foo bar", "set foo bar" },
	};
	struct rs_err err;
	char out[ROW_STR];

	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		cr_assert_eq(import_test_name(c[i].title, strlen(c[i].title), out, sizeof out, &err), 0);
		cr_assert_str_eq(out, c[i].want);
	}
	cr_assert_eq(import_test_name(" ", 1, out, sizeof out, &err), -1);
	cr_assert_eq(import_test_name("a\x01", 2, out, sizeof out, &err), -1);
}

Test(import, quiet_output_with_progress_lines)
{
	/* As a terminal capture holds it: progress, blanks, then the result,
	 * on one line separated by carriage returns. */
	const char *text =
		"SET: rps=0.0 (overall: nan) avg_msec=nan (overall: nan)\r"
		"                                                   \r"
		"SET: 99403.58 requests per second, p50=0.255 msec\n"
		"\rGET: rps=0.0 (overall: -nan) avg_msec=-nan (overall: -nan)\r   \r"
		"GET: 99800.40 requests per second, p50=0.255 msec    \n"
		"\n"
		"LPUSH (needed to benchmark LRANGE): 99601.60 requests per second, p50=0.255 msec\r\n"
		"MSET (10 keys): 97656.24 requests per second, p50=0.263 msec\n";
	struct import_result r;

	parse_ok(text, IMPORT_AUTO, &r);
	cr_assert_eq(r.kind, IMPORT_QUIET);
	cr_assert_eq(r.n, 4);
	cr_assert_str_eq(r.v[0].test, "SET");
	cr_assert_float_eq(r.v[0].rps, 99403.58, 1e-9);
	cr_assert_float_eq(r.v[0].p50_ms, 0.255, 1e-12);
	cr_assert(isnan(r.v[0].avg_ms));
	cr_assert_eq(r.v[0].line, 1);
	cr_assert_str_eq(r.v[1].test, "GET");
	cr_assert_eq(r.v[2].line, 4);
	cr_assert_str_eq(r.v[2].test, "LPUSH");
	cr_assert_str_eq(r.v[3].test, "MSET");
	cr_assert_float_eq(r.v[3].p50_ms, 0.263, 1e-12);
	import_result_free(&r);
}

Test(import, older_quiet_output_without_p50)
{
	struct import_result r;

	parse_ok("PING_INLINE: 84033.61 requests per second\nSET: 1234 requests per second\n",
		 IMPORT_QUIET, &r);
	cr_assert_eq(r.n, 2);
	cr_assert_str_eq(r.v[0].test, "PING_INLINE");
	cr_assert_float_eq(r.v[1].rps, 1234, 1e-9);
	cr_assert(isnan(r.v[1].p50_ms));
	import_result_free(&r);
}

Test(import, csv_forms)
{
	const char *v7 =
		"\"test\",\"rps\",\"avg_latency_ms\",\"min_latency_ms\",\"p50_latency_ms\","
		"\"p95_latency_ms\",\"p99_latency_ms\",\"max_latency_ms\"\n"
		"\"PING_INLINE\",\"105263.16\",\"0.270\",\"0.080\",\"0.231\",\"0.519\",\"0.799\",\"1.143\"\n"
		"\"LRANGE_100 (first 100 elements)\",\"62500.00\",\"0.440\",\"0.184\",\"0.423\",\"0.655\","
		"\"1.031\",\"1.287\"\r\n";
	const char *two = "\"test\",\"rps\"\n\"SET\",\"99403.58\"\n\"MSET (10 keys)\",\"97656.24\"\n";
	const char *bare = "\"SET\",\"99403.58\"\n\"GET\",\"99800.40\"\n";
	struct import_result r;

	parse_ok(v7, IMPORT_AUTO, &r);
	cr_assert_eq(r.kind, IMPORT_CSV);
	cr_assert_eq(r.n, 2);
	cr_assert_str_eq(r.v[1].test, "LRANGE_100");
	cr_assert_float_eq(r.v[1].rps, 62500, 1e-9);
	cr_assert_float_eq(r.v[1].avg_ms, 0.44, 1e-12);
	cr_assert_float_eq(r.v[1].min_ms, 0.184, 1e-12);
	cr_assert_float_eq(r.v[1].p50_ms, 0.423, 1e-12);
	cr_assert_float_eq(r.v[1].p95_ms, 0.655, 1e-12);
	cr_assert_float_eq(r.v[1].p99_ms, 1.031, 1e-12);
	cr_assert_float_eq(r.v[1].max_ms, 1.287, 1e-12);
	import_result_free(&r);
	parse_ok(two, IMPORT_AUTO, &r);
	cr_assert_eq(r.n, 2);
	cr_assert_str_eq(r.v[1].test, "MSET");
	cr_assert(isnan(r.v[1].avg_ms));
	import_result_free(&r);
	parse_ok(bare, IMPORT_CSV, &r);
	cr_assert_eq(r.n, 2);
	cr_assert_float_eq(r.v[1].rps, 99800.40, 1e-9);
	import_result_free(&r);
}

Test(import, bad_lines_named_and_skipped_only_when_asked)
{
	/* Part of a terminal transcript, as in the seed. */
	const char *text =
		"root@f8529b27833e:/data# time redis-benchmark -q\n"
		"PING_INLINE: 99700.90 requests per second, p50=0.255 msec\n"
		"SET: nan requests per second, p50=0.255 msec\n"
		"GET: 99800.40 requests per second, p50=0.255 msec\n"
		"\n"
		"real    0m33.045s\n";
	struct import_result r;
	struct rs_err err = { 0 };

	/* The prompt, the command line and time's output are no results:
	 * skipped and counted; the damaged line is still refused. */
	cr_assert_eq(import_parse(text, strlen(text), "run.txt", IMPORT_QUIET, 0, &r, &err), -1);
	cr_assert(strncmp(err.msg, "run.txt:3: ", 11) == 0, "%s", err.msg);
	cr_assert_eq(r.n, 0);
	cr_assert_eq(import_parse(text, strlen(text), "run.txt", IMPORT_QUIET, 1, &r, &err), 0,
		     "%s", err.msg);
	cr_assert_eq(r.n, 2);
	cr_assert_eq(r.nbad, 1);
	cr_assert_eq(r.bad[0].line, 3);
	cr_assert(strstr(r.bad[0].reason, "'nan' is not a number"), "%s", r.bad[0].reason);
	cr_assert_eq(r.nskipped, 2);
	cr_assert_eq(r.skip_line, 1);
	cr_assert_eq(r.nruns, 1);
	cr_assert_eq(r.runs[0].pipeline, 1, "a command line without -P ran at P=1");
	cr_assert(r.runs[0].pipeline_implied);
	cr_assert_str_eq(r.runs[0].target, "127.0.0.1:6379", "redis-benchmark's defaults");
	cr_assert_eq(r.runs[0].cmd_line, 1);
	import_result_free(&r);

	cr_assert_eq(import_parse("SET: rps=12.0 (overall: 10.0) avg_msec=0.2 (overall: 0.2)\r", 58,
				  "cut.txt", IMPORT_AUTO, 0, &r, &err), -1);
	cr_assert(strstr(err.msg, "cut.txt:1: progress output without a final result"), "%s", err.msg);
	cr_assert_eq(import_parse("\"SET\",\"-5\"\n", 11, "neg.csv", IMPORT_AUTO, 0, &r, &err), -1);
	cr_assert(strstr(err.msg, "neg.csv:1: rps '-5' is negative"), "%s", err.msg);
	cr_assert_eq(import_parse("\n\n", 2, "empty.txt", IMPORT_AUTO, 1, &r, &err), -1);
	cr_assert(strstr(err.msg, "empty.txt: no redis-benchmark result"), "%s", err.msg);
	cr_assert_eq(import_parse("\"test\",\"rps\"\n\"SET\",\"1\",\"2\"\n", 26, "w.csv", IMPORT_AUTO, 0,
				  &r, &err), -1);
	cr_assert(strstr(err.msg, "w.csv:2: 3 fields, the header has 2"), "%s", err.msg);
}

/* ---- `rsweep import` and real redis-benchmark output ---- */

static char tmpdir[64];

static void mk_tmp(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/rsweep-import-XXXXXX");
	cr_assert_not_null(mkdtemp(tmpdir));
}

static void rm_tmp(void)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	cr_assert_eq(system(cmd), 0);
}

static void write_file(const char *name, const char *text, size_t len)
{
	char path[128];
	FILE *fp;

	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	fp = fopen(path, "w");
	cr_assert_not_null(fp);
	fwrite(text, 1, len, fp);
	fclose(fp);
}

/* Run `rsweep import ARGS...` in tmpdir. */
static enum rs_status run_import(struct rs_err *err, const char *const *args, int nargs)
{
	struct rs_config cfg;
	static char store[32][128];
	char *argv[33];
	int argc = 0;
	enum rs_status st;

	snprintf(store[argc++], sizeof store[0], "import");
	for (int i = 0; i < nargs; i++)
		snprintf(store[argc++], sizeof store[0], "%s", args[i]);
	for (int i = 0; i < argc; i++)
		argv[i] = store[i];
	argv[argc] = NULL;
	cr_assert_eq(opts_defaults(CMD_IMPORT, &cfg, err), 0, "%s", err->msg);
	if (opts_parse_argv(CMD_IMPORT, argc, argv, &cfg, err) < 0) {
		opts_free(&cfg);
		return RS_BAD_INPUT;
	}
	cr_assert_eq(chdir(tmpdir), 0);
	st = cmd_import(&cfg, err) < 0 ? rs_err_status(err) : RS_OK;
	opts_free(&cfg);
	return st;
}

static void read_rows(const char *name, struct rs_rows *rows)
{
	struct csv_info info;
	struct rs_err err = { 0 };
	char path[128];

	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	cr_assert_eq(csv_read_file(path, rows, &info, &err), 0, "%s", err.msg);
	cr_assert(info.rsweep_header);
}

static const struct rs_rec *row_of(const struct rs_rows *rows, const char *test, unsigned repeat)
{
	for (size_t i = 0; i < rows->n; i++)
		if (strcmp(rows->v[i].test, test) == 0 && rows->v[i].repeat == repeat)
			return &rows->v[i];
	return NULL;
}

Test(import, cli_writes_rsweep_rows, .init = mk_tmp, .fini = rm_tmp)
{
	const char *text =
		"PING_INLINE: 99700.90 requests per second, p50=0.255 msec\n"
		"LPUSH: 99108.03 requests per second, p50=0.255 msec\n"
		"LPUSH (needed to benchmark LRANGE): 99601.60 requests per second, p50=0.255 msec\n"
		"LRANGE_100 (first 100 elements): 59988.00 requests per second, p50=0.415 msec\n"
		"real    0m33.045s\n";
	static const char *const a1[] = { "-P", "16", "-l", "tcp", "-c", "20", "-n", "5000", "-d", "64",
					  "--skip-bad", "-q", "-o", "out.csv", "run.txt" };
	static const char *const again[] = { "-P", "16", "-q", "--skip-bad", "-o", "out.csv", "run.txt" };
	static const char *const over[] = { "-P", "16", "-q", "--skip-bad", "--overwrite", "-o",
					    "out.csv", "run.txt" };
	static const char *const strict[] = { "-o", "strict.csv", "run.txt" };
	static const char *const list[] = { "-P", "1..4", "run.txt" };
	struct rs_rows rows = { 0 };
	struct rs_err err = { 0 };
	const struct rs_rec *r;
	struct stat st;
	char order[32];

	write_file("run.txt", text, strlen(text));
	cr_assert_eq(run_import(&err, a1, 15), RS_OK, "%s", err.msg);
	read_rows("out.csv", &rows);
	cr_assert_eq(rows.n, 4);
	r = row_of(&rows, "LRANGE_100", 1);
	cr_assert_not_null(r);
	cr_assert_str_eq(r->label, "tcp");
	cr_assert_eq(r->pipeline, 16);
	cr_assert_eq(r->clients, 20);
	cr_assert_eq(r->requests, 5000);
	cr_assert_eq(r->data_size, 64);
	cr_assert_float_eq(rows_fig(&rows, r, ROW_RPS), 59988, 1e-9);
	cr_assert_float_eq(rows_fig(&rows, r, ROW_P50_MS), 0.415, 1e-12);
	{
		char path[128];

		snprintf(path, sizeof path, "%s/out.csv", tmpdir);
		column_at(path, r->line, "order", order, sizeof order);
	}
	cr_assert_str_eq(order, "4");
	/* LPUSH measured twice in one run: two repeats, not a duplicate. */
	cr_assert_not_null(row_of(&rows, "LPUSH", 1));
	cr_assert_not_null(row_of(&rows, "LPUSH", 2));
	rows_free(&rows);

	cr_assert_eq(run_import(&err, again, 7), RS_BAD_INPUT);
	cr_assert(strstr(err.msg, "out.csv exists and is not empty (give --overwrite"), "%s", err.msg);
	cr_assert_eq(run_import(&err, over, 8), RS_OK, "%s", err.msg);
	read_rows("out.csv", &rows);
	cr_assert_str_eq(rows.v[0].label, "run", "default label: the input's name");
	rows_free(&rows);

	/* time's "real" line is not a result: skipped without --skip-bad. */
	cr_assert_eq(run_import(&err, strict, 3), RS_OK, "%s", err.msg);
	cr_assert(stat("strict.csv", &st) == 0);
	/* One run and four depths: which depth it was is not known. */
	cr_assert_eq(run_import(&err, list, 3), RS_BAD_INPUT);
	cr_assert(strstr(err.msg, "run.txt holds 1 run of redis-benchmark (a test seen again "
			 "starts the next) but -P lists 4 depths"), "%s", err.msg);
}

/* What the CSV's readers would refuse is refused at import, with FILE:LINE
 * (or naming the label), by the same rule the writer applies: nothing is
 * written that `rsweep report` would then reject. */
Test(import, values_the_csv_readers_refuse_are_refused, .init = mk_tmp, .fini = rm_tmp)
{
	const char *text = "GET: 1e300 requests per second\nSET: 1000.50 requests per second\n";
	static const char *const plain[] = { "-l", "a", "-q", "-o", "out.csv", "run.txt" };
	static const char *const skip[] = { "-l", "a", "-q", "--skip-bad", "-o", "out.csv", "run.txt" };
	static const char *const nl[] = { "-l", "a\nb", "-o", "nl.csv", "ok.txt" };
	static const char *const tab[] = { "-o", "tab.csv", "a\tb.txt" };
	struct rs_rows rows = { 0 };
	struct rs_err err = { 0 };
	struct stat st;

	write_file("run.txt", text, strlen(text));
	write_file("ok.txt", "GET: 1000.50 requests per second\n", 33);
	write_file("a\tb.txt", "GET: 1000.50 requests per second\n", 33);

	cr_assert_eq(run_import(&err, plain, 6), RS_BAD_INPUT);
	cr_assert(strstr(err.msg, "run.txt:1: rps 10000000000000000525047602552044... is not a "
			 "plausible figure (over 1e15)"), "%s", err.msg);
	cr_assert(stat("out.csv", &st) < 0, "nothing written on failure");
	cr_assert_eq(run_import(&err, skip, 7), RS_OK, "%s", err.msg);
	read_rows("out.csv", &rows);
	cr_assert_eq(rows.n, 1);
	cr_assert_str_eq(rows.v[0].test, "SET");
	cr_assert_eq(rows.v[0].repeat, 1);
	rows_free(&rows);

	cr_assert_eq(run_import(&err, nl, 5), RS_BAD_INPUT);
	cr_assert_str_eq(err.msg, "--label: label 'a?b' holds a control character");
	cr_assert(stat("nl.csv", &st) < 0);
	cr_assert_eq(run_import(&err, tab, 3), RS_BAD_INPUT);
	cr_assert_str_eq(err.msg, "cannot make a label of the input's name (label 'a?b' holds a "
			 "control character): give --label");
	cr_assert(stat("tab.csv", &st) < 0);
}

/* Run cmd in a shell, keep its stdout in name (in tmpdir). */
static void capture(const char *cmd, const char *name)
{
	char path[128], buf[4096];
	FILE *in = popen(cmd, "r"), *out;
	size_t k;

	cr_assert_not_null(in, "%s", cmd);
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	out = fopen(path, "w");
	cr_assert_not_null(out);
	while ((k = fread(buf, 1, sizeof buf, in)) > 0)
		fwrite(buf, 1, k, out);
	fclose(out);
	cr_assert_eq(pclose(in), 0, "%s failed", cmd);
}

Test(import, real_redis_benchmark_output, .init = mk_tmp, .fini = rm_tmp, .timeout = 120)
{
	struct spawn h;
	const char *server = redis_server();
	char cmd[512];
	struct rs_err err = { 0 };
	struct rs_rows rows = { 0 };
	static const char *const q[] = { "-l", "quiet", "-P", "1", "-q", "-o", "q.csv", "q.txt" };
	static const char *const c[] = { "-l", "csv", "-P", "1", "-q", "--from", "csv", "-o",
					 "c.csv", "c.txt" };
	const struct rs_rec *r;

	if (system("command -v redis-benchmark >/dev/null") != 0)
		cr_skip_test("redis-benchmark not found (apt-get install redis-tools)");
	cr_assert_eq(spawn_start(&h, server, 0, NULL, 10, &err), 0, "%s",
		     err.msg);
	snprintf(cmd, sizeof cmd, "redis-benchmark -s '%s' -t get,set -n 2000 -q", h.socket);
	capture(cmd, "q.txt");
	snprintf(cmd, sizeof cmd, "redis-benchmark -s '%s' -t get,set,mset,lrange_100 -n 2000 --csv",
		 h.socket);
	capture(cmd, "c.txt");
	spawn_stop(&h);

	cr_assert_eq(run_import(&err, q, 8), RS_OK, "%s", err.msg);
	read_rows("q.csv", &rows);
	cr_assert_eq(rows.n, 2);
	r = row_of(&rows, "GET", 1);
	cr_assert_not_null(r);
	cr_assert_gt(rows_fig(&rows, r, ROW_RPS), 0);
	cr_assert_gt(rows_fig(&rows, r, ROW_P50_MS), 0);
	cr_assert_not_null(row_of(&rows, "SET", 1));
	rows_free(&rows);

	cr_assert_eq(run_import(&err, c, 10), RS_OK, "%s", err.msg);
	read_rows("c.csv", &rows);
	cr_assert_geq(rows.n, 4);
	r = row_of(&rows, "MSET", 1);
	cr_assert_not_null(r);
	cr_assert_gt(rows_fig(&rows, r, ROW_RPS), 0);
	cr_assert_gt(rows_fig(&rows, r, ROW_AVG_MS), 0);
	cr_assert_geq(rows_fig(&rows, r, ROW_MAX_MS), rows_fig(&rows, r, ROW_AVG_MS));
	cr_assert_not_null(row_of(&rows, "LRANGE_100", 1));
	cr_assert_not_null(row_of(&rows, "LPUSH", 1));
	rows_free(&rows);
}

/* ---- checked-in captures of redis-benchmark 6.x (tests/data/import) ---- */

static char *sample(const char *name, size_t *len)
{
	char path[512];
	struct rs_err err = { 0 };
	char *buf;

	snprintf(path, sizeof path, "%s/tests/data/import/%s", RS_TOP_SRCDIR, name);
	cr_assert_eq(infile_slurp(path, 1 << 20, &buf, len, &err), 0, "%s", err.msg);
	return buf;
}

static void parse_sample(const char *name, struct import_result *r)
{
	struct rs_err err = { 0 };
	size_t len;
	char *buf = sample(name, &len);

	cr_assert_eq(import_parse(buf, len, name, IMPORT_AUTO, 0, r, &err), 0, "%s", err.msg);
	free(buf);
}

/* 6.0's default output: a percentile list at whole milliseconds, then the
 * rate.  Buckets are not latencies: none is taken. */
Test(import, full_output_of_6_0)
{
	struct import_result r;

	parse_sample("redis-6.0-full.txt", &r);
	cr_assert_eq(r.kind, IMPORT_FULL);
	cr_assert_eq(r.n, 3);
	cr_assert_eq(r.nruns, 1);
	cr_assert_str_eq(r.v[0].test, "PING_INLINE");
	cr_assert_str_eq(r.v[2].test, "MSET");
	cr_assert_float_eq(r.v[1].rps, 78740.16, 1e-9);
	cr_assert_float_eq(r.v[2].rps, 62500.00, 1e-9);
	cr_assert_float_eq(r.v[1].seconds, 0.13, 1e-12);
	cr_assert_eq(r.v[1].requests, 10000);
	cr_assert_eq(r.v[1].clients, 50);
	cr_assert_eq(r.v[1].data_size, 3);
	cr_assert_eq(r.v[1].line, 14);
	cr_assert(isnan(r.v[1].p50_ms) && isnan(r.v[1].avg_ms) && isnan(r.v[1].max_ms));
	cr_assert_eq(r.nskipped, 0);
	import_result_free(&r);
}

/* 6.2's (and 7.x's) default output: the summary's rate and six latencies. */
Test(import, full_output_of_6_2)
{
	struct import_result r;

	parse_sample("redis-6.2-full.txt", &r);
	cr_assert_eq(r.kind, IMPORT_FULL);
	cr_assert_eq(r.n, 2);
	cr_assert_str_eq(r.v[0].test, "SET");
	cr_assert_float_eq(r.v[0].rps, 84817.64, 1e-9);
	cr_assert_float_eq(r.v[0].avg_ms, 0.322, 1e-12);
	cr_assert_float_eq(r.v[0].min_ms, 0.104, 1e-12);
	cr_assert_float_eq(r.v[0].p50_ms, 0.303, 1e-12);
	cr_assert_float_eq(r.v[0].p95_ms, 0.487, 1e-12);
	cr_assert_float_eq(r.v[0].p99_ms, 0.831, 1e-12);
	cr_assert_float_eq(r.v[0].max_ms, 2.111, 1e-12);
	cr_assert_eq(r.v[0].requests, 100000);
	cr_assert_str_eq(r.v[1].test, "GET");
	cr_assert_float_eq(r.v[1].rps, 91491.30, 1e-9);
	cr_assert_float_eq(r.v[1].avg_ms, 0.297, 1e-12);
	cr_assert_float_eq(r.v[1].max_ms, 1.791, 1e-12);
	cr_assert_eq(r.v[1].line, 25);
	import_result_free(&r);
}

/* A loop of -q runs with "P=N" banners and redis-cli's OK between them:
 * three runs, found where SET comes again. */
Test(import, loop_of_quiet_runs)
{
	struct import_result r;

	parse_sample("redis-6.2-loop-q.txt", &r);
	cr_assert_eq(r.kind, IMPORT_QUIET);
	cr_assert_eq(r.n, 6);
	cr_assert_eq(r.nruns, 3);
	for (size_t i = 0; i < 6; i++)
		cr_assert_eq(r.v[i].run, i / 2, "point %zu", i);
	cr_assert_eq(r.runs[1].line, 7);
	cr_assert_float_eq(r.v[4].rps, 285714.28, 1e-9);
	cr_assert_float_eq(r.v[5].p50_ms, 0.24, 1e-12);
	cr_assert_eq(r.nskipped, 6, "three banners and three OKs");
	cr_assert_eq(r.skip_line, 1);
	cr_assert_str_eq(r.skip_text, "P=1");
	cr_assert_eq(r.runs[0].pipeline, 0);
	import_result_free(&r);
}

/* A pasted terminal session: the command line's -P, -c and -n are kept;
 * the -d it does not name is redis-benchmark's default, 3 bytes, marked
 * as such (issue 42). */
Test(import, terminal_paste_shows_the_command)
{
	struct import_result r;

	parse_sample("redis-6.2-paste.txt", &r);
	cr_assert_eq(r.n, 2);
	cr_assert_eq(r.nruns, 1);
	cr_assert_eq(r.runs[0].pipeline, 16);
	cr_assert_eq(r.runs[0].clients, 100);
	cr_assert_eq(r.runs[0].requests, 100000);
	cr_assert_eq(r.runs[0].data_size, IMPORT_DEFAULT_DATA_SIZE);
	cr_assert_eq(r.runs[0].defaulted, IMPORT_DEF_DATA_SIZE);
	cr_assert_eq(r.runs[0].cmd_line, 1);
	cr_assert(!r.runs[0].pipeline_implied);
	cr_assert_str_eq(r.runs[0].target, "127.0.0.1:6379");
	cr_assert_float_eq(r.v[1].rps, 1176470.62, 1e-9);
	cr_assert_eq(r.nskipped, 5, "prompt, real, user, sys, prompt");
	import_result_free(&r);
}

/* What a capture holds besides results; and a file of nothing else. */
Test(import, lines_that_are_not_results)
{
	const char *text =
		"Script started on 2024-05-01 10:00:00+00:00 [COMMAND=\"redis-benchmark -q -P $i\" "
		"TERM=\"xterm\"]\n"
		"\033[?2004h$ redis-benchmark --version\033[?2004l\n"
		"redis-benchmark 7.0.15 (git:abc)\n"
		"WARNING: Could not fetch server CONFIG\n"
		"\"test\",\"rps\"\n"
		"\"SET\",\"1000.00\"\n"
		"\"test\",\"rps\"\n"
		"\"SET\",\"2000.00\"\n"
		"redis-benchmark -q -P 16  17.63s user 15.11s system 99% cpu 33.045 total\n"
		"/usr/local/bin # \n"
		"Script done on 2024-05-01 10:00:01+00:00 [COMMAND_EXIT_CODE=\"0\"]\n";
	struct import_result r;
	struct rs_err err = { 0 };

	parse_ok(text, IMPORT_AUTO, &r);
	cr_assert_eq(r.n, 2);
	cr_assert_eq(r.nruns, 2, "a second CSV header starts a run");
	cr_assert_eq(r.runs[0].pipeline, 0, "-P $i shows no depth");
	cr_assert_str_eq(r.runs[0].version, "7.0.15");
	cr_assert_eq(r.nskipped, 7);
	import_result_free(&r);
	cr_assert_eq(import_parse("$ redis-benchmark -q\n\nreal 0m1.0s\n", 31, "p.txt", IMPORT_AUTO,
				  0, &r, &err), -1);
	cr_assert_str_eq(err.msg, "p.txt: no redis-benchmark result in it (2 lines that are not "
			 "results, the first at line 1: '$ redis-benchmark -q')");
	/* A block cut short is damaged, not skipped. */
	cr_assert_eq(import_parse("====== SET ======\n  10 parallel clients\n", 40, "c.txt",
				  IMPORT_AUTO, 0, &r, &err), -1);
	cr_assert(strstr(err.msg, "c.txt:1: test SET: its block has no requests per second"),
		  "%s", err.msg);
}

/* A pasted command line: no -P is redis-benchmark's P=1, and -h, -p, -s
 * (--tls) are the target; a word the shell expands may hide either. */
Test(import, command_line_depth_and_target)
{
	static const struct {
		const char *cmd;
		unsigned depth;
		int implied;
		const char *target;
	} c[] = {
		{ "$ redis-benchmark -q -t get", 1, 1, "127.0.0.1:6379" },
		{ "$ redis-benchmark -q -h 10.0.0.5 -p 6380", 1, 1, "10.0.0.5:6380" },
		{ "$ redis-benchmark -p 7000 -q -P 8", 8, 0, "127.0.0.1:7000" },
		{ "$ redis-benchmark -q -s /tmp/r.sock -h x", 1, 1, "unix:/tmp/r.sock" },
		{ "$ redis-benchmark -q --tls -h db.example -p 6380", 1, 1, "rediss://db.example:6380" },
		{ "$ redis-benchmark -q -h ::1", 1, 1, "[::1]:6379" },
		{ "$ redis-benchmark -q -P $i -h $HOST", 0, 0, "" },
		{ "$ redis-benchmark -q $OPTS", 0, 0, "" },
		{ "$ redis-benchmark -q -n $N", 1, 1, "127.0.0.1:6379" },
		{ "$ time redis-benchmark -q -t \"get,set\" -P 4", 0, 0, "" },
		{ "Script started on 2024-05-01 [COMMAND=\"redis-benchmark -q -c 5\" TERM=\"x\"]", 1,
		  1, "127.0.0.1:6379" },
	};

	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		char text[256];
		struct import_result r;

		snprintf(text, sizeof text, "%s\nSET: 1000.00 requests per second\n", c[i].cmd);
		parse_ok(text, IMPORT_AUTO, &r);
		cr_assert_eq(r.nruns, 1);
		cr_assert_eq(r.runs[0].pipeline, c[i].depth, "%s: P=%u", c[i].cmd, r.runs[0].pipeline);
		cr_assert_eq(r.runs[0].pipeline_implied, c[i].implied, "%s", c[i].cmd);
		cr_assert_str_eq(r.runs[0].target, c[i].target, "%s", c[i].cmd);
		import_result_free(&r);
	}
}
