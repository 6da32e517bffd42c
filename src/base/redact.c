/* redact.c: a target's password taken out of its text (redact.h). */
#include "config.h"

#include <string.h>

#include "base/redact.h"

int redact_target(char *t)
{
	char *scheme = strstr(t, "://"), *auth, *end, *at = NULL, *colon, *from, *to;

	if (scheme != NULL) {
		/* "unix:///PATH": no authority, nothing that is a password. */
		if (scheme[3] == '/')
			return 0;
		auth = scheme + 3;
	} else {
		/* A spawned server's line holds its arguments, not a URI. */
		if (strncmp(t, "unix:", 5) == 0 || strncmp(t, "spawn", 5) == 0)
			return 0;
		auth = t;
	}
	/* The last '@' before a blank ends the userinfo, as targets.c reads
	 * a URI (a password may hold '/'); a blank starts " (insecure)". */
	end = auth + strcspn(auth, " ");
	for (char *p = auth; p < end; p++)
		if (*p == '@')
			at = p;
	if (at == NULL)
		return 0;
	colon = memchr(auth, ':', (size_t)(at - auth));
	/* "USER:PASS@" keeps "USER@"; ":PASS@" and "PASS@" (or "USER@": it
	 * cannot be told from a password) go whole. */
	if (colon == auth)
		colon = NULL;     /* ":PASS@": no user to keep */
	from = colon != NULL ? colon : auth;
	to = colon != NULL ? at : at + 1;
	memmove(from, to, strlen(to) + 1);
	return 1;
}

int redact_args(char *s)
{
	static const char *const words[] = { "requirepass", "masterauth", NULL };
	int any = 0;

	for (size_t i = 0; words[i] != NULL; i++)
		for (char *p = s; (p = strstr(p, words[i])) != NULL;) {
			p += strlen(words[i]);
			while (*p == ' ' || *p == '=' || *p == '\'' || *p == '"')
				p++;
			for (; *p != '\0' && *p != ' ' && *p != '\'' && *p != '"'; p++) {
				*p = '*';
				any = 1;
			}
		}
	return any;
}
