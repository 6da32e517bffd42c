/* render_png_deflate.c: a small deflate encoder (RFC 1951) for filtered
 * PNG rows.
 *
 * After the Paeth filter a chart is mostly zero bytes: flat colour
 * predicts itself.  So this encoder looks for nothing but runs of zeros,
 * coded as a literal 0 and matches at distance 1; every other byte is a
 * literal.  Each block gets Huffman codes built for it.
 * With no hashing and no match search it runs at memory speed, where zlib
 * spends 1 to 2 ns a byte on the same rows whatever its level.  The price
 * is size: it misses what zlib's matches find (repeated glyphs, a line's
 * edge repeated a row lower), and charts come out a fifth to a third
 * larger than at zlib's level 3.  The Adler-32 of everything encoded is
 * kept on the way, a zero run costing one multiply. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "render/render_png_int.h"
#include "base/vec.h"
#include "base/xalloc.h"

#define NLIT RPNG_NLIT
#define NCL 19                    /* code length symbols */
#define ZRUN_MIN 4                /* shorter zero runs stay literals */
#define ADLER_MOD 65521u
#define ADLER_BUDGET (1u << 20)   /* bytes between reductions: no overflow */

static const uint16_t len_base[29] = {
	3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
	35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
};
static const uint8_t len_extra[29] = {
	0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
};
/* The order code length code lengths are sent in. */
static const uint8_t cl_order[NCL] = {
	16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
};

void rpng_deflate_init(struct rpng_deflate *z)
{
	int code = 0;

	memset(z, 0, sizeof *z);
	z->s1 = 1;
	for (int len = 3; len <= 258; len++) {
		while (code + 1 < 29 && len_base[code + 1] <= len)
			code++;
		z->lsym[len] = (uint8_t)code;
	}
}

void rpng_deflate_free(struct rpng_deflate *z)
{
	free(z->out);
	free(z->tok);
	memset(z, 0, sizeof *z);
}

/* ---- bits ---- */

static inline void put_bits(struct rpng_deflate *z, uint32_t v, unsigned n)
{
	z->bits |= (uint64_t)v << z->nbits;
	z->nbits += n;
	if (z->nbits >= 32) {
		uint8_t *d = z->out + z->len;

		d[0] = (uint8_t)z->bits;
		d[1] = (uint8_t)(z->bits >> 8);
		d[2] = (uint8_t)(z->bits >> 16);
		d[3] = (uint8_t)(z->bits >> 24);
		z->len += 4;
		z->bits >>= 32;
		z->nbits -= 32;
	}
}

/* Write out the pending bits, padded with zeros to a whole byte. */
static void flush_bits(struct rpng_deflate *z)
{
	while (z->nbits > 0) {
		z->out[z->len++] = (uint8_t)z->bits;
		z->bits >>= 8;
		z->nbits = z->nbits > 8 ? z->nbits - 8 : 0;
	}
	z->bits = 0;
}

static void reserve(struct rpng_deflate *z, size_t more)
{
	if (z->cap - z->len < more)
		z->out = vec_reserve(z->out, &z->cap, z->len + more, 1, 65536);
}

/* ---- Huffman codes ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Code lengths for n symbols sorted by weight, in place: A[i] is the
 * weight of the i-th lightest on entry, its code length on return
 * (Moffat and Katajainen, "In-place calculation of minimum-redundancy
 * codes", 1995).  n >= 2. */
static void moffat(uint64_t *A, int n)
{
	int root = 0, leaf = 2, next, avbl, used, dpth;

	A[0] += A[1];
	for (next = 1; next < n - 1; next++) {
		if (leaf >= n || A[root] < A[leaf]) {
			A[next] = A[root];
			A[root++] = (uint64_t)next;
		} else {
			A[next] = A[leaf++];
		}
		if (leaf >= n || (root < next && A[root] < A[leaf])) {
			A[next] += A[root];
			A[root++] = (uint64_t)next;
		} else {
			A[next] += A[leaf++];
		}
	}
	A[n - 2] = 0;
	for (next = n - 3; next >= 0; next--)
		A[next] = A[A[next]] + 1;
	avbl = 1;
	used = dpth = 0;
	root = n - 2;
	next = n - 1;
	while (avbl > 0) {
		while (root >= 0 && A[root] == (uint64_t)dpth) {
			used++;
			root--;
		}
		while (avbl > used) {
			A[next--] = (uint64_t)dpth;
			avbl--;
		}
		avbl = 2 * used;
		dpth++;
		used = 0;
	}
}

/* Code lengths of at most maxbits for the n symbols' frequencies: an
 * optimal prefix code, flattened by halving the frequencies until it fits.
 * At least two symbols get a code, so the code is always complete, as
 * strict decoders want. */
static void huff_lengths(const uint32_t *freq, int n, unsigned maxbits, uint8_t *len)
{
	uint64_t f[NLIT], A[NLIT];
	int nz = 0;

	for (int i = 0; i < n; i++)
		f[i] = freq[i];
	for (int i = 0; i < n && nz < 2; i++)
		nz += f[i] != 0;
	for (int i = 0; i < n && nz < 2; i++)
		if (f[i] == 0) {
			f[i] = 1;
			nz++;
		}
	for (;;) {
		uint64_t worst = 0;

		nz = 0;
		for (int i = 0; i < n; i++)
			if (f[i])
				A[nz++] = f[i] << 9 | (uint64_t)i; /* ties by symbol: deterministic */
		qsort(A, (size_t)nz, sizeof *A, cmp_u64);
		{
			int sym[NLIT];

			for (int i = 0; i < nz; i++) {
				sym[i] = (int)(A[i] & 511);
				A[i] >>= 9;
			}
			moffat(A, nz);
			for (int i = 0; i < nz; i++)
				worst = A[i] > worst ? A[i] : worst;
			if (worst <= maxbits) {
				memset(len, 0, (size_t)n);
				for (int i = 0; i < nz; i++)
					len[sym[i]] = (uint8_t)A[i];
				return;
			}
		}
		for (int i = 0; i < n; i++)
			if (f[i])
				f[i] = f[i] >> 1 | 1;
	}
}

/* Canonical codes for the lengths, bit-reversed: deflate sends Huffman
 * codes from their top bit, and put_bits fills from the bottom. */
static void huff_codes(const uint8_t *len, int n, uint16_t *code)
{
	unsigned count[16] = { 0 }, next[16], c = 0;

	for (int i = 0; i < n; i++)
		count[len[i]]++;
	count[0] = 0;
	for (int b = 1; b < 16; b++) {
		c = (c + count[b - 1]) << 1;
		next[b] = c;
	}
	for (int i = 0; i < n; i++) {
		unsigned v, r = 0;

		if (len[i] == 0)
			continue;
		v = next[len[i]]++;
		for (unsigned k = 0; k < len[i]; k++, v >>= 1)
			r = r << 1 | (v & 1);
		code[i] = (uint16_t)r;
	}
}

/* ---- tokens ---- */

static inline void adler_reduce(struct rpng_deflate *z)
{
	z->s1 %= ADLER_MOD;
	z->s2 %= ADLER_MOD;
	z->budget = 0;
}

/* Length of the run of zero bytes at d[0..n). */
static size_t zero_run(const uint8_t *d, size_t n)
{
	size_t i = 0;

	while (i + 8 <= n) {
		uint64_t w;

		memcpy(&w, d + i, 8);
		if (w != 0)
			break;
		i += 8;
	}
	while (i < n && d[i] == 0)
		i++;
	return i;
}

/* Room for more tokens in the open block. */
static void tok_reserve(struct rpng_deflate *z, size_t more)
{
	if (z->tokcap - z->ntok < more)
		z->tok = vec_reserve(z->tok, &z->tokcap, z->ntok + more, sizeof *z->tok, 0);
}

static inline void adler_check(struct rpng_deflate *z)
{
	if (z->budget >= ADLER_BUDGET)
		adler_reduce(z);
}

/* Tokens for a run of n zero bytes: a literal 0, then matches at distance
 * 1; a short run stays literals. */
static void emit_zeros(struct rpng_deflate *z, size_t n)
{
	uint16_t *t;
	size_t left;

	if (n == 0)
		return;
	left = n - 1;
	tok_reserve(z, 3 + n / 258);
	t = z->tok + z->ntok;
	z->s2 += z->s1 * n;       /* n zeros leave s1 alone and add it to s2 n times */
	z->budget += n;
	if (n < ZRUN_MIN) {
		z->freq[0] += (uint32_t)n;
		while (n--)
			*t++ = 0;
	} else {
		*t++ = 0;
		z->freq[0]++;
		while (left >= 3) {
			size_t m = left < 258 ? left : 258;

			*t++ = (uint16_t)(256 + m);
			z->freq[257 + z->lsym[m]]++;
			left -= m;
		}
		z->freq[0] += (uint32_t)left;
		while (left--)
			*t++ = 0;
	}
	z->ntok = (size_t)(t - z->tok);
	adler_check(z);
}

/* Tokens for d[0..n), which starts and ends with a non-zero byte: literals,
 * and the zero runs inside it. */
static void tokenize(struct rpng_deflate *z, const uint8_t *d, size_t n)
{
	size_t i = 0;

	tok_reserve(z, n);
	while (i < n) {
		size_t run = d[i] == 0 ? zero_run(d + i, n - i) : 0;

		if (run > 0) {
			emit_zeros(z, run);
			i += run;
		} else {
			uint8_t b = d[i++];

			z->tok[z->ntok++] = b;
			z->freq[b]++;
			z->s1 += b;
			z->s2 += z->s1;
			z->budget++;
			adler_check(z);
		}
	}
}

void rpng_deflate_expect(struct rpng_deflate *z, size_t n, size_t blocks)
{
	reserve(z, 3 * n + 1024 * blocks);
	tok_reserve(z, n / blocks + 1);
}

void rpng_deflate_zeros(struct rpng_deflate *z, size_t n)
{
	z->zrun += n;
}

void rpng_deflate_bytes(struct rpng_deflate *z, const uint8_t *d, size_t n)
{
	size_t lead = zero_run(d, n), end = n;

	/* Zeros at either end join the runs around them. */
	z->zrun += lead;
	if (lead == n)
		return;
	emit_zeros(z, z->zrun);
	while (d[end - 1] == 0)
		end--;
	tokenize(z, d + lead, end - lead);
	z->zrun = n - end;
}

/* ---- blocks ---- */

/* The literal/length and distance code lengths, run-length coded with
 * the code length alphabet (16: repeat, 17 and 18: zeros). */
static size_t cl_encode(const uint8_t *lens, size_t n, uint8_t *sym, uint8_t *extra)
{
	size_t k = 0;

	for (size_t i = 0; i < n;) {
		uint8_t v = lens[i];
		size_t run = 1;

		while (i + run < n && lens[i + run] == v)
			run++;
		i += run;
		if (v == 0) {
			while (run >= 11) {
				size_t r = run < 138 ? run : 138;

				sym[k] = 18, extra[k++] = (uint8_t)(r - 11);
				run -= r;
			}
			if (run >= 3) {
				sym[k] = 17, extra[k++] = (uint8_t)(run - 3);
				run = 0;
			}
		} else {
			sym[k] = v, extra[k++] = 0;
			run--;
			while (run >= 3) {
				size_t r = run < 6 ? run : 6;

				sym[k] = 16, extra[k++] = (uint8_t)(r - 3);
				run -= r;
			}
		}
		while (run-- > 0)
			sym[k] = v, extra[k++] = 0;
	}
	return k;
}

void rpng_deflate_end_block(struct rpng_deflate *z, int final)
{
	static const uint8_t cl_bits[NCL] = { [16] = 2, [17] = 3, [18] = 7 };
	uint32_t *freq = z->freq, clfreq[NCL] = { 0 };
	uint8_t litlen[NLIT], lens[NLIT + 2], clsym[NLIT + 2], clextra[NLIT + 2], cllen[NCL];
	uint16_t litcode[NLIT], clcode[NCL];
	size_t nt, ncl;
	int hlit = NLIT, hclen = NCL;

	emit_zeros(z, z->zrun);
	z->zrun = 0;
	nt = z->ntok;
	freq[256] = 1;            /* end of block */
	huff_lengths(freq, NLIT, 15, litlen);
	huff_codes(litlen, NLIT, litcode);
	while (hlit > 257 && litlen[hlit - 1] == 0)
		hlit--;
	/* Distances: only 1 is used; two codes of one bit keep it complete. */
	memcpy(lens, litlen, (size_t)hlit);
	lens[hlit] = 1;
	lens[hlit + 1] = 1;
	ncl = cl_encode(lens, (size_t)hlit + 2, clsym, clextra);
	for (size_t i = 0; i < ncl; i++)
		clfreq[clsym[i]]++;
	huff_lengths(clfreq, NCL, 7, cllen);
	huff_codes(cllen, NCL, clcode);
	while (hclen > 4 && cllen[cl_order[hclen - 1]] == 0)
		hclen--;

	/* Header, code lengths, at most 21 bits (15, 5 extra, 1 distance)
	 * a token, and a token stands for at least one byte. */
	reserve(z, 3 * nt + 1024);
	put_bits(z, final ? 1 : 0, 1);
	put_bits(z, 2, 2);        /* dynamic Huffman codes */
	put_bits(z, (uint32_t)(hlit - 257), 5);
	put_bits(z, 2 - 1, 5);
	put_bits(z, (uint32_t)(hclen - 4), 4);
	for (int i = 0; i < hclen; i++)
		put_bits(z, cllen[cl_order[i]], 3);
	for (size_t i = 0; i < ncl; i++) {
		put_bits(z, clcode[clsym[i]], cllen[clsym[i]]);
		if (cl_bits[clsym[i]])
			put_bits(z, clextra[i], cl_bits[clsym[i]]);
	}
	for (size_t i = 0; i < nt; i++) {
		unsigned t = z->tok[i];

		if (t < 256) {
			put_bits(z, litcode[t], litlen[t]);
		} else {
			unsigned m = t - 256, c = z->lsym[m];

			put_bits(z, litcode[257 + c], litlen[257 + c]);
			if (len_extra[c])
				put_bits(z, m - len_base[c], len_extra[c]);
			put_bits(z, 0, 1); /* distance code 0: distance 1 */
		}
	}
	put_bits(z, litcode[256], litlen[256]);
	if (final)
		flush_bits(z);
	z->ntok = 0;
	memset(z->freq, 0, sizeof z->freq);
}

void rpng_deflate_block(struct rpng_deflate *z, const uint8_t *d, size_t n, int final)
{
	rpng_deflate_bytes(z, d, n);
	rpng_deflate_end_block(z, final);
}

void rpng_deflate_sync(struct rpng_deflate *z)
{
	reserve(z, 16);
	put_bits(z, 0, 3);        /* not final, stored */
	flush_bits(z);
	z->out[z->len++] = 0x00;
	z->out[z->len++] = 0x00;
	z->out[z->len++] = 0xFF;
	z->out[z->len++] = 0xFF;
}

uint32_t rpng_deflate_adler(const struct rpng_deflate *z)
{
	return (uint32_t)((z->s2 % ADLER_MOD) << 16 | (z->s1 % ADLER_MOD));
}

uint8_t *rpng_deflate_detach(struct rpng_deflate *z, size_t *len)
{
	/* A copy the size of the data: the buffer, sized for the worst case,
	 * stays for the next stream (growing a fresh one each time cost more
	 * in page faults than the copy). */
	uint8_t *out = xmalloc(z->len ? z->len : 1);

	memcpy(out, z->out, z->len);
	*len = z->len;
	z->len = 0;
	z->bits = 0;
	z->nbits = 0;
	z->s1 = 1;
	z->s2 = z->budget = 0;
	return out;
}
