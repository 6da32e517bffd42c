/* hist.c: latency histogram merge and percentiles (recording is inline in hist.h). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "hist.h"

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
