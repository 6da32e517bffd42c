/* cmd_plot_draw.c: `rsweep plot`'s drawing: each planned panel's chart
 * input (latency distributions, heat maps' budget) and layout, and the
 * files written atomically: PNG and SVG (a grid, or --split a file each),
 * PDF (a page a panel). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/budget.h"
#include "chart/chart.h"
#include "cli/cmd.h"
#include "cli/cmd_plot_int.h"
#include "render/font.h"
#include "analysis/grid.h"
#include "results/histfile.h"
#include "cli/inputs.h"
#include "analysis/latency.h"
#include "base/log.h"
#include "base/outfile.h"
#include "chart/plotfile.h"
#include "report/report.h"
#include "render/render_pdf.h"
#include "render/render_png.h"
#include "render/render_svg.h"
#include "analysis/series.h"
#include "base/spec.h"
#include "base/xalloc.h"

/* --latency-budget's grids and budget into a heat map's in (none
 * without it). */
void plot_heat_budget(const struct plot *p, struct chart_input *in)
{
	if (p->cfg->latency_budget == NULL)
		return;
	in->budget = &p->budget;
	in->budget_ms = p->budget_ms;
	in->budget_metric = (enum series_metric)(SM_AVG + p->cfg->budget_metric);
}

/* ---- output files ---- */

static int plot_write_png(struct render_png *png, const char *path, struct rs_err *err)
{
	struct outfile o;

	if (outfile_open(&o, path, err) < 0)
		return -1;
	if (render_png_write(png, o.fp, err) < 0) {
		outfile_abort(&o);
		return rs_err_prefix(err, "%s", path);
	}
	return outfile_commit(&o, err);
}

static int plot_write_svg(struct render_svg *svg, const char *path, struct rs_err *err)
{
	struct outfile o;

	if (outfile_open(&o, path, err) < 0)
		return -1;
	if (render_svg_write(svg, o.fp, err) < 0) {
		outfile_abort(&o);
		return rs_err_prefix(err, "cannot write %s", path);
	}
	return outfile_commit(&o, err);
}

static int plot_write_pdf(struct render_pdf *pdf, const char *path, struct rs_err *err)
{
	struct outfile o;

	/* libharu writes by file name: let it write the temporary one. */
	if (outfile_open(&o, path, err) < 0 || outfile_release(&o, err) < 0)
		return -1;
	if (render_pdf_save(pdf, o.tmp, err) < 0) {
		outfile_abort(&o);
		return rs_err_prefix(err, "cannot write %s", path);
	}
	return outfile_commit(&o, err);
}

/* ---- choosing series ---- */

/* What a latency chart draws besides the panel's series: each one's
 * latency series and figures, and for latency-cdf the merged histograms
 * of the --points depths (by default each series' first and last). */
struct plot_lat {
	const struct series **lat;
	const struct latency_ci **ci;
	struct chart_dist *dist;
	struct hist *h;
	char **names;
	size_t ndist;
};

static void plot_lat_free(struct plot_lat *pl)
{
	for (size_t i = 0; i < pl->ndist; i++)
		free(pl->names[i]);
	free(pl->names);
	free(pl->lat);
	free(pl->ci);
	free(pl->dist);
	free(pl->h);
	memset(pl, 0, sizeof *pl);
}

/* The merged histogram of series s's rows at depth d into h; 0, or -1
 * (RS_E_INPUT) naming the file of a row without one. */
static int plot_dist(const struct plot *p, const struct series *s, unsigned d, struct hist *h,
		     struct rs_err *err)
{
	hist_init(h);
	for (size_t r = 0; r < p->rows.n; r++) {
		const struct rs_rec *row = &p->rows.v[r];

		if (row->pipeline != d || !series_holds(s, &p->rows, row))
			continue;
		if (latency_row_merge(&p->lat, row, h) < 0)
			return rs_err_setk(err, RS_E_INPUT, "%s:%u: no latency histogram for this row "
					   "(%s%s): --kind latency-cdf draws the histograms that rsweep "
					   "run keeps there", row->src, row->line, row->src,
					   HISTFILE_SUFFIX);
	}
	return 0;
}

static int plot_lat_input(const struct plot *p, const struct plot_panel *panel,
			  struct plot_lat *pl, struct rs_err *err)
{
	const struct depth_list *pts = &p->cfg->points;
	size_t cap;

	memset(pl, 0, sizeof *pl);
	if (p->set.metric != SM_RPS)
		return rs_err_setk(err, RS_E_USAGE, "--kind %s with --metric %s: a latency chart's "
				   "metric is its latency; give --kind %s on the command line",
				   chart_kind_names[panel->kind], series_metric_name(p->set.metric),
				   chart_kind_names[panel->kind]);
	pl->lat = xcalloc(panel->n + 1, sizeof *pl->lat);
	pl->ci = xcalloc(panel->n + 1, sizeof *pl->ci);
	for (size_t i = 0; i < panel->n; i++) {
		const struct series *s = panel->series[i];
		const struct series *l = series_find(&p->lset, s->label, s->test);

		pl->lat[i] = l;
		if (l != NULL && p->lset_pts.ci != NULL)
			pl->ci[i] = &p->lset_pts.ci[p->lset_pts.off[l - p->lset.v]];
	}
	if (panel->kind != CHART_LATENCY_CDF)
		return 0;
	cap = panel->n * (pts->n > 0 ? pts->n : 2) + 1;
	pl->dist = xcalloc(cap, sizeof *pl->dist);
	pl->h = xcalloc(cap, sizeof *pl->h);
	pl->names = xcalloc(cap, sizeof *pl->names);
	for (size_t i = 0; i < panel->n; i++) {
		const struct series *s = panel->series[i];
		size_t nd = pts->n > 0 ? pts->n : s->npts > 1 ? 2 : 1;

		for (size_t k = 0; k < nd; k++) {
			unsigned d = pts->n > 0 ? pts->v[k] : k == 0 ? s->pts[0].depth :
								s->pts[s->npts - 1].depth;
			char name[ROW_STR * 2 + 64];

			if (series_at(s, d) == NULL)
				continue;
			if (plot_dist(p, s, d, &pl->h[pl->ndist], err) < 0)
				return -1;
			if (p->set.nlabels > 1)
				snprintf(name, sizeof name, "%s %s P=%u", s->label, s->test, d);
			else
				snprintf(name, sizeof name, "%s P=%u", s->test, d);
			pl->names[pl->ndist] = xstrdup(name);
			pl->dist[pl->ndist].name = pl->names[pl->ndist];
			pl->dist[pl->ndist].h = &pl->h[pl->ndist];
			pl->ndist++;
		}
	}
	if (pl->ndist == 0)
		return rs_err_setk(err, RS_E_INPUT, "--points: no series has %s of these depths",
				   pts->n == 1 ? "the depth" : "any");
	return 0;
}

static void plot_input(const struct plot *p, const struct plot_panel *panel,
		       struct chart_input *in)
{
	memset(in, 0, sizeof *in);
	in->kind = (enum chart_kind)panel->kind;
	in->title = panel->title;
	in->width = p->cfg->width;
	in->height = p->cfg->height;
	in->metric = (enum series_metric)p->cfg->metric;
	in->series = panel->series;
	in->nseries = panel->n;
	in->log_x = p->cfg->log_x;
	in->knee = p->cfg->knee;
	in->an = &p->an;
	in->fit = (enum chart_fit)p->cfg->fit;
	in->rows = &p->rows;
	in->footer_env = p->env_line;
	in->slo = panel->slo;
	in->nslo = panel->nslo;
	if (panel->kind == CHART_LATENCY && p->slo_budget_ms > 0) {
		in->lat_budget_ms = p->slo_budget_ms;
		in->lat_budget_text = p->slo_budget_text;
	}
	if (panel->kind == CHART_HEATMAP) {
		in->metric = p->grids.metric;
		in->grids = panel->grids;
		in->ngrids = panel->ngrids;
		in->gx = p->grids.x;
		in->gy = p->grids.y;
		in->an = NULL;
		plot_heat_budget(p, in);
	}
}

static int plot_layout(const struct plot *p, size_t i, const struct render_ops *ops, void *ctx,
		       struct chart **c, struct rs_err *err)
{
	struct chart_input in;
	struct plot_lat pl = { 0 };
	int rc = 0;

	plot_input(p, &p->panels[i], &in);
	if (CHART_KIND_LATENCY(p->panels[i].kind)) {
		rc = plot_lat_input(p, &p->panels[i], &pl, err);
		in.lat = pl.lat;
		in.lat_ci = pl.ci;
		in.lat_metric = p->lat_metric;
		in.dist = pl.dist;
		in.ndist = pl.ndist;
	}
	if (rc == 0)
		rc = chart_layout(&in, ops, ctx, c, err);
	plot_lat_free(&pl);
	if (rc < 0 && p->npanels > 1 && p->panels[i].title)
		rs_err_prefix(err, "panel '%s'", p->panels[i].title);
	return rc;
}

/* A font that does not load is bad input when the user named it (--font),
 * and the machine's failure when it is the one installed.  Returns -1. */
static int plot_font_failed(const struct rs_config *cfg, struct rs_err *err)
{
	return rs_err_as(err, cfg->font ? RS_E_INPUT : RS_E_FAILED);
}

/* "out.png" -> "out-3.png" */
static char *plot_split_name(const char *out, size_t i)
{
	size_t n = strlen(out) - 4;
	char *name = xmalloc(n + 32);

	snprintf(name, n + 32, "%.*s-%zu%s", (int)n, out, i + 1, out + n);
	return name;
}

/* No file the chart goes to (each of --split's) is one of the inputs.
 * Returns 0 or -1 (RS_E_USAGE). */
int plot_outputs_check(const struct plot *p, struct rs_err *err)
{
	const struct rs_config *cfg = p->cfg;
	size_t n = cfg->split && p->format != PLOT_PDF && p->npanels > 1 ? p->npanels : 0;

	if (n == 0)
		return inputs_output_check(cfg->output, p->files, (size_t)p->nfiles, err);
	for (size_t i = 0; i < n; i++) {
		char *name = plot_split_name(cfg->output, i);
		int rc = inputs_output_check(name, p->files, (size_t)p->nfiles, err);

		free(name);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* PNG and SVG: the panels side by side in a grid, or with --split a file
 * each. */
int plot_canvas(struct plot *p, struct rs_err *err)
{
	struct rs_config *cfg = p->cfg;
	size_t nimg = cfg->split ? p->npanels : 1;
	size_t cols = cfg->split ? 1 : (size_t)ceil(sqrt((double)p->npanels));
	size_t rows = cfg->split ? 1 : (p->npanels + cols - 1) / cols;
	int svg = p->format == PLOT_SVG;
	const struct render_ops *ops = svg ? render_svg_ops() : render_png_ops();

	for (size_t img = 0; img < nimg; img++) {
		struct render_png *png = NULL;
		struct render_svg *sv = NULL;
		size_t first = cfg->split ? img : 0, last = cfg->split ? img + 1 : p->npanels;
		double w = (double)cfg->width * (double)cols, h = (double)cfg->height * (double)rows;
		const char *title = cfg->title ? cfg->title : last - first == 1 ? p->panels[first].title :
			NULL;
		void *ctx;
		char *name;
		int rc;

		if ((svg ? render_svg_new(w, h, p->font, title, &sv, err) :
		     render_png_new(w, h, (unsigned)cfg->scale, p->font, &png, err)) < 0)
			return plot_font_failed(cfg, err);
		ctx = svg ? (void *)sv : (void *)png;
		for (size_t i = first; i < last; i++) {
			struct chart *c;
			size_t k = i - first;

			if (plot_layout(p, i, ops, ctx, &c, err) < 0) {
				render_png_free(png);
				render_svg_free(sv);
				return rs_err_as(err, RS_E_INPUT);
			}
			chart_draw(c, ops, ctx, (double)(k % cols) * cfg->width,
				   (double)(k / cols) * cfg->height);
			chart_free(c);
		}
		name = cfg->split && p->npanels > 1 ? plot_split_name(cfg->output, img) :
						      xstrdup(cfg->output);
		rc = svg ? plot_write_svg(sv, name, err) : plot_write_png(png, name, err);
		free(name);
		render_png_free(png);
		render_svg_free(sv);
		if (rc < 0)
			return -1;
	}
	return 0;
}

int plot_pdf(struct plot *p, struct rs_err *err)
{
	struct rs_config *cfg = p->cfg;
	struct render_pdf *pdf;
	const char *title = cfg->title ? cfg->title : p->npanels == 1 ? p->panels[0].title : NULL;

	if (render_pdf_new(p->font, title, &pdf, err) < 0)
		return plot_font_failed(cfg, err);
	for (size_t i = 0; i < p->npanels; i++) {
		struct chart *c;

		if (plot_layout(p, i, render_pdf_ops(), pdf, &c, err) < 0) {
			render_pdf_free(pdf);
			return rs_err_as(err, RS_E_INPUT);
		}
		if (render_pdf_page(pdf, cfg->width, cfg->height, err) < 0) {
			chart_free(c);
			render_pdf_free(pdf);
			return -1;
		}
		chart_draw(c, render_pdf_ops(), pdf, 0, 0);
		chart_free(c);
	}
	if (plot_write_pdf(pdf, cfg->output, err) < 0) {
		render_pdf_free(pdf);
		return -1;
	}
	render_pdf_free(pdf);
	return 0;
}
