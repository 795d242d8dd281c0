/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the RFB security handshake (remote/vnc/rfb_security.c)
 * and the users file (remote/users_file.c). The input drives a
 * viewer's side byte by byte, as oriel's handshake does: the machine is
 * fed only what it asks for, TLS finishes at once and checks succeed or
 * fail from the input. Besides memory errors it checks what must hold for
 * any viewer: the output never overflows, nothing is read after the end,
 * and a viewer is let in only through a type and sub-type that were offered
 * and, where one is due, a successful check.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "remote/users_file.h"
#include "remote/vnc/rfb_security.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what) {
	if (!ok) {
		fprintf(stderr, "fuzz-rfb-security: invariant broken: %s\n", what);
		abort();
	}
}

static void fuzz_users_file(const uint8_t *data, size_t size) {
	struct users_file file;
	char error[128];
	if (users_file_parse(&file, (const char *)data, size, error, sizeof(error))) {
		for (int i = 0; i < file.n_entries; i++) {
			check(file.entries[i].hash[0] == '$', "a hash that is not crypt(3)");
			check(strchr(file.entries[i].name, ':') == NULL, "a name with a colon");
		}
		users_file_finish(&file);
	} else {
		check(file.n_entries == 0, "entries left after an error");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	if (size < 2) {
		return 0;
	}
	fuzz_users_file(data, size);
	/* The first byte picks the offer. */
	uint8_t pick = data[0];
	struct rfb_security_offer offer = {
		.none = pick & 1,
		.vnc_auth = pick & 2,
		/* Some combination of the bits: a connection refused up front. */
		.refusal = (pick & 0x85) == 0x85 ? "refused" : NULL,
	};
	static const uint32_t subtypes[] = {
		VENCRYPT_X509_PLAIN, VENCRYPT_X509_VNC, VENCRYPT_X509_NONE,
		VENCRYPT_TLS_PLAIN, VENCRYPT_TLS_VNC, VENCRYPT_TLS_NONE,
	};
	for (int i = 0; i < 6; i++) {
		if (pick & (8 << (i % 5))) {
			offer.subtypes[offer.n_subtypes++] = subtypes[i];
		}
	}
	/* Plain, as inside wss, with whatever else is offered. */
	if ((pick & 0x44) == 0x44 && offer.n_subtypes < RFB_SECURITY_MAX_SUBTYPES) {
		offer.subtypes[offer.n_subtypes++] = VENCRYPT_PLAIN;
	}
	uint8_t challenge[16] = {0};
	struct rfb_security sec;
	rfb_security_init(&sec, &offer, challenge);
	data++;
	size--;
	enum rfb_security_step step = RFB_SECURITY_STEP_READ;
	bool checked_ok = false;
	while (step != RFB_SECURITY_STEP_DONE && step != RFB_SECURITY_STEP_FAILED) {
		check(sec.out_len <= sizeof(sec.out), "output overflow");
		rfb_security_sent(&sec);
		if (step == RFB_SECURITY_STEP_START_TLS) {
			check(sec.subtype != VENCRYPT_PLAIN, "TLS started for Plain");
			step = rfb_security_tls_done(&sec);
			continue;
		}
		if (step == RFB_SECURITY_STEP_CHECK_VNC || step == RFB_SECURITY_STEP_CHECK_PLAIN) {
			if (size == 0) {
				break;
			}
			checked_ok = data[0] & 1;
			data++;
			size--;
			step = rfb_security_checked(&sec, checked_ok, "no");
			continue;
		}
		size_t want = rfb_security_wants(&sec);
		check(want > 0 && want <= 2 * RFB_SECURITY_MAX_CREDENTIAL + 16, "a read out of bounds");
		if (want > size) {
			break;
		}
		step = rfb_security_feed(&sec, data, want);
		data += want;
		size -= want;
	}
	if (step == RFB_SECURITY_STEP_DONE) {
		check(!offer.refusal, "let in although refused");
		check(rfb_security_wants(&sec) == 0, "reads after the handshake");
		if (sec.type == RFB_SECURITY_NONE) {
			check(offer.none, "None let in without being offered");
		} else if (sec.type == RFB_SECURITY_VNC_AUTH) {
			check(offer.vnc_auth && checked_ok, "VncAuth let in without a check");
		} else {
			check(sec.type == RFB_SECURITY_VENCRYPT, "an unknown type let in");
			bool offered = false;
			for (int i = 0; i < offer.n_subtypes; i++) {
				offered = offered || offer.subtypes[i] == sec.subtype;
			}
			check(offered, "a sub-type let in without being offered");
			bool needs_check = sec.subtype != VENCRYPT_X509_NONE &&
				sec.subtype != VENCRYPT_TLS_NONE;
			check(!needs_check || checked_ok, "VeNCrypt let in without a check");
		}
	}
	rfb_security_finish(&sec);
	return 0;
}
