/* workload.h: the test catalogue.
 *
 * Each test is a command template in redis-benchmark's shape (keys
 * "key:__rand_int__", "mylist", ...) plus what must exist before it is
 * timed so that it reads real data.  This room formats commands and plans
 * preparation; it never touches a socket.  It builds on the engine's
 * terms (reply kinds, digit patching), never the other way round. */
#ifndef RS_WORKLOAD_H
#define RS_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

#define WORKLOAD_RAND "__rand_int__"
#define WORKLOAD_RAND_LEN 12      /* the engine patches exactly this many digits in */
/* The longest --key-prefix, in bytes: a prefix rides on every key of every
 * request, so it is kept short enough not to change what is measured. */
#define WORKLOAD_PREFIX_MAX 64

/* What a test needs before it is timed. */
enum workload_prep {
	PREP_NONE,
	PREP_STRINGS,             /* the keys GET asks for exist */
	PREP_LIST_POP,            /* mylist has one element per request */
	PREP_LIST_RANGE,          /* mylist has at least 600 elements */
	PREP_SET_POP,             /* myset has one member per request */
	PREP_ZSET_POP,            /* myzset has one member per request */
};

/* The most members a mix holds (the engine's ENGINE_MAX_MEMBERS) and the
 * largest weight of one (ENGINE_MAX_WEIGHT). */
#define WORKLOAD_MIX_MAX 16
#define WORKLOAD_MIX_WEIGHT_MAX 1000000u

/* A test chosen for a run, with its command formatted once. */
struct workload_test {
	char name[128];           /* GET, LRANGE_100, or the custom command line */
	char prefix[WORKLOAD_PREFIX_MAX + 1];   /* in front of every key; "" when none */
	char prepare_key[WORKLOAD_PREFIX_MAX + 8];  /* prefix + mylist/myset/myzset, or "" */
	char cmdstat[64];         /* INFO commandstats name: "get", "lrange" */
	enum workload_prep prep;
	unsigned expect;          /* ENGINE_REPLY_* kinds its replies may be; 0: any (custom) */
	char *cmd;                /* RESP (or inline) bytes of one request */
	size_t len;
	size_t *rand_off;         /* offsets of each __rand_int__ in cmd */
	size_t nrand;
	/* __key__ (a custom command's placeholder, workload_sequence): one key
	 * a request, so its first place is among rand_off, at key_from, and
	 * every other place (copy_off) repeats those digits.  ncopy 0: none. */
	size_t key_from;
	size_t *copy_off;
	size_t ncopy;
	/* Replies to one request: 1, or a sequence's commands (and MULTI and
	 * EXEC around them with --transaction). */
	unsigned replies;
	/* Its values: how many arguments are -d's data ("@" of the catalogue,
	 * a whole-word __data__), and when there is one, after every key, the
	 * place of its RESP bulk string in cmd, "$N\r\n...\r\n", from
	 * value_at to value_end, which --data-size-range sizes per request
	 * (engine_member.value_at).  value_end 0: none such. */
	unsigned ndata;
	size_t value_at, value_end;
	/* --expire: the TTL in seconds its writes and its preparation's keys
	 * get (workload_expire); 0: none. */
	uint64_t expire;
	/* The keys it may write, for the guard (workload_key_bound): names
	 * without __rand_int__, with one (-r names each), with several. */
	unsigned key_fixed, key_rand, key_multi;
	unsigned key_per_request; /* keys one request may create */
	int key_any;              /* may write keys its arguments do not name */
	int custom;               /* a command after --: may touch any database */
	/* A mix (-t mix:get=80,set=20, named MIX_GET80_SET20): each request
	 * one of its members (catalogue tests, formatted as any), drawn with
	 * probability weight / the weights' sum.  A mix has no bytes of its
	 * own (cmd NULL, nrand 0), len is its longest member's, expect the
	 * union of theirs, prep PREP_NONE (workload_prepare_cmds prepares
	 * every member's), cmdstat "" (each member has its own).  nmembers is
	 * 0 for a plain test. */
	struct workload_test *members;
	unsigned weights[WORKLOAD_MIX_MAX];
	size_t nmembers;
	/* A sequence (workload_sequence): members are its commands in the
	 * order sent, weights how often each is repeated in a row; cmd, len,
	 * rand_off and copy_off are the whole sequence's bytes, sent as one
	 * request of `replies` replies.  The engine never draws its members. */
	int sequence;
	/* PUBLISH to subscribers (-t publish): its first __rand_int__ is the
	 * channel's number, its value (value_at) the message, whose first
	 * PUBSUB_STAMP_LEN bytes the engine stamps (engine_pubsub).  1
	 * PUBLISH, 2 SPUBLISH (sharded: SSUBSCRIBE); 0 any other test. */
	int pubsub;
};

struct workload {
	struct workload_test *v;
	size_t n;
	size_t cap;               /* allocated room of v */
};

/* Select tests from a comma list of names (NULL or "" = all 19, in
 * redis-benchmark's order; PUBLISH and SPUBLISH only by name).  Names are case-insensitive; "ping" selects
 * both PINGs and "lrange" all four LRANGE tests.  data_size is -d.  With
 * keyspace 0 __rand_int__ stays literal, as in redis-benchmark.
 *
 * An item "mix:NAME=WEIGHT" starts a mix; the items after it of the form
 * NAME=WEIGHT are its further members (a plain name has no '='), so
 * "get,mix:get=80,set=20,incr" is GET, MIX_GET80_SET20, INCR (and a
 * "mix:" item starts the next mix).  Members
 * are catalogue tests (one each: not a group such as "lrange"), weights
 * integers 1..WORKLOAD_MIX_WEIGHT_MAX, 2..WORKLOAD_MIX_MAX members, none
 * twice; anything else fails with RS_E_USAGE naming the problem. */
int workload_select(const char *list, uint64_t data_size, struct workload *out,
		    struct rs_err *err);
/* Whether prefix can stand in front of rsweep's keys: 0, or -1 with err
 * (RS_E_USAGE) naming the problem: empty, longer than WORKLOAD_PREFIX_MAX
 * bytes, a control character or a blank, a '{' or '}' (a hash tag: every
 * key of a cluster would land in one slot), or __rand_int__ (the engine
 * would overwrite it).  Pure. */
int workload_prefix_check(const char *prefix, struct rs_err *err);
/* workload_select with every key of every test under prefix: argument 1
 * of each catalogue command that has one and each key of MSET become
 * prefix + key; members, fields and values stay as they are, and rand_off
 * points at the digits in the prefixed bytes.  prefix NULL or "" is
 * workload_select, byte for byte.  -1 with err when workload_prefix_check
 * refuses prefix, or as workload_select. */
int workload_select_prefix(const char *list, uint64_t data_size, const char *prefix,
			   struct workload *out, struct rs_err *err);
/* A custom test from argv (rsweep run -- SET k:__rand_int__ v).  Its
 * arguments are sent as given: no prefix. */
int workload_custom(int argc, char **argv, struct workload *out, struct rs_err *err);
/* The command after -- as valkey-benchmark takes it: commands separated
 * by ";" words, each with an optional repeat count before it ("SET k v ;
 * 4 GET k"), placeholders in any word: __key__ one key a request (drawn
 * under -r and --key-dist, the same in every command of the request),
 * __rand_int__ drawn apart at each place, __data__ data_size bytes of
 * 'x'.  One command without --transaction is one test as workload_custom
 * makes it (its placeholders expanded); several, or any with transaction
 * (MULTI first, EXEC last), are one sequence (struct workload_test's
 * sequence), named by its words as given, " ; " between commands.  At
 * most WORKLOAD_MIX_MAX commands, counts 1..WORKLOAD_SEQ_REPEAT_MAX and
 * WORKLOAD_SEQ_MAX commands a request in all.  0, or -1 with err
 * (RS_E_USAGE) naming the problem. */
#define WORKLOAD_SEQ_REPEAT_MAX 1000u
#define WORKLOAD_SEQ_MAX 10000u
int workload_sequence(int argc, char **argv, uint64_t data_size, int transaction,
		      struct workload *out, struct rs_err *err);
void workload_free(struct workload *w);

/* What one point of a test needs in rsweep's memory, worked out from the
 * options alone (nothing of data_size is formatted): the request
 * template, the batch buffers (depth copies of a request, one set per
 * connection when keys are random, keyspace > 0), and one reply per
 * connection in the reader for the tests whose replies carry the data
 * (GET one value, LRANGE_N N of them).  A point that needs more than
 * WORKLOAD_MEMORY_MAX is refused, by run before it allocates and by an
 * agent before it loads: one rule for both. */
#define WORKLOAD_MEMORY_MAX ((uint64_t)1 << 30)
struct workload_memory {
	uint64_t bytes;           /* the largest over the tests (UINT64_MAX: overflows) */
	char test[128];           /* the test that needs it */
};
/* For the tests of list (as workload_select takes it) at depth with
 * clients connections; 0, or -1 with err set for an unknown test. */
int workload_memory(const char *list, uint64_t data_size, unsigned depth, uint64_t clients,
		    uint64_t keyspace, struct workload_memory *out, struct rs_err *err);
/* The same check as one rule: 0 when the point fits WORKLOAD_MEMORY_MAX,
 * else -1 with err naming the test, depth and bytes ("use a smaller -d,
 * -P or -c"). */
int workload_memory_check(const char *list, uint64_t data_size, unsigned depth,
			  uint64_t clients, uint64_t keyspace, struct rs_err *err);
/* The same two with the tests' keys under prefix (NULL or "": none), whose
 * requests are longer by the prefix once per key. */
int workload_memory_prefix(const char *list, const char *prefix, uint64_t data_size,
			   unsigned depth, uint64_t clients, uint64_t keyspace,
			   struct workload_memory *out, struct rs_err *err);
int workload_memory_check_prefix(const char *list, const char *prefix, uint64_t data_size,
				 unsigned depth, uint64_t clients, uint64_t keyspace,
				 struct rs_err *err);

/* A command file (--commands FILE): one mix test of custom commands, one
 * line each, "WEIGHT COMMAND ARGS...": the weight 1..WORKLOAD_MIX_WEIGHT_MAX,
 * the words split at blanks with '...' and "..." quoting (targets_split),
 * '#' lines and blank lines skipped, 1..WORKLOAD_MIX_MAX commands, none
 * twice.  In a word __key__ is __rand_int__ (a key drawn under -r and
 * --key-dist) and __data__ data_size bytes of 'x'.  The test is named
 * MIX_ and the file's base name without its extension, upper case (MIX_FILE
 * for "-"); each member is custom (workload_custom's rules: replies of any
 * kind, cmdstat its command's lower-case name) and so is the mix (any
 * database).  Returns 0, or -1 with err (RS_E_INPUT) as one line
 * "FILE:LINE: problem".  workload_commands_parse takes the text, named
 * name, and is pure. */
int workload_commands_file(const char *path, uint64_t data_size, struct workload *out,
			   struct rs_err *err);
int workload_commands_parse(const char *buf, size_t len, const char *name, uint64_t data_size,
			    struct workload *out, struct rs_err *err);

/* A mix's members and weights as -t spells them, lower case, into buf:
 * "get=80,set=20" ("" for a plain test): the CSV's mix column.  A custom
 * member (--commands) keeps its line as written: "GET k:__key__=80". */
void workload_mix_spec(const struct workload_test *t, char *buf, size_t size);

/* --ratio S:G (memtier_benchmark's Set:Get) as the -t item it stands for,
 * "mix:set=S,get=G", into buf: 0, or -1 with err (RS_E_USAGE) naming the
 * problem (not two integers 1..WORKLOAD_MIX_WEIGHT_MAX around a ':').
 * Pure. */
int workload_ratio(const char *ratio, char *buf, size_t size, struct rs_err *err);

/* --expire SECONDS on the catalogue's tests of w: SET gets EX; INCR,
 * LPUSH, RPUSH, SADD, HSET and ZADD become a request of the write and an
 * EXPIRE of its key (a sequence: struct workload_test's sequence); a
 * read's prepared keys get the TTL (t->expire).  0, or -1 with err
 * (RS_E_USAGE): MSET, a custom command, or a write other than SET in a
 * mix. */
int workload_expire(struct workload *w, uint64_t seconds, struct rs_err *err);

/* The names of the catalogue, NULL-terminated (for help and completion). */
const char *const *workload_names(void);
/* Where test name (any case) stands in redis-benchmark's order, the
 * catalogue's: 0 for PING_INLINE; a name it does not know ranks after all
 * it knows. */
size_t workload_rank(const char *name);

/* No point fails on a reply smaller than this. */
#define WORKLOAD_MAX_REPLY_FLOOR ((uint64_t)64 << 20)
/* The largest reply a point accepts at -d data_size (engine_job.max_reply):
 * more than any catalogue test can get, so only a broken or hostile server
 * reaches it.  At least WORKLOAD_MAX_REPLY_FLOOR. */
uint64_t workload_max_reply(uint64_t data_size);

/* Whether test t holds a command of one's own that can destroy or move
 * data it does not name (FLUSHALL, FLUSHDB, SWAPDB, MOVE, RENAME, DEBUG,
 * SCRIPT FLUSH, ..., or DEL, UNLINK or GETDEL of a key no other command of
 * the test writes): 1 with "FLUSHALL empties every database" into buf
 * (size bytes), or 0.  Pure (workload_danger.c). */
int workload_danger(const struct workload_test *t, char *buf, size_t size);

/* Check that preparing t for count requests is reasonable (elements and
 * bytes: the values, and t->prefix once per key it fills), without
 * building anything. */
int workload_prepare_check(const struct workload_test *t, uint64_t count, uint64_t keyspace,
			   uint64_t data_size, struct rs_err *err);

/* The one key test t's preparation fills ("mylist", "myset", "myzset"
 * behind t->prefix: "rsw:mylist"), or NULL when it fills none or many.
 * It points into t. */
const char *workload_prepare_key(const struct workload_test *t);

/* The most keys test t can leave in the server after its preparation
 * (prepare set) and `sent` of its requests (UINT64_MAX: not known, as with
 * --duration or --warmup), with keys in 0..keyspace-1: at most every name
 * it can write, at most what the requests can create.  UINT64_MAX when
 * there is no bound: a command after -- that can write keys its arguments
 * do not name (a script or function, DEBUG, MODULE, REPLICAOF). */
uint64_t workload_key_bound(const struct workload_test *t, uint64_t sent, uint64_t keyspace,
			    int prepare);

/* Commands that prepare test t for `count` requests and a keyspace, every
 * key they write behind t->prefix: appended as RESP to *buf (grown with
 * xrealloc), *ncmds set to the number of commands, so the caller can
 * pipeline them and read that many replies.  Fails when the preparation
 * would be unreasonably large. */
int workload_prepare_cmds(const struct workload_test *t, uint64_t count, uint64_t keyspace,
			  uint64_t data_size, char **buf, size_t *len, size_t *ncmds,
			  struct rs_err *err);
/* A member's preparation as a mix's walk asks for it: into *buf (NULL on
 * entry: it allocates), *len bytes of *ncmds commands.  0, or -1 with err
 * and nothing in *buf. */
typedef int workload_part_fn(void *ctx, const struct workload_test *member, char **buf,
			     size_t *len, size_t *ncmds, struct rs_err *err);
/* The preparation of every member of mix t, as part(ctx, member, ...)
 * builds each, end to end into *buf (NULL on entry), *len bytes of *ncmds
 * commands: each member for every request, since any request may draw it.
 * The one walk over a mix's members: workload_prepare_part builds a mix's
 * so, and the sweep so on a cluster, where each member's keys are routed
 * apart.  0, or -1 with err prefixed by t's name and *buf NULL. */
int workload_prepare_members(const struct workload_test *t, workload_part_fn *part, void *ctx,
			     char **buf, size_t *len, size_t *ncmds, struct rs_err *err);
/* The same with values of data_min..data_size bytes (--data-size-range):
 * each element's size drawn uniformly, the same from run to run, of random
 * bytes (of 'x' when data_min is data_size: workload_prepare_cmds). */
int workload_prepare_sized(const struct workload_test *t, uint64_t count, uint64_t keyspace,
			   uint64_t data_min, uint64_t data_size, char **buf, size_t *len,
			   size_t *ncmds, struct rs_err *err);
/* A part of it: the commands that fill elements from..upto-1 (of every
 * member of a mix), in WORKLOAD_PREP_PART steps from 0, so that a caller
 * can send a part, see whether it was asked to stop, and build the next
 * with the memory of one part; 0 commands when from is past the end.
 * The parts of 0..UINT64_MAX in turn are workload_prepare_sized's
 * commands, in its order. */
int workload_prepare_part(const struct workload_test *t, uint64_t count, uint64_t keyspace,
			  uint64_t data_min, uint64_t data_size, uint64_t from, uint64_t upto,
			  char **buf, size_t *len, size_t *ncmds, struct rs_err *err);
/* The elements the parts of test t's preparation run over (0: none to
 * prepare): the most of any member's. */
uint64_t workload_prepare_elements(const struct workload_test *t, uint64_t count,
				   uint64_t keyspace);
/* Elements a part of a preparation holds: 64 variadic commands. */
#define WORKLOAD_PREP_PART 64000

#endif
