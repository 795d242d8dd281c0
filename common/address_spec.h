/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_COMMON_ADDRESS_SPEC_H
#define ORIEL_COMMON_ADDRESS_SPEC_H

/*
 * A listen address as people write it: "PORT", "ADDR:PORT" or
 * "[IPV6]:PORT", for oriel's --vnc and --rdp and oriel-gateway's listen
 * keys. Names are kept as written, never resolved here.
 */

#include <stdbool.h>

struct address_spec {
	char host[256]; /* "127.0.0.1" when the string has no address */
	int port;       /* 1..65535 */
};

/* "[ADDR:]PORT" with IPv6 in brackets. */
bool address_spec_parse(const char *s, struct address_spec *address);
/* localhost, 127.0.0.0/8, ::1 and ::ffff:127.x; names are not resolved. */
bool address_spec_is_loopback(const struct address_spec *address);

#endif
