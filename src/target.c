/* target.c: connecting to the server and the untimed control commands. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <hiredis/hiredis.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "num.h"
#include "target.h"
#include "xalloc.h"

void target_describe(struct target *t)
{
	if (t->socket)
		snprintf(t->desc, sizeof t->desc, "unix:%s", t->socket);
	else if (strchr(t->host, ':'))
		snprintf(t->desc, sizeof t->desc, "[%s]:%u", t->host, t->port);
	else
		snprintf(t->desc, sizeof t->desc, "%s:%u", t->host, t->port);
}

static struct timeval target_tv(double s)
{
	struct timeval tv;

	tv.tv_sec = (time_t)s;
	tv.tv_usec = (suseconds_t)((s - floor(s)) * 1e6);
	return tv;
}

/* A context error as one line; a timeout says plainly what it means. */
static int target_ctx_error(const struct target *t, struct redisContext *c, const char *what,
			    struct rs_err *err)
{
	if (c->err == REDIS_ERR_IO && (errno == EAGAIN || errno == EWOULDBLOCK))
		return rs_err_set(err, "%s: the server stopped answering (%s timed out after %g s)",
				  t->desc, what, t->timeout);
	if (c->err == REDIS_ERR_EOF)
		return rs_err_set(err, "%s: the server closed the connection during %s", t->desc, what);
	return rs_err_set(err, "%s: %s: %s", t->desc, what, c->errstr);
}

static redisReply *target_vcommand(struct redisContext *c, const struct target *t,
				   struct rs_err *err, const char *fmt, va_list ap)
{
	redisReply *r = redisvCommand(c, fmt, ap);

	if (r == NULL) {
		char what[64];

		snprintf(what, sizeof what, "%.*s", (int)strcspn(fmt, " "), fmt);
		target_ctx_error(t, c, what, err);
	}
	return r;
}

static redisReply *target_command(struct redisContext *c, const struct target *t,
				  struct rs_err *err, const char *fmt, ...)
{
	va_list ap;
	redisReply *r;

	va_start(ap, fmt);
	r = target_vcommand(c, t, err, fmt, ap);
	va_end(ap);
	return r;
}

/* After a failed write, the server may already have said why before closing
 * ("-ERR max number of clients reached"): read it if it is there. */
static int target_pending_error(redisContext *c, char *buf, size_t size)
{
	ssize_t n = recv(c->fd, buf, size - 1, MSG_DONTWAIT);

	if (n <= 1 || buf[0] != '-')
		return 0;
	buf[n] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	memmove(buf, buf + 1, strlen(buf));
	return 1;
}

int target_connect(const struct target *t, struct redisContext **out, struct rs_err *err)
{
	char said[256];
	struct timeval ctv = target_tv(t->connect_timeout);
	struct timeval tv = target_tv(t->timeout);
	redisContext *c;
	redisReply *r;

	*out = NULL;
	c = t->socket ? redisConnectUnixWithTimeout(t->socket, ctv) :
			redisConnectWithTimeout(t->host, (int)t->port, ctv);
	if (c == NULL)
		return rs_err_set(err, "%s: cannot allocate a connection", t->desc);
	if (c->err) {
		if (c->err == REDIS_ERR_IO && (errno == EAGAIN || errno == EINPROGRESS ||
					       strstr(c->errstr, "timed out")))
			rs_err_set(err, "%s: connect timed out after %g s", t->desc, t->connect_timeout);
		else
			rs_err_set(err, "%s: cannot connect: %s", t->desc, c->errstr);
		redisFree(c);
		return -1;
	}
	if (redisSetTimeout(c, tv) != REDIS_OK) {
		rs_err_set(err, "%s: cannot set a timeout: %s", t->desc, c->errstr);
		redisFree(c);
		return -1;
	}
	if (t->password != NULL) {
		/* The password goes only into the AUTH command, never into a message. */
		r = t->user ? redisCommand(c, "AUTH %s %s", t->user, t->password) :
			      redisCommand(c, "AUTH %s", t->password);
		if (r == NULL) {
			if (target_pending_error(c, said, sizeof said))
				rs_err_set(err, "%s: the server refused the connection: %s", t->desc, said);
			else
				target_ctx_error(t, c, "AUTH", err);
			redisFree(c);
			return -1;
		}
		if (r->type == REDIS_REPLY_ERROR) {
			rs_err_set(err, "%s: authentication failed: %.200s", t->desc, r->str);
			freeReplyObject(r);
			redisFree(c);
			return -1;
		}
		freeReplyObject(r);
	}
	/* SELECT even for db 0: it proves the connection works without adding
	 * to cmdstat_ping, which the PING tests are checked against. */
	r = target_command(c, t, err, "SELECT %u", t->dbnum);
	if (r == NULL) {
		if (target_pending_error(c, said, sizeof said))
			rs_err_set(err, "%s: the server refused the connection: %s", t->desc, said);
		redisFree(c);
		return -1;
	}
	if (r->type == REDIS_REPLY_ERROR) {
		if (strncmp(r->str, "NOAUTH", 6) == 0)
			rs_err_set(err, "%s: the server needs a password (NOAUTH): set REDISCLI_AUTH "
				   "or use -a", t->desc);
		else
			rs_err_set(err, "%s: SELECT %u failed: %.200s", t->desc, t->dbnum, r->str);
		freeReplyObject(r);
		redisFree(c);
		return -1;
	}
	freeReplyObject(r);
	*out = c;
	return 0;
}

int target_connect_fd(const struct target *t, struct rs_err *err)
{
	redisContext *c;
	int fd, flags;

	if (target_connect(t, &c, err) < 0)
		return -1;
	/* Keep the socket, let hiredis free its context (which closes its own fd). */
	fd = dup(c->fd);
	redisFree(c);
	if (fd < 0)
		return rs_err_set(err, "%s: dup: %s", t->desc, strerror(errno));
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		int e = errno;

		close(fd);
		return rs_err_set(err, "%s: fcntl: %s", t->desc, strerror(e));
	}
	/* SO_RCVTIMEO/SNDTIMEO set for the blocking context do not matter on a
	 * non-blocking socket; the engine keeps its own idle timeout. */
	return fd;
}

int target_simple(struct redisContext *c, const struct target *t, struct rs_err *err,
		  const char *fmt, ...)
{
	va_list ap;
	redisReply *r;

	va_start(ap, fmt);
	r = target_vcommand(c, t, err, fmt, ap);
	va_end(ap);
	if (r == NULL)
		return -1;
	if (r->type == REDIS_REPLY_ERROR) {
		rs_err_set(err, "%s: %.*s: %.200s", t->desc, (int)strcspn(fmt, " "), fmt, r->str);
		freeReplyObject(r);
		return -1;
	}
	freeReplyObject(r);
	return 0;
}

int target_info(struct redisContext *c, const struct target *t, const char *section,
		char **out, struct rs_err *err)
{
	redisReply *r = target_command(c, t, err, "INFO %s", section);

	if (r == NULL)
		return -1;
	if (r->type != REDIS_REPLY_STRING) {
		rs_err_set(err, "%s: INFO %s failed: %.200s", t->desc, section,
			   r->type == REDIS_REPLY_ERROR ? r->str : "unexpected reply type");
		freeReplyObject(r);
		return -1;
	}
	*out = xstrdup(r->str);
	freeReplyObject(r);
	return 0;
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

int target_key_count(struct redisContext *c, const struct target *t, uint64_t *keys,
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

int target_db_key_count(struct redisContext *c, const struct target *t, unsigned db,
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

int target_flush(struct redisContext *c, const struct target *t, int db, struct rs_err *err)
{
	const char *cmd = db ? "FLUSHDB" : "FLUSHALL";
	redisReply *r = target_command(c, t, err, "%s", cmd);

	if (r == NULL)
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

int target_point_stats(struct redisContext *c, const struct target *t, const char *name,
		       int64_t *calls, double *cpu, struct rs_err *err)
{
	char *info = NULL, *more = NULL, field[96], value[256], sys[64], user[64];
	redisReply *r = target_command(c, t, err, "INFO cpu commandstats");
	double s, u;

	if (r == NULL)
		return -1;
	if (r->type == REDIS_REPLY_STRING) {
		info = xstrdup(r->str);
	} else if (r->type == REDIS_REPLY_ERROR) {
		/* Before 7.0 INFO takes one section: ask twice. */
		if (target_info(c, t, "cpu", &info, err) < 0 ||
		    target_info(c, t, "commandstats", &more, err) < 0) {
			freeReplyObject(r);
			free(info);
			return -1;
		}
		info = xrealloc(info, strlen(info) + strlen(more) + 1);
		strcat(info, more);
		free(more);
	}
	freeReplyObject(r);
	if (info == NULL)
		return rs_err_set(err, "%s: INFO gave an unexpected reply type", t->desc);
	snprintf(field, sizeof field, "cmdstat_%s", name);
	target_info_field(info, field, value, sizeof value);
	/* "calls=123,usec=...": absent means never called. */
	*calls = strncmp(value, "calls=", 6) == 0 ? strtoll(value + 6, NULL, 10) : 0;
	target_info_field(info, "used_cpu_sys", sys, sizeof sys);
	target_info_field(info, "used_cpu_user", user, sizeof user);
	free(info);
	if (num_parse_double_n(sys, strlen(sys), &s) < 0 ||
	    num_parse_double_n(user, strlen(user), &u) < 0)
		return rs_err_set(err, "%s: INFO cpu has no used_cpu_sys/used_cpu_user", t->desc);
	*cpu = s + u;
	return 0;
}

int target_pipeline(struct redisContext *c, const struct target *t, const char *buf, size_t len,
		    size_t n, struct rs_err *err)
{
	int rc = 0;

	if (n == 0)
		return 0;
	if (redisAppendFormattedCommand(c, buf, len) != REDIS_OK)
		return target_ctx_error(t, c, "preparation", err);
	for (size_t i = 0; i < n; i++) {
		redisReply *r;

		if (redisGetReply(c, (void **)&r) != REDIS_OK)
			return target_ctx_error(t, c, "preparation", err);
		if (r->type == REDIS_REPLY_ERROR && rc == 0)
			rc = rs_err_set(err, "%s: preparation failed: %.200s", t->desc, r->str);
		freeReplyObject(r);
	}
	return rc;
}

int target_dump(struct redisContext *c, const struct target *t, const char *key, char **payload,
		size_t *len, struct rs_err *err)
{
	redisReply *r = target_command(c, t, err, "DUMP %s", key);

	if (r == NULL)
		return -1;
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

int target_restore(struct redisContext *c, const struct target *t, const char *key,
		   const char *payload, size_t len, struct rs_err *err)
{
	redisReply *r = target_command(c, t, err, "RESTORE %s 0 %b", key, payload, len);
	int rc = 0;

	if (r == NULL)
		return -1;
	if (r->type == REDIS_REPLY_ERROR) {
		rs_err_set(err, "%s: RESTORE %s: %.200s", t->desc, key, r->str);
		rc = 1;
	}
	freeReplyObject(r);
	return rc;
}

void target_close(struct redisContext *c)
{
	if (c != NULL)
		redisFree(c);
}
