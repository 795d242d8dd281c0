/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REGION_SELECT_H
#define ORIEL_REGION_SELECT_H

/*
 * The region selector: the person drags a rectangle on the screen with
 * the left button, for an interactive screenshot. oriel draws it above
 * every window (LAYER_SYSTEM, like the prompt): every output dimmed but
 * the rectangle under the drag, which has a frame. The release answers
 * the rectangle (region_geometry.c: either direction, cut to the
 * layout); a release that covers no pixel lets the person drag again.
 * Escape, or no answer in the timeout, cancels. While it is up it takes
 * all pointer and keyboard input as a modal seat grab (seat_grab.h);
 * clients get none.
 */

#include <stdbool.h>
#include <stdint.h>
#include "compositor/placement.h"

struct server;
struct region_select;

/*
 * Called once: selected with the box in layout coordinates, or not
 * (cancelled, timed out). The callee may destroy the selector from it.
 */
typedef void (*region_select_fn)(bool selected, const struct placement_box *box,
	void *data);

/*
 * Shows the selector and takes the seat's input. NULL when the prompt or
 * another selector is up, or there is no output.
 */
struct region_select *region_select_create(struct server *server, uint32_t timeout_ms,
	region_select_fn fn, void *data);
/* Takes it down without an answer; NULL is a no-op. */
void region_select_destroy(struct region_select *select);

#endif
