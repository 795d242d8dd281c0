/* SPDX-License-Identifier: MIT */
#include <string.h>
#include "gateway/gateway_broker_msg.h"

/*
 * Layout, little-endian: magic (4), version (2), type (2; 0 in a reply),
 * then the fields in the order of the structs, each string in its whole
 * fixed-size field, padded with NULs.
 */

#define MAGIC 0x4b42524fu /* "ORBK" */
#define VERSION 1

struct cursor {
	uint8_t *out;         /* encoding */
	const uint8_t *in;    /* decoding */
	size_t at;
	bool ok;
};

static void put_u16(struct cursor *c, uint16_t v) {
	c->out[c->at++] = (uint8_t)v;
	c->out[c->at++] = (uint8_t)(v >> 8);
}

static void put_header(struct cursor *c, uint16_t type) {
	uint32_t magic = MAGIC;
	for (int i = 0; i < 4; i++) {
		c->out[c->at++] = (uint8_t)(magic >> (8 * i));
	}
	put_u16(c, VERSION);
	put_u16(c, type);
}

static void put_string(struct cursor *c, const char *s, size_t field) {
	size_t len = strnlen(s, field);
	if (len == field) {
		c->ok = false;
		len = 0;
	}
	memset(c->out + c->at, 0, field);
	memcpy(c->out + c->at, s, len);
	c->at += field;
}

static uint16_t get_u16(struct cursor *c) {
	uint16_t v = (uint16_t)(c->in[c->at] | c->in[c->at + 1] << 8);
	c->at += 2;
	return v;
}

/* The header's type, or -1 when the magic or version is wrong. */
static int get_header(struct cursor *c) {
	uint32_t magic = 0;
	for (int i = 0; i < 4; i++) {
		magic |= (uint32_t)c->in[c->at++] << (8 * i);
	}
	uint16_t version = get_u16(c);
	uint16_t type = get_u16(c);
	return magic == MAGIC && version == VERSION ? type : -1;
}

/* A string must end within its field; the rest of the field is ignored. */
static void get_string(struct cursor *c, char *s, size_t field) {
	const uint8_t *start = c->in + c->at;
	const uint8_t *nul = memchr(start, '\0', field);
	if (!nul) {
		c->ok = false;
	} else {
		memcpy(s, start, (size_t)(nul - start) + 1);
	}
	c->at += field;
}

bool gateway_broker_request_encode(const struct gateway_broker_request *request,
		uint8_t out[GATEWAY_BROKER_REQUEST_SIZE]) {
	struct cursor c = { .out = out, .ok = true };
	put_header(&c, request->type);
	c.out[c.at++] = request->front;
	put_string(&c, request->host, sizeof(request->host));
	put_string(&c, request->user, sizeof(request->user));
	put_string(&c, request->password, sizeof(request->password));
	put_string(&c, request->token, sizeof(request->token));
	return c.ok && c.at == GATEWAY_BROKER_REQUEST_SIZE;
}

bool gateway_broker_request_decode(const uint8_t *data, size_t size,
		struct gateway_broker_request *request) {
	memset(request, 0, sizeof(*request));
	if (size != GATEWAY_BROKER_REQUEST_SIZE) {
		return false;
	}
	struct cursor c = { .in = data, .ok = true };
	int type = get_header(&c);
	request->type = (uint16_t)(type < 0 ? 0 : type);
	request->front = c.in[c.at++];
	get_string(&c, request->host, sizeof(request->host));
	get_string(&c, request->user, sizeof(request->user));
	get_string(&c, request->password, sizeof(request->password));
	get_string(&c, request->token, sizeof(request->token));
	bool known = (type == GATEWAY_BROKER_LOGIN || type == GATEWAY_BROKER_REDEEM) &&
		(request->front == GATEWAY_BROKER_VNC || request->front == GATEWAY_BROKER_RDP);
	if (!c.ok || !known) {
		memset(request, 0, sizeof(*request));
		return false;
	}
	return true;
}

bool gateway_broker_reply_encode(const struct gateway_broker_reply *reply,
		uint8_t out[GATEWAY_BROKER_REPLY_SIZE]) {
	struct cursor c = { .out = out, .ok = true };
	put_header(&c, 0);
	c.out[c.at++] = reply->ok ? 1 : 0;
	put_u16(&c, reply->flags);
	put_string(&c, reply->reason, sizeof(reply->reason));
	put_string(&c, reply->user, sizeof(reply->user));
	put_string(&c, reply->token, sizeof(reply->token));
	put_string(&c, reply->cookie, sizeof(reply->cookie));
	return c.ok && c.at == GATEWAY_BROKER_REPLY_SIZE;
}

bool gateway_broker_reply_decode(const uint8_t *data, size_t size,
		struct gateway_broker_reply *reply) {
	memset(reply, 0, sizeof(*reply));
	if (size != GATEWAY_BROKER_REPLY_SIZE) {
		return false;
	}
	struct cursor c = { .in = data, .ok = true };
	int type = get_header(&c);
	uint8_t ok = c.in[c.at++];
	reply->ok = ok == 1;
	reply->flags = get_u16(&c);
	get_string(&c, reply->reason, sizeof(reply->reason));
	get_string(&c, reply->user, sizeof(reply->user));
	get_string(&c, reply->token, sizeof(reply->token));
	get_string(&c, reply->cookie, sizeof(reply->cookie));
	if (!c.ok || type != 0 || ok > 1) {
		memset(reply, 0, sizeof(*reply));
		return false;
	}
	return true;
}
