/* agentmsg_job.c: a point's job (job.h) as the point message's field
 * "job" carries it, one line of visible text, and back.
 *
 * The text is items separated by one blank:
 *
 *	mix=0|1 r=REPLIES x=0|1 e=EXPECT vmin=N vmax=N mr=MAX_REPLY kd=SPEC|-
 *	arr=uniform|poisson
 *	m=WEIGHT,VALUE_AT,VALUE_END,KEY_FROM,RAND,COPY,BYTES   (1..16 of them)
 *
 * RAND and COPY are offsets joined by '/', "-" for none.  BYTES are the
 * command's bytes: a byte from '!' to '~' but '%', ',' and '*' as itself,
 * any other as %HH, and a run of 8 or more of one byte as *COUNT.HH, so
 * that -d's values of 'x' cost a few bytes whatever their size.  mix=0: one
 * m item, the job's command (its weight and value 0).  The decoder is
 * strict (every number whole and in range, every offset inside its
 * command, each item once) and works out the job's memory from the text
 * before it expands a byte. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agents/agentmsg.h"
#include "workload/job.h"
#include "engine/keydist.h"
#include "base/num.h"
#include "base/sbuf.h"
#include "workload/workload.h"
#include "base/xalloc.h"

/* A run this long or longer is written as *COUNT.HH. */
#define AGENTMSG_JOB_RUN 8
/* The most replies a request may have: a sequence's commands and MULTI
 * and EXEC around them. */
#define AGENTMSG_JOB_REPLIES (WORKLOAD_SEQ_MAX + 2)

static int agentmsg_job_plain(unsigned char c)
{
	return c > ' ' && c <= '~' && c != '%' && c != ',' && c != '*';
}

static void agentmsg_job_offs(struct sbuf *b, const size_t *off, size_t n)
{
	if (n == 0)
		sbuf_add(b, "-", 1);
	for (size_t i = 0; i < n; i++)
		sbuf_printf(b, "%s%zu", i ? "/" : "", off[i]);
}

static void agentmsg_job_bytes(struct sbuf *b, const char *p, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)p[i];
		size_t run = 1;

		while (i + run < n && (unsigned char)p[i + run] == c)
			run++;
		if (run >= AGENTMSG_JOB_RUN) {
			sbuf_printf(b, "*%zu.%02X", run, c);
			i += run;
			continue;
		}
		if (agentmsg_job_plain(c))
			sbuf_add(b, (const char *)&c, 1);
		else
			sbuf_printf(b, "%%%02X", c);
		i++;
	}
}

static void agentmsg_job_member(struct sbuf *b, const struct engine_member *m)
{
	sbuf_printf(b, " m=%u,%zu,%zu,%zu,", m->weight, m->value_at, m->value_end, m->key_from);
	agentmsg_job_offs(b, m->rand_off, m->nrand);
	sbuf_add(b, ",", 1);
	agentmsg_job_offs(b, m->copy_off, m->ncopy);
	sbuf_add(b, ",", 1);
	agentmsg_job_bytes(b, m->cmd, m->len);
}

char *agentmsg_job_encode(const struct engine_job *job)
{
	const struct keydist_spec *kd = keydist_spec_of(job->keydist);
	struct sbuf b;

	sbuf_heap(&b);
	sbuf_printf(&b, "mix=%d r=%u x=%d e=%u vmin=%zu vmax=%zu mr=%llu kd=", job->members != NULL,
		    job->replies, job->transaction ? 1 : 0, job->expect, job->vmin, job->vmax,
		    (unsigned long long)job->max_reply);
	if (kd == NULL) {
		sbuf_add(&b, "-", 1);
	} else {
		char name[KEYDIST_NAME_MAX];
		struct keydist_spec bare = { kd->kind, 0, 0 };

		/* The name as keydist_format spells it, the numbers exact. */
		keydist_format(&bare, name, sizeof name);
		name[strcspn(name, ":")] = '\0';
		sbuf_printf(&b, "%s", name);
		if (kd->kind == KEYDIST_ZIPF || kd->kind == KEYDIST_GAUSSIAN ||
		    kd->kind == KEYDIST_HOTSPOT)
			sbuf_printf(&b, ":%.17g", kd->a);
		if (kd->kind == KEYDIST_HOTSPOT)
			sbuf_printf(&b, ":%.17g", kd->b);
	}
	/* How an open loop spaces requests; the rate is each agent's own,
	 * a field of the point. */
	sbuf_printf(&b, " arr=%s", engine_arrivals_names[job->arrivals == ENGINE_POISSON]);
	if (job->members != NULL) {
		for (size_t i = 0; i < job->nmembers; i++)
			agentmsg_job_member(&b, &job->members[i]);
	} else {
		struct engine_member one = {
			.cmd = job->cmd, .len = job->len, .rand_off = job->rand_off,
			.nrand = job->nrand, .key_from = job->key_from, .copy_off = job->copy_off,
			.ncopy = job->ncopy,
		};

		agentmsg_job_member(&b, &one);
	}
	return b.s;
}

/* ---- decoding ---- */

/* A number of p[0..n) in [min, max], whole. */
static int agentmsg_job_num(const char *p, size_t n, uint64_t min, uint64_t max, uint64_t *out,
			    const char *what, struct rs_err *err)
{
	char tmp[32];

	if (n == 0 || n >= sizeof tmp)
		return rs_err_setk(err, RS_E_INPUT, "field job: %s is not a number", what);
	memcpy(tmp, p, n);
	tmp[n] = '\0';
	if (num_parse_u64(tmp, min, max, 0, out, err) < 0)
		return rs_err_prefix(err, "field job: %s", what), rs_err_as(err, RS_E_INPUT);
	return 0;
}

static int agentmsg_job_hex(const char *p, unsigned char *c)
{
	unsigned v = 0;

	for (int i = 0; i < 2; i++) {
		char h = p[i];

		v = v * 16 + (unsigned)(h >= '0' && h <= '9' ? h - '0' : h >= 'A' && h <= 'F' ?
					h - 'A' + 10 : 99);
	}
	if (v > 255)
		return -1;
	*c = (unsigned char)v;
	return 0;
}

/* The bytes p[0..n) stand for: their count into *len, and with out (room
 * for *len) the bytes.  0, or -1 with err. */
static int agentmsg_job_unbytes(const char *p, size_t n, char *out, uint64_t *len,
				struct rs_err *err)
{
	uint64_t k = 0;

	for (size_t i = 0; i < n;) {
		unsigned char c;
		uint64_t run = 1;

		if (p[i] == '%') {
			if (i + 3 > n || agentmsg_job_hex(p + i + 1, &c) < 0)
				return rs_err_setk(err, RS_E_INPUT, "field job: a %% not followed by "
						   "two upper-case hex digits");
			i += 3;
		} else if (p[i] == '*') {
			size_t j = i + 1;

			while (j < n && p[j] >= '0' && p[j] <= '9')
				j++;
			if (j == n || p[j] != '.' || j + 3 > n || agentmsg_job_hex(p + j + 1, &c) < 0)
				return rs_err_setk(err, RS_E_INPUT, "field job: a run not written "
						   "*COUNT.HH");
			if (agentmsg_job_num(p + i + 1, j - i - 1, AGENTMSG_JOB_RUN,
					     WORKLOAD_MEMORY_MAX, &run, "a run's count", err) < 0)
				return -1;
			i = j + 3;
		} else if (agentmsg_job_plain((unsigned char)p[i])) {
			c = (unsigned char)p[i++];
		} else {
			return rs_err_setk(err, RS_E_INPUT, "field job: a byte 0x%02X that is not "
					   "written as %%HH", (unsigned char)p[i]);
		}
		if (out != NULL)
			memset(out + k, c, run);
		k += run;
		if (k > WORKLOAD_MEMORY_MAX)
			return rs_err_setk(err, RS_E_INPUT, "field job: a command of more than %llu "
					   "bytes", (unsigned long long)WORKLOAD_MEMORY_MAX);
	}
	*len = k;
	return 0;
}

/* Offsets "a/b/c" or "-" into a new array (*out, *n), each with width
 * bytes from it inside len bytes.  0, or -1 with err. */
static int agentmsg_job_unoffs(const char *p, size_t n, uint64_t len, uint64_t width,
			       size_t **out, size_t *count, struct rs_err *err)
{
	size_t most = n / 2 + 1, k = 0;

	*out = NULL;
	*count = 0;
	if (n == 1 && p[0] == '-')
		return 0;
	*out = xcalloc(most, sizeof **out);
	for (size_t i = 0; i <= n;) {
		size_t j = i;
		uint64_t v;

		while (j < n && p[j] != '/')
			j++;
		if (len < width ||
		    agentmsg_job_num(p + i, j - i, 0, len - width, &v, "an offset", err) < 0)
			return len < width ? rs_err_setk(err, RS_E_INPUT, "field job: an offset in "
							 "a command of %llu bytes",
							 (unsigned long long)len) : -1;
		(*out)[k++] = (size_t)v;
		i = j + 1;
	}
	*count = k;
	return 0;
}

/* One m item's text, split at its first six commas. */
struct agentmsg_job_item {
	const char *f[7];
	size_t n[7];
};

static int agentmsg_job_split(const char *p, size_t n, struct agentmsg_job_item *it,
			      struct rs_err *err)
{
	size_t k = 0, from = 0;

	for (size_t i = 0; i < n && k < 6; i++)
		if (p[i] == ',') {
			it->f[k] = p + from;
			it->n[k++] = i - from;
			from = i + 1;
		}
	if (k < 6)
		return rs_err_setk(err, RS_E_INPUT, "field job: a command item of fewer than 7 "
				   "parts");
	it->f[6] = p + from;
	it->n[6] = n - from;
	return 0;
}

/* Member i of j from item it: its numbers and offsets (checked against
 * its length, which the bytes give without expanding them). */
static int agentmsg_job_unmember(const struct agentmsg_job_item *it, int mix, struct job *j,
				 size_t i, struct rs_err *err)
{
	struct engine_member *m = &j->members[i];
	uint64_t len, w, va, ve, kf;

	if (agentmsg_job_unbytes(it->f[6], it->n[6], NULL, &len, err) < 0)
		return -1;
	if (agentmsg_job_num(it->f[0], it->n[0], mix ? 1 : 0, mix ? ENGINE_MAX_WEIGHT : 0, &w,
			     "a weight", err) < 0 ||
	    agentmsg_job_num(it->f[1], it->n[1], 0, len, &va, "a value's place", err) < 0 ||
	    agentmsg_job_num(it->f[2], it->n[2], 0, len, &ve, "a value's end", err) < 0 ||
	    agentmsg_job_num(it->f[3], it->n[3], 0, len, &kf, "a key's place", err) < 0)
		return -1;
	if (ve != 0 && (!mix || va >= ve))
		return rs_err_setk(err, RS_E_INPUT, "field job: a value from %llu to %llu",
				   (unsigned long long)va, (unsigned long long)ve);
	if (agentmsg_job_unoffs(it->f[4], it->n[4], len, RNG_DIGITS, &j->own_rand[i],
				&m->nrand, err) < 0 ||
	    agentmsg_job_unoffs(it->f[5], it->n[5], len, RNG_DIGITS, &j->own_copy[i],
				&m->ncopy, err) < 0)
		return -1;
	if (m->ncopy > 0) {
		size_t r = 0;

		while (r < m->nrand && j->own_rand[i][r] != kf)
			r++;
		if (r == m->nrand)
			return rs_err_setk(err, RS_E_INPUT, "field job: a key copied from %llu, no "
					   "random key's place", (unsigned long long)kf);
	}
	m->len = (size_t)len;
	m->weight = (unsigned)w;
	m->value_at = (size_t)va;
	m->value_end = (size_t)ve;
	m->key_from = (size_t)kf;
	m->rand_off = j->own_rand[i];
	m->copy_off = j->own_copy[i];
	return 0;
}

/* The numbers' items: "name=value" into *v, each once. */
static const char *const agentmsg_job_names[] = { "mix", "r", "x", "e", "vmin", "vmax", "mr",
						  "kd", "arr", NULL };
#define AGENTMSG_JOB_ITEMS 9

/* Decode s into j; with expand 0 only read it (the numbers, the offsets
 * against the lengths, the key distribution's spec): no memory check, no
 * byte expanded, no table built. */
static int agentmsg_job_read(const char *s, size_t n, const struct engine_job *point,
			     uint64_t clients, unsigned threads, uint64_t cap, int expand,
			     struct job *j, struct rs_err *err)
{
	struct agentmsg_job_item items[ENGINE_MAX_MEMBERS];
	const char *val[AGENTMSG_JOB_ITEMS] = { 0 };
	size_t vlen[AGENTMSG_JOB_ITEMS] = { 0 }, nitems = 0;
	uint64_t v[7];
	static const uint64_t most[7] = { 1, AGENTMSG_JOB_REPLIES, 1, 15, 512u << 20, 512u << 20,
					  UINT64_MAX };
	int rc = 0;

	memset(j, 0, sizeof *j);
	for (size_t i = 0; i < n;) {
		size_t e = i, k;

		while (e < n && s[e] != ' ')
			e++;
		if (e - i > 2 && s[i] == 'm' && s[i + 1] == '=') {
			if (nitems == ENGINE_MAX_MEMBERS)
				return rs_err_setk(err, RS_E_INPUT, "field job: more than %d commands",
						   ENGINE_MAX_MEMBERS);
			if (agentmsg_job_split(s + i + 2, e - i - 2, &items[nitems++], err) < 0)
				return -1;
			i = e + 1;
			continue;
		}
		for (k = 0; agentmsg_job_names[k] != NULL; k++) {
			size_t l = strlen(agentmsg_job_names[k]);

			if (e - i > l && memcmp(s + i, agentmsg_job_names[k], l) == 0 && s[i + l] == '=')
				break;
		}
		/* The text is not NUL-terminated: the item's bytes only. */
		if (agentmsg_job_names[k] == NULL)
			return rs_err_setk(err, RS_E_INPUT, "field job: an item '%.*s' it does not "
					   "know", (int)(e - i < 20 ? e - i : 20), s + i);
		if (val[k] != NULL)
			return rs_err_setk(err, RS_E_INPUT, "field job: %s given twice",
					   agentmsg_job_names[k]);
		val[k] = s + i + strlen(agentmsg_job_names[k]) + 1;
		vlen[k] = e - i - strlen(agentmsg_job_names[k]) - 1;
		i = e + 1;
	}
	for (size_t k = 0; k < AGENTMSG_JOB_ITEMS; k++)
		if (val[k] == NULL)
			return rs_err_setk(err, RS_E_INPUT, "field job: no %s", agentmsg_job_names[k]);
	if (!(vlen[8] == 7 && memcmp(val[8], engine_arrivals_names[ENGINE_UNIFORM], 7) == 0) &&
	    !(vlen[8] == 7 && memcmp(val[8], engine_arrivals_names[ENGINE_POISSON], 7) == 0))
		return rs_err_setk(err, RS_E_INPUT, "field job: arr is not %s or %s",
				   engine_arrivals_names[ENGINE_UNIFORM],
				   engine_arrivals_names[ENGINE_POISSON]);
	for (size_t k = 0; k < 7; k++)
		if (agentmsg_job_num(val[k], vlen[k], 0, most[k], &v[k], agentmsg_job_names[k],
				     err) < 0)
			return -1;
	if (nitems == 0 || (v[0] == 0 && nitems != 1))
		return rs_err_setk(err, RS_E_INPUT, "field job: %zu commands for %s", nitems,
				   v[0] ? "a mix" : "one command");
	if (v[4] > v[5] || v[6] < WORKLOAD_MAX_REPLY_FLOOR)
		return rs_err_setk(err, RS_E_INPUT, "field job: values of %llu to %llu bytes, replies "
				   "up to %llu", (unsigned long long)v[4], (unsigned long long)v[5],
				   (unsigned long long)v[6]);
	j->e = *point;
	j->e.keydist = NULL;
	j->e.members = v[0] ? j->members : NULL;
	j->e.nmembers = v[0] ? nitems : 0;
	j->e.replies = (unsigned)v[1];
	j->e.transaction = (int)v[2];
	j->e.expect = (unsigned)v[3];
	j->e.vmin = (size_t)v[4];
	j->e.vmax = (size_t)v[5];
	j->e.max_reply = v[6];
	j->e.arrivals = val[8][0] == 'p' ? ENGINE_POISSON : ENGINE_UNIFORM;
	for (size_t i = 0; i < nitems && rc == 0; i++)
		rc = agentmsg_job_unmember(&items[i], (int)v[0], j, i, err);
	if (rc == 0 && !v[0]) {
		j->e.len = j->members[0].len;
		j->e.rand_off = j->members[0].rand_off;
		j->e.nrand = j->members[0].nrand;
		j->e.key_from = j->members[0].key_from;
		j->e.copy_off = j->members[0].copy_off;
		j->e.ncopy = j->members[0].ncopy;
	}
	/* The memory rule, before a byte is expanded or a table built. */
	if (rc == 0 && expand)
		rc = job_memory_check(&j->e, "the job", clients, threads, cap, err);
	if (rc == 0 && !(vlen[7] == 1 && val[7][0] == '-')) {
		struct keydist_spec spec;
		char text[KEYDIST_NAME_MAX * 2];

		if (vlen[7] >= sizeof text)
			rc = rs_err_setk(err, RS_E_INPUT, "field job: kd too long");
		else {
			memcpy(text, val[7], vlen[7]);
			text[vlen[7]] = '\0';
			if (keydist_parse(text, &spec, err) < 0 ||
			    (expand && keydist_new(&spec, point->keyspace, &j->own_kd, err) < 0))
				rc = rs_err_prefix(err, "field job: kd"), rs_err_as(err, RS_E_INPUT);
		}
		j->e.keydist = j->own_kd;
	}
	for (size_t i = 0; i < nitems && rc == 0 && expand; i++) {
		uint64_t len;

		j->own_cmd[i] = xmalloc(j->members[i].len + 1);
		rc = agentmsg_job_unbytes(items[i].f[6], items[i].n[6], j->own_cmd[i], &len, err);
		j->members[i].cmd = j->own_cmd[i];
	}
	if (rc == 0 && !v[0])
		j->e.cmd = j->members[0].cmd;
	if (rc < 0 || !expand)
		job_free(j);
	return rc;
}

int agentmsg_job_decode(const char *s, size_t n, const struct engine_job *point,
			uint64_t clients, unsigned threads, uint64_t cap, struct job *j,
			struct rs_err *err)
{
	return agentmsg_job_read(s, n, point, clients, threads, cap, 1, j, err);
}

int agentmsg_job_check(const char *s, size_t n, struct rs_err *err)
{
	const struct engine_job point = { .depth = 1 };
	struct job *j = xcalloc(1, sizeof *j);
	int rc = agentmsg_job_read(s, n, &point, 1, 1, UINT64_MAX, 0, j, err);

	free(j);
	return rc;
}
