/* series_axes.c: the axes besides depth (clients, data size, threads,
 * server arguments) as series' names and plot's --by write them. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "results/row.h"
#include "analysis/series.h"
#include "analysis/series_int.h"

static const char *const series_axis_titles[SERIES_NAXES] = {
	"clients", "data size", "threads", "server arguments",
};

const char *series_axis_title(enum series_axis a)
{
	return a < SERIES_NAXES ? series_axis_titles[a] : "";
}

/* Whether rows a and b have one value on axis ax. */
int series_same_on(const struct rs_rec *a, const struct rs_rec *b, enum series_axis ax)
{
	switch (ax) {
	case SERIES_AXIS_CLIENTS:
		return a->clients == b->clients;
	case SERIES_AXIS_DATA_SIZE:
		return a->data_size == b->data_size;
	case SERIES_AXIS_THREADS:
		return a->threads == b->threads;
	case SERIES_AXIS_SERVER_ARGS:
	case SERIES_NAXES:
		break;
	}
	return strcmp(a->server->server_args, b->server->server_args) == 0;
}

/* A row's value on axis a, as a name writes it, into buf. */
const char *series_row_axis(const struct rs_rec *r, enum series_axis a, char *buf,
				   size_t size)
{
	int64_t v = a == SERIES_AXIS_CLIENTS ? r->clients : a == SERIES_AXIS_DATA_SIZE ?
		    r->data_size : a == SERIES_AXIS_THREADS ? r->threads : 0;

	if (a == SERIES_AXIS_SERVER_ARGS)
		snprintf(buf, size, "%s", r->server->server_args[0] ? r->server->server_args :
			 "defaults");
	else if (v < 0)
		snprintf(buf, size, "?");
	else
		snprintf(buf, size, "%lld", (long long)v);
	return buf;
}

/* variant with the values of row on axes appended ("GET window c=8 d=1024
 * [io-threads 4]") into buf, or variant itself when axes is 0 and it is
 * not in a buffer of the caller's. */
const char *series_axes_name(const char *variant, const struct rs_rec *row,
				    unsigned axes, char *buf, size_t size)
{
	static const char *const tag[SERIES_NAXES] = { " c=", " d=", " t=", " [" };
	size_t at;

	if (axes == 0)
		return variant;
	at = (size_t)snprintf(buf, size, "%s", variant);
	for (unsigned a = 0; a < SERIES_NAXES && at < size; a++) {
		char v[ROW_STR];

		if (axes & (1u << a))
			at += (size_t)snprintf(buf + at, size - at, "%s%s%s", tag[a],
					       series_row_axis(row, (enum series_axis)a, v, sizeof v),
					       a == SERIES_AXIS_SERVER_ARGS ? "]" : "");
	}
	return buf;
}

int series_same_axis(const struct series *x, const struct series *y, enum series_axis a)
{
	return series_same_on(x->first, y->first, a);
}

int series_axis_parse(const char *name, enum series_axis *a)
{
	for (unsigned i = 0; series_axis_names[i] != NULL; i++)
		if (strcmp(series_axis_names[i], name) == 0) {
			*a = (enum series_axis)i;
			return 0;
		}
	return -1;
}

int series_label_by(struct rs_rows *rows, enum series_axis a, struct rs_err *err)
{
	for (size_t r = 0; r < rows->n; r++) {
		struct rs_rec *row = &rows->v[r];
		char name[2 * ROW_STR + 96], v[ROW_STR];

		if (series_axes_name(row->label, row, 1u << a, name, sizeof name) == row->label)
			continue;
		if (strlen(name) >= ROW_STR)
			return rs_err_set(err, "%s:%u: --by %s: label '%s' with '%s' is longer than %d "
					  "characters", row->src, row->line, series_axis_names[a],
					  row->label, series_row_axis(row, a, v, sizeof v), ROW_STR - 1);
		row->label = rows_add_name(rows, name);
	}
	return 0;
}

const char *series_axis_value(const struct series *s, enum series_axis a, char *buf,
			      size_t size)
{
	return series_row_axis(s->first, a, buf, size);
}

