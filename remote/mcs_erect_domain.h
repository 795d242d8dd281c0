/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_MCS_ERECT_DOMAIN_H
#define ORIEL_REMOTE_MCS_ERECT_DOMAIN_H

/*
 * rdesktop's MCS Erect Domain Request, made readable for FreeRDP 2.
 *
 * T.125 encodes the request's subHeight and subInterval as PER INTEGERs:
 * a length byte, then the value (FreeRDP sends 04 01 00 01 00). rdesktop
 * (every release to 1.9 at least) writes each as a bare 16-bit value,
 * 04 00 01 00 01, which FreeRDP 2's server reads as an empty integer, a
 * one-byte 0 and a byte left over: "Received invalid TPKT header length
 * 12, 1 bytes too long!", and the connection ends. Both values mean
 * nothing to an RDP server.
 *
 * The repair rewrites exactly that PDU to the same height and interval,
 * encoded as T.125 says (04 01 01 01 01), in place and at the same
 * length; anything else is left as it is. data is either the whole TPKT
 * (12 bytes) or what follows its 4-byte header (8 bytes: X.224 Data, then
 * the MCS PDU), as FreeRDP reads it. Pure: no wlroots, no FreeRDP.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The whole TPKT's length; FreeRDP reads it as 4 bytes, then 8. */
#define MCS_ERECT_DOMAIN_LEN 12

/* True when data was rdesktop's Erect Domain Request, now repaired. */
bool mcs_erect_domain_repair(uint8_t *data, size_t len);

#endif
