/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_RDP_RDP_H264_X264_H
#define ORIEL_REMOTE_RDP_RDP_H264_X264_H

/* A real-time H.264 encoder of 4:2:0 pictures (x264), for one stream. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rdp_x264;

/* width and height even; kbit_rate caps the stream's rate (kbit/s). */
struct rdp_x264 *rdp_x264_create(int width, int height, int fps, unsigned kbit_rate);
void rdp_x264_destroy(struct rdp_x264 *enc);

/*
 * The input picture (Y, U, V planes and their strides), the caller's to
 * update where the screen changed; it is kept between frames.
 */
void rdp_x264_planes(struct rdp_x264 *enc, uint8_t *planes[3], uint32_t strides[3]);

/*
 * Encodes the input picture: the first frame is a key frame, the others
 * P-frames. *data (Annex B) stays valid until the next call.
 */
bool rdp_x264_encode(struct rdp_x264 *enc, const uint8_t **data, size_t *length);

/* A new rate cap (kbit/s), taken from the next frame; call between frames. */
void rdp_x264_set_rate(struct rdp_x264 *enc, unsigned kbit_rate);

#endif
