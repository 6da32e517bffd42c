/* engine_conn.c: one load connection's life: open it (connect, TLS
 * handshake, AUTH, SELECT) onto its thread's loop, point its reader at
 * the job, reopen it (--reconnect-every), close it.  engine_run.c opens
 * and closes an engine's connections with these; the loop (engine.c)
 * reopens one mid-run.  Apart from both, so that neither calls the other
 * back. */
#include "config.h"

#include <hiredis/hiredis.h>
#include <stdlib.h>

#include "engine/engine.h"
#include "engine/engine_int.h"
#include "net/conn.h"
#include "net/target.h"
#include "os/ev.h"

/* Open c (connect, TLS handshake, AUTH, SELECT) before until
 * (conn_clock's seconds) and watch it on th's loop.  Returns 0, or -1
 * with err filled. */
int engine_conn_open(struct engine *e, struct engine_thread *th, struct engine_conn *c, double until,
		     struct rs_err *err)
{
	if (target_connect_resume(e->t, until, c->sess, &c->cn, err) < 0)
		return -1;
	c->fd = conn_fd(c->cn);
	c->tls = conn_is_tls(c->cn);
	c->wr_on_read = c->rd_on_write = 0;
	c->reader = engine_reply_reader(&th->reply);
	if (c->reader == NULL) {
		conn_close(c->cn);
		c->cn = NULL;
		c->fd = -1;
		return rs_err_set(err, "cannot create a reply reader");
	}
	c->th = th;
	c->want_out = 0;
	return ev_add(th->ev, c->fd, EV_READ, c, err);
}

void engine_conn_close(struct engine_conn *c)
{
	if (c->fd >= 0) {
		/* poll would report the closed descriptor: leave the loop first. */
		ev_del(c->th->ev, c->fd, NULL);
	}
	conn_close(c->cn);
	c->cn = NULL;
	c->fd = -1;
	if (c->reader != NULL)
		redisReaderFree(c->reader);
	c->reader = NULL;
}

/* Point c's reader at what job counts. */
void engine_conn_track(struct engine_thread *th, struct engine_conn *c, const struct engine_job *job)
{
	int mring = job->members != NULL && job->route != NULL;

	if (c->reader != NULL && job->replies > 1 && job->route == NULL)
		engine_reply_track_seq(c->reader, c);
	else if (c->reader != NULL)
		engine_reply_track(c->reader, &th->reply, mring ? c : NULL);
}

int engine_conn_reopen(struct engine_thread *th, struct engine_conn *c, struct rs_err *err)
{
	const struct engine_job *job = th->job;
	double limit = job->timeout > 0 ? job->timeout : TARGET_DEFAULT_TIMEOUT;
	double t0;

	/* The session to offer: the one this connection holds now, else
	 * (a connect that failed to get one) the last one kept. */
	if (job->tls_resume && c->cn != NULL) {
		struct conn_session *s = conn_session_get(c->cn);

		if (s != NULL) {
			conn_session_free(c->sess);
			c->sess = s;
		}
	}
	engine_conn_close(c);
	t0 = conn_clock();
	if (engine_conn_open(th->e, th, c, t0 + limit, err) < 0)
		return -1;
	hist_record_n(&th->res.connect, (uint64_t)((conn_clock() - t0) * 1e9), 1);
	th->res.resumed += (uint64_t)conn_resumed(c->cn);
	engine_conn_track(th, c, job);
	c->since = 0;
	c->part = 0;
	c->partial = 0;
	th->res.connects++;
	return 0;
}
