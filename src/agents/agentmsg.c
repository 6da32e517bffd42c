/* agentmsg.c: the leader's and agents' messages, encoded and decoded by one
 * table per message. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agents/agentmsg.h"
#include "engine/engine.h"
#include "base/num.h"
#include "base/sbuf.h"
#include "base/xalloc.h"

enum agentmsg_type {
	AT_VERSION,               /* "v": must be PACKAGE_VERSION; no field behind it */
	AT_RUN,                   /* a run id */
	AT_ID,                    /* an agent id */
	AT_TARGET,                /* a URI agentmsg_target_ok takes */
	AT_JOB,                   /* a job's text: a pointer and a length, unchecked here */
	AT_TEXT,                  /* any one-line text up to size - 1 bytes */
	AT_U64,                   /* uint64_t in [min, max] */
	AT_UNS,                   /* unsigned in [min, max] */
	AT_DBL,                   /* double in [min, max] */
	AT_KIND,                  /* "warmup" or "point" */
	AT_MODE,                  /* "lockstep" (0) or "window" (1), into an int */
	AT_OK,                    /* "ok" (1) or "error" (0), into an int */
	AT_HIST,                  /* hist_encode's text */
};

struct agentmsg_def {
	const char *name;
	enum agentmsg_type type;
	size_t off, size;
	double min, max;
};

#define PT(f) offsetof(struct agentmsg_point, f), sizeof(((struct agentmsg_point *)0)->f)
#define RS(f) offsetof(struct agentmsg_result, f), sizeof(((struct agentmsg_result *)0)->f)
#define U64MAX 18446744073709551615.0
/* Instants: the agents do signed arithmetic on them. */
#define I64MAX 9223372036854775807.0

static const struct agentmsg_def agentmsg_point_defs[] = {
	{ "v", AT_VERSION, 0, 0, 0, 0 },
	{ "run", AT_RUN, PT(run), 0, 0 },
	{ "point", AT_U64, PT(point), 1, 1e9 },
	{ "kind", AT_KIND, PT(kind), 0, 0 },
	{ "target", AT_TARGET, PT(target), 0, 0 },
	{ "test", AT_TEXT, PT(test), 0, 0 },
	{ "job", AT_JOB, PT(job), 0, 0 },
	{ "depth", AT_UNS, PT(depth), 1, 1e6 },
	{ "mode", AT_MODE, PT(window), 0, 0 },
	{ "clients", AT_UNS, PT(clients), 1, 1e5 },
	/* The limits of rsweep run's own --threads and --keyspace. */
	{ "threads", AT_UNS, PT(threads), 1, 256 },
	{ "keyspace", AT_U64, PT(keyspace), 0, 1e12 },
	{ "seed", AT_U64, PT(seed), 0, U64MAX },
	{ "requests", AT_U64, PT(requests), 0, 1e15 },
	{ "duration", AT_DBL, PT(duration), 0, 86400 },
	/* rsweep run's --rate at most. */
	{ "rate", AT_DBL, PT(rate), 0, 1e9 },
	{ "start", AT_U64, PT(start_ns), 1, I64MAX },
	{ "timeout", AT_DBL, PT(timeout), 0.001, 86400 },
};

static const struct agentmsg_def agentmsg_result_defs[] = {
	{ "v", AT_VERSION, 0, 0, 0, 0 },
	{ "run", AT_RUN, RS(run), 0, 0 },
	{ "point", AT_U64, RS(point), 1, 1e9 },
	{ "kind", AT_KIND, RS(kind), 0, 0 },
	{ "agent", AT_ID, RS(agent), 0, 0 },
	{ "status", AT_OK, RS(ok), 0, 0 },
	{ "error", AT_TEXT, RS(error), 0, 0 },
	{ "requests", AT_U64, RS(requests), 0, 1e15 },
	{ "errors", AT_U64, RS(errors), 0, 1e15 },
	{ "misses", AT_U64, RS(misses), 0, 1e15 },
	{ "seconds", AT_DBL, RS(seconds), 0, 1e7 },
	{ "start", AT_U64, RS(start_ns), 0, I64MAX },
	{ "end", AT_U64, RS(end_ns), 0, I64MAX },
	{ "cpu", AT_DBL, RS(cpu_s), 0, 1e7 },
	{ "first_error", AT_TEXT, RS(first_error), 0, 0 },
	{ "sent", AT_TEXT, RS(sent), 0, 0 },
	{ "hist", AT_HIST, RS(hist), 0, 0 },
	{ "service", AT_HIST, RS(service), 0, 0 },
};

#define NDEFS(a) (sizeof a / sizeof a[0])

_Static_assert(TARGETS_URI_MAX <= AGENTMSG_TEXT_MAX && RS_ERR_LEN <= AGENTMSG_TEXT_MAX,
	       "a field's copy must hold a target and an agent's error");

void agentmsg_fields_free(struct agentmsg_fields *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		free(fs->own[i]);
	fs->n = 0;
}

int agentmsg_id_ok(const char *s, size_t n)
{
	if (n == 0 || n >= AGENTMSG_ID_MAX)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '-'))
			return 0;
	}
	return 1;
}

int agentmsg_run_ok(const char *s, size_t n)
{
	if (n != AGENTMSG_RUN_LEN)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

int agentmsg_target_ok(const char *uri, struct targets_def *d, struct rs_err *err)
{
	struct targets_def tmp;
	char spec[TARGETS_URI_MAX + 8];
	int rc = 0;

	if (strncmp(uri, "redis://", 8) != 0 && strncmp(uri, "rediss://", 9) != 0 &&
	    strncmp(uri, "unix://", 7) != 0)
		return rs_err_setk(err, RS_E_INPUT, "target '%.100s' is not redis://, rediss:// or "
				   "unix://", uri);
	if (strlen(uri) >= TARGETS_URI_MAX)
		return rs_err_setk(err, RS_E_INPUT, "target URI longer than %d bytes",
				   TARGETS_URI_MAX - 1);
	snprintf(spec, sizeof spec, "agent=%s", uri);
	memset(&tmp, 0, sizeof tmp);
	if (targets_parse_one(spec, &tmp, err) < 0)
		rc = rs_err_as(err, RS_E_INPUT);
	else if (tmp.password != NULL)
		rc = rs_err_setk(err, RS_E_INPUT, "target '%s' holds a password: agents take theirs "
				 "from REDISCLI_AUTH", tmp.uri);
	if (rc == 0 && d != NULL)
		*d = tmp;
	else
		targets_def_free(&tmp);
	return rc;
}

/* Whether n bytes of s are one line of visible text (a UTF-8 byte counts). */
static int agentmsg_text_ok(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 0;
	return 1;
}

/* Append field name with a value of its own (taken). */
static void agentmsg_put(struct agentmsg_fields *fs, const char *name, char *value)
{
	fs->f[fs->n].name = name;
	fs->f[fs->n].name_len = strlen(name);
	fs->own[fs->n] = value;
	fs->f[fs->n].value = value;
	fs->f[fs->n].value_len = strlen(value);
	fs->n++;
}

/* Encode the struct at base by defs into fs. */
static void agentmsg_encode(const struct agentmsg_def *defs, size_t n, const void *base,
			    struct agentmsg_fields *fs)
{
	const char *p = base;

	fs->n = 0;
	for (size_t i = 0; i < n; i++) {
		const struct agentmsg_def *d = &defs[i];
		char buf[64];
		struct sbuf b;

		buf[0] = '\0';
		switch (d->type) {
		case AT_VERSION:
			agentmsg_put(fs, d->name, xstrdup(PACKAGE_VERSION));
			continue;
		case AT_RUN: case AT_ID: case AT_TARGET: case AT_TEXT:
			agentmsg_put(fs, d->name, xstrdup(p + d->off));
			continue;
		case AT_JOB: {
			/* Not NUL-terminated when decoded: as long as job_len says. */
			const struct agentmsg_point *pt = base;
			char *v = xmalloc(pt->job_len + 1);

			memcpy(v, pt->job, pt->job_len);
			v[pt->job_len] = '\0';
			agentmsg_put(fs, d->name, v);
			continue;
		}
		case AT_U64:
			snprintf(buf, sizeof buf, "%llu",
				 (unsigned long long)*(const uint64_t *)(const void *)(p + d->off));
			break;
		case AT_UNS:
			snprintf(buf, sizeof buf, "%u", *(const unsigned *)(const void *)(p + d->off));
			break;
		case AT_DBL:
			snprintf(buf, sizeof buf, "%.9g", *(const double *)(const void *)(p + d->off));
			break;
		case AT_KIND:
			snprintf(buf, sizeof buf, "%s",
				 *(const enum agentmsg_kind *)(const void *)(p + d->off) ==
				 AGENTMSG_WARMUP ? "warmup" : "point");
			break;
		case AT_MODE:
			snprintf(buf, sizeof buf, "%s",
				 engine_mode_names[*(const int *)(const void *)(p + d->off) ?
						   ENGINE_WINDOW : ENGINE_LOCKSTEP]);
			break;
		case AT_OK:
			snprintf(buf, sizeof buf, "%s",
				 *(const int *)(const void *)(p + d->off) ? "ok" : "error");
			break;
		case AT_HIST:
			sbuf_heap(&b);
			hist_encode((const struct hist *)(const void *)(p + d->off), &b);
			agentmsg_put(fs, d->name, b.s);
			continue;
		}
		agentmsg_put(fs, d->name, xstrdup(buf));
	}
}

/* Decode one field's value v (n bytes) by d into base. */
static int agentmsg_field(const struct agentmsg_def *d, const char *v, size_t n, void *base,
			  struct rs_err *err)
{
	char *p = (char *)base + d->off;
	/* As long as the longest field it may hold (a result's error). */
	char tmp[AGENTMSG_TEXT_MAX + 1];
	uint64_t u;
	double x;

	/* A job's text is as long as its commands: it stays where it is,
	 * and agentmsg_job_decode reads it. */
	if (d->type == AT_JOB) {
		if (n == 0 || !agentmsg_text_ok(v, n))
			return rs_err_setk(err, RS_E_INPUT, "field job: empty, or holds a control "
					   "character");
		if (agentmsg_job_check(v, n, err) < 0)
			return -1;
		*(const char **)(void *)p = v;
		((struct agentmsg_point *)base)->job_len = n;
		return 0;
	}
	/* Every value but a histogram's is short: copy it NUL-terminated. */
	if (d->type != AT_HIST) {
		size_t most = d->size > 0 && d->type <= AT_TEXT ? d->size - 1 : sizeof tmp - 1;

		if (n > most)
			return rs_err_setk(err, RS_E_INPUT, "field %s: %zu bytes, longer than the %zu "
					   "it may be", d->name, n, most);
		if (!agentmsg_text_ok(v, n))
			return rs_err_setk(err, RS_E_INPUT, "field %s: holds a control character",
					   d->name);
		memcpy(tmp, v, n);
		tmp[n] = '\0';
	}
	switch (d->type) {
	case AT_VERSION:
		if (strcmp(tmp, PACKAGE_VERSION) != 0)
			return rs_err_setk(err, RS_E_INPUT, "from rsweep %.40s, this is rsweep %s: "
					   "run the same version everywhere", tmp, PACKAGE_VERSION);
		return 0;
	case AT_RUN:
		if (!agentmsg_run_ok(v, n))
			return rs_err_setk(err, RS_E_INPUT, "field run: '%.40s' is not a run id", tmp);
		break;
	case AT_ID:
		if (!agentmsg_id_ok(v, n))
			return rs_err_setk(err, RS_E_INPUT, "field %s: '%.80s' is not an agent id "
					   "(1 to 64 of A-Z a-z 0-9 . _ -)", d->name, tmp);
		break;
	case AT_TARGET:
		if (agentmsg_target_ok(tmp, NULL, err) < 0)
			return rs_err_prefix(err, "field target");
		break;
	case AT_TEXT: case AT_JOB:
		break;
	case AT_U64: case AT_UNS:
		/* The two limits a double cannot hold exactly, spelt out. */
		if (num_parse_u64(tmp, (uint64_t)d->min, d->max >= U64MAX ? UINT64_MAX :
				  d->max >= I64MAX ? (uint64_t)INT64_MAX : (uint64_t)d->max, 0, &u,
				  err) < 0)
			return rs_err_prefix(err, "field %s", d->name), rs_err_as(err, RS_E_INPUT);
		if (d->type == AT_U64)
			*(uint64_t *)(void *)p = u;
		else
			*(unsigned *)(void *)p = (unsigned)u;
		return 0;
	case AT_DBL:
		if (num_parse_double(tmp, d->min, d->max, &x, err) < 0)
			return rs_err_prefix(err, "field %s", d->name), rs_err_as(err, RS_E_INPUT);
		*(double *)(void *)p = x;
		return 0;
	case AT_KIND:
		if (strcmp(tmp, "warmup") != 0 && strcmp(tmp, "point") != 0)
			return rs_err_setk(err, RS_E_INPUT, "field kind: '%.40s' is not warmup or point",
					   tmp);
		*(enum agentmsg_kind *)(void *)p = tmp[0] == 'w' ? AGENTMSG_WARMUP : AGENTMSG_POINT;
		return 0;
	case AT_MODE:
		if (strcmp(tmp, engine_mode_names[ENGINE_LOCKSTEP]) != 0 &&
		    strcmp(tmp, engine_mode_names[ENGINE_WINDOW]) != 0)
			return rs_err_setk(err, RS_E_INPUT, "field mode: '%.40s' is not %s or %s", tmp,
					   engine_mode_names[ENGINE_LOCKSTEP],
					   engine_mode_names[ENGINE_WINDOW]);
		*(int *)(void *)p = strcmp(tmp, engine_mode_names[ENGINE_WINDOW]) == 0;
		return 0;
	case AT_OK:
		if (strcmp(tmp, "ok") != 0 && strcmp(tmp, "error") != 0)
			return rs_err_setk(err, RS_E_INPUT, "field status: '%.40s' is not ok or error",
					   tmp);
		*(int *)(void *)p = tmp[0] == 'o';
		return 0;
	case AT_HIST:
		if (hist_decode(v, n, (struct hist *)(void *)p, err) < 0)
			return rs_err_prefix(err, "field hist"), rs_err_as(err, RS_E_INPUT);
		return 0;
	}
	memcpy(p, tmp, strlen(tmp) + 1);
	return 0;
}

/* Decode f by defs into base: each def once, nothing else. */
static int agentmsg_decode(const struct agentmsg_def *defs, size_t ndefs,
			   const struct agentmsg_field *f, size_t n, void *base, struct rs_err *err)
{
	unsigned char seen[AGENTMSG_MAX_FIELDS] = { 0 };
	size_t vi = ndefs;

	/* The version first, wherever it stands: a message of another
	 * version is refused as that, not for the fields it has changed. */
	for (size_t i = 0; i < n; i++)
		if (f[i].name_len == 1 && f[i].name[0] == 'v')
			vi = i;
	if (vi == ndefs)
		return rs_err_setk(err, RS_E_INPUT, "no field v (the sender's rsweep version)");
	if (agentmsg_field(&defs[0], f[vi].value, f[vi].value_len, base, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		size_t k;

		for (k = 0; k < ndefs; k++)
			if (strlen(defs[k].name) == f[i].name_len &&
			    memcmp(defs[k].name, f[i].name, f[i].name_len) == 0)
				break;
		if (k == ndefs)
			return rs_err_setk(err, RS_E_INPUT, "unknown field '%.*s'",
					   (int)(f[i].name_len > 40 ? 40 : f[i].name_len), f[i].name);
		if (seen[k]++)
			return rs_err_setk(err, RS_E_INPUT, "field %s given twice", defs[k].name);
		if (k > 0 && agentmsg_field(&defs[k], f[i].value, f[i].value_len, base, err) < 0)
			return -1;
	}
	for (size_t k = 0; k < ndefs; k++)
		if (!seen[k])
			return rs_err_setk(err, RS_E_INPUT, "no field %s", defs[k].name);
	return 0;
}

int agentmsg_point_encode(const struct agentmsg_point *p, struct agentmsg_fields *fs,
			  struct rs_err *err)
{
	struct agentmsg_point *back = xcalloc(1, sizeof *back);
	int rc;

	agentmsg_encode(agentmsg_point_defs, NDEFS(agentmsg_point_defs), p, fs);
	/* What goes out must come back: a plan the agents would refuse fails
	 * here, on the leader, with the same reason. */
	rc = agentmsg_point_decode(fs->f, fs->n, back, err);
	if (rc == 0 && (p->requests == 0) == (p->duration == 0))
		rc = rs_err_setk(err, RS_E_INPUT, "a point message takes requests or a duration");
	free(back);
	if (rc < 0)
		agentmsg_fields_free(fs);
	return rc;
}

int agentmsg_point_decode(const struct agentmsg_field *f, size_t n, struct agentmsg_point *p,
			  struct rs_err *err)
{
	memset(p, 0, sizeof *p);
	if (agentmsg_decode(agentmsg_point_defs, NDEFS(agentmsg_point_defs), f, n, p, err) < 0)
		return -1;
	if ((p->requests == 0) == (p->duration == 0))
		return rs_err_setk(err, RS_E_INPUT, "fields requests and duration: exactly one of "
				   "them is not 0");
	if (p->threads > p->clients)
		return rs_err_setk(err, RS_E_INPUT, "field threads: %u is more than %u clients",
				   p->threads, p->clients);
	return 0;
}

int agentmsg_result_encode(const struct agentmsg_result *r, struct agentmsg_fields *fs,
			   struct rs_err *err)
{
	if (!agentmsg_id_ok(r->agent, strlen(r->agent)) || !agentmsg_run_ok(r->run, strlen(r->run)))
		return rs_err_setk(err, RS_E_INPUT, "a result needs a run id and an agent id");
	agentmsg_encode(agentmsg_result_defs, NDEFS(agentmsg_result_defs), r, fs);
	return 0;
}

int agentmsg_result_decode(const struct agentmsg_field *f, size_t n, struct agentmsg_result *r,
			   struct rs_err *err)
{
	memset(r, 0, sizeof *r);
	hist_init(&r->hist);
	hist_init(&r->service);
	if (agentmsg_decode(agentmsg_result_defs, NDEFS(agentmsg_result_defs), f, n, r, err) < 0)
		return -1;
	if (r->hist.count != 0 && r->hist.count != r->requests)
		return rs_err_setk(err, RS_E_INPUT, "field hist: %llu values for %llu requests",
				   (unsigned long long)r->hist.count, (unsigned long long)r->requests);
	if (r->service.count != 0 && r->service.count != r->requests)
		return rs_err_setk(err, RS_E_INPUT, "field service: %llu values for %llu requests",
				   (unsigned long long)r->service.count,
				   (unsigned long long)r->requests);
	/* A request counts one error at most; a sequence's replies may miss
	 * several times a request. */
	if (r->errors > r->requests)
		return rs_err_setk(err, RS_E_INPUT, "field errors: more than requests");
	if (r->ok && r->end_ns < r->start_ns)
		return rs_err_setk(err, RS_E_INPUT, "field end: before start");
	return 0;
}

void agentmsg_alive_encode(char *buf, size_t size, long pid, const char *host)
{
	snprintf(buf, size, "%s %ld %.100s", PACKAGE_VERSION, pid, host);
}

int agentmsg_alive_decode(const char *s, size_t n, char *ver, size_t vsize)
{
	size_t k = 0;

	while (k < n && s[k] != ' ')
		k++;
	if (k == 0 || k == n || k >= vsize || !agentmsg_text_ok(s, n))
		return -1;
	memcpy(ver, s, k);
	ver[k] = '\0';
	return 0;
}
