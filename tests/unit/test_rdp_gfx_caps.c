/* SPDX-License-Identifier: MIT */
/* Unit tests for the graphics pipeline's capability choice (remote/rdp/rdp_gfx_caps.c). */

#include <stdio.h>
#include "remote/rdp/rdp_gfx_caps.h"
#include "tests/unit/expect.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void choose(const char *what, const RDPGFX_CAPSET *sets, size_t n, bool server_h264,
		UINT32 want_version, bool want_h264, UINT32 want_flags) {
	RDPGFX_CAPSET confirm = { 0 };
	bool h264 = !want_h264;
	bool ok = rdp_gfx_caps_choose(sets, n, server_h264, &confirm, &h264);
	EXPECT(ok, "%s: nothing chosen", what);
	EXPECT(confirm.version == want_version, "%s: version 0x%08x, want 0x%08x", what,
		confirm.version, want_version);
	EXPECT(h264 == want_h264, "%s: H.264 %d, want %d", what, h264, want_h264);
	EXPECT(confirm.flags == want_flags, "%s: flags 0x%x, want 0x%x", what, confirm.flags,
		want_flags);
}

int main(void) {
	/* xfreerdp /gfx:avc420: 8.0, 8.1 with AVC420 (no 10.x sets). */
	const RDPGFX_CAPSET avc420[] = {
		{ RDPGFX_CAPVERSION_8, 4, 0 },
		{ RDPGFX_CAPVERSION_81, 4, RDPGFX_CAPS_FLAG_AVC420_ENABLED },
	};
	choose("avc420 client", avc420, N(avc420), true, RDPGFX_CAPVERSION_81, true,
		RDPGFX_CAPS_FLAG_AVC420_ENABLED);
	choose("avc420 client, no encoder", avc420, N(avc420), false, RDPGFX_CAPVERSION_81, false,
		0);

	/* xfreerdp /gfx:rfx: 10.x with AVC_DISABLED, 10.1 without flags. */
	const RDPGFX_CAPSET rfx[] = {
		{ RDPGFX_CAPVERSION_81, 4, 0 },
		{ RDPGFX_CAPVERSION_10, 4, RDPGFX_CAPS_FLAG_AVC_DISABLED },
		{ RDPGFX_CAPVERSION_101, 16, 0 },
		{ RDPGFX_CAPVERSION_107, 4, RDPGFX_CAPS_FLAG_AVC_DISABLED },
	};
	choose("rfx client", rfx, N(rfx), true, RDPGFX_CAPVERSION_107, false,
		RDPGFX_CAPS_FLAG_AVC_DISABLED);

	/* xfreerdp's default: 10.x take H.264 (AVC444 too). */
	const RDPGFX_CAPSET deflt[] = {
		{ RDPGFX_CAPVERSION_81, 4, RDPGFX_CAPS_FLAG_AVC420_ENABLED },
		{ RDPGFX_CAPVERSION_105, 4, 0 },
		{ RDPGFX_CAPVERSION_107, 4, RDPGFX_CAPS_FLAG_SMALL_CACHE },
	};
	choose("default client", deflt, N(deflt), true, RDPGFX_CAPVERSION_107, true,
		RDPGFX_CAPS_FLAG_SMALL_CACHE);
	/* Without an encoder here, H.264 is turned off in the confirmed set. */
	choose("default client, no encoder", deflt, N(deflt), false, RDPGFX_CAPVERSION_107, false,
		RDPGFX_CAPS_FLAG_SMALL_CACHE | RDPGFX_CAPS_FLAG_AVC_DISABLED);

	/* Unknown versions are passed over; none known: nothing. */
	const RDPGFX_CAPSET future[] = {
		{ 0x000B0000, 4, 0 },
		{ RDPGFX_CAPVERSION_8, 4, RDPGFX_CAPS_FLAG_THINCLIENT },
	};
	choose("unknown version", future, N(future), true, RDPGFX_CAPVERSION_8, false,
		RDPGFX_CAPS_FLAG_THINCLIENT);
	RDPGFX_CAPSET confirm;
	bool h264;
	EXPECT(!rdp_gfx_caps_choose(future, 1, true, &confirm, &h264), "an unknown version chosen");
	EXPECT(!rdp_gfx_caps_choose(NULL, 0, true, &confirm, &h264), "no sets, yet chosen");

	/* AVC444: asked for by 10.x sets that take H.264, by nothing else. */
	EXPECT(rdp_gfx_caps_offer_avc444(deflt, N(deflt)), "the default client's AVC444 missed");
	EXPECT(!rdp_gfx_caps_offer_avc444(avc420, N(avc420)), "AVC444 seen in 8.1's AVC420");
	EXPECT(!rdp_gfx_caps_offer_avc444(rfx, N(rfx)), "AVC444 seen in AVC_DISABLED and 10.1");
	EXPECT(!rdp_gfx_caps_offer_avc444(future, N(future)), "AVC444 seen in an unknown version");

	EXPECT(rdp_gfx_caps_version_name(RDPGFX_CAPVERSION_106_ERR) != NULL, "10.6 (error) unnamed");
	return failures != 0;
}
