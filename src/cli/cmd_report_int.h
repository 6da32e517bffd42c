/* cmd_report_int.h: what `rsweep report` (cmd_report.c) shares with its
 * page (cmd_report_html.c).  Nobody else includes it. */
#ifndef RS_CMD_REPORT_INT_H
#define RS_CMD_REPORT_INT_H

#include <stdio.h>

#include "analysis/analysis.h"
#include "analysis/latency.h"
#include "analysis/slo_answer.h"
#include "base/err.h"
#include "cli/opts.h"
#include "report/report.h"
#include "results/row.h"

/* --format html: the page of r (ro as for report_write, with the
 * environments) to fp, its charts drawn from r's series and rows: rps
 * against depth, the speed-up summary with two labels or more, p99
 * against the throughput achieved where the rows have it (from ls, the
 * rows' histograms, where every repeat has one), and run --slo's answer
 * where slo (NULL: none) holds a search.  A page without a font to draw
 * with has no charts, and says so.  Returns 0 or -1 (err: a chart the
 * model refuses, a failure to write). */
int cmd_report_html(FILE *fp, const struct rs_config *cfg, const struct rs_rows *rows,
		    const struct latency_set *ls, const struct analysis_result *r,
		    const struct slo_answers *slo, const struct report_opts *ro,
		    struct rs_err *err);

#endif
