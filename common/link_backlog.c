/* SPDX-License-Identifier: MIT */
#include <linux/sockios.h>
#include <linux/tcp.h> /* glibc's struct tcp_info lacks tcpi_notsent_bytes and tcpi_min_rtt */
#include <netinet/in.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include "common/link_backlog.h"

bool link_backlog_add(int fd, struct link_backlog *backlog) {
	struct tcp_info info = { 0 };
	socklen_t len = sizeof(info);
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) == 0 &&
			len >= offsetof(struct tcp_info, tcpi_min_rtt) + sizeof(info.tcpi_min_rtt)) {
		backlog->waiting += info.tcpi_notsent_bytes;
		uint32_t delay = info.tcpi_min_rtt && info.tcpi_rtt > info.tcpi_min_rtt ?
			info.tcpi_rtt - info.tcpi_min_rtt : 0;
		if (delay > backlog->delay_us) {
			backlog->delay_us = delay;
		}
		return true;
	}
	/* A Unix socket: what the peer has not read yet. */
	int queued = 0;
	if (ioctl(fd, SIOCOUTQ, &queued) < 0 || queued < 0) {
		return false;
	}
	backlog->waiting += (size_t)queued;
	return true;
}
