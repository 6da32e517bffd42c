/* depths.c: the depth-list syntax both ways: "1..64:x2,80" into a list of
 * depths, and a list of depths back into the shortest text of it. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/depths.h"
#include "base/num.h"
#include "base/numlist.h"
#include "base/sbuf.h"
#include "base/vec.h"
#include "base/xalloc.h"

/* n bytes at s as one depth (numlist.h).  "1-8" is what other tools take
 * for a range: the message says how this one writes it. */
static int depths_number(const char *s, size_t n, uint64_t *out, const char *item,
			 struct rs_err *err)
{
	char buf[32];
	const char *dash;
	struct rs_err e;

	if (n == 0 || n >= sizeof buf)
		return rs_err_set(err, "'%s': expected a depth", item);
	memcpy(buf, s, n);
	buf[n] = '\0';
	dash = strchr(buf, '-');
	if (dash != NULL && dash > buf && dash[-1] >= '0' && dash[-1] <= '9' && dash[1] >= '0' &&
	    dash[1] <= '9')
		return rs_err_set(err, "'%s' is not a depth; a range is written %.*s..%s", buf,
				  (int)(dash - buf), buf, dash + 1);
	if (num_parse_u64(buf, 0, UINT32_MAX, 0, out, &e) < 0)
		return rs_err_set(err, "'%s': %s", item, e.msg);
	if (*out == 0)
		return rs_err_set(err, "'%s': depth 0 is not a pipeline (depths start at 1)", item);
	if (*out > DEPTHS_MAX_VALUE)
		return rs_err_set(err, "'%s': depth %llu is over %u", item, (unsigned long long)*out,
				  DEPTHS_MAX_VALUE);
	return 0;
}

/* The list being built: seen[] has one bit per possible depth, so that the
 * duplicate check costs O(1) instead of a scan of the list ("1..4096" made
 * 8 million comparisons and 4096 reallocations). */
struct depths_acc {
	unsigned *v;
	size_t n, cap;
	unsigned char *seen;      /* DEPTHS_MAX_VALUE + 1 bits */
};

static int depths_add(void *ud, uint64_t v, const char *item, struct rs_err *err)
{
	struct depths_acc *acc = ud;
	unsigned d = (unsigned)v;  /* depths_number kept it to DEPTHS_MAX_VALUE */

	if (acc->n >= DEPTHS_MAX_POINTS)
		return rs_err_set(err, "'%s': more than %d depths", item, DEPTHS_MAX_POINTS);
	if (acc->seen[d / 8] & (1u << (d % 8)))
		return rs_err_set(err, "'%s': depth %u is listed twice", item, d);
	acc->seen[d / 8] |= (unsigned char)(1u << (d % 8));
	acc->v = vec_reserve(acc->v, &acc->cap, acc->n + 1, sizeof *acc->v, 16);
	acc->v[acc->n++] = d;
	return 0;
}

static const struct numlist_kind depths_kind = { "depth", depths_number, depths_add };

int depths_parse(const char *s, struct depth_list *out, struct rs_err *err)
{
	struct depths_acc acc = { NULL, 0, 0, NULL };
	int rc;

	if (s == NULL || *s == '\0')
		return rs_err_set(err, "empty depth list");
	acc.seen = xcalloc(DEPTHS_MAX_VALUE / 8 + 1, 1);
	rc = numlist_parse(s, &depths_kind, &acc, err);
	free(acc.seen);
	if (rc < 0) {
		free(acc.v);
		return -1;
	}
	free(out->v);
	out->v = acc.v;
	out->n = acc.n;
	return 0;
}

void depths_free(struct depth_list *d)
{
	if (d == NULL)
		return;
	free(d->v);
	d->v = NULL;
	d->n = 0;
}

int depths_powers_of_two(const unsigned *v, size_t n)
{
	if (n < 3)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (v[i] == 0 || (v[i] & (v[i] - 1)) != 0)
			return 0;
	return 1;
}

int depths_log_axis(const unsigned *v, size_t n)
{
	size_t crowded = 0;

	if (n < 3)
		return 0;
	if (depths_powers_of_two(v, n))
		return 1;
	/* On a linear axis the first tenth of the range would hold these. */
	for (size_t i = 0; i < n; i++)
		if ((double)(v[i] - v[0]) <= 0.1 * (double)(v[n - 1] - v[0]))
			crowded++;
	return 2 * crowded >= n;
}

int depths_contains(const struct depth_list *d, unsigned depth)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i] == depth)
			return 1;
	return 0;
}

/* v as one range item ("1..40", "1..40:+4", "1..64:x2") when its steps are
 * all equal, written into buf; returns 0 when they are not, or when v has
 * fewer than 3 depths. */
static int depths_format_range(const unsigned *v, size_t n, char *buf, size_t size)
{
	unsigned first = v[0], last = v[n - 1];
	unsigned step, mult;
	int add = 1, mul;

	if (n < 3)
		return 0;
	step = v[1] - first;
	mult = first ? v[1] / first : 0;
	mul = mult >= 2;
	for (size_t i = 1; i < n; i++) {
		add &= v[i] - v[i - 1] == step;
		mul &= v[i] == v[i - 1] * mult;
	}
	if (add && step == 1)
		snprintf(buf, size, "%u..%u", first, last);
	else if (add)
		snprintf(buf, size, "%u..%u:+%u", first, last, step);
	else if (mul)
		snprintf(buf, size, "%u..%u:x%u", first, last, mult);
	else
		return 0;
	return 1;
}

void depths_format(const unsigned *v, size_t n, char *buf, size_t size)
{
	struct sbuf b;

	buf[0] = '\0';
	if (n == 0 || depths_format_range(v, n, buf, size))
		return;
	sbuf_fixed(&b, buf, size);
	/* Runs of three or more consecutive depths shrink to a..b. */
	for (size_t i = 0; i < n && !b.cut;) {
		size_t j = i;

		while (j + 1 < n && v[j + 1] == v[j] + 1)
			j++;
		if (j - i >= 2) {
			sbuf_item(&b, ",", "%u..%u", v[i], v[j]);
			i = j + 1;
		} else {
			sbuf_item(&b, ",", "%u", v[i]);
			i++;
		}
	}
	if (b.cut && size > 4)
		memcpy(buf + size - 4, "...", 4);
}
