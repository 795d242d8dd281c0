/* SPDX-License-Identifier: MIT */
/*
 * bench-h264 — the H.264 encoders alone, on the same frames: the floor
 * under bench/run-rdp's AVC figures.
 *
 * Frames: bench/apps/animate's (its pattern scrolled by 4 px a frame, its
 * counter blocks), made here in memory at --size; or, with --text FILE, a
 * picture of a terminal (a binary PPM at --size, e.g. bench/run-rdp's
 * client picture of its text workload) scrolled up --scroll px a frame,
 * as textscroll scrolls its text; with --drag too, that picture's top
 * left 800x600 moved over black by 8 px a frame (and 2 down, bouncing),
 * as textscroll --drag moves its window. Each encoder gets the
 * same sequence as BGRX with a stride, as rdp_gfx_h264.c has it, and does
 * all its work: colour conversion included.
 * - x264-ultrafast, x264-superfast: oriel's encoder (rdp_h264_x264.c,
 *   compiled in with the preset named) after FreeRDP's SIMD RGB to
 *   YUV 4:2:0 (the conversion is timed apart);
 * - avc444v2: FreeRDP's RGB to AVC444v2 split, then oriel's encoder on
 *   both pictures (luma and chroma, one stream), or on the luma picture
 *   alone where the chroma picture adds nothing (rdp_avc444_chroma.c);
 * - freerdp: FreeRDP 2's H.264 context (avc420_compress: libavcodec's
 *   libx264, its own settings).
 * Prints per encoder: wall ms/frame (convert, encode), CPU ms/frame (all
 * threads, getrusage), KiB/frame. With --decode, each frame of oriel's
 * encoder is then decoded as FreeRDP's client decodes it (its H.264
 * context: libavcodec, and for AVC444 the pictures put together), timed
 * apart (the CPU figure then includes it): the client's floor.
 *
 * Build: see bench/README.md (run from the repository root).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <freerdp/codec/h264.h>
#include <freerdp/primitives.h>
#include <winpr/crt.h>
#include "remote/rdp/rdp_avc444_chroma.h"
#include "remote/rdp/rdp_h264_x264.h"

#define PATTERN_PERIOD 256
#define BITS 20
#define BLOCK 32

static double now_ms(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double cpu_ms(void) {
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
		(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static void draw_frame(uint32_t *pixels, const uint32_t *pattern, int w, int h, uint32_t n) {
	int pw = w + PATTERN_PERIOD;
	int shift = (int)((n * 4) % PATTERN_PERIOD);
	for (int y = 0; y < h; y++) {
		memcpy(pixels + (size_t)y * w, pattern + (size_t)y * pw + shift, (size_t)w * 4);
	}
	for (int i = 0; i < BITS; i++) {
		int bit = (n >> (BITS - 1 - i)) & 1;
		for (int row = 0; row < 2; row++) {
			uint32_t col = (bit ^ row) ? 0xffffff : 0x000000;
			for (int y = row * BLOCK; y < (row + 1) * BLOCK && y < h; y++) {
				for (int x = i * BLOCK; x < (i + 1) * BLOCK && x < w; x++) {
					pixels[(size_t)y * w + x] = col;
				}
			}
		}
	}
}

/* The rows of a w x h binary PPM (P6, 8 bits) as XRGB; NULL after saying why. */
static uint32_t *read_ppm(const char *path, int w, int h) {
	FILE *f = fopen(path, "rb");
	int pw, ph, max;
	if (!f || fscanf(f, "P6 %d %d %d", &pw, &ph, &max) != 3 || fgetc(f) == EOF ||
			pw != w || ph != h || max != 255) {
		fprintf(stderr, "bench-h264: %s is no %dx%d binary PPM\n", path, w, h);
		if (f) {
			fclose(f);
		}
		return NULL;
	}
	uint32_t *picture = malloc((size_t)w * h * 4);
	for (size_t i = 0; i < (size_t)w * h; i++) {
		int r = fgetc(f), g = fgetc(f), b = fgetc(f);
		picture[i] = (uint32_t)(r & 0xff) << 16 | (uint32_t)(g & 0xff) << 8 | (uint32_t)(b & 0xff);
	}
	fclose(f);
	return picture;
}

/* Frame n of a terminal scrolling picture up by scroll px a frame. */
static void scroll_frame(uint32_t *pixels, const uint32_t *picture, int w, int h, int scroll,
		uint32_t n) {
	int top = (int)(((uint64_t)n * (uint64_t)scroll) % (uint64_t)h);
	for (int y = 0; y < h; y++) {
		memcpy(pixels + (size_t)y * w, picture + (size_t)((y + top) % h) * w, (size_t)w * 4);
	}
}

#define DRAG_W 800
#define DRAG_H 600
#define DRAG_STEP 8

/* Frame n of a window drag: picture's corner moved over black. */
static void drag_frame(uint32_t *pixels, const uint32_t *picture, int w, int h, uint32_t n) {
	memset(pixels, 0, (size_t)w * h * 4);
	int span_x = w - DRAG_W, span_y = h - DRAG_H;
	int x = (int)((n * DRAG_STEP) % (uint32_t)(2 * span_x));
	int y = (int)((n * (DRAG_STEP / 4)) % (uint32_t)(2 * span_y));
	x = x > span_x ? 2 * span_x - x : x;
	y = y > span_y ? 2 * span_y - y : y;
	for (int row = 0; row < DRAG_H; row++) {
		memcpy(pixels + (size_t)(y + row) * w + x, picture + (size_t)row * w,
			(size_t)DRAG_W * 4);
	}
}

int main(int argc, char **argv) {
	int w = 1920, h = 1080, frames = 120, scroll = 28;
	const char *which = "x264", *text = NULL;
	bool decode = false, drag = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--decode")) {
			decode = true;
		} else if (!strcmp(argv[i], "--drag")) {
			drag = true;
		}
	}
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--decode") || !strcmp(argv[i], "--drag")) {
			i--;
			continue;
		}
		if (!strcmp(argv[i], "--size")) {
			sscanf(argv[i + 1], "%dx%d", &w, &h);
		} else if (!strcmp(argv[i], "--frames")) {
			frames = atoi(argv[i + 1]);
		} else if (!strcmp(argv[i], "--encoder")) {
			which = argv[i + 1];
		} else if (!strcmp(argv[i], "--text")) {
			text = argv[i + 1];
		} else if (!strcmp(argv[i], "--scroll")) {
			scroll = atoi(argv[i + 1]);
		}
	}
	uint32_t *picture = text ? read_ppm(text, w, h) : NULL;
	if (text && !picture) {
		return 1;
	}
	int pw = w + PATTERN_PERIOD;
	uint32_t *pattern = malloc((size_t)pw * h * 4);
	uint32_t *pixels = malloc((size_t)w * h * 4);
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < pw; x++) {
			uint32_t r = (uint32_t)(x % PATTERN_PERIOD);
			uint32_t g = (uint32_t)((y * 255) / (h - 1));
			uint32_t bl = (uint32_t)(((x / 16) ^ (y / 16)) & 1 ? 200 : 60);
			pattern[(size_t)y * pw + x] = (r << 16) | (g << 8) | bl;
		}
	}
	primitives_t *prims = primitives_get();
	unsigned kbit = (unsigned)((uint64_t)w * h * 4 / 1000);
	bool avc444 = !strcmp(which, "avc444v2");
	struct rdp_x264 *enc = NULL;
	H264_CONTEXT *avc = NULL;
	if (!strcmp(which, "freerdp")) {
		avc = h264_context_new(TRUE);
		avc->RateControlMode = H264_RATECONTROL_VBR;
		avc->BitRate = kbit * 1000;
		avc->FrameRate = 60;
		avc->QP = 22;
		h264_context_reset(avc, (UINT32)w, (UINT32)h);
	} else {
		enc = rdp_x264_create(w, h, 60, kbit, avc444 ? 2 : 1);
	}
	H264_CONTEXT *decoder = NULL;
	uint32_t *decoded = NULL;
	if (decode && enc) {
		decoder = h264_context_new(FALSE);
		decoded = malloc((size_t)w * h * 4);
		if (!decoder || !decoded || !h264_context_reset(decoder, (UINT32)w, (UINT32)h)) {
			fprintf(stderr, "bench-h264: no H.264 decoder\n");
			return 1;
		}
	}
	double convert = 0, encode = 0, bytes = 0, decoding = 0;
	int chroma_frames = 0;
	double cpu0 = 0;
	for (int n = 0; n < frames; n++) {
		if (picture && drag) {
			drag_frame(pixels, picture, w, h, (uint32_t)n);
		} else if (picture) {
			scroll_frame(pixels, picture, w, h, scroll, (uint32_t)n);
		} else {
			draw_frame(pixels, pattern, w, h, (uint32_t)n);
		}
		if (n == 1) {
			/* The key frame apart. */
			cpu0 = cpu_ms();
			convert = encode = bytes = decoding = 0;
			chroma_frames = 0;
		}
		double t0 = now_ms();
		size_t length = 0;
		if (avc) {
			BYTE *data;
			UINT32 len;
			avc420_compress(avc, (BYTE *)pixels, PIXEL_FORMAT_BGRX32, (UINT32)w * 4,
				(UINT32)w, (UINT32)h, &data, &len);
			length = len;
		} else {
			uint8_t *planes[2][3];
			uint32_t strides[2][3];
			for (int i = 0; i < (avc444 ? 2 : 1); i++) {
				rdp_x264_planes(enc, i, planes[i], strides[i]);
			}
			prim_size_t roi = { (UINT32)w, (UINT32)h };
			if (avc444) {
				prims->RGBToAVC444YUVv2((BYTE *)pixels, PIXEL_FORMAT_BGRX32, (UINT32)w * 4,
					planes[0], strides[0], planes[1], strides[1], &roi);
			} else {
				prims->RGBToYUV420_8u_P3AC4R((BYTE *)pixels, PIXEL_FORMAT_BGRX32,
					(UINT32)w * 4, planes[0], strides[0], &roi);
			}
			bool chroma = avc444 && (n == 0 || rdp_avc444_chroma_needed(planes[0], strides[0],
				planes[1], strides[1], w, 0, 0, w, h));
			chroma_frames += chroma;
			convert += now_ms() - t0;
			t0 = now_ms();
			const uint8_t *data[2] = { NULL, NULL };
			size_t len[2] = { 0, 0 };
			for (int i = 0; i < (chroma ? 2 : 1); i++) {
				rdp_x264_encode(enc, i, &data[i], &len[i]);
				length += len[i];
			}
			encode += now_ms() - t0;
			t0 = now_ms();
			if (decoder) {
				RECTANGLE_16 all = { 0, 0, (UINT16)w, (UINT16)h };
				INT32 rc = avc444 ? avc444_decompress(decoder, chroma ? 0 : 1, &all, 1,
					data[0], (UINT32)len[0], &all, chroma ? 1 : 0, data[1],
					(UINT32)len[1], (BYTE *)decoded, PIXEL_FORMAT_BGRX32,
					(UINT32)w * 4, (UINT32)w, (UINT32)h, RDPGFX_CODECID_AVC444v2) :
					avc420_decompress(decoder, data[0], (UINT32)len[0], (BYTE *)decoded,
					PIXEL_FORMAT_BGRX32, (UINT32)w * 4, (UINT32)w, (UINT32)h, &all, 1);
				if (rc < 0) {
					fprintf(stderr, "bench-h264: frame %d does not decode (%d)\n", n, rc);
					return 1;
				}
				decoding += now_ms() - t0;
			}
			t0 = now_ms();
		}
		encode += now_ms() - t0;
		bytes += (double)length;
	}
	int counted = frames - 1;
	printf("%s %dx%d%s: convert %.2f ms, encode %.2f ms, wall %.2f ms/frame, "
		"CPU %.2f ms/frame, %.1f KiB/frame\n", which, w, h, picture ? (drag ? " drag" : " text") : "",
		convert / counted,
		encode / counted, (convert + encode) / counted, (cpu_ms() - cpu0) / counted,
		bytes / counted / 1024);
	if (avc444) {
		printf("  with the chroma picture: %d of %d frames\n", chroma_frames, counted);
	}
	if (decoder) {
		printf("  decoded as FreeRDP's client does: %.2f ms/frame\n", decoding / counted);
	}
	return 0;
}
