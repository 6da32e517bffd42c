/* import.h: parsers of what redis-benchmark prints, so that results people
 * already have become rsweep rows.
 *
 * Two inputs are read:
 *   --csv  "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms",
 *          "p95_latency_ms","p99_latency_ms","max_latency_ms" (7.x), or the
 *          older "test","rps" form, with or without its header line;
 *   -q     "SET: 99403.58 requests per second, p50=0.255 msec" (6.2+) or
 *          "SET: 99403.58 requests per second" (older), each possibly
 *          preceded on the same line by carriage-return progress output
 *          ("SET: rps=0.0 (overall: nan) avg_msec=nan (overall: nan)\r").
 * Pure parsers: a buffer in, points out; no I/O. */
#ifndef RS_IMPORT_H
#define RS_IMPORT_H

#include <stddef.h>

#include "err.h"
#include "row.h"

enum import_kind { IMPORT_AUTO, IMPORT_CSV, IMPORT_QUIET };

/* One test's result as redis-benchmark printed it.  Unknown figures are NAN. */
struct import_point {
	char test[ROW_STR];       /* normalised: GET, MSET, LPUSH, LRANGE_100 */
	unsigned line;            /* 1-based line in the input */
	double rps;
	double avg_ms, min_ms, p50_ms, p95_ms, p99_ms, max_ms;
};

/* A line that could not be read (kept only with skip_bad). */
struct import_bad {
	unsigned line;
	char reason[200];
};

struct import_result {
	enum import_kind kind;    /* what the input was (never IMPORT_AUTO on success) */
	struct import_point *v;   /* in input order; owned */
	size_t n;
	struct import_bad *bad;   /* owned */
	size_t nbad;
};

/* Parse buf[0..len) named name (for messages) as kind (IMPORT_AUTO: decide
 * from the first non-blank line: a '"' or "test," starts CSV, anything else
 * is -q output).  Blank lines are ignored.  A line that cannot be read fails
 * the parse with "name:line: reason", or with skip_bad is listed in
 * out->bad and skipped.  Input without a single result fails too.  On
 * failure out is empty; on success release it with import_result_free(). */
int import_parse(const char *buf, size_t len, const char *name, enum import_kind kind,
		 int skip_bad, struct import_result *out, struct rs_err *err);
void import_result_free(struct import_result *r);

/* redis-benchmark's test title title[0..n) as an rsweep test name into out:
 * a trailing " (...)" is dropped ("MSET (10 keys)" -> "MSET", "LPUSH
 * (needed to benchmark LRANGE)" -> "LPUSH") and a one-word name is upper
 * cased; a custom command ("set foo bar") is kept as it is.  Returns 0, or
 * -1 (err says why) for an empty, too long or unprintable title. */
int import_test_name(const char *title, size_t n, char *out, size_t size, struct rs_err *err);

#endif
