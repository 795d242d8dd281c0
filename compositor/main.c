/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <wlr/util/log.h>
#include "oriel-config.h"
#include "capture/virtual_input.h"
#include "remote/remote_servers.h"
#include "compositor/child.h"
#include "control/control.h"
#include "compositor/options.h"
#include "compositor/server.h"
#include "compositor/session_bus.h"
#include "compositor/sound_server.h"
#include "compositor/startup_error.h"
#if HAVE_XWAYLAND
#include "xwm/xwayland.h"
#endif

/*
 * The event loop blocks the signals it watches. Every process oriel forks
 * (Xwayland through wlroots, the session command, dbus-daemon) must start
 * with them unblocked, or it would ignore SIGTERM.
 */
static void unblock_signals_in_child(void) {
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static int handle_terminate(int signal, void *data) {
	wlr_log(WLR_INFO, "Stopping on signal %d", signal);
	wl_display_terminate(data);
	return 0;
}

static bool start_xwayland(struct server *server) {
	if (server->options->xwayland == CONFIG_XWAYLAND_OFF) {
		return true;
	}
#if HAVE_XWAYLAND
	server->xwm = xwm_create(server,
		server->options->xwayland == CONFIG_XWAYLAND_LAZY, server->options->x_display);
	return server->xwm != NULL;
#else
	wlr_log(WLR_INFO, "oriel was built without Xwayland");
	return true;
#endif
}

static void stop_xwayland(struct server *server) {
#if HAVE_XWAYLAND
	xwm_destroy(server->xwm);
	server->xwm = NULL;
#endif
}

/*
 * What can fail is tried before what starts processes: the bus, the
 * backend, the renderer and the listeners come before Xwayland and the
 * session command. What did start is stopped in reverse, and the cause
 * is the last line on stderr (startup_error.h).
 */
int main(int argc, char *argv[]) {
	struct oriel_options options;
	switch (options_parse(&options, argc, argv)) {
	case OPTIONS_OK:
		break;
	case OPTIONS_EXIT_SUCCESS:
		options_finish(&options);
		return EXIT_SUCCESS;
	case OPTIONS_EXIT_FAILURE:
		options_finish(&options);
		return EXIT_FAILURE;
	}
	/* A bad config stops oriel before it touches the display. */
	if (!options_load_config(&options)) {
		options_finish(&options);
		return EXIT_FAILURE;
	}
	wlr_log_init(options.debug ? WLR_DEBUG : WLR_INFO, NULL);
	signal(SIGPIPE, SIG_IGN);
	pthread_atfork(NULL, NULL, unblock_signals_in_child);

	int status = EXIT_FAILURE;
	bool running = false;
	struct session_bus bus = {0};
	struct server server = {0};
	struct child child = {0};
	struct sound_server sound = {0};
	struct wl_event_source *sigterm = NULL, *sigint = NULL;

	if (!session_bus_init(&bus, options.dbus)) {
		goto out;
	}
	if (!server_init(&server, &options)) {
		goto out;
	}
	server.virtual_input = virtual_input_create(&server);
	if (!server_start(&server)) {
		goto out;
	}
	/* VNC, RDP and the hand-over from oriel-gateway, as the options ask. */
	if (!remote_servers_start(&server)) {
		goto out;
	}
	if (!start_xwayland(&server)) {
		goto out;
	}
	if (options.sound_server == CONFIG_SOUND_SERVER_AUTO) {
		sound_server_start(&sound); /* without it, the session has no sound */
	}
	setenv("XDG_SESSION_TYPE", "wayland", 1);
	setenv("XDG_CURRENT_DESKTOP", "oriel", 1);

	if (bus.available) {
		server.control = control_create(&server);
		if (server.control) {
			control_update_activation_environment(server.control);
		} else if (options.dbus != DBUS_AUTO) {
			startup_error("cannot offer org.oriel.Compositor on the session bus "
				"(does another oriel use it?); use --dbus spawn for a bus of its own");
			goto out;
		}
	}

	sigterm = wl_event_loop_add_signal(server.loop, SIGTERM, handle_terminate,
		server.display);
	sigint = wl_event_loop_add_signal(server.loop, SIGINT, handle_terminate,
		server.display);
	if (options.command && !child_start(&child, server.display, options.command)) {
		startup_error("cannot start the session command %s; see the messages above",
			options.command[0]);
		goto out;
	}

	running = true;
	wl_display_run(server.display);
	status = child.exited ? child.exit_status : EXIT_SUCCESS;

out:
	/* X goes first, so that X clients exiting cannot make wlroots restart it. */
	stop_xwayland(&server);
	child_finish(&child);
	if (sigterm) {
		wl_event_source_remove(sigterm);
	}
	if (sigint) {
		wl_event_source_remove(sigint);
	}
	control_destroy(server.control);
	remote_servers_stop(&server);
	virtual_input_destroy(server.virtual_input);
	server_finish(&server);
	sound_server_stop(&sound);
	session_bus_finish(&bus);
	options_finish(&options);
	if (!running && !startup_error_print(stderr)) {
		fprintf(stderr, "oriel: cannot start; see the messages above\n");
	}
	return status;
}
