/* row.c: the row array and its defaults. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "row.h"
#include "xalloc.h"

void row_init(struct rs_row *r)
{
	memset(r, 0, sizeof *r);
	r->clients = r->requests = r->errors = -1;
	r->misses = r->server_calls = r->order = r->threads = -1;
	r->data_size = r->keyspace = -1;
	r->seconds = r->rps = NAN;
	r->avg_ms = r->min_ms = r->p50_ms = r->p95_ms = r->p99_ms = NAN;
	r->max_ms = r->p999_ms = NAN;
	r->server_cpu_s = r->client_cpu_s = NAN;
}

void rows_reserve(struct rs_rows *rows, size_t more)
{
	if (rows->cap - rows->n < more) {
		rows->cap = rows->n + more;
		rows->v = xreallocarray(rows->v, rows->cap, sizeof *rows->v);
	}
}

struct rs_row *rows_push(struct rs_rows *rows)
{
	if (rows->n == rows->cap) {
		rows->cap = rows->cap ? rows->cap * 2 : 64;
		rows->v = xreallocarray(rows->v, rows->cap, sizeof *rows->v);
	}
	row_init(&rows->v[rows->n]);
	return &rows->v[rows->n++];
}

const char *rows_add_name(struct rs_rows *rows, const char *name)
{
	rows->names = xreallocarray(rows->names, rows->nnames + 1, sizeof *rows->names);
	rows->names[rows->nnames] = xstrdup(name);
	return rows->names[rows->nnames++];
}

void rows_free(struct rs_rows *rows)
{
	if (rows == NULL)
		return;
	for (size_t i = 0; i < rows->nnames; i++)
		free(rows->names[i]);
	free(rows->names);
	free(rows->v);
	memset(rows, 0, sizeof *rows);
}
