/* test_csv.c: the CSV schema: write/read round trip, quoting, locales, bad files. */
#include "config.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/csv.h"
#include "base/num.h"

static struct rs_row sample_row(void)
{
	struct rs_row r;

	row_init(&r);
	strcpy(r.label, "m1, \"fast\" one");
	strcpy(r.test, "GET");
	r.pipeline = 16;
	r.clients = 50;
	r.requests = 100000;
	r.repeat = 2;
	r.seconds = 0.123456;
	r.rps = 810000.25;
	r.avg_ms = 0.5;
	r.min_ms = 0.01;
	r.p50_ms = 0.4;
	r.p95_ms = 0.9;
	r.p99_ms = 1.5;
	r.max_ms = 3.25;
	r.errors = 0;
	r.server_calls = 100000;
	strcpy(r.first_error, "ERR line one\nline two");
	return r;
}

/* r written by csv_format_row() and read back by csv_parse() into rows. */
static void write_and_read(const struct rs_row *r, struct rs_rows *rows, char *buf, size_t size)
{
	size_t n = strlen(csv_header());
	struct csv_info info;
	struct rs_err err;
	int len;

	memcpy(buf, csv_header(), n);
	len = csv_format_row(r, buf + n, size - n, &err);
	cr_assert_gt(len, 0, "%s", err.msg);
	cr_assert_eq(csv_parse(buf, n + (size_t)len, "mem.csv", rows, &info, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(rows->n, 1);
	cr_assert(info.rsweep_header);
	/* The quoted line break in first_error is inside the one record. */
	cr_assert_eq(info.lines, 3);
}

/* Every field of the compact row equals the written row's (figures bit
 * for bit: each one below has no more decimals than the CSV writes, or is
 * one fixed point cannot hold and takes the exact side table). */
static void check_every_field(const struct rs_rows *rows, const struct rs_row *r)
{
	const struct rs_rec *x = &rows->v[0];
	const struct {
		enum row_fig f;
		double want;
	} figs[] = {
		{ ROW_RPS, r->rps }, { ROW_SECONDS, r->seconds }, { ROW_AVG_MS, r->avg_ms },
		{ ROW_P50_MS, r->p50_ms }, { ROW_P95_MS, r->p95_ms }, { ROW_P99_MS, r->p99_ms },
		{ ROW_P999_MS, r->p999_ms }, { ROW_MAX_MS, r->max_ms },
		{ ROW_SERVER_CPU_S, r->server_cpu_s }, { ROW_CLIENT_CPU_S, r->client_cpu_s },
	};

	cr_assert_str_eq(x->label, r->label);
	cr_assert_str_eq(x->test, r->test);
	cr_assert_str_eq(x->server->target, r->target);
	cr_assert_str_eq(x->server->redis_version, r->redis_version);
	cr_assert_str_eq(x->server->server_arch, r->server_arch);
	cr_assert_str_eq(x->server->server_name, r->server_name);
	cr_assert_str_eq(x->server->server_version, r->server_version);
	cr_assert_str_eq(x->src, "mem.csv");
	cr_assert_eq(x->line, 2);
	cr_assert_eq(x->pipeline, r->pipeline);
	cr_assert_eq(x->repeat, r->repeat);
	cr_assert_eq(x->clients, r->clients);
	cr_assert_eq(x->threads, r->threads);
	cr_assert_eq(x->data_size, r->data_size);
	cr_assert_eq(x->requests, r->requests);
	cr_assert_eq(x->errors, r->errors);
	cr_assert_eq(x->keyspace, r->keyspace);
	for (size_t i = 0; i < sizeof figs / sizeof figs[0]; i++) {
		double got = rows_fig(rows, x, figs[i].f);

		if (isnan(figs[i].want))
			cr_assert(isnan(got), "figure %d: unknown stays unknown, got %.17g", figs[i].f, got);
		else
			cr_assert(got == figs[i].want, "figure %d: %.17g, wrote %.17g", figs[i].f, got,
				  figs[i].want);
	}
}

static void round_trip(void)
{
	struct rs_row r = sample_row();
	char buf[8192];
	struct rs_rows rows = { 0 };

	write_and_read(&r, &rows, buf, sizeof buf);
	check_every_field(&rows, &r);
	/* '.' is the decimal mark whatever the locale. */
	cr_assert(strstr(buf, "810000.25") != NULL);
	rows_free(&rows);

	/* Every column known, and figures fixed point cannot hold: over its
	 * range (rps above 21 million, a 2-day window, seconds of CPU) and
	 * integers far over 32 bits. */
	r.threads = 8;
	r.data_size = 536870912;
	r.keyspace = 1000000000000;
	r.requests = 1000000000000000;
	r.errors = 4000000000;
	r.p999_ms = 2.75;
	r.rps = 3000000000.5;
	r.seconds = 172800.5;
	r.max_ms = 250000;
	r.server_cpu_s = 0.5;
	r.client_cpu_s = 86400.25;
	strcpy(r.target, "unix:/tmp/a, \"b\".sock");
	strcpy(r.redis_version, "7.2.4");
	strcpy(r.server_arch, "64 epoll x86_64");
	strcpy(r.server_name, "valkey");
	strcpy(r.server_version, "8.0.1");
	write_and_read(&r, &rows, buf, sizeof buf);
	check_every_field(&rows, &r);
	rows_free(&rows);
}

Test(csv, round_trip_with_quoting)
{
	round_trip();
}

Test(csv, round_trip_in_comma_decimal_locales)
{
	const char *locales[] = { "de_DE.UTF-8", "fr_FR.UTF-8", "ru_RU.UTF-8", "de_DE", NULL };
	int tried = 0;

	for (int i = 0; locales[i]; i++) {
		if (setlocale(LC_ALL, locales[i]) == NULL)
			continue;
		tried++;
		cr_assert_str_eq(localeconv()->decimal_point, ",");
		round_trip();
	}
	setlocale(LC_ALL, "C");
	if (tried == 0)
		cr_skip_test("no comma-decimal locale installed (apt-get install locales-all)");
}

static int parse(const char *text, struct rs_rows *rows, struct rs_err *err)
{
	struct csv_info info;

	return csv_parse(text, strlen(text), "t.csv", rows, &info, err);
}

Test(csv, columns_found_by_name_in_any_order_and_unknown_ignored)
{
	struct rs_rows rows = { 0 };
	struct rs_err err;

	cr_assert_eq(parse("rps,extra,pipeline,test,label\n1000.5,zz,4,GET,a\n", &rows, &err), 0,
		     "%s", err.msg);
	cr_assert_eq(rows.n, 1);
	cr_assert_eq(rows.v[0].pipeline, 4);
	cr_assert_float_eq(rows_fig(&rows, &rows.v[0], ROW_RPS), 1000.5, 1e-9);
	cr_assert_eq(rows.v[0].clients, -1);
	rows_free(&rows);
}

Test(csv, server_columns_after_the_others_and_absent_in_older_files)
{
	struct rs_rows rows = { 0 };
	struct rs_err err;
	const char *h = csv_header();
	const char *name = strstr(h, ",server_name,server_version,key_prefix,run,key_dist,"
				    "server_args,server_hits,server_misses,mix,mix_sent,mix_calls,"
				    "data_size_range,expire,server_cpus,client_cpus,slip_p50_ms,slip_p99_ms,slo,"
				    "slo_phase,slo_verdict,slo_ms,slo_lo_ms,slo_hi_ms,subscribers,channels,"
				    "sub_mode,delivered,delivered_rps,lost,dup,receivers,deliver_p50_ms,"
				    "deliver_p99_ms,deliver_p999_ms,deliver_max_ms,sub_cpu_s,reconnect_every,"
				    "connects,connects_per_s,read_from,replica_calls,repl_lag,connect_p50_ms,"
				    "connect_p99_ms,tls_resumed,first_error\n");

	/* Added after every older column, before first_error (which stays last);
	 * key_prefix (--key-prefix) after them, then run (--runs), then key_dist
	 * (--key-dist), then server_args (--spawn-args' axis), then the mix's
	 * three, data_size_range and expire (issue 29), pub/sub's (issue 47). */
	cr_assert_not_null(name, "%s", h);
	cr_assert_not_null(strstr(h, ",agent_rps,server_name,"), "%s", h);
	/* A file from before them: the server is known by redis_version alone. */
	cr_assert_eq(parse("label,test,pipeline,rps,redis_version\na,GET,1,10,7.2.4\n", &rows, &err),
		     0, "%s", err.msg);
	cr_assert_str_eq(rows.v[0].server->redis_version, "7.2.4");
	cr_assert_str_empty(rows.v[0].server->server_name);
	cr_assert_str_empty(rows.v[0].server->server_version);
	cr_assert_str_empty(rows.v[0].server->key_prefix);
	cr_assert_str_empty(rows.v[0].server->key_dist);
	cr_assert_str_empty(rows.v[0].server->server_args);
	cr_assert_eq(rows.v[0].run, 0);
	rows_free(&rows);
}

/* key_dist is kept with the row's server facts: rows that differ only in
 * it are told apart. */
Test(csv, key_dist_read_back)
{
	struct rs_rows rows = { 0 };
	struct rs_err err;

	cr_assert_eq(parse("label,test,pipeline,rps,keyspace,key_dist\n"
			   "a,GET,1,10,1000,zipf:0.99\na,GET,2,10,1000,uniform\na,GET,4,10,0,\n",
			   &rows, &err), 0, "%s", err.msg);
	cr_assert_eq(rows.n, 3);
	cr_assert_str_eq(rows.v[0].server->key_dist, "zipf:0.99");
	cr_assert_str_eq(rows.v[1].server->key_dist, "uniform");
	cr_assert_str_empty(rows.v[2].server->key_dist);
	rows_free(&rows);
}

/* server_args too: two spawned servers' settings are two servers. */
Test(csv, server_args_read_back)
{
	struct rs_rows rows = { 0 };
	struct rs_err err;

	cr_assert_eq(parse("label,test,pipeline,rps,server_args\n"
			   "a,GET,1,10,io-threads 1\na,GET,1,12,io-threads 4\na,GET,2,10,\n",
			   &rows, &err), 0, "%s", err.msg);
	cr_assert_eq(rows.n, 3);
	cr_assert_str_eq(rows.v[0].server->server_args, "io-threads 1");
	cr_assert_str_eq(rows.v[1].server->server_args, "io-threads 4");
	cr_assert_neq(rows.v[0].server, rows.v[1].server);
	cr_assert_str_empty(rows.v[2].server->server_args);
	rows_free(&rows);
}

Test(csv, crlf_and_bom_accepted)
{
	struct rs_rows rows = { 0 };
	struct rs_err err;

	cr_assert_eq(parse("\xEF\xBB\xBFlabel,test,pipeline,rps\r\na,GET,1,5\r\n", &rows, &err), 0,
		     "%s", err.msg);
	cr_assert_eq(rows.n, 1);
	rows_free(&rows);
}

Test(csv, truncated_last_line_is_ignored_and_flagged)
{
	struct rs_rows rows = { 0 };
	struct rs_err err;
	struct csv_info info;
	const char *t = "label,test,pipeline,rps\na,GET,1,5\na,GET,2";
	char note[256];

	cr_assert_eq(csv_parse(t, strlen(t), "t.csv", &rows, &info, &err), 0);
	cr_assert_eq(rows.n, 1);
	cr_assert(info.truncated_tail);
	cr_assert_eq(info.tail_line, 3);
	cr_assert_not(info.missing_newline);
	cr_assert_eq(info.complete_len, strlen("label,test,pipeline,rps\na,GET,1,5\n"));
	cr_assert_not_null(csv_info_note(&info, "t.csv", note, sizeof note));
	cr_assert(strncmp(note, "t.csv:3: the last line has no end of line", 41) == 0, "%s", note);
	rows_free(&rows);
}

/* Only the last line can be a crash's leftover: a quote left open further
 * up is an error, however many lines it swallows, and nothing is dropped. */
Test(csv, stray_quote_is_an_error_not_a_leftover)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "label,test,pipeline,rps\na,GET,1,5\nb,GET,\"2,5\nb,GET,3,5\nb,GET,4,5\n",
		  "t.csv:3: unterminated quoted field" },
		{ "label,test,pipeline,rps\na,GET,1,5\nb,GET,\"2,5\nb,GET,3,5",
		  "t.csv:3: unterminated quoted field" },
		{ "label,test,pipeline,rps\na,GET,1,5\n\"b,GET,2,5\n",
		  "t.csv:3: unterminated quoted field" },
		{ "label,test,pipeline,rps\na,\"GET,1,5\nb,GET,2,\"5\"x\n",
		  "t.csv:2: quoted field runs over 1 line end and is followed by '5'" },
		/* Cut inside quotes, but with more fields than a row has. */
		{ "label,test,pipeline,rps\na,GET,1,5\na,GET,1,5,\"x", "t.csv:3: unterminated quoted field" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct rs_rows rows = { 0 };
		struct rs_err err = { 0 };

		cr_assert_eq(parse(cases[i].text, &rows, &err), -1, "case %zu accepted", i);
		cr_assert(strncmp(err.msg, cases[i].msg, strlen(cases[i].msg)) == 0,
			  "case %zu: '%s' does not start with '%s'", i, err.msg, cases[i].msg);
		rows_free(&rows);
	}
}

Test(csv, quote_cut_on_the_last_line_is_a_leftover)
{
	struct rs_rows rows = { 0 };
	struct rs_err err;
	struct csv_info info;
	const char *t = "label,test,pipeline,rps\na,GET,1,5\nb,\"GE";

	cr_assert_eq(csv_parse(t, strlen(t), "t.csv", &rows, &info, &err), 0, "%s", err.msg);
	cr_assert_eq(rows.n, 1);
	cr_assert(info.truncated_tail);
	cr_assert_eq(info.complete_len, strlen("label,test,pipeline,rps\na,GET,1,5\n"));
	rows_free(&rows);
}

/* A whole row that only lacks its newline is a row, not a leftover; a last
 * line that is neither a row nor less than one is an error. */
Test(csv, whole_last_row_without_newline_is_kept)
{
	static const char *const whole[] = {
		"label,test,pipeline,rps\na,GET,1,5\na,GET,2,7",
		"label,test,pipeline,rps\na,GET,1,5\na,GET,2,\"7\"",
		"label,test,pipeline,rps\na,GET,1,5\na,GET,2,7\r",
		"label,test,pipeline,rps,first_error\na,GET,1,5,\na,GET,2,7,\"x\ny\"",
	};
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "label,test,pipeline,rps\na,GET,1,5\na,GET,2,x", "t.csv:3: rps 'x' is not a number" },
		{ "label,test,pipeline,rps\na,GET,1,5\na,GET,2,7,8", "t.csv:3: 5 fields, the header has 4" },
		{ "label,test,pipeline,rps,first_error\na,GET,1,5,\na,GET,2,\"x\ny\"",
		  "t.csv:3: 4 fields, the header has 5" },
	};

	for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++) {
		struct rs_rows rows = { 0 };
		struct rs_err err = { 0 };
		struct csv_info info;
		char note[256];

		cr_assert_eq(csv_parse(whole[i], strlen(whole[i]), "t.csv", &rows, &info, &err), 0,
			     "case %zu: %s", i, err.msg);
		cr_assert_eq(rows.n, 2, "case %zu", i);
		cr_assert_eq(rows.v[1].pipeline, 2);
		cr_assert_float_eq(rows_fig(&rows, &rows.v[1], ROW_RPS), 7, 1e-12);
		cr_assert_not(info.truncated_tail, "case %zu", i);
		cr_assert(info.missing_newline, "case %zu", i);
		cr_assert_eq(info.complete_len, strlen(whole[i]));
		cr_assert_null(csv_info_note(&info, "t.csv", note, sizeof note));
		rows_free(&rows);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct rs_rows rows = { 0 };
		struct rs_err err = { 0 };

		cr_assert_eq(parse(bad[i].text, &rows, &err), -1, "case %zu accepted", i);
		cr_assert(strncmp(err.msg, bad[i].msg, strlen(bad[i].msg)) == 0,
			  "case %zu: '%s' does not start with '%s'", i, err.msg, bad[i].msg);
		rows_free(&rows);
	}
}

/* A row cut anywhere by a crash is either dropped (it was never a point)
 * or kept with every figure whole.  The last column's text, first_error, is
 * quoted so that a cut inside it shows; cut just before its opening quote,
 * the row reads as one without an error text, the only thing lost. */
Test(csv, row_cut_anywhere_is_dropped_or_whole)
{
	struct rs_row r = sample_row();
	char buf[8192];
	size_t hl = strlen(csv_header());
	struct rs_err err;
	int len, kept = 0;

	strcpy(r.first_error, "WRONGTYPE Operation against a key holding the wrong kind of value");
	memcpy(buf, csv_header(), hl);
	len = csv_format_row(&r, buf + hl, sizeof buf - hl, &err);
	cr_assert_gt(len, 0, "%s", err.msg);
	for (int k = 0; k < len; k++) {
		struct rs_rows rows = { 0 };
		struct csv_info info;

		cr_assert_eq(csv_parse(buf, hl + (size_t)k, "cut.csv", &rows, &info, &err), 0,
			     "cut at %d: %s", k, err.msg);
		if (rows.n == 1) {
			const struct rs_rec *g = &rows.v[0];

			kept++;
			cr_assert(info.missing_newline);
			cr_assert_not(info.truncated_tail);
			cr_assert_str_eq(g->label, r.label);
			cr_assert_eq(g->pipeline, r.pipeline);
			cr_assert_eq(g->requests, r.requests);
			cr_assert_float_eq(rows_fig(&rows, g, ROW_RPS), r.rps, 1e-6);
			cr_assert_float_eq(rows_fig(&rows, g, ROW_MAX_MS), r.max_ms, 1e-9);
			/* Readers keep no first_error: where the cut fell says what
			 * the row held, the whole text or (cut before its quote) none. */
			cr_assert(k == len - 1 || k == len - 1 - (int)strlen(r.first_error) - 2,
				  "cut at %d of %d kept as a row", k, len);
		} else {
			cr_assert_eq(rows.n, 0);
			cr_assert_eq(info.truncated_tail, k > 0, "cut at %d", k);
			cr_assert_eq(info.complete_len, hl);
		}
		rows_free(&rows);
	}
	cr_assert_eq(kept, 2);
}

Test(csv, bad_files_name_file_line_and_reason)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "", "t.csv: empty file" },
		{ "label,test,rps\na,GET,5\n", "t.csv:1: no 'pipeline' column" },
		{ "label,test,pipeline,rps\na,GET,1,fast\n", "t.csv:2: rps 'fast' is not a number" },
		{ "label,test,pipeline,rps\na,GET,1,nan\n", "t.csv:2: rps 'nan' is not a number" },
		{ "label,test,pipeline,rps\na,GET,1,-5\n", "t.csv:2: rps is negative" },
		{ "label,test,pipeline,rps\na,GET,0,5\n", "t.csv:2: pipeline must be at least 1" },
		{ "label,test,pipeline,rps\na,GET,1\n", "t.csv:2: 3 fields, the header has 4" },
		{ "label,test,pipeline,rps\na,G\"ET,1,5\n", "t.csv:2: quote inside an unquoted field" },
		{ "label,test,pipeline,rps\na,GET,1,\n", "t.csv:2: rps is empty" },
		{ "label,test,pipeline,rps,rps\na,GET,1,5,5\n", "t.csv:1: column rps appears twice" },
		/* No depth the engine cannot run: a chart would lay out an axis
		 * of four billion for it. */
		{ "label,test,pipeline,rps\na,GET,1,5\na,GET,4294967295,5\n",
		  "t.csv:3: pipeline 4294967295 is above 1000000" },
		{ "label,test,pipeline,rps\na,GET,1000001,5\n", "t.csv:2: pipeline 1000001 is above 1000000" },
		{ "label,test,pipeline,rps\na,GET,99999999999999999999,5\n",
		  "t.csv:2: pipeline 99999999999999999999 is above 1000000" },
		/* The compact row holds these in 32 bits. */
		{ "label,test,pipeline,rps,clients\na,GET,1,5,5000000000\n",
		  "t.csv:2: clients 5000000000 is above 2147483647" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct rs_rows rows = { 0 };
		struct rs_err err = { 0 };

		cr_assert_eq(parse(cases[i].text, &rows, &err), -1, "case %zu accepted", i);
		cr_assert(strncmp(err.msg, cases[i].msg, strlen(cases[i].msg)) == 0,
			  "case %zu: '%s' does not start with '%s'", i, err.msg, cases[i].msg);
		cr_assert(strchr(err.msg, '\n') == NULL);
		rows_free(&rows);
	}
}

Test(csv, append_survives_and_resume_cuts_half_line)
{
	char path[] = "/tmp/rsweep-csv-XXXXXX";
	int fd = mkstemp(path);
	struct csv_out o;
	struct rs_rows rows = { 0 };
	struct rs_err err;
	struct rs_row r = sample_row();
	FILE *fp;

	close(fd);
	unlink(path);
	cr_assert_eq(csv_out_open(&o, path, 0, 0, &rows, &err), 0, "%s", err.msg);
	cr_assert_eq(csv_out_append(&o, &r, &err), 0);
	csv_out_close(&o);
	/* Without --resume or --overwrite an existing file is refused. */
	cr_assert_eq(csv_out_open(&o, path, 0, 0, &rows, &err), -1);
	cr_assert_eq(err.kind, RS_E_REFUSED, "%s", rs_err_kind_name(err.kind));
	/* A crash mid-row leaves half a line. */
	fp = fopen(path, "a");
	fputs("x,GET,3,50,100", fp);
	fclose(fp);
	cr_assert_eq(csv_out_open(&o, path, 1, 0, &rows, &err), 0, "%s", err.msg);
	cr_assert_eq(rows.n, 1);
	r.pipeline = 32;
	cr_assert_eq(csv_out_append(&o, &r, &err), 0);
	csv_out_close(&o);
	rows_free(&rows);
	cr_assert_eq(csv_read_file(path, &rows, &(struct csv_info){ 0 }, &err), 0, "%s", err.msg);
	cr_assert_eq(rows.n, 2);
	cr_assert_eq(rows.v[1].pipeline, 32);
	rows_free(&rows);
	unlink(path);
}

/* A write that fails half-way (a full disk; here the file size limit, with
 * SIGXFSZ ignored as a full disk needs no signal) is an error, and the file
 * is cut back to its whole rows. */
Test(csv, failed_write_is_an_error_and_file_stays_whole)
{
	char path[] = "/tmp/rsweep-csv-XXXXXX";
	int fd = mkstemp(path);
	size_t hl = strlen(csv_header());
	struct rlimit old, lim;
	struct csv_out o;
	struct rs_rows rows = { 0 };
	struct rs_err err;
	struct rs_row r = sample_row();
	struct stat st;
	int rc;

	close(fd);
	cr_assert_eq(csv_out_open(&o, path, 0, 1, &rows, &err), 0, "%s", err.msg);
	cr_assert_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = hl + 100;
	signal(SIGXFSZ, SIG_IGN);
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
	rc = csv_out_append(&o, &r, &err);
	setrlimit(RLIMIT_FSIZE, &old);
	cr_assert_eq(rc, -1);
	cr_assert(strstr(err.msg, "cannot write: File too large (the rows before are intact)") != NULL,
		  "%s", err.msg);
	csv_out_close(&o);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq((size_t)st.st_size, hl, "%lld bytes", (long long)st.st_size);
	unlink(path);
}

/* What is not a regular file is refused at once, as bad input: open()
 * must not wait for a FIFO's reader, nor rows go to a device. */
Test(csv, fifo_device_and_directory_are_refused, .timeout = 10)
{
	char dir[] = "/tmp/rsweep-csv-XXXXXX", fifo[64];
	static const struct {
		const char *path, *kind;
	} cases[] = {
		{ NULL, "(a FIFO)" },
		{ "/dev/null", "(a character device)" },
		{ "/dev/full", "(a character device)" },
		{ "/tmp", "(a directory)" },
	};

	cr_assert_not_null(mkdtemp(dir));
	snprintf(fifo, sizeof fifo, "%s/fifo", dir);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *path = cases[i].path ? cases[i].path : fifo;
		struct csv_out o;
		struct rs_rows rows = { 0 };
		struct rs_err err = { 0 };

		for (int resume = 0; resume < 2; resume++) {
			cr_assert_eq(csv_out_open(&o, path, resume, 0, &rows, &err), -1);
			cr_assert_eq(err.kind, RS_E_INPUT, "%s: %s", path, err.msg);
			cr_assert(strstr(err.msg, "is not a regular file") != NULL, "%s", err.msg);
			cr_assert(strstr(err.msg, cases[i].kind) != NULL, "%s", err.msg);
			cr_assert_eq(o.fd, -1);
		}
	}
	unlink(fifo);
	rmdir(dir);
}

/* A second writer is refused before it reads the file (reading first, it
 * would take rows the first one is about to add as missing), and is told
 * who holds the lock. */
Test(csv, lock_is_taken_before_the_file_is_read)
{
	char path[] = "/tmp/rsweep-csv-XXXXXX", want[128];
	int fd = mkstemp(path), other;
	struct csv_out o;
	struct rs_rows rows = { 0 };
	struct rs_err err;
	struct rs_row r = sample_row();

	close(fd);
	cr_assert_eq(csv_out_open(&o, path, 0, 0, &rows, &err), 0, "%s", err.msg);
	cr_assert_eq(csv_out_append(&o, &r, &err), 0, "%s", err.msg);
	csv_out_close(&o);
	/* Rows that resume would refuse: only the lock may be the reason given. */
	other = open(path, O_WRONLY | O_APPEND);
	cr_assert_geq(other, 0);
	cr_assert_eq(write(other, "m1,GET,\"4\n", 10), 10);
	cr_assert_eq(flock(other, LOCK_EX | LOCK_NB), 0);
	for (int resume = 0; resume < 2; resume++) {
		cr_assert_eq(csv_out_open(&o, path, resume, !resume, &rows, &err), -1);
		snprintf(want, sizeof want, "%s is being written by another rsweep (pid %ld)", path,
			 (long)getpid());
		cr_assert_str_eq(err.msg, want);
		cr_assert_eq(rows.n, 0, "the rows were read");
	}
	close(other);
	cr_assert_eq(csv_out_open(&o, path, 1, 0, &rows, &err), -1);
	cr_assert_eq(err.kind, RS_E_INPUT, "%s", err.msg);
	cr_assert(strstr(err.msg, ":4: unterminated quoted field") != NULL, "%s", err.msg);
	rows_free(&rows);
	unlink(path);
}

/* The path must still name the file being written: deleted, replaced or
 * moved, the rows would go where nobody looks.  Appending stops, saying
 * where the rows are. */
Test(csv, path_deleted_replaced_or_moved_stops_appending)
{
	char dir[] = "/tmp/rsweep-csv-XXXXXX", path[64], other[64];
	struct rs_rows rows = { 0 };
	struct rs_err err;
	struct rs_row r = sample_row();
	static const char *const how[] = { "deleted", "replaced", "moved" };

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/f.csv", dir);
	snprintf(other, sizeof other, "%s/other", dir);
	r.order = 7;
	for (int i = 0; i < 3; i++) {
		struct csv_out o;
		struct rs_rows back = { 0 };
		FILE *fp;

		unlink(path);
		cr_assert_eq(csv_out_open(&o, path, 0, 0, &rows, &err), 0, "%s", err.msg);
		cr_assert_eq(csv_out_append(&o, &r, &err), 0, "%s", err.msg);
		if (i == 0) {
			unlink(path);
		} else if (i == 1) {
			fp = fopen(other, "w");
			fputs("theirs\n", fp);
			fclose(fp);
			cr_assert_eq(rename(other, path), 0);
		} else {
			cr_assert_eq(rename(path, other), 0);
		}
		cr_assert_eq(csv_out_append(&o, &r, &err), -1, "%s: appended", how[i]);
		csv_out_close(&o);
		cr_assert(strchr(err.msg, '\n') == NULL);
		if (i == 0) {
			cr_assert(strstr(err.msg, "f.csv was deleted during the run: the rows it held are "
				  "gone with it, and point 7 (GET P=16) is in no file"), "%s", err.msg);
		} else if (i == 1) {
			cr_assert(strstr(err.msg, "f.csv was replaced by another file during the run"),
				  "%s", err.msg);
			fp = fopen(path, "r");
			cr_assert_not_null(fp);
			{
				char line[64] = "";

				cr_assert_not_null(fgets(line, sizeof line, fp));
				cr_assert_str_eq(line, "theirs\n");
				cr_assert_null(fgets(line, sizeof line, fp));
			}
			fclose(fp);
		} else {
			cr_assert(strstr(err.msg, "f.csv was moved or renamed during the run: the file "
				  "rsweep wrote still exists under another name, with the rows before "
				  "point 7 (GET P=16), which is in no file"), "%s", err.msg);
			cr_assert_eq(csv_read_file(other, &back, &(struct csv_info){ 0 }, &err), 0,
				     "%s", err.msg);
			cr_assert_eq(back.n, 1);
			rows_free(&back);
			unlink(other);
		}
	}
	unlink(path);
	rmdir(dir);
}

/* Resuming a file whose whole last row lost its newline keeps that row and
 * gives the newline back before the next row. */
Test(csv, resume_gives_a_whole_last_row_its_newline)
{
	char path[] = "/tmp/rsweep-csv-XXXXXX";
	int fd = mkstemp(path);
	struct csv_out o;
	struct rs_rows rows = { 0 };
	struct rs_err err;
	struct rs_row r = sample_row();
	struct stat st;

	close(fd);
	cr_assert_eq(csv_out_open(&o, path, 0, 0, &rows, &err), 0, "%s", err.msg);
	cr_assert_eq(csv_out_append(&o, &r, &err), 0, "%s", err.msg);
	csv_out_close(&o);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(truncate(path, st.st_size - 1), 0);
	cr_assert_eq(csv_out_open(&o, path, 1, 0, &rows, &err), 0, "%s", err.msg);
	cr_assert_eq(rows.n, 1, "the whole last row was dropped");
	r.pipeline = 32;
	cr_assert_eq(csv_out_append(&o, &r, &err), 0, "%s", err.msg);
	csv_out_close(&o);
	rows_free(&rows);
	cr_assert_eq(csv_read_file(path, &rows, &(struct csv_info){ 0 }, &err), 0, "%s", err.msg);
	cr_assert_eq(rows.n, 2);
	cr_assert_eq(rows.v[0].pipeline, 16);
	cr_assert_eq(rows.v[1].pipeline, 32);
	rows_free(&rows);
	unlink(path);
}

/* Whatever rsweep writes, its readers take: the writer refuses a row the
 * reader would refuse, naming the field, rather than write it. */
Test(csv, writer_refuses_what_the_reader_refuses)
{
	static const struct {
		int what;
		const char *msg;
	} cases[] = {
		{ 0, "rps is negative (-5.00)" },
		{ 1, "rps is empty" },
		{ 2, "avg_ms is infinite" },
		{ 3, "p50_ms 10000000000000000525047602552044... is not a plausible figure (over 1e15)" },
		{ 4, "label 'a?b' holds a control character" },
		{ 5, "test 'G?ET' holds a control character" },
		{ 6, "test is empty" },
		{ 7, "pipeline must be at least 1" },
		{ 8, "clients is negative (-7)" },
		{ 9, "label is longer than 127 characters" },
		{ 10, "server_cpu_s is negative (-0.500000)" },
		{ 11, "seconds 10000000000000000.000000 is not a plausible figure" },
		{ 12, "rps is infinite" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct rs_row r = sample_row();
		char buf[8192], want[256];
		struct rs_err err = { 0 };

		switch (cases[i].what) {
		case 0: r.rps = -5; break;
		case 1: r.rps = NAN; break;
		case 2: r.avg_ms = INFINITY; break;
		case 3: r.p50_ms = 1e300; break;
		case 4: strcpy(r.label, "a\nb"); break;
		case 5: strcpy(r.test, "G\tET"); break;
		case 6: r.test[0] = '\0'; break;
		case 7: r.pipeline = 0; break;
		case 8: r.clients = -7; break;
		case 9: memset(r.label, 'x', sizeof r.label); break;
		case 10: r.server_cpu_s = -0.5; break;
		case 11: r.seconds = 1e16; break;
		case 12: r.rps = -INFINITY; break;
		}
		cr_assert_eq(csv_format_row(&r, buf, sizeof buf, &err), -1, "case %zu written", i);
		cr_assert(strchr(err.msg, '\n') == NULL, "case %zu: %s", i, err.msg);
		cr_assert(strstr(err.msg, " not written: ") != NULL, "case %zu: %s", i, err.msg);
		cr_assert(strstr(err.msg, cases[i].msg) != NULL, "case %zu: '%s' does not say '%s'", i,
			  err.msg, cases[i].msg);
		cr_assert_eq(csv_check_row(&r, &err), -1);
		snprintf(want, sizeof want, "%s", cases[i].msg);
		cr_assert(strncmp(err.msg, want, strlen(want)) == 0, "csv_check_row: %s", err.msg);
	}
}

static unsigned rnd_seed = 777;

static unsigned rnd(void)
{
	return (rnd_seed = rnd_seed * 1103515245u + 12345u) >> 16;
}
#define RND() rnd()

/* The same from random rows: what the writer writes, the reader reads. */
Test(csv, writer_output_always_reads_back)
{
	static const double odd[] = { 0, -0.0, 1e-9, 0.5, -1, 1e15, 1e15 + 1, 1e300, NAN, INFINITY };
	size_t hl = strlen(csv_header()), written = 0;

	for (int k = 0; k < 20000; k++) {
		struct rs_row r = sample_row();
		char buf[8192];
		double *d[] = { &r.seconds, &r.rps, &r.avg_ms, &r.p50_ms, &r.p999_ms, &r.client_cpu_s };
		int64_t *n[] = { &r.clients, &r.requests, &r.errors, &r.order };
		struct rs_err err;
		int len;

		for (size_t j = 0; j < sizeof d / sizeof *d; j++)
			if (RND() % 4 == 0)
				*d[j] = odd[RND() % (sizeof odd / sizeof *odd)];
		for (size_t j = 0; j < sizeof n / sizeof *n; j++)
			if (RND() % 4 == 0)
				*n[j] = (int64_t)(RND() % 5) - 2;
		if (RND() % 8 == 0)
			r.pipeline = RND() % 3;
		if (RND() % 8 == 0) {
			size_t at = RND() % 6;

			r.label[at] = (char)(RND() % 40);
		}
		if (RND() % 8 == 0) {
			size_t at = RND() % 4;

			r.test[at] = (char)(RND() % 40);
		}
		if (RND() % 8 == 0) {
			size_t at = RND() % 30;

			r.first_error[at] = (char)(RND() % 40);
		}
		memcpy(buf, csv_header(), hl);
		len = csv_format_row(&r, buf + hl, sizeof buf - hl, &err);
		if (len < 0)
			continue;
		written++;
		{
			struct rs_rows rows = { 0 };
			struct csv_info info;

			cr_assert_eq(csv_parse(buf, hl + (size_t)len, "w.csv", &rows, &info, &err), 0,
				     "written, then refused: %s", err.msg);
			cr_assert_eq(rows.n, 1);
			rows_free(&rows);
		}
	}
	cr_assert_gt(written, 1000);
}

/* A refused row leaves the file as it was. */
Test(csv, append_of_a_bad_row_changes_nothing)
{
	char path[] = "/tmp/rsweep-csv-XXXXXX";
	int fd = mkstemp(path);
	struct csv_out o;
	struct rs_rows rows = { 0 };
	struct rs_err err;
	struct rs_row r = sample_row();
	struct stat st;

	close(fd);
	cr_assert_eq(csv_out_open(&o, path, 0, 0, &rows, &err), 0, "%s", err.msg);
	r.rps = -1;
	cr_assert_eq(csv_out_append(&o, &r, &err), -1);
	cr_assert(strstr(err.msg, "rps is negative"), "%s", err.msg);
	csv_out_close(&o);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_size, 0, "the empty file got %lld bytes", (long long)st.st_size);
	unlink(path);
}

/* Nothing changes before the first row: a run the guard refuses, or one
 * whose server fails at once, leaves no new file and no edited one. */
Test(csv, open_changes_nothing_until_the_first_row)
{
	char dir[] = "/tmp/rsweep-csv-XXXXXX", path[64], cut[64], row[256] = "x,GET,1,,,1,,5";
	struct csv_out o;
	struct rs_rows rows = { 0 };
	struct rs_err err;
	struct rs_row r = sample_row();
	struct stat st;
	FILE *fp;

	/* A row of label x, GET, depth 1, repeat 1, rps 5 (7 commas so far),
	 * the rest empty: as many commas as the header has. */
	int commas = 0;

	for (const char *c = csv_header(); *c; c++)
		commas += *c == ',';
	for (int i = 7; i < commas; i++)
		strcat(row, ",");
	strcat(row, "\n");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/new.csv", dir);
	cr_assert_eq(csv_out_open(&o, path, 0, 0, &rows, &err), 0, "%s", err.msg);
	csv_out_close(&o);
	cr_assert_eq(stat(path, &st), -1, "open made the file");
	/* A crash's half row is cut off only when a row is added. */
	snprintf(cut, sizeof cut, "%s/cut.csv", dir);
	fp = fopen(cut, "w");
	fprintf(fp, "%s%sa,GET,2,", csv_header(), row);
	fclose(fp);
	cr_assert_eq(csv_out_open(&o, cut, 1, 0, &rows, &err), 0, "%s", err.msg);
	cr_assert_eq(rows.n, 1);
	csv_out_close(&o);
	cr_assert_eq(stat(cut, &st), 0);
	cr_assert_eq((size_t)st.st_size, strlen(csv_header()) + strlen(row) + 8);
	rows_free(&rows);
	memset(&rows, 0, sizeof rows);
	cr_assert_eq(csv_out_open(&o, cut, 1, 0, &rows, &err), 0, "%s", err.msg);
	cr_assert_eq(csv_out_append(&o, &r, &err), 0, "%s", err.msg);
	csv_out_close(&o);
	rows_free(&rows);
	memset(&rows, 0, sizeof rows);
	cr_assert_eq(csv_read_file(cut, &rows, &(struct csv_info){ 0 }, &err), 0, "%s", err.msg);
	cr_assert_eq(rows.n, 2);
	rows_free(&rows);
	unlink(cut);
	/* The new path, made at the first row. */
	memset(&rows, 0, sizeof rows);
	cr_assert_eq(csv_out_open(&o, path, 0, 0, &rows, &err), 0, "%s", err.msg);
	cr_assert_eq(csv_out_append(&o, &r, &err), 0, "%s", err.msg);
	csv_out_close(&o);
	cr_assert_eq(csv_read_file(path, &rows, &(struct csv_info){ 0 }, &err), 0, "%s", err.msg);
	cr_assert_eq(rows.n, 1);
	rows_free(&rows);
	unlink(path);
	rmdir(dir);
}

Test(csv, foreign_file_is_not_resumed_into)
{
	char path[] = "/tmp/rsweep-csv-XXXXXX";
	int fd = mkstemp(path);
	struct csv_out o;
	struct rs_rows rows = { 0 };
	struct rs_err err;
	const char *text = "name,age\nbob,3\n";

	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	cr_assert_eq(csv_out_open(&o, path, 1, 0, &rows, &err), -1);
	cr_assert_eq(err.kind, RS_E_INPUT, "%s", err.msg);
	fd = open(path, O_RDONLY);
	{
		char buf[64] = "";

		cr_assert_eq(read(fd, buf, sizeof buf), (ssize_t)strlen(text));
		cr_assert_str_eq(buf, text);
	}
	close(fd);
	unlink(path);
}

/* Numbers are read the way strtod reads them, bit for bit, whether they
 * take the plain-decimal fast path or not. */
Test(csv, numbers_read_as_strtod_reads_them)
{
	static const char *const odd[] = {
		"0", "-0", "+3", "1.", ".5", "-.5", "0.1", "0.3", "123456789012345",
		"1234567890123456", "0.000000000000001", "99999999999999.9", "1e3", "2.5E-3",
		"00000000000000001.5", "4503599627370497", "9007199254740993",
	};
	static const char *const bad[] = { "", ".", "-", "+", "1.2.3", "1..2", "--1", "1-", "0x10",
					   "inf", "nan", "1e", "1,5", " 1" };
	unsigned seed = 12345;

	for (size_t i = 0; i < sizeof odd / sizeof *odd; i++) {
		double v = NAN;

		cr_assert_eq(num_parse_double_n(odd[i], strlen(odd[i]), &v), 0, "%s", odd[i]);
		cr_assert(memcmp(&v, &(double){ strtod(odd[i], NULL) }, sizeof v) == 0, "%s: %.17g", odd[i], v);
	}
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		double v;

		cr_assert_eq(num_parse_double_n(bad[i], strlen(bad[i]), &v), -1, "'%s' accepted", bad[i]);
	}
	for (int k = 0; k < 200000; k++) {
		char buf[40];
		int nd = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 17;
		int dot = (int)((seed = seed * 1103515245u + 12345u) >> 16) % (nd + 2);
		size_t n = 0;
		double v, want;

		if (((seed = seed * 1103515245u + 12345u) >> 16) % 4 == 0)
			buf[n++] = '-';
		for (int d = 0; d < nd; d++) {
			if (d == dot)
				buf[n++] = '.';
			buf[n++] = (char)('0' + ((seed = seed * 1103515245u + 12345u) >> 16) % 10);
		}
		buf[n] = '\0';
		want = strtod(buf, NULL);
		cr_assert_eq(num_parse_double_n(buf, n, &v), 0, "%s", buf);
		cr_assert(memcmp(&v, &want, sizeof v) == 0, "%s: %.17g, strtod %.17g", buf, v, want);
	}
}

/* Lines are counted to size the row array before parsing: a file of
 * millions of blank lines must still read as its few rows, not ask for a
 * kilobyte a line. */
Test(csv, millions_of_blank_lines_are_no_rows)
{
	const char *head = "label,test,pipeline,clients,requests,rps\nm1,GET,1,50,100000,1000\n";
	size_t nh = strlen(head), n = nh + ((size_t)20 << 20);
	char *buf = malloc(n);
	struct rs_rows rows = { 0 };
	struct csv_info info;
	struct rs_err err;

	memcpy(buf, head, nh);
	memset(buf + nh, '\n', n - nh);
	cr_assert_eq(csv_parse(buf, n, "blank.csv", &rows, &info, &err), 0, "%s", err.msg);
	cr_assert_eq(rows.n, 1);
	cr_assert_leq(rows.cap, 16384, "%zu rows reserved", rows.cap);
	rows_free(&rows);
	free(buf);
}

/* The splitter other rooms use reads back what csv_put_field writes. */
Test(csv, put_field_and_split_line_round_trip)
{
	static const char *const in[] = { "plain", "a,b", "say \"hi\"", "", "cr\rlf\n" };
	char line[256], scratch[256 + 8 + 1];
	struct csv_field f[8];
	struct rs_err err;
	FILE *fp = fmemopen(line, sizeof line, "w");
	int nf;

	cr_assert_not_null(fp);
	for (size_t i = 0; i < 5; i++) {
		if (i)
			fputc(',', fp);
		csv_put_field(fp, in[i]);
	}
	fputc('\0', fp);
	fclose(fp);
	cr_assert_str_eq(line, "plain,\"a,b\",\"say \"\"hi\"\"\",,\"cr\rlf\n\"");
	/* A line holds no line end of its own: split the first four. */
	nf = csv_split_line(line, strlen("plain,\"a,b\",\"say \"\"hi\"\"\","), scratch, f, 8, &err);
	cr_assert_eq(nf, 4, "%s", nf < 0 ? err.msg : "");
	for (size_t i = 0; i < 4; i++) {
		cr_assert_str_eq(f[i].s, in[i]);
		cr_assert_eq(f[i].len, strlen(in[i]));
	}
	cr_assert_eq(csv_split_line("", 0, scratch, f, 8, &err), 1, "an empty line: one empty field");
	cr_assert_eq(csv_split_line("a,\"b", 4, scratch, f, 8, &err), -1);
	cr_assert_str_eq(err.msg, "unterminated quoted field");
	cr_assert_eq(csv_split_line("a,b\"c", 5, scratch, f, 8, &err), -1);
	cr_assert_str_eq(err.msg, "quote inside an unquoted field");
	cr_assert_eq(csv_split_line("a,b,c", 5, scratch, f, 2, &err), -1);
	cr_assert_str_eq(err.msg, "more than 2 fields");
}

/* A mix's columns: its spec holds commas, so it is quoted; the per-member
 * lists use ';' and '=' and are not; a reader takes the row whole. */
Test(csv, mix_columns_are_written_in_place)
{
	struct rs_row r = sample_row();
	struct rs_rows rows = { 0 };
	char buf[8192];

	strcpy(r.test, "MIX_GET80_SET20");
	strcpy(r.mix, "get=80,set=20");
	strcpy(r.mix_sent, "GET=80123;SET=19877");
	strcpy(r.mix_calls, "GET=80123;SET=19877");
	write_and_read(&r, &rows, buf, sizeof buf);
	cr_assert_not_null(strstr(buf, ",\"get=80,set=20\",GET=80123;SET=19877,GET=80123;SET=19877,,,,,"
				  ",,,,,,,,,,,,,,,,,,,,,,,,,,,,,,\"ERR line one"), "%s", buf);
	cr_assert_str_eq(rows.v[0].test, "MIX_GET80_SET20");
	rows_free(&rows);
}
