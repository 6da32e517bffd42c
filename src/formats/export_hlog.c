/* export_hlog.c: HdrHistogram's interval log (.hlog): one line a row, its
 * histogram in HdrHistogram's V2 compressed encoding, as the Java
 * HistogramLogWriter writes it and HistogramLogReader, HdrHistogram_c's
 * hdr_log_read and the HdrHistogram plotter read it.
 *
 * The histogram is hdrlog.h's encoding of rsweep's own: every count as
 * rsweep recorded it. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats/export.h"
#include "results/hdrlog.h"
#include "results/hist.h"
#include "base/sbuf.h"
#include "base/xalloc.h"

/* A tag holds no comma, blank or control character: HDR's readers split
 * on commas and take a tag to its first one. */
static int hlog_tag_ok(const char *s)
{
	for (; *s; s++)
		if (*s == ',' || (unsigned char)*s <= ' ')
			return 0;
	return 1;
}

/* Rows by start (file order where unknown). */
static int hlog_cmp(const void *pa, const void *pb)
{
	const struct rs_rec *a = *(const struct rs_rec *const *)pa, *b = *(const struct rs_rec *const *)pb;
	int ka = isfinite(a->started), kb = isfinite(b->started);

	if (ka && kb && a->started != b->started)
		return a->started < b->started ? -1 : 1;
	if (ka != kb)
		return kb - ka;
	return (a > b) - (a < b);
}

int export_hlog(FILE *fp, const struct rs_rows *rows, const struct latency_set *ls,
		struct rs_err *err)
{
	const struct rs_rec **ix = xcalloc(rows->n ? rows->n : 1, sizeof *ix);
	struct hist *h = xmalloc(sizeof *h);
	double base = NAN, at = 0;
	struct sbuf b64;
	char when[64] = "";
	int rc = 0;

	for (size_t i = 0; i < rows->n; i++)
		ix[i] = &rows->v[i];
	qsort(ix, rows->n, sizeof *ix, hlog_cmp);
	for (size_t i = 0; i < rows->n && rc == 0; i++) {
		const struct rs_rec *r = ix[i];

		hist_init(h);
		if (latency_row_merge(ls, r, h) < 0)
			rc = rs_err_set(err, "%s:%u: the row has no latency histogram (no sidecar %s.hist, "
					"or no line for the row in it)", r->src, r->line, r->src);
		else if (!hlog_tag_ok(r->label) || !hlog_tag_ok(r->test))
			rc = rs_err_set(err, "%s:%u: label '%s' or test '%s' holds a comma or a blank, "
					"which an hlog tag cannot", r->src, r->line, r->label, r->test);
	}
	if (rc == 0 && rows->n > 0 && isfinite(ix[0]->started)) {
		time_t t = (time_t)floor(ix[0]->started);
		struct tm tm;

		base = ix[0]->started;
		gmtime_r(&t, &tm);
		strftime(when, sizeof when, "%a %b %d %H:%M:%S UTC %Y", &tm);
	}
	if (rc == 0) {
		fprintf(fp, "#[Logged with rsweep %s]\n", PACKAGE_VERSION);
		fputs("#[Histogram log format version 1.3]\n", fp);
		if (isfinite(base)) {
			fprintf(fp, "#[StartTime: %.3f (seconds since epoch), %s]\n", base, when);
			fprintf(fp, "#[BaseTime: %.3f (seconds since epoch)]\n", base);
		}
		fputs("\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
		      "\"Interval_Compressed_Histogram\"\n", fp);
	}
	sbuf_heap(&b64);
	for (size_t i = 0; i < rows->n && rc == 0; i++) {
		const struct rs_rec *r = ix[i];
		double secs = rows_fig(rows, r, ROW_SECONDS), rate = rows_fig(rows, r, ROW_RATE);

		hist_init(h);
		latency_row_merge(ls, r, h);
		/* Rows without a start (none here from rsweep run) follow one
		 * another from the last known. */
		if (isfinite(r->started) && isfinite(base))
			at = r->started - base;
		fprintf(fp, "Tag=%s/%s/P=%u", r->label, r->test, r->pipeline);
		if (isfinite(rate))
			fprintf(fp, "/rate=%.0f", rate);
		fprintf(fp, ",%.3f,%.3f,%.3f,", at, isfinite(secs) ? secs : 0, (double)h->max / 1e6);
		if (!isfinite(r->started) && isfinite(secs))
			at += secs;
		b64.len = 0;
		hdrlog_encode(h, &b64);
		fwrite(b64.s, 1, b64.len, fp);
		fputc('\n', fp);
	}
	free(b64.s);
	free(h);
	free(ix);
	return rc;
}
