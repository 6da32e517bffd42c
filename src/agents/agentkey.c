/* agentkey.c: the agents' shared key, and the HMAC that signs their
 * messages (see agentkey.h). */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "agents/agentkey.h"
#include "base/infile.h"
#include "base/xalloc.h"

/* A domain of its own: these bytes sign nothing else rsweep may sign. */
static const char agentkey_domain[] = "rsweep agents v1";

int agentkey_load(const char *path, struct agentkey *key, struct rs_err *err)
{
	unsigned char buf[AGENTKEY_MAX + 2];
	struct stat st;
	size_t n = 0;
	ssize_t got;
	int fd;

	memset(key, 0, sizeof *key);
	if ((fd = infile_open(path, err)) < 0)
		return rs_err_prefix(err, "--agents-key"), rs_err_as(err, RS_E_INPUT);
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		return rs_err_setk(err, RS_E_INPUT, "--agents-key %s: %s", path, strerror(e));
	}
	if ((st.st_mode & 077) != 0) {
		close(fd);
		return rs_err_setk(err, RS_E_INPUT, "--agents-key %s: mode %03o lets others read "
				   "or write the key (chmod 600 it)", path, (int)(st.st_mode & 0777));
	}
	while (n < sizeof buf && (got = read(fd, buf + n, sizeof buf - n)) != 0) {
		if (got < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			close(fd);
			OPENSSL_cleanse(buf, sizeof buf);
			return rs_err_setk(err, RS_E_INPUT, "--agents-key %s: %s", path, strerror(e));
		}
		n += (size_t)got;
	}
	close(fd);
	if (n > 0 && buf[n - 1] == '\n')
		n--;
	if (n > 0 && buf[n - 1] == '\r')
		n--;
	if (n < AGENTKEY_MIN || n > AGENTKEY_MAX) {
		OPENSSL_cleanse(buf, sizeof buf);
		return rs_err_setk(err, RS_E_INPUT, "--agents-key %s: %s bytes, wanted %d to %d "
				   "(make one: head -c 32 /dev/urandom | base64 > FILE)", path,
				   n > AGENTKEY_MAX ? "more" : n == 0 ? "no" : "too few",
				   AGENTKEY_MIN, AGENTKEY_MAX);
	}
	memcpy(key->k, buf, n);
	key->n = n;
	OPENSSL_cleanse(buf, sizeof buf);
	return 0;
}

void agentkey_clear(struct agentkey *key)
{
	OPENSSL_cleanse(key, sizeof *key);
}

static void agentkey_put_len(EVP_MAC_CTX *ctx, size_t n)
{
	unsigned char b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)((uint64_t)n >> (56 - 8 * i));
	EVP_MAC_update(ctx, b, sizeof b);
}

static void agentkey_put(EVP_MAC_CTX *ctx, const void *p, size_t n)
{
	agentkey_put_len(ctx, n);
	if (n > 0)
		EVP_MAC_update(ctx, p, n);
}

/* The HMAC of stream and f[0..n) under key into out; 0, or -1 if OpenSSL
 * cannot give one (it then has no SHA-256: nothing verifies). */
static int agentkey_mac(const struct agentkey *key, const char *stream,
			const struct agentmsg_field *f, size_t n, unsigned char out[32])
{
	OSSL_PARAM params[2];
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	EVP_MAC_CTX *ctx = mac != NULL ? EVP_MAC_CTX_new(mac) : NULL;
	size_t len = 0;
	int rc = -1;

	params[0] = OSSL_PARAM_construct_utf8_string("digest", (char *)"SHA256", 0);
	params[1] = OSSL_PARAM_construct_end();
	if (ctx != NULL && EVP_MAC_init(ctx, key->k, key->n, params) == 1) {
		agentkey_put(ctx, agentkey_domain, sizeof agentkey_domain - 1);
		agentkey_put(ctx, stream, strlen(stream));
		agentkey_put_len(ctx, n);
		for (size_t i = 0; i < n; i++) {
			agentkey_put(ctx, f[i].name, f[i].name_len);
			agentkey_put(ctx, f[i].value, f[i].value_len);
		}
		if (EVP_MAC_final(ctx, out, &len, 32) == 1 && len == 32)
			rc = 0;
	}
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
	return rc;
}

static void agentkey_hex(const unsigned char md[32], char out[AGENTKEY_HEX + 1])
{
	static const char hex[] = "0123456789abcdef";

	for (int i = 0; i < 32; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 15];
	}
	out[AGENTKEY_HEX] = '\0';
}

void agentkey_sign(const struct agentkey *key, const char *stream, struct agentmsg_fields *fs)
{
	unsigned char md[32];
	char *hex = xmalloc(AGENTKEY_HEX + 1);

	/* The encoders hold fewer fields than AGENTMSG_MAX_FIELDS: one more
	 * always fits (agentmsg.c asserts it). */
	if (agentkey_mac(key, stream, fs->f, fs->n, md) < 0)
		memset(md, 0, sizeof md); /* signs nothing: the other side refuses it */
	agentkey_hex(md, hex);
	fs->f[fs->n].name = AGENTKEY_FIELD;
	fs->f[fs->n].name_len = sizeof AGENTKEY_FIELD - 1;
	fs->f[fs->n].value = hex;
	fs->f[fs->n].value_len = AGENTKEY_HEX;
	fs->own[fs->n] = hex;
	fs->n++;
	OPENSSL_cleanse(md, sizeof md);
}

long agentkey_verify(const struct agentkey *key, const char *stream,
		     const struct agentmsg_field *f, size_t n, struct rs_err *err)
{
	unsigned char md[32];
	char want[AGENTKEY_HEX + 1];
	const struct agentmsg_field *m = n > 0 ? &f[n - 1] : NULL;
	int same;

	if (m == NULL || m->name_len != sizeof AGENTKEY_FIELD - 1 ||
	    memcmp(m->name, AGENTKEY_FIELD, m->name_len) != 0)
		return rs_err_setk(err, RS_E_INPUT, "unsigned: no '%s' field last (an rsweep "
				   "without --agents-key, or not rsweep)", AGENTKEY_FIELD);
	if (agentkey_mac(key, stream, f, n - 1, md) < 0)
		return rs_err_setk(err, RS_E_INPUT, "no HMAC-SHA256 in this OpenSSL: nothing "
				   "verifies");
	agentkey_hex(md, want);
	same = m->value_len == AGENTKEY_HEX && CRYPTO_memcmp(m->value, want, AGENTKEY_HEX) == 0;
	OPENSSL_cleanse(md, sizeof md);
	if (!same)
		return rs_err_setk(err, RS_E_INPUT, "its signature does not verify: another "
				   "--agents-key than this side's, or a message changed on the "
				   "control Redis");
	return (long)(n - 1);
}
