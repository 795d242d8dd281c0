/* SPDX-License-Identifier: MIT */
/* Unit tests for the RFB security handshake machine (remote/vnc/rfb_security.c). */

#include <string.h>
#include "remote/vnc/rfb_security.h"
#include "tests/unit/expect.h"

static const uint8_t challenge[16] = "0123456789abcdef";

static uint32_t get32(const uint8_t *p) {
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put32(uint8_t *p, uint32_t v) {
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static enum rfb_security_step feed(struct rfb_security *sec, const void *data, size_t len) {
	EXPECT(rfb_security_wants(sec) == len, "wants %zu, fed %zu", rfb_security_wants(sec), len);
	return rfb_security_feed(sec, data, len);
}

static struct rfb_security_offer accounts_offer(void) {
	return (struct rfb_security_offer){
		.subtypes = { VENCRYPT_X509_PLAIN, VENCRYPT_X509_VNC },
		.n_subtypes = 2,
	};
}

/* As TigerVNC's viewer logs in with X509Plain. */
static void test_x509_plain(void) {
	struct rfb_security sec;
	struct rfb_security_offer offer = accounts_offer();
	rfb_security_init(&sec, &offer, challenge);
	EXPECT(sec.out_len == 12 && memcmp(sec.out, "RFB 003.008\n", 12) == 0, "greeting");
	rfb_security_sent(&sec);
	EXPECT(feed(&sec, "RFB 003.008\n", 12) == RFB_SECURITY_STEP_READ, "version");
	EXPECT(sec.out_len == 2 && sec.out[0] == 1 && sec.out[1] == 19, "only VeNCrypt offered");
	rfb_security_sent(&sec);
	EXPECT(feed(&sec, "\x13", 1) == RFB_SECURITY_STEP_READ, "VeNCrypt chosen");
	EXPECT(sec.out_len == 2 && sec.out[0] == 0 && sec.out[1] == 2, "VeNCrypt 0.2");
	rfb_security_sent(&sec);
	EXPECT(feed(&sec, "\x00\x02", 2) == RFB_SECURITY_STEP_READ, "version accepted");
	EXPECT(sec.out_len == 2 + 8 && sec.out[0] == 0 && sec.out[1] == 2 &&
		get32(sec.out + 2) == VENCRYPT_X509_PLAIN && get32(sec.out + 6) == VENCRYPT_X509_VNC,
		"the sub-types");
	rfb_security_sent(&sec);
	uint8_t choice[4];
	put32(choice, VENCRYPT_X509_PLAIN);
	EXPECT(feed(&sec, choice, 4) == RFB_SECURITY_STEP_START_TLS, "TLS next");
	EXPECT(sec.out_len == 1 && sec.out[0] == 1, "the go-ahead for TLS");
	rfb_security_sent(&sec);
	EXPECT(rfb_security_tls_done(&sec) == RFB_SECURITY_STEP_READ, "Plain next");
	uint8_t lengths[8];
	put32(lengths, 5);
	put32(lengths + 4, 6);
	EXPECT(feed(&sec, lengths, 8) == RFB_SECURITY_STEP_READ, "lengths");
	EXPECT(feed(&sec, "alicesecret", 11) == RFB_SECURITY_STEP_CHECK_PLAIN, "check");
	EXPECT(strcmp(sec.user, "alice") == 0 && strcmp(sec.password, "secret") == 0,
		"user \"%s\"", sec.user);
	EXPECT(rfb_security_checked(&sec, true, NULL) == RFB_SECURITY_STEP_DONE, "done");
	EXPECT(sec.out_len == 4 && get32(sec.out) == 0, "SecurityResult OK");
	EXPECT(sec.password[0] == '\0', "the password is wiped once checked");
	EXPECT(rfb_security_wants(&sec) == 0, "reads nothing after the handshake");
	rfb_security_finish(&sec);
}

static void test_wrong_password(void) {
	struct rfb_security sec;
	struct rfb_security_offer offer = accounts_offer();
	rfb_security_init(&sec, &offer, challenge);
	feed(&sec, "RFB 003.008\n", 12);
	feed(&sec, "\x13", 1);
	feed(&sec, "\x00\x02", 2);
	uint8_t choice[4];
	put32(choice, VENCRYPT_X509_PLAIN);
	feed(&sec, choice, 4);
	rfb_security_tls_done(&sec);
	rfb_security_sent(&sec);
	uint8_t lengths[8] = {0, 0, 0, 1, 0, 0, 0, 1};
	feed(&sec, lengths, 8);
	EXPECT(feed(&sec, "ab", 2) == RFB_SECURITY_STEP_CHECK_PLAIN, "check");
	EXPECT(rfb_security_checked(&sec, false, "authentication failed") ==
		RFB_SECURITY_STEP_FAILED, "failed");
	EXPECT(sec.out_len == 8 + 21 && get32(sec.out) == 1 && get32(sec.out + 4) == 21 &&
		memcmp(sec.out + 8, "authentication failed", 21) == 0, "the reason goes out");
}

static void test_subtype_not_offered(void) {
	struct rfb_security sec;
	struct rfb_security_offer offer = accounts_offer();
	rfb_security_init(&sec, &offer, challenge);
	feed(&sec, "RFB 003.008\n", 12);
	feed(&sec, "\x13", 1);
	feed(&sec, "\x00\x02", 2);
	rfb_security_sent(&sec);
	uint8_t choice[4];
	put32(choice, VENCRYPT_X509_NONE); /* a viewer trying to skip the login */
	EXPECT(feed(&sec, choice, 4) == RFB_SECURITY_STEP_FAILED, "X509None refused");
	EXPECT(sec.out[0] == 0, "no go-ahead for TLS");
	put32(choice, VENCRYPT_PLAIN);
	rfb_security_init(&sec, &offer, challenge);
	feed(&sec, "RFB 003.008\n", 12);
	feed(&sec, "\x13", 1);
	feed(&sec, "\x00\x02", 2);
	EXPECT(feed(&sec, choice, 4) == RFB_SECURITY_STEP_FAILED, "Plain without TLS refused");
	rfb_security_init(&sec, &offer, challenge);
	feed(&sec, "RFB 003.008\n", 12);
	EXPECT(feed(&sec, "\x01", 1) == RFB_SECURITY_STEP_FAILED, "None refused");
	rfb_security_init(&sec, &offer, challenge);
	feed(&sec, "RFB 003.008\n", 12);
	feed(&sec, "\x13", 1);
	EXPECT(feed(&sec, "\x00\x01", 2) == RFB_SECURITY_STEP_FAILED, "VeNCrypt 0.1 refused");
}

/* Inside a channel that is secure already (wss): Plain, with no TLS of its own. */
static void test_plain_offered(void) {
	struct rfb_security sec;
	struct rfb_security_offer offer = { .subtypes = { VENCRYPT_PLAIN }, .n_subtypes = 1 };
	rfb_security_init(&sec, &offer, challenge);
	feed(&sec, "RFB 003.008\n", 12);
	rfb_security_sent(&sec);
	feed(&sec, "\x13", 1);
	rfb_security_sent(&sec);
	feed(&sec, "\x00\x02", 2);
	EXPECT(sec.out_len == 6 && sec.out[1] == 1 && get32(sec.out + 2) == VENCRYPT_PLAIN,
		"only Plain listed");
	rfb_security_sent(&sec);
	uint8_t choice[4];
	put32(choice, VENCRYPT_PLAIN);
	EXPECT(feed(&sec, choice, 4) == RFB_SECURITY_STEP_READ, "Plain taken");
	EXPECT(sec.out_len == 0, "no go-ahead byte: there is no TLS to start");
	EXPECT(rfb_security_wants(&sec) == 8, "the lengths come next");
	feed(&sec, "\x00\x00\x00\x03\x00\x00\x00\x02", 8);
	EXPECT(feed(&sec, "bobpw", 5) == RFB_SECURITY_STEP_CHECK_PLAIN, "check");
	EXPECT(strcmp(sec.user, "bob") == 0 && strcmp(sec.password, "pw") == 0, "credentials");
	EXPECT(rfb_security_checked(&sec, false, "authentication failed") ==
		RFB_SECURITY_STEP_FAILED, "a wrong password fails");
	EXPECT(sec.out_len >= 4 && get32(sec.out) == 1, "SecurityResult failed");
	EXPECT(strcmp(vencrypt_subtype_name(sec.subtype), "Plain") == 0, "named Plain");
}

static void test_plain_limits(void) {
	struct rfb_security sec;
	struct rfb_security_offer offer = accounts_offer();
	uint8_t choice[4];
	put32(choice, VENCRYPT_X509_PLAIN);
	rfb_security_init(&sec, &offer, challenge);
	feed(&sec, "RFB 003.008\n", 12);
	feed(&sec, "\x13", 1);
	feed(&sec, "\x00\x02", 2);
	feed(&sec, choice, 4);
	rfb_security_tls_done(&sec);
	uint8_t lengths[8];
	put32(lengths, 0xffffffff);
	put32(lengths + 4, 1);
	EXPECT(feed(&sec, lengths, 8) == RFB_SECURITY_STEP_FAILED, "a 4 GiB user name");

	rfb_security_init(&sec, &offer, challenge);
	feed(&sec, "RFB 003.008\n", 12);
	feed(&sec, "\x13", 1);
	feed(&sec, "\x00\x02", 2);
	feed(&sec, choice, 4);
	rfb_security_tls_done(&sec);
	put32(lengths, 3);
	put32(lengths + 4, 2);
	feed(&sec, lengths, 8);
	EXPECT(feed(&sec, "ro\0otx", 5) == RFB_SECURITY_STEP_FAILED, "a NUL inside the name");
}

static void test_vnc_auth_33(void) {
	struct rfb_security sec;
	struct rfb_security_offer offer = { .vnc_auth = true };
	rfb_security_init(&sec, &offer, challenge);
	rfb_security_sent(&sec);
	EXPECT(feed(&sec, "RFB 003.003\n", 12) == RFB_SECURITY_STEP_READ, "3.3");
	EXPECT(sec.out_len == 4 + 16 && get32(sec.out) == 2 &&
		memcmp(sec.out + 4, challenge, 16) == 0, "VncAuth and the challenge");
	rfb_security_sent(&sec);
	EXPECT(feed(&sec, "fedcba9876543210", 16) == RFB_SECURITY_STEP_CHECK_VNC, "check");
	EXPECT(memcmp(sec.response, "fedcba9876543210", 16) == 0, "the response");
	EXPECT(rfb_security_checked(&sec, false, "no") == RFB_SECURITY_STEP_FAILED, "failed");
	EXPECT(sec.out_len == 4 && get32(sec.out) == 1, "3.3 gets no reason");
}

static void test_none_37_and_order(void) {
	struct rfb_security sec;
	struct rfb_security_offer offer = {
		.none = true, .subtypes = { VENCRYPT_X509_NONE }, .n_subtypes = 1,
	};
	rfb_security_init(&sec, &offer, challenge);
	rfb_security_sent(&sec);
	EXPECT(feed(&sec, "RFB 003.007\n", 12) == RFB_SECURITY_STEP_READ, "3.7");
	EXPECT(sec.out_len == 3 && sec.out[0] == 2 && sec.out[1] == 19 && sec.out[2] == 1,
		"VeNCrypt before None");
	rfb_security_sent(&sec);
	EXPECT(feed(&sec, "\x01", 1) == RFB_SECURITY_STEP_DONE, "None");
	EXPECT(sec.out_len == 0, "3.7 has no SecurityResult for None");
	EXPECT(sec.minor == 7, "minor %d", sec.minor);
}

/* A password file on loopback: VeNCrypt (X509Vnc, TLSVnc) first, VncAuth after. */
static void test_encrypted_first(void) {
	struct rfb_security sec;
	struct rfb_security_offer offer = {
		.vnc_auth = true, .subtypes = { VENCRYPT_X509_VNC, VENCRYPT_TLS_VNC },
		.n_subtypes = 2,
	};
	rfb_security_init(&sec, &offer, challenge);
	rfb_security_sent(&sec);
	EXPECT(feed(&sec, "RFB 003.008\n", 12) == RFB_SECURITY_STEP_READ, "3.8");
	EXPECT(sec.out_len == 3 && sec.out[0] == 2 && sec.out[1] == 19 && sec.out[2] == 2,
		"VeNCrypt before VncAuth");
	rfb_security_sent(&sec);
	/* A viewer that asks for VncAuth still gets it. */
	EXPECT(feed(&sec, "\x02", 1) == RFB_SECURITY_STEP_READ, "VncAuth");
	EXPECT(sec.out_len == 16 && memcmp(sec.out, challenge, 16) == 0, "the challenge");
}

static void test_bad_versions(void) {
	static const char *const bad[] = {
		"RFB 004.000\n", "GET / HTTP/1\n", "RFB 003.00x\n", "RFB 003.008\r",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct rfb_security sec;
		struct rfb_security_offer offer = { .none = true };
		rfb_security_init(&sec, &offer, challenge);
		EXPECT(feed(&sec, bad[i], 12) == RFB_SECURITY_STEP_FAILED, "%s", bad[i]);
	}
	struct rfb_security sec;
	struct rfb_security_offer offer = { .none = true };
	rfb_security_init(&sec, &offer, challenge);
	EXPECT(feed(&sec, "RFB 003.889\n", 12) == RFB_SECURITY_STEP_READ && sec.minor == 8,
		"Apple's 3.889 is 3.8");
	offer = accounts_offer();
	rfb_security_init(&sec, &offer, challenge);
	EXPECT(feed(&sec, "RFB 003.003\n", 12) == RFB_SECURITY_STEP_FAILED,
		"3.3 cannot VeNCrypt");
}

/* A refused connection gets no security type, only the reason, in 3.8 and 3.3. */
static void test_refusal(void) {
	static const char reason[] = "it comes from uid 65534, not uid 0";
	size_t len = strlen(reason);
	struct rfb_security sec;
	struct rfb_security_offer offer = { .none = true, .refusal = reason };
	rfb_security_init(&sec, &offer, challenge);
	rfb_security_sent(&sec);
	EXPECT(feed(&sec, "RFB 003.008\n", 12) == RFB_SECURITY_STEP_FAILED, "3.8 refused");
	EXPECT(sec.out_len == 1 + 4 + len && sec.out[0] == 0 && get32(sec.out + 1) == len &&
		memcmp(sec.out + 5, reason, len) == 0, "0 types, then the reason");
	rfb_security_init(&sec, &offer, challenge);
	rfb_security_sent(&sec);
	EXPECT(feed(&sec, "RFB 003.003\n", 12) == RFB_SECURITY_STEP_FAILED, "3.3 refused");
	EXPECT(sec.out_len == 4 + 4 + len && get32(sec.out) == 0 && get32(sec.out + 4) == len &&
		memcmp(sec.out + 8, reason, len) == 0, "type 0, then the reason");
	EXPECT(rfb_security_wants(&sec) == 0, "nothing more is read");
}

int main(void) {
	test_refusal();
	test_x509_plain();
	test_wrong_password();
	test_subtype_not_offered();
	test_plain_offered();
	test_plain_limits();
	test_vnc_auth_33();
	test_none_37_and_order();
	test_encrypted_first();
	test_bad_versions();
	return failures != 0;
}
