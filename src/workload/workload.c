/* workload.c: what -t and -- select as tests (the catalogue's names and
 * groups, mixes, a custom command), the keys a test may write, and the
 * memory a point needs.  Each test is built by workload_build.c; their
 * preparation is workload_prep.c's. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/xalloc.h"
#include "workload/workload.h"
#include "workload/workload_int.h"

#define NCAT workload_ncat

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
