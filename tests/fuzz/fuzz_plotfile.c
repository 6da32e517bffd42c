/* fuzz_plotfile.c: libFuzzer target for plot files (options and panels). */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz.h"
#include "cli/opts.h"
#include "chart/plotfile.h"

/* Global keys are plot options, as rsweep plot applies them. */
static int fuzz_set(void *ud, const char *file, unsigned line, const char *key,
		    const char *value, struct rs_err *err)
{
	return opts_set_file_key(CMD_PLOT, ud, file, line, key, value, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rs_config cfg;
	struct plotfile pf;
	struct rs_err err;
	int rc;

	if (opts_defaults(CMD_PLOT, &cfg, &err) < 0)
		abort();
	err.msg[0] = '\0';
	rc = plotfile_parse((const char *)data, size, "fuzz.plot", fuzz_set, &cfg, &pf, &err);
	fuzz_check_err(rc, &err, 1);
	if (rc == 0)
		for (size_t i = 0; i < pf.n; i++)
			if (pf.v[i].title == NULL || pf.v[i].kind < -1)
				abort();
	plotfile_free(&pf);
	opts_free(&cfg);
	return 0;
}
