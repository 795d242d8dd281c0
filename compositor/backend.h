/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_BACKEND_H
#define ORIEL_BACKEND_H

#include <stdbool.h>

struct server;

/*
 * Chooses and creates the backend (--backend), the renderer and the
 * allocator. auto means: nested when WAYLAND_DISPLAY or DISPLAY is set,
 * else DRM/KMS with libinput through libseat when a KMS device exists,
 * else headless.
 */
bool backend_init(struct server *server);
/* Creates the --output headless outputs, if oriel runs headless. */
void backend_add_headless_outputs(struct server *server);

#endif
