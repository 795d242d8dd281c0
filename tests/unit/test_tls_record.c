/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for carrying a TLS 1.3 connection on in another process
 * (remote/tls_record.c): a GnuTLS client and server finish their
 * handshake over a socketpair; the server's state is exported and
 * imported, and the GnuTLS client, which cannot tell, goes on talking
 * with the imported record layer: both ways, big and small, then
 * close_notify; with TLS 1.3 and 1.2 and each AEAD cipher. A record
 * changed on the way is refused, and TLS 1.2 with CBC is not exported.
 */

#include <errno.h>
#include <gnutls/gnutls.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "remote/tls_identity.h"
#include "remote/tls_record.h"
#include "expect.h"

#define BIG (1024 * 1024 + 17)

struct server_side {
	gnutls_session_t session;
	int rc;
};

static void *server_handshake(void *data) {
	struct server_side *side = data;
	do {
		struct pollfd p = { .fd = gnutls_transport_get_int(side->session),
			.events = gnutls_record_get_direction(side->session) ? POLLOUT : POLLIN };
		side->rc = gnutls_handshake(side->session);
		if (side->rc == GNUTLS_E_AGAIN) {
			poll(&p, 1, 1000);
		}
	} while (side->rc < 0 && !gnutls_error_is_fatal(side->rc));
	return NULL;
}

/* A finished handshake: *server is the non-blocking server session on pair[1]. */
static bool connect_pair(struct tls_identity *identity, const char *client_priority,
		int pair[2], gnutls_session_t *client, gnutls_certificate_credentials_t cred,
		struct server_side *server) {
	socketpair(AF_UNIX, SOCK_STREAM, 0, pair);
	server->session = tls_identity_new_session(identity, pair[1], false);
	gnutls_init(client, GNUTLS_CLIENT);
	gnutls_priority_set_direct(*client, client_priority, NULL);
	gnutls_credentials_set(*client, GNUTLS_CRD_CERTIFICATE, cred);
	gnutls_transport_set_int(*client, pair[0]);
	pthread_t thread;
	pthread_create(&thread, NULL, server_handshake, server);
	int rc;
	do {
		rc = gnutls_handshake(*client);
	} while (rc < 0 && !gnutls_error_is_fatal(rc));
	pthread_join(thread, NULL);
	EXPECT(rc == 0 && server->rc == 0, "handshakes: %s / %s", gnutls_strerror(rc),
		gnutls_strerror(server->rc));
	return rc == 0 && server->rc == 0;
}

/* Reads n bytes through the imported layer, waiting on the socket. */
static bool record_read(struct tls_record *record, int fd, uint8_t *buf, size_t n) {
	size_t got = 0;
	while (got < n) {
		ssize_t r = tls_record_recv(record, buf + got, n - got);
		if (r > 0) {
			got += (size_t)r;
		} else if (r < 0 && errno == EAGAIN) {
			struct pollfd p = { .fd = fd, .events = POLLIN };
			if (poll(&p, 1, 5000) != 1) {
				return false;
			}
		} else {
			return false;
		}
	}
	return true;
}

/* Sends n bytes through the imported layer while the client reads them. */
struct big_read {
	gnutls_session_t client;
	uint8_t *buf;
	size_t got;
};

static void *client_reads(void *data) {
	struct big_read *read = data;
	while (read->got < BIG) {
		ssize_t r = gnutls_record_recv(read->client, read->buf + read->got,
			BIG - read->got);
		if (r <= 0) {
			break;
		}
		read->got += (size_t)r;
	}
	return NULL;
}

static bool record_write(struct tls_record *record, int fd, const uint8_t *buf, size_t n) {
	size_t sent = 0;
	while (sent < n) {
		ssize_t w = tls_record_send(record, buf + sent, n - sent);
		if (w > 0) {
			sent += (size_t)w;
		} else if (w < 0 && errno == EAGAIN) {
			struct pollfd p = { .fd = fd, .events = POLLOUT };
			if (poll(&p, 1, 5000) != 1) {
				return false;
			}
		} else {
			return false;
		}
	}
	return true;
}

static void carries_on(struct tls_identity *identity, gnutls_certificate_credentials_t cred,
		const char *priority) {
	int pair[2];
	gnutls_session_t client;
	struct server_side server = {0};
	if (!connect_pair(identity, priority, pair, &client, cred, &server)) {
		return;
	}
	/* Two records in the socket: the server reads the first one only. */
	gnutls_record_send(client, "first", 5);
	gnutls_record_send(client, "second", 6);
	char buf[16] = {0};
	ssize_t n;
	do {
		struct pollfd p = { .fd = pair[1], .events = POLLIN };
		poll(&p, 1, 1000);
		n = gnutls_record_recv(server.session, buf, sizeof(buf));
	} while (n == GNUTLS_E_AGAIN);
	EXPECT(n == 5 && memcmp(buf, "first", 5) == 0, "the server read the first record");

	struct handover_tls state;
	char error[160];
	EXPECT(tls_record_export(server.session, &state, error, sizeof(error)),
		"exported: %s", error);
	gnutls_deinit(server.session); /* it sends nothing */
	struct tls_record *record = tls_record_import(&state, pair[1], error, sizeof(error));
	EXPECT(record != NULL, "imported: %s", error);
	if (!record) {
		return;
	}
	uint8_t got[6];
	EXPECT(record_read(record, pair[1], got, 6) && memcmp(got, "second", 6) == 0,
		"the second record opens with the imported keys");

	uint8_t *big = malloc(BIG);
	for (size_t i = 0; i < BIG; i++) {
		big[i] = (uint8_t)(i * 13 + (i >> 12));
	}
	struct big_read reader = { .client = client, .buf = malloc(BIG) };
	pthread_t thread;
	pthread_create(&thread, NULL, client_reads, &reader);
	EXPECT(record_write(record, pair[1], big, BIG), "a megabyte sealed and sent");
	pthread_join(thread, NULL);
	EXPECT(reader.got == BIG && memcmp(reader.buf, big, BIG) == 0,
		"the GnuTLS client reads it whole (%zu of %d)", reader.got, BIG);

	for (size_t sent = 0; sent < 40000;) { /* three records */
		ssize_t w = gnutls_record_send(client, big + sent, 40000 - sent);
		EXPECT(w > 0, "client sends");
		sent += w > 0 ? (size_t)w : 40000;
	}
	uint8_t *back = malloc(40000);
	EXPECT(record_read(record, pair[1], back, 40000) && memcmp(back, big, 40000) == 0,
		"the client's records open in order");

	gnutls_bye(client, GNUTLS_SHUT_WR);
	uint8_t byte;
	struct pollfd p = { .fd = pair[1], .events = POLLIN };
	poll(&p, 1, 5000);
	EXPECT(tls_record_recv(record, &byte, 1) == 0, "close_notify ends the stream");

	tls_record_destroy(record);
	gnutls_deinit(client);
	close(pair[0]);
	close(pair[1]);
	free(big);
	free(back);
	free(reader.buf);
}

static void refuses_tampering(struct tls_identity *identity,
		gnutls_certificate_credentials_t cred, const char *priority) {
	int pair[2];
	gnutls_session_t client;
	struct server_side server = {0};
	if (!connect_pair(identity, priority, pair, &client, cred, &server)) {
		return;
	}
	struct handover_tls state;
	char error[160];
	EXPECT(tls_record_export(server.session, &state, error, sizeof(error)), "%s", error);
	gnutls_deinit(server.session);
	struct tls_record *record = tls_record_import(&state, pair[1], error, sizeof(error));
	/* A record sealed by the client, with one bit flipped on the way. */
	int relay[2];
	socketpair(AF_UNIX, SOCK_STREAM, 0, relay);
	gnutls_transport_set_int(client, relay[0]);
	gnutls_record_send(client, "secret", 6);
	uint8_t wire[64];
	ssize_t n = recv(relay[1], wire, sizeof(wire), 0);
	wire[n - 3] ^= 1;
	EXPECT(send(pair[0], wire, (size_t)n, 0) == n, "tampered record sent");
	uint8_t buf[8];
	struct pollfd p = { .fd = pair[1], .events = POLLIN };
	poll(&p, 1, 5000);
	errno = 0;
	EXPECT(tls_record_recv(record, buf, sizeof(buf)) < 0 && errno == EPROTO,
		"a changed record is refused");
	tls_record_destroy(record);
	gnutls_deinit(client);
	close(relay[0]);
	close(relay[1]);
	close(pair[0]);
	close(pair[1]);
}

static void keeps_cbc(struct tls_identity *identity, gnutls_certificate_credentials_t cred) {
	int pair[2];
	gnutls_session_t client;
	struct server_side server = {0};
	if (!connect_pair(identity, "NORMAL:-VERS-TLS1.3:-CIPHER-ALL:+AES-128-CBC:+SHA256",
			pair, &client, cred, &server)) {
		return;
	}
	struct handover_tls state;
	char error[160] = "";
	EXPECT(!tls_record_export(server.session, &state, error, sizeof(error)) &&
		strstr(error, "cipher"), "TLS 1.2 with CBC is not handed over: %s", error);
	gnutls_deinit(server.session);
	gnutls_deinit(client);
	close(pair[0]);
	close(pair[1]);
}

int main(void) {
	gnutls_global_init();
	char dir[] = "/tmp/oriel-tls-record-XXXXXX";
	EXPECT(mkdtemp(dir) != NULL, "temporary dir");
	setenv("XDG_STATE_HOME", dir, 1);
	struct tls_identity identity;
	char error[256];
	EXPECT(tls_identity_init(&identity, NULL, NULL, error, sizeof(error)), "%s", error);
	gnutls_certificate_credentials_t cred;
	gnutls_certificate_allocate_credentials(&cred);

	carries_on(&identity, cred, "NORMAL:-CIPHER-ALL:+AES-128-GCM");
	carries_on(&identity, cred, "NORMAL:-CIPHER-ALL:+AES-256-GCM");
	carries_on(&identity, cred, "NORMAL:-CIPHER-ALL:+CHACHA20-POLY1305");
	/* libvncclient offers TLS 1.2 only. */
	carries_on(&identity, cred, "NORMAL:-VERS-TLS1.3:-CIPHER-ALL:+AES-128-GCM");
	carries_on(&identity, cred, "NORMAL:-VERS-TLS1.3:-CIPHER-ALL:+AES-256-GCM");
	carries_on(&identity, cred, "NORMAL:-VERS-TLS1.3:-CIPHER-ALL:+CHACHA20-POLY1305");
	carries_on(&identity, cred, "NORMAL:+DHE-DSS:+RSA:+DHE-RSA:+SRP"); /* libvncclient's */
	refuses_tampering(&identity, cred, "NORMAL");
	refuses_tampering(&identity, cred, "NORMAL:-VERS-TLS1.3");
	keeps_cbc(&identity, cred);

	gnutls_certificate_free_credentials(cred);
	tls_identity_finish(&identity);
	char command[128];
	snprintf(command, sizeof(command), "rm -rf %s", dir);
	EXPECT(system(command) == 0, "cleaned up");
	gnutls_global_deinit();
	return failures != 0;
}
