/* import_full.c: the reader of redis-benchmark's default output, one
 * "====== TITLE ======" block at a time (import_int.h). */
#include "config.h"

#include <string.h>

#include "formats/import_int.h"

/* "====== TITLE ======": returns 1 with the title in t[0..*tn). */
int import_block_title(const char *s, size_t n, const char **t, size_t *tn)
{
	if (n < 15 || memcmp(s, "====== ", 7) != 0 || memcmp(s + n - 7, " ======", 7) != 0)
		return 0;
	*t = s + 7;
	*tn = n - 14;
	return 1;
}

/* One line inside a block.  Returns 0 for a line of the block, 1 when the
 * line completes the test's result (in b->p), 2 for a line that is no part
 * of a block, -1 (err set) for a damaged one. */
int import_full_line(struct import_block *b, const char *s, size_t n, struct rs_err *err)
{
	static const char *const skip[] = {
		"keep alive:", "host configuration ", "multi-thread:", "threads:",
		"Latency by percentile distribution:", "Cumulative distribution of latencies:",
		"Summary:", "latency summary (msec):", "pipeline:", "cluster mode:",
		/* --cluster: each node's settings, "node [0] configuration:"
		 * then "save: ..." and "appendonly: ...". */
		"node [", "save:", "appendonly:",
	};
	static const char *const cols[6] = { "avg", "min", "p50", "p95", "p99", "max" };
	struct import_point *p = &b->p;
	double *dst[6] = { &p->avg_ms, &p->min_ms, &p->p50_ms, &p->p95_ms, &p->p99_ms, &p->max_ms };
	const char *w[8];
	size_t wl[8];
	int nw = import_words(s, n, w, wl, 7);
	int64_t v;
	int rc = import_valkey_line(b, s, n, err);

	if (rc != 2)
		return rc;
	for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
		if (import_prefix(s, n, skip[i]))
			return 0;
	/* "50.000% <= 0.191 milliseconds (cumulative count 1036)", and the
	 * older "99.36% <= 1 milliseconds": buckets, not figures of the test. */
	if (nw >= 4 && wl[0] > 1 && w[0][wl[0] - 1] == '%' && import_word_is(w[1], wl[1], "<=") &&
	    import_word_is(w[3], wl[3], "milliseconds"))
		return 0;
	if (nw == 6 && import_word_is(w[1], wl[1], "requests") &&
	    import_word_is(w[2], wl[2], "completed") && import_word_is(w[5], wl[5], "seconds")) {
		if (import_count(w[0], wl[0], &p->requests) < 0)
			return rs_err_set(err, "requests completed '%.*s' is not a count",
					  (int)(wl[0] > 32 ? 32 : wl[0]), w[0]);
		return import_number(w[4], wl[4], "seconds", &p->seconds, err) < 0 ? -1 : 0;
	}
	if (nw == 3 && import_word_is(w[1], wl[1], "parallel") && import_word_is(w[2], wl[2], "clients")) {
		if (import_count(w[0], wl[0], &v) < 0)
			return rs_err_set(err, "parallel clients '%.*s' is not a count",
					  (int)(wl[0] > 32 ? 32 : wl[0]), w[0]);
		p->clients = v;
		return 0;
	}
	if (nw == 3 && import_word_is(w[1], wl[1], "bytes") && import_word_is(w[2], wl[2], "payload")) {
		if (import_count(w[0], wl[0], &v) < 0)
			return rs_err_set(err, "bytes payload '%.*s' is not a count",
					  (int)(wl[0] > 32 ? 32 : wl[0]), w[0]);
		p->data_size = v;
		return 0;
	}
	if (nw == 6 && import_word_is(w[0], wl[0], "throughput") &&
	    import_word_is(w[1], wl[1], "summary:") && import_word_is(w[3], wl[3], "requests") &&
	    import_word_is(w[4], wl[4], "per") && import_word_is(w[5], wl[5], "second"))
		return import_number(w[2], wl[2], "requests per second", &p->rps, err) < 0 ? -1 : 0;
	/* 6.0 and older: the block ends with "N requests per second". */
	if (nw == 4 && import_word_is(w[1], wl[1], "requests") && import_word_is(w[2], wl[2], "per") &&
	    import_word_is(w[3], wl[3], "second"))
		return import_number(w[0], wl[0], "requests per second", &p->rps, err) < 0 ? -1 : 1;
	if (nw >= 1 && nw <= 6 && b->ncols == 0) {
		double *c[6];
		int k;

		for (k = 0; k < nw; k++) {
			int j;

			for (j = 0; j < 6; j++)
				if (import_word_is(w[k], wl[k], cols[j]))
					break;
			if (j == 6)
				break;
			c[k] = dst[j];
		}
		if (k == nw) {
			memcpy(b->col, c, sizeof c);
			b->ncols = nw;
			return 0;
		}
	}
	if (b->ncols > 0 && nw >= 1 && (w[0][0] >= '0' && w[0][0] <= '9')) {
		if (nw != b->ncols)
			return rs_err_set(err, "%d latencies under a header of %d", nw, b->ncols);
		for (int k = 0; k < nw; k++)
			if (import_number(w[k], wl[k], cols[0], b->col[k], err) < 0)
				return -1;
		return 1;
	}
	return 2;
}
