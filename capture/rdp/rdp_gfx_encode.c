/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <freerdp/codec/color.h>
#include <freerdp/codec/h264.h>
#include <freerdp/codec/planar.h>
#include <freerdp/codec/progressive.h>
#include <freerdp/codec/region.h>
#include <wlr/util/log.h>
#include "capture/rdp/rdp_private.h"
#include "compositor/util.h"

/*
 * The codecs of graphics pipeline frames, through FreeRDP's codec layer:
 * - AVC420 (H.264, CPU, libavcodec's encoder): a P-frame of the whole
 *   surface costs little where nothing changed, so the whole surface is
 *   encoded (a surface of one size keeps one encoder; a picture of
 *   another size would restart it with a key frame), and the damage goes
 *   as the frame's region rectangles, which are all the client copies
 *   to its screen. The first frame of an encoder covers everything.
 * - progressive RemoteFX, for clients without H.264: only the 64x64
 *   tiles the damage touches, in one pass at full quality.
 * - planar, lossless, for refining what the lossy codecs left once it
 *   stays still (rdp_gfx.c): text and flat colours come out exact.
 */

/* More damage rectangles than this go as their bounding box. */
#define MAX_REGION_RECTS 64
/* The quality the client is told of (the encoder's is by bit rate). */
#define H264_QP 22

struct rdp_gfx_encoder {
	bool h264;
	int width, height;
	H264_CONTEXT *avc;
	bool avc_started;
	RDPGFX_AVC420_BITMAP_STREAM avc420;
	RECTANGLE_16 rects[MAX_REGION_RECTS];
	RDPGFX_H264_QUANT_QUALITY quality[MAX_REGION_RECTS];
	PROGRESSIVE_CONTEXT *progressive;
	BITMAP_PLANAR_CONTEXT *planar;
	BYTE *planar_data; /* the last planar tile */
	uint8_t flipped[RDP_GFX_TILE * RDP_GFX_TILE * 4];
};

/* Bits per second: about 4 a pixel (8 Mbit/s at 1080p), within limits. */
static UINT32 h264_bit_rate(int width, int height) {
	uint64_t rate = (uint64_t)width * height * 4;
	if (rate < 2000000) {
		rate = 2000000;
	}
	if (rate > 20000000) {
		rate = 20000000;
	}
	return (UINT32)rate;
}

static H264_CONTEXT *h264_create(int width, int height) {
	H264_CONTEXT *avc = h264_context_new(TRUE);
	if (!avc) {
		return NULL;
	}
	avc->RateControlMode = H264_RATECONTROL_VBR;
	avc->BitRate = h264_bit_rate(width, height);
	avc->FrameRate = 60;
	avc->QP = H264_QP;
	if (!h264_context_reset(avc, (UINT32)width, (UINT32)height)) {
		h264_context_free(avc);
		return NULL;
	}
	return avc;
}

bool rdp_gfx_h264_available(void) {
	static int available = -1;
	if (available >= 0) {
		return available;
	}
	available = 0;
	enum { SIZE = 64 };
	uint8_t *black = calloc(SIZE * SIZE, 4);
	H264_CONTEXT *avc = black ? h264_create(SIZE, SIZE) : NULL;
	BYTE *data = NULL;
	UINT32 length = 0;
	if (avc && avc420_compress(avc, black, PIXEL_FORMAT_BGRX32, SIZE * 4, SIZE, SIZE,
			&data, &length) >= 0 && length > 0) {
		available = 1;
		wlr_log(WLR_INFO, "RDP: H.264 (AVC420) encodes through FreeRDP's %s",
			avc->subsystem && avc->subsystem->name ? avc->subsystem->name : "codec");
	} else {
		wlr_log(WLR_INFO, "RDP: FreeRDP cannot encode H.264 here: graphics pipeline "
			"clients get progressive RemoteFX");
	}
	h264_context_free(avc);
	free(black);
	return available;
}

struct rdp_gfx_encoder *rdp_gfx_encoder_create(bool h264, int width, int height) {
	struct rdp_gfx_encoder *enc = zalloc(sizeof(*enc));
	enc->h264 = h264;
	enc->width = width;
	enc->height = height;
	if (h264) {
		enc->avc = h264_create(width, height);
	} else {
		enc->progressive = progressive_context_new(TRUE);
	}
	if (!enc->avc && !enc->progressive) {
		rdp_gfx_encoder_destroy(enc);
		return NULL;
	}
	return enc;
}

void rdp_gfx_encoder_destroy(struct rdp_gfx_encoder *enc) {
	if (!enc) {
		return;
	}
	h264_context_free(enc->avc);
	progressive_context_free(enc->progressive);
	freerdp_bitmap_planar_context_free(enc->planar);
	free(enc->planar_data);
	free(enc);
}

const char *rdp_gfx_encoder_name(const struct rdp_gfx_encoder *enc) {
	return enc->h264 ? "AVC420" : "progressive RemoteFX";
}

static RECTANGLE_16 rect16(const pixman_box32_t *box) {
	return (RECTANGLE_16){ (UINT16)box->x1, (UINT16)box->y1, (UINT16)box->x2, (UINT16)box->y2 };
}

static bool encode_avc420(struct rdp_gfx_encoder *enc, const uint8_t *fb, int stride,
		const pixman_region32_t *damage, RDPGFX_SURFACE_COMMAND *cmd) {
	RDPGFX_AVC420_BITMAP_STREAM *bs = &enc->avc420;
	if (avc420_compress(enc->avc, fb, PIXEL_FORMAT_BGRX32, (UINT32)stride,
			(UINT32)enc->width, (UINT32)enc->height, &bs->data, &bs->length) < 0) {
		return false;
	}
	int n_boxes;
	const pixman_box32_t *boxes = pixman_region32_rectangles(
		(pixman_region32_t *)damage, &n_boxes);
	pixman_box32_t all = { 0, 0, enc->width, enc->height };
	if (!enc->avc_started) {
		/* A key frame: the client has nothing of this stream yet. */
		boxes = &all;
		n_boxes = 1;
		enc->avc_started = true;
	} else if (n_boxes > MAX_REGION_RECTS) {
		boxes = pixman_region32_extents((pixman_region32_t *)damage);
		n_boxes = 1;
	}
	for (int i = 0; i < n_boxes; i++) {
		enc->rects[i] = rect16(&boxes[i]);
		enc->quality[i] = (RDPGFX_H264_QUANT_QUALITY){
			.qp = H264_QP, .qualityVal = 100 - H264_QP,
		};
	}
	bs->meta.numRegionRects = (UINT32)n_boxes;
	bs->meta.regionRects = enc->rects;
	bs->meta.quantQualityVals = enc->quality;
	cmd->codecId = RDPGFX_CODECID_AVC420;
	cmd->left = 0;
	cmd->top = 0;
	cmd->right = (UINT32)enc->width;
	cmd->bottom = (UINT32)enc->height;
	cmd->extra = bs;
	cmd->length = bs->length;
	return true;
}

static bool encode_progressive(struct rdp_gfx_encoder *enc, const uint8_t *fb, int stride,
		const pixman_region32_t *damage, RDPGFX_SURFACE_COMMAND *cmd) {
	REGION16 region;
	region16_init(&region);
	int n_boxes;
	const pixman_box32_t *boxes = pixman_region32_rectangles(
		(pixman_region32_t *)damage, &n_boxes);
	bool ok = true;
	for (int i = 0; i < n_boxes && ok; i++) {
		RECTANGLE_16 rect = rect16(&boxes[i]);
		ok = region16_union_rect(&region, &region, &rect);
	}
	BYTE *data = NULL;
	UINT32 length = 0;
	ok = ok && progressive_compress_ex(enc->progressive, fb, (UINT32)(stride * enc->height),
		PIXEL_FORMAT_BGRX32, (UINT32)enc->width, (UINT32)enc->height, (UINT32)stride,
		&region, &data, &length) >= 0;
	region16_uninit(&region);
	if (!ok) {
		return false;
	}
	const pixman_box32_t *extents = pixman_region32_extents((pixman_region32_t *)damage);
	cmd->codecId = RDPGFX_CODECID_CAPROGRESSIVE;
	cmd->left = (UINT32)extents->x1;
	cmd->top = (UINT32)extents->y1;
	cmd->right = (UINT32)extents->x2;
	cmd->bottom = (UINT32)extents->y2;
	cmd->data = data;
	cmd->length = length;
	return true;
}

bool rdp_gfx_encode(struct rdp_gfx_encoder *enc, const uint8_t *fb, int stride,
		const pixman_region32_t *damage, RDPGFX_SURFACE_COMMAND *cmd) {
	cmd->format = PIXEL_FORMAT_BGRX32;
	cmd->width = (UINT32)enc->width;
	cmd->height = (UINT32)enc->height;
	if (enc->h264) {
		return encode_avc420(enc, fb, stride, damage, cmd);
	}
	return encode_progressive(enc, fb, stride, damage, cmd);
}

bool rdp_gfx_encode_lossless(struct rdp_gfx_encoder *enc, const uint8_t *fb, int stride,
		const pixman_box32_t *box, RDPGFX_SURFACE_COMMAND *cmd) {
	int width = box->x2 - box->x1, height = box->y2 - box->y1;
	if (width <= 0 || height <= 0 || width > RDP_GFX_TILE || height > RDP_GFX_TILE) {
		return false;
	}
	if (!enc->planar) {
		enc->planar = freerdp_bitmap_planar_context_new(
			PLANAR_FORMAT_HEADER_NA | PLANAR_FORMAT_HEADER_RLE, RDP_GFX_TILE, RDP_GFX_TILE);
		if (!enc->planar) {
			return false;
		}
	}
	/*
	 * FreeRDP's planar encoder writes rows bottom-up, as classic bitmap
	 * updates have them; the graphics pipeline's planar is top-down.
	 */
	for (int y = 0; y < height; y++) {
		memcpy(enc->flipped + (size_t)(height - 1 - y) * width * 4,
			fb + (size_t)(box->y1 + y) * stride + (size_t)box->x1 * 4, (size_t)width * 4);
	}
	free(enc->planar_data);
	UINT32 length = 0;
	enc->planar_data = freerdp_bitmap_compress_planar(enc->planar, enc->flipped,
		PIXEL_FORMAT_BGRX32, (UINT32)width, (UINT32)height, (UINT32)width * 4, NULL, &length);
	if (!enc->planar_data) {
		return false;
	}
	cmd->codecId = RDPGFX_CODECID_PLANAR;
	cmd->format = PIXEL_FORMAT_BGRX32;
	cmd->left = (UINT32)box->x1;
	cmd->top = (UINT32)box->y1;
	cmd->right = (UINT32)box->x2;
	cmd->bottom = (UINT32)box->y2;
	cmd->width = (UINT32)width;
	cmd->height = (UINT32)height;
	cmd->data = enc->planar_data;
	cmd->length = length;
	cmd->extra = NULL;
	return true;
}
