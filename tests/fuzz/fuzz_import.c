/* fuzz_import.c: libFuzzer target for the redis-benchmark --csv and -q
 * importers, in every mode `rsweep import` can ask for. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "formats/import.h"

static void fuzz_import_one(const char *buf, size_t len, enum import_kind kind, int skip_bad)
{
	struct import_result r;
	struct rs_err err;
	int rc;

	err.msg[0] = '\0';
	rc = import_parse(buf, len, "fuzz.txt", kind, skip_bad, &r, &err);
	fuzz_check_err(rc, &err, 1);
	if (rc < 0) {
		if (r.v != NULL || r.n != 0 || r.bad != NULL || r.nbad != 0)
			abort();  /* on failure out is empty */
		return;
	}
	if (r.n == 0 || r.kind == IMPORT_AUTO || (!skip_bad && r.nbad != 0))
		abort();
	for (size_t i = 0; i < r.n; i++) {
		const struct import_point *p = &r.v[i];
		size_t n = strnlen(p->test, sizeof p->test);

		if (n == 0 || n == sizeof p->test || p->line == 0)
			abort();
	}
	for (size_t i = 0; i < r.nbad; i++)
		if (strnlen(r.bad[i].reason, sizeof r.bad[i].reason) == sizeof r.bad[i].reason)
			abort();
	import_result_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;

	static const enum import_kind kinds[3] = { IMPORT_AUTO, IMPORT_CSV, IMPORT_QUIET };

	/* As `rsweep import FILE` reads it; then with --skip-bad under one
	 * --from picked by the input's length, so every mode is fuzzed at
	 * half the cost of running all of them on every input. */
	fuzz_import_one(buf, size, IMPORT_AUTO, 0);
	fuzz_import_one(buf, size, kinds[size % 3], 1);
	return 0;
}
