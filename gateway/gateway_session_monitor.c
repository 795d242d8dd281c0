/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <security/pam_appl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gateway/gateway_log.h"
#include "gateway/gateway_private_tmp.h"
#include "gateway/gateway_procs.h"
#include "gateway/gateway_runtime_dir.h"
#include "gateway/gateway_session_monitor.h"

#define DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"
#define MAX_SESSION_PROCS 1024
/* How long the rest of a session has to end after SIGTERM before SIGKILL. */
#define GRACE_MS 3000

struct monitor {
	const char *user, *dir, *pam_service, *oriel, *output, *idle_timeout, *x_display;
	const char *command;
	int status_fd;
	uid_t uid;
	gid_t gid;
	char *home, *shell;
	pam_handle_t *pam;
};

/* Tells the gateway why the session cannot start (it may no longer listen). */
static void report(struct monitor *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void report(struct monitor *m, const char *fmt, ...) {
	char text[512];
	va_list args;
	va_start(args, fmt);
	vsnprintf(text, sizeof(text), fmt, args);
	va_end(args);
	gateway_log("session %s: %s", m->dir, text);
	if (m->status_fd >= 0) {
		ssize_t unused = write(m->status_fd, text, strlen(text));
		(void)unused;
	}
}

/* Nobody answers PAM's questions: the gateway already checked the password. */
static int no_conversation(int n, const struct pam_message **messages,
		struct pam_response **responses, void *data) {
	(void)n, (void)messages, (void)responses, (void)data;
	return PAM_CONV_ERR;
}

static bool pam_begin(struct monitor *m) {
	static const struct pam_conv conv = { no_conversation, NULL };
	int rc = pam_start(m->pam_service, m->user, &conv, &m->pam);
	if (rc != PAM_SUCCESS) {
		report(m, "PAM cannot start service %s: %s", m->pam_service,
			pam_strerror(m->pam, rc));
		m->pam = NULL;
		return false;
	}
	/* pam_systemd registers the session with logind with these. */
	pam_putenv(m->pam, "XDG_SESSION_TYPE=wayland");
	pam_putenv(m->pam, "XDG_SESSION_CLASS=user");
	pam_set_item(m->pam, PAM_TTY, "oriel");
	if ((rc = pam_acct_mgmt(m->pam, 0)) != PAM_SUCCESS) {
		report(m, "PAM refuses %s's account: %s", m->user, pam_strerror(m->pam, rc));
		return false;
	}
	if ((rc = pam_setcred(m->pam, PAM_ESTABLISH_CRED)) != PAM_SUCCESS) {
		report(m, "PAM gives %s no credentials: %s", m->user, pam_strerror(m->pam, rc));
		return false;
	}
	if ((rc = pam_open_session(m->pam, 0)) != PAM_SUCCESS) {
		report(m, "PAM opens no session for %s: %s", m->user, pam_strerror(m->pam, rc));
		pam_setcred(m->pam, PAM_DELETE_CRED);
		return false;
	}
	return true;
}

static void pam_finish(struct monitor *m, bool opened) {
	if (!m->pam) {
		return;
	}
	if (opened) {
		pam_close_session(m->pam, 0);
		pam_setcred(m->pam, PAM_DELETE_CRED);
	}
	pam_end(m->pam, PAM_SUCCESS);
	m->pam = NULL;
}

static void fail_child(struct monitor *m, const char *what) {
	report(m, "%s: %s", what, strerror(errno));
	_exit(127);
}

static bool drop_to_user(struct monitor *m) {
	if (initgroups(m->user, m->gid) < 0 || setgid(m->gid) < 0 || setuid(m->uid) < 0) {
		return false;
	}
	/* Each id must have stuck, and there must be no way back. */
	return getuid() == m->uid && geteuid() == m->uid && getgid() == m->gid &&
		getegid() == m->gid && setuid(0) < 0 && setgid(0) < 0;
}

static void set_environment(struct monitor *m) {
	char **pam_env = pam_getenvlist(m->pam);
	clearenv();
	setenv("PATH", DEFAULT_PATH, 1);
	for (char **e = pam_env; e && *e; e++) {
		putenv(*e); /* kept: this process execs next */
	}
	setenv("HOME", m->home, 1);
	setenv("USER", m->user, 1);
	setenv("LOGNAME", m->user, 1);
	setenv("SHELL", m->shell, 1);
	setenv("XDG_RUNTIME_DIR", m->dir, 1);
	unsetenv("XDG_SESSION_ID"); /* logind's, not this process's own session */
}

/* The session's output goes to a log in its runtime dir, made as the user. */
static void redirect_output(struct monitor *m) {
	char path[4200];
	snprintf(path, sizeof(path), "%s/session.log", m->dir);
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		close(fd);
	}
}

/* The user's process: never returns. */
static void run_user_session(struct monitor *m) {
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	if (setsid() < 0) {
		fail_child(m, "setsid");
	}
	/* Her X display's files in a /tmp of her session's own, out of others' reach. */
	const char *const keep[] = { m->dir, m->oriel, m->home, NULL };
	char why[512];
	if (!gateway_private_tmp_enter(keep, why, sizeof(why))) {
		report(m, "%s", why);
		_exit(127);
	}
	if (!drop_to_user(m)) {
		fail_child(m, "cannot become the user");
	}
	set_environment(m);
	if (chdir(m->home) < 0 && chdir("/") < 0) {
		fail_child(m, "chdir");
	}
	umask(022);
	redirect_output(m);

	/* Checked as the user, so that no link of hers makes root look anywhere. */
	char personal[4200];
	snprintf(personal, sizeof(personal), "%s/.config/oriel/session", m->home);
	const char *command = access(personal, X_OK) == 0 ?
		"exec \"$HOME/.config/oriel/session\"" : m->command;
	char socket_path[4200];
	snprintf(socket_path, sizeof(socket_path), "%s/handover", m->dir);

	const char *argv[20];
	int n = 0;
	/* oriel's own bus (--dbus spawn), not dbus-run-session: one process less. */
	argv[n++] = m->oriel;
	argv[n++] = "--dbus";
	argv[n++] = "spawn";
	argv[n++] = "--backend";
	argv[n++] = "headless";
	argv[n++] = "--handover-socket";
	argv[n++] = socket_path;
	argv[n++] = "--output";
	argv[n++] = m->output;
	/* Past wlroots' :0-:32, so that more than 33 sessions fit on a host. */
	argv[n++] = "--x-display";
	argv[n++] = m->x_display;
	if (strcmp(m->idle_timeout, "0") != 0) {
		argv[n++] = "--exit-without-clients";
		argv[n++] = m->idle_timeout;
	}
	argv[n++] = "--";
	argv[n++] = m->shell;
	argv[n++] = "-lc";
	argv[n++] = command;
	argv[n] = NULL;
	execvp(argv[0], (char *const *)argv);
	fail_child(m, "cannot run oriel");
}

/* Waits until pid is gone, or the deadline (monotonic ms) passed. */
static void wait_gone(pid_t pid, int timeout_ms) {
	int fd = pidfd_open(pid, 0);
	if (fd < 0) {
		return;
	}
	struct pollfd p = { .fd = fd, .events = POLLIN };
	poll(&p, 1, timeout_ms);
	close(fd);
}

static void reap_children(void) {
	while (waitpid(-1, NULL, WNOHANG) > 0) {
	}
}

/* SIGTERM, then SIGKILL, to what is left: the session's sid and runtime dir. */
static void end_leftovers(struct monitor *m, pid_t sid) {
	static pid_t pids[MAX_SESSION_PROCS];
	for (int round = 0; round < 4; round++) {
		reap_children();
		int n = gateway_procs_find(m->uid, sid, m->dir, pids, MAX_SESSION_PROCS);
		if (n == 0) {
			return;
		}
		n = n < MAX_SESSION_PROCS ? n : MAX_SESSION_PROCS;
		int sig = round == 0 ? SIGTERM : SIGKILL;
		gateway_log("session %s: sending signal %d to %d leftover processes",
			m->dir, sig, n);
		for (int i = 0; i < n; i++) {
			kill(pids[i], sig);
		}
		for (int i = 0; i < n; i++) {
			reap_children();
			wait_gone(pids[i], round == 0 ? GRACE_MS : 500);
		}
	}
	reap_children();
}

/* Runs until the session's first process ends; SIGTERM/INT/HUP pass on to it. */
static int watch(pid_t child) {
	sigset_t signals;
	sigemptyset(&signals);
	sigaddset(&signals, SIGCHLD);
	sigaddset(&signals, SIGTERM);
	sigaddset(&signals, SIGINT);
	sigaddset(&signals, SIGHUP);
	for (;;) {
		int status;
		pid_t done;
		while ((done = waitpid(-1, &status, WNOHANG)) > 0) {
			if (done == child) {
				return status;
			}
		}
		siginfo_t info;
		int sig = sigwaitinfo(&signals, &info);
		if (sig == SIGTERM || sig == SIGINT || sig == SIGHUP) {
			kill(-child, SIGTERM);
		}
	}
}

static bool load_account(struct monitor *m) {
	struct passwd *pw = getpwnam(m->user);
	if (!pw || pw->pw_uid == 0) {
		report(m, "no account %s that may have a session", m->user);
		return false;
	}
	m->uid = pw->pw_uid;
	m->gid = pw->pw_gid;
	m->home = strdup(pw->pw_dir && pw->pw_dir[0] ? pw->pw_dir : "/");
	m->shell = strdup(pw->pw_shell && pw->pw_shell[0] ? pw->pw_shell : "/bin/sh");
	if (!m->home || !m->shell) {
		abort();
	}
	/* The dir the gateway made must be hers, and a dir, not a link. */
	struct stat st;
	if (lstat(m->dir, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != m->uid) {
		report(m, "%s is not %s's runtime dir", m->dir, m->user);
		return false;
	}
	return true;
}

int main(int argc, char *argv[]) {
	if (argc != MONITOR_ARGC || getuid() != 0) {
		gateway_log("%s is for oriel-gateway's own use, as root", GATEWAY_MONITOR_NAME);
		return 2;
	}
	struct monitor m = {
		.user = argv[MONITOR_ARG_USER],
		.dir = argv[MONITOR_ARG_DIR],
		.status_fd = atoi(argv[MONITOR_ARG_STATUS_FD]),
		.pam_service = argv[MONITOR_ARG_PAM_SERVICE],
		.oriel = argv[MONITOR_ARG_ORIEL],
		.output = argv[MONITOR_ARG_OUTPUT],
		.idle_timeout = argv[MONITOR_ARG_IDLE_TIMEOUT],
		.x_display = argv[MONITOR_ARG_X_DISPLAY],
		.command = argv[MONITOR_ARG_COMMAND],
	};
	fcntl(m.status_fd, F_SETFD, FD_CLOEXEC);
	signal(SIGPIPE, SIG_IGN); /* the gateway closes the status pipe once ready */
	/* Processes of the session that lose their parent come to us, not init. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	sigset_t blocked;
	sigemptyset(&blocked);
	sigaddset(&blocked, SIGCHLD);
	sigaddset(&blocked, SIGTERM);
	sigaddset(&blocked, SIGINT);
	sigaddset(&blocked, SIGHUP);
	sigprocmask(SIG_BLOCK, &blocked, NULL);

	int exit_status = 1;
	bool opened = false;
	if (!load_account(&m) || !(opened = pam_begin(&m))) {
		goto out;
	}
	pid_t child = fork();
	if (child == 0) {
		run_user_session(&m);
	}
	if (child < 0) {
		report(&m, "fork: %s", strerror(errno));
		goto out;
	}
	gateway_log("session %s: %s's session runs as pid %d", m.dir, m.user, (int)child);
	int status = watch(child);
	exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	gateway_log("session %s: ended (status %d)", m.dir, exit_status);
	/* Only a gateway still waiting for it reads this: it never answered. */
	if (m.status_fd >= 0) {
		char text[64];
		int len = snprintf(text, sizeof(text), "the session ended (status %d)", exit_status);
		ssize_t unused = write(m.status_fd, text, (size_t)len);
		(void)unused;
	}
	end_leftovers(&m, child);
out:
	pam_finish(&m, opened);
	if (m.uid != 0) {
		end_leftovers(&m, 0);
	}
	if (!gateway_runtime_dir_remove(m.dir)) {
		gateway_log("session %s: cannot remove all of it", m.dir);
	}
	gateway_log("session %s: cleaned up", m.dir);
	free(m.home);
	free(m.shell);
	return exit_status;
}
