/* test_progress.c: what the first points of a run say of the estimate
 * made before them (progress_revise), and the progress line's count. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "cli/progress.h"

Test(progress, too_little_known_revises_nothing)
{
	double p = -1;

	cr_assert_eq(progress_revise(44, 0, 0, 162, &p), 0, "no point yet");
	cr_assert_eq(progress_revise(44, 60, 2, 162, &p), 0, "two points of 162");
	cr_assert_eq(progress_revise(44, 1, 10, 162, &p), 0, "one second");
	cr_assert_eq(progress_revise(0, 60, 10, 162, &p), 0, "no estimate");
}

/* The man page's io-threads example: estimated 44 s, its first 20
 * points took 100 s. */
Test(progress, a_slow_start_revises_the_estimate)
{
	double p = 0;

	cr_assert_eq(progress_revise(44, 100, 20, 162, &p), 1);
	cr_assert_float_eq(p, 810, 1e-9);
}

Test(progress, within_half_says_nothing_faster_by_more_says_so)
{
	double p = 0;

	cr_assert_eq(progress_revise(100, 12, 10, 100, &p), 0, "120 s for 100 is near enough");
	cr_assert_eq(progress_revise(100, 4, 10, 100, &p), 1, "40 s for 100 is not");
	cr_assert_float_eq(p, 40, 1e-9);
	/* A tenth of a small plan is enough points. */
	cr_assert_eq(progress_revise(10, 30, 2, 20, &p), 1);
}

/* With --runs the caller counts the job: the line says [i/N] of the job,
 * and a pause between runs (past and ahead) is not a point's time. */
Test(progress, the_line_counts_the_job_and_leaves_pauses_out)
{
	char buf[512] = "";
	FILE *fp = fmemopen(buf, sizeof buf, "w");
	struct progress p;

	cr_assert_not_null(fp);
	progress_init(&p, fp, 0);
	p.start -= 100;           /* 100 s ago */
	p.paused = 90;            /* of which 90 a pause */
	p.ahead = 20;             /* and a pause to come */
	progress_point(&p, 10, 30, "GET", 4, 1000);
	fclose(fp);
	/* 10 s for 10 points: 20 more points, 20 s, and the pause's 20. */
	cr_assert(strstr(buf, "[10/30] GET P=4") != NULL, "%s", buf);
	cr_assert(strstr(buf, "eta 0m40s") != NULL, "%s", buf);
}
