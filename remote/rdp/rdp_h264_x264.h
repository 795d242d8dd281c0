/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_RDP_RDP_H264_X264_H
#define ORIEL_REMOTE_RDP_RDP_H264_X264_H

/*
 * A real-time H.264 encoder of 4:2:0 pictures (x264), for one stream.
 * AVC444 sends two pictures a frame (luma and chroma) as frames of one
 * stream, one after the other: the client decodes both with one decoder.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rdp_x264;

/*
 * width and height even; kbit_rate caps the stream's rate (kbit/s);
 * pictures (1 or 2) is how many pictures a frame has, fps counts frames.
 */
struct rdp_x264 *rdp_x264_create(int width, int height, int fps, unsigned kbit_rate,
	int pictures);
void rdp_x264_destroy(struct rdp_x264 *enc);

/*
 * The input picture (Y, U, V planes and their strides), the caller's to
 * update where the screen changed; it is kept between frames.
 */
void rdp_x264_planes(struct rdp_x264 *enc, int picture, uint8_t *planes[3],
	uint32_t strides[3]);

/*
 * Encodes input picture number picture (in order: 0, then 1 for two): the
 * first is a key frame, the others P-frames. *data (Annex B) stays valid
 * until that picture is encoded again.
 */
bool rdp_x264_encode(struct rdp_x264 *enc, int picture, const uint8_t **data,
	size_t *length);

/* A new rate cap (kbit/s), taken from the next frame; call between frames. */
void rdp_x264_set_rate(struct rdp_x264 *enc, unsigned kbit_rate);

#endif
