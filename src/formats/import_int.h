/* import_int.h: what the parts of rsweep import's parser share, and
 * nothing another room may use (import.h is the interface): import.c reads
 * the whole input and groups results into runs; import_csv.c, import_quiet.c
 * and import_full.c read a line of --csv, -q and the default output;
 * import_valkey.c what valkey-benchmark adds to them;
 * import_noise.c knows the lines that are not results; import_common.c
 * holds the figures, names and words they all read.  Every function here
 * reads bytes it is given and nothing else. */
#ifndef RS_IMPORT_INT_H
#define RS_IMPORT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "formats/import.h"
#include "results/row.h"

/* The longest line read as it is (longer ones only through their last
 * '\r' segment), and the size of the readers' scratch. */
#define IMPORT_LINE 2048

/* ---- import_common.c ---- */

/* s[0..n) as a finite, non-negative decimal into *out: 0, or -1 with err
 * naming what (as "what 'text' is not a number"). */
int import_number(const char *s, size_t n, const char *what, double *out, struct rs_err *err);
/* p emptied for a result at line: figures NAN, counts -1. */
void import_point_init(struct import_point *p, unsigned line);
/* The title s[0..n) as printed into raw (ROW_STR bytes), cut short. */
void import_raw_title(char *raw, const char *s, size_t n);
/* Whether s[0..n) starts with w. */
int import_prefix(const char *s, size_t n, const char *w);
/* The first w in s[0..n), or NULL. */
const char *import_find(const char *s, size_t n, const char *w);
/* s[0..n) split at blanks into w[i], wl[i] (pointing into s, not
 * terminated): how many words, or max + 1 when there are more than max. */
int import_words(const char *s, size_t n, const char **w, size_t *wl, int max);
/* s[0..n) as a count of at most 15 digits into *out: 0, or -1. */
int import_count(const char *s, size_t n, int64_t *out);
/* Whether the word w[0..n) is s. */
int import_word_is(const char *w, size_t n, const char *s);

/* ---- import_quiet.c ---- */

/* " requests per second", which marks a -q result (and a 6.0 full one). */
extern const char import_rps_words[];

/* The -q result s[0..n) into p (test, rps, p50) and its title as printed
 * into raw (ROW_STR bytes).  0, or -1 with err saying what is wrong. */
int import_quiet_line(const char *s, size_t n, struct import_point *p, char *raw,
		      struct rs_err *err);

/* ---- import_csv.c ---- */

/* What the --csv lines read so far say of the ones to come; zeroed before
 * the first. */
struct import_csv {
	int have_header;
	size_t nf;                /* fields of the header */
	int col[8];               /* field index of test, rps, avg, min, p50, p95, p99, max; -1 */
};

/* The --csv line s[0..n) (at most IMPORT_LINE bytes): 1 with a result in
 * p and its title as printed in raw (ROW_STR bytes), 0 for a header line
 * (kept in c), -1 with err saying what is wrong. */
int import_csv_line(struct import_csv *c, const char *s, size_t n, struct import_point *p,
		    char *raw, struct rs_err *err);

/* ---- import_full.c ---- */

/* A "====== TITLE ======" block of the default output being read. */
struct import_block {
	int open;                 /* inside a "====== TITLE ======" block */
	int ncols;                /* words of the latency summary's header; 0 before it */
	double *col[6];
	int rps_part;             /* in valkey's "RPS Summary:": 1, 2 after its
				   * header, 3 after its figures; else 0 */
	int rps_ncols;            /* words of that part's header */
	double *rps_col[6];
	struct import_point p;
	char raw[ROW_STR];
};

/* Whether s[0..n) is "====== TITLE ======": 1 with the title in t[0..*tn)
 * (pointing into s), else 0. */
int import_block_title(const char *s, size_t n, const char **t, size_t *tn);
/* The line s[0..n) inside block b: 0 for a line of the block, 1 when it
 * completes the result (in b->p), 2 for a line that is no part of a block,
 * -1 with err for a damaged one. */
int import_full_line(struct import_block *b, const char *s, size_t n, struct rs_err *err);

/* ---- import_valkey.c ---- */

/* The programs whose output is read, NULL-ended: "redis-benchmark",
 * "valkey-benchmark". */
extern const char *const import_programs[];

/* The line s[0..n) of block b if it is part of valkey-benchmark's "RPS
 * Summary:" (--rps): 0 when it is (its figures in b->p), 2 when it is no
 * part of it, -1 with err for a damaged one. */
int import_valkey_line(struct import_block *b, const char *s, size_t n, struct rs_err *err);

/* ---- import_noise.c ---- */

/* The facts a redis-benchmark command line shows. */
struct import_cmd {
	unsigned depth;           /* -P; 1 when the line has no -P at all */
	int depth_implied;        /* no -P: redis-benchmark's default, 1 */
	int64_t clients, requests, data_size;
	int version;              /* --version: starts no run */
	int bad_depth;            /* -P followed by a number out of 1..1000000 */
	char depth_text[24];      /* that number as written, cut short */
	/* -h, -p and -s as the target column writes them ("unix:PATH",
	 * "HOST:PORT", "rediss://HOST:PORT" with --tls), redis-benchmark's
	 * defaults for those not given; "" when a word the shell expands
	 * ("$HOST", "$OPTS") may hide them. */
	char target[ROW_STR];
	char program[20];         /* the program it runs (import_programs) */
};

/* Whether s[0..n) holds a redis-benchmark or valkey-benchmark command line: 1 with what it
 * shows in c (0 or -1 where it does not show), else 0. */
int import_command(const char *s, size_t n, struct import_cmd *c);
/* Whether s[0..n) is redis-benchmark's or valkey-benchmark's version line:
 * 1 with the version in v (size bytes) and the program's name in prog
 * (psize bytes), else 0. */
int import_version(const char *s, size_t n, char *v, size_t size, char *prog, size_t psize);
/* Whether s[0..n) is what time(1) prints. */
int import_time_line(const char *s, size_t n);
/* Whether s[0..n) is a line a capture holds around results but that is
 * none (a prompt, "OK", a banner, a warning; not the command line). */
int import_noise(const char *s, size_t n);

#endif
