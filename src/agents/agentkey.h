/* agentkey.h: the shared key that signs what a leader and its agents say
 * to each other through the control Redis (--agents-key FILE).
 *
 * Whoever can write to the control Redis could otherwise steer an agent's
 * load at any server the agent may reach, and forge a point's result.  So
 * every message carries a field "mac": HMAC-SHA256, under a key that the
 * leader and its agents read from a file and the control Redis never sees,
 * of the stream the message is posted to and of every field before it, in
 * order, each length-prefixed.  A message moved to another stream (another
 * agent's work, another run's results), or with any byte changed, added or
 * dropped, does not verify.  A replay on its own stream is old: a point's
 * start more than a second past is refused, and a result names its run,
 * point and agent.
 *
 * No socket, no stdout: the key file is read here, and signing and
 * checking are pure functions of the key and the fields. */
#ifndef RS_AGENTKEY_H
#define RS_AGENTKEY_H

#include <stddef.h>

#include "agents/agentmsg.h"
#include "base/err.h"

#define AGENTKEY_MIN 16           /* bytes: at least 128 bits */
#define AGENTKEY_MAX 1024
#define AGENTKEY_FIELD "mac"
#define AGENTKEY_HEX 64           /* hex digits of a SHA-256 HMAC */

struct agentkey {
	unsigned char k[AGENTKEY_MAX];
	size_t n;
};

/* Read the key from path: a regular file that neither the group nor
 * others can read or write (as ssh asks of a private key), its bytes less
 * one trailing newline, AGENTKEY_MIN to AGENTKEY_MAX of them.  Returns 0,
 * or -1 with err (RS_E_INPUT, naming the file and the rule). */
int agentkey_load(const char *path, struct agentkey *key, struct rs_err *err);

/* Append the field "mac" to fs: the message's signature on stream. */
void agentkey_sign(const struct agentkey *key, const char *stream, struct agentmsg_fields *fs);

/* Check that the last of f[0..n) is "mac" and signs the fields before it on
 * stream.  Returns the number of fields signed (n - 1), or -1 with err
 * (RS_E_INPUT: no signature, or one that does not verify). */
long agentkey_verify(const struct agentkey *key, const char *stream,
		     const struct agentmsg_field *f, size_t n, struct rs_err *err);

/* Forget the key's bytes. */
void agentkey_clear(struct agentkey *key);

#endif
