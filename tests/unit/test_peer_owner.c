/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for remote/peer_owner.c: real sockets in this
 * process, and, when run as root, a child that connects as uid 65534.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include "remote/peer_owner.h"
#include "tests/unit/expect.h"

#define OTHER_UID 65534

/* A listener on addr (port 0: any), and its address as bound. */
static int listen_on(struct sockaddr_storage *addr, socklen_t *len, bool v6only) {
	int fd = socket(addr->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		return -1;
	}
	int on = v6only;
	if (addr->ss_family == AF_INET6) {
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof(on));
	}
	if (bind(fd, (struct sockaddr *)addr, *len) < 0 || listen(fd, 4) < 0 ||
			getsockname(fd, (struct sockaddr *)addr, len) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int connect_to(const struct sockaddr_storage *addr, socklen_t len) {
	int fd = socket(addr->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (const struct sockaddr *)addr, len) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static void check_ours(int fd, const char *what) {
	uid_t uid = 12345;
	int rc = peer_owner_uid(fd, &uid);
	EXPECT(rc == 0, "%s: the owner is found (%s)", what, strerror(-rc));
	EXPECT(uid == geteuid(), "%s: uid %u is ours (%u)", what, (unsigned)uid,
		(unsigned)geteuid());
	char why[256] = "";
	EXPECT(peer_owner_is_self(fd, &uid, why, sizeof(why)), "%s: is self (%s)", what, why);
}

/* Connects to a listener on addr from this process, both ends ours. */
static void loopback_pair(struct sockaddr_storage *addr, socklen_t len, bool v6only,
		const char *what) {
	int listener = listen_on(addr, &len, v6only);
	if (listener < 0) {
		fprintf(stderr, "%s: no such address here, skipped\n", what);
		return;
	}
	int client = connect_to(addr, len);
	int server = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
	EXPECT(client >= 0 && server >= 0, "%s: connected", what);
	if (client >= 0 && server >= 0) {
		check_ours(server, what);
		check_ours(client, what);
	}
	close(client);
	close(server);
	close(listener);
}

static struct sockaddr_storage unix_path(const char *path) {
	struct sockaddr_storage ss = {0};
	struct sockaddr_un *un = (struct sockaddr_un *)&ss;
	un->sun_family = AF_UNIX;
	snprintf(un->sun_path, sizeof(un->sun_path), "%s", path);
	return ss;
}

static struct sockaddr_storage inet4(const char *host) {
	struct sockaddr_storage ss = {0};
	struct sockaddr_in *in = (struct sockaddr_in *)&ss;
	in->sin_family = AF_INET;
	inet_pton(AF_INET, host, &in->sin_addr);
	return ss;
}

static struct sockaddr_storage inet6(const char *host) {
	struct sockaddr_storage ss = {0};
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
	in6->sin6_family = AF_INET6;
	inet_pton(AF_INET6, host, &in6->sin6_addr);
	return ss;
}

/* A child connects as uid 65534: the accepting end sees that uid. */
static void other_user(struct sockaddr_storage *addr, socklen_t len, const char *what) {
	int listener = listen_on(addr, &len, true);
	EXPECT(listener >= 0, "%s: listening", what);
	if (listener < 0) {
		return;
	}
	int ready[2];
	if (pipe(ready) < 0) {
		return;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(ready[0]);
		if (setgroups(0, NULL) < 0 || setresgid(OTHER_UID, OTHER_UID, OTHER_UID) < 0 ||
				setresuid(OTHER_UID, OTHER_UID, OTHER_UID) < 0) {
			_exit(2);
		}
		int fd = connect_to(addr, len);
		if (fd < 0 || write(ready[1], "x", 1) != 1) {
			_exit(3);
		}
		pause(); /* holds the connection until the parent has looked */
		_exit(0);
	}
	close(ready[1]);
	char byte;
	EXPECT(read(ready[0], &byte, 1) == 1, "%s: the child connected", what);
	int server = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
	uid_t uid = 0;
	int rc = peer_owner_uid(server, &uid);
	EXPECT(rc == 0 && uid == OTHER_UID, "%s: uid %u (rc %d), want %u", what,
		(unsigned)uid, rc, OTHER_UID);
	char why[256] = "";
	EXPECT(!peer_owner_is_self(server, &uid, why, sizeof(why)), "%s: not self", what);
	EXPECT(strstr(why, "uid 65534") != NULL, "%s: the reason names the uid: %s", what, why);
	close(server);
	close(ready[0]);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(listener);
}

int main(void) {
	int pair[2];
	EXPECT(socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0, "a socket pair");
	check_ours(pair[0], "a Unix socket pair");
	close(pair[0]);
	close(pair[1]);

	struct sockaddr_storage addr = inet4("127.0.0.1");
	loopback_pair(&addr, sizeof(struct sockaddr_in), true, "IPv4 loopback");
	addr = inet6("::1");
	loopback_pair(&addr, sizeof(struct sockaddr_in6), true, "IPv6 loopback");
	/* A dual-stack listener takes an IPv4 client: v4-mapped addresses. */
	addr = inet6("::");
	socklen_t len = sizeof(struct sockaddr_in6);
	int listener = listen_on(&addr, &len, false);
	if (listener >= 0) {
		struct sockaddr_storage to = inet4("127.0.0.1");
		((struct sockaddr_in *)&to)->sin_port = ((struct sockaddr_in6 *)&addr)->sin6_port;
		int client = connect_to(&to, sizeof(struct sockaddr_in));
		int server = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
		EXPECT(client >= 0 && server >= 0, "v4-mapped: connected");
		if (server >= 0) {
			check_ours(server, "v4-mapped");
		}
		close(client);
		close(server);
		close(listener);
	}

	/*
	 * A peer that sent its bytes and closed its end has no owner any more
	 * (the kernel would say root's): it is not taken for ours.
	 */
	addr = inet4("127.0.0.1");
	len = sizeof(struct sockaddr_in);
	listener = listen_on(&addr, &len, true);
	int closer = connect_to(&addr, len);
	EXPECT(closer >= 0 && write(closer, "x", 1) == 1, "a peer that writes");
	close(closer);
	int orphaned = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
	{
		uid_t owner = 12345;
		char why_closed[256] = "";
		EXPECT(peer_owner_uid(orphaned, &owner) == -ENOTCONN,
			"a closed peer has no owner (uid %u)", (unsigned)owner);
		EXPECT(!peer_owner_is_self(orphaned, &owner, why_closed, sizeof(why_closed)),
			"a closed peer is not self");
		EXPECT(strstr(why_closed, "its end was closed") != NULL, "why: %s", why_closed);
	}
	close(orphaned);
	close(listener);

	/* A socket with no peer has no owner to find. */
	int lone = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	uid_t uid;
	char why[256] = "";
	EXPECT(peer_owner_uid(lone, &uid) < 0, "an unconnected socket has no peer");
	EXPECT(!peer_owner_is_self(lone, &uid, why, sizeof(why)) && uid == (uid_t)-1,
		"an unknown peer is not self");
	EXPECT(strstr(why, "cannot be found") != NULL, "the reason says so: %s", why);
	close(lone);

	if (geteuid() == 0) {
		addr = inet4("127.0.0.1");
		other_user(&addr, sizeof(struct sockaddr_in), "IPv4 as uid 65534");
		addr = inet6("::1");
		len = sizeof(struct sockaddr_in6);
		int probe = listen_on(&addr, &len, true);
		if (probe >= 0) {
			close(probe);
			addr = inet6("::1");
			other_user(&addr, sizeof(struct sockaddr_in6), "IPv6 as uid 65534");
		}
		char dir[] = "/tmp/oriel-peer-owner-XXXXXX";
		if (mkdtemp(dir)) {
			chmod(dir, 0755);
			char path[sizeof(dir) + 8];
			snprintf(path, sizeof(path), "%s/sock", dir);
			addr = unix_path(path);
			mode_t old = umask(0);
			other_user(&addr, sizeof(struct sockaddr_un), "a Unix socket as uid 65534");
			umask(old);
			unlink(path);
			rmdir(dir);
		}
	} else {
		fprintf(stderr, "not root: the other-user checks are skipped\n");
	}
	return failures != 0;
}
