/* opts_help.c: the usage text: the subcommands, and a command's options
 * as --help lists them, in the option table's order (opts_table.c). */
#include "config.h"

#include <stdio.h>

#include "cli/opts.h"
#include "cli/opts_int.h"

/* "-c, --clients N" or "    --spawn[=PATH]" */
static void opts_left(const struct opt_def *d, char *buf, size_t size)
{
	const char *open = d->type == OT_OPTSTRING ? "[=" : d->arg ? " " : "";
	const char *close = d->type == OT_OPTSTRING ? "]" : "";

	if (d->short_name)
		snprintf(buf, size, "-%c, --%s%s%s%s", d->short_name, d->name, open,
			 d->arg ? d->arg : "", close);
	else
		snprintf(buf, size, "    --%s%s%s%s", d->name, open, d->arg ? d->arg : "", close);
}

void opts_usage(enum opts_cmd cmd, FILE *fp)
{
	if (cmd == 0) {
		fprintf(fp, "Usage: rsweep COMMAND [options]\n\n"
			"Measure how a Redis server's throughput grows with pipeline depth.\n\n"
			"Commands:\n");
		for (size_t i = 0; i < opts_ncmds; i++)
			fprintf(fp, "  %-8s %s\n", opts_cmd_rows[i].name, opts_cmd_rows[i].what);
		fprintf(fp, "  %-8s %s\n", "help", "help COMMAND: the options of COMMAND");
		fprintf(fp, "\n'rsweep COMMAND --help' lists a command's options; 'man rsweep' has it all.\n");
		return;
	}
	for (size_t i = 0; i < opts_ncmds; i++)
		if (opts_cmd_rows[i].cmd == cmd)
			fprintf(fp, "Usage: rsweep %s %s\n\n%s.\n\nOptions:\n", opts_cmd_rows[i].name,
				opts_cmd_rows[i].synopsis, opts_cmd_rows[i].what);
	for (size_t i = 0; i < opts_nrows; i++) {
		const struct opt_def *d = &opts_rows[i];
		char left[64];

		if (!(d->cmds & cmd))
			continue;
		opts_left(d, left, sizeof left);
		fprintf(fp, "  %-28s %s", left, d->help);
		if (d->choices)
			fprintf(fp, " (%s)", opts_choices(d));
		if (d->def)
			fprintf(fp, " [%s]", d->def);
		fputc('\n', fp);
	}
}
