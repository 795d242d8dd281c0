/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for the gateway's RDP logon screen (gateway/gateway_rdp_logon.c):
 * what keys do to its fields (scancodes with Shift and Caps Lock, Unicode
 * events, Tab, Backspace, Return), what a refusal leaves, that a field
 * never overflows, and that drawing stays inside the screen. The glyphs
 * are made here (one solid cell each), so no font is needed; the
 * keyboard layouts come from xkb, as in the worker before its sandbox: a
 * German client's keys type German characters, AltGr as Windows sends it
 * (Ctrl+Alt) or as right Alt.
 */

#include <stdlib.h>
#include <string.h>
#include "gateway/gateway_rdp_logon.h"
#include "expect.h"

#define RELEASE 0x8000

static struct logon_font font;

static void press(struct logon_screen *s, uint16_t code) {
	logon_screen_key(s, 0, code);
	logon_screen_key(s, RELEASE, code);
}

static void scancodes(void) {
	struct logon_screen s;
	EXPECT(logon_screen_init(&s, &font, "host", 640, 480, ""), "init");
	EXPECT(!s.on_password, "no user name: the user field takes the keys");
	press(&s, 0x1e); /* a */
	logon_screen_key(&s, 0, 0x2a); /* Shift down */
	press(&s, 0x26); /* L */
	press(&s, 0x03); /* @ (Shift+2) */
	logon_screen_key(&s, RELEASE, 0x2a);
	press(&s, 0x3a); /* Caps Lock */
	press(&s, 0x17); /* I */
	press(&s, 0x3a);
	press(&s, 0x2e); /* c */
	press(&s, 0x0e); /* Backspace */
	EXPECT(strcmp(s.user, "aL@I") == 0, "user %s", s.user);
	EXPECT(logon_screen_key(&s, 0, 0x1c) == LOGON_CHANGED && s.on_password,
		"Return in the user field goes to the password");
	press(&s, 0x19); /* p */
	EXPECT(logon_screen_key(&s, 0, 0x1c) == LOGON_SUBMITTED, "Return submits");
	EXPECT(strcmp(s.password, "p") == 0, "password %s", s.password);
	EXPECT(logon_screen_key(&s, 0x0100, 0x1c) == LOGON_SUBMITTED, "keypad Enter submits");
	EXPECT(logon_screen_key(&s, 0x0100, 0x1e) == LOGON_UNCHANGED, "an extended key types nothing");
	EXPECT(logon_screen_key(&s, 0, 0x7f) == LOGON_UNCHANGED, "an unknown scancode");
	logon_screen_refused(&s, "authentication failed");
	EXPECT(s.password[0] == '\0' && s.on_password, "a refusal empties the password");
	EXPECT(strcmp(s.message, "authentication failed") == 0, "the message");
	logon_screen_finish(&s);
}

static void unicode(void) {
	struct logon_screen s;
	EXPECT(logon_screen_init(&s, &font, "host", 640, 480, "bob"), "init");
	EXPECT(s.on_password, "a user name came: the password field takes the keys");
	logon_screen_unicode(&s, 0, 0x00e4); /* ä */
	logon_screen_unicode(&s, 0, 0x20ac); /* € */
	logon_screen_unicode(&s, RELEASE, 'x');
	logon_screen_unicode(&s, 0, 0xd83d); /* half a surrogate pair */
	EXPECT(strcmp(s.password, "\xc3\xa4\xe2\x82\xac") == 0, "UTF-8 password");
	logon_screen_unicode(&s, 0, '\b');
	EXPECT(strlen(s.password) == 4, "Backspace takes a byte: %zu", strlen(s.password));
	logon_screen_unicode(&s, 0, '\t');
	EXPECT(!s.on_password, "Tab: the other field");
	EXPECT(logon_screen_unicode(&s, 0, '\r') == LOGON_CHANGED && s.on_password, "Return");
	logon_screen_finish(&s);
}

static void bounds(void) {
	struct logon_screen s;
	EXPECT(logon_screen_init(&s, &font, "a host with a very long name indeed, longer than "
		"the panel is wide", 200, 100, ""), "init");
	for (int i = 0; i < 300; i++) {
		press(&s, 0x1e);
		logon_screen_unicode(&s, 0, 0x20ac);
	}
	EXPECT(strlen(s.user) <= LOGON_USER_MAX, "user %zu bytes", strlen(s.user));
	press(&s, 0x0f);
	for (int i = 0; i < 300; i++) {
		logon_screen_unicode(&s, 0, 0x20ac);
		press(&s, 0x1e);
	}
	EXPECT(strlen(s.password) <= LOGON_PASSWORD_MAX, "password %zu bytes",
		strlen(s.password));
	logon_screen_refused(&s, "too many failed logins from your address: wait, then "
		"try again");
	logon_screen_draw(&s); /* a screen smaller than the panel: ASan watches */
	EXPECT(s.panel_x >= 0 && s.panel_y >= 0 && s.panel_x + s.panel_w <= s.width &&
		s.panel_y + s.panel_h <= s.height, "the panel is inside the screen");
	logon_screen_finish(&s);
	/* Narrower than the fields' labels: nothing is drawn outside it. */
	EXPECT(logon_screen_init(&s, &font, "host", 150, 40, "someone"), "init");
	logon_screen_draw(&s);
	logon_screen_finish(&s);
	EXPECT(!logon_screen_init(&s, &font, "host", 0, 40, ""), "an empty desktop");
	logon_screen_finish(&s);
}

static void layouts(void) {
	struct logon_layouts all;
	EXPECT(logon_layouts_init(&all), "xkb's layouts");
	const struct logon_layout *de = logon_layouts_find(&all, 0x407, 4);
	const struct logon_layout *fr = logon_layouts_find(&all, 0x40c, 4);
	EXPECT(de && fr, "German and French are known");
	if (!de || !fr) {
		logon_layouts_finish(&all);
		return;
	}
	EXPECT(de->chars[0x15 - LOGON_FIRST_SCANCODE][0] == 'z', "German z where US has y");
	EXPECT(fr->chars[0x10 - LOGON_FIRST_SCANCODE][0] == 'a', "French a where US has q");

	struct logon_screen s;
	EXPECT(logon_screen_init(&s, &font, "host", 640, 480, "anna"), "init");
	s.layout = de;
	press(&s, 0x15); /* z */
	press(&s, 0x1a); /* ü */
	logon_screen_key(&s, 0, 0x1d); /* Ctrl+Alt: AltGr, as Windows sends it */
	logon_screen_key(&s, 0, 0x38);
	press(&s, 0x10); /* @ */
	press(&s, 0x12); /* € */
	logon_screen_key(&s, RELEASE, 0x38);
	logon_screen_key(&s, RELEASE, 0x1d);
	logon_screen_key(&s, 0x0100, 0x38); /* right Alt */
	press(&s, 0x0c); /* \ */
	logon_screen_key(&s, 0x0100 | RELEASE, 0x38);
	logon_screen_key(&s, 0, 0x2a);
	press(&s, 0x03); /* " */
	logon_screen_key(&s, RELEASE, 0x2a);
	press(&s, 0x3a); /* Caps Lock */
	press(&s, 0x27); /* Ö */
	press(&s, 0x03); /* 2: Caps Lock changes letters only */
	EXPECT(strcmp(s.password, "z\xc3\xbc@\xe2\x82\xac\\\"\xc3\x96" "2") == 0,
		"password typed on a German keyboard: %s", s.password);
	logon_screen_finish(&s);
	logon_layouts_finish(&all);
}

int main(void) {
	font.cell_w = 8;
	font.cell_h = 16;
	font.alpha = malloc(('~' - ' ' + 1) * 8 * 16);
	memset(font.alpha, 0xff, ('~' - ' ' + 1) * 8 * 16);
	scancodes();
	unicode();
	bounds();
	layouts();
	free(font.alpha);
	return failures != 0;
}
