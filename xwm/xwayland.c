/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xcursor_manager.h>
#include <wlr/util/log.h>
#include <wlr/xcursor.h>
#include <wlr/xwayland.h>
#include "compositor/seat.h"
#include "compositor/server.h"
#include "compositor/startup_error.h"
#include "common/util.h"
#include "xwm/x11.h"
#include "common/x_display.h"
#include "xwm/x_display_borrow.h"
#include "xwm/xwayland.h"
#include "xwm/xwayland_process.h"

struct xwm {
	struct server *server;
	struct wlr_xwayland *xwayland;
	bool lazy;
	char display_name[16];
	/*
	 * With --x-display: the display oriel took itself, until it is given
	 * to wlroots, and the first X client's knock on it while lazy.
	 */
	int first_display; /* -1: wlroots picks one among :0-:32 */
	int last_display;  /* tried first again after a restart */
	struct x_display own;
	struct wl_event_source *knock[2];
	int trigger_fd;
	/* oriel's own X connection, while Xwayland is ready. */
	struct xwm_x11 *x11;
	struct wl_event_source *restart_timer;
	int restart_waits;

	struct wl_listener ready;
	struct wl_listener new_surface;
	struct wl_listener client_destroy;
	bool client_destroy_linked;
};

/*
 * wlroots' XWM shows each of its X events to user_event_handler first,
 * without user data; a process has one oriel XWM.
 */
static struct xwm *event_xwm;

static void close_trigger(struct xwm *xwm) {
	if (xwm->trigger_fd >= 0) {
		close(xwm->trigger_fd);
		xwm->trigger_fd = -1;
	}
}

/* Sees wlroots' XWM's events before it handles them; handles none itself. */
static int handle_wm_event(struct wlr_xwm *wlr_xwm, xcb_generic_event_t *event) {
	if ((event->response_type & 0x7f) == XCB_MAP_REQUEST && event_xwm &&
			event_xwm->x11) {
		/* wlroots' answer rewrites _NET_WM_STATE: what was asked, first. */
		xcb_map_request_event_t *request = (xcb_map_request_event_t *)event;
		struct view *view = xwayland_view_find(event_xwm->server, request->window);
		if (view) {
			ewmh_state_map_requested(event_xwm->x11, view);
		}
	}
	return 0;
}

static void handle_new_surface(struct wl_listener *listener, void *data) {
	struct xwm *xwm = wl_container_of(listener, xwm, new_surface);
	struct wlr_xwayland_surface *xsurface = data;
	if (xsurface->override_redirect) {
		xwayland_unmanaged_create(xwm->server, xsurface);
	} else {
		xwayland_view_create(xwm->server, xsurface);
	}
}

static bool xwm_start(struct xwm *xwm);
static void xwm_stop(struct xwm *xwm);

#define RESTART_CHECK_MS 20
#define RESTART_MAX_WAITS 100
#define X_EXIT_GRACE_MS 2000

/*
 * wlroots restarts Xwayland only when it ran for more than 5 seconds. A
 * session must survive an X server that dies early too, so when wlroots
 * did not restart it, oriel starts a new one on the same display. The old
 * window manager connection must be gone first: wlroots 0.15 frees it only
 * when it sees the hangup, and it still points at its wlr_xwayland.
 */
static int handle_restart_timer(void *data) {
	struct xwm *xwm = data;
	struct wlr_xwayland_server *server = xwm->xwayland->server;
	bool restarted = server && (server->pid != 0 || server->client ||
		server->pipe_source || server->x_fd_read_event[0]);
	if (restarted) {
		return 0;
	}
	if (xwm->xwayland->xwm && ++xwm->restart_waits < RESTART_MAX_WAITS) {
		wl_event_source_timer_update(xwm->restart_timer, RESTART_CHECK_MS);
		return 0;
	}
	wlr_log(WLR_INFO, "Xwayland exited; starting it again");
	xwm_stop(xwm);
	if (!xwm_start(xwm)) {
		wlr_log(WLR_ERROR, "Cannot restart Xwayland");
	}
	return 0;
}

static void handle_client_destroy(struct wl_listener *listener, void *data) {
	struct xwm *xwm = wl_container_of(listener, xwm, client_destroy);
	wl_list_remove(&xwm->client_destroy.link);
	xwm->client_destroy_linked = false;
	xwm->restart_waits = 0;
	wl_event_source_timer_update(xwm->restart_timer, 1);
}

static void handle_ready(struct wl_listener *listener, void *data) {
	struct xwm *xwm = wl_container_of(listener, xwm, ready);
	struct wlr_xwayland *xwayland = xwm->xwayland;
	wlr_xwayland_set_seat(xwayland, xwm->server->seat->wlr_seat);

	/*
	 * The seat's theme, of the same name and size: a second manager would
	 * load the whole theme again (about 1 MiB of images per session) for
	 * this one cursor.
	 */
	struct wlr_xcursor *xcursor = wlr_xcursor_manager_get_xcursor(
		xwm->server->seat->xcursor_manager, "left_ptr", 1);
	if (xcursor) {
		struct wlr_xcursor_image *image = xcursor->images[0];
		wlr_xwayland_set_cursor(xwayland, image->buffer, image->width * 4,
			image->width, image->height, image->hotspot_x, image->hotspot_y);
	}
	if (xwayland->server->client && !xwm->client_destroy_linked) {
		xwm->client_destroy.notify = handle_client_destroy;
		wl_client_add_destroy_listener(xwayland->server->client, &xwm->client_destroy);
		xwm->client_destroy_linked = true;
	}
	close_trigger(xwm);
	/* A restarted Xwayland: the old connection has hung up by now. */
	xwm_x11_disconnect(xwm->x11);
	xwm->x11 = xwm_x11_connect(xwm->server, xwayland->display_name);
	wlr_log(WLR_INFO, "Xwayland is ready on %s", xwayland->display_name);
}

static void set_display_name(struct xwm *xwm, const char *name) {
	if (strcmp(xwm->display_name, name) != 0) {
		snprintf(xwm->display_name, sizeof(xwm->display_name), "%s", name);
		setenv("DISPLAY", xwm->display_name, 1);
	}
}

static bool create_xwayland(struct xwm *xwm, bool lazy) {
	struct server *server = xwm->server;
	xwm->xwayland = wlr_xwayland_create(server->display, server->compositor, lazy);
	if (!xwm->xwayland) {
		return false;
	}
	event_xwm = xwm;
	xwm->xwayland->user_event_handler = handle_wm_event;
	xwm->ready.notify = handle_ready;
	wl_signal_add(&xwm->xwayland->events.ready, &xwm->ready);
	xwm->new_surface.notify = handle_new_surface;
	wl_signal_add(&xwm->xwayland->events.new_surface, &xwm->new_surface);
	return true;
}

/*
 * A connection to wlroots' lazy display makes it start Xwayland. Made to
 * the address its socket has, which may be unnamed (x_display_borrow.h).
 */
static bool knock_on(struct xwm *xwm, const struct sockaddr_un *addr, socklen_t len,
		int display) {
	close_trigger(xwm);
	xwm->trigger_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (xwm->trigger_fd < 0 || connect(xwm->trigger_fd, (const struct sockaddr *)addr,
			len) < 0) {
		wlr_log_errno(WLR_ERROR, "Cannot reach wlroots' X display :%d", display);
		close_trigger(xwm);
		return false;
	}
	return true;
}

/*
 * wlroots 0.15 takes a display among :0-:32 when it makes its Xwayland
 * server, and keeps no other. Made lazy, it holds that display's sockets
 * and waits for a client before it forks. Our own display's sockets go in
 * place of its own (the same fd numbers, which are what Xwayland is given),
 * its display's files go, and a knock on its display, whose sockets only
 * its wait still holds, makes it start Xwayland on ours. So a display
 * among :0-:32 is held for a moment only, and wlroots removes ours when it
 * ends, as it would its own.
 */
static bool hand_over_display(struct xwm *xwm) {
	x_display_borrow(true);
	bool created = create_xwayland(xwm, true);
	x_display_borrow(false);
	if (!created) {
		x_display_close(&xwm->own);
		return false;
	}
	struct wlr_xwayland_server *server = xwm->xwayland->server;
	int wlroots_display = server->display;
	struct sockaddr_un knock = { 0 };
	socklen_t knock_len = sizeof(knock);
	if (getsockname(server->x_fd[0], (struct sockaddr *)&knock, &knock_len) < 0) {
		wlr_log_errno(WLR_ERROR, "Cannot find wlroots' X display :%d", wlroots_display);
		x_display_close(&xwm->own);
		return false;
	}
	for (int i = 0; i < 2; i++) {
		if (dup3(xwm->own.fds[i], server->x_fd[i], O_CLOEXEC) < 0) {
			wlr_log_errno(WLR_ERROR, "Cannot give Xwayland display %s", xwm->display_name);
			x_display_close(&xwm->own);
			return false;
		}
		close(xwm->own.fds[i]);
		xwm->own.fds[i] = -1;
	}
	x_display_unlink(wlroots_display);
	server->display = xwm->own.number;
	snprintf(server->display_name, sizeof(server->display_name), "%s", xwm->display_name);
	xwm->own.number = -1; /* wlroots' from here */
	return knock_on(xwm, &knock, knock_len, wlroots_display);
}

static int handle_knock(int fd, uint32_t mask, void *data) {
	struct xwm *xwm = data;
	for (int i = 0; i < 2; i++) {
		wl_event_source_remove(xwm->knock[i]);
		xwm->knock[i] = NULL;
	}
	if (!hand_over_display(xwm)) {
		wlr_log(WLR_ERROR, "Cannot start Xwayland for the first X client");
	}
	return 0;
}

static bool xwm_start_own_display(struct xwm *xwm) {
	char why[128];
	int first = xwm->last_display >= 0 ? xwm->last_display : xwm->first_display;
	if (!x_display_open(&xwm->own, first, why, sizeof(why))) {
		wlr_log(WLR_ERROR, "Cannot take an X display: %s", why);
		return false;
	}
	xwm->last_display = xwm->own.number;
	char name[16];
	snprintf(name, sizeof(name), ":%d", xwm->own.number);
	set_display_name(xwm, name);
	if (!xwm->lazy) {
		return hand_over_display(xwm);
	}
	for (int i = 0; i < 2; i++) {
		xwm->knock[i] = wl_event_loop_add_fd(xwm->server->loop, xwm->own.fds[i],
			WL_EVENT_READABLE, handle_knock, xwm);
	}
	return true;
}

static bool xwm_start(struct xwm *xwm) {
	if (xwm->first_display >= 0) {
		return xwm_start_own_display(xwm);
	}
	if (!create_xwayland(xwm, xwm->lazy)) {
		return false;
	}
	set_display_name(xwm, xwm->xwayland->display_name);
	return true;
}


/* Runs the event loop until wlroots has freed its WM or the deadline passes. */
static bool wait_for_wm_gone(struct xwm *xwm, int timeout_ms) {
	int64_t deadline = monotonic_ms() + timeout_ms;
	while (xwm->xwayland->xwm) {
		int64_t left = deadline - monotonic_ms();
		if (left <= 0) {
			return false;
		}
		wl_event_loop_dispatch(xwm->server->loop,
			left < RESTART_CHECK_MS ? (int)left : RESTART_CHECK_MS);
	}
	return true;
}

/*
 * Ends the X server and waits until wlroots freed its WM. The wait is by
 * the clock: with busy clients each dispatch returns at once. wlroots 0.15
 * frees the WM only when it sees the hangup, never in wlr_xwayland_destroy,
 * so an X server that lingers is killed. wlroots restarts Xwayland whenever
 * its client goes away, so its listener is taken off first; Xwayland then
 * exits on the broken pipe.
 */
/*
 * An Xwayland that is still starting is waited for by wlroots' first fork,
 * a copy of oriel that holds oriel's end of Xwayland's connection: neither
 * would ever see the other go. The fork goes first; Xwayland then sees its
 * connection close, and is killed in case it has not.
 */
static void end_starting_x_server(struct xwm *xwm) {
	struct wlr_xwayland_server *server = xwm->xwayland->server;
	if (!server || !server->pipe_source || server->pid <= 0) {
		return;
	}
	pid_t fork_pid = server->pid;
	kill(fork_pid, SIGKILL);
	while (waitpid(fork_pid, NULL, 0) < 0 && errno == EINTR) {
	}
	wl_event_source_remove(server->pipe_source);
	server->pipe_source = NULL;
	server->pid = 0;
	pid_t pid = xwayland_process_find(xwm->display_name);
	if (pid > 0) {
		wlr_log(WLR_INFO, "Stopping Xwayland (pid %d), which had not started yet",
			(int)pid);
		kill(pid, SIGKILL);
	}
}

static void end_x_server(struct xwm *xwm) {
	end_starting_x_server(xwm);
	struct wlr_xwayland_server *server = xwm->xwayland->server;
	pid_t pid = xwayland_process_find(xwm->display_name);
	if (server && server->client) {
		struct wl_client *client = server->client;
		wl_list_remove(&server->client_destroy.link);
		wl_list_init(&server->client_destroy.link);
		server->client = NULL;
		wl_client_destroy(client);
	}
	if (wait_for_wm_gone(xwm, X_EXIT_GRACE_MS) || pid <= 0) {
		return;
	}
	wlr_log(WLR_INFO, "Xwayland (pid %d) did not exit; killing it", (int)pid);
	kill(pid, SIGKILL);
	if (!wait_for_wm_gone(xwm, X_EXIT_GRACE_MS)) {
		wlr_log(WLR_ERROR, "The X window manager connection did not hang up");
	}
}

static void xwm_stop(struct xwm *xwm) {
	for (int i = 0; i < 2; i++) {
		if (xwm->knock[i]) {
			wl_event_source_remove(xwm->knock[i]);
			xwm->knock[i] = NULL;
		}
	}
	x_display_close(&xwm->own);
	close_trigger(xwm);
	if (!xwm->xwayland) {
		return;
	}
	if (xwm->client_destroy_linked) {
		wl_list_remove(&xwm->client_destroy.link);
		xwm->client_destroy_linked = false;
	}
	xwm_x11_disconnect(xwm->x11);
	xwm->x11 = NULL;
	end_x_server(xwm);
	wl_list_remove(&xwm->ready.link);
	wl_list_remove(&xwm->new_surface.link);
	wlr_xwayland_destroy(xwm->xwayland);
	xwm->xwayland = NULL;
}

struct xwm *xwm_create(struct server *server, bool lazy, int first_display) {
	struct xwm *xwm = zalloc(sizeof(*xwm));
	xwm->server = server;
	xwm->lazy = lazy;
	xwm->first_display = first_display;
	xwm->last_display = -1;
	xwm->own = (struct x_display){ .number = -1, .fds = { -1, -1 } };
	xwm->trigger_fd = -1;
	xwm->restart_timer = wl_event_loop_add_timer(server->loop, handle_restart_timer, xwm);
	const char *binary = getenv("WLR_XWAYLAND");
	if (!binary || !binary[0]) {
		binary = ORIEL_XWAYLAND_PATH;
	}
	if (access(binary, X_OK) != 0) {
		startup_error("Xwayland not found (%s); install the xwayland package "
			"or use --xwayland off", binary);
		wl_event_source_remove(xwm->restart_timer);
		free(xwm);
		return NULL;
	}
	if (!xwm_start(xwm)) {
		startup_error("cannot start Xwayland; see the messages above, "
			"or use --xwayland off");
		wlr_log(WLR_ERROR, "Cannot start Xwayland");
		wl_event_source_remove(xwm->restart_timer);
		free(xwm);
		return NULL;
	}
	return xwm;
}

void xwm_destroy(struct xwm *xwm) {
	if (!xwm) {
		return;
	}
	wl_event_source_remove(xwm->restart_timer);
	xwm_stop(xwm);
	if (event_xwm == xwm) {
		event_xwm = NULL;
	}
	free(xwm);
}

const char *xwm_display_name(struct xwm *xwm) {
	return xwm->display_name;
}

void xwm_start_drag_unbridged(struct xwm *xwm, struct wlr_drag *drag, uint32_t serial) {
	struct wlr_seat *seat = xwm->server->seat->wlr_seat;
	if (!xwm->xwayland) { /* lazy, before its first X client */
		wlr_seat_start_pointer_drag(seat, drag, serial);
		return;
	}
	/* Without a seat for the moment, wlroots' XWM does not hear of the drag. */
	wlr_xwayland_set_seat(xwm->xwayland, NULL);
	wlr_seat_start_pointer_drag(seat, drag, serial);
	wlr_xwayland_set_seat(xwm->xwayland, seat);
}

struct xwm_x11 *xwm_get_x11(struct xwm *xwm) {
	return xwm ? xwm->x11 : NULL;
}
