/* test_hdrlog.c: HdrHistogram's V2 compressed histograms read into
 * rsweep's (issue 31): rsweep's own hlog encoding comes back bucket for
 * bucket; a real memtier_benchmark --hdr-file-prefix log gives the counts
 * and percentiles memtier's own percentile text printed; bad input is
 * refused with a reason. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/hdrlog.h"
#include "results/hist.h"
#include "stats/stats.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long n;

	cr_assert_not_null(fp, "%s", path);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	cr_assert_eq(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = '\0';
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

Test(hdrlog, rsweeps_own_encoding_comes_back_bucket_for_bucket)
{
	static struct hist h, back;
	struct stats_rng r;
	struct sbuf b64;
	struct rs_err err = { 0 };

	hist_init(&h);
	stats_rng_seed(&r, 9);
	for (int i = 0; i < 100000; i++)
		hist_record_n(&h, (uint64_t)(80000 * exp(1.1 * stats_rng_normal(&r))), 1);
	hist_record_n(&h, 5, 3);
	sbuf_heap(&b64);
	hdrlog_encode(&h, &b64);
	hist_init(&back);
	cr_assert_eq(hdrlog_decode(b64.s, b64.len, 1.0, &back, &err), 0, "%s", err.msg);
	cr_assert_eq(back.count, h.count);
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		cr_assert_eq(back.bucket[i], h.bucket[i], "bucket %u", i);
	free(b64.s);
}

/* The percentile memtier's .txt gives at level pct, ms. */
static double txt_value(const char *txt, double pct)
{
	char want[32];
	const char *p;

	snprintf(want, sizeof want, " %.6f ", pct / 100);
	p = strstr(txt, want);
	cr_assert_not_null(p, "no %s line", want);
	while (p > txt && p[-1] != '\n')
		p--;
	return strtod(p, NULL);
}

Test(hdrlog, memtiers_log_holds_what_its_text_printed)
{
	static struct hist h;
	size_t len, tlen;
	char *log = slurp(RS_TOP_SRCDIR "/tests/data/memtier/hdr-set16_SET_command_run_1.hgrm", &len);
	char *txt = slurp(RS_TOP_SRCDIR "/tests/data/memtier/hdr-set16_SET_command_run_1.txt", &tlen);
	struct rs_err err = { 0 };
	static const double levels[] = { 50, 90, 99.0625 };

	hist_init(&h);
	cr_assert_eq(hdrlog_read_first(log, len, "x.hgrm", 1000.0, &h, &err), 0, "%s", err.msg);
	/* -t 2 -c 4 -n 1000: 8000 SETs. */
	cr_assert_eq(h.count, 8000);
	for (size_t i = 0; i < sizeof levels / sizeof *levels; i++) {
		double ours = (double)hist_percentile(&h, levels[i]) / 1e6;
		double theirs = txt_value(txt, levels[i]);

		/* memtier prints 2 decimals of a ms; rsweep's buckets hold 1/128. */
		cr_assert(fabs(ours - theirs) <= 0.005 + theirs / 128, "p%g: %.4f ms, memtier %.2f",
			  levels[i], ours, theirs);
	}
	free(log);
	free(txt);
}

Test(hdrlog, bad_input_is_refused_with_a_reason)
{
	static struct hist h;
	struct rs_err err = { 0 };
	static const char *const bad[] = {
		"HISTFAAA!!!!",                   /* not base64 */
		"QUJDRA==",                       /* "ABCD": no cookie */
		"HISTFAAAAK94",                   /* a cookie, then too little */
	};

	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		hist_init(&h);
		cr_assert_eq(hdrlog_decode(bad[i], strlen(bad[i]), 1.0, &h, &err), -1, "%s", bad[i]);
		cr_assert_neq(err.msg[0], '\0');
		cr_assert_eq(h.count, 0);
	}
	cr_assert_eq(hdrlog_read_first("#[only a header]\n\"a\",\"b\"\n", 24, "x.hgrm", 1.0, &h, &err),
		     -1);
	cr_assert_str_eq(err.msg, "x.hgrm: no histogram");
	cr_assert_eq(hdrlog_read_first("0.1,0.2,3.0,QUJDRA==\n", 21, "x.hgrm", 1.0, &h, &err), -1);
	cr_assert(strncmp(err.msg, "x.hgrm:1: not a V2 compressed HdrHistogram", 42) == 0, "%s",
		  err.msg);
}
