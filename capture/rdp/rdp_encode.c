/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <freerdp/codec/color.h>
#include <freerdp/codec/planar.h>
#include <freerdp/codec/rfx.h>
#include <winpr/stream.h>
#include <wlr/util/log.h>
#include "capture/rdp/rdp_private.h"
#include "compositor/util.h"

/*
 * Encoding a frame's damage for one client: RemoteFX surface bits when
 * it takes them (only the 64x64 tiles the damage touches, in messages
 * under the client's request size), else planar bitmap updates of 64x64
 * tiles of the damaged rectangles, for 32-bit clients. With frame
 * acknowledgements, each frame is bracketed by frame markers.
 */

#define TILE 64
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
};

bool rdp_peer_uses_acks(struct rdp_peer *peer) {
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

bool rdp_encoder_prepare(struct rdp_peer *peer) {
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
		rdp->fb, (UINT32)rdp->width, (UINT32)rdp->height, (UINT32)rdp->stride,
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
	bool acks = rdp_peer_uses_acks(peer);
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

void rdp_planar_fit(int *x, int *width, int desktop_width) {
	if (*width >= RDP_PLANAR_MIN_WIDTH) {
		return;
	}
	int right = *x + *width;
	/* Widened to the left, over pixels sent anyway, or at the left edge to the right. */
	*x = right >= RDP_PLANAR_MIN_WIDTH ? right - RDP_PLANAR_MIN_WIDTH : 0;
	*width = RDP_PLANAR_MIN_WIDTH < desktop_width ? RDP_PLANAR_MIN_WIDTH : desktop_width;
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
				int tx = x;
				rdp_planar_fit(&tx, &w, rdp->width);
				UINT32 size = 0;
				const uint8_t *src = rdp->fb + (size_t)y * rdp->stride + (size_t)tx * 4;
				/* The encoder allocates what the tile needs. */
				BYTE *data = freerdp_bitmap_compress_planar(enc->planar, src,
					PIXEL_FORMAT_BGRX32, (UINT32)w, (UINT32)h,
					(UINT32)rdp->stride, NULL, &size);
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
					.destLeft = (UINT32)tx,
					.destTop = (UINT32)y,
					.destRight = (UINT32)(tx + w - 1),
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

bool rdp_encoder_send(struct rdp_peer *peer, const pixman_region32_t *damage) {
	bool ok = true;
	rdpUpdate *update = peer->client->update;
	switch (peer->encoder->codec) {
	case RDP_CODEC_REMOTEFX:
		ok = send_remotefx(peer, damage);
		break;
	case RDP_CODEC_PLANAR:
		if (rdp_peer_uses_acks(peer)) {
			SURFACE_FRAME_MARKER marker = { SURFACECMD_FRAMEACTION_BEGIN, peer->frame_id };
			update->SurfaceFrameMarker(update->context, &marker);
		}
		ok = send_planar(peer, damage);
		if (rdp_peer_uses_acks(peer)) {
			SURFACE_FRAME_MARKER marker = { SURFACECMD_FRAMEACTION_END, peer->frame_id };
			update->SurfaceFrameMarker(update->context, &marker);
		}
		break;
	case RDP_CODEC_NONE:
		peer->acked_id = peer->frame_id;
		break;
	}
	return ok;
}

struct rdp_encoder *rdp_encoder_create(void) {
	struct rdp_encoder *enc = zalloc(sizeof(*enc));
	enc->stream = Stream_New(NULL, 64 * 1024);
	if (!enc->stream) {
		free(enc);
		return NULL;
	}
	return enc;
}

void rdp_encoder_destroy(struct rdp_encoder *enc) {
	if (!enc) {
		return;
	}
	encoder_free_codecs(enc);
	Stream_Free(enc->stream, TRUE);
	free(enc->bitmaps);
	free(enc);
}
