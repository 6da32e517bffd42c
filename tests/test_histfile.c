/* test_histfile.c: the histogram sidecar of a results CSV: what it keeps,
 * the last line of a key wins, bad input named by file and line. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "histfile.h"

struct seen {
	size_t n;
	uint64_t counts[8];
	struct hist merged;
	char labels[8][ROW_STR];
};

static int keep(void *ud, const struct histfile_line *l, struct rs_err *err)
{
	struct seen *s = ud;

	(void)err;
	if (s->n < 8) {
		s->counts[s->n] = l->h.count;
		snprintf(s->labels[s->n], ROW_STR, "%s", l->key.label);
	}
	s->n++;
	hist_merge(&s->merged, &l->h);
	return 0;
}

Test(histfile, appended_lines_read_back_and_merge)
{
	char dir[] = "/tmp/rsweep-histfile-XXXXXX", csv[64], side[80];
	static struct hist h[3], all;
	static struct seen s;
	struct rs_row row;
	struct rs_err err = { 0 };
	char *buf;
	size_t len;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(csv, sizeof csv, "%s/r.csv", dir);
	snprintf(side, sizeof side, "%s%s", csv, HISTFILE_SUFFIX);
	hist_init(&all);
	for (unsigned r = 0; r < 3; r++) {
		hist_init(&h[r]);
		for (uint64_t v = 1000; v < 5000000; v = v * 3 / 2 + r)
			hist_record_n(&h[r], v, r + 1);
		hist_merge(&all, &h[r]);
		row_init(&row);
		snprintf(row.label, sizeof row.label, "a,\"b\"");  /* quoted in the file */
		snprintf(row.test, sizeof row.test, "GET");
		snprintf(row.mode, sizeof row.mode, "window");
		row.pipeline = 4;
		row.repeat = r + 1;
		row.rate_offered = r == 2 ? 50000 : NAN;
		cr_assert_eq(histfile_append(csv, &row, &h[r], &err), 0, "%s", err.msg);
	}
	cr_assert_eq(csv_slurp(side, 1 << 24, &buf, &len, &err), 0, "%s", err.msg);
	hist_init(&s.merged);
	cr_assert_eq(histfile_parse(buf, len, side, keep, &s, &err), 0, "%s", err.msg);
	cr_assert_eq(s.n, 3);
	cr_assert_str_eq(s.labels[0], "a,\"b\"");
	cr_assert_eq(s.counts[2], h[2].count);
	cr_assert(hist_equal(&s.merged, &all), "the repeats do not merge into all their samples");
	free(buf);
	unlink(side);
	rmdir(dir);
}

Test(histfile, bad_input_is_named_by_file_and_line)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "label,test\n", "f.hist:1: not an rsweep histogram file" },
		{ HISTFILE_HEADER "\na,GET,4,lockstep,,,1,t,v1 0 0 0 0,extra\n",
		  "f.hist:2: 10 fields, the header has 9" },
		{ HISTFILE_HEADER "\na,GET,0,lockstep,,,1,t,v1 0 0 0 0\n", "f.hist:2: pipeline: " },
		{ HISTFILE_HEADER "\na,GET,4,lockstep,,,1,t,v1 1 5 5 5\n",
		  "f.hist:2: histogram: its buckets hold 0 values, COUNT says 1" },
		{ "", "f.hist: empty" },
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		static struct seen s;
		struct rs_err err = { 0 };

		memset(&s, 0, sizeof s);
		cr_assert_eq(histfile_parse(bad[i].text, strlen(bad[i].text), "f.hist", keep, &s, &err),
			     -1, "%zu", i);
		cr_assert_not_null(strstr(err.msg, bad[i].why), "%zu: '%s'", i, err.msg);
	}
}

/* A crash's half line at the end: its row was never written, so it is
 * ignored. */
Test(histfile, a_half_last_line_is_ignored)
{
	static struct seen s;
	const char *text = HISTFILE_HEADER "\na,GET,4,lockstep,,,1,t,v1 0 0 0 0\na,GET,8,lock";
	struct rs_err err = { 0 };

	cr_assert_eq(histfile_parse(text, strlen(text), "f.hist", keep, &s, &err), 0, "%s", err.msg);
	cr_assert_eq(s.n, 1);
}
