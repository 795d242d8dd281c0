/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_RDP_RDP_SOUND_AAC_H
#define ORIEL_REMOTE_RDP_RDP_SOUND_AAC_H

/*
 * AAC-LC for rdpsnd's WAVE_FORMAT_AAC_MS, by libavcodec's own encoder:
 * frames of RDP_SOUND_AAC_FRAMES interleaved 16-bit stereo samples in,
 * ADTS frames out (what FreeRDP's clients hand to libavcodec's decoder,
 * which takes no other setup).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RDP_SOUND_AAC_FRAMES 1024 /* samples per channel in an AAC frame */

struct rdp_sound_aac;

/* Called with each ADTS frame that comes out. */
typedef void (*rdp_sound_aac_out_fn)(void *data, const uint8_t *adts, size_t size);

/* NULL (logged) when libavcodec cannot encode it. */
struct rdp_sound_aac *rdp_sound_aac_create(uint32_t rate, uint32_t bits_per_second);
void rdp_sound_aac_destroy(struct rdp_sound_aac *aac);
/*
 * Encodes one frame. The encoder holds a frame back (its look-ahead):
 * what goes in comes out at the next call.
 */
bool rdp_sound_aac_encode(struct rdp_sound_aac *aac, const int16_t *samples,
	rdp_sound_aac_out_fn out, void *data);

#endif
