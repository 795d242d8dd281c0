/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CONTROL_CONTROL_H
#define ORIEL_CONTROL_CONTROL_H

/*
 * The control API: org.oriel.Compositor at /org/oriel/Compositor on the
 * session bus, as protocols/org.oriel.Compositor.xml defines it. orielctl
 * and the portal backend are its clients.
 */

struct server;
struct control;

/*
 * Connects to the session bus (DBUS_SESSION_BUS_ADDRESS), takes the name,
 * exports the four interfaces and runs the bus from server->loop.
 * NULL on failure (no bus, or the name is taken).
 */
struct control *control_create(struct server *server);
/* Releases the name and closes the bus; NULL is a no-op. */
void control_destroy(struct control *control);
/*
 * Puts WAYLAND_DISPLAY, DISPLAY (when set), XDG_SESSION_TYPE and
 * XDG_CURRENT_DESKTOP into the bus's activation environment, so services
 * it starts (the portal, pipewire) find this session. Call it again when
 * DISPLAY appears later. Asynchronous; failures are logged.
 */
void control_update_activation_environment(struct control *control);

#endif
