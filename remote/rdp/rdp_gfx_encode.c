/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <freerdp/codec/color.h>
#include <freerdp/codec/planar.h>
#include <freerdp/codec/progressive.h>
#include <freerdp/codec/region.h>
#include <wlr/util/log.h>
#include "remote/rdp/rdp_private.h"
#include "common/util.h"

/*
 * The graphics pipeline's codecs that run in the loop (H.264 has its
 * thread, rdp_gfx_h264.c), through FreeRDP's codec layer:
 * - progressive RemoteFX, for clients without H.264: only the 64x64
 *   tiles the damage touches, in one pass at full quality;
 * - planar, lossless, for refining what the lossy codecs left once it
 *   stays still (rdp_gfx.c): text and flat colours come out exact.
 */

struct rdp_gfx_encoder {
	int width, height;
	PROGRESSIVE_CONTEXT *progressive;
	BITMAP_PLANAR_CONTEXT *planar;
	BYTE *planar_data; /* the last planar tile */
	uint8_t flipped[RDP_GFX_TILE * RDP_GFX_TILE * 4];
};

struct rdp_gfx_encoder *rdp_gfx_encoder_create(int width, int height) {
	struct rdp_gfx_encoder *enc = zalloc(sizeof(*enc));
	enc->width = width;
	enc->height = height;
	return enc;
}

void rdp_gfx_encoder_destroy(struct rdp_gfx_encoder *enc) {
	if (!enc) {
		return;
	}
	progressive_context_free(enc->progressive);
	freerdp_bitmap_planar_context_free(enc->planar);
	free(enc->planar_data);
	free(enc);
}

static RECTANGLE_16 rect16(const pixman_box32_t *box) {
	return (RECTANGLE_16){ (UINT16)box->x1, (UINT16)box->y1, (UINT16)box->x2, (UINT16)box->y2 };
}

bool rdp_gfx_encode_progressive(struct rdp_gfx_encoder *enc, const uint8_t *fb, int stride,
		const pixman_region32_t *damage, RDPGFX_SURFACE_COMMAND *cmd) {
	if (!enc->progressive) {
		enc->progressive = progressive_context_new(TRUE);
		if (!enc->progressive) {
			return false;
		}
	}
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
	cmd->format = PIXEL_FORMAT_BGRX32;
	cmd->width = (UINT32)enc->width;
	cmd->height = (UINT32)enc->height;
	cmd->left = (UINT32)extents->x1;
	cmd->top = (UINT32)extents->y1;
	cmd->right = (UINT32)extents->x2;
	cmd->bottom = (UINT32)extents->y2;
	cmd->data = data;
	cmd->length = length;
	return true;
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
