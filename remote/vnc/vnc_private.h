/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_VNC_VNC_PRIVATE_H
#define ORIEL_REMOTE_VNC_VNC_PRIVATE_H

/* Shared between the capture/vnc_*.c files; not for the rest of oriel. */

#include <rfb/rfb.h>
/* rfb.h uses sraRgnEmpty (FB_UPDATE_PENDING) without declaring it: an
 * implicit int return would misread its rfbBool (int8_t). */
#include <rfb/rfbregion.h>
#include <gnutls/gnutls.h>
#include <pixman.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <wayland-server-core.h>
#include "remote/auth_throttle.h"
#include "remote/listener_set.h"
#include "remote/remote_auth.h"
#include "remote/log_summary.h"
#include "remote/tls_identity.h"
#include "remote/tls_stream.h"
#include "remote/users_file.h"
#include "remote/vnc/rfb_security.h"
#include "remote/vnc/vnc_browser_hosts.h"

struct output;
struct output_capture;
struct vnc_relay;
struct vnc_relays;
struct server;
struct options_vnc;
struct account_checker;
struct vnc_handshake;
struct vnc_ws_login;
struct clipboard_bridge;

/* How a viewer that oriel authenticated itself comes to libvncserver. */
struct vnc_admission {
	bool authenticated; /* oriel made the RFB handshake: skip libvncserver's */
	int minor;          /* the RFB 3.x version agreed on */
	bool view_only;
	char user[256];     /* "" when no user name was given */
	const char *method; /* "None", "VncAuth", "X509Plain", ... */
	/* What the viewer sent already, for libvncserver (a wss request). */
	char *request;
	/*
	 * A WebSocket viewer whose RFB handshake oriel runs (vnc_ws_login.c),
	 * with what it may use; else libvncserver runs it.
	 */
	bool ws_login;
	struct rfb_security_offer ws_offer;
	/*
	 * Authenticated, and a browser: RFB inside WebSocket, whose upgrade
	 * the gateway answered already (vnc_handover.c).
	 */
	bool websocket;
	/* After oriel's handshake: what the viewer sent already (its ClientInit). */
	const uint8_t *pending;
	size_t n_pending;
};

struct vnc_server {
	struct server *server;
	const struct options_vnc *options;
	rfbScreenInfoPtr screen;

	/*
	 * The framebuffer viewers see: bytes R,G,B,X (fb_rgbx) or B,G,R,X,
	 * whichever the last viewer to choose its pixel format asked for, so
	 * that libvncserver sends it without translating (vnc_format.c).
	 */
	uint8_t *fb;
	bool fb_rgbx;
	int width, height;
	/* A quiet framebuffer gives its pages back (vnc_fb.c). */
	bool fb_released; /* its pages are gone: it must be restored before a send */
	bool fb_wanted;   /* pixels were asked of the capture */
	struct wl_event_source *fb_quiet;
	bool fb_quiet_armed;
	int64_t fb_busy_ms; /* CLOCK_MONOTONIC of the last frame or send */

	/*
	 * What is served: one output (output set, one source), or with
	 * --vnc-output layout the whole layout (output NULL, one source per
	 * output, the framebuffer being the layout's bounding box from
	 * (origin_x, origin_y)).
	 */
	bool layout;
	struct output *output; /* the served output; NULL for the layout */
	int origin_x, origin_y; /* layout coordinates of framebuffer (0,0) */
	struct wl_list sources; /* vnc_source.link */
	struct wl_listener outputs_changed;

	struct listener_set listeners;
	/* Connections before authentication (vnc_guest.c), oldest last. */
	struct wl_list guests;     /* vnc_guest.link */
	int n_guests;
	/* Addresses that sent HTTP requests lately: browsers (vnc_browsers.c). */
	struct vnc_browser_host browsers[16];
	struct wl_list http_conns; /* vnc_http_conn.link */
	struct wl_list clients;    /* vnc_client.link */
	int n_clients;    /* logged in: what --vnc-max-clients counts */
	int n_logging_in; /* in libvncserver's own handshake (WebSocket) */
	uint64_t last_client_id;
	char *http_dir; /* NULL: no HTTP */
	/* --vnc-allow-host and --vnc-allow-origin in normal form (vnc_http_origin.h). */
	char **http_hosts, **http_origins;
	size_t n_http_hosts, n_http_origins;

	/* Accounts (vnc_auth.c) */
	char **passwords; /* VncAuth: NULL-terminated, full access first; NULL: none */
	int n_full_passwords;
	struct remote_auth auth; /* --vnc-users, --vnc-pam; the throttle */
	bool accounts; /* a users file or PAM checks user names and passwords */

	/* TLS for VeNCrypt and wss; NULL-free once loaded (vnc_auth.c). */
	struct tls_identity tls;

	/* Clipboard (vnc_clipboard.c, through capture/remote's bridge) */
	struct clipboard_bridge *clipboard;

	/* Cursor plane (vnc_cursor.c): the source whose cursor is shown */
	struct vnc_source *cursor_source;
	/* The viewer whose pointer event is being handled, if any. */
	struct vnc_client *pointer_client;

	/* Viewers' sockets go through relays (vnc_backlog.c). */
	struct vnc_relays *relays;
	/* The relay of the connection in rfbNewClient, for our new-client hook. */
	struct vnc_relay *handoff;
	char handoff_host[1025]; /* NI_MAXHOST */
	struct vnc_admission handoff_admission;
	struct wl_event_source *unviewed_timer; /* --exit-without-clients */
};

/* One served output: its capture, and where it sits in the framebuffer. */
struct vnc_source {
	struct vnc_server *vnc;
	struct output *output;
	struct output_capture *capture;
	int x, y; /* framebuffer coordinates of the output's (0,0) */
	struct wl_listener capture_frame;
	struct wl_listener capture_pixels;
	struct wl_listener capture_destroy;
	/* Cursor plane (vnc_cursor.c) */
	struct wl_listener cursor_changed; /* shape */
	struct wl_listener cursor_motion;
	bool cursor_attached;
	struct wl_list link;
};

struct vnc_client {
	struct vnc_server *vnc;
	rfbClientPtr cl;
	struct wl_list link;
	struct wl_event_source *source;
	struct wl_event_source *timer; /* paces updates to max-fps */
	struct timespec last_update;
	bool timer_armed;
	uint64_t id; /* for the control API; never reused */
	int buttons; /* last RFB button mask */
	bool keys_pressed; /* sent a key: release all when it goes */
	bool raw_direct; /* has had an update from vnc_raw.c */
	struct vnc_relay *relay; /* between the viewer's socket and libvncserver */
	struct wl_event_source *drained; /* the relay's queue became empty */
	struct wl_event_source *idle_timer; /* --vnc-idle-timeout */
	/*
	 * A WebSocket viewer is in libvncserver's RFB handshake until it
	 * reaches RFB_NORMAL: a guest still, with a deadline (login_deadline).
	 */
	bool logged_in;
	struct wl_event_source *login_deadline;
	struct vnc_ws_login *ws_login; /* oriel's handshake over WebSocket, if any */
	/* Lossless refinement (vnc_refine.c) */
	pixman_region32_t lossy; /* sent while JPEG was allowed, not since */
	pixman_region32_t band;  /* marked for the next update, without JPEG */
	struct wl_event_source *refine_timer;
	bool refine_armed;
	bool refining;     /* the band is marked; its update goes without JPEG */
	bool band_follows; /* the last update was a band: the next one goes at once */
	int64_t last_send_ms;
	int saved_quality, saved_compress;
};

/*
 * A connection that has not authenticated yet: it has a deadline, and it
 * counts against the guests' caps, never against --vnc-max-clients.
 */
/* How far a guest's login got: of those that may give way, the least far goes first. */
enum vnc_guest_stage {
	VNC_GUEST_CONNECTED, /* and its RFB handshake: as far as a stalled one gets */
	VNC_GUEST_TLS_HELLO, /* its whole TLS ClientHello came */
	VNC_GUEST_TLS_DONE,  /* its TLS handshake finished */
};

/* What a viewer from an address that must wait is told. */
#define VNC_MUST_WAIT_REFUSAL "too many failed logins from this address: wait before " \
	"logging in again"

struct vnc_guest {
	struct vnc_server *vnc;
	int fd;
	char host[64];   /* numeric address; "unix" on a Unix socket */
	bool is_unix;
	bool local;      /* loopback or a Unix socket: unencrypted auth is fine */
	/*
	 * Not empty: refused, since without accounts or passwords only the
	 * session's user is served and this is someone else (vnc_guest.c).
	 * Why, for the viewer; it is told in the protocol it speaks.
	 */
	char refusal[256];
	/*
	 * Its address must wait after failed logins, and has loaded pages here:
	 * a browser, which is told why inside its WebSocket (a closed
	 * connection shows nothing in noVNC), and logs in nowhere.
	 */
	bool must_wait;
	int waited_ms;   /* while its first bytes are awaited */
	struct wl_event_source *source;
	struct wl_event_source *recheck; /* the first bytes arrive in pieces */
	struct wl_event_source *deadline;
	struct vnc_handshake *handshake; /* once oriel runs its handshake */
	/*
	 * Who gives way under a flood (preauth_evict.h): when it connected,
	 * when its handshake last advanced (a whole message: RFB, VeNCrypt,
	 * TLS; 0: never), when its last bytes came, and how far it got.
	 */
	int64_t started_ms, progress_ms, heard_ms;
	enum vnc_guest_stage stage;
	bool woke;    /* bytes came since its last step */
	bool partial; /* they were half a TLS handshake message, and it waits */
	struct wl_list link;
};

/* vnc_guest.c: its handshake advanced (a whole message), and reached stage if further. */
void vnc_guest_progressed(struct vnc_guest *guest, enum vnc_guest_stage stage);
/* Bytes came from it. */
void vnc_guest_heard(struct vnc_guest *guest);
/* It waits for the rest of a TLS handshake message. */
void vnc_guest_waits(struct vnc_guest *guest);

/* vnc_server.c */
void vnc_client_schedule_update(struct vnc_client *client);
void vnc_schedule_updates(struct vnc_server *vnc);
/* After rfbProcessClientMessage or a send: frees a client libvncserver closed. */
bool vnc_client_check_gone(struct vnc_client *client);
/* Reallocates the framebuffer for a new output size and tells every viewer. */
void vnc_framebuffer_resize(struct vnc_server *vnc, int width, int height);
/*
 * vnc_format.c: the framebuffer's byte order follows the viewers' pixel
 * formats. init sets it up on a new screen; apply sets the server's pixel
 * format for fb_rgbx (after rfbNewFramebuffer reset it) and every viewer's
 * translation.
 */
void vnc_format_init(struct vnc_server *vnc);
void vnc_format_apply(struct vnc_server *vnc);
/* Framebuffer coordinates to layout coordinates; false outside. */
bool vnc_framebuffer_to_layout(struct vnc_server *vnc, int x, int y, double *lx, double *ly);

/* vnc_fb.c */
#define VNC_FB_QUIET_MS 10000
/* A width x height framebuffer, zeroed; NULL when out of memory. */
uint8_t *vnc_fb_alloc(int width, int height);
/* NULL is a no-op. */
void vnc_fb_free(uint8_t *fb, int width, int height);
void vnc_fb_init(struct vnc_server *vnc);
void vnc_fb_finish(struct vnc_server *vnc);
/* Something was drawn or sent: the quiet spell starts again. */
void vnc_fb_busy(struct vnc_server *vnc);
/* Whether the framebuffer holds the picture; if not, asks the capture for it. */
bool vnc_fb_ready(struct vnc_server *vnc);
/* The whole picture was copied back into the framebuffer. */
void vnc_fb_restored(struct vnc_server *vnc);

/* vnc_copyrect.c */
struct output_capture_frame;
/*
 * Before a frame is copied into the framebuffer: sends the part of its
 * window move that viewers can copy as CopyRect, and adds it to copied
 * (framebuffer coordinates), which is then not to be marked modified.
 */
void vnc_copyrect_frame(struct vnc_source *source, const struct output_capture_frame *frame,
	pixman_region32_t *copied);

/*
 * vnc_raw.c: sends a due update itself when it is plain raw pixels (the
 * common case for a raw viewer); false when libvncserver must send it.
 */
bool vnc_raw_update(struct vnc_client *client);

/* Lossless refinement of what went as JPEG, once still (vnc_refine.c). */
bool vnc_refine_init(struct vnc_client *client);
void vnc_refine_finish(struct vnc_client *client);
/* Around each update: what it sends, and whether without JPEG. */
void vnc_refine_begin_update(struct vnc_client *client);
void vnc_refine_end_update(struct vnc_client *client);
/* Whether the viewer has lossy pixels still to be refined. */
bool vnc_refine_pending(struct vnc_client *client);

/* vnc_listen.c */
/* The listener set, listening nowhere yet. */
void vnc_listen_setup(struct vnc_server *vnc);
bool vnc_listen_init(struct vnc_server *vnc);
/* Decides vnc->http_dir from the options (done by vnc_listen_init). */
void vnc_listen_init_http(struct vnc_server *vnc);
void vnc_listen_finish(struct vnc_server *vnc);

/* vnc_guest.c */
/* A new connection: admitted as a guest (another may give way), or closed. */
void vnc_guest_create(struct vnc_server *vnc, int fd, bool is_unix);
/* Drops the guest and closes its connection; why goes to the log (NULL: quiet). */
void vnc_guest_drop(struct vnc_guest *guest, const char *why);
/*
 * The guest is in: its socket (with tls, the session over it, both taken
 * over) goes to libvncserver as a viewer. The guest is freed.
 */
void vnc_guest_admit(struct vnc_guest *guest, struct tls_stream *tls,
	const struct vnc_admission *admission);
void vnc_guests_finish(struct vnc_server *vnc);
/* The guest asked for a page: it is freed, and its fd is the caller's. */
void vnc_guest_admit_http(struct vnc_guest *guest);
/* Whether buf starts an HTTP request (GET or HEAD). */
bool vnc_guest_is_http(const char *buf, size_t n);

/*
 * vnc_browsers.c: addresses that sent HTTP requests in the last minute.
 * Browsers open connections ahead of their requests, so their silent
 * connections wait longer before they are taken for VNC viewers.
 */
void vnc_browsers_remember(struct vnc_server *vnc, const char *host);
bool vnc_browsers_has(struct vnc_server *vnc, const char *host);
/*
 * Whether a WebSocket viewer (whose framing only libvncserver speaks) may
 * connect this way; logs why not.
 */
bool vnc_guest_libvncserver_may_serve(struct vnc_guest *guest, bool tls);
/* A WebSocket viewer's way in, over tls or not: what its admission says. */
void vnc_guest_websocket_admission(struct vnc_guest *guest, bool tls,
	struct vnc_admission *admission);

/* vnc_handshake.c: oriel's RFB security handshake, VeNCrypt and TLS. */
/* tls_first: a TLS hello came first: TLS, then a page or a WebSocket (wss). */
void vnc_handshake_start(struct vnc_guest *guest, bool tls_first);
void vnc_handshake_destroy(struct vnc_handshake *handshake);
/* Its credentials are being checked: it gives way to nobody. */
bool vnc_handshake_checking(const struct vnc_handshake *handshake);

/*
 * vnc_ws_login.c: oriel's RFB handshake over libvncserver's WebSocket, for
 * accounts (VeNCrypt Plain where the channel is safe). start takes over a
 * client in RFB_PROTOCOL_VERSION; readable runs it when its socket is
 * readable, and returns false when the client was dropped. Once in, the
 * client's ws_login is NULL again and libvncserver goes on.
 */
void vnc_ws_login_start(struct vnc_client *client, const struct rfb_security_offer *offer);
bool vnc_ws_login_readable(struct vnc_ws_login *login);
void vnc_ws_login_destroy(struct vnc_ws_login *login);

/* vnc_client.c: a viewer's life in libvncserver. */
/* Hands a socket to libvncserver; false if it refused it. */
bool vnc_client_open(struct vnc_server *vnc, int fd, struct tls_stream *tls,
	const struct vnc_admission *admission);
enum rfbNewClientAction vnc_client_new_hook(rfbClientPtr cl);
/* The person at the viewer did something: its idle timeout starts again. */
void vnc_client_active(struct vnc_client *client);
/*
 * Viewers still in libvncserver's handshake from host ("unix" for Unix
 * sockets; NULL: any), and the oldest of them.
 */
int vnc_clients_logging_in(struct vnc_server *vnc, const char *host,
	struct vnc_client **oldest);
/* Closes a viewer, saying why in the log. */
void vnc_client_drop(struct vnc_client *client, const char *why);

/* vnc_handover.c: viewers that oriel-gateway logged in (--handover-socket). */
void vnc_handover_init(struct vnc_server *vnc);
void vnc_handover_finish(struct vnc_server *vnc);

/* vnc_unviewed.c: --exit-without-clients. Update whenever n_clients changes. */
void vnc_unviewed_init(struct vnc_server *vnc);
void vnc_unviewed_update(struct vnc_server *vnc);
void vnc_unviewed_finish(struct vnc_server *vnc);

/* vnc_http.c: serves static files (noVNC) on the VNC port. */
/* Reads the allowed hosts and origins; false (a startup error) if one is malformed. */
bool vnc_http_init(struct vnc_server *vnc);
void vnc_http_start(struct vnc_server *vnc, int fd);
/* https: request (whole, read over tls) is answered over tls; both taken. */
void vnc_http_start_tls(struct vnc_server *vnc, int fd, struct tls_stream *tls,
	const char *request);
/*
 * Whether a WebSocket upgrade on fd (over tls, unless NULL) may go on: its
 * Host names this server, and its Origin, if any, is this server's page or
 * an allowed one. If not, it has had its refusal (HTTP 400, 403 or 421),
 * why says what for the log, and the caller closes the connection.
 */
bool vnc_http_upgrade_allowed(struct vnc_server *vnc, int fd, gnutls_session_t tls,
	const char *request, char *why, size_t why_size);
void vnc_http_finish(struct vnc_server *vnc);

/* vnc_backlog.c: per-viewer send queues, so no viewer holds the event loop. */
bool vnc_backlog_init(struct vnc_server *vnc);
void vnc_backlog_finish(struct vnc_server *vnc);
/* Relays an accepted socket; returns the fd for rfbNewClient, or -1. */
struct vnc_relay_start;
int vnc_backlog_open(struct vnc_server *vnc, int fd, const struct vnc_relay_start *start);
/* In the new-client hook: takes the relay vnc_backlog_open made. */
bool vnc_backlog_adopt(struct vnc_client *client);
/* After rfbNewClient: drops the relay if no client took it. */
void vnc_backlog_abandon(struct vnc_server *vnc);
void vnc_backlog_client_gone(struct vnc_client *client);
/* True when the viewer took everything sent so far. */
bool vnc_backlog_idle(struct vnc_client *client);
/* The framebuffer size changed: so does the queues' limit. */
void vnc_backlog_resized(struct vnc_server *vnc);

/* vnc_auth.c: passwords, accounts, the certificate and the throttle. */
bool vnc_auth_init(struct vnc_server *vnc);
void vnc_auth_finish(struct vnc_server *vnc);
/* False while this address is throttled after failed attempts. */
bool vnc_auth_allowed(struct vnc_server *vnc, const char *host);
/* A VncAuth response to challenge: true when a password matches. */
bool vnc_auth_check_response(struct vnc_server *vnc, const uint8_t challenge[16],
	const uint8_t response[16], bool *view_only);
/*
 * Whether a line of what ("failures", "tries while it must wait") from
 * host is to be logged: past a few a minute, they are counted, and the
 * count is logged once the minute is over.
 */
bool vnc_auth_log_note(struct vnc_server *vnc, const char *what, const char *host);
/* Counts a login's outcome for the throttle, and logs it. */
void vnc_auth_failed(struct vnc_server *vnc, const char *host, const char *user,
	const char *method);
void vnc_auth_succeeded(struct vnc_server *vnc, const char *host);
/* A user name from the network, fit for one log line ('?' for the rest). */
void vnc_auth_printable(const char *name, char *out, size_t size);

/* vnc_input.c */
void vnc_input_init(struct vnc_server *vnc);
void vnc_input_client_gone(struct vnc_client *client);

/* vnc_clipboard.c */
void vnc_clipboard_init(struct vnc_server *vnc);
void vnc_clipboard_finish(struct vnc_server *vnc);

/* vnc_cursor.c: the outputs' cursor planes as the rich cursor. */
void vnc_cursor_attach(struct vnc_source *source);
void vnc_cursor_detach(struct vnc_source *source);

/* vnc_resize.c */
void vnc_resize_init(struct vnc_server *vnc);
void vnc_resize_finish(struct vnc_server *vnc);

#endif
