/* along.c: the series of one label and test grouped along an axis (along.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/along.h"
#include "base/json.h"
#include "base/num.h"
#include "base/vec.h"
#include "base/xalloc.h"

/* Whether s belongs in g: its label, base, and the values g holds. */
static int along_fits(const struct along_group *g, const struct analysis_result *r,
		     const struct series *s)
{
	const struct series *f = r->series[g->v[0]].rps;

	if (g->axis < 0 || f->label_idx != s->label_idx || strcmp(f->base, s->base) != 0)
		return 0;
	for (unsigned a = 0; a < SERIES_NAXES; a++)
		if ((g->held & (1u << a)) && !series_same_axis(f, s, (enum series_axis)a))
			return 0;
	return 1;
}

void along_groups_make(const struct analysis_result *r, const struct rs_rows *rows, int plain,
		      struct along_groups *out)
{
	size_t cap = 0, *capv = NULL, capcap = 0;

	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < r->nseries; i++) {
		const struct series *s = r->series[i].rps;
		struct along_group *g = NULL;

		if (rows != NULL && rows_fig(rows, s->first, ROW_RATE) > 0)
			continue;
		if (s->axes == 0 && !plain)
			continue;
		for (size_t k = 0; k < out->n && g == NULL; k++)
			if (along_fits(&out->v[k], r, s))
				g = &out->v[k];
		if (g == NULL) {
			out->v = vec_reserve(out->v, &cap, out->n + 1, sizeof *out->v, 8);
			capv = vec_reserve(capv, &capcap, out->n + 1, sizeof *capv, 8);
			g = &out->v[out->n];
			memset(g, 0, sizeof *g);
			capv[out->n++] = 0;
			g->label = s->label;
			g->base = s->base;
			g->axis = -1;
			/* The first axis the label varies runs along; the others
			 * are held. */
			for (unsigned a = 0; a < SERIES_NAXES && g->axis < 0; a++)
				if (s->axes & (1u << a))
					g->axis = (int)a;
			g->held = g->axis < 0 ? 0 : s->axes & ~(1u << g->axis);
		}
		g->v = vec_reserve(g->v, &capv[g - out->v], g->n + 1, sizeof *g->v, 8);
		g->v[g->n++] = i;
	}
	free(capv);
}

void along_groups_free(struct along_groups *g)
{
	for (size_t k = 0; k < g->n; k++)
		free(g->v[k].v);
	free(g->v);
	memset(g, 0, sizeof *g);
}

int along_groups_any(const struct along_groups *g)
{
	for (size_t k = 0; k < g->n; k++)
		if (g->v[k].n > 1)
			return 1;
	return 0;
}

const char *along_group_name(const struct along_group *g, const struct analysis_result *r,
			    char *buf, size_t size)
{
	const struct series *s = r->series[g->v[0]].rps;
	size_t at = (size_t)snprintf(buf, size, "%s %s", g->label, g->base);

	for (unsigned a = 0; a < SERIES_NAXES && at < size; a++) {
		char v[ROW_STR];

		if (g->held & (1u << a))
			at += (size_t)snprintf(buf + at, size - at, ", %s %s",
					       series_axis_title((enum series_axis)a),
					       series_axis_value(s, (enum series_axis)a, v, sizeof v));
	}
	return buf;
}

const char *along_json_key(int a)
{
	static const char *const keys[SERIES_NAXES] = {
		"clients", "data_size", "threads", "server_args",
	};

	return a >= 0 && a < SERIES_NAXES ? keys[a] : "";
}

void along_json_value(FILE *fp, const struct series *s, int a)
{
	int64_t v = a == SERIES_AXIS_CLIENTS ? s->clients : a == SERIES_AXIS_DATA_SIZE ?
		    s->data_size : s->threads;

	if (a < 0 || a >= SERIES_NAXES)
		fputs("null", fp);
	else if (a == SERIES_AXIS_SERVER_ARGS)
		json_write_str(fp, s->server_args);
	else if (v < 0)
		fputs("null", fp);
	else
		fprintf(fp, "%lld", (long long)v);
}

/* "{\"clients\":4,...}": s's values on the axes in mask. */
static void along_json_values(FILE *fp, const struct series *s, unsigned mask)
{
	int first = 1;

	fputc('{', fp);
	for (unsigned a = 0; a < SERIES_NAXES; a++) {
		if (!(mask & (1u << a)))
			continue;
		fprintf(fp, "%s\"%s\":", first ? "" : ",", along_json_key((int)a));
		along_json_value(fp, s, (int)a);
		first = 0;
	}
	fputc('}', fp);
}

void along_json_held(FILE *fp, const struct along_group *g, const struct analysis_result *r)
{
	fputs(",\"held\":", fp);
	along_json_values(fp, r->series[g->v[0]].rps, g->held);
}

void along_json_series(FILE *fp, const struct series *s)
{
	if (s->axes == 0)
		return;
	fputs(",\"base\":", fp);
	json_write_str(fp, s->base);
	fputs(",\"axes\":", fp);
	along_json_values(fp, s, s->axes);
}

const char *along_cell_words(const struct series *s, int axis, unsigned depth, char *buf,
			    size_t size)
{
	char v[ROW_STR];

	if (axis < 0) {
		snprintf(buf, size, "P=%u", depth);
		return buf;
	}
	series_axis_value(s, (enum series_axis)axis, v, sizeof v);
	switch ((enum series_axis)axis) {
	case SERIES_AXIS_CLIENTS:
		snprintf(buf, size, "P=%u with %s client%s", depth, v, s->clients == 1 ? "" : "s");
		break;
	case SERIES_AXIS_DATA_SIZE:
		snprintf(buf, size, "P=%u with %s-byte values", depth, v);
		break;
	case SERIES_AXIS_THREADS:
		snprintf(buf, size, "P=%u with %s thread%s", depth, v, s->threads == 1 ? "" : "s");
		break;
	case SERIES_AXIS_SERVER_ARGS:
	case SERIES_NAXES:
		if (s->server_args[0] == '\0')
			snprintf(buf, size, "P=%u with the server's defaults", depth);
		else
			snprintf(buf, size, "P=%u with %s", depth, v);
		break;
	}
	return buf;
}

const char *along_fmt_rps(char *buf, size_t size, double v)
{
	/* Three significant digits: more than the intervals ever tell. */
	static const struct {
		double at, div;
		int prec;
		const char *unit;
	} f[] = {
		{ 9.995e6, 1e6, 1, "M" }, { 9.995e5, 1e6, 2, "M" }, { 9.995e4, 1e3, 0, "k" },
		{ 9.995e3, 1e3, 1, "k" }, { 1e3, 1e3, 2, "k" },
	};

	if (!isfinite(v)) {
		snprintf(buf, size, "-");
		return buf;
	}
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
		if (fabs(v) >= f[i].at) {
			num_fmt(buf, size, v / f[i].div, f[i].prec);
			strncat(buf, f[i].unit, size - strlen(buf) - 1);
			return buf;
		}
	num_fmt(buf, size, v, 0);
	return buf;
}
