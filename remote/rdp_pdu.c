/* SPDX-License-Identifier: MIT */
#include <string.h>
#include "remote/rdp_pdu.h"

/* MS-RDPBCGR 2.2.1.3.1 / 2.2.1.3.5: the client's cluster data. */
#define CS_CLUSTER 0xc004
#define REDIRECTION_SUPPORTED 0x01
/* 2.2.8.1.1.2.1: the Client Info PDU's security header; 2.2.1.11.1.1: its flags. */
#define SEC_INFO_PKT 0x0040
#define INFO_UNICODE 0x0010
/* T.125: the DomainMCSPDU choices, as their first byte. */
#define MCS_SEND_DATA_REQUEST (25 << 2)
#define MCS_SEND_DATA_INDICATION (26 << 2)
#define MCS_CHANNEL_JOIN_REQUEST (14 << 2)
#define MCS_BASE_CHANNEL_ID 1001
#define MCS_GLOBAL_CHANNEL_ID 1003
/* 2.2.8.1.1.1.1: PDUTYPE_DEACTIVATEALLPDU with TS_PROTOCOL_VERSION. */
#define PDUTYPE_DEACTIVATE_ALL 0x16

static uint16_t le16(const uint8_t *p) {
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p) {
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		(uint32_t)p[3] << 24;
}

/* A PDU's whole length from its first n bytes: 1 known, 0 more needed, -1 none is that. */
static int pdu_length(const uint8_t *h, size_t n, size_t *total) {
	if (h[0] == 3) { /* TPKT */
		if (n < 4) {
			return 0;
		}
		*total = (size_t)h[2] << 8 | h[3];
		return *total >= 4 ? 1 : -1;
	}
	if ((h[0] & 3) != 0) { /* not a fast-path action */
		return -1;
	}
	if (n < 2) {
		return 0;
	}
	if (!(h[1] & 0x80)) {
		*total = h[1];
		return *total >= 2 ? 1 : -1;
	}
	if (n < 3) {
		return 0;
	}
	*total = (size_t)(h[1] & 0x7f) << 8 | h[2];
	return *total >= 3 ? 1 : -1;
}

size_t rdp_pdu_counter_feed(struct rdp_pdu_counter *c, const uint8_t *buf, size_t len,
		unsigned until) {
	size_t taken = 0;
	while (taken < len && c->whole < until && !c->broken) {
		if (c->left > 0) {
			size_t n = len - taken < c->left ? len - taken : c->left;
			taken += n;
			c->left -= n;
			c->whole += c->left == 0;
			continue;
		}
		c->header[c->header_len++] = buf[taken++];
		size_t total = 0;
		int known = pdu_length(c->header, c->header_len, &total);
		if (known < 0 || (known > 0 && total < c->header_len)) {
			c->broken = true;
		} else if (known > 0) {
			c->left = total - c->header_len;
			c->header_len = 0;
			c->whole += c->left == 0;
		} else if (c->header_len == sizeof(c->header)) {
			c->broken = true; /* cannot happen: 4 bytes always tell */
		}
	}
	return taken;
}

/*
 * The next whole TPKT at *offset: its start and length, moving *offset
 * past it. False at the end, or at something else.
 */
static bool next_tpkt(const uint8_t *stream, size_t len, size_t *offset,
		size_t *start, size_t *size) {
	if (len - *offset < 4 || stream[*offset] != 3) {
		return false;
	}
	size_t total = (size_t)stream[*offset + 2] << 8 | stream[*offset + 3];
	if (total < 4 || total > len - *offset) {
		return false;
	}
	*start = *offset;
	*size = total;
	*offset += total;
	return true;
}

/* A PER length at p (end: past the buffer): its value, moving p past it. False when cut. */
static bool per_length(const uint8_t **p, const uint8_t *end, size_t *value) {
	if (*p >= end) {
		return false;
	}
	if (!(**p & 0x80)) {
		*value = *(*p)++;
		return true;
	}
	if (end - *p < 2) {
		return false;
	}
	*value = (size_t)((*p)[0] & 0x7f) << 8 | (*p)[1];
	*p += 2;
	return true;
}

/* The client's user data blocks in a Connect Initial: after the GCC key "Duca". */
static bool cluster_flags(const uint8_t *pdu, size_t size, uint32_t *flags) {
	static const uint8_t key[] = { 'D', 'u', 'c', 'a' };
	const uint8_t *end = pdu + size;
	const uint8_t *p = memmem(pdu, size, key, sizeof(key));
	size_t blocks_len;
	if (!p) {
		return false;
	}
	p += sizeof(key);
	if (!per_length(&p, end, &blocks_len) || blocks_len > (size_t)(end - p)) {
		return false;
	}
	end = p + blocks_len;
	while (end - p >= 4) {
		uint16_t type = le16(p), length = le16(p + 2);
		if (length < 4 || length > end - p) {
			return false;
		}
		if (type == CS_CLUSTER && length >= 8) {
			*flags = le32(p + 4);
			return true;
		}
		p += length;
	}
	return false;
}

bool rdp_pdu_client_redirectable(const uint8_t *stream, size_t len) {
	size_t offset = 0, start, size;
	while (next_tpkt(stream, len, &offset, &start, &size)) {
		const uint8_t *pdu = stream + start;
		/* X.224 Data, then BER's Connect-Initial (application 101). */
		if (size > 9 && pdu[4] == 2 && pdu[5] == 0xf0 && pdu[7] == 0x7f &&
				pdu[8] == 0x65) {
			uint32_t flags = 0;
			return cluster_flags(pdu, size, &flags) && (flags & REDIRECTION_SUPPORTED);
		}
	}
	return false;
}

/* The Client Info's TS_INFO_PACKET in a Send Data Request: its offset, or 0. */
static size_t info_packet(const uint8_t *pdu, size_t size) {
	/* TPKT, X.224 Data, the choice, initiator, channel, priority and segmentation. */
	const uint8_t *p = pdu + 4 + 3 + 1 + 2 + 2 + 1, *end = pdu + size;
	size_t data_len;
	if (size < 13 || pdu[4] != 2 || pdu[5] != 0xf0 || pdu[7] != MCS_SEND_DATA_REQUEST ||
			!per_length(&p, end, &data_len) || data_len != (size_t)(end - p) ||
			data_len < 4 || !(le16(p) & SEC_INFO_PKT)) {
		return 0;
	}
	return (size_t)(p + 4 - pdu);
}

bool rdp_pdu_wipe_client_password(uint8_t *stream, size_t len) {
	size_t offset = 0, start, size;
	while (next_tpkt(stream, len, &offset, &start, &size)) {
		uint8_t *pdu = stream + start;
		size_t info = info_packet(pdu, size);
		if (info == 0) {
			continue;
		}
		/* CodePage, flags, then cbDomain, cbUserName, cbPassword: each without its NUL. */
		if (size - info < 18) {
			return false;
		}
		const uint8_t *fixed = pdu + info;
		size_t nul = (le32(fixed + 4) & INFO_UNICODE) ? 2 : 1;
		size_t domain = le16(fixed + 8), user = le16(fixed + 10), password = le16(fixed + 12);
		size_t at = info + 18 + domain + nul + user + nul;
		if (at > size || password > size - at) {
			return false;
		}
		memset(pdu + at, 0, password);
		return true;
	}
	return false;
}

bool rdp_pdu_client_user_id(const uint8_t *stream, size_t len, uint16_t *user_id) {
	size_t offset = 0, start, size;
	while (next_tpkt(stream, len, &offset, &start, &size)) {
		const uint8_t *pdu = stream + start;
		if (size >= 12 && pdu[4] == 2 && pdu[5] == 0xf0 &&
				pdu[7] == MCS_CHANNEL_JOIN_REQUEST) {
			*user_id = (uint16_t)(pdu[10] << 8 | pdu[11]);
			return *user_id > MCS_BASE_CHANNEL_ID;
		}
	}
	return false;
}

size_t rdp_pdu_deactivate_all(uint16_t user_id, uint8_t *out) {
	const uint16_t length = 13; /* share control header, shareId, a 1-byte source */
	const uint32_t share_id = 0x10000u + user_id; /* as FreeRDP's server says it */
	const uint16_t initiator = user_id - MCS_BASE_CHANNEL_ID;
	const uint8_t pdu[RDP_PDU_DEACTIVATE_ALL_LEN] = {
		3, 0, 0, RDP_PDU_DEACTIVATE_ALL_LEN, /* TPKT */
		2, 0xf0, 0x80,                        /* X.224 Data */
		MCS_SEND_DATA_INDICATION, (uint8_t)(initiator >> 8), (uint8_t)initiator,
		MCS_GLOBAL_CHANNEL_ID >> 8, MCS_GLOBAL_CHANNEL_ID & 0xff, 0x70, (uint8_t)length,
		(uint8_t)length, 0, PDUTYPE_DEACTIVATE_ALL, 0,
		(uint8_t)user_id, (uint8_t)(user_id >> 8),
		(uint8_t)share_id, (uint8_t)(share_id >> 8), (uint8_t)(share_id >> 16),
		(uint8_t)(share_id >> 24),
		1, 0, /* lengthSourceDescriptor */
		0,    /* sourceDescriptor */
	};
	memcpy(out, pdu, sizeof(pdu));
	return sizeof(pdu);
}
