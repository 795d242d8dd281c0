/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_VIRTUAL_OUTPUT_H
#define ORIEL_VIRTUAL_OUTPUT_H

/*
 * Virtual outputs: headless outputs (compositor/headless_backend.h) made
 * on demand, placed in the layout like any other output, and named
 * VIRTUAL-N. Whoever creates one destroys it; it lives only as long as
 * its owner (a virtual cast). They exist on every backend: on DRM or a
 * nested backend a headless backend is added for them on first use.
 */

#include <stdbool.h>

struct server;
struct output;
struct virtual_output;

/* NULL (logged) when the output cannot be made or enabled. */
struct virtual_output *virtual_output_create(struct server *server, int width,
	int height);
/* The same, named PREFIX-N (e.g. RDP-1 for a remote client's monitor). */
struct virtual_output *virtual_output_create_named(struct server *server,
	const char *prefix, int width, int height);
/* Removes the output from the layout. NULL is a no-op. */
void virtual_output_destroy(struct virtual_output *virtual);
/* NULL once the output went away by other means (shutdown). */
struct output *virtual_output_get(struct virtual_output *virtual);

#endif
