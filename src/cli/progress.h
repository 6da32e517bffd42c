/* progress.h: the progress line on stderr.
 *
 * On a terminal one live line is redrawn: point i of N, test, depth, last
 * rps, elapsed and ETA.  Elsewhere (a log, CI) each point gets one plain
 * line.  Quiet keeps nothing.  One struct progress serves a whole job: with
 * --runs, i and N count every run's points, and the clock runs from the
 * job's start, so the ETA covers what is left of the job. */
#ifndef RS_PROGRESS_H
#define RS_PROGRESS_H

#include <stddef.h>
#include <stdio.h>

struct progress {
	FILE *fp;
	int tty;
	int quiet;
	double start;             /* monotonic seconds */
	int drawn;                /* a live line is on screen */
	/* Waits that are no point's (--run-pause): those past, left out of
	 * the rate the ETA learns, and those ahead, added to it. */
	double paused, ahead;
};

void progress_init(struct progress *p, FILE *fp, int quiet);
void progress_point(struct progress *p, size_t i, size_t n, const char *test, unsigned depth,
		    double rps);
/* Print a note on its own line (a live line is cleared first). */
void progress_note(struct progress *p, const char *msg);
/* Seconds since progress_init. */
double progress_elapsed(const struct progress *p);
/* The end summary, printed even when quiet: points run (over runs runs,
 * named when more than one), wall seconds since progress_init and timed
 * seconds, error replies, where the rows went (NULL: nowhere). */
void progress_summary(struct progress *p, size_t points, unsigned runs, double timed,
		      long long errors, const char *output);
/* Clear the live line. */
void progress_end(struct progress *p);

/* What the first points say of an estimate made before them: the whole
 * job's seconds projected from i of n points done in elapsed seconds into
 * *projected.  Returns 1 when that is worth saying, once enough is known
 * (at least PROGRESS_LEARN_POINTS points, or a tenth of them, and
 * PROGRESS_LEARN_SECONDS), and the projection is off the estimate by more
 * than half of it either way; else 0.  No clock: the caller's figures. */
#define PROGRESS_LEARN_POINTS 5
#define PROGRESS_LEARN_SECONDS 3.0
int progress_revise(double estimate, double elapsed, size_t i, size_t n, double *projected);

/* s seconds as "1h02m" or "3m05s" into buf. */
void progress_hms(char *buf, size_t size, double s);

#endif
