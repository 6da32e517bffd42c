/* test_err.c: the error buffer holds one line of visible text, whatever
 * went into it. */
#include "config.h"

#include <criterion/criterion.h>
#include <string.h>

#include "base/err.h"

/* No byte below 0x20, no DEL. */
static void expect_visible(const char *msg)
{
	for (const unsigned char *p = (const unsigned char *)msg; *p; p++)
		cr_assert(*p >= 0x20 && *p != 0x7f, "byte 0x%02x at %zu in '%s'", *p,
			  (size_t)(p - (const unsigned char *)msg), msg);
}

Test(err, control_characters_become_escapes)
{
	struct rs_err err;

	cr_assert_eq(rs_err_set(&err, "server said: %s", "ERR one\ntwo\r\n\tthree\x01\x1b[2J\x7f"), -1);
	cr_assert_str_eq(err.msg, "server said: ERR one\\ntwo\\r\\n\\tthree\\x01\\x1b[2J\\x7f");
	expect_visible(err.msg);
}

Test(err, plain_text_and_utf8_are_kept)
{
	struct rs_err err;

	rs_err_set(&err, "%s:%u: bad value '%s'", "C:\\dir\\f.csv", 12u, "d\xc3\xa9j\xc3\xa0");
	cr_assert_str_eq(err.msg, "C:\\dir\\f.csv:12: bad value 'd\xc3\xa9j\xc3\xa0'");
}

Test(err, a_prefix_is_escaped_too)
{
	struct rs_err err;

	rs_err_set(&err, "FLUSHALL failed: %s", "ERR a\nb");
	rs_err_prefix(&err, "point %u (%s)", 1u, "te\nst");
	cr_assert_str_eq(err.msg, "point 1 (te\\nst): FLUSHALL failed: ERR a\\nb");
	expect_visible(err.msg);
}

Test(err, a_long_message_is_cut_between_escapes)
{
	struct rs_err err;
	char big[2 * RS_ERR_LEN];

	memset(big, '\n', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	rs_err_set(&err, "%s", big);
	cr_assert_lt(strlen(err.msg), sizeof err.msg);
	cr_assert_eq(strlen(err.msg) % 2, 0, "an escape was cut: %zu bytes", strlen(err.msg));
	expect_visible(err.msg);
	memset(big, 'x', sizeof big - 1);
	rs_err_set(&err, "old");
	rs_err_prefix(&err, "%s", big);
	cr_assert_eq(strlen(err.msg), sizeof err.msg - 1);
}

Test(err, a_null_buffer_is_ignored)
{
	cr_assert_eq(rs_err_set(NULL, "x\n"), -1);
	cr_assert_eq(rs_err_prefix(NULL, "x\n"), -1);
}

/* ---- kinds ---- */

Test(err, set_is_a_run_time_failure_setk_names_its_kind)
{
	struct rs_err err = { 0 };

	cr_assert_eq(rs_err_setk(&err, RS_E_INPUT, "%s:%u: bad", "a.csv", 3u), -1);
	cr_assert_eq(err.kind, RS_E_INPUT);
	cr_assert_str_eq(err.msg, "a.csv:3: bad");
	/* Setting again is a new error: its kind does not linger. */
	cr_assert_eq(rs_err_set(&err, "server went away"), -1);
	cr_assert_eq(err.kind, RS_E_FAILED);
	cr_assert_eq(rs_err_setk(NULL, RS_E_INPUT, "ignored"), -1);
	cr_assert_eq(rs_err_as(NULL, RS_E_INPUT), -1);
}

Test(err, prefix_keeps_the_kind_and_as_changes_it)
{
	struct rs_err err = { 0 };

	rs_err_setk(&err, RS_E_REFUSED, "holds results");
	cr_assert_eq(rs_err_prefix(&err, "%s", "out.csv"), -1);
	cr_assert_str_eq(err.msg, "out.csv: holds results");
	cr_assert_eq(err.kind, RS_E_REFUSED);
	cr_assert_eq(rs_err_as(&err, RS_E_IO), -1);
	cr_assert_eq(err.kind, RS_E_IO);
	cr_assert_str_eq(err.msg, "out.csv: holds results");
}

/* The exit statuses man/rsweep.1 documents, one per kind. */
Test(err, each_kind_has_its_documented_exit_status)
{
	static const struct {
		enum rs_err_kind kind;
		int status;
		const char *name;
	} want[] = {
		{ RS_E_FAILED, 1, "failed" },
		{ RS_E_IO, 1, "I/O" },
		{ RS_E_USAGE, 2, "usage" },
		{ RS_E_INPUT, 2, "input" },
		{ RS_E_REFUSED, 2, "refused" },
		{ RS_E_REGRESSION, 3, "regression" },
		{ RS_E_INTERRUPTED, 130, "interrupted" },
		{ RS_E_PIPE, 141, "closed pipe" },
	};
	struct rs_err err = { 0 };

	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		rs_err_setk(&err, want[i].kind, "x");
		cr_assert_eq((int)rs_err_status(&err), want[i].status, "kind %s",
			     rs_err_kind_name(want[i].kind));
		cr_assert_str_eq(rs_err_kind_name(want[i].kind), want[i].name);
	}
	/* A zeroed buffer, no buffer, a kind out of range: still a failure. */
	memset(&err, 0, sizeof err);
	cr_assert_eq(rs_err_status(&err), RS_FAILED);
	cr_assert_eq(rs_err_status(NULL), RS_FAILED);
	err.kind = (enum rs_err_kind)99;
	cr_assert_eq(rs_err_status(&err), RS_FAILED);
	cr_assert_str_eq(rs_err_kind_name((enum rs_err_kind)99), "unknown");
}
