/* test_sweep.c: the plan, and a sweep against a real server writing its CSV. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rows_helper.h"
#include "net/spawn.h"
#include "sweep/sweep.h"
#include "redis_helper.h"

Test(sweep, plan_covers_every_point_once_in_both_orders)
{
	struct depth_list d = { (unsigned[]){ 1, 2, 3, 4 }, 4 };

	for (int shuffled = 0; shuffled < 2; shuffled++) {
		struct sweep_plan plan;
		int seen[3][5][3] = { { { 0 } } };
		int moved = 0;

		sweep_plan_build(3, &d, 2, shuffled, 7, &plan);
		cr_assert_eq(plan.n, 24);
		for (size_t i = 0; i < plan.n; i++) {
			const struct sweep_point *p = &plan.v[i];

			cr_assert_eq(p->order, i + 1);
			seen[p->test][p->depth][p->repeat]++;
			moved |= i > 0 && p->test < plan.v[i - 1].test;
		}
		for (int t = 0; t < 3; t++)
			for (int k = 1; k <= 4; k++)
				for (int r = 1; r <= 2; r++)
					cr_assert_eq(seen[t][k][r], 1);
		cr_assert_eq(moved, shuffled, "shuffled order differs from sequential");
		sweep_plan_free(&plan);
	}
}

Test(sweep, shuffle_is_reproducible_from_the_seed)
{
	struct depth_list d = { (unsigned[]){ 1, 2, 3, 4, 5, 6 }, 6 };
	struct sweep_plan a, b, c;

	sweep_plan_build(4, &d, 1, 1, 42, &a);
	sweep_plan_build(4, &d, 1, 1, 42, &b);
	sweep_plan_build(4, &d, 1, 1, 43, &c);
	cr_assert_eq(memcmp(a.v, b.v, a.n * sizeof *a.v), 0);
	cr_assert_neq(memcmp(a.v, c.v, a.n * sizeof *a.v), 0);
	sweep_plan_free(&a);
	sweep_plan_free(&b);
	sweep_plan_free(&c);
}

/* --resume: the rows of this label mark their points done, each once;
 * other labels, other tests and points outside the plan mark nothing. */
Test(sweep, resume_marks_each_point_of_its_label_once)
{
	struct depth_list d = { (unsigned[]){ 1, 2, 4, 8 }, 4 };
	struct workload w = { 0 };
	struct sweep_plan plan;
	struct rs_rows rows = { 0 };
	struct rs_err err;
	size_t done = 0;

	cr_assert_eq(workload_select("get,set", 3, &w, &err), 0, "%s", err.msg);
	sweep_plan_build(w.n, &d, 2, 1, 5, &plan);
	add(&rows, "a", "GET", 2, 1, 100, NAN);
	add(&rows, "a", "GET", 2, 1, 100, NAN);   /* the same point twice: one mark */
	add(&rows, "a", "SET", 8, 2, 100, NAN);
	add(&rows, "b", "SET", 1, 1, 100, NAN);   /* another label */
	add(&rows, "a", "INCR", 1, 1, 100, NAN);  /* a test not in this run */
	add(&rows, "a", "GET", 3, 1, 100, NAN);   /* a depth not in the plan */
	add(&rows, "a", "GET", 1, 3, 100, NAN);   /* a repeat not in the plan */
	sweep_plan_mark_done(&plan, &w, "a", &rows);
	for (size_t i = 0; i < plan.n; i++) {
		const struct sweep_point *p = &plan.v[i];
		int want = (strcmp(w.v[p->test].name, "GET") == 0 && p->depth == 2 && p->repeat == 1) ||
			   (strcmp(w.v[p->test].name, "SET") == 0 && p->depth == 8 && p->repeat == 2);

		cr_assert_eq(p->done, want, "%s P=%u r%u", w.v[p->test].name, p->depth, p->repeat);
		done += p->done;
	}
	cr_assert_eq(done, 2);
	cr_assert_eq(plan.todo, plan.n - 2);
	sweep_plan_free(&plan);
	rows_free(&rows);
	workload_free(&w);
}

Test(sweep, targets_of_a_point_stay_together_in_abba_order)
{
	struct depth_list d = { (unsigned[]){ 1, 2, 4 }, 3 };

	for (int shuffled = 0; shuffled < 2; shuffled++) {
		for (size_t nt = 2; nt <= 3; nt++) {
			struct sweep_plan base, plan;
			size_t first[3] = { 0 };

			sweep_plan_build(2, &d, 2, shuffled, 9, &base);
			sweep_plan_build(2, &d, 2, shuffled, 9, &plan);
			sweep_plan_interleave(&plan, nt);
			cr_assert_eq(plan.n, base.n * nt);
			cr_assert_eq(plan.todo, plan.n);
			for (size_t i = 0; i < plan.n; i++) {
				const struct sweep_point *p = &plan.v[i], *b = &base.v[i / nt];
				size_t want = (i / nt) % 2 == 0 ? i % nt : nt - 1 - i % nt;

				/* The base plan's order, each point on every target in turn. */
				cr_assert_eq(p->order, i + 1);
				cr_assert(p->test == b->test && p->depth == b->depth &&
					  p->repeat == b->repeat);
				cr_assert_eq(p->target, want, "point %zu: target %zu, wanted %zu", i,
					     p->target, want);
				if (i % nt == 0)
					first[p->target]++;
			}
			/* Neither the first nor the last target is always first. */
			cr_assert_eq(first[0], (base.n + 1) / 2);
			cr_assert_eq(first[nt - 1], base.n / 2);
			sweep_plan_free(&base);
			sweep_plan_free(&plan);
		}
	}
}

Test(sweep, resume_marks_each_targets_points_by_its_label)
{
	struct depth_list d = { (unsigned[]){ 1, 2 }, 2 };
	struct workload w = { 0 };
	struct sweep_plan plan;
	struct rs_rows rows = { 0 };
	struct rs_err err;

	cr_assert_eq(workload_select("get", 3, &w, &err), 0, "%s", err.msg);
	sweep_plan_build(w.n, &d, 1, 0, 5, &plan);
	sweep_plan_interleave(&plan, 2);
	add(&rows, "a", "GET", 1, 1, 100, NAN);
	add(&rows, "b", "GET", 2, 1, 100, NAN);
	sweep_plan_mark_target(&plan, &w, 0, &(struct sweep_plan_who){ "a", -1, -1, -1, NULL },
			       &rows);
	sweep_plan_mark_target(&plan, &w, 1, &(struct sweep_plan_who){ "b", -1, -1, -1, NULL },
			       &rows);
	for (size_t i = 0; i < plan.n; i++) {
		const struct sweep_point *p = &plan.v[i];
		int want = (p->target == 0 && p->depth == 1) || (p->target == 1 && p->depth == 2);

		cr_assert_eq(p->done, want, "target %zu P=%u", p->target, p->depth);
	}
	cr_assert_eq(plan.todo, 2);
	sweep_plan_free(&plan);
	rows_free(&rows);
	workload_free(&w);
}

/* Axes: the combinations of one label are targets of the plan, each
 * finding its own rows by its values (sweep_plan_who); a row of another
 * -c is not a point done, and the server's arguments tell two servers
 * apart. */
Test(sweep, resume_marks_each_combination_by_its_values)
{
	struct depth_list d = { (unsigned[]){ 1, 2 }, 2 };
	struct workload w = { 0 };
	struct sweep_plan plan;
	struct rs_rows rows = { 0 };
	struct rs_row r;
	struct rs_err err;
	const struct sweep_plan_who who[3] = {
		{ "a", 1, -1, -1, "" }, { "a", 4, -1, -1, "" }, { "a", 4, -1, -1, "--hz 50" },
	};

	cr_assert_eq(workload_select("get", 3, &w, &err), 0, "%s", err.msg);
	sweep_plan_build(w.n, &d, 2, 1, 5, &plan);
	sweep_plan_interleave(&plan, 3);
	cr_assert_eq(plan.n, 2 * 2 * 3);
	fill(&r, "a", "GET", 1, 1, 100, NAN);
	r.clients = 1;
	push(&rows, &r);
	fill(&r, "a", "GET", 2, 2, 100, NAN);
	r.clients = 4;
	push(&rows, &r);
	fill(&r, "a", "GET", 2, 1, 100, NAN);
	r.clients = 4;
	snprintf(r.server_args, sizeof r.server_args, "--hz 50");
	push(&rows, &r);
	for (size_t k = 0; k < 3; k++)
		sweep_plan_mark_target(&plan, &w, k, &who[k], &rows);
	for (size_t i = 0; i < plan.n; i++) {
		const struct sweep_point *p = &plan.v[i];
		int want = (p->target == 0 && p->depth == 1 && p->repeat == 1) ||
			   (p->target == 1 && p->depth == 2 && p->repeat == 2) ||
			   (p->target == 2 && p->depth == 2 && p->repeat == 1);

		cr_assert_eq(p->done, want, "combination %zu P=%u repeat %u", p->target, p->depth,
			     p->repeat);
	}
	cr_assert_eq(plan.todo, plan.n - 3);
	sweep_plan_free(&plan);
	rows_free(&rows);
	workload_free(&w);
}

/* --resume skips only what was measured the same way: a lock-step row is
 * not a window point, and an open-loop row counts only at its own rate. */
Test(sweep, resume_tells_modes_and_rates_apart)
{
	struct depth_list d = { (unsigned[]){ 1, 4 }, 2 };
	struct rate_list rates = { (uint64_t[]){ 1000, 2000 }, 2 };
	struct workload w = { 0 };
	struct sweep_plan plan;
	struct rs_rows rows = { 0 };
	struct rs_row r;
	struct rs_err err;
	size_t done = 0;

	cr_assert_eq(workload_select("get", 3, &w, &err), 0, "%s", err.msg);
	sweep_plan_build_rates(w.n, &d, &rates, 1, 1, 5, &plan);
	cr_assert_eq(plan.n, 4);
	plan.mode = ENGINE_WINDOW;
	plan.arrivals = ENGINE_UNIFORM;
	fill(&r, "a", "GET", 1, 1, 100, NAN);     /* lock-step: another point */
	snprintf(r.mode, sizeof r.mode, "lockstep");
	push(&rows, &r);
	fill(&r, "a", "GET", 1, 1, 100, NAN);     /* closed-loop window: another point */
	snprintf(r.mode, sizeof r.mode, "window");
	push(&rows, &r);
	fill(&r, "a", "GET", 4, 1, 100, NAN);     /* poisson: another point */
	snprintf(r.mode, sizeof r.mode, "window");
	snprintf(r.arrivals, sizeof r.arrivals, "poisson");
	r.rate_offered = 2000;
	push(&rows, &r);
	fill(&r, "a", "GET", 4, 1, 100, NAN);     /* this one */
	snprintf(r.mode, sizeof r.mode, "window");
	snprintf(r.arrivals, sizeof r.arrivals, "uniform");
	r.rate_offered = 2000;
	push(&rows, &r);
	sweep_plan_mark_done(&plan, &w, "a", &rows);
	for (size_t i = 0; i < plan.n; i++) {
		const struct sweep_point *p = &plan.v[i];

		cr_assert_eq(p->done, p->depth == 4 && p->rate == 2000, "P=%u %llu/s", p->depth,
			     (unsigned long long)p->rate);
		done += p->done;
	}
	cr_assert_eq(done, 1);
	sweep_plan_free(&plan);
	rows_free(&rows);
	workload_free(&w);
}

Test(sweep, untrustworthy_figures_are_stored_as_unknown)
{
	struct rs_row r;
	char why[256];

	row_init(&r);
	r.seconds = 1.5;
	r.rps = 1000;
	r.avg_ms = r.min_ms = r.p50_ms = r.p95_ms = r.p99_ms = r.p999_ms = r.max_ms = 0.5;
	r.requests = 1500;
	r.errors = r.misses = 0;
	r.server_calls = 1500;
	r.server_cpu_s = 0.25;
	r.client_cpu_s = 0.5;
	cr_assert_eq(sweep_row_sanitise(&r, 0, why, sizeof why), 0);
	cr_assert_str_eq(why, "");
	cr_assert_eq(r.server_calls, 1500);
	cr_assert_eq(r.server_cpu_s, 0.25);

	/* used_cpu_sys went back (a restart), calls too (CONFIG RESETSTAT). */
	r.server_cpu_s = -5;
	r.server_calls = -1200;
	r.client_cpu_s = INFINITY;
	r.p99_ms = NAN;
	cr_assert_eq(sweep_row_sanitise(&r, 0, why, sizeof why), 4);
	cr_assert(isnan(r.server_cpu_s) && isnan(r.client_cpu_s) && isnan(r.p99_ms));
	cr_assert_eq(r.server_calls, -1);
	cr_assert(strstr(why, "server_cpu_s -5") && strstr(why, "server_calls -1200") &&
		  strstr(why, "stored as unknown"), "%s", why);
	cr_assert_null(strchr(why, '\n'));
	/* What is left is what the CSV writes and reads back. */
	cr_assert_eq(r.rps, 1000);
	cr_assert_eq(r.requests, 1500);

	/* W1: fewer calls than requests (a forged agent result) is noted. */
	r.server_cpu_s = 0.25;
	r.client_cpu_s = 0.5;
	r.p99_ms = 1;
	r.requests = 300000;
	r.server_calls = 52638;
	cr_assert_eq(sweep_row_sanitise(&r, 0, why, sizeof why), 1);
	cr_assert(strstr(why, "server_calls 52638, fewer than requests 300000"), "%s", why);
	cr_assert_eq(r.server_calls, 52638);
	r.server_calls = 300000;
	cr_assert_eq(sweep_row_sanitise(&r, 0, why, sizeof why), 0);

	/* A server that gives no counts or no CPU: unknown, and not noted. */
	r.server_calls = -1;
	r.server_cpu_s = NAN;
	cr_assert_eq(sweep_row_sanitise(&r, SWEEP_NO_CALLS | SWEEP_NO_CPU, why, sizeof why), 0,
		     "%s", why);
	cr_assert_eq(r.server_calls, -1);
	cr_assert(isnan(r.server_cpu_s));
	cr_assert_eq(sweep_row_sanitise(&r, 0, why, sizeof why), 2);
}

Test(sweep, max_reply_holds_lrange_600_at_any_data_size)
{
	static const uint64_t sizes[] = { 0, 3, 1000, 100000, (uint64_t)1 << 20, (uint64_t)512 << 20 };

	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		uint64_t d = sizes[i], digits = 1;

		for (uint64_t v = d; v >= 10; v /= 10)
			digits++;
		/* "*600\r\n", then 600 times "$<d>\r\n<d bytes>\r\n". */
		cr_assert_geq(workload_max_reply(d), 6 + 600 * (1 + digits + 2 + d + 2), "-d %llu",
			      (unsigned long long)d);
		cr_assert_geq(workload_max_reply(d), WORKLOAD_MAX_REPLY_FLOOR);
	}
	cr_assert_eq(workload_max_reply(3), WORKLOAD_MAX_REPLY_FLOOR, "small values: the floor");
}

Test(sweep, keyspace_lines_are_read_or_refused)
{
	struct target_keyspace ks;
	struct rs_err err;

	cr_assert_eq(target_keyspace_parse("# Keyspace\r\ndb0:keys=12,expires=0,avg_ttl=0\r\n"
					   "db3:keys=1,expires=0,avg_ttl=0,subexpiry=0\r\n", &ks,
					   &err), 0, "%s", err.msg);
	cr_assert_eq(ks.n, 2);
	cr_assert_eq(ks.total, 13);
	cr_assert_eq(target_keyspace_db(&ks, 0), 12);
	cr_assert_eq(target_keyspace_db(&ks, 3), 1);
	cr_assert_eq(target_keyspace_db(&ks, 5), 0);
	/* Scopes: db 0 alone; db 0 and every other empty; all together. */
	cr_assert(target_keyspace_within(&ks, 0, TARGET_SCOPE_DB, 12));
	cr_assert(!target_keyspace_within(&ks, 0, TARGET_SCOPE_DB, 11));
	cr_assert(!target_keyspace_within(&ks, 0, TARGET_SCOPE_ONLY, 12));
	cr_assert(target_keyspace_within(&ks, 5, TARGET_SCOPE_DB, 0));
	cr_assert(target_keyspace_within(&ks, 0, TARGET_SCOPE_ALL, 13));
	cr_assert(!target_keyspace_within(&ks, 0, TARGET_SCOPE_ALL, 12));
	target_keyspace_free(&ks);

	cr_assert_eq(target_keyspace_parse("# Keyspace\r\n", &ks, &err), 0);
	cr_assert_eq(ks.n, 0);
	cr_assert(target_keyspace_within(&ks, 0, TARGET_SCOPE_ONLY, 0));
	target_keyspace_free(&ks);

	/* The guard must not guess. */
	const char *bad[] = { "db0:keys=x\r\n", "db:keys=1\r\n", "db0:keys=\r\n",
			      "db0:kes=1\r\n", "db0:keys=99999999999999999999999\r\n",
			      "db0:keys=1x,expires=0\r\n", "dbx:keys=1\r\n" };

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cr_assert_eq(target_keyspace_parse(bad[i], &ks, &err), -1, "%s", bad[i]);
		cr_assert(strstr(err.msg, "INFO keyspace has a line rsweep cannot read"), "%s",
			  err.msg);
		cr_assert_eq(ks.n, 0);
	}
}

static struct spawn srv;

Test(sweep, three_tests_four_depths_two_repeats_write_24_rows, .timeout = 120)
{
	const char *path = redis_server();
	struct rs_err err;
	struct target t = { .connect_timeout = 5, .timeout = 10 };
	struct workload w;
	struct depth_list d = { (unsigned[]){ 1, 2, 3, 4 }, 4 };
	struct sweep_plan plan;
	struct sweep_config sc = {
		.label = "lab", .target = &t, .spawned = 1, .flush = GUARD_FLUSH_ALL,
		.clients = 5, .threads = 1, .requests = 2000, .timeout = 10, .data_size = 3,
		.prepare = 1,
	};
	struct csv_out out;
	struct rs_rows rows = { 0 };
	char csv[] = "/tmp/rsweep-sweep-XXXXXX";
	int fd = mkstemp(csv);
	int seen[3][5][3] = { { { 0 } } };

	close(fd);
	cr_assert_eq(spawn_start(&srv, path, 0, NULL, 10, &err), 0, "%s",
		     err.msg);
	t.socket = srv.socket;
	target_describe(&t);
	cr_assert_eq(workload_select("get,lpop,spop", 3, &w, &err), 0);
	sweep_plan_build(w.n, &d, 2, 1, 1, &plan);
	cr_assert_eq(csv_out_open(&out, csv, 0, 1, &rows, &err), 0, "%s", err.msg);
	cr_assert_eq(sweep_run(&sc, &w, &plan, &out, &err), SWEEP_OK, "%s", err.msg);
	csv_out_close(&out);
	spawn_stop(&srv);
	cr_assert_eq(csv_read_file(csv, &rows, &(struct csv_info){ 0 }, &err), 0, "%s", err.msg);
	cr_assert_eq(rows.n, 24);
	for (size_t i = 0; i < rows.n; i++) {
		const struct rs_rec *r = &rows.v[i];
		int ti = strcmp(r->test, "GET") == 0 ? 0 : strcmp(r->test, "LPOP") == 0 ? 1 : 2;
		char misses[32], started[64];

		seen[ti][r->pipeline][r->repeat]++;
		cr_assert_eq(r->requests, 2000);
		/* Columns the reader does not keep, from the file's text. */
		column_at(csv, r->line, "misses", misses, sizeof misses);
		column_at(csv, r->line, "started_at", started, sizeof started);
		cr_assert_str_eq(misses, "0", "%s P=%u read missing data", r->test, r->pipeline);
		cr_assert_str_eq(r->label, "lab");
		cr_assert(rows_fig(&rows, r, ROW_SERVER_CPU_S) >= 0 &&
			  rows_fig(&rows, r, ROW_CLIENT_CPU_S) >= 0);
		/* To the nanosecond: it pairs the row with its histogram. */
		cr_assert(strlen(started) == 30 && started[19] == '.' && started[29] == 'Z', "'%s'",
			  started);
		cr_assert_str_eq(r->server->redis_version, srv.version);
	}
	for (int a = 0; a < 3; a++)
		for (int k = 1; k <= 4; k++)
			for (int r = 1; r <= 2; r++)
				cr_assert_eq(seen[a][k][r], 1);
	rows_free(&rows);
	sweep_plan_free(&plan);
	workload_free(&w);
	unlink(csv);
}
