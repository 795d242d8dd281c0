/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <stdlib.h>
#include <freerdp/server/rdpgfx.h>
#include <freerdp/version.h>
#include <winpr/synch.h>
#include <wlr/util/log.h>
#include "remote/rdp/rdp_gfx.h"
#include "remote/rdp/rdp_gfx_caps.h"
#include "remote/rdp/rdp_private.h"
#include "compositor/server.h"
#include "common/link_backlog.h"
#include "common/util.h"

/*
 * The graphics pipeline (MS-RDPEGFX) for clients that announce it. Once
 * the client advertised its capabilities, the best version both know is
 * confirmed, with H.264 when the client takes it and x264 encodes here
 * (AVC444v2 or AVC420, by the client's offer and --rdp-codec). Then one
 * surface, the desktop's size padded to 16, is mapped to the output at
 * 0,0; its frames are rdp_gfx_frame.c's. With several
 * outputs the desktop is their bounding box, and the graphics reset
 * names them as the client's monitors; one surface for the whole desktop
 * is what FreeRDP 2's clients (GDI, xfreerdp /multimon) draw across
 * monitors, and its frames still carry only the damage. The client's frame
 * acknowledgements pace the frames (at most MAX_UNACKED unacknowledged);
 * a client that suspends them is paced by its socket alone (rdp_display.c
 * waits while FreeRDP's output buffer is full). A resize, or an output
 * that moves, resets the graphics and makes a new surface.
 *
 * The channel's messages are read in oriel's loop: FreeRDP 2 would start
 * a thread per channel, which its API cannot turn off, so the flag in
 * the first fields of its private state is cleared (FreeRDP 2.0 to 2.11
 * share that layout; FreeRDP 3 makes it public).
 */

#define MAX_UNACKED 2
/* A client that opens the channel but says nothing gets classic updates. */
#define CAPS_TIMEOUT_MS 5000

struct rdpgfx_private_head {
	void *zgfx;
	BOOL ownThread;
};
_Static_assert(FREERDP_VERSION_MAJOR == 2, "rdpgfx_private_head is FreeRDP 2's");

static struct rdp_gfx *gfx_of(RdpgfxServerContext *context) {
	return context->custom;
}

static bool create_surface(struct rdp_gfx *gfx) {
	struct rdp_server *rdp = gfx->peer->rdp;
	RdpgfxServerContext *context = gfx->context;
	if (gfx->surface) {
		RDPGFX_DELETE_SURFACE_PDU del = { .surfaceId = RDP_GFX_SURFACE_ID };
		if (context->DeleteSurface(context, &del) != CHANNEL_RC_OK) {
			return false;
		}
		gfx->surface = false;
	}
	rdp_gfx_encoder_destroy(gfx->encoder);
	gfx->encoder = NULL;
	rdp_h264_destroy(gfx->h264_encoder); /* a frame being encoded is dropped */
	gfx->h264_encoder = NULL;
	gfx->encoding = false;
	pixman_region32_clear(&gfx->lossy);
	pixman_region32_clear(&gfx->h264_stale);
	gfx->refine_due = false;
	/* The client's monitors are the outputs, at their places in the desktop. */
	MONITOR_DEF monitors[RDP_MAX_SCREENS];
	UINT32 count = 0;
	for (int i = 0; i < rdp->n_screens; i++) {
		const struct rdp_screen *screen = rdp->screens[i];
		monitors[count++] = (MONITOR_DEF){
			.left = screen->x, .top = screen->y,
			.right = screen->x + screen->width - 1,
			.bottom = screen->y + screen->height - 1,
			.flags = i == 0 ? MONITOR_PRIMARY : 0,
		};
	}
	if (count == 0) {
		monitors[count++] = (MONITOR_DEF){
			.right = rdp->width - 1, .bottom = rdp->height - 1, .flags = MONITOR_PRIMARY,
		};
	}
	RDPGFX_RESET_GRAPHICS_PDU reset = {
		.width = (UINT32)rdp->width,
		.height = (UINT32)rdp->height,
		.monitorCount = count,
		.monitorDefArray = monitors,
	};
	RDPGFX_CREATE_SURFACE_PDU create = {
		.surfaceId = RDP_GFX_SURFACE_ID,
		.width = (UINT16)rdp->padded_width,
		.height = (UINT16)rdp->padded_height,
		.pixelFormat = GFX_PIXEL_FORMAT_XRGB_8888,
	};
	RDPGFX_MAP_SURFACE_TO_OUTPUT_PDU map = { .surfaceId = RDP_GFX_SURFACE_ID };
	if (context->ResetGraphics(context, &reset) != CHANNEL_RC_OK ||
			context->CreateSurface(context, &create) != CHANNEL_RC_OK ||
			context->MapSurfaceToOutput(context, &map) != CHANNEL_RC_OK) {
		return false;
	}
	gfx->encoder = rdp_gfx_encoder_create(rdp->padded_width, rdp->padded_height);
	if (gfx->avc444_auto) {
		/* A new desktop is judged anew. */
		gfx->avc444 = true;
		rdp_avc444_budget_init(&gfx->avc444_budget);
	}
	if (gfx->h264) {
		gfx->h264_encoder = rdp_h264_create(rdp->padded_width, rdp->padded_height,
			gfx->avc444, rdp->server->loop, rdp_gfx_handle_encoded, gfx);
		if (!gfx->h264_encoder) {
			return false;
		}
	}
	gfx->surface = true;
	gfx->acked_id = gfx->peer->frame_id;
	gfx->width = rdp->width;
	gfx->height = rdp->height;
	gfx->layout_serial = rdp->layout_serial;
	rdpSettings *settings = gfx->peer->client->settings;
	settings->DesktopWidth = (UINT32)rdp->width;
	settings->DesktopHeight = (UINT32)rdp->height;
	rdp_display_refresh(gfx->peer);
	return true;
}

static UINT handle_caps_advertise(RdpgfxServerContext *context,
		const RDPGFX_CAPS_ADVERTISE_PDU *advertise) {
	struct rdp_gfx *gfx = gfx_of(context);
	struct rdp_peer *peer = gfx->peer;
	if (gfx->failed) {
		return CHANNEL_RC_OK; /* too late: it has classic updates now */
	}
	enum config_rdp_codec codec = peer->rdp->options->codec;
	bool want_h264 = codec == CONFIG_RDP_CODEC_AUTO || codec == CONFIG_RDP_CODEC_AVC444 ||
		codec == CONFIG_RDP_CODEC_AVC420;
	RDPGFX_CAPSET caps;
	if (!rdp_gfx_caps_choose(advertise->capsSets, advertise->capsSetCount,
			want_h264 && rdp_h264_available(), &caps, &gfx->h264)) {
		wlr_log(WLR_INFO, "RDP: %s offers no graphics pipeline version we know", peer->host);
		return CHANNEL_RC_UNSUPPORTED_VERSION;
	}
	RDPGFX_CAPS_CONFIRM_PDU confirm = { .capsSet = &caps };
	UINT rc = context->CapsConfirm(context, &confirm);
	if (rc != CHANNEL_RC_OK) {
		return rc;
	}
	gfx->confirmed = true;
	if (gfx->caps_deadline) {
		wl_event_source_remove(gfx->caps_deadline);
		gfx->caps_deadline = NULL;
	}
	bool offers_avc444 = rdp_gfx_caps_offer_avc444(advertise->capsSets,
		advertise->capsSetCount);
	/*
	 * auto gives AVC444v2 while it keeps up (rdp_avc444_budget.c): its two
	 * pictures of colourful motion cost about 3.5 times AVC420's CPU
	 * (bench/h264), grey text about AVC420's.
	 */
	gfx->avc444_auto = gfx->h264 && offers_avc444 && codec == CONFIG_RDP_CODEC_AUTO;
	gfx->avc444 = gfx->h264 && offers_avc444 && (codec == CONFIG_RDP_CODEC_AVC444 ||
		gfx->avc444_auto);
	gfx->lossless = codec == CONFIG_RDP_CODEC_PLANAR;
	const char *name = gfx->avc444 ? "AVC444v2" : gfx->h264 ? "AVC420" :
		gfx->lossless ? "planar" : "progressive RemoteFX";
	wlr_log(WLR_INFO, "RDP: %s: graphics pipeline %s, %s", peer->host,
		rdp_gfx_caps_version_name(caps.version), name);
	if (codec == CONFIG_RDP_CODEC_AVC444 && !gfx->avc444) {
		wlr_log(WLR_INFO, "RDP: %s does not take AVC444 (--rdp-codec avc444): it gets %s",
			peer->host, name);
	} else if ((codec == CONFIG_RDP_CODEC_AVC420 || codec == CONFIG_RDP_CODEC_AVC444) &&
			!gfx->h264) {
		wlr_log(WLR_INFO, "RDP: %s does not take H.264 (--rdp-codec %s): it gets %s",
			peer->host, config_rdp_codec_names[codec - 1], name);
	}
	return create_surface(gfx) ? CHANNEL_RC_OK : ERROR_INTERNAL_ERROR;
}

static UINT handle_frame_acknowledge(RdpgfxServerContext *context,
		const RDPGFX_FRAME_ACKNOWLEDGE_PDU *ack) {
	struct rdp_gfx *gfx = gfx_of(context);
	gfx->acks_suspended = ack->queueDepth == SUSPEND_FRAME_ACKNOWLEDGEMENT;
	gfx->acked_id = ack->frameId;
	rdp_display_acknowledged(gfx->peer, ack->frameId);
	if (gfx->h264_encoder) {
		struct link_backlog backlog = { 0 };
		link_backlog_add(gfx->peer->client->sockfd, &backlog);
		/* A handed-over client's link is behind the bridge's socketpair. */
		if (gfx->peer->handover) {
			rdp_handover_backlog(gfx->peer, &backlog);
		}
		rdp_h264_acked(gfx->h264_encoder, &backlog);
	}
	if (gfx->holding) {
		gfx->holding = false;
		wlr_log(WLR_DEBUG, "RDP: client %" PRIu64 " (%s) acknowledged frame %u: "
			"frames go again", gfx->peer->id, gfx->peer->host, ack->frameId);
	}
	rdp_display_schedule(gfx->peer);
	return CHANNEL_RC_OK;
}

static UINT handle_cache_import_offer(RdpgfxServerContext *context,
		const RDPGFX_CACHE_IMPORT_OFFER_PDU *offer) {
	/* Nothing is cached on the client's behalf: no entry is taken. */
	RDPGFX_CACHE_IMPORT_REPLY_PDU reply = { .importedEntriesCount = 0 };
	return context->CacheImportReply(context, &reply);
}

static void fall_back(struct rdp_gfx *gfx, const char *why) {
	wlr_log(WLR_INFO, "RDP: %s: %s: classic bitmap updates", gfx->peer->host, why);
	gfx->failed = true;
	rdp_display_refresh(gfx->peer);
}

static int handle_caps_deadline(void *data) {
	struct rdp_gfx *gfx = data;
	wl_event_source_remove(gfx->caps_deadline);
	gfx->caps_deadline = NULL;
	if (!gfx->confirmed) {
		fall_back(gfx, "no graphics pipeline capabilities came");
	}
	return 0;
}

static int handle_channel(int fd, uint32_t mask, void *data) {
	struct rdp_gfx *gfx = data;
	struct rdp_peer *peer = gfx->peer;
	if (!rdp_peer_alive(peer)) {
		return 0;
	}
	rdp_peer_enter_freerdp(peer);
	UINT rc = rdpgfx_server_handle_messages(gfx->context);
	rdp_peer_leave_freerdp(peer);
	if (!rdp_peer_alive(peer)) {
		return 0;
	}
	if (rc != CHANNEL_RC_OK && rc != ERROR_NO_DATA) {
		rdp_peer_drop(peer, "a bad graphics pipeline message");
		return 0;
	}
	rdp_channels_flush(peer);
	return 0;
}

bool rdp_gfx_open(struct rdp_peer *peer) {
	struct rdp_gfx *gfx = zalloc(sizeof(*gfx));
	gfx->peer = peer;
	pixman_region32_init(&gfx->lossy);
	pixman_region32_init(&gfx->encoding_damage);
	pixman_region32_init(&gfx->h264_stale);
	peer->gfx = gfx;
	RdpgfxServerContext *context = rdpgfx_server_context_new(peer->vcm);
	if (!context) {
		gfx->failed = true;
		return false;
	}
	gfx->context = context;
	context->custom = gfx;
	context->rdpcontext = peer->client->context;
	context->CapsAdvertise = handle_caps_advertise;
	context->FrameAcknowledge = handle_frame_acknowledge;
	context->CacheImportOffer = handle_cache_import_offer;
	((struct rdpgfx_private_head *)context->priv)->ownThread = FALSE;
	if (!context->Open(context)) {
		gfx->failed = true;
		return false;
	}
	struct wl_event_loop *loop = peer->rdp->server->loop;
	int fd = GetEventFileDescriptor(rdpgfx_server_get_event_handle(context));
	gfx->source = fd >= 0 ?
		wl_event_loop_add_fd(loop, fd, WL_EVENT_READABLE, handle_channel, gfx) : NULL;
	gfx->caps_deadline = wl_event_loop_add_timer(loop, handle_caps_deadline, gfx);
	gfx->refine_timer = wl_event_loop_add_timer(loop, rdp_gfx_handle_refine_timer, gfx);
	if (!gfx->source || !gfx->caps_deadline || !gfx->refine_timer) {
		gfx->failed = true;
		return false;
	}
	wl_event_source_timer_update(gfx->caps_deadline, CAPS_TIMEOUT_MS);
	return true;
}

void rdp_gfx_close(struct rdp_peer *peer) {
	struct rdp_gfx *gfx = peer->gfx;
	if (!gfx) {
		return;
	}
	if (gfx->source) {
		wl_event_source_remove(gfx->source);
	}
	if (gfx->caps_deadline) {
		wl_event_source_remove(gfx->caps_deadline);
	}
	if (gfx->refine_timer) {
		wl_event_source_remove(gfx->refine_timer);
	}
	rdp_h264_destroy(gfx->h264_encoder);
	pixman_region32_fini(&gfx->lossy);
	pixman_region32_fini(&gfx->encoding_damage);
	pixman_region32_fini(&gfx->h264_stale);
	if (gfx->context) {
		rdpgfx_server_context_free(gfx->context);
	}
	rdp_gfx_encoder_destroy(gfx->encoder);
	free(gfx);
	peer->gfx = NULL;
}

bool rdp_gfx_expected(struct rdp_peer *peer) {
	if (!peer->client->settings->SupportGraphicsPipeline) {
		return false;
	}
	return !peer->dynamic_channels_opened || (peer->gfx && !peer->gfx->failed);
}

bool rdp_gfx_ready(struct rdp_peer *peer) {
	return peer->gfx && !peer->gfx->failed && peer->gfx->surface;
}

bool rdp_gfx_may_send(struct rdp_peer *peer) {
	struct rdp_gfx *gfx = peer->gfx;
	if (gfx->encoding) {
		return false;
	}
	if (gfx->acks_suspended || peer->frame_id - gfx->acked_id < MAX_UNACKED) {
		return true;
	}
	if (!gfx->holding) {
		gfx->holding = true;
		wlr_log(WLR_DEBUG, "RDP: client %" PRIu64 " (%s) holds frames: %u unacknowledged",
			peer->id, peer->host, peer->frame_id - gfx->acked_id);
	}
	return false;
}

bool rdp_gfx_resize(struct rdp_peer *peer) {
	struct rdp_gfx *gfx = peer->gfx;
	if (gfx->width == peer->rdp->width && gfx->height == peer->rdp->height &&
			gfx->layout_serial == peer->rdp->layout_serial) {
		return true;
	}
	return create_surface(gfx) && rdp_channels_flush(peer);
}
