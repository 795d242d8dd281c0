/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_VIRTUAL_INPUT_H
#define ORIEL_CAPTURE_VIRTUAL_INPUT_H

/*
 * Input from remote peers (VNC, the control API): a keyboard and a pointer
 * on server->input_backend. Events go through the devices like a real
 * backend's, so the seat, cursor, focus, grabs and bindings treat them as
 * hardware. Values from peers are checked here.
 */

#include <stdbool.h>
#include <stdint.h>

struct server;
struct virtual_input;

/* Call after server_init and before server_start; NULL on failure. */
struct virtual_input *virtual_input_create(struct server *server);
/* Releases what is held and removes the devices; NULL is a no-op. */
void virtual_input_destroy(struct virtual_input *vi);

/* Layout coordinates; false (and no motion) outside every output. */
bool virtual_input_pointer_motion_absolute(struct virtual_input *vi, double lx, double ly);
/* evdev button (BTN_LEFT..BTN_TASK); others, and repeats, are ignored. */
void virtual_input_pointer_button(struct virtual_input *vi, uint32_t evdev_button,
	bool pressed);
/* axis 0 is vertical, 1 horizontal; steps are wheel clicks, positive down/right. */
void virtual_input_pointer_axis(struct virtual_input *vi, uint32_t axis, double steps);

/* evdev keycode; false when out of range. A repeated press or release is a no-op. */
bool virtual_input_keycode(struct virtual_input *vi, uint32_t evdev_keycode, bool pressed);
/*
 * A keysym, pressed with the Shift/AltGr it needs in the active layout;
 * those are released with it. False when no key in the keymap produces it.
 */
bool virtual_input_keysym(struct virtual_input *vi, uint32_t keysym, bool pressed);
/*
 * A character the peer typed as such (RDP's Unicode events): as
 * virtual_input_keysym, and Alt keys the peer holds are lifted around it
 * too, since its AltGr may be Alt here. Ctrl stays, for shortcuts.
 */
bool virtual_input_character(struct virtual_input *vi, uint32_t keysym, bool pressed);
/*
 * A character the peer's AltGr made: as virtual_input_keysym, with Ctrl
 * and Alt the peer holds lifted around it too (Windows sends AltGr as
 * Ctrl+Alt).
 */
bool virtual_input_keysym_alone(struct virtual_input *vi, uint32_t keysym, bool pressed);

/*
 * Makes Caps Lock, Num Lock and Scroll Lock as the peer has them (RDP's
 * Synchronize): each lock key whose LED differs is tapped, as a person
 * would. Locks the keymap has no LED for are left alone.
 */
void virtual_input_sync_locks(struct virtual_input *vi, bool caps, bool num, bool scroll);

/* Releases every key and button held, e.g. when a remote peer goes away. */
void virtual_input_release_all(struct virtual_input *vi);

#endif
