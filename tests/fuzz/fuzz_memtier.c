/* fuzz_memtier.c: libFuzzer target for memtier_benchmark's JSON, through
 * the JSON reader (json.c) and the importer (import_memtier.c): any input
 * either gives rows that name a test and a depth, or fails in one line. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "formats/import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct import_memtier m;
	struct rs_err err;
	int rc;

	err.msg[0] = '\0';
	memset(&m, 0, sizeof m);
	rc = import_memtier_parse((const char *)data, size, "fuzz.json", &m, &err);
	fuzz_check_err(rc, &err, 1);
	if (rc == 0) {
		for (size_t i = 0; i < m.n; i++)
			if (m.v[i].test[0] == '\0' || m.v[i].pipeline == 0)
				abort();
		import_memtier_free(&m);
	}
	return 0;
}
