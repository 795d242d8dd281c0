/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for which web requests the VNC port answers: the Host a
 * request names (against DNS rebinding) and the Origin of a WebSocket
 * upgrade (against other web pages).
 */

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>
#include "remote/vnc/vnc_http_origin.h"
#include "expect.h"

static const char *const hosts[] = { "localhost", "127.0.0.1", "[::1]", "myhost" };
static const char *const origins[] = { "https://app.example:443" };

/* This machine's other addresses, as getifaddrs would give them. */
static bool is_local_address(const char *host, void *data) {
	(*(int *)data)++;
	return strcmp(host, "192.0.2.7") == 0;
}

static int check(bool tls, bool upgrade, const char *headers, char *why, size_t why_size) {
	int asked = 0;
	struct vnc_http_site site = {
		.tls = tls,
		.upgrade = upgrade,
		.hosts = hosts,
		.n_hosts = sizeof(hosts) / sizeof(hosts[0]),
		.origins = origins,
		.n_origins = sizeof(origins) / sizeof(origins[0]),
		.is_local_address = is_local_address,
		.data = &asked,
	};
	char request[1024];
	snprintf(request, sizeof(request), "GET /websockify HTTP/1.1\r\n%s"
		"Upgrade: websocket\r\nConnection: Upgrade\r\n\r\n", headers);
	why[0] = '\0';
	return vnc_http_check(request, &site, why, why_size);
}

static void test_requests(void) {
	static const struct {
		bool tls, upgrade;
		const char *headers;
		int status;
	} cases[] = {
		/* Same origin: noVNC from http://127.0.0.1:5900/vnc.html. */
		{ false, true, "Host: 127.0.0.1:5900\r\nOrigin: http://127.0.0.1:5900\r\n", 0 },
		{ false, true, "host:127.0.0.1:5900\r\norigin:   http://127.0.0.1:5900  \r\n", 0 },
		/* Other port, other scheme. */
		{ false, true, "Host: 127.0.0.1:5900\r\nOrigin: http://127.0.0.1:8080\r\n", 403 },
		{ false, true, "Host: 127.0.0.1:5900\r\nOrigin: https://127.0.0.1:5900\r\n", 403 },
		{ false, true, "Host: 127.0.0.1:5900\r\nOrigin: ws://127.0.0.1:5900\r\n", 403 },
		/* Over TLS: an https page, or oriel's own http page opening wss. */
		{ true, true, "Host: localhost:5900\r\nOrigin: https://localhost:5900\r\n", 0 },
		{ true, true, "Host: localhost:5900\r\nOrigin: http://localhost:5900\r\n", 0 },
		{ true, true, "Host: localhost:5900\r\nOrigin: https://localhost:5901\r\n", 403 },
		/* Default ports: a Host without one has the connection's. */
		{ false, true, "Host: 127.0.0.1\r\nOrigin: http://127.0.0.1\r\n", 0 },
		{ false, true, "Host: 127.0.0.1\r\nOrigin: http://127.0.0.1:80\r\n", 0 },
		{ false, true, "Host: 127.0.0.1:80\r\nOrigin: http://127.0.0.1\r\n", 0 },
		{ true, true, "Host: localhost\r\nOrigin: https://localhost\r\n", 0 },
		{ true, true, "Host: localhost\r\nOrigin: http://localhost\r\n", 403 },
		/* Evil, null and malformed origins. */
		{ false, true, "Host: 127.0.0.1:5900\r\nOrigin: http://evil.example\r\n", 403 },
		{ false, true, "Host: 127.0.0.1:5900\r\nOrigin: null\r\n", 403 },
		{ false, true, "Host: 127.0.0.1:5900\r\nOrigin: http://127.0.0.1:5900/x\r\n", 403 },
		{ false, true, "Host: 127.0.0.1:5900\r\nOrigin: http://a@127.0.0.1:5900\r\n", 403 },
		{ false, true, "Host: 127.0.0.1:5900\r\n"
			"Origin: http://127.0.0.1:5900 http://evil.example\r\n", 403 },
		{ false, true, "Host: 127.0.0.1:5900\r\nOrigin:\r\n", 403 },
		/* Allowed origins, in any spelling of the same origin. */
		{ false, true, "Host: 127.0.0.1:5900\r\nOrigin: https://app.example\r\n", 0 },
		{ false, true, "Host: 127.0.0.1:5900\r\nOrigin: https://APP.example.:443\r\n", 0 },
		{ false, true, "Host: 127.0.0.1:5900\r\nOrigin: http://app.example\r\n", 403 },
		{ false, true, "Host: 127.0.0.1:5900\r\nOrigin: https://app.example:8443\r\n", 403 },
		/* IPv6 hosts, written any way. */
		{ false, true, "Host: [::1]:5900\r\nOrigin: http://[::1]:5900\r\n", 0 },
		{ false, true, "Host: [0:0::1]:5900\r\nOrigin: http://[::1]:5900\r\n", 0 },
		{ false, true, "Host: [::2]:5900\r\n", 421 },
		{ false, true, "Host: [::1\r\n", 400 },
		{ false, true, "Host: [fe80::1%eth0]:5900\r\n", 400 },
		{ false, true, "Host: ::1\r\n", 400 },
		/* Upper case and the trailing dot name the same host. */
		{ false, true, "Host: LOCALHOST:5900\r\nOrigin: http://localhost:5900\r\n", 0 },
		{ false, true, "Host: localhost.:5900\r\nOrigin: http://localhost.:5900\r\n", 0 },
		{ false, true, "Host: MyHost.:5900\r\nOrigin: http://myhost:5900\r\n", 0 },
		/* The port in Host is not checked: tunnels and proxies change it. */
		{ false, true, "Host: localhost:6000\r\nOrigin: http://localhost:6000\r\n", 0 },
		/* DNS rebinding: another name, with an origin of its own or none. */
		{ false, true, "Host: attacker.example:5900\r\n"
			"Origin: http://attacker.example:5900\r\n", 421 },
		{ false, true, "Host: attacker.example:5900\r\n", 421 },
		{ false, false, "Host: attacker.example:5900\r\n", 421 },
		{ false, true, "Host: localhost.attacker.example\r\n", 421 },
		{ false, true, "Host: 127.0.0.1.attacker.example\r\n", 421 },
		/* Another of this machine's addresses. */
		{ false, true, "Host: 192.0.2.7:5900\r\nOrigin: http://192.0.2.7:5900\r\n", 0 },
		{ false, true, "Host: 192.0.2.8:5900\r\n", 421 },
		/* Userinfo and garbage in Host. */
		{ false, true, "Host: user@127.0.0.1:5900\r\n", 400 },
		{ false, true, "Host: user:pw@127.0.0.1\r\n", 400 },
		{ false, true, "Host: 127.0.0.1:5900/x\r\n", 400 },
		{ false, true, "Host: 127.0.0.1:\r\n", 400 },
		{ false, true, "Host: 127.0.0.1:0\r\n", 400 },
		{ false, true, "Host: 127.0.0.1:65536\r\n", 400 },
		{ false, true, "Host: 127.0.0.1:59x0\r\n", 400 },
		{ false, true, "Host: local host\r\n", 400 },
		{ false, true, "Host: local%68ost\r\n", 400 },
		{ false, true, "Host: ..\r\n", 400 },
		{ false, true, "Host: \r\n", 400 },
		{ false, true, "Host: 127.0.0.1\r\nHost: attacker.example\r\n", 400 },
		{ false, true, "Host: 127.0.0.1\r\nOrigin: http://127.0.0.1\r\n"
			"Origin: http://127.0.0.1\r\n", 400 },
		{ false, true, "Host: 127.0.0.1\r\n Host: attacker.example\r\n", 400 },
		{ false, true, "Host : attacker.example\r\n", 400 },
		{ false, true, "no colon\r\n", 400 },
		/* Missing Host: non-browser clients pass, an origin needs allowing. */
		{ false, true, "", 0 },
		{ false, false, "", 0 },
		{ false, true, "Origin: http://127.0.0.1:5900\r\n", 403 },
		{ false, true, "Origin: https://app.example\r\n", 0 },
		/* Without Origin (not a browser), and pages, no origin is checked. */
		{ false, true, "Host: 127.0.0.1:5900\r\n", 0 },
		{ false, false, "Host: 127.0.0.1:5900\r\nOrigin: http://evil.example\r\n", 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char why[384];
		int status = check(cases[i].tls, cases[i].upgrade, cases[i].headers, why,
			sizeof(why));
		EXPECT(status == cases[i].status, "%s%s%s: %d, not %d (%s)",
			cases[i].tls ? "[tls] " : "", cases[i].upgrade ? "" : "[page] ",
			cases[i].headers, status, cases[i].status, why);
		EXPECT((status == 0) == (why[0] == '\0'), "why for %d: '%s'", status, why);
	}
}

static void test_why(void) {
	char why[384];
	check(false, true, "Host: 127.0.0.1:5900\r\nOrigin: http://Evil.example\r\n", why,
		sizeof(why));
	EXPECT(strstr(why, "http://evil.example:80") && strstr(why, "--vnc-allow-origin"),
		"%s", why);
	check(false, true, "Host: attacker.example:5900\r\n", why, sizeof(why));
	EXPECT(strstr(why, "attacker.example") && strstr(why, "--vnc-allow-host"), "%s", why);
	/* What the peer sent reaches the log only once it is known to be clean. */
	check(false, true, "Host: 127.0.0.1\r\nOrigin: http://a\x1b[31m\r\n", why, sizeof(why));
	EXPECT(!strchr(why, '\x1b'), "%s", why);
	/* A small buffer is filled, not overrun. */
	char small[8];
	check(false, true, "Host: attacker.example\r\n", small, sizeof(small));
	EXPECT(strlen(small) == 7, "%s", small);
}

static void test_local_address_last(void) {
	int asked = 0;
	struct vnc_http_site site = {
		.hosts = hosts, .n_hosts = 4, .is_local_address = is_local_address, .data = &asked,
	};
	char why[384];
	EXPECT(vnc_http_check("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n", &site, why,
		sizeof(why)) == 0 && asked == 0, "a known name asks for no addresses: %d", asked);
	EXPECT(vnc_http_check("GET / HTTP/1.1\r\nHost: 192.0.2.7\r\n\r\n", &site, why,
		sizeof(why)) == 0 && asked == 1, "another address: %d", asked);
}

static void test_normalise(void) {
	static const struct {
		const char *text, *normal; /* normal NULL: refused */
	} hosts_in[] = {
		{ "Example.ORG.", "example.org" },
		{ "::1", "[::1]" },
		{ "[::1]", "[::1]" },
		{ "2001:DB8:0:0::7", "[2001:db8::7]" },
		{ "192.0.2.7", "192.0.2.7" },
		{ "vnc_host-1", "vnc_host-1" },
		{ "example.org:80", NULL },
		{ "", NULL },
		{ ".", NULL },
		{ "a..b", NULL },
		{ "a..", NULL },
		{ "http://example.org", NULL },
		{ "*.example.org", NULL },
	}, origins_in[] = {
		{ "https://App.Example/", "https://app.example:443" },
		{ "http://app.example", "http://app.example:80" },
		{ "HTTP://app.example:8080", "http://app.example:8080" },
		{ "https://[::1]:5900", "https://[::1]:5900" },
		{ "https://app.example/path", NULL },
		{ "https://app.example//", NULL },
		{ "app.example", NULL },
		{ "ftp://app.example", NULL },
		{ "null", NULL },
		{ "*", NULL },
		{ "https://", NULL },
	};
	for (size_t i = 0; i < sizeof(hosts_in) / sizeof(hosts_in[0]); i++) {
		char out[VNC_HTTP_HOST_MAX];
		bool ok = vnc_http_normalise_host(hosts_in[i].text, out);
		EXPECT(hosts_in[i].normal ? ok && strcmp(out, hosts_in[i].normal) == 0 : !ok,
			"host %s: %s", hosts_in[i].text, ok ? out : "(refused)");
	}
	for (size_t i = 0; i < sizeof(origins_in) / sizeof(origins_in[0]); i++) {
		char out[VNC_HTTP_ORIGIN_MAX];
		bool ok = vnc_http_normalise_origin(origins_in[i].text, out);
		EXPECT(origins_in[i].normal ? ok && strcmp(out, origins_in[i].normal) == 0 : !ok,
			"origin %s: %s", origins_in[i].text, ok ? out : "(refused)");
	}
	/* A name as long as a DNS name may be fits; one longer is refused. */
	char name[VNC_HTTP_HOST_MAX + 1], out[VNC_HTTP_HOST_MAX];
	memset(name, 'a', sizeof(name));
	name[VNC_HTTP_HOST_MAX - 1] = '\0';
	EXPECT(vnc_http_normalise_host(name, out) && strlen(out) == VNC_HTTP_HOST_MAX - 1,
		"255 characters");
	name[VNC_HTTP_HOST_MAX - 1] = 'a';
	name[VNC_HTTP_HOST_MAX] = '\0';
	EXPECT(!vnc_http_normalise_host(name, out), "256 characters");
}

static void test_header(void) {
	const char *value;
	size_t len;
	const char *request = "GET / HTTP/1.1\r\nX-Host: a\r\nHost:  b c \r\n\r\nHost: d\r\n";
	EXPECT(vnc_http_header(request, "Host", &value, &len) == 1 && len == 3 &&
		memcmp(value, "b c", 3) == 0, "Host after X-Host, before the body");
	EXPECT(vnc_http_header("GET / HTTP/1.0\n\n", "Host", &value, &len) == 0, "none");
	EXPECT(vnc_http_header("GET / HTTP/1.0", "Host", &value, &len) == 0, "no lines");
	EXPECT(vnc_http_header("GET / HTTP/1.1\nHost: a\nhost: a\n\n", "Host", &value,
		&len) == -1, "twice");
	/* The request line is no header, even if it looks like one. */
	EXPECT(vnc_http_header("Host: a\r\n\r\n", "Host", &value, &len) == 0, "request line");
}

static void test_address_host(void) {
	char host[VNC_HTTP_HOST_MAX];
	struct sockaddr_in in4 = { .sin_family = AF_INET };
	inet_pton(AF_INET, "192.0.2.7", &in4.sin_addr);
	EXPECT(vnc_http_address_host((struct sockaddr *)&in4, host) &&
		strcmp(host, "192.0.2.7") == 0, "IPv4: %s", host);
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6 };
	inet_pton(AF_INET6, "2001:DB8:0:0::1", &in6.sin6_addr);
	EXPECT(vnc_http_address_host((struct sockaddr *)&in6, host) &&
		strcmp(host, "[2001:db8::1]") == 0, "IPv6: %s", host);
	inet_pton(AF_INET6, "::ffff:127.0.0.1", &in6.sin6_addr);
	EXPECT(vnc_http_address_host((struct sockaddr *)&in6, host) &&
		strcmp(host, "127.0.0.1") == 0, "IPv4-mapped: %s", host);
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	EXPECT(!vnc_http_address_host((struct sockaddr *)&un, host), "a Unix socket");
}

int main(void) {
	test_requests();
	test_why();
	test_local_address_last();
	test_normalise();
	test_header();
	test_address_host();
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("all passed\n");
	return 0;
}
