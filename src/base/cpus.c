/* cpus.c: --cpus parsed, and a run's placement decided (cpus.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "base/cpus.h"

static int cpus_has(const struct cpus *c, unsigned i)
{
	return (int)(c->w[i / 64] >> (i % 64) & 1);
}

static void cpus_add(struct cpus *c, unsigned i)
{
	c->w[i / 64] |= (uint64_t)1 << (i % 64);
}

/* A CPU number at *p (decimal, below CPUS_MAX): 0 and *p past it, or -1. */
static int cpus_num(const char **p, const char *end, unsigned *v)
{
	unsigned n = 0;
	const char *q = *p;

	if (q >= end || *q < '0' || *q > '9')
		return -1;
	for (; q < end && *q >= '0' && *q <= '9'; q++) {
		n = n * 10 + (unsigned)(*q - '0');
		if (n >= CPUS_MAX)
			return -1;
	}
	*v = n;
	*p = q;
	return 0;
}

int cpus_list_parse(const char *s, size_t len, struct cpus *out, struct rs_err *err)
{
	const char *p = s, *end = s + len;

	memset(out, 0, sizeof *out);
	if (len == 0)
		return rs_err_setk(err, RS_E_USAGE, "an empty CPU list");
	for (;;) {
		unsigned a, b;

		if (cpus_num(&p, end, &a) < 0)
			return rs_err_setk(err, RS_E_USAGE, "'%.*s' is not a CPU list (0,2-3: CPUs "
					   "0 to %d)", (int)len, s, CPUS_MAX - 1);
		b = a;
		if (p < end && *p == '-') {
			p++;
			if (cpus_num(&p, end, &b) < 0 || b < a)
				return rs_err_setk(err, RS_E_USAGE, "'%.*s' is not a CPU list (a range "
						   "is LOW-HIGH, CPUs 0 to %d)", (int)len, s,
						   CPUS_MAX - 1);
		}
		for (unsigned i = a; i <= b; i++)
			cpus_add(out, i);
		if (p == end)
			return 0;
		if (*p != ',' || ++p == end)
			return rs_err_setk(err, RS_E_USAGE, "'%.*s' is not a CPU list (0,2-3: CPUs "
					   "0 to %d)", (int)len, s, CPUS_MAX - 1);
	}
}

int cpus_spec_parse(const char *s, struct cpus_spec *out, struct rs_err *err)
{
	const char *colon;

	memset(out, 0, sizeof *out);
	if (s == NULL || strcmp(s, "auto") == 0)
		return 0;
	if (strcmp(s, "none") == 0) {
		out->mode = CPUS_NONE;
		return 0;
	}
	if ((colon = strchr(s, ':')) == NULL || strchr(colon + 1, ':') != NULL)
		return rs_err_setk(err, RS_E_USAGE, "--cpus '%s': want SERVER:CLIENT (CPU lists, "
				   "as 1:0 or 2-3:0-1), none or auto", s);
	if (colon == s && colon[1] == '\0')
		return rs_err_setk(err, RS_E_USAGE, "--cpus ':' names no CPU (none turns placement "
				   "off)");
	out->mode = CPUS_GIVEN;
	out->has_server = colon > s;
	out->has_client = colon[1] != '\0';
	if (out->has_server && cpus_list_parse(s, (size_t)(colon - s), &out->server, err) < 0)
		return rs_err_prefix(err, "--cpus SERVER");
	if (out->has_client && cpus_list_parse(colon + 1, strlen(colon + 1), &out->client, err) < 0)
		return rs_err_prefix(err, "--cpus CLIENT");
	return 0;
}

const char *cpus_format(const struct cpus *c, char *buf, size_t size)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < CPUS_MAX; i++) {
		unsigned j = i;

		if (!cpus_has(c, i))
			continue;
		while (j + 1 < CPUS_MAX && cpus_has(c, j + 1))
			j++;
		if (at < size)
			at += (size_t)snprintf(buf + at, size - at, j > i ? "%s%u-%u" : "%s%u",
					       at ? "," : "", i, j);
		i = j;
	}
	return buf;
}

unsigned cpus_count(const struct cpus *c)
{
	unsigned n = 0;

	for (unsigned i = 0; i < CPUS_MAX; i++)
		n += (unsigned)cpus_has(c, i);
	return n;
}

int cpus_overlap(const struct cpus *a, const struct cpus *b)
{
	for (size_t k = 0; k < CPUS_WORDS; k++)
		if (a->w[k] & b->w[k])
			return 1;
	return 0;
}

/* The first CPU of c not in allowed, or -1. */
static int cpus_outside(const struct cpus *c, const struct cpus *allowed)
{
	for (unsigned i = 0; i < CPUS_MAX; i++)
		if (cpus_has(c, i) && !cpus_has(allowed, i))
			return (int)i;
	return -1;
}

int cpus_decide(const struct cpus_spec *spec, const struct cpus *allowed, size_t spawned,
		size_t all, struct cpus_place *out, struct rs_err *err)
{
	char may[256];
	unsigned n, half, seen = 0;
	int bad;

	memset(out, 0, sizeof *out);
	out->known = allowed != NULL;
	if (allowed != NULL)
		out->allowed = *allowed;
	if (spec->mode == CPUS_GIVEN) {
		if (allowed == NULL)
			return rs_err_setk(err, RS_E_USAGE, "--cpus: placement not available on this "
					   "system");
		cpus_format(allowed, may, sizeof may);
		if ((spec->has_server && (bad = cpus_outside(&spec->server, allowed)) >= 0) ||
		    (spec->has_client && (bad = cpus_outside(&spec->client, allowed)) >= 0))
			return rs_err_setk(err, RS_E_USAGE, "--cpus: CPU %d is not one this process "
					   "may use (it may use %s)", bad, may);
		if (spec->has_server && spawned == 0)
			return rs_err_setk(err, RS_E_USAGE, "--cpus: SERVER CPUs, but no target is a "
					   "server rsweep starts (write --cpus :CLIENT)");
		out->server_on = spec->has_server;
		out->client_on = spec->has_client;
		out->server = spec->server;
		out->client = spec->client;
		if (spawned > 0 && (!out->server_on || !out->client_on ||
				    cpus_overlap(&out->server, &out->client)))
			out->unplaced = "--cpus gives them CPUs that are not apart";
		return 0;
	}
	if (spawned == 0)
		return 0;
	if (spec->mode == CPUS_NONE) {
		out->unplaced = "--cpus none";
		return 0;
	}
	if (allowed == NULL) {
		out->unplaced = "placement not available on this system";
		return 0;
	}
	if (spawned < all) {
		out->unplaced = "a target rsweep does not start";
		return 0;
	}
	if ((n = cpus_count(allowed)) < 2) {
		out->unplaced = "one CPU";
		out->one_cpu = 1;
		return 0;
	}
	/* The server the upper half (a Redis is one busy thread, its I/O
	 * threads or a fork's more), the client the lower rest. */
	half = n / 2;
	for (unsigned i = 0; i < CPUS_MAX; i++) {
		if (!cpus_has(allowed, i))
			continue;
		cpus_add(seen++ < n - half ? &out->client : &out->server, i);
	}
	out->server_on = out->client_on = 1;
	return 0;
}
