/* conn_tls.c: TLS on a connection (OpenSSL), not built yet. */
#include "config.h"

#include <errno.h>

#include "conn_int.h"

int conn_tls_start(struct conn *c, const struct target *t, double deadline, struct rs_err *err)
{
	(void)c;
	(void)deadline;
	return rs_err_setk(err, RS_E_USAGE, "%s: TLS is not supported by this build", t->desc);
}

ssize_t conn_tls_read(struct conn *c, void *buf, size_t len, struct rs_err *err)
{
	(void)c;
	(void)buf;
	(void)len;
	errno = ENOTSUP;
	rs_err_set(err, "read failed: no TLS");
	return CONN_ERROR;
}

ssize_t conn_tls_write(struct conn *c, const void *buf, size_t len, struct rs_err *err)
{
	(void)c;
	(void)buf;
	(void)len;
	errno = ENOTSUP;
	rs_err_set(err, "write failed: no TLS");
	return CONN_ERROR;
}

size_t conn_tls_pending(const struct conn *c)
{
	(void)c;
	return 0;
}

void conn_tls_free(struct conn *c)
{
	c->ssl = NULL;
}
