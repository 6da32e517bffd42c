/* progress.h: the progress line on stderr.
 *
 * On a terminal one live line is redrawn: point i of N, test, depth, last
 * rps, elapsed and ETA.  Elsewhere (a log, CI) each point gets one plain
 * line.  Quiet keeps nothing. */
#ifndef RS_PROGRESS_H
#define RS_PROGRESS_H

#include <stdio.h>

struct progress {
	FILE *fp;
	int tty;
	int quiet;
	double start;             /* monotonic seconds */
	int drawn;                /* a live line is on screen */
};

void progress_init(struct progress *p, FILE *fp, int quiet);
void progress_point(struct progress *p, size_t i, size_t n, const char *test, unsigned depth,
		    double rps);
/* Print a note on its own line (a live line is cleared first). */
void progress_note(struct progress *p, const char *msg);
/* The end summary, printed even when quiet: points run, wall and timed
 * seconds, error replies, where the rows went (NULL: nowhere). */
void progress_summary(struct progress *p, size_t points, double timed, long long errors,
		      const char *output);
/* Clear the live line. */
void progress_end(struct progress *p);

#endif
