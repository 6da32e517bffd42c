/* row_edit.c: rows rewritten after reading: --relabel's renames (of
 * every row, or of one file's), and a cluster's rows split by master
 * (plot --kind masters).  On rows.c's compact rows, through its pool. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/row.h"
#include "results/row_int.h"
#include "base/vec.h"
#include "base/xalloc.h"

/* Whether src, a file rows came from, is the file name: src as given, or
 * src ending in "/name" ("hostA.csv" for data/hostA.csv). */
static int rows_src_is(const char *src, const char *name, size_t n)
{
	size_t k = strlen(src);

	return k >= n && memcmp(src + k - n, name, n) == 0 && (k == n || src[k - n - 1] == '/');
}

/* The file "FILE:" at the start of spec names, tried at each ':' that an
 * '=' follows, from the last (a label may hold a ':', and a file name a
 * ':' or an '=': the longest prefix that names one of the files wins):
 * 1 with *file the rows' own name of it and *skip the bytes of "FILE:";
 * 0 when no prefix names a file rows came from; -1 with err when one
 * names two of them. */
static int rows_relabel_file(const struct rs_rows *rows, const char *spec, const char **file,
			     size_t *skip, struct rs_err *err)
{
	const char *last_eq = strrchr(spec, '=');
	size_t eq = last_eq != NULL ? (size_t)(last_eq - spec) : 0;

	for (size_t c = eq; c-- > 0;) {
		const char *one = NULL;

		if (spec[c] != ':' || c == 0)
			continue;
		for (size_t i = 0; i < rows->n; i++) {
			const char *src = rows->v[i].src;

			if (src == one || !rows_src_is(src, spec, c))
				continue;
			if (one != NULL && strcmp(one, src) != 0)
				return rs_err_set(err, "--relabel: '%.*s' names two of the files, %s and "
						  "%s: give the path as on the command line", (int)c,
						  spec, one, src);
			one = src;
		}
		if (one != NULL) {
			*file = one;
			*skip = c + 1;
			return 1;
		}
	}
	return 0;
}

int rows_relabel(struct rs_rows *rows, const char *spec, struct rs_err *err)
{
	char *list, *save = NULL;
	const char **from = NULL, **to = NULL, *file = NULL;
	size_t n = 0, capfrom = 0, capto = 0, skip = 0;
	int rc = -1;

	if (rows_relabel_file(rows, spec, &file, &skip, err) < 0)
		return -1;
	list = xstrdup(spec + skip);
	for (char *item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');

		if (eq == NULL || eq == item || eq[1] == '\0') {
			rs_err_set(err, "--relabel: '%s' is not OLD=NEW", item);
			goto out;
		}
		*eq = '\0';
		if (strlen(eq + 1) >= ROW_STR) {
			rs_err_set(err, "--relabel: '%.40s...' is longer than %d characters", eq + 1,
				   ROW_STR - 1);
			goto out;
		}
		for (const char *c = eq + 1; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f) {
				rs_err_set(err, "--relabel: '%s' holds a control character", eq + 1);
				goto out;
			}
		from = vec_reserve(from, &capfrom, n + 1, sizeof *from, 0);
		to = vec_reserve(to, &capto, n + 1, sizeof *to, 0);
		from[n] = item;
		to[n] = rows_add_name(rows, eq + 1);
		n++;
	}
	if (n == 0) {
		rs_err_set(err, "--relabel: no OLD=NEW given");
		goto out;
	}
	for (size_t k = 0; k < n; k++) {
		size_t hits = 0;
		const char *colon = strchr(from[k], ':');

		for (size_t i = 0; i < rows->n; i++)
			hits += (file == NULL || strcmp(rows->v[i].src, file) == 0) &&
				strcmp(rows->v[i].label, from[k]) == 0;
		if (hits > 0)
			continue;
		if (file != NULL)
			rs_err_set(err, "--relabel: no row of %s is labelled '%s'", file, from[k]);
		else if (colon != NULL && k == 0)
			/* Most likely FILE:OLD=NEW with a FILE not read. */
			rs_err_set(err, "--relabel: no row is labelled '%s', and '%.*s' is none of "
				   "the files read", from[k], (int)(colon - from[k]), from[k]);
		else
			rs_err_set(err, "--relabel: no row is labelled '%s'", from[k]);
		goto out;
	}
	/* Every OLD is there: now rename, each row once (a=b,b=a swaps). */
	for (size_t i = 0; i < rows->n; i++) {
		if (file != NULL && strcmp(rows->v[i].src, file) != 0)
			continue;
		for (size_t k = 0; k < n; k++)
			if (strcmp(rows->v[i].label, from[k]) == 0) {
				rows->v[i].label = to[k];
				break;
			}
	}
	rc = 0;
out:
	free(from);
	free(to);
	free(list);
	return rc;
}

int rows_relabel_list(struct rs_rows *rows, char *const *specs, size_t n, struct rs_err *err)
{
	for (size_t i = 0; i < n; i++)
		if (rows_relabel(rows, specs[i], err) < 0)
			return -1;
	return 0;
}

/* One item of a master_rps list, "host:port=rps", into its name (of
 * size) and rate.  Returns 0, or -1 with why. */
static int row_master_item(const char *item, size_t len, char *name, size_t size, double *rate,
			   const char **why)
{
	const char *eq = NULL;
	char num[64], *end;

	for (size_t i = 0; i < len; i++)
		if (item[i] == '=')
			eq = item + i;
	if (eq == NULL || eq == item)
		return *why = "is not host:port=rps", -1;
	if ((size_t)(eq - item) >= size)
		return *why = "names a master too long for a label", -1;
	if ((size_t)(item + len - (eq + 1)) >= sizeof num || eq + 1 == item + len)
		return *why = "has no rate or one too long", -1;
	memcpy(name, item, (size_t)(eq - item));
	name[eq - item] = '\0';
	memcpy(num, eq + 1, (size_t)(item + len - (eq + 1)));
	num[item + len - (eq + 1)] = '\0';
	*rate = strtod(num, &end);
	if (*end != '\0' || !isfinite(*rate) || *rate < 0)
		return *why = "has a rate that is not a number of requests per second", -1;
	return 0;
}

int rows_by_master(struct rs_rows *rows, struct rs_err *err)
{
	struct rs_rec *v = NULL;
	size_t n = 0, cap = 0;
	int several = 0;

	for (size_t i = 1; i < rows->n; i++)
		several |= rows->v[i].label != rows->v[0].label;
	for (size_t i = 0; i < rows->n; i++) {
		const struct rs_rec *rec = &rows->v[i];
		const char *list = rec->extra->master_rps, *why = NULL;

		if (*list == '\0') {
			rs_err_set(err, "%s:%u: no master_rps in this row: --kind masters draws the "
				   "rates of each master that rsweep run --cluster writes there",
				   rec->src, rec->line);
			goto fail;
		}
		while (*list != '\0') {
			size_t len = strcspn(list, ";");
			char name[ROW_STR], label[ROW_STR];
			double rate;
			struct rs_rec m = *rec;
			int k;

			if (row_master_item(list, len, name, sizeof name, &rate, &why) < 0)
				break;
			k = several ? snprintf(label, sizeof label, "%s %s", rec->label, name) :
				      snprintf(label, sizeof label, "%s", name);
			if (k < 0 || (size_t)k >= sizeof label) {
				why = "names a master too long for a label";
				break;
			}
			m.label = rows_add_name(rows, label);
			if (row_fig_put(rows, rate, ROW_RPS, &m.fig[ROW_RPS], err) < 0)
				goto fail;
			v = vec_reserve(v, &cap, n + 1, sizeof *v, 64);
			v[n++] = m;
			list += len;
			if (*list == ';' && *++list == '\0') {
				why = "ends in ';'";
				break;
			}
		}
		if (why != NULL) {
			rs_err_set(err, "%s:%u: master_rps %s", rec->src, rec->line, why);
			goto fail;
		}
	}
	free(rows->v);
	rows->v = v;
	rows->n = n;
	rows->cap = cap;
	return 0;
fail:
	free(v);
	return -1;
}
