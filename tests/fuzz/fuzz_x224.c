/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the X.224 Connection Request parser
 * (remote/x224.c), which the gateway runs on the first bytes of
 * every RDP connection before anything is authenticated. Besides memory
 * errors it checks that a request it takes is exactly the TPKT's length,
 * and that a token it finds is terminated and within its bound.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "remote/x224.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what) {
	if (!ok) {
		fprintf(stderr, "fuzz-x224: invariant broken: %s\n", what);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	size_t length = x224_tpkt_length(data, size);
	check(length == 0 || (length >= 11 && length <= X224_REQUEST_MAX), "TPKT length bounds");
	struct x224_request request;
	char error[128];
	if (x224_parse_request(data, size, &request, error, sizeof(error))) {
		check(request.length == size && length == size, "whole TPKT");
		check(!(request.has_token && request.has_cookie), "token or cookie");
		if (request.has_token) {
			size_t n = strnlen(request.token, sizeof(request.token));
			check(n > 0 && n <= X224_TOKEN_MAX, "token length");
		}
	}
	return 0;
}
