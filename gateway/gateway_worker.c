/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include "oriel-config.h"
#include "gateway/gateway_broker_msg.h"
#include "gateway/gateway_config.h"
#include "gateway/gateway_front.h"
#include "gateway/gateway_log.h"
#include "gateway/gateway_sandbox.h"
#include "gateway/gateway_worker.h"

#define MAX_LISTEN (2 * 16)

pid_t gateway_worker_spawn(char *const argv[], int control_fd, const int *listen_fds,
		int n_vnc, int n_rdp, const char *test_hook) {
	/* Made before fork: the child of a threaded process only dups, closes and execs. */
	int argc = 0;
	while (argv[argc]) {
		argc++;
	}
	char spec[64];
	snprintf(spec, sizeof(spec), "--worker=%d,%d%s%s", n_vnc, n_rdp,
		test_hook ? "," : "", test_hook ? test_hook : "");
	char **worker_argv = calloc((size_t)argc + 2, sizeof(char *));
	if (!worker_argv) {
		return -1;
	}
	worker_argv[0] = argv[0];
	worker_argv[1] = spec;
	for (int i = 1; i < argc; i++) {
		worker_argv[i + 1] = argv[i];
	}
	int keep[1 + MAX_LISTEN];
	int n_keep = 0;
	keep[n_keep++] = control_fd;
	for (int i = 0; i < n_vnc + n_rdp && n_keep < (int)(sizeof(keep) / sizeof(keep[0])); i++) {
		keep[n_keep++] = listen_fds[i];
	}
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		/* Above every number they go to, then into place from 3. */
		int base = GATEWAY_WORKER_BROKER_FD + n_keep;
		int moved[1 + MAX_LISTEN];
		for (int i = 0; i < n_keep; i++) {
			moved[i] = fcntl(keep[i], F_DUPFD, base);
			if (moved[i] < 0) {
				_exit(127);
			}
		}
		for (int i = 0; i < n_keep; i++) {
			if (dup2(moved[i], GATEWAY_WORKER_BROKER_FD + i) < 0) {
				_exit(127);
			}
		}
		/* Nothing else of the broker's: no session's socket, no ticket's. */
		close_range((unsigned)base, ~0U, 0);
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
		if (getppid() != parent) {
			_exit(0);
		}
		/* A fresh image: nothing of the broker's memory (PAM's, tickets) comes along. */
		execv("/proc/self/exe", worker_argv);
		_exit(127);
	}
	free(worker_argv);
	return pid;
}

#if GATEWAY_TEST_HOOKS
static char test_hook[32];

void gateway_worker_connection(void) {
	static bool done;
	if (done || !test_hook[0]) {
		return;
	}
	done = true;
	if (strcmp(test_hook, "open-shadow") == 0) {
		int fd = open("/etc/shadow", O_RDONLY | O_CLOEXEC);
		gateway_log("test hook: open /etc/shadow: %s", fd >= 0 ? "opened" : strerror(errno));
		if (fd >= 0) {
			close(fd);
		}
	} else if (strcmp(test_hook, "execve") == 0) {
		gateway_log("test hook: execve /bin/sh");
		char *sh_argv[] = { "sh", "-c", "id", NULL };
		execv("/bin/sh", sh_argv);
		gateway_log("test hook: execve /bin/sh: %s", strerror(errno));
	}
}
#else
void gateway_worker_connection(void) {
}
#endif

bool gateway_broker_call(int broker_fd, const struct gateway_broker_request *request,
		struct gateway_broker_reply *reply, int *fd, int timeout_ms) {
	*fd = -1;
	memset(reply, 0, sizeof(*reply));
	int pair[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) < 0) {
		return false;
	}
	uint8_t buf[GATEWAY_BROKER_REQUEST_SIZE > GATEWAY_BROKER_REPLY_SIZE ?
		GATEWAY_BROKER_REQUEST_SIZE : GATEWAY_BROKER_REPLY_SIZE];
	union {
		struct cmsghdr header;
		char space[CMSG_SPACE(sizeof(int))];
	} control;
	memset(&control, 0, sizeof(control));
	struct iovec iov = { .iov_base = buf, .iov_len = GATEWAY_BROKER_REQUEST_SIZE };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control.space, .msg_controllen = sizeof(control.space),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &pair[1], sizeof(int));
	bool ok = gateway_broker_request_encode(request, buf) &&
		sendmsg(broker_fd, &msg, MSG_NOSIGNAL) == GATEWAY_BROKER_REQUEST_SIZE;
	explicit_bzero(buf, sizeof(buf));
	close(pair[1]);
	struct pollfd p = { .fd = pair[0], .events = POLLIN };
	int rc = 0;
	while (ok && (rc = poll(&p, 1, timeout_ms)) < 0 && errno == EINTR) {
	}
	ok = ok && rc > 0;
	if (ok) {
		memset(&control, 0, sizeof(control));
		iov.iov_len = sizeof(buf);
		msg.msg_controllen = sizeof(control.space);
		msg.msg_flags = 0;
		ssize_t n = recvmsg(pair[0], &msg, MSG_CMSG_CLOEXEC);
		c = n > 0 ? CMSG_FIRSTHDR(&msg) : NULL;
		if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
				c->cmsg_len == CMSG_LEN(sizeof(int))) {
			memcpy(fd, CMSG_DATA(c), sizeof(int));
		}
		ok = n > 0 && gateway_broker_reply_decode(buf, (size_t)n, reply);
		explicit_bzero(buf, sizeof(buf));
	}
	close(pair[0]);
	if (!ok && *fd >= 0) {
		close(*fd);
		*fd = -1;
	}
	return ok;
}

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig) {
	stop_signal = sig;
}

/* The descriptors the broker left at 3 and up: what they must be. */
static bool is_socket_of(int fd, int type) {
	int got = 0;
	socklen_t len = sizeof(got);
	return getsockopt(fd, SOL_SOCKET, SO_TYPE, &got, &len) == 0 && got == type;
}

int gateway_worker_main(const struct gateway_config *config, const char *spec) {
	int n_vnc = 0, n_rdp = 0, used = 0;
	char hook[32] = "";
	if (sscanf(spec, "%d,%d%n", &n_vnc, &n_rdp, &used) < 2 || n_vnc < 0 || n_rdp < 0 ||
			n_vnc + n_rdp > MAX_LISTEN || n_vnc + n_rdp == 0) {
		gateway_log("--worker: not started by the gateway");
		return 1;
	}
	/* Run as /proc/self/exe: a name of its own in ps and top. */
	prctl(PR_SET_NAME, "oriel-gw-worker", 0, 0, 0);
	if (spec[used] == ',') {
		snprintf(hook, sizeof(hook), "%s", spec + used + 1);
	}
	int broker_fd = GATEWAY_WORKER_BROKER_FD;
	int listen_fds[MAX_LISTEN];
	bool ok = is_socket_of(broker_fd, SOCK_SEQPACKET);
	for (int i = 0; i < n_vnc + n_rdp; i++) {
		listen_fds[i] = broker_fd + 1 + i;
		ok = ok && is_socket_of(listen_fds[i], SOCK_STREAM);
		fcntl(listen_fds[i], F_SETFD, FD_CLOEXEC);
	}
	fcntl(broker_fd, F_SETFD, FD_CLOEXEC);
	if (!ok) {
		gateway_log("--worker: not started by the gateway");
		return 1;
	}
#if GATEWAY_TEST_HOOKS
	snprintf(test_hook, sizeof(test_hook), "%s", hook);
#endif
	struct sigaction action = { .sa_handler = on_signal };
	sigaction(SIGTERM, &action, NULL);
	sigaction(SIGINT, &action, NULL);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	sigset_t signals, waiting;
	sigemptyset(&signals);
	sigaddset(&signals, SIGTERM);
	sigaddset(&signals, SIGINT);
	pthread_sigmask(SIG_BLOCK, &signals, &waiting);

	char error[512] = "";
	struct gateway_front *vnc = NULL, *rdp = NULL;
	if (n_vnc > 0 && !(vnc = gateway_front_create(config, GATEWAY_VNC, listen_fds, n_vnc,
			broker_fd, error, sizeof(error)))) {
		gateway_log("VNC: %s", error);
		return 1;
	}
	if (n_rdp > 0 && !(rdp = gateway_front_create(config, GATEWAY_RDP, listen_fds + n_vnc,
			n_rdp, broker_fd, error, sizeof(error)))) {
		gateway_log("RDP: %s", error);
		return 1;
	}
	/* Before a byte from the network is read. */
	if (!gateway_sandbox_enter(config->worker_user, error, sizeof(error))) {
		gateway_log("the network side cannot start: %s", error);
		return 1;
	}
	if ((vnc && !gateway_front_run(vnc, error, sizeof(error))) ||
			(rdp && !gateway_front_run(rdp, error, sizeof(error)))) {
		gateway_log("the network side cannot start: %s", error);
		return 1;
	}
	/* Until a signal, or the broker is gone (it never writes here). */
	struct pollfd p = { .fd = broker_fd, .events = POLLIN };
	while (!stop_signal && !p.revents) {
		ppoll(&p, 1, NULL, &waiting);
	}
	gateway_front_stop(vnc);
	gateway_front_stop(rdp);
	/* At once: no exit handlers in the sandbox. */
	_exit(0);
}
