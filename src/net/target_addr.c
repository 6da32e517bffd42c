/* target_addr.c: a target's address in words (target_addr.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "net/target_addr.h"

int target_is_local(const struct target *t)
{
	if (t->socket)
		return 1;
	/* 127.0.0.0/8 is loopback, and so is ::1 in any of its spellings. */
	return strcmp(t->host, "localhost") == 0 || strncmp(t->host, "127.", 4) == 0 ||
	       strcmp(t->host, "::1") == 0 || strcmp(t->host, "0:0:0:0:0:0:0:1") == 0;
}

void target_describe(struct target *t)
{
	if (t->socket)
		snprintf(t->desc, sizeof t->desc, "unix:%s", t->socket);
	else if (strchr(t->host, ':'))
		snprintf(t->desc, sizeof t->desc, "[%s]:%u", t->host, t->port);
	else
		snprintf(t->desc, sizeof t->desc, "%s:%u", t->host, t->port);
}
