/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_SEAT_GRAB_H
#define ORIEL_SEAT_GRAB_H

/*
 * Seat grabs: the one way a screen oriel draws itself (the permission
 * prompt, the region selector, the window switcher, the sharing badge)
 * takes input. A screen fills a seat_grab_interface and either begins a
 * grab (seat_grab_begin in seat.h), which gets every event first until it
 * ends, or listens (seat_grab_listen), which offers it what no grab took,
 * so that a key or a click can start it. The seat calls the interface and
 * never a screen by name.
 *
 * The grabs are a stack: a grab begun over another one (the prompt over
 * the region selector) gets the events until it ends, then the one below
 * gets them again. Only the top grab is asked.
 *
 * This file is the dispatch alone, without wlroots; seat.c does what the
 * clients see (focus, the cursor image).
 */

#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>
#include <xkbcommon/xkbcommon.h>

struct seat_grab;

struct seat_grab_interface {
	/*
	 * Each returns true when it took the event: no client sees it. A
	 * NULL handler takes nothing. Coordinates are layout coordinates;
	 * modifiers are the ones held before the key.
	 */
	bool (*key)(struct seat_grab *grab, xkb_keysym_t sym, bool pressed,
		uint32_t modifiers);
	bool (*pointer_motion)(struct seat_grab *grab, double lx, double ly);
	bool (*pointer_button)(struct seat_grab *grab, double lx, double ly,
		uint32_t button, bool pressed);
	bool (*pointer_axis)(struct seat_grab *grab);
	/* The seat ended the grab itself (it is going away). May be NULL. */
	void (*cancel)(struct seat_grab *grab);
	/*
	 * A modal grab takes every event while it is on top, whatever its
	 * handlers answer: clients lose the keyboard and the pointer when it
	 * begins, and get them back when it ends. cursor is the xcursor
	 * image shown meanwhile.
	 */
	bool modal;
	const char *cursor;
};

struct seat_grab {
	const struct seat_grab_interface *impl;
	/* Private to the seat. */
	struct seat_grabs *grabs; /* set while begun or listening */
	bool active, listening;
	struct wl_list link;        /* seat_grabs.active */
	struct wl_list listen_link; /* seat_grabs.listeners */
};

struct seat_grabs {
	struct wl_list active;    /* seat_grab.link, the top first */
	struct wl_list listeners; /* seat_grab.listen_link, oldest first */
};

enum seat_grab_event_type {
	SEAT_GRAB_KEY,
	SEAT_GRAB_POINTER_MOTION,
	SEAT_GRAB_POINTER_BUTTON,
	SEAT_GRAB_POINTER_AXIS,
};

struct seat_grab_event {
	enum seat_grab_event_type type;
	xkb_keysym_t sym;       /* key */
	uint32_t modifiers;     /* key */
	double lx, ly;          /* pointer */
	uint32_t button;        /* button */
	bool pressed;           /* key, button */
};

void seat_grabs_init(struct seat_grabs *grabs);
/* Cancels every grab and drops every listener: their ends are no-ops then. */
void seat_grabs_finish(struct seat_grabs *grabs);

/* Puts grab on top; false when it is already begun. impl must be set. */
bool seat_grabs_begin(struct seat_grabs *grabs, struct seat_grab *grab);
/* Ends grab wherever it is in the stack; true when it was begun. */
bool seat_grabs_end(struct seat_grab *grab);
void seat_grabs_listen(struct seat_grabs *grabs, struct seat_grab *grab);
void seat_grabs_unlisten(struct seat_grab *grab);

/* The grab that gets events first, or NULL. */
struct seat_grab *seat_grabs_top(struct seat_grabs *grabs);
/* True while the top grab is modal. */
bool seat_grabs_modal(struct seat_grabs *grabs);

/* Offers event to the top grab: true when it took it. */
bool seat_grabs_offer_active(struct seat_grabs *grabs,
	const struct seat_grab_event *event);
/*
 * Offers event to the listeners that are not begun, oldest first, until
 * one takes it: true when one did.
 */
bool seat_grabs_offer_listeners(struct seat_grabs *grabs,
	const struct seat_grab_event *event);

#endif
