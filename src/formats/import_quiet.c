/* import_quiet.c: the reader of redis-benchmark -q's lines (import_int.h). */
#include "config.h"

#include <string.h>

#include "formats/import_int.h"

const char import_rps_words[] = " requests per second";

/* "TITLE: 123.45 requests per second[, p50=0.255 msec]" */
int import_quiet_line(const char *s, size_t n, struct import_point *p, char *raw,
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
