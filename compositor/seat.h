/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_SEAT_H
#define ORIEL_SEAT_H

#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>
#include <wlr/util/box.h>
#include "compositor/frame_layout.h"
#include "compositor/seat_grab.h"

struct server;
struct view;
struct wlr_surface;
struct wlr_input_device;
struct xkb_keymap;

enum cursor_mode { CURSOR_PASSTHROUGH, CURSOR_MOVE, CURSOR_RESIZE };

struct seat {
	struct server *server;
	struct wlr_seat *wlr_seat;
	struct wlr_cursor *cursor;
	struct wlr_xcursor_manager *xcursor_manager;
	struct wl_list keyboards; /* keyboard.link */
	/* The keymap every keyboard shares; keysym lookups use it too. */
	struct xkb_keymap *keymap;

	/* Interactive move/resize. */
	enum cursor_mode mode;
	struct view *grabbed_view;
	double grab_x, grab_y;
	struct wlr_box grab_geometry;
	uint32_t resize_edges;
	/* The implicit grab (cursor.c): the pressed surface's layout origin. */
	bool implicit_grab;
	double implicit_grab_x, implicit_grab_y;
	/* A button pressed on a server-side frame (frame_input.c). */
	bool frame_pressed;
	struct view *frame_view; /* NULL once it went away */
	enum frame_part frame_part;
	uint32_t frame_button;
	struct frame_click frame_last_click;
	/* Keyboard move/resize (keyboard_moveresize.c). */
	struct view *key_grab_view;
	bool key_grab_resize;
	struct wlr_box key_grab_start;
	struct wlr_box key_grab_box; /* asked for; the client may not have drawn it yet */
	/* The screens oriel draws that take input (seat_grab.h). */
	struct seat_grabs grabs;

	struct wlr_relative_pointer_manager_v1 *relative_pointer;
	struct wlr_pointer_constraints_v1 *pointer_constraints;
	struct wlr_pointer_constraint_v1 *active_constraint;
	struct wlr_keyboard_shortcuts_inhibit_manager_v1 *shortcuts_inhibit;

	struct wl_listener new_input;
	struct wl_listener cursor_motion;
	struct wl_listener cursor_motion_absolute;
	struct wl_listener cursor_button;
	struct wl_listener cursor_axis;
	struct wl_listener cursor_frame;
	struct wl_listener request_set_cursor;
	struct wl_listener request_set_selection;
	struct wl_listener request_set_primary_selection;
	struct wl_listener request_start_drag;
	struct wl_listener start_drag;
	struct wl_listener new_constraint;
};

struct seat *seat_create(struct server *server);
void seat_destroy(struct seat *seat);

void seat_add_device(struct seat *seat, struct wlr_input_device *device);
/* Gives keyboard focus to surface (NULL clears it). */
void seat_focus_surface(struct seat *seat, struct wlr_surface *surface);
/* A view went away: drop grabs that point at it. */
void seat_view_gone(struct seat *seat, struct view *view);
void seat_begin_interactive(struct seat *seat, struct view *view,
	enum cursor_mode mode, uint32_t edges);
struct wlr_cursor *seat_cursor(struct seat *seat);
/* The surface at a layout point (what the pointer would enter), or NULL. */
struct wlr_surface *seat_surface_at(struct seat *seat, double lx, double ly,
	double *sx, double *sy);
/* Re-evaluates pointer focus after the scene changed under the cursor. */
void seat_update_pointer_focus(struct seat *seat, uint32_t time_msec);

/*
 * A screen takes the seat's input (seat_grab.h): grab gets every event
 * first until seat_grab_end. A modal grab takes the keyboard and pointer
 * from the clients, who get them back when it ends. False when grab is
 * begun already.
 */
bool seat_grab_begin(struct seat *seat, struct seat_grab *grab);
/* No-op when grab is not begun (or the seat is gone). */
void seat_grab_end(struct seat_grab *grab);
/* grab is offered what no begun grab took, so that it can begin. */
void seat_grab_listen(struct seat *seat, struct seat_grab *grab);
void seat_grab_unlisten(struct seat_grab *grab);

/* Pointer entry points shared by real devices and virtual input. */
void seat_pointer_motion(struct seat *seat, uint32_t time_msec);
void seat_pointer_button(struct seat *seat, uint32_t time_msec, uint32_t button,
	bool pressed);

#endif
