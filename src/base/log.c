/* log.c: notes, warnings and -v messages on stderr. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "base/log.h"
#include "base/xalloc.h"

static char log_who[64] = "rsweep";
static int log_verbose;

void rs_log_init(const char *who, int verbose)
{
	xstrlcpy(log_who, who, sizeof log_who);
	log_verbose = verbose;
}

void rs_log(enum rs_log_level level, const char *fmt, ...)
{
	static const char *const tag[] = {
		[RS_LOG_INFO] = "", [RS_LOG_NOTE] = "note: ", [RS_LOG_WARN] = "warning: ",
		[RS_LOG_DEBUG] = "",
	};
	char line[2048];
	va_list ap;

	if (level == RS_LOG_DEBUG && !log_verbose)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	/* One write per line, so lines of two processes do not interleave. */
	fprintf(stderr, "%s: %s%s\n", log_who, tag[level], line);
}

void rs_note_to(void (*on_note)(void *ud, const char *msg), void *ud, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (on_note == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	on_note(ud, msg);
}
