/* cmd_import.c: `rsweep import`: turn redis-benchmark --csv or -q output
 * into rsweep CSV rows, written atomically to -o FILE or to stdout. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "csv.h"
#include "import.h"
#include "outfile.h"
#include "strtab.h"
#include "xalloc.h"

#define IMPORT_MAX_INPUT ((size_t)256 << 20)

/* The label when none is given: the input's base name without extension. */
static int import_default_label(const char *path, char *out, size_t size, struct rs_err *err)
{
	const char *base = strrchr(path, '/'), *dot;
	size_t n;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	if (n == 0 || n >= size)
		return rs_err_set(err, "cannot make a label of '%s': give --label", path);
	memcpy(out, base, n);
	out[n] = '\0';
	return 0;
}

/* The rsweep CSV text of res: header and one row per point.  A point the
 * CSV's readers would refuse (1e300 requests per second) fails the import
 * with path:line, or with skip_bad is named and left out.  Returns a
 * malloc'd buffer and the number of rows in *nrows, or NULL (err set). */
static char *import_rows(const struct import_result *res, const struct rs_config *cfg,
			 const char *path, const char *label, size_t *lenp, size_t *nrows,
			 struct rs_err *err)
{
	size_t cap = 4096 + res->n * 1024, len = strlen(csv_header());
	char *out = xmalloc(cap);
	/* Rows kept so far of each test, by its id in names. */
	struct strtab names = { 0 };
	unsigned *seen = xcalloc(res->n ? res->n : 1, sizeof *seen);

	*nrows = 0;
	memcpy(out, csv_header(), len);
	for (size_t i = 0; i < res->n; i++) {
		const struct import_point *p = &res->v[i];
		struct rs_row r;
		struct rs_err e;
		unsigned repeat;
		uint32_t id;
		int k;

		/* The same test twice in one output ("LPUSH" and "LPUSH (needed to
		 * benchmark LRANGE)", or runs appended to one file) is the same
		 * point measured again: number the repeats.  (No more names than
		 * points, which are far below the table's 2^31.) */
		if (strtab_intern(&names, p->test, strlen(p->test), &id, NULL) < 0)
			abort();
		repeat = seen[id] + 1;
		row_init(&r);
		xstrlcpy(r.label, label, sizeof r.label);
		xstrlcpy(r.test, p->test, sizeof r.test);
		r.pipeline = cfg->pipeline.v[0];
		r.clients = (int64_t)cfg->clients;
		r.requests = (int64_t)cfg->requests;
		r.repeat = repeat;
		r.rps = p->rps;
		/* redis-benchmark's rps is requests over the whole run. */
		if (p->rps > 0)
			r.seconds = (double)cfg->requests / p->rps;
		r.avg_ms = p->avg_ms;
		r.min_ms = p->min_ms;
		r.p50_ms = p->p50_ms;
		r.p95_ms = p->p95_ms;
		r.p99_ms = p->p99_ms;
		r.max_ms = p->max_ms;
		r.data_size = (int64_t)cfg->data_size;
		r.order = (int64_t)i + 1;
		if (csv_check_row(&r, &e) < 0) {
			if (!cfg->skip_bad) {
				rs_err_set(err, "%s:%u: %s", path, p->line, e.msg);
				goto fail;
			}
			fprintf(stderr, "rsweep import: %s:%u: skipped: %s\n", path, p->line, e.msg);
			continue;
		}
		if (cap - len < CSV_LINE_MAX) {
			cap *= 2;
			out = xrealloc(out, cap);
		}
		k = csv_format_row(&r, out + len, cap - len, err);
		if (k < 0)
			goto fail;
		len += (size_t)k;
		seen[id]++;
		(*nrows)++;
	}
	if (*nrows == 0) {
		rs_err_set(err, "%s: no result in it that can be imported", path);
		goto fail;
	}
	strtab_free(&names);
	free(seen);
	*lenp = len;
	return out;
fail:
	strtab_free(&names);
	free(seen);
	free(out);
	return NULL;
}

/* The label, checked as the CSV's readers will check it, before any input
 * is read: a line break or a tab would break the file's readers. */
static int import_check_label(const char *label, int given, struct rs_err *err)
{
	struct rs_row r;
	struct rs_err e;

	row_init(&r);
	xstrlcpy(r.label, label, sizeof r.label);
	xstrlcpy(r.test, "GET", sizeof r.test);
	r.pipeline = 1;
	r.rps = 0;
	if (csv_check_row(&r, &e) == 0)
		return 0;
	if (given)
		return rs_err_set(err, "--label: %s", e.msg);
	return rs_err_set(err, "cannot make a label of the input's name (%s): give --label", e.msg);
}

/* Write buf to path whole or not at all (outfile.h). */
static int import_write_atomic(const char *path, const char *buf, size_t len, struct rs_err *err)
{
	struct outfile o;

	if (outfile_open(&o, path, err) < 0)
		return -1;
	if (fwrite(buf, 1, len, o.fp) != len) {
		rs_err_set(err, "cannot write %s: %s", path, strerror(errno));
		outfile_abort(&o);
		return -1;
	}
	return outfile_commit(&o, err);
}

static enum rs_status import_output(const struct rs_config *cfg, const char *buf, size_t len,
				    struct rs_err *err)
{
	struct stat st;

	if (cfg->output == NULL || strcmp(cfg->output, "-") == 0) {
		if (fwrite(buf, 1, len, stdout) != len) {
			rs_err_set(err, "cannot write to standard output");
			return RS_FAILED;
		}
		return RS_OK;
	}
	if (stat(cfg->output, &st) == 0 && st.st_size > 0 && !cfg->overwrite) {
		rs_err_set(err, "%s exists and is not empty (give --overwrite to replace it)",
			   cfg->output);
		return RS_BAD_INPUT;
	}
	if (import_write_atomic(cfg->output, buf, len, err) < 0)
		return RS_FAILED;
	return RS_OK;
}

enum rs_status cmd_import(struct rs_config *cfg, struct rs_err *err)
{
	static const enum import_kind kinds[] = { IMPORT_AUTO, IMPORT_CSV, IMPORT_QUIET };
	static const char *const kind_names[] = { "", "redis-benchmark --csv", "redis-benchmark -q" };
	struct import_result res;
	char label[ROW_STR], *in = NULL, *out = NULL;
	const char *path;
	size_t inlen, outlen, nrows;
	enum rs_status st = RS_BAD_INPUT;

	if (cfg->nargs != 1) {
		rs_err_set(err, "give one input FILE (or - for standard input), not %d", cfg->nargs);
		return RS_BAD_INPUT;
	}
	path = cfg->args[0];
	if (cfg->pipeline.n != 1) {
		rs_err_set(err, "-P/--pipeline: give the one depth the input was measured with, "
			   "not a list of %zu", cfg->pipeline.n);
		return RS_BAD_INPUT;
	}
	if (cfg->label) {
		if (xstrlcpy(label, cfg->label, sizeof label) < 0) {
			rs_err_set(err, "--label is longer than %d characters", ROW_STR - 1);
			return RS_BAD_INPUT;
		}
	} else if (strcmp(path, "-") == 0) {
		rs_err_set(err, "reading standard input: give --label");
		return RS_BAD_INPUT;
	} else if (import_default_label(path, label, sizeof label, err) < 0) {
		return RS_BAD_INPUT;
	}
	if (import_check_label(label, cfg->label != NULL, err) < 0)
		return RS_BAD_INPUT;
	if (csv_slurp(path, IMPORT_MAX_INPUT, &in, &inlen, err) < 0)
		return RS_BAD_INPUT;
	if (strcmp(path, "-") == 0)
		path = "<stdin>";
	if (import_parse(in, inlen, path, kinds[cfg->from], cfg->skip_bad, &res, err) < 0)
		goto out;
	/* Skipped lines are always named: --skip-bad is not --silent. */
	for (size_t i = 0; i < res.nbad; i++)
		fprintf(stderr, "rsweep import: %s:%u: skipped: %s\n", path, res.bad[i].line,
			res.bad[i].reason);
	out = import_rows(&res, cfg, path, label, &outlen, &nrows, err);
	if (out == NULL)
		goto out_res;
	st = import_output(cfg, out, outlen, err);
	if (st == RS_OK && !cfg->quiet)
		fprintf(stderr, "rsweep import: %zu rows from %s (%s output), label '%s', P=%u%s%s%s\n",
			nrows, path, kind_names[res.kind], label, cfg->pipeline.v[0],
			cfg->output ? " -> " : "", cfg->output ? cfg->output : "",
			res.nbad || nrows < res.n ? "; some lines skipped" : "");
out_res:
	import_result_free(&res);
out:
	free(in);
	free(out);
	return st;
}
