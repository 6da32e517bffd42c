/* workload_catalogue.c: the tests rsweep knows, in redis-benchmark's
 * order: data only, so that the rooms that name tests (series, charts)
 * share the catalogue without the command building of workload_build.c. */
#include "config.h"

#include <stddef.h>
#include <strings.h>

#include "engine/engine.h"
#include "engine/pubsub_msg.h"
#include "workload/workload.h"
#include "workload/workload_int.h"

/* "@" stands for the -d value.  Keys and shapes follow redis-benchmark 7. */
const struct workload_entry workload_catalogue[] = {
	{ "PING_INLINE", "ping", "ping", PREP_NONE, ENGINE_REPLY_STATUS, 0, { NULL }, 0 },   /* inline: special-cased */
	{ "PING_MBULK", "ping", "ping", PREP_NONE, ENGINE_REPLY_STATUS, 0, { "PING", NULL }, 0 },
	{ "SET", NULL, "set", PREP_NONE, ENGINE_REPLY_STATUS, WORKLOAD_KEY1, { "SET", "key:__rand_int__", "@", NULL }, 0 },
	{ "GET", NULL, "get", PREP_STRINGS, ENGINE_REPLY_BULK, WORKLOAD_KEY1, { "GET", "key:__rand_int__", NULL }, 0 },
	{ "INCR", NULL, "incr", PREP_NONE, ENGINE_REPLY_INTEGER, WORKLOAD_KEY1, { "INCR", "counter:__rand_int__", NULL }, 0 },
	{ "LPUSH", NULL, "lpush", PREP_NONE, ENGINE_REPLY_INTEGER, WORKLOAD_KEY1, { "LPUSH", "mylist", "@", NULL }, 0 },
	{ "RPUSH", NULL, "rpush", PREP_NONE, ENGINE_REPLY_INTEGER, WORKLOAD_KEY1, { "RPUSH", "mylist", "@", NULL }, 0 },
	{ "LPOP", NULL, "lpop", PREP_LIST_POP, ENGINE_REPLY_BULK, WORKLOAD_KEY1, { "LPOP", "mylist", NULL }, 0 },
	{ "RPOP", NULL, "rpop", PREP_LIST_POP, ENGINE_REPLY_BULK, WORKLOAD_KEY1, { "RPOP", "mylist", NULL }, 0 },
	{ "SADD", NULL, "sadd", PREP_NONE, ENGINE_REPLY_INTEGER, WORKLOAD_KEY1, { "SADD", "myset", "element:__rand_int__", NULL }, 0 },
	{ "HSET", NULL, "hset", PREP_NONE, ENGINE_REPLY_INTEGER, WORKLOAD_KEY1, { "HSET", "myhash", "element:__rand_int__", "@", NULL }, 0 },
	{ "SPOP", NULL, "spop", PREP_SET_POP, ENGINE_REPLY_BULK, WORKLOAD_KEY1, { "SPOP", "myset", NULL }, 0 },
	{ "ZADD", NULL, "zadd", PREP_NONE, ENGINE_REPLY_INTEGER, WORKLOAD_KEY1, { "ZADD", "myzset", "0", "element:__rand_int__", NULL }, 0 },
	{ "ZPOPMIN", NULL, "zpopmin", PREP_ZSET_POP, ENGINE_REPLY_ARRAY, WORKLOAD_KEY1, { "ZPOPMIN", "myzset", NULL }, 0 },
	{ "LRANGE_100", "lrange", "lrange", PREP_LIST_RANGE, ENGINE_REPLY_ARRAY, WORKLOAD_KEY1, { "LRANGE", "mylist", "0", "99", NULL }, 0 },
	{ "LRANGE_300", "lrange", "lrange", PREP_LIST_RANGE, ENGINE_REPLY_ARRAY, WORKLOAD_KEY1, { "LRANGE", "mylist", "0", "299", NULL }, 0 },
	{ "LRANGE_500", "lrange", "lrange", PREP_LIST_RANGE, ENGINE_REPLY_ARRAY, WORKLOAD_KEY1, { "LRANGE", "mylist", "0", "449", NULL }, 0 },
	{ "LRANGE_600", "lrange", "lrange", PREP_LIST_RANGE, ENGINE_REPLY_ARRAY, WORKLOAD_KEY1, { "LRANGE", "mylist", "0", "599", NULL }, 0 },
	{ "MSET", NULL, "mset", PREP_NONE, ENGINE_REPLY_STATUS, WORKLOAD_KEYS_MSET,
	  { "MSET", "key:__rand_int__", "@", "key:__rand_int__", "@", "key:__rand_int__", "@",
	    "key:__rand_int__", "@", "key:__rand_int__", "@", "key:__rand_int__", "@",
	    "key:__rand_int__", "@", "key:__rand_int__", "@", "key:__rand_int__", "@",
	    "key:__rand_int__", "@", NULL }, 0 },
	/* Only by name, with subscribers (engine/pubsub.h): the digits are the
	 * channel's number, the value the message, a stamp first. */
	{ "PUBLISH", NULL, "publish", PREP_NONE, ENGINE_REPLY_INTEGER, 0,
	  { "PUBLISH", PUBSUB_CHANNEL WORKLOAD_RAND, "@", NULL }, 1 },
	/* Sharded pub/sub (Redis 7): SSUBSCRIBE, and on a cluster each master
	 * its own channels. */
	{ "SPUBLISH", NULL, "spublish", PREP_NONE, ENGINE_REPLY_INTEGER, 0,
	  { "SPUBLISH", PUBSUB_CHANNEL WORKLOAD_RAND, "@", NULL }, 2 },
};
#define NCAT (sizeof workload_catalogue / sizeof workload_catalogue[0])
const size_t workload_ncat = NCAT;

const char *const *workload_names(void)
{
	static const char *names[NCAT + 1];

	for (size_t i = 0; i < workload_ncat; i++)
		names[i] = workload_catalogue[i].name;
	return names;
}

size_t workload_rank(const char *name)
{
	size_t r = 0;

	for (; r < workload_ncat; r++)
		if (strcasecmp(workload_catalogue[r].name, name) == 0)
			break;
	return r;
}
