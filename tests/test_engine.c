/* test_engine.c: the load engine against a real redis-server started here
 * on a private UNIX socket: exact request counts, errors, threads. */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <hiredis/hiredis.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "net/spawn.h"
#include "sweep/sweep.h"
#include "redis_helper.h"

static struct spawn srv;
static struct target tgt;

static void setup(void)
{
	redis_start(&srv, &tgt, NULL);
}

static void teardown(void)
{
	spawn_stop(&srv);
}

/* An independent look at the server's counters, outside rsweep's code. */
static long long info_counter(const char *section, const char *field, const char *key)
{
	redisContext *c = redisConnectUnix(srv.socket);
	redisReply *r = redisCommand(c, "INFO %s", section);
	const char *p = strstr(r->str, field);
	long long v = 0;

	if (p != NULL && (p = strstr(p, key)) != NULL)
		v = atoll(p + strlen(key));
	freeReplyObject(r);
	redisFree(c);
	return v;
}

static struct rs_row last_row;

static void keep_row(void *ud, const struct rs_row *row, size_t i, size_t n)
{
	(void)ud;
	(void)i;
	(void)n;
	last_row = *row;
}

/* How run() sends: closed-loop lock-step unless a test says otherwise. */
static enum engine_mode run_mode = ENGINE_LOCKSTEP;
static uint64_t run_rate;

static enum sweep_status run(const char *tests, unsigned depth, uint64_t n, unsigned clients,
			     unsigned threads, uint64_t data_size, uint64_t keyspace,
			     struct rs_err *err)
{
	struct workload w;
	struct sweep_plan plan;
	struct depth_list d = { (unsigned[]){ depth }, 1 };
	struct rate_list rates = { &run_rate, run_rate > 0 };
	struct sweep_config sc = {
		.label = "t", .target = &tgt, .spawned = 1, .flush = GUARD_FLUSH_ALL,
		.clients = clients, .threads = threads, .mode = run_mode, .requests = n, .timeout = 10,
		.keyspace = keyspace, .data_size = data_size, .seed = 1, .prepare = 1,
		.on_point = keep_row,
	};
	enum sweep_status st;

	cr_assert_eq(workload_select(tests, data_size, &w, err), 0, "%s", err->msg);
	sweep_plan_build_rates(w.n, &d, &rates, 1, 0, 1, &plan);
	memset(&last_row, 0, sizeof last_row);
	st = sweep_run(&sc, &w, &plan, NULL, err);
	sweep_plan_free(&plan);
	workload_free(&w);
	return st;
}

Test(engine, digits_patch_in_place)
{
	char buf[] = "key:__rand_int__";

	rng_put_digits(buf + 4, 42);
	cr_assert_str_eq(buf, "key:000000000042");
}

/* Every digit place, and a number wider than the field: its low digits,
 * as the server would see them from any way of writing them. */
Test(engine, digits_are_the_numbers_low_decimal_digits)
{
	static const uint64_t vs[] = { 0, 7, 10, 99, 100, 123456789012ULL, 999999999999ULL,
				       1000000000000ULL, 18446744073709551615ULL };

	for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++) {
		char want[32], got[RNG_DIGITS + 1] = { 0 };

		snprintf(want, sizeof want, "%012llu",
			 (unsigned long long)(vs[i] % 1000000000000ULL));
		rng_put_digits(got, vs[i]);
		cr_assert_str_eq(got, want, "%llu", (unsigned long long)vs[i]);
	}
}

/* One case: a test of the catalogue, by its index in workload_names(), at
 * one depth. */
struct engine_case {
	size_t name;
	unsigned depth;
};

ParameterizedTestParameters(engine, commandstats_grow_by_exactly_the_requests_reported)
{
	static struct engine_case cases[128];
	const char *const *names = workload_names();
	const unsigned depths[] = { 1, 8 };
	size_t n = 0;

	for (size_t i = 0; names[i] && n + 2 <= sizeof cases / sizeof cases[0]; i++)
		for (size_t k = 0; k < 2; k++)
			cases[n++] = (struct engine_case){ i, depths[k] };
	return cr_make_param_array(struct engine_case, cases, n);
}

ParameterizedTest(struct engine_case *c, engine, commandstats_grow_by_exactly_the_requests_reported,
		  .init = setup, .fini = teardown, .timeout = 60)
{
	const char *name = workload_names()[c->name];
	unsigned depth = c->depth;
	struct rs_err err;
	char field[64];
	const char *cmd = strncmp(name, "PING", 4) == 0 ? "ping" :
			  strncmp(name, "LRANGE", 6) == 0 ? "lrange" : name;
	long long before, after;
	const uint64_t n = 3001;   /* not a multiple of clients or depth */

	snprintf(field, sizeof field, "cmdstat_%s:", cmd);
	for (char *p = field; *p; p++)
		*p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
	before = info_counter("commandstats", field, "calls=");
	cr_assert_eq(run(name, depth, n, 10, 1, 3, 1000, &err), SWEEP_OK, "%s P=%u: %s", name, depth,
		     err.msg);
	after = info_counter("commandstats", field, "calls=");
	cr_assert_eq(last_row.requests, (int64_t)n, "%s P=%u", name, depth);
	cr_assert_eq(after - before, last_row.requests, "%s P=%u: server counted %lld", name, depth,
		     after - before);
	cr_assert_eq(last_row.server_calls, last_row.requests, "%s P=%u", name, depth);
	cr_assert_eq(last_row.errors, 0, "%s P=%u: %s", name, depth, last_row.first_error);
	/* Every test reads real data: no nil or empty replies. */
	cr_assert_eq(last_row.misses, 0, "%s P=%u had %lld misses", name, depth,
		     (long long)last_row.misses);
	cr_assert_gt(last_row.rps, 0, "%s P=%u", name, depth);
	cr_assert_leq(last_row.min_ms, last_row.p50_ms, "%s P=%u", name, depth);
	cr_assert_leq(last_row.p50_ms, last_row.p99_ms, "%s P=%u", name, depth);
	cr_assert_leq(last_row.p99_ms, last_row.max_ms * 1.01, "%s P=%u", name, depth);
}

/* The window and the open loop send exactly -n requests too, and the
 * server's commandstats agree, at a depth that divides neither the count
 * nor the connections. */
Test(engine, window_and_open_loop_send_exactly_n, .init = setup, .fini = teardown, .timeout = 60)
{
	static const char *const tests[] = { "get", "set", "lpush", "incr" };
	struct rs_err err;

	for (int open = 0; open < 2; open++)
		for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
			char field[64];
			long long before, after;

			snprintf(field, sizeof field, "cmdstat_%s:", tests[i]);
			run_mode = ENGINE_WINDOW;
			run_rate = open ? 50000 : 0;
			before = info_counter("commandstats", field, "calls=");
			cr_assert_eq(run(tests[i], 7, 3001, 10, 2, 3, 1000, &err), SWEEP_OK, "%s: %s",
				     tests[i], err.msg);
			after = info_counter("commandstats", field, "calls=");
			cr_assert_eq(last_row.requests, 3001, "%s", tests[i]);
			cr_assert_eq(after - before, 3001, "%s: the server counted %lld", tests[i],
				     after - before);
			cr_assert_eq(last_row.server_calls, 3001, "%s", tests[i]);
			cr_assert_str_eq(last_row.mode, "window");
			if (open) {
				cr_assert_float_eq(last_row.rate_offered, 50000, 1e-9);
				cr_assert(isfinite(last_row.svc_p99_ms), "%s: no service time", tests[i]);
				/* Timed from when it was due, a request waits at least
				 * as long as from its send. */
				cr_assert_geq(last_row.p50_ms * 1.01, last_row.svc_p50_ms, "%s", tests[i]);
				/* The send slip: measured, and a request's slip is part
				 * of its latency. */
				cr_assert(isfinite(last_row.slip_p99_ms), "%s: no send slip", tests[i]);
				cr_assert_leq(last_row.slip_p50_ms, last_row.slip_p99_ms, "%s", tests[i]);
				cr_assert_geq(last_row.p99_ms * 1.01, last_row.slip_p99_ms, "%s", tests[i]);
			} else {
				cr_assert(isnan(last_row.rate_offered));
				cr_assert_eq(last_row.rate_short, -1);
				cr_assert(isnan(last_row.slip_p99_ms), "%s: a closed loop's slip", tests[i]);
			}
		}
	run_mode = ENGINE_LOCKSTEP;
	run_rate = 0;
}

Test(engine, threads_merge_exactly, .init = setup, .fini = teardown, .timeout = 60)
{
	struct rs_err err;

	cr_assert_eq(run("incr", 3, 10007, 7, 3, 3, 0, &err), SWEEP_OK, "%s", err.msg);
	cr_assert_eq(last_row.requests, 10007);
	cr_assert_eq(last_row.server_calls, 10007);
	cr_assert_eq(info_counter("keyspace", "db0:", "keys="), 1, "INCR on one fixed key");
	/* Every thread closed its four slices: the drift is known. */
	cr_assert(isfinite(last_row.drift_pct) && last_row.drift_pct >= 0, "drift %g",
		  last_row.drift_pct);
	cr_assert_geq(last_row.client_nivcsw, 0);
}

Test(engine, oom_replies_are_counted_as_errors, .timeout = 60)
{
	const char *const extra[] = { "--maxmemory", "1mb", "--maxmemory-policy", "noeviction",
				      NULL };
	struct rs_err err;
	long long oom0, oom1;

	redis_start(&srv, &tgt, extra);
	oom0 = info_counter("errorstats", "errorstat_OOM:", "count=");
	cr_assert_eq(run("set", 4, 20000, 10, 1, 1000, 1000000, &err), SWEEP_ERROR_REPLIES);
	oom1 = info_counter("errorstats", "errorstat_OOM:", "count=");
	spawn_stop(&srv);
	cr_assert_gt(last_row.errors, 0);
	cr_assert_eq(last_row.errors, oom1 - oom0, "rsweep counted %lld, the server %lld",
		     (long long)last_row.errors, oom1 - oom0);
	cr_assert(strncmp(last_row.first_error, "OOM", 3) == 0, "%s", last_row.first_error);
	cr_assert(strstr(err.msg, "error replies") != NULL, "%s", err.msg);
}

/* Every row of a multi-depth sweep of the tests that prepare data. */
static struct rs_row snap_rows[16];
static size_t snap_nrows;

static void keep_rows(void *ud, const struct rs_row *row, size_t i, size_t n)
{
	(void)ud;
	(void)i;
	(void)n;
	if (snap_nrows < sizeof snap_rows / sizeof *snap_rows)
		snap_rows[snap_nrows++] = *row;
}

/* After a test's first point its data comes back by RESTORE of a DUMP:
 * every later point still pops real data, exactly as many requests as it
 * says.  With DUMP renamed away, the commands build it every time. */
static void check_snapshots(const char *const *extra, long long want_restores)
{
	const char *tests = "lpop,spop,zpopmin,lrange_100";
	struct workload w;
	struct sweep_plan plan;
	struct depth_list d = { (unsigned[]){ 1, 4, 16 }, 3 };
	struct sweep_config sc = {
		.label = "t", .target = &tgt, .spawned = 1, .flush = GUARD_FLUSH_ALL,
		.clients = 10, .threads = 1, .requests = 3001, .timeout = 10, .keyspace = 1000,
		.data_size = 3, .seed = 1, .prepare = 1, .on_point = keep_rows,
	};
	struct rs_err err;

	redis_start(&srv, &tgt, extra);
	cr_assert_eq(workload_select(tests, 3, &w, &err), 0, "%s", err.msg);
	sweep_plan_build(w.n, &d, 1, 1, 7, &plan);
	snap_nrows = 0;
	cr_assert_eq(sweep_run(&sc, &w, &plan, NULL, &err), SWEEP_OK, "%s", err.msg);
	cr_assert_eq(snap_nrows, 12);
	for (size_t i = 0; i < snap_nrows; i++) {
		const struct rs_row *r = &snap_rows[i];

		cr_assert_eq(r->requests, 3001, "%s P=%u", r->test, r->pipeline);
		cr_assert_eq(r->server_calls, r->requests, "%s P=%u", r->test, r->pipeline);
		cr_assert_eq(r->errors, 0, "%s P=%u: %s", r->test, r->pipeline, r->first_error);
		cr_assert_eq(r->misses, 0, "%s P=%u had %lld misses", r->test, r->pipeline,
			     (long long)r->misses);
	}
	cr_assert_eq(info_counter("commandstats", "cmdstat_restore:", "calls="), want_restores);
	sweep_plan_free(&plan);
	workload_free(&w);
	spawn_stop(&srv);
}

Test(engine, prepared_data_restored_whole_at_every_point, .timeout = 120)
{
	check_snapshots(NULL, 8);  /* 4 tests x 3 depths, the first of each prepared */
}

Test(engine, prepared_data_rebuilt_when_dump_is_refused, .timeout = 120)
{
	const char *const extra[] = { "--rename-command", "DUMP", "", NULL };

	check_snapshots(extra, 0);
}
