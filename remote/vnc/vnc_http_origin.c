/* SPDX-License-Identifier: MIT */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "remote/vnc/vnc_http_origin.h"

static bool is_space(char c) {
	return c == ' ' || c == '\t';
}

/* RFC 9110's tchar: what a header name is made of. */
static bool is_token_char(char c) {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		(c != '\0' && strchr("!#$%&'*+-.^_`|~", c));
}

int vnc_http_header(const char *request, const char *name, const char **value,
		size_t *len) {
	size_t name_len = strlen(name);
	int found = 0;
	const char *line = strchr(request, '\n'); /* after the request line */
	while (line && *++line) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);
		if (n > 0 && line[n - 1] == '\r') {
			n--;
		}
		if (n == 0) {
			break; /* the empty line: the headers end */
		}
		if (is_space(line[0])) {
			return -1; /* obsolete line folding */
		}
		const char *colon = memchr(line, ':', n);
		if (!colon || colon == line) {
			return -1;
		}
		for (const char *c = line; c < colon; c++) {
			if (!is_token_char(*c)) {
				return -1;
			}
		}
		if ((size_t)(colon - line) == name_len && strncasecmp(line, name, name_len) == 0) {
			if (found) {
				return -1;
			}
			const char *v = colon + 1, *v_end = line + n;
			while (v < v_end && is_space(*v)) {
				v++;
			}
			while (v_end > v && is_space(v_end[-1])) {
				v_end--;
			}
			*value = v;
			*len = (size_t)(v_end - v);
			found = 1;
		}
		line = end;
	}
	return found;
}

static bool is_name_char(char c) {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		c == '-' || c == '.' || c == '_';
}

/* An IPv6 address between brackets, written canonically with them. */
static bool parse_ipv6(const char *text, size_t len, char out[VNC_HTTP_HOST_MAX]) {
	char addr[INET6_ADDRSTRLEN];
	struct in6_addr in6;
	if (len == 0 || len >= sizeof(addr)) {
		return false;
	}
	memcpy(addr, text, len);
	addr[len] = '\0';
	/* inet_pton takes no zone ("%eth0"), which a Host may not carry either. */
	if (inet_pton(AF_INET6, addr, &in6) != 1 || !inet_ntop(AF_INET6, &in6, addr, sizeof(addr))) {
		return false;
	}
	snprintf(out, VNC_HTTP_HOST_MAX, "[%s]", addr);
	return true;
}

/* A DNS name or IPv4 address: lower case, without the trailing dot. */
static bool parse_name(const char *text, size_t len, char out[VNC_HTTP_HOST_MAX]) {
	if (len > 0 && text[len - 1] == '.') {
		len--; /* "example.com." names example.com */
	}
	if (len == 0 || len >= VNC_HTTP_HOST_MAX || text[len - 1] == '.') {
		return false;
	}
	for (size_t i = 0; i < len; i++) {
		char c = text[i];
		if (!is_name_char(c) || (c == '.' && (i == 0 || text[i - 1] == '.'))) {
			return false;
		}
		out[i] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
	}
	out[len] = '\0';
	return true;
}

static bool parse_port(const char *text, size_t len, int *port) {
	if (len == 0 || len > 5) {
		return false;
	}
	int v = 0;
	for (size_t i = 0; i < len; i++) {
		if (text[i] < '0' || text[i] > '9') {
			return false;
		}
		v = v * 10 + (text[i] - '0');
	}
	if (v < 1 || v > 65535) {
		return false;
	}
	*port = v;
	return true;
}

bool vnc_http_parse_authority(const char *text, size_t len, struct vnc_http_authority *out) {
	const char *host_end;
	out->port = -1;
	if (len > 0 && text[0] == '[') {
		host_end = memchr(text, ']', len);
		if (!host_end || !parse_ipv6(text + 1, (size_t)(host_end - text - 1), out->host)) {
			return false;
		}
		host_end++;
	} else {
		host_end = memchr(text, ':', len);
		if (!host_end) {
			host_end = text + len;
		}
		if (!parse_name(text, (size_t)(host_end - text), out->host)) {
			return false;
		}
	}
	size_t rest = len - (size_t)(host_end - text);
	if (rest == 0) {
		return true;
	}
	return host_end[0] == ':' && parse_port(host_end + 1, rest - 1, &out->port);
}

bool vnc_http_parse_origin(const char *text, size_t len, bool *https,
		struct vnc_http_authority *out) {
	size_t skip;
	if (len >= 7 && strncasecmp(text, "http://", 7) == 0) {
		*https = false;
		skip = 7;
	} else if (len >= 8 && strncasecmp(text, "https://", 8) == 0) {
		*https = true;
		skip = 8;
	} else {
		return false;
	}
	if (!vnc_http_parse_authority(text + skip, len - skip, out)) {
		return false;
	}
	if (out->port < 0) {
		out->port = *https ? 443 : 80;
	}
	return true;
}

bool vnc_http_normalise_host(const char *text, char out[VNC_HTTP_HOST_MAX]) {
	struct vnc_http_authority authority;
	size_t len = strlen(text);
	char bracketed[INET6_ADDRSTRLEN + 2];
	/* Options and getifaddrs may give an IPv6 address without brackets. */
	if (strchr(text, ':') && text[0] != '[' && len + 2 < sizeof(bracketed)) {
		snprintf(bracketed, sizeof(bracketed), "[%s]", text);
		text = bracketed;
		len += 2;
	}
	if (!vnc_http_parse_authority(text, len, &authority) || authority.port >= 0) {
		return false;
	}
	memcpy(out, authority.host, VNC_HTTP_HOST_MAX);
	return true;
}

bool vnc_http_address_host(const struct sockaddr *addr, char out[VNC_HTTP_HOST_MAX]) {
	char text[INET6_ADDRSTRLEN];
	const void *bytes;
	int family = addr->sa_family;
	if (family == AF_INET) {
		bytes = &((const struct sockaddr_in *)addr)->sin_addr;
	} else if (family == AF_INET6) {
		const struct in6_addr *in6 = &((const struct sockaddr_in6 *)addr)->sin6_addr;
		bytes = in6;
		if (IN6_IS_ADDR_V4MAPPED(in6)) {
			family = AF_INET;
			bytes = &in6->s6_addr[12];
		}
	} else {
		return false;
	}
	return inet_ntop(family, bytes, text, sizeof(text)) &&
		vnc_http_normalise_host(text, out);
}

static void format_origin(bool https, const struct vnc_http_authority *authority,
		char out[VNC_HTTP_ORIGIN_MAX]) {
	snprintf(out, VNC_HTTP_ORIGIN_MAX, "%s://%s:%d", https ? "https" : "http",
		authority->host, authority->port);
}

bool vnc_http_normalise_origin(const char *text, char out[VNC_HTTP_ORIGIN_MAX]) {
	struct vnc_http_authority authority;
	bool https;
	size_t len = strlen(text);
	if (len > 0 && text[len - 1] == '/') {
		len--;
	}
	if (!vnc_http_parse_origin(text, len, &https, &authority)) {
		return false;
	}
	format_origin(https, &authority, out);
	return true;
}

static bool host_known(const struct vnc_http_site *site, const char *host) {
	for (size_t i = 0; i < site->n_hosts; i++) {
		if (strcmp(site->hosts[i], host) == 0) {
			return true;
		}
	}
	return site->is_local_address && site->is_local_address(host, site->data);
}

static bool origin_allowed(const struct vnc_http_site *site, const char *origin) {
	for (size_t i = 0; i < site->n_origins; i++) {
		if (strcmp(site->origins[i], origin) == 0) {
			return true;
		}
	}
	return false;
}

/* The page this request came from is this server's own (see the header). */
static bool same_origin(const struct vnc_http_site *site, bool https,
		const struct vnc_http_authority *origin, const struct vnc_http_authority *host) {
	if (https && !site->tls) {
		return false; /* browsers let no https page open ws:// (mixed content) */
	}
	int port = host->port >= 0 ? host->port : (site->tls ? 443 : 80);
	return strcmp(origin->host, host->host) == 0 && origin->port == port;
}

int vnc_http_check(const char *request, const struct vnc_http_site *site, char *why,
		size_t why_size) {
	const char *value;
	size_t len;
	struct vnc_http_authority host;
	int has_host = vnc_http_header(request, "Host", &value, &len);
	if (has_host < 0) {
		snprintf(why, why_size, "a malformed header, or two Host headers");
		return 400;
	}
	if (has_host && !vnc_http_parse_authority(value, len, &host)) {
		snprintf(why, why_size, "its Host header is not HOST[:PORT]");
		return 400;
	}
	if (has_host && !host_known(site, host.host)) {
		snprintf(why, why_size, "its Host header names %s, not this server "
			"(DNS rebinding?); --vnc-allow-host allows a name", host.host);
		return 421;
	}
	if (!site->upgrade) {
		return 0;
	}
	int has_origin = vnc_http_header(request, "Origin", &value, &len);
	if (has_origin < 0) {
		snprintf(why, why_size, "a malformed header, or two Origin headers");
		return 400;
	}
	if (!has_origin) {
		return 0; /* not a browser */
	}
	bool https;
	struct vnc_http_authority origin;
	if (len == 4 && memcmp(value, "null", 4) == 0) {
		snprintf(why, why_size, "a WebSocket from a page whose origin is null "
			"(a sandboxed page or a local file)");
		return 403;
	}
	if (!vnc_http_parse_origin(value, len, &https, &origin)) {
		snprintf(why, why_size, "a WebSocket with a malformed Origin header");
		return 403;
	}
	char normal[VNC_HTTP_ORIGIN_MAX];
	format_origin(https, &origin, normal);
	if (origin_allowed(site, normal) || (has_host && same_origin(site, https, &origin, &host))) {
		return 0;
	}
	snprintf(why, why_size, "a WebSocket from the page %s, not this server's own; "
		"--vnc-allow-origin allows an origin", normal);
	return 403;
}
