/* SPDX-License-Identifier: MIT */
#include <linux/input-event-codes.h>
#include <linux/sockios.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <wlr/backend/headless.h>
#include <wlr/interfaces/wlr_input_device.h>
#include <wlr/interfaces/wlr_keyboard.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_pointer.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/util/log.h>
#include <xkbcommon/xkbcommon.h>
#include "capture/keysym_map.h"
#include "capture/keysym_spare.h"
#include "capture/virtual_input.h"
#include "compositor/output.h"
#include "compositor/seat.h"
#include "compositor/server.h"
#include "common/util.h"

/* wlr_keyboard tracks at most this many pressed keys; more would desync. */
#define MAX_KEYS_DOWN WLR_KEYBOARD_KEYS_CAP
#define N_BUTTONS (BTN_TASK - BTN_LEFT + 1)
/* Matches libinput's degrees per wheel click, which clients expect. */
#define AXIS_DEGREES_PER_STEP 15.0
/* More clicks than this in one event is a confused or hostile peer. */
#define MAX_AXIS_STEPS 100.0
/* Modifier keys pressed for keysyms; a layout switch can add new ones. */
#define MAX_SYNTHETIC_MODIFIERS (2 * KEYSYM_MAP_MAX_MODIFIERS)
/* Keysyms bound to spare keycodes at once. */
#define MAX_SPARE_BINDINGS 8
/*
 * How long spare bindings outlive their last use, and the focused
 * client's reading of it. X clients look keysyms up when they read the
 * event, so the keymap must not change back under events still queued
 * at the client.
 */
#define SPARE_RESTORE_MS 1000
/* The highest keycode the X11 protocol can carry. */
#define MAX_X11_KEYCODE 255

/* A keysym the peer holds, and the modifier keys pressed for it. */
struct held_keysym {
	xkb_keysym_t sym;
	uint32_t keycode;
	size_t n_modifiers;
	uint32_t modifiers[KEYSYM_MAP_MAX_MODIFIERS];
};

/* A modifier key held for keysyms, down while any of them needs it. */
struct synthetic_modifier {
	uint32_t keycode;
	int refs;
};

struct virtual_input {
	struct server *server;
	struct wlr_input_device *keyboard;
	struct wlr_input_device *pointer;

	uint8_t keys_down[(KEY_MAX + 1 + 7) / 8];
	int n_keys_down;
	uint32_t buttons_down; /* bit i: BTN_LEFT + i */

	struct held_keysym held[MAX_KEYS_DOWN];
	size_t n_held;
	struct synthetic_modifier synthetic[MAX_SYNTHETIC_MODIFIERS];
	size_t n_synthetic;

	/* Keysyms the keymap lacks, on spare keycodes (keysym_spare.c). */
	struct xkb_keymap *base_keymap; /* the keymap to go back to; NULL: none bound */
	struct keysym_spare_binding spare[MAX_SPARE_BINDINGS];
	size_t n_spare;
	struct wl_event_source *spare_timer;

	struct wl_listener keyboard_destroy;
	struct wl_listener pointer_destroy;
};

static uint32_t now_msec(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint32_t)((uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

static bool key_is_down(struct virtual_input *vi, uint32_t keycode) {
	return vi->keys_down[keycode / 8] & (1u << (keycode % 8));
}

/* The keyboard once the seat gave it the keymap (after server_start). */
static struct wlr_keyboard *ready_keyboard(struct virtual_input *vi) {
	if (!vi || !vi->keyboard || !vi->keyboard->keyboard->xkb_state) {
		return NULL;
	}
	return vi->keyboard->keyboard;
}

/* Presses or releases one key through the device; repeats change nothing. */
static bool send_key(struct virtual_input *vi, uint32_t keycode, bool pressed) {
	struct wlr_keyboard *keyboard = ready_keyboard(vi);
	if (!keyboard || keycode == KEY_RESERVED || keycode > KEY_MAX) {
		return false;
	}
	if (key_is_down(vi, keycode) == pressed) {
		return true; /* a second press would count xkb modifiers twice */
	}
	if (pressed && vi->n_keys_down >= MAX_KEYS_DOWN) {
		return false;
	}
	vi->keys_down[keycode / 8] ^= 1u << (keycode % 8);
	vi->n_keys_down += pressed ? 1 : -1;
	struct wlr_event_keyboard_key event = {
		.time_msec = now_msec(),
		.keycode = keycode,
		.update_state = true, /* like libinput: wlroots runs the xkb state */
		.state = pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED,
	};
	wlr_keyboard_notify_key(keyboard, &event);
	return true;
}

bool virtual_input_keycode(struct virtual_input *vi, uint32_t evdev_keycode, bool pressed) {
	return send_key(vi, evdev_keycode, pressed);
}

static struct synthetic_modifier *find_synthetic(struct virtual_input *vi,
		uint32_t keycode) {
	for (size_t i = 0; i < vi->n_synthetic; i++) {
		if (vi->synthetic[i].keycode == keycode) {
			return &vi->synthetic[i];
		}
	}
	return NULL;
}

static bool acquire_synthetic(struct virtual_input *vi, uint32_t keycode) {
	struct synthetic_modifier *mod = find_synthetic(vi, keycode);
	if (!mod) {
		if (vi->n_synthetic == MAX_SYNTHETIC_MODIFIERS || !send_key(vi, keycode, true)) {
			return false;
		}
		mod = &vi->synthetic[vi->n_synthetic++];
		*mod = (struct synthetic_modifier){ .keycode = keycode };
	}
	mod->refs++;
	return true;
}

static void release_synthetic(struct virtual_input *vi, uint32_t keycode) {
	struct synthetic_modifier *mod = find_synthetic(vi, keycode);
	if (!mod || --mod->refs > 0) {
		return;
	}
	send_key(vi, keycode, false);
	*mod = vi->synthetic[--vi->n_synthetic];
}

static struct held_keysym *find_held(struct virtual_input *vi, xkb_keysym_t sym,
		uint32_t keycode) {
	for (size_t i = 0; i < vi->n_held; i++) {
		if ((sym != XKB_KEY_NoSymbol && vi->held[i].sym == sym) ||
				(sym == XKB_KEY_NoSymbol && vi->held[i].keycode == keycode)) {
			return &vi->held[i];
		}
	}
	return NULL;
}

static void release_held(struct virtual_input *vi, struct held_keysym *held) {
	send_key(vi, held->keycode, false);
	for (size_t i = 0; i < held->n_modifiers; i++) {
		release_synthetic(vi, held->modifiers[i]);
	}
	*held = vi->held[--vi->n_held];
}

/* The keymap and layout keysyms are looked up in, as the seat has them now. */
static struct xkb_keymap *active_keymap(struct wlr_keyboard *keyboard,
		xkb_layout_index_t *layout) {
	*layout = xkb_state_serialize_layout(keyboard->xkb_state,
		XKB_STATE_LAYOUT_EFFECTIVE);
	return keyboard->keymap;
}

/* The modifier keys the peer holds that are lifted around a keysym's key. */
enum lift {
	LIFT_LEVELS, /* Shift and AltGr, where the keysym's level needs them not */
	LIFT_ALT,    /* Alt too */
	LIFT_ALL,    /* Ctrl too */
};

/*
 * Down keys whose modifier the mapping must not have: a peer holding Shift
 * sends '@', which a de keymap makes AltGr+Q, and Shift+AltGr+Q is not '@'.
 * For a character, Alt is one too: the peer's AltGr may be Alt here; and
 * for a character the peer's AltGr made, Ctrl as well: Windows sends AltGr
 * as Ctrl+Alt. Such keys are lifted around the key press and put back
 * after it.
 */
static size_t unwanted_modifier_keys(struct virtual_input *vi, struct xkb_keymap *keymap,
		xkb_layout_index_t layout, const struct keysym_mapping *mapping, enum lift lift,
		uint32_t out[MAX_KEYS_DOWN]) {
	static const xkb_keysym_t modifier_syms[] = {
		XKB_KEY_Shift_L, XKB_KEY_Shift_R, XKB_KEY_ISO_Level3_Shift,
		XKB_KEY_Alt_L, XKB_KEY_Alt_R, XKB_KEY_Meta_L, XKB_KEY_Meta_R,
		XKB_KEY_Control_L, XKB_KEY_Control_R,
	};
	static const size_t n_lifted[] = { [LIFT_LEVELS] = 3, [LIFT_ALT] = 7,
		[LIFT_ALL] = ARRAY_LEN(modifier_syms) };
	size_t n_syms = n_lifted[lift];
	size_t n = 0;
	for (uint32_t keycode = 1; keycode <= KEY_MAX && n < MAX_KEYS_DOWN; keycode++) {
		if (!key_is_down(vi, keycode)) {
			continue;
		}
		struct keysym_modifier modifier;
		for (size_t s = 0; s < n_syms; s++) {
			const xkb_keysym_t *syms;
			int n_syms = xkb_keymap_key_get_syms_by_level(keymap, keycode + 8,
				layout, 0, &syms);
			if (n_syms == 1 && syms[0] == modifier_syms[s] &&
					keysym_map_modifier_key(keymap, layout, modifier_syms[s], &modifier) &&
					(modifier.mask & ~mapping->mods)) {
				out[n++] = keycode;
				break;
			}
		}
	}
	return n;
}

/*
 * Gives the virtual keyboard (only) a keymap; its clients, Xwayland among
 * them, get it before the next key. Held keys and the locked layout and
 * modifiers carry over: the keymaps differ only in spare keys.
 */
static bool set_keymap(struct wlr_keyboard *keyboard, struct xkb_keymap *keymap) {
	struct wlr_keyboard_modifiers mods = keyboard->modifiers;
	if (!wlr_keyboard_set_keymap(keyboard, keymap)) {
		return false;
	}
	wlr_keyboard_notify_modifiers(keyboard, mods.depressed, mods.latched,
		mods.locked, mods.group);
	return true;
}

static bool spare_is_down(struct virtual_input *vi) {
	for (size_t i = 0; i < vi->n_spare; i++) {
		if (key_is_down(vi, vi->spare[i].keycode - 8)) {
			return true;
		}
	}
	return false;
}

static void spare_restore(struct virtual_input *vi) {
	if (!vi->base_keymap) {
		return;
	}
	struct wlr_keyboard *keyboard = vi->keyboard ? vi->keyboard->keyboard : NULL;
	if (keyboard && keyboard->xkb_state) {
		set_keymap(keyboard, vi->base_keymap);
	}
	xkb_keymap_unref(vi->base_keymap);
	vi->base_keymap = NULL;
	vi->n_spare = 0;
	wl_event_source_timer_update(vi->spare_timer, 0);
	wlr_log(WLR_DEBUG, "Spare keycodes are free again: the keymap is as it was");
}

/*
 * Whether the keyboard's focused client has not read all it was sent.
 * Xwayland applies a keymap the moment it reads it, but the keys read
 * with it only after: a keymap restored while a busy Xwayland has not
 * read the keys typed on spare keycodes yet would make them type nothing.
 */
static bool focus_unread(struct virtual_input *vi) {
	struct wlr_seat_client *focus =
		vi->server->seat->wlr_seat->keyboard_state.focused_client;
	if (!focus) {
		return false;
	}
	wl_client_flush(focus->client);
	int unread = 0;
	return ioctl(wl_client_get_fd(focus->client), SIOCOUTQ, &unread) == 0 && unread > 0;
}

static int handle_spare_timer(void *data) {
	struct virtual_input *vi = data;
	if (spare_is_down(vi)) {
		wl_event_source_timer_update(vi->spare_timer, SPARE_RESTORE_MS);
		return 0;
	}
	if (focus_unread(vi)) {
		wlr_log(WLR_DEBUG, "Keysyms stay on spare keycodes: the focused client has "
			"not read its keys yet");
		wl_event_source_timer_update(vi->spare_timer, SPARE_RESTORE_MS);
		return 0;
	}
	spare_restore(vi);
	return 0;
}

static void spare_touch(struct virtual_input *vi, uint32_t evdev_keycode) {
	for (size_t i = 0; i < vi->n_spare; i++) {
		if (vi->spare[i].keycode == evdev_keycode + 8) {
			wl_event_source_timer_update(vi->spare_timer, SPARE_RESTORE_MS);
			return;
		}
	}
}

/* Binds sym to a spare keycode of the keymap; false when none is free. */
static bool spare_bind(struct virtual_input *vi, struct wlr_keyboard *keyboard,
		xkb_keysym_t sym) {
	if (!vi->spare_timer) {
		return false;
	}
	struct xkb_keymap *base = vi->base_keymap ? vi->base_keymap : keyboard->keymap;
	xkb_keycode_t free_keycodes[MAX_SPARE_BINDINGS];
	size_t n_free = keysym_spare_find(base, free_keycodes, MAX_SPARE_BINDINGS);
	struct keysym_spare_binding bindings[MAX_SPARE_BINDINGS];
	size_t n = vi->n_spare;
	memcpy(bindings, vi->spare, n * sizeof(bindings[0]));
	if (n < n_free) {
		bindings[n] = (struct keysym_spare_binding){ free_keycodes[n], sym };
		n++;
	} else {
		/* All in use: rebind the oldest one that is not held. */
		size_t i = 0;
		while (i < n && key_is_down(vi, bindings[i].keycode - 8)) {
			i++;
		}
		if (i == n) {
			return false;
		}
		xkb_keycode_t keycode = bindings[i].keycode;
		memmove(&bindings[i], &bindings[i + 1], (n - i - 1) * sizeof(bindings[0]));
		bindings[n - 1] = (struct keysym_spare_binding){ keycode, sym };
	}
	struct xkb_keymap *keymap = keysym_spare_keymap(base, bindings, n);
	if (!keymap) {
		wlr_log(WLR_ERROR, "Cannot build a keymap with keysym 0x%x on a spare key", sym);
		return false;
	}
	if (!vi->base_keymap) {
		vi->base_keymap = xkb_keymap_ref(keyboard->keymap);
	}
	bool ok = set_keymap(keyboard, keymap);
	xkb_keymap_unref(keymap);
	if (!ok) {
		spare_restore(vi);
		return false;
	}
	memcpy(vi->spare, bindings, n * sizeof(bindings[0]));
	vi->n_spare = n;
	wl_event_source_timer_update(vi->spare_timer, SPARE_RESTORE_MS);
	wlr_log(WLR_DEBUG, "Keysym 0x%x is on spare keycode %u for now", sym,
		bindings[n - 1].keycode - 8);
	return true;
}

static bool press_keysym(struct virtual_input *vi, struct wlr_keyboard *keyboard,
		xkb_keysym_t sym, enum lift lift) {
	if (find_held(vi, sym, 0)) {
		return true; /* peers repeat presses for autorepeat; clients repeat */
	}
	if (vi->n_held == MAX_KEYS_DOWN) {
		return false;
	}
	xkb_layout_index_t layout;
	struct xkb_keymap *keymap = active_keymap(keyboard, &layout);
	struct keysym_mapping mapping;
	/*
	 * No key, or only one above X11's keycode 255 (us has EuroSign on
	 * KEY_EURO): bind a spare key that X clients can receive too.
	 */
	bool found = keysym_map_lookup(keymap, layout, sym, &mapping);
	if (!found || mapping.keycode + 8 > MAX_X11_KEYCODE) {
		if (spare_bind(vi, keyboard, sym)) {
			keymap = active_keymap(keyboard, &layout);
			found = keysym_map_lookup(keymap, layout, sym, &mapping);
		}
		if (!found) {
			return false;
		}
	}
	spare_touch(vi, mapping.keycode);
	if (key_is_down(vi, mapping.keycode)) {
		/* Another keysym of the same key is down: lift it first. */
		struct held_keysym *other = find_held(vi, XKB_KEY_NoSymbol, mapping.keycode);
		if (other) {
			release_held(vi, other);
		} else {
			send_key(vi, mapping.keycode, false);
		}
	}

	struct held_keysym held = { .sym = sym, .keycode = mapping.keycode };
	xkb_mod_mask_t active = keyboard->modifiers.depressed | keyboard->modifiers.latched;
	for (size_t i = 0; i < mapping.n_modifiers; i++) {
		const struct keysym_modifier *modifier = &mapping.modifiers[i];
		/* The peer holds it already (and not for another keysym): leave it. */
		if ((active & modifier->mask) == modifier->mask &&
				!find_synthetic(vi, modifier->keycode)) {
			continue;
		}
		if (!acquire_synthetic(vi, modifier->keycode)) {
			for (size_t j = 0; j < held.n_modifiers; j++) {
				release_synthetic(vi, held.modifiers[j]);
			}
			return false;
		}
		held.modifiers[held.n_modifiers++] = modifier->keycode;
	}

	uint32_t lifted[MAX_KEYS_DOWN];
	size_t n_lifted = unwanted_modifier_keys(vi, keymap, layout, &mapping, lift, lifted);
	for (size_t i = 0; i < n_lifted; i++) {
		send_key(vi, lifted[i], false);
	}
	bool ok = send_key(vi, mapping.keycode, true);
	for (size_t i = 0; i < n_lifted; i++) {
		send_key(vi, lifted[i], true);
	}
	if (!ok) {
		for (size_t j = 0; j < held.n_modifiers; j++) {
			release_synthetic(vi, held.modifiers[j]);
		}
		return false;
	}
	vi->held[vi->n_held++] = held;
	return true;
}

static bool release_keysym(struct virtual_input *vi, struct wlr_keyboard *keyboard,
		xkb_keysym_t sym) {
	struct held_keysym *held = find_held(vi, sym, 0);
	if (held) {
		release_held(vi, held);
		return true;
	}
	/*
	 * Peers may release a different keysym of the same key, e.g. 'a' for
	 * 'A' once Shift went up first: release whatever holds that key.
	 */
	xkb_layout_index_t layout;
	struct xkb_keymap *keymap = active_keymap(keyboard, &layout);
	struct keysym_mapping mapping;
	if (!keysym_map_lookup(keymap, layout, sym, &mapping)) {
		return false;
	}
	held = find_held(vi, XKB_KEY_NoSymbol, mapping.keycode);
	if (held) {
		release_held(vi, held);
	} else {
		send_key(vi, mapping.keycode, false);
	}
	return true;
}

bool virtual_input_keysym(struct virtual_input *vi, uint32_t keysym, bool pressed) {
	struct wlr_keyboard *keyboard = ready_keyboard(vi);
	if (!keyboard || keysym == XKB_KEY_NoSymbol) {
		return false;
	}
	return pressed ? press_keysym(vi, keyboard, keysym, LIFT_LEVELS) :
		release_keysym(vi, keyboard, keysym);
}

bool virtual_input_character(struct virtual_input *vi, uint32_t keysym, bool pressed) {
	struct wlr_keyboard *keyboard = ready_keyboard(vi);
	if (!keyboard || keysym == XKB_KEY_NoSymbol) {
		return false;
	}
	return pressed ? press_keysym(vi, keyboard, keysym, LIFT_ALT) :
		release_keysym(vi, keyboard, keysym);
}

bool virtual_input_keysym_alone(struct virtual_input *vi, uint32_t keysym, bool pressed) {
	struct wlr_keyboard *keyboard = ready_keyboard(vi);
	if (!keyboard || keysym == XKB_KEY_NoSymbol) {
		return false;
	}
	return pressed ? press_keysym(vi, keyboard, keysym, LIFT_ALL) :
		release_keysym(vi, keyboard, keysym);
}

void virtual_input_sync_locks(struct virtual_input *vi, bool caps, bool num, bool scroll) {
	struct wlr_keyboard *keyboard = ready_keyboard(vi);
	if (!keyboard) {
		return;
	}
	const struct { const char *led; uint32_t key; bool on; } locks[] = {
		{ XKB_LED_NAME_CAPS, KEY_CAPSLOCK, caps },
		{ XKB_LED_NAME_NUM, KEY_NUMLOCK, num },
		{ XKB_LED_NAME_SCROLL, KEY_SCROLLLOCK, scroll },
	};
	for (size_t i = 0; i < ARRAY_LEN(locks); i++) {
		xkb_led_index_t led = xkb_keymap_led_get_index(keyboard->keymap, locks[i].led);
		if (led == XKB_LED_INVALID || key_is_down(vi, locks[i].key)) {
			continue;
		}
		int active = xkb_state_led_index_is_active(keyboard->xkb_state, led);
		if (active >= 0 && (active > 0) != locks[i].on) {
			send_key(vi, locks[i].key, true);
			send_key(vi, locks[i].key, false);
		}
	}
}

static void emit_frame(struct virtual_input *vi) {
	wl_signal_emit(&vi->pointer->pointer->events.frame, vi->pointer->pointer);
}

bool virtual_input_pointer_motion_absolute(struct virtual_input *vi, double lx, double ly) {
	if (!vi || !vi->pointer || !isfinite(lx) || !isfinite(ly) ||
			!output_at(vi->server, lx, ly)) {
		return false;
	}
	/* wlr_cursor maps an unmapped device's 0..1 onto the layout's extents. */
	struct wlr_box *extents = wlr_output_layout_get_box(vi->server->output_layout, NULL);
	if (!extents || extents->width <= 0 || extents->height <= 0) {
		return false;
	}
	struct wlr_event_pointer_motion_absolute event = {
		.device = vi->pointer,
		.time_msec = now_msec(),
		.x = (lx - extents->x) / extents->width,
		.y = (ly - extents->y) / extents->height,
	};
	wl_signal_emit(&vi->pointer->pointer->events.motion_absolute, &event);
	emit_frame(vi);
	return true;
}

static void send_button(struct virtual_input *vi, uint32_t button, bool pressed) {
	uint32_t bit = 1u << (button - BTN_LEFT);
	if (!!(vi->buttons_down & bit) == pressed) {
		return; /* the seat counts buttons: a repeat would leave one stuck */
	}
	vi->buttons_down ^= bit;
	struct wlr_event_pointer_button event = {
		.device = vi->pointer,
		.time_msec = now_msec(),
		.button = button,
		.state = pressed ? WLR_BUTTON_PRESSED : WLR_BUTTON_RELEASED,
	};
	wl_signal_emit(&vi->pointer->pointer->events.button, &event);
	emit_frame(vi);
}

void virtual_input_pointer_button(struct virtual_input *vi, uint32_t evdev_button,
		bool pressed) {
	if (!vi || !vi->pointer || evdev_button < BTN_LEFT || evdev_button > BTN_TASK) {
		return;
	}
	send_button(vi, evdev_button, pressed);
}

void virtual_input_pointer_axis(struct virtual_input *vi, uint32_t axis, double steps) {
	if (!vi || !vi->pointer || axis > 1 || !isfinite(steps) || steps == 0 ||
			fabs(steps) > MAX_AXIS_STEPS) {
		return;
	}
	struct wlr_event_pointer_axis event = {
		.device = vi->pointer,
		.time_msec = now_msec(),
		.source = WLR_AXIS_SOURCE_WHEEL,
		.orientation = axis == 0 ?
			WLR_AXIS_ORIENTATION_VERTICAL : WLR_AXIS_ORIENTATION_HORIZONTAL,
		.delta = steps * AXIS_DEGREES_PER_STEP,
		.delta_discrete = (int32_t)lround(steps),
	};
	wl_signal_emit(&vi->pointer->pointer->events.axis, &event);
	emit_frame(vi);
}

void virtual_input_release_all(struct virtual_input *vi) {
	if (!vi) {
		return;
	}
	while (vi->n_held > 0) {
		release_held(vi, &vi->held[vi->n_held - 1]);
	}
	vi->n_synthetic = 0;
	for (uint32_t keycode = 1; keycode <= KEY_MAX && vi->n_keys_down > 0; keycode++) {
		if (key_is_down(vi, keycode) && !send_key(vi, keycode, false)) {
			/* The keyboard is gone: nobody is left to tell. */
			vi->keys_down[keycode / 8] &= ~(1u << (keycode % 8));
			vi->n_keys_down--;
		}
	}
	for (uint32_t i = 0; i < N_BUTTONS; i++) {
		if (vi->pointer && (vi->buttons_down & (1u << i))) {
			send_button(vi, BTN_LEFT + i, false);
		}
	}
	vi->buttons_down = 0;
}

/* The backend may destroy the devices first (server_finish): forget them. */
static void handle_keyboard_destroy(struct wl_listener *listener, void *data) {
	struct virtual_input *vi = wl_container_of(listener, vi, keyboard_destroy);
	wl_list_remove(&vi->keyboard_destroy.link);
	wl_list_init(&vi->keyboard_destroy.link);
	vi->keyboard = NULL;
	xkb_keymap_unref(vi->base_keymap);
	vi->base_keymap = NULL;
	vi->n_spare = 0;
}

static void handle_pointer_destroy(struct wl_listener *listener, void *data) {
	struct virtual_input *vi = wl_container_of(listener, vi, pointer_destroy);
	wl_list_remove(&vi->pointer_destroy.link);
	wl_list_init(&vi->pointer_destroy.link);
	vi->pointer = NULL;
}

struct virtual_input *virtual_input_create(struct server *server) {
	if (!server->input_backend || !wlr_backend_is_headless(server->input_backend)) {
		wlr_log(WLR_ERROR, "Virtual input needs the headless input backend");
		return NULL;
	}
	struct virtual_input *vi = zalloc(sizeof(*vi));
	vi->server = server;
	vi->spare_timer = wl_event_loop_add_timer(
		wl_display_get_event_loop(server->display), handle_spare_timer, vi);
	wl_list_init(&vi->keyboard_destroy.link);
	wl_list_init(&vi->pointer_destroy.link);

	/*
	 * The backend announces them through new_input when it starts; the
	 * seat then gives the keyboard the shared keymap and attaches the
	 * pointer to the cursor, as for any hardware.
	 */
	vi->keyboard = wlr_headless_add_input_device(server->input_backend,
		WLR_INPUT_DEVICE_KEYBOARD);
	vi->pointer = wlr_headless_add_input_device(server->input_backend,
		WLR_INPUT_DEVICE_POINTER);
	if (!vi->keyboard || !vi->pointer) {
		wlr_log(WLR_ERROR, "Cannot create the virtual input devices");
		wlr_input_device_destroy(vi->keyboard);
		wlr_input_device_destroy(vi->pointer);
		if (vi->spare_timer) {
			wl_event_source_remove(vi->spare_timer);
		}
		free(vi);
		return NULL;
	}
	vi->keyboard_destroy.notify = handle_keyboard_destroy;
	wl_signal_add(&vi->keyboard->events.destroy, &vi->keyboard_destroy);
	vi->pointer_destroy.notify = handle_pointer_destroy;
	wl_signal_add(&vi->pointer->events.destroy, &vi->pointer_destroy);
	return vi;
}

void virtual_input_destroy(struct virtual_input *vi) {
	if (!vi) {
		return;
	}
	/* Clients must not see keys or buttons stuck down. */
	virtual_input_release_all(vi);
	spare_restore(vi);
	if (vi->spare_timer) {
		wl_event_source_remove(vi->spare_timer);
	}
	wl_list_remove(&vi->keyboard_destroy.link);
	wl_list_remove(&vi->pointer_destroy.link);
	wlr_input_device_destroy(vi->keyboard);
	wlr_input_device_destroy(vi->pointer);
	free(vi);
}
