/* progress.c: one live progress line on a terminal, plain lines elsewhere. */
#include "config.h"

#include <time.h>
#include <unistd.h>

#include "cli/progress.h"

static double progress_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_hms(char *buf, size_t size, double s)
{
	unsigned long t = (unsigned long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, size, "%luh%02lum", t / 3600, t / 60 % 60);
	else
		snprintf(buf, size, "%lum%02lus", t / 60, t % 60);
}

void progress_init(struct progress *p, FILE *fp, int quiet)
{
	p->fp = fp;
	p->tty = isatty(fileno(fp));
	p->quiet = quiet;
	p->start = progress_now();
	p->drawn = 0;
	p->paused = p->ahead = 0;
}

void progress_point(struct progress *p, size_t i, size_t n, const char *test, unsigned depth,
		    double rps)
{
	double el = progress_now() - p->start;
	char elapsed[32], eta[32];

	if (p->quiet)
		return;
	progress_hms(elapsed, sizeof elapsed, el);
	progress_hms(eta, sizeof eta, i ? (el - p->paused) / (double)i * (double)(n - i) + p->ahead :
		     0);
	if (p->tty) {
		fprintf(p->fp, "\r\033[K[%zu/%zu] %s P=%u: %.0f rps  elapsed %s  eta %s", i, n, test,
			depth, rps, elapsed, eta);
		p->drawn = 1;
	} else {
		fprintf(p->fp, "[%zu/%zu] %s P=%u: %.2f rps (elapsed %s, eta %s)\n", i, n, test, depth,
			rps, elapsed, eta);
	}
	fflush(p->fp);
}

void progress_note(struct progress *p, const char *msg)
{
	progress_end(p);
	fprintf(p->fp, "rsweep: %s\n", msg);
	fflush(p->fp);
}

void progress_end(struct progress *p)
{
	if (p->drawn) {
		fprintf(p->fp, "\r\033[K");
		fflush(p->fp);
		p->drawn = 0;
	}
}

double progress_elapsed(const struct progress *p)
{
	return progress_now() - p->start;
}

int progress_revise(double estimate, double elapsed, size_t i, size_t n, double *projected)
{
	if (i == 0 || n == 0 || !(estimate > 0) || elapsed < PROGRESS_LEARN_SECONDS ||
	    (i < PROGRESS_LEARN_POINTS && i * 10 < n))
		return 0;
	*projected = elapsed / (double)i * (double)n;
	return *projected > 1.5 * estimate || *projected < 0.5 * estimate;
}

void progress_summary(struct progress *p, size_t points, unsigned runs, double timed,
		      long long errors, const char *output)
{
	double wall = progress_now() - p->start;
	char w[32], r[32] = "";

	progress_end(p);
	progress_hms(w, sizeof w, wall);
	if (runs > 1)
		snprintf(r, sizeof r, " (%u runs)", runs);
	fprintf(p->fp, "rsweep: %zu point%s%s in %s (%.1f s timed, %.0f%% of the wall time), %lld "
		"error repl%s%s%s\n", points, points == 1 ? "" : "s", r, w, timed,
		wall > 0 ? 100 * timed / wall : 0, errors, errors == 1 ? "y" : "ies",
		output ? "; rows in " : "", output ? output : "");
	fflush(p->fp);
}
