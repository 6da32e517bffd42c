/* err.c: filling the caller-owned error buffer. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "err.h"

/* Copy src into err->msg with every control character escaped, so that
 * what a server or a file said cannot break the message into lines or
 * move the terminal's cursor. */
static void err_store(struct rs_err *err, const char *src)
{
	size_t o = 0;

	for (const unsigned char *p = (const unsigned char *)src; *p; p++) {
		char esc[5];
		size_t n;

		if (*p >= 0x20 && *p != 0x7f) {
			esc[0] = (char)*p;
			n = 1;
		} else if (*p == '\n' || *p == '\r' || *p == '\t') {
			esc[0] = '\\';
			esc[1] = *p == '\n' ? 'n' : *p == '\r' ? 'r' : 't';
			n = 2;
		} else {
			snprintf(esc, sizeof esc, "\\x%02x", *p);
			n = 4;
		}
		if (o + n >= sizeof err->msg)
			break;
		memcpy(err->msg + o, esc, n);
		o += n;
	}
	err->msg[o] = '\0';
}

int rs_err_set(struct rs_err *err, const char *fmt, ...)
{
	char raw[RS_ERR_LEN];
	va_list ap;

	if (err == NULL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof raw, fmt, ap);
	va_end(ap);
	err_store(err, raw);
	return -1;
}

int rs_err_prefix(struct rs_err *err, const char *fmt, ...)
{
	char raw[RS_ERR_LEN];
	va_list ap;
	int n;

	if (err == NULL)
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(raw, sizeof raw, fmt, ap);
	va_end(ap);
	/* Keep the prefix and as much of the old message as fits. */
	if (n >= 0 && (size_t)n + 2 < sizeof raw)
		snprintf(raw + n, sizeof raw - (size_t)n, ": %.*s",
			 (int)(sizeof raw - (size_t)n - 3), err->msg);
	err_store(err, raw);
	return -1;
}
