/* SPDX-License-Identifier: MIT */
/*
 * oriel-test-colour: an xdg toplevel showing one solid colour. It takes
 * whatever size the compositor configures, so a test can check from
 * screenshots that maximize/fullscreen really fill what was given.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include <wayland-client.h>

#include "client.h"
#include "solid.h"
#include "xdg-decoration-unstable-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"

struct colour_client {
	struct client_globals globals;
	struct solid_surface solid;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	struct zxdg_toplevel_decoration_v1 *decoration;
	const char *decoration_file;
	int own_width, own_height;         /* --size, used for a 0 configure */
	int pending_width, pending_height; /* from the last toplevel configure */
	bool done;
	int status;
	/* --patch: SIGUSR1 toggles this rectangle between patch_colour and the colour. */
	int patch_x, patch_y, patch_w, patch_h;
	uint32_t patch_colour;
	int patch_steps;
	int signal_fd;
};

static const char *state_name(uint32_t state)
{
	switch (state) {
	case XDG_TOPLEVEL_STATE_MAXIMIZED: return "maximized";
	case XDG_TOPLEVEL_STATE_FULLSCREEN: return "fullscreen";
	case XDG_TOPLEVEL_STATE_RESIZING: return "resizing";
	case XDG_TOPLEVEL_STATE_ACTIVATED: return "activated";
	case XDG_TOPLEVEL_STATE_TILED_LEFT: return "tiled_left";
	case XDG_TOPLEVEL_STATE_TILED_RIGHT: return "tiled_right";
	case XDG_TOPLEVEL_STATE_TILED_TOP: return "tiled_top";
	case XDG_TOPLEVEL_STATE_TILED_BOTTOM: return "tiled_bottom";
	default: return "unknown";
	}
}

static void handle_toplevel_configure(void *data,
		struct xdg_toplevel *toplevel, int32_t width, int32_t height,
		struct wl_array *states)
{
	struct colour_client *c = data;
	uint32_t *state;

	fprintf(stderr, "%s: configure %dx%d states:", c->globals.prog,
		width, height);
	wl_array_for_each(state, states)
		fprintf(stderr, " %s", state_name(*state));
	fprintf(stderr, "\n");
	c->pending_width = width;
	c->pending_height = height;
}

static void handle_toplevel_close(void *data, struct xdg_toplevel *toplevel)
{
	struct colour_client *c = data;

	fprintf(stderr, "%s: close requested\n", c->globals.prog);
	c->done = true;
}

static void handle_configure_bounds(void *data, struct xdg_toplevel *toplevel,
		int32_t width, int32_t height)
{
	struct colour_client *c = data;

	fprintf(stderr, "%s: configure bounds %dx%d\n", c->globals.prog,
		width, height);
}

static void handle_wm_capabilities(void *data, struct xdg_toplevel *toplevel,
		struct wl_array *capabilities)
{
}

static const struct xdg_toplevel_listener toplevel_listener = {
	.configure = handle_toplevel_configure,
	.close = handle_toplevel_close,
	.configure_bounds = handle_configure_bounds,
	.wm_capabilities = handle_wm_capabilities,
};

static void handle_surface_configure(void *data,
		struct xdg_surface *xdg_surface, uint32_t serial)
{
	struct colour_client *c = data;
	/* Zero means "your choice", per dimension. */
	int width = c->pending_width > 0 ? c->pending_width : c->own_width;
	int height = c->pending_height > 0 ? c->pending_height : c->own_height;

	xdg_surface_ack_configure(xdg_surface, serial);
	if (!solid_surface_commit(&c->solid, width, height)) {
		c->status = 1;
		c->done = true;
	}
}

static const struct xdg_surface_listener surface_listener = {
	.configure = handle_surface_configure,
};

static void report_decoration(struct colour_client *c, const char *mode)
{
	char text[16];

	fprintf(stderr, "decoration mode: %s\n", mode);
	if (c->decoration_file) {
		snprintf(text, sizeof(text), "%s\n", mode);
		client_write_file(c->decoration_file, text);
	}
}

static void handle_decoration_configure(void *data,
		struct zxdg_toplevel_decoration_v1 *decoration, uint32_t mode)
{
	report_decoration(data,
		mode == ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE ?
		"server" : "client");
}

static const struct zxdg_toplevel_decoration_v1_listener decoration_listener = {
	.configure = handle_decoration_configure,
};

static void create_toplevel(struct colour_client *c, const char *title,
		const char *app_id, bool maximize, bool fullscreen)
{
	struct client_globals *g = &c->globals;

	c->xdg_surface = xdg_wm_base_get_xdg_surface(g->wm_base,
		c->solid.surface);
	xdg_surface_add_listener(c->xdg_surface, &surface_listener, c);
	c->toplevel = xdg_surface_get_toplevel(c->xdg_surface);
	xdg_toplevel_add_listener(c->toplevel, &toplevel_listener, c);
	xdg_toplevel_set_title(c->toplevel, title);
	xdg_toplevel_set_app_id(c->toplevel, app_id);

	/* Must precede the first commit: asking later is a protocol error. */
	if (g->decoration_manager) {
		c->decoration = zxdg_decoration_manager_v1_get_toplevel_decoration(
			g->decoration_manager, c->toplevel);
		zxdg_toplevel_decoration_v1_add_listener(c->decoration,
			&decoration_listener, c);
		zxdg_toplevel_decoration_v1_set_mode(c->decoration,
			ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE);
	} else {
		report_decoration(c, "none");
	}
	if (maximize)
		xdg_toplevel_set_maximized(c->toplevel);
	if (fullscreen)
		xdg_toplevel_set_fullscreen(c->toplevel, NULL);

	/* No buffer yet: this commit asks for the first configure. */
	wl_surface_commit(c->solid.surface);
}

static void destroy_toplevel(struct colour_client *c)
{
	if (c->decoration)
		zxdg_toplevel_decoration_v1_destroy(c->decoration);
	if (c->toplevel)
		xdg_toplevel_destroy(c->toplevel);
	if (c->xdg_surface)
		xdg_surface_destroy(c->xdg_surface);
	solid_surface_finish(&c->solid);
}

static void handle_signal_fd(void *data)
{
	struct colour_client *c = data;
	struct signalfd_siginfo info;

	if (read(c->signal_fd, &info, sizeof(info)) != sizeof(info))
		return;
	c->patch_steps++;
	uint32_t colour = c->patch_steps % 2 ? c->patch_colour : c->solid.colour;
	fprintf(stderr, "%s: patch %d\n", c->globals.prog, c->patch_steps);
	if (!solid_surface_commit_patch(&c->solid, c->patch_x, c->patch_y,
			c->patch_w, c->patch_h, colour)) {
		c->status = 1;
		c->done = true;
	}
}

static bool parse_rect(const char *text, int *x, int *y, int *w, int *h)
{
	char end;
	return sscanf(text, "%d,%d,%d,%d%c", x, y, w, h, &end) == 4 &&
		*w > 0 && *h > 0;
}

static void usage(FILE *out, const char *prog)
{
	fprintf(out,
		"usage: %s [options]\n"
		"  --size WxH            size when the compositor leaves it to us"
		" (200x150)\n"
		"  --colour RRGGBB       fill colour (ff0000)\n"
		"  --title T             toplevel title (oriel-test-colour)\n"
		"  --app-id A            toplevel app id (oriel-test-colour)\n"
		"  --maximize            ask to be maximized before mapping\n"
		"  --fullscreen          ask to be fullscreen before mapping\n"
		"  --ready-file PATH     write \"W H\" once each size is presented\n"
		"  --decoration-file PATH  write server|client|none\n"
		"  --rgb565              RGB565 buffers instead of XRGB8888 (no --patch)\n"
		"  --patch X,Y,W,H       each SIGUSR1 toggles this rectangle between\n"
		"                        --patch-colour and the colour, damaging only it\n"
		"  --patch-colour RRGGBB the patch's other colour (0000ff)\n"
		"Exits 0 on xdg_toplevel.close, 1 if the connection dies.\n",
		prog);
}

int main(int argc, char *argv[])
{
	const char *prog = "oriel-test-colour";
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "colour", required_argument, NULL, 'c' },
		{ "color", required_argument, NULL, 'c' },
		{ "title", required_argument, NULL, 't' },
		{ "app-id", required_argument, NULL, 'a' },
		{ "maximize", no_argument, NULL, 'm' },
		{ "fullscreen", no_argument, NULL, 'f' },
		{ "ready-file", required_argument, NULL, 'r' },
		{ "decoration-file", required_argument, NULL, 'd' },
		{ "patch", required_argument, NULL, 'p' },
		{ "patch-colour", required_argument, NULL, 'P' },
		{ "rgb565", no_argument, NULL, '5' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct colour_client c = { .own_width = 200, .own_height = 150,
		.patch_colour = 0x0000ff, .signal_fd = -1 };
	bool patch = false;
	uint32_t colour = 0xff0000;
	const char *title = prog, *app_id = prog, *ready_file = NULL;
	bool maximize = false, fullscreen = false, rgb565 = false;
	int opt;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 's':
			if (!client_parse_size(optarg, &c.own_width, &c.own_height)) {
				fprintf(stderr, "%s: bad --size '%s'\n", prog, optarg);
				return 2;
			}
			break;
		case 'c':
			if (!client_parse_colour(optarg, &colour)) {
				fprintf(stderr, "%s: bad --colour '%s'\n", prog, optarg);
				return 2;
			}
			break;
		case 't': title = optarg; break;
		case 'a': app_id = optarg; break;
		case 'm': maximize = true; break;
		case 'f': fullscreen = true; break;
		case 'r': ready_file = optarg; break;
		case 'd': c.decoration_file = optarg; break;
		case 'p':
			if (!parse_rect(optarg, &c.patch_x, &c.patch_y, &c.patch_w,
					&c.patch_h)) {
				fprintf(stderr, "%s: bad --patch '%s'\n", prog, optarg);
				return 2;
			}
			patch = true;
			break;
		case 'P':
			if (!client_parse_colour(optarg, &c.patch_colour)) {
				fprintf(stderr, "%s: bad --patch-colour '%s'\n", prog, optarg);
				return 2;
			}
			break;
		case '5': rgb565 = true; break;
		case 'h': usage(stdout, prog); return 0;
		default: usage(stderr, prog); return 2;
		}
	}
	if (optind < argc || (rgb565 && patch)) {
		usage(stderr, prog);
		return 2;
	}

	if (!client_globals_init(&c.globals, prog))
		return 1;
	struct client_globals *g = &c.globals;
	if (!g->compositor || !g->shm || !g->wm_base) {
		fprintf(stderr, "%s: compositor lacks wl_compositor, wl_shm or"
			" xdg_wm_base\n", prog);
		client_globals_finish(g);
		return 1;
	}

	solid_surface_init(&c.solid, g, colour, ready_file);
	c.solid.rgb565 = rgb565;
	create_toplevel(&c, title, app_id, maximize, fullscreen);
	if (patch) {
		sigset_t mask;
		sigemptyset(&mask);
		sigaddset(&mask, SIGUSR1);
		sigprocmask(SIG_BLOCK, &mask, NULL);
		c.signal_fd = signalfd(-1, &mask, SFD_CLOEXEC);
		if (c.signal_fd < 0) {
			perror("signalfd");
			c.status = 1;
		} else if (client_run_fd(g, &c.done, c.signal_fd, handle_signal_fd, &c) != 0) {
			c.status = 1;
		}
	} else if (client_run(g, &c.done) != 0) {
		c.status = 1;
	}
	if (c.signal_fd >= 0)
		close(c.signal_fd);

	destroy_toplevel(&c);
	client_globals_finish(g);
	return c.status;
}
