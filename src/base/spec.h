/* spec.h: the small "key = value" format of sweep and plot files.
 *
 *   # a comment               (whole line; '#' after a value starts one too)
 *   key = value               (spaces around '=' and the value are trimmed)
 *   flag                      (a key alone: a flag, value "")
 *   [panel name]              (starts a section; keys before any are global)
 *
 * A pure parser: it takes a buffer, and reports "file:line: reason". */
#ifndef RS_SPEC_H
#define RS_SPEC_H

#include <stddef.h>

#include "base/err.h"

struct spec_entry {
	char *key;
	char *value;              /* "" for a bare key */
	size_t section;           /* 0 = global, else index + 1 into spec.sections */
	unsigned line;
};

struct spec {
	char *name;               /* file name for messages */
	struct spec_entry *v;
	size_t n;
	char **sections;          /* section titles, in order */
	size_t nsections;
};

int spec_parse(const char *buf, size_t len, const char *name, struct spec *out,
	       struct rs_err *err);
int spec_read_file(const char *path, struct spec *out, struct rs_err *err);
void spec_free(struct spec *s);

/* Resolve a sweep or plot file named on the command line: name itself when
 * it exists or holds a '/', else the installed RS_DATADIR/dir/name(.ext)
 * when that exists, else (an rsweep run from its build tree, not installed
 * yet) the tree's own dir/name(.ext), else name (so the error names what
 * the user typed). */
void spec_find(const char *name, const char *dir, const char *ext, char *buf, size_t size);
/* The error for a name spec_find found nowhere: "NAME: no such sweep file
 * (looked for NAME, DATADIR/sweeps/NAME.sweep, TREE/sweeps/NAME.sweep)",
 * with "; did you mean m1-article?" before the parenthesis when an
 * installed or shipped file's name is a likely typo of NAME (near.h).
 * Returns -1. */
int spec_not_found(const char *name, const char *dir, const char *ext, struct rs_err *err);

#endif
