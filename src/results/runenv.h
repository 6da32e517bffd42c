/* runenv.h: the environment of each run, in a sidecar of the results CSV,
 * so that it costs the rows nothing and a report can say what differed
 * between two labels besides what was asked.
 *
 * The sidecar of FILE.csv is FILE.csv.env, JSON Lines: each line one
 * object of string members, "label", "target" (as the rows' target
 * column), "server_args" (a spawned server's, a password blanked: the
 * alternatives of --spawn-args share label and target) and "started_at"
 * (when the run began) among them, then the
 * environment's fields: the client's machine (host_env.h), the server's
 * configuration (target_env.h), the command that ran (report_env.c names
 * each for the reader).  A run writes a line for each target when its first row is
 * written, and a line with its end's load ("load_end") when it ends;
 * lines with one label, target, server_args and started_at are one
 * record, a later
 * member replacing an earlier one.  No line ever holds a password: the
 * command is written as main left it, a password blanked, and the
 * addresses redacted (redact.h).
 *
 * A torn last line (a crash mid-write) is ignored by the reader, and the
 * next append cuts it back. */
#ifndef RS_RUNENV_H
#define RS_RUNENV_H

#include <stddef.h>

#include "base/err.h"

#define RUNENV_SUFFIX ".env"

/* One field of a record: both strings owned by the record. */
struct runenv_kv {
	char *key;
	char *value;
};

/* One run's environment on one target. */
struct runenv {
	char *src;                /* the CSV it came with */
	struct runenv_kv *v;      /* label, target and started_at among them */
	size_t n;
};

struct runenv_set {
	struct runenv *v;
	size_t n;
};

/* Append one line of n fields (keys[i] = values[i]; an empty value is
 * left out) to the sidecar of the CSV at csv_path, and sync it; with
 * empty_first the sidecar is emptied first (a CSV made or emptied by this
 * run: what the sidecar held went with its rows).  The sidecar must be a
 * regular file, not a link.  Returns 0, or -1 with err naming the file. */
int runenv_append(const char *csv_path, int empty_first, const char *const *keys,
		  const char *const *values, size_t n, struct rs_err *err);

/* Parse buf[0..len), a sidecar named name, adding its records to set
 * (each with src, copied).  A last line without its newline is ignored.
 * Fails with "name:LINE: reason" on a line that is not an object of
 * strings; set keeps the records before it. */
int runenv_parse(const char *buf, size_t len, const char *name, const char *src,
		 struct runenv_set *set, struct rs_err *err);
/* Read the sidecar of csv_path into set; a missing one adds nothing.
 * Returns 0, or -1 as runenv_parse (or the system's reason to read). */
int runenv_read(const char *csv_path, struct runenv_set *set, struct rs_err *err);

/* Field key of e, "" when it has none. */
const char *runenv_get(const struct runenv *e, const char *key);
/* The latest record (by started_at) from the file src whose target and
 * server_args (as the rows have them) are the row's, preferring one whose
 * label is label (the rows may have been relabelled); NULL when there is
 * none. */
const struct runenv *runenv_find(const struct runenv_set *set, const char *src, const char *label,
				 const char *target, const char *server_args);

void runenv_set_free(struct runenv_set *set);

#endif
