/* cmd_import.c: placeholder until the import room lands. */
#include "config.h"

#include "cmd.h"

enum rs_status cmd_import(struct rs_config *cfg, struct rs_err *err)
{
	(void)cfg;
	rs_err_set(err, "import is not built yet");
	return RS_FAILED;
}
