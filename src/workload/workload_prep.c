/* workload_prep.c: what a test needs before it is timed, so that it reads
 * real data (GET's keys, a pop's elements, LRANGE's list), as commands to
 * pipeline: their plan, their size check, the values of --data-size-range's
 * sizes and --expire's TTLs.  It never touches a socket. */
#include "config.h"

#include <hiredis/hiredis.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "workload/workload.h"
#include "workload/workload_int.h"
#include "base/xalloc.h"

/* LRANGE_600 reads elements 0..599. */
#define WORKLOAD_RANGE_LEN 600
/* Preparation larger than this many elements is refused rather than
 * filling the server's memory behind the user's back. */
#define WORKLOAD_PREP_MAX 50000000ULL
/* Elements per variadic preparation command. */
#define WORKLOAD_PREP_CHUNK 1000

/* --expire: append EXPIRE of count keys named by key (its __rand_int__,
 * if any, the numbers first.. in turn) for secs seconds to *buf, and
 * count them in *ncmds. */
static int prep_expire(char **buf, size_t *len, size_t *ncmds, const char *key, uint64_t first,
		       uint64_t count, uint64_t secs, struct rs_err *err)
{
	const char *rand = strstr(key, WORKLOAD_RAND);
	char *k = xstrdup(key), *cmd = NULL;
	int n = 0;

	for (uint64_t i = 0; i < count && n >= 0; i++) {
		if (rand != NULL)
			rng_put_digits(k + (rand - key), first + i);
		if ((n = redisFormatCommand(&cmd, "EXPIRE %s %llu", k, (unsigned long long)secs)) < 0)
			break;
		*buf = xrealloc(*buf, *len + (size_t)n);
		memcpy(*buf + *len, cmd, (size_t)n);
		*len += (size_t)n;
		(*ncmds)++;
		free(cmd);
	}
	free(k);
	return n < 0 ? rs_err_set(err, "cannot format the EXPIRE of %s", key) : 0;
}

/* The size of element i's value of data_min..data_len bytes: one of the
 * range, the same from run to run. */
static size_t prep_value_len(uint64_t i, size_t data_min, size_t data_len)
{
	uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ULL;

	if (data_min >= data_len)
		return data_len;
	x ^= x >> 31;
	x *= 0xBF58476D1CE4E5B9ULL;
	x ^= x >> 29;
	return data_min + (size_t)(x % (data_len - data_min + 1));
}

static int prep_append(char **buf, size_t *len, int nhead, const char **head, uint64_t first,
		       uint64_t count, const char *member_fmt, int with_score, const char *data,
		       size_t data_len, size_t data_min, struct rs_err *err)
{
	size_t per = (size_t)(with_score != 0) + (member_fmt != NULL) + (data != NULL && !with_score);
	int argc = nhead + (int)(count * per);
	const char **av = xcalloc((size_t)argc, sizeof *av);
	size_t *lens = xcalloc((size_t)argc, sizeof *lens);
	/* A slot per member: the member (a prefixed key is up to
	 * WORKLOAD_PREFIX_MAX + 16 bytes), then its score's digits. */
	size_t mlen = member_fmt != NULL ? strlen(member_fmt) : 0, slot = mlen + 32;
	const char *rand = member_fmt != NULL ? strstr(member_fmt, WORKLOAD_RAND) : NULL;
	char *names = xmalloc(count * slot), *cmd = NULL;
	int k = 0, n;

	for (int i = 0; i < nhead; i++) {
		av[k] = head[i];
		lens[k++] = strlen(head[i]);
	}
	for (uint64_t i = 0; i < count; i++) {
		char *s = names + i * slot;
		char *score = s + mlen;

		if (with_score) {
			lens[k] = (size_t)snprintf(score, 32, "%llu", (unsigned long long)(first + i));
			av[k++] = score;
		}
		if (member_fmt != NULL) {
			memcpy(s, member_fmt, mlen);
			lens[k] = mlen;
			if (rand != NULL)
				rng_put_digits(s + (rand - member_fmt), first + i);
			av[k++] = s;
		}
		if (data != NULL && !with_score) {
			av[k] = data;
			lens[k++] = prep_value_len(first + i, data_min, data_len);
		}
	}
	n = redisFormatCommandArgv(&cmd, k, av, lens);
	free(av);
	free(lens);
	free(names);
	if (n < 0)
		return rs_err_set(err, "cannot format a %s of %llu elements to prepare", head[0],
				  (unsigned long long)count);
	*buf = xrealloc(*buf, *len + (size_t)n);
	memcpy(*buf + *len, cmd, (size_t)n);
	*len += (size_t)n;
	free(cmd);
	return 0;
}

/* Elements test t needs prepared for count requests. */
static uint64_t workload_prepare_total(const struct workload_test *t, uint64_t count,
				       uint64_t keyspace)
{
	switch (t->prep) {
	case PREP_NONE:
		return 0;
	case PREP_STRINGS:
		return keyspace ? keyspace : 1;
	case PREP_LIST_RANGE:
		return WORKLOAD_RANGE_LEN;
	default:
		return count;
	}
}

uint64_t workload_prepare_elements(const struct workload_test *t, uint64_t count,
				   uint64_t keyspace)
{
	uint64_t n = workload_prepare_total(t, count, keyspace);

	for (size_t i = 0; i < t->nmembers; i++) {
		uint64_t m = workload_prepare_elements(&t->members[i], count, keyspace);

		n = m > n ? m : n;
	}
	return n;
}

int workload_prepare_check(const struct workload_test *t, uint64_t count, uint64_t keyspace,
			   uint64_t data_size, struct rs_err *err)
{
	/* A mix: each member for every request, since each may draw it. */
	for (size_t i = 0; i < t->nmembers; i++)
		if (workload_prepare_check(&t->members[i], count, keyspace, data_size, err) < 0)
			return rs_err_prefix(err, "%s", t->name);
	uint64_t total = workload_prepare_total(t, count, keyspace);
	/* The values, and the prefix on each key filled: one per string, one
	 * list or set. */
	uint64_t keys = t->prep == PREP_STRINGS ? total : total != 0;
	uint64_t bytes = workload_mac(keys, strlen(t->prefix), workload_mac(data_size, total, 0));

	if (total > WORKLOAD_PREP_MAX)
		return rs_err_set(err, "%s would need %llu keys or elements prepared (more than %llu): "
				  "use a smaller -r, -n or --duration, or --no-prepare", t->name,
				  (unsigned long long)total, WORKLOAD_PREP_MAX);
	if (bytes > (uint64_t)4 << 30)
		return rs_err_set(err, "%s would need %s%llu bytes prepared (more than 4 GiB): use a "
				  "smaller -d, -r or -n", t->name, bytes == UINT64_MAX ? "more than " : "",
				  (unsigned long long)bytes);
	return 0;
}

const char *workload_prepare_key(const struct workload_test *t)
{
	return workload_prepare_base(t->prep) != NULL ? t->prepare_key : NULL;
}

int workload_prepare_cmds(const struct workload_test *t, uint64_t count, uint64_t keyspace,
			  uint64_t data_size, char **buf, size_t *len, size_t *ncmds,
			  struct rs_err *err)
{
	return workload_prepare_sized(t, count, keyspace, data_size, data_size, buf, len, ncmds,
				      err);
}

int workload_prepare_sized(const struct workload_test *t, uint64_t count, uint64_t keyspace,
			   uint64_t data_min, uint64_t data_size, char **buf, size_t *len,
			   size_t *ncmds, struct rs_err *err)
{
	return workload_prepare_part(t, count, keyspace, data_min, data_size, 0, UINT64_MAX, buf,
				     len, ncmds, err);
}

/* Append a member's preparation (mb, ml bytes of mn commands, which it
 * frees) to a mix's (*buf, *len bytes of *ncmds commands). */
static void workload_prepare_append(char **buf, size_t *len, size_t *ncmds, char *mb, size_t ml,
				    size_t mn)
{
	if (ml > 0) {
		*buf = xrealloc(*buf, *len + ml);
		memcpy(*buf + *len, mb, ml);
		*len += ml;
		*ncmds += mn;
	}
	free(mb);
}

int workload_prepare_members(const struct workload_test *t, workload_part_fn *part, void *ctx,
			     char **buf, size_t *len, size_t *ncmds, struct rs_err *err)
{
	*len = 0;
	*ncmds = 0;
	/* Each member for every request: any request may draw it. */
	for (size_t i = 0; i < t->nmembers; i++) {
		char *mb = NULL;
		size_t ml, mn;

		if (part(ctx, &t->members[i], &mb, &ml, &mn, err) < 0) {
			free(*buf);
			*buf = NULL;
			*len = 0;
			*ncmds = 0;
			return rs_err_prefix(err, "%s", t->name);
		}
		workload_prepare_append(buf, len, ncmds, mb, ml, mn);
	}
	return 0;
}

/* workload_prepare_part's arguments besides the test, for a mix's members. */
struct workload_part_args {
	uint64_t count, keyspace, data_min, data_size, from, upto;
};

/* A mix's member's part (workload_part_fn): as workload_prepare_part. */
static int workload_prepare_member(void *ctx, const struct workload_test *m, char **buf,
				   size_t *len, size_t *ncmds, struct rs_err *err)
{
	const struct workload_part_args *a = ctx;

	return workload_prepare_part(m, a->count, a->keyspace, a->data_min, a->data_size, a->from,
				     a->upto, buf, len, ncmds, err);
}

int workload_prepare_part(const struct workload_test *t, uint64_t count, uint64_t keyspace,
			  uint64_t data_min, uint64_t data_size, uint64_t from, uint64_t upto,
			  char **buf, size_t *len, size_t *ncmds, struct rs_err *err)
{
	char *data, *strkey;
	uint64_t total = workload_prepare_total(t, count, keyspace), last;
	int rc = 0;

	*len = 0;
	*ncmds = 0;
	if (t->nmembers > 0) {
		struct workload_part_args a = { count, keyspace, data_min, data_size, from, upto };

		return workload_prepare_members(t, workload_prepare_member, &a, buf, len, ncmds,
						err);
	}
	/* The part holds the chunks that start in from..upto-1. */
	from = (from + WORKLOAD_PREP_CHUNK - 1) / WORKLOAD_PREP_CHUNK * WORKLOAD_PREP_CHUNK;
	if (total == 0 || from >= total || from >= upto)
		return 0;
	last = (total - 1) / WORKLOAD_PREP_CHUNK * WORKLOAD_PREP_CHUNK;
	if (workload_prepare_check(t, count, keyspace, data_size, err) < 0)
		return -1;
	data = xmalloc(data_size + 1);
	memset(data, 'x', data_size);
	/* Values sized per request are random bytes; so are the prepared. */
	if (data_min < data_size) {
		uint64_t s = 0x9E3779B97F4A7C15ULL;

		for (size_t k = 0; k < data_size; k++)
			data[k] = (char)(rng_next(&s) >> 56);
	}
	data[data_size] = '\0';
	strkey = workload_join(t->prefix, "key:" WORKLOAD_RAND);
	for (uint64_t first = from; first < total && first < upto && rc == 0;
	     first += WORKLOAD_PREP_CHUNK) {
		uint64_t n = total - first < WORKLOAD_PREP_CHUNK ? total - first : WORKLOAD_PREP_CHUNK;

		switch (t->prep) {
		case PREP_STRINGS: {
			const char *head[] = { "MSET" };

			if (keyspace == 0) {
				/* Fixed keys: GET asks for the literal key:__rand_int__. */
				const char *h2[] = { "SET", strkey, data };

				rc = prep_append(buf, len, 3, h2, 0, 0, NULL, 0, NULL, 0, 0, err);
				if (rc == 0 && t->expire > 0)
					rc = prep_expire(buf, len, ncmds, strkey, 0, 1, t->expire, err);
			} else {
				rc = prep_append(buf, len, 1, head, first, n, strkey, 0, data, data_size, data_min,
						 err);
				/* --expire: each key its TTL, as SET ... EX gives it. */
				if (rc == 0 && t->expire > 0)
					rc = prep_expire(buf, len, ncmds, strkey, first, n, t->expire, err);
			}
			break;
		}
		case PREP_LIST_POP:
		case PREP_LIST_RANGE: {
			const char *head[] = { "RPUSH", t->prepare_key };

			rc = prep_append(buf, len, 2, head, first, n, NULL, 0, data, data_size, data_min,
					 err);
			break;
		}
		case PREP_SET_POP: {
			const char *head[] = { "SADD", t->prepare_key };

			rc = prep_append(buf, len, 2, head, first, n, "element:" WORKLOAD_RAND, 0, NULL, 0, 0,
					 err);
			break;
		}
		case PREP_ZSET_POP: {
			const char *head[] = { "ZADD", t->prepare_key };

			rc = prep_append(buf, len, 2, head, first, n, "element:" WORKLOAD_RAND, 1, NULL, 0, 0,
					 err);
			break;
		}
		case PREP_NONE:
			break;
		}
		(*ncmds)++;
	}
	/* --expire: the one key a collection's preparation filled, once it is
	 * (with the part that fills its last elements). */
	if (rc == 0 && t->expire > 0 && t->prep != PREP_STRINGS && last < upto)
		rc = prep_expire(buf, len, ncmds, t->prepare_key, 0, 1, t->expire, err);
	free(strkey);
	free(data);
	if (rc < 0) {
		/* No half-built preparation: the caller sends nothing. */
		free(*buf);
		*buf = NULL;
		*len = 0;
		*ncmds = 0;
	}
	return rc;
}

