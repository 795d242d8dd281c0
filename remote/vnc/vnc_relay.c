/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/sockios.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include "remote/tls_stream.h"
#include "remote/vnc/vnc_relay.h"
#include "common/util.h"

/* Bytes from the viewer are passed on in pieces of this size. */
#define INBOUND_CHUNK 16384
/* Room made in the queue before each read from libvncserver's socket. */
#define READ_CHUNK (256 * 1024)
/* libvncserver's send buffer (the kernel caps it at net.core.wmem_max). */
#define LOCAL_SNDBUF (8 * 1024 * 1024)
/* The pipe that splice moves bytes through (the kernel may give less). */
#define PIPE_BYTES (1024 * 1024)
/* An empty queue bigger than this gives its memory back. */
#define KEEP_CAPACITY (1024 * 1024)
/* How long the last bytes may take once libvncserver closed its socket. */
#define LINGER_MS 3000
#define MAX_EVENTS 32

/* One of a relay's two sockets, as epoll reports it. */
struct relay_end {
	struct vnc_relay *relay;
	int fd;
	uint32_t events; /* what epoll watches now */
};

struct vnc_relay {
	struct vnc_relays *relays;
	struct relay_end peer;  /* the viewer's socket */
	struct relay_end local; /* our end of the socketpair */
	struct relay_end kick;  /* eventfd: bytes were handed over */
	int local_fd;           /* libvncserver's end, for its queue length */
	/*
	 * TLS toward the viewer, or NULL. Then every byte is copied through
	 * the queue (splicing cannot encrypt), and only this thread uses the
	 * session once the relay runs.
	 */
	struct tls_stream *tls;
	size_t skip_outbound;   /* libvncserver's first bytes, not for the viewer */
	int drained_fd;         /* eventfd */
	atomic_int refs;        /* the relay thread and the caller */

	/* Owned by the relay thread. */
	/*
	 * libvncserver → viewer. Bytes are spliced through the pipe, so the
	 * kernel passes pages on rather than copying them twice; only when the
	 * viewer falls behind and the pipe is full are they read into the queue,
	 * which then holds the oldest bytes and is sent before the pipe.
	 */
	int pipe_read, pipe_write; /* -1 when splice is not available */
	size_t in_pipe;
	uint8_t *queue; /* from queue_start to queue_end */
	size_t queue_start, queue_end, queue_capacity;
	/* TLS records the caller sealed, sent before the queue: sealed[sealed_start..sealed_end). */
	uint8_t *sealed;
	size_t sealed_start, sealed_end;
	uint8_t inbound[INBOUND_CHUNK]; /* viewer → libvncserver */
	size_t inbound_start, inbound_end;
	bool local_closed;  /* libvncserver closed its end */
	bool finished;      /* both sockets closed */
	int64_t linger_until_ms;
	struct vnc_relay *next; /* relays->list */

	/* Shared with the caller. */
	/*
	 * What the caller's vnc_relay_write could not send at once; it goes
	 * before everything libvncserver wrote since. The lock also keeps the
	 * viewer's socket open while the caller writes to it.
	 */
	pthread_mutex_t lock;
	uint8_t *handoff;
	size_t handoff_start;  /* sealed: the bytes before it are sent */
	bool handoff_sealed;   /* TLS records, not plaintext */
	atomic_size_t handoff_len;
	atomic_size_t queued;
	atomic_size_t max_queued;
	atomic_bool reading;   /* between a read from libvncserver and queueing it */
	atomic_bool want_drained;
};

struct vnc_relays {
	pthread_t thread;
	int epoll_fd;
	int stop_fd; /* eventfd */
	pthread_mutex_t lock; /* list */
	struct vnc_relay *list;
};


static void relay_unref(struct vnc_relay *relay) {
	if (atomic_fetch_sub(&relay->refs, 1) != 1) {
		return;
	}
	close(relay->drained_fd);
	tls_stream_destroy(relay->tls);
	pthread_mutex_destroy(&relay->lock);
	free(relay->handoff);
	free(relay->sealed);
	free(relay->queue);
	free(relay);
}

static void watch(struct vnc_relays *relays, struct relay_end *end, uint32_t events) {
	if (end->fd < 0 || end->events == events) {
		return;
	}
	struct epoll_event event = { .events = events, .data.ptr = end };
	epoll_ctl(relays->epoll_fd, EPOLL_CTL_MOD, end->fd, &event);
	end->events = events;
}

static void close_end(struct vnc_relays *relays, struct relay_end *end) {
	if (end->fd >= 0) {
		epoll_ctl(relays->epoll_fd, EPOLL_CTL_DEL, end->fd, NULL);
		close(end->fd);
		end->fd = -1;
	}
}

static void close_pipe(struct vnc_relay *relay) {
	if (relay->pipe_read >= 0) {
		close(relay->pipe_read);
		close(relay->pipe_write);
		relay->pipe_read = relay->pipe_write = -1;
	}
	relay->in_pipe = 0;
}

/* Both sockets go; libvncserver reads EOF or gets EPIPE on its end. */
static void finish(struct vnc_relay *relay) {
	pthread_mutex_lock(&relay->lock);
	close_end(relay->relays, &relay->peer);
	close_end(relay->relays, &relay->kick);
	free(relay->handoff);
	relay->handoff = NULL;
	atomic_store(&relay->handoff_len, 0);
	pthread_mutex_unlock(&relay->lock);
	close_end(relay->relays, &relay->local);
	close_pipe(relay);
	relay->finished = true;
	atomic_store(&relay->queued, 0);
	relay->queue_start = relay->queue_end = 0;
	free(relay->sealed);
	relay->sealed = NULL;
	relay->sealed_start = relay->sealed_end = 0;
}

static size_t in_queue(const struct vnc_relay *relay) {
	return relay->queue_end - relay->queue_start;
}

/* What libvncserver (or the caller) wrote that the viewer has not taken yet. */
static size_t pending(const struct vnc_relay *relay) {
	return relay->sealed_end - relay->sealed_start + in_queue(relay) + relay->in_pipe;
}

static void publish_pending(struct vnc_relay *relay) {
	atomic_store(&relay->queued, pending(relay));
}

static bool make_room(struct vnc_relay *relay) {
	if (relay->queue_capacity - relay->queue_end >= READ_CHUNK) {
		return true;
	}
	/*
	 * Only now are the sent bytes at the front moved out of the way: moving
	 * the rest at every read made sending a queue in pieces (TLS records)
	 * cost its length squared.
	 */
	if (relay->queue_start > 0) {
		memmove(relay->queue, relay->queue + relay->queue_start, in_queue(relay));
		relay->queue_end -= relay->queue_start;
		relay->queue_start = 0;
	}
	if (relay->queue_capacity - relay->queue_end >= READ_CHUNK) {
		return true;
	}
	size_t capacity = relay->queue_capacity ? relay->queue_capacity * 2 : READ_CHUNK;
	while (capacity - relay->queue_end < READ_CHUNK) {
		capacity *= 2;
	}
	uint8_t *queue = realloc(relay->queue, capacity);
	if (!queue) {
		return false;
	}
	relay->queue = queue;
	relay->queue_capacity = capacity;
	return true;
}

/* Reads at most len bytes of fd onto the queue's end. */
static ssize_t read_to_queue(struct vnc_relay *relay, int fd, size_t len) {
	if (!make_room(relay)) {
		finish(relay); /* out of memory: this viewer goes */
		errno = ENOMEM;
		return -1;
	}
	size_t room = relay->queue_capacity - relay->queue_end;
	ssize_t n = read(fd, relay->queue + relay->queue_end, len < room ? len : room);
	if (n > 0) {
		relay->queue_end += (size_t)n;
	}
	return n;
}

/* The pipe's bytes go to the queue's end, keeping their order; how many moved. */
static ssize_t spill_pipe(struct vnc_relay *relay) {
	ssize_t moved = 0;
	while (relay->in_pipe > 0 && !relay->finished) {
		ssize_t n = read_to_queue(relay, relay->pipe_read, relay->in_pipe);
		if (n <= 0) {
			finish(relay); /* a pipe of ours that fails: nothing sane is left */
			return -1;
		}
		relay->in_pipe -= (size_t)n;
		moved += n;
	}
	return moved;
}

/* Splice does not work here (an old kernel or an odd socket): copy from now on. */
static void stop_splicing(struct vnc_relay *relay) {
	if (spill_pipe(relay) >= 0) {
		close_pipe(relay);
	}
}

static size_t local_unread(const struct vnc_relay *relay) {
	int n = 0;
	if (ioctl(relay->local.fd, FIONREAD, &n) < 0 || n < 0) {
		return 0;
	}
	return (size_t)n;
}

/* libvncserver's socket → the pipe; bytes moved, or -1 with errno. */
static ssize_t splice_local(struct vnc_relay *relay) {
	ssize_t n = splice(relay->local.fd, NULL, relay->pipe_write, NULL, PIPE_BYTES,
		SPLICE_F_NONBLOCK | SPLICE_F_MOVE);
	if (n > 0) {
		relay->in_pipe += (size_t)n;
		return n;
	}
	if (n < 0 && errno == EAGAIN && relay->in_pipe > 0 && local_unread(relay) > 0) {
		/* The pipe is full: the viewer lags, so its bytes wait in the queue. */
		return spill_pipe(relay);
	}
	if (n < 0 && errno == EINVAL) {
		stop_splicing(relay);
		return relay->finished ? -1 : read_to_queue(relay, relay->local.fd, SIZE_MAX);
	}
	return n;
}

/* libvncserver's socket → the pipe or queue. False when it has nothing more now. */
static bool take_local(struct vnc_relay *relay) {
	if (relay->local_closed || relay->local.fd < 0 ||
			pending(relay) >= atomic_load(&relay->max_queued)) {
		return false;
	}
	atomic_store(&relay->reading, true);
	ssize_t n;
	if (relay->skip_outbound > 0) {
		uint8_t skipped[64];
		size_t len = relay->skip_outbound < sizeof(skipped) ? relay->skip_outbound :
			sizeof(skipped);
		n = read(relay->local.fd, skipped, len);
		if (n > 0) {
			relay->skip_outbound -= (size_t)n;
		}
	} else {
		char byte;
		if (relay->pipe_read < 0 && local_unread(relay) == 0 &&
				(n = recv(relay->local.fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT)) <= 0) {
			/* Nothing to read (or closed): no room to make for it. */
		} else {
			n = relay->pipe_read >= 0 ? splice_local(relay) :
				read_to_queue(relay, relay->local.fd, SIZE_MAX);
		}
	}
	publish_pending(relay);
	atomic_store(&relay->reading, false);
	if (n > 0) {
		return true;
	}
	if (relay->finished || (n < 0 && (errno == EAGAIN || errno == EINTR))) {
		return false;
	}
	/* Closed: send what is left, then go. */
	relay->local_closed = true;
	relay->linger_until_ms = monotonic_ms() + LINGER_MS;
	return false;
}

/*
 * Puts the caller's handed-over bytes at the queue's head: they are older
 * than anything read from libvncserver since (the relay was idle when the
 * caller wrote them).
 */
static void adopt_handoff(struct vnc_relay *relay) {
	if (atomic_load(&relay->handoff_len) == 0) {
		return;
	}
	pthread_mutex_lock(&relay->lock);
	size_t len = atomic_load(&relay->handoff_len);
	if (relay->handoff_sealed) {
		/* Sealed before anything read since: it goes first, as it is. */
		free(relay->sealed);
		relay->sealed = relay->handoff;
		relay->sealed_start = relay->handoff_start;
		relay->sealed_end = relay->handoff_start + len;
		relay->handoff = NULL;
		relay->handoff_sealed = false;
		publish_pending(relay);
		atomic_store(&relay->handoff_len, 0);
		pthread_mutex_unlock(&relay->lock);
		return;
	}
	size_t queued = in_queue(relay);
	/* An empty queue takes the handed-over bytes as they are. */
	uint8_t *queue = queued == 0 ? relay->handoff : malloc(len + queued);
	if (!queue) {
		pthread_mutex_unlock(&relay->lock);
		finish(relay); /* out of memory: this viewer goes */
		return;
	}
	if (queued > 0) {
		memcpy(queue, relay->handoff, len);
		memcpy(queue + len, relay->queue + relay->queue_start, queued);
		free(relay->handoff);
	}
	free(relay->queue);
	relay->queue = queue;
	relay->queue_start = 0;
	relay->queue_end = relay->queue_capacity = len + queued;
	relay->handoff = NULL;
	/* Counted as queued before no longer as handed over: see vnc_relay_idle. */
	publish_pending(relay);
	atomic_store(&relay->handoff_len, 0);
	pthread_mutex_unlock(&relay->lock);
}

/*
 * TLS records of the queue → the viewer (as many as the stream seals for
 * one send); like send(). Records the socket did not take are sent again
 * first, as GnuTLS asks.
 */
static ssize_t tls_send(struct vnc_relay *relay) {
	/*
	 * A retry pending keeps the bytes where they are: the queue does not
	 * shrink. The lock orders this after the records the caller sealed
	 * (write_sealed), whose numbers the stream goes on from.
	 */
	pthread_mutex_lock(&relay->lock);
	ssize_t n = tls_stream_send(relay->tls, relay->queue + relay->queue_start,
		in_queue(relay));
	pthread_mutex_unlock(&relay->lock);
	if (n > 0) {
		relay->queue_start += (size_t)n;
	}
	return n;
}

/* The viewer's bytes, decrypted when TLS; like recv(). */
static ssize_t peer_recv(struct vnc_relay *relay, void *buf, size_t len) {
	if (!relay->tls) {
		return recv(relay->peer.fd, buf, len, MSG_DONTWAIT);
	}
	return tls_stream_recv(relay->tls, buf, len);
}

/* The caller's sealed records → the viewer; like send(). */
static ssize_t send_sealed(struct vnc_relay *relay) {
	ssize_t n = send(relay->peer.fd, relay->sealed + relay->sealed_start,
		relay->sealed_end - relay->sealed_start, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (n > 0) {
		relay->sealed_start += (size_t)n;
	}
	if (relay->sealed_start == relay->sealed_end) {
		free(relay->sealed);
		relay->sealed = NULL;
		relay->sealed_start = relay->sealed_end = 0;
	}
	return n;
}

/* Sealed records, the queue, then the pipe → the viewer. False when it takes nothing more now. */
static bool write_peer(struct vnc_relay *relay) {
	adopt_handoff(relay);
	if (pending(relay) == 0 || relay->peer.fd < 0) {
		return false;
	}
	ssize_t n;
	if (relay->sealed_end > relay->sealed_start) {
		n = send_sealed(relay);
	} else if (relay->tls || in_queue(relay) > 0) {
		if (relay->tls) {
			n = tls_send(relay);
		} else {
			n = send(relay->peer.fd, relay->queue + relay->queue_start,
				in_queue(relay), MSG_NOSIGNAL | MSG_DONTWAIT);
			if (n > 0) {
				relay->queue_start += (size_t)n;
			}
		}
		if (in_queue(relay) == 0) {
			relay->queue_start = relay->queue_end = 0;
			if (relay->queue_capacity > KEEP_CAPACITY) {
				free(relay->queue);
				relay->queue = NULL;
				relay->queue_capacity = 0;
			}
		}
	} else {
		/* The peer socket is non-blocking, so this never waits. */
		n = splice(relay->pipe_read, NULL, relay->peer.fd, NULL, relay->in_pipe,
			SPLICE_F_NONBLOCK | SPLICE_F_MOVE);
		if (n > 0) {
			relay->in_pipe -= (size_t)n;
		} else if (n < 0 && errno == EINVAL) {
			stop_splicing(relay);
			publish_pending(relay);
			return !relay->finished; /* the queue goes next round */
		}
	}
	publish_pending(relay);
	if (n < 0 && errno != EAGAIN && errno != EINTR) {
		finish(relay); /* the viewer is gone */
		return false;
	}
	return n > 0;
}

/* The viewer's socket → libvncserver's. False when nothing moved. */
static bool pass_inbound(struct vnc_relay *relay) {
	if (relay->local_closed || relay->peer.fd < 0 || relay->local.fd < 0) {
		return false;
	}
	if (relay->inbound_start == relay->inbound_end) {
		ssize_t n = peer_recv(relay, relay->inbound, sizeof(relay->inbound));
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
			finish(relay); /* the viewer hung up */
			return false;
		}
		if (n < 0) {
			return false;
		}
		relay->inbound_start = 0;
		relay->inbound_end = (size_t)n;
	}
	ssize_t n = send(relay->local.fd, relay->inbound + relay->inbound_start,
		relay->inbound_end - relay->inbound_start, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (n < 0) {
		if (errno != EAGAIN && errno != EINTR) {
			relay->local_closed = true;
			relay->linger_until_ms = monotonic_ms() + LINGER_MS;
		}
		return false;
	}
	relay->inbound_start += (size_t)n;
	return true;
}

static void pump(struct vnc_relay *relay, uint32_t peer_events) {
	bool moved;
	do {
		/* Sending first, so the pipe fills up only when the viewer lags. */
		moved = false;
		if (!relay->finished && write_peer(relay)) {
			moved = true;
		}
		if (!relay->finished && take_local(relay)) {
			moved = true;
		}
		if (!relay->finished && pass_inbound(relay)) {
			moved = true;
		}
	} while (moved && !relay->finished);
	if (relay->finished) {
		return;
	}
	if (pending(relay) >= atomic_load(&relay->max_queued)) {
		/* The viewer takes far less than it is sent: it goes. */
		finish(relay);
		return;
	}
	if ((peer_events & (EPOLLHUP | EPOLLERR)) &&
			relay->inbound_start != relay->inbound_end) {
		/* Hung up while its last bytes wait: epoll would repeat the hangup. */
		finish(relay);
		return;
	}
	if (relay->local_closed && (pending(relay) == 0 || monotonic_ms() >= relay->linger_until_ms)) {
		finish(relay);
		return;
	}
	if (pending(relay) == 0 && !relay->local_closed &&
			atomic_exchange(&relay->want_drained, false)) {
		uint64_t one = 1;
		if (write(relay->drained_fd, &one, sizeof(one)) < 0) {
			/* The counter is saturated: the caller is awake anyway. */
		}
	}
	bool inbound_waiting = relay->inbound_start != relay->inbound_end;
	watch(relay->relays, &relay->peer,
		(!relay->local_closed && !inbound_waiting ? EPOLLIN : 0) |
		(pending(relay) > 0 ? EPOLLOUT : 0));
	if (relay->local_closed) {
		/*
		 * epoll reports a closed peer's hangup whatever is watched: keep
		 * the end and this thread would spin until the queue drains.
		 */
		close_end(relay->relays, &relay->local);
		return;
	}
	watch(relay->relays, &relay->local, EPOLLIN | (inbound_waiting ? EPOLLOUT : 0));
}

/* Drops finished relays from the list; returns the epoll timeout for lingering ones. */
static int sweep(struct vnc_relays *relays) {
	int timeout = -1;
	int64_t now = monotonic_ms();
	pthread_mutex_lock(&relays->lock);
	struct vnc_relay **link = &relays->list;
	while (*link) {
		struct vnc_relay *relay = *link;
		if (!relay->finished && relay->local_closed) {
			if (now >= relay->linger_until_ms) {
				finish(relay);
			} else {
				int left = (int)(relay->linger_until_ms - now);
				timeout = timeout < 0 || left < timeout ? left : timeout;
			}
		}
		if (relay->finished) {
			*link = relay->next;
			relay_unref(relay);
			continue;
		}
		link = &relay->next;
	}
	pthread_mutex_unlock(&relays->lock);
	return timeout;
}

static void *relay_thread(void *data) {
	struct vnc_relays *relays = data;
	struct epoll_event events[MAX_EVENTS];
	int timeout = -1;
	for (;;) {
		int n = epoll_wait(relays->epoll_fd, events, MAX_EVENTS, timeout);
		if (n < 0 && errno != EINTR) {
			break;
		}
		for (int i = 0; i < n; i++) {
			if (events[i].data.ptr == NULL) {
				return NULL; /* stop_fd */
			}
		}
		for (int i = 0; i < n; i++) {
			struct relay_end *end = events[i].data.ptr;
			struct vnc_relay *relay = end->relay;
			if (end == &relay->kick && !relay->finished) {
				uint64_t count;
				if (read(end->fd, &count, sizeof(count)) < 0) {
					/* EAGAIN: another event took it. */
				}
			}
			if (!relay->finished) {
				pump(relay, end == &relay->peer ? events[i].events : 0);
			}
		}
		timeout = sweep(relays);
	}
	return NULL;
}

struct vnc_relays *vnc_relays_create(void) {
	struct vnc_relays *relays = calloc(1, sizeof(*relays));
	if (!relays) {
		return NULL;
	}
	relays->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	relays->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	pthread_mutex_init(&relays->lock, NULL);
	struct epoll_event stop = { .events = EPOLLIN, .data.ptr = NULL };
	if (relays->epoll_fd < 0 || relays->stop_fd < 0 ||
			epoll_ctl(relays->epoll_fd, EPOLL_CTL_ADD, relays->stop_fd, &stop) < 0) {
		goto fail;
	}
	/* Signals stay with the event loop's thread (the TLS watchdog's SIGALRM too). */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int err = pthread_create(&relays->thread, NULL, relay_thread, relays);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err != 0) {
		errno = err;
		goto fail;
	}
	return relays;

fail:
	if (relays->epoll_fd >= 0) {
		close(relays->epoll_fd);
	}
	if (relays->stop_fd >= 0) {
		close(relays->stop_fd);
	}
	pthread_mutex_destroy(&relays->lock);
	free(relays);
	return NULL;
}

void vnc_relays_destroy(struct vnc_relays *relays) {
	if (!relays) {
		return;
	}
	uint64_t one = 1;
	if (write(relays->stop_fd, &one, sizeof(one)) < 0) {
		/* An eventfd write of 1 fails only when it is saturated: set anyway. */
	}
	pthread_join(relays->thread, NULL);
	while (relays->list) {
		struct vnc_relay *relay = relays->list;
		relays->list = relay->next;
		finish(relay);
		relay_unref(relay);
	}
	close(relays->epoll_fd);
	close(relays->stop_fd);
	pthread_mutex_destroy(&relays->lock);
	free(relays);
}

static bool add_end(struct vnc_relays *relays, struct relay_end *end) {
	struct epoll_event event = { .events = end->events, .data.ptr = end };
	return epoll_ctl(relays->epoll_fd, EPOLL_CTL_ADD, end->fd, &event) == 0;
}

struct vnc_relay *vnc_relay_open(struct vnc_relays *relays, int peer_fd,
		const struct vnc_relay_start *start, size_t max_queued, int *local_fd) {
	struct tls_stream *tls = start ? start->tls : NULL;
	int pair[2];
	struct vnc_relay *relay = calloc(1, sizeof(*relay));
	if (!relay || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0,
			pair) < 0) {
		tls_stream_destroy(tls);
		close(peer_fd);
		free(relay);
		return NULL;
	}
	relay->relays = relays;
	relay->tls = tls;
	/* The prefix is there before libvncserver looks, whenever the thread runs. */
	size_t prefix_len = start ? start->inbound_prefix_len : 0;
	bool prefixed = prefix_len == 0 || send(pair[1], start->inbound_prefix, prefix_len,
		MSG_NOSIGNAL | MSG_DONTWAIT) == (ssize_t)prefix_len;
	relay->skip_outbound = start ? start->skip_outbound : 0;
	/*
	 * Room for a whole framebuffer update, so libvncserver writes it at
	 * once instead of waiting for this thread between pieces.
	 */
	int sndbuf = LOCAL_SNDBUF;
	setsockopt(pair[0], SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	relay->pipe_read = relay->pipe_write = -1;
	int pipe_fds[2];
	if (!tls && pipe2(pipe_fds, O_CLOEXEC | O_NONBLOCK) == 0) {
		relay->pipe_read = pipe_fds[0];
		relay->pipe_write = pipe_fds[1];
		/* Bigger than the default: less spilling when a viewer lags briefly. */
		fcntl(relay->pipe_write, F_SETPIPE_SZ, PIPE_BYTES);
	}
	/* Splicing to the viewer must not wait either. */
	fcntl(peer_fd, F_SETFL, fcntl(peer_fd, F_GETFL) | O_NONBLOCK);
	relay->peer = (struct relay_end){ relay, peer_fd, EPOLLIN };
	relay->local = (struct relay_end){ relay, pair[1], EPOLLIN };
	relay->kick = (struct relay_end){ relay, eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK), EPOLLIN };
	relay->local_fd = pair[0];
	relay->drained_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	pthread_mutex_init(&relay->lock, NULL);
	atomic_init(&relay->handoff_len, 0);
	atomic_init(&relay->refs, 2);
	atomic_init(&relay->queued, 0);
	atomic_init(&relay->max_queued, max_queued);
	atomic_init(&relay->reading, false);
	atomic_init(&relay->want_drained, false);

	/* In the list before epoll can report it, so the thread may drop it. */
	pthread_mutex_lock(&relays->lock);
	relay->next = relays->list;
	relays->list = relay;
	bool ok = relay->drained_fd >= 0 && relay->kick.fd >= 0 &&
		prefixed &&
		add_end(relays, &relay->peer) && add_end(relays, &relay->local) &&
		add_end(relays, &relay->kick);
	if (!ok) {
		relays->list = relay->next;
	}
	pthread_mutex_unlock(&relays->lock);
	if (!ok) {
		epoll_ctl(relays->epoll_fd, EPOLL_CTL_DEL, peer_fd, NULL);
		epoll_ctl(relays->epoll_fd, EPOLL_CTL_DEL, pair[1], NULL);
		if (relay->kick.fd >= 0) {
			close(relay->kick.fd);
		}
		pthread_mutex_destroy(&relay->lock);
		close_pipe(relay);
		close(peer_fd);
		close(pair[0]);
		close(pair[1]);
		if (relay->drained_fd >= 0) {
			close(relay->drained_fd);
		}
		tls_stream_destroy(tls);
		free(relay);
		return NULL;
	}
	*local_fd = pair[0];
	if (tls) {
		/* TLS may hold the viewer's first bytes already: look at once. */
		uint64_t one = 1;
		if (write(relay->kick.fd, &one, sizeof(one)) < 0) {
			/* A fresh eventfd takes it. */
		}
	}
	return relay;
}

void vnc_relay_set_max_queued(struct vnc_relay *relay, size_t max_queued) {
	atomic_store(&relay->max_queued, max_queued);
}

bool vnc_relay_size_peer_buffer(struct vnc_relay *relay, size_t bytes) {
	/*
	 * The kernel doubles the size asked for, for its bookkeeping, which
	 * costs TCP little on large writes: half plus an eighth holds the
	 * bytes and not much more. Never below the 4 MiB that the kernel's
	 * own sizing may reach (tcp_wmem), which a set size replaces.
	 */
	size_t ask = bytes / 2 + bytes / 8;
	ask = ask > 2u * 1024 * 1024 ? ask : 2u * 1024 * 1024;
	int size = ask > INT_MAX / 2 ? INT_MAX / 2 : (int)ask;
	pthread_mutex_lock(&relay->lock);
	bool sized = relay->peer.fd >= 0 &&
		setsockopt(relay->peer.fd, SOL_SOCKET, SO_SNDBUFFORCE, &size, sizeof(size)) == 0;
	pthread_mutex_unlock(&relay->lock);
	return sized;
}

bool vnc_relay_idle(struct vnc_relay *relay) {
	/*
	 * Ask for a wake-up first, then look: either this sees the relay's
	 * last byte go, or the relay sees the request (both are seq_cst).
	 */
	atomic_store(&relay->want_drained, true);
	int in_socket = 0;
	if (ioctl(relay->local_fd, SIOCOUTQ, &in_socket) < 0) {
		in_socket = 0;
	}
	/* Handed-over bytes are queued before they stop counting as handed over. */
	if (in_socket > 0 || atomic_load(&relay->reading) ||
			atomic_load(&relay->handoff_len) > 0 || atomic_load(&relay->queued) > 0) {
		return false;
	}
	atomic_store(&relay->want_drained, false);
	return true;
}

/* Sends what the socket takes now; the bytes sent, and *gone if the viewer is. */
static size_t send_now(int fd, const struct iovec *iov, int iovcnt, bool *gone) {
	size_t sent = 0;
	struct iovec rest[IOV_MAX];
	int first = 0;
	size_t skip = 0; /* bytes of iov[first] already sent */
	while (first < iovcnt) {
		int n = 0;
		for (int i = first; i < iovcnt && n < IOV_MAX; i++, n++) {
			rest[n] = iov[i];
		}
		rest[0].iov_base = (uint8_t *)rest[0].iov_base + skip;
		rest[0].iov_len -= skip;
		struct msghdr msg = { .msg_iov = rest, .msg_iovlen = (size_t)n };
		ssize_t w = sendmsg(fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w < 0 && errno == EINTR) {
			continue;
		}
		if (w <= 0) {
			*gone = w < 0 && errno != EAGAIN && errno != ENOBUFS && errno != ENOMEM;
			return sent;
		}
		sent += (size_t)w;
		size_t left = (size_t)w + skip;
		while (first < iovcnt && left >= iov[first].iov_len) {
			left -= iov[first].iov_len;
			first++;
		}
		skip = left;
	}
	return sent;
}

/* Hands the relay thread what the socket did not take now, to send first. */
static void hand_over(struct vnc_relay *relay, uint8_t *bytes, size_t start, size_t len,
		bool sealed) {
	relay->handoff = bytes;
	relay->handoff_start = start;
	relay->handoff_sealed = sealed;
	atomic_store(&relay->handoff_len, len);
	uint64_t one = 1;
	if (write(relay->kick.fd, &one, sizeof(one)) < 0) {
		/* Saturated: the relay thread is woken anyway. */
	}
}

/*
 * With the TLS record layer: seals the bytes here, straight from iov (no
 * copy of the plaintext), and sends the records. The relay is idle, so
 * its thread seals nothing meanwhile. False when the stream cannot seal
 * ahead (a GnuTLS session) or memory is short: the caller hands over
 * plaintext then.
 */
static bool write_sealed(struct vnc_relay *relay, const struct iovec *iov, int iovcnt,
		size_t total) {
	size_t max = tls_stream_sealed_max(relay->tls, total);
	uint8_t *sealed = max > 0 ? malloc(max) : NULL;
	if (!sealed) {
		return false;
	}
	size_t len = tls_stream_seal(relay->tls, iov, iovcnt, sealed);
	if (len == 0) {
		/* Records were numbered but not sent: the viewer could not read on. */
		free(sealed);
		shutdown(relay->peer.fd, SHUT_RDWR);
		return true;
	}
	bool gone = false;
	struct iovec records = { sealed, len };
	size_t sent = send_now(relay->peer.fd, &records, 1, &gone);
	if (sent < len && !gone) {
		hand_over(relay, sealed, sent, len - sent, true);
	} else {
		free(sealed);
	}
	return true;
}

bool vnc_relay_write(struct vnc_relay *relay, const struct iovec *iov, int iovcnt) {
	if (!vnc_relay_idle(relay)) {
		return false;
	}
	pthread_mutex_lock(&relay->lock);
	if (relay->peer.fd < 0) {
		pthread_mutex_unlock(&relay->lock);
		return false;
	}
	bool gone = false;
	size_t total = 0;
	for (int i = 0; i < iovcnt; i++) {
		total += iov[i].iov_len;
	}
	if (relay->tls && write_sealed(relay, iov, iovcnt, total)) {
		pthread_mutex_unlock(&relay->lock);
		return true;
	}
	/* With a GnuTLS session the relay thread encrypts: this thread only hands over. */
	size_t sent = relay->tls ? 0 : send_now(relay->peer.fd, iov, iovcnt, &gone);
	if (sent < total && !gone) {
		/* The rest waits for the relay thread, which sends it first. */
		uint8_t *rest = malloc(total - sent);
		if (rest) {
			size_t at = 0, offset = 0;
			for (int i = 0; i < iovcnt; i++) {
				const uint8_t *base = iov[i].iov_base;
				size_t len = iov[i].iov_len;
				size_t from = sent > offset ? (sent - offset < len ? sent - offset : len) : 0;
				memcpy(rest + at, base + from, len - from);
				at += len - from;
				offset += len;
			}
			hand_over(relay, rest, 0, total - sent, false);
		} else {
			/* Out of memory: the viewer misses these bytes, so it must go. */
			shutdown(relay->peer.fd, SHUT_RDWR);
		}
	}
	/* A viewer that is gone: the relay thread sees its socket hang up. */
	pthread_mutex_unlock(&relay->lock);
	return true;
}

int vnc_relay_drained_fd(struct vnc_relay *relay) {
	return relay->drained_fd;
}

void vnc_relay_ack_drained(struct vnc_relay *relay) {
	uint64_t count;
	if (read(relay->drained_fd, &count, sizeof(count)) < 0) {
		/* EAGAIN: nothing to take. */
	}
}

void vnc_relay_release(struct vnc_relay *relay) {
	if (relay) {
		relay_unref(relay);
	}
}
