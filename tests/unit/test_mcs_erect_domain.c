/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for the repair of rdesktop's Erect Domain Request
 * (remote/mcs_erect_domain.c): rdesktop's bytes, whole and after the
 * TPKT header as FreeRDP reads them, become T.125's; FreeRDP's own
 * request, other PDUs of the same length and other lengths are untouched.
 */

#include <string.h>
#include "remote/mcs_erect_domain.h"
#include "expect.h"

/* What rdesktop 1.9 sends (mcs_send_edrq), and what T.125 says it means. */
static const uint8_t rdesktop[12] = { 0x03, 0x00, 0x00, 0x0c, 0x02, 0xf0, 0x80,
	0x04, 0x00, 0x01, 0x00, 0x01 };
static const uint8_t repaired[12] = { 0x03, 0x00, 0x00, 0x0c, 0x02, 0xf0, 0x80,
	0x04, 0x01, 0x01, 0x01, 0x01 };

static void untouched(const uint8_t *data, size_t len, const char *what) {
	uint8_t buf[64];
	memcpy(buf, data, len);
	EXPECT(!mcs_erect_domain_repair(buf, len), "%s was repaired", what);
	EXPECT(memcmp(buf, data, len) == 0, "%s changed", what);
}

int main(void) {
	uint8_t buf[12];
	memcpy(buf, rdesktop, sizeof(buf));
	EXPECT(mcs_erect_domain_repair(buf, sizeof(buf)), "the whole TPKT was not repaired");
	EXPECT(memcmp(buf, repaired, sizeof(buf)) == 0, "the whole TPKT reads wrong");
	EXPECT(!mcs_erect_domain_repair(buf, sizeof(buf)), "a repaired one was repaired again");

	memcpy(buf, rdesktop, sizeof(buf));
	EXPECT(mcs_erect_domain_repair(buf + 4, 8), "the body was not repaired");
	EXPECT(memcmp(buf, repaired, sizeof(buf)) == 0, "the body reads wrong");

	/* FreeRDP's own request (subHeight 0, subInterval 0, as PER INTEGERs). */
	static const uint8_t freerdp[12] = { 0x03, 0x00, 0x00, 0x0c, 0x02, 0xf0, 0x80,
		0x04, 0x01, 0x00, 0x01, 0x00 };
	untouched(freerdp, sizeof(freerdp), "FreeRDP's request");
	untouched(freerdp + 4, 8, "FreeRDP's request's body");
	/* Another MCS PDU of the same length: a Channel Join Request's choice. */
	uint8_t other[12];
	memcpy(other, rdesktop, sizeof(other));
	other[7] = 0x38;
	untouched(other, sizeof(other), "a Channel Join Request");
	/* A TPKT of another length with the same body. */
	memcpy(other, rdesktop, sizeof(other));
	other[3] = 0x0d;
	untouched(other, sizeof(other), "a 13-byte TPKT");
	/* The right bytes at other lengths: part of a longer read, or cut short. */
	uint8_t longer[13] = { 0 };
	memcpy(longer, rdesktop, sizeof(rdesktop));
	untouched(longer, sizeof(longer), "13 bytes");
	untouched(rdesktop, 11, "11 bytes");
	untouched(rdesktop + 4, 7, "7 bytes of the body");
	return failures != 0;
}
