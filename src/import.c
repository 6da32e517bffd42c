/* import.c: parsers of redis-benchmark --csv and -q output. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "num.h"
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
	p->p95_ms = p->p99_ms = p->max_ms = NAN;
}

/* ---- -q output ---- */

static const char import_rps_words[] = " requests per second";

/* "TITLE: 123.45 requests per second[, p50=0.255 msec]" */
static int import_quiet_line(const char *s, size_t n, struct import_point *p, struct rs_err *err)
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

/* Split one line into fields (RFC 4180 quoting within the line) into
 * scratch; returns the number of fields or -1. */
static int import_csv_split(const char *s, size_t n, char *scratch, char **f, size_t *fl,
			    struct rs_err *err)
{
	size_t i = 0, w = 0;
	int nf = 0;

	for (;;) {
		if (nf == IMPORT_MAXF)
			return rs_err_set(err, "more than %d fields", IMPORT_MAXF);
		f[nf] = scratch + w;
		if (i < n && s[i] == '"') {
			i++;
			for (;;) {
				if (i >= n)
					return rs_err_set(err, "unterminated quoted field");
				if (s[i] == '"') {
					if (i + 1 < n && s[i + 1] == '"') {
						scratch[w++] = '"';
						i += 2;
						continue;
					}
					i++;
					break;
				}
				scratch[w++] = s[i++];
			}
		} else {
			while (i < n && s[i] != ',') {
				if (s[i] == '"')
					return rs_err_set(err, "quote inside an unquoted field");
				scratch[w++] = s[i++];
			}
		}
		fl[nf] = (size_t)(scratch + w - f[nf]);
		scratch[w++] = '\0';
		nf++;
		if (i >= n)
			return nf;
		if (s[i] != ',')
			return rs_err_set(err, "a quoted field followed by '%c'", s[i]);
		i++;
	}
}

/* Returns 1 for a data point in p, 0 for a header line, -1 on error. */
static int import_csv_line(struct import_csv *c, const char *s, size_t n, struct import_point *p,
			   struct rs_err *err)
{
	char scratch[IMPORT_LINE + IMPORT_MAXF];
	char *f[IMPORT_MAXF];
	size_t fl[IMPORT_MAXF];
	double *dst[8] = { NULL, &p->rps, &p->avg_ms, &p->min_ms, &p->p50_ms, &p->p95_ms,
			   &p->p99_ms, &p->max_ms };
	int nf = import_csv_split(s, n, scratch, f, fl, err);

	if (nf < 0)
		return -1;
	/* A header may come again: shell loops append one run after another. */
	if (nf >= 2 && strcmp(f[0], "test") == 0 && strcmp(f[1], "rps") == 0) {
		c->have_header = 1;
		c->nf = (size_t)nf;
		for (int k = 0; k < 8; k++) {
			c->col[k] = -1;
			for (int i = 0; i < nf; i++)
				if (strcmp(f[i], import_csv_names[k]) == 0)
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
	if (import_test_name(f[c->col[0]], fl[c->col[0]], p->test, sizeof p->test, err) < 0)
		return -1;
	for (int k = 1; k < 8; k++) {
		int i = c->col[k];

		if (i < 0)
			continue;
		if (fl[i] == 0 && k > 1)
			continue; /* an empty latency stays unknown */
		if (import_number(f[i], fl[i], k == 1 ? "rps" : import_csv_names[k], dst[k], err) < 0)
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

static enum import_kind import_detect(const char *s, size_t n)
{
	if (n > 0 && s[0] == '"')
		return IMPORT_CSV;
	if (n >= 5 && memcmp(s, "test,", 5) == 0)
		return IMPORT_CSV;
	return IMPORT_QUIET;
}

static int import_bad_line(struct import_result *out, const char *name, unsigned line,
			   int skip_bad, struct rs_err *lerr, struct rs_err *err)
{
	struct import_bad *b;

	if (!skip_bad)
		return rs_err_set(err, "%s:%u: %s", name, line, lerr->msg);
	/* Grow by doubling: capacity is the next power of two above nbad. */
	if ((out->nbad & (out->nbad - 1)) == 0)
		out->bad = xreallocarray(out->bad, out->nbad ? 2 * out->nbad : 1, sizeof *out->bad);
	b = &out->bad[out->nbad++];
	b->line = line;
	xstrlcpy(b->reason, lerr->msg, sizeof b->reason);
	return 0;
}

int import_parse(const char *buf, size_t len, const char *name, enum import_kind kind,
		 int skip_bad, struct import_result *out, struct rs_err *err)
{
	struct import_csv csv = { 0, 0, { 0 } };
	size_t pos = 0;
	unsigned line = 0;

	memset(out, 0, sizeof *out);
	out->kind = kind;
	while (pos < len) {
		const char *s = buf + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		struct import_point p;
		struct rs_err lerr;
		int rc;

		pos += n + (nl != NULL);
		line++;
		if (memchr(s, '\0', n) != NULL) {
			rs_err_set(&lerr, "a NUL byte (not text output of redis-benchmark)");
			if (import_bad_line(out, name, line, skip_bad, &lerr, err) < 0)
				goto fail;
			continue;
		}
		import_visible(&s, &n);
		if (n == 0)
			continue;
		if (out->kind == IMPORT_AUTO)
			out->kind = import_detect(s, n);
		import_point_init(&p, line);
		if (n > IMPORT_LINE)
			rc = rs_err_set(&lerr, "line longer than %d characters", IMPORT_LINE);
		else if (out->kind == IMPORT_CSV)
			rc = import_csv_line(&csv, s, n, &p, &lerr);
		else
			rc = import_quiet_line(s, n, &p, &lerr) < 0 ? -1 : 1;
		if (rc < 0) {
			if (import_bad_line(out, name, line, skip_bad, &lerr, err) < 0)
				goto fail;
			continue;
		}
		if (rc == 0)
			continue;
		if ((out->n & (out->n - 1)) == 0)
			out->v = xreallocarray(out->v, out->n ? 2 * out->n : 1, sizeof *out->v);
		out->v[out->n++] = p;
	}
	if (out->n == 0) {
		if (out->nbad)
			rs_err_set(err, "%s: no redis-benchmark result in it (%zu unreadable lines, "
				   "the first at line %u: %s)", name, out->nbad, out->bad[0].line,
				   out->bad[0].reason);
		else
			rs_err_set(err, "%s: no redis-benchmark result in it", name);
		goto fail;
	}
	return 0;
fail:
	import_result_free(out);
	return -1;
}

void import_result_free(struct import_result *r)
{
	if (r == NULL)
		return;
	free(r->v);
	free(r->bad);
	memset(r, 0, sizeof *r);
}
