/* export_hlog.c: HdrHistogram's interval log (.hlog): one line a row, its
 * histogram in HdrHistogram's V2 compressed encoding, as the Java
 * HistogramLogWriter writes it and HistogramLogReader, HdrHistogram_c's
 * hdr_log_read and the HdrHistogram plotter read it.
 *
 * rsweep's buckets are HdrHistogram's counts array for 2 significant
 * digits, unit 1 ns, 1 to 2^38 - 1 ns (hist.h; export.c's hgrm says the
 * same): 4096 counts, index for index, so the log holds the very counts
 * rsweep recorded, nothing rounded; only values past 2^38 ns (275 s),
 * which rsweep keeps in its top bucket, would read as that bucket's.
 *
 * The encoding (HdrHistogram's EncodableHistogram, V2): a 40-byte header,
 * big-endian (cookie 0x1c849313, payload length, normalizing index offset
 * 0, significant digits 2, lowest trackable value 1, highest trackable
 * value, the integer-to-double ratio 1.0 as its bits), then the counts up
 * to the one of the largest value, each ZigZag LEB128, a run of two or
 * more zeros as minus its length; deflated by zlib behind cookie
 * 0x1c849314 and the deflated length; then base64. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "export.h"
#include "hist.h"
#include "sbuf.h"
#include "xalloc.h"

/* V2's cookies, with the 0x10 that HDR's writers (Java and C) set and its
 * readers mask away (cookie & ~0xf0). */
#define HLOG_ENCODING_COOKIE (0x1c849303u | 0x10u)
#define HLOG_COMPRESSION_COOKIE (0x1c849304u | 0x10u)
#define HLOG_HEADER 40
#define HLOG_DIGITS 2
/* The largest value HDR's counts for these 4096 buckets cover. */
#define HLOG_HIGHEST (((uint64_t)1 << (HIST_TOP_BIT + 1)) - 1)

static void hlog_put32(unsigned char *p, uint32_t v)
{
	for (int i = 3; i >= 0; i--, v >>= 8)
		p[i] = (unsigned char)v;
}

static void hlog_put64(unsigned char *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (unsigned char)v;
}

/* v as ZigZag LEB128 at p; returns the bytes (at most 9: HDR's ninth byte
 * holds 8 bits, and no count here needs it). */
static size_t hlog_zigzag(unsigned char *p, int64_t v)
{
	uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
	size_t n = 0;

	while (z >= 0x80 && n < 8) {
		p[n++] = (unsigned char)(z | 0x80);
		z >>= 7;
	}
	p[n++] = (unsigned char)z;
	return n;
}

size_t export_hlog_encode(const struct hist *h, unsigned char **out)
{
	unsigned last = 0, i;
	size_t n = HLOG_HEADER, cap = HLOG_HEADER + 9 * (size_t)HIST_BUCKETS;
	unsigned char *enc = xmalloc(cap), *z;
	uLongf zlen;
	double one = 1.0;
	uint64_t bits;

	for (i = 0; i < HIST_BUCKETS; i++)
		if (h->bucket[i])
			last = i;
	for (i = 0; i <= last;) {
		uint64_t c = h->bucket[i++];
		int64_t zeros = 0;

		if (c == 0) {
			zeros = 1;
			while (i <= last && h->bucket[i] == 0) {
				zeros++;
				i++;
			}
		}
		n += hlog_zigzag(enc + n, zeros > 1 ? -zeros : (int64_t)c);
	}
	memcpy(&bits, &one, sizeof bits);
	hlog_put32(enc, HLOG_ENCODING_COOKIE);
	hlog_put32(enc + 4, (uint32_t)(n - HLOG_HEADER));
	hlog_put32(enc + 8, 0);
	hlog_put32(enc + 12, HLOG_DIGITS);
	hlog_put64(enc + 16, 1);
	hlog_put64(enc + 24, HLOG_HIGHEST);
	hlog_put64(enc + 32, bits);
	zlen = compressBound((uLong)n);
	z = xmalloc(8 + zlen);
	if (compress(z + 8, &zlen, enc, (uLong)n) != Z_OK)
		abort();  /* only out of memory, which xmalloc already ends on */
	hlog_put32(z, HLOG_COMPRESSION_COOKIE);
	hlog_put32(z + 4, (uint32_t)zlen);
	free(enc);
	*out = z;
	return 8 + zlen;
}

void export_base64(FILE *fp, const unsigned char *p, size_t n)
{
	static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
			     (i + 2 < n ? p[i + 2] : 0);

		fputc(a[v >> 18 & 63], fp);
		fputc(a[v >> 12 & 63], fp);
		fputc(i + 1 < n ? a[v >> 6 & 63] : '=', fp);
		fputc(i + 2 < n ? a[v & 63] : '=', fp);
	}
}

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
	for (size_t i = 0; i < rows->n && rc == 0; i++) {
		const struct rs_rec *r = ix[i];
		double secs = rows_fig(rows, r, ROW_SECONDS), rate = rows_fig(rows, r, ROW_RATE);
		unsigned char *enc;
		size_t n;

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
		n = export_hlog_encode(h, &enc);
		export_base64(fp, enc, n);
		fputc('\n', fp);
		free(enc);
	}
	free(h);
	free(ix);
	return rc;
}
