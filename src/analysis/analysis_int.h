/* analysis_int.h: what the analysis' files share, and nothing another room
 * may use (analysis.h is the room's interface).  Lowest first: the core on
 * a series (analysis_knee.c), the runs (analysis_runs.c), a series'
 * figures (analysis_series.c, in analysis.h), the comparisons
 * (analysis_compare.c) and the pool, which analysis.c drives; none calls a
 * file above it. */
#ifndef RS_ANALYSIS_INT_H
#define RS_ANALYSIS_INT_H

#include "analysis/analysis.h"

/* ---- the core on a series (analysis_knee.c) ---- */

/* The core on series s, or with run >= 0 on that run of s alone.  0 with
 * k->ok set, or -1 (err, when not NULL, says why; k->ok 0). */
int analysis_knee_of(const struct series *s, long run, double knee, int level_band,
		     struct analysis_knee *k, struct rs_err *err);
/* Index of depth d in k's series, or -1. */
long analysis_knee_index(const struct analysis_knee *k, unsigned d);

/* ---- runs (analysis_runs.c) ---- */

/* Each run of rps alone (out->run_knee, out->nruns of them), and the peak
 * over runs in out->peak_runs and out->peak_rps, peak_lo, peak_hi: left as
 * the pooled figures when a run has no core result. */
void analysis_runs_compute(const struct series *rps, double knee, struct analysis_series *out);
/* Whether a and b were measured in the same runs (targets interleaved in
 * one invocation): then their points are paired in time, and the drift
 * between runs falls on both alike. */
int analysis_same_runs(const struct series *a, const struct series *b);
/* The run-level interval of a against b at depth (0: the peaks) into d,
 * when either side has several runs and they were not measured in the
 * same runs: 1, or 0 when it does not apply. */
int analysis_delta_runs(const struct analysis_series *b, const struct analysis_series *a,
			unsigned depth, struct analysis_delta *d);

/* ---- comparisons (analysis_compare.c) ---- */

/* Series other of r against series base (r->series, both analysed) into c:
 * at depth 1, at the peaks, at depth (0: none) and at every common depth,
 * with an interval at each when per_depth_ci.  c->per_depth is the
 * caller's to free (analysis_result_free does). */
void analysis_compare(const struct analysis_result *r, size_t base, size_t other,
		      unsigned depth, int per_depth_ci, struct analysis_cmp *c);
/* The paired repeats' noise pooled over the tests of one label pair at one
 * depth, into the intervals of r's comparisons (each keeps its centre). */
void analysis_pool_repeats(struct analysis_result *r);

/* ---- the pool (analysis_pool.c) ---- */

/* fn(ctx, i) for every i in 0..n-1, on every CPU (the calling thread
 * included; one thread per per_thread items at most, 0: no such limit).
 * Each call must touch only its own item's output.  Returns when all are
 * done. */
void analysis_pool_run(size_t n, size_t per_thread, void (*fn)(void *ctx, size_t i), void *ctx);

#endif
