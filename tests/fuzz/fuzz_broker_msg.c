/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the messages between the gateway's network worker
 * and its root broker (gateway/gateway_broker_msg.c): the broker decodes
 * whatever a compromised worker sends. Besides memory errors it checks
 * that a request it takes has a known type and front and terminated
 * strings, and that encoding it again gives the same request; the same
 * for replies, which the worker decodes.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gateway/gateway_broker_msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what) {
	if (!ok) {
		fprintf(stderr, "fuzz-broker-msg: invariant broken: %s\n", what);
		abort();
	}
}

#define TERMINATED(field) (strnlen((field), sizeof(field)) < sizeof(field))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	struct gateway_broker_request request, again;
	if (gateway_broker_request_decode(data, size, &request)) {
		check(size == GATEWAY_BROKER_REQUEST_SIZE, "request size");
		check(request.type == GATEWAY_BROKER_LOGIN || request.type == GATEWAY_BROKER_REDEEM,
			"request type");
		check(request.front == GATEWAY_BROKER_VNC || request.front == GATEWAY_BROKER_RDP,
			"request front");
		check(TERMINATED(request.host) && TERMINATED(request.user) &&
			TERMINATED(request.password) && TERMINATED(request.token), "request strings");
		uint8_t out[GATEWAY_BROKER_REQUEST_SIZE];
		check(gateway_broker_request_encode(&request, out), "request encodes");
		check(gateway_broker_request_decode(out, sizeof(out), &again) &&
			memcmp(&request, &again, sizeof(request)) == 0, "request round trip");
	}
	struct gateway_broker_reply reply, reply_again;
	if (gateway_broker_reply_decode(data, size, &reply)) {
		check(size == GATEWAY_BROKER_REPLY_SIZE, "reply size");
		check(TERMINATED(reply.reason) && TERMINATED(reply.user) &&
			TERMINATED(reply.token) && TERMINATED(reply.cookie), "reply strings");
		uint8_t out[GATEWAY_BROKER_REPLY_SIZE];
		check(gateway_broker_reply_encode(&reply, out), "reply encodes");
		check(gateway_broker_reply_decode(out, sizeof(out), &reply_again) &&
			memcmp(&reply, &reply_again, sizeof(reply)) == 0, "reply round trip");
	}
	return 0;
}
