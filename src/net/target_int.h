/* target_int.h: what the control connection's rooms share inside net/
 * (target.c runs an exchange and connects; target_admin.c and
 * target_keys.c run commands through it).  Not for use outside net/. */
#ifndef RS_TARGET_INT_H
#define RS_TARGET_INT_H

#include <hiredis/hiredis.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "net/target.h"

/* One exchange on the control connection: what it sends, how long it may
 * take, and where each reply goes. */
struct target_xchg {
	struct target_conn *c;
	const struct target *t;
	const char *what;         /* the command's name, for messages */
	int per_reply;            /* the deadline restarts at each reply (pipelines) */
	int drop_big_bulk;        /* read and drop a bulk over the cap (DUMP) */
	int write_failed;         /* the server closed before taking the command */
	int capped;               /* the deadline is c->until, before t->timeout's */
	short read_ev, write_ev;  /* what the conn's last read, write waits for */
	sig_atomic_t stop0;       /* *t->stop when the exchange began */
	double deadline;          /* CLOCK_MONOTONIC seconds */
	uint64_t fed;             /* bytes read in this exchange */
	uint64_t partial;         /* bytes the reader consumed of the reply in progress */
	char head[24];            /* the first bytes of the reply: a bulk's length */
	size_t headlen;
	/* Each reply, the caller's from then on. */
	void (*on_reply)(struct target_xchg *x, redisReply *r);
	void *ud;
};

/* An exchange ended with the reply too large, dropped whole. */
#define TARGET_DROPPED 1

/* Send out[0..len) and read n replies to it, each handed to x->on_reply.
 * Writing and reading go together, so that a long pipeline cannot fill
 * both directions.  Returns 0, TARGET_DROPPED (only with drop_big_bulk), or
 * -1 with err filled and the context unusable. */
int target_exchange(struct target_xchg *x, const char *out, size_t len, size_t n,
		    struct rs_err *err);
/* The on_reply of a one-reply exchange: the reply into *(redisReply **)x->ud. */
void target_keep(struct target_xchg *x, redisReply *r);
/* Run one command, formatted as redisCommand formats it, and hand back its
 * reply (any type, the caller frees it).  what names it in messages (NULL:
 * the format's first word); drop_big as in struct target_xchg.  Returns 0,
 * TARGET_DROPPED, or -1 with err filled. */
int target_vrun(struct target_conn *c, const struct target *t, const char *what, int drop_big,
		redisReply **reply, struct rs_err *err, const char *fmt, va_list ap);
/* target_vrun with its arguments, never dropping a large reply. */
int target_run(struct target_conn *c, const struct target *t, const char *what,
	       redisReply **reply, struct rs_err *err, const char *fmt, ...);

#endif
