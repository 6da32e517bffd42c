/* report_html.h: the report as one self-contained HTML page, to publish
 * and to rerun: the answer first (the comparisons in words, the overall
 * figure), the environment of each label side by side with what differs,
 * the charts (SVG drawn by the caller, inline), the tables (the text
 * report), and the commands that made the data.  Nothing in the page is
 * fetched: no script, no font, no image outside it; it reads on a phone's
 * width and prints.  Every string from the data (labels, tests, targets,
 * server arguments, commands) is escaped. */
#ifndef RS_REPORT_HTML_H
#define RS_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "base/err.h"
#include "report/report.h"

/* A chart drawn for the page: its heading and its SVG document (from
 * "<svg" on is kept; an XML declaration before it is dropped). */
struct report_html_chart {
	const char *title;
	const char *svg;
};

/* What the page holds besides the analysis. */
struct report_html {
	const struct report_html_chart *charts;
	size_t ncharts;
	const char *charts_note; /* why there are no charts (NULL: none to say) */
};

/* Write the page of r (o as for report_write: o->envs the environments)
 * to fp.  Returns 0, or -1 when fp reports a write error, err with the
 * system's reason. */
int report_html_write(FILE *fp, const struct analysis_result *r, const struct report_opts *o,
		      const struct report_html *h, struct rs_err *err);

/* s into fp as HTML text, safe in an element or a quoted attribute (& < >
 * " ' as references; control characters but tab and newline as spaces). */
void report_html_escape(FILE *fp, const char *s);

#endif
