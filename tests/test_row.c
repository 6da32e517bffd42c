/* test_row.c: the full row's defaults and the compact rows readers keep
 * (row.h): every figure comes back exactly, unknowns stay unknown, limits
 * are errors, --relabel renames all or nothing. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/row.h"

static void base(struct rs_row *r, const char *label, const char *test)
{
	row_init(r);
	snprintf(r->label, sizeof r->label, "%s", label);
	snprintf(r->test, sizeof r->test, "%s", test);
	r->pipeline = 4;
	r->repeat = 1;
}

Test(row, init_leaves_every_figure_unknown)
{
	struct rs_row r;

	memset(&r, 0x5a, sizeof r);
	row_init(&r);
	cr_assert(isnan(r.rps) && isnan(r.seconds) && isnan(r.avg_ms) && isnan(r.min_ms));
	cr_assert(isnan(r.p50_ms) && isnan(r.p95_ms) && isnan(r.p99_ms) && isnan(r.p999_ms));
	cr_assert(isnan(r.max_ms) && isnan(r.server_cpu_s) && isnan(r.client_cpu_s));
	cr_assert(isnan(r.steal_pct) && isnan(r.drift_pct));
	cr_assert_eq(r.clients, -1);
	cr_assert_eq(r.requests, -1);
	cr_assert_eq(r.errors, -1);
	cr_assert_eq(r.misses, -1);
	cr_assert_eq(r.server_calls, -1);
	cr_assert_eq(r.order, -1);
	cr_assert_eq(r.threads, -1);
	cr_assert_eq(r.data_size, -1);
	cr_assert_eq(r.keyspace, -1);
	cr_assert_eq(r.client_nivcsw, -1);
	cr_assert_str_empty(r.label);
	cr_assert_str_empty(r.target);
	cr_assert_null(r.src);
}

Test(row, figures_come_back_exactly)
{
	struct rs_rows rows = { 0 };
	struct rs_err err = { 0 };
	struct rs_row r;
	const struct rs_rec *rec;

	base(&r, "m1", "GET");
	r.rps = 123456.78;            /* the CSV's 2 decimals: fixed point */
	r.seconds = 0.123456;
	r.avg_ms = 0.1234;
	r.p50_ms = 1.0 / 3.0;         /* more digits than the CSV: kept whole */
	r.p99_ms = 3e9;               /* larger than fixed point holds */
	r.max_ms = 0;
	r.server_cpu_s = 12.5;
	r.clients = 50;
	r.threads = 2;
	r.data_size = 3;
	r.requests = 100000;
	r.errors = 0;
	r.keyspace = 1000;
	snprintf(r.target, sizeof r.target, "unix:/tmp/r.sock");
	rec = rows_add(&rows, &r, &err);
	cr_assert_not_null(rec, "%s", err.msg);
	cr_assert_eq(rows_fig(&rows, rec, ROW_RPS), 123456.78);
	cr_assert_eq(rows_fig(&rows, rec, ROW_SECONDS), 0.123456);
	cr_assert_eq(rows_fig(&rows, rec, ROW_AVG_MS), 0.1234);
	cr_assert_eq(rows_fig(&rows, rec, ROW_P50_MS), 1.0 / 3.0);
	cr_assert_eq(rows_fig(&rows, rec, ROW_P99_MS), 3e9);
	cr_assert_eq(rows_fig(&rows, rec, ROW_MAX_MS), 0);
	cr_assert_eq(rows_fig(&rows, rec, ROW_SERVER_CPU_S), 12.5);
	cr_assert(isnan(rows_fig(&rows, rec, ROW_P95_MS)), "unknown stays unknown");
	cr_assert(isnan(rows_fig(&rows, rec, ROW_CLIENT_CPU_S)));
	cr_assert_str_eq(rec->label, "m1");
	cr_assert_str_eq(rec->test, "GET");
	cr_assert_str_eq(rec->client, "");
	cr_assert_str_eq(rec->server->target, "unix:/tmp/r.sock");
	cr_assert_str_eq(rec->server->redis_version, "");
	cr_assert_str_eq(rec->src, "");
	cr_assert_eq(rec->pipeline, 4);
	cr_assert_eq(rec->clients, 50);
	cr_assert_eq(rec->threads, 2);
	cr_assert_eq(rec->data_size, 3);
	cr_assert_eq(rec->requests, 100000);
	cr_assert_eq(rec->keyspace, 1000);
	rows_free(&rows);
	cr_assert_eq(rows.n, 0);
	rows_free(NULL);
}

/* The figures few rows have (a cluster's, an open loop's, --slo's,
 * replicas') are kept apart from the row: a row without any holds none,
 * and a row with one gets all of them back; the settings few rows have
 * (--slo's objective, --expire, --reconnect-every) come back through the
 * shared extra. */
Test(row, rare_figures_and_settings_come_back)
{
	struct rs_rows rows = { 0 };
	struct rs_err err = { 0 };
	struct rs_row r;
	const struct rs_rec *plain, *open;

	base(&r, "m1", "GET");
	r.rps = 1000;
	plain = rows_add(&rows, &r, &err);
	cr_assert_not_null(plain, "%s", err.msg);
	cr_assert_eq(plain->rare, 0);
	cr_assert_eq(plain->extra->expire, -1);
	cr_assert_eq(plain->extra->reconnect_every, -1);
	base(&r, "m1", "GET");
	r.rps = 2000;
	r.slip_p99_ms = 0.25;
	r.slo_ms = 1.5;
	r.repl_lag = 123456789;
	r.expire = 60;
	r.reconnect_every = 10;
	snprintf(r.slo, sizeof r.slo, "p99=1ms");
	open = rows_add(&rows, &r, &err);
	cr_assert_not_null(open, "%s", err.msg);
	plain = &rows.v[0];           /* rows_add may move the rows */
	cr_assert_eq(open->rare, 1);
	cr_assert_eq(rows_fig(&rows, open, ROW_RPS), 2000);
	cr_assert_eq(rows_fig(&rows, open, ROW_SLIP_P99_MS), 0.25);
	cr_assert_eq(rows_fig(&rows, open, ROW_SLO_MS), 1.5);
	cr_assert_eq(rows_fig(&rows, open, ROW_REPL_LAG), 123456789);
	cr_assert(isnan(rows_fig(&rows, open, ROW_SLIP_P50_MS)));
	cr_assert(isnan(rows_fig(&rows, open, ROW_BUSY_CPU_S)));
	for (int f = ROW_FIRST_RARE; f < ROW_NFIGS; f++)
		cr_assert(isnan(rows_fig(&rows, plain, (enum row_fig)f)), "figure %d", f);
	cr_assert_str_eq(open->extra->slo, "p99=1ms");
	cr_assert_eq(open->extra->expire, 60);
	cr_assert_eq(open->extra->reconnect_every, 10);
	cr_assert_str_eq(plain->extra->slo, "");
	rows_free(&rows);
}

Test(row, negative_and_unknown_integers)
{
	struct rs_rows rows = { 0 };
	struct rs_err err = { 0 };
	struct rs_row r;
	const struct rs_rec *rec;

	base(&r, "a", "SET");
	rec = rows_add(&rows, &r, &err);
	cr_assert_not_null(rec, "%s", err.msg);
	cr_assert_eq(rec->clients, -1);
	cr_assert_eq(rec->threads, -1);
	r.rps = -5;                   /* not fixed point: kept whole, not refused */
	rec = rows_add(&rows, &r, &err);
	cr_assert_not_null(rec, "%s", err.msg);
	cr_assert_eq(rows_fig(&rows, rec, ROW_RPS), -5);
	rows_free(&rows);
}

Test(row, integers_beyond_the_compact_row_are_errors)
{
	struct rs_rows rows = { 0 };
	struct rs_err err = { 0 };
	struct rs_row r;

	base(&r, "a", "GET");
	r.clients = 2147483648LL;
	cr_assert_null(rows_add(&rows, &r, &err));
	cr_assert_str_eq(err.msg, "clients 2147483648 is above 2147483647");
	r.clients = 1;
	r.threads = -2;
	cr_assert_null(rows_add(&rows, &r, &err));
	cr_assert_str_eq(err.msg, "threads -2 is negative");
	r.threads = 32768;
	cr_assert_null(rows_add(&rows, &r, &err));
	cr_assert_str_eq(err.msg, "threads 32768 is above 32767");
	r.threads = 1;
	r.run = 1001;
	cr_assert_null(rows_add(&rows, &r, &err));
	cr_assert_str_eq(err.msg, "run 1001 is more than 1000");
	r.run = 1;
	r.data_size = 3000000000LL;
	cr_assert_null(rows_add(&rows, &r, &err));
	cr_assert_str_eq(err.msg, "data_size 3000000000 is above 2147483647");
	cr_assert_eq(rows.n, 0, "a refused row was kept");
	rows_free(&rows);
}

/* Rows that share strings and servers share their storage. */
Test(row, strings_and_servers_stored_once)
{
	struct rs_rows rows = { 0 };
	struct rs_err err = { 0 };
	struct rs_row r;
	const struct rs_rec *a, *b, *c;

	base(&r, "m1", "GET");
	snprintf(r.target, sizeof r.target, "host:6379");
	snprintf(r.redis_version, sizeof r.redis_version, "7.0.15");
	r.src = "a.csv";
	cr_assert_not_null(rows_add(&rows, &r, &err), "%s", err.msg);
	snprintf(r.test, sizeof r.test, "SET");
	cr_assert_not_null(rows_add(&rows, &r, &err), "%s", err.msg);
	snprintf(r.redis_version, sizeof r.redis_version, "7.2.4");
	cr_assert_not_null(rows_add(&rows, &r, &err), "%s", err.msg);
	a = &rows.v[0];
	b = &rows.v[1];
	c = &rows.v[2];
	cr_assert_eq(a->label, b->label);
	cr_assert_eq(a->server, b->server);
	cr_assert_neq(b->server, c->server, "another version is another server");
	cr_assert_str_eq(c->server->redis_version, "7.2.4");
	cr_assert_str_eq(a->src, "a.csv");
	cr_assert_eq(a->src, c->src);
	rows_free(&rows);
}

/* A row of a mix with sized values. */
static void mix_row(struct rs_row *r)
{
	base(r, "m1", "MIX_GET1_SET1");
	snprintf(r->mix, sizeof r->mix, "get=1,set=1");
	snprintf(r->mix_sent, sizeof r->mix_sent, "GET=5;SET=5");
	snprintf(r->mix_calls, sizeof r->mix_calls, "GET=5;SET=6");
	snprintf(r->data_size_range, sizeof r->data_size_range, "1..100");
}

/* The columns most rows lack: each its own string (none read past
 * another's end), one copy for the rows that have the same, one shared
 * empty copy for rows that have none, and a full column kept whole. */
Test(row, extras_each_a_column_kept_once)
{
	struct rs_rows rows = { 0 };
	struct rs_err err = { 0 };
	struct rs_row r;
	const struct rs_rec *v;

	base(&r, "m1", "GET");
	cr_assert_not_null(rows_add(&rows, &r, &err), "%s", err.msg);
	mix_row(&r);
	cr_assert_not_null(rows_add(&rows, &r, &err), "%s", err.msg);
	base(&r, "m2", "GET");
	cr_assert_not_null(rows_add(&rows, &r, &err), "%s", err.msg);
	/* the mix's again, after a row of another label: the same copy */
	mix_row(&r);
	cr_assert_not_null(rows_add(&rows, &r, &err), "%s", err.msg);
	/* every column full to its last byte but one */
	base(&r, "m1", "SET");
	memset(r.busy_master, 'b', sizeof r.busy_master - 1);
	memset(r.master_rps, 'r', sizeof r.master_rps - 1);
	memset(r.mix_calls, 'c', sizeof r.mix_calls - 1);
	cr_assert_not_null(rows_add(&rows, &r, &err), "%s", err.msg);
	v = rows.v;
	cr_assert_eq(v[0].extra, v[2].extra, "rows without extras share one");
	cr_assert_str_empty(v[0].extra->busy_master);
	cr_assert_str_empty(v[0].extra->master_rps);
	cr_assert_str_empty(v[0].extra->mix);
	cr_assert_str_empty(v[0].extra->mix_sent);
	cr_assert_str_empty(v[0].extra->mix_calls);
	cr_assert_str_empty(v[0].extra->data_size_range);
	cr_assert_str_empty(v[1].extra->busy_master);
	cr_assert_str_empty(v[1].extra->master_rps);
	cr_assert_str_eq(v[1].extra->mix, "get=1,set=1");
	cr_assert_str_eq(v[1].extra->mix_sent, "GET=5;SET=5");
	cr_assert_str_eq(v[1].extra->mix_calls, "GET=5;SET=6");
	cr_assert_str_eq(v[1].extra->data_size_range, "1..100");
	cr_assert_eq(v[1].extra, v[3].extra, "rows with the same extras share one");
	cr_assert_eq(strlen(v[4].extra->busy_master), sizeof r.busy_master - 1);
	cr_assert_eq(strlen(v[4].extra->master_rps), sizeof r.master_rps - 1);
	cr_assert_str_empty(v[4].extra->mix);
	cr_assert_eq(strlen(v[4].extra->mix_calls), sizeof r.mix_calls - 1);
	cr_assert_str_empty(v[4].extra->data_size_range);
	rows_free(&rows);
}

Test(row, server_name_and_version_make_another_server)
{
	struct rs_rows rows = { 0 };
	struct rs_err err = { 0 };
	struct rs_row r;
	char d[64];

	base(&r, "m1", "GET");
	snprintf(r.redis_version, sizeof r.redis_version, "7.2.4");
	cr_assert_not_null(rows_add(&rows, &r, &err), "%s", err.msg);
	snprintf(r.server_name, sizeof r.server_name, "valkey");
	snprintf(r.server_version, sizeof r.server_version, "8.0.1");
	cr_assert_not_null(rows_add(&rows, &r, &err), "%s", err.msg);
	snprintf(r.server_version, sizeof r.server_version, "8.0.2");
	cr_assert_not_null(rows_add(&rows, &r, &err), "%s", err.msg);
	cr_assert_neq(rows.v[0].server, rows.v[1].server);
	cr_assert_neq(rows.v[1].server, rows.v[2].server);
	/* As the server names itself; a row from before the columns as its
	 * chart footer always named it. */
	cr_assert_str_eq(rows_server_desc(rows.v[1].server, d, sizeof d), "valkey 8.0.1");
	cr_assert_str_eq(rows_server_desc(rows.v[0].server, d, sizeof d), "redis 7.2.4");
	rows_free(&rows);
	base(&r, "m1", "GET");
	cr_assert_not_null(rows_add(&rows, &r, &err), "%s", err.msg);
	cr_assert_str_empty(rows_server_desc(rows.v[0].server, d, sizeof d));
	rows_free(&rows);
}

Test(row, resume_on_another_server_is_refused)
{
	struct rs_rows rows = { 0 };
	struct rs_err err = { 0 };
	struct rs_row r;

	base(&r, "a", "GET");
	r.src = "x.csv";
	r.line = 2;
	snprintf(r.redis_version, sizeof r.redis_version, "7.0.15");
	snprintf(r.server_name, sizeof r.server_name, "redis");
	snprintf(r.server_version, sizeof r.server_version, "7.0.15");
	cr_assert_not_null(rows_add(&rows, &r, &err), "%s", err.msg);
	/* Another label's rows, of an older file: redis_version alone. */
	base(&r, "old", "GET");
	r.src = "x.csv";
	r.line = 3;
	snprintf(r.redis_version, sizeof r.redis_version, "7.2.4");
	cr_assert_not_null(rows_add(&rows, &r, &err), "%s", err.msg);
	/* Imported rows know no server. */
	base(&r, "imp", "GET");
	cr_assert_not_null(rows_add(&rows, &r, &err), "%s", err.msg);

	cr_assert_eq(rows_check_server(&rows, "a", "redis", "7.0.15", "7.0.15", &err), 0);
	cr_assert_eq(rows_check_server(&rows, "b", "valkey", "8.0.1", "7.2.4", &err), 0);
	cr_assert_eq(rows_check_server(&rows, "imp", "valkey", "8.0.1", "7.2.4", &err), 0);
	cr_assert_eq(rows_check_server(&rows, "a", "", "", "", &err), 0, "nothing to compare");
	cr_assert_eq(rows_check_server(&rows, "a", "valkey", "8.0.1", "7.2.4", &err), -1);
	cr_assert_str_eq(err.msg, "x.csv:2: label 'a' was measured on redis 7.0.15, this run is on "
			 "valkey 8.0.1: resume on the same server, or use another --label");
	/* A changed version is another server too. */
	cr_assert_eq(rows_check_server(&rows, "a", "redis", "7.0.16", "7.0.16", &err), -1);
	cr_assert(strstr(err.msg, "this run is on redis 7.0.16:") != NULL, "%s", err.msg);
	/* An older file's rows: by redis_version, the one fact they hold. */
	cr_assert_eq(rows_check_server(&rows, "old", "valkey", "8.0.1", "7.2.4", &err), 0);
	cr_assert_eq(rows_check_server(&rows, "old", "redis", "7.0.15", "7.0.15", &err), -1);
	cr_assert_str_eq(err.msg, "x.csv:3: label 'old' was measured on a server whose "
			 "redis_version is 7.2.4, this run is on one whose is 7.0.15: resume on "
			 "the same server, or use another --label");
	rows_free(&rows);
}

static void three_labels(struct rs_rows *rows)
{
	const char *labels[] = { "a", "b", "a", "c" };
	struct rs_err err = { 0 };

	for (size_t i = 0; i < 4; i++) {
		struct rs_row r;

		base(&r, labels[i], "GET");
		cr_assert_not_null(rows_add(rows, &r, &err), "%s", err.msg);
	}
}

Test(row, relabel_renames_every_row_once)
{
	struct rs_rows rows = { 0 };
	struct rs_err err = { 0 };

	three_labels(&rows);
	cr_assert_eq(rows_relabel(&rows, "a=b,b=a", &err), 0, "%s", err.msg);
	cr_assert_str_eq(rows.v[0].label, "b");
	cr_assert_str_eq(rows.v[1].label, "a", "a swap renames each row once");
	cr_assert_str_eq(rows.v[2].label, "b");
	cr_assert_str_eq(rows.v[3].label, "c");
	rows_free(&rows);
}

Test(row, relabel_refuses_without_changing_a_row)
{
	static const struct {
		const char *spec, *msg;
	} bad[] = {
		{ "a", "--relabel: 'a' is not OLD=NEW" },
		{ "=x", "--relabel: '=x' is not OLD=NEW" },
		{ "a=", "--relabel: 'a=' is not OLD=NEW" },
		{ ",", "--relabel: no OLD=NEW given" },
		{ "a=x,zz=y", "--relabel: no row is labelled 'zz'" },
		{ "a=x\ty", "--relabel: 'x\\ty' holds a control character" },
	};
	struct rs_rows rows = { 0 };
	char longer[200];

	three_labels(&rows);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct rs_err err = { 0 };

		cr_assert_eq(rows_relabel(&rows, bad[i].spec, &err), -1, "'%s' accepted", bad[i].spec);
		cr_assert_str_eq(err.msg, bad[i].msg, "'%s'", bad[i].spec);
		cr_assert_str_eq(rows.v[0].label, "a", "'%s' renamed a row", bad[i].spec);
	}
	memset(longer, 'n', sizeof longer);
	memcpy(longer, "a=", 2);
	longer[sizeof longer - 1] = '\0';
	cr_assert_eq(rows_relabel(&rows, longer, &(struct rs_err){ 0 }), -1);
	cr_assert_str_eq(rows.v[0].label, "a");
	rows_free(&rows);
}

/* Rows labelled "vm" from each of files, one row a file. */
static void vm_rows(struct rs_rows *rows, const char *const *files, size_t n)
{
	struct rs_err err = { 0 };

	for (size_t i = 0; i < n; i++) {
		struct rs_row r;

		base(&r, "vm", "GET");
		r.src = files[i];
		r.line = 2;
		cr_assert_not_null(rows_add(rows, &r, &err), "%s", err.msg);
	}
}

/* FILE:OLD=NEW renames one file's rows: FILE as given or by its last
 * components; several in turn; a FILE not read reads as a label. */
Test(row, relabel_of_one_file)
{
	static const char *const files[] = { "data/hostA.csv", "hostB.csv", "x:y.csv" };
	char *const two[] = { "hostA.csv:vm=m1", "hostB.csv:vm=intel" };
	struct rs_rows rows = { 0 };
	struct rs_err err = { 0 };

	vm_rows(&rows, files, 3);
	cr_assert_eq(rows_relabel_list(&rows, two, 2, &err), 0, "%s", err.msg);
	cr_assert_str_eq(rows.v[0].label, "m1");
	cr_assert_str_eq(rows.v[1].label, "intel");
	cr_assert_str_eq(rows.v[2].label, "vm");
	/* A file name with a ':' in it; a label with one. */
	cr_assert_eq(rows_relabel(&rows, "x:y.csv:vm=a:b", &err), 0, "%s", err.msg);
	cr_assert_str_eq(rows.v[2].label, "a:b");
	cr_assert_eq(rows_relabel(&rows, "x:y.csv:a:b=c,c=d", &err), -1);
	cr_assert_str_eq(err.msg, "--relabel: no row of x:y.csv is labelled 'c'");
	cr_assert_eq(rows_relabel(&rows, "a:b=z", &err), 0, "%s", err.msg);
	cr_assert_str_eq(rows.v[2].label, "z");
	cr_assert_eq(rows_relabel(&rows, "data/hostA.csv:m1=vm", &err), 0, "%s", err.msg);
	cr_assert_str_eq(rows.v[0].label, "vm");
	cr_assert_str_eq(rows.v[1].label, "intel");
	/* "stA.csv" is no file's name, only the end of one. */
	cr_assert_eq(rows_relabel(&rows, "stA.csv:vm=q", &err), -1);
	cr_assert_str_eq(err.msg, "--relabel: no row is labelled 'stA.csv:vm', and 'stA.csv' is "
			 "none of the files read");
	cr_assert_eq(rows_relabel(&rows, "hostB.csv:vm=q", &err), -1);
	cr_assert_str_eq(err.msg, "--relabel: no row of hostB.csv is labelled 'vm'");
	cr_assert_str_eq(rows.v[0].label, "vm");
	rows_free(&rows);
}

Test(row, relabel_refuses_a_file_name_of_two_files)
{
	static const char *const files[] = { "a/h.csv", "b/h.csv" };
	struct rs_rows rows = { 0 };
	struct rs_err err = { 0 };

	vm_rows(&rows, files, 2);
	cr_assert_eq(rows_relabel(&rows, "h.csv:vm=x", &err), -1);
	cr_assert_str_eq(err.msg, "--relabel: 'h.csv' names two of the files, a/h.csv and "
			 "b/h.csv: give the path as on the command line");
	cr_assert_eq(rows_relabel(&rows, "b/h.csv:vm=x", &err), 0, "%s", err.msg);
	cr_assert_str_eq(rows.v[0].label, "vm");
	cr_assert_str_eq(rows.v[1].label, "x");
	rows_free(&rows);
}

/* --kind masters: a row per master of master_rps, its rate exactly, the
 * row's other figures kept; a row that carries the column keeps its
 * busiest master as it was. */
Test(row, master_rps_splits_a_row_by_master)
{
	struct rs_rows rows = { 0 };
	struct rs_err err = { 0 };
	struct rs_row r;

	base(&r, "c", "GET");
	r.rps = 300000.5;
	r.requests = 9000;
	snprintf(r.busy_master, sizeof r.busy_master, "127.0.0.1:7002");
	snprintf(r.master_rps, sizeof r.master_rps,
		 "127.0.0.1:7001=120000.25;127.0.0.1:7002=100000.17;127.0.0.1:7003=130000.00");
	cr_assert_not_null(rows_add(&rows, &r, &err), "%s", err.msg);
	cr_assert_str_eq(rows.v[0].extra->busy_master, "127.0.0.1:7002");
	cr_assert_str_eq(rows.v[0].extra->master_rps, r.master_rps);
	r.pipeline = 8;
	cr_assert_not_null(rows_add(&rows, &r, &err), "%s", err.msg);
	cr_assert_eq(rows_by_master(&rows, &err), 0, "%s", err.msg);
	cr_assert_eq(rows.n, 6);
	cr_assert_str_eq(rows.v[0].label, "127.0.0.1:7001");
	cr_assert_str_eq(rows.v[1].label, "127.0.0.1:7002");
	cr_assert_str_eq(rows.v[2].label, "127.0.0.1:7003");
	cr_assert_eq(rows_fig(&rows, &rows.v[1], ROW_RPS), 100000.17);
	cr_assert_eq(rows_fig(&rows, &rows.v[5], ROW_RPS), 130000.0);
	cr_assert_eq(rows.v[4].pipeline, 8);
	cr_assert_eq(rows.v[4].requests, 9000);
	cr_assert_str_eq(rows.v[4].test, "GET");
	rows_free(&rows);
}

/* Two labels: the master's address follows the label. */
Test(row, master_rps_of_two_labels)
{
	struct rs_rows rows = { 0 };
	struct rs_err err = { 0 };
	struct rs_row r;

	base(&r, "a", "GET");
	snprintf(r.master_rps, sizeof r.master_rps, "h:1=5");
	cr_assert_not_null(rows_add(&rows, &r, &err), "%s", err.msg);
	base(&r, "b", "GET");
	snprintf(r.master_rps, sizeof r.master_rps, "h:1=6");
	cr_assert_not_null(rows_add(&rows, &r, &err), "%s", err.msg);
	cr_assert_str_eq(rows.v[0].extra->busy_master, "", "no busiest master: empty");
	cr_assert_eq(rows_by_master(&rows, &err), 0, "%s", err.msg);
	cr_assert_str_eq(rows.v[0].label, "a h:1");
	cr_assert_str_eq(rows.v[1].label, "b h:1");
	rows_free(&rows);
}

/* A row without the column, as every row of a single server or of an
 * older file, and lists that do not read: FILE:LINE, rows unchanged. */
Test(row, master_rps_refused_naming_the_line)
{
	static const struct {
		const char *list, *msg;
	} bad[] = {
		{ "", "x.csv:7: no master_rps in this row: --kind masters draws the rates of each "
		      "master that rsweep run --cluster writes there" },
		{ "h:1", "x.csv:7: master_rps is not host:port=rps" },
		{ "h:1=5;", "x.csv:7: master_rps ends in ';'" },
		{ "h:1=5;;h:2=3", "x.csv:7: master_rps is not host:port=rps" },
		{ "=5", "x.csv:7: master_rps is not host:port=rps" },
		{ "h:1=", "x.csv:7: master_rps has no rate or one too long" },
		{ "h:1=5x", "x.csv:7: master_rps has a rate that is not a number of requests per second" },
		{ "h:1=-5", "x.csv:7: master_rps has a rate that is not a number of requests per second" },
		{ "h:1=nan", "x.csv:7: master_rps has a rate that is not a number of requests per second" },
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct rs_rows rows = { 0 };
		struct rs_err err = { 0 };
		struct rs_row r;

		base(&r, "c", "GET");
		r.src = "x.csv";
		r.line = 7;
		snprintf(r.master_rps, sizeof r.master_rps, "%s", bad[i].list);
		cr_assert_not_null(rows_add(&rows, &r, &err), "%s", err.msg);
		cr_assert_eq(rows_by_master(&rows, &err), -1, "%s", bad[i].list);
		cr_assert_str_eq(err.msg, bad[i].msg);
		cr_assert_eq(rows.n, 1);
		cr_assert_str_eq(rows.v[0].label, "c");
		rows_free(&rows);
	}
}

/* started_at in seconds: every row rsweep writes, a leap second, and what
 * is no such text. */
Test(row, started_time_of_the_iso_text)
{
	cr_assert_float_eq(row_started_time("2026-12-02T12:20:33.123456789Z"), 1796214033.123456789,
			   1e-6);
	cr_assert_float_eq(row_started_time("1970-01-01T00:00:00Z"), 0, 1e-9);
	cr_assert_float_eq(row_started_time("2000-02-29T23:59:59.5Z"), 951868799.5, 1e-9);
	cr_assert_float_eq(row_started_time("2024-03-01T00:00:00Z"), 1709251200, 1e-9);
	cr_assert_float_eq(row_started_time("1999-12-31T23:59:60Z"), 946684800, 1e-9);
	cr_assert(isnan(row_started_time("")));
	cr_assert(isnan(row_started_time("2026-12-02 12:20:33")));
	cr_assert(isnan(row_started_time("2026-13-02T12:20:33Z")));
	cr_assert(isnan(row_started_time("2026-12-02T12:20:33.Z")));
}
