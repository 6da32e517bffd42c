/* cmd_run.c: placeholder until the run room lands. */
#include "config.h"

#include "cmd.h"

enum rs_status cmd_run(struct rs_config *cfg, struct rs_err *err)
{
	(void)cfg;
	rs_err_set(err, "run is not built yet");
	return RS_FAILED;
}
