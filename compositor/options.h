/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_OPTIONS_H
#define ORIEL_OPTIONS_H

/* The command line and oriel.ini, merged. Pure: no wlroots. */

#include <stdbool.h>
#include "compositor/config.h"

enum options_backend {
	BACKEND_AUTO, BACKEND_HEADLESS, BACKEND_DRM, BACKEND_WAYLAND, BACKEND_X11,
};
enum options_renderer { RENDERER_AUTO, RENDERER_PIXMAN, RENDERER_GLES2 };
enum options_dbus { DBUS_AUTO, DBUS_SESSION, DBUS_SPAWN, DBUS_OFF };

/* The VNC server's settings: the command line over [vnc], then defaults. */
struct options_vnc {
	const char *listen[CONFIG_MAX_VNC_LISTEN]; /* "[ADDR:]PORT" */
	int n_listen;
	const char *unix_paths[CONFIG_MAX_VNC_LISTEN];
	int n_unix;
	const char *output;        /* NULL: the first output; "layout": all */
	const char *password_file; /* NULL: no authentication */
	const char *http;          /* NULL: /usr/share/novnc if present; "none" */
	const char *tls_cert, *tls_key;
	int view_only;             /* -1 unset on the command line, else 0/1 */
	int max_fps, max_clients, max_cut_text;
	/* Accounts: VeNCrypt Plain against a users file or PAM. */
	const char *users_file;    /* NULL: none */
	const char *pam_service;   /* NULL: no PAM */
	const char *allow_users[CONFIG_MAX_VNC_ALLOW_USERS]; /* PAM, besides oneself */
	int n_allow_users;
	/* Web pages: origins besides oriel's own page, Host names besides this host's. */
	const char *allow_origins[CONFIG_MAX_VNC_ALLOW_WEB];
	int n_allow_origins;
	const char *allow_hosts[CONFIG_MAX_VNC_ALLOW_WEB];
	int n_allow_hosts;
	int insecure;              /* VncAuth without TLS beyond loopback; -1 unset */
	int anonymous_tls;         /* the TLS* VeNCrypt sub-types; -1 unset */
	/* Connections before authentication, and idle viewers. */
	int handshake_timeout;     /* seconds (10) */
	int max_pending, max_pending_per_address; /* (64, 4) */
	int idle_timeout;          /* seconds; 0: never (-1 unset) */
	/* Hosted by oriel-gateway: where it hands over viewers (NULL: not hosted). */
	const char *handover_socket;
	int exit_without_clients;  /* seconds; 0: never */
};

/* The RDP server's settings: the command line, then defaults. */
#define OPTIONS_MAX_RDP_LISTEN 8
struct options_rdp {
	const char *listen[OPTIONS_MAX_RDP_LISTEN]; /* "[ADDR:]PORT" */
	int n_listen;
	const char *tls_cert, *tls_key; /* NULL: the kept (or a new) certificate */
	const char *users_file;         /* NULL: none */
	const char *pam_service;        /* NULL: no PAM */
	const char *sam_file;           /* NLA's accounts; NULL: no NLA */
	int handshake_timeout;          /* seconds (10) */
	int max_pending, max_pending_per_address; /* (64, 4) */
	int max_clients;                /* sessions at once (16) */
	int max_fps;                    /* frames per client per second (60) */
	/* Whose layout reads a client's keys; never UNSET once merged. */
	enum config_rdp_keyboard keyboard;
	/* What clients get of the session's sound; never UNSET once merged. */
	enum config_rdp_audio audio;
	/* The graphics pipeline's codec; never UNSET once merged. */
	enum config_rdp_codec codec;
};

struct oriel_options {
	enum options_backend backend;
	enum options_renderer renderer;
	enum options_dbus dbus;
	bool kiosk;
	enum config_xwayland xwayland;
	int x_display; /* the first X display number to try; -1: wlroots' choice */
	enum config_sound_server sound_server; /* never UNSET once merged */
	bool debug;
	const char *config_path; /* NULL: the default location */

	/* Headless outputs from --output, else from the config, else 1920x1080. */
	struct config_output_mode outputs[CONFIG_MAX_OUTPUTS];
	int n_outputs;

	struct options_vnc vnc;
	struct options_rdp rdp;

	char **command; /* argv after "--", NULL-terminated; NULL for none */

	struct oriel_config config;
};

enum options_result { OPTIONS_OK, OPTIONS_EXIT_SUCCESS, OPTIONS_EXIT_FAILURE };

/* Parses argv; prints --help/--version or a usage error itself. */
enum options_result options_parse(struct oriel_options *options, int argc, char *argv[]);
/* Loads the config file and merges it below the command line. */
bool options_load_config(struct oriel_options *options);
void options_finish(struct oriel_options *options);

#endif
