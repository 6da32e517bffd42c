/* test_job.c: one builder from a test to the engine's job (job.h), and the
 * memory rule on a job, from tests the workload builds (no socket). */
#include "config.h"

#include <criterion/criterion.h>
#include <string.h>

#include "workload/job.h"
#include "workload/workload.h"

static const struct job_point point = {
	.keyspace = 1000, .seed = 3, .depth = 16, .mode = ENGINE_LOCKSTEP, .requests = 100,
	.timeout = 5, .data_size = 3,
};

Test(job, a_plain_test_is_its_command)
{
	struct workload w = { 0 };
	struct rs_err err = { 0 };
	struct job j;

	cr_assert_eq(workload_select("get", 3, &w, &err), 0, "%s", err.msg);
	job_build(&w.v[0], &point, &j);
	cr_assert_null(j.e.members);
	cr_assert_eq(j.e.cmd, w.v[0].cmd);
	cr_assert_eq(j.e.nrand, 1);
	cr_assert_eq(j.e.depth, 16);
	cr_assert_eq(j.e.keyspace, 1000);
	cr_assert_eq(j.e.max_reply, workload_max_reply(3));
	cr_assert_not(j.e.transaction);
	workload_free(&w);
}

/* A mix: its members with their weights; with sized values a plain test
 * is a mix of one, its value where the test says. */
Test(job, a_mix_and_sized_values_are_members)
{
	struct workload w = { 0 };
	struct rs_err err = { 0 };
	struct job_point sized = point;
	struct job j;

	cr_assert_eq(workload_select("mix:get=3,set=1,set", 3, &w, &err), 0, "%s", err.msg);
	job_build(&w.v[0], &point, &j);
	cr_assert_eq(j.e.members, j.members);
	cr_assert_eq(j.e.nmembers, 2);
	cr_assert_eq(j.members[0].weight, 3);
	cr_assert_eq(j.members[1].weight, 1);
	cr_assert_eq(j.members[1].cmd, w.v[0].members[1].cmd);
	sized.vmin = 10;
	sized.vmax = 100;
	job_build(&w.v[1], &sized, &j);
	cr_assert_eq(j.e.nmembers, 1);
	cr_assert_eq(j.members[0].value_at, w.v[1].value_at);
	cr_assert_eq(j.members[0].value_end, w.v[1].value_end);
	cr_assert_eq(j.e.vmax, 100);
	workload_free(&w);
}

/* A sequence is one request of all its commands; with MULTI first and
 * EXEC last, a transaction. */
Test(job, a_sequence_and_a_transaction)
{
	char *argv[] = { "SET", "k", "v", ";", "GET", "k" };
	struct workload w = { 0 };
	struct rs_err err = { 0 };
	struct job j;

	cr_assert_eq(workload_sequence(6, argv, 3, 1, &w, &err), 0, "%s", err.msg);
	job_build(&w.v[0], &point, &j);
	cr_assert_null(j.e.members);
	cr_assert_eq(j.e.replies, 4);
	cr_assert(j.e.transaction);
	workload_free(&w);
	cr_assert_eq(workload_sequence(6, argv, 3, 0, &w, &err), 0, "%s", err.msg);
	job_build(&w.v[0], &point, &j);
	cr_assert_eq(j.e.replies, 2);
	cr_assert_not(j.e.transaction);
	workload_free(&w);
}

/* The memory rule sees the job: a mix of 16 MB values at depth 100 over
 * 64 connections as a plain SET of them (issue 40, D1). */
Test(job, the_memory_rule_sees_a_mix)
{
	struct workload w = { 0 };
	struct rs_err err = { 0 };
	struct job_point p = point;
	struct job j;

	cr_assert_eq(workload_select("mix:set=1,get=1,set", 16777216, &w, &err), 0, "%s", err.msg);
	/* -r: each connection its own batches, the mix's always. */
	p.depth = 100;
	for (size_t i = 0; i < 2; i++) {
		job_build(&w.v[i], &p, &j);
		cr_assert_gt(job_memory(&j.e, 64, 1), (uint64_t)100 << 30, "%s", w.v[i].name);
		cr_assert_eq(job_memory_check(&j.e, w.v[i].name, 64, 1, WORKLOAD_MEMORY_MAX, &err),
			     -1);
		cr_assert_eq(err.kind, RS_E_INPUT);
		cr_assert(strstr(err.msg, "at depth 100 with 64 connections needs about") != NULL,
			  "%s", err.msg);
	}
	/* One connection at depth 1 fits. */
	p.depth = 1;
	job_build(&w.v[0], &p, &j);
	cr_assert_eq(job_memory_check(&j.e, w.v[0].name, 1, 1, WORKLOAD_MEMORY_MAX, &err), 0,
		     "%s", err.msg);
	workload_free(&w);
}

/* -t publish: the channel's digits and the stamp's place in the
 * command, no key drawn (the engine writes the channel), the subscribers
 * the point's; every connection its own batches (each message stamped);
 * without -t it is not among the tests; SPUBLISH is sharded (issue 47). */
Test(job, publish_to_subscribers)
{
	struct workload w = { 0 };
	struct rs_err err = { 0 };
	struct job_point p = point;
	struct job j;
	const char *want = "*3\r\n$7\r\nPUBLISH\r\n$22\r\nrsweep:ch:__rand_int__\r\n$44\r\n";

	p.subscribers = 6;
	p.channels = 3;
	cr_assert_eq(workload_select("publish,spublish", 3, &w, &err), 0, "%s", err.msg);
	cr_assert_eq(w.n, 2);
	job_build(&w.v[0], &p, &j);
	cr_assert_eq(memcmp(w.v[0].cmd, want, strlen(want)), 0, "%.*s", (int)w.v[0].len, w.v[0].cmd);
	cr_assert_eq(w.v[0].len, strlen(want) + 44 + 2, "a 3-byte -d is a stamp long");
	cr_assert_eq(w.v[0].key_rand + w.v[0].key_fixed + w.v[0].key_multi, 0, "a channel is no key");
	cr_assert_not_null(j.e.pubsub);
	cr_assert_eq(j.e.keyspace, 0);
	cr_assert_eq(j.pubsub.subscribers, 6);
	cr_assert_eq(j.pubsub.channels, 3);
	cr_assert_not(j.pubsub.sharded);
	cr_assert_eq(memcmp(w.v[0].cmd + j.pubsub.chan_off, "__rand_int__", 12), 0);
	cr_assert_eq(j.pubsub.stamp_off, strlen(want));
	cr_assert_eq(job_memory(&j.e, 10, 1), (uint64_t)w.v[0].len * (1 + 10 * 16));
	job_build(&w.v[1], &p, &j);
	cr_assert(j.pubsub.sharded);
	cr_assert_eq(memcmp(w.v[1].cmd + j.pubsub.chan_off, "__rand_int__", 12), 0);
	workload_free(&w);
	/* Only by name. */
	cr_assert_eq(workload_select(NULL, 3, &w, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < w.n; i++)
		cr_assert_not(w.v[i].pubsub, "%s", w.v[i].name);
	workload_free(&w);
	/* Not a mix's member. */
	cr_assert_eq(workload_select("mix:get=1,publish=1", 3, &w, &err), -1);
	cr_assert(strstr(err.msg, "a mix has no subscribers") != NULL, "%s", err.msg);
}
