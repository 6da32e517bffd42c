/* xml_check.h: a small XML 1.0 well-formedness check for the tests of the
 * SVG back-end (CI has no xmllint unless installed): UTF-8 of XML's
 * characters only, one root element, tags balanced and matching,
 * attributes quoted and unique, '<' never in text or a value, '&' only as
 * a known entity or a character reference to an allowed character,
 * comments, processing instructions and the XML declaration where they
 * may be.  No DTD: an SVG needs none and rsweep writes none.
 *
 * xml_check(buf, n, why, whysize): 0 when well-formed, else -1 and why
 * says what and at which byte. */
#ifndef RS_XML_CHECK_H
#define RS_XML_CHECK_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct xml_scan {
	const unsigned char *p, *end, *start;
	char *why;
	size_t whysize;
};

static int xml_fail(struct xml_scan *x, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(x->why, x->whysize, "byte %zu: ", (size_t)(x->p - x->start));

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < x->whysize)
		vsnprintf(x->why + n, x->whysize - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static int xml_char_ok(uint32_t c)
{
	return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
	       (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

/* The whole buffer: strict UTF-8, XML characters only. */
static int xml_utf8(struct xml_scan *x)
{
	for (const unsigned char *q = x->p; q < x->end;) {
		uint32_t c, min;
		int n;

		if (*q < 0x80)
			c = *q, n = 0, min = 0;
		else if (*q >= 0xC2 && *q <= 0xDF)
			c = *q & 0x1F, n = 1, min = 0x80;
		else if ((*q & 0xF0) == 0xE0)
			c = *q & 0x0F, n = 2, min = 0x800;
		else if (*q >= 0xF0 && *q <= 0xF4)
			c = *q & 0x07, n = 3, min = 0x10000;
		else
			goto bad;
		if (x->end - q <= n)
			goto bad;
		for (int i = 1; i <= n; i++) {
			if ((q[i] & 0xC0) != 0x80)
				goto bad;
			c = c << 6 | (q[i] & 0x3F);
		}
		if (c < min || !xml_char_ok(c))
			goto bad;
		q += n + 1;
		continue;
bad:
		x->p = q;
		return xml_fail(x, "not UTF-8, or a character XML forbids (0x%02x)", *q);
	}
	return 0;
}

static int xml_name_start(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' || c >= 0x80;
}

static int xml_name_char(unsigned char c)
{
	return xml_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

static int xml_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The length of the name at p (before end), 0 when there is none. */
static size_t xml_name_len(const unsigned char *p, const unsigned char *end)
{
	const unsigned char *q = p;

	if (q >= end || !xml_name_start(*q))
		return 0;
	while (q < end && xml_name_char(*q))
		q++;
	return (size_t)(q - p);
}

static size_t xml_name(struct xml_scan *x)
{
	return xml_name_len(x->p, x->end);
}

/* A reference at x->p ('&'), stepped over. */
static int xml_ref(struct xml_scan *x)
{
	static const char *const ents[] = { "amp;", "lt;", "gt;", "quot;", "apos;" };
	const unsigned char *q = x->p + 1;
	uint32_t c = 0;
	int hex, digits = 0;

	for (size_t i = 0; i < sizeof ents / sizeof ents[0]; i++)
		if ((size_t)(x->end - q) >= strlen(ents[i]) && memcmp(q, ents[i], strlen(ents[i])) == 0) {
			x->p = q + strlen(ents[i]);
			return 0;
		}
	if (q >= x->end || *q != '#')
		return xml_fail(x, "'&' that is not a reference");
	q++;
	hex = q < x->end && *q == 'x';
	q += hex;
	for (; q < x->end && *q != ';'; q++, digits++) {
		int d = *q >= '0' && *q <= '9' ? *q - '0' : hex && *q >= 'a' && *q <= 'f' ? *q - 'a' + 10 :
			hex && *q >= 'A' && *q <= 'F' ? *q - 'A' + 10 : -1;

		if (d < 0 || digits > 8)
			return xml_fail(x, "a bad character reference");
		c = c * (hex ? 16 : 10) + (uint32_t)d;
	}
	if (q >= x->end || digits == 0 || !xml_char_ok(c))
		return xml_fail(x, "a bad character reference");
	x->p = q + 1;
	return 0;
}

/* Skip to past the text until (a comment's or PI's end). */
static int xml_skip_to(struct xml_scan *x, const char *until, const char *what)
{
	size_t n = strlen(until);

	for (; x->p + n <= x->end; x->p++)
		if (memcmp(x->p, until, n) == 0) {
			x->p += n;
			return 0;
		}
	return xml_fail(x, "%s not closed", what);
}

/* A start or empty tag at x->p ('<' + name); pushes the name unless empty. */
static int xml_tag(struct xml_scan *x, const unsigned char **stack, size_t *depth, size_t max)
{
	const unsigned char *attrs[64];
	size_t alen[64], na = 0, n;
	const unsigned char *name;

	x->p++;
	name = x->p;
	if ((n = xml_name(x)) == 0)
		return xml_fail(x, "'<' not followed by a name");
	x->p += n;
	for (;;) {
		int sp = 0;
		unsigned char q;

		while (x->p < x->end && xml_space(*x->p))
			x->p++, sp = 1;
		if (x->p >= x->end)
			return xml_fail(x, "a tag not closed");
		if (*x->p == '>' || (*x->p == '/' && x->p + 1 < x->end && x->p[1] == '>'))
			break;
		if (!sp || (n = xml_name(x)) == 0)
			return xml_fail(x, "junk in a tag");
		for (size_t i = 0; i < na; i++)
			if (alen[i] == n && memcmp(attrs[i], x->p, n) == 0)
				return xml_fail(x, "attribute %.*s given twice", (int)n, x->p);
		if (na < 64)
			attrs[na] = x->p, alen[na++] = n;
		x->p += n;
		while (x->p < x->end && xml_space(*x->p))
			x->p++;
		if (x->p >= x->end || *x->p != '=')
			return xml_fail(x, "an attribute without '='");
		x->p++;
		while (x->p < x->end && xml_space(*x->p))
			x->p++;
		if (x->p >= x->end || (*x->p != '"' && *x->p != '\''))
			return xml_fail(x, "an attribute value not quoted");
		q = *x->p++;
		while (x->p < x->end && *x->p != q) {
			if (*x->p == '<')
				return xml_fail(x, "'<' in an attribute value");
			if (*x->p == '&') {
				if (xml_ref(x) < 0)
					return -1;
			} else {
				x->p++;
			}
		}
		if (x->p >= x->end)
			return xml_fail(x, "an attribute value not closed");
		x->p++;
	}
	if (*x->p == '/') {
		x->p += 2;
		return 0;
	}
	x->p++;
	if (*depth == max)
		return xml_fail(x, "nested too deep");
	stack[(*depth)++] = name;
	return 0;
}

static int xml_check(const char *buf, size_t size, char *why, size_t whysize)
{
	enum { MAXD = 256 };
	const unsigned char *stack[MAXD];
	size_t depth = 0;
	int roots = 0;
	struct xml_scan x = { (const unsigned char *)buf, (const unsigned char *)buf + size,
			      (const unsigned char *)buf, why, whysize };

	why[0] = '\0';
	if (xml_utf8(&x) < 0)
		return -1;
	if (size >= 5 && memcmp(buf, "<?xml", 5) == 0 && xml_skip_to(&x, "?>", "the declaration") < 0)
		return -1;
	while (x.p < x.end) {
		if (*x.p != '<') {
			if (depth == 0 && !xml_space(*x.p))
				return xml_fail(&x, "text outside the root element");
			if (*x.p == '&') {
				if (xml_ref(&x) < 0)
					return -1;
				continue;
			}
			if (*x.p == '>' && x.p - x.start >= 2 && x.p[-1] == ']' && x.p[-2] == ']')
				return xml_fail(&x, "']]>' in text");
			x.p++;
			continue;
		}
		if (x.end - x.p >= 4 && memcmp(x.p, "<!--", 4) == 0) {
			x.p += 4;
			if (xml_skip_to(&x, "-->", "a comment") < 0)
				return -1;
		} else if (x.end - x.p >= 2 && x.p[1] == '?') {
			if (x.end - x.p >= 5 && memcmp(x.p + 2, "xml", 3) == 0 && !xml_name_char(x.p[5]))
				return xml_fail(&x, "an XML declaration not at the start");
			if (xml_skip_to(&x, "?>", "a processing instruction") < 0)
				return -1;
		} else if (x.end - x.p >= 2 && x.p[1] == '!') {
			return xml_fail(&x, "a DTD, CDATA or other markup this check does not take");
		} else if (x.end - x.p >= 2 && x.p[1] == '/') {
			size_t n, no;
			const unsigned char *open;

			x.p += 2;
			n = xml_name(&x);
			if (depth == 0)
				return xml_fail(&x, "an end tag with no element open");
			open = stack[depth - 1];
			no = xml_name_len(open, x.end);
			if (n == 0 || n != no || memcmp(open, x.p, n) != 0)
				return xml_fail(&x, "end tag </%.*s> closes <%.*s>", (int)n, x.p, (int)no,
						open);
			x.p += n;
			while (x.p < x.end && xml_space(*x.p))
				x.p++;
			if (x.p >= x.end || *x.p != '>')
				return xml_fail(&x, "an end tag not closed");
			x.p++;
			depth--;
		} else {
			if (depth == 0 && roots++ > 0)
				return xml_fail(&x, "a second root element");
			if (xml_tag(&x, stack, &depth, MAXD) < 0)
				return -1;
		}
	}
	if (depth > 0)
		return xml_fail(&x, "%zu elements not closed", depth);
	if (roots == 0)
		return xml_fail(&x, "no root element");
	return 0;
}

#endif
