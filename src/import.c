/* import.c: parsers of what redis-benchmark prints: --csv, -q and the
 * default output, alone or in captures of a terminal or a shell loop. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "import.h"
#include "num.h"
#include "strtab.h"
#include "vec.h"
#include "xalloc.h"

#define IMPORT_MAXF 16
#define IMPORT_LINE 2048

int import_test_name(const char *title, size_t n, char *out, size_t size, struct rs_err *err)
{
	const char *paren;
	int word = 1;

	while (n > 0 && (*title == ' ' || *title == '\t'))
		title++, n--;
	while (n > 0 && (title[n - 1] == ' ' || title[n - 1] == '\t'))
		n--;
	/* "LRANGE_100 (first 100 elements)": the words in brackets describe
	 * the test, they are not its name. */
	if (n > 0 && title[n - 1] == ')') {
		for (paren = title; paren + 1 < title + n; paren++)
			if (paren[0] == ' ' && paren[1] == '(')
				break;
		if (paren + 1 < title + n) {
			n = (size_t)(paren - title);
			while (n > 0 && title[n - 1] == ' ')
				n--;
		}
	}
	if (n == 0)
		return rs_err_set(err, "empty test name");
	if (n >= size)
		return rs_err_set(err, "test name longer than %zu characters", size - 1);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)title[i];

		if (c < 0x20 || c == 0x7f)
			return rs_err_set(err, "test name holds a control character");
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '_'))
			word = 0;
	}
	for (size_t i = 0; i < n; i++) {
		char c = title[i];

		out[i] = word && c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
	}
	out[n] = '\0';
	return 0;
}

/* A figure redis-benchmark printed: a finite, non-negative decimal. */
static int import_number(const char *s, size_t n, const char *what, double *out, struct rs_err *err)
{
	double v;

	if (num_parse_double_n(s, n, &v) < 0)
		return rs_err_set(err, "%s '%.*s' is not a number", what, (int)(n > 32 ? 32 : n), s);
	if (v < 0)
		return rs_err_set(err, "%s '%.*s' is negative", what, (int)(n > 32 ? 32 : n), s);
	*out = v;
	return 0;
}

static void import_point_init(struct import_point *p, unsigned line)
{
	memset(p, 0, sizeof *p);
	p->line = line;
	p->rps = p->avg_ms = p->min_ms = p->p50_ms = NAN;
	p->p95_ms = p->p99_ms = p->max_ms = p->seconds = NAN;
	p->requests = p->clients = p->data_size = -1;
}

/* The title as printed, which tells runs apart: "LPUSH" and "LPUSH (needed
 * to benchmark LRANGE)" are one name but two tests of one run. */
static void import_raw_title(char *raw, const char *s, size_t n)
{
	if (n >= ROW_STR)
		n = ROW_STR - 1;
	memcpy(raw, s, n);
	raw[n] = '\0';
}

/* ---- -q output ---- */

static const char import_rps_words[] = " requests per second";

/* "TITLE: 123.45 requests per second[, p50=0.255 msec]" */
static int import_quiet_line(const char *s, size_t n, struct import_point *p, char *raw,
			     struct rs_err *err)
{
	const char *words = NULL, *num, *rest, *end = s + n;
	size_t wl = sizeof import_rps_words - 1;

	for (const char *q = s; q + wl <= end; q++)
		if (memcmp(q, import_rps_words, wl) == 0) {
			words = q;
			break;
		}
	if (words == NULL) {
		for (const char *q = s; q + 6 <= end; q++)
			if (memcmp(q, ": rps=", 6) == 0)
				return rs_err_set(err, "progress output without a final result "
						  "(an interrupted run?)");
		return rs_err_set(err, "not a redis-benchmark -q result "
				  "(\"TEST: N requests per second\")");
	}
	num = words;
	while (num > s && num[-1] != ' ')
		num--;
	if (num - s < 3 || num[-2] != ':' || num[-1] != ' ')
		return rs_err_set(err, "no \"TEST: \" before the requests per second");
	if (import_number(num, (size_t)(words - num), "requests per second", &p->rps, err) < 0)
		return -1;
	if (import_test_name(s, (size_t)(num - 2 - s), p->test, sizeof p->test, err) < 0)
		return -1;
	import_raw_title(raw, s, (size_t)(num - 2 - s));
	rest = words + wl;
	if (rest == end)
		return 0;
	if ((size_t)(end - rest) > 6 && memcmp(rest, ", p50=", 6) == 0) {
		const char *v = rest + 6, *sp = v;

		while (sp < end && *sp != ' ')
			sp++;
		if (end - sp == 5 && memcmp(sp, " msec", 5) == 0)
			return import_number(v, (size_t)(sp - v), "p50", &p->p50_ms, err);
	}
	return rs_err_set(err, "unexpected text after \"requests per second\": '%.*s'",
			  (int)(end - rest > 40 ? 40 : end - rest), rest);
}

/* ---- --csv output ---- */

struct import_csv {
	int have_header;
	size_t nf;                /* fields of the header */
	int col[8];               /* field index of test, rps, avg, min, p50, p95, p99, max; -1 */
};

static const char *const import_csv_names[8] = {
	"test", "rps", "avg_latency_ms", "min_latency_ms", "p50_latency_ms",
	"p95_latency_ms", "p99_latency_ms", "max_latency_ms",
};

/* Returns 1 for a data point in p, 0 for a header line, -1 on error. */
static int import_csv_line(struct import_csv *c, const char *s, size_t n, struct import_point *p,
			   char *raw, struct rs_err *err)
{
	char scratch[IMPORT_LINE + IMPORT_MAXF + 1];
	struct csv_field f[IMPORT_MAXF];
	double *dst[8] = { NULL, &p->rps, &p->avg_ms, &p->min_ms, &p->p50_ms, &p->p95_ms,
			   &p->p99_ms, &p->max_ms };
	int nf = csv_split_line(s, n, scratch, f, IMPORT_MAXF, err);

	if (nf < 0)
		return -1;
	/* A header may come again: shell loops append one run after another. */
	if (nf >= 2 && strcmp(f[0].s, "test") == 0 && strcmp(f[1].s, "rps") == 0) {
		c->have_header = 1;
		c->nf = (size_t)nf;
		for (int k = 0; k < 8; k++) {
			c->col[k] = -1;
			for (int i = 0; i < nf; i++)
				if (strcmp(f[i].s, import_csv_names[k]) == 0)
					c->col[k] = i;
		}
		return 0;
	}
	if (!c->have_header) {
		/* Headerless: redis-benchmark before 6.2 wrote "test","rps". */
		if (nf != 2 && nf != 8)
			return rs_err_set(err, "%d fields and no header line "
					  "(expected \"test\",\"rps\"[,latencies])", nf);
		for (int k = 0; k < 8; k++)
			c->col[k] = k < nf ? k : -1;
		c->nf = (size_t)nf;
	} else if ((size_t)nf != c->nf) {
		return rs_err_set(err, "%d fields, the header has %zu", nf, c->nf);
	}
	if (import_test_name(f[c->col[0]].s, f[c->col[0]].len, p->test, sizeof p->test, err) < 0)
		return -1;
	import_raw_title(raw, f[c->col[0]].s, f[c->col[0]].len);
	for (int k = 1; k < 8; k++) {
		int i = c->col[k];

		if (i < 0)
			continue;
		if (f[i].len == 0 && k > 1)
			continue; /* an empty latency stays unknown */
		if (import_number(f[i].s, f[i].len, k == 1 ? "rps" : import_csv_names[k], dst[k], err) < 0)
			return -1;
	}
	return 1;
}

/* ---- lines ---- */

/* The text a terminal would show for line s[0..n): what follows the last
 * carriage return that is followed by something other than blanks. */
static void import_visible(const char **s, size_t *n)
{
	const char *start = *s, *end = *s + *n;

	for (;;) {
		const char *seg = end, *q;

		while (seg > start && seg[-1] != '\r')
			seg--;
		for (q = seg; q < end && (*q == ' ' || *q == '\t'); q++)
			;
		if (q < end || seg == start) {
			start = seg;
			break;
		}
		end = seg - 1;    /* a blank segment: look before its '\r' */
	}
	while (start < end && (*start == ' ' || *start == '\t'))
		start++;
	while (end > start && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	*s = start;
	*n = (size_t)(end - start);
}


/* ---- words ---- */

static int import_prefix(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);

	return n >= k && memcmp(s, w, k) == 0;
}

static const char *import_find(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);

	for (const char *q = s; q + k <= s + n; q++)
		if (memcmp(q, w, k) == 0)
			return q;
	return NULL;
}

/* Split s[0..n) at blanks into at most max words; returns their number, or
 * max + 1 when there are more. */
static int import_words(const char *s, size_t n, const char **w, size_t *wl, int max)
{
	int k = 0;
	size_t i = 0;

	for (;;) {
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i == n)
			return k;
		if (k == max)
			return max + 1;
		w[k] = s + i;
		while (i < n && s[i] != ' ' && s[i] != '\t')
			i++;
		wl[k] = (size_t)(s + i - w[k]);
		k++;
	}
}

/* A count redis-benchmark printed or a command line gave: digits only, at
 * most 15 of them.  Returns 0, or -1 for anything else ("$i"). */
static int import_count(const char *s, size_t n, int64_t *out)
{
	int64_t v = 0;

	if (n == 0 || n > 15)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

static int import_word_is(const char *w, size_t n, const char *s)
{
	return strlen(s) == n && memcmp(w, s, n) == 0;
}

/* ---- the default (full) output ---- */

struct import_block {
	int open;                 /* inside a "====== TITLE ======" block */
	int ncols;                /* words of the latency summary's header; 0 before it */
	double *col[6];
	struct import_point p;
	char raw[ROW_STR];
};

/* "====== TITLE ======": returns 1 with the title in t[0..*tn). */
static int import_block_title(const char *s, size_t n, const char **t, size_t *tn)
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
static int import_full_line(struct import_block *b, const char *s, size_t n, struct rs_err *err)
{
	static const char *const skip[] = {
		"keep alive:", "host configuration ", "multi-thread:", "threads:",
		"Latency by percentile distribution:", "Cumulative distribution of latencies:",
		"Summary:", "latency summary (msec):", "pipeline:", "cluster mode:",
	};
	static const char *const cols[6] = { "avg", "min", "p50", "p95", "p99", "max" };
	struct import_point *p = &b->p;
	double *dst[6] = { &p->avg_ms, &p->min_ms, &p->p50_ms, &p->p95_ms, &p->p99_ms, &p->max_ms };
	const char *w[8];
	size_t wl[8];
	int nw = import_words(s, n, w, wl, 7);
	int64_t v;

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

/* ---- lines that are not results ---- */

/* The facts a redis-benchmark command line shows. */
struct import_cmd {
	unsigned depth;           /* -P */
	int64_t clients, requests, data_size;
	int version;              /* --version: starts no run */
	int bad_depth;            /* -P followed by a number out of 1..1000000 */
	char depth_text[24];      /* that number as written, cut short */
};

static int import_all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return n > 0;
}

/* If s[0..n) holds a redis-benchmark command line (typed after a prompt, in
 * script(1)'s COMMAND="...", after time), fill c and return 1.  An option's
 * value that is not a number ("-P $i") is left unknown. */
static int import_command(const char *s, size_t n, struct import_cmd *c)
{
	static const char prog[] = "redis-benchmark";
	const char *q = s, *end = s + n, *w[64];
	size_t k = sizeof prog - 1, wl[64];
	int nw;

	for (;;) {
		q = import_find(q, (size_t)(end - q), prog);
		if (q == NULL)
			return 0;
		if ((q == s || strchr(" /\"'=;(&|", q[-1]) != NULL) &&
		    (q + k == end || strchr(" \"';)&|", q[k]) != NULL))
			break;
		q++;
	}
	q += k;
	/* The command's own words: up to where the shell would end it. */
	for (end = q; end < s + n && strchr(";|&<>\"'`)", *end) == NULL; end++)
		;
	memset(c, 0, sizeof *c);
	c->clients = c->requests = c->data_size = -1;
	nw = import_words(q, (size_t)(end - q), w, wl, 63);
	if (nw > 63)
		nw = 63;
	for (int i = 0; i < nw; i++) {
		int64_t v = 0;
		int have = i + 1 < nw && import_count(w[i + 1], wl[i + 1], &v) == 0;

		if (import_word_is(w[i], wl[i], "--version") || import_word_is(w[i], wl[i], "-v"))
			c->version = 1;
		else if (import_word_is(w[i], wl[i], "-P") && have && v >= 1 && v <= 1000000)
			c->depth = (unsigned)v;
		else if (import_word_is(w[i], wl[i], "-P") && i + 1 < nw &&
			 import_all_digits(w[i + 1], wl[i + 1])) {
			/* redis-benchmark refuses these or runs something else:
			 * recording P=1 for them would be a made-up depth. */
			size_t dk = wl[i + 1] < sizeof c->depth_text ? wl[i + 1] : sizeof c->depth_text - 1;

			c->bad_depth = 1;
			memcpy(c->depth_text, w[i + 1], dk);
			c->depth_text[dk] = '\0';
		} else if (import_word_is(w[i], wl[i], "-c") && have)
			c->clients = v;
		else if (import_word_is(w[i], wl[i], "-n") && have)
			c->requests = v;
		else if (import_word_is(w[i], wl[i], "-d") && have)
			c->data_size = v;
	}
	return 1;
}

/* "redis-benchmark 7.0.15" or "redis-benchmark 7.0.15 (git:...)": returns
 * 1 with the version in v. */
static int import_version(const char *s, size_t n, char *v, size_t size)
{
	const char *w[3];
	size_t wl[3];
	int nw = import_words(s, n, w, wl, 3);

	if (nw < 2 || nw > 3 || !import_word_is(w[0], wl[0], "redis-benchmark") || wl[1] >= size ||
	    w[1][0] < '0' || w[1][0] > '9' || memchr(w[1], '.', wl[1]) == NULL)
		return 0;
	if (nw == 3 && w[2][0] != '(')
		return 0;
	memcpy(v, w[1], wl[1]);
	v[wl[1]] = '\0';
	return 1;
}

/* What time(1) prints: "real 0m33.045s" (bash), "real 0m 53.29s"
 * (busybox), "real 33.04" (-p), or zsh's one line ending in " total". */
static int import_time_line(const char *s, size_t n)
{
	const char *w[4];
	size_t wl[4];
	int nw = import_words(s, n, w, wl, 3);

	if (n > 10 && memcmp(s + n - 6, " total", 6) == 0 && import_find(s, n, "s user ") &&
	    import_find(s, n, " system "))
		return 1;
	if (nw < 2 || nw > 3 || !(import_word_is(w[0], wl[0], "real") ||
				  import_word_is(w[0], wl[0], "user") ||
				  import_word_is(w[0], wl[0], "sys")))
		return 0;
	for (int i = 1; i < nw; i++)
		for (size_t j = 0; j < wl[i]; j++) {
			char ch = w[i][j];

			if (!((ch >= '0' && ch <= '9') || ch == '.' || ch == ',' ||
			      ((ch == 'm' || ch == 's' || ch == 'h') && j > 0)))
				return 0;
		}
	return 1;
}

/* A shell prompt: "root@f8529b27833e:/data# ...", "$ ...", "/usr/local/bin # ...",
 * "> done" (a continuation line). */
static int import_prompt(const char *s, size_t n)
{
	const char *w[2];
	size_t wl[2];
	int nw = import_words(s, n, w, wl, 1);
	char last;

	if (nw < 1)
		return 0;
	last = w[0][wl[0] - 1];
	if (strchr("$#%>", last) != NULL)
		return 1;
	if (nw > 1) {
		nw = import_words(w[0] + wl[0], n - (size_t)(w[0] + wl[0] - s), w + 1, wl + 1, 1);
		/* w[0] is not NUL-terminated (it may end a 2048-byte buffer, or
		 * lie before megabytes of input): look only inside the word. */
		if (nw >= 1 && wl[1] == 1 && strchr("$#%>", w[1][0]) != NULL &&
		    (memchr(w[0], '/', wl[0]) || memchr(w[0], '@', wl[0]) ||
		     memchr(w[0], '~', wl[0]) || memchr(w[0], ':', wl[0])))
			return 1;
	}
	return 0;
}

/* A banner a loop printed between runs: "P=16", "depth: 4", "pipeline 8". */
static int import_banner(const char *s, size_t n)
{
	size_t i = 0;

	if (n > 48)
		return 0;
	if ((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_') {
		while (i < n && s[i] != '=' && s[i] != ' ')
			i++;
		if (i < n && s[i] == '=' && memchr(s, ' ', n) == NULL)
			return 1;
	}
	for (i = 0; i < n && ((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') ||
			      s[i] == ' ' || s[i] == '_' || s[i] == '-'); i++)
		;
	if (i == 0)
		return 0;
	if (i < n && (s[i] == ':' || s[i] == '='))
		i++;
	while (i < n && s[i] == ' ')
		i++;
	if (i == n || s[i] < '0' || s[i] > '9')
		return 0;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i == n;
}

/* Whether s[0..n) is a line a capture holds around results but that is
 * none (the command line is handled before this). */
static int import_noise(const char *s, size_t n)
{
	return (n == 2 && memcmp(s, "OK", 2) == 0) || import_prefix(s, n, "Script started on ") ||
	       import_prefix(s, n, "Script done on ") || import_prefix(s, n, "WARNING: ") ||
	       import_prefix(s, n, "WARN: ") || import_time_line(s, n) || import_prompt(s, n) ||
	       import_banner(s, n);
}

/* Copy s[0..n) into buf without terminal escape sequences (a script(1)
 * capture of an interactive shell holds colour and bracketed-paste codes). */
static size_t import_strip_escapes(const char *s, size_t n, char *buf)
{
	size_t w = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] != '\033') {
			buf[w++] = s[i];
			continue;
		}
		if (i + 1 < n && s[i + 1] == '[') {          /* CSI: ESC [ params final */
			for (i += 2; i < n && !(s[i] >= 0x40 && s[i] <= 0x7e); i++)
				;
		} else if (i + 1 < n && s[i + 1] == ']') {   /* OSC: to BEL or ESC \ */
			for (i += 2; i < n && s[i] != '\a'; i++)
				if (s[i] == '\033' && i + 1 < n && s[i + 1] == '\\') {
					i++;
					break;
				}
		} else if (i + 1 < n) {
			i++;
		}
	}
	return w;
}

/* ---- the whole input ---- */

struct import_state {
	struct import_result *out;
	const char *name;
	int skip_bad;
	struct strtab titles;     /* raw titles of the current run */
	struct import_run next;   /* what the capture shows for the runs to come */
	int new_run;              /* the next point starts a run */
	struct import_block blk;
	struct import_csv csv;
	int csv_seen;
};

static int import_bad_line(struct import_result *out, const char *name, unsigned line,
			   int skip_bad, struct rs_err *lerr, struct rs_err *err)
{
	struct import_bad *b;

	if (!skip_bad)
		return rs_err_set(err, "%s:%u: %s", name, line, lerr->msg);
	out->bad = vec_reserve(out->bad, &out->capbad, out->nbad + 1, sizeof *out->bad, 0);
	b = &out->bad[out->nbad++];
	b->line = line;
	xstrlcpy(b->reason, lerr->msg, sizeof b->reason);
	return 0;
}

/* Add point p, titled raw as printed, read as kind: a title the current run
 * has shown already starts the next run. */
static void import_add(struct import_state *st, struct import_point *p, const char *raw,
		       enum import_kind kind)
{
	struct import_result *out = st->out;
	int added = 1;
	uint32_t id;

	if (!st->new_run && strtab_intern(&st->titles, raw, strlen(raw), &id, &added) < 0)
		abort();   /* past 2^31 titles: more than the input's size allows */
	if (st->new_run || !added) {
		out->runs = vec_reserve(out->runs, &out->capruns, out->nruns + 1, sizeof *out->runs, 0);
		out->runs[out->nruns] = st->next;
		out->runs[out->nruns].line = p->line;
		out->nruns++;
		st->new_run = 0;
		strtab_free(&st->titles);
		if (strtab_intern(&st->titles, raw, strlen(raw), &id, NULL) < 0)
			abort();
	}
	p->run = (unsigned)(out->nruns - 1);
	if (out->kind == IMPORT_AUTO || out->n == 0)
		out->kind = kind;
	out->v = vec_reserve(out->v, &out->cap, out->n + 1, sizeof *out->v, 0);
	out->v[out->n++] = *p;
}

/* End the open block: its result if it has one. */
static int import_block_close(struct import_state *st, struct rs_err *err)
{
	struct import_block *b = &st->blk;
	struct rs_err lerr;

	if (!b->open)
		return 0;
	b->open = 0;
	if (!isnan(b->p.rps)) {
		import_add(st, &b->p, b->raw, IMPORT_FULL);
		return 0;
	}
	rs_err_set(&lerr, "test %s: its block has no requests per second (an interrupted run?)",
		   b->p.test);
	return import_bad_line(st->out, st->name, b->p.line, st->skip_bad, &lerr, err);
}

static void import_skipped(struct import_state *st, unsigned line, const char *s, size_t n)
{
	struct import_result *out = st->out;

	if (out->nskipped++ == 0) {
		size_t k = n < sizeof out->skip_text ? n : sizeof out->skip_text - 1;

		out->skip_line = line;
		memcpy(out->skip_text, s, k);
		out->skip_text[k] = '\0';
		/* What is shown in a message stays one printable line. */
		for (size_t i = 0; i < k; i++)
			if ((unsigned char)out->skip_text[i] < 0x20 || out->skip_text[i] == 0x7f)
				out->skip_text[i] = '?';
	}
}

/* One visible line s[0..n) (not blank).  Returns 0, or -1 (err set) for a
 * bad line without skip_bad. */
static int import_line(struct import_state *st, enum import_kind want, unsigned line,
		       const char *s, size_t n, struct rs_err *err)
{
	struct import_point p;
	struct import_cmd cmd;
	struct rs_err lerr;
	char raw[ROW_STR];
	const char *t;
	size_t tn;
	int rc;

	if (st->blk.open) {
		rc = import_full_line(&st->blk, s, n, &lerr);
		if (rc == 0)
			return 0;
		if (rc == 1) {
			st->blk.open = 0;
			import_add(st, &st->blk.p, st->blk.raw, IMPORT_FULL);
			return 0;
		}
		if (rc < 0)
			return import_bad_line(st->out, st->name, line, st->skip_bad, &lerr, err);
		if (import_block_close(st, err) < 0)
			return -1;
	}
	import_point_init(&p, line);
	if ((want == IMPORT_AUTO || want == IMPORT_FULL) && import_block_title(s, n, &t, &tn)) {
		if (import_test_name(t, tn, p.test, sizeof p.test, &lerr) < 0)
			return import_bad_line(st->out, st->name, line, st->skip_bad, &lerr, err);
		memset(&st->blk, 0, sizeof st->blk);
		st->blk.open = 1;
		st->blk.p = p;
		import_raw_title(st->blk.raw, t, tn);
		return 0;
	}
	if (want == IMPORT_CSV || (want == IMPORT_AUTO &&
				   (s[0] == '"' || import_prefix(s, n, "test,") ||
				    (st->csv_seen && memchr(s, ',', n) != NULL &&
				     !import_find(s, n, import_rps_words))))) {
		if (want == IMPORT_AUTO || s[0] == '"' || memchr(s, ',', n) != NULL) {
			rc = import_csv_line(&st->csv, s, n, &p, raw, &lerr);
			if (rc < 0)
				return import_bad_line(st->out, st->name, line, st->skip_bad, &lerr, err);
			st->csv_seen = 1;
			if (rc == 0) {
				/* Every run prints its header: a new one after results
				 * is the next run. */
				if (st->out->nruns > 0)
					st->new_run = 1;
				return 0;
			}
			import_add(st, &p, raw, IMPORT_CSV);
			return 0;
		}
	}
	if ((want == IMPORT_AUTO || want == IMPORT_QUIET) &&
	    (import_find(s, n, import_rps_words) || import_find(s, n, ": rps="))) {
		if (import_quiet_line(s, n, &p, raw, &lerr) < 0)
			return import_bad_line(st->out, st->name, line, st->skip_bad, &lerr, err);
		import_add(st, &p, raw, IMPORT_QUIET);
		return 0;
	}
	if (import_version(s, n, st->next.version, sizeof st->next.version)) {
		import_skipped(st, line, s, n);
		return 0;
	}
	/* zsh's time line names the command too, but starts no run. */
	if (!import_time_line(s, n) && import_command(s, n, &cmd)) {
		if (cmd.bad_depth) {
			/* Refused even with --skip-bad: the results that follow
			 * would be given some other depth than they were run at. */
			return rs_err_set(err, "%s:%u: redis-benchmark -P %s: a pipeline depth "
					  "must be 1 to 1000000", st->name, line, cmd.depth_text);
		}
		if (!cmd.version) {
			char version[sizeof st->next.version];

			memcpy(version, st->next.version, sizeof version);
			memset(&st->next, 0, sizeof st->next);
			memcpy(st->next.version, version, sizeof version);
			st->next.cmd_line = line;
			st->next.pipeline = cmd.depth;
			st->next.clients = cmd.clients;
			st->next.requests = cmd.requests;
			st->next.data_size = cmd.data_size;
			st->new_run = 1;
		}
		import_skipped(st, line, s, n);
		return 0;
	}
	if (import_noise(s, n)) {
		import_skipped(st, line, s, n);
		return 0;
	}
	if (want == IMPORT_QUIET)
		import_quiet_line(s, n, &p, raw, &lerr);
	else if (want == IMPORT_CSV)
		rs_err_set(&lerr, "not a redis-benchmark --csv line");
	else if (want == IMPORT_FULL)
		rs_err_set(&lerr, "not a line of redis-benchmark's default output");
	else
		rs_err_set(&lerr, "not a redis-benchmark result (-q, --csv or the default output)");
	return import_bad_line(st->out, st->name, line, st->skip_bad, &lerr, err);
}

/* A line longer than the line buffer is accepted when a terminal would
 * show only a short part of it: redis-benchmark rewrites its progress with
 * '\r' several times a second, so a long test leaves one line of many
 * overwritten segments.  Sets s[0..n) to the last segment that shows
 * something (the one import_visible would choose), escapes and all; returns
 * -1 if that segment itself is longer than IMPORT_LINE.  clean is scratch
 * of IMPORT_LINE bytes.  Each byte is looked at a bounded number of times. */
static int import_last_segment(const char **s, size_t *n, char *clean)
{
	const char *start = *s, *end = *s + *n;

	for (;;) {
		const char *seg = end, *t;
		size_t k;

		while (seg > start && seg[-1] != '\r')
			seg--;
		if ((size_t)(end - seg) > IMPORT_LINE)
			return -1;
		t = seg;
		k = (size_t)(end - seg);
		if (memchr(t, '\033', k) != NULL) {
			k = import_strip_escapes(t, k, clean);
			t = clean;
		}
		while (k > 0 && (t[k - 1] == ' ' || t[k - 1] == '\t'))
			k--;
		while (k > 0 && (*t == ' ' || *t == '\t')) {
			t++;
			k--;
		}
		if (k > 0 || seg == start) {
			*s = seg;
			*n = (size_t)(end - seg);
			return 0;
		}
		end = seg - 1;    /* a blank segment: look before its '\r' */
	}
}

int import_parse(const char *buf, size_t len, const char *name, enum import_kind kind,
		 int skip_bad, struct import_result *out, struct rs_err *err)
{
	struct import_state st;
	char *clean = xmalloc(IMPORT_LINE);
	size_t pos = 0;
	unsigned line = 0;

	memset(out, 0, sizeof *out);
	memset(&st, 0, sizeof st);
	st.out = out;
	st.name = name;
	st.skip_bad = skip_bad;
	st.new_run = 1;
	st.next.clients = st.next.requests = st.next.data_size = -1;
	out->kind = kind;
	while (pos < len) {
		const char *s = buf + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		struct rs_err lerr;

		pos += n + (nl != NULL);
		line++;
		if (memchr(s, '\0', n) != NULL) {
			rs_err_set(&lerr, "a NUL byte (not text output of redis-benchmark)");
			if (import_bad_line(out, name, line, skip_bad, &lerr, err) < 0)
				goto fail;
			continue;
		}
		if (n > IMPORT_LINE && import_last_segment(&s, &n, clean) < 0) {
			rs_err_set(&lerr, "line longer than %d characters", IMPORT_LINE);
			if (import_bad_line(out, name, line, skip_bad, &lerr, err) < 0)
				goto fail;
			continue;
		}
		if (memchr(s, '\033', n) != NULL) {
			n = import_strip_escapes(s, n, clean);
			s = clean;
		}
		import_visible(&s, &n);
		if (n == 0)
			continue;
		if (import_line(&st, kind, line, s, n, err) < 0)
			goto fail;
	}
	if (import_block_close(&st, err) < 0)
		goto fail;
	if (out->n == 0) {
		if (out->nbad)
			rs_err_set(err, "%s: no redis-benchmark result in it (%zu unreadable lines, "
				   "the first at line %u: %s)", name, out->nbad, out->bad[0].line,
				   out->bad[0].reason);
		else if (out->nskipped)
			rs_err_set(err, "%s: no redis-benchmark result in it (%zu lines that are not "
				   "results, the first at line %u: '%s')", name, out->nskipped,
				   out->skip_line, out->skip_text);
		else
			rs_err_set(err, "%s: no redis-benchmark result in it", name);
		goto fail;
	}
	strtab_free(&st.titles);
	free(clean);
	return 0;
fail:
	strtab_free(&st.titles);
	free(clean);
	import_result_free(out);
	return -1;
}

void import_result_free(struct import_result *r)
{
	if (r == NULL)
		return;
	free(r->v);
	free(r->bad);
	free(r->runs);
	memset(r, 0, sizeof *r);
}
