/* test_render_png.c: the PNG back-end: decode what it wrote and look at it. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "analysis/analysis.h"
#include "chart/chart.h"
#include "render/font.h"
#include "render/render_png.h"
#include "render/render_png_int.h"
#include "rows_helper.h"
#include "analysis/series.h"

static const char *font(void)
{
	if (access(RS_DEFAULT_FONT, R_OK) != 0)
		cr_skip_test("font %s not installed", RS_DEFAULT_FONT);
	return RS_DEFAULT_FONT;
}

/* Four tests with well separated curves, depths 1..20, 2 repeats. */
static void make_set(struct rs_rows *rows, struct series_set *set)
{
	static const char *const names[] = { "GET", "SET", "LPUSH", "ZADD" };
	struct rs_err err;

	for (size_t t = 0; t < 4; t++)
		for (unsigned d = 1; d <= 20; d++)
			for (unsigned r = 1; r <= 2; r++)
				add(rows, "m1", names[t], d, r, (4.0 - (double)t) * 4e5 * (1 - exp(-0.3 * d)),
				    NAN);
	cr_assert_eq(series_build(rows, SM_RPS, set, &err), 0, "%s", err.msg);
}

/* Write png to a temporary file and decode it into *px (RGB), checking
 * that the file, drawn in bands by several threads, filtered and deflated,
 * decodes to exactly the image drawn in one piece: no seams. */
static void write_and_decode(struct render_png *png, uint8_t **px, unsigned *w, unsigned *h)
{
	struct rs_err err = { 0 };
	char path[] = "/tmp/rsweep-png-XXXXXX";
	int fd = mkstemp(path);
	FILE *fp = fdopen(fd, "wb");
	png_image img;
	const uint8_t *whole;
	unsigned ww, hh;

	cr_assert_not_null(fp);
	cr_assert_eq(render_png_write(png, fp, &err), 0, "%s", err.msg);
	fclose(fp);
	memset(&img, 0, sizeof img);
	img.version = PNG_IMAGE_VERSION;
	cr_assert(png_image_begin_read_from_file(&img, path), "%s", img.message);
	img.format = PNG_FORMAT_RGB;
	*px = malloc(PNG_IMAGE_SIZE(img));
	cr_assert(png_image_finish_read(&img, NULL, *px, 0, NULL), "%s", img.message);
	*w = img.width;
	*h = img.height;
	unlink(path);
	whole = render_png_pixels(png, &ww, &hh);
	cr_assert(ww == *w && hh == *h);
	for (unsigned y = 0; y < hh; y++)
		cr_assert(memcmp(*px + (size_t)y * ww * 3, whole + (size_t)y * ww * 3, (size_t)ww * 3) == 0,
			  "row %u of the file differs from the image", y);
}

/* Lay out and draw in at scale, write it and decode it into *px (RGB). */
static void render(const struct chart_input *in, unsigned scale, uint8_t **px, unsigned *w,
		   unsigned *h, struct chart **cout)
{
	struct render_png *png;
	struct rs_err err = { 0 };

	cr_assert_eq(render_png_new(in->width, in->height, scale, font(), &png, &err), 0, "%s", err.msg);
	cr_assert_eq(chart_layout(in, render_png_ops(), png, cout, &err), 0, "%s", err.msg);
	chart_draw(*cout, render_png_ops(), png, 0, 0);
	write_and_decode(png, px, w, h);
	render_png_free(png);
}

static int near_colour(const uint8_t *p, struct render_color c, int tol)
{
	return abs(p[0] - c.r) + abs(p[1] - c.g) + abs(p[2] - c.b) <= tol;
}

/* Most segment midpoints of each series show its own colour (labels with a
 * white halo may cover a few). */
static void check_series_colours(const struct chart *c, const uint8_t *px, unsigned w, unsigned h,
				 unsigned scale)
{
	size_t nlines = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct chart_item *it = &c->items[i];
		size_t found = 0;

		if (it->op != CHART_LINE || it->series < 0)
			continue;
		nlines++;
		for (size_t k = 0; k + 1 < it->n; k++) {
			double x = (it->v[2 * k] + it->v[2 * k + 2]) / 2 * scale;
			double y = (it->v[2 * k + 1] + it->v[2 * k + 3]) / 2 * scale;
			int hit = 0;

			for (int dy = -2; dy <= 2 && !hit; dy++)
				for (int dx = -2; dx <= 2 && !hit; dx++) {
					long X = lround(x) + dx, Y = lround(y) + dy;

					if (X >= 0 && Y >= 0 && X < (long)w && Y < (long)h)
						hit = near_colour(px + ((size_t)Y * w + (size_t)X) * 3, it->color, 40);
				}
			found += hit;
		}
		cr_assert_geq(found * 10, (it->n - 1) * 9, "series %d: its colour at only %zu of %zu places",
			      it->series, found, it->n - 1);
	}
	cr_assert_eq(nlines, 4);
}

static void check_chart(unsigned scale)
{
	struct rs_rows rows = { 0 };
	struct series_set set;
	const struct series *list[4];
	struct chart_input in = { 0 };
	struct chart *c;
	uint8_t *px;
	unsigned w, h;
	const struct render_color white = { 255, 255, 255, 255 };
	struct analysis_opts ao = { ANALYSIS_DEFAULT_KNEE, ANALYSIS_DEFAULT_CV_LIMIT, NULL, 0, 0, 0 };
	struct analysis_result an;
	struct rs_err err = { 0 };

	make_set(&rows, &set);
	for (size_t i = 0; i < 4; i++)
		list[i] = &set.v[i];
	in.width = 1200;
	in.height = 800;
	in.metric = SM_RPS;
	in.series = list;
	in.nseries = 4;
	/* The chart draws the figures of the analysis, as plot gives it. */
	cr_assert_eq(analysis_run(&set, NULL, &ao, &an, &err), 0, "%s", err.msg);
	in.an = &an;
	render(&in, scale, &px, &w, &h, &c);
	cr_assert_eq(w, 1200 * scale);
	cr_assert_eq(h, 800 * scale);
	cr_assert(near_colour(px, white, 0), "background is not white");
	cr_assert(near_colour(px + ((size_t)(h - 1) * w + w - 1) * 3, white, 0));
	check_series_colours(c, px, w, h, scale);
	/* Some dark text pixels exist (the title). */
	{
		size_t dark = 0;

		for (size_t i = 0; i < (size_t)w * 40 * scale; i++)
			dark += px[3 * i] < 80 && px[3 * i + 1] < 80 && px[3 * i + 2] < 80;
		cr_assert_gt(dark, 100, "no title drawn");
	}
	free(px);
	chart_free(c);
	analysis_result_free(&an);
	series_set_free(&set);
	rows_free(&rows);
}

Test(render_png, size_background_and_series_colours)
{
	check_chart(1);
}

Test(render_png, scale_two_doubles_the_pixels)
{
	check_chart(2);
}

Test(render_png, antialiased_wide_line_with_round_caps)
{
	struct render_png *png;
	struct rs_err err;
	const struct render_ops *ops = render_png_ops();
	const struct render_color red = { 255, 0, 0, 255 };
	double xy[6] = { 20, 50.5, 50, 50.5, 80, 50.5 };
	const uint8_t *px;
	uint8_t *file;
	unsigned w, h;

	cr_assert_eq(render_png_new(100, 100, 1, font(), &png, &err), 0, "%s", err.msg);
	ops->stroke(png, xy, 3, 10, red, RENDER_SOLID);
	px = render_png_pixels(png, &w, &h);
	/* Solid in the middle, white far away, partial at the edge, and the
	 * round cap reaches past the end point. */
	cr_assert(near_colour(px + (50 * w + 50) * 3, red, 0));
	cr_assert_eq(px[(30 * w + 50) * 3 + 1], 255);
	cr_assert(px[(45 * w + 50) * 3 + 1] > 0 && px[(45 * w + 50) * 3 + 1] < 255,
		  "edge pixel is not anti-aliased");
	cr_assert(near_colour(px + (50 * w + 83) * 3, red, 0), "no round cap");
	cr_assert_eq(px[(45 * w + 85) * 3 + 1], 255, "cap is square");
	/* An image of one strip and four bands writes and reads back whole. */
	write_and_decode(png, &file, &w, &h);
	cr_assert_eq(w, 100);
	cr_assert(near_colour(file + (50 * w + 50) * 3, red, 0));
	free(file);
	render_png_free(png);
}

Test(render_png, missing_font_is_a_clear_error)
{
	struct render_png *png;
	struct rs_err err = { 0 };

	cr_assert_eq(render_png_new(100, 100, 1, "/nonexistent/font.ttf", &png, &err), -1);
	cr_assert_null(png);
	cr_assert(strstr(err.msg, "/nonexistent/font.ttf") != NULL, "%s", err.msg);
}

/* The largest --size at the largest --scale draws and writes (in bands,
 * so in little memory); a side beyond it is refused, saying the limit. */
Test(render_png, largest_size_at_every_scale)
{
	struct render_png *png;
	struct rs_err err = { 0 };
	const struct render_color grey = { 0x80, 0x80, 0x80, 255 };
	FILE *fp = fopen("/dev/null", "wb");

	cr_assert_not_null(fp);
	cr_assert_eq(render_png_new(RENDER_SIZE_MAX, RENDER_SIZE_MAX, 4, font(), &png, &err), 0, "%s",
		     err.msg);
	render_png_ops()->fill_rect(png, 10, 10, RENDER_SIZE_MAX - 20, 50, grey);
	render_png_ops()->text(png, 50, RENDER_SIZE_MAX - 50, "GET", 40, grey, RENDER_LEFT, 0);
	cr_assert_eq(render_png_write(png, fp, &err), 0, "%s", err.msg);
	render_png_free(png);
	fclose(fp);
	cr_assert_eq(render_png_new(RENDER_SIZE_MAX * 4 + 1, 100, 1, font(), &png, &err), -1);
	cr_assert_null(png);
	cr_assert(strstr(err.msg, "at most 57600 pixels a side") != NULL, "%s", err.msg);
}

/* A full disk is said as the system says it, not as libpng's "Write Error";
 * the caller adds the file name. */
Test(render_png, full_disk_says_no_space)
{
	struct render_png *png;
	struct rs_err err = { 0 };
	FILE *fp = fopen("/dev/full", "wb");

	if (fp == NULL)
		cr_skip_test("no /dev/full");
	/* Small enough to sit in stdio's buffer until the final flush. */
	cr_assert_eq(render_png_new(100, 100, 1, font(), &png, &err), 0, "%s", err.msg);
	cr_assert_eq(render_png_write(png, fp, &err), -1);
	cr_assert_str_eq(err.msg, "No space left on device");
	render_png_free(png);
	fclose(fp);
	fp = fopen("/dev/full", "wb");
	cr_assert_eq(render_png_new(1200, 800, 2, font(), &png, &err), 0, "%s", err.msg);
	render_png_ops()->text(png, 50, 50, "GET", 40, (struct render_color){ 0, 0, 0, 255 },
			       RENDER_LEFT, 0);
	cr_assert_eq(render_png_write(png, fp, &err), -1);
	cr_assert_str_eq(err.msg, "No space left on device");
	render_png_free(png);
	fclose(fp);
}

/* Encode data in blocks of block bytes, inflate it back with zlib and
 * compare, Adler-32 included.  With split, zero runs go in through
 * rpng_deflate_zeros() and the rest in pieces of up to 5 bytes, as the PNG
 * filter hands them over. */
static void deflate_round_trip_split(const uint8_t *data, size_t n, size_t block, int split)
{
	struct rpng_deflate z;
	uint8_t *enc, *back = malloc(n + 1);
	size_t len, pos = 0;
	z_stream in;

	rpng_deflate_init(&z);
	do {
		size_t k = n - pos < block ? n - pos : block;

		if (split) {
			for (size_t i = pos, j; i < pos + k; i = j) {
				j = i;
				if (data[i] == 0) {
					while (j < pos + k && data[j] == 0)
						j++;
					rpng_deflate_zeros(&z, j - i);
				} else {
					j = i + 5 < pos + k ? i + 5 : pos + k;
					rpng_deflate_bytes(&z, data + i, j - i);
				}
			}
			rpng_deflate_end_block(&z, pos + k == n);
		} else {
			rpng_deflate_block(&z, data + pos, k, pos + k == n);
		}
		pos += k;
	} while (pos < n);
	cr_assert_eq(rpng_deflate_adler(&z), adler32(adler32(0, NULL, 0), data, (uInt)n));
	enc = rpng_deflate_detach(&z, &len);
	rpng_deflate_free(&z);
	memset(&in, 0, sizeof in);
	cr_assert_eq(inflateInit2(&in, -15), Z_OK);
	in.next_in = enc;
	in.avail_in = (uInt)len;
	in.next_out = back;
	in.avail_out = (uInt)n + 1;
	cr_assert_eq(inflate(&in, Z_FINISH), Z_STREAM_END, "%s", in.msg ? in.msg : "");
	cr_assert_eq(in.total_out, n);
	cr_assert_eq(in.avail_in, 0, "bytes after the final block");
	cr_assert(memcmp(back, data, n) == 0);
	inflateEnd(&in);
	free(enc);
	free(back);
}

static void deflate_round_trip(const uint8_t *data, size_t n, size_t block)
{
	deflate_round_trip_split(data, n, block, 0);
	deflate_round_trip_split(data, n, block, 1);
}

Test(render_png, deflate_encoder_round_trips)
{
	size_t n = (size_t)3 << 20;   /* past the Adler-32 reduction interval */
	uint8_t *d = calloc(n, 1);
	unsigned seed = 99;

	deflate_round_trip(d, 0, 1);
	deflate_round_trip(d, 1, 1);
	deflate_round_trip(d, n, n);  /* all zeros: runs of 258 */
	for (size_t len = 1; len < 600; len++)
		deflate_round_trip(d, len, 64);
	memset(d, 0xFF, n);           /* all literals, the largest sums */
	deflate_round_trip(d, n, n);
	for (size_t i = 0; i < n;) { /* zero runs of every length between bytes */
		size_t run = (seed = seed * 1103515245u + 12345u) >> 16;

		run %= 300;
		d[i++] = (uint8_t)(1 + (seed >> 8) % 255);
		for (size_t k = 0; k < run && i < n; k++)
			d[i++] = 0;
	}
	deflate_round_trip(d, n, 7201 * 32);
	deflate_round_trip(d, 100000, 1000);
	for (size_t i = 0; i < n; i++)
		d[i] = (uint8_t)((seed = seed * 1103515245u + 12345u) >> 16);
	deflate_round_trip(d, n, 65536);
	free(d);
}

/* --font wins; then the built-in path; then fontconfig, when built with it;
 * and without any, one line that says what to install. */
Test(render_png, font_from_option_default_or_fontconfig)
{
	char out[4096];
	struct rs_err err = { 0 };
	struct render_png *png;

	/* --font names a file: it must be one (a FIFO would hang the reader). */
	cr_assert_eq(font_find("/my/font.ttf", font(), out, sizeof out, &err), -1);
	cr_assert_not_null(strstr(err.msg, "--font /my/font.ttf: No such file"), "%s", err.msg);
	cr_assert_eq(font_find(font(), "/nonexistent/built-in.ttf", out, sizeof out, &err), 0, "%s",
		     err.msg);
	cr_assert_str_eq(out, font());
	cr_assert_eq(font_find(NULL, font(), out, sizeof out, &err), 0);
	cr_assert_str_eq(out, font());
#ifdef HAVE_FONTCONFIG
	cr_assert_eq(font_find(NULL, "/nonexistent/DejaVuSans.ttf", out, sizeof out, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(access(out, R_OK), 0, "%s", out);
	cr_assert_eq(render_png_new(100, 100, 1, out, &png, &err), 0, "fontconfig gave %s: %s", out,
		     err.msg);
	render_png_free(png);
#else
	(void)png;
	cr_assert_eq(font_find(NULL, "/nonexistent/DejaVuSans.ttf", out, sizeof out, &err), -1);
	cr_assert(strstr(err.msg, "/nonexistent/DejaVuSans.ttf") && strstr(err.msg, "--font"), "%s",
		  err.msg);
	cr_assert_null(strchr(err.msg, '\n'));
#endif
}

/* Coordinates no chart should hand over (issue 40, D9: a label at minus
 * infinity overflowed the pixel ints): infinities, NaN and 1e300 in every
 * operation.  Each such mark is left out, a line running far off the page
 * is drawn where it crosses it (a dashed one too, in bounded time), and
 * what is sane is drawn as ever.  The sanitizer build checks the casts. */
Test(render_png, far_and_infinite_coordinates_are_left_out)
{
	static const double bad[] = { INFINITY, -INFINITY, NAN, 1e300, -1e300 };
	struct render_png *png;
	struct rs_err err;
	const struct render_ops *ops = render_png_ops();
	const struct render_color red = { 255, 0, 0, 255 }, blue = { 0, 0, 255, 255 };
	const uint8_t *px;
	unsigned w, h;
	uint8_t *file;

	cr_assert_eq(render_png_new(100, 100, 2, font(), &png, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		double v = bad[i], xy[4] = { 10, 10, v, v }, bx[2] = { v, 90 }, by[2] = { 10, 20 };

		ops->text(png, v, 50, "0", 9, red, RENDER_LEFT, 0);
		ops->text(png, 50, v, "0", 9, red, RENDER_CENTER, 1);
		ops->text(png, 50, 50, "0", v, red, RENDER_LEFT, 0);
		ops->marker(png, v, 50, 6, RENDER_CIRCLE, red, red, 1);
		ops->marker(png, 50, 50, v, RENDER_CIRCLE, red, red, 1);
		ops->fill_rect(png, v, 10, 5, 5, red);
		ops->fill_rect(png, 10, 10, v, v, red);
		ops->fill_band(png, bx, by, by, 2, red);
		ops->stroke(png, xy, 2, 1, red, RENDER_SOLID);
		ops->stroke(png, xy, 2, 1, red, RENDER_DASHED);
		ops->stroke(png, xy, 2, v, red, RENDER_SOLID);
		cr_assert(isfinite(ops->text_width(png, "0", 9)));
	}
	/* From the page's middle to 1e300 to the right: drawn up to the edge. */
	{
		double xy[4] = { 50, 80, 1e300, 80 };

		ops->stroke(png, xy, 2, 4, blue, RENDER_DASHED);
		xy[2] = 1e30;
		ops->stroke(png, xy, 2, 4, blue, RENDER_SOLID);
	}
	px = render_png_pixels(png, &w, &h);
	cr_assert_eq(w, 200);
	cr_assert(near_colour(px + (160 * w + 190) * 3, blue, 0), "the far line is not drawn");
	write_and_decode(png, &file, &w, &h);
	free(file);
	render_png_free(png);
}
