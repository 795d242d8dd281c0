/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for the AVC444v2 chroma check (remote/rdp/rdp_avc444_chroma.c),
 * against FreeRDP's own conversions: pictures split by RGBToAVC444YUVv2
 * as oriel splits them, and put together as FreeRDP's client does, from
 * the luma picture alone (LC 1) and from both (LC 0). Where the check says
 * the chroma picture is not needed, the luma picture alone shows the
 * picture as well as both do; where it is needed, alone it does not.
 */

#include <stdlib.h>
#include <string.h>
#include <freerdp/primitives.h>
#include "remote/rdp/rdp_avc444_chroma.h"
#include "tests/unit/expect.h"

#define W 128
#define H 32

/* Rows padded as x264's are, by different amounts: strides are kept apart. */
#define LUMA_PAD 32
#define CHROMA_PAD 48

struct pictures {
	uint8_t luma_planes[3][(W + LUMA_PAD) * H], chroma_planes[3][(W + CHROMA_PAD) * H];
	uint8_t *luma[3], *chroma[3];
	uint32_t luma_strides[3], chroma_strides[3];
};

static uint32_t rgb[W * H];

static void split(struct pictures *p) {
	for (int i = 0; i < 3; i++) {
		p->luma[i] = p->luma_planes[i];
		p->chroma[i] = p->chroma_planes[i];
		p->luma_strides[i] = i ? (W + LUMA_PAD) / 2 : W + LUMA_PAD;
		p->chroma_strides[i] = i ? (W + CHROMA_PAD) / 2 : W + CHROMA_PAD;
	}
	prim_size_t roi = { W, H };
	primitives_get()->RGBToAVC444YUVv2((const BYTE *)rgb, PIXEL_FORMAT_BGRX32, W * 4,
		p->luma, p->luma_strides, p->chroma, p->chroma_strides, &roi);
}

/* The colours FreeRDP's client shows, from the luma picture alone or both. */
static void show(struct pictures *p, bool with_chroma, uint32_t *out) {
	static uint8_t yuv444[3][W * H];
	BYTE *planes[3] = { yuv444[0], yuv444[1], yuv444[2] };
	const UINT32 strides444[3] = { W, W, W };
	RECTANGLE_16 all = { 0, 0, W, H };
	primitives_t *prims = primitives_get();
	prims->YUV420CombineToYUV444(AVC444_LUMA, (const BYTE *const *)p->luma,
		p->luma_strides, W, H, planes, strides444, &all);
	if (with_chroma) {
		prims->YUV420CombineToYUV444(AVC444_CHROMAv2, (const BYTE *const *)p->chroma,
			p->chroma_strides, W, H, planes, strides444, &all);
	}
	prim_size_t roi = { W, H };
	prims->YUV444ToRGB_8u_P3AC4R((const BYTE *const *)planes, strides444, (BYTE *)out, W * 4,
		PIXEL_FORMAT_BGRX32, &roi);
}

/* The largest difference of a channel from the picture, shown one way. */
static int error_shown(struct pictures *p, bool with_chroma) {
	static uint32_t shown[W * H];
	show(p, with_chroma, shown);
	int worst = 0;
	for (int i = 0; i < W * H; i++) {
		for (int shift = 0; shift < 24; shift += 8) {
			int d = abs((int)((shown[i] >> shift) & 0xff) - (int)((rgb[i] >> shift) & 0xff));
			worst = d > worst ? d : worst;
		}
	}
	return worst;
}

/* The luma picture alone shows the picture as well as both do, or better. */
static void alone_as_good(struct pictures *p, const char *what) {
	int alone = error_shown(p, false), both = error_shown(p, true);
	printf("%s: off by %d with the luma picture alone, %d with both\n", what, alone, both);
	EXPECT(alone <= both || alone <= 2, "%s: off by %d alone, %d with both", what, alone, both);
}

static bool needed_in(struct pictures *p, int x1, int y1, int x2, int y2) {
	return rdp_avc444_chroma_needed(p->luma, p->luma_strides, p->chroma, p->chroma_strides,
		W, x1, y1, x2, y2);
}

static bool needed(struct pictures *p, int y1, int y2) {
	return needed_in(p, 0, y1, W, y2);
}

static uint32_t grey(unsigned v) {
	return v << 16 | v << 8 | v;
}

int main(void) {
	static struct pictures p;
	srand(7);

	/* Grey text on grey: 4:2:0 loses nothing. */
	for (int i = 0; i < W * H; i++) {
		rgb[i] = rand() % 3 ? grey(0x18) : grey(0xc0 + (unsigned)(rand() % 64));
	}
	split(&p);
	EXPECT(!needed(&p, 0, H), "grey text needs the chroma picture");
	alone_as_good(&p, "grey text");

	/* Black text on white, as xterm draws it. */
	for (int i = 0; i < W * H; i++) {
		rgb[i] = rand() % 4 ? grey(0xff) : grey(0);
	}
	split(&p);
	EXPECT(!needed(&p, 0, H), "black on white needs the chroma picture");
	alone_as_good(&p, "black on white");

	/* Solid colours on whole 2x2 blocks. */
	for (int y = 0; y < H; y += 2) {
		for (int x = 0; x < W; x += 2) {
			uint32_t c = (uint32_t)rand() & 0xffffff;
			rgb[y * W + x] = rgb[y * W + x + 1] = rgb[(y + 1) * W + x] =
				rgb[(y + 1) * W + x + 1] = c;
		}
	}
	split(&p);
	EXPECT(!needed(&p, 0, H), "colour blocks need the chroma picture");
	alone_as_good(&p, "colour blocks");

	/* One red pixel in grey, at each place of a block, in rows 10 and 11. */
	for (int dy = 0; dy < 2; dy++) {
		for (int dx = 0; dx < 4; dx++) {
			for (int i = 0; i < W * H; i++) {
				rgb[i] = grey(0x80);
			}
			int x = 20 + dx, y = 10 + dy;
			rgb[y * W + x] = 0xff0000;
			split(&p);
			EXPECT(needed(&p, 0, H), "a red pixel at %d,%d: chroma picture not needed", x, y);
			EXPECT(needed(&p, 10, 12), "a red pixel at %d,%d: rows 10-11 said alike", x, y);
			EXPECT(!needed(&p, 0, 10) && !needed(&p, 12, H),
				"a red pixel at %d,%d: other rows said to differ", x, y);
			int block_x = x & ~1;
			EXPECT(needed_in(&p, block_x, 10, block_x + 2, 12),
				"a red pixel at %d,%d: its own block said alike", x, y);
			EXPECT(!needed_in(&p, 0, 0, block_x, H) && !needed_in(&p, block_x + 2, 0, W, H),
				"a red pixel at %d,%d: other columns said to differ", x, y);
			EXPECT(error_shown(&p, false) > 32, "a red pixel at %d,%d: off by only %d alone",
				x, y, error_shown(&p, false));
		}
	}

	/* Coloured text: one-pixel strokes of colour on black. */
	for (int i = 0; i < W * H; i++) {
		rgb[i] = (i % W) % 3 == 1 ? 0x20e040 : 0;
	}
	split(&p);
	EXPECT(needed(&p, 0, H), "coloured strokes: chroma picture not needed");

	/* A width whose quarters do not fall on whole blocks always gets it. */
	EXPECT(rdp_avc444_chroma_needed(p.luma, p.luma_strides, p.chroma, p.chroma_strides, W - 2,
		0, 0, W - 2, H),
		"a width of %d: chroma picture not needed", W - 2);
	return expect_report();
}
