/* test_render_pdf.c: the PDF back-end: pages, text, determinism (checked
 * with poppler's pdfinfo and pdftotext). */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/infile.h"
#include "analysis/analysis.h"
#include "chart/chart.h"
#include "results/csv.h"
#include "render/render_pdf.h"
#include "rows_helper.h"
#include "analysis/series.h"

static void need_tools(void)
{
	if (access(RS_DEFAULT_FONT, R_OK) != 0)
		cr_skip_test("font %s not installed", RS_DEFAULT_FONT);
	if (system("pdfinfo -v >/dev/null 2>&1") != 0 && system("command -v pdfinfo >/dev/null") != 0)
		cr_skip_test("pdfinfo (poppler-utils) not installed");
	if (system("command -v pdftotext >/dev/null") != 0)
		cr_skip_test("pdftotext (poppler-utils) not installed");
}

/* Output of a shell command, malloc'd. */
static char *run(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	size_t cap = 65536, n = 0, k;
	char *buf = malloc(cap);

	cr_assert_not_null(p, "%s", cmd);
	while ((k = fread(buf + n, 1, cap - 1 - n, p)) > 0) {
		n += k;
		if (n + 1 == cap)
			buf = realloc(buf, cap *= 2);
	}
	buf[n] = '\0';
	pclose(p);
	return buf;
}

static const char *const names[] = { "GET", "SET", "LRANGE_100", "ZPOPMIN" };

static void make_set(struct rs_rows *rows, struct series_set *set)
{
	struct rs_err err;

	for (size_t l = 0; l < 2; l++)
		for (size_t t = 0; t < 4; t++)
			for (unsigned d = 1; d <= 16; d++)
				add(rows, l ? "intel" : "m1", names[t], d, 1,
				    (4.0 - (double)t) * 4e5 * (1 - exp(-0.3 * d)) / (1 + (double)l), NAN);
	cr_assert_eq(series_build(rows, SM_RPS, set, &err), 0, "%s", err.msg);
}

/* Two pages (lines, speed-up) into path. */
static void write_pdf(const char *path)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series *list[8];
	struct render_pdf *pdf;
	struct rs_err err = { 0 };
	struct analysis_opts ao = { ANALYSIS_DEFAULT_KNEE, ANALYSIS_DEFAULT_CV_LIMIT, NULL, 0, 0, 0 };
	struct analysis_result an;

	make_set(&rows, &set);
	for (size_t i = 0; i < set.n; i++)
		list[i] = &set.v[i];
	/* The chart draws the figures of the analysis, as plot gives it. */
	cr_assert_eq(analysis_run(&set, NULL, &ao, &an, &err), 0, "%s", err.msg);
	cr_assert_eq(render_pdf_new(RS_DEFAULT_FONT, "Test charts", &pdf, &err), 0, "%s", err.msg);
	for (int page = 0; page < 2; page++) {
		struct chart_input in = { 0 };
		struct chart *c;

		in.kind = page ? CHART_SPEEDUP : CHART_LINES;
		in.title = page ? NULL : "Throughput of four tests";
		in.width = 900;
		in.height = 600;
		in.metric = SM_RPS;
		in.series = list;
		in.nseries = set.n;
		in.an = &an;
		cr_assert_eq(chart_layout(&in, render_pdf_ops(), pdf, &c, &err), 0, "%s", err.msg);
		cr_assert_eq(render_pdf_page(pdf, in.width, in.height, &err), 0, "%s", err.msg);
		chart_draw(c, render_pdf_ops(), pdf, 0, 0);
		chart_free(c);
	}
	cr_assert_eq(render_pdf_save(pdf, path, &err), 0, "%s", err.msg);
	render_pdf_free(pdf);
	analysis_result_free(&an);
	series_set_free(&set);
	rows_free(&rows);
}

Test(render_pdf, opens_with_pages_and_text)
{
	char path[] = "/tmp/rsweep-pdf-XXXXXX";
	char cmd[256];
	char *info, *text;
	int fd;

	need_tools();
	fd = mkstemp(path);
	close(fd);
	write_pdf(path);
	snprintf(cmd, sizeof cmd, "pdfinfo %s 2>&1", path);
	info = run(cmd);
	cr_assert(strstr(info, "Pages:") != NULL, "pdfinfo: %s", info);
	cr_assert_eq(atoi(strstr(info, "Pages:") + 6), 2, "pdfinfo: %s", info);
	/* A 900 x 600 chart on A4 landscape. */
	cr_assert(strstr(info, "841.89 x 595.276 pts (A4)") != NULL, "pdfinfo: %s", info);
	cr_assert(strstr(info, "Test charts") != NULL, "no title in the info: %s", info);
	snprintf(cmd, sizeof cmd, "pdftotext -raw %s - 2>&1", path);
	text = run(cmd);
	cr_assert(strstr(text, "Throughput of four tests") != NULL, "%s", text);
	cr_assert(strstr(text, "requests per second") != NULL, "no y axis title: %s", text);
	cr_assert(strstr(text, "pipeline depth") != NULL, "no x axis title: %s", text);
	for (size_t i = 0; i < 4; i++)
		cr_assert(strstr(text, names[i]) != NULL, "no %s in the text", names[i]);
	cr_assert(strstr(text, "m1") != NULL && strstr(text, "intel") != NULL);
	cr_assert(strstr(text, "\xc3\x97") != NULL, "no times sign on the speed-up page: %s", text);
	free(info);
	free(text);
	unlink(path);
}

Test(render_pdf, byte_for_byte_deterministic)
{
	char a[] = "/tmp/rsweep-pdf-a-XXXXXX", b[] = "/tmp/rsweep-pdf-b-XXXXXX";
	char *x, *y;
	size_t nx, ny;
	struct rs_err err;
	int fd;

	need_tools();
	fd = mkstemp(a);
	close(fd);
	fd = mkstemp(b);
	close(fd);
	write_pdf(a);
	sleep(1);                 /* a date in the file would now differ */
	write_pdf(b);
	cr_assert_eq(infile_slurp_bytes(a, 1 << 24, &x, &nx, &err), 0);
	cr_assert_eq(infile_slurp_bytes(b, 1 << 24, &y, &ny, &err), 0);
	cr_assert_eq(nx, ny);
	cr_assert(memcmp(x, y, nx) == 0, "two renderings differ");
	cr_assert(memmem(x, nx, "FlateDecode", 11) != NULL, "not compressed");
	free(x);
	free(y);
	unlink(a);
	unlink(b);
}

Test(render_pdf, missing_font_is_a_clear_error)
{
	struct render_pdf *pdf;
	struct rs_err err = { 0 };

	cr_assert_eq(render_pdf_new("/nonexistent/font.ttf", NULL, &pdf, &err), -1);
	cr_assert(strstr(err.msg, "/nonexistent/font.ttf") != NULL, "%s", err.msg);
}

/* Pages up to the largest --size; beyond, a message that says the limit
 * rather than a libharu error number. */
Test(render_pdf, page_sizes_of_the_size_option)
{
	struct render_pdf *pdf;
	struct rs_err err = { 0 };

	if (access(RS_DEFAULT_FONT, R_OK) != 0)
		cr_skip_test("font %s not installed", RS_DEFAULT_FONT);
	cr_assert_eq(render_pdf_new(RS_DEFAULT_FONT, NULL, &pdf, &err), 0, "%s", err.msg);
	cr_assert_eq(render_pdf_page(pdf, RENDER_SIZE_MAX, RENDER_SIZE_MIN, &err), 0, "%s", err.msg);
	cr_assert_eq(render_pdf_page(pdf, RENDER_SIZE_MAX + 1, 800, &err), -1);
	cr_assert(strstr(err.msg, "each side is 100 to 14400") != NULL, "%s", err.msg);
	render_pdf_free(pdf);
}

/* A full disk is said as the system says it, not as libharu's error number;
 * the caller adds the file name. */
Test(render_pdf, full_disk_says_no_space)
{
	struct render_pdf *pdf;
	struct rs_err err = { 0 };

	if (access(RS_DEFAULT_FONT, R_OK) != 0)
		cr_skip_test("font %s not installed", RS_DEFAULT_FONT);
	if (access("/dev/full", W_OK) != 0)
		cr_skip_test("no /dev/full");
	cr_assert_eq(render_pdf_new(RS_DEFAULT_FONT, NULL, &pdf, &err), 0, "%s", err.msg);
	cr_assert_eq(render_pdf_page(pdf, 600, 400, &err), 0, "%s", err.msg);
	render_pdf_ops()->text(pdf, 50, 50, "GET", 20, (struct render_color){ 0, 0, 0, 255 },
			       RENDER_LEFT, 0);
	cr_assert_eq(render_pdf_save(pdf, "/dev/full", &err), -1);
	cr_assert_str_eq(err.msg, "No space left on device");
	render_pdf_free(pdf);
}

/* Each page is A4, turned the chart's way, whatever the chart's size: read
 * from the file's bytes (libharu writes page objects uncompressed). */
Test(render_pdf, pages_are_a4_turned_the_charts_way)
{
	char path[] = "/tmp/rsweep-pdf-a4-XXXXXX";
	struct render_pdf *pdf;
	struct rs_err err = { 0 };
	char *x;
	size_t nx;
	const char *land = "/MediaBox [ 0 0 841.89001 595.276 ]";
	const char *port = "/MediaBox [ 0 0 595.276 841.89001 ]";
	int fd, nland = 0, nport = 0;

	if (access(RS_DEFAULT_FONT, R_OK) != 0)
		cr_skip_test("font %s not installed", RS_DEFAULT_FONT);
	fd = mkstemp(path);
	close(fd);
	cr_assert_eq(render_pdf_new(RS_DEFAULT_FONT, NULL, &pdf, &err), 0, "%s", err.msg);
	cr_assert_eq(render_pdf_page(pdf, 1200, 800, &err), 0, "%s", err.msg);
	cr_assert_eq(render_pdf_page(pdf, 600, 900, &err), 0, "%s", err.msg);
	cr_assert_eq(render_pdf_page(pdf, 3000, 400, &err), 0, "%s", err.msg);
	cr_assert_eq(render_pdf_save(pdf, path, &err), 0, "%s", err.msg);
	render_pdf_free(pdf);
	cr_assert_eq(infile_slurp_bytes(path, 1 << 24, &x, &nx, &err), 0);
	for (const char *p = x; (p = memmem(p, nx - (size_t)(p - x), "/MediaBox", 9)) != NULL; p++) {
		nland += strncmp(p, land, strlen(land)) == 0;
		nport += strncmp(p, port, strlen(port)) == 0;
	}
	cr_assert_eq(nland, 2, "landscape pages: %d", nland);
	cr_assert_eq(nport, 1, "portrait pages: %d", nport);
	free(x);
	unlink(path);
}
