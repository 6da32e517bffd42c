/* cluster.h: a Redis Cluster's topology, its 16,384-slot map and the
 * keys that follow it.
 *
 * The parsers here (a CLUSTER SLOTS reply, a MOVED or ASK error, a RESP
 * command's key) never touch a socket: cluster_read() is the one function
 * that asks a server, through target.h. */
#ifndef RS_CLUSTER_H
#define RS_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "net/target.h"

struct redisReply;

#define CLUSTER_SLOTS 16384
#define CLUSTER_NONE 0xffffu      /* a slot no master serves */
#define CLUSTER_MAX_MASTERS 1024

struct cluster_master {
	char host[128];
	unsigned port;
	char id[48];              /* node id, "" when the reply had none */
	char desc[160];           /* "host:port", for messages */
	unsigned slots;           /* how many slots it serves */
	/* Its first replica as CLUSTER SLOTS lists it: rport 0 when none. */
	char rhost[128];
	unsigned rport;
	char rdesc[160];          /* "host:port" */
};

struct cluster_topo {
	struct cluster_master *m;
	size_t n;
	/* slot -> index into m, or CLUSTER_NONE.  Updated on MOVED while the
	 * load runs: read and written with __atomic builtins only. */
	uint16_t owner[CLUSTER_SLOTS];
	unsigned unassigned;      /* slots no master serves */
};

/* CRC16/XMODEM, Redis Cluster's key hash. */
unsigned cluster_crc16(const char *buf, size_t len);
/* The slot of a key: of what is between the first '{' and the next '}'
 * when that is not empty, else of the whole key. */
unsigned cluster_key_slot(const char *key, size_t len);

/* Build topo from a CLUSTER SLOTS reply.  A master whose host is empty
 * (a node that does not know its own address) gets seed_host.  Returns 0,
 * or -1 with err naming what in the reply is wrong (not an array, a range
 * out of 0..16383 or overlapping another, a port out of range); topo is
 * freed with cluster_topo_free either way. */
int cluster_parse_slots(const struct redisReply *r, const char *seed_host,
			struct cluster_topo *topo, struct rs_err *err);
void cluster_topo_free(struct cluster_topo *topo);
/* Master i of topo as a target: seed's credentials, TLS and timeouts,
 * the master's address (its host points into topo), database 0. */
void cluster_master_target(const struct cluster_topo *topo, size_t i, const struct target *seed,
			   struct target *out);
/* Master i's first replica as a target, as cluster_master_target makes
 * the master's, READONLY on (target.h).  Returns 0, or -1 when master i
 * has no replica. */
int cluster_replica_target(const struct cluster_topo *topo, size_t i, const struct target *seed,
			   struct target *out);
/* The index of the master at host:port, or -1. */
int cluster_find(const struct cluster_topo *topo, const char *host, unsigned port);

/* What an error reply means to a cluster client. */
enum cluster_redirect {
	CLUSTER_ERR_OTHER,        /* an ordinary error */
	CLUSTER_ERR_MOVED,        /* "MOVED slot host:port": the slot has a new owner */
	CLUSTER_ERR_ASK,          /* "ASK slot host:port": this key is being migrated */
	CLUSTER_ERR_RETRY,        /* TRYAGAIN or CLUSTERDOWN: not run, try later */
};
/* Classify the error text msg (len bytes, without the '-'); for MOVED
 * and ASK fill *slot, host (size bytes) and *port.  A MOVED or ASK whose
 * slot or address does not read is CLUSTER_ERR_OTHER. */
enum cluster_redirect cluster_parse_error(const char *msg, size_t len, unsigned *slot,
					  char *host, size_t size, unsigned *port);

/* Where the key (argument 1) of the RESP command cmd is: *off and *len.
 * Returns 0, or -1 when cmd is not a RESP array of at least two bulk
 * strings (an inline command, PING). */
int cluster_key_arg(const char *cmd, size_t len, size_t *off, size_t *klen);
/* Where argument idx of the RESP command cmd is.  Returns 0 or -1. */
int cluster_arg(const char *cmd, size_t len, long idx, size_t *off, size_t *alen);
/* Whether cmd runs a script or function (EVAL, EVALSHA, FCALL and their
 * _RO forms), whose argument 1 is the script, not a key: 1 with
 * *numkeys0 set when it names no key, else 0. */
int cluster_is_script(const char *cmd, size_t len, int *numkeys0);
/* The length of the first RESP command in buf, or 0 when it is not a
 * whole one. */
size_t cluster_cmd_len(const char *buf, size_t len);

/* Whether the RESP command cmd (len bytes) is an MSET: 1 or 0. */
int cluster_is_mset(const char *cmd, size_t len);
/* A hash tag "{N}" whose slot master serves, N the smallest that does,
 * into buf.  Returns 0, or -1 when the master serves no slot. */
int cluster_tag(const struct cluster_topo *topo, size_t master, char *buf, size_t size);
/* cmd with its key (argument 1) followed by tag, into a malloc'd *out of
 * *outlen bytes; the nrand offsets of rand_off are moved to where the
 * same bytes are now, into out_off (nrand entries).  Returns 0, -1
 * when cmd has no key (cluster_key_arg), or -2 when its key has a hash
 * tag of its own, which a tag after it would not override. */
int cluster_retag(const char *cmd, size_t len, const size_t *rand_off, size_t nrand,
		  const char *tag, char **out, size_t *outlen, size_t *out_off);
/* Of the ncmds RESP commands in buf, those for master: with tag NULL
 * the ones whose key's slot master serves; with a tag, every one with
 * its key followed by tag.  Into a malloc'd *out, *outlen bytes, *outn
 * commands.  Returns 0, or -1 when buf does not read as ncmds commands
 * with keys. */
int cluster_route_cmds(const struct cluster_topo *topo, size_t master, const char *tag,
		       const char *buf, size_t len, size_t ncmds, char **out, size_t *outlen,
		       size_t *outn, struct rs_err *err);
/* Whether master serves the slot of at least one key "prefix N" with N
 * in 0..keyspace-1, looking at the first 2^20 of them at most: 1 or 0. */
int cluster_owns_any(const struct cluster_topo *topo, size_t master, const char *key,
		     size_t klen, size_t digits_off, size_t digits, uint64_t keyspace);

/* Ask the server behind c for its topology: INFO cluster (a server not in
 * cluster mode, or a cluster whose state is not ok, is refused with err
 * of kind RS_E_INPUT naming it), then CLUSTER SLOTS.  A cluster with
 * unassigned slots is refused too.  Returns 0 or -1. */
int cluster_read(struct target_conn *c, const struct target *t, struct cluster_topo *topo,
		 struct rs_err *err);

#endif
