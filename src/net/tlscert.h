/* tlscert.h: a throwaway TLS server certificate, made on the spot.
 *
 * For a private redis-server on 127.0.0.1 (spawn+tls:): an EC P-256 key
 * and a self-signed X.509 v3 certificate for IP 127.0.0.1 and DNS
 * localhost, valid from an hour ago (clocks drift) to a day from now, with
 * a random serial.  It is its own CA (basicConstraints CA:TRUE), so the
 * same cert.pem is what a client trusts: verification stays on, and no
 * other certificate on the machine is trusted for it.  OpenSSL's library
 * only; no openssl program is run. */
#ifndef RS_TLSCERT_H
#define RS_TLSCERT_H

#include "base/err.h"

/* The PEM files tlscert_make writes. */
struct tlscert_files {
	char cert[256];           /* DIR/cert.pem: the certificate, and the CA to trust */
	char key[256];            /* DIR/key.pem: its private key, unencrypted */
};

/* Make the key and certificate in dir, which must be a directory of this
 * user's with no access for group or others (mode 0700: the key is
 * written unencrypted), as cert.pem and key.pem, mode 0600, neither there
 * before.  Returns 0 with their paths in out, or -1 with err saying what
 * failed (a directory that is not private, a file already there, OpenSSL's
 * reason); a file half written is removed. */
int tlscert_make(const char *dir, struct tlscert_files *out, struct rs_err *err);

#endif
