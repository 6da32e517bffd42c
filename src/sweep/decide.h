/* decide.h: which points of a comparison to measure again, for
 * `rsweep run --until-decided`.
 *
 * Two targets or more measured in one run, their points interleaved: each
 * target's point is compared with the same test and depth of its
 * baseline (the first target) by the report's own rule at one depth
 * (analysis_point_ratio): the ratio of the medians with knee_compare_at's
 * interval, from each side's knee_analyse result, and where that gives
 * none the paired repeats' (knee_compare_repeats), their noise pooled over
 * the tests of the pair at that depth as the report's table pools it
 * (analysis_pool_repeats); the verdict is knee_verdict_of's.  A point is decided when its interval lies wholly
 * beyond the noise band (faster, slower) or wholly within it (the same).
 * "Cannot tell", no interval yet, and a direction whose size is unsure
 * (the interval excludes 1 but reaches into the band) are undecided: more
 * repeats settle them one way or the other, unless the true ratio sits on
 * the band's edge, which the budget bounds.  So the run stops on the very
 * words the report will print.  Pure: no I/O. */
#ifndef RS_DECIDE_H
#define RS_DECIDE_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "stats/knee.h"
#include "sweep/precision.h"

/* The budget when --until-decided names none, seconds; and the most
 * repeats of a point when --max-repeats is not given with it. */
#define DECIDE_DEFAULT_BUDGET 300.0
#define DECIDE_DEFAULT_MAX_REPEATS 20

/* One comparison still undecided. */
struct decide_open {
	size_t test;
	unsigned depth;
	size_t target, base;      /* the sides' indexes into the pr[] given */
	struct knee_cmp cmp;      /* ratio target / base; NAN ends: no interval */
	unsigned repeats;         /* the fewer of the two sides' repeats */
};

/* What decide_next found. */
struct decide_state {
	size_t compared;          /* comparisons looked at */
	size_t faster, slower, same; /* of those, decided so */
	size_t undecided;         /* the others, each in open[] */
	size_t capped;            /* of the undecided, at max_repeats already */
	struct decide_open *open; /* [undecided]; decide_state_free */
};

/* Whether v decides a comparison: KNEE_FASTER, KNEE_SLOWER, KNEE_SAME. */
int decide_is_decided(enum knee_verdict v);

/* Compare the n sides pr[0..n) (one a target, or a target's combination
 * of the swept axes): side k against side k % group (group 0 is 1: all
 * against pr[0]), for every test and depth of pr[0].  The points of the
 * comparisons still undecided that have fewer than max_repeats repeats on
 * either side go into *out (malloc'd, the caller frees it; NULL when none),
 * once a test and depth, shuffled from seed; each one's repeat is one past
 * pr[0]'s.  Fills *st (decide_state_free it, also on error).  Returns how
 * many points, or -1 (err set) for sides of different shapes. */
long decide_next(const struct precision *pr, size_t n, size_t group, unsigned max_repeats,
		 uint64_t seed, struct precision_pick **out, struct decide_state *st,
		 struct rs_err *err);
void decide_state_free(struct decide_state *st);

/* --until-decided's BUDGET: seconds, or a number with s, m or h ("90",
 * "90s", "10m", "1.5h"), above 0 and at most a year.  Returns 0, or -1
 * with err naming what is wrong. */
int decide_budget_parse(const char *s, double *seconds, struct rs_err *err);

#endif
