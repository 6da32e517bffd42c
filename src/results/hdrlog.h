/* hdrlog.h: HdrHistogram's histograms as its logs hold them (the V2
 * compressed encoding, base64, the last field of an interval log's line:
 * what memtier_benchmark's --hdr-file-prefix .hgrm files and rsweep's own
 * export --format hlog write), read into rsweep's histogram.
 *
 * HdrHistogram's layout (lowest trackable value, significant digits) is the
 * file's own; each of its buckets' counts is recorded at the bucket's
 * middle, in ns (unit_ns: the file's value unit, 1000 for memtier's us),
 * so that a histogram of 3 digits keeps rsweep's 2 (within 1/128) and one
 * of rsweep's own comes back bucket for bucket; rsweep's own are written
 * by the same room.  It reads and writes buffers, never files, and prints
 * nothing. */
#ifndef RS_HDRLOG_H
#define RS_HDRLOG_H

#include <stddef.h>

#include "base/err.h"
#include "results/hist.h"
#include "base/sbuf.h"

/* h in HdrHistogram's V2 compressed encoding, before base64, into *out
 * (malloc'd); returns its length.  rsweep's buckets are HDR's counts for 2
 * significant digits, unit 1 ns, index for index (hdrlog.c). */
size_t hdrlog_encode_raw(const struct hist *h, unsigned char **out);
/* p[0..n) in base64 (RFC 4648, with padding), appended to b. */
void hdrlog_base64(const unsigned char *p, size_t n, struct sbuf *b);
/* h's V2 compressed encoding in base64, as a log line's last field,
 * appended to b. */
void hdrlog_encode(const struct hist *h, struct sbuf *b);

/* The base64 text b64[0..n) of one V2 compressed histogram, added to h
 * (hist_init it first).  Fails (err says why, no position) on bad base64,
 * another cookie (V0 and V1 encodings, uncompressed histograms), a
 * payload that does not inflate or runs past its length, a normalized
 * histogram, or a bucket past 2^62. */
int hdrlog_decode(const char *b64, size_t n, double unit_ns, struct hist *h, struct rs_err *err);

/* The first histogram of an interval log's text buf[0..len) (comment and
 * header lines skipped, then "[Tag=...,]START,LENGTH|END,MAX,HISTFAAA..."),
 * added to h.  Fails with "name:LINE: reason", or "name: no histogram". */
int hdrlog_read_first(const char *buf, size_t len, const char *name, double unit_ns,
		      struct hist *h, struct rs_err *err);

#endif
