/* import_csv.c: the reader of redis-benchmark --csv's lines, with or
 * without their header (import_int.h). */
#include "config.h"

#include <string.h>

#include "results/csv.h"
#include "formats/import_int.h"

#define IMPORT_MAXF 16

static const char *const import_csv_names[8] = {
	"test", "rps", "avg_latency_ms", "min_latency_ms", "p50_latency_ms",
	"p95_latency_ms", "p99_latency_ms", "max_latency_ms",
};

/* Returns 1 for a data point in p, 0 for a header line, -1 on error. */
int import_csv_line(struct import_csv *c, const char *s, size_t n, struct import_point *p,
		    char *raw, struct rs_err *err)
{
	char scratch[IMPORT_LINE + IMPORT_MAXF + 1];
	struct csv_field f[IMPORT_MAXF];
	double *dst[8] = { NULL, &p->rps, &p->avg_ms, &p->min_ms, &p->p50_ms, &p->p95_ms,
			   &p->p99_ms, &p->max_ms };
	int nf = csv_split_line(s, n, scratch, f, IMPORT_MAXF, err);

	if (nf < 0)
		return -1;
	/* A header may come again: shell loops append one run after another. */
	if (nf >= 2 && strcmp(f[0].s, "test") == 0 && strcmp(f[1].s, "rps") == 0) {
		c->have_header = 1;
		c->nf = (size_t)nf;
		for (int k = 0; k < 8; k++) {
			c->col[k] = -1;
			for (int i = 0; i < nf; i++)
				if (strcmp(f[i].s, import_csv_names[k]) == 0)
					c->col[k] = i;
		}
		return 0;
	}
	if (!c->have_header) {
		/* Headerless: redis-benchmark before 6.2 wrote "test","rps". */
		if (nf != 2 && nf != 8)
			return rs_err_set(err, "%d fields and no header line "
					  "(expected \"test\",\"rps\"[,latencies])", nf);
		for (int k = 0; k < 8; k++)
			c->col[k] = k < nf ? k : -1;
		c->nf = (size_t)nf;
	} else if ((size_t)nf != c->nf) {
		return rs_err_set(err, "%d fields, the header has %zu", nf, c->nf);
	}
	if (import_test_name(f[c->col[0]].s, f[c->col[0]].len, p->test, sizeof p->test, err) < 0)
		return -1;
	import_raw_title(raw, f[c->col[0]].s, f[c->col[0]].len);
	for (int k = 1; k < 8; k++) {
		int i = c->col[k];

		if (i < 0)
			continue;
		if (f[i].len == 0 && k > 1)
			continue; /* an empty latency stays unknown */
		if (import_number(f[i].s, f[i].len, k == 1 ? "rps" : import_csv_names[k], dst[k], err) < 0)
			return -1;
	}
	return 1;
}
