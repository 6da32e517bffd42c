/* analysis.c: peak, saturation depth, throughput model, stability, comparisons. */
#include "config.h"

#include "analysis.h"

size_t analysis_peak(const struct series *s)
{
	size_t best = 0;

	for (size_t i = 1; i < s->npts; i++)
		if (s->pts[i].median > s->pts[best].median)
			best = i;
	return best;
}

size_t analysis_saturation(const struct series *s, double knee)
{
	double target = knee * s->pts[analysis_peak(s)].median;
	size_t best = analysis_peak(s);

	/* Points are sorted by depth: the first to reach the target is the
	 * smallest such depth. */
	for (size_t i = 0; i < s->npts; i++)
		if (s->pts[i].median >= target)
			return i < best ? i : best;
	return best;
}
