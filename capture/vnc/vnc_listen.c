#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>
#include <wlr/util/log.h>
#include "capture/vnc/vnc_http_request.h"
#include "capture/vnc/vnc_private.h"
#include "compositor/options.h"
#include "compositor/server.h"
#include "compositor/util.h"

/*
 * Event-loop integration. oriel owns every socket: it listens, accepts,
 * and watches each viewer's fd in its wl_event_loop; libvncserver only
 * parses and writes (rfbNewClient, rfbProcessClientMessage). No timer
 * polls and no thread runs.
 *
 * A new TCP connection is "pending" until it shows what it is: a browser
 * sends an HTTP request at once (a WebSocket upgrade goes to libvncserver,
 * a plain GET to our file server, so noVNC loads from the VNC port), a TLS
 * hello goes to libvncserver (wss), and a VNC viewer sends nothing, since
 * RFB servers speak first.
 */

/* How long a silent connection may take before it counts as a VNC viewer. */
#define PENDING_WAIT_MS 100
/* Requests arriving in pieces are re-checked at this interval. */
#define PENDING_RECHECK_MS 10
#define PENDING_MAX_MS 3000
/* A whole TLS record (the ClientHello) fits: 5 header bytes + 2^14. */
#define PEEK_BYTES (5 + 16384)

struct vnc_listener {
	struct vnc_server *vnc;
	int fd;
	char *unix_path; /* unlinked on finish */
	struct config_vnc_address address; /* TCP: as asked for, to stop it by */
	struct wl_event_source *source;
	struct wl_list link;
};

struct vnc_pending {
	struct vnc_server *vnc;
	int fd;
	bool is_unix;
	int waited_ms;
	struct wl_event_source *source;
	struct wl_event_source *timer;
	struct wl_list link;
};

static struct wl_event_loop *loop_of(struct vnc_server *vnc) {
	return vnc->server->loop;
}

static void pending_destroy(struct vnc_pending *pending, bool close_fd) {
	wl_event_source_remove(pending->source);
	wl_event_source_remove(pending->timer);
	wl_list_remove(&pending->link);
	if (close_fd) {
		close(pending->fd);
	}
	free(pending);
}

/* The TLS watchdog */

static volatile sig_atomic_t guarded_fd = -1;
static struct sigaction guard_old_action;

static void handle_guard_alarm(int sig) {
	(void)sig;
	int fd = guarded_fd;
	if (fd >= 0) {
		shutdown(fd, SHUT_RDWR); /* async-signal-safe */
	}
}

void vnc_tls_guard_begin(int fd, int ms) {
	struct sigaction action = { .sa_handler = handle_guard_alarm, .sa_flags = SA_RESTART };
	sigemptyset(&action.sa_mask);
	guarded_fd = fd;
	sigaction(SIGALRM, &action, &guard_old_action);
	struct itimerval timer = {
		.it_value = { .tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000 },
	};
	setitimer(ITIMER_REAL, &timer, NULL);
}

void vnc_tls_guard_end(void) {
	struct itimerval off = {0};
	setitimer(ITIMER_REAL, &off, NULL);
	guarded_fd = -1;
	sigaction(SIGALRM, &guard_old_action, NULL);
}

/* Client lifetime */

static void handle_client_gone(rfbClientPtr cl) {
	struct vnc_client *client = cl->clientData;
	if (!client) {
		return;
	}
	wlr_log(WLR_INFO, "VNC: viewer %s disconnected", cl->host ? cl->host : "?");
	vnc_input_client_gone(client);
	vnc_backlog_client_gone(client);
	if (cl->sslctx && strcmp(LIBVNCSERVER_VERSION, "0.9.14") == 0) {
		/* rfbCloseClient ran rfbssl_destroy, which ends the TLS session but
		 * (in 0.9.14) never frees its context: a leak per wss viewer. */
		free(cl->sslctx);
		cl->sslctx = NULL;
	}
	wl_event_source_remove(client->source);
	wl_event_source_remove(client->timer);
	wl_list_remove(&client->link);
	client->vnc->n_clients--;
	cl->clientData = NULL;
	free(client);
}

bool vnc_client_check_gone(struct vnc_client *client) {
	rfbClientPtr cl = client->cl;
	if (cl->sock != RFB_INVALID_SOCKET) {
		return false;
	}
	/* Calls handle_client_gone, then frees cl. */
	rfbClientConnectionGone(cl);
	return true;
}

static int handle_client_fd(int fd, uint32_t mask, void *data) {
	struct vnc_client *client = data;
	rfbClientPtr cl = client->cl;
	if (mask & WL_EVENT_READABLE) {
		bool tls = cl->sslctx != NULL;
		if (tls) {
			vnc_tls_guard_begin(cl->sock, rfbMaxClientWait);
		}
		do {
			rfbProcessClientMessage(cl);
		} while (cl->sock != RFB_INVALID_SOCKET && webSocketsHasDataInBuffer(cl));
		if (tls) {
			vnc_tls_guard_end();
		}
	} else if (mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR)) {
		rfbCloseClient(cl);
	}
	if (vnc_client_check_gone(client)) {
		return 0;
	}
	vnc_client_schedule_update(client);
	return 0;
}

static int handle_client_timer(void *data);

enum rfbNewClientAction vnc_listen_new_client_hook(rfbClientPtr cl) {
	struct vnc_server *vnc = cl->screen->screenData;
	struct vnc_client *client = zalloc(sizeof(*client));
	client->vnc = vnc;
	client->cl = cl;
	client->source = wl_event_loop_add_fd(loop_of(vnc), cl->sock, WL_EVENT_READABLE,
		handle_client_fd, client);
	client->timer = wl_event_loop_add_timer(loop_of(vnc), handle_client_timer, client);
	if (!client->source || !client->timer || !vnc_backlog_adopt(client)) {
		if (client->source) {
			wl_event_source_remove(client->source);
		}
		if (client->timer) {
			wl_event_source_remove(client->timer);
		}
		free(client);
		return RFB_CLIENT_REFUSE;
	}
	client->id = ++vnc->last_client_id;
	cl->clientData = client;
	cl->clientGoneHook = handle_client_gone;
	cl->viewOnly = vnc->options->view_only;
	wl_list_insert(&vnc->clients, &client->link);
	vnc->n_clients++;
	wlr_log(WLR_INFO, "VNC: viewer %s connected (%d now)",
		cl->host && cl->host[0] ? cl->host : "on a Unix socket", vnc->n_clients);
	return RFB_CLIENT_ACCEPT;
}

bool vnc_listen_new_rfb_client(struct vnc_server *vnc, int fd, bool tls) {
	int local_fd = vnc_backlog_open(vnc, fd);
	if (local_fd < 0) {
		return false;
	}
	if (tls) {
		/* The handshake, the WebSocket upgrade and the RFB greeting. */
		vnc_tls_guard_begin(local_fd, rfbMaxClientWait);
	}
	rfbClientPtr cl = rfbNewClient(vnc->screen, local_fd);
	if (tls) {
		vnc_tls_guard_end();
	}
	vnc_backlog_abandon(vnc);
	return vnc_listen_check_new_client(cl);
}

bool vnc_listen_check_new_client(rfbClientPtr cl) {
	if (!cl) {
		return false; /* libvncserver closed fd and logged why */
	}
	struct vnc_client *client = cl->clientData;
	if (client && vnc_client_check_gone(client)) {
		return false;
	}
	return true;
}

/* Pending connections */

static void pending_decide(struct vnc_pending *pending, bool timed_out) {
	struct vnc_server *vnc = pending->vnc;
	char buf[PEEK_BYTES + 1];
	ssize_t n = recv(pending->fd, buf, PEEK_BYTES, MSG_PEEK | MSG_DONTWAIT);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
		pending_destroy(pending, true);
		return;
	}
	if (n < 0) {
		n = 0;
	}
	buf[n] = '\0';
	int fd = pending->fd;
	if (n >= 4 && memcmp(buf, "GET ", 4) == 0) {
		bool complete = strstr(buf, "\r\n\r\n") || strstr(buf, "\n\n");
		if (!complete && n < PEEK_BYTES && pending->waited_ms < PENDING_MAX_MS) {
			/* Level-triggered: stop watching until the next look. */
			wl_event_source_fd_update(pending->source, 0);
			wl_event_source_timer_update(pending->timer, PENDING_RECHECK_MS);
			pending->waited_ms += PENDING_RECHECK_MS;
			return;
		}
		if (vnc->http_dir && vnc_http_is_plain_get(buf, (size_t)n)) {
			pending_destroy(pending, false);
			vnc_http_start(vnc, fd);
			return;
		}
	} else if (n >= 1 && ((unsigned char)buf[0] == 0x16 || (unsigned char)buf[0] == 0x80)) {
		/* A TLS handshake record: wait for all of it (see the top). */
		size_t want = n >= 5 ? 5 + (((unsigned char)buf[3] << 8) | (unsigned char)buf[4]) : 5;
		if ((size_t)n < want) {
			if (pending->waited_ms >= PENDING_MAX_MS) {
				wlr_log(WLR_INFO, "VNC: dropping a TLS connection whose hello "
					"did not arrive in time");
				pending_destroy(pending, true);
				return;
			}
			wl_event_source_fd_update(pending->source, 0);
			wl_event_source_timer_update(pending->timer, PENDING_RECHECK_MS);
			pending->waited_ms += PENDING_RECHECK_MS;
			return;
		}
		pending_destroy(pending, false);
		vnc_listen_new_rfb_client(vnc, fd, true);
		return;
	} else if (n == 0 && !timed_out) {
		return;
	}
	pending_destroy(pending, false);
	vnc_listen_new_rfb_client(vnc, fd, false);
}

static int handle_pending_fd(int fd, uint32_t mask, void *data) {
	pending_decide(data, false);
	return 0;
}

static int handle_pending_timer(void *data) {
	struct vnc_pending *pending = data;
	/* Watch the fd again (a recheck may have stopped that). */
	wl_event_source_fd_update(pending->source, WL_EVENT_READABLE);
	pending_decide(pending, true);
	return 0;
}

static int handle_client_timer(void *data) {
	struct vnc_client *client = data;
	client->timer_armed = false;
	vnc_client_schedule_update(client);
	return 0;
}

static void peer_host(int fd, char *host, size_t size) {
	struct sockaddr_storage addr;
	socklen_t len = sizeof(addr);
	snprintf(host, size, "unix");
	if (getpeername(fd, (struct sockaddr *)&addr, &len) == 0 &&
			addr.ss_family != AF_UNIX) {
		if (getnameinfo((struct sockaddr *)&addr, len, host, size, NULL, 0,
				NI_NUMERICHOST) != 0) {
			snprintf(host, size, "?");
		}
	}
}

static int handle_listen_fd(int fd, uint32_t mask, void *data) {
	struct vnc_listener *listener = data;
	struct vnc_server *vnc = listener->vnc;
	int conn = accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (conn < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
			wlr_log_errno(WLR_ERROR, "VNC: accept");
		}
		return 0;
	}
	char host[NI_MAXHOST];
	peer_host(conn, host, sizeof(host));
	int n_pending = wl_list_length(&vnc->pending);
	if (vnc->n_clients + n_pending >= vnc->options->max_clients) {
		wlr_log(WLR_INFO, "VNC: refusing %s: already %d viewers (--vnc-max-clients)",
			host, vnc->n_clients + n_pending);
		close(conn);
		return 0;
	}
	if (!vnc_auth_allowed(vnc, host)) {
		wlr_log(WLR_INFO, "VNC: refusing %s for now: too many failed passwords", host);
		close(conn);
		return 0;
	}
	struct vnc_pending *pending = zalloc(sizeof(*pending));
	pending->vnc = vnc;
	pending->fd = conn;
	pending->is_unix = listener->unix_path != NULL;
	pending->source = wl_event_loop_add_fd(loop_of(vnc), conn, WL_EVENT_READABLE,
		handle_pending_fd, pending);
	pending->timer = wl_event_loop_add_timer(loop_of(vnc), handle_pending_timer, pending);
	wl_list_insert(&vnc->pending, &pending->link);
	wl_event_source_timer_update(pending->timer, PENDING_WAIT_MS);
	return 0;
}

/* Listening */

static bool add_listener(struct vnc_server *vnc, int fd, const char *unix_path,
		const struct config_vnc_address *address) {
	struct vnc_listener *listener = zalloc(sizeof(*listener));
	listener->vnc = vnc;
	listener->fd = fd;
	listener->unix_path = unix_path ? xstrdup(unix_path) : NULL;
	if (address) {
		listener->address = *address;
	}
	listener->source = wl_event_loop_add_fd(loop_of(vnc), fd, WL_EVENT_READABLE,
		handle_listen_fd, listener);
	wl_list_insert(vnc->listeners.prev, &listener->link);
	return listener->source != NULL;
}

static bool listen_tcp(struct vnc_server *vnc, const char *spec) {
	struct config_vnc_address address;
	if (!config_parse_vnc_address(spec, &address)) {
		wlr_log(WLR_ERROR, "VNC: bad listen address %s", spec);
		return false;
	}
	char port[16];
	snprintf(port, sizeof(port), "%d", address.port);
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_STREAM,
		.ai_flags = AI_PASSIVE | AI_NUMERICSERV,
	};
	struct addrinfo *result;
	int err = getaddrinfo(address.host, port, &hints, &result);
	if (err != 0) {
		wlr_log(WLR_ERROR, "VNC: cannot resolve %s: %s", address.host, gai_strerror(err));
		return false;
	}
	int n_bound = 0;
	for (struct addrinfo *ai = result; ai; ai = ai->ai_next) {
		int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
			ai->ai_protocol);
		if (fd < 0) {
			continue;
		}
		int one = 1;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (ai->ai_family == AF_INET6) {
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
		}
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 16) < 0) {
			wlr_log_errno(WLR_ERROR, "VNC: cannot listen on %s", spec);
			close(fd);
			continue;
		}
		add_listener(vnc, fd, NULL, &address);
		n_bound++;
	}
	freeaddrinfo(result);
	if (n_bound == 0) {
		return false;
	}
	wlr_log(WLR_INFO, "VNC: listening on %s:%d%s", address.host, address.port,
		vnc->http_dir ? " (RFB, WebSocket and HTTP)" : " (RFB and WebSocket)");
	return true;
}

static bool listen_unix(struct vnc_server *vnc, const char *path) {
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof(addr.sun_path)) {
		wlr_log(WLR_ERROR, "VNC: Unix socket path too long: %s", path);
		return false;
	}
	strcpy(addr.sun_path, path);
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode)) {
		unlink(path); /* a stale socket from an earlier run */
	}
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		return false;
	}
	/* Unauthenticated by design: only our user may connect. */
	mode_t old_umask = umask(0077);
	bool ok = bind(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0 && listen(fd, 16) == 0;
	umask(old_umask);
	if (!ok) {
		wlr_log_errno(WLR_ERROR, "VNC: cannot listen on %s", path);
		close(fd);
		return false;
	}
	add_listener(vnc, fd, path, NULL);
	wlr_log(WLR_INFO, "VNC: listening on Unix socket %s", path);
	return true;
}

static void listener_destroy(struct vnc_listener *listener) {
	if (listener->source) {
		wl_event_source_remove(listener->source);
	}
	close(listener->fd);
	if (listener->unix_path) {
		unlink(listener->unix_path);
		free(listener->unix_path);
	}
	wl_list_remove(&listener->link);
	free(listener);
}

static bool listener_matches(const struct vnc_listener *listener, const char *spec,
		const struct config_vnc_address *address) {
	if (spec[0] == '/') {
		return listener->unix_path && strcmp(listener->unix_path, spec) == 0;
	}
	return !listener->unix_path && listener->address.port == address->port &&
		strcmp(listener->address.host, address->host) == 0;
}

int vnc_listen_start(struct vnc_server *vnc, const char *spec, char *error,
		size_t error_size) {
	struct config_vnc_address address = {0};
	bool is_unix = spec[0] == '/';
	if (!is_unix && !config_parse_vnc_address(spec, &address)) {
		snprintf(error, error_size, "bad VNC address (want [ADDR:]PORT or /PATH)");
		return -EINVAL;
	}
	struct vnc_listener *listener;
	wl_list_for_each(listener, &vnc->listeners, link) {
		if (listener_matches(listener, spec, &address)) {
			snprintf(error, error_size, "already listening there");
			return -EEXIST;
		}
	}
	/* The security model, as for --vnc: only loopback goes without. */
	if (!is_unix && !vnc->passwords && !config_vnc_address_is_loopback(&address)) {
		snprintf(error, error_size, "refusing to serve VNC on %s without a password: "
			"it is not a loopback address; start oriel with --vnc-password-file FILE",
			address.host);
		return -EPERM;
	}
	if (!(is_unix ? listen_unix(vnc, spec) : listen_tcp(vnc, spec))) {
		snprintf(error, error_size, "cannot listen there (oriel's log says why)");
		return -EADDRNOTAVAIL;
	}
	return 0;
}

int vnc_listen_stop(struct vnc_server *vnc, const char *spec) {
	struct config_vnc_address address = {0};
	if (spec[0] != '/' && !config_parse_vnc_address(spec, &address)) {
		return -EINVAL;
	}
	int n = 0;
	struct vnc_listener *listener, *tmp;
	wl_list_for_each_safe(listener, tmp, &vnc->listeners, link) {
		if (listener_matches(listener, spec, &address)) {
			listener_destroy(listener);
			n++;
		}
	}
	if (n == 0) {
		return -ENOENT;
	}
	wlr_log(WLR_INFO, "VNC: stopped listening on %s (viewers stay connected)", spec);
	return 0;
}

void vnc_listen_init_http(struct vnc_server *vnc) {
	const char *http = vnc->options->http;
	if (vnc->http_dir) {
		return;
	}
	if (!http) {
		struct stat st;
		if (stat("/usr/share/novnc/vnc.html", &st) == 0) {
			vnc->http_dir = xstrdup("/usr/share/novnc");
		}
	} else if (strcmp(http, "none") != 0) {
		vnc->http_dir = xstrdup(http);
	}
}

bool vnc_listen_init(struct vnc_server *vnc) {
	const struct options_vnc *options = vnc->options;
	vnc_listen_init_http(vnc);
	for (int i = 0; i < options->n_listen; i++) {
		if (!listen_tcp(vnc, options->listen[i])) {
			return false;
		}
	}
	for (int i = 0; i < options->n_unix; i++) {
		if (!listen_unix(vnc, options->unix_paths[i])) {
			return false;
		}
	}
	return true;
}

void vnc_listen_finish(struct vnc_server *vnc) {
	struct vnc_listener *listener, *tmp;
	wl_list_for_each_safe(listener, tmp, &vnc->listeners, link) {
		listener_destroy(listener);
	}
	struct vnc_pending *pending, *ptmp;
	wl_list_for_each_safe(pending, ptmp, &vnc->pending, link) {
		pending_destroy(pending, true);
	}
	free(vnc->http_dir);
	vnc->http_dir = NULL;
}
