/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for RDP on the wire (remote/rdp_pdu.c), what oriel-gateway's
 * relay reads in plaintext: PDUs counted in a stream that arrives in
 * pieces, the cluster data's REDIRECTION_SUPPORTED in a Connect Initial,
 * and the Client Info's password zeroed with every length kept.
 */

#include <string.h>
#include "remote/rdp_pdu.h"
#include "expect.h"

/* A TPKT with X.224 Data around body: its length. */
static size_t tpkt(uint8_t *out, const uint8_t *body, size_t len) {
	size_t n = 7 + len;
	uint8_t head[7] = { 3, 0, (uint8_t)(n >> 8), (uint8_t)n, 2, 0xf0, 0x80 };
	memcpy(out, head, sizeof(head));
	memcpy(out + 7, body, len);
	return n;
}

static void counting(void) {
	uint8_t stream[64];
	uint8_t body[4] = { 0x2e, 0, 0, 0 };
	size_t a = tpkt(stream, body, sizeof(body));
	/* A fast-path PDU, short length form, then one with the long form. */
	uint8_t fast[] = { 0x00, 4, 0xaa, 0xbb, 0x00, 0x80, 5, 0xcc, 0xdd };
	memcpy(stream + a, fast, sizeof(fast));
	size_t total = a + sizeof(fast);
	struct rdp_pdu_counter c = {0};
	/* A byte at a time: every header is cut. */
	for (size_t i = 0; i < total; i++) {
		EXPECT(rdp_pdu_counter_feed(&c, stream + i, 1, 100) == 1, "byte %zu taken", i);
	}
	EXPECT(c.whole == 3 && !c.broken, "%u PDUs, broken %d", c.whole, c.broken);

	/* Stops after `until`: the rest is the next PDU's. */
	struct rdp_pdu_counter d = {0};
	EXPECT(rdp_pdu_counter_feed(&d, stream, total, 1) == a, "bytes of the first PDU");
	EXPECT(d.whole == 1, "%u", d.whole);

	struct rdp_pdu_counter e = {0};
	uint8_t junk[] = { 0x03, 0x00, 0x00, 0x02 };
	rdp_pdu_counter_feed(&e, junk, sizeof(junk), 100);
	EXPECT(e.broken, "a TPKT shorter than its header");
	struct rdp_pdu_counter f = {0};
	uint8_t odd[] = { 0x01 };
	rdp_pdu_counter_feed(&f, odd, 1, 100);
	EXPECT(f.broken, "neither TPKT nor fast-path");
}

/* A Connect Initial whose user data hold a core block and, if flags >= 0, cluster data. */
static size_t connect_initial(uint8_t *out, long flags) {
	uint8_t body[128];
	size_t n = 0;
	const uint8_t ber[] = { 0x7f, 0x65, 0x81, 0x00, 0x04, 0x01, 0x01, 0x04, 0x01, 0x01,
		0x01, 0x01, 0xff, 0x04, 0x82, 0x00, 0x00 };
	memcpy(body, ber, sizeof(ber));
	n = sizeof(ber);
	const uint8_t gcc[] = { 0x00, 0x05, 0x00, 0x14, 0x7c, 0x00, 0x01, 0x2a, 0x00, 0x08,
		0x00, 0x10, 0x00, 0x01, 0xc0, 0x00, 'D', 'u', 'c', 'a' };
	memcpy(body + n, gcc, sizeof(gcc));
	n += sizeof(gcc);
	uint8_t blocks[32];
	size_t b = 0;
	const uint8_t core[] = { 0x01, 0xc0, 0x08, 0x00, 0x04, 0x00, 0x08, 0x00 };
	memcpy(blocks, core, sizeof(core));
	b = sizeof(core);
	if (flags >= 0) {
		const uint8_t cluster[] = { 0x04, 0xc0, 0x0c, 0x00, (uint8_t)flags, 0, 0, 0,
			0, 0, 0, 0 };
		memcpy(blocks + b, cluster, sizeof(cluster));
		b += sizeof(cluster);
	}
	body[n++] = (uint8_t)b; /* PER length, short form */
	memcpy(body + n, blocks, b);
	n += b;
	return tpkt(out, body, n);
}

static void redirection(void) {
	uint8_t stream[256];
	EXPECT(rdp_pdu_client_redirectable(stream, connect_initial(stream, 0x0d)),
		"REDIRECTION_SUPPORTED | version 4");
	EXPECT(!rdp_pdu_client_redirectable(stream, connect_initial(stream, 0x0c)),
		"version 4 alone");
	EXPECT(!rdp_pdu_client_redirectable(stream, connect_initial(stream, -1)),
		"no cluster data");
	size_t n = connect_initial(stream, 0x0d);
	EXPECT(!rdp_pdu_client_redirectable(stream, n - 5), "a cut Connect Initial");
}

/* A Client Info: Unicode, no domain, user "al", password "pw". */
static size_t client_info(uint8_t *out) {
	uint8_t info[64] = {0};
	size_t n = 0;
	const uint8_t mcs[] = { 0x64, 0x00, 0x06, 0x03, 0xeb, 0x70 };
	memcpy(info, mcs, sizeof(mcs));
	n = sizeof(mcs);
	size_t len_at = n++;
	const uint8_t sec[] = { 0x40, 0x00, 0x00, 0x00 };
	memcpy(info + n, sec, sizeof(sec));
	n += sizeof(sec);
	const uint8_t fixed[] = { 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 4, 0, 4, 0, 0, 0, 0, 0 };
	memcpy(info + n, fixed, sizeof(fixed));
	n += sizeof(fixed);
	const uint8_t strings[] = { 0, 0, 'a', 0, 'l', 0, 0, 0, 'p', 0, 'w', 0, 0, 0, 0, 0,
		0, 0 };
	memcpy(info + n, strings, sizeof(strings));
	n += sizeof(strings);
	info[len_at] = (uint8_t)(n - len_at - 1);
	return tpkt(out, info, n);
}

static void password(void) {
	uint8_t stream[256];
	size_t a = connect_initial(stream, 0x0d);
	size_t n = a + client_info(stream + a);
	uint8_t before[256];
	memcpy(before, stream, n);
	EXPECT(rdp_pdu_wipe_client_password(stream, n), "the Client Info is found");
	EXPECT(memmem(stream, n, "p\0w\0", 4) == NULL, "the password is gone");
	EXPECT(memmem(stream, n, "a\0l\0", 4) != NULL, "the user name stays");
	size_t differ = 0;
	for (size_t i = 0; i < n; i++) {
		differ += stream[i] != before[i];
	}
	EXPECT(differ == 2, "%zu bytes changed", differ);
	EXPECT(!rdp_pdu_wipe_client_password(stream, a), "no Client Info");
	EXPECT(!rdp_pdu_wipe_client_password(stream, n - 3), "a cut Client Info");
}

static void reactivation(void) {
	uint8_t stream[256];
	size_t a = connect_initial(stream, 0x0c);
	uint8_t attach[] = { 0x28 };
	uint8_t join[] = { 0x38, 0x00, 0x06, 0x03, 0xef }; /* initiator 6: user 1007 */
	a += tpkt(stream + a, attach, sizeof(attach));
	uint16_t user = 0;
	EXPECT(!rdp_pdu_client_user_id(stream, a, &user), "no Channel Join Request yet");
	a += tpkt(stream + a, join, sizeof(join));
	EXPECT(rdp_pdu_client_user_id(stream, a, &user) && user == 1007, "user %u", user);

	uint8_t out[RDP_PDU_DEACTIVATE_ALL_LEN];
	size_t n = rdp_pdu_deactivate_all(1007, out);
	struct rdp_pdu_counter c = {0};
	EXPECT(rdp_pdu_counter_feed(&c, out, n, 10) == n && c.whole == 1, "one whole PDU");
	/* MCS Send Data Indication on the I/O channel; share control: Deactivate All. */
	EXPECT(out[7] == 0x68 && out[10] == 0x03 && out[11] == 0xeb, "SDin on channel 1003");
	EXPECT(out[13] == n - 14 && out[14] == n - 14 && out[16] == 0x16,
		"its share control header");
}

int main(void) {
	counting();
	redirection();
	password();
	reactivation();
	return failures != 0;
}
