/* test_histfile.c: the histogram sidecar of a results CSV: what it keeps,
 * the last line of a key wins, bad input named by file and line. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/infile.h"
#include "results/csv.h"
#include "results/histfile.h"

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
	struct csv_out o;
	char *buf;
	size_t len;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(csv, sizeof csv, "%s/r.csv", dir);
	snprintf(side, sizeof side, "%s%s", csv, HISTFILE_SUFFIX);
	cr_assert_eq(csv_out_open(&o, csv, 0, 0, NULL, &err), 0, "%s", err.msg);
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
		row.rps = 1000;
		cr_assert_eq(histfile_append(&o, &row, &h[r], &err), 0, "%s", err.msg);
		cr_assert_eq(csv_out_append(&o, &row, &err), 0, "%s", err.msg);
	}
	csv_out_close(&o);
	cr_assert_eq(infile_slurp(side, 1 << 24, &buf, &len, &err), 0, "%s", err.msg);
	hist_init(&s.merged);
	cr_assert_eq(histfile_parse(buf, len, side, keep, &s, &err), 0, "%s", err.msg);
	cr_assert_eq(s.n, 3);
	cr_assert_str_eq(s.labels[0], "a,\"b\"");
	cr_assert_eq(s.counts[2], h[2].count);
	cr_assert(hist_equal(&s.merged, &all), "the repeats do not merge into all their samples");
	free(buf);
	unlink(side);
	unlink(csv);
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

/* A NUL anywhere in a line is one error for report and plot alike: read
 * as a C string a label "v\0m" became "v", and its row silently had no
 * histogram. */
Test(histfile, a_nul_byte_is_refused_wherever_it_is)
{
	static const char line[] = "vm,GET,4,lockstep,,,1,2026-01-01T00:00:00Z,v1 0 0 0 0\n";
	char text[256];

	for (size_t at = 0; at + 1 < sizeof line - 1; at++) {
		static struct seen s;
		struct rs_err err = { 0 };
		size_t hl = strlen(HISTFILE_HEADER) + 1;

		memcpy(text, HISTFILE_HEADER "\n", hl);
		memcpy(text + hl, line, sizeof line - 1);
		text[hl + at] = '\0';
		memset(&s, 0, sizeof s);
		cr_assert_eq(histfile_parse(text, hl + sizeof line - 1, "f.hist", keep, &s, &err), -1,
			     "NUL at %zu accepted", at);
		cr_assert_not_null(strstr(err.msg, "f.hist:2: a NUL byte"), "%zu: '%s'", at, err.msg);
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

/* ---- the sidecar is written only under the CSV's lock, and kept in step
 * with it ---- */

struct place {
	char dir[40], csv[64], side[80];
};

static void place_make(struct place *p)
{
	snprintf(p->dir, sizeof p->dir, "/tmp/rsweep-histfile-XXXXXX");
	cr_assert_not_null(mkdtemp(p->dir));
	snprintf(p->csv, sizeof p->csv, "%s/r.csv", p->dir);
	snprintf(p->side, sizeof p->side, "%s%s", p->csv, HISTFILE_SUFFIX);
}

static void place_rm(struct place *p)
{
	unlink(p->side);
	unlink(p->csv);
	rmdir(p->dir);
}

static void one_row(struct rs_row *row, unsigned p, unsigned rep)
{
	row_init(row);
	snprintf(row->label, sizeof row->label, "a");
	snprintf(row->test, sizeof row->test, "GET");
	snprintf(row->mode, sizeof row->mode, "lockstep");
	row->pipeline = p;
	row->repeat = rep;
	row->rps = 1000;
}

/* The sidecar's lines, header included; -1 when there is no file. */
static long side_lines(const char *side)
{
	struct rs_err err;
	char *buf;
	size_t len;
	long n = 0;

	if (infile_slurp(side, 1 << 24, &buf, &len, &err) < 0)
		return -1;
	for (size_t i = 0; i < len; i++)
		n += buf[i] == '\n';
	free(buf);
	return n;
}

/* The sidecar read as histfile_parse reads it: its number of lines, or -1
 * with the reason in why. */
static long side_parsed(const char *side, struct rs_err *why)
{
	static struct seen s;
	char *buf;
	size_t len;
	int rc;

	memset(&s, 0, sizeof s);
	if (infile_slurp(side, 1 << 24, &buf, &len, why) < 0)
		return -1;
	rc = histfile_parse(buf, len, side, keep, &s, why);
	free(buf);
	return rc < 0 ? -1 : (long)s.n;
}

/* Two runs that both found the -o path free: the second is refused when it
 * makes the CSV, before it writes its histogram beside the first run's
 * row. */
Test(histfile, a_second_run_making_the_same_file_writes_no_line)
{
	static struct hist h;
	struct place pl;
	struct csv_out a, b;
	struct rs_row row;
	struct rs_err err = { 0 };

	place_make(&pl);
	hist_init(&h);
	hist_record_n(&h, 1000, 10);
	cr_assert_eq(csv_out_open(&a, pl.csv, 0, 0, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(csv_out_open(&b, pl.csv, 0, 0, NULL, &err), 0, "%s", err.msg);
	one_row(&row, 1, 1);
	cr_assert_eq(histfile_append(&a, &row, &h, &err), 0, "%s", err.msg);
	cr_assert_eq(csv_out_append(&a, &row, &err), 0, "%s", err.msg);
	cr_assert_eq(histfile_append(&b, &row, &h, &err), -1);
	cr_assert_not_null(strstr(err.msg, "created by another process"), "%s", err.msg);
	cr_assert_eq(side_lines(pl.side), 2, "the refused run wrote into the sidecar");
	csv_out_close(&a);
	csv_out_close(&b);
	place_rm(&pl);
}

/* A new CSV, or --overwrite: the sidecar left from before holds nothing of
 * the new rows and is emptied with the CSV; a run that writes no row
 * changes neither. */
Test(histfile, overwrite_empties_the_sidecar_with_the_csv)
{
	static struct hist h;
	struct place pl;
	struct csv_out o;
	struct rs_row row;
	struct rs_err err = { 0 };

	place_make(&pl);
	hist_init(&h);
	hist_record_n(&h, 1000, 10);
	cr_assert_eq(csv_out_open(&o, pl.csv, 0, 0, NULL, &err), 0, "%s", err.msg);
	for (unsigned r = 1; r <= 3; r++) {
		one_row(&row, 1, r);
		cr_assert_eq(histfile_append(&o, &row, &h, &err), 0, "%s", err.msg);
		cr_assert_eq(csv_out_append(&o, &row, &err), 0, "%s", err.msg);
	}
	csv_out_close(&o);
	cr_assert_eq(side_lines(pl.side), 4);
	/* Opened with --overwrite, closed before a row: nothing changes. */
	cr_assert_eq(csv_out_open(&o, pl.csv, 0, 1, NULL, &err), 0, "%s", err.msg);
	csv_out_close(&o);
	cr_assert_eq(side_lines(pl.side), 4);
	cr_assert_eq(csv_out_open(&o, pl.csv, 0, 1, NULL, &err), 0, "%s", err.msg);
	one_row(&row, 1, 1);
	cr_assert_eq(histfile_append(&o, &row, &h, &err), 0, "%s", err.msg);
	cr_assert_eq(csv_out_append(&o, &row, &err), 0, "%s", err.msg);
	csv_out_close(&o);
	cr_assert_eq(side_lines(pl.side), 2, "--overwrite kept the old histograms");
	/* The CSV removed by hand, its sidecar left: a new CSV starts it anew. */
	unlink(pl.csv);
	cr_assert_eq(csv_out_open(&o, pl.csv, 0, 0, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(histfile_append(&o, &row, &h, &err), 0, "%s", err.msg);
	csv_out_close(&o);
	cr_assert_eq(side_lines(pl.side), 2, "a new CSV kept an old sidecar's lines");
	place_rm(&pl);
}

/* A crash's half last line in the sidecar (and its CSV's) is cut back
 * before the next line, which would otherwise be glued to it. */
Test(histfile, a_torn_last_line_is_cut_back_before_the_next)
{
	static struct hist h;
	struct place pl;
	struct csv_out o;
	struct rs_rows existing = { 0 };
	struct rs_row row;
	struct rs_err err = { 0 };
	FILE *fp;

	place_make(&pl);
	hist_init(&h);
	hist_record_n(&h, 1000, 10);
	cr_assert_eq(csv_out_open(&o, pl.csv, 0, 0, NULL, &err), 0, "%s", err.msg);
	one_row(&row, 1, 1);
	cr_assert_eq(histfile_append(&o, &row, &h, &err), 0, "%s", err.msg);
	cr_assert_eq(csv_out_append(&o, &row, &err), 0, "%s", err.msg);
	csv_out_close(&o);
	cr_assert_not_null(fp = fopen(pl.side, "a"));
	fputs("a,GET,2,lockstep,,,1,2026-01-01T00:00:00Z,v1 10 ", fp);
	fclose(fp);
	cr_assert_eq(csv_out_open(&o, pl.csv, 1, 0, &existing, &err), 0, "%s", err.msg);
	one_row(&row, 2, 1);
	cr_assert_eq(histfile_append(&o, &row, &h, &err), 0, "%s", err.msg);
	cr_assert_eq(csv_out_append(&o, &row, &err), 0, "%s", err.msg);
	csv_out_close(&o);
	rows_free(&existing);
	cr_assert_eq(side_parsed(pl.side, &err), 2, "%s", err.msg);
	cr_assert_eq(side_lines(pl.side), 3);
	place_rm(&pl);
}

/* The sidecar's name is not one the user chose: a link there is not
 * written through, a FIFO or a directory not opened, a file that is not a
 * sidecar not added to; each is refused as bad input, nothing changed. */
Test(histfile, a_sidecar_that_is_not_ours_is_refused)
{
	static struct hist h;
	static const char *const why[] = { "symbolic link", "not a regular file (a FIFO)",
					   "not a regular file (a directory)",
					   "not an rsweep histogram file" };
	struct rs_row row;

	hist_init(&h);
	hist_record_n(&h, 1000, 10);
	for (int k = 0; k < 4; k++) {
		struct place pl;
		struct csv_out o;
		struct rs_err err = { 0 };
		char victim[96];
		FILE *fp;

		place_make(&pl);
		snprintf(victim, sizeof victim, "%s/victim", pl.dir);
		cr_assert_not_null(fp = fopen(victim, "w"));
		fputs("precious\n", fp);
		fclose(fp);
		if (k == 0)
			cr_assert_eq(symlink(victim, pl.side), 0);
		else if (k == 1)
			cr_assert_eq(mkfifo(pl.side, 0600), 0);
		else if (k == 2)
			cr_assert_eq(mkdir(pl.side, 0700), 0);
		else
			cr_assert_eq(rename(victim, pl.side), 0);
		cr_assert_eq(histfile_check(pl.csv, &err), -1, "%d", k);
		cr_assert_not_null(strstr(err.msg, why[k]), "%d: %s", k, err.msg);
		cr_assert_eq(err.kind, RS_E_INPUT, "%d", k);
		cr_assert_eq(csv_out_open(&o, pl.csv, 0, 0, NULL, &err), 0, "%s", err.msg);
		one_row(&row, 1, 1);
		cr_assert_eq(histfile_append(&o, &row, &h, &err), -1, "%d", k);
		cr_assert_not_null(strstr(err.msg, why[k]), "%d: %s", k, err.msg);
		csv_out_close(&o);
		if (k == 0)
			cr_assert_eq(side_lines(victim), 1, "written through the link");
		else if (k == 3)
			cr_assert_eq(side_lines(pl.side), 1, "added to a file not ours");
		unlink(victim);
		if (k == 2)
			rmdir(pl.side);
		place_rm(&pl);
	}
}
