/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_RDP_RDP_GFX_H
#define ORIEL_REMOTE_RDP_RDP_GFX_H

/* Shared by rdp_gfx.c (the channel) and rdp_gfx_frame.c (its frames). */

#include <freerdp/server/rdpgfx.h>
#include <pixman.h>
#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>
#include "remote/rdp/rdp_avc444_budget.h"

#define RDP_GFX_SURFACE_ID 1

struct rdp_gfx {
	struct rdp_peer *peer;
	RdpgfxServerContext *context;
	struct wl_event_source *source;
	struct wl_event_source *caps_deadline;
	bool failed;       /* classic updates instead */
	bool confirmed;    /* capabilities confirmed */
	bool h264;
	bool avc444;       /* AVC444v2 rather than AVC420 (with h264) */
	bool avc444_auto;  /* auto chooses between them: avc444_budget */
	struct rdp_avc444_budget avc444_budget;
	bool lossless;     /* planar only (--rdp-codec planar) */
	bool surface;      /* created and mapped */
	int width, height; /* the desktop the surface is for */
	uint32_t layout_serial; /* and its outputs' places (rdp_server.layout_serial) */
	bool acks_suspended;
	uint32_t acked_id;
	bool holding;      /* a frame waits for acknowledgements */

	/* Frames (rdp_gfx_frame.c) */
	struct rdp_gfx_encoder *encoder; /* progressive and planar */
	struct rdp_h264 *h264_encoder;
	bool encoding;                   /* a frame is in H.264's thread */
	int64_t encoding_began_ms;
	uint32_t encoding_id;
	pixman_region32_t encoding_damage;
	pixman_region32_t h264_stale;    /* changed, not in H.264's copy yet */
	pixman_region32_t lossy;         /* sent lossily, not refined yet */
	struct wl_event_source *refine_timer;
	bool refine_due;
};

/* H.264's thread finished a frame (rdp_h264_create's callback). */
void rdp_gfx_handle_encoded(void *data);
/* The lossy frames' area has been still long enough. */
int rdp_gfx_handle_refine_timer(void *data);

#endif
