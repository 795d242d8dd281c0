/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_COMMON_PEER_ADDRESS_H
#define ORIEL_COMMON_PEER_ADDRESS_H

/* Who is at the other end of a socket, as the logs and the throttle name it. Pure. */

#include <stddef.h>

enum peer_address_kind {
	PEER_ADDRESS_NUMERIC, /* host holds its numeric address: "192.0.2.7", "::1" */
	PEER_ADDRESS_UNIX,    /* a Unix socket: no address; host is untouched */
	PEER_ADDRESS_NONE,    /* none to be had (the peer is gone, host too small): write your own */
};

/* The numeric address of the peer of socket fd, never a name looked up. */
enum peer_address_kind peer_address(int fd, char *host, size_t size);

#endif
