/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CONFIG_H
#define ORIEL_CONFIG_H

/*
 * oriel.ini: the session's settings. Pure parsing, no wlroots, so unit
 * tests and the fuzzer link it directly. Command-line options override it.
 */

#include <stdbool.h>
#include <stddef.h>

#define CONFIG_MAX_OUTPUTS 16
#define CONFIG_MAX_ALLOWED_EXES 16
#define CONFIG_MAX_VNC_LISTEN 8
#define CONFIG_MAX_VNC_ALLOW_USERS 64
#define CONFIG_MAX_VNC_ALLOW_WEB 32 /* allow-origin, allow-host */
#define CONFIG_MAX_PRIVILEGED_EXES 16

/*
 * [privileged]: the Wayland protocols that read the screen, inject input
 * or change outputs, hidden from every client whose executable is not
 * listed for them. Screencopy covers export-dmabuf too.
 */
enum config_privilege {
	CONFIG_PRIVILEGE_SCREENCOPY,
	CONFIG_PRIVILEGE_VIRTUAL_INPUT,
	CONFIG_PRIVILEGE_DATA_CONTROL,
	CONFIG_PRIVILEGE_OUTPUT_MANAGEMENT,
	CONFIG_PRIVILEGE_GAMMA,
	CONFIG_PRIVILEGE_COUNT,
};

enum config_mode { CONFIG_MODE_UNSET = 0, CONFIG_MODE_DESKTOP, CONFIG_MODE_KIOSK };
enum config_xwayland {
	CONFIG_XWAYLAND_UNSET = 0,
	CONFIG_XWAYLAND_LAZY,
	CONFIG_XWAYLAND_EAGER,
	CONFIG_XWAYLAND_OFF,
};
/* The session's own sound server: started when none runs (auto), or never. */
enum config_sound_server {
	CONFIG_SOUND_SERVER_UNSET = 0,
	CONFIG_SOUND_SERVER_AUTO,
	CONFIG_SOUND_SERVER_OFF,
};
/* What RDP clients get of the session's sound. */
enum config_rdp_audio {
	CONFIG_RDP_AUDIO_UNSET = 0,
	CONFIG_RDP_AUDIO_ON,       /* playback and microphone */
	CONFIG_RDP_AUDIO_OFF,
	CONFIG_RDP_AUDIO_PLAYBACK, /* playback only */
};
/* Whose layout reads an RDP client's keys: its own, or the session's keymap. */
enum config_rdp_keyboard {
	CONFIG_RDP_KEYBOARD_UNSET = 0,
	CONFIG_RDP_KEYBOARD_CLIENT,
	CONFIG_RDP_KEYBOARD_SESSION,
};

/* The graphics pipeline's codec for RDP clients (auto: by their offer). */
enum config_rdp_codec {
	CONFIG_RDP_CODEC_UNSET = 0,
	CONFIG_RDP_CODEC_AUTO,
	CONFIG_RDP_CODEC_AVC444,
	CONFIG_RDP_CODEC_AVC420,
	CONFIG_RDP_CODEC_PROGRESSIVE,
	CONFIG_RDP_CODEC_PLANAR,
};
/* "auto", "avc444"...: the names the option and the key take, in order. */
extern const char *const config_rdp_codec_names[5];

struct config_output_mode {
	int width, height;
	int refresh_mhz; /* 0: the default, 60 Hz */
};

struct oriel_config {
	enum config_mode mode;
	enum config_xwayland xwayland;
	int x_display; /* -1 when unset */
	enum config_sound_server sound_server;

	struct config_output_mode outputs[CONFIG_MAX_OUTPUTS];
	int n_outputs;

	/* [keyboard]: NULL means "not set", fall back to XKB_DEFAULT_* */
	char *xkb_rules, *xkb_model, *xkb_layout, *xkb_variant, *xkb_options;
	int repeat_rate;  /* keys per second; -1 when unset */
	int repeat_delay; /* ms; -1 when unset */

	/* [cursor] */
	char *cursor_theme;
	int cursor_size; /* 0 when unset */

	/* [indicator] screenshot-notice: seconds; -1 when unset, 0 shows none */
	int screenshot_notice;

	/* [control] allow = /abs/path/to/exe, repeatable */
	char *allowed_exes[CONFIG_MAX_ALLOWED_EXES];
	int n_allowed_exes;

	/* [privileged] CAPABILITY = /abs/exe [/abs/exe...], repeatable */
	char *privileged_exes[CONFIG_PRIVILEGE_COUNT][CONFIG_MAX_PRIVILEGED_EXES];
	int n_privileged_exes[CONFIG_PRIVILEGE_COUNT];

	/* [vnc]: mirrors the --vnc* options; unset values are NULL, 0 or -1. */
	char *vnc_listen[CONFIG_MAX_VNC_LISTEN]; /* "[ADDR:]PORT", validated */
	int n_vnc_listen;
	char *vnc_unix[CONFIG_MAX_VNC_LISTEN];
	int n_vnc_unix;
	char *vnc_output, *vnc_password_file, *vnc_http, *vnc_tls_cert, *vnc_tls_key;
	int vnc_view_only; /* -1 unset, else 0 or 1 */
	int vnc_max_fps, vnc_max_clients, vnc_max_cut_text; /* 0: unset */
	char *vnc_users, *vnc_pam;
	char *vnc_allow_users[CONFIG_MAX_VNC_ALLOW_USERS];
	int n_vnc_allow_users;
	/* Web pages besides oriel's own, and Host names besides this host's. */
	char *vnc_allow_origins[CONFIG_MAX_VNC_ALLOW_WEB];
	int n_vnc_allow_origins;
	char *vnc_allow_hosts[CONFIG_MAX_VNC_ALLOW_WEB];
	int n_vnc_allow_hosts;
	int vnc_insecure, vnc_anonymous_tls; /* -1 unset, else 0 or 1 */
	/* 0: unset; idle-timeout -1: unset, 0: off */
	int vnc_handshake_timeout, vnc_max_pending, vnc_max_pending_per_address;
	int vnc_idle_timeout;

	/* [rdp]: mirrors the --rdp* options; unset values are NULL or 0. */
	char *rdp_listen[CONFIG_MAX_VNC_LISTEN]; /* "[ADDR:]PORT", validated */
	int n_rdp_listen;
	char *rdp_tls_cert, *rdp_tls_key, *rdp_users, *rdp_pam, *rdp_sam;
	int rdp_handshake_timeout, rdp_max_pending, rdp_max_pending_per_address;
	int rdp_max_clients, rdp_max_fps;
	enum config_rdp_keyboard rdp_keyboard;
	enum config_rdp_audio rdp_audio;
	enum config_rdp_codec rdp_codec;
};

void config_init(struct oriel_config *config);
void config_finish(struct oriel_config *config);

/*
 * The parser's table, for the man page test: the name of section i and of
 * its key j, or NULL past the end.
 */
const char *config_section_name(size_t section);
const char *config_key_name(size_t section, size_t key);

/*
 * Parse text as oriel.ini. On error, write "FILE:LINE: problem" into err
 * and return false; config then holds whatever was parsed before the bad
 * line and must still be finished.
 */
bool config_parse_string(struct oriel_config *config, const char *text,
	size_t len, const char *filename, char *err, size_t err_size);
/* Reads and parses path; a missing file is an error too. */
bool config_parse_file(struct oriel_config *config, const char *path,
	char *err, size_t err_size);

/* The [privileged] key of a capability ("screencopy"), and back. */
const char *config_privilege_name(enum config_privilege privilege);
bool config_privilege_from_name(const char *name, enum config_privilege *out);
/*
 * Adds a whitespace-separated list of absolute paths to a capability.
 * Shared with --privileged. On error returns false with a reason in err.
 */
bool config_add_privileged_exes(struct oriel_config *config,
	enum config_privilege privilege, const char *list, char *err, size_t err_size);

/* "WIDTHxHEIGHT[@HZ]", HZ may be fractional ("59.94"). Shared with --output. */
bool config_parse_output_mode(const char *s, struct config_output_mode *mode);

#endif
