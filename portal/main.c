/* SPDX-License-Identifier: MIT */
/*
 * xdg-desktop-portal-oriel: the xdg-desktop-portal backend for oriel
 * sessions (XDG_CURRENT_DESKTOP=oriel, picked by oriel.portal's UseIn).
 *
 *   xdg-desktop-portal-oriel [-r|--replace] [-v|--verbose]
 *
 * Owns org.freedesktop.impl.portal.desktop.oriel on the session bus and
 * serves /org/freedesktop/portal/desktop. With --replace it takes the
 * name from a running owner; it always lets itself be replaced, and exits
 * when it loses the name. SIGTERM and SIGINT exit cleanly, stopping every
 * cast it created.
 *
 * Serves ScreenCast, Screenshot, RemoteDesktop and Access. The policy is
 * read from $ORIEL_PORTAL_POLICY, or else $XDG_CONFIG_HOME/oriel/portal.ini
 * (~/.config/oriel/portal.ini), at each question; remembered grants are in
 * $XDG_STATE_HOME/oriel/portal-grants. See portal/README.md.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "portal/portal.h"

void portal_log(struct portal *portal, const char *fmt, ...) {
	if (!portal->verbose) {
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	fputs("xdg-desktop-portal-oriel: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

bool portal_caller_is_frontend(struct portal *portal, sd_bus_message *msg) {
	const char *sender = sd_bus_message_get_sender(msg);
	const char *owner = NULL;
	sd_bus_message *reply = NULL;
	int r = sd_bus_call_method(portal->bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
		"org.freedesktop.DBus", "GetNameOwner", NULL, &reply, "s", PORTAL_FRONTEND_NAME);
	if (r >= 0) {
		r = sd_bus_message_read(reply, "s", &owner);
	}
	bool ok = r >= 0 && sender && owner && strcmp(sender, owner) == 0;
	sd_bus_message_unref(reply);
	if (!ok) {
		portal_log(portal, "refused %s.%s from %s: not the portal frontend",
			sd_bus_message_get_interface(msg), sd_bus_message_get_member(msg),
			sender ? sender : "(unknown)");
	}
	return ok;
}

static char *policy_path(void) {
	const char *env = getenv("ORIEL_PORTAL_POLICY");
	if (env && *env) {
		return strdup(env);
	}
	char *path = NULL;
	const char *config = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	if (config && *config) {
		if (asprintf(&path, "%s/oriel/portal.ini", config) < 0) {
			path = NULL;
		}
	} else if (home && *home) {
		if (asprintf(&path, "%s/.config/oriel/portal.ini", home) < 0) {
			path = NULL;
		}
	}
	return path;
}

static int handle_name_lost(sd_bus_message *msg, void *data, sd_bus_error *error) {
	struct portal *portal = data;
	const char *name;
	if (sd_bus_message_read(msg, "s", &name) >= 0 && !strcmp(name, PORTAL_BUS_NAME)) {
		fprintf(stderr, "xdg-desktop-portal-oriel: lost %s, exiting\n", PORTAL_BUS_NAME);
		sd_event_exit(portal->event, 0);
	}
	return 0;
}

static int handle_signal(sd_event_source *source, const struct signalfd_siginfo *si,
		void *data) {
	struct portal *portal = data;
	portal_log(portal, "signal %u, exiting", si->ssi_signo);
	return sd_event_exit(portal->event, 0);
}

static void usage(FILE *f) {
	fputs("Usage: xdg-desktop-portal-oriel [-r|--replace] [-v|--verbose]\n"
		"  -r, --replace  replace a running instance\n"
		"  -v, --verbose  log every request to stderr\n"
		"  -h, --help     show this help\n", f);
}

int main(int argc, char *argv[]) {
	static const struct option long_options[] = {
		{"replace", no_argument, NULL, 'r'},
		{"verbose", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	bool replace = false;
	struct portal portal = {0};
	int c;
	while ((c = getopt_long(argc, argv, "rvh", long_options, NULL)) != -1) {
		switch (c) {
		case 'r':
			replace = true;
			break;
		case 'v':
			portal.verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	portal_policy_init(&portal.policy);
	portal.policy_path = policy_path();
	portal.grants_path = portal_grants_path();
	portal_grants_init(&portal.transient_grants);

	int status = 1;
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigprocmask(SIG_BLOCK, &mask, NULL);

	int r = sd_event_new(&portal.event);
	if (r < 0) {
		fprintf(stderr, "xdg-desktop-portal-oriel: sd_event_new: %s\n", strerror(-r));
		goto out;
	}
	r = sd_event_add_signal(portal.event, NULL, SIGTERM, handle_signal, &portal);
	r = r < 0 ? r : sd_event_add_signal(portal.event, NULL, SIGINT, handle_signal, &portal);
	if (r < 0) {
		fprintf(stderr, "xdg-desktop-portal-oriel: signals: %s\n", strerror(-r));
		goto out;
	}
	r = sd_bus_open_user(&portal.bus);
	if (r < 0) {
		fprintf(stderr, "xdg-desktop-portal-oriel: cannot connect to the session bus: %s\n",
			strerror(-r));
		goto out;
	}
	/* The session ended with its bus: nothing is left to serve. */
	r = sd_bus_set_exit_on_disconnect(portal.bus, true);
	r = r < 0 ? r : sd_bus_attach_event(portal.bus, portal.event, SD_EVENT_PRIORITY_NORMAL);
	if (r < 0) {
		goto out;
	}
	static const struct {
		const char *name;
		int (*init)(struct portal *portal);
	} interfaces[] = {
		{"ScreenCast", portal_screencast_init},
		{"Screenshot", portal_screenshot_init},
		{"RemoteDesktop", portal_remote_desktop_init},
		{"Access", portal_access_init},
	};
	for (size_t i = 0; i < sizeof(interfaces) / sizeof(interfaces[0]); i++) {
		r = interfaces[i].init(&portal);
		if (r < 0) {
			fprintf(stderr, "xdg-desktop-portal-oriel: %s: %s\n", interfaces[i].name,
				strerror(-r));
			goto out;
		}
	}
	r = sd_bus_match_signal(portal.bus, &portal.name_lost_slot, "org.freedesktop.DBus",
		"/org/freedesktop/DBus", "org.freedesktop.DBus", "NameLost", handle_name_lost,
		&portal);
	if (r < 0) {
		goto out;
	}
	uint64_t flags = SD_BUS_NAME_ALLOW_REPLACEMENT;
	if (replace) {
		flags |= SD_BUS_NAME_REPLACE_EXISTING;
	}
	r = sd_bus_request_name(portal.bus, PORTAL_BUS_NAME, flags);
	if (r < 0) {
		fprintf(stderr, "xdg-desktop-portal-oriel: cannot own %s: %s%s\n", PORTAL_BUS_NAME,
			strerror(-r), r == -EEXIST ? " (another backend runs; use --replace)" : "");
		goto out;
	}
	portal_log(&portal, "serving %s, policy %s", PORTAL_BUS_NAME,
		portal.policy_path ? portal.policy_path : "(none)");
	r = sd_event_loop(portal.event);
	status = r < 0 ? 1 : 0;

out:
	if (portal.bus) {
		portal_permission_cancel(&portal, NULL);
		portal_access_finish(&portal);
		portal_remote_desktop_finish(&portal);
		portal_screenshot_finish(&portal);
		portal_screencast_finish(&portal);
		portal.name_lost_slot = sd_bus_slot_unref(portal.name_lost_slot);
		sd_bus_flush_close_unref(portal.bus);
	}
	sd_event_unref(portal.event);
	portal_policy_finish(&portal.policy);
	free(portal.policy_path);
	free(portal.grants_path);
	portal_grants_finish(&portal.transient_grants);
	portal_recent_finish(&portal);
	return status;
}
