/* fuzz_depths.c: libFuzzer target for the -P depth-list syntax. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/depths.h"
#include "fuzz.h"

static int fuzz_depths_cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The parser takes a C string: give it exactly one, so a read past
	 * the NUL is caught. */
	char *s = malloc(size + 1);
	struct depth_list d = { NULL, 0 };
	struct rs_err err;
	int rc;

	if (s == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	err.msg[0] = '\0';
	rc = depths_parse(s, &d, &err);
	/* A newline can reach -P only from the command line, where the user
	 * typed it: the message quoting it is still the user's own text. */
	fuzz_check_err(rc, &err, 0);
	if (rc == 0) {
		if (d.n == 0 || d.n > DEPTHS_MAX_POINTS)
			abort();
		unsigned *sorted = malloc(d.n * sizeof *sorted);

		if (sorted == NULL)
			abort();
		memcpy(sorted, d.v, d.n * sizeof *sorted);
		qsort(sorted, d.n, sizeof *sorted, fuzz_depths_cmp);
		for (size_t i = 0; i < d.n; i++)
			if (sorted[i] < 1 || sorted[i] > DEPTHS_MAX_VALUE ||
			    (i > 0 && sorted[i] == sorted[i - 1]))
				abort();  /* out of range, or a duplicate let through */
		free(sorted);
		if (!depths_contains(&d, d.v[d.n - 1]))
			abort();
		(void)depths_powers_of_two(d.v, d.n);
	} else if (d.v != NULL || d.n != 0) {
		abort();  /* on error out is untouched */
	}
	depths_free(&d);
	free(s);
	return 0;
}
