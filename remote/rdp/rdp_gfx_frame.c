/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <time.h>
#include <wlr/util/log.h>
#include "remote/rdp/rdp_gfx.h"
#include "remote/rdp/rdp_private.h"
#include "remote/rdp/rdp_stage_time.h"

/*
 * Frames through the graphics pipeline: StartFrame, surface commands,
 * EndFrame, one codec a frame, chosen by the damage:
 * - small damage goes losslessly as planar tiles: a full-surface H.264
 *   frame costs about as much however little changed (tens of ms at
 *   1080p), and typing or a blinking cursor then stays exact and cheap;
 * - more goes as H.264, AVC420 or AVC444v2 (encoded in its thread,
 *   rdp_gfx_h264.c) or, for clients without H.264, progressive RemoteFX;
 *   with --rdp-codec planar, everything goes as planar tiles.
 * Both of the latter lose detail: what they sent is refined with planar
 * tiles once it stayed still for REFINE_AFTER_MS, so moving content
 * costs few bytes and what stays on screen is exact.
 */

/* Damage under 1/LOSSLESS_SHARE of the desktop goes losslessly. */
#define LOSSLESS_SHARE 32
/* Lossy areas are refined after being still this long... */
#define REFINE_AFTER_MS 200
/* ...with at most this many tiles a frame (the rest in the next ones)... */
#define REFINE_MAX_TILES 128
/*
 * ...and, for a client whose H.264 rate follows its link, no more bytes a
 * frame than that rate carries in this long: on a slow link a still
 * screen of grain is 12 KB a tile, and 128 tiles would keep the link busy
 * for seconds, with the next moving frame queued behind them.
 */
#define REFINE_LINK_MS 100

/* Milliseconds of the day in the frame's timestamp format (MS-RDPEGFX 2.2.2.11). */
static UINT32 frame_timestamp(void) {
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	UINT32 s = (UINT32)(ts.tv_sec % 86400);
	return (s / 3600) << 22 | ((s / 60) % 60) << 16 | (s % 60) << 10 |
		(UINT32)(ts.tv_nsec / 1000000);
}

static uint64_t region_area(const pixman_region32_t *region) {
	int n_boxes;
	const pixman_box32_t *boxes = pixman_region32_rectangles(
		(pixman_region32_t *)region, &n_boxes);
	uint64_t area = 0;
	for (int i = 0; i < n_boxes; i++) {
		area += (uint64_t)(boxes[i].x2 - boxes[i].x1) * (uint64_t)(boxes[i].y2 - boxes[i].y1);
	}
	return area;
}

/* Sends a lossy frame; its area is refined once still. */
static bool send_lossy_frame(struct rdp_gfx *gfx, RDPGFX_SURFACE_COMMAND *cmd,
		uint32_t frame_id, const pixman_region32_t *damage) {
	struct rdp_peer *peer = gfx->peer;
	RDPGFX_START_FRAME_PDU start = { .timestamp = frame_timestamp(), .frameId = frame_id };
	RDPGFX_END_FRAME_PDU end = { .frameId = frame_id };
	cmd->surfaceId = RDP_GFX_SURFACE_ID;
	peer->stat_bytes += cmd->length;
	if (gfx->context->SurfaceFrameCommand(gfx->context, cmd, &start, &end) != CHANNEL_RC_OK) {
		return false;
	}
	pixman_region32_union(&gfx->lossy, &gfx->lossy, damage);
	gfx->refine_due = false;
	wl_event_source_timer_update(gfx->refine_timer, REFINE_AFTER_MS);
	return rdp_channels_flush(peer);
}

/*
 * H.264 goes on as AVC444v2 or AVC420 (auto's choice) from a new stream,
 * whose pictures are converted whole with its first frame. A failed
 * switch keeps the stream it has, and auto tries again later: the budget
 * judges anew.
 */
static void switch_h264(struct rdp_gfx *gfx, bool avc444) {
	struct rdp_server *rdp = gfx->peer->rdp;
	if (!rdp_h264_switch(gfx->h264_encoder, avc444)) {
		wlr_log(WLR_ERROR, "RDP: %s: cannot start %s: it stays %s", gfx->peer->host,
			avc444 ? "AVC444v2" : "AVC420", gfx->avc444 ? "AVC444v2" : "AVC420");
		rdp_avc444_budget_init(&gfx->avc444_budget);
		gfx->avc444_budget.over = !gfx->avc444;
		gfx->avc444_budget.last_frame_ms = monotonic_ms();
		return;
	}
	gfx->avc444 = avc444;
	pixman_region32_union_rect(&gfx->h264_stale, &gfx->h264_stale, 0, 0,
		(unsigned)rdp->width, (unsigned)rdp->height);
}

void rdp_gfx_handle_encoded(void *data) {
	struct rdp_gfx *gfx = data;
	struct rdp_peer *peer = gfx->peer;
	gfx->encoding = false;
	if (!rdp_peer_alive(peer)) {
		return;
	}
	RDPGFX_SURFACE_COMMAND cmd = { 0 };
	if (!rdp_h264_result(gfx->h264_encoder, &cmd)) {
		rdp_peer_drop(peer, gfx->avc444 ? "cannot encode a frame (AVC444v2)" :
			"cannot encode a frame (AVC420)");
		return;
	}
	rdp_h264_sent(gfx->h264_encoder, cmd.length);
	int64_t now = monotonic_ms();
	bool fall_back = gfx->avc444_auto && rdp_avc444_budget_frame(&gfx->avc444_budget,
		gfx->avc444, (double)(now - gfx->encoding_began_ms), now);
	rdp_peer_enter_freerdp(peer);
	int64_t begin = rdp_stage_begin();
	bool ok = send_lossy_frame(gfx, &cmd, gfx->encoding_id, &gfx->encoding_damage);
	rdp_stage_end(RDP_STAGE_SEND, begin);
	if (ok) {
		rdp_display_frame_sent(peer);
	}
	rdp_peer_leave_freerdp(peer);
	if (!rdp_peer_alive(peer)) {
		return;
	}
	if (!ok) {
		rdp_peer_drop(peer, "cannot send a frame");
		return;
	}
	if (fall_back) {
		/* After the frame went: it is in the old stream's buffers. */
		wlr_log(WLR_INFO, "RDP: %s: more than %d of the last %d AVC444v2 frames took "
			"longer than a frame's time to encode: AVC420 until the screen is still",
			peer->host, RDP_AVC444_BUDGET_LATE, RDP_AVC444_BUDGET_FRAMES);
		switch_h264(gfx, false);
	}
	rdp_display_schedule(peer);
}

static int min_int(int a, int b) {
	return a < b ? a : b;
}

/* One tile, losslessly. */
static bool send_tile(struct rdp_gfx *gfx, const pixman_box32_t *tile) {
	struct rdp_server *rdp = gfx->peer->rdp;
	RDPGFX_SURFACE_COMMAND cmd = { .surfaceId = RDP_GFX_SURFACE_ID };
	if (!rdp_gfx_encode_lossless(gfx->encoder, rdp->fb, rdp->stride, tile, &cmd) ||
			gfx->context->SurfaceCommand(gfx->context, &cmd) != CHANNEL_RC_OK) {
		return false;
	}
	gfx->peer->stat_bytes += cmd.length;
	return true;
}

/*
 * A frame of region in planar tiles, at most max_tiles of them; what
 * went is then exact on the client: no longer lossy.
 */
static bool send_lossless_frame(struct rdp_gfx *gfx, uint32_t frame_id,
		const pixman_region32_t *region, int max_tiles, uint64_t max_bytes) {
	rdp_server_fb_sync(gfx->peer->rdp);
	RDPGFX_START_FRAME_PDU start = { .timestamp = frame_timestamp(), .frameId = frame_id };
	RDPGFX_END_FRAME_PDU end = { .frameId = frame_id };
	if (gfx->context->StartFrame(gfx->context, &start) != CHANNEL_RC_OK) {
		return false;
	}
	pixman_region32_t done;
	pixman_region32_init(&done);
	uint64_t first_byte = gfx->peer->stat_bytes;
	int n_boxes, n_tiles = 0;
	const pixman_box32_t *boxes = pixman_region32_rectangles(
		(pixman_region32_t *)region, &n_boxes);
	bool ok = true;
	for (int b = 0; b < n_boxes && ok && n_tiles < max_tiles; b++) {
		const pixman_box32_t *box = &boxes[b];
		for (int y = box->y1; y < box->y2 && ok && n_tiles < max_tiles; y += RDP_GFX_TILE) {
			for (int x = box->x1; x < box->x2 && ok && n_tiles < max_tiles;
					x += RDP_GFX_TILE) {
				int tx = x, width = min_int(RDP_GFX_TILE, box->x2 - x);
				rdp_planar_fit(&tx, &width, gfx->peer->rdp->width);
				pixman_box32_t tile = { tx, y, tx + width,
					min_int(y + RDP_GFX_TILE, box->y2) };
				ok = send_tile(gfx, &tile);
				pixman_region32_union_rect(&done, &done, tile.x1, tile.y1,
					(unsigned)(tile.x2 - tile.x1), (unsigned)(tile.y2 - tile.y1));
				n_tiles++;
				if (gfx->peer->stat_bytes - first_byte >= max_bytes) {
					max_tiles = n_tiles; /* at least one tile went */
				}
			}
		}
	}
	pixman_region32_subtract(&gfx->lossy, &gfx->lossy, &done);
	pixman_region32_fini(&done);
	if (!ok || gfx->context->EndFrame(gfx->context, &end) != CHANNEL_RC_OK) {
		return false;
	}
	return rdp_channels_flush(gfx->peer);
}

bool rdp_gfx_send_frame(struct rdp_peer *peer, const pixman_region32_t *damage) {
	struct rdp_gfx *gfx = peer->gfx;
	struct rdp_server *rdp = peer->rdp;
	if (!pixman_region32_not_empty((pixman_region32_t *)damage)) {
		return true;
	}
	uint64_t desktop = (uint64_t)rdp->width * (uint64_t)rdp->height;
	if (gfx->lossless || region_area(damage) * LOSSLESS_SHARE < desktop) {
		/* H.264's copy of the surface catches up with its next frame. */
		pixman_region32_union(&gfx->h264_stale, &gfx->h264_stale, damage);
		return send_lossless_frame(gfx, peer->frame_id, damage, INT32_MAX, UINT64_MAX);
	}
	if (gfx->h264_encoder) {
		if (gfx->avc444_auto && !gfx->avc444 &&
				rdp_avc444_budget_renewed(&gfx->avc444_budget, monotonic_ms())) {
			wlr_log(WLR_INFO, "RDP: %s: the screen was still: AVC444v2 again",
				peer->host);
			switch_h264(gfx, true);
		}
		/* Sent from rdp_gfx_handle_encoded; no other frame meanwhile. */
		gfx->encoding = true;
		gfx->encoding_began_ms = monotonic_ms();
		gfx->encoding_id = peer->frame_id;
		pixman_region32_copy(&gfx->encoding_damage, (pixman_region32_t *)damage);
		pixman_region32_union(&gfx->h264_stale, &gfx->h264_stale, damage);
		/* From the latest frame's buffer, if the framebuffer lags behind it. */
		int stride;
		const uint8_t *pixels = rdp_server_latest_begin(rdp, &stride);
		if (pixels && !rdp_h264_reads_within(gfx->h264_encoder, &gfx->h264_stale,
				rdp->width, rdp->height)) {
			rdp_server_latest_end(rdp);
			pixels = NULL;
		}
		if (!pixels) {
			rdp_server_fb_sync(rdp);
			pixels = rdp->fb;
			stride = rdp->stride;
		}
		bool ok = rdp_h264_start(gfx->h264_encoder, pixels, stride,
			&gfx->h264_stale, &gfx->encoding_damage);
		if (pixels != rdp->fb) {
			rdp_server_latest_end(rdp);
		}
		pixman_region32_clear(&gfx->h264_stale);
		return ok;
	}
	rdp_server_fb_sync(rdp);
	RDPGFX_SURFACE_COMMAND cmd = { 0 };
	if (!rdp_gfx_encode_progressive(gfx->encoder, rdp->fb, rdp->stride, damage, &cmd)) {
		wlr_log(WLR_ERROR, "RDP: %s: cannot encode a frame (progressive RemoteFX)",
			peer->host);
		return false;
	}
	return send_lossy_frame(gfx, &cmd, peer->frame_id, damage);
}

int rdp_gfx_handle_refine_timer(void *data) {
	struct rdp_gfx *gfx = data;
	gfx->refine_due = true;
	rdp_display_schedule(gfx->peer);
	return 0;
}

bool rdp_gfx_refine_due(struct rdp_peer *peer) {
	struct rdp_gfx *gfx = peer->gfx;
	return gfx->refine_due && pixman_region32_not_empty(&gfx->lossy);
}

bool rdp_gfx_send_refine(struct rdp_peer *peer) {
	struct rdp_gfx *gfx = peer->gfx;
	uint64_t max_bytes = UINT64_MAX;
	if (gfx->h264_encoder) {
		max_bytes = (uint64_t)rdp_h264_kbit_rate(gfx->h264_encoder) * 1000 / 8 *
			REFINE_LINK_MS / 1000;
	}
	return send_lossless_frame(gfx, peer->frame_id, &gfx->lossy, REFINE_MAX_TILES, max_bytes);
}
