/* test_tlscert.c: the throwaway certificate of spawn+tls: (tlscert.h),
 * read back with OpenSSL as a client would: its files, that it verifies
 * with itself as the only trust anchor, and for which names. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "net/tlscert.h"

static char dir[64];

static void setup(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof dir, "%s/rsweep-tlscert-XXXXXX",
		 tmp != NULL && strlen(tmp) < 30 ? tmp : "/tmp");
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	char p[128];

	snprintf(p, sizeof p, "%s/cert.pem", dir);
	unlink(p);
	snprintf(p, sizeof p, "%s/key.pem", dir);
	unlink(p);
	rmdir(dir);
}

static X509 *read_cert(const char *path)
{
	FILE *fp = fopen(path, "r");
	X509 *x;

	cr_assert_not_null(fp, "%s", path);
	x = PEM_read_X509(fp, NULL, NULL, NULL);
	fclose(fp);
	cr_assert_not_null(x, "%s does not parse as a PEM certificate", path);
	return x;
}

/* X509_verify_cert of x with x alone as trust anchor: its result and the
 * error it gives. */
static int verify_self(X509 *x, int *error)
{
	X509_STORE *store = X509_STORE_new();
	X509_STORE_CTX *ctx = X509_STORE_CTX_new();
	int ok;

	cr_assert(store != NULL && ctx != NULL);
	cr_assert_eq(X509_STORE_add_cert(store, x), 1);
	cr_assert_eq(X509_STORE_CTX_init(ctx, store, x, NULL), 1);
	/* What a TLS client checks: a server certificate, strictly. */
	X509_STORE_CTX_set_purpose(ctx, X509_PURPOSE_SSL_SERVER);
	X509_VERIFY_PARAM_set_flags(X509_STORE_CTX_get0_param(ctx), X509_V_FLAG_X509_STRICT);
	ok = X509_verify_cert(ctx);
	*error = X509_STORE_CTX_get_error(ctx);
	X509_STORE_CTX_free(ctx);
	X509_STORE_free(store);
	return ok;
}

TestSuite(tlscert, .init = setup, .fini = teardown);

Test(tlscert, files_are_private)
{
	struct tlscert_files f;
	struct rs_err err = { 0 };
	struct stat st;

	cr_assert_eq(tlscert_make(dir, &f, &err), 0, "%s", err.msg);
	cr_assert_eq(stat(f.cert, &st), 0, "%s", f.cert);
	cr_assert(S_ISREG(st.st_mode));
	cr_assert_eq(st.st_mode & 0777, 0600, "cert.pem mode %o", (unsigned)(st.st_mode & 0777));
	cr_assert_eq(stat(f.key, &st), 0, "%s", f.key);
	cr_assert(S_ISREG(st.st_mode));
	cr_assert_eq(st.st_mode & 0777, 0600, "key.pem mode %o", (unsigned)(st.st_mode & 0777));
	cr_assert(strstr(f.cert, "/cert.pem") != NULL && strstr(f.key, "/key.pem") != NULL);
}

Test(tlscert, key_matches_cert)
{
	struct tlscert_files f;
	struct rs_err err = { 0 };
	EVP_PKEY *key;
	X509 *x;
	FILE *fp;

	cr_assert_eq(tlscert_make(dir, &f, &err), 0, "%s", err.msg);
	x = read_cert(f.cert);
	cr_assert_not_null(fp = fopen(f.key, "r"));
	key = PEM_read_PrivateKey(fp, NULL, NULL, NULL);
	fclose(fp);
	cr_assert_not_null(key, "key.pem does not parse");
	cr_assert_str_eq(EVP_PKEY_get0_type_name(key), "EC");
	cr_assert_eq(EVP_PKEY_get_bits(key), 256);
	cr_assert_eq(X509_check_private_key(x, key), 1);
	EVP_PKEY_free(key);
	X509_free(x);
}

Test(tlscert, verifies_against_itself)
{
	struct tlscert_files f;
	struct rs_err err = { 0 };
	int error = 0;
	X509 *x;

	cr_assert_eq(tlscert_make(dir, &f, &err), 0, "%s", err.msg);
	x = read_cert(f.cert);
	cr_assert_eq(X509_get_version(x), X509_VERSION_3);
	cr_assert_eq(verify_self(x, &error), 1, "%s", X509_verify_cert_error_string(error));
	cr_assert_eq(X509_check_ca(x), 1, "not a CA: a client could not trust it as one");
	X509_free(x);
}

Test(tlscert, names_and_validity)
{
	struct tlscert_files f;
	struct rs_err err = { 0 };
	GENERAL_NAMES *san;
	int ip = 0, dns = 0, day;
	int sec;
	X509 *x;

	cr_assert_eq(tlscert_make(dir, &f, &err), 0, "%s", err.msg);
	x = read_cert(f.cert);
	san = X509_get_ext_d2i(x, NID_subject_alt_name, NULL, NULL);
	cr_assert_not_null(san, "no subjectAltName");
	for (int i = 0; i < sk_GENERAL_NAME_num(san); i++) {
		const GENERAL_NAME *g = sk_GENERAL_NAME_value(san, i);

		if (g->type == GEN_IPADD && ASN1_STRING_length(g->d.iPAddress) == 4 &&
		    memcmp(ASN1_STRING_get0_data(g->d.iPAddress), "\177\0\0\1", 4) == 0)
			ip++;
		if (g->type == GEN_DNS &&
		    strcmp((const char *)ASN1_STRING_get0_data(g->d.dNSName), "localhost") == 0)
			dns++;
	}
	GENERAL_NAMES_free(san);
	cr_assert_eq(ip, 1, "no IP:127.0.0.1 in subjectAltName");
	cr_assert_eq(dns, 1, "no DNS:localhost in subjectAltName");
	cr_assert_eq(X509_check_ip_asc(x, "127.0.0.1", 0), 1);
	cr_assert_eq(X509_check_host(x, "localhost", 0, 0, NULL), 1);
	cr_assert_eq(X509_check_ip_asc(x, "127.0.0.2", 0), 0);
	cr_assert_eq(X509_check_ip_asc(x, "::1", 0), 0);
	cr_assert_eq(X509_check_host(x, "example.com", 0, 0, NULL), 0);
	cr_assert_eq(X509_check_host(x, "localhost.localdomain", 0, 0, NULL), 0);
	/* Valid from about an hour ago to about a day from now. */
	cr_assert_eq(ASN1_TIME_diff(&day, &sec, NULL, X509_get0_notBefore(x)), 1);
	cr_assert(day == 0 && sec <= -3500 && sec >= -3700, "notBefore is %d d %d s away", day, sec);
	cr_assert_eq(ASN1_TIME_diff(&day, &sec, NULL, X509_get0_notAfter(x)), 1);
	cr_assert(day * 86400 + sec >= 86300 && day * 86400 + sec <= 86500,
		  "notAfter is %d d %d s away", day, sec);
	X509_free(x);
}

Test(tlscert, serials_differ)
{
	struct tlscert_files f;
	struct rs_err err = { 0 };
	X509 *a, *b;

	cr_assert_eq(tlscert_make(dir, &f, &err), 0, "%s", err.msg);
	a = read_cert(f.cert);
	unlink(f.cert);
	unlink(f.key);
	cr_assert_eq(tlscert_make(dir, &f, &err), 0, "%s", err.msg);
	b = read_cert(f.cert);
	cr_assert_neq(ASN1_INTEGER_cmp(X509_get0_serialNumber(a), X509_get0_serialNumber(b)), 0);
	cr_assert_eq(ASN1_INTEGER_get(X509_get0_serialNumber(a)) > 0, 1);
	X509_free(a);
	X509_free(b);
}

Test(tlscert, refuses_a_shared_directory)
{
	struct tlscert_files f;
	struct rs_err err = { 0 };
	char p[128];

	cr_assert_eq(chmod(dir, 0755), 0);
	cr_assert_eq(tlscert_make(dir, &f, &err), -1);
	cr_assert(strstr(err.msg, "not private") != NULL, "%s", err.msg);
	snprintf(p, sizeof p, "%s/key.pem", dir);
	cr_assert_neq(access(p, F_OK), 0, "a key was written into a shared directory");
}

Test(tlscert, never_over_a_file)
{
	struct tlscert_files f;
	struct rs_err err = { 0 };
	char p[128];
	FILE *fp;

	snprintf(p, sizeof p, "%s/cert.pem", dir);
	cr_assert_not_null(fp = fopen(p, "w"));
	fputs("someone else's\n", fp);
	fclose(fp);
	cr_assert_eq(tlscert_make(dir, &f, &err), -1);
	cr_assert(strstr(err.msg, "cert.pem") != NULL, "%s", err.msg);
	/* Nothing left half made: no key without its certificate. */
	snprintf(p, sizeof p, "%s/key.pem", dir);
	cr_assert_neq(access(p, F_OK), 0, "key.pem left behind");
}
