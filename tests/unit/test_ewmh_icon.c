/* SPDX-License-Identifier: MIT */
/* _NET_WM_ICON: choosing a size, rejecting malformed arrays, scaling. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xwm/ewmh_icon.h"

static int failures;

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		fprintf(stderr, __VA_ARGS__); \
		fprintf(stderr, "\n"); \
		failures++; \
	} \
} while (0)

/* Appends a solid w x h icon to data at *len. */
static void put_icon(uint32_t *data, size_t *len, uint32_t w, uint32_t h, uint32_t argb) {
	data[(*len)++] = w;
	data[(*len)++] = h;
	for (uint32_t i = 0; i < w * h; i++) {
		data[(*len)++] = argb;
	}
}

static void test_choose(void) {
	static uint32_t data[4096];
	size_t len = 0;
	put_icon(data, &len, 8, 8, 0xff000008);
	put_icon(data, &len, 32, 32, 0xff000020);
	put_icon(data, &len, 16, 16, 0xff000010);
	put_icon(data, &len, 48, 48, 0xff000030);
	struct ewmh_icon icon;
	CHECK(ewmh_icon_choose(data, len, 16, &icon) && icon.width == 16 &&
		icon.pixels[0] == 0xff000010, "exact size: got %u", icon.width);
	CHECK(ewmh_icon_choose(data, len, 20, &icon) && icon.width == 32,
		"next larger: got %u", icon.width);
	CHECK(ewmh_icon_choose(data, len, 64, &icon) && icon.width == 48,
		"all smaller: the largest, got %u", icon.width);
	CHECK(ewmh_icon_choose(data, len, 4, &icon) && icon.width == 8,
		"all larger: the smallest, got %u", icon.width);
}

static void test_malformed(void) {
	static uint32_t data[4096];
	size_t len = 0;
	struct ewmh_icon icon;
	CHECK(!ewmh_icon_choose(data, 0, 16, &icon), "empty");
	data[0] = 16;
	CHECK(!ewmh_icon_choose(data, 1, 16, &icon), "a width alone");
	data[1] = 16;
	CHECK(!ewmh_icon_choose(data, 2 + 255, 16, &icon), "one pixel short");
	uint32_t huge[] = {0xffffffff, 0xffffffff, 1, 2, 3};
	CHECK(!ewmh_icon_choose(huge, 5, 16, &icon), "huge sides");
	uint32_t overflow[] = {0x10000, 0x10000, 1};
	CHECK(!ewmh_icon_choose(overflow, 3, 16, &icon), "sides whose product wraps");
	uint32_t zero[] = {0, 5, 1};
	CHECK(!ewmh_icon_choose(zero, 3, 16, &icon), "a zero side");
	/* A good icon, then garbage: the good one is used. */
	put_icon(data, &len, 4, 4, 0xffff0000);
	data[len++] = 100;
	data[len++] = 100;
	data[len++] = 7;
	CHECK(ewmh_icon_choose(data, len, 16, &icon) && icon.width == 4,
		"good icon before a truncated one");
}

static void test_scale(void) {
	uint32_t src[2 * 1] = {0x80ff0000, 0xff00ff00}; /* 2x1: half-red, green */
	struct ewmh_icon icon = {2, 1, src};
	uint32_t dst[4 * 4];
	ewmh_icon_scale(&icon, 4, dst);
	/* 4x2 centred in 4x4: rows 1 and 2. */
	CHECK(dst[0] == 0 && dst[15] == 0, "transparent outside: %08x %08x", dst[0], dst[15]);
	CHECK(dst[4] == 0x80800000, "premultiplied half red: %08x", dst[4]);
	CHECK(dst[4 + 3] == 0xff00ff00, "green: %08x", dst[7]);
	CHECK(dst[8 + 1] == 0x80800000, "second row: %08x", dst[9]);
	uint32_t one = 0xff123456;
	struct ewmh_icon dot = {1, 1, &one};
	ewmh_icon_scale(&dot, 3, dst);
	for (int i = 0; i < 9; i++) {
		CHECK(dst[i] == 0xff123456, "1x1 fills 3x3: %d is %08x", i, dst[i]);
	}
}

int main(void) {
	test_choose();
	test_malformed();
	test_scale();
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return EXIT_FAILURE;
	}
	return EXIT_SUCCESS;
}
