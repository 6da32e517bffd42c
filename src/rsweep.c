/* rsweep.c: main.  Picks the subcommand, parses its options, runs it, and
 * alone decides what is printed on failure and which exit status follows:
 * 0 success, 1 run-time failure, 2 usage error or bad input, 130 interrupted,
 * 141 standard output is a pipe its reader closed. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "opts.h"

static const struct {
	enum opts_cmd cmd;
	enum rs_status (*fn)(struct rs_config *, struct rs_err *);
} commands[] = {
	{ CMD_RUN, cmd_run },
	{ CMD_PLOT, cmd_plot },
	{ CMD_REPORT, cmd_report },
	{ CMD_IMPORT, cmd_import },
};

/* Exit status when standard output is a pipe whose reader has gone: what
 * a shell shows for a command that SIGPIPE stopped (128 + 13). */
#define RS_EXIT_PIPE 141

static int usage_error(const char *msg)
{
	fprintf(stderr, "rsweep: %s (see rsweep --help)\n", msg);
	return RS_BAD_INPUT;
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

/* Flush standard output, print what failed, and return the exit status.
 * A reader that went away (rsweep report | head) ends rsweep quietly, as
 * SIGPIPE ends other tools; another write error names standard output.
 * result_on_stdout: the command's result went there (report or import
 * without -o), so its failure while standard output has an error is that
 * error, and is said once. */
static int main_finish(const char *who, enum rs_status st, const struct rs_err *err,
		       int result_on_stdout)
{
	int e = fflush(stdout) != 0 ? errno : 0;
	int bad = e != 0 || ferror(stdout);

	if (bad && (st == RS_OK || (st == RS_FAILED && result_on_stdout))) {
		if (main_stdout_gone(e))
			return RS_EXIT_PIPE;
		fprintf(stderr, "%s: standard output: %s\n", who, e ? strerror(e) : "write error");
		return RS_FAILED;
	}
	if (st != RS_OK && err != NULL && err->msg[0] != '\0')
		fprintf(stderr, "%s: %s\n", who, err->msg);
	return (int)st;
}

int main(int argc, char **argv)
{
	struct rs_config cfg;
	struct rs_err err = { "" };
	enum opts_cmd cmd;
	enum rs_status st = RS_FAILED;
	char who[64];
	int on_stdout;

	/* A peer that goes away is an error to report (EPIPE), not a reason to die. */
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2)
		return usage_error("no command given (run, plot, report or import)");
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "-?") == 0) {
		opts_usage(0, stdout);
		return main_finish("rsweep", RS_OK, NULL, 1);
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("rsweep %s\n", PACKAGE_VERSION);
		return main_finish("rsweep", RS_OK, NULL, 1);
	}
	if (strcmp(argv[1], "help") == 0) {
		if (argc < 3) {
			opts_usage(0, stdout);
			return main_finish("rsweep", RS_OK, NULL, 1);
		}
		if (opts_cmd_parse(argv[2], &cmd) < 0) {
			snprintf(err.msg, sizeof err.msg, "help: unknown command '%s'", argv[2]);
			return usage_error(err.msg);
		}
		opts_usage(cmd, stdout);
		return main_finish("rsweep", RS_OK, NULL, 1);
	}
	if (opts_cmd_parse(argv[1], &cmd) < 0) {
		snprintf(err.msg, sizeof err.msg, "unknown command '%s'", argv[1]);
		return usage_error(err.msg);
	}
	snprintf(who, sizeof who, "rsweep %s", argv[1]);
	if (opts_defaults(cmd, &cfg, &err) < 0 ||
	    opts_parse_argv(cmd, argc - 1, argv + 1, &cfg, &err) < 0) {
		fprintf(stderr, "%s: %s (see rsweep %s --help)\n", who, err.msg, argv[1]);
		opts_free(&cfg);
		return RS_BAD_INPUT;
	}
	if (cfg.password != NULL) {
		/* opts_parse_argv has already blanked it in argv. */
		fprintf(stderr, "Warning: Using a password with '-a' or '--password' on the command "
			"line may not be safe; prefer the REDISCLI_AUTH environment variable.\n");
	}
	if (cfg.help) {
		opts_usage(cmd, stdout);
		opts_free(&cfg);
		return main_finish(who, RS_OK, NULL, 1);
	}
	if (cfg.version) {
		printf("rsweep %s\n", PACKAGE_VERSION);
		opts_free(&cfg);
		return main_finish(who, RS_OK, NULL, 1);
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (commands[i].cmd == cmd)
			st = commands[i].fn(&cfg, &err);
	on_stdout = (cmd == CMD_REPORT || cmd == CMD_IMPORT) &&
		    (cfg.output == NULL || strcmp(cfg.output, "-") == 0);
	opts_free(&cfg);
	return main_finish(who, st, &err, on_stdout);
}
