/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_X224_H
#define ORIEL_REMOTE_X224_H

/*
 * The first PDU of an RDP connection: a TPKT holding an X.224 Connection
 * Request (MS-RDPBCGR 2.2.1.1), with an optional routingToken or cookie
 * line ("Cookie: mstshash=NAME" or "Cookie: msts=TOKEN", ending CRLF) and
 * an optional RDP Negotiation Request. The gateway reads it on a
 * redirected reconnection to find the routing token it handed out, and
 * answers with the Connection Confirm itself. Pure: no wlroots, no
 * FreeRDP.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A Connection Request longer than this is refused (a real one is < 300). */
#define X224_REQUEST_MAX 1024
/* The routing token's bytes after "Cookie: msts=", without CRLF. */
#define X224_TOKEN_MAX 128

/* MS-RDPBCGR 2.2.1.1.1: requestedProtocols / selectedProtocol. */
#define X224_PROTOCOL_RDP 0x0
#define X224_PROTOCOL_SSL 0x1
#define X224_PROTOCOL_HYBRID 0x2

struct x224_request {
	size_t length;            /* the whole TPKT */
	bool has_token;           /* "Cookie: msts=..." */
	char token[X224_TOKEN_MAX + 1];
	bool has_cookie;          /* "Cookie: mstshash=..." */
	bool has_negotiation;     /* an RDP_NEG_REQ came */
	uint32_t requested_protocols;
};

/*
 * The whole TPKT's length from its first 4 bytes, or 0 when they are
 * not a TPKT header, or announce less than a Connection Request or more
 * than X224_REQUEST_MAX.
 */
size_t x224_tpkt_length(const uint8_t *header, size_t len);

/*
 * Parses one TPKT with an X.224 Connection Request, exactly len bytes.
 * False, with a sentence in error, when it is malformed.
 */
bool x224_parse_request(const uint8_t *data, size_t len, struct x224_request *request,
	char *error, size_t error_size);

/*
 * The Connection Confirm selecting protocol (an RDP_NEG_RSP with flags),
 * into out (at least X224_CONFIRM_LEN bytes). Returns its length.
 */
#define X224_CONFIRM_LEN 19
size_t x224_write_confirm(uint8_t *out, uint8_t flags, uint32_t protocol);

#endif
