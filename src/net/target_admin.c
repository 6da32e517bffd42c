/* target_admin.c: the control commands on a target's connection (target.h):
 * INFO and its fields, CLUSTER's, any command, FLUSHALL, the counters read
 * around a point, preparation pipelines, UNLINK, DUMP and RESTORE.  The
 * exchange and the connect are target.c's; the keyspace is target_keys.c's. */
#include "config.h"

#include <hiredis/hiredis.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "base/vec.h"
#include "base/xalloc.h"
#include "net/target.h"
#include "net/target_int.h"

/* A command whose reply is text (INFO, CLUSTER INFO) into a malloc'd
 * string; what names it in messages as target_run's do, shown (with its
 * argument) when it fails. */
static int target_text(struct target_conn *c, const struct target *t, const char *what,
		       const char *shown, char **out, struct rs_err *err, const char *fmt,
		       const char *arg)
{
	redisReply *r;

	if (target_run(c, t, what, &r, err, fmt, arg) < 0)
		return -1;
	if (r->type != REDIS_REPLY_STRING) {
		rs_err_set(err, "%s: %s failed: %.200s", t->desc, shown,
			   r->type == REDIS_REPLY_ERROR ? r->str : "unexpected reply type");
		freeReplyObject(r);
		return -1;
	}
	*out = xstrdup(r->str);
	freeReplyObject(r);
	return 0;
}

int target_info(struct target_conn *c, const struct target *t, const char *section,
		char **out, struct rs_err *err)
{
	char what[64];

	snprintf(what, sizeof what, "INFO %.50s", section);
	return target_text(c, t, "INFO", what, out, err, "INFO %s", section);
}

int target_cluster_slots(struct target_conn *c, const struct target *t,
			 struct redisReply **out, struct rs_err *err)
{
	redisReply *r;

	*out = NULL;
	if (target_run(c, t, "CLUSTER SLOTS", &r, err, "CLUSTER SLOTS") < 0)
		return -1;
	if (r->type != REDIS_REPLY_ARRAY) {
		rs_err_set(err, "%s: CLUSTER SLOTS failed: %.200s", t->desc,
			   r->type == REDIS_REPLY_ERROR ? r->str : "unexpected reply type");
		freeReplyObject(r);
		return -1;
	}
	*out = r;
	return 0;
}

int target_cluster_myid(struct target_conn *c, const struct target *t, char *id, size_t size,
			struct rs_err *err)
{
	redisReply *r;

	if (target_run(c, t, "CLUSTER MYID", &r, err, "CLUSTER MYID") < 0)
		return -1;
	if (r->type != REDIS_REPLY_STRING && r->type != REDIS_REPLY_STATUS) {
		rs_err_set(err, "%s: CLUSTER MYID failed: %.200s", t->desc,
			   r->type == REDIS_REPLY_ERROR ? r->str : "unexpected reply type");
		freeReplyObject(r);
		return -1;
	}
	snprintf(id, size, "%.*s", (int)(r->len < size ? r->len : size - 1), r->str);
	freeReplyObject(r);
	return 0;
}

int target_command_any(struct target_conn *c, const struct target *t, int argc,
			      const char **argv, const size_t *argvlen, struct redisReply **out,
			      struct rs_err *err)
{
	struct target_xchg x = { .c = c, .t = t, .on_reply = target_keep, .ud = out };
	char name[32];
	long long len;
	char *cmd;
	int rc;

	*out = NULL;
	snprintf(name, sizeof name, "%.*s", (int)(argvlen[0] < 31 ? argvlen[0] : 31), argv[0]);
	x.what = name;
	len = redisFormatCommandArgv(&cmd, argc, argv, argvlen);
	if (len < 0)
		return rs_err_set(err, "%s: %s: cannot format the command", t->desc, name);
	rc = target_exchange(&x, cmd, (size_t)len, 1, err);
	redisFreeCommand(cmd);
	return rc < 0 ? -1 : 0;
}

int target_command(struct target_conn *c, const struct target *t, int argc, const char **argv,
		   const size_t *argvlen, struct redisReply **out, struct rs_err *err)
{
	char name[32];

	snprintf(name, sizeof name, "%.*s", (int)(argvlen[0] < 31 ? argvlen[0] : 31), argv[0]);
	if (target_command_any(c, t, argc, argv, argvlen, out, err) < 0)
		return -1;
	if ((*out)->type == REDIS_REPLY_ERROR) {
		rs_err_set(err, "%s: %s failed: %.200s", t->desc, name, (*out)->str);
		freeReplyObject(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

int target_cluster_info(struct target_conn *c, const struct target *t, char **out,
			struct rs_err *err)
{
	return target_text(c, t, "CLUSTER INFO", "CLUSTER INFO", out, err, "CLUSTER %s", "INFO");
}

void target_info_field(const char *info, const char *field, char *buf, size_t size)
{
	size_t flen = strlen(field);
	const char *p = info;

	buf[0] = '\0';
	while ((p = strstr(p, field)) != NULL) {
		if ((p == info || p[-1] == '\n') && p[flen] == ':') {
			size_t n = strcspn(p + flen + 1, "\r\n");

			if (n >= size)
				n = size - 1;
			memcpy(buf, p + flen + 1, n);
			buf[n] = '\0';
			return;
		}
		p += flen;
	}
}

void target_repl_parse(const char *info, struct target_repl *r)
{
	char buf[64];

	memset(r, 0, sizeof *r);
	target_info_field(info, "role", buf, sizeof buf);
	r->replica = strcmp(buf, "slave") == 0 || strcmp(buf, "replica") == 0;
	target_info_field(info, "master_link_status", buf, sizeof buf);
	r->link_up = strcmp(buf, "up") == 0;
	target_info_field(info, r->replica ? "slave_repl_offset" : "master_repl_offset", buf,
			  sizeof buf);
	if (buf[0] == '\0' && r->replica)
		target_info_field(info, "replica_repl_offset", buf, sizeof buf);
	r->offset = buf[0] >= '0' && buf[0] <= '9' ? strtoll(buf, NULL, 10) : -1;
	target_info_field(info, "master_replid", r->replid, sizeof r->replid);
}

int target_repl(struct target_conn *c, const struct target *t, struct target_repl *r,
		struct rs_err *err)
{
	char *info;

	if (target_info(c, t, "replication", &info, err) < 0)
		return -1;
	target_repl_parse(info, r);
	free(info);
	return 0;
}

int target_key_count(struct target_conn *c, const struct target *t, uint64_t *keys,
		     struct rs_err *err)
{
	char *info, *p;

	if (target_info(c, t, "keyspace", &info, err) < 0)
		return -1;
	*keys = 0;
	/* Lines read "db0:keys=12,expires=0,avg_ttl=0". */
	for (p = info; (p = strstr(p, ":keys=")) != NULL; p += 6)
		*keys += strtoull(p + 6, NULL, 10);
	free(info);
	return 0;
}

int target_db_key_count(struct target_conn *c, const struct target *t, unsigned db,
			uint64_t *keys, struct rs_err *err)
{
	char *info, field[32], value[128];

	if (target_info(c, t, "keyspace", &info, err) < 0)
		return -1;
	snprintf(field, sizeof field, "db%u", db);
	target_info_field(info, field, value, sizeof value);
	free(info);
	*keys = strncmp(value, "keys=", 5) == 0 ? strtoull(value + 5, NULL, 10) : 0;
	return 0;
}

int target_flush(struct target_conn *c, const struct target *t, int db, struct rs_err *err)
{
	const char *cmd = db ? "FLUSHDB" : "FLUSHALL";
	redisReply *r;

	if (target_run(c, t, cmd, &r, err, "%s", cmd) < 0)
		return -1;
	if (r->type == REDIS_REPLY_ERROR) {
		if (strstr(r->str, "unknown command") || strncmp(r->str, "NOPERM", 6) == 0)
			rs_err_set(err, "%s: %s is renamed or forbidden on this server (%.120s): "
				   "use --flush none, or a user allowed to run it", t->desc, cmd, r->str);
		else
			rs_err_set(err, "%s: %s failed: %.200s", t->desc, cmd, r->str);
		freeReplyObject(r);
		return -1;
	}
	freeReplyObject(r);
	return 0;
}

/* An INFO counter of info as a count; -1 when absent. */
static int64_t target_info_count(const char *info, const char *field)
{
	char value[64];

	target_info_field(info, field, value, sizeof value);
	return value[0] >= '0' && value[0] <= '9' ? strtoll(value, NULL, 10) : -1;
}

int target_point_stats(struct target_conn *c, const struct target *t, const char *name,
		       struct target_stats *st, struct rs_err *err)
{
	char *info = NULL, field[96], value[256], sys[64], user[64];
	redisReply *r;
	double s, u;

	if (target_run(c, t, "INFO", &r, err, "INFO cpu commandstats stats") < 0)
		return -1;
	if (r->type == REDIS_REPLY_STRING) {
		info = xstrdup(r->str);
	} else if (r->type == REDIS_REPLY_ERROR) {
		/* Before 7.0 INFO takes one section: ask for each. */
		static const char *const sections[] = { "cpu", "commandstats", "stats" };

		for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
			char *more = NULL;

			if (target_info(c, t, sections[i], &more, err) < 0) {
				freeReplyObject(r);
				free(info);
				return -1;
			}
			info = xrealloc(info, (info ? strlen(info) : 0) + strlen(more) + 1);
			if (i == 0)
				info[0] = '\0';
			strcat(info, more);
			free(more);
		}
	}
	freeReplyObject(r);
	if (info == NULL)
		return rs_err_set(err, "%s: INFO gave an unexpected reply type", t->desc);
	st->calls = 0;
	st->neach = 0;
	for (const char *n = name; st->neach < TARGET_STATS_NAMES; n++) {
		size_t len = strcspn(n, ",");
		int64_t calls;

		snprintf(field, sizeof field, "cmdstat_%.*s", (int)len, n);
		target_info_field(info, field, value, sizeof value);
		/* "calls=123,usec=...": absent means never called, on a server
		 * that counts commands at all (the SELECT of every connection
		 * is one). */
		if (strncmp(value, "calls=", 6) == 0)
			calls = strtoll(value + 6, NULL, 10);
		else
			calls = strstr(info, "\ncmdstat_") != NULL ||
				strncmp(info, "cmdstat_", 8) == 0 ? 0 : -1;
		st->each[st->neach++] = calls;
		st->calls = calls < 0 || st->calls < 0 ? -1 : st->calls + calls;
		n += len;
		if (*n == '\0')
			break;
	}
	st->hits = target_info_count(info, "keyspace_hits");
	st->misses = target_info_count(info, "keyspace_misses");
	target_info_field(info, "used_cpu_sys", sys, sizeof sys);
	target_info_field(info, "used_cpu_user", user, sizeof user);
	free(info);
	if (num_parse_double_n(sys, strlen(sys), &s) < 0 ||
	    num_parse_double_n(user, strlen(user), &u) < 0)
		st->cpu = NAN;
	else
		st->cpu = s + u;
	return 0;
}

/* What a preparation pipeline keeps of its replies: the first error. */
struct target_pipe {
	struct rs_err first;
	int failed;
};

static void target_pipe_reply(struct target_xchg *x, redisReply *r)
{
	struct target_pipe *p = x->ud;

	if (r->type == REDIS_REPLY_ERROR && !p->failed) {
		p->failed = 1;
		rs_err_set(&p->first, "%s: %s failed: %.200s", x->t->desc, x->what, r->str);
	}
	freeReplyObject(r);
}

/* Send the n commands in buf and read n replies, the exchange named what
 * in messages; the first error reply fails (after all n are read). */
static int target_pipe_run(struct target_conn *c, const struct target *t, const char *what,
			   const char *buf, size_t len, size_t n, struct rs_err *err)
{
	struct target_pipe p = { .failed = 0 };
	struct target_xchg x = { .c = c, .t = t, .what = what, .per_reply = 1,
				 .on_reply = target_pipe_reply, .ud = &p };

	if (n == 0)
		return 0;
	/* Straight from the caller's buffer: it can be gigabytes. */
	if (target_exchange(&x, buf, len, n, err) < 0)
		return -1;
	if (p.failed) {
		if (err != NULL)
			*err = p.first;
		return -1;
	}
	return 0;
}

int target_pipeline(struct target_conn *c, const struct target *t, const char *buf, size_t len,
		    size_t n, struct rs_err *err)
{
	return target_pipe_run(c, t, "preparation", buf, len, n, err);
}

int target_pipeline_as(struct target_conn *c, const struct target *t, const char *what,
		       const char *buf, size_t len, size_t n, struct rs_err *err)
{
	return target_pipe_run(c, t, what, buf, len, n, err);
}

int target_unlink(struct target_conn *c, const struct target *t, char *const *names, size_t n,
		  size_t per, struct rs_err *err)
{
	const char **argv;
	size_t *lens, cap = 0;
	char *buf = NULL;
	int rc = 0;

	per = per == 0 ? 1 : per > TARGET_UNLINK_BATCH ? TARGET_UNLINK_BATCH : per;
	argv = xcalloc(per + 1, sizeof *argv);
	lens = xcalloc(per + 1, sizeof *lens);
	argv[0] = "UNLINK";
	lens[0] = 6;
	for (size_t i = 0; i < n && rc == 0;) {
		size_t len = 0, cmds = 0, end = n - i > TARGET_UNLINK_BATCH ? i + TARGET_UNLINK_BATCH : n;

		while (i < end) {
			size_t k = end - i < per ? end - i : per;
			long long m;
			char *cmd;

			for (size_t j = 1; j <= k; j++, i++) {
				argv[j] = names[i];
				lens[j] = strlen(names[i]);
			}
			if ((m = redisFormatCommandArgv(&cmd, (int)k + 1, argv, lens)) < 0) {
				rc = rs_err_set(err, "%s: UNLINK: cannot format the command", t->desc);
				break;
			}
			buf = vec_reserve(buf, &cap, len + (size_t)m, 1, 0);
			memcpy(buf + len, cmd, (size_t)m);
			len += (size_t)m;
			redisFreeCommand(cmd);
			cmds++;
		}
		if (rc == 0)
			rc = target_pipe_run(c, t, "UNLINK", buf, len, cmds, err);
	}
	free(argv);
	free(lens);
	free(buf);
	return rc;
}

/* One command whose reply target_dump may drop for its size. */
static int target_run_dump(struct target_conn *c, const struct target *t, redisReply **reply,
			   struct rs_err *err, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = target_vrun(c, t, "DUMP", 1, reply, err, fmt, ap);
	va_end(ap);
	return rc;
}

int target_dump(struct target_conn *c, const struct target *t, const char *key, char **payload,
		size_t *len, struct rs_err *err)
{
	redisReply *r;
	int rc = target_run_dump(c, t, &r, err, "DUMP %s", key);

	if (rc != 0)
		return rc;        /* TARGET_DROPPED is 1: nothing to keep */
	if (r->type != REDIS_REPLY_STRING) {
		rs_err_set(err, "%s: DUMP %s: %.200s", t->desc, key,
			   r->type == REDIS_REPLY_ERROR ? r->str : "no such key");
		freeReplyObject(r);
		return 1;
	}
	*payload = xmalloc(r->len ? r->len : 1);
	memcpy(*payload, r->str, r->len);
	*len = r->len;
	freeReplyObject(r);
	return 0;
}

int target_restore(struct target_conn *c, const struct target *t, const char *key,
		   const char *payload, size_t len, struct rs_err *err)
{
	redisReply *r;
	int rc = 0;

	if (target_run(c, t, "RESTORE", &r, err, "RESTORE %s 0 %b", key, payload, len) < 0)
		return -1;
	if (r->type == REDIS_REPLY_ERROR) {
		rs_err_set(err, "%s: RESTORE %s: %.200s", t->desc, key, r->str);
		rc = 1;
	}
	freeReplyObject(r);
	return rc;
}
