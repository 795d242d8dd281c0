/* SPDX-License-Identifier: MIT */
#include "client.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

#include "wlr-layer-shell-unstable-v1-client-protocol.h"
#include "xdg-decoration-unstable-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"

#define MIN(a, b) ((a) < (b) ? (a) : (b))

static void handle_ping(void *data, struct xdg_wm_base *wm_base,
		uint32_t serial)
{
	xdg_wm_base_pong(wm_base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {
	.ping = handle_ping,
};

static void handle_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version)
{
	struct client_globals *g = data;

	/* Bind no higher than the versions whose events we handle. */
	if (strcmp(interface, wl_compositor_interface.name) == 0) {
		g->compositor_version = MIN(version, 4);
		g->compositor = wl_registry_bind(registry, name,
			&wl_compositor_interface, g->compositor_version);
	} else if (strcmp(interface, wl_shm_interface.name) == 0) {
		g->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	} else if (strcmp(interface, xdg_wm_base_interface.name) == 0) {
		g->wm_base = wl_registry_bind(registry, name,
			&xdg_wm_base_interface, MIN(version, 5));
		xdg_wm_base_add_listener(g->wm_base, &wm_base_listener, g);
	} else if (strcmp(interface,
			zxdg_decoration_manager_v1_interface.name) == 0) {
		g->decoration_manager = wl_registry_bind(registry, name,
			&zxdg_decoration_manager_v1_interface, 1);
	} else if (strcmp(interface, zwlr_layer_shell_v1_interface.name) == 0) {
		g->layer_shell = wl_registry_bind(registry, name,
			&zwlr_layer_shell_v1_interface, MIN(version, 4));
	}
}

static void handle_global_remove(void *data, struct wl_registry *registry,
		uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {
	.global = handle_global,
	.global_remove = handle_global_remove,
};

bool client_globals_init(struct client_globals *g, const char *prog)
{
	*g = (struct client_globals){ .prog = prog };
	g->display = wl_display_connect(NULL);
	if (!g->display) {
		fprintf(stderr, "%s: cannot connect to the Wayland display: %s\n",
			prog, strerror(errno));
		return false;
	}
	g->registry = wl_display_get_registry(g->display);
	wl_registry_add_listener(g->registry, &registry_listener, g);
	if (wl_display_roundtrip(g->display) < 0) {
		client_report_display_error(g);
		client_globals_finish(g);
		return false;
	}
	return true;
}

void client_globals_finish(struct client_globals *g)
{
	if (g->layer_shell)
		zwlr_layer_shell_v1_destroy(g->layer_shell);
	if (g->decoration_manager)
		zxdg_decoration_manager_v1_destroy(g->decoration_manager);
	if (g->wm_base)
		xdg_wm_base_destroy(g->wm_base);
	if (g->shm)
		wl_shm_destroy(g->shm);
	if (g->compositor)
		wl_compositor_destroy(g->compositor);
	if (g->registry)
		wl_registry_destroy(g->registry);
	if (g->display)
		wl_display_disconnect(g->display);
	*g = (struct client_globals){0};
}

int client_report_display_error(struct client_globals *g)
{
	int err = wl_display_get_error(g->display);
	if (err == EPROTO) {
		const struct wl_interface *iface = NULL;
		uint32_t id = 0;
		uint32_t code = wl_display_get_protocol_error(g->display,
			&iface, &id);
		fprintf(stderr, "%s: protocol error on %s@%u, code %u\n",
			g->prog, iface ? iface->name : "unknown", id, code);
	} else {
		fprintf(stderr, "%s: Wayland connection lost: %s\n", g->prog,
			strerror(err ? err : errno));
	}
	return err;
}

int client_run(struct client_globals *g, const bool *done)
{
	while (!*done) {
		if (wl_display_dispatch(g->display) < 0) {
			client_report_display_error(g);
			return 1;
		}
	}
	return 0;
}

int client_run_fd(struct client_globals *g, const bool *done, int fd,
		void (*ready)(void *data), void *data)
{
	struct pollfd fds[2] = {
		{ .fd = wl_display_get_fd(g->display), .events = POLLIN },
		{ .fd = fd, .events = POLLIN },
	};
	while (!*done) {
		while (wl_display_prepare_read(g->display) != 0) {
			if (wl_display_dispatch_pending(g->display) < 0)
				goto error;
		}
		if (wl_display_flush(g->display) < 0 && errno != EAGAIN) {
			wl_display_cancel_read(g->display);
			goto error;
		}
		if (poll(fds, 2, -1) < 0) {
			wl_display_cancel_read(g->display);
			if (errno == EINTR)
				continue;
			goto error;
		}
		if (fds[0].revents & (POLLIN | POLLERR | POLLHUP)) {
			if (wl_display_read_events(g->display) < 0)
				goto error;
		} else {
			wl_display_cancel_read(g->display);
		}
		if (wl_display_dispatch_pending(g->display) < 0)
			goto error;
		if (fds[1].revents & POLLIN)
			ready(data);
	}
	return 0;

error:
	client_report_display_error(g);
	return 1;
}

bool client_parse_colour(const char *text, uint32_t *xrgb)
{
	if (text[0] == '#')
		text++;
	if (strlen(text) != 6 || strspn(text, "0123456789abcdefABCDEF") != 6)
		return false;
	*xrgb = (uint32_t)strtoul(text, NULL, 16);
	return true;
}

bool client_parse_int(const char *text, int min, int max, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < min || v > max)
		return false;
	*out = (int)v;
	return true;
}

bool client_parse_size(const char *text, int *width, int *height)
{
	char buf[32];
	const char *x = strchr(text, 'x');
	size_t len = x ? (size_t)(x - text) : 0;
	if (!x || len == 0 || len >= sizeof(buf))
		return false;
	memcpy(buf, text, len);
	buf[len] = '\0';
	return client_parse_int(buf, 1, 16384, width) &&
		client_parse_int(x + 1, 1, 16384, height);
}

bool client_write_file(const char *path, const char *contents)
{
	char tmp[4096];
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp)) {
		fprintf(stderr, "path too long: %s\n", path);
		return false;
	}
	FILE *f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "cannot write %s: %s\n", tmp, strerror(errno));
		return false;
	}
	bool ok = fputs(contents, f) >= 0;
	ok = fclose(f) == 0 && ok;
	if (!ok || rename(tmp, path) < 0) {
		fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
		remove(tmp);
		return false;
	}
	return true;
}
