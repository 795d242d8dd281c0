#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compositor/options.h"

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
	"  --kiosk                                   every window fullscreen\n"
	"  --config FILE                             settings file\n"
	"                                            ($XDG_CONFIG_HOME/oriel/oriel.ini)\n"
	"  --dbus auto|session|spawn|off             session bus to use (auto)\n"
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

enum { OPT_BACKEND = 256, OPT_RENDERER, OPT_OUTPUT, OPT_XWAYLAND, OPT_KIOSK,
	OPT_CONFIG, OPT_DBUS };

enum options_result options_parse(struct oriel_options *options, int argc, char *argv[]) {
	static const struct option long_options[] = {
		{"backend", required_argument, NULL, OPT_BACKEND},
		{"renderer", required_argument, NULL, OPT_RENDERER},
		{"output", required_argument, NULL, OPT_OUTPUT},
		{"xwayland", required_argument, NULL, OPT_XWAYLAND},
		{"kiosk", no_argument, NULL, OPT_KIOSK},
		{"config", required_argument, NULL, OPT_CONFIG},
		{"dbus", required_argument, NULL, OPT_DBUS},
		{"debug", no_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'v'},
		{0},
	};
	static const char *const backends[] = {"auto", "headless", "drm", "wayland", "x11"};
	static const char *const renderers[] = {"auto", "pixman", "gles2"};
	static const char *const dbus_modes[] = {"auto", "session", "spawn", "off"};
	static const char *const xwayland_modes[] = {"lazy", "eager", "off"};

	memset(options, 0, sizeof(*options));
	config_init(&options->config);

	optind = 1;
	int c, choice;
	while ((c = getopt_long(argc, argv, "+dhv", long_options, NULL)) != -1) {
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
		case OPT_XWAYLAND:
			if ((choice = parse_choice(optarg, xwayland_modes, 3)) < 0) {
				goto bad_value;
			}
			options->xwayland = CONFIG_XWAYLAND_LAZY + choice;
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
		case 'd':
			options->debug = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return OPTIONS_EXIT_SUCCESS;
		case 'v':
			printf("oriel %s\n", ORIEL_VERSION);
			return OPTIONS_EXIT_SUCCESS;
		default:
			fputs(usage, stderr);
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
	fprintf(stderr, "oriel: invalid value \"%s\" for --%s\n", optarg,
		long_options[c - OPT_BACKEND].name);
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
		fprintf(stderr, "oriel: %s\n", err);
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
	if (options->n_outputs == 0) {
		options->n_outputs = config->n_outputs;
		memcpy(options->outputs, config->outputs, sizeof(options->outputs));
	}
	if (options->n_outputs == 0) {
		options->outputs[0] = (struct config_output_mode){1920, 1080, 60000};
		options->n_outputs = 1;
	}
	return true;
}

void options_finish(struct oriel_options *options) {
	config_finish(&options->config);
}
