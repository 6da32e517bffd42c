/* test_pubsub_msg.c: a published message's stamp both ways, and a
 * subscriber's streams: messages in order, out of order, missing and
 * received twice, each counted once as what it is (issue 47). */
#include "config.h"

#include <criterion/criterion.h>
#include <string.h>

#include "engine/pubsub_msg.h"

Test(pubsub_msg, stamp_round_trip)
{
	char buf[PUBSUB_STAMP_LEN + 8];
	struct pubsub_stamp in = { 0x0123456789abcdefULL, 0xfeedbeefu, 0xffffffffffffffffULL }, out;

	memset(buf, 'x', sizeof buf);
	pubsub_stamp_put(buf, &in);
	cr_assert_eq(memcmp(buf, "rsps0123456789abcdeffeedbeefffffffffffffffff", PUBSUB_STAMP_LEN), 0,
		     "%.*s", PUBSUB_STAMP_LEN, buf);
	cr_assert_eq(buf[PUBSUB_STAMP_LEN], 'x', "the stamp wrote past its bytes");
	cr_assert_eq(pubsub_stamp_get(buf, sizeof buf, &out), 0);
	cr_assert_eq(out.sent_ns, in.sent_ns);
	cr_assert_eq(out.publisher, in.publisher);
	cr_assert_eq(out.seq, in.seq);
	in = (struct pubsub_stamp){ 0, 0, 0 };
	pubsub_stamp_put(buf, &in);
	cr_assert_eq(pubsub_stamp_get(buf, PUBSUB_STAMP_LEN, &out), 0);
	cr_assert_eq(out.sent_ns + out.publisher + out.seq, 0);
}

Test(pubsub_msg, not_a_stamp)
{
	char buf[PUBSUB_STAMP_LEN];
	struct pubsub_stamp s = { 1, 2, 3 }, out;

	pubsub_stamp_put(buf, &s);
	cr_assert_eq(pubsub_stamp_get(buf, PUBSUB_STAMP_LEN - 1, &out), -1, "too short");
	buf[0] = 'R';
	cr_assert_eq(pubsub_stamp_get(buf, sizeof buf, &out), -1, "another magic");
	buf[0] = 'r';
	buf[10] = 'G';
	cr_assert_eq(pubsub_stamp_get(buf, sizeof buf, &out), -1, "not hex");
	buf[10] = 'A';
	cr_assert_eq(pubsub_stamp_get(buf, sizeof buf, &out), -1, "upper-case hex is not ours");
	cr_assert_eq(pubsub_stamp_get("xxxx", 4, &out), -1);
}

Test(pubsub_msg, in_order)
{
	struct pubsub_stream st = { 0 };

	for (uint64_t i = 0; i < 1000; i++)
		cr_assert_eq(pubsub_stream_add(&st, i), 1);
	cr_assert_eq(st.distinct, 1000);
	cr_assert_eq(st.dup, 0);
	cr_assert_eq(pubsub_stream_gaps(&st), 0);
	cr_assert_null(st.bits, "in order needs no bits");
	pubsub_stream_free(&st);
	pubsub_stream_free(NULL);
}

Test(pubsub_msg, out_of_order_gaps_and_dups)
{
	struct pubsub_stream st = { 0 };
	/* 0..9 with 3 and 7 late, 5 twice, 8 never, 12 before 10 and 11. */
	const uint64_t seq[] = { 0, 1, 2, 4, 5, 5, 6, 3, 9, 12, 10, 7, 11, 3, 0 };
	const int fresh[] = { 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0 };

	for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++)
		cr_assert_eq(pubsub_stream_add(&st, seq[i]), fresh[i], "message %zu (seq %llu)", i,
			     (unsigned long long)seq[i]);
	cr_assert_eq(st.distinct, 12, "distinct %llu", (unsigned long long)st.distinct);
	cr_assert_eq(st.dup, 3);
	cr_assert_eq(st.hi, 13);
	cr_assert_eq(st.next, 8, "8 is still missing");
	cr_assert_eq(pubsub_stream_gaps(&st), 1);
	/* It comes late after all: no gap, nothing pending. */
	cr_assert_eq(pubsub_stream_add(&st, 8), 1);
	cr_assert_eq(st.next, 13);
	cr_assert_eq(pubsub_stream_gaps(&st), 0);
	cr_assert_eq(pubsub_stream_add(&st, 8), 0);
	cr_assert_eq(st.dup, 4);
	/* In order again after a gap closed: the bits start afresh. */
	cr_assert_eq(pubsub_stream_add(&st, 13), 1);
	cr_assert_eq(pubsub_stream_add(&st, 15), 1);
	cr_assert_eq(pubsub_stream_add(&st, 15), 0);
	cr_assert_eq(pubsub_stream_add(&st, 14), 1);
	cr_assert_eq(st.next, 16);
	cr_assert_eq(st.distinct, 16);
	pubsub_stream_free(&st);
}

/* A long run after an early gap: the bits move down, counts stay exact,
 * and memory stays near the span of the gap, not of the run. */
Test(pubsub_msg, long_run_after_a_gap)
{
	struct pubsub_stream st = { 0 };
	const uint64_t n = 200000;

	cr_assert_eq(pubsub_stream_add(&st, 0), 1);
	for (uint64_t i = 2; i < n; i++)
		cr_assert_eq(pubsub_stream_add(&st, i), 1);
	cr_assert_eq(pubsub_stream_gaps(&st), 1);
	cr_assert_eq(st.next, 1);
	/* Twice, far behind and near the front. */
	cr_assert_eq(pubsub_stream_add(&st, 5), 0);
	cr_assert_eq(pubsub_stream_add(&st, n - 1), 0);
	cr_assert_eq(pubsub_stream_add(&st, 1), 1);
	cr_assert_eq(st.next, n);
	cr_assert_eq(st.distinct, n);
	cr_assert_eq(st.dup, 2);
	cr_assert_eq(pubsub_stream_gaps(&st), 0);
	/* Later gaps, with the bits moved down in between. */
	for (uint64_t i = n + 1; i < 3 * n; i += 2)
		cr_assert_eq(pubsub_stream_add(&st, i), 1);
	cr_assert_eq(pubsub_stream_gaps(&st), n);
	for (uint64_t i = n; i < 3 * n; i += 2)
		cr_assert_eq(pubsub_stream_add(&st, i), 1);
	cr_assert_eq(pubsub_stream_gaps(&st), 0);
	cr_assert_eq(st.next, 3 * n);
	cr_assert_eq(st.distinct, 3 * n);
	pubsub_stream_free(&st);
}
