/* SPDX-License-Identifier: MIT */
#ifndef BENCH_FLOOR_H
#define BENCH_FLOOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The least CPU ms a server must spend per frame (floor.c), for a frame of
 * 32-bit pixels in the viewer's R,G,B,X order; -1 on failure.
 */
double floor_raw_ms(const uint8_t *frame, int width, int height, int reps);
/* Luma sampling 2x1 is 4:2:2, 2x2 4:2:0, 1x1 4:4:4; fast_dct: JDCT_FASTEST. */
double floor_jpeg_ms(const uint8_t *frame, int width, int height, int quality,
	int h_subsample, int v_subsample, bool fast_dct, int reps);
/* Encrypting `bytes` (taken from the frame, repeated as needed) in TLS
 * records with the AEAD cipher named as GnuTLS names it ("AES-256-GCM");
 * -1 if it is no AEAD cipher. */
double floor_tls_ms(const uint8_t *frame, size_t frame_bytes, size_t bytes,
	const char *cipher, int reps);

#endif
