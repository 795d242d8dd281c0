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

struct oriel_options {
	enum options_backend backend;
	enum options_renderer renderer;
	enum options_dbus dbus;
	bool kiosk;
	enum config_xwayland xwayland;
	bool debug;
	const char *config_path; /* NULL: the default location */

	/* Headless outputs from --output, else from the config, else 1920x1080. */
	struct config_output_mode outputs[CONFIG_MAX_OUTPUTS];
	int n_outputs;

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
