/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for capture/damage_ring.c: what a stream's frame and each
 * buffer of its ring must carry.
 */

#include <stdbool.h>
#include <stdio.h>
#include "capture/damage_ring.h"
#include "expect.h"

#define W 100
#define H 80

/* Whether region is exactly the union of the n rectangles given as x, y, w, h. */
static bool region_is(pixman_region32_t *region, int n, const int (*rects)[4]) {
	pixman_region32_t want;
	pixman_region32_init(&want);
	for (int i = 0; i < n; i++) {
		pixman_region32_union_rect(&want, &want, rects[i][0], rects[i][1],
			(unsigned)rects[i][2], (unsigned)rects[i][3]);
	}
	bool same = pixman_region32_equal(region, &want);
	pixman_region32_fini(&want);
	return same;
}

/* A buffer filled, then reused N frames later, gets just what changed since. */
static void test_reused_buffer(void) {
	struct damage_ring ring;
	damage_ring_init(&ring);
	struct damage_slot a, b, c;
	damage_slot_add(&ring, &a, W, H);
	damage_slot_add(&ring, &b, W, H);
	damage_slot_add(&ring, &c, W, H);
	static const int whole[][4] = { { 0, 0, W, H } };
	EXPECT(region_is(&a.missed, 1, whole), "a new buffer misses everything");

	/* Frame 1 fills a. */
	damage_ring_add_rect(&ring, 10, 10, 5, 5);
	pixman_region32_clear(&a.missed);
	pixman_region32_clear(&ring.pending);
	/* Frame 2 fills b, frame 3 fills c. */
	damage_ring_add_rect(&ring, 50, 20, 4, 4);
	pixman_region32_clear(&b.missed);
	pixman_region32_clear(&ring.pending);
	damage_ring_add_rect(&ring, 0, 70, 100, 2);
	static const int frame3[][4] = { { 0, 70, 100, 2 } };
	EXPECT(region_is(&ring.pending, 1, frame3), "the frame's damage is its own change");
	pixman_region32_clear(&c.missed);
	pixman_region32_clear(&ring.pending);

	/* Frame 4 reuses a: what changed in frames 2, 3 and 4, no more. */
	damage_ring_add_rect(&ring, 60, 60, 3, 3);
	static const int since_a[][4] = { { 50, 20, 4, 4 }, { 0, 70, 100, 2 }, { 60, 60, 3, 3 } };
	EXPECT(region_is(&a.missed, 3, since_a), "a misses frames 2 to 4");
	static const int since_b[][4] = { { 0, 70, 100, 2 }, { 60, 60, 3, 3 } };
	EXPECT(region_is(&b.missed, 2, since_b), "b misses frames 3 and 4");
	static const int frame4[][4] = { { 60, 60, 3, 3 } };
	EXPECT(region_is(&c.missed, 1, frame4), "c misses frame 4 only");
	EXPECT(region_is(&ring.pending, 1, frame4), "frame 4's damage");

	damage_slot_remove(&a);
	damage_slot_remove(&b);
	damage_slot_remove(&c);
	damage_ring_finish(&ring);
}

/* Damage arriving while no buffer is free merges into one frame. */
static void test_damage_merges(void) {
	struct damage_ring ring;
	damage_ring_init(&ring);
	struct damage_slot a;
	damage_slot_add(&ring, &a, W, H);
	pixman_region32_clear(&a.missed);
	pixman_region32_t r;
	pixman_region32_init_rect(&r, 0, 0, 10, 10);
	damage_ring_add(&ring, &r);
	pixman_region32_fini(&r);
	damage_ring_add_rect(&ring, 5, 5, 10, 10);
	static const int merged[][4] = { { 0, 0, 10, 10 }, { 5, 5, 10, 10 } };
	EXPECT(region_is(&ring.pending, 2, merged), "pending holds both changes");
	EXPECT(region_is(&a.missed, 2, merged), "the buffer misses both");

	/* A buffer that leaves the ring no longer collects damage. */
	damage_slot_remove(&a);
	EXPECT(wl_list_empty(&ring.slots), "the ring has no slot left");
	damage_ring_add_rect(&ring, 90, 70, 10, 10);
	damage_ring_finish(&ring);
}

int main(void) {
	test_reused_buffer();
	test_damage_merges();
	return failures ? 1 : 0;
}
