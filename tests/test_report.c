/* test_report.c: the report's formats and sentences, and `rsweep report`
 * end to end on small CSVs written here. */
#include "config.h"

#include <criterion/criterion.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/infile.h"
#include "analysis/analysis.h"
#include "cli/cmd.h"
#include "results/csv.h"
#include "cli/opts.h"
#include "report/report.h"
#include "analysis/series.h"
#include "rows_helper.h"

struct fixture {
	struct rs_rows rows;
	struct series_set rps, avg;
	struct analysis_result res;
};

static void analyse(struct fixture *f, const char *baseline, unsigned depth)
{
	struct analysis_opts o = { 0.95, 0.10, baseline, depth, 0, 0 };
	struct rs_err err = { 0 };

	cr_assert_eq(series_build(&f->rows, SM_RPS, &f->rps, &err), 0, "%s", err.msg);
	cr_assert_eq(series_build(&f->rows, SM_AVG, &f->avg, &err), 0, "%s", err.msg);
	cr_assert_eq(analysis_run(&f->rps, &f->avg, &o, &f->res, &err), 0, "%s", err.msg);
}

static void fixture_free(struct fixture *f)
{
	analysis_result_free(&f->res);
	series_set_free(&f->rps);
	series_set_free(&f->avg);
	rows_free(&f->rows);
}

/* The report of f as a string (malloc'd); text in its wide layout unless
 * narrow (the default of rsweep report). */
static char *render_as(const struct fixture *f, enum report_format fmt, int prose, int narrow)
{
	struct report_opts o = { fmt, prose, 0.95, 0.10, NULL, NULL, NULL, !narrow, NULL, 0 };
	struct rs_err err = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	cr_assert_not_null(fp);
	cr_assert_eq(report_write(fp, &f->res, &o, &err), 0, "%s", err.msg);
	fclose(fp);
	return buf;
}

static char *render(const struct fixture *f, enum report_format fmt, int prose)
{
	return render_as(f, fmt, prose, 0);
}

/* The snap-vs-apt write-up: stock runs at P=1, one sentence per test, in
 * redis-benchmark's order; one measurement a side still gives the
 * difference and its ratio, beside the doubt (issue 42). */
Test(report, prose_in_the_seed_words)
{
	static const struct {
		const char *test;
		double apt_rps, apt_avg, snap_rps, snap_avg;
		const char *want;
	} c[] = {
		{ "GET", 100000, 0.500, 121340, 0.355,
		  "GET: snap showed a 21.34k higher throughput (1.21x)"
		  ", one measurement a side: cannot tell whether it is the difference between snap and apt or the machine's noise; measure again with --repeat 5." },
		{ "LPUSH", 90000, 0.400, 106000, 0.302,
		  "LPUSH: snap showed a 16k higher throughput (1.18x)"
		  ", one measurement a side: cannot tell whether it is the difference between snap and apt or the machine's noise; measure again with --repeat 5." },
		{ "RPOP", 100000, 0.300, 93340, 0.358,
		  "RPOP: snap showed a 6.66k lower throughput (0.93x)"
		  ", one measurement a side: cannot tell whether it is the difference between snap and apt or the machine's noise; measure again with --repeat 5." },
		{ "SPOP", 97000, 0.260, 99820, 0.250,
		  "SPOP: snap showed a 2.82k higher throughput (1.03x)"
		  ", one measurement a side: cannot tell whether it is the difference between snap and apt or the machine's noise; measure again with --repeat 5." },
		{ "ZPOPMIN", 90000, 0.280, 91410, 0.280,
		  "ZPOPMIN: snap showed a 1.41k higher throughput (1.02x)"
		  ", one measurement a side: cannot tell whether it is the difference between snap and apt or the machine's noise; measure again with --repeat 5." },
		{ "LRANGE_300", 30000, 0.900, 30950, 0.829,
		  "LRANGE_300: snap showed a 0.95k higher throughput (1.03x)"
		  ", one measurement a side: cannot tell whether it is the difference between snap and apt or the machine's noise; measure again with --repeat 5." },
	};
	struct fixture f = { 0 };
	char *text;

	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		add(&f.rows, "apt", c[i].test, 1, 1, c[i].apt_rps, c[i].apt_avg);
		add(&f.rows, "snap", c[i].test, 1, 1, c[i].snap_rps, c[i].snap_avg);
	}
	analyse(&f, NULL, 0);
	cr_assert_eq(f.res.ncmps, sizeof c / sizeof c[0]);
	for (size_t i = 0; i < f.res.ncmps; i++) {
		char s[512];

		report_prose(&f.res, &f.res.cmps[i], s, sizeof s);
		cr_assert_str_eq(s, c[i].want);
	}
	text = render(&f, FORMAT_TEXT, 1);
	cr_assert(strstr(text, "In words") != NULL, "%s", text);
	cr_assert(strstr(text, c[0].want) != NULL, "%s", text);
	cr_assert(strstr(text, "every series has one depth: no saturation") != NULL, "%s", text);
	free(text);
	fixture_free(&f);
}

/* One depth with three repeats a side (the A/A of issue 26): the repeats
 * give the ratio an interval and a verdict in the table, csv and prose;
 * the same files with one repeat say there is no interval, and why. */
Test(report, one_depth_repeats_give_a_verdict)
{
	static const double va[] = { 100000, 103000, 98000 }, vb[] = { 101000, 99500, 102000 };
	static const double fa[] = { 130000, 134000, 131000 };
	struct fixture f = { 0 };
	char s[512], *text;

	for (unsigned k = 0; k < 3; k++) {
		add(&f.rows, "a", "GET", 1, k + 1, va[k], 0.3);
		add(&f.rows, "b", "GET", 1, k + 1, vb[k], 0.3);
		add(&f.rows, "a", "SET", 1, k + 1, fa[k], 0.3);
		add(&f.rows, "b", "SET", 1, k + 1, vb[k], 0.3);
	}
	analyse(&f, "b", 0);
	cr_assert_eq(f.res.ncmps, 2);
	for (size_t i = 0; i < 2; i++) {
		const struct analysis_delta *d = analysis_cmp_delta(&f.res, &f.res.cmps[i]);

		cr_assert(isfinite(d->ci.lo) && isfinite(d->ci.hi), "no interval from 3 repeats");
		report_prose(&f.res, &f.res.cmps[i], s, sizeof s);
		if (strcmp(f.res.series[f.res.cmps[i].other].rps->test, "GET") == 0) {
			cr_assert_eq(d->verdict, KNEE_CANNOT_TELL, "%s", s);
			cr_assert(strstr(s, "GET: a showed a 1k lower throughput (0.99x, 95% interval ") == s,
				  "%s", s);
			cr_assert(strstr(s, ": cannot tell)") != NULL, "%s", s);
		} else {
			cr_assert_eq(d->verdict, KNEE_FASTER, "%s", s);
			cr_assert(strstr(s, "higher throughput (1.30x, 95% interval ") != NULL, "%s", s);
			cr_assert(strstr(s, ": faster)") != NULL, "%s", s);
		}
	}
	text = render(&f, FORMAT_CSV, 0);
	cr_assert(strstr(text, ",cannot tell,") != NULL, "%s", text);
	cr_assert(strstr(text, ",faster,") != NULL, "%s", text);
	free(text);
	fixture_free(&f);

	memset(&f, 0, sizeof f);
	add(&f.rows, "a", "GET", 1, 1, va[0], 0.3);
	add(&f.rows, "b", "GET", 1, 1, vb[0], 0.3);
	analyse(&f, "b", 0);
	report_prose(&f.res, &f.res.cmps[0], s, sizeof s);
	/* No latency either: one measurement a side gives it no interval. */
	cr_assert_str_eq(s, "GET: a showed a 1k lower throughput (0.99x), one measurement a side: "
			 "cannot tell whether it is the difference between a and b or the machine's "
			 "noise; measure again with --repeat 5.");
	text = render(&f, FORMAT_TEXT, 0);
	cr_assert(strstr(text, "no interval") != NULL, "%s", text);
	/* The table's cell is short; the line under it says why and what to do. */
	cr_assert(strstr(text, "\n1 ratio has no interval: one measurement per side; measure "
			  "again with --repeat 5.\n") != NULL, "%s", text);
	free(text);
	fixture_free(&f);
}

/* Two labels with known ratios: the table's deltas and the sentence agree
 * to the printed precision. */
Test(report, deltas_and_prose_agree)
{
	struct fixture f = { 0 };
	char *text, s[512];

	for (unsigned p = 1; p <= 8; p++) {
		add(&f.rows, "intel", "GET", p, 1, 10000.0 * p, 0.5);
		add(&f.rows, "m1", "GET", p, 1, 12345.678 * p, 0.4);
	}
	analyse(&f, "intel", 0);
	report_prose(&f.res, &f.res.cmps[0], s, sizeof s);
	/* At the peaks (P=8): 98765.42 - 80000 = 18765.42 -> 18.77k; 0.1 ms.
	 * Noise-free lines: no zero-width interval, said so (issue 42), at
	 * P=1 too (and nothing along the depths, where none has one).  One repeat a depth: the latency at
	 * P=8 has no interval, so the sentence states no latency difference
	 * (the table has it). */
	cr_assert_str_eq(s, "GET: m1 showed a 2.35k higher throughput (1.23x; the measurements do "
			 "not vary at all: no interval, cannot tell) at P=1 and a 18.77k higher "
			 "throughput (1.23x; the measurements do not vary at all: no interval, cannot "
			 "tell) at the peaks (m1 P=8, intel P=8).");
	text = render(&f, FORMAT_TEXT, 1);
	cr_assert(strstr(text, "+18765") != NULL, "%s", text);
	cr_assert(strstr(text, "+23.5%") != NULL, "%s", text);
	cr_assert(strstr(text, "-0.100") != NULL, "%s", text);
	cr_assert(strstr(text, "1.23x") != NULL, "%s", text);
	cr_assert(strstr(text, "Speed-up of m1 over intel") != NULL, "%s", text);
	free(text);
	analysis_result_free(&f.res);
	series_set_free(&f.rps);
	series_set_free(&f.avg);
	/* At one depth the sentence says which. */
	analyse(&f, "intel", 2);
	report_prose(&f.res, &f.res.cmps[0], s, sizeof s);
	cr_assert_str_eq(s, "GET: m1 showed a 4.69k higher throughput (1.23x; the measurements do "
			 "not vary at all: no interval, cannot tell) at pipeline depth 2.");
	fixture_free(&f);
}

Test(report, csv_has_the_contract_columns_first)
{
	struct fixture f = { 0 };
	char *text, *nl;

	for (unsigned p = 1; p <= 4; p++)
		add(&f.rows, "a", "GET", p, 1, 1000.0 * p, 0.5);
	add(&f.rows, "a,b", "SET", 1, 1, 500, 1);
	add(&f.rows, "a,b", "SET", 2, 1, 900, 1);
	analyse(&f, NULL, 0);
	text = render(&f, FORMAT_CSV, 0);
	cr_assert_eq(strncmp(text, "label,test,depths,rps_at_1,peak_rps,peak_depth,saturation_depth,"
			     "gain,fit_a_us,fit_b_us,asymptote_rps,fit_r2,max_cv,", 110), 0, "%s", text);
	cr_assert_eq(strncmp(text, REPORT_CSV_LEAD ",", strlen(REPORT_CSV_LEAD) + 1), 0);
	nl = strchr(text, '\n');
	cr_assert_eq(strncmp(nl + 1, "a,GET,1..4,1000.00,4000.00,4,,4.0000,", 37), 0, "%s", nl + 1);
	cr_assert(strstr(text, "\n\"a,b\",SET,\"1,2\",500.00,900.00,2,,1.8000,") != NULL, "%s", text);
	free(text);
	fixture_free(&f);
}

Test(report, json_is_escaped)
{
	struct fixture f = { 0 };
	char *text;

	for (unsigned p = 1; p <= 3; p++) {
		add(&f.rows, "a\"b\\c\td", "GET", p, 1, 1000.0 * p, 0.5);
		add(&f.rows, "plain", "GET", p, 1, 2000.0 * p, 0.25);
	}
	analyse(&f, NULL, 0);
	text = render(&f, FORMAT_JSON, 1);
	cr_assert(strstr(text, "\"label\":\"a\\\"b\\\\c\\td\"") != NULL, "%s", text);
	cr_assert(strstr(text, "\"baseline\":\"a\\\"b\\\\c\\td\"") != NULL, "%s", text);
	cr_assert(strstr(text, "\"ratio\":2.0000") != NULL, "%s", text);
	cr_assert(strstr(text, "\"prose\":\"GET: plain showed") != NULL, "%s", text);
	/* A speed-up carries its verdict, as the comparison does. */
	cr_assert(strstr(text, "\"speedup\":") != NULL, "%s", text);
	cr_assert(strstr(strstr(text, "\"speedup\":"), "\"verdict\":") != NULL, "%s", text);
	cr_assert(strstr(text, "nan") == NULL && strstr(text, "inf") == NULL, "%s", text);
	free(text);
	fixture_free(&f);
}

/* Whether s is well-formed UTF-8 (RFC 3629) with no raw control
 * character but the line breaks between records: what a strict JSON
 * reader takes. */
static int json_text_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		unsigned cp;
		size_t n;

		if (*p < 0x80) {
			if (*p < 0x20 && *p != '\n')
				return 0;
			p++;
			continue;
		}
		n = *p >= 0xF0 ? 4 : *p >= 0xE0 ? 3 : 2;
		cp = *p & (0x7F >> n);
		for (size_t i = 1; i < n; i++) {
			if ((p[i] & 0xC0) != 0x80)
				return 0;
			cp = cp << 6 | (p[i] & 0x3F);
		}
		if (*p < 0xC2 || *p > 0xF4 || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
		    (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
			return 0;
		p += n;
	}
	return 1;
}

/* Labels and test names from CSVs in any encoding: each byte that is not
 * UTF-8 is U+FFFD, control characters and quotes escaped, good UTF-8 kept. */
Test(report, json_is_utf8_whatever_the_labels)
{
	static const struct {
		const char *label, *json;
	} c[] = {
		{ "bad\xff", "\"bad\\ufffd\"" },
		{ "cut\xe2\x82", "\"cut\\ufffd\\ufffd\"" },
		{ "over\xc0\xafx", "\"over\\ufffd\\ufffdx\"" },
		{ "sur\xed\xa0\x80", "\"sur\\ufffd\\ufffd\\ufffd\"" },
		{ "big\xf4\x90\x80\x80", "\"big\\ufffd\\ufffd\\ufffd\\ufffd\"" },
		{ "ok \xc3\xa9\xe2\x82\xac\xf0\x9d\x84\x9e", "\"ok \xc3\xa9\xe2\x82\xac\xf0\x9d\x84\x9e\"" },
		{ "ctl\x01\x1f\x7f\"q\"\\", "\"ctl\\u0001\\u001f\\u007f\\\"q\\\"\\\\\"" },
	};
	struct fixture f = { 0 };
	char *text;

	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
		for (unsigned p = 1; p <= 3; p++)
			add(&f.rows, c[i].label, "GET\xfe", p, 1, 1000.0 * p * (double)(i + 1), 0.5);
	analyse(&f, NULL, 0);
	text = render(&f, FORMAT_JSON, 1);
	cr_assert(json_text_ok(text), "not UTF-8 JSON text: %s", text);
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
		cr_assert(strstr(text, c[i].json) != NULL, "no %s in %s", c[i].json, text);
	cr_assert(strstr(text, "\"test\":\"GET\\ufffd\"") != NULL, "%s", text);
	free(text);
	fixture_free(&f);
}

Test(report, markdown_tables)
{
	struct fixture f = { 0 };
	char *text;

	for (unsigned p = 1; p <= 3; p++) {
		add(&f.rows, "x|y", "GET", p, 1, 1000.0 * p, 0.5);
		add(&f.rows, "z", "GET", p, 1, 1500.0 * p, 0.5);
	}
	analyse(&f, NULL, 0);
	text = render(&f, FORMAT_MARKDOWN, 1);
	cr_assert(strstr(text, "## Series") != NULL, "%s", text);
	cr_assert(strstr(text, "| x\\|y | GET |") != NULL, "%s", text);
	cr_assert(strstr(text, "| --- | --- | --- | ---: |") != NULL, "%s", text);
	cr_assert(strstr(text, "- GET: z showed a 0.5k higher throughput (1.50x) at P=1 and a 1.5k "
			  "higher throughput (1.50x) at the peaks (z P=3, x|y P=3), one measurement a "
			  "side at each depth: cannot tell whether it is the difference between z and "
			  "x|y or the machine's noise; measure again with --repeat 5.") != NULL, "%s",
		  text);
	free(text);
	fixture_free(&f);
}

Test(report, numbers_use_a_dot_whatever_the_locale)
{
	struct fixture f = { 0 };
	char *text;

	if (setlocale(LC_ALL, "de_DE.UTF-8") == NULL && setlocale(LC_ALL, "fr_FR.UTF-8") == NULL)
		cr_skip_test("no locale with a decimal comma installed");
	for (unsigned p = 1; p <= 3; p++)
		add(&f.rows, "a", "GET", p, 1, 1000.5 * p, 0.5);
	analyse(&f, NULL, 0);
	text = render(&f, FORMAT_CSV, 0);
	cr_assert(strstr(text, "1000.50") != NULL, "%s", text);
	free(text);
	setlocale(LC_ALL, "C");
	fixture_free(&f);
}

Test(report, depth_lists_in_short_form)
{
	static const struct {
		unsigned d[8];
		size_t n;
		const char *want;
	} c[] = {
		{ { 1, 2, 3, 4, 5 }, 5, "1..5" },
		{ { 1, 2, 4, 8, 16, 32, 64 }, 7, "1..64:x2" },
		{ { 1, 5, 9, 13 }, 4, "1..13:+4" },
		{ { 1, 2, 3, 4, 16, 24 }, 6, "1..4,16,24" },
		{ { 7 }, 1, "7" },
		{ { 1, 3 }, 2, "1,3" },
	};

	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		struct series_point pts[8];
		struct series s;
		char buf[64];

		memset(&s, 0, sizeof s);
		memset(pts, 0, sizeof pts);
		for (size_t k = 0; k < c[i].n; k++)
			pts[k].depth = c[i].d[k];
		s.pts = pts;
		s.npts = c[i].n;
		report_depths(&s, buf, sizeof buf);
		cr_assert_str_eq(buf, c[i].want);
	}
}

/* ---- `rsweep report` end to end ---- */

static char tmpdir[64];

static void mk_tmp(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/rsweep-report-XXXXXX");
	cr_assert_not_null(mkdtemp(tmpdir));
}

static void rm_tmp(void)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	cr_assert_eq(system(cmd), 0);
}

static void write_file(const char *name, const char *text)
{
	char path[128];
	FILE *fp;

	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	fp = fopen(path, "w");
	cr_assert_not_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static char *slurp(const char *name)
{
	char path[128], *buf;
	size_t len;
	struct rs_err err;

	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	cr_assert_eq(infile_slurp(path, 1 << 20, &buf, &len, &err), 0, "%s", err.msg);
	return buf;
}

/* Run `rsweep report ARGS... -o out.txt` from tmpdir; returns the status. */
static enum rs_status run_report(struct rs_err *err, const char *const *args, int nargs)
{
	struct rs_config cfg;
	static char store[32][128];
	char *argv[33];
	int argc = 0;
	enum rs_status st;

	snprintf(store[argc++], sizeof store[0], "report");
	snprintf(store[argc++], sizeof store[0], "-o");
	snprintf(store[argc++], sizeof store[0], "%s/out.txt", tmpdir);
	for (int i = 0; i < nargs; i++)
		snprintf(store[argc++], sizeof store[0], "%s", args[i]);
	for (int i = 0; i < argc; i++)
		argv[i] = store[i];
	argv[argc] = NULL;
	cr_assert_eq(opts_defaults(CMD_REPORT, &cfg, err), 0, "%s", err->msg);
	cr_assert_eq(opts_parse_argv(CMD_REPORT, argc, argv, &cfg, err), 0, "%s", err->msg);
	cr_assert_eq(chdir(tmpdir), 0);
	st = cmd_report(&cfg, err) < 0 ? rs_err_status(err) : RS_OK;
	opts_free(&cfg);
	return st;
}

/* The reader finds columns by name: a short header is enough. */
static void write_two_labels(void)
{
	char buf[8192];
	size_t n = 0;

	n += (size_t)snprintf(buf + n, sizeof buf - n,
			      "label,test,pipeline,clients,requests,repeat,seconds,rps,avg_ms\n");
	for (unsigned p = 1; p <= 6; p++) {
		n += (size_t)snprintf(buf + n, sizeof buf - n, "intel,GET,%u,50,1000,1,1,%u.00,0.5\n", p,
				      10000 * (p < 4 ? p : 4));
		n += (size_t)snprintf(buf + n, sizeof buf - n, "intel,LRANGE_100,%u,50,1000,1,1,%u.00,0.5\n",
				      p, 3000 * (p < 4 ? p : 4));
		n += (size_t)snprintf(buf + n, sizeof buf - n, "m1,GET,%u,50,1000,1,1,%u.00,0.25\n", p,
				      30000 * p);
		n += (size_t)snprintf(buf + n, sizeof buf - n, "m1,LRANGE_100,%u,50,1000,1,1,%u.00,0.5\n",
				      p, 6000 * p);
	}
	write_file("two.csv", buf);
}

Test(report, cli_two_labels_with_filters, .init = mk_tmp, .fini = rm_tmp)
{
	struct rs_err err = { 0 };
	static const char *const a1[] = { "--prose", "--tests", "get", "two.csv" };
	static const char *const a2[] = { "--tests", "lrange", "--format", "csv", "two.csv" };
	char *out;

	write_two_labels();
	cr_assert_eq(run_report(&err, a1, 4), RS_OK, "%s", err.msg);
	out = slurp("out.txt");
	cr_assert(strstr(out, "LRANGE") == NULL, "--tests get: %s", out);
	/* The peaks are the fitted levels' (intel's plateau from P=4 reads
	 * as a peak at 5); latencies compare at one depth. */
	cr_assert(strstr(out, "GET: m1 showed a 20k higher throughput (3.00x, 95% interval "
			 "2.99x..3.01x: faster) at P=1 and a 139.97k higher throughput (4.50x, 95% "
			 "interval 4.49x..4.50x: faster) at the peaks (m1 P=6, intel P=5)") != NULL,
		  "%s", out);
	free(out);
	cr_assert_eq(run_report(&err, a2, 5), RS_OK, "%s", err.msg);
	out = slurp("out.txt");
	cr_assert(strstr(out, "\nintel,LRANGE_100,1..6,3000.00,12008.43,5,,") != NULL, "%s", out);
	cr_assert(strstr(out, "GET") == NULL, "%s", out);
	free(out);
}

Test(report, cli_bad_input_is_exit_2, .init = mk_tmp, .fini = rm_tmp)
{
	struct rs_err err = { 0 };
	static const char *const bad_base[] = { "--baseline", "amd", "two.csv" };
	static const char *const bad_test[] = { "--tests", "get,hget", "two.csv" };
	static const char *const missing[] = { "nope.csv" };
	static const char *const nocol[] = { "nocol.csv" };
	static const char *const nan[] = { "nan.csv" };
	static const char *const dup[] = { "two.csv", "two.csv" };
	static const char *const one[] = { "one.csv" };
	static const char *const none[] = { "--depths", "9..12", "two.csv" };

	write_two_labels();
	cr_assert_eq(run_report(&err, bad_base, 3), RS_BAD_INPUT);
	cr_assert(strstr(err.msg, "--baseline 'amd' is not a label in the data (labels: intel, m1)"),
		  "%s", err.msg);
	cr_assert_eq(run_report(&err, bad_test, 3), RS_BAD_INPUT);
	cr_assert(strstr(err.msg, "--tests: unknown test 'hget'"), "%s", err.msg);
	cr_assert_eq(run_report(&err, missing, 1), RS_BAD_INPUT);
	cr_assert(strstr(err.msg, "nope.csv"), "%s", err.msg);
	write_file("nocol.csv", "label,test,pipeline\na,GET,1\n");
	cr_assert_eq(run_report(&err, nocol, 1), RS_BAD_INPUT);
	cr_assert(strstr(err.msg, "nocol.csv:1: no 'rps' column"), "%s", err.msg);
	write_file("nan.csv", "label,test,pipeline,rps\na,GET,1,100\na,GET,2,nan\n");
	cr_assert_eq(run_report(&err, nan, 1), RS_BAD_INPUT);
	cr_assert(strstr(err.msg, "nan.csv:3:"), "%s", err.msg);
	cr_assert_eq(run_report(&err, dup, 2), RS_BAD_INPUT);
	cr_assert(strstr(err.msg, "duplicate point"), "%s", err.msg);
	write_file("one.csv", "label,test,pipeline,rps\na,GET,1,100\na,SET,1,90\n");
	cr_assert_eq(run_report(&err, one, 1), RS_BAD_INPUT);
	cr_assert(strstr(err.msg, "one depth"), "%s", err.msg);
	cr_assert(strchr(err.msg, '\n') == NULL, "one line: %s", err.msg);
	cr_assert_eq(run_report(&err, none, 3), RS_BAD_INPUT);
	cr_assert(strstr(err.msg, "--depths"), "%s", err.msg);
}

Test(report, cli_single_depth_labels_still_compare, .init = mk_tmp, .fini = rm_tmp)
{
	struct rs_err err = { 0 };
	static const char *const a[] = { "--prose", "stock.csv" };
	char *out;

	/* What an imported stock redis-benchmark run gives: P=1 only, no avg. */
	write_file("stock.csv", "label,test,pipeline,rps\napt,GET,1,100000\nsnap,GET,1,121340\n");
	cr_assert_eq(run_report(&err, a, 2), RS_OK, "%s", err.msg);
	out = slurp("out.txt");
	cr_assert(strstr(out, "GET: snap showed a 21.34k higher throughput (1.21x), one measurement a "
			 "side: cannot tell whether it is the difference between snap and apt or the "
			 "machine's noise; measure again with --repeat 5.") != NULL, "%s", out);
	cr_assert(strstr(out, "every series has one depth") != NULL, "%s", out);
	free(out);
}

/* A CSV whose labels are Latin-1 and hold quotes gives a JSON report that a
 * strict reader (Python's, decoding UTF-8 strictly) accepts. */
Test(report, cli_json_parses_whatever_the_labels, .init = mk_tmp, .fini = rm_tmp)
{
	struct rs_err err = { 0 };
	static const char *const a[] = { "--format", "json", "--prose", "latin1.csv" };
	char cmd[512];
	char *out;

	if (system("python3 -c 'import json' 2>/dev/null") != 0)
		cr_skip_test("python3 not installed");
	write_file("latin1.csv", "label,test,pipeline,rps\n"
				 "caf\xe9,GET,1,100\ncaf\xe9,GET,2,190\n"
				 "\"say \"\"hi\"\"\",GET,1,120\n\"say \"\"hi\"\"\",GET,2,230\n"
				 "\xe2\x82,GET,1,90\n\xe2\x82,GET,2,150\n");
	cr_assert_eq(run_report(&err, a, 4), RS_OK, "%s", err.msg);
	out = slurp("out.txt");
	cr_assert(strstr(out, "\"label\":\"caf\\ufffd\"") != NULL, "%s", out);
	cr_assert(strstr(out, "\"label\":\"say \\\"hi\\\"\"") != NULL, "%s", out);
	free(out);
	snprintf(cmd, sizeof cmd,
		 "python3 -c 'import json, sys; json.loads(sys.stdin.buffer.read().decode(\"utf-8\"))' "
		 "<'%s/out.txt'", tmpdir);
	cr_assert_eq(system(cmd), 0, "%s/out.txt is not JSON", tmpdir);
}

/* The interval columns come after every older one, in order; a series with
 * one depth has them empty; a still-rising one says so in text. */
Test(report, csv_interval_columns_in_order)
{
	static const char *const cols[] = {
		"saturation_lo", "saturation_hi", "saturated", "asymptote_lo", "asymptote_hi",
		"ratio_at_1_lo", "ratio_at_1_hi", "verdict_at_1", "ratio_at_peak_lo",
		"ratio_at_peak_hi", "verdict_at_peak",
	};
	struct fixture f = { 0 };
	char *text, *at, want[64];
	const char *prev;

	for (unsigned p = 1; p <= 40; p++)
		add(&f.rows, "a", "GET", p, 1, 10000.0 * p, 0.5);
	add(&f.rows, "a", "SET", 1, 1, 500, 1);
	analyse(&f, NULL, 0);
	text = render(&f, FORMAT_CSV, 0);
	prev = strstr(text, ",prose,");
	cr_assert_not_null(prev, "%s", text);
	for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
		snprintf(want, sizeof want, ",%s,", cols[i]);
		at = strstr(text, want);
		cr_assert(at != NULL && at > prev, "%s after the older columns: %s", cols[i], text);
		prev = at;
	}
	/* One depth: no interval, saturated unknown, no comparison. */
	at = strstr(text, "\na,SET,");
	cr_assert_not_null(at, "%s", text);
	{
		char line[1024], cell[64];
		const char *end = strchr(at + 1, '\n');
		size_t n = (size_t)(end - at - 1);

		memcpy(line, at + 1, n);
		line[n] = '\0';
		for (int k = 34; k <= 44; k++) {
			cr_assert_eq(field_at(line, k, cell, sizeof cell), 0, "%s", line);
			cr_assert_str_empty(cell, "column %d of %s", k, line);
		}
		at = strstr(text, "\na,GET,");
		end = strchr(at + 1, '\n');
		n = (size_t)(end - at - 1);
		memcpy(line, at + 1, n);
		line[n] = '\0';
		cr_assert_eq(field_at(line, 36, cell, sizeof cell), 0);
		cr_assert_str_eq(cell, "no", "%s", line);
		cr_assert_eq(field_at(line, 35, cell, sizeof cell), 0);
		cr_assert_str_empty(cell, "still rising: no upper end: %s", line);
	}
	free(text);
	text = render(&f, FORMAT_TEXT, 0);
	cr_assert(strstr(text, "a GET: not saturated by P=40: sweep deeper") != NULL, "%s", text);
	free(text);
	fixture_free(&f);
}

/* An imported loop over -P 1..8, one measurement a depth, whose fitted
 * model sits below the last three measurements (issue 26): the peak is the
 * highest median, with an interval of non-zero width, and a note says why. */
Test(report, short_loop_peak_is_the_highest_median)
{
	static const double v[] = { 340252, 349711, 513693, 523596, 425494, 544263, 570428, 546015 };
	struct fixture f = { 0 };
	char *text;

	for (unsigned p = 1; p <= 8; p++)
		add(&f.rows, "a", "SET", p, 1, v[p - 1], 0.1 * p);
	analyse(&f, NULL, 0);
	cr_assert_eq(f.res.nseries, 1);
	cr_assert_float_eq(f.res.series[0].peak_rps, 570428, 1e-6);
	cr_assert_eq(f.res.series[0].peak_depth, 7);
	cr_assert_lt(f.res.series[0].peak_lo, 570428);
	cr_assert_gt(f.res.series[0].peak_hi, 570428);
	text = render(&f, FORMAT_TEXT, 0);
	cr_assert(strstr(text, "a SET: the fitted level lay below every measurement of the deepest 3 "
			       "depths: no honest level from 8 depths, so the peak is the highest "
			       "median (570428 rps at P=7)") != NULL, "%s", text);
	cr_assert(strstr(text, "(0.0%..0.0%)") == NULL, "%s", text);
	free(text);
	fixture_free(&f);
}

/* Issue 26: the default text reads first for its question.  Two labels of
 * 13 tests over 40 depths, every fourth point noisy: at most 120 columns
 * a line (the wide layout needs more), saturation first, the comparisons
 * before the notes, the unstable points counted in one line with the six
 * worst, and the way to every detail said last. */
Test(report, narrow_text_leads_with_the_answers)
{
	static const char *const tests[] = { "SET", "GET", "INCR", "LPUSH", "RPUSH", "LPOP", "RPOP",
					     "SADD", "HSET", "SPOP", "ZADD", "ZPOPMIN", "MSET" };
	struct fixture f = { 0 };
	char *text, *wide, *line, *save = NULL;
	size_t maxw = 0, worst = 0;
	const char *sat, *cmp, *notes, *unst;

	for (size_t t = 0; t < 13; t++)
		for (unsigned d = 1; d <= 40; d++)
			for (unsigned r = 1; r <= 3; r++) {
				double v = 2e5 * d * (1 + 0.01 * (double)t);
				double noise = d % 4 == 0 ? 0.25 * ((double)r - 2) : 0.01 * ((double)r - 2);

				add(&f.rows, "unix", tests[t], d, r, v * (1 + noise), 0.3);
				add(&f.rows, "tcp", tests[t], d, r, 0.85 * v * (1 + noise), 0.3);
			}
	analyse(&f, "tcp", 0);
	text = render_as(&f, FORMAT_TEXT, 0, 1);
	wide = render(&f, FORMAT_TEXT, 0);
	sat = strstr(text, "Saturation (");
	cmp = strstr(text, "\nCompared with tcp");
	notes = strstr(text, "\nNotes\n");
	unst = strstr(text, "  unstable: ");
	cr_assert(sat == text, "%s", text);
	cr_assert(cmp != NULL && notes != NULL && cmp < notes, "%s", text);
	cr_assert(unst != NULL && unst > notes, "%s", text);
	cr_assert(strstr(unst, "of 1040 points (CV above 10.0%); causes: ") != NULL, "%s", unst);
	cr_assert(strstr(text, "26 of 26 series not saturated by P=40: sweep deeper") != NULL, "%s",
		  text);
	cr_assert(strstr(text, "--wide") != NULL, "%s", text);
	cr_assert(strstr(text, "a (µs)") == NULL && strstr(wide, "a (µs)") != NULL);
	for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		size_t w = 0;

		/* Columns, not bytes: µ, Δ and ² are two bytes each. */
		for (const unsigned char *p = (const unsigned char *)line; *p; p++)
			w += (*p & 0xC0) != 0x80;
		maxw = w > maxw ? w : maxw;
		worst += strstr(line, ": CV ") != NULL;
	}
	cr_assert_leq(maxw, 120, "a line of %zu columns", maxw);
	cr_assert_eq(worst, 6, "%zu unstable points named", worst);
	free(text);
	free(wide);
	fixture_free(&f);
}

/* The latency is stated only with its verdict (issue 26): three paired
 * repeats a side at one depth give it an interval, their noise pooled over
 * the label pair's tests as for throughput; a clear difference is "lower"
 * with its ratio and interval, a small one "the same", one that excludes 1
 * but reaches into the band its direction of unsure size. */
Test(report, latency_difference_only_with_its_verdict)
{
	static const double rb[] = { 100000, 101000, 99000 };
	static const double lb[] = { 0.500, 0.505, 0.495 };
	static const struct {
		const char *test;
		double scale[3];
		const char *want;
	} c[] = {
		{ "GET", { 0.70, 0.71, 0.69 }, "and a 0.15ms lower average latency (0.70x, 95% interval " },
		{ "SET", { 1.00, 1.003, 0.998 }, ", with the same average latency (1.00x, 95% interval " },
		{ "INCR", { 0.93, 0.97, 0.95 }, " and a 0.03ms lower average latency (0.94x, 95% "
		  "interval 0.92x..0.98x: by how much is unsure)" },
	};
	struct fixture f = { 0 };
	char s[512];

	for (size_t t = 0; t < 3; t++)
		for (unsigned k = 0; k < 3; k++) {
			add(&f.rows, "b", c[t].test, 1, k + 1, rb[k], lb[k]);
			add(&f.rows, "a", c[t].test, 1, k + 1, rb[k] * 1.2, lb[k] * c[t].scale[k]);
		}
	analyse(&f, "b", 0);
	for (size_t i = 0; i < f.res.ncmps; i++) {
		const char *test = f.res.series[f.res.cmps[i].other].rps->test;

		report_prose(&f.res, &f.res.cmps[i], s, sizeof s);
		for (size_t t = 0; t < 3; t++)
			if (strcmp(test, c[t].test) == 0)
				cr_assert(strstr(s, c[t].want) != NULL, "%s", s);
	}
	fixture_free(&f);
}

/* A loop over -P 1..4 of one measurement each: too little to learn the
 * noise, so no interval anywhere, and a note says so rather than leave the
 * cells blank (issue 26). */
Test(report, no_interval_from_four_single_depths_is_said)
{
	static const double v[] = { 100000, 180000, 240000, 270000 };
	struct fixture f = { 0 };
	char *text;

	for (unsigned p = 1; p <= 4; p++)
		add(&f.rows, "x", "GET", p, 1, v[p - 1], 0.3);
	analyse(&f, NULL, 0);
	cr_assert(isnan(f.res.series[0].peak_lo));
	text = render_as(&f, FORMAT_TEXT, 0, 1);
	cr_assert(strstr(text, "x GET: one measurement at each of 4 depths is too little to learn "
			  "the noise from: no intervals (measure with --repeat 3)") != NULL, "%s", text);
	free(text);
	fixture_free(&f);
}

/* Issue 32: the lowest and highest of the ratios depth by depth are named
 * for what they are, in the wide text and markdown, and never written
 * "0.50x..2.00x (4)", which reads as an interval.  csv has no such column;
 * json's ratio_min and ratio_max say min and max. */
Test(report, per_depth_ratios_are_not_an_interval)
{
	static const double m[] = { 0.5, 1.0, 1.5, 2.0 };
	struct fixture f = { 0 };
	char *text;

	for (unsigned p = 1; p <= 4; p++) {
		add(&f.rows, "b", "GET", p, 1, 10000.0 * p, 0.5);
		add(&f.rows, "a", "GET", p, 1, 10000.0 * p * m[p - 1], 0.5);
		add(&f.rows, "b", "SET", p, 1, 10000.0 * p, 0.5);
		add(&f.rows, "a", "SET", p, 1, 12000.0 * p, 0.5);
	}
	analyse(&f, "b", 0);
	for (int fmt = FORMAT_TEXT; fmt <= FORMAT_MARKDOWN; fmt++) {
		text = render(&f, (enum report_format)fmt, 0);
		cr_assert(strstr(text, "per-depth ratios") != NULL, "%s", text);
		cr_assert(strstr(text, "0.50x to 2.00x over 4 depths") != NULL, "%s", text);
		cr_assert(strstr(text, "1.20x at all 4 depths") != NULL, "%s", text);
		cr_assert(strstr(text, "common depths") == NULL, "%s", text);
		cr_assert(strstr(text, "x..2.00x") == NULL, "%s", text);
		free(text);
	}
	text = render(&f, FORMAT_CSV, 0);
	cr_assert(strstr(text, "common") == NULL && strstr(text, "x..") == NULL, "%s", text);
	free(text);
	text = render(&f, FORMAT_JSON, 0);
	cr_assert(strstr(text, "\"ratio_min\":0.5000,\"ratio_max\":2.0000,\"per_depth\":") != NULL,
		  "%s", text);
	free(text);
	fixture_free(&f);
}

/* An open loop's rows at offered rate r (0: closed loop), achieved rps,
 * latency avg and p99 ms; short when the achieved rate fell short. */
static void add_rate(struct rs_rows *rows, const char *label, const char *test, unsigned p,
		     unsigned rep, double rate, double rps, double avg, double p99)
{
	struct rs_row r;

	fill(&r, label, test, p, rep, rps, avg);
	r.p99_ms = p99;
	if (rate > 0) {
		r.rate_offered = rate;
		r.rate_short = rps < 0.98 * rate;
		snprintf(r.arrivals, sizeof r.arrivals, "uniform");
	}
	push(rows, &r);
}

/* Issue 32: a shuffled open-loop run meets its rates in any order; its
 * series are listed by offered rate. */
Test(report, open_loop_rates_in_numeric_order)
{
	static const double rates[] = { 800000, 400000, 200000, 50000, 100000 };
	/* SET first, as redis-benchmark runs it; the closed loop's GET where
	 * it was first seen (test_series: a_tests_modes_keep_the_catalogue_order). */
	static const char *const want[] = { "SET @50000/s", "SET @1000000/s", "GET @50000/s",
					     "GET @100000/s", "GET @200000/s", "GET @400000/s",
					     "GET @800000/s", "GET" };
	struct fixture f = { 0 };

	add_rate(&f.rows, "vm", "SET", 1, 1, 1e6, 3e5, 2.0, 5.0);
	for (size_t i = 0; i < 5; i++)
		add_rate(&f.rows, "vm", "GET", 1, 1, rates[i], fmin(rates[i], 3e5), 0.1, 0.5);
	add_rate(&f.rows, "vm", "SET", 1, 1, 5e4, 5e4, 0.1, 0.4);
	for (unsigned p = 1; p <= 3; p++)
		add_rate(&f.rows, "vm", "GET", p, 1, 0, 1e5 * p, 0.2, 0.9);
	analyse(&f, NULL, 0);
	cr_assert_eq(f.rps.n, 8);
	for (size_t i = 0; i < 8; i++)
		cr_assert_str_eq(f.rps.v[i].test, want[i], "series %zu", i);
	fixture_free(&f);
}

/* f's report with its rows (what cmd_report gives: the open loop's rate,
 * the cluster's masters), as a string (malloc'd). */
static char *render_rows(const struct fixture *f, enum report_format fmt, int prose, int narrow)
{
	struct report_opts o = { fmt, prose, 0.95, 0.10, NULL, NULL, &f->rows, !narrow, NULL, 0 };
	struct rs_err err = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	cr_assert_not_null(fp);
	cr_assert_eq(report_write(fp, &f->res, &o, &err), 0, "%s", err.msg);
	fclose(fp);
	return buf;
}

/* The line of text holding needle, into buf ("" when none). */
static const char *line_of(const char *text, const char *needle, char *buf, size_t size)
{
	const char *at = strstr(text, needle), *b, *e;

	buf[0] = '\0';
	if (at == NULL)
		return buf;
	for (b = at; b > text && b[-1] != '\n'; b--)
		;
	e = strchr(at, '\n');
	snprintf(buf, size, "%.*s", (int)(e ? (size_t)(e - b) : strlen(b)), b);
	return buf;
}

/* Issue 32: an open loop's series (one offered rate each) get the figures
 * of an open loop, the rate achieved against the one offered and the
 * latency at each rate, in their own table by rate; not the saturation,
 * gain and model of a sweep of depths, in any format.  The closed loop's
 * SET in the same file keeps them. */
Test(report, open_loop_gets_achieved_against_offered)
{
	static const double rates[] = { 800000, 400000, 200000, 50000, 100000 };
	struct fixture f = { 0 };
	char *text, l[512];
	const char *open, *a, *b;

	for (unsigned k = 1; k <= 3; k++) {
		for (size_t i = 0; i < 5; i++) {
			double got = fmin(rates[i], 300000) * (1 + 0.001 * k);

			add_rate(&f.rows, "vm", "GET", 1, k, rates[i], got, rates[i] > 3e5 ? 40 : 0.2,
				 rates[i] > 3e5 ? 90 : 0.9);
		}
		for (unsigned p = 1; p <= 6; p++)
			add_rate(&f.rows, "vm", "SET", p, k, 0, 1e5 * (p < 4 ? p : 4) * (1 + 0.01 * k), 0.3,
				 1.0);
	}
	analyse(&f, NULL, 0);
	for (int narrow = 0; narrow <= 1; narrow++) {
		text = render_rows(&f, FORMAT_TEXT, 0, narrow);
		open = strstr(text, "Open loop (the rate achieved against the rate offered, and the "
			      "latency at it; medians over repeats)\n");
		cr_assert(open != NULL, "%s", text);
		cr_assert(strstr(text, "  label  test  offered rps  P  achieved rps  of offered  avg ms  "
				 "p99 ms  fell short\n") != NULL, "%s", text);
		/* By rate, as offered; 400k fell short at 300k. */
		a = strstr(open, "  vm     GET        100000  1        100200      100.2%   0.200   "
			   "0.900  no\n");
		b = strstr(open, "  vm     GET        400000  1        300600       75.2%  40.000  "
			   "90.000  3 of 3 repeats\n");
		cr_assert(a != NULL && b != NULL && a < b, "%s", text);
		cr_assert(strstr(open, "GET        50000") < a, "%s", text);
		/* The saturation table is SET's alone; no note speaks of GET's
		 * saturation, model or depths. */
		cr_assert(strstr(text, "vm     SET") != NULL, "%s", text);
		cr_assert(strstr(text, "GET @") == NULL || strstr(text, "GET @") > open, "%s", text);
		cr_assert(strstr(text, "too few to fit") == NULL, "%s", text);
		cr_assert(strstr(text, "GET @800000/s: one depth only") == NULL, "%s", text);
		cr_assert(strstr(text, narrow ? "  1 of 1 series not saturated by P=6: sweep deeper\n" :
				 "  vm SET: not saturated by P=6: sweep deeper\n") != NULL, "%s", text);
		cr_assert(strstr(text, "GET @400000/s: the achieved rate fell short of the offered "
				 "rate at P=1") != NULL, "%s", text);
		free(text);
	}
	text = render_rows(&f, FORMAT_CSV, 0, 0);
	/* label,test,depths,rps_at_1,peak_rps,peak_depth,saturation_depth,gain,... */
	cr_assert(strstr(text, "\nvm,GET @400000/s,1,300600.00,300600.00,1,,,,,,,") != NULL, "%s",
		  text);
	/* ...max_cv,points,fit_status (empty),...,highest_rps,highest_depth,
	 * latency_depth_at_peak,unstable_causes, then the open loop's. */
	line_of(text, "vm,GET @400000/s,", l, sizeof l);
	cr_assert(strstr(l, ",0.0010,1,,") != NULL, "%s", l);
	cr_assert(strstr(l, ",300600.00,1,,,400000.00,0.7515,40.0000,90.0000") != NULL, "%s", l);
	line_of(text, "vm,SET,", l, sizeof l);
	cr_assert(strstr(l, ",pattern,") != NULL && strstr(l, ",no,") != NULL, "%s", l);
	cr_assert(strstr(l, ",408000.00,4,,,,,,") != NULL, "%s", l);
	free(text);
	text = render_rows(&f, FORMAT_JSON, 0, 0);
	cr_assert(strstr(text, "\"gain\":null,\"fit\":{\"status\":null,") != NULL, "%s", text);
	cr_assert(strstr(text, "\"rate_offered\":400000.00,\"open_loop\":[{\"depth\":1,"
			 "\"achieved_rps\":300600.00,\"achieved_ratio\":0.7515,\"avg_ms\":40.0000,"
			 "\"p99_ms\":90.0000,\"repeats\":3,\"short_repeats\":3}]") != NULL, "%s", text);
	cr_assert(strstr(text, "\"rate_offered\":null,\"open_loop\":null") != NULL, "%s", text);
	free(text);
	fixture_free(&f);
}

/* Issue 32: `rsweep run --rate 50k..800k:x2` at its one default depth is
 * a report of its own (rate achieved, latency), not "every series has one
 * depth: nothing to compare". */
Test(report, cli_open_loop_of_one_depth, .init = mk_tmp, .fini = rm_tmp)
{
	static const char *const a[] = { "ol.csv" };
	struct rs_err err = { 0 };
	char *out;

	write_file("ol.csv", "label,test,pipeline,repeat,rps,avg_ms,p99_ms,rate_offered,rate_short,"
		   "arrivals\n"
		   "vm,GET,1,1,99800,0.2,0.9,100000,0,poisson\n"
		   "vm,GET,1,1,50100,0.2,0.8,50000,0,poisson\n");
	cr_assert_eq(run_report(&err, a, 1), RS_OK, "%s", err.msg);
	out = slurp("out.txt");
	cr_assert(strstr(out, "  vm     GET poisson        50000  1         50100      100.2%   "
			 "0.200   0.800  no\n  vm     GET poisson       100000  1         99800       "
			 "99.8%   0.200   0.900  no\n") != NULL, "%s", out);
	cr_assert(strstr(out, "Saturation") == NULL && strstr(out, "one depth") == NULL, "%s", out);
	free(out);
}

/* A cluster's row: 3 masters, the busiest (who) at busy CPU and the two
 * others at others CPU each, over a window of one second. */
static void add_cluster(struct rs_rows *rows, const char *test, unsigned rep, const char *who,
			double busy, double others)
{
	struct rs_row r;

	fill(&r, "c", test, 8, rep, 300000, 0.5);
	r.seconds = 1;
	r.masters = 3;
	snprintf(r.busy_master, sizeof r.busy_master, "%s", who);
	r.busy_cpu_s = busy;
	r.server_cpu_s = busy + 2 * others;
	push(rows, &r);
}

/* Issue 32: the report always names a cluster's busiest master with its
 * share of the masters' CPU, and says whether one shard limits the
 * cluster, one stands out below that, or none does (an even load, or
 * repeats that name different masters), where it said something only past
 * 0.8 CPU and 1.5 times the others. */
Test(report, cluster_names_its_busiest_master_always)
{
	struct fixture f = { 0 };
	char *text;

	for (unsigned k = 1; k <= 3; k++) {
		add_cluster(&f.rows, "SET", k, "10.0.0.3:7002", 1.00, 0.40);
		add_cluster(&f.rows, "GET", k, "10.0.0.1:7000", 0.50, 0.45);
		add_cluster(&f.rows, "INCR", k, "10.0.0.2:7001", 0.60, 0.30);
		add_cluster(&f.rows, "LPUSH", k, k == 2 ? "10.0.0.1:7000" : "10.0.0.2:7001", 0.50,
			    0.40);
	}
	analyse(&f, NULL, 0);
	text = render_rows(&f, FORMAT_TEXT, 0, 1);
	cr_assert(strstr(text, "c SET: at P=8 10.0.0.3:7002 at 1.00 CPU while the others are at "
			 "0.40: one shard limits this cluster (56% of the masters' CPU, an even share "
			 "being 33%)\n") != NULL, "%s", text);
	cr_assert(strstr(text, "c GET: at P=8 10.0.0.1:7000 at 0.50 CPU while the others are at "
			 "0.45: the busiest master, but none stands out (36% of the masters' CPU, an "
			 "even share being 33%)\n") != NULL, "%s", text);
	cr_assert(strstr(text, "c INCR: at P=8 10.0.0.2:7001 at 0.60 CPU while the others are at "
			 "0.30: the busiest master stands out, but below 0.8 CPU it does not limit the "
			 "cluster (50% of the masters' CPU, an even share being 33%)\n") != NULL, "%s",
		  text);
	cr_assert(strstr(text, "c LPUSH: at P=8 the busiest master differs from repeat to repeat "
			 "(10.0.0.2:7001 in 2 of 3), at 0.50 CPU on average while the others are at "
			 "0.40: none stands out (38% of the masters' CPU, an even share being 33%)\n")
		  != NULL, "%s", text);
	free(text);
	text = render_rows(&f, FORMAT_JSON, 0, 0);
	cr_assert(strstr(text, "\"c GET: at P=8 10.0.0.1:7000 at 0.50 CPU") != NULL, "%s", text);
	free(text);
	fixture_free(&f);
}

/* Issue 32: rows with a p50 and no average (redis-benchmark -q output,
 * imported) have their latency compared all the same, as p50, and every
 * format says which: the prose, the wide table's cell, csv's
 * latency_metric, json's. */
Test(report, cli_p50_compared_where_there_is_no_average, .init = mk_tmp, .fini = rm_tmp)
{
	static const char *const prose[] = { "--prose", "--wide", "--baseline", "a", "q.csv" };
	static const char *const csv[] = { "--format", "csv", "--baseline", "a", "q.csv" };
	static const char *const json[] = { "--format", "json", "--baseline", "a", "q.csv" };
	struct rs_err err = { 0 };
	char *out, l[4096];

	write_file("q.csv", "label,test,pipeline,repeat,rps,p50_ms,client\n"
		   "a,GET,1,1,78300,0.21,redis-benchmark\n"
		   "a,GET,1,2,78600,0.22,redis-benchmark\n"
		   "a,GET,1,3,78900,0.23,redis-benchmark\n"
		   "b,GET,1,1,98300,0.11,redis-benchmark\n"
		   "b,GET,1,2,98600,0.12,redis-benchmark\n"
		   "b,GET,1,3,98900,0.13,redis-benchmark\n");
	cr_assert_eq(run_report(&err, prose, 5), RS_OK, "%s", err.msg);
	out = slurp("out.txt");
	cr_assert(strstr(out, "GET: b showed a 20k higher throughput (1.25x, 95% interval 1.25x..1.26x: "
			 "faster) and a 0.1ms lower p50 latency (0.55x, 95% interval ") != NULL, "%s",
		  out);
	cr_assert(strstr(out, " -0.100 (p50) ") != NULL, "%s", out);
	free(out);
	cr_assert_eq(run_report(&err, csv, 5), RS_OK, "%s", err.msg);
	out = slurp("out.txt");
	cr_assert(strstr(out, ",latency_metric,runs,between_runs_pct,mix,mix_sent_pct,"
			 "mix_calls_differ,overall_ratio,overall_lo,overall_hi,overall_verdict,"
			 "overall_tests\n") != NULL, "%s", out);
	line_of(out, "b,GET,", l, sizeof l);
	cr_assert(strstr(l, ",a,20000.00,25.45,-0.1000,1.2545,") != NULL, "%s", l);
	/* latency_metric, then runs (1) and between_runs_pct (none), then a
	 * mix's three columns (none), then the overall figure's five (none:
	 * one test), last. */
	cr_assert(strlen(l) > 15 && strcmp(l + strlen(l) - 15, ",p50,1,,,,,,,,,") == 0, "%s", l);
	free(out);
	cr_assert_eq(run_report(&err, json, 5), RS_OK, "%s", err.msg);
	out = slurp("out.txt");
	cr_assert(strstr(out, "\"latency_metric\":\"p50\",\"baseline_avg_ms\":0.2200,\"avg_ms\":0.1200,"
			 "\"delta_avg_ms\":-0.1000,") != NULL, "%s", out);
	free(out);
}

/* A mix's series: one note names its members' shares as sent, summed over
 * its rows, and the calls the server counted otherwise; csv and json carry
 * the same in columns of their own.  A plain test in the file gets none. */
Test(report, mix_members_as_sent, .init = mk_tmp, .fini = rm_tmp)
{
	static const char *const text[] = { "m.csv" };
	static const char *const csv[] = { "--format", "csv", "m.csv" };
	static const char *const json[] = { "--format", "json", "m.csv" };
	struct rs_err err = { 0 };
	char *out, l[4096];

	write_file("m.csv", "label,test,pipeline,repeat,rps,mix,mix_sent,mix_calls\n"
		   "a,GET,1,1,100000,,,\n"
		   "a,GET,2,1,150000,,,\n"
		   "a,MIX_GET80_SET20,1,1,90000,\"get=80,set=20\",GET=7994;SET=2006,GET=7994;SET=2006\n"
		   "a,MIX_GET80_SET20,2,1,140000,\"get=80,set=20\",GET=8006;SET=1994,GET=8006;SET=1990\n");
	cr_assert_eq(run_report(&err, text, 1), RS_OK, "%s", err.msg);
	out = slurp("out.txt");
	cr_assert(strstr(out, "  a MIX_GET80_SET20: GET 80.0% and SET 20.0% of its requests as sent "
			 "(weights 80:20); the server counted 3996 SET calls for 4000 sent\n") != NULL,
		  "%s", out);
	cr_assert(strstr(out, "a GET: GET") == NULL, "%s", out);
	free(out);
	cr_assert_eq(run_report(&err, csv, 3), RS_OK, "%s", err.msg);
	out = slurp("out.txt");
	line_of(out, "a,MIX_GET80_SET20,", l, sizeof l);
	cr_assert(strlen(l) > 55 && strcmp(l + strlen(l) - 55,
					   ",\"get=80,set=20\",GET=80.00;SET=20.00,SET=3996/4000,,,,,") == 0,
		  "%s", l);
	line_of(out, "a,GET,", l, sizeof l);
	cr_assert(strlen(l) > 3 && strcmp(l + strlen(l) - 3, ",,,") == 0, "%s", l);
	free(out);
	cr_assert_eq(run_report(&err, json, 3), RS_OK, "%s", err.msg);
	out = slurp("out.txt");
	cr_assert(strstr(out, ",\"mix\":{\"weights\":\"get=80,set=20\",\"sent_pct\":{\"GET\":80.00,"
			 "\"SET\":20.00},\"calls_differ\":[{\"members\":\"SET\",\"calls\":3996,"
			 "\"sent\":4000}]}}") != NULL, "%s", out);
	cr_assert(strstr(out, ",\"mix\":null}") != NULL, "%s", out);
	cr_assert(strstr(out, "\"a MIX_GET80_SET20: GET 80.0% and SET 20.0% of its requests") != NULL,
		  "%s", out);
	free(out);
}
