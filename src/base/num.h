/* num.h: the one checked way numbers enter and leave rsweep.
 *
 * Parsers reject, never clamp: "12x", "", " 5", "-3" for an unsigned, 1e400,
 * NaN and values outside [min, max] are errors with a reason.  Formatting and
 * parsing always use '.' as the decimal mark, whatever the process locale. */
#ifndef RS_NUM_H
#define RS_NUM_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

/* Parse a whole string as an unsigned integer in [min, max]; a suffix k, M or
 * G (x1000) is accepted when allow_suffix is set.  On failure err says why,
 * without naming the option (the caller prefixes that). */
int num_parse_u64(const char *s, uint64_t min, uint64_t max, int allow_suffix,
		  uint64_t *out, struct rs_err *err);

/* Parse a whole string as a finite double in [min, max]. */
int num_parse_double(const char *s, double min, double max, double *out,
		     struct rs_err *err);

/* Parse n bytes (not NUL-terminated) as a finite double; NaN, inf, empty or
 * trailing junk fail. */
int num_parse_double_n(const char *s, size_t n, double *out);

/* Format v with prec digits after the '.' into buf; returns the length. */
int num_fmt(char *buf, size_t size, double v, int prec);

/* Format v with up to prec significant-looking digits, shortest form ("%.*g"). */
int num_fmt_g(char *buf, size_t size, double v, int prec);

#endif
