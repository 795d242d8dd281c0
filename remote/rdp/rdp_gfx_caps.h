/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_RDP_RDP_GFX_CAPS_H
#define ORIEL_REMOTE_RDP_RDP_GFX_CAPS_H

/* Choosing the graphics pipeline's capability set (pure: no I/O). */

#include <freerdp/channels/rdpgfx.h>
#include <stdbool.h>
#include <stddef.h>

/* "10.7" for RDPGFX_CAPVERSION_107...; NULL for a version we do not know. */
const char *rdp_gfx_caps_version_name(UINT32 version);

/*
 * The set to confirm of the n the client advertised: the newest we know,
 * or with server_h264 the newest that takes H.264, if any. Its flags are
 * set to say whether H.264 goes (*h264). False when none is known.
 */
bool rdp_gfx_caps_choose(const RDPGFX_CAPSET *sets, size_t n, bool server_h264,
	RDPGFX_CAPSET *confirm, bool *h264);

/* Whether one of the n sets takes AVC444. */
bool rdp_gfx_caps_offer_avc444(const RDPGFX_CAPSET *sets, size_t n);
#endif
