/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_VNC_VNC_RELAY_H
#define ORIEL_REMOTE_VNC_VNC_RELAY_H

/*
 * Keeps slow or stalled viewers from holding oriel's event loop.
 *
 * libvncserver writes each message whole: on a full socket its
 * rfbWriteExact waits, for seconds, or for as long as a slowly reading
 * viewer keeps taking a few bytes. So libvncserver gets one end of a local
 * socketpair instead of the viewer's socket, and one thread moves the
 * bytes between the other end and the viewer's socket, keeping in memory
 * what the viewer has not taken yet. It splices them through a pipe, so
 * the kernel hands pages on instead of copying every byte twice more, and
 * copies only when a viewer lags by more than the pipe holds. The event
 * loop then only asks whether a viewer took everything (vnc_relay_idle)
 * before sending it the next framebuffer update, so a viewer's queue
 * holds about one update; the relay wakes the loop when it is empty again. While a relay is idle the
 * caller may also write to the viewer's socket itself (vnc_relay_write,
 * for raw pixels straight from the framebuffer); what the socket cannot
 * take then is queued ahead of libvncserver's later bytes. A viewer whose
 * queue grows past its limit is disconnected.
 *
 * Pure: no wlroots, so unit tests link it directly.
 */

#include <stdbool.h>
#include <stddef.h>

struct tls_stream;
struct vnc_relays;
struct vnc_relay;

/* Starts the thread. NULL on failure (errno set). */
struct vnc_relays *vnc_relays_create(void);
/* Stops the thread and closes every viewer socket left. NULL is a no-op. */
void vnc_relays_destroy(struct vnc_relays *relays);

/* How a relay starts. */
struct vnc_relay_start {
	/* TLS toward the viewer, whose handshake is done, taken over; or NULL. */
	struct tls_stream *tls;
	/* libvncserver's first bytes, dropped (its greeting, after oriel's handshake). */
	size_t skip_outbound;
	/* Bytes given to libvncserver before the viewer's. */
	const void *inbound_prefix;
	size_t inbound_prefix_len;
};

/*
 * Relays peer_fd, the viewer's socket, which it takes over (closing it,
 * and start->tls, on failure). *local_fd is the socket to hand to
 * libvncserver, which closes it when done; what it wrote is still sent
 * then, for a short while. max_queued bounds the bytes kept for the
 * viewer. NULL on failure.
 */
struct vnc_relay *vnc_relay_open(struct vnc_relays *relays, int peer_fd,
	const struct vnc_relay_start *start, size_t max_queued, int *local_fd);
/* Changes the limit, e.g. when the framebuffer grows. */
void vnc_relay_set_max_queued(struct vnc_relay *relay, size_t max_queued);
/*
 * Gives the viewer's socket room for about bytes (and at least the
 * kernel's own 4 MiB), past the kernel's limits for unprivileged sockets:
 * it needs CAP_NET_ADMIN; false without, and the kernel's sizing stays.
 */
bool vnc_relay_size_peer_buffer(struct vnc_relay *relay, size_t bytes);

/*
 * True when every byte written to the local socket went to the viewer's
 * socket. When false, drained_fd becomes readable once that is true.
 */
bool vnc_relay_idle(struct vnc_relay *relay);
/*
 * From the caller's thread, when the relay is idle: writes the bytes
 * straight to the viewer's socket, without the copy into libvncserver's
 * socket (over TLS sealed into records here when the stream allows,
 * else handed to the relay thread); what the socket cannot take now is
 * kept and sent by the relay before anything libvncserver writes later. False, having written
 * nothing, when the relay is not idle or the viewer is gone.
 */
struct iovec;
bool vnc_relay_write(struct vnc_relay *relay, const struct iovec *iov, int iovcnt);
/* An eventfd; vnc_relay_ack_drained reads it. */
int vnc_relay_drained_fd(struct vnc_relay *relay);
void vnc_relay_ack_drained(struct vnc_relay *relay);

/* The caller is done with the relay (libvncserver closed the local socket). */
void vnc_relay_release(struct vnc_relay *relay);

#endif
