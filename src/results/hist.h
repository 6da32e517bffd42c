/* hist.h: a log-linear latency histogram.
 *
 * Values are nanoseconds.  Below 2^HIST_SUB_BITS ns every value has its own
 * bucket; above, each power of two is cut into 2^HIST_SUB_BITS buckets, so a
 * bucket's midpoint is within 1/2^(HIST_SUB_BITS+1) (0.4%) of any value in
 * it: well inside 1% from 1 us to 60 s.  Values past the top bucket (about
 * 2^38 ns, 275 s) land in it; min, max and the sum are kept exactly.
 * Recording is a few shifts and an add; merging is a loop of adds. */
#ifndef RS_HIST_H
#define RS_HIST_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/sbuf.h"

#define HIST_SUB_BITS 7
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_TOP_BIT 37
#define HIST_BUCKETS ((HIST_TOP_BIT - HIST_SUB_BITS + 2) * HIST_SUB)

struct hist {
	uint64_t count;
	uint64_t sum;             /* ns; 2^64 ns is 584 years */
	uint64_t min, max;
	uint64_t bucket[HIST_BUCKETS];
};

void hist_init(struct hist *h);

static inline unsigned hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < HIST_SUB)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	if (msb > HIST_TOP_BIT)
		return HIST_BUCKETS - 1;
	shift = msb - HIST_SUB_BITS;
	/* (shift + 1) * SUB groups the power of two; the top bits below the MSB
	 * pick the bucket inside it. */
	return (shift + 1) * HIST_SUB + (unsigned)((v >> shift) & (HIST_SUB - 1));
}

/* Record n values of v ns (n replies that arrived together). */
static inline void hist_record_n(struct hist *h, uint64_t v, uint64_t n)
{
	h->bucket[hist_index(v)] += n;
	h->count += n;
	h->sum += v * n;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/* dst += src. */
void hist_merge(struct hist *dst, const struct hist *src);
/* The value at percentile p (0 < p <= 100): the midpoint of the bucket that
 * holds the ceil(p/100 * count)-th smallest value, kept within [min, max].
 * 0 for an empty histogram. */
uint64_t hist_percentile(const struct hist *h, double p);
/* The midpoint of bucket i (< HIST_BUCKETS), the value hist_percentile
 * gives for it before clamping to [min, max]. */
uint64_t hist_bucket_mid(unsigned i);
/* Mean in ns, 0 when empty. */
double hist_mean(const struct hist *h);

/* The text form that stores a histogram so that it merges exactly:
 * "v1 COUNT SUM MIN MAX" then "INDEX:N" for each non-empty bucket in
 * ascending order (decimal, one space apart; MIN and MAX 0 when empty).
 * Appended to b. */
void hist_encode(const struct hist *h, struct sbuf *b);
/* Parse n bytes of s, in that form, into h.  Fails (err says what, no
 * position: the caller adds file and line) on anything else: an unknown
 * version, a bucket out of range or out of order, counts that do not add
 * up to COUNT, MIN above MAX. */
int hist_decode(const char *s, size_t n, struct hist *h, struct rs_err *err);
/* Whether a and b hold the same values: counts, sum, min, max, buckets. */
int hist_equal(const struct hist *a, const struct hist *b);

#endif
