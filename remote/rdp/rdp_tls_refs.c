/* SPDX-License-Identifier: MIT */
#include <dlfcn.h>
#include <stdbool.h>
#include <string.h>
#include <freerdp/version.h>
#include <openssl/ssl.h>

/*
 * FreeRDP 2's TLS server (tls_accept in libfreerdp/crypto/tls.c, every
 * 2.x release) reads the private key and the certificate for each
 * connection and hands them to SSL_use_PrivateKey and SSL_use_certificate,
 * which take references of their own; it frees its own references only
 * when those calls fail. That left about 5 KB of OpenSSL objects behind
 * per connection, for the life of oriel.
 *
 * oriel defines the two functions, so FreeRDP's calls come here first (an
 * executable's symbols come before its libraries'): they call OpenSSL's,
 * and when the caller is libfreerdp2 and the call succeeded, they drop
 * the reference FreeRDP keeps, so that the key and the certificate go
 * with the connection's SSL object. Calls from anywhere else are passed
 * through untouched. FreeRDP 3 frees them itself: this is for 2 only.
 */
#if FREERDP_VERSION_MAJOR == 2

static bool called_from_freerdp(const void *caller) {
	Dl_info info;
	return dladdr(caller, &info) && info.dli_fname &&
		strstr(info.dli_fname, "/libfreerdp2.so") != NULL;
}

int SSL_use_PrivateKey(SSL *ssl, EVP_PKEY *key) {
	static int (*real)(SSL *, EVP_PKEY *);
	if (!real) {
		real = (int (*)(SSL *, EVP_PKEY *))dlsym(RTLD_NEXT, "SSL_use_PrivateKey");
	}
	int rc = real(ssl, key);
	if (rc > 0 && called_from_freerdp(__builtin_return_address(0))) {
		EVP_PKEY_free(key);
	}
	return rc;
}

int SSL_use_certificate(SSL *ssl, X509 *cert) {
	static int (*real)(SSL *, X509 *);
	if (!real) {
		real = (int (*)(SSL *, X509 *))dlsym(RTLD_NEXT, "SSL_use_certificate");
	}
	int rc = real(ssl, cert);
	if (rc > 0 && called_from_freerdp(__builtin_return_address(0))) {
		X509_free(cert);
	}
	return rc;
}

#endif
