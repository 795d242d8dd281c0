/* SPDX-License-Identifier: MIT */
#include <arpa/inet.h>
#include <string.h>
#include "common/address_spec.h"

/* 1..65535 in decimal digits and nothing else; 0 otherwise. */
static int parse_port(const char *s) {
	int port = 0;
	if (!*s) {
		return 0;
	}
	for (; *s; s++) {
		if (*s < '0' || *s > '9') {
			return 0;
		}
		port = port * 10 + (*s - '0');
		if (port > 65535) {
			return 0;
		}
	}
	return port;
}

/* Of a host name or an IPv4 address. */
static bool is_host_char(char c) {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		c == '.' || c == '-';
}

bool address_spec_parse(const char *s, struct address_spec *address) {
	if (!s || !s[0]) {
		return false;
	}
	const char *port;
	size_t host_len;
	const char *host = s;
	if (s[0] == '[') {
		const char *close = strchr(s, ']');
		if (!close || close[1] != ':') {
			return false;
		}
		host = s + 1;
		host_len = (size_t)(close - host);
		port = close + 2;
		struct in6_addr a6;
		char tmp[INET6_ADDRSTRLEN + 1];
		if (host_len == 0 || host_len >= sizeof(tmp)) {
			return false;
		}
		memcpy(tmp, host, host_len);
		tmp[host_len] = '\0';
		if (inet_pton(AF_INET6, tmp, &a6) != 1) {
			return false;
		}
	} else {
		const char *colon = strrchr(s, ':');
		if (colon) {
			if (memchr(s, ':', (size_t)(colon - s))) {
				return false; /* bare IPv6 needs brackets */
			}
			host_len = (size_t)(colon - s);
			port = colon + 1;
			if (host_len == 0) {
				return false;
			}
		} else {
			host = "127.0.0.1";
			host_len = strlen(host);
			port = s;
		}
		for (size_t i = 0; i < host_len; i++) {
			if (!is_host_char(host[i])) {
				return false;
			}
		}
	}
	if (host_len >= sizeof(address->host)) {
		return false;
	}
	int v = parse_port(port);
	if (v < 1) {
		return false;
	}
	memcpy(address->host, host, host_len);
	address->host[host_len] = '\0';
	address->port = v;
	return true;
}

bool address_spec_is_loopback(const struct address_spec *address) {
	struct in_addr a4;
	struct in6_addr a6;
	if (strcmp(address->host, "localhost") == 0) {
		return true;
	}
	if (inet_pton(AF_INET, address->host, &a4) == 1) {
		return (ntohl(a4.s_addr) >> 24) == 127;
	}
	if (inet_pton(AF_INET6, address->host, &a6) == 1) {
		if (IN6_IS_ADDR_LOOPBACK(&a6)) {
			return true;
		}
		return IN6_IS_ADDR_V4MAPPED(&a6) && a6.s6_addr[12] == 127;
	}
	return false;
}
