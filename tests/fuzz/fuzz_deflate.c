/* fuzz_deflate.c: libFuzzer target for the PNG back-end's deflate encoder.
 *
 * Not a parser, but the one place rsweep writes a format by hand: whatever
 * the bytes, zlib must inflate exactly them back, and the Adler-32s must
 * agree.  The first byte picks how the input is cut into blocks and where
 * one encoder hands over to another (as the PNG writer's strips do); the
 * second whether blocks go in whole or, as the PNG filter hands them over,
 * as zero runs and small pieces. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fuzz.h"
#include "render/render_png_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rpng_deflate z;
	uint8_t *stream = NULL, *back;
	size_t len = 2, cut, block, pieces, pos = 0;
	uLong adler = adler32(0, NULL, 0), want;
	uLongf backlen;
	z_stream in;

	if (size == 0)
		return 0;
	block = 1 + (data[0] & 0x0F) * 37;     /* 1 .. 556 bytes a block */
	cut = (size_t)(data[0] >> 4) * 97 + 1; /* a new encoder every cut bytes */
	pieces = size > 1 ? data[1] % 9 : 0;   /* 0: whole blocks; else pieces of 1..8 */
	data += size > 1 ? 2 : 1;
	size -= size > 1 ? 2 : 1;
	/* Every block builds its codes and every encoder its buffer: at most
	 * 64 of each keeps a run fast. */
	if (size / block > 64)
		block = size / 64 + 1;
	if (size / cut > 64)
		cut = size / 64 + 1;
	stream = malloc(2);
	if (stream == NULL)
		abort();
	stream[0] = 0x78;
	stream[1] = 0x01;
	rpng_deflate_init(&z);
	do {
		size_t start = pos, end = pos + cut < size ? pos + cut : size, plen;
		uint8_t *piece;

		do {
			size_t n = end - pos < block ? end - pos : block;

			if (pieces) {
				/* As the PNG filter does: zero runs apart, the rest
				 * in small pieces. */
				for (size_t i = pos; i < pos + n;) {
					size_t k = i;

					if (data[i] == 0) {
						while (k < pos + n && data[k] == 0)
							k++;
						rpng_deflate_zeros(&z, k - i);
					} else {
						k = i + pieces < pos + n ? i + pieces : pos + n;
						rpng_deflate_bytes(&z, data + i, k - i);
					}
					i = k;
				}
				rpng_deflate_end_block(&z, pos + n == size);
			} else {
				rpng_deflate_block(&z, data + pos, n, pos + n == size);
			}
			pos += n;
		} while (pos < end);
		if (pos < size)
			rpng_deflate_sync(&z);
		adler = adler32_combine(adler, rpng_deflate_adler(&z), (z_off_t)(end - start));
		piece = rpng_deflate_detach(&z, &plen);
		stream = realloc(stream, len + plen + 4);
		if (stream == NULL)
			abort();
		memcpy(stream + len, piece, plen);
		len += plen;
		free(piece);
	} while (pos < size);
	rpng_deflate_free(&z);
	want = adler32(adler32(0, NULL, 0), data, (uInt)size);
	if (adler != want)
		abort();
	stream[len++] = (uint8_t)(adler >> 24);
	stream[len++] = (uint8_t)(adler >> 16);
	stream[len++] = (uint8_t)(adler >> 8);
	stream[len++] = (uint8_t)adler;

	/* zlib checks the Adler-32 in the stream too. */
	back = malloc(size + 1);
	if (back == NULL)
		abort();
	memset(&in, 0, sizeof in);
	if (inflateInit(&in) != Z_OK)
		abort();
	in.next_in = stream;
	in.avail_in = (uInt)len;
	in.next_out = back;
	in.avail_out = (uInt)size + 1;
	if (inflate(&in, Z_FINISH) != Z_STREAM_END)
		abort();
	backlen = in.total_out;
	if (in.avail_in != 0 || backlen != size || memcmp(back, data, size) != 0)
		abort();
	inflateEnd(&in);
	free(back);
	free(stream);
	return 0;
}
