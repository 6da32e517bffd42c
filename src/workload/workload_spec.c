/* workload_spec.c: the catalogue's names as -t spells them, and a mix's
 * items: what a test's or a mix's name means, without formatting any
 * command.  Pure: it never touches hiredis, a socket or stdout. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/sbuf.h"
#include "workload/workload.h"
#include "workload/workload_int.h"

/* The names -t accepts, lower case, in catalogue order with each group
 * before its first member: "ping, ping_inline, ..., mset".  Built from the
 * catalogue so that a new test cannot be left out. */
void workload_known(char *out, size_t size)
{
	struct sbuf b;

	sbuf_fixed(&b, out, size);
	for (size_t c = 0; c < workload_ncat; c++) {
		const char *group = workload_catalogue[c].group;

		if (group != NULL && (c == 0 || workload_catalogue[c - 1].group == NULL ||
				      strcmp(workload_catalogue[c - 1].group, group) != 0))
			sbuf_item(&b, ", ", "%s", group);
		sbuf_item(&b, ", ", "%s", "");
		for (const char *p = workload_catalogue[c].name; *p; p++)
			sbuf_printf(&b, "%c", *p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
	}
}

size_t workload_mix_find(const char *name)
{
	/* PUBLISH needs its subscribers, which a mix has not. */
	for (size_t c = 0; c < workload_ncat; c++)
		if (strcasecmp(name, workload_catalogue[c].name) == 0 && !workload_catalogue[c].pubsub)
			return c;
	return workload_ncat;
}

/* Whether name is a group of the catalogue ("ping", "lrange"). */
static int workload_mix_is_group(const char *name)
{
	for (size_t c = 0; c < workload_ncat; c++)
		if (workload_catalogue[c].group != NULL &&
		    strcasecmp(name, workload_catalogue[c].group) == 0)
			return 1;
	return 0;
}

/* One member "name=weight" into its catalogue index and weight. */
static int workload_mix_member(const char *item, size_t *cat, unsigned *weight,
			       struct rs_err *err)
{
	const char *eq = strchr(item, '=');
	char name[64], *end;
	unsigned long v;
	size_t n;

	if (*item == '\0')
		return rs_err_setk(err, RS_E_USAGE, "a mix has an empty member (mix:NAME=WEIGHT,...)");
	if (eq == NULL)
		return rs_err_setk(err, RS_E_USAGE, "mix member '%s' has no weight (NAME=WEIGHT)", item);
	n = (size_t)(eq - item);
	while (n > 0 && item[n - 1] == ' ')
		n--;
	if (n == 0 || n >= sizeof name)
		return rs_err_setk(err, RS_E_USAGE, "mix member '%s' has no test name", item);
	memcpy(name, item, n);
	name[n] = '\0';
	if ((*cat = workload_mix_find(name)) == workload_ncat) {
		char known[256];

		if (workload_mix_is_group(name))
			return rs_err_setk(err, RS_E_USAGE, "mix member '%s' names several tests: name "
					   "one of them", name);
		if (strcasecmp(name, "publish") == 0 || strcasecmp(name, "spublish") == 0)
			return rs_err_setk(err, RS_E_USAGE, "mix member '%s': a mix has no "
					   "subscribers; give -t %s apart", name, name);
		workload_known(known, sizeof known);
		return rs_err_setk(err, RS_E_USAGE, "unknown test '%s' in a mix (known: %s)", name,
				   known);
	}
	/* strtoul would take a sign or blanks: digits only. */
	if (eq[1] < '0' || eq[1] > '9')
		return rs_err_setk(err, RS_E_USAGE, "mix member '%s': weight '%s' is not a positive "
				   "integer", name, eq + 1);
	v = strtoul(eq + 1, &end, 10);
	if (*end != '\0')
		return rs_err_setk(err, RS_E_USAGE, "mix member '%s': weight '%s' is not a positive "
				   "integer", name, eq + 1);
	if (v == 0 || v > WORKLOAD_MIX_WEIGHT_MAX)
		return rs_err_setk(err, RS_E_USAGE, "mix member '%s': weight %s is out of range "
				   "(1 to %u)", name, eq + 1, WORKLOAD_MIX_WEIGHT_MAX);
	*weight = (unsigned)v;
	return 0;
}

int workload_mix_parse(char *const *items, size_t nitems, size_t *cat, unsigned *weight,
		       struct rs_err *err)
{
	if (nitems > WORKLOAD_MIX_MAX)
		return rs_err_setk(err, RS_E_USAGE, "a mix has more than %d members", WORKLOAD_MIX_MAX);
	for (size_t i = 0; i < nitems; i++) {
		if (workload_mix_member(items[i], &cat[i], &weight[i], err) < 0)
			return -1;
		for (size_t k = 0; k < i; k++)
			if (cat[k] == cat[i])
				return rs_err_setk(err, RS_E_USAGE, "mix member '%s' is named twice",
						   workload_catalogue[cat[i]].name);
	}
	if (nitems < 2)
		return rs_err_setk(err, RS_E_USAGE, "mix '%s' has one member: a mix needs two or more "
				   "(or name the test alone)", nitems ? items[0] : "");
	return 0;
}
