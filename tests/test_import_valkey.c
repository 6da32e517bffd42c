/* test_import_valkey.c: the importers on valkey-benchmark's output: the
 * captures under tests/data/valkey (see its README for each command line),
 * every figure of them compared with what the file shows, and what newer
 * valkey-benchmark builds add, in text written after its printf formats. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/infile.h"
#include "results/csv.h"
#include "formats/import.h"

static char *sample(const char *name, size_t *len)
{
	char path[512];
	struct rs_err err = { 0 };
	char *buf;

	snprintf(path, sizeof path, "%s/tests/data/valkey/%s", RS_TOP_SRCDIR, name);
	cr_assert_eq(infile_slurp(path, 1 << 20, &buf, len, &err), 0, "%s", err.msg);
	return buf;
}

static void parse_sample(const char *name, enum import_kind kind, struct import_result *r)
{
	struct rs_err err = { 0 };
	size_t len;
	char *buf = sample(name, &len);

	cr_assert_eq(import_parse(buf, len, name, kind, 0, r, &err), 0, "%s", err.msg);
	free(buf);
}

static void parse_text(const char *text, struct import_result *r)
{
	struct rs_err err = { 0 };

	cr_assert_eq(import_parse(text, strlen(text), "in.txt", IMPORT_AUTO, 0, r, &err), 0, "%s",
		     err.msg);
}

/* Figures as printed with 2 or 3 decimals: read exactly as decimals. */
#define EQ(a, b) cr_assert_float_eq((a), (b), 1e-9, "%s: %.6f, not %.6f", #a, (double)(a), (double)(b))

/* rps, avg, min, p50, p95, p99, max of point p. */
static void figures(const struct import_point *p, double rps, double avg, double min, double p50,
		    double p95, double p99, double max)
{
	EQ(p->rps, rps);
	EQ(p->avg_ms, avg);
	EQ(p->min_ms, min);
	EQ(p->p50_ms, p50);
	EQ(p->p95_ms, p95);
	EQ(p->p99_ms, p99);
	EQ(p->max_ms, max);
	cr_assert(isnan(p->target_rps), "no RPS Summary in this build's output");
}

Test(import_valkey, csv_captures)
{
	struct import_result r;

	parse_sample("csv-P1.csv", IMPORT_AUTO, &r);
	cr_assert_eq(r.kind, IMPORT_CSV);
	cr_assert_eq(r.n, 2);
	cr_assert_eq(r.nruns, 1);
	cr_assert_str_eq(r.v[0].test, "SET");
	figures(&r.v[0], 81967.21, 0.353, 0.128, 0.311, 0.607, 1.055, 2.711);
	cr_assert_str_eq(r.v[1].test, "GET");
	figures(&r.v[1], 61919.50, 0.451, 0.136, 0.383, 0.895, 1.295, 7.175);
	/* Its CSV is redis-benchmark 7's, header and all: nothing tells the
	 * program without --from valkey. */
	cr_assert_str_eq(r.runs[0].program, "");
	import_result_free(&r);

	parse_sample("csv-P16.csv", IMPORT_VALKEY, &r);
	cr_assert_eq(r.kind, IMPORT_CSV, "--from valkey reads the form it finds");
	cr_assert_eq(r.n, 2);
	figures(&r.v[0], 689655.19, 0.775, 0.280, 0.511, 2.359, 2.607, 2.719);
	figures(&r.v[1], 769230.75, 0.843, 0.360, 0.783, 1.199, 2.631, 3.319);
	cr_assert_str_eq(r.runs[0].program, "valkey-benchmark");
	cr_assert_str_eq(r.runs[0].version, "");
	import_result_free(&r);
}

Test(import_valkey, full_output_captures)
{
	struct import_result r;

	parse_sample("full-P16.txt", IMPORT_VALKEY, &r);
	cr_assert_eq(r.kind, IMPORT_FULL);
	cr_assert_eq(r.n, 2);
	cr_assert_eq(r.nbad, 0);
	cr_assert_str_eq(r.v[0].test, "SET");
	figures(&r.v[0], 869565.19, 0.677, 0.264, 0.583, 1.263, 1.647, 1.831);
	EQ(r.v[0].seconds, 0.02);
	cr_assert_eq(r.v[0].requests, 20000);
	cr_assert_eq(r.v[0].clients, 50);
	cr_assert_eq(r.v[0].data_size, 3);
	cr_assert_str_eq(r.v[1].test, "GET");
	figures(&r.v[1], 769230.75, 0.842, 0.280, 0.751, 1.407, 2.615, 2.743);
	EQ(r.v[1].seconds, 0.03);
	cr_assert_eq(r.v[1].requests, 20000);
	cr_assert_eq(r.v[1].clients, 50);
	cr_assert_eq(r.v[1].data_size, 3);
	import_result_free(&r);

	/* --threads 2: "multi-thread: yes" and "threads: 2" in each block. */
	parse_sample("full-threads.txt", IMPORT_AUTO, &r);
	cr_assert_eq(r.n, 2);
	figures(&r.v[0], 79681.28, 0.118, 0.024, 0.055, 0.239, 1.551, 5.335);
	figures(&r.v[1], 79681.28, 0.126, 0.024, 0.095, 0.255, 0.967, 4.087);
	for (int i = 0; i < 2; i++) {
		EQ(r.v[i].seconds, 0.25);
		cr_assert_eq(r.v[i].requests, 20000);
		cr_assert_eq(r.v[i].clients, 10);
		cr_assert_eq(r.v[i].data_size, 64);
	}
	import_result_free(&r);
}

Test(import_valkey, quiet_capture)
{
	struct import_result r;

	parse_sample("quiet-P4.txt", IMPORT_AUTO, &r);
	cr_assert_eq(r.kind, IMPORT_QUIET);
	cr_assert_eq(r.n, 2);
	cr_assert_str_eq(r.v[0].test, "SET");
	EQ(r.v[0].rps, 281690.12);
	EQ(r.v[0].p50_ms, 0.359);
	cr_assert_str_eq(r.v[1].test, "GET");
	EQ(r.v[1].rps, 266666.66);
	EQ(r.v[1].p50_ms, 0.359);
	cr_assert(isnan(r.v[1].avg_ms));
	import_result_free(&r);
}

/* A session: the version line, then one command line per depth.  The
 * program, its version, -P, -c, -n and -s come from them. */
Test(import_valkey, session_names_the_program_and_its_runs)
{
	static const double rps[6] = { 75471.70, 87719.30, 188679.25, 183486.25, 303030.31, 289855.09 };
	static const double p50[6] = { 0.071, 0.063, 0.063, 0.063, 0.071, 0.071 };
	struct import_result r;

	parse_sample("session-loop.txt", IMPORT_AUTO, &r);
	cr_assert_eq(r.kind, IMPORT_QUIET);
	cr_assert_eq(r.n, 6);
	cr_assert_eq(r.nruns, 3);
	cr_assert_eq(r.nbad, 0);
	cr_assert_eq(r.nskipped, 5, "the $ version and command lines, and the version");
	for (unsigned k = 0; k < 3; k++) {
		cr_assert_str_eq(r.runs[k].program, "valkey-benchmark");
		cr_assert_str_eq(r.runs[k].version, "255.255.255");
		cr_assert_eq(r.runs[k].pipeline, 1u << k);
		cr_assert(!r.runs[k].pipeline_implied);
		cr_assert_eq(r.runs[k].clients, 10);
		cr_assert_eq(r.runs[k].requests, 20000);
		cr_assert_str_eq(r.runs[k].target, "unix:/tmp/vb/s.sock");
		cr_assert_eq(r.runs[k].cmd_line, 3 + 4 * k);
	}
	for (size_t i = 0; i < 6; i++) {
		cr_assert_str_eq(r.v[i].test, i % 2 ? "GET" : "SET");
		cr_assert_eq(r.v[i].run, i / 2);
		EQ(r.v[i].rps, rps[i]);
		EQ(r.v[i].p50_ms, p50[i]);
	}
	import_result_free(&r);
}

/* Newer valkey-benchmark (src/valkey-benchmark.c at 00e24f06d08e, after
 * its printf formats; not a capture): --rps adds an "RPS Summary:" whose
 * header and figures have the latency summary's shape, and --warmup
 * prefixes the progress with "Warming up".  The RPS figures are kept as
 * such and never taken for latencies. */
Test(import_valkey, rps_summary_is_not_the_latency_summary)
{
	const char *text =
		"valkey-benchmark -t set -n 100000 --rps 50000 --warmup 2\n"
		"Warming up SET: rps=50000.0 (overall: 49800.0) avg_msec=0.101 (overall: 0.102) 1.8 seconds\r"
		"SET: rps=50012.0 (overall: 50001.0) avg_msec=0.099 (overall: 0.100) 99750 requests\r"
		"                                                                                  \r"
		"====== SET ======\n"
		"  100000 requests completed in 2.00 seconds\n"
		"  50 parallel clients\n"
		"  3 bytes payload\n"
		"  keep alive: 1\n"
		"  host configuration \"save\": \n"
		"  host configuration \"appendonly\": no\n"
		"  multi-thread: no\n"
		"\n"
		"RPS Summary:\n"
		"  target RPS: 50000.00\n"
		"  RPS distribution (reqs/sec):\n"
		"          avg       min       p50       p95       p99       max\n"
		"    49876.125 48000.000 50000.000 50176.000 50432.000 50432.000\n"
		"\n"
		"Latency by percentile distribution:\n"
		"0.000% <= 0.031 milliseconds (cumulative count 1)\n"
		"100.000% <= 1.207 milliseconds (cumulative count 100000)\n"
		"\n"
		"Summary:\n"
		"  throughput summary: 49975.01 requests per second\n"
		"  latency summary (msec):\n"
		"          avg       min       p50       p95       p99       max\n"
		"        0.100     0.031     0.095     0.151     0.223     1.207\n";
	struct import_result r;

	parse_text(text, &r);
	cr_assert_eq(r.n, 1);
	cr_assert_eq(r.nbad, 0);
	cr_assert_str_eq(r.runs[0].program, "valkey-benchmark");
	cr_assert_eq(r.runs[0].pipeline, 1);
	EQ(r.v[0].rps, 49975.01);
	EQ(r.v[0].avg_ms, 0.100);
	EQ(r.v[0].min_ms, 0.031);
	EQ(r.v[0].p50_ms, 0.095);
	EQ(r.v[0].p95_ms, 0.151);
	EQ(r.v[0].p99_ms, 0.223);
	EQ(r.v[0].max_ms, 1.207);
	EQ(r.v[0].target_rps, 50000.00);
	EQ(r.v[0].rps_dist[0], 49876.125);
	EQ(r.v[0].rps_dist[1], 48000.0);
	EQ(r.v[0].rps_dist[2], 50000.0);
	EQ(r.v[0].rps_dist[3], 50176.0);
	EQ(r.v[0].rps_dist[4], 50432.0);
	EQ(r.v[0].rps_dist[5], 50432.0);
	import_result_free(&r);
}

/* --cluster: the nodes listed before the tests, and each node's settings
 * in every block (the old form, "Primary 0:", and the new, "Node
 * 0(Primary):"), are no results and no damage. */
Test(import_valkey, cluster_lines)
{
	const char *text =
		"Cluster has 3 primary nodes:\n"
		"\n"
		"Primary 0: 1e6b0bb2b5a33a0a4e2f6c1c8d1b3a2f5e6d7c8b 127.0.0.1:30001\n"
		"Node 1(Primary): 2e6b0bb2b5a33a0a4e2f6c1c8d1b3a2f5e6d7c8b 127.0.0.1:30002\n"
		"Master 2: 3e6b0bb2b5a33a0a4e2f6c1c8d1b3a2f5e6d7c8b 127.0.0.1:30003\n"
		"\n"
		"====== GET ======\n"
		"  100000 requests completed in 0.50 seconds\n"
		"  50 parallel clients\n"
		"  3 bytes payload\n"
		"  keep alive: 1\n"
		"  cluster mode: yes (3 primary)\n"
		"  node [0] configuration:\n"
		"    save: NONE\n"
		"    appendonly: no\n"
		"  multi-thread: yes\n"
		"  threads: 3\n"
		"\n"
		"Summary:\n"
		"  throughput summary: 200000.00 requests per second\n"
		"  latency summary (msec):\n"
		"          avg       min       p50       p95       p99       max\n"
		"        0.200     0.050     0.180     0.300     0.400     0.900\n";
	struct import_result r;

	parse_text(text, &r);
	cr_assert_eq(r.n, 1);
	cr_assert_eq(r.nskipped, 4);
	EQ(r.v[0].rps, 200000.00);
	EQ(r.v[0].max_ms, 0.900);
	import_result_free(&r);
}

/* What the RPS Summary must hold, or the line is named. */
Test(import_valkey, damaged_rps_summary)
{
	const char *text =
		"====== SET ======\n"
		"RPS Summary:\n"
		"  target RPS: 50000.00\n"
		"  RPS distribution (reqs/sec):\n"
		"          avg       min       p50\n"
		"    49876.125 48000.000\n";
	struct import_result r;
	struct rs_err err = { 0 };

	cr_assert_eq(import_parse(text, strlen(text), "rps.txt", IMPORT_AUTO, 0, &r, &err), -1);
	cr_assert(strstr(err.msg, "rps.txt:6: 2 figures under the RPS Summary's header of 3"), "%s",
		  err.msg);
}
