/* row.h: one measured point, as the sweep writes it and every reader gets it.
 *
 * This is the CSV schema in C.  The first 15 fields are the public contract
 * (csv.c lists the column names); the rest describe where and how the point
 * was measured.  A figure a file did not carry is NAN (doubles) or -1
 * (integers); strings are then empty. */
#ifndef RS_ROW_H
#define RS_ROW_H

#include <stddef.h>
#include <stdint.h>

#define ROW_STR 128

struct rs_row {
	char label[ROW_STR];      /* what this sweep is called: "m1", "tcp" */
	char test[ROW_STR];       /* upper case: GET, LRANGE_100, or a custom name */
	unsigned pipeline;        /* depth: requests in flight per connection */
	int64_t clients;
	int64_t requests;         /* replies counted in the timed window */
	unsigned repeat;          /* 1..K */
	double seconds;           /* timed window, first write to last reply */
	double rps;
	double avg_ms, min_ms, p50_ms, p95_ms, p99_ms, max_ms;
	int64_t errors;           /* error replies among requests */

	double p999_ms;
	int64_t misses;           /* nil replies (a read that found nothing) */
	int64_t server_calls;     /* INFO commandstats delta of the command */
	int64_t order;            /* position in the run order, 1-based */
	int64_t threads;
	int64_t data_size;        /* -d */
	int64_t keyspace;         /* -r, 0 when keys are fixed */
	char mode[16];            /* "lockstep" */
	char target[ROW_STR];     /* unix:/path or host:port */
	char redis_version[32];
	char server_arch[32];     /* arch_bits + multiplexing + uname machine */
	char server_os[ROW_STR];
	char client_cpu[ROW_STR];
	char started_at[32];      /* ISO 8601 UTC */
	double server_cpu_s;      /* used_cpu_user+sys delta over the point */
	double client_cpu_s;      /* rsweep's getrusage delta over the point */
	char first_error[ROW_STR];

	/* Where a row came from, for messages; not a column. */
	const char *src;
	unsigned line;
};

/* A growable array of rows; rows_free() accepts NULL members. */
struct rs_rows {
	struct rs_row *v;
	size_t n, cap;
	char **names;             /* source file names that rows' src point into */
	size_t nnames;
};

/* A row with every optional figure unknown. */
void row_init(struct rs_row *r);
struct rs_row *rows_push(struct rs_rows *rows);
/* Room for more rows without moving the array again (a reader that knows
 * how many lines it holds: growing a large array by doubling copies it,
 * and touches twice the memory). */
void rows_reserve(struct rs_rows *rows, size_t more);
/* Keep name for the rows' lifetime; returns the stored copy. */
const char *rows_add_name(struct rs_rows *rows, const char *name);
void rows_free(struct rs_rows *rows);

#endif
