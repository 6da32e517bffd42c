/* cmd.h: the subcommands.  Each lives in its own cmd_NAME.c, takes the
 * parsed options, writes its results, and returns a status; only main
 * (rsweep.c) prints err and turns the status into an exit code. */
#ifndef RS_CMD_H
#define RS_CMD_H

#include "err.h"
#include "opts.h"

enum rs_status {
	RS_OK = 0,
	RS_FAILED = 1,            /* run-time failure: server, I/O */
	RS_BAD_INPUT = 2,         /* usage error or bad input */
	RS_INTERRUPTED = 130,     /* SIGINT / SIGTERM */
};

enum rs_status cmd_run(struct rs_config *cfg, struct rs_err *err);
enum rs_status cmd_plot(struct rs_config *cfg, struct rs_err *err);
enum rs_status cmd_report(struct rs_config *cfg, struct rs_err *err);
enum rs_status cmd_import(struct rs_config *cfg, struct rs_err *err);

#endif
