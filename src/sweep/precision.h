/* precision.h: adaptive repeats, for `rsweep run --precision`.
 *
 * After the plan's points, the sweep asks which points to measure again:
 * those whose median is not yet known to within the target (the half-width
 * of its 95% interval, relative to the median, from knee_analyse: a point's
 * own repeats from 10 on, before that its series' noise pooled across
 * depths).  Each round measures every such point once more, in shuffled
 * order, until none is left, a point reaches the most repeats allowed, or
 * the run's time budget is spent.  A series that is quiet needs no extra
 * repeats and gets none; a noisy one gets them where they narrow its
 * intervals: that is how it measures fewer points than a uniform --repeat
 * K that must be chosen for the noisiest series.  Pure: no I/O. */
#ifndef RS_PRECISION_H
#define RS_PRECISION_H

#include <stddef.h>
#include <stdint.h>

#include "base/depths.h"
#include "base/err.h"

struct precision_cell {
	double *v;                /* rps of each repeat measured, in the order
				   * added */
	unsigned *rep;            /* [n]: each one's repeat number */
	size_t n, cap, rcap;
	unsigned last;            /* the highest repeat number seen */
};

struct precision {
	size_t ntests, ndepths;
	unsigned *depth;          /* [ndepths], ascending, distinct */
	struct precision_cell *cells; /* [ntests * ndepths] */
};

/* One point to measure again. */
struct precision_pick {
	size_t test;
	unsigned depth;
	unsigned repeat;          /* the repeat number it will be: one past the
				   * highest seen (a file resumed with gaps
				   * in its repeats gets no duplicate) */
	double width;             /* its relative half-width now (NAN: unknown) */
};

/* Cells for ntests tests at the depths of d (in any order, repeated depths
 * once). */
void precision_init(struct precision *p, size_t ntests, const struct depth_list *d);
void precision_free(struct precision *p);
/* One measured point: test index, depth, its repeat number and its rps.
 * A depth outside the list, or an rps that is not finite and positive, is
 * not counted (its repeat number still is). */
void precision_add(struct precision *p, size_t test, unsigned depth, unsigned repeat, double rps);

/* What precision_next found besides the picks. */
struct precision_state {
	double worst;             /* widest relative half-width (NAN: one unknown) */
	size_t over;              /* points wider than the target (or unknown),
				   * picked or at max_repeats already */
};

/* The points to measure next, into *out (malloc'd, the caller frees it;
 * NULL when none): each point whose relative half-width is above target
 * (0.03 for 3%) or unknown, and that has fewer than max_repeats repeats.
 * A series with a depth not measured yet is left for the plan to finish.
 * Returns how many, or -1 (err set) if the analysis fails. */
long precision_next(const struct precision *p, double target, unsigned max_repeats,
		    uint64_t seed, struct precision_pick **out, struct precision_state *st,
		    struct rs_err *err);

/* Shuffle v[0..n) in place, the same order for the same seed: a round's
 * picks (precision_next's, decide_next's) are measured in it, as the plan
 * is, so that drift hits every point of a round alike. */
void precision_shuffle(struct precision_pick *v, size_t n, uint64_t seed);

#endif
