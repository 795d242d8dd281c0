/* SPDX-License-Identifier: MIT */
/*
 * oriel-test-xclient: an X client with exactly the ICCCM/EWMH properties a
 * test asks for, for the xwayland suite.
 *
 * Window mode (the default) maps one window and prints, one per line on
 * stdout: "window 0x<id>" once mapped, then "configure X Y W H synthetic|real",
 * "delete-window", "ping", "focus-in"/"focus-out" and "key-press" as they arrive.
 *
 *   --title T            WM_NAME and _NET_WM_NAME
 *   --class C            WM_CLASS (instance and class)
 *   --size WxH           window size (default 200x150)
 *   --position X,Y       with USPosition in WM_NORMAL_HINTS
 *   --colour RRGGBB      background colour
 *   --transient-for ID   WM_TRANSIENT_FOR (hex or decimal)
 *   --iconic             WM_HINTS initial_state IconicState
 *   --urgent             WM_HINTS XUrgencyHint
 *   --type A,B,...       _NET_WM_WINDOW_TYPE_<A>, ... (DIALOG, DOCK, SPLASH...),
 *                        in order of preference
 *   --strut L,R,T,B      _NET_WM_STRUT
 *   --strut-partial 12 comma-separated values: _NET_WM_STRUT_PARTIAL
 *   --user-time N        _NET_WM_USER_TIME
 *   --no-delete          WM_PROTOCOLS without WM_DELETE_WINDOW
 *   --ping               WM_PROTOCOLS lists _NET_WM_PING (and pings are answered)
 *   --pid                sets _NET_WM_PID (with --ping, as EWMH requires) and,
 *                        unless --client-machine says otherwise, this host
 *                        as WM_CLIENT_MACHINE
 *   --client-machine H   WM_CLIENT_MACHINE (the host the client says it runs on)
 *   --request-extents    before mapping, sends _NET_REQUEST_FRAME_EXTENTS and
 *                        prints "frame-extents L R T B" once the WM set them
 *   --state A,B,...      _NET_WM_STATE_<A>, ... before mapping (ABOVE, STICKY...)
 *   --input yes|no       WM_HINTS input field (default yes)
 *   --icon RRGGBB        _NET_WM_ICON: a 48x48 icon in the complementary colour,
 *                        then a 16x16 one in RRGGBB (both opaque)
 *   --icon-raw V,V,...   _NET_WM_ICON set to these CARDINALs as given (up to 64)
 *   --take-focus         WM_PROTOCOLS lists WM_TAKE_FOCUS; each one received
 *                        prints "take-focus", and a window without input
 *                        (Globally Active) then sets the focus itself
 *   --sync-request answer|never
 *                        WM_PROTOCOLS lists _NET_WM_SYNC_REQUEST, with an XSync
 *                        counter in _NET_WM_SYNC_REQUEST_COUNTER. The window has
 *                        no background: the client fills it with its colour on
 *                        Expose and on each new size. Prints "sync-request N"
 *                        for each request; "answer" sets the counter to N after
 *                        drawing the size that followed (taking --draw-time ms,
 *                        then handling first any event already queued) and
 *                        prints "sync-set N WxH"; "never" never does
 *   --draw-time MS       what drawing a new size takes (default 100)
 *   --wm-name T          WM_NAME alone (the legacy title) differs: T
 *   --min-size WxH       WM_NORMAL_HINTS PMinSize
 *   --max-size WxH       WM_NORMAL_HINTS PMaxSize
 *   --ignore-delete      WM_DELETE_WINDOW prints "delete-window" but the
 *                        window stays (an app that asks first)
 *   --motif-decorations N  _MOTIF_WM_HINTS with MWM_HINTS_DECORATIONS = N
 *
 * Send mode: "oriel-test-xclient send MESSAGE WINDOW [values...]" sends a
 * client message to the root window, as a pager or the app would, and
 * exits. MESSAGE is an atom name (e.g. _NET_ACTIVE_WINDOW); values are up
 * to five 32-bit numbers or atom names (data.l[0..4]).
 *
 * Property mode: "oriel-test-xclient set WINDOW PROPERTY TYPE [values...]"
 * replaces a property of any window, as its app would: TYPE STRING or
 * UTF8_STRING takes one string (format 8); any other type (CARDINAL,
 * ATOM, WINDOW...) takes 32-bit numbers or atom names (up to 32).
 * "oriel-test-xclient delete WINDOW PROPERTY" deletes one.
 *
 * Focus mode: "oriel-test-xclient focus" prints "focus 0x<id>", the X input
 * focus window (GetInputFocus), and exits.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xcb/sync.h>
#include <xcb/xcb.h>

static xcb_connection_t *conn;

/* Interned once: setting up a window then needs no round trip. */
static struct {
	char name[128];
	xcb_atom_t atom;
} atom_cache[64];
static int atom_cache_n;

static xcb_atom_t atom(const char *name) {
	for (int i = 0; i < atom_cache_n; i++) {
		if (strcmp(atom_cache[i].name, name) == 0) {
			return atom_cache[i].atom;
		}
	}
	xcb_intern_atom_reply_t *reply = xcb_intern_atom_reply(conn,
		xcb_intern_atom(conn, 0, strlen(name), name), NULL);
	xcb_atom_t a = reply ? reply->atom : XCB_ATOM_NONE;
	free(reply);
	if (atom_cache_n < (int)(sizeof(atom_cache) / sizeof(atom_cache[0])) &&
			strlen(name) < sizeof(atom_cache[0].name)) {
		strcpy(atom_cache[atom_cache_n].name, name);
		atom_cache[atom_cache_n++].atom = a;
	}
	return a;
}

static void state_atom_name(char *out, size_t size, const char *state) {
	snprintf(out, size, "_NET_WM_STATE_%s", state);
}

/*
 * Like most Xlib apps, the window is created, described and mapped in one
 * go, with the atoms known beforehand: the WM sees the finished window.
 */
static void intern_atoms(const char *type, const char *states) {
	static const char *const names[] = {"UTF8_STRING", "_NET_WM_NAME", "WM_PROTOCOLS",
		"WM_DELETE_WINDOW", "_NET_WM_PING", "WM_TAKE_FOCUS", "_NET_WM_WINDOW_TYPE",
		"_NET_WM_STATE", "_NET_WM_PID", "_NET_WM_STRUT", "_NET_WM_STRUT_PARTIAL",
		"_NET_WM_USER_TIME", "_NET_FRAME_EXTENTS", "_NET_REQUEST_FRAME_EXTENTS",
		"_NET_WM_ICON"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		atom(names[i]);
	}
	char name[128];
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", type ? type : "");
	for (char *save, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		snprintf(name, sizeof(name), "_NET_WM_WINDOW_TYPE_%s", t);
		atom(name);
	}
	snprintf(buf, sizeof(buf), "%s", states ? states : "");
	for (char *save, *state = strtok_r(buf, ",", &save); state;
			state = strtok_r(NULL, ",", &save)) {
		state_atom_name(name, sizeof(name), state);
		atom(name);
	}
}

static uint32_t number_or_atom(const char *s) {
	char *end;
	unsigned long v = strtoul(s, &end, 0);
	if (*s && !*end) {
		return (uint32_t)v;
	}
	return atom(s);
}

static int parse_list(const char *s, uint32_t *out, int max) {
	int n = 0;
	while (*s && n < max) {
		char *end;
		out[n++] = (uint32_t)strtol(s, &end, 0);
		if (*end != ',') {
			break;
		}
		s = end + 1;
	}
	return n;
}

static void set_cardinals(xcb_window_t window, const char *name,
		const uint32_t *values, int n) {
	xcb_change_property(conn, XCB_PROP_MODE_REPLACE, window, atom(name),
		XCB_ATOM_CARDINAL, 32, n, values);
}

static int send_mode(int argc, char **argv, xcb_window_t root) {
	if (argc < 4) {
		fprintf(stderr, "usage: send MESSAGE WINDOW [values...]\n");
		return 2;
	}
	xcb_client_message_event_t event = {
		.response_type = XCB_CLIENT_MESSAGE,
		.format = 32,
		.window = (xcb_window_t)strtoul(argv[3], NULL, 0),
		.type = atom(argv[2]),
	};
	for (int i = 4; i < argc && i - 4 < 5; i++) {
		event.data.data32[i - 4] = number_or_atom(argv[i]);
	}
	xcb_send_event(conn, 0, root, XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY |
		XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT, (const char *)&event);
	free(xcb_get_input_focus_reply(conn, xcb_get_input_focus(conn), NULL));
	return 0;
}

static int property_mode(int argc, char **argv) {
	bool set = strcmp(argv[1], "set") == 0;
	if (argc < (set ? 5 : 4)) {
		fprintf(stderr, "usage: set WINDOW PROPERTY TYPE [values...] | "
			"delete WINDOW PROPERTY\n");
		return 2;
	}
	xcb_window_t window = (xcb_window_t)strtoul(argv[2], NULL, 0);
	xcb_atom_t property = atom(argv[3]);
	if (!set) {
		xcb_delete_property(conn, window, property);
	} else if (strcmp(argv[4], "STRING") == 0 || strcmp(argv[4], "UTF8_STRING") == 0) {
		const char *text = argc > 5 ? argv[5] : "";
		xcb_atom_t type = strcmp(argv[4], "STRING") == 0 ? XCB_ATOM_STRING :
			atom("UTF8_STRING");
		xcb_change_property(conn, XCB_PROP_MODE_REPLACE, window, property, type, 8,
			strlen(text), text);
	} else {
		uint32_t values[32];
		int n = 0;
		for (int i = 5; i < argc && n < 32; i++) {
			values[n++] = number_or_atom(argv[i]);
		}
		xcb_change_property(conn, XCB_PROP_MODE_REPLACE, window, property,
			atom(argv[4]), 32, n, values);
	}
	/* A round trip: the server applied it before this exits. */
	free(xcb_get_input_focus_reply(conn, xcb_get_input_focus(conn), NULL));
	return 0;
}

int main(int argc, char **argv) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	conn = xcb_connect(NULL, NULL);
	if (xcb_connection_has_error(conn)) {
		fprintf(stderr, "cannot connect to X\n");
		return 1;
	}
	xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(conn)).data;
	if (argc > 1 && strcmp(argv[1], "focus") == 0) {
		xcb_get_input_focus_reply_t *focus = xcb_get_input_focus_reply(conn,
			xcb_get_input_focus(conn), NULL);
		printf("focus 0x%x\n", focus ? focus->focus : 0);
		free(focus);
		xcb_disconnect(conn);
		return 0;
	}
	if (argc > 1 && (strcmp(argv[1], "set") == 0 || strcmp(argv[1], "delete") == 0)) {
		int r = property_mode(argc, argv);
		xcb_disconnect(conn);
		return r;
	}
	if (argc > 1 && strcmp(argv[1], "send") == 0) {
		int r = send_mode(argc, argv, screen->root);
		xcb_disconnect(conn);
		return r;
	}

	const char *title = "xclient", *class = "OrielXClient", *type = NULL;
	const char *states = NULL;
	int width = 200, height = 150, x = 0, y = 0;
	bool has_position = false, iconic = false, urgent = false, no_delete = false;
	bool ping = false, set_pid = false, request_extents = false;
	bool input = true, take_focus = false;
	uint32_t colour = 0x808080, transient_for = 0, user_time = 0;
	bool has_user_time = false;
	uint32_t strut[12];
	int strut_n = 0;
	bool strut_partial = false;
	const char *icon = NULL, *icon_raw = NULL, *client_machine = NULL;
	const char *sync_mode = NULL;
	int draw_time = 100;
	const char *wm_name = NULL;
	int min_w = 0, min_h = 0, max_w = 0, max_h = 0;
	bool has_min = false, has_max = false, ignore_delete = false;
	bool has_motif = false;
	uint32_t motif_decorations = 0;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
#define TAKES_VALUE if (!val) { fprintf(stderr, "%s needs a value\n", arg); return 2; } i++
		if (strcmp(arg, "--title") == 0) {
			TAKES_VALUE;
			title = val;
		} else if (strcmp(arg, "--class") == 0) {
			TAKES_VALUE;
			class = val;
		} else if (strcmp(arg, "--size") == 0) {
			TAKES_VALUE;
			sscanf(val, "%dx%d", &width, &height);
		} else if (strcmp(arg, "--position") == 0) {
			TAKES_VALUE;
			sscanf(val, "%d,%d", &x, &y);
			has_position = true;
		} else if (strcmp(arg, "--colour") == 0) {
			TAKES_VALUE;
			colour = (uint32_t)strtoul(val, NULL, 16);
		} else if (strcmp(arg, "--transient-for") == 0) {
			TAKES_VALUE;
			transient_for = (uint32_t)strtoul(val, NULL, 0);
		} else if (strcmp(arg, "--iconic") == 0) {
			iconic = true;
		} else if (strcmp(arg, "--urgent") == 0) {
			urgent = true;
		} else if (strcmp(arg, "--type") == 0) {
			TAKES_VALUE;
			type = val;
		} else if (strcmp(arg, "--strut") == 0) {
			TAKES_VALUE;
			strut_n = parse_list(val, strut, 4);
		} else if (strcmp(arg, "--strut-partial") == 0) {
			TAKES_VALUE;
			strut_n = parse_list(val, strut, 12);
			strut_partial = true;
		} else if (strcmp(arg, "--user-time") == 0) {
			TAKES_VALUE;
			user_time = (uint32_t)strtoul(val, NULL, 0);
			has_user_time = true;
		} else if (strcmp(arg, "--no-delete") == 0) {
			no_delete = true;
		} else if (strcmp(arg, "--ping") == 0) {
			ping = true;
		} else if (strcmp(arg, "--pid") == 0) {
			set_pid = true;
		} else if (strcmp(arg, "--state") == 0) {
			TAKES_VALUE;
			states = val;
		} else if (strcmp(arg, "--input") == 0) {
			TAKES_VALUE;
			input = strcmp(val, "no") != 0;
		} else if (strcmp(arg, "--client-machine") == 0) {
			TAKES_VALUE;
			client_machine = val;
		} else if (strcmp(arg, "--icon") == 0) {
			TAKES_VALUE;
			icon = val;
		} else if (strcmp(arg, "--icon-raw") == 0) {
			TAKES_VALUE;
			icon_raw = val;
		} else if (strcmp(arg, "--take-focus") == 0) {
			take_focus = true;
		} else if (strcmp(arg, "--wm-name") == 0) {
			TAKES_VALUE;
			wm_name = val;
		} else if (strcmp(arg, "--min-size") == 0) {
			TAKES_VALUE;
			has_min = sscanf(val, "%dx%d", &min_w, &min_h) == 2;
		} else if (strcmp(arg, "--max-size") == 0) {
			TAKES_VALUE;
			has_max = sscanf(val, "%dx%d", &max_w, &max_h) == 2;
		} else if (strcmp(arg, "--ignore-delete") == 0) {
			ignore_delete = true;
		} else if (strcmp(arg, "--motif-decorations") == 0) {
			TAKES_VALUE;
			motif_decorations = (uint32_t)strtoul(val, NULL, 0);
			has_motif = true;
		} else if (strcmp(arg, "--request-extents") == 0) {
			request_extents = true;
		} else if (strcmp(arg, "--sync-request") == 0) {
			TAKES_VALUE;
			sync_mode = val;
		} else if (strcmp(arg, "--draw-time") == 0) {
			TAKES_VALUE;
			draw_time = atoi(val);
		} else {
			fprintf(stderr, "unknown option %s\n", arg);
			return 2;
		}
	}

	intern_atoms(type, states);
	xcb_window_t window = xcb_generate_id(conn);
	/* With sync requests the client draws everything: no background. */
	uint32_t values[2] = {sync_mode ? XCB_BACK_PIXMAP_NONE : colour,
		XCB_EVENT_MASK_STRUCTURE_NOTIFY | XCB_EVENT_MASK_FOCUS_CHANGE |
		XCB_EVENT_MASK_EXPOSURE | XCB_EVENT_MASK_KEY_PRESS |
		XCB_EVENT_MASK_PROPERTY_CHANGE};
	xcb_create_window(conn, XCB_COPY_FROM_PARENT, window, screen->root, x, y,
		width, height, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual,
		(sync_mode ? XCB_CW_BACK_PIXMAP : XCB_CW_BACK_PIXEL) | XCB_CW_EVENT_MASK,
		values);
	xcb_gcontext_t gc = xcb_generate_id(conn);
	xcb_create_gc(conn, gc, window, XCB_GC_FOREGROUND, &colour);

	xcb_atom_t utf8 = atom("UTF8_STRING");
	const char *legacy_name = wm_name ? wm_name : title;
	xcb_change_property(conn, XCB_PROP_MODE_REPLACE, window, XCB_ATOM_WM_NAME,
		XCB_ATOM_STRING, 8, strlen(legacy_name), legacy_name);
	xcb_change_property(conn, XCB_PROP_MODE_REPLACE, window, atom("_NET_WM_NAME"),
		utf8, 8, strlen(title), title);
	char class_buf[256];
	int class_len = snprintf(class_buf, sizeof(class_buf), "%s%c%s", class, 0, class);
	xcb_change_property(conn, XCB_PROP_MODE_REPLACE, window, XCB_ATOM_WM_CLASS,
		XCB_ATOM_STRING, 8, class_len + 1, class_buf);

	/* WM_NORMAL_HINTS: 18 CARD32s; flags first, then x, y, w, h. */
	uint32_t normal[18] = {0};
	normal[0] = (has_position ? 1u : 0) | (1u << 1); /* USPosition, USSize */
	normal[1] = x;
	normal[2] = y;
	normal[3] = width;
	normal[4] = height;
	if (has_min) {
		normal[0] |= 1u << 4; /* PMinSize */
		normal[5] = min_w;
		normal[6] = min_h;
	}
	if (has_max) {
		normal[0] |= 1u << 5; /* PMaxSize */
		normal[7] = max_w;
		normal[8] = max_h;
	}
	xcb_change_property(conn, XCB_PROP_MODE_REPLACE, window, XCB_ATOM_WM_NORMAL_HINTS,
		XCB_ATOM_WM_SIZE_HINTS, 32, 18, normal);

	/* WM_HINTS: flags, input, initial_state, ... (9 CARD32s). */
	uint32_t hints[9] = {0};
	hints[0] = 1u /* InputHint */ | 2u /* StateHint */ | (urgent ? 1u << 8 : 0);
	hints[1] = input ? 1 : 0;
	hints[2] = iconic ? 3 : 1;
	xcb_change_property(conn, XCB_PROP_MODE_REPLACE, window, XCB_ATOM_WM_HINTS,
		XCB_ATOM_WM_HINTS, 32, 9, hints);

	xcb_atom_t wm_protocols = atom("WM_PROTOCOLS");
	xcb_atom_t wm_delete = atom("WM_DELETE_WINDOW");
	xcb_atom_t net_ping = atom("_NET_WM_PING");
	xcb_atom_t wm_take_focus = atom("WM_TAKE_FOCUS");
	xcb_atom_t net_sync = atom("_NET_WM_SYNC_REQUEST");
	xcb_atom_t protocols[4];
	int n_protocols = 0;
	if (!no_delete) {
		protocols[n_protocols++] = wm_delete;
	}
	if (ping) {
		protocols[n_protocols++] = net_ping;
	}
	if (take_focus) {
		protocols[n_protocols++] = wm_take_focus;
	}
	xcb_sync_counter_t counter = 0;
	if (sync_mode) {
		protocols[n_protocols++] = net_sync;
		free(xcb_sync_initialize_reply(conn, xcb_sync_initialize(conn,
			XCB_SYNC_MAJOR_VERSION, XCB_SYNC_MINOR_VERSION), NULL));
		counter = xcb_generate_id(conn);
		xcb_sync_create_counter(conn, counter, (xcb_sync_int64_t){0, 0});
		set_cardinals(window, "_NET_WM_SYNC_REQUEST_COUNTER", &counter, 1);
	}
	xcb_change_property(conn, XCB_PROP_MODE_REPLACE, window, wm_protocols,
		XCB_ATOM_ATOM, 32, n_protocols, protocols);
	static char host[256];
	if (set_pid) {
		uint32_t pid = (uint32_t)getpid();
		set_cardinals(window, "_NET_WM_PID", &pid, 1);
		/* EWMH: the pid means something only with the host it is on. */
		if (!client_machine && gethostname(host, sizeof(host) - 1) == 0) {
			client_machine = host;
		}
	}
	if (client_machine) {
		xcb_change_property(conn, XCB_PROP_MODE_REPLACE, window,
			XCB_ATOM_WM_CLIENT_MACHINE, XCB_ATOM_STRING, 8, strlen(client_machine),
			client_machine);
	}
	if (icon) {
		static uint32_t icons[2 + 48 * 48 + 2 + 16 * 16];
		uint32_t rgb = (uint32_t)strtoul(icon, NULL, 16) & 0xffffff;
		size_t n = 0;
		icons[n++] = 48;
		icons[n++] = 48;
		for (int i = 0; i < 48 * 48; i++) {
			icons[n++] = 0xff000000u | (~rgb & 0xffffff);
		}
		icons[n++] = 16;
		icons[n++] = 16;
		for (int i = 0; i < 16 * 16; i++) {
			icons[n++] = 0xff000000u | rgb;
		}
		set_cardinals(window, "_NET_WM_ICON", icons, (int)n);
	} else if (icon_raw) {
		uint32_t values[64];
		int n = parse_list(icon_raw, values, 64);
		set_cardinals(window, "_NET_WM_ICON", values, n);
	}
	if (has_motif) {
		/* flags (MWM_HINTS_DECORATIONS), functions, decorations, input mode, status */
		uint32_t motif[5] = {2, 0, motif_decorations, 0, 0};
		xcb_atom_t motif_atom = atom("_MOTIF_WM_HINTS");
		xcb_change_property(conn, XCB_PROP_MODE_REPLACE, window, motif_atom, motif_atom,
			32, 5, motif);
	}
	if (transient_for) {
		xcb_change_property(conn, XCB_PROP_MODE_REPLACE, window,
			XCB_ATOM_WM_TRANSIENT_FOR, XCB_ATOM_WINDOW, 32, 1, &transient_for);
	}
	if (type) {
		xcb_atom_t type_atoms[8];
		int n = 0;
		char buf[256];
		snprintf(buf, sizeof(buf), "%s", type);
		for (char *save, *t = strtok_r(buf, ",", &save); t && n < 8;
				t = strtok_r(NULL, ",", &save)) {
			char name[128];
			snprintf(name, sizeof(name), "_NET_WM_WINDOW_TYPE_%s", t);
			type_atoms[n++] = atom(name);
		}
		xcb_change_property(conn, XCB_PROP_MODE_REPLACE, window,
			atom("_NET_WM_WINDOW_TYPE"), XCB_ATOM_ATOM, 32, n, type_atoms);
	}
	if (states) {
		xcb_atom_t state_atoms[16];
		int n = 0;
		char buf[256];
		snprintf(buf, sizeof(buf), "%s", states);
		for (char *save, *name = strtok_r(buf, ",", &save); name && n < 16;
				name = strtok_r(NULL, ",", &save)) {
			char full[128];
			state_atom_name(full, sizeof(full), name);
			state_atoms[n++] = atom(full);
		}
		xcb_change_property(conn, XCB_PROP_MODE_REPLACE, window, atom("_NET_WM_STATE"),
			XCB_ATOM_ATOM, 32, n, state_atoms);
	}
	if (strut_n > 0) {
		set_cardinals(window, strut_partial ? "_NET_WM_STRUT_PARTIAL" : "_NET_WM_STRUT",
			strut, strut_n);
	}
	if (has_user_time) {
		set_cardinals(window, "_NET_WM_USER_TIME", &user_time, 1);
	}
	if (request_extents) {
		xcb_atom_t extents = atom("_NET_FRAME_EXTENTS");
		xcb_client_message_event_t request = {
			.response_type = XCB_CLIENT_MESSAGE,
			.format = 32,
			.window = window,
			.type = atom("_NET_REQUEST_FRAME_EXTENTS"),
		};
		xcb_send_event(conn, 0, screen->root, XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY |
			XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT, (const char *)&request);
		xcb_flush(conn);
		xcb_generic_event_t *ev;
		while ((ev = xcb_wait_for_event(conn))) {
			bool done = (ev->response_type & 0x7f) == XCB_PROPERTY_NOTIFY &&
				((xcb_property_notify_event_t *)ev)->atom == extents;
			free(ev);
			if (done) {
				break;
			}
		}
		xcb_get_property_reply_t *reply = xcb_get_property_reply(conn,
			xcb_get_property(conn, 0, window, extents, XCB_ATOM_CARDINAL, 0, 4), NULL);
		if (reply && xcb_get_property_value_length(reply) == 16) {
			uint32_t *v = xcb_get_property_value(reply);
			printf("frame-extents %u %u %u %u\n", v[0], v[1], v[2], v[3]);
		}
		free(reply);
	}
	xcb_map_window(conn, window);
	xcb_flush(conn);
	printf("window 0x%x\n", window);

	bool answer = sync_mode && strcmp(sync_mode, "answer") == 0;
	int drawn_width = width, drawn_height = height;
	/* The serial of the last sync request, and the one due once drawn. */
	uint64_t requested = 0, due = 0;
	bool drew_slowly = false;
	xcb_generic_event_t *event;
	for (;;) {
		if (due) {
			/* Drawing the new size takes a while; events that came meanwhile first. */
			if (!drew_slowly) {
				usleep((useconds_t)draw_time * 1000);
				drew_slowly = true;
			}
			free(xcb_get_input_focus_reply(conn, xcb_get_input_focus(conn), NULL));
			event = xcb_poll_for_queued_event(conn);
			if (!event) {
				xcb_sync_set_counter(conn, counter, (xcb_sync_int64_t){
					.hi = (int32_t)(due >> 32), .lo = (uint32_t)due});
				xcb_flush(conn);
				printf("sync-set %llu %dx%d\n", (unsigned long long)due,
					drawn_width, drawn_height);
				due = 0;
				drew_slowly = false;
				continue;
			}
		} else if (!(event = xcb_wait_for_event(conn))) {
			break;
		}
		bool synthetic = event->response_type & 0x80;
		switch (event->response_type & 0x7f) {
		case XCB_CONFIGURE_NOTIFY: {
			xcb_configure_notify_event_t *ev = (xcb_configure_notify_event_t *)event;
			printf("configure %d %d %u %u %s\n", ev->x, ev->y, ev->width, ev->height,
				synthetic ? "synthetic" : "real");
			if (sync_mode && !synthetic && (ev->width != drawn_width ||
					ev->height != drawn_height)) {
				drawn_width = ev->width;
				drawn_height = ev->height;
				xcb_rectangle_t all = {0, 0, ev->width, ev->height};
				xcb_poly_fill_rectangle(conn, window, gc, 1, &all);
				xcb_flush(conn);
				if (answer && requested) {
					due = requested;
					requested = 0;
				}
			}
			break;
		}
		case XCB_EXPOSE:
			if (sync_mode) {
				xcb_expose_event_t *ev = (xcb_expose_event_t *)event;
				xcb_rectangle_t area = {ev->x, ev->y, ev->width, ev->height};
				xcb_poly_fill_rectangle(conn, window, gc, 1, &area);
				xcb_flush(conn);
			}
			break;
		case XCB_KEY_PRESS:
			printf("key-press\n");
			break;
		case XCB_FOCUS_IN:
			printf("focus-in\n");
			break;
		case XCB_FOCUS_OUT:
			printf("focus-out\n");
			break;
		case XCB_CLIENT_MESSAGE: {
			xcb_client_message_event_t *ev = (xcb_client_message_event_t *)event;
			if (ev->type != wm_protocols || ev->format != 32) {
				break;
			}
			if (ev->data.data32[0] == wm_delete) {
				printf("delete-window\n");
				if (ignore_delete) {
					break;
				}
				xcb_disconnect(conn);
				free(event);
				return 0;
			}
			if (ev->data.data32[0] == wm_take_focus) {
				printf("take-focus\n");
				if (!input) {
					/* Globally Active: the client gives itself focus. */
					xcb_set_input_focus(conn, XCB_INPUT_FOCUS_PARENT, window,
						ev->data.data32[1]);
					xcb_flush(conn);
				}
			}
			if (sync_mode && ev->data.data32[0] == net_sync) {
				requested = (uint64_t)ev->data.data32[2] |
					(uint64_t)ev->data.data32[3] << 32;
				printf("sync-request %llu\n", (unsigned long long)requested);
			}
			if (ev->data.data32[0] == net_ping) {
				printf("ping\n");
				ev->response_type = XCB_CLIENT_MESSAGE;
				ev->window = screen->root;
				xcb_send_event(conn, 0, screen->root,
					XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY |
					XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT, (const char *)ev);
				xcb_flush(conn);
			}
			break;
		}
		}
		free(event);
	}
	printf("connection closed\n");
	return 0;
}
