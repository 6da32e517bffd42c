/* test_export_hlog.c: rsweep's .hlog histograms read back by a decoder
 * written here from HdrHistogram's format description, not from the
 * encoder (issue 31): the cookies (masked as HDR's readers mask them),
 * the deflated length, the V2 header (2 significant digits, unit 1 ns),
 * ZigZag LEB128 counts with zero runs, and every count equal to the
 * histogram's. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "results/hdrlog.h"
#include "results/hist.h"
#include "base/sbuf.h"
#include "stats/stats.h"

static uint64_t be(const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* Decode HDR's V2 compressed form of n bytes into counts[HIST_BUCKETS];
 * returns the number of counts the payload held, or -1. */
static long hdr_decode(const unsigned char *p, size_t n, uint64_t *counts)
{
	unsigned char *raw;
	uLongf rawlen = 1 << 20;
	size_t at, end;
	long idx = 0;

	if (n < 8 || (be(p, 4) & ~0xf0u) != 0x1c849304u || be(p + 4, 4) != n - 8)
		return -1;
	raw = malloc(rawlen);
	if (uncompress(raw, &rawlen, p + 8, (uLong)(n - 8)) != Z_OK || rawlen < 40 ||
	    (be(raw, 4) & ~0xf0u) != 0x1c849303u || be(raw + 4, 4) != rawlen - 40 ||
	    be(raw + 8, 4) != 0 || be(raw + 12, 4) != 2 || be(raw + 16, 8) != 1) {
		free(raw);
		return -1;
	}
	memset(counts, 0, HIST_BUCKETS * sizeof *counts);
	end = rawlen;
	for (at = 40; at < end;) {
		uint64_t z = 0;
		int64_t v;
		int shift = 0;

		for (;;) {
			unsigned char b = raw[at++];

			if (shift == 56) {
				z |= (uint64_t)b << 56;
				break;
			}
			z |= (uint64_t)(b & 0x7f) << shift;
			shift += 7;
			if (!(b & 0x80) || at >= end)
				break;
		}
		v = (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
		if (v < 0)
			idx += -v;
		else if (idx < HIST_BUCKETS)
			counts[idx++] = (uint64_t)v;
		else
			idx = -1000000;
	}
	free(raw);
	return idx;
}

static void check_round_trip(const struct hist *h)
{
	static uint64_t counts[HIST_BUCKETS];
	unsigned char *enc;
	size_t n = hdrlog_encode_raw(h, &enc);
	long got = hdr_decode(enc, n, counts);
	unsigned last = 0;

	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (h->bucket[i])
			last = i;
	cr_assert_eq(got, (long)last + 1, "counts decoded %ld, want %u", got, last + 1);
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		cr_assert_eq(counts[i], h->bucket[i], "bucket %u: %llu, want %llu", i,
			     (unsigned long long)counts[i], (unsigned long long)h->bucket[i]);
	free(enc);
}

Test(export_hlog, counts_read_back_bucket_for_bucket)
{
	static struct hist h;
	struct stats_rng r;

	/* Latencies of a point: 50 us to tens of ms, long-tailed, with runs of
	 * empty buckets between. */
	hist_init(&h);
	stats_rng_seed(&r, 5);
	for (int i = 0; i < 200000; i++)
		hist_record_n(&h, (uint64_t)(50000 * exp(1.2 * stats_rng_normal(&r))), 1);
	hist_record_n(&h, 3, 7);                 /* a bucket of its own, below 128 */
	hist_record_n(&h, 1ull << 36, 2);        /* 69 s: near the top */
	check_round_trip(&h);
}

Test(export_hlog, empty_and_single)
{
	static struct hist h;

	hist_init(&h);
	check_round_trip(&h);
	hist_record_n(&h, 1, 1);
	check_round_trip(&h);
	hist_init(&h);
	hist_record_n(&h, (1ull << 38) + 5, 1000000000000ull); /* the top bucket, a huge count */
	check_round_trip(&h);
}

Test(export_hlog, base64_of_rfc_4648)
{
	static const struct { const char *in, *out; } v[] = {
		{ "", "" }, { "f", "Zg==" }, { "fo", "Zm8=" }, { "foo", "Zm9v" },
		{ "foob", "Zm9vYg==" }, { "fooba", "Zm9vYmE=" }, { "foobar", "Zm9vYmFy" },
	};

	for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
		struct sbuf b;

		sbuf_heap(&b);
		hdrlog_base64((const unsigned char *)v[i].in, strlen(v[i].in), &b);
		cr_assert_str_eq(b.s, v[i].out);
		free(b.s);
	}
}
