/* fuzz_spec.c: libFuzzer target for the "key = value" parser, and for sweep
 * files: each global key applied as `rsweep run --sweep` applies it. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "cli/opts.h"
#include "base/spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spec sp;
	struct rs_config cfg;
	struct rs_err err;
	int rc;

	err.msg[0] = '\0';
	rc = spec_parse((const char *)data, size, "fuzz.sweep", &sp, &err);
	fuzz_check_err(rc, &err, 1);
	if (rc < 0)
		return 0;
	if (opts_defaults(CMD_RUN, &cfg, &err) < 0)
		abort();
	for (size_t i = 0; i < sp.n; i++) {
		const struct spec_entry *e = &sp.v[i];

		if (e->key == NULL || e->value == NULL || e->key[0] == '\0' ||
		    e->section > sp.nsections || e->line == 0 ||
		    (i > 0 && e->line <= sp.v[i - 1].line))
			abort();
		if (e->section != 0)
			continue;  /* sweep files have no sections: cmd_run refuses them */
		err.msg[0] = '\0';
		rc = opts_set_from_file(CMD_RUN, e->key, e->value, &cfg, &err);
		fuzz_check_err(rc, &err, 1);
	}
	opts_free(&cfg);
	spec_free(&sp);
	return 0;
}
