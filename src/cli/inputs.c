/* inputs.c: the input pipeline of report, plot and export (inputs.h):
 * files, sidecars, --relabel, --tests, --depths, passwords blanked, and
 * the environment sidecars, outputs that would overwrite an input
 * refused. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "results/csv.h"
#include "results/histfile.h"
#include "cli/inputs.h"
#include "base/log.h"
#include "base/redact.h"
#include "cli/opts.h"
#include "analysis/series.h"
#include "base/strtab.h"
#include "base/xalloc.h"

void inputs_opts_from(const struct rs_config *cfg, struct inputs_opts *o)
{
	memset(o, 0, sizeof *o);
	o->files = cfg->args;
	o->nfiles = cfg->nargs > 0 ? (size_t)cfg->nargs : 0;
	o->relabel = cfg->relabel.v;
	o->nrelabel = cfg->relabel.n;
	o->tests = cfg->tests;
	o->depths = cfg->depths.n > 0 ? &cfg->depths : NULL;
}

/* Every server's target without its password: the rows' servers point at
 * a blanked copy, so that no output made of them can show one. */
static void inputs_blank_rows(struct rs_rows *rows)
{
	for (size_t i = 0; i < rows->server_ids.n; i++) {
		struct rs_server *s = rows->servers[i];
		char *t;

		if (s == NULL || s->target == NULL || strchr(s->target, '@') == NULL)
			continue;
		t = xstrdup(s->target);
		if (redact_target(t))
			s->target = rows_add_name(rows, t);
		free(t);
	}
}

int inputs_keep_tests(struct rs_rows *rows, const char *list, struct rs_err *err)
{
	struct strtab names = { 0 };
	uint32_t *id = xcalloc(rows->n ? rows->n : 1, sizeof *id);
	const char **v;
	size_t *picked = NULL, npicked = 0, w = 0;
	unsigned char *keep;
	int rc;

	/* The data's distinct tests, in the order they first appear. */
	for (size_t i = 0; i < rows->n; i++)
		strtab_intern(&names, rows->v[i].test, strlen(rows->v[i].test), &id[i], NULL);
	v = xcalloc(names.n ? names.n : 1, sizeof *v);
	for (size_t t = 0; t < names.n; t++)
		v[t] = strtab_str(&names, (uint32_t)t);
	rc = series_tests_pick(list, v, names.n, 1, &picked, &npicked, err);
	if (rc == 0) {
		keep = xcalloc(names.n ? names.n : 1, 1);
		for (size_t k = 0; k < npicked; k++)
			keep[picked[k]] = 1;
		for (size_t i = 0; i < rows->n; i++)
			if (keep[id[i]])
				rows->v[w++] = rows->v[i];
		rows->n = w;
		free(keep);
	}
	free(picked);
	free(v);
	free(id);
	strtab_free(&names);
	if (rc < 0) {
		rs_err_prefix(err, "--tests");
		return rs_err_as(err, RS_E_INPUT);
	}
	return 0;
}

int inputs_read(const struct inputs_opts *o, struct rs_rows *rows, struct latency_set *ls,
		struct rs_err *err)
{
	int rc = 0;

	for (size_t i = 0; i < o->nfiles && rc == 0; i++) {
		const char *path = o->files[i];
		struct csv_info info;
		size_t before = rows->n;
		char note[RS_ERR_LEN];

		rc = csv_read_file(path, rows, &info, err);
		/* What was left out is said, by report, plot and export alike. */
		if (rc == 0 && !o->quiet && csv_info_note(&info, path, note, sizeof note) != NULL)
			rs_log(RS_LOG_INFO, "%s", note);
		if (rc == 0 && o->each_has_rows && rows->n == before)
			rc = rs_err_set(err, "%s: no result rows, only a header", path);
	}
	if (rc == 0 && rows->n == 0)
		rc = rs_err_set(err, "no result rows in %s%s", o->nfiles ? o->files[0] : "the input",
				o->nfiles > 1 ? " and the others" : "");
	if (rc == 0)
		inputs_blank_rows(rows);
	/* The histograms by row before --relabel: the sidecars know the rows
	 * by their labels as written. */
	if (rc == 0 && o->hist && latency_load(rows, ls, err) < 0)
		rc = -1;
	if (rc == 0 && rows_relabel_list(rows, o->relabel, o->nrelabel, err) < 0)
		rc = -1;
	if (rc == 0 && o->tests != NULL && inputs_keep_tests(rows, o->tests, err) < 0)
		rc = -1;
	if (rc == 0 && o->depths != NULL && series_keep_depths(rows, o->depths, err) < 0)
		rc = -1;
	return rc < 0 ? rs_err_as(err, RS_E_INPUT) : 0;
}

/* A record's fields that could hold a password, blanked in place. */
static void inputs_blank_env(struct runenv *e)
{
	for (size_t k = 0; k < e->n; k++) {
		if (strcmp(e->v[k].key, "target") == 0)
			redact_target(e->v[k].value);
		else if (strcmp(e->v[k].key, "server_args") == 0 ||
			 strcmp(e->v[k].key, "command") == 0)
			redact_args(e->v[k].value);
	}
}

void inputs_envs(const struct rs_rows *rows, struct runenv_set *set, const char *who)
{
	const char **seen = NULL;
	size_t nseen = 0, from = set->n;

	for (size_t i = 0; i < rows->n; i++) {
		const char *src = rows->v[i].src;
		struct rs_err e;
		size_t j;

		if (src == NULL)
			continue;
		/* File names are pooled: one pointer a file. */
		for (j = 0; j < nseen && seen[j] != src; j++)
			;
		if (j < nseen)
			continue;
		seen = xreallocarray(seen, nseen + 1, sizeof *seen);
		seen[nseen++] = src;
		if (runenv_read(src, set, &e) < 0)
			rs_log(RS_LOG_NOTE, "%s (%s leaves that environment out)", e.msg, who);
	}
	free(seen);
	for (size_t i = from; i < set->n; i++)
		inputs_blank_env(&set->v[i]);
}

/* Whether out names path: the same text, or the same file (both exist). */
static int inputs_same(const char *out, const struct stat *ost, const char *path)
{
	struct stat st;

	if (strcmp(out, path) == 0)
		return 1;
	return ost != NULL && stat(path, &st) == 0 && st.st_dev == ost->st_dev &&
	       st.st_ino == ost->st_ino;
}

int inputs_output_check(const char *out, char *const *files, size_t n, struct rs_err *err)
{
	struct stat ost;
	const struct stat *op;

	if (out == NULL || strcmp(out, "-") == 0)
		return 0;
	op = stat(out, &ost) == 0 && S_ISREG(ost.st_mode) ? &ost : NULL;
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(files[i]);
		char *side;
		int same;

		if (strcmp(files[i], "-") == 0)
			continue;
		if (inputs_same(out, op, files[i]))
			return rs_err_setk(err, RS_E_USAGE, "-o %s is the input %s: writing it would "
					   "destroy what is read; give another output", out, files[i]);
		for (int k = 0; k < 2; k++) {
			const char *suffix = k ? RUNENV_SUFFIX : HISTFILE_SUFFIX;

			side = xmalloc(len + strlen(suffix) + 1);
			memcpy(side, files[i], len);
			memcpy(side + len, suffix, strlen(suffix) + 1);
			same = inputs_same(out, op, side);
			if (same)
				rs_err_setk(err, RS_E_USAGE, "-o %s is the %s sidecar of the input %s: "
					    "writing it would destroy what is read; give another output",
					    out, k ? "environment" : "histogram", files[i]);
			free(side);
			if (same)
				return -1;
		}
	}
	return 0;
}
