/* SPDX-License-Identifier: MIT */
#ifndef ORIEL_REMOTE_VNC_VNC_HTTP_ORIGIN_H
#define ORIEL_REMOTE_VNC_VNC_HTTP_ORIGIN_H

/*
 * Which web pages the VNC port answers. A request's Host must name this
 * server (DNS rebinding makes a browser send any other name to it), and a
 * WebSocket upgrade that carries an Origin must come from this server's
 * own page or from an origin allowed by name. Pure: no wlroots, no
 * system state beyond what the caller passes in.
 *
 * Names and origins are compared in one normal form: host names in lower
 * case without a trailing dot, IPv6 addresses canonical and in brackets,
 * origins as SCHEME://HOST:PORT with the port always written.
 */

#include <stdbool.h>
#include <stddef.h>

struct sockaddr;

/* A normal host, with room for a bracketed IPv6 address or a DNS name. */
#define VNC_HTTP_HOST_MAX 256
/* A normal origin: "https://" HOST ":65535". */
#define VNC_HTTP_ORIGIN_MAX (VNC_HTTP_HOST_MAX + 16)

struct vnc_http_authority {
	char host[VNC_HTTP_HOST_MAX]; /* normal form */
	int port;                     /* -1: none given */
};

/*
 * The value of header name in a NUL-terminated request (the headers end
 * at the first empty line), trimmed of spaces: 1 with *value and *len set,
 * 0 when absent, -1 when the name comes twice or any header line is
 * malformed (no colon, space in the name, a folded line).
 */
int vnc_http_header(const char *request, const char *name, const char **value,
	size_t *len);

/* HOST[:PORT] as in a Host header; false for userinfo, paths, bad ports or characters. */
bool vnc_http_parse_authority(const char *text, size_t len, struct vnc_http_authority *out);

/* SCHEME://HOST[:PORT] with SCHEME http or https; out->port gets the scheme's default. */
bool vnc_http_parse_origin(const char *text, size_t len, bool *https,
	struct vnc_http_authority *out);

/* A host name or address as given in options, in normal form; false if it is none. */
bool vnc_http_normalise_host(const char *text, char out[VNC_HTTP_HOST_MAX]);
/* A socket address as a host in normal form; an IPv4-mapped one as IPv4. */
bool vnc_http_address_host(const struct sockaddr *addr, char out[VNC_HTTP_HOST_MAX]);
/* An origin as given in options (a trailing "/" allowed), in normal form. */
bool vnc_http_normalise_origin(const char *text, char out[VNC_HTTP_ORIGIN_MAX]);

/* What a request is checked against. */
struct vnc_http_site {
	bool tls;     /* the connection is TLS (wss) */
	bool upgrade; /* a WebSocket upgrade, not a page */
	/* Names and addresses of this server, and allowed ones, in normal form. */
	const char *const *hosts;
	size_t n_hosts;
	/* Origins allowed besides this server's own page, in normal form. */
	const char *const *origins;
	size_t n_origins;
	/* Optional: whether a host (normal form) is one of this machine's addresses. */
	bool (*is_local_address)(const char *host, void *data);
	void *data;
};

/*
 * Whether the request may be answered: 0, or the HTTP status to refuse it
 * with (400 malformed, 421 a Host that names another server, 403 a
 * foreign origin), with a sentence for the log and the answer in why.
 *
 * A request without Host (HTTP/1.0, non-browser clients) passes the Host
 * check, since browsers always send one; the port in Host is not checked,
 * since tunnels and proxies change it and DNS rebinding changes the name.
 * This server's own page is http://HOST:PORT of the Host header, or over
 * TLS also https://HOST:PORT: oriel serves its pages over plain HTTP on
 * the same port, and noVNC's page then opens wss.
 */
int vnc_http_check(const char *request, const struct vnc_http_site *site, char *why,
	size_t why_size);

#endif
