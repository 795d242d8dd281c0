/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>
#include "remote/vnc/rfb_security.h"

/* RFB 3.8 (RFC 6143), section 7.1 and 7.2, and VeNCrypt 0.2. */

#define VERSION_LEN 12

static void put8(struct rfb_security *sec, uint8_t v) {
	if (sec->out_len < sizeof(sec->out)) {
		sec->out[sec->out_len++] = v;
	}
}

static void put32(struct rfb_security *sec, uint32_t v) {
	put8(sec, v >> 24);
	put8(sec, v >> 16);
	put8(sec, v >> 8);
	put8(sec, v);
}

static void put_string(struct rfb_security *sec, const char *s) {
	size_t len = strlen(s);
	put32(sec, (uint32_t)len);
	for (size_t i = 0; i < len; i++) {
		put8(sec, (uint8_t)s[i]);
	}
}

static uint32_t get32(const uint8_t *p) {
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static enum rfb_security_step fail(struct rfb_security *sec, const char *error) {
	snprintf(sec->error, sizeof(sec->error), "%s", error);
	sec->state = RFB_STATE_FAILED;
	return RFB_SECURITY_STEP_FAILED;
}

/* A SecurityResult "failed", with the reason from 3.8 on. */
static enum rfb_security_step refuse(struct rfb_security *sec, const char *error,
		const char *reason) {
	put32(sec, 1);
	if (sec->minor >= 8) {
		put_string(sec, reason);
	}
	return fail(sec, error);
}

static enum rfb_security_step accept(struct rfb_security *sec) {
	/* Before 3.8, None has no SecurityResult. */
	if (!(sec->type == RFB_SECURITY_NONE && sec->minor < 8)) {
		put32(sec, 0);
	}
	sec->state = RFB_STATE_DONE;
	return RFB_SECURITY_STEP_DONE;
}

static enum rfb_security_step send_challenge(struct rfb_security *sec) {
	for (size_t i = 0; i < sizeof(sec->challenge); i++) {
		put8(sec, sec->challenge[i]);
	}
	sec->state = RFB_STATE_VNC_RESPONSE;
	return RFB_SECURITY_STEP_READ;
}

bool vencrypt_subtype_is_x509(uint32_t subtype) {
	return subtype >= VENCRYPT_X509_NONE && subtype <= VENCRYPT_X509_PLAIN;
}

const char *vencrypt_subtype_name(uint32_t subtype) {
	switch (subtype) {
	case VENCRYPT_PLAIN: return "Plain";
	case VENCRYPT_TLS_NONE: return "TLSNone";
	case VENCRYPT_TLS_VNC: return "TLSVnc";
	case VENCRYPT_TLS_PLAIN: return "TLSPlain";
	case VENCRYPT_X509_NONE: return "X509None";
	case VENCRYPT_X509_VNC: return "X509Vnc";
	case VENCRYPT_X509_PLAIN: return "X509Plain";
	}
	return "unknown";
}

void rfb_security_init(struct rfb_security *sec, const struct rfb_security_offer *offer,
		const uint8_t challenge[16]) {
	memset(sec, 0, sizeof(*sec));
	sec->offer = *offer;
	if (sec->offer.n_subtypes > RFB_SECURITY_MAX_SUBTYPES) {
		sec->offer.n_subtypes = RFB_SECURITY_MAX_SUBTYPES;
	}
	memcpy(sec->challenge, challenge, sizeof(sec->challenge));
	memcpy(sec->out, "RFB 003.008\n", VERSION_LEN);
	sec->out_len = VERSION_LEN;
	sec->state = RFB_STATE_VERSION;
}

size_t rfb_security_wants(const struct rfb_security *sec) {
	switch (sec->state) {
	case RFB_STATE_VERSION: return VERSION_LEN;
	case RFB_STATE_TYPE: return 1;
	case RFB_STATE_VENCRYPT_VERSION: return 2;
	case RFB_STATE_VENCRYPT_SUBTYPE: return 4;
	case RFB_STATE_VNC_RESPONSE: return 16;
	case RFB_STATE_PLAIN_LENGTHS: return 8;
	case RFB_STATE_PLAIN_CREDENTIALS: return sec->user_len + sec->password_len;
	default: return 0;
	}
}

static bool parse_digits(const uint8_t *p, int *value) {
	*value = 0;
	for (int i = 0; i < 3; i++) {
		if (p[i] < '0' || p[i] > '9') {
			return false;
		}
		*value = *value * 10 + (p[i] - '0');
	}
	return true;
}

static enum rfb_security_step on_version(struct rfb_security *sec, const uint8_t *p) {
	int major, minor;
	if (memcmp(p, "RFB ", 4) != 0 || p[7] != '.' || p[11] != '\n' ||
			!parse_digits(p + 4, &major) || !parse_digits(p + 8, &minor)) {
		char shown[VERSION_LEN + 1];
		for (int i = 0; i < VERSION_LEN; i++) {
			shown[i] = p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : '.';
		}
		shown[VERSION_LEN] = '\0';
		char error[64];
		snprintf(error, sizeof(error), "not an RFB protocol version: \"%s\"", shown);
		return fail(sec, error);
	}
	if (major != 3) {
		return fail(sec, "an RFB version other than 3.x");
	}
	/* 3.4 to 3.6 are 3.3 (RFC 6143, 7.1.1); later ones (3.889) are 3.8. */
	sec->minor = minor >= 8 ? 8 : minor == 7 ? 7 : 3;
	const struct rfb_security_offer *offer = &sec->offer;
	if (offer->refusal) {
		/* No security types (3.3: the invalid type 0), then the reason. */
		if (sec->minor == 3) {
			put32(sec, 0);
		} else {
			put8(sec, 0);
		}
		put_string(sec, offer->refusal);
		return fail(sec, "refused before any security type");
	}
	if (sec->minor == 3) {
		/* The server picks; 3.3 knows nothing of VeNCrypt. */
		if (offer->vnc_auth) {
			sec->type = RFB_SECURITY_VNC_AUTH;
			put32(sec, RFB_SECURITY_VNC_AUTH);
			return send_challenge(sec);
		}
		if (offer->none) {
			sec->type = RFB_SECURITY_NONE;
			put32(sec, RFB_SECURITY_NONE);
			sec->state = RFB_STATE_DONE;
			return RFB_SECURITY_STEP_DONE;
		}
		put32(sec, 0);
		put_string(sec, "this server needs a viewer that speaks RFB 3.8 and VeNCrypt");
		return fail(sec, "an RFB 3.3 viewer, but only VeNCrypt is offered");
	}
	/*
	 * Encrypted first: viewers that take the first type they know
	 * (TigerVNC's, Remmina's, libvncclient) then pick VeNCrypt. One that
	 * needs VncAuth or None must ask for it.
	 */
	uint8_t types[3];
	int n = 0;
	if (offer->n_subtypes > 0) {
		types[n++] = RFB_SECURITY_VENCRYPT;
	}
	if (offer->none) {
		types[n++] = RFB_SECURITY_NONE;
	}
	if (offer->vnc_auth) {
		types[n++] = RFB_SECURITY_VNC_AUTH;
	}
	put8(sec, (uint8_t)n);
	for (int i = 0; i < n; i++) {
		put8(sec, types[i]);
	}
	if (n == 0) {
		put_string(sec, "no security type is available");
		return fail(sec, "no security type to offer");
	}
	sec->state = RFB_STATE_TYPE;
	return RFB_SECURITY_STEP_READ;
}

static enum rfb_security_step on_type(struct rfb_security *sec, uint8_t type) {
	const struct rfb_security_offer *offer = &sec->offer;
	sec->type = type;
	if (type == RFB_SECURITY_NONE && offer->none) {
		return accept(sec);
	}
	if (type == RFB_SECURITY_VNC_AUTH && offer->vnc_auth) {
		return send_challenge(sec);
	}
	if (type == RFB_SECURITY_VENCRYPT && offer->n_subtypes > 0) {
		put8(sec, 0);
		put8(sec, 2);
		sec->state = RFB_STATE_VENCRYPT_VERSION;
		return RFB_SECURITY_STEP_READ;
	}
	return refuse(sec, "the viewer chose a security type that was not offered",
		"security type not offered");
}

static enum rfb_security_step on_vencrypt_version(struct rfb_security *sec,
		const uint8_t *p) {
	if (p[0] != 0 || p[1] != 2) {
		put8(sec, 0xff);
		return fail(sec, "a VeNCrypt version other than 0.2");
	}
	put8(sec, 0);
	put8(sec, (uint8_t)sec->offer.n_subtypes);
	for (int i = 0; i < sec->offer.n_subtypes; i++) {
		put32(sec, sec->offer.subtypes[i]);
	}
	sec->state = RFB_STATE_VENCRYPT_SUBTYPE;
	return RFB_SECURITY_STEP_READ;
}

static enum rfb_security_step on_vencrypt_subtype(struct rfb_security *sec,
		uint32_t subtype) {
	for (int i = 0; i < sec->offer.n_subtypes; i++) {
		if (sec->offer.subtypes[i] == subtype && subtype == VENCRYPT_PLAIN) {
			/* No TLS of its own (the caller's channel is secure): no go-ahead byte. */
			sec->subtype = subtype;
			sec->plain = true;
			sec->state = RFB_STATE_PLAIN_LENGTHS;
			return RFB_SECURITY_STEP_READ;
		}
		if (sec->offer.subtypes[i] == subtype) {
			sec->subtype = subtype;
			put8(sec, 1); /* go ahead with TLS */
			sec->state = RFB_STATE_TLS;
			return RFB_SECURITY_STEP_START_TLS;
		}
	}
	put8(sec, 0);
	put32(sec, 1);
	put_string(sec, "VeNCrypt sub-type not offered");
	return fail(sec, "the viewer chose a VeNCrypt sub-type that was not offered");
}

enum rfb_security_step rfb_security_tls_done(struct rfb_security *sec) {
	if (sec->state != RFB_STATE_TLS) {
		return fail(sec, "TLS out of turn");
	}
	switch (sec->subtype) {
	case VENCRYPT_TLS_NONE:
	case VENCRYPT_X509_NONE:
		return accept(sec);
	case VENCRYPT_TLS_VNC:
	case VENCRYPT_X509_VNC:
		return send_challenge(sec);
	default:
		sec->plain = true;
		sec->state = RFB_STATE_PLAIN_LENGTHS;
		return RFB_SECURITY_STEP_READ;
	}
}

static enum rfb_security_step on_plain_lengths(struct rfb_security *sec, const uint8_t *p) {
	sec->user_len = get32(p);
	sec->password_len = get32(p + 4);
	if (sec->user_len > RFB_SECURITY_MAX_CREDENTIAL ||
			sec->password_len > RFB_SECURITY_MAX_CREDENTIAL) {
		sec->user_len = sec->password_len = 0;
		return refuse(sec, "a user name or password longer than 255 bytes",
			"user name or password too long");
	}
	sec->state = RFB_STATE_PLAIN_CREDENTIALS;
	if (sec->user_len + sec->password_len == 0) {
		sec->state = RFB_STATE_CHECKING;
		return RFB_SECURITY_STEP_CHECK_PLAIN;
	}
	return RFB_SECURITY_STEP_READ;
}

static enum rfb_security_step on_plain_credentials(struct rfb_security *sec,
		const uint8_t *p) {
	memcpy(sec->user, p, sec->user_len);
	sec->user[sec->user_len] = '\0';
	memcpy(sec->password, p + sec->user_len, sec->password_len);
	sec->password[sec->password_len] = '\0';
	if (strlen(sec->user) != sec->user_len || strlen(sec->password) != sec->password_len) {
		rfb_security_finish(sec);
		return refuse(sec, "a NUL byte inside the user name or password",
			"authentication failed");
	}
	sec->state = RFB_STATE_CHECKING;
	return RFB_SECURITY_STEP_CHECK_PLAIN;
}

enum rfb_security_step rfb_security_feed(struct rfb_security *sec, const uint8_t *data,
		size_t len) {
	if (len != rfb_security_wants(sec) || len == 0) {
		return fail(sec, "input out of turn");
	}
	switch (sec->state) {
	case RFB_STATE_VERSION:
		return on_version(sec, data);
	case RFB_STATE_TYPE:
		return on_type(sec, data[0]);
	case RFB_STATE_VENCRYPT_VERSION:
		return on_vencrypt_version(sec, data);
	case RFB_STATE_VENCRYPT_SUBTYPE:
		return on_vencrypt_subtype(sec, get32(data));
	case RFB_STATE_VNC_RESPONSE:
		memcpy(sec->response, data, sizeof(sec->response));
		sec->state = RFB_STATE_CHECKING;
		return RFB_SECURITY_STEP_CHECK_VNC;
	case RFB_STATE_PLAIN_LENGTHS:
		return on_plain_lengths(sec, data);
	case RFB_STATE_PLAIN_CREDENTIALS:
		return on_plain_credentials(sec, data);
	default:
		return fail(sec, "input out of turn");
	}
}

enum rfb_security_step rfb_security_checked(struct rfb_security *sec, bool ok,
		const char *reason) {
	if (sec->state != RFB_STATE_CHECKING) {
		return fail(sec, "a check out of turn");
	}
	memset(sec->password, 0, sizeof(sec->password));
	if (!ok) {
		return refuse(sec, "authentication failed", reason ? reason : "authentication failed");
	}
	return accept(sec);
}

void rfb_security_sent(struct rfb_security *sec) {
	sec->out_len = 0;
}

void rfb_security_finish(struct rfb_security *sec) {
	/* Not optimised away: the struct may be freed right after. */
	volatile char *p = sec->password;
	for (size_t i = 0; i < sizeof(sec->password); i++) {
		p[i] = 0;
	}
	volatile uint8_t *r = sec->response;
	for (size_t i = 0; i < sizeof(sec->response); i++) {
		r[i] = 0;
	}
}
