/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_KEYBOARD_MOVERESIZE_H
#define ORIEL_KEYBOARD_MOVERESIZE_H

/*
 * Moving or resizing a window with the keyboard (EWMH
 * _NET_WM_MOVERESIZE_MOVE_KEYBOARD and _SIZE_KEYBOARD): the arrow keys move
 * the window, or its right and bottom edges, in steps; Return keeps the
 * result and Escape puts the window back. The keys go to no client meanwhile.
 */

#include <stdbool.h>
#include <xkbcommon/xkbcommon.h>

struct seat;
struct view;

void keyboard_moveresize_begin(struct seat *seat, struct view *view, bool resize);
/* Ends the grab where the window is (also when the view goes away). */
void keyboard_moveresize_end(struct seat *seat);
/* A key while a grab is on: true when the grab took it. */
bool keyboard_moveresize_key(struct seat *seat, xkb_keysym_t sym, bool pressed);

#endif
