/* test_latency.c: a point's percentile over its repeats is the percentile
 * of their merged histograms, with a bootstrap interval over repeats;
 * without a sidecar, the median of the repeats' figures, said once. */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/budget.h"
#include "results/csv.h"
#include "results/histfile.h"
#include "analysis/latency.h"
#include "base/sbuf.h"

struct place {
	char dir[40], csv[64], side[80];
};

/* Three repeats of GET P=1 (and one of P=2) whose p99s are 1, 1 and 100
 * ms: the median of those is 1 ms, the p99 of all their requests 100 ms.
 * side: write the sidecar; skip: leave repeat skip's line out of it. */
static void make(struct place *pl, int side, unsigned skip, struct hist *all)
{
	static struct hist h;
	struct sbuf b;
	FILE *fp;

	snprintf(pl->dir, sizeof pl->dir, "/tmp/rsweep-latency-XXXXXX");
	cr_assert_not_null(mkdtemp(pl->dir));
	snprintf(pl->csv, sizeof pl->csv, "%s/r.csv", pl->dir);
	snprintf(pl->side, sizeof pl->side, "%s%s", pl->csv, HISTFILE_SUFFIX);
	cr_assert_not_null(fp = fopen(pl->csv, "w"));
	/* started_at as in the sidecar's lines: it pairs them. */
	fputs("label,test,pipeline,repeat,rps,p99_ms,mode,started_at\n"
	      "a,GET,1,1,1000,1.0,lockstep,t\n"
	      "a,GET,1,2,1100,1.0,lockstep,t\n"
	      "a,GET,1,3,1200,100.0,lockstep,t\n"
	      "a,GET,2,1,1500,1.0,lockstep,t\n", fp);
	fclose(fp);
	hist_init(all);
	if (!side)
		return;
	sbuf_heap(&b);
	sbuf_printf(&b, "%s\n", HISTFILE_HEADER);
	for (unsigned r = 1; r <= 4; r++) {
		hist_init(&h);
		hist_record_n(&h, 1000000, r == 3 ? 900 : 990);
		hist_record_n(&h, 100000000, r == 3 ? 100 : 10);
		if (r <= 3)
			hist_merge(all, &h);
		if (r == skip)
			continue;
		sbuf_printf(&b, "a,GET,%u,lockstep,,,%u,t,", r == 4 ? 2 : 1, r == 4 ? 1 : r);
		hist_encode(&h, &b);
		sbuf_add(&b, "\n", 1);
	}
	cr_assert_not_null(fp = fopen(pl->side, "w"));
	fwrite(b.s, 1, b.len, fp);
	fclose(fp);
	free(b.s);
}

static void rm(struct place *pl)
{
	unlink(pl->side);
	unlink(pl->csv);
	rmdir(pl->dir);
}

/* Read pl's rows, their histograms, and the p99 and rps series. */
static void load(const struct place *pl, struct rs_rows *rows, struct latency_set *ls,
		 struct series_set *lat, struct series_set *rps, struct latency_points *pts)
{
	struct csv_info info;
	struct rs_err err = { 0 };

	memset(rows, 0, sizeof *rows);
	cr_assert_eq(csv_read_file(pl->csv, rows, &info, &err), 0, "%s", err.msg);
	cr_assert_eq(latency_load(rows, ls, &err), 0, "%s", err.msg);
	cr_assert_eq(series_build(rows, SM_P99, lat, &err), 0, "%s", err.msg);
	cr_assert_eq(series_build(rows, SM_RPS, rps, &err), 0, "%s", err.msg);
	cr_assert_eq(latency_apply(lat, rows, ls, pts), 0);
}

static void unload(struct rs_rows *rows, struct latency_set *ls, struct series_set *lat,
		   struct series_set *rps, struct latency_points *pts)
{
	latency_points_free(pts);
	latency_free(ls);
	series_set_free(lat);
	series_set_free(rps);
	rows_free(rows);
}

Test(latency, the_percentile_is_the_merged_histograms)
{
	static struct hist all;
	struct place pl;
	struct rs_rows rows;
	struct latency_set ls;
	struct series_set lat, rps;
	struct latency_points pts;
	const struct series_point *p;
	const struct latency_ci *ci;
	struct budget_pick *picks;
	char note[256];

	make(&pl, 1, 0, &all);
	load(&pl, &rows, &ls, &lat, &rps, &pts);
	cr_assert_eq(lat.n, 1);
	p = series_at(&lat.v[0], 1);
	ci = &pts.ci[pts.off[0] + 0];
	cr_assert_eq(ci->merged, 1);
	cr_assert_float_eq(p->median, (double)hist_percentile(&all, 99) / 1e6, 1e-9,
			   "%g ms, not the merged p99 (the repeats' median is 1 ms)", p->median);
	cr_assert(p->median > 90, "%g", p->median);
	cr_assert(ci->lo <= ci->est && ci->est <= ci->hi, "%g %g %g", ci->lo, ci->est, ci->hi);
	/* A resample without repeat 3 merges to 1 ms; one with it twice or
	 * more to 100 ms: the interval spans both. */
	cr_assert(ci->lo < 2 && ci->hi > 90, "%g-%g", ci->lo, ci->hi);
	cr_assert_eq(pts.merged, 2);
	cr_assert_eq(pts.fallback, 0);
	cr_assert_null(latency_note(&ls, &pts, "p99_ms", note, sizeof note));
	/* The budget decides on the merged figure: P=1 breaks 50 ms. */
	budget_find(&rps, &lat, &pts, 50, &picks);
	cr_assert_eq(picks[0].found, 1);
	cr_assert_eq(picks[0].depth, 2);
	cr_assert_eq(picks[0].lat_merged, 1);
	free(picks);
	unload(&rows, &ls, &lat, &rps, &pts);
	rm(&pl);
}

Test(latency, without_a_sidecar_the_median_of_the_repeats_and_a_note)
{
	static struct hist all;
	struct place pl;
	struct rs_rows rows;
	struct latency_set ls;
	struct series_set lat, rps;
	struct latency_points pts;
	char note[512];

	make(&pl, 0, 0, &all);
	load(&pl, &rows, &ls, &lat, &rps, &pts);
	cr_assert_float_eq(series_at(&lat.v[0], 1)->median, 1.0, 1e-9);
	cr_assert_eq(pts.ci[0].merged, 0);
	cr_assert_eq(pts.fallback, 2);
	cr_assert_not_null(latency_note(&ls, &pts, "p99_ms", note, sizeof note));
	cr_assert_not_null(strstr(note, "r.csv has no histogram sidecar (") , "%s", note);
	cr_assert_not_null(strstr(note, "2 of 2 points' p99_ms are medians"), "%s", note);
	unload(&rows, &ls, &lat, &rps, &pts);
	rm(&pl);
}

/* A repeat without its line: that point cannot be merged whole, so it
 * keeps the median; the other point is merged. */
Test(latency, a_point_missing_a_repeats_histogram_falls_back)
{
	static struct hist all;
	struct place pl;
	struct rs_rows rows;
	struct latency_set ls;
	struct series_set lat, rps;
	struct latency_points pts;
	char note[512];

	make(&pl, 1, 2, &all);
	load(&pl, &rows, &ls, &lat, &rps, &pts);
	cr_assert_float_eq(series_at(&lat.v[0], 1)->median, 1.0, 1e-9);
	cr_assert_eq(pts.merged, 1);
	cr_assert_eq(pts.fallback, 1);
	cr_assert_not_null(latency_note(&ls, &pts, "p99_ms", note, sizeof note));
	cr_assert_not_null(strstr(note, "1 of 2 points have rows without a histogram"), "%s", note);
	unload(&rows, &ls, &lat, &rps, &pts);
	rm(&pl);
}

/* A sidecar that is there but bad is an error naming file and line. */
Test(latency, a_bad_sidecar_is_named)
{
	static struct hist all;
	struct place pl;
	struct rs_rows rows = { 0 };
	struct latency_set ls;
	struct csv_info info;
	struct rs_err err = { 0 };
	FILE *fp;

	make(&pl, 1, 0, &all);
	cr_assert_not_null(fp = fopen(pl.side, "a"));
	fputs("a,GET,1,lockstep,,,1,t,v1 5\n", fp);
	fclose(fp);
	cr_assert_eq(csv_read_file(pl.csv, &rows, &info, &err), 0, "%s", err.msg);
	cr_assert_eq(latency_load(&rows, &ls, &err), -1);
	cr_assert_not_null(strstr(err.msg, "r.csv.hist:6: "), "%s", err.msg);
	rows_free(&rows);
	rm(&pl);
}

/* --relabel after the load: rows keep their histograms under a new label. */
Test(latency, histograms_survive_relabel)
{
	static struct hist all;
	struct place pl;
	struct rs_rows rows = { 0 };
	struct latency_set ls;
	struct series_set lat;
	struct latency_points pts;
	struct csv_info info;
	struct rs_err err = { 0 };

	make(&pl, 1, 0, &all);
	cr_assert_eq(csv_read_file(pl.csv, &rows, &info, &err), 0, "%s", err.msg);
	cr_assert_eq(latency_load(&rows, &ls, &err), 0, "%s", err.msg);
	cr_assert_eq(rows_relabel(&rows, "a=b", &err), 0, "%s", err.msg);
	cr_assert_eq(series_build(&rows, SM_P99, &lat, &err), 0, "%s", err.msg);
	cr_assert_eq(latency_apply(&lat, &rows, &ls, &pts), 0);
	cr_assert_str_eq(lat.v[0].label, "b");
	cr_assert_eq(pts.merged, 2);
	cr_assert(series_at(&lat.v[0], 1)->median > 90);
	latency_points_free(&pts);
	latency_free(&ls);
	series_set_free(&lat);
	rows_free(&rows);
	rm(&pl);
}
