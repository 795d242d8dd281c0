/* SPDX-License-Identifier: MIT */
#include "compositor/keyboard_moveresize.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/view.h"

#define STEP 10

void keyboard_moveresize_begin(struct seat *seat, struct view *view, bool resize) {
	if (!view->mapped || view->fullscreen || view->maximized_axes ||
			view->server->options->kiosk) {
		return;
	}
	seat->key_grab_view = view;
	seat->key_grab_resize = resize;
	seat->key_grab_start = view->geometry;
	seat->key_grab_box = view->geometry;
}

void keyboard_moveresize_end(struct seat *seat) {
	seat->key_grab_view = NULL;
}

static bool is_modifier(xkb_keysym_t sym) {
	return (sym >= XKB_KEY_Shift_L && sym <= XKB_KEY_Hyper_R) ||
		sym == XKB_KEY_ISO_Level3_Shift;
}

bool keyboard_moveresize_key(struct seat *seat, xkb_keysym_t sym, bool pressed) {
	struct view *view = seat->key_grab_view;
	if (!view) {
		return false;
	}
	if (is_modifier(sym)) {
		return false;
	}
	if (!pressed) {
		return true;
	}
	int dx = 0, dy = 0;
	switch (sym) {
	case XKB_KEY_Left:
	case XKB_KEY_KP_Left:
		dx = -STEP;
		break;
	case XKB_KEY_Right:
	case XKB_KEY_KP_Right:
		dx = STEP;
		break;
	case XKB_KEY_Up:
	case XKB_KEY_KP_Up:
		dy = -STEP;
		break;
	case XKB_KEY_Down:
	case XKB_KEY_KP_Down:
		dy = STEP;
		break;
	case XKB_KEY_Return:
	case XKB_KEY_KP_Enter:
		keyboard_moveresize_end(seat);
		return true;
	case XKB_KEY_Escape:
		view_move_resize(view, &seat->key_grab_start);
		keyboard_moveresize_end(seat);
		return true;
	default:
		return true;
	}
	struct wlr_box box = seat->key_grab_box;
	if (seat->key_grab_resize) {
		box.width += dx;
		box.height += dy;
		if (box.width < STEP || box.height < STEP) {
			return true;
		}
	} else {
		box.x += dx;
		box.y += dy;
	}
	seat->key_grab_box = box;
	view_move_resize(view, &box);
	return true;
}
