/* SPDX-License-Identifier: MIT */
/*
 * oriel-test-malformed: sends one request the server must reject, to
 * check that a misbehaving client gets a protocol error and is cut off
 * while the compositor and its other clients carry on.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include "client.h"
#include "xdg-shell-client-protocol.h"

/* wl_shm.create_pool with size 0: libwayland answers invalid_stride. */
static bool send_bad_shm_pool(struct client_globals *g)
{
	if (!g->shm) {
		fprintf(stderr, "%s: no wl_shm\n", g->prog);
		return false;
	}
	int fd = memfd_create("oriel-test-malformed", MFD_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "%s: memfd: %s\n", g->prog, strerror(errno));
		return false;
	}
	struct wl_shm_pool *pool = wl_shm_create_pool(g->shm, fd, 0);
	close(fd);
	wl_display_roundtrip(g->display);
	wl_shm_pool_destroy(pool);
	return true;
}

/* xdg_positioner.set_size(0, 0): wlroots answers invalid_input. */
static bool send_bad_positioner(struct client_globals *g)
{
	if (!g->wm_base) {
		fprintf(stderr, "%s: no xdg_wm_base\n", g->prog);
		return false;
	}
	struct xdg_positioner *positioner =
		xdg_wm_base_create_positioner(g->wm_base);
	xdg_positioner_set_size(positioner, 0, 0);
	wl_display_roundtrip(g->display);
	xdg_positioner_destroy(positioner);
	return true;
}

#define MAX_GLOBAL_NAME 512

static void registry_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version)
{
	bool *listed = data;
	if (name < MAX_GLOBAL_NAME)
		listed[name] = true;
}

static void registry_global_remove(void *data, struct wl_registry *registry,
		uint32_t name)
{
}

static const struct wl_registry_listener listing = {
	.global = registry_global,
	.global_remove = registry_global_remove,
};

/*
 * Binds a global the registry did not list, by guessing its name from a
 * gap in the listed ones: a global hidden from this client must stay out
 * of reach (libwayland answers wl_display.invalid_object on wl_registry).
 */
static bool send_bind_hidden(struct client_globals *g)
{
	static bool listed[MAX_GLOBAL_NAME];
	struct wl_registry *registry = wl_display_get_registry(g->display);
	wl_registry_add_listener(registry, &listing, listed);
	wl_display_roundtrip(g->display);
	uint32_t last = 0;
	for (uint32_t name = 1; name < MAX_GLOBAL_NAME; name++)
		if (listed[name])
			last = name;
	uint32_t hidden = 1;
	while (hidden < last && listed[hidden])
		hidden++;
	if (hidden >= last) {
		fprintf(stderr, "%s: the registry hides no global\n", g->prog);
		wl_registry_destroy(registry);
		return false;
	}
	/* Only the name travels; the interface need not be known here. */
	static const struct wl_interface guess = {
		"zwlr_screencopy_manager_v1", 1, 0, NULL, 0, NULL,
	};
	fprintf(stderr, "%s: binding unlisted global %u\n", g->prog, hidden);
	struct wl_proxy *bound = wl_registry_bind(registry, hidden, &guess, 1);
	wl_display_roundtrip(g->display);
	wl_proxy_destroy(bound);
	wl_registry_destroy(registry);
	return true;
}

static const struct {
	const char *name;
	bool (*send)(struct client_globals *g);
} kinds[] = {
	{ "shm-pool", send_bad_shm_pool },
	{ "positioner", send_bad_positioner },
	{ "bind-hidden", send_bind_hidden },
};

static void usage(FILE *out, const char *prog)
{
	fprintf(out,
		"usage: %s [--kind shm-pool|positioner|bind-hidden]\n"
		"  shm-pool    wl_shm.create_pool of size 0"
		" (wl_shm error 1, invalid_stride)\n"
		"  positioner  xdg_positioner.set_size(0, 0)"
		" (xdg_positioner error 0, invalid_input)\n"
		"  bind-hidden a global the registry did not list"
		" (wl_registry error 0, invalid_object)\n"
		"Prints \"protocol-error <interface> <code>\" and exits 0 once"
		" disconnected\nwith a protocol error; exits 1 otherwise.\n",
		prog);
}

int main(int argc, char *argv[])
{
	const char *prog = "oriel-test-malformed";
	static const struct option opts[] = {
		{ "kind", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *kind = "shm-pool";
	int opt;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'k': kind = optarg; break;
		case 'h': usage(stdout, prog); return 0;
		default: usage(stderr, prog); return 2;
		}
	}
	size_t k = 0;
	while (k < sizeof(kinds) / sizeof(kinds[0]) &&
			strcmp(kinds[k].name, kind) != 0)
		k++;
	if (optind < argc || k == sizeof(kinds) / sizeof(kinds[0])) {
		usage(stderr, prog);
		return 2;
	}

	struct client_globals g;
	if (!client_globals_init(&g, prog))
		return 1;
	if (!g.compositor) {
		fprintf(stderr, "%s: no wl_compositor\n", prog);
		client_globals_finish(&g);
		return 1;
	}

	int status = 1;
	if (kinds[k].send(&g)) {
		int err = wl_display_get_error(g.display);
		if (err == EPROTO) {
			const struct wl_interface *iface = NULL;
			uint32_t id = 0;
			uint32_t code = wl_display_get_protocol_error(g.display,
				&iface, &id);
			/* libwayland already logged the message to stderr. */
			printf("protocol-error %s %u\n",
				iface ? iface->name : "unknown", code);
			status = 0;
		} else if (err) {
			client_report_display_error(&g);
		} else {
			fprintf(stderr, "%s: the server accepted the %s request\n",
				prog, kind);
		}
	}
	client_globals_finish(&g);
	return status;
}
