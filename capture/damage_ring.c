/* SPDX-License-Identifier: MIT */
#include "capture/damage_ring.h"

void damage_ring_init(struct damage_ring *ring) {
	pixman_region32_init(&ring->pending);
	wl_list_init(&ring->slots);
}

void damage_ring_finish(struct damage_ring *ring) {
	pixman_region32_fini(&ring->pending);
}

void damage_ring_add(struct damage_ring *ring, const pixman_region32_t *damage) {
	pixman_region32_t *region = (pixman_region32_t *)damage; /* pixman takes no const */
	pixman_region32_union(&ring->pending, &ring->pending, region);
	struct damage_slot *slot;
	wl_list_for_each(slot, &ring->slots, link) {
		pixman_region32_union(&slot->missed, &slot->missed, region);
	}
}

void damage_ring_add_rect(struct damage_ring *ring, int x, int y, int width, int height) {
	pixman_region32_t rect;
	pixman_region32_init_rect(&rect, x, y, (unsigned)width, (unsigned)height);
	damage_ring_add(ring, &rect);
	pixman_region32_fini(&rect);
}

void damage_slot_add(struct damage_ring *ring, struct damage_slot *slot,
		int width, int height) {
	pixman_region32_init_rect(&slot->missed, 0, 0, (unsigned)width, (unsigned)height);
	wl_list_insert(&ring->slots, &slot->link);
}

void damage_slot_remove(struct damage_slot *slot) {
	pixman_region32_fini(&slot->missed);
	wl_list_remove(&slot->link);
}
