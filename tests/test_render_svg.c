/* test_render_svg.c: the SVG back-end: well-formed XML (checked here, and
 * by xmllint where installed), text as text, escaping of what users name,
 * numbers whatever the locale, the PNG back-end's widths, determinism. */
#include "config.h"

#include <criterion/criterion.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "chart/chart.h"
#include "render/render_png.h"
#include "render/render_svg.h"
#include "rows_helper.h"
#include "base/sbuf.h"
#include "analysis/series.h"
#include "xml_check.h"

static const struct render_color black = { 0, 0, 0, 255 };

static void need_font(void)
{
	if (access(RS_DEFAULT_FONT, R_OK) != 0)
		cr_skip_test("font %s not installed", RS_DEFAULT_FONT);
}

/* The document s writes, malloc'd, NUL-terminated, checked well-formed. */
static char *svg_text(struct render_svg *s, size_t *len)
{
	char *buf = NULL, why[256];
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);
	struct rs_err err = { 0 };

	cr_assert_not_null(fp);
	cr_assert_eq(render_svg_write(s, fp, &err), 0, "%s", err.msg);
	fclose(fp);
	cr_assert_eq(xml_check(buf, n, why, sizeof why), 0, "not well-formed: %s", why);
	if (len)
		*len = n;
	return buf;
}

static const char *const names[] = { "GET", "SET", "LRANGE_100", "ZPOPMIN" };

/* A lines chart or a speed-up chart of two labels over four tests. */
static char *chart_svg(int speedup, size_t *len)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series *list[8];
	struct render_svg *svg;
	struct rs_err err = { 0 };
	struct analysis_opts ao = { ANALYSIS_DEFAULT_KNEE, ANALYSIS_DEFAULT_CV_LIMIT, NULL, 0, 0, 0 };
	struct analysis_result an;
	struct chart_input in = { 0 };
	struct chart *c;
	char *doc;

	for (size_t l = 0; l < 2; l++)
		for (size_t t = 0; t < 4; t++)
			for (unsigned d = 1; d <= 16; d++)
				add(&rows, l ? "intel" : "m1", names[t], d, 1,
				    (4.0 - (double)t) * 4e5 * (1 - exp(-0.3 * d)) / (1 + (double)l), NAN);
	cr_assert_eq(series_build(&rows, SM_RPS, &set, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < set.n; i++)
		list[i] = &set.v[i];
	cr_assert_eq(analysis_run(&set, NULL, &ao, &an, &err), 0, "%s", err.msg);
	cr_assert_eq(render_svg_new(900, 600, RS_DEFAULT_FONT, "Test & <charts>", &svg, &err), 0,
		     "%s", err.msg);
	in.kind = speedup ? CHART_SPEEDUP : CHART_LINES;
	in.title = speedup ? NULL : "Throughput of four tests";
	in.width = 900;
	in.height = 600;
	in.metric = SM_RPS;
	in.series = list;
	in.nseries = set.n;
	in.an = &an;
	cr_assert_eq(chart_layout(&in, render_svg_ops(), svg, &c, &err), 0, "%s", err.msg);
	chart_draw(c, render_svg_ops(), svg, 0, 0);
	chart_free(c);
	doc = svg_text(svg, len);
	render_svg_free(svg);
	analysis_result_free(&an);
	series_set_free(&set);
	rows_free(&rows);
	return doc;
}

Test(render_svg, charts_are_well_formed_with_text_as_text)
{
	char *lines, *speed;

	need_font();
	lines = chart_svg(0, NULL);
	speed = chart_svg(1, NULL);
	cr_assert(strncmp(lines, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 44) == 0, "%.200s",
		  lines);
	cr_assert(strstr(lines, " width=\"900\" height=\"600\" viewBox=\"0 0 900 600\"") != NULL);
	cr_assert(strstr(lines, "font-family=\"'DejaVu Sans', 'Bitstream Vera Sans', Verdana, "
			 "sans-serif\"") != NULL, "%.400s", lines);
	cr_assert(strstr(lines, "<title>Test &amp; &lt;charts&gt;</title>") != NULL);
	cr_assert(strstr(lines, ">Throughput of four tests</text>") != NULL);
	cr_assert(strstr(lines, ">requests per second</text>") != NULL, "no y axis title");
	cr_assert(strstr(lines, ">pipeline depth</text>") != NULL, "no x axis title");
	cr_assert(strstr(lines, "<text transform=\"rotate(-90 ") != NULL, "no vertical text");
	for (size_t i = 0; i < 4; i++) {
		char want[64];

		snprintf(want, sizeof want, ">%s", names[i]);
		cr_assert(strstr(lines, want) != NULL, "no %s in the text", names[i]);
	}
	cr_assert(strstr(lines, "<polyline ") != NULL && strstr(lines, "<polygon ") != NULL);
	cr_assert(strstr(speed, "\xc3\x97</text>") != NULL, "no times sign on the speed-up chart");
	cr_assert(strstr(speed, "<rect ") != NULL, "no bars");
	free(lines);
	free(speed);
}

Test(render_svg, same_drawing_same_bytes)
{
	size_t na, nb;
	char *a, *b;

	need_font();
	a = chart_svg(0, &na);
	b = chart_svg(0, &nb);
	cr_assert_eq(na, nb);
	cr_assert(memcmp(a, b, na) == 0, "two renderings differ");
	free(a);
	free(b);
}

/* Every marker, dash and alpha on one canvas: still well-formed. */
Test(render_svg, every_mark_and_style)
{
	struct render_svg *s;
	struct rs_err err = { 0 };
	const struct render_ops *ops = render_svg_ops();
	struct render_color fill = { 0xe6, 0x9f, 0x00, 128 }, none = { 0, 0, 0, 0 };
	double xy[6] = { 10, 10, 50, 60, 90, 20 }, x[3] = { 10, 20, 30 }, lo[3] = { 5, 6, 7 },
	       hi[3] = { 9, 10, 11 };
	char *doc;

	need_font();
	cr_assert_eq(render_svg_new(400, 300, RS_DEFAULT_FONT, NULL, &s, &err), 0, "%s", err.msg);
	for (int m = 0; m < RENDER_NMARKERS; m++) {
		ops->marker(s, 20 + 30 * m, 100, 9, (enum render_marker)m, fill, black, 1);
		ops->marker(s, 20 + 30 * m, 130, 9, (enum render_marker)m, none, black, 1.5);
	}
	for (int d = RENDER_SOLID; d <= RENDER_DASHDOT; d++)
		ops->stroke(s, xy, 3, 1.5, black, (enum render_dash)d);
	ops->stroke(s, xy, 1, 4, black, RENDER_SOLID);
	ops->fill_band(s, x, lo, hi, 3, fill);
	ops->fill_rect(s, 10, 10, -5, 20, fill);
	ops->text(s, 200, 200, "up", 12, black, RENDER_CENTER, 1);
	doc = svg_text(s, NULL);
	cr_assert(strstr(doc, "<circle ") != NULL);
	cr_assert(strstr(doc, " fill-opacity=\"0.5\"") != NULL, "%s", doc);
	cr_assert(strstr(doc, " stroke-dasharray=\"") != NULL);
	cr_assert(strstr(doc, "<rect x=\"5\" y=\"10\" width=\"5\" height=\"20\"/>") != NULL,
		  "a negative width is not turned round: %s", doc);
	cr_assert(strstr(doc, " text-anchor=\"middle\">up</text>") != NULL);
	free(doc);
	render_svg_free(s);
}

static char *escaped(const char *s)
{
	struct sbuf b;

	sbuf_heap(&b);
	render_svg_escape(&b, s);
	return b.s;
}

#define FFFD "\xef\xbf\xbd"

/* What labels from CSV files or test names may hold. */
Test(render_svg, escapes_markup_and_replaces_what_is_not_utf8)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "a<b & \"c\" 'd'>", "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;" },
		{ "caf\xc3\xa9 \xc2\xb5s \xe2\x80\x93 \xf0\x9f\x98\x80", "caf\xc3\xa9 \xc2\xb5s \xe2\x80\x93 \xf0\x9f\x98\x80" },
		{ "\xff", FFFD },                           /* not a lead byte */
		{ "x\xc3", "x" FFFD },                      /* cut short at the end */
		{ "\xc3(", FFFD "(" },                      /* cut short: the next character stays */
		{ "\xc0\xaf", FFFD FFFD },                  /* overlong '/' */
		{ "\xe0\x80\xaf", FFFD },                   /* overlong, three bytes */
		{ "\xed\xa0\x80", FFFD },                   /* a surrogate */
		{ "\xf4\x90\x80\x80", FFFD },               /* past U+10FFFF */
		{ "\xef\xbf\xbe", FFFD },                   /* U+FFFE */
		{ "a\x01" "b\x1f", "a" FFFD "b" FFFD },     /* controls XML 1.0 forbids */
		{ "a\tb\nc\r", "a b c " },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *got = escaped(cases[i].in), doc[256], why[128];

		cr_assert_str_eq(got, cases[i].out, "case %zu", i);
		snprintf(doc, sizeof doc, "<t a=\"%s\">%s</t>", got, got);
		cr_assert_eq(xml_check(doc, strlen(doc), why, sizeof why), 0, "case %zu: %s", i, why);
		free(got);
	}
}

/* Bad bytes in a label drawn as text: the document stays well-formed, and
 * the width the layout used counts what is drawn. */
Test(render_svg, bad_label_bytes_stay_well_formed)
{
	struct render_svg *s;
	struct rs_err err = { 0 };
	const struct render_ops *ops = render_svg_ops();
	char *doc;

	need_font();
	cr_assert_eq(render_svg_new(400, 300, RS_DEFAULT_FONT, "t\xff<", &s, &err), 0, "%s", err.msg);
	ops->text(s, 10, 20, "m1 \xfe\xff & <unix>\x01]]>", 12, black, RENDER_LEFT, 0);
	cr_assert_float_eq(ops->text_width(s, "a\xff", 10), ops->text_width(s, "a\xef\xbf\xbd", 10),
			   1e-9);
	doc = svg_text(s, NULL);
	cr_assert(strstr(doc, ">m1 " FFFD FFFD " &amp; &lt;unix&gt;" FFFD "]]&gt;</text>") != NULL, "%s",
		  doc);
	cr_assert(strstr(doc, "<title>t" FFFD "&lt;</title>") != NULL, "%s", doc);
	free(doc);
	render_svg_free(s);
}

/* LC_NUMERIC with a decimal comma must not reach the file. */
Test(render_svg, numbers_use_a_dot_whatever_the_locale)
{
	static const char *const locales[] = { "de_DE.UTF-8", "fr_FR.UTF-8", "de_DE", NULL };
	struct render_svg *s;
	struct rs_err err = { 0 };
	const struct render_ops *ops = render_svg_ops();
	const char *got = NULL;
	double xy[4] = { 1.25, 2.5, 3.125, 4 };
	char *doc;

	need_font();
	for (size_t i = 0; locales[i] && got == NULL; i++)
		got = setlocale(LC_ALL, locales[i]);
	if (got == NULL)
		cr_skip_test("no locale with a decimal comma installed (apt-get install locales-all)");
	cr_assert_str_eq(localeconv()->decimal_point, ",", "%s", got);
	cr_assert_eq(render_svg_new(400.5, 300, RS_DEFAULT_FONT, NULL, &s, &err), 0, "%s", err.msg);
	ops->fill_rect(s, 10.25, 20.5, 30.75, 40.125, (struct render_color){ 1, 2, 3, 200 });
	ops->stroke(s, xy, 2, 1.5, black, RENDER_DASHED);
	ops->text(s, 10, 20.5, "x", 11.5, black, RENDER_RIGHT, 0);
	doc = svg_text(s, NULL);
	setlocale(LC_ALL, "C");
	cr_assert(strstr(doc, "width=\"400.5\" height=\"300\" viewBox=\"0 0 400.5 300\"") != NULL,
		  "%.300s", doc);
	cr_assert(strstr(doc, "<g fill=\"#010203\" fill-opacity=\"0.78\">\n"
			 "<rect x=\"10.25\" y=\"20.5\" width=\"30.75\" height=\"40.13\"/>") != NULL, "%s",
		  doc);
	cr_assert(strstr(doc, " stroke-width=\"1.5\" ") != NULL, "%s", doc);
	cr_assert(strstr(doc, "points=\"1.25,2.5 3.13,4\"") != NULL, "%s", doc);
	cr_assert(strstr(doc, "<g font-size=\"11.5\" fill=\"#000000\">\n<text x=\"10\" y=\"20.5\" "
			 "text-anchor=\"end\">x</text>") != NULL, "%s", doc);
	free(doc);
	render_svg_free(s);
}

/* The same widths as the PNG back-end: the same layout. */
Test(render_svg, text_widths_are_the_png_back_ends)
{
	static const char *const texts[] = { "requests per second", "LRANGE_100 m1",
					     "1.10\xc3\x97", "\xc2\xb5s \xe2\x80\x93 caf\xc3\xa9" };
	struct render_svg *s;
	struct render_png *p;
	struct rs_err err = { 0 };

	need_font();
	cr_assert_eq(render_svg_new(400, 300, RS_DEFAULT_FONT, NULL, &s, &err), 0, "%s", err.msg);
	cr_assert_eq(render_png_new(400, 300, 1, RS_DEFAULT_FONT, &p, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		double a = render_svg_ops()->text_width(s, texts[i], 12.5);
		double b = render_png_ops()->text_width(p, texts[i], 12.5);

		cr_assert(a > 0 && a == b, "'%s': %g against PNG's %g", texts[i], a, b);
	}
	render_png_free(p);
	render_svg_free(s);
}

Test(render_svg, missing_font_and_sizes_are_clear_errors)
{
	struct render_svg *s;
	struct rs_err err = { 0 };

	cr_assert_eq(render_svg_new(400, 300, "/nonexistent/font.ttf", NULL, &s, &err), -1);
	cr_assert(strstr(err.msg, "/nonexistent/font.ttf") != NULL, "%s", err.msg);
	cr_assert_null(s);
	cr_assert_eq(render_svg_new(4 * RENDER_SIZE_MAX + 1, 300, RS_DEFAULT_FONT, NULL, &s, &err), -1);
	cr_assert(strstr(err.msg, "too large") != NULL, "%s", err.msg);
	cr_assert_eq(render_svg_new(NAN, 300, RS_DEFAULT_FONT, NULL, &s, &err), -1);
}

/* A full disk is said as the system says it; the caller adds the file name. */
Test(render_svg, full_disk_says_no_space)
{
	struct render_svg *s;
	struct rs_err err = { 0 };
	FILE *fp;

	need_font();
	fp = fopen("/dev/full", "w");
	if (fp == NULL)
		cr_skip_test("no /dev/full");
	cr_assert_eq(render_svg_new(600, 400, RS_DEFAULT_FONT, NULL, &s, &err), 0, "%s", err.msg);
	render_svg_ops()->text(s, 50, 50, "GET", 20, black, RENDER_LEFT, 0);
	cr_assert_eq(render_svg_write(s, fp, &err), -1);
	cr_assert_str_eq(err.msg, "No space left on device");
	fclose(fp);
	render_svg_free(s);
}

/* Where xmllint is installed, it agrees. */
Test(render_svg, xmllint_agrees)
{
	char path[] = "/tmp/rsweep-svg-XXXXXX", cmd[256];
	size_t n;
	char *doc;
	FILE *fp;
	int fd;

	need_font();
	if (system("command -v xmllint >/dev/null") != 0)
		cr_skip_test("xmllint (libxml2-utils) not installed");
	doc = chart_svg(0, &n);
	fd = mkstemp(path);
	cr_assert(fd >= 0);
	fp = fdopen(fd, "w");
	cr_assert_eq(fwrite(doc, 1, n, fp), n);
	fclose(fp);
	snprintf(cmd, sizeof cmd, "xmllint --noout %s", path);
	cr_assert_eq(system(cmd), 0, "xmllint rejects the chart");
	unlink(path);
	free(doc);
}
