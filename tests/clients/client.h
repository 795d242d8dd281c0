/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_TEST_CLIENT_H
#define ORIEL_TEST_CLIENT_H

#include <stdbool.h>
#include <stdint.h>

/* What the test clients share: connection, globals, argument parsing. */
struct client_globals {
	const char *prog; /* prefix for stderr messages */
	struct wl_display *display;
	struct wl_registry *registry;
	struct wl_compositor *compositor;
	uint32_t compositor_version;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base; /* answers pings by itself */
	struct zxdg_decoration_manager_v1 *decoration_manager;
	struct zwlr_layer_shell_v1 *layer_shell;
};

/* Connects to $WAYLAND_DISPLAY and binds every global we know. */
bool client_globals_init(struct client_globals *globals, const char *prog);
void client_globals_finish(struct client_globals *globals);

/*
 * Dispatches until *done. Returns 0 then, or 1 after saying on stderr
 * why the connection died (a protocol error names interface and code).
 */
int client_run(struct client_globals *globals, const bool *done);
/*
 * Like client_run, and calls ready(data) whenever fd is readable (after
 * the Wayland events that came with it were dispatched).
 */
int client_run_fd(struct client_globals *globals, const bool *done, int fd,
	void (*ready)(void *data), void *data);
/* Prints why the display failed; returns its errno (EPROTO for errors). */
int client_report_display_error(struct client_globals *globals);

bool client_parse_colour(const char *text, uint32_t *xrgb);
bool client_parse_size(const char *text, int *width, int *height);
bool client_parse_int(const char *text, int min, int max, int *out);

/* Writes via PATH.tmp and rename(), so readers never see a partial file. */
bool client_write_file(const char *path, const char *contents);

#endif
