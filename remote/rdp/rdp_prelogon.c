/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <openssl/err.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>
#include <winpr/synch.h>
#include <wlr/util/log.h>
#include "remote/preauth_evict.h"
#include "remote/rdp/rdp_private.h"
#include "compositor/server.h"
#include "common/util.h"

/*
 * A guest's connection runs on a thread of its own until its logon (the
 * Client Info PDU) has come. FreeRDP 2's server waits for its client
 * inside a call during that stretch: its TLS handshake (and NLA) polls
 * until the client answers. On the event loop, a client that stops half
 * way through its handshake would stall the compositor, and a stream of
 * such clients would keep it stalled; here it stalls only its own thread.
 *
 * While the thread runs, the loop does not touch the peer's FreeRDP
 * objects. Dropping the peer (its deadline, eviction, shutdown) shuts its
 * socket down, which ends the thread's call; the loop frees the peer when
 * the thread has ended. The thread only calls FreeRDP, whose callbacks
 * into oriel see a guest (rdp_peer_in_prelogon) and leave the loop's
 * state alone.
 */

struct rdp_prelogon {
	struct rdp_peer *peer;
	pthread_t thread;
	int done_fd; /* eventfd: the thread has ended */
	struct wl_event_source *done_source;
	atomic_bool stop;
	bool ok; /* written by the thread before it signals done_fd */
	int64_t started_ms;
	/*
	 * Written by the thread: how far FreeRDP's connection got (its
	 * CONNECTION_STATE), and when that last advanced (0: never). Who
	 * gives way under a flood (preauth_evict.h) reads them.
	 */
	atomic_int stage;
	_Atomic int64_t progress_ms;
};

/* Notes a step of the connection (X.224, then each MCS and RDP stage). */
static void note_progress(struct rdp_prelogon *pl) {
	int stage = (int)freerdp_get_state(pl->peer->client->context);
	if (stage > atomic_load(&pl->stage)) {
		atomic_store(&pl->stage, stage);
		atomic_store(&pl->progress_ms, monotonic_ms());
	}
}

static void *run(void *data) {
	struct rdp_prelogon *pl = data;
	struct rdp_peer *peer = pl->peer;
	freerdp_peer *client = peer->client;
	ERR_clear_error();
	while (!atomic_load(&pl->stop)) {
		HANDLE handles[RDP_PEER_MAX_HANDLES];
		DWORD n = client->GetEventHandles(client, handles, RDP_PEER_MAX_HANDLES);
		struct pollfd fds[RDP_PEER_MAX_HANDLES];
		nfds_t n_fds = 0;
		for (DWORD i = 0; i < n; i++) {
			int fd = GetEventFileDescriptor(handles[i]);
			if (fd >= 0) {
				fds[n_fds++] = (struct pollfd){ .fd = fd, .events = POLLIN };
			}
		}
		if (n_fds == 0) {
			break;
		}
		if (poll(fds, n_fds, -1) < 0 && errno != EINTR) {
			break;
		}
		if (atomic_load(&pl->stop) || !client->CheckFileDescriptor(client)) {
			break;
		}
		note_progress(pl);
		if (peer->logon_arrived) {
			pl->ok = true;
			break;
		}
	}
	ERR_clear_error(); /* this thread's OpenSSL errors end with it */
	eventfd_write(pl->done_fd, 1);
	return NULL;
}

static void join(struct rdp_prelogon *pl) {
	pthread_join(pl->thread, NULL);
	wl_event_source_remove(pl->done_source);
	close(pl->done_fd);
	pl->peer->prelogon = NULL;
	free(pl);
}

static int handle_done(int fd, uint32_t mask, void *data) {
	struct rdp_prelogon *pl = data;
	struct rdp_peer *peer = pl->peer;
	bool ok = pl->ok;
	join(pl);
	rdp_peer_prelogon_ended(peer, ok);
	return 0;
}

bool rdp_prelogon_start(struct rdp_peer *peer) {
	struct rdp_prelogon *pl = zalloc(sizeof(*pl));
	pl->peer = peer;
	pl->started_ms = monotonic_ms();
	pl->done_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (pl->done_fd < 0) {
		free(pl);
		return false;
	}
	pl->done_source = wl_event_loop_add_fd(peer->rdp->server->loop, pl->done_fd,
		WL_EVENT_READABLE, handle_done, pl);
	if (!pl->done_source) {
		close(pl->done_fd);
		free(pl);
		return false;
	}
	peer->prelogon = pl;
	/* Signals are the event loop's (signalfd): never this thread's. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	int rc = pthread_create(&pl->thread, NULL, run, pl);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		wlr_log(WLR_ERROR, "RDP: cannot start a thread for the connection from %s",
			peer->host);
		wl_event_source_remove(pl->done_source);
		close(pl->done_fd);
		peer->prelogon = NULL;
		free(pl);
		return false;
	}
	return true;
}

void rdp_prelogon_interrupt(struct rdp_peer *peer) {
	atomic_store(&peer->prelogon->stop, true);
	shutdown(peer->client->sockfd, SHUT_RDWR);
}

void rdp_prelogon_cancel(struct rdp_peer *peer) {
	rdp_prelogon_interrupt(peer);
	join(peer->prelogon);
}

void rdp_prelogon_describe(const struct rdp_peer *peer, struct preauth_guest *guest) {
	struct rdp_prelogon *pl = peer->prelogon;
	guest->started_ms = pl->started_ms;
	guest->progress_ms = atomic_load(&pl->progress_ms);
	guest->heard_ms = guest->progress_ms > 0 ? guest->progress_ms : guest->started_ms;
	guest->stage = atomic_load(&pl->stage);
}
