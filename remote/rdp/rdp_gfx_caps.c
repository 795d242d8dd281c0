/* SPDX-License-Identifier: MIT */
#include "remote/rdp/rdp_gfx_caps.h"

/*
 * MS-RDPEGFX 2.2.3: versions 8.1 take H.264 when they say so
 * (AVC420_ENABLED), versions from 10 unless they say not (AVC_DISABLED);
 * 8.0 never. 10.1 has no flags, and FreeRDP's client offers it even with
 * H.264 turned off: it counts as without. The confirmed set says what we
 * send: H.264 only if both sides can.
 */

const char *rdp_gfx_caps_version_name(UINT32 version) {
	switch (version) {
	case RDPGFX_CAPVERSION_8: return "8.0";
	case RDPGFX_CAPVERSION_81: return "8.1";
	case RDPGFX_CAPVERSION_10: return "10.0";
	case RDPGFX_CAPVERSION_101: return "10.1";
	case RDPGFX_CAPVERSION_102: return "10.2";
	case RDPGFX_CAPVERSION_103: return "10.3";
	case RDPGFX_CAPVERSION_104: return "10.4";
	case RDPGFX_CAPVERSION_105: return "10.5";
	case RDPGFX_CAPVERSION_106: return "10.6";
	case RDPGFX_CAPVERSION_106_ERR: return "10.6";
	case RDPGFX_CAPVERSION_107: return "10.7";
	}
	return NULL;
}

static bool takes_h264(const RDPGFX_CAPSET *caps) {
	switch (caps->version) {
	case RDPGFX_CAPVERSION_8:
	case RDPGFX_CAPVERSION_101:
		return false;
	case RDPGFX_CAPVERSION_81:
		return caps->flags & RDPGFX_CAPS_FLAG_AVC420_ENABLED;
	}
	return !(caps->flags & RDPGFX_CAPS_FLAG_AVC_DISABLED);
}

bool rdp_gfx_caps_choose(const RDPGFX_CAPSET *sets, size_t n, bool server_h264,
		RDPGFX_CAPSET *confirm, bool *h264) {
	const RDPGFX_CAPSET *best = NULL, *best_h264 = NULL;
	for (size_t i = 0; i < n; i++) {
		const RDPGFX_CAPSET *caps = &sets[i];
		if (!rdp_gfx_caps_version_name(caps->version)) {
			continue;
		}
		if (!best || caps->version > best->version) {
			best = caps;
		}
		if (takes_h264(caps) && (!best_h264 || caps->version > best_h264->version)) {
			best_h264 = caps;
		}
	}
	if (server_h264 && best_h264) {
		best = best_h264;
	}
	if (!best) {
		return false;
	}
	*confirm = *best;
	*h264 = server_h264 && takes_h264(best);
	if (!*h264) {
		if (confirm->version == RDPGFX_CAPVERSION_81) {
			confirm->flags &= ~RDPGFX_CAPS_FLAG_AVC420_ENABLED;
		} else if (confirm->version != RDPGFX_CAPVERSION_8 &&
				confirm->version != RDPGFX_CAPVERSION_101) {
			confirm->flags |= RDPGFX_CAPS_FLAG_AVC_DISABLED;
		}
	}
	return true;
}

/*
 * From version 10.0, a set that takes H.264 takes AVC444 too (MS-RDPEGFX
 * 2.2.3.4): FreeRDP's client offers such sets only when asked for AVC444
 * or for no H.264 at all.
 */
bool rdp_gfx_caps_offer_avc444(const RDPGFX_CAPSET *sets, size_t n) {
	for (size_t i = 0; i < n; i++) {
		if (rdp_gfx_caps_version_name(sets[i].version) &&
				sets[i].version >= RDPGFX_CAPVERSION_10 && takes_h264(&sets[i])) {
			return true;
		}
	}
	return false;
}
