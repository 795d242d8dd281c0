/* SPDX-License-Identifier: MIT */
#include "compositor/seat_grab.h"

void seat_grabs_init(struct seat_grabs *grabs) {
	wl_list_init(&grabs->active);
	wl_list_init(&grabs->listeners);
}

static void forget_if_idle(struct seat_grab *grab) {
	if (!grab->active && !grab->listening) {
		grab->grabs = NULL;
	}
}

void seat_grabs_finish(struct seat_grabs *grabs) {
	struct seat_grab *grab, *tmp;
	wl_list_for_each_safe(grab, tmp, &grabs->listeners, listen_link) {
		seat_grabs_unlisten(grab);
	}
	wl_list_for_each_safe(grab, tmp, &grabs->active, link) {
		seat_grabs_end(grab);
		if (grab->impl->cancel) {
			grab->impl->cancel(grab);
		}
	}
}

bool seat_grabs_begin(struct seat_grabs *grabs, struct seat_grab *grab) {
	if (grab->active || (grab->grabs && grab->grabs != grabs)) {
		return false;
	}
	grab->grabs = grabs;
	grab->active = true;
	wl_list_insert(&grabs->active, &grab->link);
	return true;
}

bool seat_grabs_end(struct seat_grab *grab) {
	if (!grab->active) {
		return false;
	}
	wl_list_remove(&grab->link);
	wl_list_init(&grab->link);
	grab->active = false;
	forget_if_idle(grab);
	return true;
}

void seat_grabs_listen(struct seat_grabs *grabs, struct seat_grab *grab) {
	if (grab->listening || (grab->grabs && grab->grabs != grabs)) {
		return;
	}
	grab->grabs = grabs;
	grab->listening = true;
	wl_list_insert(grabs->listeners.prev, &grab->listen_link);
}

void seat_grabs_unlisten(struct seat_grab *grab) {
	if (!grab->listening) {
		return;
	}
	wl_list_remove(&grab->listen_link);
	wl_list_init(&grab->listen_link);
	grab->listening = false;
	forget_if_idle(grab);
}

struct seat_grab *seat_grabs_top(struct seat_grabs *grabs) {
	if (wl_list_empty(&grabs->active)) {
		return NULL;
	}
	struct seat_grab *grab = wl_container_of(grabs->active.next, grab, link);
	return grab;
}

bool seat_grabs_modal(struct seat_grabs *grabs) {
	struct seat_grab *top = seat_grabs_top(grabs);
	return top && top->impl->modal;
}

static bool deliver(struct seat_grab *grab, const struct seat_grab_event *event) {
	const struct seat_grab_interface *impl = grab->impl;
	switch (event->type) {
	case SEAT_GRAB_KEY:
		return impl->key && impl->key(grab, event->sym, event->pressed,
			event->modifiers);
	case SEAT_GRAB_POINTER_MOTION:
		return impl->pointer_motion &&
			impl->pointer_motion(grab, event->lx, event->ly);
	case SEAT_GRAB_POINTER_BUTTON:
		return impl->pointer_button && impl->pointer_button(grab, event->lx,
			event->ly, event->button, event->pressed);
	case SEAT_GRAB_POINTER_AXIS:
		return impl->pointer_axis && impl->pointer_axis(grab);
	}
	return false;
}

bool seat_grabs_offer_active(struct seat_grabs *grabs,
		const struct seat_grab_event *event) {
	struct seat_grab *top = seat_grabs_top(grabs);
	if (!top) {
		return false;
	}
	/* Read first: a handler may end the grab (an answer to the prompt). */
	bool modal = top->impl->modal;
	return deliver(top, event) || modal;
}

bool seat_grabs_offer_listeners(struct seat_grabs *grabs,
		const struct seat_grab_event *event) {
	struct seat_grab *grab, *tmp;
	wl_list_for_each_safe(grab, tmp, &grabs->listeners, listen_link) {
		/* A begun listener was asked as a grab already. */
		if (!grab->active && deliver(grab, event)) {
			return true;
		}
	}
	return false;
}
