/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_GATEWAY_CONFIG_H
#define ORIEL_GATEWAY_CONFIG_H

/*
 * oriel-gateway's settings: /etc/oriel/gateway.ini, then the command
 * line, which overrides it (a list given on the command line replaces the
 * file's). Pure: no I/O besides reading the file, so unit tests and the
 * fuzzer link it directly.
 */

#include <stdbool.h>
#include <stddef.h>

#define GATEWAY_CONFIG_PATH "/etc/oriel/gateway.ini"
#define GATEWAY_RUNTIME_DIR "/run/oriel/sessions"
/* Who the network side runs as (the package makes this system user). */
#define GATEWAY_WORKER_USER "_oriel"
/* As xrdp's X11DisplayOffset: below it, the displays of the host's own X servers. */
#define GATEWAY_X_DISPLAY 10
#define GATEWAY_MAX_LISTEN 8
#define GATEWAY_MAX_ALLOWED 64
#define GATEWAY_MAX_OUTPUT 16384
/* Debian's noVNC (package novnc). */
#define GATEWAY_WEB_DIR "/usr/share/novnc"

enum gateway_reconnect {
	GATEWAY_RECONNECT_SHARE,     /* the running session, with its other clients */
	GATEWAY_RECONNECT_TAKE_OVER, /* the running session, its other clients dropped */
	GATEWAY_RECONNECT_NEW,       /* a new session every time */
};

/* How an RDP client that logged in reaches its session. */
enum gateway_rdp_handover {
	GATEWAY_RDP_AUTO,     /* redirected when it says it can follow, else relayed */
	GATEWAY_RDP_REDIRECT, /* always a Server Redirection (a client that cannot is lost) */
	GATEWAY_RDP_RELAY,    /* always relayed by the network side */
};

struct gateway_config {
	/* "ADDR:PORT" (IPv6 as [ADDR]:PORT); a bare PORT means every address. */
	char *vnc_listen[GATEWAY_MAX_LISTEN];
	int n_vnc_listen;
	char *rdp_listen[GATEWAY_MAX_LISTEN];
	int n_rdp_listen;
	/* What https:// on the VNC port serves (noVNC); NULL: no pages. */
	char *web_dir;
	/* Names browsers reach the gateway by, besides its own (Host and Origin checks). */
	char *web_hosts[GATEWAY_MAX_ALLOWED];
	int n_web_hosts;

	char *tls_cert, *tls_key; /* NULL: made on first use */
	char *pam_service;        /* "oriel" */
	/* Who may log in: a user named here or in one of the groups; anyone
	 * with an account when both are empty. Never root. */
	char *allowed_users[GATEWAY_MAX_ALLOWED];
	int n_allowed_users;
	char *allowed_groups[GATEWAY_MAX_ALLOWED];
	int n_allowed_groups;
	int handshake_timeout;       /* seconds to log in (10) */
	int max_pending;             /* connections still logging in (64) */
	int max_pending_per_address; /* of them from one address (4) */
	char *worker_user;           /* the unprivileged network side's user (_oriel) */
	enum gateway_rdp_handover rdp_handover;

	char *session_command; /* shell words, for users without ~/.config/oriel/session */
	char *oriel;           /* the compositor to run */
	char *runtime_dir;     /* where sessions' runtime dirs live */
	int output_width, output_height; /* a new session's output (1920x1080) */
	int max_width, max_height;       /* the largest output a session gets */
	enum gateway_reconnect reconnect;
	int idle_timeout; /* seconds without a client before a session ends; 0: never */
	int x_display;    /* sessions' X displays: the first free from :x_display */
};

void gateway_config_init(struct gateway_config *config);
void gateway_config_finish(struct gateway_config *config);

/*
 * Parses text as gateway.ini into config. On error writes
 * "FILE:LINE: problem" into error and returns false; config keeps what
 * came before the bad line and must still be finished.
 */
bool gateway_config_parse_string(struct gateway_config *config, const char *text,
	size_t size, const char *filename, char *error, size_t error_size);
/* Reads and parses path; a missing file is an error. */
bool gateway_config_parse_file(struct gateway_config *config, const char *path,
	char *error, size_t error_size);

/* The parser's table, for the man page test: NULL past the end. */
const char *gateway_config_section_name(size_t section);
const char *gateway_config_key_name(size_t section, size_t key);

/*
 * Setters shared by the file and the command line. Each returns false
 * with a sentence in error (no file or line) when value is bad.
 */
bool gateway_config_add_listen(char **list, int *n, const char *value,
	char *error, size_t error_size);
bool gateway_config_add_name(char **list, int *n, const char *value,
	char *error, size_t error_size);
bool gateway_config_set_size(int *width, int *height, const char *value,
	char *error, size_t error_size);
bool gateway_config_set_reconnect(enum gateway_reconnect *reconnect, const char *value,
	char *error, size_t error_size);
bool gateway_config_set_rdp_handover(enum gateway_rdp_handover *handover,
	const char *value, char *error, size_t error_size);
bool gateway_config_set_seconds(int *out, const char *value, int min, int max,
	char *error, size_t error_size);
void gateway_config_set_string(char **out, const char *value);
/* The pages' directory (absolute), or "off". */
bool gateway_config_set_web(struct gateway_config *config, const char *value,
	char *error, size_t error_size);
bool gateway_config_add_web_host(struct gateway_config *config, const char *value,
	char *error, size_t error_size);
/* Empties a list, for a command-line list that replaces the file's. */
void gateway_config_clear_list(char **list, int *n);

/* Fills what neither the file nor the command line set: the listeners. */
void gateway_config_apply_defaults(struct gateway_config *config);

const char *gateway_reconnect_name(enum gateway_reconnect reconnect);
const char *gateway_rdp_handover_name(enum gateway_rdp_handover handover);

/* The command line (gateway_config_args.c). */
enum gateway_action {
	GATEWAY_SERVE,     /* listen and log people in */
	GATEWAY_LIST,      /* --list */
	GATEWAY_START,     /* --start USER */
	GATEWAY_TERMINATE, /* --terminate USER */
	GATEWAY_HELP,
	GATEWAY_VERSION,
};

struct gateway_command {
	enum gateway_action action;
	const char *user; /* of --start and --terminate, in argv */
	bool debug;
};

extern const char gateway_usage[];

/*
 * Reads the config file (--config's, else GATEWAY_CONFIG_PATH when it
 * exists), then applies the options over it, then the defaults. False
 * with a sentence in error (which names FILE:LINE for the file's).
 */
bool gateway_config_parse_args(struct gateway_config *config, struct gateway_command *command,
	int argc, char *argv[], char *error, size_t error_size);

#endif
