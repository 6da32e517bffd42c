/* opts_int.h: what the option rooms of cli/ share (the table in
 * opts_table.c, the parser in opts.c, the usage text in opts_help.c), and
 * nothing another folder may use: opts.h is the interface, and
 * opts_table() hands the table out. */
#ifndef RS_OPTS_INT_H
#define RS_OPTS_INT_H

#include <stddef.h>

#include "cli/opts.h"

/* The option table, declared once, in --help's and the man page's order,
 * and how many rows it has (at most OPTS_MAX_ROWS: opts_table.c asserts
 * it).  A row's index is its index in rs_config's given[] and origin[]. */
extern const struct opt_def opts_rows[];
extern const size_t opts_nrows;

/* The subcommands: the name typed, its mask, and what --help says of it. */
struct opts_cmd_row {
	const char *name;
	enum opts_cmd cmd;
	const char *synopsis;
	const char *what;
};
extern const struct opts_cmd_row opts_cmd_rows[];
extern const size_t opts_ncmds;

#endif
