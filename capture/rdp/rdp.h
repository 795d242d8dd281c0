#ifndef ORIEL_CAPTURE_RDP_H
#define ORIEL_CAPTURE_RDP_H

/*
 * The built-in RDP server: FreeRDP 2's server libraries driven from
 * oriel's event loop, fed by the output capture's damage. Settings come
 * from server->options->rdp.
 */

struct server;
struct rdp_server;

/* Call after server_start. NULL on failure (the reason is logged). */
struct rdp_server *rdp_server_create(struct server *server);
/* Call before server_finish; disconnects every client. NULL is a no-op. */
void rdp_server_destroy(struct rdp_server *rdp);

#endif
