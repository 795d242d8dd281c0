/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_CHILD_H
#define ORIEL_CHILD_H

/* The session command: started once the session is ready, its exit ends it. */

#include <stdbool.h>
#include <sys/types.h>
#include <wayland-server-core.h>

struct child {
	pid_t pid;
	int exit_status;
	bool exited;
	struct wl_display *display;
	struct wl_event_source *sigchld;
};

/* Starts argv[0] in its own process group with oriel's environment. */
bool child_start(struct child *child, struct wl_display *display, char *const argv[]);
/* Stops the command (SIGTERM to its group) if it still runs, and reaps it. */
void child_finish(struct child *child);

#endif
