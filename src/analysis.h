/* analysis.h: figures computed from series: peak, saturation depth, the
 * throughput model, stability, comparisons.  Computes; never prints. */
#ifndef RS_ANALYSIS_H
#define RS_ANALYSIS_H

#include <stddef.h>

#include "series.h"

#define ANALYSIS_DEFAULT_KNEE 0.95

/* Index in s->pts of the largest median (the first one on ties). */
size_t analysis_peak(const struct series *s);

/* Index in s->pts of the saturation point: the smallest depth whose median
 * reaches knee * the peak median.  Meant for rps series (higher is better).
 * The charts and the report share this one definition. */
size_t analysis_saturation(const struct series *s, double knee);

#endif
