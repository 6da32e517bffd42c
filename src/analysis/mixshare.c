/* mixshare.c: a mix's members' shares of the requests sent, over a series'
 * rows, and their words for the report and the charts (mixshare.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/mixshare.h"
#include "base/sbuf.h"
#include "base/xalloc.h"

/* One entry of a list: its name and number. */
struct mixshare_item {
	const char *name;
	size_t len;
	uint64_t v;
};

/* The entries of s, NAME=DIGITS separated by sep, into v (room for max).
 * An entry ends at the first '=' whose digits run up to sep or the end: a
 * name may hold sep, '=' or digits of its own.  Returns how many, or -1
 * for a list that does not read that way or holds more than max. */
static long mixshare_list(const char *s, char sep, struct mixshare_item *v, size_t max)
{
	size_t n = 0;

	while (*s != '\0') {
		const char *eq = s, *d = NULL;
		uint64_t x = 0;

		for (; (eq = strchr(eq, '=')) != NULL; eq++) {
			d = eq + 1;
			x = 0;
			while (*d >= '0' && *d <= '9' && x <= (UINT64_MAX - 9) / 10)
				x = 10 * x + (uint64_t)(*d++ - '0');
			if (d > eq + 1 && (*d == sep || *d == '\0'))
				break;
		}
		if (eq == NULL || eq == s || n == max)
			return -1;
		v[n++] = (struct mixshare_item){ s, (size_t)(eq - s), x };
		s = *d == sep ? d + 1 : d;
		if (*d == sep && *s == '\0')
			return -1;        /* "GET=1;" */
	}
	return (long)n;
}

/* The member named name[0..len), or -1. */
static long mixshare_member(const struct mixshare *m, const char *name, size_t len)
{
	for (size_t i = 0; i < m->n; i++)
		if (strlen(m->name[i]) == len && memcmp(m->name[i], name, len) == 0)
			return (long)i;
	return -1;
}

/* The members a mix_calls entry's name counts ("LRANGE_100+LRANGE_300"),
 * as bits: each member's name then '+' or the end, the longest first (a
 * custom line may hold a '+').  0 when the name is not read so. */
static uint32_t mixshare_group(const struct mixshare *m, const char *name, size_t len)
{
	uint32_t bits = 0;
	size_t at = 0;

	while (at < len) {
		long best = -1;
		size_t bl = 0;

		for (size_t i = 0; i < m->n; i++) {
			size_t l = strlen(m->name[i]);

			if (l > bl && at + l <= len && memcmp(name + at, m->name[i], l) == 0 &&
			    (at + l == len || name[at + l] == '+')) {
				best = (long)i;
				bl = l;
			}
		}
		if (best < 0)
			return 0;
		bits |= 1u << best;
		at += bl + (at + bl < len);
	}
	return bits;
}

void mixshare_init(struct mixshare *m)
{
	memset(m, 0, sizeof *m);
}

int mixshare_add(struct mixshare *m, const char *mix, const char *sent, const char *calls)
{
	struct mixshare_item w[MIXSHARE_MAX], s[MIXSHARE_MAX], c[MIXSHARE_MAX];
	long nw = mixshare_list(mix, ',', w, MIXSHARE_MAX);
	long ns = mixshare_list(sent, ';', s, MIXSHARE_MAX);
	long nc = calls[0] ? mixshare_list(calls, ';', c, MIXSHARE_MAX) : 0;
	long at[MIXSHARE_MAX];
	uint32_t bits[MIXSHARE_MAX];

	if (nw < 2 || ns != nw)
		return 0;
	if (m->rows == 0) {
		for (long k = 0; k < ns; k++) {
			size_t l = s[k].len < MIXSHARE_NAME - 1 ? s[k].len : MIXSHARE_NAME - 1;

			memcpy(m->name[k], s[k].name, l);
			m->name[k][l] = '\0';
			m->weight[k] = w[k].v <= UINT32_MAX ? (unsigned)w[k].v : 0;
		}
		m->n = (size_t)ns;
		snprintf(m->first_mix, sizeof m->first_mix, "%s", mix);
	}
	/* Each entry's member: a row of another mix (an edited --commands
	 * file under one test name) adds those it shares, and new ones while
	 * there is room. */
	for (long k = 0; k < ns; k++) {
		at[k] = mixshare_member(m, s[k].name, s[k].len);
		if (at[k] < 0 && m->n == MIXSHARE_MAX)
			return 0;
	}
	if (m->rows > 0 && strcmp(mix, m->first_mix) != 0)
		m->differ = 1;
	for (long k = 0; k < ns; k++) {
		if (at[k] < 0) {
			size_t l = s[k].len < MIXSHARE_NAME - 1 ? s[k].len : MIXSHARE_NAME - 1;

			memcpy(m->name[m->n], s[k].name, l);
			m->name[m->n][l] = '\0';
			m->weight[m->n] = 0;
			at[k] = (long)m->n++;
		}
		m->sent[at[k]] += s[k].v;
	}
	m->rows++;
	/* The calls only when every entry names members of this row: a list
	 * that does not read is no count to hold the requests sent against. */
	for (long k = 0; k < nc; k++) {
		uint32_t mine = 0;

		for (long j = 0; j < ns; j++)
			mine |= 1u << at[j];
		bits[k] = mixshare_group(m, c[k].name, c[k].len);
		if (bits[k] == 0 || (bits[k] & ~mine) != 0)
			return 1;
	}
	for (long k = 0; k < nc; k++) {
		size_t g = 0;
		uint64_t sum = 0;

		for (long j = 0; j < ns; j++)
			if (bits[k] & (1u << at[j]))
				sum += s[j].v;
		while (g < m->ngroups && m->group[g] != bits[k])
			g++;
		if (g == m->ngroups) {
			if (g == MIXSHARE_MAX)
				continue;
			m->group[m->ngroups++] = bits[k];
		}
		m->group_sent[g] += sum;
		m->group_calls[g] += c[k].v;
	}
	return 1;
}

static uint64_t mixshare_total(const struct mixshare *m)
{
	uint64_t t = 0;

	for (size_t i = 0; i < m->n; i++)
		t += m->sent[i];
	return t;
}

double mixshare_share(const struct mixshare *m, size_t i)
{
	uint64_t t = mixshare_total(m);

	return t > 0 && i < m->n ? (double)m->sent[i] / (double)t : NAN;
}

/* Member i's name, quoted when it holds a blank (a command line). */
static void mixshare_put_name(struct sbuf *b, const struct mixshare *m, size_t i)
{
	sbuf_printf(b, strchr(m->name[i], ' ') ? "'%s'" : "%s", m->name[i]);
}

int mixshare_words(const struct mixshare *m, char *buf, size_t size)
{
	struct sbuf b;

	sbuf_fixed(&b, buf, size);
	if (mixshare_total(m) == 0)
		return 0;
	for (size_t i = 0; i < m->n; i++) {
		sbuf_printf(&b, "%s", i == 0 ? "" : i + 1 == m->n ? " and " : ", ");
		mixshare_put_name(&b, m, i);
		sbuf_printf(&b, " %.1f%%", 100 * mixshare_share(m, i));
	}
	sbuf_printf(&b, " of its requests as sent");
	if (m->differ) {
		sbuf_printf(&b, " (its rows hold different mixes)");
	} else {
		sbuf_printf(&b, " (weights ");
		for (size_t i = 0; i < m->n; i++)
			sbuf_printf(&b, "%s%u", i ? ":" : "", m->weight[i]);
		sbuf_printf(&b, ")");
	}
	for (size_t g = 0; g < m->ngroups; g++) {
		int first = 1;

		if (m->group_calls[g] == m->group_sent[g])
			continue;
		sbuf_printf(&b, "; the server counted %llu ", (unsigned long long)m->group_calls[g]);
		for (size_t i = 0; i < m->n; i++)
			if (m->group[g] & (1u << i)) {
				sbuf_printf(&b, "%s", first ? "" : "+");
				mixshare_put_name(&b, m, i);
				first = 0;
			}
		sbuf_printf(&b, " calls for %llu sent", (unsigned long long)m->group_sent[g]);
	}
	return 1;
}

int mixshare_legend(const struct mixshare *m, char *buf, size_t size)
{
	struct sbuf b;

	sbuf_fixed(&b, buf, size);
	if (mixshare_total(m) == 0)
		return 0;
	for (size_t i = 0; i < m->n; i++) {
		sbuf_printf(&b, "%s", i ? ", " : "");
		mixshare_put_name(&b, m, i);
		sbuf_printf(&b, " %.0f%%", 100 * mixshare_share(m, i));
	}
	return 1;
}

void mixshare_pct_list(const struct mixshare *m, char *buf, size_t size)
{
	struct sbuf b;

	sbuf_fixed(&b, buf, size);
	for (size_t i = 0; mixshare_total(m) > 0 && i < m->n; i++)
		sbuf_item(&b, ";", "%s=%.2f", m->name[i], 100 * mixshare_share(m, i));
}

void mixshare_group_name(const struct mixshare *m, size_t g, char *buf, size_t size)
{
	struct sbuf b;

	sbuf_fixed(&b, buf, size);
	for (size_t i = 0; g < m->ngroups && i < m->n; i++)
		if (m->group[g] & (1u << i))
			sbuf_item(&b, "+", "%s", m->name[i]);
}

void mixshare_differ_list(const struct mixshare *m, char *buf, size_t size)
{
	struct sbuf b;
	char name[MIXSHARE_MAX * MIXSHARE_NAME];

	sbuf_fixed(&b, buf, size);
	for (size_t g = 0; g < m->ngroups; g++) {
		if (m->group_calls[g] == m->group_sent[g])
			continue;
		mixshare_group_name(m, g, name, sizeof name);
		sbuf_item(&b, ";", "%s=%llu/%llu", name, (unsigned long long)m->group_calls[g],
			  (unsigned long long)m->group_sent[g]);
	}
}

size_t mixshare_index(const struct rs_rows *rows, const struct rs_rec ***out)
{
	const struct rs_rec **v = NULL;
	size_t n = 0;

	*out = NULL;
	for (size_t i = 0; rows != NULL && i < rows->n; i++) {
		if (rows->v[i].extra->mix[0] == '\0')
			continue;
		if (v == NULL)
			v = xmalloc((rows->n - i) * sizeof *v);
		v[n++] = &rows->v[i];
	}
	if (n > 1)
		qsort(v, n, sizeof *v, rows_point_cmp);
	*out = v;
	return n;
}

size_t mixshare_series(struct mixshare *m, const struct rs_rows *rows,
		       const struct rs_rec *const *idx, size_t n, const struct series *s)
{
	size_t lo = 0, hi = n, added = 0;

	while (lo < hi) {        /* the first row of (label, test) */
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(idx[mid]->label, s->label);

		if (c == 0)
			c = strcmp(idx[mid]->test, s->first->test);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < n; i++) {
		const struct rs_rec *r = idx[i];

		if (strcmp(r->label, s->label) != 0 || strcmp(r->test, s->first->test) != 0)
			break;
		if (!series_holds(s, rows, r))
			continue;
		added += (size_t)mixshare_add(m, r->extra->mix, r->extra->mix_sent,
					      r->extra->mix_calls);
	}
	return added;
}
