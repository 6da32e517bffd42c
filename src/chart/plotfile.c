/* plotfile.c: plot files: global keys are plot options, sections are panels. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/infile.h"
#include "chart/chart.h"
#include "results/csv.h"
#include "chart/plotfile.h"
#include "base/spec.h"
#include "base/xalloc.h"

#define PLOTFILE_MAX (1024 * 1024)

/* The chart kind named name (chart.h's names), or -1. */
static int plotfile_kind(const char *name)
{
	for (int i = 0; chart_kind_names[i] != NULL; i++)
		if (strcmp(chart_kind_names[i], name) == 0)
			return i;
	return -1;
}

static int plotfile_apply(const struct spec *sp, plotfile_setter set, void *ud,
			  struct plotfile *out, struct rs_err *err)
{
	out->v = xcalloc(sp->nsections ? sp->nsections : 1, sizeof *out->v);
	out->n = sp->nsections;
	for (size_t i = 0; i < sp->nsections; i++) {
		out->v[i].title = xstrdup(sp->sections[i]);
		out->v[i].kind = -1;
	}
	for (size_t i = 0; i < sp->n; i++) {
		const struct spec_entry *e = &sp->v[i];
		struct plotfile_panel *p;

		if (e->section == 0) {
			if (set(ud, sp->name, e->line, e->key, e->value, err) < 0)
				return rs_err_as(err, RS_E_INPUT);
			continue;
		}
		p = &out->v[e->section - 1];
		if (p->line == 0)
			p->line = e->line;
		if (*e->value == '\0')
			return rs_err_setk(err, RS_E_INPUT, "%s:%u: panel key '%s' needs a value",
					   sp->name, e->line, e->key);
		if (strcmp(e->key, "title") == 0) {
			free(p->title);
			p->title = xstrdup(e->value);
		} else if (strcmp(e->key, "tests") == 0) {
			free(p->tests);
			p->tests = xstrdup(e->value);
		} else if (strcmp(e->key, "kind") == 0) {
			p->kind = plotfile_kind(e->value);
			if (p->kind < 0)
				return rs_err_setk(err, RS_E_INPUT,
						   "%s:%u: kind '%s' is not one of lines|speedup",
						   sp->name, e->line, e->value);
		} else {
			return rs_err_setk(err, RS_E_INPUT,
					   "%s:%u: unknown panel key '%s' (title, tests, kind)",
					   sp->name, e->line, e->key);
		}
	}
	return 0;
}

int plotfile_parse(const char *buf, size_t len, const char *name, plotfile_setter set,
		   void *ud, struct plotfile *out, struct rs_err *err)
{
	struct spec sp;
	int rc;

	memset(out, 0, sizeof *out);
	out->name = xstrdup(name);
	if (spec_parse(buf, len, name, &sp, err) < 0)
		return rs_err_as(err, RS_E_INPUT);
	rc = plotfile_apply(&sp, set, ud, out, err);
	spec_free(&sp);
	return rc;
}

int plotfile_read(const char *path, plotfile_setter set, void *ud, struct plotfile *out,
		  struct rs_err *err)
{
	char *buf;
	size_t len;
	int rc;

	memset(out, 0, sizeof *out);
	if (infile_slurp(path, PLOTFILE_MAX, &buf, &len, err) < 0)
		return -1;
	rc = plotfile_parse(buf, len, path, set, ud, out, err);
	free(buf);
	return rc;
}

void plotfile_free(struct plotfile *pf)
{
	if (pf == NULL)
		return;
	for (size_t i = 0; i < pf->n; i++) {
		free(pf->v[i].title);
		free(pf->v[i].tests);
	}
	free(pf->v);
	free(pf->name);
	memset(pf, 0, sizeof *pf);
}
