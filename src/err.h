/* err.h: the caller-owned error buffer every library-style room fills.
 *
 * Rooms return 0 on success and -1 on failure after writing one line (no
 * trailing newline) into a struct rs_err the caller passed in, as hiredis
 * fills ctx->errstr and anet fills its err buffer.  Only main prints it. */
#ifndef RS_ERR_H
#define RS_ERR_H

#define RS_ERR_LEN 512

struct rs_err {
	char msg[RS_ERR_LEN];
};

/* Format a message into err (NULL err is allowed and ignored); returns -1 so
 * that failing paths can read "return rs_err_set(err, ...);".
 *
 * The message is always one line of visible text, whatever went into it (a
 * server's error reply, a file's bytes): control characters are written as
 * C escapes, \n \r \t, and \xHH for the other bytes below 0x20 and 0x7f.
 * A backslash is left as it is; bytes from 0x80 up (UTF-8) are kept.  A
 * message too long for the buffer is cut, never in the middle of an escape. */
int rs_err_set(struct rs_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Prefix an existing message: "prefix: old message", escaped as
 * rs_err_set does. Returns -1. */
int rs_err_prefix(struct rs_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
