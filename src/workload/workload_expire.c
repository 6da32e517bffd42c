/* workload_expire.c: --expire SECONDS on the catalogue's tests: SET sends
 * its value with EX; a write of another kind becomes a request of two
 * commands, the write and an EXPIRE of the key it wrote (one key a
 * request, struct workload_test's copy_off); the keys a read's
 * preparation fills get the TTL too (workload_prepare_cmds reads
 * t->expire).  MSET has no TTL of its own and is refused.  It never
 * touches a socket. */
#include "config.h"

#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/workload.h"
#include "workload/workload_int.h"
#include "base/xalloc.h"

/* Append "EX seconds" to SET's request: its array count goes from 3 to 5
 * (one digit either way, so every place found in it stays). */
static void workload_expire_set(struct workload_test *t, const char *secs)
{
	char tail[64];
	int n = snprintf(tail, sizeof tail, "$2\r\nEX\r\n$%zu\r\n%s\r\n", strlen(secs), secs);

	t->cmd = xrealloc(t->cmd, t->len + (size_t)n + 1);
	memcpy(t->cmd + t->len, tail, (size_t)n + 1);
	t->len += (size_t)n;
	t->cmd[1] = '5';
}

/* The key of t's request, argument 1, as formatted: its place and length. */
static int workload_expire_key(const struct workload_test *t, size_t *off, size_t *len)
{
	const char *p = memchr(t->cmd, '\n', t->len), *q;
	unsigned long long n;
	char *end;

	/* "*N\r\n$L\r\nCMD\r\n$K\r\nKEY\r\n": skip the command's name. */
	if (p == NULL || (p = memchr(p + 1, '\n', t->len - (size_t)(p + 1 - t->cmd))) == NULL)
		return -1;
	q = memchr(p + 1, '\n', t->len - (size_t)(p + 1 - t->cmd));
	if (q == NULL || q[1] != '$')
		return -1;
	n = strtoull(q + 2, &end, 10);
	*off = (size_t)(end + 2 - t->cmd);
	*len = (size_t)n;
	return *off + *len <= t->len ? 0 : -1;
}

/* t (a write of one key) as a sequence (workload_seq_join): t, then an
 * EXPIRE of its key; a random key is one key a request, drawn in the
 * write and repeated in the EXPIRE. */
static int workload_expire_seq(struct workload_test *t, const char *secs, struct rs_err *err)
{
	struct workload parts = { 0 };
	struct workload_test *w, *x, seq = { 0 };
	const unsigned counts[2] = { 1, 1 };
	size_t off, klen, xoff, xlen;
	char *cmd = NULL, *key;
	int n;

	if (workload_expire_key(t, &off, &klen) < 0)
		return rs_err_set(err, "%s: no key to expire", t->name);
	key = xmalloc(klen + 1);
	memcpy(key, t->cmd + off, klen);
	key[klen] = '\0';
	n = redisFormatCommand(&cmd, "EXPIRE %s %s", key, secs);
	free(key);
	if (n < 0)
		return rs_err_set(err, "%s: cannot format its EXPIRE", t->name);
	/* The write as it was; t's bytes and places are its own now. */
	w = workload_push(&parts);
	*w = *t;
	/* The EXPIRE, which makes no key. */
	x = workload_push(&parts);
	snprintf(x->name, sizeof x->name, "EXPIRE");
	snprintf(x->cmdstat, sizeof x->cmdstat, "expire");
	snprintf(x->prefix, sizeof x->prefix, "%s", t->prefix);
	x->cmd = xmalloc((size_t)n + 1);
	memcpy(x->cmd, cmd, (size_t)n + 1);
	x->len = (size_t)n;
	x->key_fixed = 1;
	free(cmd);
	/* The key's random digits, if any: the write's place is drawn, the
	 * EXPIRE's repeats it. */
	if (workload_expire_key(x, &xoff, &xlen) == 0 && xlen == klen)
		for (size_t r = 0; r < w->nrand; r++)
			if (w->rand_off[r] >= off && w->rand_off[r] < off + klen) {
				w->key_from = w->rand_off[r];
				x->rand_off = xmalloc(sizeof *x->rand_off);
				x->rand_off[0] = x->key_from = xoff + (w->rand_off[r] - off);
				x->nrand = 1;
			}
	memcpy(seq.name, t->name, sizeof seq.name);
	memcpy(seq.prefix, t->prefix, sizeof seq.prefix);
	seq.expire = t->expire;
	workload_seq_join(&seq, &parts, counts);
	*t = seq;
	return 0;
}

int workload_expire(struct workload *w, uint64_t seconds, struct rs_err *err)
{
	char secs[24];

	snprintf(secs, sizeof secs, "%llu", (unsigned long long)seconds);
	for (size_t i = 0; i < w->n; i++) {
		struct workload_test *t = &w->v[i];

		if (t->custom)
			return rs_err_setk(err, RS_E_USAGE, "--expire sets the catalogue's TTLs: write EX "
					   "or EXPIRE into your own commands instead");
		for (size_t m = 0; m <= t->nmembers; m++) {
			struct workload_test *x = m < t->nmembers ? &t->members[m] : t;

			if (x->nmembers > 0)
				continue;
			x->expire = seconds;
			if (strcmp(x->name, "MSET") == 0)
				return rs_err_setk(err, RS_E_USAGE, "--expire: MSET sets no TTL: leave it "
						   "out of -t");
			if (strcmp(x->name, "SET") == 0) {
				workload_expire_set(x, secs);
				continue;
			}
			/* The writes that name their key: INCR, the pushes, SADD, HSET, ZADD. */
			if (x->prep != PREP_NONE || x->key_per_request == 0)
				continue;
			if (m < t->nmembers)
				return rs_err_setk(err, RS_E_USAGE, "--expire: %s in a mix would need an "
						   "EXPIRE of its own a request: run it as a test of its own",
						   x->name);
			if (workload_expire_seq(x, secs, err) < 0)
				return rs_err_as(err, RS_E_USAGE);
		}
	}
	return 0;
}
