/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wlr/util/log.h>
#include "compositor/child.h"

#define STOP_GRACE_MS 2000

static int status_to_exit_code(int status) {
	if (WIFEXITED(status)) {
		return WEXITSTATUS(status);
	}
	if (WIFSIGNALED(status)) {
		return 128 + WTERMSIG(status);
	}
	return 1;
}

static bool reap(struct child *child, int flags) {
	int status;
	pid_t pid;
	do {
		pid = waitpid(child->pid, &status, flags);
	} while (pid < 0 && errno == EINTR);
	if (pid != child->pid) {
		return false;
	}
	child->exited = true;
	child->exit_status = status_to_exit_code(status);
	return true;
}

/* Only our own child is reaped: wlroots waits for its Xwayland forks itself. */
static int handle_sigchld(int signal, void *data) {
	struct child *child = data;
	if (!child->exited && reap(child, WNOHANG)) {
		wlr_log(WLR_INFO, "Session command exited with status %d", child->exit_status);
		wl_display_terminate(child->display);
	}
	return 0;
}

bool child_start(struct child *child, struct wl_display *display, char *const argv[]) {
	child->display = display;
	child->sigchld = wl_event_loop_add_signal(wl_display_get_event_loop(display),
		SIGCHLD, handle_sigchld, child);
	child->pid = fork();
	if (child->pid < 0) {
		wlr_log_errno(WLR_ERROR, "fork failed");
		return false;
	}
	if (child->pid == 0) {
		setpgid(0, 0);
		execvp(argv[0], argv);
		fprintf(stderr, "oriel: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(child->pid, child->pid);
	wlr_log(WLR_INFO, "Started session command %s (pid %d)", argv[0], child->pid);
	return true;
}

void child_finish(struct child *child) {
	if (child->pid > 0 && !child->exited) {
		kill(-child->pid, SIGTERM);
		for (int waited = 0; waited < STOP_GRACE_MS; waited += 10) {
			if (reap(child, WNOHANG)) {
				break;
			}
			nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
		}
		if (!child->exited) {
			kill(-child->pid, SIGKILL);
			reap(child, 0);
		}
	}
	if (child->sigchld) {
		wl_event_source_remove(child->sigchld);
		child->sigchld = NULL;
	}
}
