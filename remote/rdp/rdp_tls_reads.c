/* SPDX-License-Identifier: MIT */
#include <dlfcn.h>
#include <stdbool.h>
#include <string.h>
#include <freerdp/version.h>
#include <openssl/ssl.h>
#include "remote/mcs_erect_domain.h"

/*
 * What FreeRDP 2's server reads from a client's TLS, before FreeRDP
 * parses it: rdesktop's Erect Domain Request is repaired here
 * (remote/mcs_erect_domain.h), or FreeRDP refuses rdesktop at any depth.
 * FreeRDP runs the TLS itself and offers no hook between it and its
 * parser, so oriel defines SSL_read, as rdp_tls_refs.c defines two other
 * OpenSSL functions: FreeRDP's TLS layer (bio_rdp_tls_read) calls it for
 * every read, and reads a TPKT's header and then the rest of it, so the
 * request's 8 bytes after the header come in one call. This covers every
 * path to FreeRDP: direct connections, and those the TLS bridge hands
 * over in a session and in oriel-gateway. Other callers and other bytes
 * pass through untouched; most reads cost a look at their length.
 */
#if FREERDP_VERSION_MAJOR == 2

static bool called_from_freerdp(const void *caller) {
	Dl_info info;
	return dladdr(caller, &info) && info.dli_fname &&
		strstr(info.dli_fname, "/libfreerdp2.so") != NULL;
}

int SSL_read(SSL *ssl, void *buf, int num) {
	static int (*real)(SSL *, void *, int);
	if (!real) {
		real = (int (*)(SSL *, void *, int))dlsym(RTLD_NEXT, "SSL_read");
	}
	int rc = real(ssl, buf, num);
	if ((rc == MCS_ERECT_DOMAIN_LEN || rc == MCS_ERECT_DOMAIN_LEN - 4) &&
			called_from_freerdp(__builtin_return_address(0))) {
		mcs_erect_domain_repair(buf, (size_t)rc);
	}
	return rc;
}

#endif
