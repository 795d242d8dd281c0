/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <sys/socket.h>
#include "common/io_all.h"

static bool io_all(int fd, uint8_t *buf, size_t len, bool out, io_all_wait_fn wait,
		void *data) {
	size_t done = 0;
	while (done < len) {
		ssize_t n = out ? send(fd, buf + done, len - done, MSG_NOSIGNAL) :
			recv(fd, buf + done, len - done, 0);
		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (!wait(data, fd, out ? POLLOUT : POLLIN)) {
				return false;
			}
			continue;
		}
		if (n <= 0) {
			return false;
		}
		done += (size_t)n;
	}
	return true;
}

bool io_send_all(int fd, const void *buf, size_t len, io_all_wait_fn wait, void *data) {
	return io_all(fd, (uint8_t *)buf, len, true, wait, data);
}

bool io_recv_all(int fd, void *buf, size_t len, io_all_wait_fn wait, void *data) {
	return io_all(fd, buf, len, false, wait, data);
}
