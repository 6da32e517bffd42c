/* rsweep.c: main.  Picks the subcommand, parses its options, runs it, and
 * alone decides what is printed on failure and which exit status follows,
 * from the kind of the error the command returned (err.h): 0 success, 1
 * run-time failure, 2 usage error, bad input or refused, 130 interrupted,
 * 141 standard output is a pipe its reader closed. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "base/log.h"
#include "cli/opts.h"

static const struct {
	enum opts_cmd cmd;
	int (*fn)(struct rs_config *, struct rs_err *);
} commands[] = {
	{ CMD_RUN, cmd_run },
	{ CMD_PLOT, cmd_plot },
	{ CMD_REPORT, cmd_report },
	{ CMD_IMPORT, cmd_import },
	{ CMD_AGENT, cmd_agent },
	{ CMD_EXPORT, cmd_export },
	{ CMD_CLEAN, cmd_clean },
};

/* Print a usage error (err, of kind RS_E_USAGE) with the way to help, and
 * return its exit status.  cmd: the subcommand whose help to point at, or
 * NULL for rsweep's. */
static int main_usage(const struct rs_err *err, const char *who, const char *cmd)
{
	fprintf(stderr, "%s: %s (see rsweep%s%s --help)\n", who, err->msg, cmd ? " " : "",
		cmd ? cmd : "");
	return (int)rs_err_status(err);
}

/* Whether standard output is a pipe nobody reads any more.  errno is
 * stale when the write that failed was an earlier one, so the pipe is
 * asked too: its write end polls POLLERR once the read end is closed. */
static int main_stdout_gone(int e)
{
	struct pollfd p = { STDOUT_FILENO, POLLOUT, 0 };
	struct stat st;

	if (e == EPIPE)
		return 1;
	if (fstat(STDOUT_FILENO, &st) < 0 || !S_ISFIFO(st.st_mode))
		return 0;
	return poll(&p, 1, 0) == 1 && (p.revents & POLLERR) != 0;
}

/* Flush standard output, print what failed, and return the exit status:
 * rc is the command's 0 or -1, err its error, whose kind alone decides
 * the status (err.h).  A reader that went away (rsweep report | head)
 * ends rsweep quietly, as SIGPIPE ends other tools; another write error
 * names standard output.  result_on_stdout: the command's result went
 * there (report or import without -o), so its run-time failure while
 * standard output has an error is that error, and is said once. */
static int main_finish(const char *who, int rc, const struct rs_err *err,
		       int result_on_stdout)
{
	int e = fflush(stdout) != 0 ? errno : 0;
	int bad = e != 0 || ferror(stdout);
	enum rs_status st = rc < 0 ? rs_err_status(err) : RS_OK;

	if (bad && (st == RS_OK || (st == RS_FAILED && result_on_stdout))) {
		if (main_stdout_gone(e))
			return RS_PIPE_GONE;
		fprintf(stderr, "%s: standard output: %s\n", who, e ? strerror(e) : "write error");
		return RS_FAILED;
	}
	if (st != RS_OK && st != RS_PIPE_GONE && err != NULL && err->msg[0] != '\0')
		fprintf(stderr, "%s: %s\n", who, err->msg);
	return (int)st;
}

/* "unknown command 'reprot'; did you mean report?" into err (usage). */
static void main_unknown_command(struct rs_err *err, const char *pre, const char *name)
{
	const char *near = opts_cmd_nearest(name);

	rs_err_setk(err, RS_E_USAGE, "%sunknown command '%s'%s%s%s", pre, name,
		    near ? "; did you mean " : "", near ? near : "", near ? "?" : "");
}

int main(int argc, char **argv)
{
	struct rs_config cfg;
	struct rs_err err = { 0 };
	enum opts_cmd cmd;
	int rc = rs_err_set(&err, "unknown command");
	char who[64];
	int on_stdout;

	/* A peer that goes away is an error to report (EPIPE), not a reason to die. */
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2) {
		rs_err_setk(&err, RS_E_USAGE, "no command given (run, plot, report, import, export or agent)");
		return main_usage(&err, "rsweep", NULL);
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "-?") == 0) {
		opts_usage(0, stdout);
		return main_finish("rsweep", 0, NULL, 1);
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("rsweep %s\n", PACKAGE_VERSION);
		return main_finish("rsweep", 0, NULL, 1);
	}
	if (strcmp(argv[1], "help") == 0) {
		if (argc < 3) {
			opts_usage(0, stdout);
			return main_finish("rsweep", 0, NULL, 1);
		}
		if (opts_cmd_parse(argv[2], &cmd) < 0) {
			main_unknown_command(&err, "help: ", argv[2]);
			return main_usage(&err, "rsweep", NULL);
		}
		opts_usage(cmd, stdout);
		return main_finish("rsweep", 0, NULL, 1);
	}
	if (opts_cmd_parse(argv[1], &cmd) < 0) {
		main_unknown_command(&err, "", argv[1]);
		return main_usage(&err, "rsweep", NULL);
	}
	snprintf(who, sizeof who, "rsweep %s", argv[1]);
	rs_log_init(who, 0);
	if (opts_defaults(cmd, &cfg, &err) < 0 ||
	    opts_parse_argv(cmd, argc - 1, argv + 1, &cfg, &err) < 0) {
		opts_free(&cfg);
		rs_err_as(&err, RS_E_USAGE);
		return main_usage(&err, who, argv[1]);
	}
	if (cfg.password != NULL) {
		/* opts_parse_argv has already blanked it in argv. */
		fprintf(stderr, "Warning: Using a password with '-a' or '--password' on the command "
			"line may not be safe; prefer the REDISCLI_AUTH environment variable.\n");
	}
	rs_log_init(who, cfg.verbose);
	if (cfg.help) {
		opts_usage(cmd, stdout);
		opts_free(&cfg);
		return main_finish(who, 0, NULL, 1);
	}
	if (cfg.version) {
		printf("rsweep %s\n", PACKAGE_VERSION);
		opts_free(&cfg);
		return main_finish(who, 0, NULL, 1);
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (commands[i].cmd == cmd)
			rc = commands[i].fn(&cfg, &err);
	on_stdout = (cmd == CMD_REPORT || cmd == CMD_IMPORT || cmd == CMD_EXPORT) &&
		    (cfg.output == NULL || strcmp(cfg.output, "-") == 0);
	opts_free(&cfg);
	return main_finish(who, rc, &err, on_stdout);
}
