/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_DAMAGE_RING_H
#define ORIEL_CAPTURE_DAMAGE_RING_H

/*
 * The damage a stream of frames has to send, for a ring of buffers that
 * are each filled now and then: `pending` is what changed since the last
 * frame went out (its damage metadata), and each slot's `missed` is what
 * changed since that buffer was last filled. A buffer reused after N
 * frames is thus brought up to date with the union of what changed since
 * it was filled, and no more.
 *
 * Pure: pixman regions only, so unit tests link it directly.
 */

#include <pixman.h>
#include <wayland-util.h>

struct damage_ring {
	pixman_region32_t pending;
	struct wl_list slots; /* damage_slot.link */
};

struct damage_slot {
	pixman_region32_t missed;
	struct wl_list link;
};

void damage_ring_init(struct damage_ring *ring);
/* The slots must have been removed. */
void damage_ring_finish(struct damage_ring *ring);

/* Something changed: pending and every slot's missed grow by it. */
void damage_ring_add(struct damage_ring *ring, const pixman_region32_t *damage);
void damage_ring_add_rect(struct damage_ring *ring, int x, int y, int width, int height);

/* A new buffer of width x height: it misses everything. */
void damage_slot_add(struct damage_ring *ring, struct damage_slot *slot,
	int width, int height);
void damage_slot_remove(struct damage_slot *slot);

#endif
