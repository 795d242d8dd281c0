#ifndef ORIEL_CAPTURE_VNC_H
#define ORIEL_CAPTURE_VNC_H

/*
 * The built-in VNC server: libvncserver driven from oriel's event loop,
 * fed by the output capture's damage. Settings come from
 * server->options->vnc.
 */

#include <stdbool.h>

struct server;
struct vnc_server;

/* Call after server_start. NULL on failure (the reason is logged). */
struct vnc_server *vnc_server_create(struct server *server);
/* Call before server_finish; disconnects every viewer. NULL is a no-op. */
void vnc_server_destroy(struct vnc_server *vnc);

#endif
