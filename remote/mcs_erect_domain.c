/* SPDX-License-Identifier: MIT */
#include <string.h>
#include "remote/mcs_erect_domain.h"

/* TPKT header of 12 bytes; X.224 Data (EOT); MCS ErectDomainRequest (choice 1). */
static const uint8_t tpkt[4] = { 0x03, 0x00, 0x00, 0x0c };
/* X.224 Data, then the choice and rdesktop's two bare 16-bit values (1 and 1). */
static const uint8_t rdesktop_body[8] = { 0x02, 0xf0, 0x80, 0x04, 0x00, 0x01, 0x00, 0x01 };
/* The same values as PER INTEGERs: length 1, value 1, twice. */
static const uint8_t per_integers[4] = { 0x01, 0x01, 0x01, 0x01 };

bool mcs_erect_domain_repair(uint8_t *data, size_t len) {
	uint8_t *body;
	if (len == MCS_ERECT_DOMAIN_LEN && memcmp(data, tpkt, sizeof(tpkt)) == 0) {
		body = data + sizeof(tpkt);
	} else if (len == sizeof(rdesktop_body)) {
		body = data;
	} else {
		return false;
	}
	if (memcmp(body, rdesktop_body, sizeof(rdesktop_body)) != 0) {
		return false;
	}
	memcpy(body + 4, per_integers, sizeof(per_integers));
	return true;
}
