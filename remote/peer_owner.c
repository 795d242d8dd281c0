/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include "remote/peer_owner.h"

/* The kernel answers a diag request within the send; this only bounds a surprise. */
#define DIAG_TIMEOUT_MS 1000

static int owner_unix(int fd, uid_t *uid) {
	struct ucred cred;
	socklen_t len = sizeof(cred);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0) {
		return -errno;
	}
	*uid = cred.uid;
	return 0;
}

/*
 * The peer's socket, seen from its side: its source is our peer address,
 * its destination our local address. A v4-mapped pair is looked up as
 * IPv4, where the peer's socket then lives.
 */
static bool describe_peer_socket(const struct sockaddr_storage *local,
		const struct sockaddr_storage *peer, struct inet_diag_req_v2 *req) {
	if (local->ss_family != peer->ss_family) {
		return false;
	}
	if (peer->ss_family == AF_INET) {
		const struct sockaddr_in *l = (const struct sockaddr_in *)local;
		const struct sockaddr_in *p = (const struct sockaddr_in *)peer;
		req->sdiag_family = AF_INET;
		req->id.idiag_src[0] = p->sin_addr.s_addr;
		req->id.idiag_sport = p->sin_port;
		req->id.idiag_dst[0] = l->sin_addr.s_addr;
		req->id.idiag_dport = l->sin_port;
		return true;
	}
	if (peer->ss_family != AF_INET6) {
		return false;
	}
	const struct sockaddr_in6 *l = (const struct sockaddr_in6 *)local;
	const struct sockaddr_in6 *p = (const struct sockaddr_in6 *)peer;
	req->id.idiag_sport = p->sin6_port;
	req->id.idiag_dport = l->sin6_port;
	if (IN6_IS_ADDR_V4MAPPED(&p->sin6_addr) && IN6_IS_ADDR_V4MAPPED(&l->sin6_addr)) {
		req->sdiag_family = AF_INET;
		memcpy(&req->id.idiag_src[0], &p->sin6_addr.s6_addr[12], 4);
		memcpy(&req->id.idiag_dst[0], &l->sin6_addr.s6_addr[12], 4);
		return true;
	}
	req->sdiag_family = AF_INET6;
	memcpy(req->id.idiag_src, &p->sin6_addr, 16);
	memcpy(req->id.idiag_dst, &l->sin6_addr, 16);
	return true;
}

/* Asks the kernel for one TCP socket, by its exact addresses. */
static int diag_uid(const struct inet_diag_req_v2 *req, uid_t *uid) {
	int nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (nl < 0) {
		return -errno;
	}
	struct timeval timeout = { .tv_usec = DIAG_TIMEOUT_MS * 1000 };
	setsockopt(nl, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
	struct {
		struct nlmsghdr header;
		struct inet_diag_req_v2 req;
	} message = {
		.header = {
			.nlmsg_len = sizeof(message),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_REQUEST, /* no dump: one exact socket */
			.nlmsg_seq = 1,
		},
		.req = *req,
	};
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	int result = -EIO;
	if (sendto(nl, &message, sizeof(message), 0, (struct sockaddr *)&kernel,
			sizeof(kernel)) != (ssize_t)sizeof(message)) {
		result = -errno;
		goto out;
	}
	/* Aligned for the headers in it. */
	uint32_t buf[2048];
	ssize_t n = recv(nl, buf, sizeof(buf), 0);
	if (n < 0) {
		result = -errno;
		goto out;
	}
	for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
			h = NLMSG_NEXT(h, n)) {
		if (h->nlmsg_seq != 1) {
			continue;
		}
		if (h->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *err = NLMSG_DATA(h);
			result = h->nlmsg_len >= NLMSG_LENGTH(sizeof(*err)) && err->error < 0 ?
				err->error : -EIO;
			goto out;
		}
		if (h->nlmsg_type == SOCK_DIAG_BY_FAMILY &&
				h->nlmsg_len >= NLMSG_LENGTH(sizeof(struct inet_diag_msg))) {
			const struct inet_diag_msg *msg = NLMSG_DATA(h);
			/*
			 * A socket that no file holds any more (closed by its process,
			 * in FIN_WAIT or TIME_WAIT) is reported as root's, inode 0: its
			 * owner is gone, and its bytes may still be waiting for us.
			 */
			if (msg->idiag_inode == 0) {
				result = -ENOTCONN;
				goto out;
			}
			*uid = msg->idiag_uid;
			result = 0;
			goto out;
		}
	}
out:
	close(nl);
	return result;
}

static int owner_tcp(int fd, uid_t *uid) {
	struct sockaddr_storage local, peer;
	socklen_t local_len = sizeof(local), peer_len = sizeof(peer);
	if (getsockname(fd, (struct sockaddr *)&local, &local_len) < 0 ||
			getpeername(fd, (struct sockaddr *)&peer, &peer_len) < 0) {
		return -errno;
	}
	struct inet_diag_req_v2 req = {
		.sdiag_protocol = IPPROTO_TCP,
		.idiag_states = ~0u,
		.id.idiag_cookie = { INET_DIAG_NOCOOKIE, INET_DIAG_NOCOOKIE },
	};
	if (!describe_peer_socket(&local, &peer, &req)) {
		return -EAFNOSUPPORT;
	}
	return diag_uid(&req, uid);
}

int peer_owner_uid(int fd, uid_t *uid) {
	struct sockaddr_storage local;
	socklen_t len = sizeof(local);
	if (getsockname(fd, (struct sockaddr *)&local, &len) < 0) {
		return -errno;
	}
	switch (local.ss_family) {
	case AF_UNIX:
		return owner_unix(fd, uid);
	case AF_INET:
	case AF_INET6:
		return owner_tcp(fd, uid);
	}
	return -EAFNOSUPPORT;
}

bool peer_owner_is_self(int fd, uid_t *uid, char *why, size_t why_size) {
	uid_t self = geteuid();
	*uid = (uid_t)-1;
	int rc = peer_owner_uid(fd, uid);
	if (rc < 0) {
		*uid = (uid_t)-1;
		snprintf(why, why_size, "which user it comes from cannot be found (%s), and "
			"only uid %u, the session's user, may connect",
			rc == -ENOTCONN ? "its end was closed" : strerror(-rc), (unsigned)self);
		return false;
	}
	if (*uid != self) {
		snprintf(why, why_size, "it comes from uid %u, not uid %u, the session's user",
			(unsigned)*uid, (unsigned)self);
		return false;
	}
	return true;
}
