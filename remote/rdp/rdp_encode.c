/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <freerdp/codec/color.h>
#include <freerdp/codec/interleaved.h>
#include <freerdp/codec/planar.h>
#include <freerdp/error.h>
#include <freerdp/codec/rfx.h>
#include <winpr/stream.h>
#include <wlr/util/log.h>
#include "remote/rdp/rdp_private.h"
#include "common/util.h"

/*
 * Encoding a frame's damage for one client: RemoteFX surface bits when
 * it takes them (only the 64x64 tiles the damage touches, in messages
 * under the client's request size), else bitmap updates of 64x64 tiles
 * of the damaged rectangles, at the client's colour depth: planar at 32
 * bits, interleaved RLE at 16 and 15 (the compressor converts each
 * damaged pixel once, as it takes the tile), uncompressed at 24 (FreeRDP
 * 2.11's 24-bit RLE encoder blackens the first pixel of tile lines).
 * 8-bit clients are served at 16 bits (rdp_encoder_choose_depth):
 * FreeRDP 2.11's server cannot send the palette they need. With frame
 * acknowledgements, each frame is bracketed by frame markers.
 */

#define TILE 64
/* MS-RDPBCGR 2.2.9.1.1.3.1.2.2 TS_BITMAP_DATA flags (FreeRDP keeps them private). */
#define BITMAP_COMPRESSION 0x0001
#define NO_BITMAP_COMPRESSION_HDR 0x0400
/* Bitmap tiles per bitmap update, at most. */
#define BITMAP_BATCH 64
/* What the interleaved compressor may write for a tile, at most. */
#define INTERLEAVED_MAX (TILE * TILE * 4)

enum rdp_codec {
	RDP_CODEC_NONE, RDP_CODEC_REMOTEFX, RDP_CODEC_PLANAR,
	RDP_CODEC_INTERLEAVED, RDP_CODEC_RAW24,
};

struct rdp_encoder {
	enum rdp_codec codec;
	int bpp; /* of the bitmap tiles */
	RFX_CONTEXT *rfx;
	BITMAP_PLANAR_CONTEXT *planar;
	BITMAP_INTERLEAVED_CONTEXT *interleaved;
	wStream *stream;
	BITMAP_DATA *bitmaps; /* a batch of bitmap tiles */
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
	if (enc->interleaved) {
		bitmap_interleaved_context_free(enc->interleaved);
		enc->interleaved = NULL;
	}
}

void rdp_encoder_choose_depth(struct rdp_peer *peer) {
	rdpSettings *settings = peer->client->settings;
	/* High colour came with RDP 5: such a client takes 16 bits when told. */
	if (settings->ColorDepth < 15 && settings->RdpVersion >= RDP_VERSION_5_PLUS) {
		wlr_log(WLR_INFO, "RDP: %s asked for %u bits per pixel: it gets 16",
			peer->host, settings->ColorDepth);
		settings->ColorDepth = 16;
	}
}

static enum rdp_codec codec_for_depth(UINT32 depth) {
	switch (depth) {
	case 32:
		return RDP_CODEC_PLANAR;
	case 24:
		return RDP_CODEC_RAW24;
	case 16:
	case 15:
		return RDP_CODEC_INTERLEAVED;
	default:
		return RDP_CODEC_NONE;
	}
}

bool rdp_encoder_prepare(struct rdp_peer *peer) {
	struct rdp_encoder *enc = peer->encoder;
	rdpSettings *settings = peer->client->settings;
	int width = peer->rdp->width, height = peer->rdp->height;
	enum rdp_codec codec = RDP_CODEC_NONE;
	if (settings->RemoteFxCodec && settings->SurfaceCommandsEnabled) {
		codec = RDP_CODEC_REMOTEFX;
	} else {
		codec = codec_for_depth(settings->ColorDepth);
	}
	int bpp = (int)settings->ColorDepth;
	if (codec == enc->codec && bpp == enc->bpp && width == enc->width &&
			height == enc->height) {
		return true;
	}
	encoder_free_codecs(enc);
	enc->codec = codec;
	enc->bpp = bpp;
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
		/*
		 * Without the alpha plane only for a client that says it may be
		 * skipped (its Bitmap Capability Set's DRAW_ALLOW_SKIP_ALPHA, as
		 * FreeRDP's do: they would read a sent one with red and blue
		 * swapped). rdesktop does not, and decodes planar bitmaps only
		 * with all four planes; an opaque alpha plane costs a few bytes a
		 * row with RLE.
		 */
		enc->planar = freerdp_bitmap_planar_context_new(PLANAR_FORMAT_HEADER_RLE |
			(settings->DrawAllowSkipAlpha ? PLANAR_FORMAT_HEADER_NA : 0), TILE, TILE);
		return enc->planar != NULL;
	case RDP_CODEC_INTERLEAVED:
		enc->interleaved = bitmap_interleaved_context_new(TRUE);
		return enc->interleaved != NULL;
	case RDP_CODEC_RAW24:
		return true;
	case RDP_CODEC_NONE:
		/* Told, so that it shows why, rather than a black window. */
		wlr_log(WLR_ERROR, "RDP: %s takes neither RemoteFX nor bitmaps at 15, 16, "
			"24 or 32 bits per pixel (it is at %u)", peer->host,
			settings->ColorDepth);
		freerdp_set_error_info(peer->client->context->rdp,
			ERRINFO_GRAPHICS_MODE_NOT_SUPPORTED);
		freerdp_send_error_info(peer->client->context->rdp);
		return false;
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
	/*
	 * The tiles' flags are oriel's (send_bitmap_tiles): FreeRDP's own add
	 * NO_BITMAP_COMPRESSION_HDR to uncompressed ones too, which rdesktop
	 * takes for compressed data it cannot decode.
	 */
	update->autoCalculateBitmapData = FALSE;
	bool ok = n == 0 || update->BitmapUpdate(update->context, &bitmap_update);
	for (int i = 0; i < n; i++) {
		free(enc->bitmaps[i].bitmapDataStream);
		enc->bitmaps[i].bitmapDataStream = NULL;
	}
	return ok;
}

/*
 * Interleaved RLE takes widths in multiples of 4: a tile is widened to
 * the left, over pixels sent anyway, or at the left edge to the right.
 */
static void interleaved_fit(int *x, int *width, int desktop_width) {
	int padded = (*width + 3) & ~3;
	if (padded > desktop_width) {
		padded = desktop_width & ~3;
	}
	if (*x + padded > desktop_width) {
		*x = desktop_width - padded;
	}
	*width = padded;
}

/* One tile at the encoder's depth, in data the caller frees; NULL on failure. */
static BYTE *encode_tile(struct rdp_encoder *enc, struct rdp_server *rdp, int x, int y,
		int w, int h, UINT32 *size) {
	const uint8_t *src = rdp->fb + (size_t)y * rdp->stride + (size_t)x * 4;
	switch (enc->codec) {
	case RDP_CODEC_PLANAR:
		/* The encoder allocates what the tile needs. */
		return freerdp_bitmap_compress_planar(enc->planar, src, PIXEL_FORMAT_BGRX32,
			(UINT32)w, (UINT32)h, (UINT32)rdp->stride, NULL, size);
	case RDP_CODEC_INTERLEAVED: {
		BYTE *data = malloc(INTERLEAVED_MAX);
		*size = INTERLEAVED_MAX;
		if (data && !interleaved_compress(enc->interleaved, data, size, (UINT32)w,
				(UINT32)h, rdp->fb, PIXEL_FORMAT_BGRX32, (UINT32)rdp->stride,
				(UINT32)x, (UINT32)y, NULL, (UINT32)enc->bpp)) {
			free(data);
			return NULL;
		}
		return data;
	}
	case RDP_CODEC_RAW24: {
		/* Uncompressed bitmaps go bottom-up (flipped from the tile's own
		 * start: FreeRDP 2.11 flips offsets outside the source). */
		BYTE *data = malloc((size_t)w * (size_t)h * 3);
		if (data && !freerdp_image_copy(data, PIXEL_FORMAT_BGR24, (UINT32)w * 3, 0, 0,
				(UINT32)w, (UINT32)h, src, PIXEL_FORMAT_BGRX32,
				(UINT32)rdp->stride, 0, 0, NULL, FREERDP_FLIP_VERTICAL)) {
			free(data);
			return NULL;
		}
		*size = (UINT32)(w * h * 3);
		return data;
	}
	case RDP_CODEC_REMOTEFX:
	case RDP_CODEC_NONE:
		break;
	}
	return NULL;
}

/* 64x64 tiles of every damaged rectangle, batched under the client's limit. */
static bool send_bitmap_tiles(struct rdp_peer *peer, const pixman_region32_t *damage) {
	struct rdp_encoder *enc = peer->encoder;
	struct rdp_server *rdp = peer->rdp;
	rdpSettings *settings = peer->client->settings;
	if (!enc->bitmaps) {
		enc->bitmaps = calloc(BITMAP_BATCH, sizeof(*enc->bitmaps));
		if (!enc->bitmaps) {
			return false;
		}
	}
	size_t limit = settings->MultifragMaxRequestSize > 0 ?
		settings->MultifragMaxRequestSize : 0x10000;
	limit = limit > 1024 ? limit - 1024 : limit / 2;
	int bytes_pp = (enc->bpp + 7) / 8;
	int n_boxes, n = 0;
	size_t bytes = 0;
	const pixman_box32_t *boxes = pixman_region32_rectangles(damage, &n_boxes);
	for (int b = 0; b < n_boxes; b++) {
		for (int y = boxes[b].y1; y < boxes[b].y2; y += TILE) {
			for (int x = boxes[b].x1; x < boxes[b].x2; x += TILE) {
				int w = boxes[b].x2 - x < TILE ? boxes[b].x2 - x : TILE;
				int h = boxes[b].y2 - y < TILE ? boxes[b].y2 - y : TILE;
				int tx = x;
				if (enc->codec == RDP_CODEC_PLANAR) {
					rdp_planar_fit(&tx, &w, rdp->width);
				} else {
					interleaved_fit(&tx, &w, rdp->width);
				}
				UINT32 size = 0;
				BYTE *data = encode_tile(enc, rdp, tx, y, w, h, &size);
				if (!data) {
					send_bitmaps(peer, n);
					return false;
				}
				if (n > 0 && (bytes + size + 32 > limit || n == BITMAP_BATCH)) {
					if (!send_bitmaps(peer, n)) {
						free(data);
						return false;
					}
					n = 0;
					bytes = 0;
				}
				bool compressed = enc->codec != RDP_CODEC_RAW24;
				enc->bitmaps[n] = (BITMAP_DATA){
					.destLeft = (UINT32)tx,
					.destTop = (UINT32)y,
					.destRight = (UINT32)(tx + w - 1),
					.destBottom = (UINT32)(y + h - 1),
					.width = (UINT32)w,
					.height = (UINT32)h,
					.bitsPerPixel = (UINT32)enc->bpp,
					.bitmapLength = size,
					.bitmapDataStream = data,
					.compressed = compressed,
					.flags = compressed ? BITMAP_COMPRESSION |
						(settings->NoBitmapCompressionHeader ?
							NO_BITMAP_COMPRESSION_HDR : 0) : 0,
					.cbCompMainBodySize = compressed ? size : 0,
					.cbScanWidth = (UINT32)(w * bytes_pp),
					.cbUncompressedSize = (UINT32)(w * h * bytes_pp),
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
	case RDP_CODEC_INTERLEAVED:
	case RDP_CODEC_RAW24:
		if (rdp_peer_uses_acks(peer)) {
			SURFACE_FRAME_MARKER marker = { SURFACECMD_FRAMEACTION_BEGIN, peer->frame_id };
			update->SurfaceFrameMarker(update->context, &marker);
		}
		ok = send_bitmap_tiles(peer, damage);
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
