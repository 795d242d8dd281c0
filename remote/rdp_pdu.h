/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_RDP_PDU_H
#define ORIEL_REMOTE_RDP_PDU_H

/*
 * RDP as bytes on the wire, for oriel-gateway's relay of a client that
 * cannot follow a Server Redirection: where one PDU ends in a stream
 * (slow-path TPKTs and fast-path PDUs, MS-RDPBCGR 2.2.9.1 and 2.2.8.1.2),
 * whether the client's MCS Connect Initial announces redirection support
 * (TS_UD_CS_CLUSTER), and where its Client Info carries the password.
 * Plaintext after TLS, no encryption of RDP's own (oriel selects TLS).
 * Pure: no wlroots, no FreeRDP.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Counts whole PDUs in a stream fed in pieces of any size. Zeroed: at a PDU's start. */
struct rdp_pdu_counter {
	uint8_t header[4];
	size_t header_len;
	size_t left;     /* bytes of the current PDU still to come, once its length is known */
	unsigned whole;  /* PDUs that ended */
	bool broken;     /* a length no PDU has: counting stopped */
};

/*
 * Feeds up to len bytes of buf, stopping as soon as `whole` reaches
 * until. Returns how many bytes it took (the rest begins the next PDU).
 */
size_t rdp_pdu_counter_feed(struct rdp_pdu_counter *counter, const uint8_t *buf,
	size_t len, unsigned until);

/*
 * In a client's stream after TLS (whole TPKTs: its MCS Connect Initial
 * and what followed): true when its cluster data announce
 * REDIRECTION_SUPPORTED. False when they do not, or there are none.
 */
bool rdp_pdu_client_redirectable(const uint8_t *stream, size_t len);

/*
 * In the same stream: finds the Client Info PDU and overwrites its
 * password with zeros, keeping every length. False when no Client Info
 * is there whole.
 */
bool rdp_pdu_wipe_client_password(uint8_t *stream, size_t len);

/*
 * In the same stream: the MCS user channel the client joined first (its
 * user ID, which the server gave it), into *user_id. False when there is
 * no Channel Join Request.
 */
bool rdp_pdu_client_user_id(const uint8_t *stream, size_t len, uint16_t *user_id);

/*
 * A Deactivate All PDU (MS-RDPBCGR 2.2.3.1) to the client of user_id, on
 * the I/O channel: after it the client waits for a Demand Active, whoever
 * sends it. Into out (RDP_PDU_DEACTIVATE_ALL_LEN bytes); returns its length.
 */
#define RDP_PDU_DEACTIVATE_ALL_LEN 27
size_t rdp_pdu_deactivate_all(uint16_t user_id, uint8_t *out);

#endif
