/* numlist.c: expanding "1..64:x2,80"-style lists (numlist.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/numlist.h"
#include "base/xalloc.h"

/* One comma-separated item: "N", "A..B", "A..B:xK" or "A..B:+K". */
static int numlist_item(const char *item, const struct numlist_kind *k, void *acc,
			struct rs_err *err)
{
	const char *dots = strstr(item, ".."), *colon;
	uint64_t a, b, step = 1;
	int mul = 0;

	if (dots == NULL)
		return k->number(item, strlen(item), &a, item, err) < 0 ? -1 :
		       k->add(acc, a, item, err);
	colon = strchr(dots, ':');
	if (k->number(item, (size_t)(dots - item), &a, item, err) < 0 ||
	    k->number(dots + 2, colon ? (size_t)(colon - dots - 2) : strlen(dots + 2), &b, item,
		      err) < 0)
		return -1;
	if (b < a)
		return rs_err_set(err, "'%s': descending range (%llu > %llu)", item,
				  (unsigned long long)a, (unsigned long long)b);
	if (colon != NULL) {
		if (colon[1] == 'x' || colon[1] == '*')
			mul = 1;
		else if (colon[1] != '+')
			return rs_err_set(err, "'%s': a step is ':xK' (multiply) or ':+K' (add)", item);
		if (k->number(colon + 2, strlen(colon + 2), &step, item, err) < 0)
			return -1;
		if (mul && step < 2)
			return rs_err_set(err, "'%s': a multiplying step must be at least 2", item);
	}
	/* The kind keeps bounds and steps small enough not to overflow. */
	for (uint64_t v = a; v <= b; v = mul ? v * step : v + step)
		if (k->add(acc, v, item, err) < 0)
			return -1;
	return 0;
}

int numlist_parse(const char *s, const struct numlist_kind *k, void *acc, struct rs_err *err)
{
	char *copy, *p, *item;
	int rc = 0;

	if (s == NULL || *s == '\0')
		return rs_err_set(err, "empty %s list", k->noun);
	copy = p = xstrdup(s);
	/* strsep's split (an empty item stays one), which POSIX lacks. */
	for (item = p; rc == 0 && item != NULL; item = p) {
		if ((p = strchr(item, ',')) != NULL)
			*p++ = '\0';
		if (*item == '\0')
			rc = rs_err_set(err, "'%s': empty item in %s list", s, k->noun);
		else
			rc = numlist_item(item, k, acc, err);
	}
	free(copy);
	return rc;
}
