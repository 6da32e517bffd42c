/* vec.c: doubling growth for caller-owned arrays. */
#include "config.h"

#include <stdint.h>

#include "base/vec.h"
#include "base/xalloc.h"

void *vec_reserve(void *v, size_t *cap, size_t want, size_t size, size_t min_cap)
{
	size_t c = *cap;

	if (want <= c)
		return v;
	if (c == 0)
		c = min_cap ? min_cap : 1;
	while (c < want)
		/* Past half of SIZE_MAX doubling would wrap: ask for exactly what
		 * is wanted and let xreallocarray's overflow check decide. */
		c = c > SIZE_MAX / 2 ? want : c * 2;
	v = xreallocarray(v, c, size);
	*cap = c;
	return v;
}
