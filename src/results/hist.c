/* hist.c: latency histogram merge, percentiles and the text form that
 * stores it (recording is inline in hist.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/hist.h"

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof *h);
	h->min = UINT64_MAX;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

/* Lowest value of bucket i and its width. */
static void hist_bucket_range(unsigned i, uint64_t *lo, uint64_t *width)
{
	unsigned shift;

	if (i < HIST_SUB) {
		*lo = i;
		*width = 1;
		return;
	}
	shift = i / HIST_SUB - 1;
	*lo = ((uint64_t)HIST_SUB + (i % HIST_SUB)) << shift;
	*width = (uint64_t)1 << shift;
}

uint64_t hist_bucket_mid(unsigned i)
{
	uint64_t lo, width;

	hist_bucket_range(i, &lo, &width);
	return lo + width / 2;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0;

	if (h->count == 0)
		return 0;
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			uint64_t lo, width, mid;

			hist_bucket_range(i, &lo, &width);
			mid = lo + width / 2;
			if (mid < h->min)
				mid = h->min;
			if (mid > h->max)
				mid = h->max;
			return mid;
		}
	}
	return h->max;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0;
}

void hist_encode(const struct hist *h, struct sbuf *b)
{
	sbuf_printf(b, "v1 %llu %llu %llu %llu", (unsigned long long)h->count,
		    (unsigned long long)h->sum, (unsigned long long)(h->count ? h->min : 0),
		    (unsigned long long)h->max);
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (h->bucket[i] != 0)
			sbuf_printf(b, " %u:%llu", i, (unsigned long long)h->bucket[i]);
}

/* One decimal number at *p (before end), then *p past it. */
static int hist_number(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	if (s == end || *s < '0' || *s > '9')
		return -1;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (x > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*p = s;
	*v = x;
	return 0;
}

int hist_decode(const char *s, size_t n, struct hist *h, struct rs_err *err)
{
	const char *p = s, *end = s + n;
	uint64_t head[4], total = 0;
	long last = -1;

	hist_init(h);
	if (n < 3 || memcmp(s, "v1 ", 3) != 0)
		return rs_err_set(err, "histogram: not in the v1 form (\"v1 COUNT SUM MIN MAX ...\")");
	p += 3;
	for (int k = 0; k < 4; k++) {
		if (hist_number(&p, end, &head[k]) < 0 || (k < 3 && (p == end || *p++ != ' ')))
			return rs_err_set(err, "histogram: expected COUNT SUM MIN MAX after v1");
	}
	while (p < end) {
		uint64_t i, c;

		if (*p++ != ' ' || hist_number(&p, end, &i) < 0 || p == end || *p++ != ':' ||
		    hist_number(&p, end, &c) < 0)
			return rs_err_set(err, "histogram: expected INDEX:COUNT");
		if (i >= HIST_BUCKETS)
			return rs_err_set(err, "histogram: bucket %llu is past the last (%u)",
					  (unsigned long long)i, HIST_BUCKETS - 1);
		if ((long)i <= last)
			return rs_err_set(err, "histogram: bucket %llu is out of order",
					  (unsigned long long)i);
		if (c == 0 || total + c < total)
			return rs_err_set(err, "histogram: bucket %llu has a bad count",
					  (unsigned long long)i);
		h->bucket[i] = c;
		total += c;
		last = (long)i;
	}
	if (total != head[0])
		return rs_err_set(err, "histogram: its buckets hold %llu values, COUNT says %llu",
				  (unsigned long long)total, (unsigned long long)head[0]);
	if (head[0] > 0 && head[2] > head[3])
		return rs_err_set(err, "histogram: MIN is above MAX");
	h->count = head[0];
	h->sum = head[1];
	h->min = head[0] ? head[2] : UINT64_MAX;
	h->max = head[3];
	return 0;
}

int hist_equal(const struct hist *a, const struct hist *b)
{
	return a->count == b->count && a->sum == b->sum && a->min == b->min && a->max == b->max &&
	       memcmp(a->bucket, b->bucket, sizeof a->bucket) == 0;
}
