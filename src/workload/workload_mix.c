/* workload_mix.c: mixes as tests (-t mix:get=80,set=20): their parsing,
 * name and members (their preparation is workload_prep.c's walk over the
 * members), and --ratio.  The engine draws the members per
 * request (engine.h's engine_member); this room only says what they are.
 * It never touches a socket. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/engine.h"
#include "base/sbuf.h"
#include "workload/workload.h"
#include "workload/workload_int.h"
#include "base/xalloc.h"

_Static_assert(WORKLOAD_MIX_MAX == ENGINE_MAX_MEMBERS, "a mix is what the engine can draw");
_Static_assert(WORKLOAD_MIX_WEIGHT_MAX == ENGINE_MAX_WEIGHT, "a weight the engine takes");

int workload_mix_add(struct workload *w, char *const *items, size_t nitems, const char *data,
		     size_t data_len, const char *prefix, struct rs_err *err)
{
	size_t cat[WORKLOAD_MIX_MAX];
	unsigned weight[WORKLOAD_MIX_MAX];
	struct workload members = { 0 };
	struct workload_test *t;
	char name[sizeof t->name];
	struct sbuf b;

	if (workload_mix_parse(items, nitems, cat, weight, err) < 0)
		return -1;
	sbuf_fixed(&b, name, sizeof name);
	sbuf_printf(&b, "MIX");
	for (size_t i = 0; i < nitems; i++)
		sbuf_printf(&b, "_%s%u", workload_catalogue[cat[i]].name, weight[i]);
	/* "get,mix:...,mix:..." twice the same: once is enough, as for tests. */
	for (size_t i = 0; i < w->n; i++)
		if (strcmp(w->v[i].name, name) == 0)
			return 0;
	for (size_t i = 0; i < nitems; i++)
		if (workload_add(&members, cat[i], data, data_len, prefix, err) < 0) {
			workload_free(&members);
			return -1;
		}
	t = workload_push(w);
	memcpy(t->name, name, sizeof t->name);
	snprintf(t->prefix, sizeof t->prefix, "%s", prefix);
	t->prep = PREP_NONE;
	t->members = members.v;
	t->nmembers = members.n;
	for (size_t i = 0; i < members.n; i++) {
		t->weights[i] = weight[i];
		t->expect |= members.v[i].expect;
		if (members.v[i].len > t->len)
			t->len = members.v[i].len;
		t->key_any |= members.v[i].key_any;
	}
	return 0;
}

void workload_mix_spec(const struct workload_test *t, char *buf, size_t size)
{
	struct sbuf b;

	sbuf_fixed(&b, buf, size);
	/* A sequence is no mix: its name says what it sends. */
	for (size_t i = 0; i < t->nmembers && !t->sequence; i++) {
		sbuf_item(&b, ",", "%s", "");
		/* A custom member's name is its command line, kept as written. */
		for (const char *p = t->members[i].name; *p; p++)
			sbuf_printf(&b, "%c", *p >= 'A' && *p <= 'Z' && !t->members[i].custom ?
					      *p + 32 : *p);
		sbuf_printf(&b, "=%u", t->weights[i]);
	}
}

/* One side of --ratio: digits only, 1..WORKLOAD_MIX_WEIGHT_MAX. */
static int workload_ratio_side(const char *ratio, const char *s, size_t n, const char *what,
			       unsigned *out, struct rs_err *err)
{
	uint64_t v = 0;

	if (n == 0)
		return rs_err_setk(err, RS_E_USAGE, "--ratio '%s' has no %s weight (S:G)", ratio,
				   what);
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return rs_err_setk(err, RS_E_USAGE, "--ratio '%s': the %s weight is not a "
					   "positive integer (S:G)", ratio, what);
		v = v * 10 + (uint64_t)(s[i] - '0');
		if (v > WORKLOAD_MIX_WEIGHT_MAX)
			break;
	}
	if (v == 0 || v > WORKLOAD_MIX_WEIGHT_MAX)
		return rs_err_setk(err, RS_E_USAGE, "--ratio '%s': the %s weight is out of range "
				   "(1 to %u; for %s alone say -t %s)", ratio, what,
				   WORKLOAD_MIX_WEIGHT_MAX, what[0] == 'S' ? "GET" : "SET",
				   what[0] == 'S' ? "get" : "set");
	*out = (unsigned)v;
	return 0;
}

int workload_ratio(const char *ratio, char *buf, size_t size, struct rs_err *err)
{
	const char *colon = strchr(ratio, ':');
	unsigned s, g;

	if (colon == NULL)
		return rs_err_setk(err, RS_E_USAGE, "--ratio '%s' is not S:G (memtier's Set:Get, "
				   "such as 1:10)", ratio);
	if (workload_ratio_side(ratio, ratio, (size_t)(colon - ratio), "SET", &s, err) < 0 ||
	    workload_ratio_side(ratio, colon + 1, strlen(colon + 1), "GET", &g, err) < 0)
		return -1;
	snprintf(buf, size, "mix:set=%u,get=%u", s, g);
	return 0;
}
