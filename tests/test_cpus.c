/* test_cpus.c: --cpus parsed, CPU lists read and written, and a run's
 * placement decided from the CPUs the process may use (issue 41). */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "base/cpus.h"

static struct cpus list(const char *s)
{
	struct cpus c;
	struct rs_err err;

	cr_assert_eq(cpus_list_parse(s, strlen(s), &c, &err), 0, "%s: %s", s, err.msg);
	return c;
}

static const char *fmt(const struct cpus *c)
{
	static char buf[256];

	return cpus_format(c, buf, sizeof buf);
}

Test(cpus, lists_read_and_written_back)
{
	struct cpus c = list("3,0-1,7,5-6");

	cr_assert_str_eq(fmt(&c), "0-1,3,5-7");
	cr_assert_eq(cpus_count(&c), 6);
	c = list("1023");
	cr_assert_str_eq(fmt(&c), "1023");
	c = list("64-65");
	cr_assert_str_eq(fmt(&c), "64-65");
}

Test(cpus, bad_lists_refused_with_one_line)
{
	static const char *const bad[] = { "x", "1,", ",1", "1-", "-1", "3-1", "1024", "0-1024",
					   "1 2", "1;2", "a-b", "99999999999" };
	struct cpus_spec spec;
	struct rs_err err;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char s[64];

		snprintf(s, sizeof s, "%s:0", bad[i]);
		cr_assert_eq(cpus_spec_parse(s, &spec, &err), -1, "'%s' accepted", s);
		cr_assert_eq(err.kind, RS_E_USAGE);
		cr_assert_null(strchr(err.msg, '\n'));
		cr_assert(strncmp(err.msg, "--cpus", 6) == 0, "%s", err.msg);
	}
	cr_assert_eq(cpus_list_parse("", 0, &spec.server, &err), -1);
	cr_assert_eq(cpus_spec_parse(":", &spec, &err), -1);
	cr_assert_eq(cpus_spec_parse("1:0:2", &spec, &err), -1);
	cr_assert_eq(cpus_spec_parse("1", &spec, &err), -1);
	cr_assert_eq(cpus_spec_parse("None", &spec, &err), -1);
}

Test(cpus, spec_forms)
{
	struct cpus_spec spec;
	struct rs_err err;

	cr_assert_eq(cpus_spec_parse(NULL, &spec, &err), 0);
	cr_assert_eq(spec.mode, CPUS_AUTO);
	cr_assert_eq(cpus_spec_parse("auto", &spec, &err), 0);
	cr_assert_eq(spec.mode, CPUS_AUTO);
	cr_assert_eq(cpus_spec_parse("none", &spec, &err), 0);
	cr_assert_eq(spec.mode, CPUS_NONE);
	cr_assert_eq(cpus_spec_parse("2-3:0-1", &spec, &err), 0, "%s", err.msg);
	cr_assert_eq(spec.mode, CPUS_GIVEN);
	cr_assert(spec.has_server && spec.has_client);
	cr_assert_str_eq(fmt(&spec.server), "2-3");
	cr_assert_eq(cpus_spec_parse(":1", &spec, &err), 0);
	cr_assert(!spec.has_server && spec.has_client);
	cr_assert_eq(cpus_spec_parse("1:", &spec, &err), 0);
	cr_assert(spec.has_server && !spec.has_client);
}

/* The default: every spawned server on the upper half, the client on the
 * rest, within what the process may use. */
Test(cpus, default_placement_splits_what_the_process_may_use)
{
	static const struct {
		const char *allowed, *server, *client;
	} cases[] = {
		{ "0-1", "1", "0" }, { "0-2", "2", "0-1" }, { "0-3", "2-3", "0-1" },
		{ "2,5", "5", "2" }, { "0-7", "4-7", "0-3" }, { "1,3,5", "5", "1,3" },
	};
	struct cpus_spec spec = { 0 };
	struct cpus_place p;
	struct rs_err err;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct cpus a = list(cases[i].allowed);

		cr_assert_eq(cpus_decide(&spec, &a, 2, 2, &p, &err), 0);
		cr_assert(p.server_on && p.client_on && p.unplaced == NULL);
		cr_assert_str_eq(fmt(&p.server), cases[i].server, "%s", cases[i].allowed);
		cr_assert_str_eq(fmt(&p.client), cases[i].client, "%s", cases[i].allowed);
		cr_assert(!cpus_overlap(&p.server, &p.client));
	}
}

Test(cpus, unplaced_says_why)
{
	struct cpus_spec spec = { 0 };
	struct cpus one = list("0"), two = list("0-1");
	struct cpus_place p;
	struct rs_err err;

	cr_assert_eq(cpus_decide(&spec, &one, 2, 2, &p, &err), 0);
	cr_assert(!p.server_on && !p.client_on);
	cr_assert_str_eq(p.unplaced, "one CPU");
	cr_assert_eq(cpus_decide(&spec, NULL, 2, 2, &p, &err), 0);
	cr_assert_str_eq(p.unplaced, "placement not available on this system");
	cr_assert_eq(cpus_decide(&spec, &two, 1, 2, &p, &err), 0);
	cr_assert_str_eq(p.unplaced, "a target rsweep does not start");
	cr_assert_eq(cpus_decide(&spec, &two, 0, 1, &p, &err), 0);
	cr_assert(!p.server_on && !p.client_on && p.unplaced == NULL);
	spec.mode = CPUS_NONE;
	cr_assert_eq(cpus_decide(&spec, &two, 2, 2, &p, &err), 0);
	cr_assert_str_eq(p.unplaced, "--cpus none");
}

Test(cpus, given_lists_within_the_allowed_set)
{
	struct cpus_spec spec;
	struct cpus two = list("0-1");
	struct cpus_place p;
	struct rs_err err;

	cr_assert_eq(cpus_spec_parse("0:1", &spec, &err), 0);
	cr_assert_eq(cpus_decide(&spec, &two, 2, 2, &p, &err), 0);
	cr_assert_str_eq(fmt(&p.server), "0");
	cr_assert_str_eq(fmt(&p.client), "1");
	cr_assert_null(p.unplaced);
	cr_assert_eq(cpus_spec_parse("2:0", &spec, &err), 0);
	cr_assert_eq(cpus_decide(&spec, &two, 2, 2, &p, &err), -1);
	cr_assert_str_eq(err.msg, "--cpus: CPU 2 is not one this process may use (it may use 0-1)");
	cr_assert_eq(cpus_spec_parse("1:0", &spec, &err), 0);
	cr_assert_eq(cpus_decide(&spec, &two, 0, 1, &p, &err), -1);
	cr_assert(strstr(err.msg, "no target is a server rsweep starts") != NULL, "%s", err.msg);
	cr_assert_eq(cpus_decide(&spec, NULL, 2, 2, &p, &err), -1);
	cr_assert(strstr(err.msg, "placement not available") != NULL, "%s", err.msg);
	/* Only the client: the servers stay unplaced, and that is said. */
	cr_assert_eq(cpus_spec_parse(":0", &spec, &err), 0);
	cr_assert_eq(cpus_decide(&spec, &two, 0, 1, &p, &err), 0);
	cr_assert(p.client_on && !p.server_on && p.unplaced == NULL);
	cr_assert_eq(cpus_decide(&spec, &two, 2, 2, &p, &err), 0);
	cr_assert_not_null(p.unplaced);
}
