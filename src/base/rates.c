/* rates.c: the --rate list syntax: "50k..400k:x2,500k" into a list of rates. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "base/numlist.h"
#include "base/rates.h"
#include "base/vec.h"
#include "base/xalloc.h"

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

static int rates_add(void *ud, uint64_t r, const char *item, struct rs_err *err)
{
	struct rates_acc *acc = ud;

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

static const struct numlist_kind rates_kind = { "rate", rates_number, rates_add };

int rates_parse(const char *s, struct rate_list *out, struct rs_err *err)
{
	struct rates_acc acc = { NULL, 0, 0 };

	if (numlist_parse(s, &rates_kind, &acc, err) < 0) {
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
