/* fake_server.h: a fake Redis on a private UNIX socket, for the tests that
 * need what a real server will not do (a 200 MB reply, garbage, a reply a
 * byte at a time, requests held to count them, a scripted reply).
 *
 * The fixture owns the socket, its directory, the accepting thread and a
 * thread per connection; the test owns what is said on a connection, in
 * the serve function it gives.  Every wait here gives up when the test
 * stops the server, so that a serve function blocked on a client that
 * went quiet returns and fake_server_stop() never hangs.
 *
 * Failures to set up are Criterion assertions: the calling test fails. */
#ifndef RS_TESTS_FAKE_SERVER_H
#define RS_TESTS_FAKE_SERVER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <sys/types.h>

#define FAKE_MAX_CONNS 8          /* further connections are closed at once */

struct fake_server;

struct fake_conn {
	struct fake_server *srv;
	int fd;
	pthread_t tid;
};

/* Serve one connection; return to hang up (the fixture shuts the socket
 * down, which wakes a client waiting for the rest of a reply). */
typedef void (*fake_serve_fn)(struct fake_conn *c);

struct fake_server {
	char dir[48];             /* /tmp/rsweep-NAME-XXXXXX */
	char path[64];            /* dir/fake.sock */
	int lfd;
	pthread_t tid;
	int running;              /* the accepting thread was started */
	atomic_int stop;
	fake_serve_fn serve;
	const void *ud;           /* the test's, for its serve function */
	struct fake_conn conns[FAKE_MAX_CONNS];
	int nconns;               /* the accepting thread's until stopped */
};

/* Listen on a new socket (its directory named after name), and serve each
 * connection with serve on a thread of its own.  SIGPIPE is ignored from
 * here on: the client writes to sockets the fake may close, and rsweep's
 * main ignores it the same way. */
void fake_server_start(struct fake_server *s, const char *name, fake_serve_fn serve,
		       const void *ud);

/* Stop accepting and serving, join every thread, close every socket and
 * remove the files.  Safe on a server never started (zeroed). */
void fake_server_stop(struct fake_server *s);

/* Wait until fd is ready for events: 0 when it is, -1 when the server
 * stops or poll fails. */
int fake_wait(struct fake_server *s, int fd, short events);

/* Send all of buf: 0, or -1 when the client went away or the server stops. */
int fake_send(struct fake_server *s, int fd, const char *buf, size_t len);

/* Read up to size bytes.  ms < 0: wait for them; else what comes within
 * ms milliseconds.  Returns the count (0: nothing came), or -1 at the end
 * of the stream or when the server stops. */
ssize_t fake_recv(struct fake_server *s, int fd, char *buf, size_t size, int ms);

/* The handshake a target_connect() without password or database makes
 * (SELECT 0), answered +OK.  Returns 0, or -1 when the client sent
 * anything else or went away. */
int fake_handshake(struct fake_conn *c);

/* The first RESP request in buf[0..have): its first word, upper-cased and
 * cut to size, into verb (may be NULL).  Returns its length, 0 while it
 * is incomplete, -1 when it is not a RESP request. */
ssize_t fake_request(const char *buf, size_t have, char *verb, size_t size);

/* A serve function: answer each request with the next of the replies in
 * s->ud (a NULL-terminated array of strings), then hang up. */
void fake_serve_script(struct fake_conn *c);

#endif
