/* cmd_report_html.c: `rsweep report --format html`: the charts the page
 * holds, drawn as `rsweep plot` draws them (the chart model, laid out on
 * the SVG back-end), then the page (report_html.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/latency.h"
#include "analysis/series.h"
#include "base/log.h"
#include "base/xalloc.h"
#include "chart/chart.h"
#include "cli/cmd.h"
#include "cli/cmd_report_int.h"
#include "render/font.h"
#include "render/render.h"
#include "render/render_svg.h"
#include "report/report_html.h"

/* More series than this are drawn by no chart of the page (plot refuses
 * them in one chart too: cmd_plot.c). */
#define REPORT_HTML_MAX_SERIES 256

/* One chart of in's kind, title and series over r, as an SVG document in
 * *svg (malloc'd).  Returns 0 or -1 (err). */
static int report_html_draw(struct chart_input *in, const char *font, char **svg,
			    struct rs_err *err)
{
	struct render_svg *sv;
	struct chart *c;
	size_t len = 0;
	FILE *mem;
	int rc;

	*svg = NULL;
	if (render_svg_new(in->width, in->height, font, in->title, &sv, err) < 0)
		return -1;
	if (chart_layout(in, render_svg_ops(), sv, &c, err) < 0) {
		render_svg_free(sv);
		return -1;
	}
	chart_draw(c, render_svg_ops(), sv, 0, 0);
	chart_free(c);
	if ((mem = open_memstream(svg, &len)) == NULL) {
		render_svg_free(sv);
		return rs_err_set(err, "%s", strerror(errno));
	}
	rc = render_svg_write(sv, mem, err);
	if (fclose(mem) != 0 && rc == 0)
		rc = rs_err_set(err, "%s", strerror(errno));
	render_svg_free(sv);
	return rc;
}

/* run --slo's answer over in's series (the closed-loop starts, for the
 * footer), every search of slo a line (at most the palette's), as plot
 * --kind slo draws it: 0, 1 when there is none to draw, or -1 (err). */
static int report_html_slo(struct chart_input *in, const struct slo_answers *slo,
			   const char *font, char **svg, struct rs_err *err)
{
	const struct slo_group *g[CHART_NPALETTE];
	struct chart_input s = *in;

	if (slo == NULL || slo->n == 0 || slo->n > CHART_NPALETTE)
		return 1;
	for (size_t i = 0; i < slo->n; i++)
		g[i] = &slo->v[i];
	s.kind = CHART_SLO;
	s.title = NULL;
	s.height = 700;
	s.an = NULL;
	s.slo = g;
	s.nslo = slo->n;
	return report_html_draw(&s, font, svg, err);
}

/* The latency chart's input over in's series: each one's p99 series of
 * lset and its points' figures (pts), as plot's --kind latency has them;
 * lat and ci (n each) the caller's to free. */
static void report_html_lat(struct chart_input *in, const struct series_set *lset,
			    const struct latency_points *pts, const struct series **lat,
			    const struct latency_ci **ci)
{
	for (size_t i = 0; i < in->nseries; i++) {
		const struct series *l = series_find(lset, in->series[i]->label,
						     in->series[i]->test);

		lat[i] = l;
		if (l != NULL && pts->ci != NULL)
			ci[i] = &pts->ci[pts->off[l - lset->v]];
	}
	in->kind = CHART_LATENCY;
	in->title = NULL;
	in->lat = lat;
	in->lat_ci = ci;
	in->lat_metric = SM_P99;
	in->an = NULL;
}

/* The labels of the report's series: the speed-up chart compares two. */
static size_t report_html_nlabels(const struct analysis_result *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nseries; i++) {
		size_t j;

		for (j = 0; j < i && strcmp(r->series[j].rps->label, r->series[i].rps->label) != 0;
		     j++)
			;
		n += j == i;
	}
	return n;
}

int cmd_report_html(FILE *fp, const struct rs_config *cfg, const struct rs_rows *rows,
		    const struct latency_set *ls, const struct analysis_result *r,
		    const struct slo_answers *slo, const struct report_opts *ro,
		    struct rs_err *err)
{
	struct report_html h = { 0 };
	struct report_html_chart ch[4];
	char *svg[4] = { NULL, NULL, NULL, NULL };
	struct series_set lset = { 0 };
	struct latency_points lpts = { 0 };
	const struct series **lat = NULL;
	const struct latency_ci **ci = NULL;
	const struct series **order = NULL;
	char font[4096];
	size_t n = 0, ntests = 0;
	struct rs_err fe;
	int rc = 0;

	/* Test by test, the baseline's label first, as plot orders a panel. */
	order = xcalloc(r->nseries ? r->nseries : 1, sizeof *order);
	for (size_t i = 0; i < r->nseries; i++) {
		const struct series *s = r->series[i].rps;
		size_t j;

		for (j = 0; j < i && strcmp(r->series[j].rps->test, s->test) != 0; j++)
			;
		if (j < i)
			continue;
		ntests++;
		for (size_t k = i; k < r->nseries; k++)
			if (strcmp(r->series[k].rps->test, s->test) == 0 &&
			    (r->baseline == NULL || strcmp(r->series[k].rps->label, r->baseline) == 0))
				order[n++] = r->series[k].rps;
		for (size_t k = i; k < r->nseries; k++)
			if (strcmp(r->series[k].rps->test, s->test) == 0 && r->baseline != NULL &&
			    strcmp(r->series[k].rps->label, r->baseline) != 0)
				order[n++] = r->series[k].rps;
	}
	if (font_find(NULL, RS_DEFAULT_FONT, font, sizeof font, &fe) < 0) {
		rs_log(RS_LOG_NOTE, "the page has no charts: %s", fe.msg);
		h.charts_note = "No charts: no font to measure their text was found.";
	} else if (n > REPORT_HTML_MAX_SERIES) {
		h.charts_note = "No charts: more series than one chart tells apart (rsweep plot "
				"--tests draws some of them).";
	} else if (n > 0) {
		struct chart_input in;
		size_t rows_of = (ntests + 2) / 3;

		memset(&in, 0, sizeof in);
		in.kind = ntests > 1 ? CHART_MULTIPLES : CHART_LINES;
		in.title = ntests > 1 ? "Requests per second against pipeline depth, a panel a "
					"test" : NULL;
		in.width = 1200;
		in.height = ntests > 1 ? fmin(RENDER_SIZE_MAX, fmax(600, 320.0 * (double)rows_of)) :
					 700;
		in.metric = SM_RPS;
		in.series = order;
		in.nseries = n;
		in.knee = cfg->knee;
		in.an = r;
		in.fit = CHART_FIT_NO;
		in.rows = rows;
		rc = report_html_draw(&in, font, &svg[h.ncharts], err);
		if (rc == 0) {
			ch[h.ncharts].title = ntests > 1 ? "Requests per second against pipeline "
				"depth, a panel a test (rsweep plot --kind multiples)" :
				"Requests per second against pipeline depth (rsweep plot)";
			ch[h.ncharts].svg = svg[h.ncharts];
			h.ncharts++;
		}
		/* run --slo's answer: the figures of the report's "Within" table. */
		if (rc == 0) {
			int drawn = report_html_slo(&in, slo, font, &svg[h.ncharts], err);

			rc = drawn < 0 ? -1 : 0;
			if (drawn == 0) {
				ch[h.ncharts].title = "The rate each depth sustains within the latency "
					"objective, beside the closed loop's (rsweep plot --kind slo)";
				ch[h.ncharts].svg = svg[h.ncharts];
				h.ncharts++;
			}
		}
		/* Two labels: with more, the page has the report's table of them. */
		if (rc == 0 && r->nspeedup > 0 && report_html_nlabels(r) == 2) {
			in.kind = CHART_SPEEDUP;
			in.title = NULL;
			in.height = fmin(RENDER_SIZE_MAX, fmax(500, 40.0 * (double)r->nspeedup + 200));
			rc = report_html_draw(&in, font, &svg[h.ncharts], err);
			if (rc == 0) {
				ch[h.ncharts].title = "The speed-up summary: each test's throughput "
					"against the baseline's (rsweep plot --kind speedup)";
				ch[h.ncharts].svg = svg[h.ncharts];
				h.ncharts++;
			}
		}
		/* Latency where it was measured: rows of an import may have none. */
		if (rc == 0 && series_build_known(rows, SM_P99, &lset, &fe) == 0 && lset.n > 0) {
			latency_apply(&lset, rows, ls, &lpts);
			lat = xcalloc(n, sizeof *lat);
			ci = xcalloc(n, sizeof *ci);
			report_html_lat(&in, &lset, &lpts, lat, ci);
			in.height = 700;
			rc = report_html_draw(&in, font, &svg[h.ncharts], err);
			if (rc == 0) {
				ch[h.ncharts].title = "p99 latency against the throughput achieved, "
					"each point a depth (rsweep plot --kind latency)";
				ch[h.ncharts].svg = svg[h.ncharts];
				h.ncharts++;
			}
		}
	}
	h.charts = ch;
	if (rc == 0)
		rc = report_html_write(fp, r, ro, &h, err);
	for (size_t i = 0; i < sizeof svg / sizeof svg[0]; i++)
		free(svg[i]);
	free(lat);
	free(ci);
	latency_points_free(&lpts);
	series_set_free(&lset);
	free(order);
	return rc;
}
