/* json_write.c: JSON strings out, for every writer of JSON (report's
 * json, the exports' memtier and valkey records): one escaping rule. */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "base/json.h"
#include "base/num.h"

/* Length of the well-formed UTF-8 sequence s starts with (1 to 4), or 0:
 * RFC 3629's table, so no overlong form, surrogate or code point above
 * U+10FFFF.  Stops at the first byte that does not fit, so never reads
 * past a terminating NUL. */
static size_t json_utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xBF;
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		n = 2;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		n = 3, lo = s[0] == 0xE0 ? 0xA0 : 0x80, hi = s[0] == 0xED ? 0x9F : 0xBF;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		n = 4, lo = s[0] == 0xF0 ? 0x90 : 0x80, hi = s[0] == 0xF4 ? 0x8F : 0xBF;
	else
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	return n;
}

void json_write_str(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', fp);
	while (*p) {
		size_t n = json_utf8_len(p);

		if (n == 0) {
			fputs("\\ufffd", fp);
			p++;
			continue;
		}
		switch (*p) {
		case '"': fputs("\\\"", fp); break;
		case '\\': fputs("\\\\", fp); break;
		case '\n': fputs("\\n", fp); break;
		case '\r': fputs("\\r", fp); break;
		case '\t': fputs("\\t", fp); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(fp, "\\u%04x", *p);
			else
				fwrite(p, 1, n, fp);
		}
		p += n;
	}
	fputc('"', fp);
}

void json_write_num(FILE *fp, const char *key, double v, int prec)
{
	char b[64];

	fputs(",", fp);
	json_write_str(fp, key);
	fputs(":", fp);
	if (isfinite(v)) {
		num_fmt(b, sizeof b, v, prec);
		fputs(b, fp);
	} else {
		fputs("null", fp);
	}
}
