/* SPDX-License-Identifier: MIT */
#include <getopt.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/address_spec.h"
#include "compositor/options.h"
#include "common/util.h"
#include "common/x_display.h"

static const char usage[] =
	"Usage: oriel [options] [-- command [args...]]\n"
	"\n"
	"A Wayland compositor for X11 and Wayland apps, with screen sharing.\n"
	"When a command is given, the session ends when it exits.\n"
	"\n"
	"  --backend auto|headless|drm|wayland|x11   display backend (auto)\n"
	"  --renderer auto|pixman|gles2              renderer (auto)\n"
	"  --output WIDTHxHEIGHT[@HZ]                add a headless output (repeatable;\n"
	"                                            default 1920x1080@60)\n"
	"  --xwayland lazy|eager|off                 X11 support (lazy)\n"
	"  --x-display N                             X display: the first free from :N\n"
	"                                            (default: among :0-:32)\n"
	"  --kiosk                                   every window fullscreen\n"
	"  --config FILE                             settings file\n"
	"                                            ($XDG_CONFIG_HOME/oriel/oriel.ini)\n"
	"  --dbus auto|session|spawn|off             session bus to use (auto)\n"
	"  --sound-server auto|off                   start PipeWire, WirePlumber and\n"
	"                                            pipewire-pulse when none runs (auto)\n"
	"  --vnc [ADDR:]PORT                         serve VNC (repeatable; address\n"
	"                                            127.0.0.1, IPv6 as [::1]:5901)\n"
	"  --vnc-unix PATH                           serve VNC on a Unix socket\n"
	"  --vnc-output NAME|layout                  what VNC shows (the first output)\n"
	"  --vnc-password-file FILE                  lines SECRET or view-only:SECRET\n"
	"  --vnc-view-only                           ignore every viewer's input\n"
	"  --vnc-max-fps N                           updates per viewer per second (60)\n"
	"  --vnc-max-clients N                       viewers at once (16)\n"
	"  --vnc-max-cut-text BYTES                  clipboard size limit (1048576)\n"
	"  --vnc-http DIR|none                       noVNC files served on the VNC\n"
	"                                            port (/usr/share/novnc)\n"
	"  --vnc-tls-cert FILE --vnc-tls-key FILE    the certificate for VeNCrypt and\n"
	"                                            wss (default: made on first use)\n"
	"  --vnc-users FILE                          accounts: lines NAME:HASH[:view-only]\n"
	"                                            with crypt(3) hashes (mkpasswd)\n"
	"  --vnc-pam[=SERVICE]                       accounts: the system's, through\n"
	"                                            PAM (service oriel)\n"
	"  --vnc-allow-user NAME                     may log in through PAM besides the\n"
	"                                            user running oriel (repeatable)\n"
	"  --vnc-allow-origin ORIGIN                 a web page that may open WebSockets\n"
	"                                            besides oriel's own (repeatable)\n"
	"  --vnc-allow-host NAME                     a Host name that HTTP requests may\n"
	"                                            give besides this host's (repeatable)\n"
	"  --vnc-insecure                            allow VncAuth without TLS beyond\n"
	"                                            loopback\n"
	"  --vnc-anonymous-tls                       offer VeNCrypt's TLSNone, TLSVnc and\n"
	"                                            TLSPlain (no certificate check)\n"
	"  --vnc-handshake-timeout SECONDS           time to authenticate (10)\n"
	"  --vnc-max-pending N                       connections still authenticating (64)\n"
	"  --vnc-max-pending-per-address N           of them from one address (4)\n"
	"  --vnc-idle-timeout SECONDS                disconnect viewers idle this long\n"
	"                                            (0: never)\n"
	"  --handover-socket PATH                    take VNC viewers that oriel-gateway\n"
	"                                            logged in, through this socket\n"
	"  --exit-without-clients SECONDS            end the session after this long\n"
	"                                            with no VNC viewer (0: never)\n"
	"  --rdp [ADDR:]PORT                         serve RDP (repeatable; address\n"
	"                                            127.0.0.1 unless given)\n"
	"  --rdp-tls-cert FILE --rdp-tls-key FILE    the certificate RDP clients see\n"
	"                                            (default: the one VNC uses)\n"
	"  --rdp-users FILE                          accounts: lines NAME:HASH[:view-only]\n"
	"  --rdp-pam[=SERVICE]                       accounts: the system's, through PAM\n"
	"  --rdp-sam FILE                            NLA logons against this SAM file\n"
	"                                            (lines of winpr-hash -f sam)\n"
	"  --rdp-handshake-timeout SECONDS           time to log in (10)\n"
	"  --rdp-max-clients N                       sessions at once (16)\n"
	"  --rdp-max-fps N                           frames per client per second (60)\n"
	"  --rdp-keyboard client|session             read keys through each client's\n"
	"                                            layout, or the session's keymap\n"
	"                                            (client unless [keyboard] has one)\n"
	"  --rdp-audio on|off|playback               the session's sound to clients and\n"
	"                                            their microphones to it (on)\n"
	"  --rdp-codec auto|avc444|avc420|progressive|planar\n"
	"                                            the graphics pipeline's codec\n"
	"                                            (auto: the best the client takes)\n"
	"  --privileged CAPABILITY=PATH              let the program at PATH use a\n"
	"                                            privileged protocol (repeatable;\n"
	"                                            screencopy, virtual-input,\n"
	"                                            data-control, output-management,\n"
	"                                            gamma)\n"
	"  -d, --debug                               debug logging\n"
	"  -h, --help                                show this help\n"
	"  -v, --version                             show the version\n";

static int parse_choice(const char *value, const char *const choices[], int n) {
	for (int i = 0; i < n; i++) {
		if (strcmp(value, choices[i]) == 0) {
			return i;
		}
	}
	return -1;
}

enum { OPT_BACKEND = 256, OPT_RENDERER, OPT_OUTPUT, OPT_XWAYLAND, OPT_X_DISPLAY, OPT_KIOSK,
	OPT_CONFIG, OPT_DBUS, OPT_VNC, OPT_VNC_UNIX, OPT_VNC_OUTPUT,
	OPT_VNC_PASSWORD_FILE, OPT_VNC_VIEW_ONLY, OPT_VNC_MAX_FPS, OPT_VNC_MAX_CLIENTS,
	OPT_VNC_MAX_CUT_TEXT, OPT_VNC_HTTP, OPT_VNC_TLS_CERT, OPT_VNC_TLS_KEY,
	OPT_PRIVILEGED, OPT_VNC_USERS, OPT_VNC_PAM, OPT_VNC_ALLOW_USER, OPT_VNC_ALLOW_ORIGIN,
	OPT_VNC_ALLOW_HOST, OPT_VNC_INSECURE,
	OPT_VNC_ANONYMOUS_TLS, OPT_VNC_HANDSHAKE_TIMEOUT, OPT_VNC_MAX_PENDING,
	OPT_VNC_MAX_PENDING_PER_ADDRESS, OPT_VNC_IDLE_TIMEOUT, OPT_HANDOVER_SOCKET,
	OPT_EXIT_WITHOUT_CLIENTS, OPT_RDP, OPT_RDP_TLS_CERT,
	OPT_RDP_TLS_KEY, OPT_RDP_USERS, OPT_RDP_SAM, OPT_RDP_PAM, OPT_RDP_HANDSHAKE_TIMEOUT,
	OPT_RDP_MAX_CLIENTS, OPT_RDP_MAX_FPS, OPT_RDP_KEYBOARD, OPT_RDP_AUDIO,
	OPT_SOUND_SERVER, OPT_RDP_CODEC };

static bool parse_count(const char *value, int min, int max, int *out) {
	char *end;
	long v = strtol(value, &end, 10);
	if (value[0] < '0' || value[0] > '9' || *end || v < min || v > max) {
		return false;
	}
	*out = (int)v;
	return true;
}

/* "CAPABILITY=PATH[ PATH...]", as a [privileged] line; adds to the config's. */
static bool parse_privileged(struct oriel_config *config, const char *value) {
	const char *eq = strchr(value, '=');
	char name[32];
	enum config_privilege privilege;
	size_t len = eq ? (size_t)(eq - value) : 0;
	if (!eq || len >= sizeof(name)) {
		fprintf(stderr, "oriel: --privileged takes CAPABILITY=PATH, not \"%s\"\n", value);
		return false;
	}
	memcpy(name, value, len);
	name[len] = '\0';
	if (!config_privilege_from_name(name, &privilege)) {
		fprintf(stderr, "oriel: --privileged: unknown capability \"%s\" (screencopy, "
			"virtual-input, data-control, output-management or gamma)\n", name);
		return false;
	}
	char err[128];
	if (!config_add_privileged_exes(config, privilege, eq + 1, err, sizeof(err))) {
		fprintf(stderr, "oriel: --privileged %s: %s\n", name, err);
		return false;
	}
	return true;
}

/* What a rejected value should have looked like. */
static const char *expected_form(int opt) {
	switch (opt) {
	case OPT_BACKEND:
		return "one of auto, headless, drm, wayland, x11";
	case OPT_RENDERER:
		return "one of auto, pixman, gles2";
	case OPT_DBUS:
		return "one of auto, session, spawn, off";
	case OPT_XWAYLAND:
		return "one of lazy, eager, off";
	case OPT_SOUND_SERVER:
		return "one of auto, off";
	case OPT_RDP_AUDIO:
		return "one of on, off, playback";
	case OPT_X_DISPLAY:
		return "a display number, e.g. 10 or :10 (0-59535)";
	case OPT_OUTPUT:
		return "WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. 1280x720 or 1920x1080@60";
	case OPT_VNC:
		return "PORT, ADDR:PORT or [IPV6]:PORT, e.g. 5900 or 127.0.0.1:5900";
	case OPT_VNC_UNIX:
		return "a socket path of at most 107 bytes";
	case OPT_VNC_MAX_FPS:
		return "a number from 1 to 1000";
	case OPT_VNC_MAX_CLIENTS:
		return "a number from 1 to 1024";
	case OPT_VNC_MAX_CUT_TEXT:
		return "a number of bytes from 1 to 67108864";
	}
	return "see oriel --help";
}

enum options_result options_parse(struct oriel_options *options, int argc, char *argv[]) {
	static const struct option long_options[] = {
		{"backend", required_argument, NULL, OPT_BACKEND},
		{"renderer", required_argument, NULL, OPT_RENDERER},
		{"output", required_argument, NULL, OPT_OUTPUT},
		{"xwayland", required_argument, NULL, OPT_XWAYLAND},
		{"x-display", required_argument, NULL, OPT_X_DISPLAY},
		{"kiosk", no_argument, NULL, OPT_KIOSK},
		{"config", required_argument, NULL, OPT_CONFIG},
		{"dbus", required_argument, NULL, OPT_DBUS},
		{"vnc", required_argument, NULL, OPT_VNC},
		{"vnc-unix", required_argument, NULL, OPT_VNC_UNIX},
		{"vnc-output", required_argument, NULL, OPT_VNC_OUTPUT},
		{"vnc-password-file", required_argument, NULL, OPT_VNC_PASSWORD_FILE},
		{"vnc-view-only", no_argument, NULL, OPT_VNC_VIEW_ONLY},
		{"vnc-max-fps", required_argument, NULL, OPT_VNC_MAX_FPS},
		{"vnc-max-clients", required_argument, NULL, OPT_VNC_MAX_CLIENTS},
		{"vnc-max-cut-text", required_argument, NULL, OPT_VNC_MAX_CUT_TEXT},
		{"vnc-http", required_argument, NULL, OPT_VNC_HTTP},
		{"vnc-tls-cert", required_argument, NULL, OPT_VNC_TLS_CERT},
		{"vnc-tls-key", required_argument, NULL, OPT_VNC_TLS_KEY},
		{"privileged", required_argument, NULL, OPT_PRIVILEGED},
		{"vnc-users", required_argument, NULL, OPT_VNC_USERS},
		{"vnc-pam", optional_argument, NULL, OPT_VNC_PAM},
		{"vnc-allow-user", required_argument, NULL, OPT_VNC_ALLOW_USER},
		{"vnc-allow-origin", required_argument, NULL, OPT_VNC_ALLOW_ORIGIN},
		{"vnc-allow-host", required_argument, NULL, OPT_VNC_ALLOW_HOST},
		{"vnc-insecure", no_argument, NULL, OPT_VNC_INSECURE},
		{"vnc-anonymous-tls", no_argument, NULL, OPT_VNC_ANONYMOUS_TLS},
		{"vnc-handshake-timeout", required_argument, NULL, OPT_VNC_HANDSHAKE_TIMEOUT},
		{"vnc-max-pending", required_argument, NULL, OPT_VNC_MAX_PENDING},
		{"vnc-max-pending-per-address", required_argument, NULL,
			OPT_VNC_MAX_PENDING_PER_ADDRESS},
		{"vnc-idle-timeout", required_argument, NULL, OPT_VNC_IDLE_TIMEOUT},
		{"handover-socket", required_argument, NULL, OPT_HANDOVER_SOCKET},
		{"exit-without-clients", required_argument, NULL, OPT_EXIT_WITHOUT_CLIENTS},
		{"rdp", required_argument, NULL, OPT_RDP},
		{"rdp-tls-cert", required_argument, NULL, OPT_RDP_TLS_CERT},
		{"rdp-tls-key", required_argument, NULL, OPT_RDP_TLS_KEY},
		{"rdp-users", required_argument, NULL, OPT_RDP_USERS},
		{"rdp-sam", required_argument, NULL, OPT_RDP_SAM},
		{"rdp-pam", optional_argument, NULL, OPT_RDP_PAM},
		{"rdp-handshake-timeout", required_argument, NULL, OPT_RDP_HANDSHAKE_TIMEOUT},
		{"rdp-max-clients", required_argument, NULL, OPT_RDP_MAX_CLIENTS},
		{"rdp-max-fps", required_argument, NULL, OPT_RDP_MAX_FPS},
		{"rdp-keyboard", required_argument, NULL, OPT_RDP_KEYBOARD},
		{"rdp-audio", required_argument, NULL, OPT_RDP_AUDIO},
		{"sound-server", required_argument, NULL, OPT_SOUND_SERVER},
		{"rdp-codec", required_argument, NULL, OPT_RDP_CODEC},
		{"debug", no_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'v'},
		{0},
	};
	static const char *const backends[] = {"auto", "headless", "drm", "wayland", "x11"};
	static const char *const renderers[] = {"auto", "pixman", "gles2"};
	static const char *const dbus_modes[] = {"auto", "session", "spawn", "off"};
	static const char *const xwayland_modes[] = {"lazy", "eager", "off"};
	static const char *const sound_modes[] = {"auto", "off"};
	static const char *const audio_modes[] = {"on", "off", "playback"};

	memset(options, 0, sizeof(*options));
	config_init(&options->config);
	options->x_display = -1;
	options->vnc.view_only = -1;
	options->vnc.insecure = -1;
	options->vnc.anonymous_tls = -1;
	options->vnc.idle_timeout = -1;
	struct options_vnc *vnc = &options->vnc;
	struct address_spec address;

	optind = 1;
	int c, choice;
	opterr = 0; /* our messages, one line each */
	while ((c = getopt_long(argc, argv, "+:dhv", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_BACKEND:
			if ((choice = parse_choice(optarg, backends, 5)) < 0) {
				goto bad_value;
			}
			options->backend = choice;
			break;
		case OPT_RENDERER:
			if ((choice = parse_choice(optarg, renderers, 3)) < 0) {
				goto bad_value;
			}
			options->renderer = choice;
			break;
		case OPT_DBUS:
			if ((choice = parse_choice(optarg, dbus_modes, 4)) < 0) {
				goto bad_value;
			}
			options->dbus = choice;
			break;
		case OPT_SOUND_SERVER:
			if ((choice = parse_choice(optarg, sound_modes, 2)) < 0) {
				goto bad_value;
			}
			options->sound_server = CONFIG_SOUND_SERVER_AUTO + choice;
			break;
		case OPT_RDP_AUDIO:
			if ((choice = parse_choice(optarg, audio_modes, 3)) < 0) {
				goto bad_value;
			}
			options->rdp.audio = CONFIG_RDP_AUDIO_ON + choice;
			break;
		case OPT_XWAYLAND:
			if ((choice = parse_choice(optarg, xwayland_modes, 3)) < 0) {
				goto bad_value;
			}
			options->xwayland = CONFIG_XWAYLAND_LAZY + choice;
			break;
		case OPT_X_DISPLAY:
			if (!parse_count(optarg[0] == ':' ? optarg + 1 : optarg, 0, X_DISPLAY_MAX,
					&options->x_display)) {
				goto bad_value;
			}
			break;
		case OPT_OUTPUT:
			if (options->n_outputs == CONFIG_MAX_OUTPUTS) {
				fprintf(stderr, "oriel: at most %d outputs\n", CONFIG_MAX_OUTPUTS);
				return OPTIONS_EXIT_FAILURE;
			}
			if (!config_parse_output_mode(optarg,
					&options->outputs[options->n_outputs])) {
				goto bad_value;
			}
			options->n_outputs++;
			break;
		case OPT_KIOSK:
			options->kiosk = true;
			break;
		case OPT_CONFIG:
			options->config_path = optarg;
			break;
		case OPT_VNC:
		case OPT_VNC_UNIX:
			if (vnc->n_listen + vnc->n_unix >= CONFIG_MAX_VNC_LISTEN) {
				fprintf(stderr, "oriel: at most %d VNC listeners\n",
					CONFIG_MAX_VNC_LISTEN);
				return OPTIONS_EXIT_FAILURE;
			}
			if (c == OPT_VNC) {
				if (!address_spec_parse(optarg, &address)) {
					goto bad_value;
				}
				vnc->listen[vnc->n_listen++] = optarg;
			} else {
				if (!optarg[0] || strlen(optarg) >= 108) {
					goto bad_value;
				}
				vnc->unix_paths[vnc->n_unix++] = optarg;
			}
			break;
		case OPT_VNC_OUTPUT:
			vnc->output = optarg;
			break;
		case OPT_VNC_PASSWORD_FILE:
			vnc->password_file = optarg;
			break;
		case OPT_VNC_VIEW_ONLY:
			vnc->view_only = 1;
			break;
		case OPT_VNC_MAX_FPS:
			if (!parse_count(optarg, 1, 1000, &vnc->max_fps)) {
				goto bad_value;
			}
			break;
		case OPT_VNC_MAX_CLIENTS:
			if (!parse_count(optarg, 1, 1024, &vnc->max_clients)) {
				goto bad_value;
			}
			break;
		case OPT_VNC_MAX_CUT_TEXT:
			if (!parse_count(optarg, 1, 64 * 1024 * 1024, &vnc->max_cut_text)) {
				goto bad_value;
			}
			break;
		case OPT_VNC_HTTP:
			vnc->http = optarg;
			break;
		case OPT_VNC_TLS_CERT:
			vnc->tls_cert = optarg;
			break;
		case OPT_VNC_TLS_KEY:
			vnc->tls_key = optarg;
			break;
		case OPT_VNC_USERS:
			vnc->users_file = optarg;
			break;
		case OPT_VNC_PAM:
			vnc->pam_service = optarg ? optarg : "oriel";
			if (!vnc->pam_service[0]) {
				goto bad_value;
			}
			break;
		case OPT_VNC_ALLOW_USER:
			if (vnc->n_allow_users == CONFIG_MAX_VNC_ALLOW_USERS) {
				fprintf(stderr, "oriel: at most %d --vnc-allow-user\n",
					CONFIG_MAX_VNC_ALLOW_USERS);
				return OPTIONS_EXIT_FAILURE;
			}
			vnc->allow_users[vnc->n_allow_users++] = optarg;
			break;
		case OPT_VNC_ALLOW_ORIGIN:
			if (vnc->n_allow_origins == CONFIG_MAX_VNC_ALLOW_WEB) {
				fprintf(stderr, "oriel: at most %d --vnc-allow-origin\n",
					CONFIG_MAX_VNC_ALLOW_WEB);
				return OPTIONS_EXIT_FAILURE;
			}
			vnc->allow_origins[vnc->n_allow_origins++] = optarg;
			break;
		case OPT_VNC_ALLOW_HOST:
			if (vnc->n_allow_hosts == CONFIG_MAX_VNC_ALLOW_WEB) {
				fprintf(stderr, "oriel: at most %d --vnc-allow-host\n",
					CONFIG_MAX_VNC_ALLOW_WEB);
				return OPTIONS_EXIT_FAILURE;
			}
			vnc->allow_hosts[vnc->n_allow_hosts++] = optarg;
			break;
		case OPT_VNC_INSECURE:
			vnc->insecure = 1;
			break;
		case OPT_VNC_ANONYMOUS_TLS:
			vnc->anonymous_tls = 1;
			break;
		case OPT_VNC_HANDSHAKE_TIMEOUT:
			if (!parse_count(optarg, 1, 3600, &vnc->handshake_timeout)) {
				goto bad_value;
			}
			break;
		case OPT_VNC_MAX_PENDING:
			if (!parse_count(optarg, 1, 4096, &vnc->max_pending)) {
				goto bad_value;
			}
			break;
		case OPT_VNC_MAX_PENDING_PER_ADDRESS:
			if (!parse_count(optarg, 1, 4096, &vnc->max_pending_per_address)) {
				goto bad_value;
			}
			break;
		case OPT_VNC_IDLE_TIMEOUT:
			if (!parse_count(optarg, 0, 7 * 24 * 3600, &vnc->idle_timeout)) {
				goto bad_value;
			}
			break;
		case OPT_HANDOVER_SOCKET:
			vnc->handover_socket = optarg;
			break;
		case OPT_EXIT_WITHOUT_CLIENTS:
			if (!parse_count(optarg, 0, 7 * 24 * 3600, &vnc->exit_without_clients)) {
				goto bad_value;
			}
			break;
		case OPT_RDP:
			if (options->rdp.n_listen == OPTIONS_MAX_RDP_LISTEN) {
				fprintf(stderr, "oriel: at most %d RDP listeners\n",
					OPTIONS_MAX_RDP_LISTEN);
				return OPTIONS_EXIT_FAILURE;
			}
			if (!address_spec_parse(optarg, &address)) {
				goto bad_value;
			}
			options->rdp.listen[options->rdp.n_listen++] = optarg;
			break;
		case OPT_RDP_TLS_CERT:
			options->rdp.tls_cert = optarg;
			break;
		case OPT_RDP_TLS_KEY:
			options->rdp.tls_key = optarg;
			break;
		case OPT_RDP_USERS:
			options->rdp.users_file = optarg;
			break;
		case OPT_RDP_SAM:
			options->rdp.sam_file = optarg;
			break;
		case OPT_RDP_PAM:
			options->rdp.pam_service = optarg ? optarg : "oriel";
			if (!options->rdp.pam_service[0]) {
				goto bad_value;
			}
			break;
		case OPT_RDP_HANDSHAKE_TIMEOUT:
			if (!parse_count(optarg, 1, 3600, &options->rdp.handshake_timeout)) {
				goto bad_value;
			}
			break;
		case OPT_RDP_MAX_CLIENTS:
			if (!parse_count(optarg, 1, 1024, &options->rdp.max_clients)) {
				goto bad_value;
			}
			break;
		case OPT_RDP_MAX_FPS:
			if (!parse_count(optarg, 1, 1000, &options->rdp.max_fps)) {
				goto bad_value;
			}
			break;
		case OPT_RDP_KEYBOARD:
			if (strcmp(optarg, "client") == 0) {
				options->rdp.keyboard = CONFIG_RDP_KEYBOARD_CLIENT;
			} else if (strcmp(optarg, "session") == 0) {
				options->rdp.keyboard = CONFIG_RDP_KEYBOARD_SESSION;
			} else {
				goto bad_value;
			}
			break;
		case OPT_RDP_CODEC:
			options->rdp.codec = CONFIG_RDP_CODEC_UNSET;
			for (size_t i = 0; i < ARRAY_LEN(config_rdp_codec_names); i++) {
				if (strcmp(optarg, config_rdp_codec_names[i]) == 0) {
					options->rdp.codec = (enum config_rdp_codec)(i + 1);
				}
			}
			if (!options->rdp.codec) {
				goto bad_value;
			}
			break;
		case OPT_PRIVILEGED:
			if (!parse_privileged(&options->config, optarg)) {
				return OPTIONS_EXIT_FAILURE;
			}
			break;
		case 'd':
			options->debug = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return OPTIONS_EXIT_SUCCESS;
		case 'v':
			printf("oriel %s\n", ORIEL_VERSION);
			return OPTIONS_EXIT_SUCCESS;
		case ':':
			fprintf(stderr, "oriel: %s needs a value; see oriel --help\n",
				argv[optind - 1]);
			return OPTIONS_EXIT_FAILURE;
		default:
			fprintf(stderr, "oriel: unknown option %s; see oriel --help\n",
				optopt && optopt < OPT_BACKEND ? (char[]){'-', (char)optopt, '\0'} :
				argv[optind - 1]);
			return OPTIONS_EXIT_FAILURE;
		}
	}
	if (optind < argc) {
		if (strcmp(argv[optind - 1], "--") != 0) {
			fprintf(stderr, "oriel: put the session command after \"--\"\n");
			return OPTIONS_EXIT_FAILURE;
		}
		options->command = &argv[optind];
	}
	return OPTIONS_OK;

bad_value:
	fprintf(stderr, "oriel: invalid value \"%s\" for --%s; expected %s\n", optarg,
		long_options[c - OPT_BACKEND].name, expected_form(c));
	return OPTIONS_EXIT_FAILURE;
}

static char *default_config_path(void) {
	const char *config_home = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	char *path = NULL;
	if (config_home && config_home[0]) {
		if (asprintf(&path, "%s/oriel/oriel.ini", config_home) < 0) {
			path = NULL;
		}
	} else if (home && home[0]) {
		if (asprintf(&path, "%s/.config/oriel/oriel.ini", home) < 0) {
			path = NULL;
		}
	}
	return path;
}

/* The command line's VNC settings win; listeners from it replace the file's. */
static bool merge_vnc(struct oriel_options *options) {
	struct options_vnc *vnc = &options->vnc;
	const struct oriel_config *config = &options->config;
	if (vnc->n_listen + vnc->n_unix == 0) {
		for (int i = 0; i < config->n_vnc_listen; i++) {
			vnc->listen[vnc->n_listen++] = config->vnc_listen[i];
		}
		for (int i = 0; i < config->n_vnc_unix &&
				vnc->n_listen + vnc->n_unix < CONFIG_MAX_VNC_LISTEN; i++) {
			vnc->unix_paths[vnc->n_unix++] = config->vnc_unix[i];
		}
	}
#define MERGE(field, config_field) \
	if (!vnc->field) { vnc->field = config->config_field; }
	MERGE(output, vnc_output)
	MERGE(password_file, vnc_password_file)
	MERGE(http, vnc_http)
	MERGE(tls_cert, vnc_tls_cert)
	MERGE(tls_key, vnc_tls_key)
	MERGE(max_fps, vnc_max_fps)
	MERGE(max_clients, vnc_max_clients)
	MERGE(max_cut_text, vnc_max_cut_text)
	MERGE(users_file, vnc_users)
	MERGE(pam_service, vnc_pam)
	MERGE(handshake_timeout, vnc_handshake_timeout)
	MERGE(max_pending, vnc_max_pending)
	MERGE(max_pending_per_address, vnc_max_pending_per_address)
#undef MERGE
	if (vnc->n_allow_users == 0) {
		for (int i = 0; i < config->n_vnc_allow_users; i++) {
			vnc->allow_users[vnc->n_allow_users++] = config->vnc_allow_users[i];
		}
	}
	if (vnc->n_allow_origins == 0) {
		for (int i = 0; i < config->n_vnc_allow_origins; i++) {
			vnc->allow_origins[vnc->n_allow_origins++] = config->vnc_allow_origins[i];
		}
	}
	if (vnc->n_allow_hosts == 0) {
		for (int i = 0; i < config->n_vnc_allow_hosts; i++) {
			vnc->allow_hosts[vnc->n_allow_hosts++] = config->vnc_allow_hosts[i];
		}
	}
	if (vnc->insecure < 0) {
		vnc->insecure = config->vnc_insecure > 0;
	}
	if (vnc->anonymous_tls < 0) {
		vnc->anonymous_tls = config->vnc_anonymous_tls > 0;
	}
	if (vnc->idle_timeout < 0) {
		vnc->idle_timeout = config->vnc_idle_timeout > 0 ? config->vnc_idle_timeout : 0;
	}
	if (!vnc->handshake_timeout) {
		vnc->handshake_timeout = 10;
	}
	if (!vnc->max_pending) {
		vnc->max_pending = 64;
	}
	if (!vnc->max_pending_per_address) {
		vnc->max_pending_per_address = 4;
	}
	if (vnc->view_only < 0) {
		vnc->view_only = config->vnc_view_only > 0;
	}
	if (!vnc->max_fps) {
		vnc->max_fps = 60;
	}
	if (!vnc->max_clients) {
		vnc->max_clients = 16;
	}
	if (!vnc->max_cut_text) {
		vnc->max_cut_text = 1024 * 1024;
	}
	if (!vnc->tls_cert != !vnc->tls_key) {
		fprintf(stderr, "oriel: --vnc-tls-cert and --vnc-tls-key go together\n");
		return false;
	}
	if (vnc->password_file && access(vnc->password_file, R_OK) != 0) {
		fprintf(stderr, "oriel: cannot read the VNC password file %s\n",
			vnc->password_file);
		return false;
	}
	if (vnc->users_file && access(vnc->users_file, R_OK) != 0) {
		fprintf(stderr, "oriel: cannot read the VNC users file %s\n", vnc->users_file);
		return false;
	}
	/*
	 * The security model: beyond loopback and Unix sockets, viewers log in
	 * with an account over TLS (VeNCrypt), or, when asked for, with a
	 * VncAuth password in the clear.
	 */
	bool accounts = vnc->users_file || vnc->pam_service;
	for (int i = 0; i < vnc->n_listen; i++) {
		struct address_spec address;
		if (!address_spec_parse(vnc->listen[i], &address)) {
			return false; /* both sources validated it already */
		}
		if (address_spec_is_loopback(&address) || accounts ||
				(vnc->insecure && vnc->password_file)) {
			continue;
		}
		fprintf(stderr, "oriel: refusing to serve VNC on %s without accounts: "
			"%s is not a loopback address; give --vnc-users FILE or --vnc-pam "
			"(viewers then log in over TLS), or --vnc-password-file FILE with "
			"--vnc-insecure for VncAuth in the clear\n", vnc->listen[i], address.host);
		return false;
	}
	return true;
}

/*
 * The command line's RDP settings over [rdp] (listeners from it replace the
 * file's), then defaults, and the security rule: no account check,
 * loopback only.
 */
static bool merge_rdp(struct oriel_options *options) {
	struct options_rdp *rdp = &options->rdp;
	const struct oriel_config *config = &options->config;
	if (rdp->n_listen == 0) {
		for (int i = 0; i < config->n_rdp_listen && i < OPTIONS_MAX_RDP_LISTEN; i++) {
			rdp->listen[rdp->n_listen++] = config->rdp_listen[i];
		}
	}
#define MERGE_RDP(field, config_field) \
	if (!rdp->field) { rdp->field = config->config_field; }
	MERGE_RDP(tls_cert, rdp_tls_cert)
	MERGE_RDP(tls_key, rdp_tls_key)
	MERGE_RDP(users_file, rdp_users)
	MERGE_RDP(pam_service, rdp_pam)
	MERGE_RDP(sam_file, rdp_sam)
	MERGE_RDP(handshake_timeout, rdp_handshake_timeout)
	MERGE_RDP(max_pending, rdp_max_pending)
	MERGE_RDP(max_pending_per_address, rdp_max_pending_per_address)
	MERGE_RDP(max_clients, rdp_max_clients)
	MERGE_RDP(max_fps, rdp_max_fps)
	MERGE_RDP(keyboard, rdp_keyboard)
	MERGE_RDP(audio, rdp_audio)
	if (!rdp->audio) {
		rdp->audio = CONFIG_RDP_AUDIO_ON;
	}
	MERGE_RDP(codec, rdp_codec)
	if (!rdp->codec) {
		rdp->codec = CONFIG_RDP_CODEC_AUTO;
	}
	if (!rdp->keyboard) {
		/* A layout the session was given is meant for every client. */
		rdp->keyboard = config->xkb_layout && config->xkb_layout[0] ?
			CONFIG_RDP_KEYBOARD_SESSION : CONFIG_RDP_KEYBOARD_CLIENT;
	}
#undef MERGE_RDP
	if (!rdp->handshake_timeout) {
		rdp->handshake_timeout = 10;
	}
	if (!rdp->max_pending) {
		rdp->max_pending = 64;
	}
	if (!rdp->max_pending_per_address) {
		rdp->max_pending_per_address = 4;
	}
	if (!rdp->max_clients) {
		rdp->max_clients = 16;
	}
	if (!rdp->max_fps) {
		rdp->max_fps = 60;
	}
	if (!rdp->tls_cert != !rdp->tls_key) {
		fprintf(stderr, "oriel: --rdp-tls-cert and --rdp-tls-key go together\n");
		return false;
	}
	if (rdp->users_file && access(rdp->users_file, R_OK) != 0) {
		fprintf(stderr, "oriel: cannot read the RDP users file %s\n", rdp->users_file);
		return false;
	}
	if (rdp->sam_file && access(rdp->sam_file, R_OK) != 0) {
		fprintf(stderr, "oriel: cannot read the RDP SAM file %s\n", rdp->sam_file);
		return false;
	}
	bool accounts = rdp->users_file || rdp->pam_service || rdp->sam_file;
	for (int i = 0; i < rdp->n_listen; i++) {
		struct address_spec address;
		if (!address_spec_parse(rdp->listen[i], &address)) {
			return false;
		}
		if (!accounts && !address_spec_is_loopback(&address)) {
			fprintf(stderr, "oriel: refusing to serve RDP on %s without accounts: "
				"%s is not a loopback address; give --rdp-users FILE, --rdp-pam or --rdp-sam FILE\n",
				rdp->listen[i], address.host);
			return false;
		}
	}
	return true;
}

bool options_load_config(struct oriel_options *options) {
	char err[512];
	bool ok = true;
	if (options->config_path) {
		ok = config_parse_file(&options->config, options->config_path, err, sizeof(err));
	} else {
		char *path = default_config_path();
		FILE *exists = path ? fopen(path, "r") : NULL;
		if (exists) {
			fclose(exists);
			ok = config_parse_file(&options->config, path, err, sizeof(err));
		}
		free(path);
	}
	if (!ok) {
		fprintf(stderr, "oriel: %s; fix that line of the config file\n", err);
		return false;
	}

	const struct oriel_config *config = &options->config;
	if (!options->kiosk) {
		options->kiosk = config->mode == CONFIG_MODE_KIOSK;
	}
	if (options->xwayland == CONFIG_XWAYLAND_UNSET) {
		options->xwayland = config->xwayland != CONFIG_XWAYLAND_UNSET ?
			config->xwayland : CONFIG_XWAYLAND_LAZY;
	}
	if (options->x_display < 0) {
		options->x_display = config->x_display;
	}
	if (!options->sound_server) {
		options->sound_server = config->sound_server ? config->sound_server :
			CONFIG_SOUND_SERVER_AUTO;
	}
	if (options->n_outputs == 0) {
		options->n_outputs = config->n_outputs;
		memcpy(options->outputs, config->outputs, sizeof(options->outputs));
	}
	if (options->n_outputs == 0) {
		options->outputs[0] = (struct config_output_mode){1920, 1080, 60000};
		options->n_outputs = 1;
	}
	return merge_vnc(options) && merge_rdp(options);
}

void options_finish(struct oriel_options *options) {
	config_finish(&options->config);
}
