/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_RDP_LOGON_H
#define ORIEL_GATEWAY_RDP_LOGON_H

/*
 * The logon screen that the RDP front shows a client that connected
 * without a password (gateway_rdp_logon.c): the host's name, user name
 * and password fields, and a message line, in a framebuffer of the
 * client's size. Its text comes from glyphs drawn once, before the
 * worker's sandbox, since nothing can read a font after. The keys typed
 * are set 1 scancodes, read through the layout the client announced
 * (what each key types in every known layout is read from xkb before the
 * sandbox too; US positions for a layout nobody knows), or Unicode
 * keyboard events. No FreeRDP: gateway_rdp_login.c sends the pixels.
 */

#include <stdbool.h>
#include <stdint.h>

struct logon_font {
	int cell_w, cell_h;
	uint8_t *alpha; /* the glyphs of ' ' to '~', each cell_w x cell_h, one after another */
};

/* Draws the glyphs (cairo and fontconfig: before the sandbox). False on failure. */
bool logon_font_init(struct logon_font *font);
void logon_font_finish(struct logon_font *font);

/* The keys that type characters: set 1 scancodes 0x02 to 0x39. */
#define LOGON_FIRST_SCANCODE 0x02
#define LOGON_SCANCODES (0x39 - 0x02 + 1)

/* What a layout's keys type: plain, with Shift, AltGr, AltGr and Shift (0: nothing). */
struct logon_layout {
	uint32_t chars[LOGON_SCANCODES][4];
};

/* Every layout of remote/windows_layout.h's table, in its order. */
struct logon_layouts {
	struct logon_layout *items;
	size_t n;
};

/* Reads them from xkb (its files: before the sandbox). False when none could be. */
bool logon_layouts_init(struct logon_layouts *layouts);
void logon_layouts_finish(struct logon_layouts *layouts);
/* The layout a client announced (Client Core Data), or NULL: US positions. */
const struct logon_layout *logon_layouts_find(const struct logon_layouts *layouts,
	uint32_t klid, uint32_t keyboard_type);

#define LOGON_USER_MAX 63
#define LOGON_PASSWORD_MAX 127

struct logon_screen {
	const struct logon_font *font;
	const struct logon_layout *layout; /* NULL: US positions */
	char host[64];
	int width, height;
	/*
	 * XRGB, the panel's only (panel_w x panel_h): the rest of the screen is
	 * one colour, so that a guest's screen costs the same at any size.
	 */
	uint32_t *pixels;
	char user[LOGON_USER_MAX + 1];
	char password[LOGON_PASSWORD_MAX + 1];
	bool on_password; /* the field that takes keys */
	bool shift_left, shift_right, caps_lock;
	bool ctrl, alt, altgr; /* AltGr: right Alt, or Ctrl+Alt as Windows sends it */
	char message[128];
	/* The panel: all that changes after the first frame. */
	int panel_x, panel_y, panel_w, panel_h;
};

/* The colour of the screen at x, y (inside it). */
uint32_t logon_screen_pixel(const struct logon_screen *screen, int x, int y);
/* A screen of width x height, with user filled in (may be ""). False when out of memory. */
bool logon_screen_init(struct logon_screen *screen, const struct logon_font *font,
	const char *host, int width, int height, const char *user);
/* Wipes what was typed, frees the pixels. */
void logon_screen_finish(struct logon_screen *screen);
/* Draws it all (the panel with the fields, the message, the focus). */
void logon_screen_draw(struct logon_screen *screen);

enum logon_input {
	LOGON_UNCHANGED,
	LOGON_CHANGED,   /* draw the panel again */
	LOGON_SUBMITTED, /* Return in the password field: check user and password */
};

/* A key (MS-RDPBCGR TS_KEYBOARD_EVENT flags and set 1 scancode). */
enum logon_input logon_screen_key(struct logon_screen *screen, uint16_t flags, uint16_t code);
/* A Unicode keyboard event (one UTF-16 unit; surrogates are ignored). */
enum logon_input logon_screen_unicode(struct logon_screen *screen, uint16_t flags,
	uint16_t code);
/* After a refusal: the password goes, the message says why. */
void logon_screen_refused(struct logon_screen *screen, const char *why);

#endif
