/* rates.h: the --rate list syntax, as -P's (depths.h) with suffixes.
 *
 *   50k           one rate: 50,000 requests a second
 *   50k..400k:x2  50k, 100k, 200k, 400k
 *   10k..50k:+10k 10k, 20k, ..., 50k
 *   1k,5k,20k     items joined by commas, in the order given
 *
 * A rate is requests a second over all connections of a point, 1 to
 * RATES_MAX_VALUE, k/M/G (x1000) allowed; a list has at most
 * RATES_MAX_POINTS entries and no duplicates.  No I/O. */
#ifndef RS_RATES_H
#define RS_RATES_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

#define RATES_MAX_POINTS 1024
#define RATES_MAX_VALUE 1000000000ull

struct rate_list {
	uint64_t *v;
	size_t n;
};

/* Parse s into out (replacing what it held).  Returns 0, or -1 with out
 * untouched and err quoting the offending item ("'0': a rate is at least
 * 1 request a second"). */
int rates_parse(const char *s, struct rate_list *out, struct rs_err *err);
void rates_free(struct rate_list *r);

#endif
