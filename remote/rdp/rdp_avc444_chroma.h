/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_RDP_RDP_AVC444_CHROMA_H
#define ORIEL_REMOTE_RDP_RDP_AVC444_CHROMA_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Whether an AVC444v2 frame needs its chroma picture for the box from
 * x1,y1 to x2,y2 (all even: whole 2x2 blocks) of pictures width wide: the
 * luma picture (4:2:0) and the chroma picture as FreeRDP's
 * RGBToAVC444YUVv2 lays them out (MS-RDPEGFX 3.3.8.3.3), both converted
 * from the same whole rows.
 */
bool rdp_avc444_chroma_needed(uint8_t *const luma[3], const uint32_t luma_strides[3],
	uint8_t *const chroma[3], const uint32_t chroma_strides[3], int width,
	int x1, int y1, int x2, int y2);

#endif
