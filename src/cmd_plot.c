/* cmd_plot.c: placeholder until the plot room lands. */
#include "config.h"

#include "cmd.h"

enum rs_status cmd_plot(struct rs_config *cfg, struct rs_err *err)
{
	(void)cfg;
	rs_err_set(err, "plot is not built yet");
	return RS_FAILED;
}
