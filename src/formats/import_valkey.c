/* import_valkey.c: what valkey-benchmark prints that redis-benchmark does
 * not (import_int.h).  Its --csv, -q and default output are redis-benchmark
 * 7's, line for line (valkey's src/valkey-benchmark.c, showReport); it
 * adds its own name, on its command and version lines, and, in the default
 * output of a run limited by --rps, an "RPS Summary:" between the block's
 * settings and its latency distribution:
 *
 *   RPS Summary:
 *     target RPS: 50000.00
 *     RPS distribution (reqs/sec):
 *             avg       min       p50       p95       p99       max
 *       49876.125 48000.000 50000.000 50176.000 50432.000 50432.000
 *
 * whose figures are the rate sampled every 250 ms, not latencies: read
 * here so that the latency summary's reader never takes them. */
#include "config.h"

#include <string.h>

#include "formats/import_int.h"

const char *const import_programs[] = { "redis-benchmark", "valkey-benchmark", NULL };

/* The words of a figures header ("avg min p50 p95 p99 max") as pointers
 * into p's fields: how many, or 0 when s[0..n) is no such header. */
static int import_valkey_header(const char *const *w, const size_t *wl, int nw,
				struct import_point *p, double **col)
{
	static const char *const names[6] = { "avg", "min", "p50", "p95", "p99", "max" };

	if (nw < 1 || nw > 6)
		return 0;
	for (int k = 0; k < nw; k++) {
		int j;

		for (j = 0; j < 6; j++)
			if (import_word_is(w[k], wl[k], names[j]))
				break;
		if (j == 6)
			return 0;
		col[k] = &p->rps_dist[j];
	}
	return nw;
}

int import_valkey_line(struct import_block *b, const char *s, size_t n, struct rs_err *err)
{
	const char *w[8];
	size_t wl[8];
	int nw = import_words(s, n, w, wl, 7);

	if (import_word_is(s, n, "RPS Summary:")) {
		b->rps_part = 1;
		return 0;
	}
	if (b->rps_part == 1) {
		if (import_prefix(s, n, "target RPS: "))
			return import_number(s + 12, n - 12, "target RPS", &b->p.target_rps, err) < 0
				       ? -1 : 0;
		if (import_word_is(s, n, "RPS distribution (reqs/sec):"))
			return 0;
		if ((b->rps_ncols = import_valkey_header(w, wl, nw, &b->p, b->rps_col)) > 0) {
			b->rps_part = 2;
			return 0;
		}
		return rs_err_set(err, "unexpected line in valkey-benchmark's RPS Summary: '%.*s'",
				  (int)(n > 40 ? 40 : n), s);
	}
	if (b->rps_part == 2) {
		if (nw != b->rps_ncols)
			return rs_err_set(err, "%d figures under the RPS Summary's header of %d", nw,
					  b->rps_ncols);
		for (int k = 0; k < nw; k++)
			if (import_number(w[k], wl[k], "RPS", b->rps_col[k], err) < 0)
				return -1;
		b->rps_part = 3;
		return 0;
	}
	return 2;
}
