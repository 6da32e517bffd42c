/* near.c: edit distance, and the nearest of some known names. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "base/near.h"

/* Damerau-Levenshtein (optimal string alignment) over one table on the
 * stack: NEAR_NAME_MAX bounds it. */
size_t near_distance(const char *a, size_t na, const char *b)
{
	size_t nb = strlen(b), d[NEAR_NAME_MAX + 1][NEAR_NAME_MAX + 1];

	if (na > NEAR_NAME_MAX || nb > NEAR_NAME_MAX)
		return SIZE_MAX;
	for (size_t i = 0; i <= na; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= nb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= na; i++)
		for (size_t j = 1; j <= nb; j++) {
			size_t v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[na][nb];
}

int near_likely(size_t d, size_t n)
{
	return d <= 2 && 2 * d < n;
}

void near_keep(const char *name, size_t n, const char *cand, const char **best, size_t *bestd)
{
	size_t d = near_distance(name, n, cand);

	if (d < *bestd) {
		*bestd = d;
		*best = cand;
	}
}
