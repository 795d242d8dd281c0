/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <gnutls/gnutls.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>
#include "common/io_all.h"
#include "common/link_backlog.h"
#include "remote/rdp_pdu.h"
#include "remote/tls_bridge.h"
#include "remote/tls_flow.h"
#include "remote/tls_record.h"
#include "remote/tls_stream.h"
#include "remote/x224.h"

/* The setup with FreeRDP (Connection Confirm, inner handshake) takes at most this long. */
#define SETUP_MS 10000

struct tls_bridge {
	pthread_t thread;
	int stop_fd;
	int done_fd; /* written when the thread ends */
	struct tls_stream *client;
	int client_fd;
	struct tls_stream *inner;
	int inner_fd;
	gnutls_certificate_credentials_t credentials;
	uint8_t *request;
	size_t request_len;
	uint8_t *pending;
	size_t pending_len;
	struct tls_bridge_tap *tap;
	bool idle; /* stopped with nothing on its way */
	size_t held_for_client; /* read from FreeRDP, not yet sent (atomic) */
};

/* Waits for fd; false when stopped, at the timeout, or when fd broke. */
static bool wait_fd(struct tls_bridge *bridge, int fd, short events, int timeout_ms) {
	struct pollfd fds[2] = {
		{ .fd = fd, .events = events },
		{ .fd = bridge->stop_fd, .events = POLLIN },
	};
	int rc;
	do {
		rc = poll(fds, 2, timeout_ms);
	} while (rc < 0 && errno == EINTR);
	return rc > 0 && !fds[1].revents && (fds[0].revents & (events | POLLHUP | POLLERR));
}

static bool wait_setup(void *data, int fd, short events) {
	return wait_fd(data, fd, events, SETUP_MS);
}

/* Writes (out) or reads all of buf on the socketpair, before the inner TLS. */
static bool plain_io(struct tls_bridge *bridge, uint8_t *buf, size_t len, bool out) {
	return out ? io_send_all(bridge->inner_fd, buf, len, wait_setup, bridge) :
		io_recv_all(bridge->inner_fd, buf, len, wait_setup, bridge);
}

/* FreeRDP's Connection Confirm: read, dropped, and it must have selected TLS. */
static bool drop_confirm(struct tls_bridge *bridge) {
	uint8_t cc[64];
	if (!plain_io(bridge, cc, 4, false) || cc[0] != 3 || cc[1] != 0) {
		return false;
	}
	size_t len = (size_t)cc[2] << 8 | cc[3];
	if (len != X224_CONFIRM_LEN || !plain_io(bridge, cc + 4, len - 4, false)) {
		return false;
	}
	uint32_t selected = (uint32_t)cc[15] | (uint32_t)cc[16] << 8 |
		(uint32_t)cc[17] << 16 | (uint32_t)cc[18] << 24;
	return cc[5] == 0xd0 && cc[11] == 0x02 && selected == X224_PROTOCOL_SSL;
}

/* The inner TLS, as FreeRDP's client. */
static bool inner_handshake(struct tls_bridge *bridge) {
	gnutls_session_t session;
	if (gnutls_certificate_allocate_credentials(&bridge->credentials) < 0 ||
			gnutls_init(&session, GNUTLS_CLIENT | GNUTLS_NONBLOCK) < 0) {
		return false;
	}
	/* The other end is our own FreeRDP: no certificate is checked. */
	if (gnutls_set_default_priority(session) < 0 ||
			gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE,
				bridge->credentials) < 0) {
		gnutls_deinit(session);
		return false;
	}
	gnutls_transport_set_int(session, bridge->inner_fd);
	int rc;
	while ((rc = gnutls_handshake(session)) < 0) {
		if (gnutls_error_is_fatal(rc) || !wait_fd(bridge, bridge->inner_fd,
				gnutls_record_get_direction(session) ? POLLOUT : POLLIN, SETUP_MS)) {
			gnutls_deinit(session);
			return false;
		}
	}
	bridge->inner = tls_stream_from_session(session);
	return bridge->inner != NULL;
}

/* The tap's copy of what came from the client, and its count of what went to it. */
static void note(struct tls_bridge_tap *tap, bool from_client, const uint8_t *buf,
		size_t len) {
	pthread_mutex_lock(&tap->lock);
	if (!from_client) {
		rdp_pdu_counter_feed(&tap->to_client, buf, len, UINT_MAX);
	} else if (len > tap->capacity - tap->len) {
		tap->overflowed = true;
	} else {
		memcpy(tap->client + tap->len, buf, len);
		tap->len += len;
	}
	pthread_mutex_unlock(&tap->lock);
}

static bool note_from_client(struct tls_flow *f, void *tap) {
	note(tap, true, f->buf, f->len);
	return true;
}

static bool note_to_client(struct tls_flow *f, void *tap) {
	note(tap, false, f->buf, f->len);
	return true;
}

static void pump(struct tls_bridge *bridge) {
	struct tls_flow *up = calloc(1, sizeof(*up)), *down = calloc(1, sizeof(*down));
	if (!up || !down || bridge->pending_len > sizeof(up->buf)) {
		goto out;
	}
	*up = (struct tls_flow){ .from = bridge->client, .to = bridge->inner,
		.received = bridge->tap ? note_from_client : NULL, .data = bridge->tap };
	*down = (struct tls_flow){ .from = bridge->inner, .to = bridge->client,
		.received = bridge->tap ? note_to_client : NULL, .data = bridge->tap };
	/* What the gateway read after its handshake goes first. */
	memcpy(up->buf, bridge->pending, bridge->pending_len);
	up->len = bridge->pending_len;
	if (bridge->tap) {
		note(bridge->tap, true, up->buf, up->len);
	}
	for (;;) {
		bool moved = tls_flow_move(up) && tls_flow_move(down);
		__atomic_store_n(&bridge->held_for_client, down->len - down->off, __ATOMIC_RELAXED);
		if (!moved) {
			break;
		}
		short client_events = (up->want_read ? POLLIN : 0) | (down->want_write ? POLLOUT : 0);
		short inner_events = (down->want_read ? POLLIN : 0) | (up->want_write ? POLLOUT : 0);
		struct pollfd fds[3] = {
			{ .fd = bridge->client_fd, .events = client_events },
			{ .fd = bridge->inner_fd, .events = inner_events },
			{ .fd = bridge->stop_fd, .events = POLLIN },
		};
		int rc = poll(fds, 3, -1);
		if ((rc < 0 && errno != EINTR) || fds[2].revents) {
			bridge->idle = fds[2].revents && up->len == 0 && down->len == 0;
			break;
		}
	}
out:
	if (up) {
		explicit_bzero(up, sizeof(*up));
	}
	if (down) {
		explicit_bzero(down, sizeof(*down));
	}
	free(up);
	free(down);
}

static void *bridge_thread(void *data) {
	struct tls_bridge *bridge = data;
	if (plain_io(bridge, bridge->request, bridge->request_len, true) &&
			drop_confirm(bridge) && inner_handshake(bridge)) {
		pump(bridge);
	}
	/* Either side gone: the other learns it now (a detached client goes on). */
	if (!bridge->idle || !bridge->tap) {
		shutdown(bridge->client_fd, SHUT_RDWR);
	}
	shutdown(bridge->inner_fd, SHUT_RDWR);
	uint64_t one = 1;
	if (write(bridge->done_fd, &one, sizeof(one)) < 0) {
		/* A fresh eventfd takes it. */
	}
	return NULL;
}

struct tls_bridge *tls_bridge_start(struct tls_stream *client, int client_fd,
		const uint8_t *request, size_t request_len, const uint8_t *pending,
		size_t pending_len, int *local_fd) {
	return tls_bridge_start_tapped(client, client_fd, request, request_len, pending,
		pending_len, NULL, local_fd);
}

struct tls_bridge *tls_bridge_start_tapped(struct tls_stream *client, int client_fd,
		const uint8_t *request, size_t request_len, const uint8_t *pending,
		size_t pending_len, struct tls_bridge_tap *tap, int *local_fd) {
	struct tls_bridge *bridge = calloc(1, sizeof(*bridge));
	int pair[2] = { -1, -1 };
	if (!bridge || pending_len > TLS_RECORD_PLAINTEXT_MAX ||
			socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) < 0) {
		goto fail;
	}
	bridge->client = client;
	bridge->client_fd = client_fd;
	bridge->tap = tap;
	bridge->inner_fd = pair[0];
	bridge->stop_fd = eventfd(0, EFD_CLOEXEC);
	bridge->done_fd = eventfd(0, EFD_CLOEXEC);
	bridge->request = malloc(request_len);
	bridge->pending = malloc(pending_len ? pending_len : 1);
	if (bridge->stop_fd < 0 || bridge->done_fd < 0 || !bridge->request || !bridge->pending) {
		goto fail;
	}
	memcpy(bridge->request, request, request_len);
	bridge->request_len = request_len;
	memcpy(bridge->pending, pending, pending_len);
	bridge->pending_len = pending_len;
	fcntl(pair[0], F_SETFL, O_NONBLOCK);
	fcntl(client_fd, F_SETFL, fcntl(client_fd, F_GETFL) | O_NONBLOCK);
	/* Signals stay with oriel's main thread. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int err = pthread_create(&bridge->thread, NULL, bridge_thread, bridge);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err != 0) {
		goto fail;
	}
	pthread_setname_np(bridge->thread, "tls-bridge"); /* for top -H and perf */
	*local_fd = pair[1];
	return bridge;

fail:
	if (pair[1] >= 0) {
		close(pair[1]);
	}
	if (bridge) {
		if (bridge->stop_fd > 0) {
			close(bridge->stop_fd);
		}
		if (bridge->done_fd > 0) {
			close(bridge->done_fd);
		}
		free(bridge->request);
		free(bridge->pending);
		free(bridge);
	}
	if (pair[0] >= 0) {
		close(pair[0]);
	}
	tls_stream_destroy(client);
	close(client_fd);
	return NULL;
}

void tls_bridge_backlog(struct tls_bridge *bridge, struct link_backlog *backlog) {
	link_backlog_add(bridge->client_fd, backlog);
	backlog->waiting += __atomic_load_n(&bridge->held_for_client, __ATOMIC_RELAXED);
}

/* After the thread ended: closes and frees what the bridge holds. */
static void release(struct tls_bridge *bridge) {
	tls_stream_destroy(bridge->inner);
	tls_stream_destroy(bridge->client);
	if (bridge->credentials) {
		gnutls_certificate_free_credentials(bridge->credentials);
	}
	close(bridge->inner_fd);
	if (bridge->client_fd >= 0) {
		close(bridge->client_fd);
	}
	close(bridge->stop_fd);
	close(bridge->done_fd);
	explicit_bzero(bridge->pending, bridge->pending_len);
	free(bridge->request);
	free(bridge->pending);
	free(bridge);
}

static void stop(struct tls_bridge *bridge) {
	uint64_t one = 1;
	if (write(bridge->stop_fd, &one, sizeof(one)) < 0) {
		/* A fresh eventfd takes it. */
	}
	pthread_join(bridge->thread, NULL);
}

void tls_bridge_destroy(struct tls_bridge *bridge) {
	if (!bridge) {
		return;
	}
	stop(bridge);
	release(bridge);
}

bool tls_bridge_detach(struct tls_bridge *bridge, struct tls_stream **client,
		int *client_fd) {
	stop(bridge);
	bool idle = bridge->idle;
	if (idle) {
		*client = bridge->client;
		*client_fd = bridge->client_fd;
		bridge->client = NULL;
		bridge->client_fd = -1;
	}
	release(bridge);
	return idle;
}

void tls_bridge_finish(struct tls_bridge *bridge, int timeout_ms) {
	if (!bridge) {
		return;
	}
	struct pollfd p = { .fd = bridge->done_fd, .events = POLLIN };
	while (poll(&p, 1, timeout_ms) < 0 && errno == EINTR) {
	}
	tls_bridge_destroy(bridge);
}
