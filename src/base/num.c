/* num.c: checked number parsing and locale-proof formatting. */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"

/* A "C" locale object, made once.  uselocale() switches only the calling
 * thread, so engine threads are never affected. */
static locale_t num_c_locale(void)
{
	static locale_t c;

	if (c == (locale_t)0)
		c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	return c;
}

int num_parse_u64(const char *s, uint64_t min, uint64_t max, int allow_suffix,
		  uint64_t *out, struct rs_err *err)
{
	unsigned long long v;
	uint64_t mult = 1;
	char *end;

	if (s == NULL || *s == '\0')
		return rs_err_set(err, "empty value");
	if (*s < '0' || *s > '9')
		return rs_err_set(err, "'%s' is not a non-negative whole number", s);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return rs_err_set(err, "'%s' is too large", s);
	if (allow_suffix && *end != '\0' && end[1] == '\0') {
		switch (*end) {
		case 'k': case 'K': mult = 1000; end++; break;
		case 'm': case 'M': mult = 1000000; end++; break;
		case 'g': case 'G': mult = 1000000000; end++; break;
		default: break;
		}
	}
	if (*end != '\0')
		return rs_err_set(err, "'%s' is not a whole number", s);
	if (v > UINT64_MAX / mult)
		return rs_err_set(err, "'%s' is too large", s);
	v *= mult;
	if (v < min || v > max)
		return rs_err_set(err, "%s is out of range (%llu to %llu)", s,
				  (unsigned long long)min, (unsigned long long)max);
	*out = v;
	return 0;
}

/* Plain decimals of at most 15 digits and no exponent ("123456.789",
 * what CSV files hold): the digits as an integer, divided by a power of
 * ten.  Both are exact doubles, so the one division rounds correctly and
 * the result is strtod's, for a twentieth of its cost.  Returns -1 for
 * anything else, which goes to strtod. */
static int parse_plain_decimal(const char *s, size_t n, double *out)
{
	static const double pow10[16] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	};
	uint64_t m = 0;
	size_t i = 0;
	int neg = 0, digits = 0, frac = -1;

	if (i < n && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	for (; i < n; i++) {
		if (s[i] >= '0' && s[i] <= '9') {
			if (++digits > 15)
				return -1;
			m = m * 10 + (uint64_t)(s[i] - '0');
			if (frac >= 0)
				frac++;
		} else if (s[i] == '.' && frac < 0) {
			frac = 0;
		} else {
			return -1;
		}
	}
	if (digits == 0)
		return -1;
	*out = (double)m / pow10[frac > 0 ? frac : 0];
	if (neg)
		*out = -*out;
	return 0;
}

int num_parse_double_n(const char *s, size_t n, double *out)
{
	char buf[64];
	char *end;
	locale_t old;
	double v;

	if (n == 0 || n >= sizeof buf)
		return -1;
	if (parse_plain_decimal(s, n, out) == 0)
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	/* strtod also takes "inf", "nan" and hex floats: allow only a plain
	 * decimal form: optional sign, digits, '.', exponent. */
	for (size_t i = 0; i < n; i++) {
		char c = buf[i];

		if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' ||
		      c == 'e' || c == 'E'))
			return -1;
	}
	old = uselocale(num_c_locale());
	errno = 0;
	v = strtod(buf, &end);
	uselocale(old);
	if (end != buf + n || errno == ERANGE || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

int num_parse_double(const char *s, double min, double max, double *out,
		     struct rs_err *err)
{
	double v;

	if (s == NULL || *s == '\0')
		return rs_err_set(err, "empty value");
	if (num_parse_double_n(s, strlen(s), &v) < 0)
		return rs_err_set(err, "'%s' is not a number", s);
	if (v < min || v > max)
		return rs_err_set(err, "%s is out of range (%g to %g)", s, min, max);
	*out = v;
	return 0;
}

int num_fmt(char *buf, size_t size, double v, int prec)
{
	locale_t old = uselocale(num_c_locale());
	int n = snprintf(buf, size, "%.*f", prec, v);

	uselocale(old);
	return n;
}

int num_fmt_g(char *buf, size_t size, double v, int prec)
{
	locale_t old = uselocale(num_c_locale());
	int n = snprintf(buf, size, "%.*g", prec, v);

	uselocale(old);
	return n;
}
