/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for the listen-address parser (common/address_spec.c) that
 * oriel's --vnc and --rdp, its config and oriel-gateway's listen keys
 * share: the addresses people write, the ports at and beyond the edges,
 * and which addresses count as loopback (they need no accounts).
 */

#include <stdio.h>
#include <string.h>
#include "common/address_spec.h"
#include "expect.h"

static void test_forms(void) {
	struct address_spec address;
	EXPECT(address_spec_parse("5900", &address) && address.port == 5900 &&
		strcmp(address.host, "127.0.0.1") == 0, "default address");
	EXPECT(address_spec_parse("[::1]:5901", &address) &&
		strcmp(address.host, "::1") == 0 && address.port == 5901, "ipv6");
	EXPECT(address_spec_parse("vnc-1.example.org:443", &address) &&
		strcmp(address.host, "vnc-1.example.org") == 0 && address.port == 443, "name");
	EXPECT(!address_spec_parse("", &address), "empty");
	EXPECT(!address_spec_parse(NULL, &address), "none");
	EXPECT(!address_spec_parse("[]:1", &address), "empty brackets");
	EXPECT(!address_spec_parse("[zz]:1", &address), "bad ipv6");
	EXPECT(!address_spec_parse("[::1]5900", &address), "no colon after brackets");
	EXPECT(!address_spec_parse("::1:5900", &address), "bare ipv6");
	EXPECT(!address_spec_parse(":5900", &address), "empty host");
	EXPECT(!address_spec_parse("host_name:5900", &address), "underscore in a host");
	EXPECT(!address_spec_parse("5900x", &address), "junk after port");
}

static void test_ports(void) {
	struct address_spec address;
	EXPECT(address_spec_parse("1", &address) && address.port == 1, "port 1");
	EXPECT(address_spec_parse("127.0.0.1:65535", &address) && address.port == 65535,
		"port 65535");
	EXPECT(address_spec_parse("05900", &address) && address.port == 5900, "leading zero");
	EXPECT(!address_spec_parse("0", &address), "port 0");
	EXPECT(!address_spec_parse("65536", &address), "port 65536");
	EXPECT(!address_spec_parse("99999999999999999999", &address), "a long port");
	EXPECT(!address_spec_parse("127.0.0.1:", &address), "no port");
	EXPECT(!address_spec_parse("+5900", &address), "a sign");
	EXPECT(!address_spec_parse("[::1]:", &address), "ipv6 without a port");
}

static void test_loopback(void) {
	struct address_spec address;
	EXPECT(address_spec_parse("[::1]:5901", &address) &&
		address_spec_is_loopback(&address), "::1 is loopback");
	EXPECT(address_spec_parse("127.1.2.3:1", &address) &&
		address_spec_is_loopback(&address), "127/8 is loopback");
	EXPECT(address_spec_parse("5900", &address) &&
		address_spec_is_loopback(&address), "no address is loopback");
	EXPECT(address_spec_parse("localhost:5900", &address) &&
		address_spec_is_loopback(&address), "localhost");
	EXPECT(address_spec_parse("0.0.0.0:5900", &address) &&
		!address_spec_is_loopback(&address), "0.0.0.0 is not loopback");
	EXPECT(address_spec_parse("128.0.0.1:5900", &address) &&
		!address_spec_is_loopback(&address), "128.0.0.1 is not loopback");
	EXPECT(address_spec_parse("[::]:5900", &address) &&
		!address_spec_is_loopback(&address), ":: is not loopback");
	EXPECT(address_spec_parse("[::ffff:127.0.0.1]:5900", &address) &&
		address_spec_is_loopback(&address), "v4-mapped loopback");
	EXPECT(address_spec_parse("[::ffff:10.0.0.1]:5900", &address) &&
		!address_spec_is_loopback(&address), "v4-mapped elsewhere");
	EXPECT(address_spec_parse("example.org:5900", &address) &&
		!address_spec_is_loopback(&address), "names are not loopback");
	EXPECT(address_spec_parse("localhost.example.org:5900", &address) &&
		!address_spec_is_loopback(&address), "only localhost itself");
}

int main(void) {
	test_forms();
	test_ports();
	test_loopback();
	if (failures) {
		fprintf(stderr, "test-address-spec: %d check(s) failed\n", failures);
		return 1;
	}
	printf("test-address-spec: all checks passed\n");
	return 0;
}
