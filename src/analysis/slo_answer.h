/* slo_answer.h: what the rows of a run --slo search say (slo.h in the
 * sweep): per label, test, setting and depth, the highest offered rate
 * that met the objective, the bracket it lies in and its percentile; and
 * which depth sustains the most.
 *
 * From the rows alone (their slo, slo_phase, slo_verdict and slo_*ms
 * columns), so that a report of a file, a resumed file or several files
 * says what the run said. */
#ifndef RS_SLO_ANSWER_H
#define RS_SLO_ANSWER_H

#include <stddef.h>

#include "results/row.h"

/* One depth's answer. */
struct slo_depth {
	unsigned depth;
	double start_rps;         /* the closed-loop probe's (the highest); NAN: none */
	double met;               /* the highest rate that met it; 0: none did */
	double missed;            /* the lowest rate above met that did not; 0: none */
	double ms, lo_ms, hi_ms;  /* the judged percentile at met, its 95% interval */
	double generator;         /* the rate whose probe the generator limited; 0: none */
	double slip_p99_ms;       /* that probe's slip */
	unsigned probes;          /* open-loop probes */
	unsigned unsure;          /* of them unsure */
};

/* A series' search: one label, test and combination of settings. */
struct slo_group {
	const char *label, *test, *slo; /* the rows' (live as long as they) */
	const char *server_args;  /* the spawned server's arguments: --spawn-args A|B are two */
	int32_t clients, data_size;
	int16_t threads;
	int axes;                 /* other groups of the label and test differ in settings */
	struct slo_depth *d;      /* by depth, ascending */
	size_t nd;
	size_t best;              /* index into d of the highest met; nd: none met */
	size_t second;            /* the runner-up; nd: none */
};

struct slo_answers {
	struct slo_group *v;
	size_t n;
};

/* The searches rows hold, in the order their labels and tests first
 * appear; none (n 0) when no row is a search's.  slo_answers_free it. */
void slo_answers_find(const struct rs_rows *rows, struct slo_answers *out);
void slo_answers_free(struct slo_answers *a);

/* Drop the searches' open-loop probes from rows (in place, file order
 * kept), so that the analyses of depth series see the closed-loop
 * starts, not a series a probed rate.  Returns how many were dropped. */
size_t slo_rows_drop_probes(struct rs_rows *rows);

#endif
