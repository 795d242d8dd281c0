/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_FRAME_INPUT_H
#define ORIEL_FRAME_INPUT_H

/*
 * The pointer on server-side frames, as window managers do it: the
 * buttons act on release over the button pressed, the title bar moves
 * (and a double-click maximizes), the border and an invisible margin
 * around it resize, with the matching cursor. Where things are is
 * frame_layout.c's business.
 */

#include <stdbool.h>
#include <stdint.h>

struct seat;
struct view;

/*
 * The pointer moved: over a frame, shows the frame's cursor and takes
 * pointer focus from clients. false when no frame is under the pointer.
 */
bool frame_input_motion(struct seat *seat);
/* A press; true when a frame took it (and no client sees it). */
bool frame_input_press(struct seat *seat, uint32_t time_msec, uint32_t button);
/* A release; true when it ends a press a frame took. */
bool frame_input_release(struct seat *seat, uint32_t button);
/* The view went away: forget a press on its frame. */
void frame_input_view_gone(struct seat *seat, struct view *view);

#endif
