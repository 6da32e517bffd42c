/* axis.c: the lists of -c, -d and --threads, and their product. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/axis.h"
#include "base/num.h"
#include "base/numlist.h"
#include "base/vec.h"
#include "base/xalloc.h"

/* The bounds a value must keep, and the list being built. */
struct axis_acc {
	uint64_t min, max;
	uint64_t *v;
	size_t n, cap;
};

/* n bytes at s as one value (numlist.h); the range is checked when the
 * value is added, since a step ("x2") is no value of the list. */
static int axis_number(const char *s, size_t n, uint64_t *out, const char *item,
		       struct rs_err *err)
{
	char buf[32];
	struct rs_err e;

	if (n == 0 || n >= sizeof buf)
		return rs_err_set(err, "'%s': expected a number", item);
	memcpy(buf, s, n);
	buf[n] = '\0';
	/* Bounds times steps must fit 64 bits (numlist.h). */
	if (num_parse_u64(buf, 0, UINT32_MAX, 1, out, &e) < 0)
		return strcmp(buf, item) == 0 ? rs_err_set(err, "%s", e.msg) :
		       rs_err_set(err, "'%s': %s", item, e.msg);
	return 0;
}

static int axis_add(void *ud, uint64_t v, const char *item, struct rs_err *err)
{
	struct axis_acc *acc = ud;

	char num[24], where[80] = "";

	/* An item of several values says which one: "'1..8:x2': 8 is ...". */
	snprintf(num, sizeof num, "%llu", (unsigned long long)v);
	if (strcmp(num, item) != 0)
		snprintf(where, sizeof where, "'%.60s': ", item);
	if (v < acc->min || v > acc->max)
		return rs_err_set(err, "%s%s is out of range (%llu to %llu)", where, num,
				  (unsigned long long)acc->min, (unsigned long long)acc->max);
	for (size_t i = 0; i < acc->n; i++)
		if (acc->v[i] == v)
			return rs_err_set(err, "%s%s is listed twice", where, num);
	if (acc->n >= AXIS_MAX_VALUES)
		return rs_err_set(err, "%smore than %d values", where, AXIS_MAX_VALUES);
	acc->v = vec_reserve(acc->v, &acc->cap, acc->n + 1, sizeof *acc->v, 8);
	acc->v[acc->n++] = v;
	return 0;
}

static const struct numlist_kind axis_kind = { "value", axis_number, axis_add };

int axis_parse(const char *s, uint64_t min, uint64_t max, struct axis_list *out,
	       struct rs_err *err)
{
	struct axis_acc acc = { min, max, NULL, 0, 0 };

	if (s == NULL || *s == '\0')
		return rs_err_set(err, "empty list");
	if (numlist_parse(s, &axis_kind, &acc, err) < 0) {
		free(acc.v);
		return -1;
	}
	free(out->v);
	out->v = acc.v;
	out->n = acc.n;
	return 0;
}

void axis_free(struct axis_list *a)
{
	if (a == NULL)
		return;
	free(a->v);
	a->v = NULL;
	a->n = 0;
}

uint64_t axis_max(const struct axis_list *a)
{
	uint64_t m = 0;

	for (size_t i = 0; i < a->n; i++)
		if (a->v[i] > m)
			m = a->v[i];
	return m;
}

size_t axis_points(const struct axis_list *c, const struct axis_list *d,
		   const struct axis_list *t, struct axis_point **out, size_t *skipped)
{
	struct axis_point *v = xcalloc(c->n * d->n * t->n + 1, sizeof *v);
	size_t n = 0;

	*skipped = 0;
	for (size_t i = 0; i < d->n; i++)
		for (size_t j = 0; j < c->n; j++)
			for (size_t k = 0; k < t->n; k++) {
				if (t->v[k] > c->v[j]) {
					(*skipped)++;
					continue;
				}
				v[n].clients = c->v[j];
				v[n].data_size = d->v[i];
				v[n].threads = t->v[k];
				n++;
			}
	*out = v;
	return n;
}
