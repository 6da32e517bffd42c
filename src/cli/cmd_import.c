/* cmd_import.c: `rsweep import`: turn what redis-benchmark or
 * valkey-benchmark printed (--csv, -q, the default output, loops of runs,
 * terminal captures), or what memtier_benchmark wrote with
 * --json-out-file, into rsweep CSV rows, written atomically to -o FILE or
 * to stdout. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/infile.h"
#include "cli/cmd.h"
#include "results/csv.h"
#include "results/histfile.h"
#include "formats/import.h"
#include "cli/inputs.h"
#include "base/log.h"
#include "results/hdrlog.h"
#include "cli/opts.h"
#include "base/outfile.h"
#include "base/redact.h"
#include "base/sbuf.h"
#include "base/strtab.h"
#include "base/vec.h"
#include "base/xalloc.h"

#define IMPORT_MAX_INPUT ((size_t)256 << 20)

/* The label when none is given: the input's base name without extension. */
static int cmd_import_default_label(const char *path, char *out, size_t size, struct rs_err *err)
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

/* The program that printed run: as the capture names it, else
 * redis-benchmark (whose output valkey-benchmark's cannot be told from). */
static const char *cmd_import_program(const struct import_run *run)
{
	return run->program[0] ? run->program : "redis-benchmark";
}

/* The depth of each run of res into depth[] (res->nruns of them): -P's
 * depths one per run in order, or its one depth for every run (repeats), or
 * what the capture's command lines show.  A count that does not match,
 * a contradiction, or several runs of unknown depth fail (err says which).
 * *guessed is set when the one run's depth is unknown and taken as 1,
 * *shown to the number of runs whose depth the capture showed. */
static int cmd_import_depths(const struct import_result *res, const struct rs_config *cfg,
			     const char *path, unsigned *depth, int *guessed, size_t *shown,
			     struct rs_err *err)
{
	int given = opts_given(cfg, "pipeline");
	size_t nlist = cfg->pipeline.n;

	*guessed = 0;
	*shown = 0;
	if (given && nlist > 1 && nlist != res->nruns)
		return rs_err_set(err, "%s holds %zu run%s of %s (a test seen again "
				  "starts the next) but -P lists %zu depths", path, res->nruns,
				  res->nruns == 1 ? "" : "s", cmd_import_program(&res->runs[0]), nlist);
	for (size_t k = 0; k < res->nruns; k++) {
		const struct import_run *run = &res->runs[k];
		unsigned want = given ? cfg->pipeline.v[nlist > 1 ? k : 0] : run->pipeline;

		if (run->pipeline)
			(*shown)++;
		if (given && run->pipeline && run->pipeline != want && run->pipeline_implied)
			return rs_err_set(err, "%s:%u: the command line has no -P (so P=1), but -P "
					  "says %u for the run at line %u", path, run->cmd_line, want,
					  run->line);
		if (given && run->pipeline && run->pipeline != want)
			return rs_err_set(err, "%s:%u: the command line shows -P %u, but -P says %u "
					  "for the run at line %u", path, run->cmd_line, run->pipeline,
					  want, run->line);
		/* The example fits: as many depths as runs. */
		if (want == 0 && res->nruns > 1)
			return rs_err_set(err, "%s holds %zu runs of %s (a test seen "
					  "again starts the next) and does not show the depth of the "
					  "run at line %u: give -P with %zu depths, one per run in "
					  "order (as -P 1..%zu), or -P D if every run used depth D", path,
					  res->nruns, cmd_import_program(run), run->line, res->nruns,
					  res->nruns);
		if (want == 0) {
			want = 1;
			*guessed = 1;
		}
		depth[k] = want;
	}
	return 0;
}

/* A figure of a point: what the capture shows (the point's own block,
 * else its run's command line), else the option if given, else the
 * program's default where its command line is seen but silent (defaulted),
 * else unknown (-1).  An option that contradicts the capture fails. */
static int cmd_import_figure(int64_t point, int64_t run, int defaulted,
			     const struct rs_config *cfg, const char *opt, char letter,
			     uint64_t value, const char *path, unsigned line, int64_t *out,
			     struct rs_err *err)
{
	int64_t shown = point >= 0 ? point : defaulted ? -1 : run;

	if (shown >= 0 && opts_given(cfg, opt) && (uint64_t)shown != value)
		return rs_err_set(err, "%s:%u: the capture shows -%c %lld, but -%c says %llu", path,
				  line, letter, (long long)shown, letter, (unsigned long long)value);
	*out = shown >= 0 ? shown : opts_given(cfg, opt) ? (int64_t)value : defaulted ? run : -1;
	return 0;
}

/* The rsweep CSV text of res, run k at depth[k]: header and one row per
 * point.  A point the CSV's readers would refuse (1e300 requests per
 * second) fails the import with path:line, or with skip_bad is named and
 * left out.  Returns a malloc'd buffer and the number of rows in *nrows, or
 * NULL (err set). */
static char *cmd_import_rows(const struct import_result *res, const struct rs_config *cfg,
			     const char *path, const char *label, const unsigned *depth,
			     size_t *lenp, size_t *nrows, struct rs_err *err)
{
	size_t cap = 4096 + res->n * 1024, len = strlen(csv_header());
	char *out = xmalloc(cap);
	/* Rows kept so far of each (test, depth), by its id in names. */
	struct strtab names = { 0 };
	unsigned *seen = xcalloc(res->n ? res->n : 1, sizeof *seen);

	*nrows = 0;
	memcpy(out, csv_header(), len);
	for (size_t i = 0; i < res->n; i++) {
		const struct import_point *p = &res->v[i];
		const struct import_run *run = &res->runs[p->run];
		char key[ROW_STR + 16];
		struct rs_row r;
		struct rs_err e;
		unsigned repeat;
		uint32_t id;
		int k;

		/* The same test twice at one depth ("LPUSH" and "LPUSH (needed to
		 * benchmark LRANGE)", or runs repeated at one depth) is the same
		 * point measured again: number the repeats.  (No more names than
		 * points, which are far below the table's 2^31.) */
		k = snprintf(key, sizeof key, "%u %s", depth[p->run], p->test);
		if (strtab_intern(&names, key, (size_t)k, &id, NULL) < 0)
			abort();
		repeat = seen[id] + 1;
		row_init(&r);
		xstrlcpy(r.label, label, sizeof r.label);
		xstrlcpy(r.test, p->test, sizeof r.test);
		r.pipeline = depth[p->run];
		xstrlcpy(r.target, run->target, sizeof r.target);
		/* A capture's -h may hold what looks like a password: never written. */
		redact_target(r.target);
		if (cmd_import_figure(p->clients, run->clients, run->defaulted & IMPORT_DEF_CLIENTS,
				      cfg, "clients", 'c', cfg->clients, path, p->line,
				      &r.clients, err) < 0 ||
		    cmd_import_figure(p->requests, run->requests,
				      run->defaulted & IMPORT_DEF_REQUESTS, cfg, "requests", 'n',
				      cfg->requests, path, p->line, &r.requests, err) < 0 ||
		    cmd_import_figure(p->data_size, run->data_size,
				      run->defaulted & IMPORT_DEF_DATA_SIZE, cfg, "data-size", 'd',
				      cfg->data_size, path, p->line, &r.data_size, err) < 0)
			goto fail;
		r.repeat = repeat;
		r.rps = p->rps;
		/* redis-benchmark's rps is requests over the whole run: with the
		 * count known that is the time at full precision; otherwise the
		 * time the full output shows, else nothing. */
		if (r.requests >= 0 && p->rps > 0)
			r.seconds = (double)r.requests / p->rps;
		else
			r.seconds = p->seconds;
		r.avg_ms = p->avg_ms;
		r.min_ms = p->min_ms;
		r.p50_ms = p->p50_ms;
		r.p95_ms = p->p95_ms;
		r.p99_ms = p->p99_ms;
		r.max_ms = p->max_ms;
		r.order = (int64_t)i + 1;
		/* 16 + 1 + 14 characters: the client column's 31. */
		snprintf(r.client, sizeof r.client, "%.16s%s%.14s", cmd_import_program(run),
			 run->version[0] ? " " : "", run->version);
		if (csv_check_row(&r, &e) < 0) {
			if (!cfg->skip_bad) {
				rs_err_set(err, "%s:%u: %s", path, p->line, e.msg);
				goto fail;
			}
			rs_log(RS_LOG_INFO, "%s:%u: skipped: %s", path, p->line, e.msg);
			continue;
		}
		out = vec_reserve(out, &cap, len + CSV_LINE_MAX, 1, 0);
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

/* "1,2,4,8,16": the distinct depths of the runs, in run order, into buf.
 * Not depths_format: that wants them ascending and writes ranges, and the
 * runs' order is what this line reports.  A list too long ends in ",...",
 * after a whole depth, never in a number cut short. */
static void cmd_import_depth_list(const unsigned *depth, size_t n, char *buf, size_t size)
{
	struct sbuf b;

	sbuf_fixed(&b, buf, size);
	for (size_t k = 0; k < n; k++) {
		size_t j;

		for (j = 0; j < k && depth[j] != depth[k]; j++)
			;
		if (j < k)
			continue;
		if (b.len + 24 >= size) {
			sbuf_add(&b, ",...", 4);
			return;
		}
		sbuf_item(&b, ",", "%u", depth[k]);
	}
}

/* The label, checked as the CSV's readers will check it, before any input
 * is read: a line break or a tab would break the file's readers. */
static int cmd_import_check_label(const char *label, int given, struct rs_err *err)
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
static int cmd_import_write_atomic(const char *path, const char *buf, size_t len,
				   struct rs_err *err)
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

/* path's sidecar name (histfile.h), malloc'd. */
static char *cmd_import_sidecar_name(const char *path)
{
	char *name = xmalloc(strlen(path) + sizeof HISTFILE_SUFFIX);

	strcpy(name, path);
	strcat(name, HISTFILE_SUFFIX);
	return name;
}

/* The histograms of rows just written to path, whole or not at all, into
 * its sidecar (which cmd_import_output made sure was not there). */
static int cmd_import_sidecar(const char *path, const struct sbuf *side, struct rs_err *err)
{
	char *name = cmd_import_sidecar_name(path);
	int rc;

	rc = cmd_import_write_atomic(name, side->s, side->len, err);
	free(name);
	return rc;
}

/* Whether anything is at path's sidecar name (a link too). */
static int cmd_import_has_sidecar(const char *path)
{
	struct stat st;
	char *side = cmd_import_sidecar_name(path);
	int has;

	has = lstat(side, &st) == 0;
	free(side);
	return has;
}

/* Write the rows to stdout or, atomically, to -o.  Returns 0 or -1: of kind
 * RS_E_REFUSED for a file that holds something, or one beside a histogram
 * sidecar (histfile.h), which readers would take for the new rows'; else
 * a failure to write. */
static int cmd_import_output(const struct rs_config *cfg, const char *buf, size_t len,
			     struct rs_err *err)
{
	struct stat st;

	if (cfg->output == NULL || strcmp(cfg->output, "-") == 0) {
		if (fwrite(buf, 1, len, stdout) != len)
			return rs_err_setk(err, RS_E_IO, "cannot write to standard output");
		return 0;
	}
	if (stat(cfg->output, &st) == 0 && st.st_size > 0 && !cfg->overwrite)
		return rs_err_setk(err, RS_E_REFUSED, "%s exists and is not empty (give --overwrite "
				   "to replace it)", cfg->output);
	/* Imported rows have no histograms: a sidecar left there is another
	 * run's, and removing it could lose the only copy of it. */
	if (cmd_import_has_sidecar(cfg->output))
		return rs_err_setk(err, RS_E_REFUSED, "%s%s holds the latency histograms of "
				   "another run's rows, which would be read as the imported rows': "
				   "move it away, or import to another file", cfg->output,
				   HISTFILE_SUFFIX);
	return cmd_import_write_atomic(cfg->output, buf, len, err);
}

/* The label of the rows: --label, or the input's name.  Returns 0 or -1
 * (RS_E_USAGE: none can be made; RS_E_INPUT: one the CSV cannot hold). */
static int cmd_import_label(const struct rs_config *cfg, const char *path, char *label,
			    size_t size, struct rs_err *err)
{
	if (cfg->label) {
		if (xstrlcpy(label, cfg->label, size) < 0)
			return rs_err_setk(err, RS_E_USAGE, "--label is longer than %d characters",
					   (int)size - 1);
	} else if (strcmp(path, "-") == 0) {
		return rs_err_setk(err, RS_E_USAGE, "reading standard input: give --label");
	} else if (cmd_import_default_label(path, label, size, err) < 0) {
		return rs_err_as(err, RS_E_USAGE);
	}
	if (cmd_import_check_label(label, cfg->label != NULL, err) < 0)
		return rs_err_as(err, RS_E_INPUT);
	return 0;
}

/* What the import assumed, passed over and made, on stderr (-q: only what
 * was skipped, which cmd_import_rows and cmd_import always name). */
static void cmd_import_summary(const struct rs_config *cfg, const struct import_result *res,
			       const char *path, const char *label, const unsigned *depth,
			       size_t nrows, int guessed, size_t shown)
{
	static const char *const kind_names[] = { "", " --csv", " -q", "", "", " default" };
	char depths[96];

	if (cfg->quiet)
		return;
	/* A wrong depth is a wrong row: never assumed in silence. */
	if (guessed)
		rs_log(RS_LOG_INFO, "%s does not show its pipeline depth: recorded as P=1 "
		       "(%s's default); give -P if it ran with another", path,
		       cmd_import_program(&res->runs[0]));
	if (shown > 0 && !opts_given(cfg, "pipeline")) {
		const struct import_run *first = &res->runs[0], *last = &res->runs[res->nruns - 1];

		const struct import_run *said = first->pipeline ? first : last;
		char what[48];

		if (said->pipeline_implied)
			snprintf(what, sizeof what, "no -P, so P=1");
		else
			snprintf(what, sizeof what, "-P %u", said->pipeline);
		rs_log(RS_LOG_INFO, "%s: the depth of %zu of %zu run%s is the one its command line "
		       "shows (line %u: %s)", path, shown, res->nruns, res->nruns == 1 ? "" : "s",
		       said->cmd_line, what);
	}
	for (size_t k = 0; k < res->nruns; k++)
		if (res->runs[k].defaulted) {
			const struct import_run *d = &res->runs[k];

			rs_log(RS_LOG_INFO, "%s: its command line (line %u) names no%s%s%s: taken as %s's "
			       "defaults (%s%s%s), what it measured with; give -c, -n or -d if not",
			       path, d->cmd_line, d->defaulted & IMPORT_DEF_CLIENTS ? " -c" : "",
			       d->defaulted & IMPORT_DEF_REQUESTS ? " -n" : "",
			       d->defaulted & IMPORT_DEF_DATA_SIZE ? " -d" : "",
			       cmd_import_program(d),
			       d->defaulted & IMPORT_DEF_CLIENTS ? "50 clients" : "",
			       d->defaulted & IMPORT_DEF_REQUESTS ? ", 100000 requests" : "",
			       d->defaulted & IMPORT_DEF_DATA_SIZE ? ", 3 bytes" : "");
			break;
		}
	if (res->nskipped > 0)
		rs_log(RS_LOG_INFO, "%s: skipped %zu line%s that %s not results (the first, line %u: "
		       "'%s')", path, res->nskipped, res->nskipped == 1 ? "" : "s",
		       res->nskipped == 1 ? "is" : "are", res->skip_line, res->skip_text);
	cmd_import_depth_list(depth, res->nruns, depths, sizeof depths);
	rs_log(RS_LOG_INFO, "%zu rows from %s (%s%s output, %zu run%s), label '%s', P=%s%s%s%s",
	       nrows, path, cmd_import_program(&res->runs[0]), kind_names[res->kind], res->nruns,
	       res->nruns == 1 ? "" : "s", label,
	       depths, cfg->output ? " -> " : "", cfg->output ? cfg->output : "",
	       res->nbad || nrows < res->n ? "; some lines skipped" : "");
}

/* --hdr-file-prefix: row r's histogram from memtier's
 * PREFIX_CMD_command_run_K.hgrm (CMD the row's test, K its repeat: memtier's
 * run), as one sidecar line appended to side.  0, or -1 (err "FILE:
 * reason", of kind RS_E_INPUT). */
static int cmd_import_hdr(const char *prefix, const struct rs_row *r, struct sbuf *side,
			  struct rs_err *err)
{
	char path[PATH_MAX];
	char *buf = NULL;
	size_t len;
	struct hist *h;
	int rc;

	if ((size_t)snprintf(path, sizeof path, "%s_%s_command_run_%u.hgrm", prefix, r->test,
			     r->repeat) >= sizeof path)
		return rs_err_setk(err, RS_E_INPUT, "--hdr-file-prefix: too long a name");
	if (infile_slurp_bytes(path, IMPORT_MAX_INPUT, &buf, &len, err) < 0)
		return rs_err_as(err, RS_E_INPUT);
	h = xmalloc(sizeof *h);
	hist_init(h);
	/* memtier records microseconds. */
	rc = hdrlog_read_first(buf, len, path, 1000.0, h, err);
	if (rc == 0 && h->count == 0)
		rc = rs_err_set(err, "%s: an empty histogram", path);
	if (rc == 0)
		histfile_format_line(side, r, h);
	free(h);
	free(buf);
	return rc < 0 ? rs_err_as(err, RS_E_INPUT) : 0;
}

/* memtier_benchmark's JSON in[0..inlen) as rows labelled label: each row
 * checked as the CSV's readers will check it, and against the options
 * given (-P, -c, -n, -d: the file says what it ran with, and an option
 * that contradicts it is an error).  Writes them as cmd_import_output
 * does and says on stderr what was read. */
static int cmd_import_memtier(const struct rs_config *cfg, const char *path, const char *label,
			      const char *in, size_t inlen, struct rs_err *err)
{
	struct import_memtier m;
	size_t cap = 4096, len = strlen(csv_header()), nseen = 0, capseen = 0;
	struct strtab points = { 0 };
	unsigned *seen = NULL;
	char key[2 * ROW_STR + 16];
	uint32_t id;
	int kn;
	struct sbuf side;
	char *out;
	int rc = -1;

	if (cfg->hdr_file_prefix != NULL && (cfg->output == NULL || strcmp(cfg->output, "-") == 0))
		return rs_err_setk(err, RS_E_USAGE, "--hdr-file-prefix needs -o FILE.csv: the "
				   "histograms go to its sidecar, FILE.csv%s", HISTFILE_SUFFIX);
	if (import_memtier_parse(in, inlen, path, &m, err) < 0)
		return rs_err_as(err, RS_E_INPUT);
	sbuf_heap(&side);
	sbuf_printf(&side, "%s\n", HISTFILE_HEADER);
	out = xmalloc(cap);
	memcpy(out, csv_header(), len);
	for (size_t i = 0; i < m.n; i++) {
		struct rs_row *r = &m.v[i];
		struct rs_err e;
		int k;

		/* --label, else the label rsweep export wrote, else the name. */
		if (cfg->label || r->label[0] == '\0')
			xstrlcpy(r->label, label, sizeof r->label);
		/* Points measured again (runs, files one after another) are
		 * repeats, numbered in the file's order: a count per point, by
		 * its key in a table (a scan of the rows before would make a
		 * JSON Lines file of n documents cost n^2). */
		kn = snprintf(key, sizeof key, "%u %s%c%s", r->pipeline, r->test, '\0', r->label);
		if (kn < 0 || strtab_intern(&points, key, (size_t)kn, &id, NULL) < 0)
			abort();
		seen = vec_reserve(seen, &capseen, (size_t)id + 1, sizeof *seen, 0);
		if (id >= nseen)
			seen[nseen++] = 0;
		r->repeat = ++seen[id];
		if (opts_given(cfg, "pipeline") && (cfg->pipeline.n != 1 ||
						    cfg->pipeline.v[0] != r->pipeline)) {
			rs_err_setk(err, RS_E_INPUT, "%s:%u: the file shows pipeline %u, but -P says "
				    "otherwise", path, r->line, r->pipeline);
			goto out;
		}
		if (cmd_import_figure(r->clients, -1, 0, cfg, "clients", 'c', cfg->clients, path,
				      r->line, &r->clients, err) < 0 ||
		    cmd_import_figure(r->requests, -1, 0, cfg, "requests", 'n', cfg->requests, path,
				      r->line, &r->requests, err) < 0 ||
		    cmd_import_figure(r->data_size, -1, 0, cfg, "data-size", 'd', cfg->data_size,
				      path, r->line, &r->data_size, err) < 0) {
			rs_err_as(err, RS_E_INPUT);
			goto out;
		}
		r->order = (int64_t)i + 1;
		if (csv_check_row(r, &e) < 0) {
			rs_err_setk(err, RS_E_INPUT, "%s:%u: %s", path, r->line, e.msg);
			goto out;
		}
		if (cfg->hdr_file_prefix != NULL &&
		    cmd_import_hdr(cfg->hdr_file_prefix, r, &side, err) < 0)
			goto out;
		out = vec_reserve(out, &cap, len + CSV_LINE_MAX, 1, 0);
		if ((k = csv_format_row(r, out + len, cap - len, err)) < 0)
			goto out;
		len += (size_t)k;
	}
	if ((rc = cmd_import_output(cfg, out, len, err)) == 0 && cfg->hdr_file_prefix != NULL)
		rc = cmd_import_sidecar(cfg->output, &side, err);
	if (rc == 0 && !cfg->quiet) {
		char from[96];

		if (m.aggregate)
			rs_log(RS_LOG_INFO, "%s: took \"%s\", memtier's average of %u runs (the file "
			       "has no \"RUN #K RESULTS\": memtier --print-all-runs writes them)",
			       path, m.section, m.nruns_avg);
		if (m.mixed)
			rs_log(RS_LOG_INFO, "%s: its commands ran together (ratio %s): each row's rps "
			       "is that command's share of one run, not a run of its own", path,
			       m.ratio[0] ? m.ratio : "?");
		if (m.ndocs > 1)
			snprintf(from, sizeof from, "%zu documents", m.ndocs);
		else if (m.nruns)
			snprintf(from, sizeof from, "%u runs, \"RUN #K RESULTS\" as repeat K", m.nruns);
		else
			snprintf(from, sizeof from, "\"%s\"", m.section);
		rs_log(RS_LOG_INFO, "%zu rows from %s (memtier_benchmark JSON, %s), label '%s'%s, "
		       "P=%u%s%s%s", m.n, path, from, m.v[0].label,
		       cfg->label || m.ndocs == 1 ? "" : " and others", m.v[0].pipeline,
		       m.ndocs > 1 ? " and others" : "", cfg->output ? " -> " : "",
		       cfg->output ? cfg->output : "");
	}
out:
	free(out);
	free(side.s);
	free(seen);
	strtab_free(&points);
	import_memtier_free(&m);
	return rc;
}

int cmd_import(struct rs_config *cfg, struct rs_err *err)
{
	struct import_result res;
	char label[ROW_STR], *in = NULL, *out = NULL;
	const char *path;
	unsigned *depth = NULL;
	size_t inlen, outlen, nrows, shown;
	int guessed, rc = -1;

	if (cfg->nargs != 1)
		return rs_err_setk(err, RS_E_USAGE, "give one input FILE (or - for standard input), "
				   "not %d", cfg->nargs);
	path = cfg->args[0];
	if (cmd_import_label(cfg, path, label, sizeof label, err) < 0)
		return -1;
	/* The rows never go over the file they come from. */
	if (inputs_output_check(cfg->output, cfg->args, 1, err) < 0)
		return -1;
	/* An input that cannot be read is bad input, as a CSV is to report. */
	if (infile_slurp_bytes(path, IMPORT_MAX_INPUT, &in, &inlen, err) < 0)
		return rs_err_as(err, RS_E_INPUT);
	if (strcmp(path, "-") == 0)
		path = "<stdin>";
	if (cfg->from == IMPORT_MEMTIER || (cfg->from == IMPORT_AUTO && import_is_json(in, inlen))) {
		rc = cmd_import_memtier(cfg, path, label, in, inlen, err);
		goto out;
	}
	if (import_parse(in, inlen, path, (enum import_kind)cfg->from, cfg->skip_bad, &res, err) < 0) {
		rs_err_as(err, RS_E_INPUT);
		goto out;
	}
	/* Skipped lines are always named: --skip-bad is not --silent. */
	for (size_t i = 0; i < res.nbad; i++)
		rs_log(RS_LOG_INFO, "%s:%u: skipped: %s", path, res.bad[i].line, res.bad[i].reason);
	depth = xcalloc(res.nruns, sizeof *depth);
	if (cmd_import_depths(&res, cfg, path, depth, &guessed, &shown, err) < 0) {
		rs_err_as(err, RS_E_INPUT);
		goto out_res;
	}
	out = cmd_import_rows(&res, cfg, path, label, depth, &outlen, &nrows, err);
	if (out == NULL) {
		rs_err_as(err, RS_E_INPUT);
		goto out_res;
	}
	if ((rc = cmd_import_output(cfg, out, outlen, err)) == 0)
		cmd_import_summary(cfg, &res, path, label, depth, nrows, guessed, shown);
out_res:
	import_result_free(&res);
out:
	free(depth);
	free(in);
	free(out);
	return rc;
}
