/* inputs.h: the one input pipeline of report, plot and export: result
 * CSV files in, their histogram sidecars, --relabel, --tests and --depths,
 * every target's password blanked, and the outputs that would overwrite
 * an input refused.
 *
 * Each command says what it needs (struct inputs_opts) and keeps what is
 * its own: plot picks tests per panel, report reads --baseline FILE.
 * Order is fixed: the files, each in turn; then the sidecars (keyed by the
 * labels as written, so before --relabel); then --relabel, --tests,
 * --depths.  Nothing here writes to stdout; notes about a file (rows left
 * out) go through rs_log. */
#ifndef RS_INPUTS_H
#define RS_INPUTS_H

#include <stddef.h>

#include "base/depths.h"
#include "base/err.h"
#include "analysis/latency.h"
#include "results/row.h"
#include "results/runenv.h"

struct rs_config;

struct inputs_opts {
	char *const *files;       /* the CSV operands ("-" is standard input) */
	size_t nfiles;
	char *const *relabel;     /* --relabel specs, in order */
	size_t nrelabel;
	const char *tests;        /* --tests: keep these tests' rows; NULL keeps all */
	const struct depth_list *depths; /* --depths; NULL keeps all */
	int hist;                 /* read the sidecars into the latency set */
	int each_has_rows;        /* a file of a header alone is refused (plot) */
	int quiet;                /* no note about what a file left out */
};

/* o from the options of cmd (CMD_REPORT, CMD_PLOT, CMD_EXPORT): files,
 * --relabel, --tests and --depths as given; hist, each_has_rows and quiet
 * are 0 (the caller's to set).  o points into cfg. */
void inputs_opts_from(const struct rs_config *cfg, struct inputs_opts *o);

/* Read o's files into rows (appended to what rows holds) and, with
 * o->hist, their histograms into ls (NULL without o->hist), then apply
 * --relabel, --tests and --depths.  Every row's target comes out without
 * a password (redact_target).  Returns 0, or -1 with err of kind
 * RS_E_INPUT naming the file (and line) or the option and the problem;
 * rows and ls are then the caller's to free as they are. */
int inputs_read(const struct inputs_opts *o, struct rs_rows *rows, struct latency_set *ls,
		struct rs_err *err);

/* The environment sidecars (runenv.h) of every file rows came from, into
 * set, each record's target, server arguments and command without a
 * password (redact.h), as the rows' targets are.  A sidecar that does not
 * read is said (rs_log, "... (WHO leaves that environment out)") and left
 * out: the output stands without it.  Free set with runenv_set_free. */
void inputs_envs(const struct rs_rows *rows, struct runenv_set *set, const char *who);

/* Keep the rows whose test list selects (series_tests_pick, strict: each
 * item must select a test of the data).  Returns 0 or -1 (err prefixed
 * "--tests", RS_E_INPUT). */
int inputs_keep_tests(struct rs_rows *rows, const char *list, struct rs_err *err);

/* Whether out (an output file a command is about to write; NULL or "-"
 * is standard output, always fine) may be written: not one of files[0..n)
 * nor one's sidecars (FILE.csv.hist, FILE.csv.env), by name or, when both exist, by
 * device and inode (a link, another spelling).  Returns 0, or -1 with err
 * of kind RS_E_USAGE "-o OUT is the input FILE: ...". */
int inputs_output_check(const char *out, char *const *files, size_t n, struct rs_err *err);

#endif
