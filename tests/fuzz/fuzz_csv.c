/* fuzz_csv.c: libFuzzer target for the CSV reader, and for the series built
 * from whatever it accepts. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "results/csv.h"
#include "fuzz.h"
#include "analysis/series.h"

/* Walk a built set as charts and reports do, so that a point or a name
 * series_build got wrong is read. */
static void fuzz_csv_walk(const struct series_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		const struct series *s = &set->v[i];

		if (s->label_idx >= set->nlabels || s->test_idx >= set->ntests || s->npts == 0)
			abort();
		if (series_find(set, s->label, s->test) == NULL)
			abort();
		for (size_t k = 0; k < s->npts; k++) {
			const struct series_point *p = &s->pts[k];

			if (k > 0 && p->depth <= s->pts[k - 1].depth)
				abort();  /* sorted, distinct depths */
			if (series_at(s, p->depth) != p || p->n == 0)
				abort();
			if (!(p->min <= p->median && p->median <= p->max))
				abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rs_rows rows = { 0 };
	struct csv_info info;
	struct rs_err err;
	int rc;

	err.msg[0] = '\0';
	rc = csv_parse((const char *)data, size, "fuzz.csv", &rows, &info, &err);
	fuzz_check_err(rc, &err, 1);
	if (rc == 0) {
		if (info.complete_len > size)
			abort();
		for (int m = SM_RPS; m <= SM_MAX; m++) {
			struct series_set set = { 0 };

			err.msg[0] = '\0';
			rc = series_build(&rows, (enum series_metric)m, &set, &err);
			fuzz_check_err(rc, &err, 1);
			if (rc == 0)
				fuzz_csv_walk(&set);
			series_set_free(&set);
		}
	}
	rows_free(&rows);
	return 0;
}
