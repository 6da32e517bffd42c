/* fuzz.h: what every fuzz target checks besides memory safety: a parser that
 * fails says why in one line, and one that succeeds leaves no message half set. */
#ifndef RS_FUZZ_H
#define RS_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"

/* The entry point libFuzzer (or replay.c) calls with one input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Abort (which the fuzzer reports as a crash) unless a failed parse left a
 * non-empty message; with one_line, a message must not hold a newline
 * either (bad input gets a one-line message, whatever the input holds). */
static inline void fuzz_check_err(int rc, const struct rs_err *err, int one_line)
{
	size_t n;

	if (rc == 0)
		return;
	if (rc != -1)
		abort();
	n = strnlen(err->msg, sizeof err->msg);
	if (n == 0 || n == sizeof err->msg)
		abort();
	if (one_line && memchr(err->msg, '\n', n) != NULL) {
		fprintf(stderr, "fuzz: message of more than one line: %s\n", err->msg);
		abort();
	}
}

#endif
