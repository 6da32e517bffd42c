/* rates.c: the --rate list syntax: "50k..400k:x2,500k" into a list of rates. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "rates.h"
#include "vec.h"
#include "xalloc.h"

/* n bytes at s as one rate. */
static int rates_number(const char *s, size_t n, uint64_t *out, const char *item,
			struct rs_err *err)
{
	char buf[32];
	struct rs_err e;

	if (n == 0 || n >= sizeof buf)
		return rs_err_set(err, "'%s': expected a rate (requests a second)", item);
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (num_parse_u64(buf, 0, UINT64_MAX / 4, 1, out, &e) < 0)
		return rs_err_set(err, "'%s': %s", item, e.msg);
	if (*out == 0)
		return rs_err_set(err, "'%s': a rate is at least 1 request a second", item);
	if (*out > RATES_MAX_VALUE)
		return rs_err_set(err, "'%s': rate %llu is over %llu requests a second", item,
				  (unsigned long long)*out, RATES_MAX_VALUE);
	return 0;
}

struct rates_acc {
	uint64_t *v;
	size_t n, cap;
};

static int rates_add(struct rates_acc *acc, uint64_t r, const char *item, struct rs_err *err)
{
	/* At most RATES_MAX_POINTS: a scan is cheaper than a set. */
	for (size_t i = 0; i < acc->n; i++)
		if (acc->v[i] == r)
			return rs_err_set(err, "'%s': rate %llu is listed twice", item,
					  (unsigned long long)r);
	if (acc->n >= RATES_MAX_POINTS)
		return rs_err_set(err, "'%s': more than %d rates", item, RATES_MAX_POINTS);
	acc->v = vec_reserve(acc->v, &acc->cap, acc->n + 1, sizeof *acc->v, 8);
	acc->v[acc->n++] = r;
	return 0;
}

/* One item: "N", "A..B", "A..B:xK" or "A..B:+K". */
static int rates_item(const char *item, struct rates_acc *acc, struct rs_err *err)
{
	const char *dots = strstr(item, ".."), *colon;
	uint64_t a, b, step = 1;
	int mul = 0;

	if (dots == NULL)
		return rates_number(item, strlen(item), &a, item, err) < 0 ? -1 :
		       rates_add(acc, a, item, err);
	colon = strchr(dots, ':');
	if (rates_number(item, (size_t)(dots - item), &a, item, err) < 0 ||
	    rates_number(dots + 2, colon ? (size_t)(colon - dots - 2) : strlen(dots + 2), &b, item,
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
		if (rates_number(colon + 2, strlen(colon + 2), &step, item, err) < 0)
			return -1;
		if (mul && step < 2)
			return rs_err_set(err, "'%s': a multiplying step must be at least 2", item);
	}
	/* a, b and step are at most RATES_MAX_VALUE: no overflow. */
	for (uint64_t r = a; r <= b; r = mul ? r * step : r + step)
		if (rates_add(acc, r, item, err) < 0)
			return -1;
	return 0;
}

int rates_parse(const char *s, struct rate_list *out, struct rs_err *err)
{
	struct rates_acc acc = { NULL, 0, 0 };
	char *copy, *p, *item;
	int rc = 0;

	if (s == NULL || *s == '\0')
		return rs_err_set(err, "empty rate list");
	copy = p = xstrdup(s);
	/* strsep is not POSIX: split at each comma by hand, empty items too. */
	for (item = p; rc == 0 && item != NULL; item = p) {
		p = strchr(item, ',');
		if (p != NULL)
			*p++ = '\0';
		if (*item == '\0')
			rc = rs_err_set(err, "'%s': empty item in rate list", s);
		else
			rc = rates_item(item, &acc, err);
	}
	free(copy);
	if (rc < 0) {
		free(acc.v);
		return -1;
	}
	free(out->v);
	out->v = acc.v;
	out->n = acc.n;
	return 0;
}

void rates_free(struct rate_list *r)
{
	free(r->v);
	r->v = NULL;
	r->n = 0;
}
