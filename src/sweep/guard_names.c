/* guard_names.c: which keys rsweep can have written (guard.h); pure, no sockets. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "net/cluster.h"
#include "sweep/guard.h"
#include "base/sbuf.h"
#include "workload/workload.h"
#include "base/xalloc.h"

void guard_names_init(struct guard_names *g, int tagged)
{
	memset(g, 0, sizeof *g);
	g->tagged = tagged;
}

void guard_names_clear(struct guard_names *g)
{
	for (size_t i = 0; i < g->n; i++)
		free(g->tmpl[i]);
	g->n = 0;
	g->unnamed = 0;
}

void guard_names_free(struct guard_names *g)
{
	if (g == NULL)
		return;
	guard_names_clear(g);
	free(g->tmpl);
	g->tmpl = NULL;
}

void guard_names_add(struct guard_names *g, const struct workload_test *t)
{
	size_t off, len;
	char *k;

	/* A mix writes what its members write. */
	for (size_t i = 0; i < t->nmembers; i++)
		guard_names_add(g, &t->members[i]);
	if (t->nmembers > 0)
		return;
	if (t->custom || t->key_any) {
		g->unnamed = 1;
		return;
	}
	/* PING and PING_INLINE name no key, and write none. */
	if (cluster_key_arg(t->cmd, t->len, &off, &len) < 0)
		return;
	for (size_t i = 0; i < g->n; i++)
		if (strlen(g->tmpl[i]) == len && memcmp(g->tmpl[i], t->cmd + off, len) == 0)
			return;
	k = xmalloc(len + 1);
	memcpy(k, t->cmd + off, len);
	k[len] = '\0';
	g->tmpl = xrealloc(g->tmpl, (g->n + 1) * sizeof *g->tmpl);
	g->tmpl[g->n++] = k;
}

void guard_names_catalogue(struct guard_names *g, const char *prefix)
{
	struct workload w = { 0 };
	struct rs_err e;

	/* Every catalogue test, with a byte of data: only the keys count. */
	if (workload_select_prefix(NULL, 1, prefix, &w, &e) < 0) {
		g->unnamed = 0;
		return;
	}
	for (size_t i = 0; i < w.n; i++)
		guard_names_add(g, &w.v[i]);
	workload_free(&w);
}

/* Whether key[0..len) is "{digits}". */
static int guard_is_tag(const char *key, size_t len)
{
	if (len < 3 || key[0] != '{' || key[len - 1] != '}')
		return 0;
	for (size_t i = 1; i + 1 < len; i++)
		if (key[i] < '0' || key[i] > '9')
			return 0;
	return 1;
}

static int guard_tmpl_ok(const char *tmpl, int tagged, const char *key, size_t len)
{
	size_t rl = strlen(WORKLOAD_RAND), i = 0;

	while (*tmpl != '\0') {
		if (strncmp(tmpl, WORKLOAD_RAND, rl) == 0) {
			size_t d = 0;

			if (len - i >= rl && memcmp(key + i, WORKLOAD_RAND, rl) == 0) {
				i += rl;
			} else {
				while (i + d < len && key[i + d] >= '0' && key[i + d] <= '9')
					d++;
				if (d == 0)
					return 0;
				i += d;
			}
			tmpl += rl;
			continue;
		}
		if (i >= len || key[i] != *tmpl)
			return 0;
		i++;
		tmpl++;
	}
	return i == len || (tagged && guard_is_tag(key + i, len - i));
}

int guard_name_ok(const struct guard_names *g, const char *key, size_t len)
{
	if (g->unnamed)
		return 1;
	for (size_t i = 0; i < g->n; i++)
		if (guard_tmpl_ok(g->tmpl[i], g->tagged, key, len))
			return 1;
	return 0;
}

/* tmpl as an anchored Lua pattern: rand "%d+" (or, lit set, literal),
 * tag "{%d+}" at the end when set. */
static char *guard_pattern(const char *tmpl, int lit, int tag)
{
	size_t rl = strlen(WORKLOAD_RAND);
	struct sbuf b;

	sbuf_heap(&b);
	sbuf_printf(&b, "^");
	while (*tmpl != '\0') {
		if (!lit && strncmp(tmpl, WORKLOAD_RAND, rl) == 0) {
			sbuf_printf(&b, "%%d+");
			tmpl += rl;
			continue;
		}
		if (strchr("^$()%.[]*+-?", *tmpl) != NULL)
			sbuf_printf(&b, "%%");
		sbuf_printf(&b, "%c", *tmpl++);
	}
	sbuf_printf(&b, "%s$", tag ? "{%d+}" : "");
	return b.s;
}

size_t guard_patterns(const struct guard_names *g, char ***out)
{
	size_t n = 0;
	char **p = xmalloc((g->n * 4 + 1) * sizeof *p);

	for (size_t i = 0; i < g->n; i++)
		for (int tag = 0; tag <= g->tagged; tag++) {
			p[n++] = guard_pattern(g->tmpl[i], 0, tag);
			if (strstr(g->tmpl[i], WORKLOAD_RAND) != NULL)
				p[n++] = guard_pattern(g->tmpl[i], 1, tag);
		}
	*out = p;
	return n;
}

void guard_patterns_free(char **p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i]);
	free(p);
}
