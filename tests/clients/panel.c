/* SPDX-License-Identifier: MIT */
/*
 * oriel-test-panel: a layer-shell bar across the top of the output,
 * reserving its height as an exclusive zone, so tests can check that
 * windows are placed and maximized around it.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <wayland-client.h>

#include "client.h"
#include "solid.h"
#include "wlr-layer-shell-unstable-v1-client-protocol.h"

/* Anchored left and right the compositor picks the width; this is a guard. */
#define PANEL_FALLBACK_WIDTH 200

struct panel_client {
	struct client_globals globals;
	struct solid_surface solid;
	struct zwlr_layer_surface_v1 *layer_surface;
	int height;
	bool done;
	int status;
};

/* Zero means "your choice"; oversized values fail the buffer's bounds check. */
static int pick_dimension(uint32_t configured, int own)
{
	if (configured == 0)
		return own;
	return configured > INT_MAX ? INT_MAX : (int)configured;
}

static void handle_configure(void *data,
		struct zwlr_layer_surface_v1 *layer_surface, uint32_t serial,
		uint32_t width, uint32_t height)
{
	struct panel_client *p = data;

	fprintf(stderr, "%s: configure %ux%u\n", p->globals.prog, width, height);
	zwlr_layer_surface_v1_ack_configure(layer_surface, serial);
	if (!solid_surface_commit(&p->solid,
			pick_dimension(width, PANEL_FALLBACK_WIDTH),
			pick_dimension(height, p->height))) {
		p->status = 1;
		p->done = true;
	}
}

static void handle_closed(void *data,
		struct zwlr_layer_surface_v1 *layer_surface)
{
	struct panel_client *p = data;

	fprintf(stderr, "%s: closed by the compositor\n", p->globals.prog);
	p->done = true;
}

static const struct zwlr_layer_surface_v1_listener layer_surface_listener = {
	.configure = handle_configure,
	.closed = handle_closed,
};

static bool parse_layer(const char *text, uint32_t *layer)
{
	static const char *const names[] = {
		[ZWLR_LAYER_SHELL_V1_LAYER_BACKGROUND] = "background",
		[ZWLR_LAYER_SHELL_V1_LAYER_BOTTOM] = "bottom",
		[ZWLR_LAYER_SHELL_V1_LAYER_TOP] = "top",
		[ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY] = "overlay",
	};
	for (uint32_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(text, names[i]) == 0) {
			*layer = i;
			return true;
		}
	}
	return false;
}

static void usage(FILE *out, const char *prog)
{
	fprintf(out,
		"usage: %s [options]\n"
		"  --height N         bar height and exclusive zone (30)\n"
		"  --colour RRGGBB    fill colour (0000ff)\n"
		"  --layer L          background|bottom|top|overlay (top)\n"
		"  --ready-file PATH  write \"W H\" once each size is presented\n"
		"Exits 0 when the compositor closes the surface, 1 if the"
		" connection dies.\n",
		prog);
}

int main(int argc, char *argv[])
{
	const char *prog = "oriel-test-panel";
	static const struct option opts[] = {
		{ "height", required_argument, NULL, 'H' },
		{ "colour", required_argument, NULL, 'c' },
		{ "color", required_argument, NULL, 'c' },
		{ "layer", required_argument, NULL, 'l' },
		{ "ready-file", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct panel_client p = { .height = 30 };
	uint32_t colour = 0x0000ff, layer = ZWLR_LAYER_SHELL_V1_LAYER_TOP;
	const char *ready_file = NULL;
	int opt;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'H':
			if (!client_parse_int(optarg, 1, 16384, &p.height)) {
				fprintf(stderr, "%s: bad --height '%s'\n", prog, optarg);
				return 2;
			}
			break;
		case 'c':
			if (!client_parse_colour(optarg, &colour)) {
				fprintf(stderr, "%s: bad --colour '%s'\n", prog, optarg);
				return 2;
			}
			break;
		case 'l':
			if (!parse_layer(optarg, &layer)) {
				fprintf(stderr, "%s: bad --layer '%s'\n", prog, optarg);
				return 2;
			}
			break;
		case 'r': ready_file = optarg; break;
		case 'h': usage(stdout, prog); return 0;
		default: usage(stderr, prog); return 2;
		}
	}
	if (optind < argc) {
		usage(stderr, prog);
		return 2;
	}

	if (!client_globals_init(&p.globals, prog))
		return 1;
	struct client_globals *g = &p.globals;
	if (!g->compositor || !g->shm || !g->layer_shell) {
		fprintf(stderr, "%s: compositor lacks wl_compositor, wl_shm or"
			" zwlr_layer_shell_v1\n", prog);
		client_globals_finish(g);
		return 1;
	}

	solid_surface_init(&p.solid, g, colour, ready_file);
	/* A NULL output lets the compositor choose (the focused one). */
	p.layer_surface = zwlr_layer_shell_v1_get_layer_surface(g->layer_shell,
		p.solid.surface, NULL, layer, "oriel-test-panel");
	zwlr_layer_surface_v1_add_listener(p.layer_surface,
		&layer_surface_listener, &p);
	zwlr_layer_surface_v1_set_size(p.layer_surface, 0, (uint32_t)p.height);
	zwlr_layer_surface_v1_set_anchor(p.layer_surface,
		ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP |
		ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT |
		ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT);
	zwlr_layer_surface_v1_set_exclusive_zone(p.layer_surface, p.height);
	wl_surface_commit(p.solid.surface);

	if (client_run(g, &p.done) != 0)
		p.status = 1;

	zwlr_layer_surface_v1_destroy(p.layer_surface);
	solid_surface_finish(&p.solid);
	client_globals_finish(g);
	return p.status;
}
