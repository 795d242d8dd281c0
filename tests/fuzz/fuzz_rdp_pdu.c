/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for RDP on the wire (remote/rdp_pdu.c), which
 * oriel-gateway's worker runs on a client's plaintext before its login
 * is passed on: the PDU counter fed in pieces, the cluster flag, the
 * Client Info's password and the user channel it joined. Besides memory
 * errors it checks that the counter takes no more than it was given and
 * counts the same PDUs fed whole or a byte at a time, that wiping the
 * password changes nothing but zeros in, and that a user ID is one.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "remote/rdp_pdu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what) {
	if (!ok) {
		fprintf(stderr, "fuzz-rdp-pdu: invariant broken: %s\n", what);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	struct rdp_pdu_counter whole = {0}, bytewise = {0};
	size_t taken = rdp_pdu_counter_feed(&whole, data, size, 1000000);
	check(taken <= size, "taken within what was given");
	for (size_t i = 0; i < size; i++) {
		rdp_pdu_counter_feed(&bytewise, data + i, 1, 1000000);
	}
	check(whole.whole == bytewise.whole && whole.broken == bytewise.broken,
		"the same count in pieces");

	(void)rdp_pdu_client_redirectable(data, size);
	uint16_t user_id;
	check(!rdp_pdu_client_user_id(data, size, &user_id) || user_id > 1001, "a user ID");
	uint8_t *copy = malloc(size ? size : 1);
	if (!copy) {
		return 0;
	}
	memcpy(copy, data, size);
	bool wiped = rdp_pdu_wipe_client_password(copy, size);
	for (size_t i = 0; i < size; i++) {
		check(copy[i] == data[i] || (wiped && copy[i] == 0), "only zeros written");
	}
	free(copy);
	return 0;
}
