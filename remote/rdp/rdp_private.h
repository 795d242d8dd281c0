/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_RDP_RDP_PRIVATE_H
#define ORIEL_REMOTE_RDP_RDP_PRIVATE_H

/* Shared between the remote/rdp/rdp_*.c files; not for the rest of oriel. */

#include <freerdp/channels/rdpgfx.h>
#include <freerdp/freerdp.h>
#include <freerdp/peer.h>
#include <pixman.h>
#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>
#include "capture/output_capture.h"
#include "remote/auth_throttle.h"
#include "remote/listener_set.h"
#include "remote/remote_auth.h"
#include "remote/log_summary.h"
#include "remote/tls_identity.h"
#include "remote/users_file.h"
#include "common/link_backlog.h"
#include "common/util.h" /* monotonic_ms */

struct server;
struct output;
struct output_capture;
struct options_rdp;
struct account_checker;
struct account_check;
struct rdp_watchdog;
struct rdp_prelogon;
struct virtual_output;
struct remote_monitor;
struct client_keymap;
struct audio_sink;
struct rdp_sound;
struct rdp_microphone;

/* One served output per client monitor at most (RDP's limit). */
#define RDP_MAX_SCREENS 16

/* A served output, at its place in the desktop (rdp_server.c). */
struct rdp_screen {
	struct rdp_server *rdp;
	struct output *output;
	char name[32];             /* the output's, for the log */
	struct output_capture *capture;
	int x, y, width, height;   /* in the desktop */
	int layout_x, layout_y;    /* in the layout */
	int layout_width, layout_height; /* its box there (scaled outputs differ) */
	struct wl_listener capture_frame;
	struct wl_listener capture_pixels;
	struct wl_listener capture_destroy;
	bool needs_whole;          /* the framebuffer waits for its whole picture */
	bool wants_pixels;         /* to be asked for it, from the loop */
	/* The output's cursor plane (rdp_cursor.c) */
	struct wl_listener cursor_shape;
	struct wl_listener cursor_motion;
	bool cursor_attached;
};

struct rdp_server {
	struct server *server;
	const struct options_rdp *options;

	/*
	 * The served outputs (the screens, rdp_server.c): the primary output,
	 * then those made for a client's other monitors (rdp_layout.c). The
	 * desktop is their bounding box, and the framebuffer its pixels: bytes
	 * B,G,R,X (FreeRDP's BGRX32), kept up to date from the captures'
	 * damage; what no output covers stays black. Rows and columns are
	 * padded to 16 (stays black): H.264 encodes whole macroblocks.
	 */
	struct output *primary;
	struct rdp_screen *screens[RDP_MAX_SCREENS];
	int n_screens;
	int desktop_x, desktop_y; /* the desktop's top left, layout coordinates */
	uint32_t layout_serial;   /* changes whenever a screen moves or resizes */
	uint8_t *fb;              /* NULL while no client is in its session */
	size_t fb_size;           /* its mapping's */
	int fb_waiting;           /* screens whose whole picture it still waits for */
	/*
	 * One screen filling the desktop, its frames' pixels in memory: the
	 * latest frame's buffer is held, and what changed in it (fb_behind)
	 * reaches the framebuffer only when something reads the framebuffer
	 * (rdp_server_fb_sync). H.264 converts from the buffer itself.
	 */
	struct wlr_buffer *latest;
	pixman_region32_t fb_behind;
	struct output_capture_pixels latest_pixels; /* while read in place */
	int width, height;
	int stride;                        /* bytes per row */
	int padded_width, padded_height;   /* multiples of 16 */
	struct wl_listener outputs_changed;
	/*
	 * What a capture's frame asked of the captures (the desktop to
	 * follow a resized output, a picture again), done from the loop:
	 * a frame goes one way, from the capture to the clients.
	 */
	struct wl_event_source *capture_asks;
	bool desktop_due;

	/* Outputs made for clients' monitors 2, 3, ...: they outlive the client. */
	struct virtual_output *monitor_outputs[RDP_MAX_SCREENS - 1];
	int n_monitor_outputs;
	bool applying_layout; /* the desktop is updated once, afterwards */

	int cursor_x, cursor_y; /* the last position sent (rdp_cursor.c) */
	/* The peer whose pointer event is being handled, if any. */
	struct rdp_peer *pointer_peer;

	struct listener_set listeners;
	struct wl_list peers;     /* rdp_peer.link, newest first */
	int n_guests, n_sessions;
	uint64_t last_peer_id;

	/* Accounts, the certificate and the throttle (rdp_auth.c). */
	struct remote_auth auth;
	bool accounts;
	struct tls_identity tls;

	/* Ends calls into FreeRDP that wait on a stalled client (rdp_watchdog.c). */
	struct rdp_watchdog *watchdog;

	/* The session's sound, while clients play it (rdp_sound.c). */
	struct audio_sink *sound_sink;
	int n_sound_clients;
	/* Whose microphone the session hears (rdp_sound_mic.c); NULL: nobody's. */
	struct rdp_microphone *microphone;
};

enum rdp_peer_state {
	RDP_PEER_GUEST,      /* connecting: a deadline, the guests' caps */
	RDP_PEER_CHECKING,   /* its logon is being checked: no input, no frames */
	RDP_PEER_SESSION,    /* logged in */
};

#define RDP_PEER_MAX_HANDLES 8
/* Keys (and lock syncs) held for a client whose logon is being checked. */
#define RDP_HELD_KEYS_MAX 512

enum rdp_held_key_kind { RDP_HELD_SCANCODE, RDP_HELD_UNICODE, RDP_HELD_SYNC };

struct rdp_held_key {
	uint8_t kind; /* enum rdp_held_key_kind */
	uint16_t flags;
	uint16_t code;
};

struct rdp_peer {
	struct rdp_server *rdp;
	freerdp_peer *client;
	uint64_t id;
	char host[64];
	enum rdp_peer_state state;
	bool view_only;
	bool closing;   /* dropped: freed from the loop (rdp_peer_life.c) */
	int in_freerdp; /* depth of calls into FreeRDP */
	struct wl_event_source *reap; /* the idle callback that frees it */
	struct wl_list link;

	struct wl_event_source *sources[RDP_PEER_MAX_HANDLES];
	int n_sources;
	struct wl_event_source *deadline;
	struct account_check *check;
	psPeerLicenseCallback library_license;
	/*
	 * Until its logon arrived, a guest's FreeRDP runs on a thread of its
	 * own (rdp_prelogon.c); the loop leaves it alone while this is set.
	 */
	struct rdp_prelogon *prelogon;
	bool logon_arrived;                      /* set on that thread */
	uint32_t offered_width, offered_height;  /* the desktop when it connected */
	bool first_session; /* no session then: its logon sizes the desktop */
	bool outputs_possible; /* outputs may be made for its monitors (headless) */
	/* Handed over by oriel-gateway (rdp_handover.c); NULL: connected here. */
	struct rdp_handover_login *handover;
	/*
	 * Without accounts, from another user than the session's (decided at
	 * accept): refused at its logon, where the client can be told.
	 */
	bool not_its_user;
	/* The user name an NLA logon tried (rdp_nla.c), "" until one came. */
	char nla_user[128];

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
	/* Where a frame's time goes (rdp_display.c): since its first damage,
	 * until its encoding starts, by what held it last; encoding and
	 * sending; and from then until the client acknowledged it. */
	int64_t pending_since_us;  /* 0: no damage waiting */
	int held_by;               /* enum rdp_display_hold */
	int64_t stat_held_us[4];
	int64_t stat_encode_us;
	int64_t stat_ack_us;
	uint32_t stat_acks;
	int64_t sent_us[4];        /* by frame_id % 4 */

	/* Channels (rdp_channels.c): the peer's virtual channel manager. */
	HANDLE vcm;
	struct wl_event_source *vcm_source;
	bool dynamic_channels_opened;
	bool unserved_logged; /* what it asked for and does not get (rdp_unserved.c) */
	HANDLE audio_input_probe; /* open until the client answered (rdp_unserved.c) */

	/* Graphics pipeline (rdp_gfx.c), when the client announced it. */
	struct rdp_gfx *gfx;

	/* Display Control (rdp_disp.c): the client resizes the output. */
	struct rdp_disp *disp;
	/* It had several monitors: its layouts are applied whole (rdp_layout.c). */
	bool multimon;

	/* Input (rdp_input.c) */
	bool input_used; /* pressed something: release all when it goes */
	bool pause_prefix;       /* E1 1D came: the 45 after it is Pause's, not Num Lock */
	uint16_t high_surrogate; /* the first half of a Unicode character, or 0 */
	/* Its keys through its own layout; NULL: through the session's keymap. */
	struct client_keymap *keymap;
	bool keymap_chosen; /* the layout was looked at (on its first key) */
	/* Keys it sent before its logon was checked, in order: they go once it is a session. */
	struct rdp_held_key held_keys[RDP_HELD_KEYS_MAX];
	int n_held_keys;

	/* The clipboard channel (rdp_clipboard.c); NULL: none (yet). */
	struct rdp_clipboard *clipboard;

	/* Sound (rdp_sound.c); NULL: the client takes none (yet). */
	struct rdp_sound *sound;
	/* Its microphone (rdp_sound_mic.c); NULL: none offered (yet). */
	struct rdp_microphone *microphone;
};

/* rdp_server.c */
/* Desktop coordinates to layout coordinates; false outside. */
bool rdp_desktop_to_layout(struct rdp_server *rdp, int x, int y, double *lx, double *ly);
/*
 * The served outputs changed (or may have): the screens follow them, and
 * when the desktop changed, every session gets it anew.
 */
void rdp_server_update_desktop(struct rdp_server *rdp);
/*
 * The framebuffer is held while a client is in its session: taken (and
 * filled from each output's whole picture) for the first, given back
 * when the last has gone. False without memory.
 */
bool rdp_server_fb_acquire(struct rdp_server *rdp);
void rdp_server_fb_release(struct rdp_server *rdp);
/* Whether the framebuffer holds every screen's picture: frames may go. */
bool rdp_server_fb_ready(const struct rdp_server *rdp);
/* Brings the framebuffer up to date with the latest frame: before reading it. */
void rdp_server_fb_sync(struct rdp_server *rdp);
/*
 * The latest frame's pixels in place (bytes B,G,R,X, *stride a row, the
 * desktop's width x height, no padding), to read until
 * rdp_server_latest_end, when the framebuffer has not caught up with
 * them; else NULL: read the framebuffer after rdp_server_fb_sync.
 */
const uint8_t *rdp_server_latest_begin(struct rdp_server *rdp, int *stride);
void rdp_server_latest_end(struct rdp_server *rdp);

/* rdp_layout.c: clients' monitors as outputs. */
/* A session began: the outputs may take the monitors its client announced. */
void rdp_server_session_started(struct rdp_server *rdp, struct rdp_peer *peer);
/*
 * The desktop a guest's thread offers in its Capabilities: the one its
 * logon will make when it is the first session (its size, or its
 * monitors' bounding box), so that no resize follows; else the desktop
 * as it was when it connected. Reads only the peer and its settings.
 */
void rdp_layout_offer(const struct rdp_peer *peer, uint32_t *width, uint32_t *height);
/* A client's new monitor layout (Display Control). */
void rdp_layout_requested(struct rdp_peer *peer, const struct remote_monitor *monitors,
	int count);
/* Removes the outputs made for monitors (at shutdown). */
void rdp_layout_finish(struct rdp_server *rdp);

/* rdp_listen.c */
/* The listener set, listening nowhere yet. */
void rdp_listen_setup(struct rdp_server *rdp);
bool rdp_listen_init(struct rdp_server *rdp);
void rdp_listen_finish(struct rdp_server *rdp);

/* rdp_peer.c */
/* A new connection: a guest (another may give way), or closed. */
void rdp_peer_create(struct rdp_server *rdp, int fd);

/*
 * rdp_peer_life.c: the one owner of a peer's life. Every call into
 * FreeRDP for a peer goes between rdp_peer_enter_freerdp and
 * rdp_peer_leave_freerdp. Entering clears OpenSSL's error queue, which is
 * per thread, not per connection: an error one client's TLS left there
 * would otherwise fail the next client's read. A dropped peer is only
 * marked: it is freed from the loop once nothing runs for it (an idle
 * callback, or the end of its handshake thread), never under a caller.
 * So after a call into FreeRDP, or anything that may drop the peer,
 * rdp_peer_alive says whether to go on; the peer's memory stays valid
 * until the caller has returned to the loop, and every loop callback of a
 * peer asks it first.
 */
void rdp_peer_enter_freerdp(struct rdp_peer *peer);
void rdp_peer_leave_freerdp(struct rdp_peer *peer);
bool rdp_peer_alive(const struct rdp_peer *peer);
/* Disconnects it, and frees it from the loop; why is logged. NULL is a no-op. */
void rdp_peer_drop(struct rdp_peer *peer, const char *why);
/* Whether the loop reads the client's socket (not while its logon is checked). */
void rdp_peer_set_reading(struct rdp_peer *peer, bool reading);
/* Frees every peer now (at shutdown). */
void rdp_peers_finish(struct rdp_server *rdp);
/* A guest's thread ended (rdp_prelogon.c): with its logon, or failed. */
void rdp_peer_prelogon_ended(struct rdp_peer *peer, bool logon_arrived);

/*
 * rdp_prelogon.c: a guest's FreeRDP on a thread of its own until its
 * logon arrived, so that a stalled TLS handshake stalls only that thread.
 */
bool rdp_prelogon_start(struct rdp_peer *peer);
/* Ends the thread's wait (shuts the socket down); it ends soon after. */
void rdp_prelogon_interrupt(struct rdp_peer *peer);
/* Interrupts the thread and waits for it to end. */
void rdp_prelogon_cancel(struct rdp_peer *peer);
/* How far its connection got, and when it last advanced: for who gives way. */
struct preauth_guest;
void rdp_prelogon_describe(const struct rdp_peer *peer, struct preauth_guest *guest);

/* A client oriel-gateway handed over, on FreeRDP's end (fd) of its bridge; takes login. */
void rdp_peer_create_handed_over(struct rdp_server *rdp, int fd, const char *host,
	struct rdp_handover_login *login);

/* rdp_handover.c: clients that oriel-gateway logged in (--handover-socket). */
void rdp_handover_init(struct rdp_server *rdp);
void rdp_handover_finish(struct rdp_server *rdp);
/* Its sessions came or went: --exit-without-clients of a hosted session counts them. */
void rdp_handover_clients_changed(struct rdp_server *rdp);
/* Whether the Client Info's user and password are the ones the gateway named. */
bool rdp_handover_logon_ok(struct rdp_peer *peer, const char *user, const char *password);
bool rdp_handover_view_only(struct rdp_peer *peer);
/*
 * Adds what waits for a handed-over client beyond FreeRDP's socket: in
 * the bridge, and in the socket to the client (its TCP, or the gateway's
 * relay).
 */
void rdp_handover_backlog(struct rdp_peer *peer, struct link_backlog *backlog);
/* Stops its bridge and frees it. NULL is a no-op. */
void rdp_handover_login_destroy(struct rdp_handover_login *login);

/* rdp_auth.c */
/* NLA looks accounts up through oriel, which keeps the name tried. */
void rdp_nla_init_peer(struct rdp_peer *peer);

bool rdp_auth_init(struct rdp_server *rdp);
void rdp_auth_finish(struct rdp_server *rdp);
bool rdp_auth_allowed(struct rdp_server *rdp, const char *host);
void rdp_auth_failed(struct rdp_server *rdp, const char *host, const char *user);
/*
 * Whether a line of what ("failures", "tries while it must wait") from
 * host is to be logged: past a few a minute, they are counted, and the
 * count is logged once the minute is over.
 */
bool rdp_auth_log_note(struct rdp_server *rdp, const char *what, const char *host);
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
/* Counts how long the client took to acknowledge frame_id (debug statistics). */
void rdp_display_acknowledged(struct rdp_peer *peer, uint32_t frame_id);
/* A frame went out: while FreeRDP holds what the socket did not take, no other. */
void rdp_display_frame_sent(struct rdp_peer *peer);
/* The client needs the whole desktop again (e.g. a new graphics surface). */
void rdp_display_refresh(struct rdp_peer *peer);

/* rdp_encode.c */
struct rdp_encoder *rdp_encoder_create(void);
void rdp_encoder_destroy(struct rdp_encoder *encoder);
/* Picks the codec the client takes, for the desktop's size; false on failure. */
bool rdp_encoder_prepare(struct rdp_peer *peer);
/* Encodes damage (desktop coordinates) and sends it as frame peer->frame_id. */
bool rdp_encoder_send(struct rdp_peer *peer, const pixman_region32_t *damage);
/*
 * FreeRDP 2.11's planar codec fails on bitmaps one or two pixels wide
 * (the encoder or the client's decoder): a planar tile that narrow is
 * widened to RDP_PLANAR_MIN_WIDTH, within desktop_width.
 */
#define RDP_PLANAR_MIN_WIDTH 4
void rdp_planar_fit(int *x, int *width, int desktop_width);
/* Whether the client acknowledges frames (then frames carry markers). */
bool rdp_peer_uses_acks(struct rdp_peer *peer);
/*
 * The depth the client is served at, for its Demand Active: its own,
 * or for a client below 15 bits per pixel, 16 when it can take that.
 */
void rdp_encoder_choose_depth(struct rdp_peer *peer);

/* rdp_channels.c: static and dynamic virtual channels of a peer. */
/* Logs each static channel the client asked for that oriel does not serve. */
void rdp_unserved_log_channels(struct rdp_peer *peer);
/* Opens AUDIO_INPUT to learn whether the client has a microphone to offer. */
void rdp_unserved_probe_open(struct rdp_peer *peer);
/* Once the client answered: logs a microphone it offered, closes the channel. */
void rdp_unserved_probe_check(struct rdp_peer *peer);
void rdp_unserved_probe_close(struct rdp_peer *peer);

bool rdp_channels_init_peer(struct rdp_peer *peer);
/* The loop starts watching the manager (not while a guest's thread runs). */
bool rdp_channels_watch(struct rdp_peer *peer);
void rdp_channels_finish_peer(struct rdp_peer *peer);
/* After FreeRDP read from the client: opens the dynamic channels once the
 * client's drdynvc is ready, and sends what channels queued; false when
 * the peer is dropped. */
bool rdp_channels_check(struct rdp_peer *peer);
/* Sends what channels queued (their writes only queue); false when the peer is dropped. */
bool rdp_channels_flush(struct rdp_peer *peer);

/* rdp_gfx.c: the graphics pipeline (RDPGFX) channel. */
bool rdp_gfx_open(struct rdp_peer *peer);
void rdp_gfx_close(struct rdp_peer *peer);
/* The client announced GFX, and its channel may still come: no classic frames. */
bool rdp_gfx_expected(struct rdp_peer *peer);
/* Its surface is up: frames go through GFX. */
bool rdp_gfx_ready(struct rdp_peer *peer);
/* Whether another frame may go now (acknowledgements, an encoding frame). */
bool rdp_gfx_may_send(struct rdp_peer *peer);
/* The desktop's size changed: new graphics reset and surface. */
bool rdp_gfx_resize(struct rdp_peer *peer);

/* rdp_gfx_frame.c: the pipeline's frames. */
/* Encodes damage (desktop coordinates) and sends it as frame peer->frame_id
 * (H.264: once its thread encoded it). */
bool rdp_gfx_send_frame(struct rdp_peer *peer, const pixman_region32_t *damage);
/* Lossy frames have settled: a lossless refinement is due. */
bool rdp_gfx_refine_due(struct rdp_peer *peer);
/* Sends the refinement as one frame. */
bool rdp_gfx_send_refine(struct rdp_peer *peer);

/* rdp_gfx_h264.c: AVC420 and AVC444v2 frames, encoded in a thread of their own. */
struct rdp_h264;
/* Whether x264 encodes here (tried once, then known). */
bool rdp_h264_available(void);
/* encoded(data) runs in the loop when a frame started is encoded. */
struct rdp_h264 *rdp_h264_create(int width, int height, bool avc444,
	struct wl_event_loop *loop, void (*encoded)(void *data), void *data);
/* Waits for a frame being encoded. NULL is a no-op. */
void rdp_h264_destroy(struct rdp_h264 *h264);
/*
 * Goes on as AVC444v2 or AVC420, from a new stream whose pictures hold
 * nothing yet: the caller marks all as changed. Only while no frame is
 * being encoded.
 */
bool rdp_h264_switch(struct rdp_h264 *h264, bool avc444);
/*
 * Starts encoding fb (stride bytes a row) when no frame is being encoded:
 * changed is what changed since the encoder's last frame, damage what the
 * client is to take of this one (made their bounding box when the frame
 * cannot name so many rectangles: what the client takes is lossy).
 */
bool rdp_h264_start(struct rdp_h264 *h264, const uint8_t *fb, int stride,
	const pixman_region32_t *changed, pixman_region32_t *damage);
/* Whether converting changed reads only within width x height of fb. */
bool rdp_h264_reads_within(const struct rdp_h264 *h264,
	const pixman_region32_t *changed, int width, int height);
/* Once encoded: fills cmd with the frame (valid until the next start). */
bool rdp_h264_result(struct rdp_h264 *h264, RDPGFX_SURFACE_COMMAND *cmd);
/* A frame of bytes went; the client acknowledged a frame while its link
 * had backlog: the rate follows the link. */
void rdp_h264_sent(struct rdp_h264 *h264, size_t bytes);
void rdp_h264_acked(struct rdp_h264 *h264, const struct link_backlog *backlog);
/* The rate the client's link is given now, kbit/s. */
unsigned rdp_h264_kbit_rate(const struct rdp_h264 *h264);

/* rdp_gfx_encode.c: the codecs of GFX frames that run in the loop. */
struct rdp_gfx_encoder;
struct rdp_gfx_encoder *rdp_gfx_encoder_create(int width, int height);
void rdp_gfx_encoder_destroy(struct rdp_gfx_encoder *encoder);
/*
 * Fills cmd (codec, data, bounds) for damage of fb (stride bytes a row)
 * with progressive RemoteFX; the data stays the encoder's until its next
 * call. False on failure.
 */
bool rdp_gfx_encode_progressive(struct rdp_gfx_encoder *encoder, const uint8_t *fb,
	int stride, const pixman_region32_t *damage, RDPGFX_SURFACE_COMMAND *cmd);
/* Lossless tiles are at most this wide and high. */
#define RDP_GFX_TILE 64
/* Fills cmd with box (at most a tile) losslessly (planar); false on failure. */
bool rdp_gfx_encode_lossless(struct rdp_gfx_encoder *encoder, const uint8_t *fb, int stride,
	const pixman_box32_t *box, RDPGFX_SURFACE_COMMAND *cmd);

/* rdp_sound.c: the session's sound to the client (rdpsnd). */
/* Opens it when the client takes sound and its channel is there; false on failure. */
bool rdp_sound_open(struct rdp_peer *peer);
void rdp_sound_close(struct rdp_peer *peer);
/* PCM from the session's sink: 48 kHz, stereo, 16 bits; NULL once silence follows. */
void rdp_sound_send(struct rdp_sound *sound, const int16_t *samples, size_t frames);

/* rdp_sound_mic.c: the client's microphone (audin) as the session's source. */
/* Opens AUDIO_INPUT when the client offers a microphone; false on failure. */
bool rdp_sound_mic_open(struct rdp_peer *peer);
void rdp_sound_mic_close(struct rdp_peer *peer);

/* rdp_disp.c: the Display Control channel. */
bool rdp_disp_open(struct rdp_peer *peer);
void rdp_disp_close(struct rdp_peer *peer);

/* rdp_input.c */
void rdp_input_init_peer(struct rdp_peer *peer);
/* Logged on: the keys it typed meanwhile go to the session, in order. */
void rdp_input_session_started(struct rdp_peer *peer);
void rdp_input_peer_gone(struct rdp_peer *peer);

/* rdp_clipboard.c: the cliprdr channel of a logged-on, active client. */
void rdp_clipboard_activated(struct rdp_peer *peer);
void rdp_clipboard_peer_gone(struct rdp_peer *peer);

/* rdp_cursor.c: the cursor planes as pointer shape and position. */
void rdp_cursor_attach(struct rdp_screen *screen);
void rdp_cursor_detach(struct rdp_screen *screen);
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
