/* engine_reply.c: the engine's reply objects, which cost nothing: hiredis'
 * reader parses, and these functions only count what it found (errors,
 * misses, retries) and check the replies' types against the job's. */
#include "config.h"

#include <hiredis/hiredis.h>
#include <stdio.h>
#include <string.h>

#include "engine/engine_int.h"
#include "base/sbuf.h"

/* The reader needs a non-NULL object per reply; every reply shares this
 * one. */
static char engine_reply_obj;

/* Note a top-level reply whose type the job does not expect. */
static inline void engine_reply_check_type(const redisReadTask *task, struct engine_reply *r)
{
	unsigned kind;

	/* Called for every element of an LRANGE reply: leave at once for those. */
	if (task->parent != NULL)
		return;
	if (r->expect == 0 || r->wrong_type != 0)
		return;
	switch (task->type) {
	case REDIS_REPLY_STATUS: kind = ENGINE_REPLY_STATUS; break;
	case REDIS_REPLY_STRING: kind = ENGINE_REPLY_BULK; break;
	case REDIS_REPLY_INTEGER: kind = ENGINE_REPLY_INTEGER; break;
	case REDIS_REPLY_ARRAY: kind = ENGINE_REPLY_ARRAY; break;
	default: return;          /* errors are counted, never refused */
	}
	if (!(r->expect & kind)) {
		r->wrong_type = task->type;
		r->odd = 1;
	}
}

static const char *engine_reply_type_name(int type)
{
	switch (type) {
	case REDIS_REPLY_STATUS: return "a status reply";
	case REDIS_REPLY_STRING: return "a bulk string";
	case REDIS_REPLY_INTEGER: return "an integer";
	case REDIS_REPLY_ARRAY: return "an array";
	default: return "an unknown reply";
	}
}

/* Cluster: an error reply the route retries (1: not counted as an error)
 * or fails the run on (1 too, with r->failed). */
static __attribute__((noinline)) int engine_reply_route_error(struct engine_reply *r,
							      const char *str, size_t len)
{
	char why[sizeof r->retry_msg];
	int rc = r->route->on_error(r->route, str, len, why, sizeof why);

	if (rc == ENGINE_ROUTE_COUNT)
		return 0;
	if (rc == ENGINE_ROUTE_FAIL) {
		/* The first failure is the run's. */
		if (!r->failed) {
			r->failed = r->odd = 1;
			memcpy(r->fail_msg, why, sizeof why);
		}
		return 1;
	}
	r->retry++;
	r->redirects++;
	memcpy(r->retry_msg, why, sizeof why);
	return 1;
}

/* An error reply: a cluster's redirect for the route, or one counted
 * (and the first kept).  Apart, so that a plain reply's call stays lean. */
static __attribute__((noinline, cold)) void engine_reply_error(struct engine_reply *r,
							       const char *str, size_t len)
{
	if (r->route != NULL && engine_reply_route_error(r, str, len))
		return;
	if (r->errors++ == 0) {
		size_t n = len < sizeof r->first_error - 1 ? len : sizeof r->first_error - 1;

		memcpy(r->first_error, str, n);
		r->first_error[n] = '\0';
	}
}

/* The object functions' work, on r: inlined into the plain functions
 * (privdata is r) and the mix's (privdata is the connection). */
static inline void engine_reply_string_in(struct engine_reply *r, const redisReadTask *task,
					  const char *str, size_t len)
{
	engine_reply_check_type(task, r);
	if (task->parent == NULL && task->type == REDIS_REPLY_ERROR)
		engine_reply_error(r, str, len);
}

static inline void engine_reply_array_in(struct engine_reply *r, const redisReadTask *task,
					 int elements)
{
	engine_reply_check_type(task, r);
	if (task->parent == NULL && elements <= 0)
		r->misses++;
}

static inline void engine_reply_nil_in(struct engine_reply *r, const redisReadTask *task)
{
	engine_reply_check_type(task, r);
	if (task->parent == NULL)
		r->misses++;
}

static void *engine_reply_string(const redisReadTask *task, char *str, size_t len)
{
	engine_reply_string_in(task->privdata, task, str, len);
	return &engine_reply_obj;
}

static void *engine_reply_array(const redisReadTask *task, int elements)
{
	engine_reply_array_in(task->privdata, task, elements);
	return &engine_reply_obj;
}

static void *engine_reply_integer(const redisReadTask *task, long long value)
{
	struct engine_reply *r = task->privdata;

	engine_reply_check_type(task, r);
	/* PUBLISH's receivers (engine_result.int_sum): one add a reply. */
	if (task->parent == NULL && value > 0)
		r->int_sum += (uint64_t)value;
	return &engine_reply_obj;
}

static void *engine_reply_nil(const redisReadTask *task)
{
	engine_reply_nil_in(task->privdata, task);
	return &engine_reply_obj;
}

static void engine_reply_free_object(void *obj)
{
	(void)obj;
}

static redisReplyObjectFunctions engine_reply_fns = {
	engine_reply_string, engine_reply_array, engine_reply_integer,
	engine_reply_nil, engine_reply_free_object,
};

/* ---- a mix with a route: privdata is the connection ---- */

/* A top-level reply came, its route's retries at retry before it: its
 * request's member leaves c's ring, and a request the route retried was
 * not run, so it is not counted as sent (another, drawn afresh, takes
 * its place). */
static void engine_reply_mix_took(struct engine_conn *c, uint64_t retry)
{
	struct engine_thread *th = c->th;
	unsigned m = c->mring[c->mhead];

	c->mhead = c->mhead + 1 < th->job->depth ? c->mhead + 1 : 0;
	if (th->reply.retry != retry && th->res.member_sent[m] > 0)
		th->res.member_sent[m]--;
}

static void *engine_reply_mix_string(const redisReadTask *task, char *str, size_t len)
{
	struct engine_conn *c = task->privdata;
	struct engine_reply *r = &c->th->reply;
	uint64_t retry = r->retry;

	engine_reply_string_in(r, task, str, len);
	if (task->parent == NULL)
		engine_reply_mix_took(c, retry);
	return &engine_reply_obj;
}

static void *engine_reply_mix_array(const redisReadTask *task, int elements)
{
	struct engine_conn *c = task->privdata;

	engine_reply_array_in(&c->th->reply, task, elements);
	if (task->parent == NULL)
		engine_reply_mix_took(c, c->th->reply.retry);
	return &engine_reply_obj;
}

static void *engine_reply_mix_integer(const redisReadTask *task, long long value)
{
	struct engine_conn *c = task->privdata;

	(void)value;
	engine_reply_check_type(task, &c->th->reply);
	if (task->parent == NULL)
		engine_reply_mix_took(c, c->th->reply.retry);
	return &engine_reply_obj;
}

static void *engine_reply_mix_nil(const redisReadTask *task)
{
	struct engine_conn *c = task->privdata;

	engine_reply_nil_in(&c->th->reply, task);
	if (task->parent == NULL)
		engine_reply_mix_took(c, c->th->reply.retry);
	return &engine_reply_obj;
}

static redisReplyObjectFunctions engine_reply_mix_fns = {
	engine_reply_mix_string, engine_reply_mix_array, engine_reply_mix_integer,
	engine_reply_mix_nil, engine_reply_free_object,
};

/* ---- a sequence without a route: privdata is the connection ---- */

/* A request's errors are counted once: a sequence's when any of its
 * replies was an error, a transaction's when its last (EXEC's) was, or
 * held one (engine_reply_seq_string).  The first error's text is kept
 * when it is seen (it will count).  As for a plain command, the elements
 * of a sequence's arrays are not looked into. */
static void engine_reply_seq_text(struct engine_reply *r, const char *str, size_t len)
{
	if (r->first_error[0] == '\0') {
		size_t n = len < sizeof r->first_error - 1 ? len : sizeof r->first_error - 1;

		memcpy(r->first_error, str, n);
		r->first_error[n] = '\0';
	}
}

static void engine_reply_seq_error(struct engine_conn *c, const char *str, size_t len)
{
	if (c->rtx && c->rleft > 1)
		return;
	c->rerr = 1;
	engine_reply_seq_text(&c->th->reply, str, len);
}

/* A top-level reply of c's request came (array: an array with elements
 * to come): the request's error counted at its last. */
static inline void engine_reply_seq_took(struct engine_conn *c, int array)
{
	c->rtail = 0;
	if (--c->rleft > 0)
		return;
	c->rleft = c->rreplies;
	/* EXEC's array: an error among its elements, a command that failed
	 * when run, is the request's, counted as it comes. */
	if (c->rerr) {
		c->th->reply.errors++;
		c->rerr = 0;
	} else {
		c->rtail = array & c->rtx;
	}
}

static void *engine_reply_seq_string(const redisReadTask *task, char *str, size_t len)
{
	struct engine_conn *c = task->privdata;

	engine_reply_check_type(task, &c->th->reply);
	if (task->parent != NULL) {
		if (c->rtail && task->type == REDIS_REPLY_ERROR) {
			c->rtail = 0;
			c->th->reply.errors++;
			engine_reply_seq_text(&c->th->reply, str, len);
		}
		return &engine_reply_obj;
	}
	if (task->type == REDIS_REPLY_ERROR)
		engine_reply_seq_error(c, str, len);
	engine_reply_seq_took(c, 0);
	return &engine_reply_obj;
}

static void *engine_reply_seq_array(const redisReadTask *task, int elements)
{
	struct engine_conn *c = task->privdata;

	engine_reply_array_in(&c->th->reply, task, elements);
	if (task->parent == NULL)
		engine_reply_seq_took(c, elements > 0);
	return &engine_reply_obj;
}

static void *engine_reply_seq_integer(const redisReadTask *task, long long value)
{
	struct engine_conn *c = task->privdata;

	(void)value;
	engine_reply_check_type(task, &c->th->reply);
	if (task->parent == NULL)
		engine_reply_seq_took(c, 0);
	return &engine_reply_obj;
}

static void *engine_reply_seq_nil(const redisReadTask *task)
{
	struct engine_conn *c = task->privdata;

	engine_reply_nil_in(&c->th->reply, task);
	if (task->parent == NULL)
		engine_reply_seq_took(c, 0);
	return &engine_reply_obj;
}

static redisReplyObjectFunctions engine_reply_seq_fns = {
	engine_reply_seq_string, engine_reply_seq_array, engine_reply_seq_integer,
	engine_reply_seq_nil, engine_reply_free_object,
};

/* Every task of rd gets privdata pd.  A reader asked for a reply with its
 * buffer read to the end (maxbuf 0 keeps the buffer) has already set up
 * the next reply's task with the privdata of then: a plain job's replies
 * after a routed mix's (or the other way round) would reach functions
 * that take the other kind of privdata (issue 40, D2).  No reply is under
 * way between runs, so every task gets the new one. */
static void engine_reply_privdata(redisReader *rd, void *pd)
{
	rd->privdata = pd;
#if HIREDIS_MAJOR >= 1
	for (int i = 0; i < rd->tasks; i++)
		rd->task[i]->privdata = pd;
#else
	for (size_t i = 0; i < sizeof rd->rstack / sizeof rd->rstack[0]; i++)
		rd->rstack[i].privdata = pd;
#endif
}

void engine_reply_track(redisReader *rd, struct engine_reply *r, struct engine_conn *c)
{
	rd->fn = c != NULL ? &engine_reply_mix_fns : &engine_reply_fns;
	engine_reply_privdata(rd, c != NULL ? (void *)c : (void *)r);
}

void engine_reply_track_seq(redisReader *rd, struct engine_conn *c)
{
	c->rreplies = c->rleft = c->th->job->replies;
	c->rtx = c->th->job->transaction != 0;
	c->rerr = c->rtail = 0;
	rd->fn = &engine_reply_seq_fns;
	engine_reply_privdata(rd, c);
}

void engine_reply_reset(struct engine_reply *r, const struct engine_job *job)
{
	r->route = job->route;
	r->expect = job->expect;
	r->errors = r->misses = 0;
	r->first_error[0] = '\0';
	r->wrong_type = r->failed = r->odd = 0;
	r->retry = r->redirects = r->int_sum = 0;
	r->retry_msg[0] = r->fail_msg[0] = '\0';
}

redisReader *engine_reply_reader(struct engine_reply *r)
{
	redisReader *rd = redisReaderCreateWithFunctions(&engine_reply_fns);

	if (rd == NULL)
		return NULL;
	rd->privdata = r;
	/* Keep the read buffer between replies instead of freeing it past 16k. */
	rd->maxbuf = 0;
	return rd;
}

void engine_reply_wrong(const struct engine_reply *r, char *buf, size_t size)
{
	static const int types[] = { REDIS_REPLY_STATUS, REDIS_REPLY_STRING,
				     REDIS_REPLY_INTEGER, REDIS_REPLY_ARRAY };
	char want[96];
	struct sbuf b;

	sbuf_fixed(&b, want, sizeof want);
	for (unsigned i = 0; i < 4; i++)
		if (r->expect & (1u << i))
			sbuf_item(&b, " or ", "%s", engine_reply_type_name(types[i]));
	snprintf(buf, size, "the server replied with %s where the command gets %s",
		 engine_reply_type_name(r->wrong_type), want);
}
