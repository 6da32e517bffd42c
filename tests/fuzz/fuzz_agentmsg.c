/* fuzz_agentmsg.c: libFuzzer target for the agents' messages (agentmsg.h).
 * The input is a message as a stream entry holds it: fields one a line,
 * NAME=VALUE; it is decoded both as a point message and as a result. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agents/agentmsg.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct agentmsg_field f[AGENTMSG_MAX_FIELDS + 4];
	struct agentmsg_point p;
	struct agentmsg_result *r = malloc(sizeof *r);
	/* Exactly the input's bytes: a read past a field is caught. */
	char *s = malloc(size ? size : 1);
	struct rs_err err;
	size_t n = 0, at = 0;
	int rc;

	if (s == NULL || r == NULL)
		abort();
	memcpy(s, data, size);
	while (at < size && n < sizeof f / sizeof f[0]) {
		char *nl = memchr(s + at, '\n', size - at);
		size_t end = nl ? (size_t)(nl - s) : size;
		char *eq = memchr(s + at, '=', end - at);

		f[n].name = s + at;
		f[n].name_len = eq ? (size_t)(eq - (s + at)) : end - at;
		f[n].value = eq ? eq + 1 : s + end;
		f[n].value_len = eq ? end - (size_t)(eq + 1 - s) : 0;
		n++;
		at = end + 1;
	}
	err.msg[0] = '\0';
	rc = agentmsg_point_decode(f, n, &p, &err);
	/* What reaches an agent's log is one line, whatever the leader sent. */
	fuzz_check_err(rc, &err, 1);
	if (rc == 0) {
		struct agentmsg_fields fs;

		if (p.depth < 1 || (p.requests == 0) == (p.duration == 0) || p.threads > p.clients ||
		    !agentmsg_run_ok(p.run, strlen(p.run)))
			abort();
		/* What decodes encodes again. */
		if (agentmsg_point_encode(&p, &fs, &err) != 0)
			abort();
		agentmsg_fields_free(&fs);
	}
	err.msg[0] = '\0';
	rc = agentmsg_result_decode(f, n, r, &err);
	fuzz_check_err(rc, &err, 1);
	if (rc == 0 && ((r->hist.count != 0 && r->hist.count != r->requests) ||
			r->errors > r->requests))
		abort();
	free(r);
	free(s);
	return 0;
}
