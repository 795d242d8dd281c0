/* SPDX-License-Identifier: MIT */
/* orielctl: pointer and key. */

#include <linux/input-event-codes.h>
#include <stdlib.h>
#include <string.h>
#include <xkbcommon/xkbcommon.h>
#include "common/utf8.h"
#include "tools/orielctl.h"

enum action { ACTION_PRESS, ACTION_RELEASE, ACTION_BOTH };

/* press|release and the word for both (click or tap); the default is both. */
static bool parse_action(struct ctl *ctl, int index, const char *both,
		enum action *action) {
	*action = ACTION_BOTH;
	if (index >= ctl->n_args) {
		return true;
	}
	const char *s = ctl->args[index];
	if (strcmp(s, "press") == 0) {
		*action = ACTION_PRESS;
	} else if (strcmp(s, "release") == 0) {
		*action = ACTION_RELEASE;
	} else if (strcmp(s, both) != 0) {
		ctl_usage_error("'%s' is not press, release or %s", s, both);
		return false;
	}
	return true;
}

/* Sends method(value, pressed) for a press, a release or both. */
static int press_release(struct ctl *ctl, const char *method, uint32_t value,
		enum action action) {
	if (action != ACTION_RELEASE &&
			!ctl_call(ctl, CTL_IFACE_INPUT, method, NULL, "ub", value, 1)) {
		return CTL_EXIT_FAILURE;
	}
	if (action != ACTION_PRESS &&
			!ctl_call(ctl, CTL_IFACE_INPUT, method, NULL, "ub", value, 0)) {
		return CTL_EXIT_FAILURE;
	}
	return CTL_EXIT_OK;
}

static int pointer_move(struct ctl *ctl) {
	double x, y;
	if (ctl->n_args != 3) {
		return ctl_usage_error("usage: orielctl pointer move X Y");
	}
	if (!ctl_parse_double(ctl->args[1], &x) || !ctl_parse_double(ctl->args[2], &y)) {
		return ctl_usage_error("'%s %s' is not a position", ctl->args[1],
			ctl->args[2]);
	}
	return ctl_call(ctl, CTL_IFACE_INPUT, "PointerMotionAbsolute", NULL, "dd", x, y) ?
		CTL_EXIT_OK : CTL_EXIT_FAILURE;
}

static bool parse_button(const char *s, uint32_t *button) {
	static const struct { const char *name; uint32_t code; } names[] = {
		{ "left", BTN_LEFT },
		{ "right", BTN_RIGHT },
		{ "middle", BTN_MIDDLE },
		{ "side", BTN_SIDE },
		{ "extra", BTN_EXTRA },
		{ "forward", BTN_FORWARD },
		{ "back", BTN_BACK },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(s, names[i].name) == 0) {
			*button = names[i].code;
			return true;
		}
	}
	return ctl_parse_u32(s, button);
}

static int pointer_button(struct ctl *ctl) {
	uint32_t button;
	enum action action;
	if (ctl->n_args < 2 || ctl->n_args > 3) {
		return ctl_usage_error("usage: orielctl pointer button BUTTON "
			"[press|release|click]");
	}
	if (!parse_button(ctl->args[1], &button)) {
		return ctl_usage_error("'%s' is not a button (left, middle, right or an "
			"evdev code)", ctl->args[1]);
	}
	if (!parse_action(ctl, 2, "click", &action)) {
		return CTL_EXIT_USAGE;
	}
	return press_release(ctl, "PointerButton", button, action);
}

static int pointer_scroll(struct ctl *ctl) {
	double dy, dx = 0;
	if (ctl->n_args < 2 || ctl->n_args > 3) {
		return ctl_usage_error("usage: orielctl pointer scroll DY [DX]");
	}
	if (!ctl_parse_double(ctl->args[1], &dy) ||
			(ctl->n_args > 2 && !ctl_parse_double(ctl->args[2], &dx))) {
		return ctl_usage_error("scroll amounts must be numbers of steps");
	}
	if (dy != 0 && !ctl_call(ctl, CTL_IFACE_INPUT, "PointerAxis", NULL, "ud", 0u, dy)) {
		return CTL_EXIT_FAILURE;
	}
	if (dx != 0 && !ctl_call(ctl, CTL_IFACE_INPUT, "PointerAxis", NULL, "ud", 1u, dx)) {
		return CTL_EXIT_FAILURE;
	}
	return CTL_EXIT_OK;
}

int ctl_cmd_pointer(struct ctl *ctl) {
	const char *sub = ctl->args[0];
	if (strcmp(sub, "move") == 0) {
		return pointer_move(ctl);
	} else if (strcmp(sub, "button") == 0) {
		return pointer_button(ctl);
	} else if (strcmp(sub, "scroll") == 0) {
		return pointer_scroll(ctl);
	}
	return ctl_usage_error("unknown pointer command '%s' (move, button, scroll)", sub);
}

static int key_keysym(struct ctl *ctl) {
	enum action action;
	if (!parse_action(ctl, 2, "tap", &action)) {
		return CTL_EXIT_USAGE;
	}
	const char *name = ctl->args[1];
	xkb_keysym_t keysym = xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS);
	if (keysym == XKB_KEY_NoSymbol) {
		keysym = xkb_keysym_from_name(name, XKB_KEYSYM_CASE_INSENSITIVE);
	}
	if (keysym == XKB_KEY_NoSymbol) {
		return ctl_usage_error("unknown keysym '%s'", name);
	}
	return press_release(ctl, "KeyboardKeysym", keysym, action);
}

static int key_keycode(struct ctl *ctl) {
	enum action action;
	uint32_t keycode;
	if (!ctl_parse_u32(ctl->args[1], &keycode)) {
		return ctl_usage_error("'%s' is not an evdev key code", ctl->args[1]);
	}
	if (!parse_action(ctl, 2, "tap", &action)) {
		return CTL_EXIT_USAGE;
	}
	return press_release(ctl, "KeyboardKeycode", keycode, action);
}

/* The keysym that types code point cp; NoSymbol when there is none. */
static xkb_keysym_t keysym_for(uint32_t cp) {
	switch (cp) {
	case '\n':
	case '\r':
		return XKB_KEY_Return;
	case '\t':
		return XKB_KEY_Tab;
	case '\b':
		return XKB_KEY_BackSpace;
	case 0x1b:
		return XKB_KEY_Escape;
	case 0x7f:
		return XKB_KEY_Delete;
	}
	if (cp < 0x20 || (cp >= 0x80 && cp < 0xa0)) {
		return XKB_KEY_NoSymbol;
	}
	return xkb_utf32_to_keysym(cp);
}

static int key_type(struct ctl *ctl) {
	if (ctl->n_args != 2) {
		return ctl_usage_error("usage: orielctl key type TEXT (quote TEXT)");
	}
	const char *text = ctl->args[1];
	size_t len = strlen(text);
	/* Map every character first: nothing is typed if one cannot be. */
	xkb_keysym_t *keysyms = ctl_zalloc((len + 1) * sizeof(*keysyms));
	size_t n_keysyms = 0;
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t n = utf8_decode(text + i, len - i, &cp);
		if (n == 0) {
			free(keysyms);
			return ctl_usage_error("TEXT is not valid UTF-8 (at byte %zu)", i);
		}
		xkb_keysym_t keysym = keysym_for(cp);
		if (keysym == XKB_KEY_NoSymbol) {
			free(keysyms);
			return ctl_usage_error("cannot type U+%04X", (unsigned)cp);
		}
		keysyms[n_keysyms++] = keysym;
		i += n;
	}
	int status = CTL_EXIT_OK;
	for (size_t i = 0; i < n_keysyms && status == CTL_EXIT_OK; i++) {
		status = press_release(ctl, "KeyboardKeysym", keysyms[i], ACTION_BOTH);
	}
	free(keysyms);
	return status;
}

int ctl_cmd_key(struct ctl *ctl) {
	const char *sub = ctl->args[0];
	if (strcmp(sub, "keysym") == 0) {
		return key_keysym(ctl);
	} else if (strcmp(sub, "keycode") == 0) {
		return key_keycode(ctl);
	} else if (strcmp(sub, "type") == 0) {
		return key_type(ctl);
	}
	return ctl_usage_error("unknown key command '%s' (keysym, keycode, type)", sub);
}
