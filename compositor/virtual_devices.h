/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_VIRTUAL_DEVICES_H
#define ORIEL_VIRTUAL_DEVICES_H

/*
 * The virtual keyboards and pointers that clients make (a VNC server such
 * as wayvnc) become input devices of the seat, like a physical one. The
 * globals are privileged (privileged_globals.h).
 */

struct server;
struct virtual_devices;

struct virtual_devices *virtual_devices_create(struct server *server);
void virtual_devices_destroy(struct virtual_devices *devices);

#endif
