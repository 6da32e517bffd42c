/* import_common.c: what every reader of redis-benchmark's output shares:
 * test names, figures and counts, the point a result becomes, and the
 * words of a line (import_int.h). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "formats/import_int.h"
#include "base/num.h"

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
int import_number(const char *s, size_t n, const char *what, double *out, struct rs_err *err)
{
	double v;

	if (num_parse_double_n(s, n, &v) < 0)
		return rs_err_set(err, "%s '%.*s' is not a number", what, (int)(n > 32 ? 32 : n), s);
	if (v < 0)
		return rs_err_set(err, "%s '%.*s' is negative", what, (int)(n > 32 ? 32 : n), s);
	*out = v;
	return 0;
}

void import_point_init(struct import_point *p, unsigned line)
{
	memset(p, 0, sizeof *p);
	p->line = line;
	p->rps = p->avg_ms = p->min_ms = p->p50_ms = NAN;
	p->p95_ms = p->p99_ms = p->max_ms = p->seconds = NAN;
	p->requests = p->clients = p->data_size = -1;
	p->target_rps = NAN;
	for (int k = 0; k < 6; k++)
		p->rps_dist[k] = NAN;
}

/* The title as printed, which tells runs apart: "LPUSH" and "LPUSH (needed
 * to benchmark LRANGE)" are one name but two tests of one run. */
void import_raw_title(char *raw, const char *s, size_t n)
{
	if (n >= ROW_STR)
		n = ROW_STR - 1;
	memcpy(raw, s, n);
	raw[n] = '\0';
}

/* ---- words ---- */

int import_prefix(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);

	return n >= k && memcmp(s, w, k) == 0;
}

const char *import_find(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);

	for (const char *q = s; q + k <= s + n; q++)
		if (memcmp(q, w, k) == 0)
			return q;
	return NULL;
}

/* Split s[0..n) at blanks into at most max words; returns their number, or
 * max + 1 when there are more. */
int import_words(const char *s, size_t n, const char **w, size_t *wl, int max)
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
int import_count(const char *s, size_t n, int64_t *out)
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

int import_word_is(const char *w, size_t n, const char *s)
{
	return strlen(s) == n && memcmp(w, s, n) == 0;
}
