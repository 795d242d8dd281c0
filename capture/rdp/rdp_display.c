#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <freerdp/codec/color.h>
#include <freerdp/codec/planar.h>
#include <freerdp/codec/rfx.h>
#include <freerdp/update.h>
#include <winpr/stream.h>
#include <wlr/util/log.h>
#include "capture/rdp/rdp_private.h"
#include "compositor/options.h"
#include "compositor/server.h"
#include "compositor/util.h"

/*
 * Frames to each client: the damage it has not seen, merged, encoded as
 * RemoteFX surface bits when it takes them, else as planar bitmap
 * updates. A frame goes only when the client acknowledged the one before
 * (frame acknowledgements), or, for a client without them, when its
 * output buffer is empty; and at most --rdp-max-fps a second. A slow
 * client so gets fewer frames, each with all the damage since its last,
 * never a growing queue.
 */

#define TILE 64
/* Frames a client may have unacknowledged. */
#define MAX_UNACKED 2
/* Planar tiles per bitmap update, at most. */
#define PLANAR_BATCH 64

enum rdp_codec { RDP_CODEC_NONE, RDP_CODEC_REMOTEFX, RDP_CODEC_PLANAR };

struct rdp_encoder {
	enum rdp_codec codec;
	RFX_CONTEXT *rfx;
	BITMAP_PLANAR_CONTEXT *planar;
	wStream *stream;
	BITMAP_DATA *bitmaps; /* a batch of planar tiles */
	int width, height;
	struct wl_event_source *writable; /* while FreeRDP's output buffer is full */
};

static bool uses_acks(struct rdp_peer *peer) {
	rdpSettings *settings = peer->client->settings;
	return settings->FrameAcknowledge > 0 && settings->SurfaceCommandsEnabled &&
		settings->SurfaceFrameMarkerEnabled;
}

static void encoder_free_codecs(struct rdp_encoder *enc) {
	if (enc->rfx) {
		rfx_context_free(enc->rfx);
		enc->rfx = NULL;
	}
	if (enc->planar) {
		freerdp_bitmap_planar_context_free(enc->planar);
		enc->planar = NULL;
	}
}

static bool encoder_prepare(struct rdp_peer *peer) {
	struct rdp_encoder *enc = peer->encoder;
	rdpSettings *settings = peer->client->settings;
	int width = peer->rdp->width, height = peer->rdp->height;
	enum rdp_codec codec = RDP_CODEC_NONE;
	if (settings->RemoteFxCodec && settings->SurfaceCommandsEnabled) {
		codec = RDP_CODEC_REMOTEFX;
	} else if (settings->ColorDepth == 32) {
		codec = RDP_CODEC_PLANAR;
	}
	if (codec == enc->codec && width == enc->width && height == enc->height) {
		return true;
	}
	encoder_free_codecs(enc);
	enc->codec = codec;
	enc->width = width;
	enc->height = height;
	switch (codec) {
	case RDP_CODEC_REMOTEFX:
		enc->rfx = rfx_context_new(TRUE);
		if (!enc->rfx || !rfx_context_reset(enc->rfx, (UINT32)width, (UINT32)height)) {
			return false;
		}
		enc->rfx->mode = RLGR3;
		rfx_context_set_pixel_format(enc->rfx, PIXEL_FORMAT_BGRX32);
		return true;
	case RDP_CODEC_PLANAR:
		enc->planar = freerdp_bitmap_planar_context_new(
			PLANAR_FORMAT_HEADER_NA | PLANAR_FORMAT_HEADER_RLE, TILE, TILE);
		return enc->planar != NULL;
	case RDP_CODEC_NONE:
		wlr_log(WLR_ERROR, "RDP: %s takes neither RemoteFX nor 32-bit bitmaps: "
			"it gets no frames", peer->host);
		return true;
	}
	return false;
}

/* RemoteFX: the damaged tiles, in messages that fit the client's limit. */
static bool send_remotefx(struct rdp_peer *peer, const pixman_region32_t *damage) {
	struct rdp_encoder *enc = peer->encoder;
	struct rdp_server *rdp = peer->rdp;
	rdpSettings *settings = peer->client->settings;
	rdpUpdate *update = peer->client->update;
	int n_boxes;
	const pixman_box32_t *boxes = pixman_region32_rectangles(damage, &n_boxes);
	RFX_RECT *rects = calloc((size_t)n_boxes, sizeof(*rects));
	if (!rects) {
		return false;
	}
	for (int i = 0; i < n_boxes; i++) {
		rects[i] = (RFX_RECT){ (UINT16)boxes[i].x1, (UINT16)boxes[i].y1,
			(UINT16)(boxes[i].x2 - boxes[i].x1), (UINT16)(boxes[i].y2 - boxes[i].y1) };
	}
	size_t n_messages = 0;
	RFX_MESSAGE *messages = rfx_encode_messages_ex(enc->rfx, rects, (size_t)n_boxes,
		rdp->fb, (UINT32)rdp->width, (UINT32)rdp->height, (UINT32)rdp->width * 4,
		&n_messages, settings->MultifragMaxRequestSize);
	free(rects);
	if (!messages) {
		return false;
	}
	SURFACE_BITS_COMMAND cmd = {
		.cmdType = CMDTYPE_STREAM_SURFACE_BITS,
		.destRight = (UINT32)rdp->width,
		.destBottom = (UINT32)rdp->height,
		.skipCompression = TRUE,
		.bmp = {
			.bpp = 32,
			.codecID = (UINT16)settings->RemoteFxCodecId,
			.width = (UINT16)rdp->width,
			.height = (UINT16)rdp->height,
		},
	};
	bool acks = uses_acks(peer);
	bool ok = true;
	/* The messages share one array of rectangles, freed with the first. */
	RFX_RECT *shared_rects = n_messages > 0 ? messages[0].rects : NULL;
	for (size_t i = 0; i < n_messages; i++) {
		Stream_SetPosition(enc->stream, 0);
		if (ok && !rfx_write_message(enc->rfx, enc->stream, &messages[i])) {
			ok = false;
		}
		rfx_message_free(enc->rfx, &messages[i]);
		if (!ok) {
			continue;
		}
		cmd.bmp.bitmapDataLength = (UINT32)Stream_GetPosition(enc->stream);
		peer->stat_bytes += cmd.bmp.bitmapDataLength;
		cmd.bmp.bitmapData = Stream_Buffer(enc->stream);
		if (acks) {
			ok = update->SurfaceFrameBits(update->context, &cmd, i == 0,
				i + 1 == n_messages, peer->frame_id);
		} else {
			ok = update->SurfaceBits(update->context, &cmd);
		}
	}
	free(shared_rects);
	free(messages);
	return ok;
}

/* Sends the batch of n tiles, and frees their data. */
static bool send_bitmaps(struct rdp_peer *peer, int n) {
	struct rdp_encoder *enc = peer->encoder;
	rdpUpdate *update = peer->client->update;
	BITMAP_UPDATE bitmap_update = {
		.number = (UINT32)n,
		.count = (UINT32)n,
		.rectangles = enc->bitmaps,
	};
	bool ok = n == 0 || update->BitmapUpdate(update->context, &bitmap_update);
	for (int i = 0; i < n; i++) {
		free(enc->bitmaps[i].bitmapDataStream);
		enc->bitmaps[i].bitmapDataStream = NULL;
	}
	return ok;
}

/* Planar: 64x64 tiles of every damaged rectangle, batched under the client's limit. */
static bool send_planar(struct rdp_peer *peer, const pixman_region32_t *damage) {
	struct rdp_encoder *enc = peer->encoder;
	struct rdp_server *rdp = peer->rdp;
	rdpSettings *settings = peer->client->settings;
	if (!enc->bitmaps) {
		enc->bitmaps = calloc(PLANAR_BATCH, sizeof(*enc->bitmaps));
		if (!enc->bitmaps) {
			return false;
		}
	}
	size_t limit = settings->MultifragMaxRequestSize > 0 ?
		settings->MultifragMaxRequestSize : 0x10000;
	limit = limit > 1024 ? limit - 1024 : limit / 2;
	int n_boxes, n = 0;
	size_t bytes = 0;
	const pixman_box32_t *boxes = pixman_region32_rectangles(damage, &n_boxes);
	for (int b = 0; b < n_boxes; b++) {
		for (int y = boxes[b].y1; y < boxes[b].y2; y += TILE) {
			for (int x = boxes[b].x1; x < boxes[b].x2; x += TILE) {
				int w = boxes[b].x2 - x < TILE ? boxes[b].x2 - x : TILE;
				int h = boxes[b].y2 - y < TILE ? boxes[b].y2 - y : TILE;
				UINT32 size = 0;
				const uint8_t *src = rdp->fb + ((size_t)y * rdp->width + x) * 4;
				/* The encoder allocates what the tile needs. */
				BYTE *data = freerdp_bitmap_compress_planar(enc->planar, src,
					PIXEL_FORMAT_BGRX32, (UINT32)w, (UINT32)h,
					(UINT32)rdp->width * 4, NULL, &size);
				if (!data) {
					send_bitmaps(peer, n);
					return false;
				}
				if (n > 0 && (bytes + size + 32 > limit || n == PLANAR_BATCH)) {
					if (!send_bitmaps(peer, n)) {
						free(data);
						return false;
					}
					n = 0;
					bytes = 0;
				}
				enc->bitmaps[n] = (BITMAP_DATA){
					.destLeft = (UINT32)x,
					.destTop = (UINT32)y,
					.destRight = (UINT32)(x + w - 1),
					.destBottom = (UINT32)(y + h - 1),
					.width = (UINT32)w,
					.height = (UINT32)h,
					.bitsPerPixel = 32,
					.bitmapLength = size,
					.bitmapDataStream = data,
					.compressed = TRUE,
					.cbCompMainBodySize = size,
					.cbScanWidth = (UINT32)w * 4,
					.cbUncompressedSize = (UINT32)(w * h * 4),
				};
				bytes += size + 32;
				peer->stat_bytes += size;
				n++;
			}
		}
	}
	return send_bitmaps(peer, n);
}

/* Every this many frames, a debug line says what they cost. */
#define STAT_FRAMES 300

static void count_frame(struct rdp_peer *peer) {
	int64_t now = rdp_now_ms();
	if (peer->stat_frames == 0) {
		peer->stat_since_ms = now;
	}
	if (++peer->stat_frames < STAT_FRAMES) {
		return;
	}
	int64_t ms = now - peer->stat_since_ms;
	wlr_log(WLR_DEBUG, "RDP: %s: %u frames in %" PRId64 " ms, %" PRIu64 " bytes each",
		peer->host, peer->stat_frames, ms, peer->stat_bytes / peer->stat_frames);
	peer->stat_frames = 0;
	peer->stat_bytes = 0;
}

static bool send_frame(struct rdp_peer *peer) {
	pixman_region32_t damage;
	pixman_region32_init(&damage);
	pixman_region32_intersect_rect(&damage, &peer->damage, 0, 0,
		peer->rdp->width, peer->rdp->height);
	pixman_region32_clear(&peer->damage);
	peer->frame_id++;
	peer->last_frame_ms = rdp_now_ms();
	bool ok = true;
	rdpUpdate *update = peer->client->update;
	switch (peer->encoder->codec) {
	case RDP_CODEC_REMOTEFX:
		ok = send_remotefx(peer, &damage);
		break;
	case RDP_CODEC_PLANAR:
		if (uses_acks(peer)) {
			SURFACE_FRAME_MARKER marker = { SURFACECMD_FRAMEACTION_BEGIN, peer->frame_id };
			update->SurfaceFrameMarker(update->context, &marker);
		}
		ok = send_planar(peer, &damage);
		if (uses_acks(peer)) {
			SURFACE_FRAME_MARKER marker = { SURFACECMD_FRAMEACTION_END, peer->frame_id };
			update->SurfaceFrameMarker(update->context, &marker);
		}
		break;
	case RDP_CODEC_NONE:
		peer->acked_id = peer->frame_id;
		break;
	}
	pixman_region32_fini(&damage);
	count_frame(peer);
	return ok;
}

static int handle_writable(int fd, uint32_t mask, void *data) {
	struct rdp_peer *peer = data;
	freerdp_peer *client = peer->client;
	peer->in_freerdp++;
	int drained = client->DrainOutputBuffer(client);
	if (!rdp_peer_leave_freerdp(peer)) {
		return 0;
	}
	if (drained < 0) {
		rdp_peer_drop(peer, "the connection failed");
		return 0;
	}
	if (!client->IsWriteBlocked(client)) {
		wl_event_source_remove(peer->encoder->writable);
		peer->encoder->writable = NULL;
		rdp_display_schedule(peer);
	}
	return 0;
}

/* A client whose desktop differs from ours is reactivated with ours. */
static bool resize_client(struct rdp_peer *peer) {
	rdpSettings *settings = peer->client->settings;
	struct rdp_server *rdp = peer->rdp;
	if (settings->DesktopWidth == (UINT32)rdp->width &&
			settings->DesktopHeight == (UINT32)rdp->height) {
		return true;
	}
	if (!settings->DesktopResize) {
		rdp_peer_drop(peer, "the desktop changed size, and the client cannot follow");
		return false;
	}
	settings->DesktopWidth = (UINT32)rdp->width;
	settings->DesktopHeight = (UINT32)rdp->height;
	peer->activated = false; /* until it confirms the new size */
	rdpUpdate *update = peer->client->update;
	if (!update->DesktopResize(update->context)) {
		rdp_peer_drop(peer, "cannot resize the client's desktop");
		return false;
	}
	return true;
}

static void send_due(struct rdp_peer *peer) {
	freerdp_peer *client = peer->client;
	struct rdp_encoder *enc = peer->encoder;
	if (!resize_client(peer) || !peer->activated) {
		return;
	}
	if (!peer->output_enabled || !pixman_region32_not_empty(&peer->damage) ||
			enc->writable) {
		return;
	}
	if (uses_acks(peer) && peer->frame_id - peer->acked_id >= MAX_UNACKED) {
		return; /* the acknowledgement schedules again */
	}
	int64_t interval = 1000 / peer->rdp->options->max_fps;
	int64_t since = rdp_now_ms() - peer->last_frame_ms;
	if (since >= 0 && since < interval) {
		if (!peer->pace_armed) {
			peer->pace_armed = true;
			wl_event_source_timer_update(peer->pace_timer, (int)(interval - since));
		}
		return;
	}
	if (!encoder_prepare(peer)) {
		rdp_peer_drop(peer, "cannot set the encoder up");
		return;
	}
	if (!send_frame(peer)) {
		rdp_peer_drop(peer, "cannot send a frame");
		return;
	}
	if (client->IsWriteBlocked(client)) {
		/* The rest goes when the socket takes it; no frame until then. */
		enc->writable = wl_event_loop_add_fd(peer->rdp->server->loop, client->sockfd,
			WL_EVENT_WRITABLE, handle_writable, peer);
	}
}

static void try_send(struct rdp_peer *peer) {
	if (peer->state != RDP_PEER_SESSION || peer->closing || !peer->activated) {
		return;
	}
	peer->in_freerdp++;
	send_due(peer);
	rdp_peer_leave_freerdp(peer);
}

static int handle_pace(void *data) {
	struct rdp_peer *peer = data;
	peer->pace_armed = false;
	try_send(peer);
	return 0;
}

void rdp_display_schedule(struct rdp_peer *peer) {
	if (peer->in_freerdp > 0) {
		/* Not from inside FreeRDP's callbacks: right after them. */
		if (!peer->pace_armed) {
			peer->pace_armed = true;
			wl_event_source_timer_update(peer->pace_timer, 1);
		}
		return;
	}
	if (!peer->pace_armed) {
		try_send(peer);
	}
}

static BOOL handle_frame_acknowledge(rdpContext *context, UINT32 frame_id) {
	struct rdp_peer *peer = context->peer->ContextExtra;
	peer->acked_id = frame_id;
	rdp_display_schedule(peer);
	return TRUE;
}

static void damage_all(struct rdp_peer *peer) {
	pixman_region32_union_rect(&peer->damage, &peer->damage, 0, 0,
		peer->rdp->width, peer->rdp->height);
}

static BOOL handle_suppress_output(rdpContext *context, BYTE allow, const RECTANGLE_16 *area) {
	struct rdp_peer *peer = context->peer->ContextExtra;
	peer->output_enabled = allow != 0;
	if (peer->output_enabled) {
		damage_all(peer);
		rdp_display_schedule(peer);
	}
	return TRUE;
}

static BOOL handle_refresh_rect(rdpContext *context, BYTE count, const RECTANGLE_16 *areas) {
	struct rdp_peer *peer = context->peer->ContextExtra;
	for (BYTE i = 0; i < count; i++) {
		pixman_region32_union_rect(&peer->damage, &peer->damage, areas[i].left,
			areas[i].top, areas[i].right - areas[i].left + 1u,
			areas[i].bottom - areas[i].top + 1u);
	}
	rdp_display_schedule(peer);
	return TRUE;
}

bool rdp_display_init_peer(struct rdp_peer *peer) {
	pixman_region32_init(&peer->damage);
	peer->encoder = zalloc(sizeof(*peer->encoder));
	peer->encoder->stream = Stream_New(NULL, 64 * 1024);
	peer->pace_timer = wl_event_loop_add_timer(peer->rdp->server->loop, handle_pace, peer);
	rdpUpdate *update = peer->client->update;
	update->SurfaceFrameAcknowledge = handle_frame_acknowledge;
	update->SuppressOutput = handle_suppress_output;
	update->RefreshRect = handle_refresh_rect;
	return peer->encoder->stream && peer->pace_timer;
}

void rdp_display_finish_peer(struct rdp_peer *peer) {
	struct rdp_encoder *enc = peer->encoder;
	if (peer->pace_timer) {
		wl_event_source_remove(peer->pace_timer);
		peer->pace_timer = NULL;
	}
	if (enc) {
		if (enc->writable) {
			wl_event_source_remove(enc->writable);
		}
		encoder_free_codecs(enc);
		if (enc->stream) {
			Stream_Free(enc->stream, TRUE);
		}
		free(enc->bitmaps);
		free(enc);
		peer->encoder = NULL;
	}
	pixman_region32_fini(&peer->damage);
}

void rdp_display_activated(struct rdp_peer *peer) {
	peer->activated = true;
	peer->output_enabled = true;
	peer->acked_id = peer->frame_id;
	damage_all(peer);
	rdp_cursor_send(peer);
	rdp_display_schedule(peer);
}

void rdp_display_damage(struct rdp_server *rdp, const pixman_region32_t *damage) {
	struct rdp_peer *peer, *tmp;
	wl_list_for_each_safe(peer, tmp, &rdp->peers, link) {
		if (peer->state != RDP_PEER_SESSION) {
			continue;
		}
		pixman_region32_union(&peer->damage, &peer->damage, damage);
		rdp_display_schedule(peer);
	}
}

void rdp_display_resized(struct rdp_server *rdp) {
	struct rdp_peer *peer, *tmp;
	wl_list_for_each_safe(peer, tmp, &rdp->peers, link) {
		if (peer->state != RDP_PEER_SESSION) {
			continue;
		}
		pixman_region32_clear(&peer->damage);
		damage_all(peer);
		rdp_display_schedule(peer);
	}
}
