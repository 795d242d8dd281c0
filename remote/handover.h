/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_HANDOVER_H
#define ORIEL_REMOTE_HANDOVER_H

/*
 * The gateway's hand-over of a logged-in client to a user's session.
 *
 * The session's oriel listens on a Unix SOCK_SEQPACKET socket in its
 * private runtime dir (--handover-socket) and takes requests only from
 * root or its own user (SO_PEERCRED). The gateway connects, checks the
 * session's SO_PEERCRED in turn, and sends one request:
 *
 *   HANDOVER_CONNECTION, with the client's socket as SCM_RIGHTS: the
 *     client has passed its protocol's security handshake and login in
 *     the gateway. For VNC that is VeNCrypt X509Plain up to and including
 *     SecurityResult; the session goes on at ClientInit. The TLS
 *     session's record state (keys, IVs, sequence numbers) comes along,
 *     so the session encrypts and decrypts from then on and the gateway
 *     copies nothing. Plaintext the gateway already read from the client
 *     comes along as well.
 *     For RDP the client was logged in on an earlier connection, which the
 *     gateway redirected back to itself with a routing token and a
 *     password cookie (MS-RDPBCGR Server Redirection). On this second
 *     connection the gateway answered the X.224 Connection Request and did
 *     the TLS handshake; pending holds the client's Connection Request
 *     followed by what plaintext the gateway read after the handshake,
 *     and cookie the secret the client's Client Info must carry as its
 *     password.
 *   HANDOVER_STATUS: how many clients the session has.
 *
 * The session answers each request with one struct handover_reply.
 * Pure: no wlroots, shared by oriel and oriel-gateway.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define HANDOVER_MAGIC 0x4f48524fu /* "ORHO" */
#define HANDOVER_VERSION 2
#define HANDOVER_PENDING_MAX 4096
#define HANDOVER_KEY_MAX 32
#define HANDOVER_IV_MAX 12
#define HANDOVER_COOKIE_MAX 72

enum handover_request {
	HANDOVER_CONNECTION = 1,
	HANDOVER_STATUS = 2,
};

enum handover_protocol {
	HANDOVER_VNC = 1,
	HANDOVER_RDP = 2,
};

enum handover_flags {
	HANDOVER_VIEW_ONLY = 1 << 0,
	/* Disconnect the session's other clients first (the take-over policy). */
	HANDOVER_TAKE_OVER = 1 << 1,
	/*
	 * VNC: the client is a browser, and RFB runs inside WebSocket
	 * frames (binary, RFC 6455) inside the TLS; pending holds frames as
	 * the client sent them, whole.
	 */
	HANDOVER_WEBSOCKET = 1 << 2,
	/*
	 * RDP, for a client that cannot follow a Server Redirection: the
	 * gateway logged it in on this very connection and keeps its TLS,
	 * relaying plaintext over the passed socket (no TLS state comes).
	 * pending holds all the client sent up to its Client Info (its
	 * password zeroed), which the gateway's FreeRDP answered already:
	 * the session's FreeRDP is walked through the same steps, and the
	 * gateway drops its answers up to there.
	 */
	HANDOVER_RELAYED = 1 << 3,
};

/* One direction of a TLS connection's record layer. */
struct handover_tls_direction {
	uint8_t key[HANDOVER_KEY_MAX];
	uint8_t iv[HANDOVER_IV_MAX];
	uint64_t seq; /* the next record's sequence number */
};

struct handover_tls {
	uint16_t version;  /* 0x0304: TLS 1.3; 0x0303: TLS 1.2 */
	uint16_t cipher;   /* gnutls_cipher_algorithm_t: AES-128/256-GCM, ChaCha20-Poly1305 */
	uint16_t key_size; /* bytes of key used */
	uint16_t iv_size;  /* bytes of iv used: 12, or TLS 1.2 AES-GCM's 4-byte salt */
	struct handover_tls_direction read;  /* client to server */
	struct handover_tls_direction write; /* server to client */
};

struct handover_message {
	uint32_t magic;
	uint16_t version;
	uint16_t request;  /* enum handover_request */
	uint16_t protocol; /* enum handover_protocol */
	uint16_t flags;    /* enum handover_flags */
	uint16_t rfb_minor; /* VNC: the RFB 3.x version agreed on */
	uint16_t reserved;
	char user[64];     /* the login name, NUL-terminated */
	char peer[128];    /* the client's numeric address, NUL-terminated */
	char cookie[HANDOVER_COOKIE_MAX]; /* RDP: the password cookie, NUL-terminated */
	struct handover_tls tls;
	uint32_t n_pending;
	uint8_t pending[HANDOVER_PENDING_MAX]; /* plaintext already read from the client */
};

struct handover_reply {
	uint32_t magic;
	uint16_t version;
	uint16_t ok;      /* 1: taken (CONNECTION) or answered (STATUS) */
	uint32_t clients; /* the session's clients, after a CONNECTION was taken */
	uint32_t pid;     /* the session's oriel */
	char error[128];  /* why not, when !ok */
};

/* False, with a sentence in error, when a received message is malformed. */
bool handover_message_check(const struct handover_message *message, size_t size,
	bool with_fd, char *error, size_t error_size);

/*
 * Sends message (with fd as SCM_RIGHTS when fd >= 0) on a connected
 * SOCK_SEQPACKET socket and has the reply, all within timeout_ms: a
 * session that takes nothing or never answers holds nobody longer.
 * False with errno set (ETIMEDOUT, EPROTO for a malformed reply).
 */
bool handover_send(int sock, const struct handover_message *message, int fd,
	int timeout_ms, struct handover_reply *reply);

/* A STATUS request and its reply; false (errno) when the session does not answer. */
bool handover_status(int sock, int timeout_ms, struct handover_reply *reply);

/*
 * Receives one request: *fd is the passed socket or -1. Returns the
 * message's size, 0 when the peer hung up, -1 on error (errno).
 */
ssize_t handover_receive(int sock, struct handover_message *message, int *fd);

/* How long handover_connect waits for a session to take the connection. */
#define HANDOVER_CONNECT_MS 2000

/*
 * Connects to a session's socket, without blocking past
 * HANDOVER_CONNECT_MS (a listener that never accepts: ETIMEDOUT), and
 * checks that it runs as uid; -1 (errno) if not. The socket is
 * non-blocking.
 */
int handover_connect(const char *path, uid_t uid, pid_t *pid);

#endif
