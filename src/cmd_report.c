/* cmd_report.c: placeholder until the report room lands. */
#include "config.h"

#include "cmd.h"

enum rs_status cmd_report(struct rs_config *cfg, struct rs_err *err)
{
	(void)cfg;
	rs_err_set(err, "report is not built yet");
	return RS_FAILED;
}
