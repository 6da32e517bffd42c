/* workload_build.c: one test built: a catalogue entry (behind a key
 * prefix) or a custom command formatted as RESP, with the places of its
 * __rand_int__ digits, its keys and its value, and a workload's tests
 * freed.  What selects tests (workload.c), a mix (workload_mix.c), a
 * sequence and a command file build each of theirs here. */
#include "config.h"

#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/rng.h"
#include "base/sbuf.h"
#include "base/vec.h"
#include "base/xalloc.h"
#include "engine/pubsub_msg.h"
#include "workload/workload.h"
#include "workload/workload_int.h"

_Static_assert(WORKLOAD_RAND_LEN == RNG_DIGITS,
	       "the engine overwrites a whole __rand_int__, no more");

/* The places of pattern (WORKLOAD_RAND_LEN bytes) in t->cmd, appended to
 * *v (n of them, cap its room). */
static size_t *workload_find(const struct workload_test *t, const char *pattern, size_t *v,
			     size_t *n, size_t *cap)
{
	const char *p = t->cmd, *end = t->cmd + t->len;

	/* memmem is not POSIX: its first byte, then the rest. */
	while ((p = memchr(p, pattern[0], (size_t)(end - p))) != NULL) {
		if ((size_t)(end - p) < WORKLOAD_RAND_LEN)
			break;
		if (memcmp(p, pattern, WORKLOAD_RAND_LEN) != 0) {
			p++;
			continue;
		}
		v = vec_reserve(v, cap, *n + 1, sizeof *v, 4);
		v[(*n)++] = (size_t)(p - t->cmd);
		p += WORKLOAD_RAND_LEN;
	}
	return v;
}

/* Find the offsets of every __rand_int__ in t->cmd, and of each
 * WORKLOAD_KEY_MARK (a __key__): the first is a __rand_int__ like the
 * others, at key_from; the rest repeat its digits (copy_off).  Each mark
 * reads as __rand_int__, so that with -r 0 every key stays literal as
 * redis-benchmark leaves it. */
static void workload_find_rand(struct workload_test *t)
{
	size_t *keys = NULL, nkeys = 0, kcap = 0, cap = 0;

	keys = workload_find(t, WORKLOAD_KEY_MARK, keys, &nkeys, &kcap);
	for (size_t i = 0; i < nkeys; i++)
		memcpy(t->cmd + keys[i], WORKLOAD_RAND, WORKLOAD_RAND_LEN);
	if (nkeys > 0) {
		/* The first key is drawn: it must be a __rand_int__ when the rest
		 * are found, the others not, so they are found first. */
		t->key_from = keys[0];
		for (size_t i = 1; i < nkeys; i++)
			t->cmd[keys[i]] = '-';
	}
	t->rand_off = workload_find(t, WORKLOAD_RAND, t->rand_off, &t->nrand, &cap);
	for (size_t i = 1; i < nkeys; i++)
		t->cmd[keys[i]] = WORKLOAD_RAND[0];
	if (nkeys > 1) {
		t->copy_off = xreallocarray(NULL, nkeys - 1, sizeof *t->copy_off);
		memcpy(t->copy_off, keys + 1, (nkeys - 1) * sizeof *keys);
		t->ncopy = nkeys - 1;
	}
	free(keys);
}

char *workload_expand(const char *word, const char *data, size_t data_len)
{
	struct sbuf b;
	size_t kl = strlen(WORKLOAD_KEY), dl = strlen(WORKLOAD_DATA);

	sbuf_heap(&b);
	for (const char *p = word; *p;) {
		if (strncmp(p, WORKLOAD_KEY, kl) == 0) {
			sbuf_add(&b, WORKLOAD_KEY_MARK, WORKLOAD_RAND_LEN);
			p += kl;
		} else if (strncmp(p, WORKLOAD_DATA, dl) == 0) {
			sbuf_add(&b, data, data_len);
			p += dl;
		} else {
			sbuf_add(&b, p, 1);
			p++;
		}
	}
	return b.s;
}

/* t's value, the bulk string of argument idx, when it comes after every
 * key: its place into t->value_at and value_end. */
static void workload_find_value(struct workload_test *t, int idx)
{
	const char *p = memchr(t->cmd, '\n', t->len);

	if (p == NULL || t->cmd[0] != '*')
		return;
	p++;
	for (int i = 0; i <= idx; i++) {
		const char *at = p;
		char *end;
		unsigned long long n = strtoull(p + 1, &end, 10);

		p = end + 2 + n + 2;
		if (i < idx)
			continue;
		for (size_t r = 0; r < t->nrand; r++)
			if (t->rand_off[r] > (size_t)(at - t->cmd))
				return;
		for (size_t r = 0; r < t->ncopy; r++)
			if (t->copy_off[r] > (size_t)(at - t->cmd))
				return;
		t->value_at = (size_t)(at - t->cmd);
		t->value_end = (size_t)(p - t->cmd);
	}
}

/* Format argv into t's request ("@" is data, when data is not NULL), and
 * find its digit places and, when data_idx is one argument's, its value. */
static int workload_format(struct workload_test *t, int argc, const char *const *argv,
			   const char *data, size_t data_len, int data_idx, struct rs_err *err)
{
	const char **av = xcalloc((size_t)argc, sizeof *av);
	size_t *lens = xcalloc((size_t)argc, sizeof *lens);
	char *cmd = NULL;
	int len;

	for (int i = 0; i < argc; i++) {
		int is_data = strcmp(argv[i], "@") == 0 && data != NULL;

		av[i] = is_data ? data : argv[i];
		lens[i] = is_data ? data_len : strlen(argv[i]);
	}
	len = redisFormatCommandArgv(&cmd, argc, av, lens);
	free(av);
	free(lens);
	if (len < 0)
		return rs_err_set(err, "cannot format command %s", t->name);
	/* hiredis allocated it with its own allocator: copy to ours. */
	t->cmd = xmalloc((size_t)len + 1);
	memcpy(t->cmd, cmd, (size_t)len + 1);
	t->len = (size_t)len;
	free(cmd);
	workload_find_rand(t);
	if (data_idx > 0 && data_idx < argc)
		workload_find_value(t, data_idx);
	return 0;
}

char *workload_join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = xmalloc(la + lb + 1);

	memcpy(s, a, la);
	memcpy(s + la, b, lb + 1);
	return s;
}

/* How often pattern occurs in s. */
static unsigned workload_count(const char *s, const char *pattern)
{
	unsigned n = 0;

	while ((s = strstr(s, pattern)) != NULL) {
		n++;
		s += strlen(pattern);
	}
	return n;
}

/* Count key names in argv[from..argc) by how many __rand_int__ (or
 * __key__) they hold. */
static void workload_count_keys(struct workload_test *t, int from, int argc,
				const char *const *argv)
{
	for (int i = from; i < argc; i++) {
		/* Every __key__ of a request is the same key. */
		unsigned n = workload_count(argv[i], WORKLOAD_RAND) +
			     (workload_count(argv[i], WORKLOAD_KEY_MARK) > 0);

		if (n == 0)
			t->key_fixed++;
		else if (n == 1)
			t->key_rand++;
		else
			t->key_multi++;
	}
}

struct workload_test *workload_push(struct workload *w)
{
	w->v = vec_reserve(w->v, &w->cap, w->n + 1, sizeof *w->v, 4);
	memset(&w->v[w->n], 0, sizeof w->v[w->n]);
	return &w->v[w->n++];
}

const char *workload_prepare_base(enum workload_prep prep)
{
	switch (prep) {
	case PREP_LIST_POP:
	case PREP_LIST_RANGE:
		return "mylist";
	case PREP_SET_POP:
		return "myset";
	case PREP_ZSET_POP:
		return "myzset";
	case PREP_NONE:
	case PREP_STRINGS:
		break;
	}
	return NULL;
}

int workload_add(struct workload *w, size_t c, const char *data, size_t data_len,
		 const char *prefix, struct rs_err *err)
{
	const struct workload_entry *e = &workload_catalogue[c];
	const char *argv[24] = { NULL }, *base;
	char *keyed[24] = { NULL };
	struct workload_test *t;
	int argc = 0, rc, data_idx = -1;

	for (size_t i = 0; i < w->n; i++)
		if (strcmp(w->v[i].name, workload_catalogue[c].name) == 0)
			return 0;         /* "ping,ping_inline": once is enough */
	t = workload_push(w);
	snprintf(t->name, sizeof t->name, "%s", workload_catalogue[c].name);
	snprintf(t->cmdstat, sizeof t->cmdstat, "%s", workload_catalogue[c].cmdstat);
	t->prep = workload_catalogue[c].prep;
	t->expect = workload_catalogue[c].expect;
	/* The caller checked prefix: it fits. */
	snprintf(t->prefix, sizeof t->prefix, "%s", prefix);
	if ((base = workload_prepare_base(t->prep)) != NULL)
		snprintf(t->prepare_key, sizeof t->prepare_key, "%s%s", prefix, base);
	t->pubsub = e->pubsub;
	if (strcmp(workload_catalogue[c].name, "PING_INLINE") == 0) {
		t->cmd = xstrdup("PING\r\n");
		t->len = 6;
		return 0;
	}
	for (; e->argv[argc] != NULL; argc++) {
		argv[argc] = e->argv[argc];
		if (strcmp(argv[argc], "@") == 0 && t->ndata++ == 0)
			data_idx = argc;
		if (*prefix != '\0' && (e->keys >> argc & 1u))
			argv[argc] = keyed[argc] = workload_join(prefix, e->argv[argc]);
	}
	/* A message is at least its stamp: -d's bytes, or 'x' up to the
	 * stamp's length. */
	if (e->pubsub && data_len < PUBSUB_STAMP_LEN) {
		static const char pad[PUBSUB_STAMP_LEN + 1] = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";

		data = pad;
		data_len = PUBSUB_STAMP_LEN;
	}
	/* A catalogue command's key is its first argument (MSET repeats it);
	 * the tests that read prepared data (GET, pops, LRANGE) create none;
	 * a channel is no key. */
	if (argc > 1 && e->keys != 0) {
		workload_count_keys(t, 1, 2, argv);
		if (t->prep == PREP_NONE)
			t->key_per_request = (unsigned)__builtin_popcount(e->keys);
	}
	/* The engine patches every __rand_int__ workload_format finds.  No
	 * false one can appear where prefix meets key: the prefix holds none
	 * (workload_prefix_check), and a key begins with a letter that
	 * __rand_int__ does not hold (k, c, m), so none straddles the two. */
	rc = workload_format(t, argc, argv, data, data_len, t->ndata == 1 ? data_idx : -1, err);
	for (int i = 0; i < argc; i++)
		free(keyed[i]);
	return rc;
}

/* Built-in commands write only keys their arguments name, except these:
 * scripts and functions compute names; DEBUG RELOAD, MODULE LOAD and
 * REPLICAOF bring in whole datasets. */
static const char *const workload_unbounded[] = {
	"EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "FCALL", "FCALL_RO", "DEBUG", "MODULE",
	"REPLICAOF", "SLAVEOF", NULL
};

int workload_custom_fill(struct workload_test *t, int argc, char **argv, char *const *shown,
			 struct rs_err *err)
{
	int data_idx = -1;
	struct sbuf b;

	if (shown == NULL)
		shown = argv;
	/* The engine reads RESP2: a reply in RESP3 would read as garbage. */
	if (argc >= 2 && strcasecmp(argv[0], "HELLO") == 0 && strcmp(argv[1], "2") != 0)
		return rs_err_setk(err, RS_E_USAGE, "HELLO %.16s asks for RESP%.16s, which rsweep does "
				   "not speak (it reads RESP2: HELLO 2, or HELLO alone)", argv[1], argv[1]);
	sbuf_fixed(&b, t->name, sizeof t->name);
	for (int i = 0; i < argc && !b.cut; i++)
		sbuf_printf(&b, "%s%s", i ? " " : "", shown[i]);
	/* The name goes into the CSV's test column, which refuses control
	 * characters: show them as '?'. */
	for (char *c = t->name; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	for (size_t i = 0; argv[0][i] && i + 1 < sizeof t->cmdstat; i++)
		t->cmdstat[i] = (char)(argv[0][i] >= 'A' && argv[0][i] <= 'Z' ? argv[0][i] + 32 : argv[0][i]);
	t->prep = PREP_NONE;
	t->custom = 1;
	/* Any argument may name a key. */
	workload_count_keys(t, 1, argc, (const char *const *)argv);
	t->key_per_request = (unsigned)argc - 1;
	for (size_t i = 0; workload_unbounded[i] != NULL; i++)
		t->key_any |= strcasecmp(argv[0], workload_unbounded[i]) == 0;
	/* A word that is __data__ alone is the command's value. */
	for (int i = 1; i < argc; i++)
		if (strcmp(shown[i], WORKLOAD_DATA) == 0 && t->ndata++ == 0)
			data_idx = i;
	return workload_format(t, argc, (const char *const *)argv, NULL, 0,
			       t->ndata == 1 ? data_idx : -1, err);
}

void workload_free(struct workload *w)
{
	if (w == NULL)
		return;
	for (size_t i = 0; i < w->n; i++) {
		struct workload mix = { w->v[i].members, w->v[i].nmembers, w->v[i].nmembers };

		free(w->v[i].cmd);
		free(w->v[i].rand_off);
		free(w->v[i].copy_off);
		workload_free(&mix);
	}
	free(w->v);
	memset(w, 0, sizeof *w);
}

uint64_t workload_mac(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t m;

	if (__builtin_mul_overflow(a, b, &m) || __builtin_add_overflow(m, c, &m))
		return UINT64_MAX;
	return m;
}
