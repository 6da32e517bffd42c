/* err.c: filling the caller-owned error buffer. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"

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

/* Format fmt/ap into err with kind. */
static int err_vset(struct rs_err *err, enum rs_err_kind kind, const char *fmt, va_list ap)
{
	char raw[RS_ERR_LEN];

	if (err == NULL)
		return -1;
	vsnprintf(raw, sizeof raw, fmt, ap);
	err_store(err, raw);
	err->kind = kind;
	return -1;
}

int rs_err_set(struct rs_err *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(err, RS_E_FAILED, fmt, ap);
	va_end(ap);
	return -1;
}

int rs_err_setk(struct rs_err *err, enum rs_err_kind kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(err, kind, fmt, ap);
	va_end(ap);
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

int rs_err_as(struct rs_err *err, enum rs_err_kind kind)
{
	if (err != NULL)
		err->kind = kind;
	return -1;
}

/* One row per kind, in enum order: its exit status and its name. */
static const struct {
	enum rs_status status;
	const char *name;
} err_kinds[] = {
	[RS_E_FAILED] = { RS_FAILED, "failed" },
	[RS_E_IO] = { RS_FAILED, "I/O" },
	[RS_E_USAGE] = { RS_BAD_INPUT, "usage" },
	[RS_E_INPUT] = { RS_BAD_INPUT, "input" },
	[RS_E_REFUSED] = { RS_BAD_INPUT, "refused" },
	[RS_E_REGRESSION] = { RS_REGRESSED, "regression" },
	[RS_E_INTERRUPTED] = { RS_INTERRUPTED, "interrupted" },
	[RS_E_PIPE] = { RS_PIPE_GONE, "closed pipe" },
};

enum rs_status rs_err_status(const struct rs_err *err)
{
	/* A kind out of range is a bug, and the failure it reports still a failure. */
	if (err == NULL || (unsigned)err->kind >= sizeof err_kinds / sizeof err_kinds[0])
		return RS_FAILED;
	return err_kinds[err->kind].status;
}

const char *rs_err_kind_name(enum rs_err_kind kind)
{
	if ((unsigned)kind >= sizeof err_kinds / sizeof err_kinds[0])
		return "unknown";
	return err_kinds[kind].name;
}
