/* SPDX-License-Identifier: MIT */
/*
 * The seat's grab dispatch (compositor/seat_grab.c): a grab gets the keys
 * and buttons while it is up, a modal one all of them, and when it ends
 * they go to the clients again; a listener is asked only what no grab
 * took, and can begin itself.
 */
#include <stdio.h>
#include "compositor/seat_grab.h"
#include "expect.h"

/* A screen that records what it got; Escape ends it, as the prompt's does. */
struct screen {
	struct seat_grab grab;
	struct seat_grabs *grabs;
	int keys, buttons, motions, cancels;
	xkb_keysym_t last_sym;
	bool take; /* a non-modal screen takes what it gets when set */
	bool begin_on_tab; /* a listener that begins on Alt+Tab */
};

static struct screen *screen_of(struct seat_grab *grab) {
	struct screen *screen = wl_container_of(grab, screen, grab);
	return screen;
}

static bool screen_key(struct seat_grab *grab, xkb_keysym_t sym, bool pressed,
		uint32_t modifiers) {
	struct screen *screen = screen_of(grab);
	screen->keys++;
	screen->last_sym = sym;
	if (pressed && sym == XKB_KEY_Escape) {
		seat_grabs_end(grab);
		return true;
	}
	if (screen->begin_on_tab && !grab->active && sym == XKB_KEY_Tab && modifiers) {
		seat_grabs_begin(screen->grabs, grab);
		return true;
	}
	return screen->take;
}

static bool screen_motion(struct seat_grab *grab, double lx, double ly) {
	screen_of(grab)->motions++;
	return false;
}

static bool screen_button(struct seat_grab *grab, double lx, double ly, uint32_t button,
		bool pressed) {
	struct screen *screen = screen_of(grab);
	screen->buttons++;
	return screen->take;
}

static void screen_cancel(struct seat_grab *grab) {
	screen_of(grab)->cancels++;
}

static const struct seat_grab_interface modal_impl = {
	.key = screen_key,
	.pointer_motion = screen_motion,
	.cancel = screen_cancel,
	.modal = true,
	.cursor = "left_ptr",
};

static const struct seat_grab_interface plain_impl = {
	.key = screen_key,
	.pointer_button = screen_button,
	.cancel = screen_cancel,
};

/* Buttons only, as the sharing badge. */
static const struct seat_grab_interface badge_impl = {
	.pointer_button = screen_button,
	.cancel = screen_cancel,
};

static bool key(struct seat_grabs *grabs, xkb_keysym_t sym, uint32_t modifiers) {
	struct seat_grab_event event = {
		.type = SEAT_GRAB_KEY, .sym = sym, .modifiers = modifiers, .pressed = true,
	};
	/* What keyboard.c asks: the grab, then the listeners. */
	return seat_grabs_offer_active(grabs, &event) ||
		seat_grabs_offer_listeners(grabs, &event);
}

static bool pointer(struct seat_grabs *grabs, enum seat_grab_event_type type) {
	struct seat_grab_event event = { .type = type, .lx = 10, .ly = 20,
		.button = 0x110, .pressed = true };
	return seat_grabs_offer_active(grabs, &event) ||
		seat_grabs_offer_listeners(grabs, &event);
}

int main(void) {
	struct seat_grabs grabs;
	seat_grabs_init(&grabs);

	/* Nothing up: every event goes to the clients. */
	EXPECT(!key(&grabs, XKB_KEY_a, 0), "a key with no grab was taken");
	EXPECT(!pointer(&grabs, SEAT_GRAB_POINTER_BUTTON), "a button with no grab was taken");
	EXPECT(!seat_grabs_modal(&grabs), "modal with no grab");

	/* A modal grab takes everything, whatever its handlers say. */
	struct screen prompt = { .grab.impl = &modal_impl, .grabs = &grabs };
	EXPECT(seat_grabs_begin(&grabs, &prompt.grab), "the prompt did not begin");
	EXPECT(!seat_grabs_begin(&grabs, &prompt.grab), "a grab began twice");
	EXPECT(seat_grabs_modal(&grabs), "the prompt is not modal");
	EXPECT(key(&grabs, XKB_KEY_a, 0), "a key reached a client under the prompt");
	EXPECT(prompt.keys == 1 && prompt.last_sym == XKB_KEY_a, "the prompt got %d keys",
		prompt.keys);
	EXPECT(pointer(&grabs, SEAT_GRAB_POINTER_BUTTON),
		"a button reached a client under the prompt");
	EXPECT(pointer(&grabs, SEAT_GRAB_POINTER_AXIS), "the wheel reached a client");
	EXPECT(pointer(&grabs, SEAT_GRAB_POINTER_MOTION), "motion reached a client");
	EXPECT(prompt.motions == 1, "the prompt got %d motions", prompt.motions);

	/* A listener hears nothing while a modal grab is up. */
	struct screen badge = { .grab.impl = &badge_impl, .grabs = &grabs, .take = true };
	seat_grabs_listen(&grabs, &badge.grab);
	pointer(&grabs, SEAT_GRAB_POINTER_BUTTON);
	EXPECT(badge.buttons == 0, "the badge heard a button under the prompt");

	/* A grab begun over another gets the events; the one below gets them after. */
	struct screen region = { .grab.impl = &modal_impl, .grabs = &grabs };
	seat_grabs_end(&prompt.grab);
	seat_grabs_begin(&grabs, &region.grab);
	seat_grabs_begin(&grabs, &prompt.grab);
	EXPECT(seat_grabs_top(&grabs) == &prompt.grab, "the prompt is not on top");
	key(&grabs, XKB_KEY_b, 0);
	EXPECT(prompt.keys == 2 && region.keys == 0, "the key went below the prompt");
	/* Escape ends the prompt from its own handler; the region selector is next. */
	EXPECT(key(&grabs, XKB_KEY_Escape, 0), "Escape reached a client");
	EXPECT(seat_grabs_top(&grabs) == &region.grab, "the region selector is not on top");
	key(&grabs, XKB_KEY_c, 0);
	EXPECT(region.keys == 1 && region.last_sym == XKB_KEY_c, "the region selector got %d keys",
		region.keys);
	EXPECT(key(&grabs, XKB_KEY_Escape, 0), "Escape reached a client");

	/* Ended: input returns to the clients, and the listener hears buttons. */
	EXPECT(seat_grabs_top(&grabs) == NULL, "a grab is left");
	EXPECT(!key(&grabs, XKB_KEY_d, 0), "a key after the grabs ended was taken");
	EXPECT(prompt.keys == 3 && region.keys == 2, "an ended grab got a key");
	EXPECT(pointer(&grabs, SEAT_GRAB_POINTER_BUTTON), "the badge did not take its button");
	EXPECT(badge.buttons == 1, "the badge got %d buttons", badge.buttons);

	/* A listener that begins on Alt+Tab, as the switcher does. */
	struct screen switcher = { .grab.impl = &plain_impl, .grabs = &grabs,
		.begin_on_tab = true };
	seat_grabs_listen(&grabs, &switcher.grab);
	badge.take = false;
	EXPECT(!key(&grabs, XKB_KEY_Tab, 0), "Tab alone was taken");
	EXPECT(key(&grabs, XKB_KEY_Tab, 1), "Alt+Tab was not taken");
	EXPECT(seat_grabs_top(&grabs) == &switcher.grab, "the switcher did not begin");
	int before = switcher.keys;
	EXPECT(!key(&grabs, XKB_KEY_Shift_L, 0), "a passed key was taken");
	EXPECT(switcher.keys == before + 1, "a begun listener was asked %d times",
		switcher.keys - before);
	EXPECT(!seat_grabs_modal(&grabs), "the switcher is modal");
	/* Its pointer events pass on to the listeners and the clients. */
	EXPECT(!pointer(&grabs, SEAT_GRAB_POINTER_MOTION), "motion was taken");

	/* The seat goes: its grabs are cancelled, and ending them is a no-op. */
	struct screen other = { .grab.impl = &modal_impl };
	struct seat_grabs second;
	seat_grabs_init(&second);
	EXPECT(!seat_grabs_begin(&second, &switcher.grab), "a grab began on two seats");
	seat_grabs_finish(&grabs);
	EXPECT(switcher.cancels == 1 && badge.cancels == 0, "cancels: switcher %d, badge %d",
		switcher.cancels, badge.cancels);
	EXPECT(switcher.grab.grabs == NULL && badge.grab.grabs == NULL,
		"a grab still points at the seat");
	EXPECT(!seat_grabs_end(&switcher.grab), "ending a cancelled grab did something");
	seat_grabs_unlisten(&badge.grab);
	EXPECT(seat_grabs_begin(&second, &other.grab), "a fresh grab did not begin");
	seat_grabs_finish(&second);
	EXPECT(other.cancels == 1, "the other seat's grab was not cancelled");
	return failures != 0;
}
