/* rsweep.c: main.  Picks the subcommand, parses its options, runs it, and
 * alone decides what is printed on failure and which exit status follows:
 * 0 success, 1 run-time failure, 2 usage error or bad input, 130 interrupted. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

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

static int usage_error(const char *msg)
{
	fprintf(stderr, "rsweep: %s (see rsweep --help)\n", msg);
	return RS_BAD_INPUT;
}

int main(int argc, char **argv)
{
	struct rs_config cfg;
	struct rs_err err = { "" };
	enum opts_cmd cmd;
	enum rs_status st = RS_FAILED;

	/* A peer that goes away is an error to report (EPIPE), not a reason to die. */
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2)
		return usage_error("no command given (run, plot, report or import)");
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0) {
		opts_usage(0, stdout);
		return RS_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("rsweep %s\n", PACKAGE_VERSION);
		return RS_OK;
	}
	if (strcmp(argv[1], "help") == 0) {
		if (argc < 3) {
			opts_usage(0, stdout);
			return RS_OK;
		}
		if (opts_cmd_parse(argv[2], &cmd) < 0) {
			snprintf(err.msg, sizeof err.msg, "help: unknown command '%s'", argv[2]);
			return usage_error(err.msg);
		}
		opts_usage(cmd, stdout);
		return RS_OK;
	}
	if (opts_cmd_parse(argv[1], &cmd) < 0) {
		snprintf(err.msg, sizeof err.msg, "unknown command '%s'", argv[1]);
		return usage_error(err.msg);
	}
	if (opts_defaults(cmd, &cfg, &err) < 0 ||
	    opts_parse_argv(cmd, argc - 1, argv + 1, &cfg, &err) < 0) {
		fprintf(stderr, "rsweep %s: %s (see rsweep %s --help)\n", argv[1], err.msg, argv[1]);
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
		return RS_OK;
	}
	if (cfg.version) {
		printf("rsweep %s\n", PACKAGE_VERSION);
		opts_free(&cfg);
		return RS_OK;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (commands[i].cmd == cmd)
			st = commands[i].fn(&cfg, &err);
	if (st != RS_OK && err.msg[0] != '\0')
		fprintf(stderr, "rsweep %s: %s\n", argv[1], err.msg);
	if ((fflush(stdout) != 0 || ferror(stdout)) && st == RS_OK) {
		fprintf(stderr, "rsweep %s: cannot write to standard output\n", argv[1]);
		st = RS_FAILED;
	}
	opts_free(&cfg);
	return (int)st;
}
