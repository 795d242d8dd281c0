/* SPDX-License-Identifier: MIT */
#include <netdb.h>
#include <sys/socket.h>
#include "common/peer_address.h"

enum peer_address_kind peer_address(int fd, char *host, size_t size) {
	struct sockaddr_storage addr;
	socklen_t len = sizeof(addr);
	if (getpeername(fd, (struct sockaddr *)&addr, &len) < 0) {
		return PEER_ADDRESS_NONE;
	}
	if (addr.ss_family == AF_UNIX) {
		return PEER_ADDRESS_UNIX;
	}
	if (getnameinfo((struct sockaddr *)&addr, len, host, size, NULL, 0,
			NI_NUMERICHOST) != 0) {
		return PEER_ADDRESS_NONE;
	}
	return PEER_ADDRESS_NUMERIC;
}
