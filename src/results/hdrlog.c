/* hdrlog.c: HdrHistogram's V2 compressed histograms, rsweep's written and
 * any read into rsweep's (hdrlog.h).
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
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "results/hdrlog.h"
#include "base/sbuf.h"
#include "base/xalloc.h"

#define HDRLOG_COMPRESSED 0x1c849304u
#define HDRLOG_V2 0x1c849303u
#define HDRLOG_HEADER 40
/* Inflated payloads larger than this are refused (an HDR of 5 digits up
 * to an hour in ns needs far less). */
#define HDRLOG_MAX_PAYLOAD (16u << 20)
/* Values above are recorded as this (past rsweep's top bucket, 2^38 ns,
 * all are one bucket): 1000 s. */
#define HDRLOG_MAX_NS 1e12

/* The flag HDR's writers (Java and C) set on V2's cookies, which its
 * readers mask away (cookie & ~0xf0). */
#define HDRLOG_WRITER_FLAG 0x10u
/* rsweep's own: 2 digits, up to the largest value its 4096 buckets cover. */
#define HDRLOG_OWN_DIGITS 2
#define HDRLOG_OWN_HIGHEST (((uint64_t)1 << (HIST_TOP_BIT + 1)) - 1)

static void hdrlog_put32(unsigned char *p, uint32_t v)
{
	for (int i = 3; i >= 0; i--, v >>= 8)
		p[i] = (unsigned char)v;
}

static void hdrlog_put64(unsigned char *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (unsigned char)v;
}

/* v as ZigZag LEB128 at p; returns the bytes (at most 9: HDR's ninth byte
 * holds 8 bits, and no count here needs it). */
static size_t hdrlog_zigzag(unsigned char *p, int64_t v)
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

size_t hdrlog_encode_raw(const struct hist *h, unsigned char **out)
{
	unsigned last = 0, i;
	size_t n = HDRLOG_HEADER, cap = HDRLOG_HEADER + 9 * (size_t)HIST_BUCKETS;
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
		n += hdrlog_zigzag(enc + n, zeros > 1 ? -zeros : (int64_t)c);
	}
	memcpy(&bits, &one, sizeof bits);
	hdrlog_put32(enc, HDRLOG_V2 | HDRLOG_WRITER_FLAG);
	hdrlog_put32(enc + 4, (uint32_t)(n - HDRLOG_HEADER));
	hdrlog_put32(enc + 8, 0);
	hdrlog_put32(enc + 12, HDRLOG_OWN_DIGITS);
	hdrlog_put64(enc + 16, 1);
	hdrlog_put64(enc + 24, HDRLOG_OWN_HIGHEST);
	hdrlog_put64(enc + 32, bits);
	zlen = compressBound((uLong)n);
	z = xmalloc(8 + zlen);
	if (compress(z + 8, &zlen, enc, (uLong)n) != Z_OK)
		abort();  /* only out of memory, which xmalloc already ends on */
	hdrlog_put32(z, HDRLOG_COMPRESSED | HDRLOG_WRITER_FLAG);
	hdrlog_put32(z + 4, (uint32_t)zlen);
	free(enc);
	*out = z;
	return 8 + zlen;
}

void hdrlog_base64(const unsigned char *p, size_t n, struct sbuf *b)
{
	static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
			     (i + 2 < n ? p[i + 2] : 0);
		char q[4] = { a[v >> 18 & 63], a[v >> 12 & 63], i + 1 < n ? a[v >> 6 & 63] : '=',
			      i + 2 < n ? a[v & 63] : '=' };

		sbuf_add(b, q, 4);
	}
}

void hdrlog_encode(const struct hist *h, struct sbuf *b)
{
	unsigned char *raw;
	size_t n = hdrlog_encode_raw(h, &raw);

	hdrlog_base64(raw, n, b);
	free(raw);
}

static uint64_t hdrlog_be(const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static int hdrlog_b64_value(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* Base64 s[0..n) into a malloc'd buffer (*len bytes); NULL when it is not
 * base64 (padding only at the end). */
static unsigned char *hdrlog_unbase64(const char *s, size_t n, size_t *len)
{
	unsigned char *out;
	size_t k = 0;
	uint32_t acc = 0;
	int bits = 0, pad = 0;

	if (n % 4 != 0)
		return NULL;
	out = xmalloc(n / 4 * 3 + 1);
	for (size_t i = 0; i < n; i++) {
		int v = hdrlog_b64_value((unsigned char)s[i]);

		if (s[i] == '=' && i >= n - 2) {
			pad++;
			continue;
		}
		if (v < 0 || pad) {
			free(out);
			return NULL;
		}
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[k++] = (unsigned char)(acc >> bits);
		}
	}
	*len = k;
	return out;
}

/* The layout of an HdrHistogram: what counts index i stands for. */
struct hdrlog_layout {
	unsigned unit;            /* log2 of the lowest trackable value, floored */
	unsigned half_mag;        /* log2 of half the sub-buckets */
	uint64_t half;            /* half the sub-buckets */
};

/* The values bucket i holds, lo .. lo + width - 1; -1 past 2^62. */
static int hdrlog_bucket(const struct hdrlog_layout *l, uint64_t i, uint64_t *lo, uint64_t *width)
{
	int64_t bucket = (int64_t)(i >> l->half_mag) - 1;
	uint64_t sub = (i & (l->half - 1)) + l->half;
	unsigned shift;

	if (bucket < 0) {
		sub -= l->half;
		bucket = 0;
	}
	shift = (unsigned)bucket + l->unit;
	if (shift + l->half_mag + 1 > 62)
		return -1;
	*lo = sub << shift;
	*width = (uint64_t)1 << shift;
	return 0;
}

int hdrlog_decode(const char *b64, size_t n, double unit_ns, struct hist *h, struct rs_err *err)
{
	unsigned char *z, *raw = NULL;
	size_t zlen, at, end;
	uLongf rawlen;
	uint64_t lowest, i = 0;
	unsigned digits;
	struct hdrlog_layout l;
	int rc = -1;

	if ((z = hdrlog_unbase64(b64, n, &zlen)) == NULL)
		return rs_err_set(err, "the histogram is not base64");
	if (zlen < 8 || (hdrlog_be(z, 4) & ~0xf0u) != HDRLOG_COMPRESSED) {
		rs_err_set(err, "not a V2 compressed HdrHistogram (its cookie is 0x%08llx)",
			   zlen >= 4 ? (unsigned long long)hdrlog_be(z, 4) : 0ULL);
		goto out;
	}
	if (hdrlog_be(z + 4, 4) != zlen - 8) {
		rs_err_set(err, "the histogram's length says %llu bytes, it has %zu",
			   (unsigned long long)hdrlog_be(z + 4, 4), zlen - 8);
		goto out;
	}
	rawlen = HDRLOG_MAX_PAYLOAD;
	raw = xmalloc(rawlen);
	if (uncompress(raw, &rawlen, z + 8, (uLong)(zlen - 8)) != Z_OK) {
		rs_err_set(err, "the histogram does not inflate (or holds more than %u MiB)",
			   HDRLOG_MAX_PAYLOAD >> 20);
		goto out;
	}
	if (rawlen < HDRLOG_HEADER || (hdrlog_be(raw, 4) & ~0xf0u) != HDRLOG_V2) {
		rs_err_set(err, "not HdrHistogram's V2 encoding (a V0 or V1 histogram?)");
		goto out;
	}
	if (hdrlog_be(raw + 4, 4) != rawlen - HDRLOG_HEADER) {
		rs_err_set(err, "the counts' length says %llu bytes, they have %lu",
			   (unsigned long long)hdrlog_be(raw + 4, 4),
			   (unsigned long)(rawlen - HDRLOG_HEADER));
		goto out;
	}
	digits = (unsigned)hdrlog_be(raw + 12, 4);
	lowest = hdrlog_be(raw + 16, 8);
	if (hdrlog_be(raw + 8, 4) != 0) {
		rs_err_set(err, "a shifted (normalized) histogram, which rsweep does not read");
		goto out;
	}
	if (digits < 1 || digits > 5 || lowest < 1 || lowest > ((uint64_t)1 << 40)) {
		rs_err_set(err, "significant digits %u or lowest value %llu out of range", digits,
			   (unsigned long long)lowest);
		goto out;
	}
	l.unit = 63u - (unsigned)__builtin_clzll(lowest);
	/* Sub-buckets: the power of two that holds 2 x 10^digits. */
	l.half_mag = (unsigned)ceil(log2(2 * pow(10, digits))) - 1;
	l.half = (uint64_t)1 << l.half_mag;
	end = rawlen;
	for (at = HDRLOG_HEADER; at < end;) {
		uint64_t zz = 0, lo, width;
		int64_t v;
		unsigned shift = 0;

		for (;;) {
			unsigned char b;

			if (at >= end) {
				rs_err_set(err, "a count runs past the end of the histogram");
				goto out;
			}
			b = raw[at++];
			if (shift == 56) {
				zz |= (uint64_t)b << 56;
				break;
			}
			zz |= (uint64_t)(b & 0x7f) << shift;
			shift += 7;
			if (!(b & 0x80))
				break;
		}
		v = (int64_t)(zz >> 1) ^ -(int64_t)(zz & 1);
		if (v < 0) {
			i += (uint64_t)-v;
			continue;
		}
		if (v > 0) {
			double mid;

			if (hdrlog_bucket(&l, i, &lo, &width) < 0) {
				rs_err_set(err, "a bucket past 2^62");
				goto out;
			}
			/* HDR's median-equivalent value, in ns; past rsweep's top
			 * bucket all values are one, and the sum must not wrap. */
			mid = ((double)lo + (double)(width >> 1)) * unit_ns;
			hist_record_n(h, mid >= HDRLOG_MAX_NS ? (uint64_t)HDRLOG_MAX_NS : (uint64_t)llround(mid),
				      (uint64_t)v);
		}
		i++;
	}
	rc = 0;
out:
	free(raw);
	free(z);
	return rc;
}

int hdrlog_read_first(const char *buf, size_t len, const char *name, double unit_ns,
		      struct hist *h, struct rs_err *err)
{
	unsigned line = 0;

	for (size_t at = 0; at < len;) {
		const char *s = buf + at, *nl = memchr(s, '\n', len - at), *e, *f;
		size_t n = nl ? (size_t)(nl - s) : len - at;

		at += n + 1;
		line++;
		if (n > 0 && s[n - 1] == '\r')
			n--;
		if (n == 0 || s[0] == '#' || s[0] == '"')
			continue;
		/* The histogram is the last field. */
		for (e = s + n, f = e; f > s && f[-1] != ','; f--)
			;
		if (f == s || hdrlog_decode(f, (size_t)(e - f), unit_ns, h, err) < 0) {
			if (f == s)
				rs_err_set(err, "no histogram field");
			return rs_err_prefix(err, "%s:%u", name, line);
		}
		return 0;
	}
	return rs_err_set(err, "%s: no histogram", name);
}
