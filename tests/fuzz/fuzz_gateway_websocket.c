/* SPDX-License-Identifier: MIT */
/*
 * The gateway's WebSocket frame headers and upgrade keys
 * (gateway/gateway_websocket.c), as a browser's bytes reach them before
 * any login.
 */
#include <stdint.h>
#include <string.h>
#include "gateway/gateway_websocket.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	char accept[GATEWAY_WS_ACCEPT_SIZE];
	gateway_ws_accept((const char *)data, size, accept);
	size_t at = 0;
	while (at < size) {
		size_t header = gateway_ws_header_len(data + at, size - at);
		if (header == 0 || header > size - at) {
			break;
		}
		struct gateway_ws_frame frame;
		if (!gateway_ws_parse_header(data + at, header, &frame)) {
			break;
		}
		at += header;
		size_t payload = frame.length < size - at ? (size_t)frame.length : size - at;
		uint8_t copy[256];
		size_t n = payload < sizeof(copy) ? payload : sizeof(copy);
		memcpy(copy, data + at, n);
		gateway_ws_unmask(&frame, copy, n, 0);
		uint8_t out[GATEWAY_WS_HEADER_MAX];
		gateway_ws_write_masked_header(frame.opcode, frame.length, frame.mask, out);
		at += payload;
	}
	return 0;
}
