/* target_addr.h: where the server is and how to reach it: its address,
 * credentials, database, TLS settings and timeouts, and how they read in
 * messages.  Data only, below the connection room (conn.h opens a struct
 * target, target.h talks over it), so that neither climbs back up. */
#ifndef RS_TARGET_ADDR_H
#define RS_TARGET_ADDR_H

#include <signal.h>

/* TLS on the connection, as redis-cli's options mean it.  Certificates and
 * host names are verified unless insecure is set. */
struct target_tls {
	int on;                   /* --tls, or a rediss:// URI */
	int insecure;             /* --insecure: no verification at all */
	const char *sni;          /* server name to send and verify (NULL: host) */
	const char *cacert;       /* PEM file of trusted CAs (NULL: the system's) */
	const char *cacertdir;    /* directory of trusted CAs */
	const char *cert;         /* client certificate, PEM */
	const char *key;          /* its private key, PEM */
	const char *ciphers;      /* TLS 1.2 and below */
	const char *ciphersuites; /* TLS 1.3 */
};

struct target {
	const char *host;
	unsigned port;
	const char *socket;       /* non-NULL: UNIX socket */
	const char *user;
	const char *password;     /* never printed */
	unsigned dbnum;
	struct target_tls tls;
	/* A Redis Cluster replica read from: READONLY after the connect, or
	 * it redirects every read to its master. */
	int readonly;
	double connect_timeout;   /* seconds */
	double timeout;           /* seconds a command may take, send to end of reply */
	/* Set by a signal handler to stop (NULL: never).  A command that is
	 * waiting when it goes from 0 to non-zero fails with "interrupted"
	 * within 100 ms; one begun after it was set (the flush on the way
	 * out) still runs, within t->timeout. */
	volatile sig_atomic_t *stop;
	char desc[160];           /* "unix:/path" or "host:port", for messages */
	char row_desc[128];       /* for the CSV's target column: desc, or what a
				   * spawned server is ("" : desc) */
};

/* Whether the server runs on this machine as far as the address tells: a
 * UNIX socket, localhost or a loopback address. */
int target_is_local(const struct target *t);

/* Fill t->desc from the address. */
void target_describe(struct target *t);

#endif
