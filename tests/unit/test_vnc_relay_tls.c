/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for the viewers' relay with TLS (remote/vnc/vnc_relay.c): a
 * GnuTLS client plays the viewer over a socketpair, and the test plays
 * libvncserver on the relay's local socket. What libvncserver writes, and
 * what the caller hands over (vnc_relay_write), reaches the viewer
 * decrypted and whole (a byte sent in the clear would break the client's
 * TLS); what the viewer sends reaches libvncserver; the greeting is
 * dropped and the prefix comes first.
 */

#include <gnutls/gnutls.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include "remote/tls_stream.h"
#include "remote/vnc/vnc_relay.h"
#include "expect.h"

#define DEADLINE_MS 10000
#define BIG (3 * 1024 * 1024)

static int64_t now_ms(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The server's handshake runs on a thread while the client's runs here. */
struct server_side {
	gnutls_session_t session;
	int rc;
};

static void *server_handshake(void *data) {
	struct server_side *side = data;
	do {
		side->rc = gnutls_handshake(side->session);
	} while (side->rc < 0 && !gnutls_error_is_fatal(side->rc));
	return NULL;
}

/* Reads exactly n bytes of the local socket (libvncserver's end). */
static bool read_local(int fd, uint8_t *buf, size_t n) {
	int64_t deadline = now_ms() + DEADLINE_MS;
	size_t got = 0;
	while (got < n && now_ms() < deadline) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		poll(&p, 1, 100);
		ssize_t r = recv(fd, buf + got, n - got, MSG_DONTWAIT);
		if (r > 0) {
			got += (size_t)r;
		} else if (r == 0) {
			return false;
		}
	}
	return got == n;
}

static bool read_tls(gnutls_session_t client, uint8_t *buf, size_t n) {
	size_t got = 0;
	while (got < n) {
		ssize_t r = gnutls_record_recv(client, buf + got, n - got);
		if (r <= 0) {
			return false;
		}
		got += (size_t)r;
	}
	return true;
}

/*
 * One viewer: with records, oriel's record layer (tls_record.c) seals and
 * opens the records after the handshake, and the caller's bytes are
 * sealed on the caller's thread; else GnuTLS's session does.
 */
static void viewer(const char *prio, bool records) {
	int pair[2];
	socketpair(AF_UNIX, SOCK_STREAM, 0, pair);

	gnutls_anon_server_credentials_t server_cred;
	gnutls_anon_allocate_server_credentials(&server_cred);
	gnutls_anon_set_server_known_dh_params(server_cred, GNUTLS_SEC_PARAM_MEDIUM);
	gnutls_anon_client_credentials_t client_cred;
	gnutls_anon_allocate_client_credentials(&client_cred);

	struct server_side server = {0};
	gnutls_init(&server.session, GNUTLS_SERVER | GNUTLS_NO_TICKETS);
	gnutls_priority_set_direct(server.session, prio, NULL);
	gnutls_credentials_set(server.session, GNUTLS_CRD_ANON, server_cred);
	gnutls_transport_set_int(server.session, pair[1]);
	gnutls_session_t client;
	gnutls_init(&client, GNUTLS_CLIENT);
	gnutls_priority_set_direct(client, prio, NULL);
	gnutls_credentials_set(client, GNUTLS_CRD_ANON, client_cred);
	gnutls_transport_set_int(client, pair[0]);

	pthread_t thread;
	pthread_create(&thread, NULL, server_handshake, &server);
	int rc;
	do {
		rc = gnutls_handshake(client);
	} while (rc < 0 && !gnutls_error_is_fatal(rc));
	pthread_join(thread, NULL);
	EXPECT(rc == 0 && server.rc == 0, "handshakes: %s / %s", gnutls_strerror(rc),
		gnutls_strerror(server.rc));
	/* The viewer's first bytes, sent before the relay exists: GnuTLS may hold them. */
	gnutls_record_send(client, "early", 5);

	struct vnc_relays *relays = vnc_relays_create();
	int local;
	struct vnc_relay_start start = {
		.tls = records ? tls_stream_records_from_session(server.session) :
			tls_stream_from_session(server.session),
		.skip_outbound = 12,
		.inbound_prefix = "RFB ", .inbound_prefix_len = 4,
	};
	struct vnc_relay *relay = vnc_relay_open(relays, pair[1], &start, 64u << 20, &local);
	EXPECT(relay != NULL, "relay");

	uint8_t in[9];
	EXPECT(read_local(local, in, 9) && memcmp(in, "RFB early", 9) == 0,
		"libvncserver gets the prefix, then the viewer's bytes");

	/* libvncserver's greeting is dropped; a big update follows, whole. */
	uint8_t *big = malloc(BIG);
	for (size_t i = 0; i < BIG; i++) {
		big[i] = (uint8_t)(i * 7 + (i >> 16));
	}
	EXPECT(write(local, "RFB 003.008\n", 12) == 12, "greeting");
	size_t sent = 0;
	uint8_t *got = malloc(BIG);
	int64_t deadline = now_ms() + DEADLINE_MS;
	size_t received = 0;
	bool ok = true;
	while ((sent < BIG || received < BIG) && now_ms() < deadline && ok) {
		if (sent < BIG) {
			ssize_t w = send(local, big + sent, BIG - sent, MSG_DONTWAIT);
			if (w > 0) {
				sent += (size_t)w;
			}
		}
		struct pollfd p = { .fd = pair[0], .events = POLLIN };
		if (gnutls_record_check_pending(client) > 0 || poll(&p, 1, 10) == 1) {
			ssize_t r = gnutls_record_recv(client, got + received, BIG - received);
			ok = r > 0;
			received += r > 0 ? (size_t)r : 0;
		}
	}
	EXPECT(received == BIG && memcmp(got, big, BIG) == 0,
		"the viewer gets the update decrypted and whole (%zu of %d)", received, BIG);

	/* Raw pixels handed over by the caller, when the relay is idle. */
	deadline = now_ms() + DEADLINE_MS;
	while (!vnc_relay_idle(relay) && now_ms() < deadline) {
		struct pollfd p = { .fd = vnc_relay_drained_fd(relay), .events = POLLIN };
		poll(&p, 1, 100);
		vnc_relay_ack_drained(relay);
	}
	/* More than the socket takes at once, then libvncserver's next bytes. */
	struct iovec iov[3] = { { "head", 4 }, { big, BIG - 5 }, { "tail", 4 } };
	EXPECT(vnc_relay_write(relay, iov, 3), "handed over");
	EXPECT(write(local, "next", 4) == 4, "libvncserver writes after the hand-over");
	size_t direct_len = 4 + BIG - 5 + 4 + 4;
	uint8_t *direct = malloc(direct_len);
	EXPECT(read_tls(client, direct, direct_len) && memcmp(direct, "head", 4) == 0 &&
		memcmp(direct + 4, big, BIG - 5) == 0 &&
		memcmp(direct + 4 + BIG - 5, "tailnext", 8) == 0,
		"handed-over bytes arrive whole, before libvncserver's later ones (%s)",
		records ? "record layer" : "GnuTLS");

	/* Input from the viewer, after everything. */
	gnutls_record_send(client, "key", 3);
	EXPECT(read_local(local, in, 3) && memcmp(in, "key", 3) == 0, "the viewer's input");

	close(local);
	vnc_relay_release(relay);
	vnc_relays_destroy(relays);
	gnutls_deinit(client);
	close(pair[0]);
	gnutls_anon_free_server_credentials(server_cred);
	gnutls_anon_free_client_credentials(client_cred);
	free(big);
	free(got);
	free(direct);
}

int main(void) {
	gnutls_global_init();
	/* Anonymous ECDH picks CBC here, which stays GnuTLS's; AES-GCM goes to the record layer. */
	viewer("NORMAL:-VERS-TLS1.3:+ANON-ECDH", false);
	viewer("NORMAL:-VERS-TLS1.3:+ANON-DH:-AES-256-CBC:-AES-128-CBC:-CAMELLIA-256-CBC:"
		"-CAMELLIA-128-CBC", true);
	gnutls_global_deinit();
	return failures != 0;
}
