/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_LAYER_SHELL_H
#define ORIEL_LAYER_SHELL_H

/* wlr-layer-shell: panels, docks and backgrounds, with exclusive zones. */

struct output;
struct server;
struct wlr_scene_node;

void layer_shell_init(struct server *server);
void layer_shell_finish(struct server *server);
/* Places the output's layer surfaces and recomputes its usable area. */
void layer_shell_arrange(struct output *output);
void layer_shell_output_destroyed(struct output *output);
/* A click on a layer surface that takes keyboard focus on demand. */
void layer_shell_focus_at(struct server *server, struct wlr_scene_node *node);

#endif
