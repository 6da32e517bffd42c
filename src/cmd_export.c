/* cmd_export.c: `rsweep export`: read results CSVs (and their histogram
 * sidecars) through the input pipeline report and plot read them by
 * (inputs.h: --relabel, --tests, --depths), and write them in another tool's
 * format (export.h) to stdout or, whole or not at all, to -o FILE. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "export.h"
#include "inputs.h"
#include "latency.h"
#include "outfile.h"

/* The format's text of rows into fp.  Returns 0 or -1 (err set). */
static int cmd_export_emit(FILE *fp, const struct rs_config *cfg, const struct rs_rows *rows,
			   const struct latency_set *ls, struct rs_err *err)
{
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
		rc = export_benchstat(fp, rows, err);
		break;
	}
	if (rc < 0)
		return rs_err_as(err, RS_E_INPUT);
	if (ferror(fp))
		return rs_err_setk(err, RS_E_IO, "%s", strerror(errno ? errno : EIO));
	return 0;
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
	inputs_opts_from(cfg, &io);
	/* memtier-json takes a row's histogram where there is one. */
	io.hist = cfg->export_format == EXPORT_HGRM || cfg->export_format == EXPORT_HLOG ||
		  cfg->export_format == EXPORT_MEMTIER;
	rc = inputs_read(&io, &rows, &ls, err);
	if (rc < 0) {
		rs_err_as(err, RS_E_INPUT);
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
