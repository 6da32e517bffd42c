/* render_png_write.c: draw the display list and write the PNG.
 *
 * The image is cut into strips of RPNG_STRIP_ROWS rows, shared out among
 * up to one thread per CPU.  A strip is drawn a band at a time into a
 * buffer that stays in cache; each band is Paeth-filtered and deflated as
 * one block (render_png_deflate.c).  Every strip but the last ends on a
 * byte boundary with an empty stored block, so the strips concatenate into
 * one zlib stream whose Adler-32 is combined from theirs, as pigz does.
 * Where strips and bands fall depends only on the image height, so the
 * bytes written never depend on the machine.
 *
 * libpng writes everything but the compressed image: signature, IHDR,
 * sRGB, pHYs (which tells viewers --scale 2 is a 144 dpi image), and the
 * framing and CRCs of the IDAT and IEND chunks through png_write_chunk_*().
 * zlib's deflate took half of the time at any level (1 to 2 ns a byte,
 * even on blank rows); render_png_deflate.c takes a fifth of that. */
#include "config.h"

#include <errno.h>
#include <png.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "render/render_png.h"
#include "render/render_png_int.h"
#include "base/xalloc.h"

#define RPNG_BAND_ROWS 32         /* a band of 2400 pixels is 230 KB: in L2 */
#define RPNG_STRIP_ROWS 128       /* rows a thread takes at a time */
#define RPNG_MAX_THREADS 8
#define RPNG_FILTER_PAETH 4

struct rpng_strip {
	int y0, y1;
	uint8_t *out;             /* raw deflate data */
	size_t len;
	uint32_t adler;           /* of the strip's filtered rows */
};

struct rpng_job {
	const struct render_png *p;
	struct rpng_strip *strips;
	size_t nstrips;
	atomic_size_t next;       /* first strip not yet taken */
};

/* What a thread works with. */
struct rpng_worker {
	struct rpng_band band;    /* the rows, and the one above the first */
	uint8_t *filtered;        /* a row's bytes the filter could not skip */
	uint8_t *prev;            /* the row above the band */
	struct rpng_deflate z;
};

/* The Paeth predictor, with p - a, p - b and p - c worked out. */
static inline int paeth(int a, int b, int c)
{
	int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);

	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Length of the stretch where a[i] == b[i], from i = 0, up to n. */
static size_t same_run(const uint8_t *a, const uint8_t *b, size_t n)
{
	size_t i = 0;

	while (i + 8 <= n) {
		uint64_t x, y;

		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			break;
		i += 8;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/* PNG's Paeth filter of RGB row cur (n bytes) against the row above it,
 * handed to z as it goes.  Where the row repeats the one above, or both
 * rows repeat the pixel to the left, Paeth predicts every byte exactly:
 * such stretches are found a word at a time and handed over as zero runs,
 * never written out.  Only the rest is filtered a byte at a time, into out
 * (n bytes of scratch). */
static void filter_paeth(struct rpng_deflate *z, const uint8_t *prev, const uint8_t *cur,
			 uint8_t *out, size_t n)
{
	size_t i = 0, from = 0;   /* out[from..i) is filtered, not yet handed over */

	for (; i < 3 && i < n; i++)
		out[i] = (uint8_t)(cur[i] - prev[i]); /* no left pixel: predicts the one above */
	while (i < n) {
		size_t k = 0;

		/* cur == prev over [i - 3, i): then c == a wherever b == x. */
		if (cur[i - 3] == prev[i - 3] && cur[i - 2] == prev[i - 2] && cur[i - 1] == prev[i - 1])
			k = same_run(cur + i, prev + i, n - i);
		/* Both rows repeat the pixel to the left: then b == c, and
		 * Paeth predicts a, which is x. */
		else if (cur[i] == cur[i - 3] && prev[i] == prev[i - 3])
			k = same_run(prev + i, prev + i - 3, same_run(cur + i, cur + i - 3, n - i));
		if (k > 0) {
			rpng_deflate_bytes(z, out + from, i - from);
			rpng_deflate_zeros(z, k);
			i += k;
			from = i;
			continue;
		}
		/* A pixel neither neighbour predicts. */
		for (size_t end = i + 3 < n ? i + 3 : n; i < end; i++)
			out[i] = (uint8_t)(cur[i] - paeth(cur[i - 3], prev[i], prev[i - 3]));
	}
	rpng_deflate_bytes(z, out + from, i - from);
}

static void strip_run(struct rpng_job *job, struct rpng_worker *wk, struct rpng_strip *s)
{
	const struct render_png *p = job->p;
	struct rpng_band *b = &wk->band;
	size_t rowbytes = (size_t)p->w * 3;
	int last = s == &job->strips[job->nstrips - 1];
	const uint8_t filter_type = RPNG_FILTER_PAETH;

	for (int y = s->y0; y < s->y1; y += RPNG_BAND_ROWS) {
		int y1 = y + RPNG_BAND_ROWS < s->y1 ? y + RPNG_BAND_ROWS : s->y1;
		/* The filter needs the row above; a strip draws its own. */
		int above = y > 0 && y == s->y0;
		const uint8_t *prev;

		rpng_band_draw(b, y - above, y1);
		prev = above ? b->px : wk->prev; /* zeros above the image's first row */
		for (int r = y; r < y1; r++) {
			const uint8_t *cur = b->px + (size_t)(r - b->y0) * b->stride;

			rpng_deflate_bytes(&wk->z, &filter_type, 1);
			filter_paeth(&wk->z, prev, cur, wk->filtered, rowbytes);
			prev = cur;
		}
		memcpy(wk->prev, prev, rowbytes);
		rpng_deflate_end_block(&wk->z, last && y1 == s->y1);
	}
	if (!last)
		rpng_deflate_sync(&wk->z);
	s->adler = rpng_deflate_adler(&wk->z);
	s->out = rpng_deflate_detach(&wk->z, &s->len);
}

static void *strip_worker(void *arg)
{
	struct rpng_job *job = arg;
	const struct render_png *p = job->p;
	struct rpng_worker wk;
	size_t i;

	rpng_band_init(&wk.band, p, RPNG_BAND_ROWS + 1);
	wk.filtered = xmalloc((size_t)p->w * 3);
	wk.prev = xcalloc(p->w, 3);
	rpng_deflate_init(&wk.z);
	rpng_deflate_expect(&wk.z, (1 + (size_t)p->w * 3) * RPNG_STRIP_ROWS,
			    RPNG_STRIP_ROWS / RPNG_BAND_ROWS + 1);
	while ((i = atomic_fetch_add(&job->next, 1)) < job->nstrips) {
		if (job->strips[i].y0 == 0)
			memset(wk.prev, 0, (size_t)p->w * 3);
		strip_run(job, &wk, &job->strips[i]);
	}
	rpng_deflate_free(&wk.z);
	free(wk.prev);
	free(wk.filtered);
	rpng_band_free(&wk.band);
	return NULL;
}

static unsigned worker_count(size_t nstrips)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned n = cpus < 1 ? 1 : cpus > RPNG_MAX_THREADS ? RPNG_MAX_THREADS : (unsigned)cpus;

	return n > nstrips ? (unsigned)nstrips : n;
}

/* Draw and compress every strip. */
static void draw_strips(struct rpng_job *job)
{
	pthread_t tid[RPNG_MAX_THREADS];
	unsigned nt = worker_count(job->nstrips), started = 0;

	/* The calling thread is a worker too; a thread that cannot be
	 * started only makes the work slower. */
	while (started + 1 < nt && pthread_create(&tid[started], NULL, strip_worker, job) == 0)
		started++;
	strip_worker(job);
	for (unsigned i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
}

/* libpng reports errors by longjmp; the message is kept for rs_err, and
 * so is errno when writing failed: "No space left on device" says what
 * libpng's "Write Error" does not. */
struct png_failure {
	jmp_buf jb;
	char msg[200];
	FILE *fp;
	int write_errno;          /* 0: the failure was libpng's own */
};

static void rpng_error(png_structp png, png_const_charp msg)
{
	struct png_failure *f = png_get_error_ptr(png);

	snprintf(f->msg, sizeof f->msg, "%s", msg);
	longjmp(f->jb, 1);
}

static void rpng_write(png_structp png, png_bytep data, size_t n)
{
	struct png_failure *f = png_get_error_ptr(png);

	if (fwrite(data, 1, n, f->fp) != n) {
		f->write_errno = errno ? errno : EIO;
		png_error(png, "write error");
	}
}

static void rpng_flush(png_structp png)
{
	struct png_failure *f = png_get_error_ptr(png);

	if (fflush(f->fp) != 0) {
		f->write_errno = errno ? errno : EIO;
		png_error(png, "write error");
	}
}

static void rpng_warning(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg;
}

static void put32(uint8_t *d, uint32_t v)
{
	d[0] = (uint8_t)(v >> 24);
	d[1] = (uint8_t)(v >> 16);
	d[2] = (uint8_t)(v >> 8);
	d[3] = (uint8_t)v;
}

/* The zlib stream around the strips: a 2-byte header before the first,
 * the Adler-32 after the last, each strip in an IDAT chunk of its own. */
static void write_chunks(png_structp png, png_infop info, const struct render_png *p,
			 const struct rpng_job *job)
{
	const uint8_t zhead[2] = { 0x78, 0x01 }; /* 32 KiB window, "fastest"; % 31 == 0 */
	uint8_t ztail[4];
	uLong adler = adler32(0, NULL, 0);
	size_t stride = 1 + (size_t)p->w * 3;

	for (size_t i = 0; i < job->nstrips; i++) {
		const struct rpng_strip *s = &job->strips[i];

		adler = adler32_combine(adler, s->adler, (z_off_t)((size_t)(s->y1 - s->y0) * stride));
	}
	put32(ztail, (uint32_t)adler);
	png_write_info(png, info);
	for (size_t i = 0; i < job->nstrips; i++) {
		const struct rpng_strip *s = &job->strips[i];
		int first = i == 0, last = i + 1 == job->nstrips;

		png_write_chunk_start(png, (png_const_bytep)"IDAT",
				      s->len + (first ? sizeof zhead : 0) + (last ? sizeof ztail : 0));
		if (first)
			png_write_chunk_data(png, zhead, sizeof zhead);
		png_write_chunk_data(png, s->out, s->len);
		if (last)
			png_write_chunk_data(png, ztail, sizeof ztail);
		png_write_chunk_end(png);
	}
	png_write_chunk(png, (png_const_bytep)"IEND", NULL, 0);
}

int render_png_write(struct render_png *p, FILE *fp, struct rs_err *err)
{
	struct rpng_job job;
	struct png_failure f;
	png_structp png = NULL;
	png_infop info = NULL;
	unsigned ppm = (unsigned)(p->s * 72 / 0.0254 + 0.5);
	volatile int rc = 0;

	memset(&job, 0, sizeof job);
	job.p = p;
	job.nstrips = (p->h + RPNG_STRIP_ROWS - 1) / RPNG_STRIP_ROWS;
	job.strips = xcalloc(job.nstrips, sizeof *job.strips);
	for (size_t i = 0; i < job.nstrips; i++) {
		job.strips[i].y0 = (int)(i * RPNG_STRIP_ROWS);
		job.strips[i].y1 = i + 1 < job.nstrips ? (int)((i + 1) * RPNG_STRIP_ROWS) : (int)p->h;
	}
	atomic_init(&job.next, 0);
	draw_strips(&job);

	f.msg[0] = '\0';
	f.fp = fp;
	f.write_errno = 0;
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &f, rpng_error, rpng_warning);
	if (png == NULL || (info = png_create_info_struct(png)) == NULL) {
		rc = rs_err_set(err, "libpng: cannot start a PNG");
		goto out;
	}
	if (setjmp(f.jb)) {
		if (f.write_errno)
			rc = rs_err_set(err, "%s", strerror(f.write_errno));
		else
			rc = rs_err_set(err, "libpng: %s", f.msg);
		goto out;
	}
	png_set_write_fn(png, &f, rpng_write, rpng_flush);
	png_set_IHDR(png, info, p->w, p->h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_set_pHYs(png, info, ppm, ppm, PNG_RESOLUTION_METER);
	png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
	write_chunks(png, info, p, &job);
	/* A full disk shows here, not at the caller's close, for small images. */
	rpng_flush(png);
out:
	if (png)
		png_destroy_write_struct(&png, info ? &info : NULL);
	for (size_t i = 0; i < job.nstrips; i++)
		free(job.strips[i].out);
	free(job.strips);
	return rc;
}
