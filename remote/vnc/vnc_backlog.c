/* SPDX-License-Identifier: MIT */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <wlr/util/log.h>
#include "remote/vnc/vnc_private.h"
#include "remote/vnc/vnc_relay.h"
#include "compositor/options.h"
#include "compositor/server.h"
#include "common/peer_address.h"
#include "common/util.h"

/*
 * Each viewer's socket goes through a relay (vnc_relay.c), so libvncserver
 * never waits on a viewer that reads slowly or not at all. Updates are
 * paced by the relay's queue: a viewer gets the next framebuffer update
 * once it took the previous one, so its queue holds about one update.
 */

/* Room for about two whole updates, the clipboard and the small messages. */
static size_t max_queued(struct vnc_server *vnc) {
	size_t frame = (size_t)vnc->width * vnc->height * 4;
	return 2 * frame + 2 * (size_t)vnc->options->max_cut_text + 4 * 1024 * 1024;
}

/*
 * The viewer's socket holds one whole raw update, so that raw pixels
 * written straight from the framebuffer (vnc_raw.c) go into the kernel at
 * once instead of partly being copied for the relay; a viewer that reads
 * slowly still lags by about one update at most.
 */
static size_t peer_buffer(struct vnc_server *vnc) {
	return (size_t)vnc->width * vnc->height * 4 + 64 * 1024;
}

bool vnc_backlog_init(struct vnc_server *vnc) {
	vnc->relays = vnc_relays_create();
	if (!vnc->relays) {
		wlr_log_errno(WLR_ERROR, "VNC: cannot start the viewers' relay thread");
		return false;
	}
	return true;
}

void vnc_backlog_finish(struct vnc_server *vnc) {
	vnc_relays_destroy(vnc->relays);
	vnc->relays = NULL;
}

/* The numeric address libvncserver would have found; "" for a Unix socket. */
static void peer_host(int fd, char *host, size_t size) {
	if (peer_address(fd, host, size) != PEER_ADDRESS_NUMERIC) {
		host[0] = '\0';
	}
}

int vnc_backlog_open(struct vnc_server *vnc, int fd, const struct vnc_relay_start *start) {
	peer_host(fd, vnc->handoff_host, sizeof(vnc->handoff_host));
	if (vnc->handoff_host[0]) {
		/* As libvncserver does: small messages (cursor, input echo) go at once. */
		int one = 1;
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	}
	int local_fd;
	vnc->handoff = vnc_relay_open(vnc->relays, fd, start, max_queued(vnc), &local_fd);
	if (!vnc->handoff) {
		wlr_log_errno(WLR_ERROR, "VNC: cannot relay a viewer's connection");
		return -1;
	}
	if (!vnc_relay_size_peer_buffer(vnc->handoff, peer_buffer(vnc))) {
		wlr_log(WLR_DEBUG, "VNC: the kernel sizes the viewer's send buffer itself");
	}
	return local_fd;
}

void vnc_backlog_abandon(struct vnc_server *vnc) {
	/* libvncserver refused the viewer before our hook took the relay. */
	vnc_relay_release(vnc->handoff);
	vnc->handoff = NULL;
}

static int handle_drained(int fd, uint32_t mask, void *data) {
	struct vnc_client *client = data;
	vnc_relay_ack_drained(client->relay);
	vnc_client_schedule_update(client);
	return 0;
}

bool vnc_backlog_adopt(struct vnc_client *client) {
	struct vnc_server *vnc = client->vnc;
	if (!vnc->handoff) {
		return false;
	}
	client->drained = wl_event_loop_add_fd(vnc->server->loop,
		vnc_relay_drained_fd(vnc->handoff), WL_EVENT_READABLE, handle_drained, client);
	if (!client->drained) {
		return false;
	}
	client->relay = vnc->handoff;
	vnc->handoff = NULL;
	/* libvncserver only saw our socketpair. */
	free(client->cl->host);
	client->cl->host = xstrdup(vnc->handoff_host);
	return true;
}

void vnc_backlog_client_gone(struct vnc_client *client) {
	if (client->drained) {
		wl_event_source_remove(client->drained);
		client->drained = NULL;
	}
	vnc_relay_release(client->relay);
	client->relay = NULL;
}

bool vnc_backlog_idle(struct vnc_client *client) {
	return !client->relay || vnc_relay_idle(client->relay);
}

void vnc_backlog_resized(struct vnc_server *vnc) {
	struct vnc_client *client;
	wl_list_for_each(client, &vnc->clients, link) {
		if (client->relay) {
			vnc_relay_set_max_queued(client->relay, max_queued(vnc));
			vnc_relay_size_peer_buffer(client->relay, peer_buffer(vnc));
		}
	}
}
