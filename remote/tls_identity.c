/* SPDX-License-Identifier: MIT */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <gnutls/crypto.h>
#include <gnutls/x509.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "remote/tls_identity.h"
#include "common/util.h"

#define VALID_YEARS 10

/* $XDG_STATE_HOME/oriel/tls, made with mode 0700 on the way. */
static char *state_dir(char *error, size_t error_size) {
	const char *state = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	char *dir = NULL;
	if (state && state[0] == '/') {
		if (asprintf(&dir, "%s/oriel/tls", state) < 0) {
			dir = NULL;
		}
	} else if (home && home[0] == '/') {
		if (asprintf(&dir, "%s/.local/state/oriel/tls", home) < 0) {
			dir = NULL;
		}
	}
	if (!dir) {
		snprintf(error, error_size, "neither XDG_STATE_HOME nor HOME is set, so there "
			"is nowhere to keep a certificate; give --vnc-tls-cert and --vnc-tls-key");
		return NULL;
	}
	for (char *p = dir + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;
			*p = '\0';
			if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
				snprintf(error, error_size, "cannot make %s: %s", dir, strerror(errno));
				free(dir);
				return NULL;
			}
			*p = c;
			if (c == '\0') {
				break;
			}
		}
	}
	chmod(dir, 0700);
	return dir;
}

static bool write_private(const char *path, const gnutls_datum_t *data) {
	char *tmp;
	if (asprintf(&tmp, "%s.new", path) < 0) {
		return false;
	}
	unlink(tmp);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	bool ok = fd >= 0 && write(fd, data->data, data->size) == (ssize_t)data->size &&
		fsync(fd) == 0;
	if (fd >= 0) {
		close(fd);
	}
	ok = ok && rename(tmp, path) == 0;
	if (!ok) {
		unlink(tmp);
	}
	free(tmp);
	return ok;
}

/* This host's names and addresses, so that viewers find them in the certificate. */
static void add_names(gnutls_x509_crt_t crt) {
	char host[256] = "localhost";
	gethostname(host, sizeof(host) - 1);
	gnutls_x509_crt_set_dn_by_oid(crt, GNUTLS_OID_X520_COMMON_NAME, 0, host, strlen(host));
	gnutls_x509_crt_set_subject_alt_name(crt, GNUTLS_SAN_DNSNAME, host, strlen(host),
		GNUTLS_FSAN_APPEND);
	if (strcmp(host, "localhost") != 0) {
		gnutls_x509_crt_set_subject_alt_name(crt, GNUTLS_SAN_DNSNAME, "localhost", 9,
			GNUTLS_FSAN_APPEND);
	}
	struct ifaddrs *addrs;
	if (getifaddrs(&addrs) != 0) {
		return;
	}
	for (struct ifaddrs *a = addrs; a; a = a->ifa_next) {
		if (!a->ifa_addr) {
			continue;
		}
		if (a->ifa_addr->sa_family == AF_INET) {
			struct sockaddr_in *in = (struct sockaddr_in *)a->ifa_addr;
			gnutls_x509_crt_set_subject_alt_name(crt, GNUTLS_SAN_IPADDRESS,
				&in->sin_addr, 4, GNUTLS_FSAN_APPEND);
		} else if (a->ifa_addr->sa_family == AF_INET6) {
			struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)a->ifa_addr;
			if (!IN6_IS_ADDR_LINKLOCAL(&in6->sin6_addr)) {
				gnutls_x509_crt_set_subject_alt_name(crt, GNUTLS_SAN_IPADDRESS,
					&in6->sin6_addr, 16, GNUTLS_FSAN_APPEND);
			}
		}
	}
	freeifaddrs(addrs);
}

static bool generate(const char *cert_path, const char *key_path, char *error,
		size_t error_size) {
	gnutls_x509_privkey_t key = NULL;
	gnutls_x509_crt_t crt = NULL;
	gnutls_datum_t key_pem = {0}, crt_pem = {0};
	int rc = gnutls_x509_privkey_init(&key);
	if (rc >= 0) {
		rc = gnutls_x509_privkey_generate(key, GNUTLS_PK_ECDSA,
			GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_SECP256R1), 0);
	}
	if (rc >= 0) {
		rc = gnutls_x509_crt_init(&crt);
	}
	if (rc >= 0) {
		unsigned char serial[16];
		gnutls_rnd(GNUTLS_RND_NONCE, serial, sizeof(serial));
		serial[0] &= 0x7f; /* positive */
		time_t now = time(NULL);
		gnutls_x509_crt_set_version(crt, 3);
		gnutls_x509_crt_set_serial(crt, serial, sizeof(serial));
		gnutls_x509_crt_set_activation_time(crt, now - 3600);
		gnutls_x509_crt_set_expiration_time(crt, now + VALID_YEARS * 365 * 24 * 3600L);
		add_names(crt);
		/* Its own authority, so that a viewer can pin it as its CA. */
		gnutls_x509_crt_set_basic_constraints(crt, 1, 0);
		gnutls_x509_crt_set_key_usage(crt,
			GNUTLS_KEY_DIGITAL_SIGNATURE | GNUTLS_KEY_KEY_CERT_SIGN);
		gnutls_x509_crt_set_key_purpose_oid(crt, GNUTLS_KP_TLS_WWW_SERVER, 0);
		rc = gnutls_x509_crt_set_key(crt, key);
	}
	if (rc >= 0) {
		rc = gnutls_x509_crt_sign2(crt, crt, key, GNUTLS_DIG_SHA256, 0);
	}
	if (rc >= 0) {
		rc = gnutls_x509_privkey_export2(key, GNUTLS_X509_FMT_PEM, &key_pem);
	}
	if (rc >= 0) {
		rc = gnutls_x509_crt_export2(crt, GNUTLS_X509_FMT_PEM, &crt_pem);
	}
	bool ok = rc >= 0;
	if (!ok) {
		snprintf(error, error_size, "cannot make a certificate: %s", gnutls_strerror(rc));
	} else if (!write_private(key_path, &key_pem) || !write_private(cert_path, &crt_pem)) {
		snprintf(error, error_size, "cannot write %s: %s", cert_path, strerror(errno));
		ok = false;
	}
	if (key_pem.data) {
		gnutls_memset(key_pem.data, 0, key_pem.size);
		gnutls_free(key_pem.data);
	}
	gnutls_free(crt_pem.data);
	gnutls_x509_crt_deinit(crt);
	gnutls_x509_privkey_deinit(key);
	return ok;
}

static bool fingerprint(struct tls_identity *identity, char *error, size_t error_size) {
	gnutls_datum_t pem;
	int rc = gnutls_load_file(identity->cert_path, &pem);
	if (rc < 0) {
		snprintf(error, error_size, "cannot read %s: %s", identity->cert_path,
			gnutls_strerror(rc));
		return false;
	}
	gnutls_x509_crt_t crt;
	gnutls_x509_crt_init(&crt);
	rc = gnutls_x509_crt_import(crt, &pem, GNUTLS_X509_FMT_PEM);
	unsigned char digest[32];
	size_t size = sizeof(digest);
	if (rc >= 0) {
		rc = gnutls_x509_crt_get_fingerprint(crt, GNUTLS_DIG_SHA256, digest, &size);
	}
	gnutls_x509_crt_deinit(crt);
	gnutls_free(pem.data);
	if (rc < 0 || size != sizeof(digest)) {
		snprintf(error, error_size, "%s is not a PEM certificate: %s",
			identity->cert_path, gnutls_strerror(rc));
		return false;
	}
	for (size_t i = 0; i < size; i++) {
		snprintf(identity->fingerprint + i * 3, 4, i + 1 < size ? "%02X:" : "%02X",
			digest[i]);
	}
	return true;
}

bool tls_identity_init(struct tls_identity *identity, const char *cert, const char *key,
		char *error, size_t error_size) {
	memset(identity, 0, sizeof(*identity));
	if (cert && key) {
		identity->cert_path = xstrdup(cert);
		identity->key_path = xstrdup(key);
	} else {
		char *dir = state_dir(error, error_size);
		if (!dir) {
			return false;
		}
		if (asprintf(&identity->cert_path, "%s/cert.pem", dir) < 0 ||
				asprintf(&identity->key_path, "%s/key.pem", dir) < 0) {
			abort();
		}
		free(dir);
		if (access(identity->cert_path, R_OK) != 0 || access(identity->key_path, R_OK) != 0) {
			if (!generate(identity->cert_path, identity->key_path, error, error_size)) {
				tls_identity_finish(identity);
				return false;
			}
			identity->generated = true;
		}
	}
	if (!fingerprint(identity, error, error_size)) {
		tls_identity_finish(identity);
		return false;
	}
	gnutls_certificate_allocate_credentials(&identity->x509);
	int rc = gnutls_certificate_set_x509_key_file(identity->x509, identity->cert_path,
		identity->key_path, GNUTLS_X509_FMT_PEM);
	if (rc < 0) {
		snprintf(error, error_size, "cannot use %s with %s: %s", identity->cert_path,
			identity->key_path, gnutls_strerror(rc));
		tls_identity_finish(identity);
		return false;
	}
	gnutls_anon_allocate_server_credentials(&identity->anon);
	gnutls_anon_set_server_known_dh_params(identity->anon, GNUTLS_SEC_PARAM_MEDIUM);
	return true;
}

void tls_identity_finish(struct tls_identity *identity) {
	if (identity->x509) {
		gnutls_certificate_free_credentials(identity->x509);
	}
	if (identity->anon) {
		gnutls_anon_free_server_credentials(identity->anon);
	}
	free(identity->cert_path);
	free(identity->key_path);
	memset(identity, 0, sizeof(*identity));
}

gnutls_session_t tls_identity_new_session(struct tls_identity *identity, int fd,
		bool anonymous) {
	gnutls_session_t session;
	/* No tickets: nothing resumes, and nothing is sent unasked after the handshake. */
	if (gnutls_init(&session, GNUTLS_SERVER | GNUTLS_NONBLOCK | GNUTLS_NO_TICKETS) < 0) {
		return NULL;
	}
	int rc;
	if (anonymous) {
		rc = gnutls_priority_set_direct(session,
			"NORMAL:-VERS-TLS1.3:+ANON-ECDH:+ANON-DH", NULL);
		if (rc >= 0) {
			rc = gnutls_credentials_set(session, GNUTLS_CRD_ANON, identity->anon);
		}
	} else {
		rc = gnutls_set_default_priority(session);
		if (rc >= 0) {
			rc = gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, identity->x509);
		}
	}
	if (rc < 0) {
		gnutls_deinit(session);
		return NULL;
	}
	gnutls_transport_set_int(session, fd);
	gnutls_handshake_set_timeout(session, 0);
	return session;
}
