/* report_slo.h: run --slo's answers (slo_answer.h) as a table and a
 * sentence a series: the rate each depth sustains within the objective,
 * its bracket and percentile, the best depth, how close the runner-up
 * is, and where rsweep's own load generation, not the server, was the
 * limit. */
#ifndef RS_REPORT_SLO_H
#define RS_REPORT_SLO_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/slo_answer.h"

/* The section, in text (md 0) or markdown (md 1); nothing when a has no
 * search.  Write errors show in ferror(fp). */
void report_slo_write(FILE *fp, const struct slo_answers *a, int md);

/* The answers as one JSON member, "slo":[...] (no comma around it): a
 * group a series, with its depths' answers (0 for none, null where a
 * figure is unknown) and its best depth (null: none met it). */
void report_slo_write_json(FILE *fp, const struct slo_answers *a);

/* Group g's sentence into buf (size bytes): "GET: P=16 sustains 180k
 * req/s (170k..190k) within p99=1ms, p99 0.81 ms (0.78..0.85); P=32 gives
 * 160k (0.89x); deeper pipelines add latency faster than throughput."
 * Returns buf. */
char *report_slo_sentence(const struct slo_group *g, char *buf, size_t size);

#endif
