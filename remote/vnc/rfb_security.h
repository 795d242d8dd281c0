/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_VNC_RFB_SECURITY_H
#define ORIEL_REMOTE_VNC_RFB_SECURITY_H

/*
 * The server's side of the RFB handshake up to the SecurityResult: the
 * protocol version, the security type (None, VncAuth or VeNCrypt 0.2) and,
 * inside VeNCrypt, the sub-type and its authentication (None, VncAuth or
 * Plain user name and password).
 *
 * A byte machine with no I/O: the caller feeds what the viewer sent, sends
 * what it wrote to out, runs the TLS handshake and checks credentials when
 * asked, and reports back. It only ever consumes whole messages and never
 * more than rfb_security_wants, so nothing after the handshake is eaten.
 * Pure: no wlroots, libvncserver or GnuTLS, so unit tests and the fuzzer
 * link it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rfb_security_type {
	RFB_SECURITY_NONE = 1,
	RFB_SECURITY_VNC_AUTH = 2,
	RFB_SECURITY_VENCRYPT = 19,
};

enum vencrypt_subtype {
	/* Without TLS of its own: offered only where the channel is safe
	 * already (wss, or the session's own user on loopback). */
	VENCRYPT_PLAIN = 256,
	VENCRYPT_TLS_NONE = 257,
	VENCRYPT_TLS_VNC = 258,
	VENCRYPT_TLS_PLAIN = 259,
	VENCRYPT_X509_NONE = 260,
	VENCRYPT_X509_VNC = 261,
	VENCRYPT_X509_PLAIN = 262,
};

#define RFB_SECURITY_MAX_SUBTYPES 6
/* Plain credentials longer than this are refused, not truncated. */
#define RFB_SECURITY_MAX_CREDENTIAL 255
#define RFB_SECURITY_OUT_MAX 512

/* What this connection may use; at least one of them. */
struct rfb_security_offer {
	bool none;     /* security type None */
	bool vnc_auth; /* VncAuth without TLS */
	/* VeNCrypt sub-types, in the order of preference; none: no VeNCrypt.
	 * Offered, VeNCrypt is the first security type. */
	uint32_t subtypes[RFB_SECURITY_MAX_SUBTYPES];
	int n_subtypes;
	/*
	 * Not NULL: this connection is refused before any security type, and
	 * this reason goes to the viewer (the caller keeps it alive).
	 */
	const char *refusal;
};

enum rfb_security_step {
	RFB_SECURITY_STEP_READ,       /* feed rfb_security_wants bytes */
	RFB_SECURITY_STEP_START_TLS,  /* send out, then run the TLS handshake */
	RFB_SECURITY_STEP_CHECK_VNC,  /* check response against challenge */
	RFB_SECURITY_STEP_CHECK_PLAIN, /* check user and password */
	RFB_SECURITY_STEP_DONE,       /* send out: the viewer is in */
	RFB_SECURITY_STEP_FAILED,     /* send out (the reason), then close */
};

enum rfb_security_state {
	RFB_STATE_VERSION,
	RFB_STATE_TYPE,
	RFB_STATE_VENCRYPT_VERSION,
	RFB_STATE_VENCRYPT_SUBTYPE,
	RFB_STATE_TLS,
	RFB_STATE_VNC_RESPONSE,
	RFB_STATE_PLAIN_LENGTHS,
	RFB_STATE_PLAIN_CREDENTIALS,
	RFB_STATE_CHECKING,
	RFB_STATE_DONE,
	RFB_STATE_FAILED,
};

struct rfb_security {
	enum rfb_security_state state;
	struct rfb_security_offer offer;
	int minor; /* the protocol version agreed on: 3.3, 3.7 or 3.8 */
	uint32_t type, subtype; /* chosen; subtype 0 outside VeNCrypt */
	bool plain; /* Plain authentication (checks user and password) */

	uint8_t challenge[16], response[16];
	uint32_t user_len, password_len;
	char user[RFB_SECURITY_MAX_CREDENTIAL + 1];
	char password[RFB_SECURITY_MAX_CREDENTIAL + 1];

	uint8_t out[RFB_SECURITY_OUT_MAX];
	size_t out_len;
	char error[160]; /* why it failed, for the log */
};

/* Starts: writes the server's version to out. challenge: 16 random bytes. */
void rfb_security_init(struct rfb_security *sec, const struct rfb_security_offer *offer,
	const uint8_t challenge[16]);
/* How many bytes the next message needs (0 when none is read now). */
size_t rfb_security_wants(const struct rfb_security *sec);
/* Feeds exactly rfb_security_wants bytes; returns what to do next. */
enum rfb_security_step rfb_security_feed(struct rfb_security *sec, const uint8_t *data,
	size_t len);
/* The TLS handshake of START_TLS finished. */
enum rfb_security_step rfb_security_tls_done(struct rfb_security *sec);
/* The answer to CHECK_VNC or CHECK_PLAIN; reason goes to the viewer on failure. */
enum rfb_security_step rfb_security_checked(struct rfb_security *sec, bool ok,
	const char *reason);
/* Clears the sent output. */
void rfb_security_sent(struct rfb_security *sec);
/* Wipes the credentials. */
void rfb_security_finish(struct rfb_security *sec);

/* True for the VeNCrypt sub-types that run over TLS with the certificate. */
bool vencrypt_subtype_is_x509(uint32_t subtype);
const char *vencrypt_subtype_name(uint32_t subtype);

#endif
