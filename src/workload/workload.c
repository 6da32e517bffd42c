/* workload.c: the test catalogue's tests and custom commands as requests:
 * their bytes, digit places, keys and values, and what a point needs in
 * memory.  Their preparation is workload_prep.c's. */
#include "config.h"

#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/engine.h"
#include "base/sbuf.h"
#include "base/vec.h"
#include "engine/pubsub_msg.h"
#include "workload/workload.h"
#include "workload/workload_int.h"
#include "base/xalloc.h"

_Static_assert(WORKLOAD_RAND_LEN == RNG_DIGITS,
	       "the engine overwrites a whole __rand_int__, no more");

#define NCAT workload_ncat


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
	/* A catalogue command's key is its first argument (MSET repeats it);
	 * the tests that read prepared data (GET, pops, LRANGE) create none. */
	/* A message is at least its stamp: -d's bytes, or 'x' up to the
	 * stamp's length. */
	if (e->pubsub && data_len < PUBSUB_STAMP_LEN) {
		static const char pad[PUBSUB_STAMP_LEN + 1] = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";

		data = pad;
		data_len = PUBSUB_STAMP_LEN;
	}
	/* A channel is no key. */
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

int workload_prefix_check(const char *prefix, struct rs_err *err)
{
	size_t len = strlen(prefix);

	if (len == 0)
		return rs_err_setk(err, RS_E_USAGE, "key prefix is empty");
	if (len > WORKLOAD_PREFIX_MAX)
		return rs_err_setk(err, RS_E_USAGE, "key prefix is %zu bytes, longer than %d",
				   len, WORKLOAD_PREFIX_MAX);
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)prefix[i];

		if (ch == ' ' || ch == '\t')
			return rs_err_setk(err, RS_E_USAGE, "key prefix '%s' holds a blank (%s) at byte %zu",
					   prefix, ch == ' ' ? "space" : "tab", i + 1);
		if (ch < 0x20 || ch == 0x7f)
			return rs_err_setk(err, RS_E_USAGE, "key prefix '%s' holds control character "
					   "0x%02x at byte %zu", prefix, ch, i + 1);
		if (ch == '{' || ch == '}')
			return rs_err_setk(err, RS_E_USAGE, "key prefix '%s' holds '%c': a hash tag would "
					   "move every key of a cluster into one slot", prefix, ch);
	}
	if (strstr(prefix, WORKLOAD_RAND) != NULL)
		return rs_err_setk(err, RS_E_USAGE, "key prefix '%s' holds " WORKLOAD_RAND ", which "
				   "every request would carry as random digits", prefix);
	return 0;
}

int workload_select(const char *list, uint64_t data_size, struct workload *out,
		    struct rs_err *err)
{
	return workload_select_prefix(list, data_size, NULL, out, err);
}

int workload_select_prefix(const char *list, uint64_t data_size, const char *prefix,
			   struct workload *out, struct rs_err *err)
{
	char *data, *copy, *p, *name;
	int rc = 0;

	memset(out, 0, sizeof *out);
	if (prefix == NULL)
		prefix = "";
	if (*prefix != '\0' && workload_prefix_check(prefix, err) < 0)
		return -1;
	data = xmalloc(data_size + 1);
	memset(data, 'x', data_size);
	data[data_size] = '\0';
	if (list == NULL || *list == '\0') {
		for (size_t c = 0; c < NCAT && rc == 0; c++)
			if (!workload_catalogue[c].pubsub)
				rc = workload_add(out, c, data, data_size, prefix, err);
		free(data);
		return rc;
	}
	copy = p = xstrdup(list);
	for (name = p; rc == 0 && name != NULL; name = p) {
		int found = 0;

		if ((p = strchr(name, ',')) != NULL)
			*p++ = '\0';

		while (*name == ' ')
			name++;
		if (strncasecmp(name, "mix:", 4) == 0) {
			/* The mix's items: this one, and each next one with an '='. */
			char *items[WORKLOAD_MIX_MAX + 1];
			size_t n = 0;

			items[n++] = name + 4;
			while (p != NULL && strchr(p, '=') != NULL &&
			       (strchr(p, ',') == NULL || strchr(p, '=') < strchr(p, ',')) &&
			       strncasecmp(p + strspn(p, " "), "mix:", 4) != 0) {
				char *item = p;

				if ((p = strchr(item, ',')) != NULL)
					*p++ = '\0';
				while (*item == ' ')
					item++;
				if (n == WORKLOAD_MIX_MAX) {
					rc = rs_err_setk(err, RS_E_USAGE, "mix '%s' has more than %d members",
							 name + 4, WORKLOAD_MIX_MAX);
					break;
				}
				items[n++] = item;
			}
			if (rc == 0)
				rc = workload_mix_add(out, items, n, data, data_size, prefix, err);
			continue;
		}
		for (size_t c = 0; c < NCAT && rc == 0; c++)
			if (strcasecmp(name, workload_catalogue[c].name) == 0 ||
			    (workload_catalogue[c].group && strcasecmp(name, workload_catalogue[c].group) == 0)) {
				found = 1;
				rc = workload_add(out, c, data, data_size, prefix, err);
			}
		if (!found && rc == 0) {
			char known[256];

			workload_known(known, sizeof known);
			rc = rs_err_set(err, "unknown test '%s' (known: %s)", name, known);
		}
	}
	free(copy);
	free(data);
	if (rc == 0 && out->n == 0)
		rc = rs_err_set(err, "no test selected");
	if (rc < 0)
		workload_free(out);
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

int workload_custom(int argc, char **argv, struct workload *out, struct rs_err *err)
{
	memset(out, 0, sizeof *out);
	if (argc < 1)
		return rs_err_set(err, "no command after --");
	if (workload_custom_fill(workload_push(out), argc, argv, NULL, err) < 0) {
		workload_free(out);
		return -1;
	}
	return 0;
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

/* Append one variadic command: head... then count generated members.
 * Returns 0, or -1 with err set when hiredis cannot format it (it fails
 * only when its own allocation fails). */
static uint64_t workload_sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t workload_sat_mul(uint64_t a, uint64_t b)
{
	return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

uint64_t workload_key_bound(const struct workload_test *t, uint64_t sent, uint64_t keyspace,
			    int prepare)
{
	/* With -r 0 (or 1) __rand_int__ gives one name however often it occurs. */
	uint64_t per_name = keyspace ? keyspace : 1;
	uint64_t names = workload_sat_add(t->key_fixed, workload_sat_mul(t->key_rand, per_name));
	uint64_t made = 0;

	/* A mix may write what any member may: their bounds added. */
	if (t->nmembers > 0) {
		for (size_t i = 0; i < t->nmembers; i++) {
			/* A sequence sends each of its commands weight times a request. */
			uint64_t n = t->sequence ? workload_sat_mul(sent, t->weights[i]) : sent;

			made = workload_sat_add(made, workload_key_bound(&t->members[i], n, keyspace,
									 prepare));
		}
		return made;
	}
	if (t->key_any)
		return UINT64_MAX;
	if (t->key_multi > 0)
		names = per_name > 1 ? UINT64_MAX : workload_sat_add(names, t->key_multi);
	/* What preparation makes is among the names the test itself uses
	 * (key:__rand_int__, mylist, myset, myzset). */
	if (prepare)
		made = t->prep == PREP_STRINGS ? per_name : t->prep == PREP_NONE ? 0 : 1;
	made = workload_sat_add(made, workload_sat_mul(sent, t->key_per_request));
	return made < names ? made : names;
}

uint64_t workload_mac(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t m;

	if (__builtin_mul_overflow(a, b, &m) || __builtin_add_overflow(m, c, &m))
		return UINT64_MAX;
	return m;
}

/* Values of data_size one reply of t carries. */
static uint64_t workload_reply_values(const struct workload_test *t)
{
	if (strcmp(t->name, "GET") == 0)
		return 1;
	if (strcmp(t->name, "LRANGE_500") == 0)
		return 450;       /* redis-benchmark's: LRANGE mylist 0 449 */
	if (strncmp(t->name, "LRANGE_", 7) == 0)
		return strtoull(t->name + 7, NULL, 10);
	return 0;
}

int workload_memory(const char *list, uint64_t data_size, unsigned depth, uint64_t clients,
		    uint64_t keyspace, struct workload_memory *out, struct rs_err *err)
{
	return workload_memory_prefix(list, NULL, data_size, depth, clients, keyspace, out, err);
}

int workload_memory_prefix(const char *list, const char *prefix, uint64_t data_size,
			   unsigned depth, uint64_t clients, uint64_t keyspace,
			   struct workload_memory *out, struct rs_err *err)
{
	struct workload w0, w1;
	unsigned digits = 1;

	/* A request's length at data_size from its lengths at 0 and 1 bytes:
	 * each copy of the data adds its bytes and its length's digits.  The
	 * prefix is in both, once per key. */
	if (workload_select_prefix(list, 0, prefix, &w0, err) < 0)
		return -1;
	if (workload_select_prefix(list, 1, prefix, &w1, err) < 0) {
		workload_free(&w0);
		return -1;
	}
	for (uint64_t d = data_size; d >= 10; d /= 10)
		digits++;
	out->bytes = 0;
	out->test[0] = '\0';
	for (size_t i = 0; i < w0.n; i++) {
		const struct workload_test *t = &w0.v[i];
		uint64_t copies = t->nrand && keyspace ? workload_mac(depth, clients, 0) : depth;
		uint64_t len = workload_mac(w1.v[i].len - t->len, data_size + digits - 1, t->len);
		uint64_t reply = workload_mac(workload_reply_values(t), data_size + 16, 0);
		uint64_t need;

		/* A mix: a buffer per connection, each request as long as the
		 * longest member, a reply as large as the largest. */
		for (size_t m = 0; m < t->nmembers; m++) {
			const struct workload_test *a = &t->members[m], *b = &w1.v[i].members[m];
			uint64_t ml = workload_mac(b->len - a->len, data_size + digits - 1, a->len);
			uint64_t mr = workload_mac(workload_reply_values(a), data_size + 16, 0);

			copies = workload_mac(depth, clients, 0);
			len = m == 0 || ml > len ? ml : len;
			reply = m == 0 || mr > reply ? mr : reply;
		}
		need = workload_mac(copies, len, len);

		need = workload_mac(reply, clients, need);
		if (need > out->bytes || out->test[0] == '\0') {
			out->bytes = need;
			snprintf(out->test, sizeof out->test, "%s", t->name);
		}
	}
	workload_free(&w0);
	workload_free(&w1);
	return 0;
}

int workload_memory_check(const char *list, uint64_t data_size, unsigned depth,
			  uint64_t clients, uint64_t keyspace, struct rs_err *err)
{
	return workload_memory_check_prefix(list, NULL, data_size, depth, clients, keyspace, err);
}

int workload_memory_check_prefix(const char *list, const char *prefix, uint64_t data_size,
				 unsigned depth, uint64_t clients, uint64_t keyspace,
				 struct rs_err *err)
{
	struct workload_memory m;

	if (workload_memory_prefix(list, prefix, data_size, depth, clients, keyspace, &m, err) < 0)
		return -1;
	if (m.bytes <= WORKLOAD_MEMORY_MAX)
		return 0;
	return rs_err_set(err, "%s at P=%u with %llu client%s needs %s%llu bytes of request buffers "
			  "and replies (more than 1 GiB): use a smaller -d, -P or -c", m.test, depth,
			  (unsigned long long)clients, clients == 1 ? "" : "s",
			  m.bytes == UINT64_MAX ? "more than " : "",
			  (unsigned long long)m.bytes);
}

uint64_t workload_max_reply(uint64_t data_size)
{
	/* The largest reply a catalogue test gets is LRANGE_600: 600 values
	 * of data_size bytes with their headers, well under 700 each. */
	uint64_t need = data_size * 700 + 65536;

	return need > WORKLOAD_MAX_REPLY_FLOOR ? need : WORKLOAD_MAX_REPLY_FLOOR;
}
