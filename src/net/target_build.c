/* target_build.c: a definition and the command's settings into a struct
 * target (target_build.h). */
#include "config.h"

#include <string.h>

#include "base/log.h"
#include "base/xalloc.h"
#include "net/target_build.h"

int target_build(const struct targets_def *d, const struct target_settings *s,
		 const struct spawn *sp, struct target *t, struct rs_err *err)
{
	int spawned = targets_spawned(d->kind);

	memset(t, 0, sizeof *t);
	if (spawned != (sp != NULL))
		return rs_err_setk(err, RS_E_INPUT, "target '%s': %s", d->label,
				   spawned ? "a spawned server that has not started" :
				   "a running server given for an address");
	t->connect_timeout = s->connect_timeout;
	t->timeout = s->timeout;
	t->stop = s->stop;
	t->dbnum = s->dbnum;
	t->user = s->user;
	/* A URI's password wins over -a, and -a over REDISCLI_AUTH. */
	t->password = s->password != NULL ? targets_password(s->password) :
		      s->env_password ? targets_env_password() : NULL;
	targets_apply(d, t);
	if (sp != NULL) {
		t->socket = sp->socket[0] ? sp->socket : NULL;
		t->host = "127.0.0.1";
		t->port = sp->port;
		t->password = NULL;   /* our own server has none */
		if (sp->transport == SPAWN_TLS) {
			/* Verified, against its own certificate and nothing else. */
			t->tls.on = 1;
			t->tls.cacert = sp->cafile;
			rs_log(RS_LOG_DEBUG, "%s: TLS on 127.0.0.1:%u, trusting %s",
			       d->label[0] ? d->label : "spawned", sp->port, sp->cafile);
		}
	} else if (t->tls.on && s->tls != NULL) {
		t->tls = *s->tls;
		t->tls.on = 1;
	}
	target_describe(t);
	return 0;
}

void target_build_addr(struct targets_def *d, const char *socket, const char *host,
		       unsigned port, int tls)
{
	memset(d, 0, sizeof *d);
	d->kind = socket != NULL ? TARGETS_UNIX : TARGETS_TCP;
	d->path = socket != NULL ? xstrdup(socket) : NULL;
	d->host = host != NULL ? xstrdup(host) : NULL;
	d->port = port;
	d->tls = tls;
}

void target_build_spawned(struct targets_def *d, enum spawn_transport transport)
{
	memset(d, 0, sizeof *d);
	d->kind = transport == SPAWN_TLS ? TARGETS_SPAWN_TLS : transport == SPAWN_TCP ?
		  TARGETS_SPAWN_TCP : TARGETS_SPAWN;
}
