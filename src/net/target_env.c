/* target_env.c: a server's configuration for a run's environment
 * (target_env.h): INFO's fields, then CONFIG GET's one name at a time
 * (Redis before 7 takes one pattern a call). */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>

#include "net/target.h"
#include "net/target_env.h"
#include "base/xalloc.h"

const char *const target_env_config_names[] = {
	"io-threads", "appendonly", "appendfsync", "save", "maxmemory", "maxmemory-policy", NULL,
};

void target_env_parse_info(const char *info, struct target_env *e)
{
	char v[32];

	memset(e, 0, sizeof *e);
	target_server_parse(info, &e->server);
	target_info_field(info, "process_id", v, sizeof v);
	e->process_id = strtol(v, NULL, 10);
	if (e->process_id < 0)
		e->process_id = 0;
	target_info_field(info, "aof_enabled", v, sizeof v);
	if (strcmp(v, "0") == 0 || strcmp(v, "1") == 0)
		snprintf(e->appendonly, sizeof e->appendonly, "%s", v[0] == '1' ? "yes" : "no");
	target_info_field(info, "maxmemory", e->maxmemory, sizeof e->maxmemory);
	target_info_field(info, "maxmemory_policy", e->maxmemory_policy,
			  sizeof e->maxmemory_policy);
}

void target_env_set_config(struct target_env *e, const char *name, const char *value)
{
	static const struct { const char *name; size_t off, size; } f[] = {
		{ "io-threads", offsetof(struct target_env, io_threads), sizeof e->io_threads },
		{ "appendonly", offsetof(struct target_env, appendonly), sizeof e->appendonly },
		{ "appendfsync", offsetof(struct target_env, appendfsync), sizeof e->appendfsync },
		{ "save", offsetof(struct target_env, save), sizeof e->save },
		{ "maxmemory", offsetof(struct target_env, maxmemory), sizeof e->maxmemory },
		{ "maxmemory-policy", offsetof(struct target_env, maxmemory_policy),
		  sizeof e->maxmemory_policy },
	};

	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
		if (strcmp(f[i].name, name) == 0)
			snprintf((char *)e + f[i].off, f[i].size, "%s",
				 strcmp(name, "save") == 0 && value[0] == '\0' ? "off" : value);
}

/* CONFIG GET name's value into e; 1 when the server refused. */
static int target_env_config(struct target_conn *c, const struct target *t, const char *name,
			     struct target_env *e, struct rs_err *err)
{
	const char *argv[] = { "CONFIG", "GET", name };
	size_t len[] = { 6, 3, strlen(name) };
	struct redisReply *r = NULL;
	int refused = 0;

	if (target_command_any(c, t, 3, argv, len, &r, err) < 0)
		return -1;
	if (r->type == REDIS_REPLY_ERROR) {
		refused = 1;
	} else if (r->type == REDIS_REPLY_ARRAY && r->elements >= 2) {
		/* [name, value]; an unknown name is an empty array. */
		for (size_t i = 0; i + 1 < r->elements; i += 2)
			if (r->element[i]->str != NULL && r->element[i + 1]->str != NULL &&
			    strcmp(r->element[i]->str, name) == 0)
				target_env_set_config(e, name, r->element[i + 1]->str);
	}
	freeReplyObject(r);
	return refused;
}

int target_env_read(struct target_conn *c, const struct target *t, struct target_env *e,
		    struct rs_err *err)
{
	char *info, *all;
	size_t n;
	int rc;

	memset(e, 0, sizeof *e);
	/* Three sections, not INFO's default (which also counts every
	 * command): what the fields need. */
	if (target_info(c, t, "server", &info, err) < 0)
		return -1;
	n = strlen(info);
	all = info;
	for (const char *s = "persistence\0memory\0"; *s; s += strlen(s) + 1) {
		char *more;
		size_t m;

		if (target_info(c, t, s, &more, err) < 0) {
			free(all);
			return -1;
		}
		m = strlen(more);
		all = xrealloc(all, n + m + 2);
		all[n++] = '\n';
		memcpy(all + n, more, m + 1);
		n += m;
		free(more);
	}
	target_env_parse_info(all, e);
	free(all);
	for (size_t i = 0; target_env_config_names[i] != NULL; i++) {
		if ((rc = target_env_config(c, t, target_env_config_names[i], e, err)) < 0)
			return -1;
		if (rc == 1) {
			e->config_refused = 1;
			break;
		}
	}
	return 0;
}
