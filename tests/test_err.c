/* test_err.c: the error buffer holds one line of visible text, whatever
 * went into it. */
#include "config.h"

#include <criterion/criterion.h>
#include <string.h>

#include "err.h"

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
