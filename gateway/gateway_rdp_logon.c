/* SPDX-License-Identifier: MIT */
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xkbcommon/xkbcommon.h>
#include "remote/windows_layout.h"
#include "gateway/gateway_rdp_logon.h"

#define FIRST_GLYPH ' '
#define N_GLYPHS ('~' - ' ' + 1)
#define FONT_PX 16

#define BACKGROUND 0x1f2a38
#define PANEL 0x2f3f52
#define FIELD 0xf4f4f4
#define FIELD_FOCUS 0xffffff
#define TEXT 0xf0f0f0
#define FIELD_TEXT 0x101010
#define FOCUS 0x5a9be0
#define MESSAGE 0xffc857

/* MS-RDPBCGR 2.2.8.1.1.3.1.1.1: TS_KEYBOARD_EVENT flags. */
#define KBD_FLAGS_EXTENDED 0x0100
#define KBD_FLAGS_RELEASE 0x8000

bool logon_font_init(struct logon_font *font) {
	cairo_surface_t *probe = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
	cairo_t *cr = cairo_create(probe);
	cairo_select_font_face(cr, "monospace", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, FONT_PX);
	cairo_font_extents_t extents;
	cairo_font_extents(cr, &extents);
	cairo_destroy(cr);
	cairo_surface_destroy(probe);
	font->cell_w = (int)ceil(extents.max_x_advance);
	font->cell_h = (int)ceil(extents.height);
	if (font->cell_w <= 0 || font->cell_h <= 0 || font->cell_w > 64 || font->cell_h > 64) {
		return false;
	}
	cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_A8, font->cell_w,
		font->cell_h * N_GLYPHS);
	cr = cairo_create(surface);
	cairo_select_font_face(cr, "monospace", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, FONT_PX);
	for (int i = 0; i < N_GLYPHS; i++) {
		char text[2] = { (char)(FIRST_GLYPH + i), '\0' };
		cairo_move_to(cr, 0, i * font->cell_h + extents.ascent);
		cairo_show_text(cr, text);
	}
	cairo_destroy(cr);
	cairo_surface_flush(surface);
	size_t cell = (size_t)font->cell_w * (size_t)font->cell_h;
	font->alpha = calloc(N_GLYPHS, cell);
	bool ok = font->alpha && cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS;
	if (ok) {
		const uint8_t *data = cairo_image_surface_get_data(surface);
		int stride = cairo_image_surface_get_stride(surface);
		for (int y = 0; y < font->cell_h * N_GLYPHS; y++) {
			memcpy(font->alpha + (size_t)y * (size_t)font->cell_w, data + (size_t)y * (size_t)stride,
				(size_t)font->cell_w);
		}
	}
	cairo_surface_destroy(surface);
	return ok;
}

void logon_font_finish(struct logon_font *font) {
	free(font->alpha);
	font->alpha = NULL;
}

/* What the key of scancode types at each level of the first group of keymap. */
static void read_key(struct xkb_keymap *keymap, uint32_t scancode, uint32_t out[4]) {
	xkb_keycode_t keycode = scancode + 8; /* evdev, for these keys */
	xkb_level_index_t levels = xkb_keymap_num_levels_for_key(keymap, keycode, 0);
	for (xkb_level_index_t level = 0; level < 4 && level < levels; level++) {
		const xkb_keysym_t *syms;
		if (xkb_keymap_key_get_syms_by_level(keymap, keycode, 0, level, &syms) == 1) {
			out[level] = xkb_keysym_to_utf32(syms[0]); /* 0 for dead keys */
		}
	}
}

bool logon_layouts_init(struct logon_layouts *layouts) {
	size_t n;
	const struct windows_layout *table = windows_layout_table(&n);
	struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_ENVIRONMENT_NAMES);
	layouts->items = context ? calloc(n, sizeof(*layouts->items)) : NULL;
	layouts->n = layouts->items ? n : 0;
	size_t read = 0;
	for (size_t i = 0; i < layouts->n; i++) {
		struct xkb_rule_names names = { .rules = "evdev", .model = "pc105",
			.layout = table[i].layout, .variant = table[i].variant };
		struct xkb_keymap *keymap = xkb_keymap_new_from_names(context, &names,
			XKB_KEYMAP_COMPILE_NO_FLAGS);
		if (!keymap) {
			continue; /* its keys stay at nothing: US positions are used */
		}
		for (uint32_t code = 0; code < LOGON_SCANCODES; code++) {
			read_key(keymap, code + LOGON_FIRST_SCANCODE, layouts->items[i].chars[code]);
		}
		xkb_keymap_unref(keymap);
		read++;
	}
	xkb_context_unref(context);
	return read > 0;
}

void logon_layouts_finish(struct logon_layouts *layouts) {
	free(layouts->items);
	layouts->items = NULL;
	layouts->n = 0;
}

const struct logon_layout *logon_layouts_find(const struct logon_layouts *layouts,
		uint32_t klid, uint32_t keyboard_type) {
	size_t n;
	const struct windows_layout *table = windows_layout_table(&n);
	const struct windows_layout *found = windows_layout_find(klid, keyboard_type);
	if (!found || n != layouts->n) {
		return NULL;
	}
	const struct logon_layout *layout = &layouts->items[found - table];
	/* A layout xkb could not read has no 'a' key. */
	return layout->chars[0x1e - LOGON_FIRST_SCANCODE][0] ? layout : NULL;
}

bool logon_screen_init(struct logon_screen *s, const struct logon_font *font,
		const char *host, int width, int height, const char *user) {
	memset(s, 0, sizeof(*s));
	s->font = font;
	snprintf(s->host, sizeof(s->host), "%s", host);
	s->width = width;
	s->height = height;
	snprintf(s->user, sizeof(s->user), "%s", user);
	s->on_password = s->user[0] != '\0';
	if (width <= 0 || height <= 0) {
		return false;
	}
	int cw = font->cell_w, ch = font->cell_h;
	s->panel_w = cw * 44 < width ? cw * 44 : width;
	s->panel_h = ch * 10 < height ? ch * 10 : height;
	s->panel_x = (width - s->panel_w) / 2;
	s->panel_y = (height - s->panel_h) / 2;
	s->pixels = calloc((size_t)s->panel_w * (size_t)s->panel_h, sizeof(*s->pixels));
	return s->pixels != NULL;
}

uint32_t logon_screen_pixel(const struct logon_screen *s, int x, int y) {
	int px = x - s->panel_x, py = y - s->panel_y;
	if (px < 0 || py < 0 || px >= s->panel_w || py >= s->panel_h) {
		return BACKGROUND;
	}
	return s->pixels[(size_t)py * (size_t)s->panel_w + (size_t)px];
}

/* The panel's pixel at screen coordinates x, y, or NULL outside it. */
static uint32_t *panel_pixel(struct logon_screen *s, int x, int y) {
	int px = x - s->panel_x, py = y - s->panel_y;
	if (px < 0 || py < 0 || px >= s->panel_w || py >= s->panel_h) {
		return NULL;
	}
	return &s->pixels[(size_t)py * (size_t)s->panel_w + (size_t)px];
}

void logon_screen_finish(struct logon_screen *s) {
	free(s->pixels);
	explicit_bzero(s, sizeof(*s));
}

/* Fills what of x, y, w, h lies on the panel. */
static void fill(struct logon_screen *s, int x, int y, int w, int h, uint32_t colour) {
	for (int j = y; j < y + h; j++) {
		for (int i = x; i < x + w; i++) {
			uint32_t *p = panel_pixel(s, i, j);
			if (p) {
				*p = colour;
			}
		}
	}
}

static uint32_t blend(uint32_t bg, uint32_t fg, uint8_t a) {
	uint32_t out = 0;
	for (int shift = 0; shift < 24; shift += 8) {
		uint32_t b = (bg >> shift) & 0xff, f = (fg >> shift) & 0xff;
		out |= ((f * a + b * (255 - a)) / 255) << shift;
	}
	return out;
}

/* text at x, y (its cell's top), clipped to max_chars and the screen. */
static void text(struct logon_screen *s, int x, int y, const char *str, uint32_t colour,
		size_t max_chars) {
	const struct logon_font *f = s->font;
	for (size_t n = 0; str[n] && n < max_chars; n++) {
		unsigned char c = (unsigned char)str[n];
		if (c < FIRST_GLYPH || c >= FIRST_GLYPH + N_GLYPHS) {
			c = '?';
		}
		const uint8_t *glyph = f->alpha + (size_t)(c - FIRST_GLYPH) *
			(size_t)f->cell_w * (size_t)f->cell_h;
		int gx = x + (int)n * f->cell_w;
		for (int j = 0; j < f->cell_h; j++) {
			for (int i = 0; i < f->cell_w; i++) {
				uint8_t a = glyph[j * f->cell_w + i];
				uint32_t *p = a ? panel_pixel(s, gx + i, y + j) : NULL;
				if (p) {
					*p = blend(*p, colour, a);
				}
			}
		}
	}
}

static void field(struct logon_screen *s, int row, const char *label, const char *value,
		bool secret, bool focused) {
	const struct logon_font *f = s->font;
	int x = s->panel_x + f->cell_w * 2, y = s->panel_y + f->cell_h * row;
	text(s, x, y, label, TEXT, 14);
	int fx = x + f->cell_w * 14, fw = s->panel_w - f->cell_w * 18;
	if (focused) {
		fill(s, fx - 2, y - 4, fw + 4, f->cell_h + 8, FOCUS);
	}
	fill(s, fx, y - 2, fw, f->cell_h + 4, focused ? FIELD_FOCUS : FIELD);
	int columns = fw / f->cell_w - 2;
	size_t room = columns > 0 ? (size_t)columns : 0;
	char shown[LOGON_PASSWORD_MAX + 2];
	size_t len = strlen(value);
	size_t first = len > room ? len - room : 0; /* the end shows, where the caret is */
	size_t n = 0;
	for (size_t i = first; i < len; i++) {
		shown[n++] = secret ? '*' : value[i];
	}
	if (focused) {
		shown[n++] = '_';
	}
	shown[n] = '\0';
	text(s, fx + f->cell_w / 2, y, shown, FIELD_TEXT, room + 1);
	explicit_bzero(shown, sizeof(shown));
}

void logon_screen_draw(struct logon_screen *s) {
	const struct logon_font *f = s->font;
	fill(s, s->panel_x, s->panel_y, s->panel_w, s->panel_h, PANEL);
	char title[96];
	snprintf(title, sizeof(title), "Log in to %s", s->host);
	text(s, s->panel_x + f->cell_w * 2, s->panel_y + f->cell_h, title, TEXT, 40);
	field(s, 3, "User name", s->user, false, !s->on_password);
	field(s, 5, "Password", s->password, true, s->on_password);
	text(s, s->panel_x + f->cell_w * 2, s->panel_y + f->cell_h * 7, s->message, MESSAGE,
		40);
}

/* Set 1 scancodes 0x02..0x39 on a US keyboard: unshifted, then shifted. */
static const char us_plain[] = "\0\0" "1234567890-=" "\0\0" "qwertyuiop[]" "\0\0"
	"asdfghjkl;'`" "\0" "\\zxcvbnm,./" "\0" "*" "\0" " ";
static const char us_shift[] = "\0\0" "!@#$%^&*()_+" "\0\0" "QWERTYUIOP{}" "\0\0"
	"ASDFGHJKL:\"~" "\0" "|ZXCVBNM<>?" "\0" "*" "\0" " ";

static enum logon_input type_char(struct logon_screen *s, char c) {
	char *value = s->on_password ? s->password : s->user;
	size_t max = s->on_password ? LOGON_PASSWORD_MAX : LOGON_USER_MAX;
	size_t len = strlen(value);
	if (len >= max) {
		return LOGON_UNCHANGED;
	}
	value[len] = c;
	value[len + 1] = '\0';
	return LOGON_CHANGED;
}

/* c (a Unicode scalar value) as UTF-8 into the field, whole or not at all. */
static enum logon_input type_utf32(struct logon_screen *s, uint32_t c) {
	char utf8[4];
	size_t n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
	if (c < 0x20 || c == 0x7f || (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff) {
		return LOGON_UNCHANGED;
	}
	if (n == 1) {
		utf8[0] = (char)c;
	} else {
		for (size_t i = n - 1; i > 0; i--) {
			utf8[i] = (char)(0x80 | (c & 0x3f));
			c >>= 6;
		}
		utf8[0] = (char)((n == 2 ? 0xc0 : n == 3 ? 0xe0 : 0xf0) | c);
	}
	char *value = s->on_password ? s->password : s->user;
	size_t max = s->on_password ? LOGON_PASSWORD_MAX : LOGON_USER_MAX;
	size_t len = strlen(value);
	if (len + n > max) {
		return LOGON_UNCHANGED;
	}
	memcpy(value + len, utf8, n);
	value[len + n] = '\0';
	return LOGON_CHANGED;
}

/* A character key through the client's layout. */
static enum logon_input type_layout(struct logon_screen *s, uint16_t code, bool shift) {
	const uint32_t *levels = s->layout->chars[code - LOGON_FIRST_SCANCODE];
	bool altgr = s->altgr || (s->ctrl && s->alt);
	uint32_t c = levels[(altgr ? 2 : 0) + (shift ? 1 : 0)];
	/* Caps Lock: a letter's other case, where Shift gives it. */
	if (s->caps_lock && !altgr && levels[0] != levels[1] && levels[0] && levels[1]) {
		uint32_t other = levels[shift ? 0 : 1];
		bool letter = (c < 0x80 && ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')) ||
			(c >= 0xc0 && c <= 0x24f); /* Latin letters */
		c = letter ? other : c;
	}
	return c ? type_utf32(s, c) : LOGON_UNCHANGED;
}

static enum logon_input press_return(struct logon_screen *s) {
	if (!s->on_password) {
		s->on_password = true;
		return LOGON_CHANGED;
	}
	return s->user[0] ? LOGON_SUBMITTED : LOGON_UNCHANGED;
}

static enum logon_input backspace(struct logon_screen *s) {
	char *value = s->on_password ? s->password : s->user;
	size_t len = strlen(value);
	if (len == 0) {
		return LOGON_UNCHANGED;
	}
	value[len - 1] = '\0';
	return LOGON_CHANGED;
}

enum logon_input logon_screen_key(struct logon_screen *s, uint16_t flags, uint16_t code) {
	bool release = (flags & KBD_FLAGS_RELEASE) != 0;
	bool extended = (flags & KBD_FLAGS_EXTENDED) != 0;
	if (code == 0x2a || code == 0x36) {
		*(code == 0x2a ? &s->shift_left : &s->shift_right) = !release;
		return LOGON_UNCHANGED;
	}
	if (code == 0x1d || code == 0x38) { /* Ctrl, Alt (right Alt: extended) */
		*(code == 0x1d ? &s->ctrl : extended ? &s->altgr : &s->alt) = !release;
		return LOGON_UNCHANGED;
	}
	if (release) {
		return LOGON_UNCHANGED;
	}
	switch (code) {
	case 0x3a: /* Caps Lock */
		s->caps_lock = !s->caps_lock;
		return LOGON_UNCHANGED;
	case 0x1c: /* Return, and keypad Enter */
		return press_return(s);
	case 0x0e:
		return backspace(s);
	case 0x0f: /* Tab: the other field */
		s->on_password = !s->on_password;
		return LOGON_CHANGED;
	}
	if (extended || code >= sizeof(us_plain) - 1) {
		return LOGON_UNCHANGED;
	}
	bool shift = s->shift_left || s->shift_right;
	if (s->layout && code >= LOGON_FIRST_SCANCODE) {
		return type_layout(s, code, shift);
	}
	char c = shift ? us_shift[code] : us_plain[code];
	if (s->caps_lock && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
		c ^= 0x20;
	}
	return c ? type_char(s, c) : LOGON_UNCHANGED;
}

enum logon_input logon_screen_unicode(struct logon_screen *s, uint16_t flags,
		uint16_t code) {
	if (flags & KBD_FLAGS_RELEASE) {
		return LOGON_UNCHANGED;
	}
	if (code == '\r' || code == '\n') {
		return press_return(s);
	}
	if (code == '\b') {
		return backspace(s);
	}
	if (code == '\t') {
		s->on_password = !s->on_password;
		return LOGON_CHANGED;
	}
	if (code < 0x20 || code == 0x7f || (code >= 0xd800 && code <= 0xdfff)) {
		return LOGON_UNCHANGED;
	}
	return type_utf32(s, code);
}

void logon_screen_refused(struct logon_screen *s, const char *why) {
	explicit_bzero(s->password, sizeof(s->password));
	s->on_password = true;
	snprintf(s->message, sizeof(s->message), "%s", why);
}
