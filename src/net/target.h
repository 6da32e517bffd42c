/* target.h: the server rsweep talks to, and its control connection.
 *
 * Connect (TCP, UNIX or TLS, through conn.h), AUTH, SELECT; read INFO; flush with the safety
 * guard's help; read commandstats and CPU.  Every call has a timeout; this
 * room never times anything.
 *
 * Every command on the control connection (AUTH, SELECT, INFO, FLUSHALL,
 * DUMP, RESTORE, ...) fails when its reply is not complete t->timeout
 * seconds after it was sent, however the server spreads the bytes out; a
 * preparation pipeline when a reply is not complete t->timeout seconds
 * after the one before.  No reply may be larger than TARGET_MAX_REPLY, and
 * a stop (^C) that arrives while a command waits fails it at once.  After
 * any of these failures the connection is unusable (half a reply may be
 * in flight) and every later command on it fails without being sent:
 * target_close it and connect again. */
#ifndef RS_TARGET_H
#define RS_TARGET_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "net/target_addr.h"

struct target_conn;
struct conn;
struct conn_session;

/* The largest reply a control command may get, in bytes: the engine's cap
 * for load replies.  INFO is a few kilobytes; a bigger one is garbage, and
 * reading it unbounded is how a server would exhaust rsweep's memory. */
#define TARGET_MAX_REPLY ((size_t)64 << 20)

/* Seconds without a reply before a command (or a point) fails, when
 * --timeout is 0: run's and agent's default alike. */
#define TARGET_DEFAULT_TIMEOUT 10

/* Open the control connection (conn_open: TCP, UNIX or TLS, within
 * t->connect_timeout), AUTH and SELECT done, and READONLY when
 * t->readonly (a cluster replica read from).  On failure err reads
 * "<desc>: <reason>" and *out is NULL; a plain connection whose server
 * answers its first command as a TLS port does says so (RS_E_INPUT). */
int target_connect(const struct target *t, struct target_conn **out, struct rs_err *err);

/* Open a connection as target_connect does and hand over its conn
 * (conn.h, non-blocking), for the engine.  Returns 0 or -1. */
int target_connect_conn(const struct target *t, struct conn **out, struct rs_err *err);

/* target_connect_conn with the whole exchange (connect, TLS handshake,
 * AUTH, SELECT) done before until, seconds on CLOCK_MONOTONIC (conn.h's
 * conn_clock), as well as within each step's own timeout: the engine
 * opens its connections under one deadline, so that a server answering
 * each of them just in time cannot hold the setup for clients times
 * --timeout.  A step the deadline cut short fails saying so. */
int target_connect_until(const struct target *t, double until, struct conn **out,
			 struct rs_err *err);

/* target_connect_until offering TLS session s (conn.h's
 * conn_open_session; NULL: none), for the engine's reconnects. */
int target_connect_resume(const struct target *t, double until, struct conn_session *s,
			  struct conn **out, struct rs_err *err);

/* Run a command whose reply must not be an error; the reply is discarded. */
int target_simple(struct target_conn *c, const struct target *t, struct rs_err *err,
		  const char *fmt, ...);

/* INFO section into a malloc'd string (caller frees). */
int target_info(struct target_conn *c, const struct target *t, const char *section,
		char **out, struct rs_err *err);
/* Redis Cluster: the CLUSTER SLOTS reply as hiredis built it (caller
 * frees it with freeReplyObject); an error reply fails, quoting it. */
struct redisReply;
int target_cluster_slots(struct target_conn *c, const struct target *t,
			 struct redisReply **out, struct rs_err *err);
/* Run the command of argc arguments (argv[i], argvlen[i] bytes) and hand
 * back its reply (caller frees it with freeReplyObject); an error reply
 * fails, quoting it. */
int target_command(struct target_conn *c, const struct target *t, int argc, const char **argv,
		   const size_t *argvlen, struct redisReply **out, struct rs_err *err);
/* target_command, with an error reply kept in *out for the caller (who
 * frees it). */
int target_command_any(struct target_conn *c, const struct target *t, int argc,
		       const char **argv, const size_t *argvlen, struct redisReply **out,
		       struct rs_err *err);
/* CLUSTER MYID: the node's id into id (cut to size).  An error reply (a
 * node not in cluster mode) fails, err naming it. */
int target_cluster_myid(struct target_conn *c, const struct target *t, char *id, size_t size,
			struct rs_err *err);
/* CLUSTER INFO's text into a malloc'd string (caller frees). */
int target_cluster_info(struct target_conn *c, const struct target *t, char **out,
			struct rs_err *err);
/* Copy the value of "field:" in an INFO text into buf ("" if absent). */
void target_info_field(const char *info, const char *field, char *buf, size_t size);

/* A server's place in replication, from INFO replication. */
struct target_repl {
	int replica;              /* role:slave */
	int link_up;              /* a replica's master_link_status:up */
	/* The primary's master_repl_offset, or a replica's slave_repl_offset
	 * (replica_repl_offset where a server names it so): bytes of the
	 * replication stream; -1 when INFO gives none. */
	int64_t offset;
	/* master_replid: a replica's equals its primary's once in sync; ""
	 * when INFO gives none. */
	char replid[48];
};
/* Read r from the text of INFO replication; never fails. */
void target_repl_parse(const char *info, struct target_repl *r);
/* INFO replication, parsed.  0, or -1 (err). */
int target_repl(struct target_conn *c, const struct target *t, struct target_repl *r,
		struct rs_err *err);

/* Keys in all databases (INFO keyspace). */
int target_key_count(struct target_conn *c, const struct target *t, uint64_t *keys,
		     struct rs_err *err);
/* Keys in database db. */
int target_db_key_count(struct target_conn *c, const struct target *t, unsigned db,
			uint64_t *keys, struct rs_err *err);
/* FLUSHALL (db = 0) or FLUSHDB (db = 1).  A renamed or forbidden command is
 * a clear error. */
int target_flush(struct target_conn *c, const struct target *t, int db, struct rs_err *err);
/* The counters read around a timed window (target_point_stats). */
#define TARGET_STATS_NAMES 16
struct target_stats {
	int64_t calls;            /* calls= of cmdstat_<name>: 0 if the command has not
				   * run yet, -1 when the server gives no command
				   * statistics at all */
	double cpu;               /* used_cpu_sys + used_cpu_user, seconds; NAN if not given */
	int64_t hits, misses;     /* keyspace_hits and keyspace_misses; -1 if not given */
	/* name may be a comma list ("get,set": a mix's commands): calls is
	 * then their sum, and each[i] the calls of the i-th (-1 as calls). */
	int64_t each[TARGET_STATS_NAMES];
	size_t neach;
};
/* Read them in one INFO round trip (three on servers before 7.0, which
 * take one section per INFO), for the command name or the comma list of
 * at most TARGET_STATS_NAMES names.  -1 only when INFO fails. */
int target_point_stats(struct target_conn *c, const struct target *t, const char *name,
		       struct target_stats *st, struct rs_err *err);
/* Send a pipeline of n commands held in buf and read n replies; the first
 * error reply fails (after all n are read: the connection stays usable). */
int target_pipeline(struct target_conn *c, const struct target *t, const char *buf, size_t len,
		    size_t n, struct rs_err *err);
/* The same, its messages naming the exchange what ("XADD") rather than
 * "preparation". */
int target_pipeline_as(struct target_conn *c, const struct target *t, const char *what,
		       const char *buf, size_t len, size_t n, struct rs_err *err);

/* DUMP key into a malloc'd *payload of *len bytes.  Returns 0, 1 when
 * there is nothing to keep (an error reply: DUMP renamed or forbidden; no
 * such key; or a payload larger than TARGET_MAX_REPLY, read and dropped so
 * that the connection stays usable), or -1 when the connection failed. */
int target_dump(struct target_conn *c, const struct target *t, const char *key, char **payload,
		size_t *len, struct rs_err *err);
/* RESTORE key from a DUMP payload.  Returns 0, 1 when the server refuses
 * it (an error reply: another version's payload, a key in the way,
 * RESTORE forbidden), or -1 when the connection failed. */
int target_restore(struct target_conn *c, const struct target *t, const char *key,
		   const char *payload, size_t len, struct rs_err *err);

/* 1 when a command failed part-way on c and it can carry no more (target
 * it again), else 0. */
int target_failed(const struct target_conn *c);

void target_close(struct target_conn *c);

/* Keys per database, as INFO keyspace gives them (a database holding no
 * key is absent). */
struct target_keyspace {
	struct target_db_keys {
		unsigned db;
		uint64_t keys;
	} *v;
	size_t n;
	uint64_t total;           /* of every database */
};

/* Parse the text of INFO keyspace ("db3:keys=12,expires=0,...").  A line
 * starting "db" that does not read so fails, quoting it: the guard must not
 * guess.  ks is freed with target_keyspace_free, also after a failure. */
int target_keyspace_parse(const char *info, struct target_keyspace *ks, struct rs_err *err);
/* Keys of database db in ks (0 when absent). */
uint64_t target_keyspace_db(const struct target_keyspace *ks, unsigned db);
void target_keyspace_free(struct target_keyspace *ks);
/* INFO keyspace, parsed. */
int target_keyspace(struct target_conn *c, const struct target *t, struct target_keyspace *ks,
		    struct rs_err *err);

/* Which keys a limit counts. */
enum target_scope {
	TARGET_SCOPE_DB,          /* those of database dbnum; other databases do not count */
	TARGET_SCOPE_ONLY,        /* those of dbnum, and every other database must be empty */
	TARGET_SCOPE_ALL,         /* those of all databases together */
};
/* Whether ks holds at most allow keys in scope: 1 yes, 0 no. */
int target_keyspace_within(const struct target_keyspace *ks, unsigned dbnum,
			   enum target_scope scope, uint64_t allow);
/* Anchored Lua patterns, one of which every key rsweep can have written
 * matches (guard_patterns). */
struct target_names {
	char **pat;
	size_t n;
};
/* In one script (EVAL), so that no other command comes between: read the
 * keyspace into ks and, only when it is within scope and allow (2^53 or
 * more: no limit) and, names not NULL, every key of the connection's
 * database matches one of names (a foreign name is copied into bad),
 * FLUSHALL (db = 0) or FLUSHDB on the connection's database (db = 1).
 * Returns 0 flushed, 1 left alone because ks is beyond the limit or a key
 * is not rsweep's, 2 the server would not run the script (EVAL renamed,
 * refused by ACL, or the flush refused inside it: nothing was flushed, err
 * says why), -1 the connection failed or the keyspace could not be read. */
int target_flush_if(struct target_conn *c, const struct target *t, int db, unsigned dbnum,
		    enum target_scope scope, uint64_t allow, const struct target_names *names,
		    struct target_keyspace *ks, char *bad, size_t badsize, struct rs_err *err);
/* The fallback without EVAL: SCAN the connection's database; *bad (up
 * to badsize) gets the first key ok(ud, key, len) says is not rsweep's.
 * Returns 0 all rsweep's, 1 one is not, -1 the connection failed. */
int target_scan_names(struct target_conn *c, const struct target *t,
		      int (*ok)(void *ud, const char *key, size_t len), void *ud, char *bad,
		      size_t badsize, struct rs_err *err);
/* Whether the connection's database holds a key that starts with prefix
 * (SCAN MATCH: a walk over the whole database, for the start and the end
 * of a run, never per point): 1 yes (its name into first, size bytes), 0
 * no, -1 the connection failed. */
int target_scan_prefix(struct target_conn *c, const struct target *t, const char *prefix,
		       char *first, size_t size, struct rs_err *err);
/* Each key that starts with prefix (SCAN MATCH, as target_scan_prefix)
 * to each: 0 goes on, 1 ends the walk, -1 fails it (each sets err).
 * Returns 0 (walked through), 1 or -1. */
int target_scan_prefix_each(struct target_conn *c, const struct target *t, const char *prefix,
			    int (*each)(void *ud, const char *key, size_t len, struct rs_err *err),
			    void *ud, struct rs_err *err);
/* UNLINK every key that starts with prefix and that mine(ud, key, len)
 * says is to go (mine NULL: every one), found with SCAN MATCH and deleted
 * TARGET_UNLINK_BATCH at a time, in commands of at most per keys (as
 * target_unlink): the cost is a walk over the database, whatever -r was,
 * and a stop (^C) ends it at the next batch.  The count deleted into
 * *removed, also on failure.  0, or -1 (err). */
int target_unlink_prefix(struct target_conn *c, const struct target *t, const char *prefix,
			 int (*mine)(void *ud, const char *key, size_t len), void *ud, size_t per,
			 uint64_t *removed, struct rs_err *err);
/* Keys a pipeline of target_unlink carries before it waits for replies:
 * enough to keep the server busy, little enough to bound the buffer. */
#define TARGET_UNLINK_BATCH 8192
/* UNLINK the keys in names (n of them, NUL-terminated), pipelined in
 * commands of at most per keys each (1 on a cluster, where one command's
 * keys must share a slot).  0, or -1 (err; an error reply fails). */
int target_unlink(struct target_conn *c, const struct target *t, char *const *names, size_t n,
		  size_t per, struct rs_err *err);

#endif
