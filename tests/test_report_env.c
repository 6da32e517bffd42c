/* test_report_env.c: the labels' environments in the report's words, what
 * was asked and what could explain a verdict, and the page's escaping. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_env.h"
#include "report/report_html.h"

static const char two[] =
	"{\"label\":\"a\",\"target\":\"t\",\"cores\":\"8\",\"governor\":\"performance\","
	"\"virt\":\"none\",\"server\":\"redis 7.0.15\",\"io_threads\":\"4\","
	"\"appendfsync\":\"everysec\",\"cpu_model\":\"Xeon\",\"load_start\":\"1 1 1\"}\n"
	"{\"label\":\"b\",\"target\":\"u\",\"cores\":\"4\",\"governor\":\"powersave\","
	"\"virt\":\"kvm\",\"server\":\"redis 7.0.15\",\"io_threads\":\"1\","
	"\"appendfsync\":\"everysec\",\"cpu_model\":\"Xeon\",\"load_start\":\"2 2 2\"}\n";

static void envs_of(const char *text, struct runenv_set *set, struct report_env *e)
{
	struct rs_err err;

	cr_assert_eq(runenv_parse(text, strlen(text), "t", "f.csv", set, &err), 0, "%s", err.msg);
	e[0].label = "a";
	e[0].env = runenv_find(set, "f.csv", "a", "t", "");
	e[1].label = "b";
	e[1].env = runenv_find(set, "f.csv", "b", "u", "");
	cr_assert(e[0].env && e[1].env);
}

Test(report_env, what_differs_first_and_what_was_not_asked)
{
	struct runenv_set set = { 0 };
	struct report_env e[2];
	char buf[2048];

	envs_of(two, &set, e);
	report_env_words(e, 2, 1, buf, sizeof buf);
	cr_assert(strstr(buf, "Environment: a: 8 cores, performance governor, bare metal, "
			 "io-threads 4; b: 4 cores, powersave governor, a VM (kvm), io-threads 1.")
		  == buf, "%s", buf);
	cr_assert(strstr(buf, "Not asked about, and could explain the verdicts: cores online "
			 "(a 8, b 4); governor (a performance, b powersave); virtualisation "
			 "(a none, b kvm); io-threads (a 4, b 1).") != NULL, "%s", buf);
	cr_assert(strstr(buf, "load") == NULL, "the load differs every run: tables only");
	cr_assert(strstr(buf, "Xeon") == NULL && strstr(buf, "everysec") == NULL,
		  "what is the same is not said");
	report_env_words(e, 2, 0, buf, sizeof buf);
	cr_assert(strstr(buf, "Not asked") == NULL, "no verdicts, nothing to explain");
	runenv_set_free(&set);
}

Test(report_env, a_difference_the_labels_or_arguments_name_was_asked)
{
	static const char asked[] =
		"{\"label\":\"powersave\",\"target\":\"t\",\"governor\":\"powersave\","
		"\"server_args\":\"--io-threads 4\",\"io_threads\":\"4\"}\n"
		"{\"label\":\"b\",\"target\":\"u\",\"governor\":\"performance\",\"io_threads\":\"1\"}\n";
	struct runenv_set set = { 0 };
	struct report_env e[2];
	struct rs_err err;
	char buf[2048];

	cr_assert_eq(runenv_parse(asked, strlen(asked), "t", "f.csv", &set, &err), 0);
	e[0].label = "powersave";
	e[0].env = runenv_find(&set, "f.csv", "powersave", "t", "--io-threads 4");
	e[1].label = "b";
	e[1].env = runenv_find(&set, "f.csv", "b", "u", "");
	report_env_words(e, 2, 1, buf, sizeof buf);
	cr_assert(strstr(buf, "Environment: powersave: powersave governor, server arguments "
			 "--io-threads 4, io-threads 4; b: performance governor, no server "
			 "arguments, io-threads 1.") != NULL, "%s", buf);
	cr_assert(strstr(buf, "Not asked") == NULL,
		  "the label names the governor, the arguments set io-threads: %s", buf);
	runenv_set_free(&set);
}

Test(report_env, nothing_to_say_with_one_environment_or_none_differing)
{
	struct runenv_set set = { 0 };
	struct report_env e[2];
	char buf[512];

	envs_of(two, &set, e);
	e[1].env = NULL;
	report_env_words(e, 2, 1, buf, sizeof buf);
	cr_assert_str_eq(buf, "");
	e[1].env = e[0].env;
	report_env_words(e, 2, 1, buf, sizeof buf);
	cr_assert_str_eq(buf, "");
	runenv_set_free(&set);
}

/* The chart footer's line: the machine fields only, and nothing when only
 * the server's settings differ (the report says those). */
Test(report_env, short_line_names_the_machines_that_differ)
{
	static const char settings[] =
		"{\"label\":\"a\",\"target\":\"t\",\"cores\":\"8\",\"io_threads\":\"4\"}\n"
		"{\"label\":\"b\",\"target\":\"u\",\"cores\":\"8\",\"io_threads\":\"1\"}\n";
	struct runenv_set set = { 0 }, set2 = { 0 };
	struct report_env e[2];
	char buf[512], tiny[16];

	envs_of(two, &set, e);
	report_env_short(e, 2, buf, sizeof buf);
	cr_assert_str_eq(buf, "a: 8 cores, performance governor, bare metal; "
			 "b: 4 cores, powersave governor, a VM (kvm)");
	report_env_short(e, 2, tiny, sizeof tiny);
	cr_assert_str_eq(tiny, "a: 8 cores, ...");
	e[1].env = NULL;
	report_env_short(e, 2, buf, sizeof buf);
	cr_assert_str_eq(buf, "", "one environment: %s", buf);
	envs_of(settings, &set2, e);
	report_env_short(e, 2, buf, sizeof buf);
	cr_assert_str_eq(buf, "", "io-threads is no machine: %s", buf);
	runenv_set_free(&set);
	runenv_set_free(&set2);
}

Test(report_html, every_string_is_escaped)
{
	char *out = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&out, &len);

	report_html_escape(mem, "<script>alert('x')</script> & \"q\"\x01");
	fclose(mem);
	cr_assert_str_eq(out, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot; ");
	free(out);
}
