/* err.h: the caller-owned error buffer every library-style room fills.
 *
 * Rooms return 0 on success and -1 on failure after writing one line (no
 * trailing newline) into a struct rs_err the caller passed in, as hiredis
 * fills ctx->errstr and anet fills its err buffer.  Only main prints it.
 *
 * Each error carries a kind: what went wrong, for the user, not where.  The
 * room that knows sets it; main alone turns it into the exit status
 * (rs_err_status), so no room returns a status code of its own:
 *
 *   RS_E_FAILED       1    a failure at run time: a server that cannot be
 *                          reached, stops answering or errs, a resource
 *                          missing on the machine (no font installed).
 *                          The default: rs_err_set sets it.
 *   RS_E_IO           1    a file or standard output could not be read or
 *                          written (ENOSPC, EACCES on the output...).
 *   RS_E_USAGE        2    the command line: an unknown option, a value out
 *                          of range, options that exclude each other.
 *   RS_E_INPUT        2    bad input: a sweep, plot or CSV file, a capture,
 *                          a --font, a --tests that names nothing, an -o
 *                          that is not a regular file.
 *   RS_E_REFUSED      2    a safety rule said no before anything changed:
 *                          the guard refused the server, the -o file holds
 *                          results.
 *   RS_E_REGRESSION   3    report --fail-on: a comparison came out slower
 *                          than the baseline (the report is written whole).
 *   RS_E_INTERRUPTED  130  SIGINT or SIGTERM; the message says where the
 *                          completed points are.
 *   RS_E_PIPE         141  standard output is a pipe whose reader went
 *                          away; main says nothing, as for SIGPIPE.
 *
 * These statuses are the ones man/rsweep.1 documents under EXIT STATUS. */
#ifndef RS_ERR_H
#define RS_ERR_H

#define RS_ERR_LEN 512

enum rs_err_kind {
	RS_E_FAILED = 0,          /* zero: an initialised buffer fails at run time */
	RS_E_IO,
	RS_E_USAGE,
	RS_E_INPUT,
	RS_E_REFUSED,
	RS_E_REGRESSION,
	RS_E_INTERRUPTED,
	RS_E_PIPE,
};

/* The exit statuses of rsweep (man/rsweep.1, EXIT STATUS). */
enum rs_status {
	RS_OK = 0,
	RS_FAILED = 1,            /* run-time failure: server, I/O */
	RS_BAD_INPUT = 2,         /* usage error, bad input, refused */
	RS_REGRESSED = 3,         /* report --fail-on: slower than the baseline */
	RS_INTERRUPTED = 130,     /* SIGINT / SIGTERM */
	RS_PIPE_GONE = 141,       /* 128 + SIGPIPE, as a shell shows it */
};

struct rs_err {
	char msg[RS_ERR_LEN];
	enum rs_err_kind kind;
};

/* Format a message into err (NULL err is allowed and ignored), of kind
 * RS_E_FAILED; returns -1 so that failing paths can read
 * "return rs_err_set(err, ...);".
 *
 * The message is always one line of visible text, whatever went into it (a
 * server's error reply, a file's bytes): control characters are written as
 * C escapes, \n \r \t, and \xHH for the other bytes below 0x20 and 0x7f.
 * A backslash is left as it is; bytes from 0x80 up (UTF-8) are kept.  A
 * message too long for the buffer is cut, never in the middle of an escape. */
int rs_err_set(struct rs_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* rs_err_set with a kind.  Returns -1. */
int rs_err_setk(struct rs_err *err, enum rs_err_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prefix an existing message: "prefix: old message", escaped as
 * rs_err_set does; the kind is kept.  Returns -1. */
int rs_err_prefix(struct rs_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Give an error already set its kind, for a caller that knows better what
 * the failure means (a CSV a parser refused is bad input to the command
 * that read it).  NULL err is ignored.  Returns -1. */
int rs_err_as(struct rs_err *err, enum rs_err_kind kind);

/* The exit status of a command that failed with err (NULL: RS_FAILED).
 * Only main decides exit statuses; it asks this. */
enum rs_status rs_err_status(const struct rs_err *err);

/* The kind's name ("input", "refused"...), for messages and tests. */
const char *rs_err_kind_name(enum rs_err_kind kind);

#endif
