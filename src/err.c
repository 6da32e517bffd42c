/* err.c: filling the caller-owned error buffer. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "err.h"

int rs_err_set(struct rs_err *err, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

int rs_err_prefix(struct rs_err *err, const char *fmt, ...)
{
	char old[RS_ERR_LEN];
	va_list ap;
	int n;

	if (err == NULL)
		return -1;
	memcpy(old, err->msg, sizeof old);
	va_start(ap, fmt);
	n = vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	/* Keep the prefix and as much of the old message as fits. */
	if (n >= 0 && (size_t)n + 2 < sizeof err->msg)
		snprintf(err->msg + n, sizeof err->msg - (size_t)n, ": %.*s",
			 (int)(sizeof err->msg - (size_t)n - 3), old);
	return -1;
}
