/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CAPTURE_RDP_PRIVATE_H
#define ORIEL_CAPTURE_RDP_PRIVATE_H

/* Shared between the capture/rdp/rdp_*.c files; not for the rest of oriel. */

#include <freerdp/freerdp.h>
#include <freerdp/peer.h>
#include <pixman.h>
#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>
#include "capture/remote/auth_throttle.h"
#include "capture/remote/tls_identity.h"
#include "capture/remote/users_file.h"

struct server;
struct output;
struct output_capture;
struct options_rdp;
struct account_checker;
struct account_check;
struct rdp_watchdog;

struct rdp_server {
	struct server *server;
	const struct options_rdp *options;

	/*
	 * The served output and its pixels: bytes B,G,R,X (FreeRDP's BGRX32),
	 * kept up to date from the capture's damage.
	 */
	struct output *output;
	struct output_capture *capture;
	uint8_t *fb;
	int width, height;
	struct wl_listener capture_frame;
	struct wl_listener capture_destroy;
	struct wl_listener outputs_changed;

	/* The output's cursor plane (rdp_cursor.c) */
	struct wl_listener cursor_shape;
	struct wl_listener cursor_motion;
	bool cursor_attached;
	/* The peer whose pointer event is being handled, if any. */
	struct rdp_peer *pointer_peer;

	struct wl_list listeners; /* rdp_listener.link */
	struct wl_list peers;     /* rdp_peer.link, newest first */
	int n_guests, n_sessions;
	uint64_t last_peer_id;

	/* Accounts, the certificate and the throttle (rdp_auth.c). */
	struct users_file users;
	bool accounts;
	struct account_checker *account_checker;
	struct wl_event_source *account_checker_source;
	struct auth_throttle throttle;
	struct tls_identity tls;

	/* Ends calls into FreeRDP that wait on a stalled client (rdp_watchdog.c). */
	struct rdp_watchdog *watchdog;
};

enum rdp_peer_state {
	RDP_PEER_GUEST,      /* connecting: a deadline, the guests' caps */
	RDP_PEER_CHECKING,   /* its logon is being checked: no input, no frames */
	RDP_PEER_SESSION,    /* logged in */
};

#define RDP_PEER_MAX_HANDLES 8

struct rdp_peer {
	struct rdp_server *rdp;
	freerdp_peer *client;
	uint64_t id;
	char host[64];
	enum rdp_peer_state state;
	bool view_only;
	bool closing;   /* dropped while FreeRDP calls us: freed on return */
	int in_freerdp; /* depth of calls into FreeRDP */
	struct wl_list link;

	struct wl_event_source *sources[RDP_PEER_MAX_HANDLES];
	int n_sources;
	struct wl_event_source *deadline;
	struct account_check *check;
	psPeerLicenseCallback library_license;

	/* The size the client asked for at connection. */
	uint32_t requested_width, requested_height;

	/* Display (rdp_display.c) */
	bool activated;
	bool output_enabled;      /* not minimised (Suppress Output) */
	pixman_region32_t damage; /* not sent yet, desktop coordinates */
	uint32_t frame_id;        /* last frame sent */
	uint32_t acked_id;        /* last frame acknowledged */
	struct wl_event_source *pace_timer;
	bool pace_armed;
	int64_t last_frame_ms;
	struct rdp_encoder *encoder;
	struct wl_event_source *writable; /* while FreeRDP's output buffer is full */
	/* Since the last statistics line (debug log). */
	uint32_t stat_frames;
	uint64_t stat_bytes;
	int64_t stat_since_ms;

	/* Input (rdp_input.c) */
	bool input_used; /* pressed something: release all when it goes */
	bool pause_prefix;       /* E1 1D came: the 45 after it is Pause's, not Num Lock */
	uint16_t high_surrogate; /* the first half of a Unicode character, or 0 */

	/* The clipboard channel (rdp_clipboard.c); NULL: none (yet). */
	struct rdp_clipboard *clipboard;
};

/* rdp_server.c */
int64_t rdp_now_ms(void);
/* Desktop coordinates to layout coordinates; false outside. */
bool rdp_desktop_to_layout(struct rdp_server *rdp, int x, int y, double *lx, double *ly);
/* A session began: the output may take the size its client asked for. */
void rdp_server_session_started(struct rdp_server *rdp, struct rdp_peer *peer);

/* rdp_listen.c */
bool rdp_listen_init(struct rdp_server *rdp);
void rdp_listen_finish(struct rdp_server *rdp);

/* rdp_peer.c */
/* A new connection: a guest (another may give way), or closed. */
void rdp_peer_create(struct rdp_server *rdp, int fd);
/* Disconnects and frees (later, when FreeRDP is calling us); why is logged. */
void rdp_peer_drop(struct rdp_peer *peer, const char *why);
void rdp_peers_finish(struct rdp_server *rdp);
/*
 * Around calls into FreeRDP (which call back): enter with in_freerdp++;
 * leave frees a peer dropped meanwhile, and then returns false.
 */
bool rdp_peer_leave_freerdp(struct rdp_peer *peer);

/* rdp_auth.c */
bool rdp_auth_init(struct rdp_server *rdp);
void rdp_auth_finish(struct rdp_server *rdp);
bool rdp_auth_allowed(struct rdp_server *rdp, const char *host);
void rdp_auth_failed(struct rdp_server *rdp, const char *host, const char *user);
void rdp_auth_succeeded(struct rdp_server *rdp, const char *host);

/* rdp_display.c */
bool rdp_display_init_peer(struct rdp_peer *peer);
void rdp_display_finish_peer(struct rdp_peer *peer);
/* The client is active (again): it needs the whole desktop. */
void rdp_display_activated(struct rdp_peer *peer);
/* New pixels in the framebuffer (desktop coordinates). */
void rdp_display_damage(struct rdp_server *rdp, const pixman_region32_t *damage);
/* The desktop changed size: every session is reactivated with it. */
void rdp_display_resized(struct rdp_server *rdp);
void rdp_display_schedule(struct rdp_peer *peer);

/* rdp_encode.c */
struct rdp_encoder *rdp_encoder_create(void);
void rdp_encoder_destroy(struct rdp_encoder *encoder);
/* Picks the codec the client takes, for the desktop's size; false on failure. */
bool rdp_encoder_prepare(struct rdp_peer *peer);
/* Encodes damage (desktop coordinates) and sends it as frame peer->frame_id. */
bool rdp_encoder_send(struct rdp_peer *peer, const pixman_region32_t *damage);
/* Whether the client acknowledges frames (then frames carry markers). */
bool rdp_peer_uses_acks(struct rdp_peer *peer);

/* rdp_input.c */
void rdp_input_init_peer(struct rdp_peer *peer);
void rdp_input_peer_gone(struct rdp_peer *peer);

/* rdp_clipboard.c: the cliprdr channel of a logged-on, active client. */
void rdp_clipboard_activated(struct rdp_peer *peer);
void rdp_clipboard_peer_gone(struct rdp_peer *peer);

/* rdp_cursor.c: the cursor plane as pointer shape and position. */
void rdp_cursor_attach(struct rdp_server *rdp);
void rdp_cursor_detach(struct rdp_server *rdp);
/* The current shape and position, to a peer just activated. */
void rdp_cursor_send(struct rdp_peer *peer);

/* rdp_watchdog.c: a thread that shuts a socket down when a call into
 * FreeRDP waits on it for too long (FreeRDP's TLS handshake and writes
 * wait for the client). */
struct rdp_watchdog *rdp_watchdog_create(void);
void rdp_watchdog_destroy(struct rdp_watchdog *watchdog);
void rdp_watchdog_arm(struct rdp_watchdog *watchdog, int fd, int timeout_ms);
void rdp_watchdog_disarm(struct rdp_watchdog *watchdog);

#endif
