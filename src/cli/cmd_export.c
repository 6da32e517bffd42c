/* cmd_export.c: `rsweep export`: read results CSVs (and their histogram
 * sidecars) through the input pipeline report and plot read them by
 * (inputs.h: --relabel, --tests, --depths), and write them in another tool's
 * format (export.h) to stdout or, whole or not at all, to -o FILE. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cmd.h"
#include "formats/export.h"
#include "cli/inputs.h"
#include "analysis/latency.h"
#include "cli/opts.h"
#include "base/outfile.h"
#include "base/sbuf.h"

/* The format's text of rows into fp.  Returns 0 or -1 (err set). */
static int cmd_export_emit(FILE *fp, const struct rs_config *cfg, const struct rs_rows *rows,
			   const struct latency_set *ls, struct rs_err *err)
{
	struct runenv_set envs = { 0 };
	int rc;

	switch ((enum export_format)cfg->export_format) {
	case EXPORT_HGRM:
		rc = export_hgrm(fp, rows, ls, err);
		break;
	case EXPORT_HLOG:
		rc = export_hlog(fp, rows, ls, err);
		break;
	case EXPORT_MEMTIER:
		rc = export_memtier(fp, rows, ls, err);
		break;
	case EXPORT_VALKEY_METRICS:
		rc = export_valkey_metrics(fp, rows, err);
		break;
	case EXPORT_BENCHSTAT:
	default:
		/* The runs' environments as benchstat's configuration. */
		inputs_envs(rows, &envs, "the export");
		rc = export_benchstat(fp, rows, &envs, err);
		runenv_set_free(&envs);
		break;
	}
	if (rc < 0)
		return rs_err_as(err, RS_E_INPUT);
	if (ferror(fp))
		return rs_err_setk(err, RS_E_IO, "%s", strerror(errno ? errno : EIO));
	return 0;
}

/* --split DIR: each point's document to a file of its own in DIR, whole
 * or not at all (outfile.h), never over an input. */
struct cmd_export_split {
	const struct rs_config *cfg;
	struct outfile o;
	struct sbuf path;
};

static FILE *cmd_export_split_open(void *ud, const struct rs_rec *first, struct rs_err *err)
{
	struct cmd_export_split *s = ud;

	s->path.len = 0;
	s->path.s[0] = '\0';
	sbuf_printf(&s->path, "%s/", s->cfg->export_split);
	export_memtier_file_name(first, &s->path);
	if (inputs_output_check(s->path.s, s->cfg->args, (size_t)s->cfg->nargs, err) < 0 ||
	    outfile_open(&s->o, s->path.s, err) < 0)
		return NULL;
	return s->o.fp;
}

static int cmd_export_split_close(void *ud, FILE *fp, struct rs_err *err)
{
	struct cmd_export_split *s = ud;

	if (ferror(fp)) {
		outfile_abort(&s->o);
		return rs_err_setk(err, RS_E_IO, "cannot write %s: %s", s->path.s,
				   strerror(errno ? errno : EIO));
	}
	return outfile_commit(&s->o, err);
}

/* The points of rows, a file each, into --split's directory (made when
 * missing).  Returns 0 or -1 (err set). */
static int cmd_export_split(const struct rs_config *cfg, const struct rs_rows *rows,
			    const struct latency_set *ls, struct rs_err *err)
{
	struct cmd_export_split s = { cfg, { 0 }, { 0 } };
	struct export_sink sink = { cmd_export_split_open, cmd_export_split_close, &s };
	struct stat st;
	int rc;

	if (mkdir(cfg->export_split, 0777) < 0 && errno != EEXIST)
		return rs_err_setk(err, RS_E_IO, "--split %s: %s", cfg->export_split, strerror(errno));
	if (stat(cfg->export_split, &st) < 0 || !S_ISDIR(st.st_mode))
		return rs_err_setk(err, RS_E_USAGE, "--split %s: not a directory", cfg->export_split);
	sbuf_heap(&s.path);
	rc = export_memtier_each(NULL, rows, ls, &sink, err);
	free(s.path.s);
	return rc;
}

int cmd_export(struct rs_config *cfg, struct rs_err *err)
{
	struct rs_rows rows = { 0 };
	struct latency_set ls = { 0 };
	struct inputs_opts io;
	struct outfile o;
	int rc;

	if (cfg->nargs == 0)
		return rs_err_setk(err, RS_E_USAGE, "no CSV files given (rsweep export --format "
				   "FORMAT FILE.csv...)");
	if (inputs_output_check(cfg->output, cfg->args, (size_t)cfg->nargs, err) < 0)
		return -1;
	if (opts_rules_check(CMD_EXPORT, cfg, err) < 0)
		return -1;
	if (cfg->export_split != NULL && cfg->export_format != EXPORT_MEMTIER)
		return rs_err_setk(err, RS_E_USAGE, "--split DIR writes memtier-json documents, a "
				   "file a point: give --format memtier-json");
	inputs_opts_from(cfg, &io);
	/* memtier-json takes a row's histogram where there is one. */
	io.hist = cfg->export_format == EXPORT_HGRM || cfg->export_format == EXPORT_HLOG ||
		  cfg->export_format == EXPORT_MEMTIER;
	rc = inputs_read(&io, &rows, &ls, err);
	if (rc < 0) {
		rs_err_as(err, RS_E_INPUT);
	} else if (cfg->export_split != NULL) {
		rc = cmd_export_split(cfg, &rows, &ls, err);
	} else if (cfg->output == NULL || strcmp(cfg->output, "-") == 0) {
		rc = cmd_export_emit(stdout, cfg, &rows, &ls, err);
	} else if ((rc = outfile_open(&o, cfg->output, err)) == 0) {
		if ((rc = cmd_export_emit(o.fp, cfg, &rows, &ls, err)) < 0)
			outfile_abort(&o);
		else
			rc = outfile_commit(&o, err);
	}
	latency_free(&ls);
	rows_free(&rows);
	return rc;
}
