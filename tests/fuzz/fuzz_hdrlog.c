/* fuzz_hdrlog.c: libFuzzer target for HdrHistogram logs (hdrlog.c), as
 * memtier_benchmark's --hdr-file-prefix files and rsweep's hlog hold them:
 * base64, zlib and ZigZag counts from anywhere either give a histogram
 * whose buckets add up to its count, or fail in one line, adding nothing. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz.h"
#include "results/hdrlog.h"
#include "results/hist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct hist h;
	struct rs_err err;
	uint64_t sum = 0;
	int rc;

	err.msg[0] = '\0';
	hist_init(&h);
	rc = hdrlog_read_first((const char *)data, size, "fuzz.hgrm", 1000.0, &h, &err);
	fuzz_check_err(rc, &err, 1);
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		sum += h.bucket[i];
	if (sum != h.count)
		abort();
	return 0;
}
