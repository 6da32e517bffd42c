/* tlscert.c: a self-signed certificate for a private server, with OpenSSL 3. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "net/tlscert.h"

#define TLSCERT_BEFORE (-3600L)       /* seconds: another clock may lag ours */
#define TLSCERT_AFTER (24L * 3600L)   /* seconds: a run, not a deployment */

/* err = "what: OpenSSL's first queued reason" (the queue is emptied).
 * Returns -1. */
static int tlscert_fail(struct rs_err *err, const char *what)
{
	unsigned long e = ERR_get_error();
	char buf[256];

	if (e == 0)
		snprintf(buf, sizeof buf, "no reason given");
	else
		ERR_error_string_n(e, buf, sizeof buf);
	ERR_clear_error();
	return rs_err_set(err, "throwaway TLS certificate: %s: %s", what, buf);
}

/* The key is unencrypted: refuse a directory anyone else could read or
 * plant files in.  Returns 0, or -1 with err set. */
static int tlscert_dir_ok(const char *dir, struct rs_err *err)
{
	struct stat st;

	if (lstat(dir, &st) != 0)
		return rs_err_set(err, "throwaway TLS certificate: %s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return rs_err_set(err, "throwaway TLS certificate: %s is not a directory", dir);
	if (st.st_uid != geteuid() || (st.st_mode & 077) != 0)
		return rs_err_set(err, "throwaway TLS certificate: %s is not private (it must be "
				  "this user's, mode 0700)", dir);
	return 0;
}

/* A random positive serial of 63 bits: RFC 5280 wants it unique per
 * issuer, and every certificate here is its own issuer.  Returns 0 or -1. */
static int tlscert_serial(X509 *x, struct rs_err *err)
{
	BIGNUM *bn = BN_new();
	int ok = bn != NULL && BN_rand(bn, 63, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) == 1 &&
		 BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(x)) != NULL;

	BN_free(bn);
	return ok ? 0 : tlscert_fail(err, "serial number");
}

/* Add extension name=value (OpenSSL's configuration syntax) to x, itself
 * its issuer.  Returns 0 or -1. */
static int tlscert_ext(X509 *x, const char *name, const char *value, struct rs_err *err)
{
	X509V3_CTX ctx;
	X509_EXTENSION *ext;
	int ok;

	X509V3_set_ctx_nodb(&ctx);
	X509V3_set_ctx(&ctx, x, x, NULL, NULL, 0);
	ext = X509V3_EXT_nconf(NULL, &ctx, name, value);
	ok = ext != NULL && X509_add_ext(x, ext, -1) == 1;
	X509_EXTENSION_free(ext);
	return ok ? 0 : tlscert_fail(err, name);
}

/* A signed certificate for key: see tlscert.h.  Returns it, or NULL with
 * err set. */
static X509 *tlscert_build(EVP_PKEY *key, struct rs_err *err)
{
	X509 *x = X509_new();
	X509_NAME *name;

	if (x == NULL) {
		tlscert_fail(err, "X509_new");
		return NULL;
	}
	if (X509_set_version(x, X509_VERSION_3) != 1 || tlscert_serial(x, err) < 0)
		goto fail;
	if (X509_gmtime_adj(X509_getm_notBefore(x), TLSCERT_BEFORE) == NULL ||
	    X509_gmtime_adj(X509_getm_notAfter(x), TLSCERT_AFTER) == NULL) {
		tlscert_fail(err, "validity");
		goto fail;
	}
	name = X509_get_subject_name(x);
	if (X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC,
				       (const unsigned char *)"rsweep", -1, -1, 0) != 1 ||
	    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
				       (const unsigned char *)"rsweep throwaway 127.0.0.1", -1, -1,
				       0) != 1 ||
	    X509_set_issuer_name(x, name) != 1 || X509_set_pubkey(x, key) != 1) {
		tlscert_fail(err, "names");
		goto fail;
	}
	/* Its own CA, so that the client trusts exactly this file; key usage
	 * and key identifier as a strict verifier wants them of a CA. */
	if (tlscert_ext(x, "basicConstraints", "critical,CA:TRUE", err) < 0 ||
	    tlscert_ext(x, "keyUsage", "critical,digitalSignature,keyCertSign", err) < 0 ||
	    tlscert_ext(x, "extendedKeyUsage", "serverAuth", err) < 0 ||
	    tlscert_ext(x, "subjectKeyIdentifier", "hash", err) < 0 ||
	    tlscert_ext(x, "subjectAltName", "IP:127.0.0.1,DNS:localhost", err) < 0)
		goto fail;
	if (X509_sign(x, key, EVP_sha256()) <= 0) {
		tlscert_fail(err, "signing");
		goto fail;
	}
	return x;
fail:
	X509_free(x);
	return NULL;
}

/* Write path anew (mode 0600, never through a link, never over a file)
 * with key's or x's PEM.  Returns 0, or -1 with err set and nothing left. */
static int tlscert_write(const char *path, EVP_PKEY *key, X509 *x, struct rs_err *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	FILE *fp;
	int ok;

	if (fd < 0)
		return rs_err_set(err, "throwaway TLS certificate: %s: %s", path, strerror(errno));
	if ((fp = fdopen(fd, "w")) == NULL) {
		int e = errno;

		close(fd);
		unlink(path);
		return rs_err_set(err, "throwaway TLS certificate: %s: %s", path, strerror(e));
	}
	ok = key != NULL ? PEM_write_PrivateKey(fp, key, NULL, NULL, 0, NULL, NULL) == 1 :
			   PEM_write_X509(fp, x) == 1;
	if (fclose(fp) != 0 && ok) {
		int e = errno;

		unlink(path);
		return rs_err_set(err, "throwaway TLS certificate: %s: %s", path, strerror(e));
	}
	if (!ok) {
		unlink(path);
		return tlscert_fail(err, path);
	}
	return 0;
}

int tlscert_make(const char *dir, struct tlscert_files *out, struct rs_err *err)
{
	EVP_PKEY *key = NULL;
	X509 *x = NULL;
	int rc = -1;

	if (tlscert_dir_ok(dir, err) < 0)
		return -1;
	if ((size_t)snprintf(out->cert, sizeof out->cert, "%s/cert.pem", dir) >= sizeof out->cert ||
	    (size_t)snprintf(out->key, sizeof out->key, "%s/key.pem", dir) >= sizeof out->key)
		return rs_err_set(err, "throwaway TLS certificate: the path %s is too long", dir);
	if ((key = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256")) == NULL) {
		tlscert_fail(err, "EC P-256 key");
		goto done;
	}
	if ((x = tlscert_build(key, err)) == NULL)
		goto done;
	/* The key first: a cert.pem without its key would be of no use. */
	if (tlscert_write(out->key, key, NULL, err) < 0)
		goto done;
	if (tlscert_write(out->cert, NULL, x, err) < 0) {
		unlink(out->key);
		goto done;
	}
	rc = 0;
done:
	X509_free(x);
	EVP_PKEY_free(key);
	return rc;
}
