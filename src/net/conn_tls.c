/* conn_tls.c: TLS on a connection, with OpenSSL: the context of each set
 * of TLS options built once, the handshake within the connect deadline,
 * non-blocking reads and writes, and every failure as one line that names
 * its cause. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "net/conn_int.h"
#include "base/infile.h"
#include "base/sbuf.h"
#include "base/xalloc.h"

/* A context for one set of TLS options.  Contexts hold no host name (each
 * connection's SSL does), so connections with the same options share one;
 * they live as long as the process. */
struct conn_tls_ctx {
	struct conn_tls_ctx *next;
	char *key;                /* the options it was built from */
	SSL_CTX *ctx;
};

static pthread_mutex_t conn_tls_lock = PTHREAD_MUTEX_INITIALIZER;
static struct conn_tls_ctx *conn_tls_ctxs;

/* OpenSSL's reason for the last failure on this thread ("unknown"), and
 * the queue emptied. */
static const char *conn_tls_reason(char *buf, size_t size)
{
	unsigned long e = ERR_peek_last_error();

	if (e == 0)
		snprintf(buf, size, "unknown reason");
	else
		ERR_error_string_n(e, buf, size);
	ERR_clear_error();
	return buf;
}

/* What tells one set of options from another. */
static char *conn_tls_key(const struct target_tls *o)
{
	const char *v[] = { o->cacert, o->cacertdir, o->cert, o->key, o->ciphers,
			    o->ciphersuites };
	struct sbuf b;

	sbuf_heap(&b);
	sbuf_printf(&b, "%d", o->insecure);
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		sbuf_printf(&b, "\x01%s%s", v[i] ? "=" : "", v[i] ? v[i] : "");
	return b.s;
}

/* Build the context for t's options.  Returns it, or NULL with err filled
 * (RS_E_INPUT: a file that does not load, ciphers that match nothing). */
static SSL_CTX *conn_tls_build(const struct target *t, struct rs_err *err)
{
	const struct target_tls *o = &t->tls;
	char why[256];
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());

	if (ctx == NULL) {
		rs_err_set(err, "%s: TLS: cannot create a context: %s", t->desc,
			   conn_tls_reason(why, sizeof why));
		return NULL;
	}
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	/* A write returns what went out, and its retry after WANT_* may come
	 * from a buffer that has moved (the caller's batch, its offset). */
	SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	SSL_CTX_clear_mode(ctx, SSL_MODE_AUTO_RETRY);
	if (o->insecure) {
		SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
	} else {
		SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
		if (o->cacert == NULL && o->cacertdir == NULL &&
		    SSL_CTX_set_default_verify_paths(ctx) != 1) {
			rs_err_setk(err, RS_E_INPUT, "%s: TLS: cannot load the system's CA "
				    "certificates: %s (--cacert names a CA file)", t->desc,
				    conn_tls_reason(why, sizeof why));
			goto fail;
		}
	}
	/* OpenSSL opens these by name and would wait on a FIFO for ever. */
	if ((o->cacert != NULL && infile_check("--cacert", o->cacert, err) < 0) ||
	    (o->cert != NULL && infile_check("--cert", o->cert, err) < 0) ||
	    (o->key != NULL && infile_check("--key", o->key, err) < 0))
		goto fail;
	if ((o->cacert != NULL || o->cacertdir != NULL) &&
	    SSL_CTX_load_verify_locations(ctx, o->cacert, o->cacertdir) != 1) {
		rs_err_setk(err, RS_E_INPUT, "%s %s: cannot load CA certificates: %s",
			    o->cacert ? "--cacert" : "--cacertdir", o->cacert ? o->cacert : o->cacertdir,
			    conn_tls_reason(why, sizeof why));
		goto fail;
	}
	if (o->cert != NULL) {
		const char *key = o->key ? o->key : o->cert;

		if (SSL_CTX_use_certificate_chain_file(ctx, o->cert) != 1) {
			rs_err_setk(err, RS_E_INPUT, "--cert %s: cannot load the certificate: %s",
				    o->cert, conn_tls_reason(why, sizeof why));
			goto fail;
		}
		if (SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1 ||
		    SSL_CTX_check_private_key(ctx) != 1) {
			rs_err_setk(err, RS_E_INPUT, "--key %s: cannot load the certificate's private "
				    "key: %s", key, conn_tls_reason(why, sizeof why));
			goto fail;
		}
	}
	if (o->ciphers != NULL && SSL_CTX_set_cipher_list(ctx, o->ciphers) != 1) {
		rs_err_setk(err, RS_E_INPUT, "--tls-ciphers '%s': no cipher matches: %s", o->ciphers,
			    conn_tls_reason(why, sizeof why));
		goto fail;
	}
	if (o->ciphersuites != NULL && SSL_CTX_set_ciphersuites(ctx, o->ciphersuites) != 1) {
		rs_err_setk(err, RS_E_INPUT, "--tls-ciphersuites '%s': no cipher suite matches: %s",
			    o->ciphersuites, conn_tls_reason(why, sizeof why));
		goto fail;
	}
	return ctx;
fail:
	SSL_CTX_free(ctx);
	return NULL;
}

/* At exit, before OpenSSL's own clean-up (registered earlier, so run
 * later): the contexts go, and valgrind sees nothing left behind. */
static void conn_tls_free_all(void)
{
	while (conn_tls_ctxs != NULL) {
		struct conn_tls_ctx *x = conn_tls_ctxs;

		conn_tls_ctxs = x->next;
		SSL_CTX_free(x->ctx);
		free(x->key);
		free(x);
	}
}

/* The context for t's options, built on first use.  Returns it, or NULL
 * with err filled. */
static SSL_CTX *conn_tls_ctx(const struct target *t, struct rs_err *err)
{
	char *key = conn_tls_key(&t->tls);
	struct conn_tls_ctx *x;
	SSL_CTX *ctx = NULL;

	pthread_mutex_lock(&conn_tls_lock);
	for (x = conn_tls_ctxs; x != NULL; x = x->next)
		if (strcmp(x->key, key) == 0) {
			ctx = x->ctx;
			break;
		}
	if (ctx == NULL && (ctx = conn_tls_build(t, err)) != NULL) {
		if (conn_tls_ctxs == NULL)
			atexit(conn_tls_free_all);
		x = xcalloc(1, sizeof *x);
		x->key = key;
		key = NULL;
		x->ctx = ctx;
		x->next = conn_tls_ctxs;
		conn_tls_ctxs = x;
	}
	pthread_mutex_unlock(&conn_tls_lock);
	free(key);
	return ctx;
}

/* A certificate that did not verify, as one line with what to do. */
static int conn_tls_verify_error(const struct target *t, const char *name, long v,
				 struct rs_err *err)
{
	const char *s = X509_verify_cert_error_string(v);

	ERR_clear_error();
	switch (v) {
	case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
	case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
	case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
	case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
	case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
	case X509_V_ERR_CERT_UNTRUSTED:
		return rs_err_setk(err, RS_E_REFUSED, "%s: certificate verify failed: %s (unknown CA; "
				   "--cacert names the CA, --insecure skips the check)", t->desc, s);
	case X509_V_ERR_CERT_HAS_EXPIRED:
	case X509_V_ERR_CERT_NOT_YET_VALID:
		return rs_err_setk(err, RS_E_REFUSED, "%s: certificate verify failed: %s (the "
				   "server's certificate is out of its validity dates; --insecure "
				   "skips the check)", t->desc, s);
	case X509_V_ERR_HOSTNAME_MISMATCH:
	case X509_V_ERR_IP_ADDRESS_MISMATCH:
		return rs_err_setk(err, RS_E_REFUSED, "%s: certificate verify failed: the certificate "
				   "is not for %s (--sni names the host the certificate must be for, "
				   "--insecure skips the check)", t->desc, name ? name : "this host");
	default:
		return rs_err_setk(err, RS_E_REFUSED, "%s: certificate verify failed: %s (--insecure "
				   "skips the check)", t->desc, s);
	}
}

/* A handshake that failed (SSL_get_error's e), as one line naming the
 * cause. */
static int conn_tls_handshake_error(const struct target *t, SSL *ssl, const char *name, int e,
				    struct rs_err *err)
{
	unsigned long q = ERR_peek_last_error();
	int reason = ERR_GET_LIB(q) == ERR_LIB_SSL ? ERR_GET_REASON(q) : 0;
	uint64_t got = BIO_number_read(SSL_get_rbio(ssl));
	long v = SSL_get_verify_result(ssl);
	char why[256];

	if (e == SSL_ERROR_SSL && v != X509_V_OK)
		return conn_tls_verify_error(t, name, v, err);
	switch (reason) {
	case SSL_R_WRONG_VERSION_NUMBER:
	case SSL_R_PACKET_LENGTH_TOO_LONG:
	case SSL_R_UNKNOWN_PROTOCOL:
	case SSL_R_HTTP_REQUEST:
	case SSL_R_HTTPS_PROXY_REQUEST:
		ERR_clear_error();
		/* "-ERR unknown command" is not a TLS record. */
		return rs_err_setk(err, RS_E_INPUT, "the server at %s does not speak TLS (a plain "
				   "port?): its answer to the TLS handshake is not TLS", t->desc);
	}
	if (e == SSL_ERROR_ZERO_RETURN || reason == SSL_R_UNEXPECTED_EOF_WHILE_READING ||
	    (e == SSL_ERROR_SYSCALL && (errno == 0 || errno == ECONNRESET || errno == EPIPE))) {
		ERR_clear_error();
		if (got == 0)
			return rs_err_setk(err, RS_E_INPUT, "the server at %s does not speak TLS (a "
					   "plain port?): it closed the connection at the TLS "
					   "handshake", t->desc);
		return rs_err_setk(err, RS_E_INPUT, "%s: the server closed the connection during the "
				   "TLS handshake", t->desc);
	}
	if (e == SSL_ERROR_SYSCALL && ERR_peek_last_error() == 0)
		return rs_err_set(err, "%s: TLS handshake failed: %s", t->desc, strerror(errno));
	/* An alert from the server (it wants a client certificate, no
	 * cipher in common): its name is the cause. */
	return rs_err_setk(err, RS_E_REFUSED, "%s: TLS handshake failed: %s", t->desc,
			   conn_tls_reason(why, sizeof why));
}

static const struct conn_ops conn_tls_ops;

int conn_tls_start(struct conn *c, const struct target *t, double deadline, double allowed,
		   struct conn_session *s, struct rs_err *err)
{
	const char *name = t->tls.sni ? t->tls.sni : t->socket ? NULL : t->host;
	unsigned char addr[16];
	int is_ip = name != NULL && (inet_pton(AF_INET, name, addr) == 1 ||
				     inet_pton(AF_INET6, name, addr) == 1);
	SSL_CTX *ctx = conn_tls_ctx(t, err);
	char why[256];
	SSL *ssl;
	int e;

	if (ctx == NULL)
		return -1;
	ERR_clear_error();
	if ((ssl = SSL_new(ctx)) == NULL || SSL_set_fd(ssl, c->fd) != 1) {
		SSL_free(ssl);
		return rs_err_set(err, "%s: TLS: %s", t->desc, conn_tls_reason(why, sizeof why));
	}
	c->ssl = ssl;
	c->ops = &conn_tls_ops;
	/* SNI is for names only (RFC 6066); an address is checked as one. */
	if (name != NULL && !is_ip && SSL_set_tlsext_host_name(ssl, name) != 1)
		return rs_err_setk(err, RS_E_INPUT, "%s: TLS: cannot send the server name '%s': %s",
				   t->desc, name, conn_tls_reason(why, sizeof why));
	if (!t->tls.insecure && name != NULL &&
	    (is_ip ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name) :
		     SSL_set1_host(ssl, name)) != 1)
		return rs_err_setk(err, RS_E_INPUT, "%s: TLS: cannot check the name '%s': %s",
				   t->desc, name, conn_tls_reason(why, sizeof why));
	/* A session from another context (another target's options) would
	 * not be accepted: the caller offers only its own target's. */
	if (s != NULL && SSL_set_session(ssl, (SSL_SESSION *)(void *)s) != 1)
		return rs_err_set(err, "%s: TLS: cannot offer the session to resume: %s", t->desc,
				  conn_tls_reason(why, sizeof why));
	for (;;) {
		int r, w;

		ERR_clear_error();
		errno = 0;
		if ((r = SSL_connect(ssl)) == 1)
			return 0;
		e = SSL_get_error(ssl, r);
		if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE)
			break;
		w = conn_wait(t, c->fd, e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, deadline, err);
		if (w < 0)
			return -1;
		if (w == 0 && BIO_number_read(SSL_get_rbio(ssl)) == 0)
			return rs_err_setk(err, RS_E_INPUT, "the server at %s does not speak TLS (a "
					   "plain port?): no answer to the TLS handshake in %g s",
					   t->desc, allowed);
		if (w == 0)
			return rs_err_set(err, "%s: the TLS handshake timed out after %g s", t->desc,
					  allowed);
	}
	c->tls_failed = 1;
	return conn_tls_handshake_error(t, ssl, name, e, err);
}

/* A read or write that failed (SSL_get_error's e) as conn.h says: the
 * count of an end of stream, a want, or CONN_ERROR with errno set. */
static ssize_t conn_tls_io_error(struct conn *c, int e, const char *op, struct rs_err *err)
{
	char why[256];
	unsigned long q;

	switch (e) {
	case SSL_ERROR_WANT_READ:
		return CONN_WANT_READ;
	case SSL_ERROR_WANT_WRITE:
		return CONN_WANT_WRITE;
	case SSL_ERROR_ZERO_RETURN:
		return 0;
	}
	c->tls_failed = 1;
	q = ERR_peek_last_error();
	/* A server that closes without close_notify (Redis does, on QUIT
	 * and on errors) ends the stream as a plain one would. */
	if (ERR_GET_LIB(q) == ERR_LIB_SSL && ERR_GET_REASON(q) == SSL_R_UNEXPECTED_EOF_WHILE_READING) {
		ERR_clear_error();
		return 0;
	}
	if (e == SSL_ERROR_SYSCALL && q == 0) {
		int en = errno ? errno : EPIPE;

		if (errno == 0 && op[0] == 'r')
			return 0;
		rs_err_set(err, "%s failed: %s", op, strerror(en));
		errno = en;
		return CONN_ERROR;
	}
	/* An alert from the server after the handshake: under TLS 1.3 the
	 * server checks the client's certificate after the client thinks
	 * the handshake done, so a missing or refused one shows at the first
	 * read.  A TLS failure, as a failed handshake is (exit 2), not a
	 * run-time one (issue 25, O1). */
	if (ERR_GET_LIB(q) == ERR_LIB_SSL && ERR_GET_REASON(q) >= SSL_AD_REASON_OFFSET &&
	    ERR_GET_REASON(q) < SSL_AD_REASON_OFFSET + 256) {
		int cert = SSL_get_certificate(c->ssl) != NULL;

		rs_err_setk(err, RS_E_REFUSED, "%s failed: TLS: %s%s", op,
			    conn_tls_reason(why, sizeof why),
			    cert ? " (the server refused the client certificate)" :
				   " (the server wants a client certificate: --cert and --key)");
		errno = EPROTO;
		return CONN_ERROR;
	}
	rs_err_set(err, "%s failed: TLS: %s", op, conn_tls_reason(why, sizeof why));
	errno = EPROTO;
	return CONN_ERROR;
}

static ssize_t conn_tls_read(struct conn *c, void *buf, size_t len, struct rs_err *err)
{
	int n;

	ERR_clear_error();
	errno = 0;
	n = SSL_read(c->ssl, buf, len > INT_MAX ? INT_MAX : (int)len);
	if (n > 0)
		return n;
	return conn_tls_io_error(c, SSL_get_error(c->ssl, n), "read", err);
}

static ssize_t conn_tls_write(struct conn *c, const void *buf, size_t len, struct rs_err *err)
{
	int n;

	if (len == 0)
		return 0;
	ERR_clear_error();
	errno = 0;
	/* One call for the whole batch: OpenSSL cuts it in records of up to
	 * 16 KiB and, with partial writes, returns what the socket took.  A
	 * retry after WANT_* must pass at least the same length: the caller
	 * retries with the rest of the same buffer, which only grows. */
	n = SSL_write(c->ssl, buf, len > (size_t)1 << 30 ? 1 << 30 : (int)len);
	if (n > 0)
		return n;
	return conn_tls_io_error(c, SSL_get_error(c->ssl, n), "write", err);
}

static size_t conn_tls_pending(const struct conn *c)
{
	int n = SSL_pending(c->ssl);

	/* SSL_has_pending also sees a record read but not yet decrypted. */
	if (n > 0)
		return (size_t)n;
	return SSL_has_pending(c->ssl) ? 1 : 0;
}

static void conn_tls_free(struct conn *c)
{
	/* A close_notify if the socket takes it now; never after a fatal
	 * error, which OpenSSL forbids. */
	if (!c->tls_failed && SSL_is_init_finished(c->ssl)) {
		ERR_clear_error();
		(void)SSL_shutdown(c->ssl);
	}
	ERR_clear_error();
	SSL_free(c->ssl);
	c->ssl = NULL;
}

static const struct conn_ops conn_tls_ops = {
	conn_tls_read, conn_tls_write, conn_tls_pending, conn_tls_free, 1,
};

/* struct conn_session is an SSL_SESSION under another name: conn.h's
 * readers need not include OpenSSL's headers. */
struct conn_session *conn_session_get(const struct conn *c)
{
	SSL_SESSION *s;

	if (c == NULL || c->ssl == NULL)
		return NULL;
	if ((s = SSL_get1_session(c->ssl)) == NULL)
		return NULL;
	if (SSL_SESSION_is_resumable(s) != 1) {
		SSL_SESSION_free(s);
		return NULL;
	}
	return (struct conn_session *)(void *)s;
}

void conn_session_free(struct conn_session *s)
{
	SSL_SESSION_free((SSL_SESSION *)(void *)s);
}

int conn_resumed(const struct conn *c)
{
	return c != NULL && c->ssl != NULL && SSL_session_reused(c->ssl) == 1;
}
